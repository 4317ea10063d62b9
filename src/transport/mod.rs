//! Transports: the async byte movers beneath the players. They know nothing of Go.

pub mod process;
