//! The full-screen app: the async shell around the pure screen.
//!
//! `ui` draws a view and decides what keys mean; this module owns the
//! terminal (raw mode, the alternate screen, restoring it on any exit), reads
//! the keys, runs the game's driver beside the screen and carries the
//! operator's commands to it. A live game is [`live::run`]; a recorded one
//! is [`replay::run`].

pub mod input;
pub mod live;
pub mod terminal;

pub use live::{Ending, ScreenOptions};
