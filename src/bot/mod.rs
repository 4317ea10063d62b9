//! The built-in engine, used by the demo, by tests and as the default opponent.

pub mod arena;
pub mod engine;
pub mod gtp;
pub mod line;

use std::time::Duration;

pub use engine::Engine;

/// How the built-in engine plays, beyond its seed: `goref bot --playouts N
/// --think-ms MS`, or `bot:SEED,playouts=N,think=DURATION` as a player.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Settings {
    /// Random playouts per move; 0 plays the fast random policy.
    pub playouts: u32,
    /// The least time between a move request and the answer: it computes
    /// first, then waits out the rest.
    pub think: Duration,
}
