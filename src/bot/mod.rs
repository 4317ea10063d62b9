//! The built-in engine, used by the demo, by tests and as the default opponent.

pub mod engine;
pub mod gtp;
pub mod line;

pub use engine::Engine;
