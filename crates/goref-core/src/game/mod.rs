//! Pure Go: everything about the game itself, with no IO and no clock reads.

pub mod board;
pub mod clock;
pub mod coord;
pub mod rules;
pub mod score;
pub mod sgf;

pub use coord::{Color, CoordError, Move, Point, MAX_SIZE, MIN_SIZE};
