//! Every position of a game, one per ply, indexed by its hash: what the ko
//! and superko rules look back on.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::game::coord::Color;

/// Passes Zobrist hashes through unchanged: they are already uniformly random.
#[derive(Default)]
pub(super) struct PassThrough(u64);

impl Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

#[derive(Clone)]
pub(super) struct Position {
    pub(super) hash: u64,
    /// The player to move in this position (for situational superko).
    pub(super) to_move: Color,
    pub(super) stones: Box<[u8]>,
}

/// Every position of the game, one per ply, starting with the initial (or
/// setup) position, and an index from stone hash to the positions having it.
#[derive(Clone, Default)]
pub(super) struct History {
    pub(super) positions: Vec<Position>,
    pub(super) seen: HashMap<u64, Vec<u32>, BuildHasherDefault<PassThrough>>,
}

impl History {
    pub(super) fn push(&mut self, position: Position) {
        self.seen
            .entry(position.hash)
            .or_default()
            .push(self.positions.len() as u32);
        self.positions.push(position);
    }

    pub(super) fn reset(&mut self, position: Position) {
        self.positions.clear();
        self.seen.clear();
        self.push(position);
    }
}
