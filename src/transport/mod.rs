//! Transports: the async byte movers beneath the players. They know nothing of Go.

pub mod line;
pub mod line_spec;
pub mod paced;
pub mod process;
pub mod pty;
pub mod serial;
pub mod tcp;
pub mod tls;
