//! The plan of a match's colour-swapped pairs: which opening pair `k`
//! plays, and in a gauntlet which opponent.
//!
//! Openings are dealt in cycles: each cycle is a shuffle of all `n`, so
//! every opening is played once before any is played again. Cycle `c` is
//! shuffled by Fisher–Yates from a SplitMix64 generator seeded from
//! `(seed, c)` alone, so the plan is the same however far it has been read
//! and whatever build reads it. The generator and the shuffle are written
//! out here rather than taken from `rand`, whose `StdRng` and shuffles may
//! change between versions, so a saved seed replays the same match.

use std::num::NonZeroUsize;

use serde::{Deserialize, Serialize};

/// The order in which a match deals its openings, one a pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct OpeningOrder {
    openings: NonZeroUsize,
    seed: u64,
}

impl OpeningOrder {
    /// The order of `openings` openings under `seed`.
    pub fn new(openings: NonZeroUsize, seed: u64) -> OpeningOrder {
        OpeningOrder { openings, seed }
    }

    /// How many openings are dealt.
    pub fn openings(&self) -> NonZeroUsize {
        self.openings
    }

    /// The seed the order is drawn from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The openings of cycle `cycle` (from 0), in the order its pairs play
    /// them: a permutation of `0..openings`.
    pub fn cycle(&self, cycle: u64) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.openings.get()).collect();
        let mut generator = SplitMix64::for_cycle(self.seed, cycle);
        for last in (1..order.len()).rev() {
            let pick = generator.below(last as u64 + 1) as usize;
            order.swap(last, pick);
        }
        order
    }

    /// The opening of pair `pair` (from 0). This shuffles the pair's whole
    /// cycle; to walk many pairs, [`OpeningOrder::from_pair`] shuffles each
    /// cycle once.
    pub fn opening(&self, pair: u64) -> usize {
        let (cycle, position) = self.place(pair);
        self.cycle(cycle)[position]
    }

    /// The openings of pair `pair` and every pair after it, without end.
    pub fn from_pair(&self, pair: u64) -> Openings {
        let (cycle, position) = self.place(pair);
        Openings {
            order: *self,
            cycle,
            position,
            dealt: self.cycle(cycle),
        }
    }

    fn place(&self, pair: u64) -> (u64, usize) {
        let openings = self.openings.get() as u64;
        (pair / openings, (pair % openings) as usize)
    }
}

/// The openings of consecutive pairs, from [`OpeningOrder::from_pair`].
#[derive(Debug, Clone)]
pub struct Openings {
    order: OpeningOrder,
    cycle: u64,
    position: usize,
    dealt: Vec<usize>,
}

impl Iterator for Openings {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if self.position == self.dealt.len() {
            self.cycle += 1;
            self.position = 0;
            self.dealt = self.order.cycle(self.cycle);
        }
        let opening = self.dealt[self.position];
        self.position += 1;
        Some(opening)
    }
}

/// The opponent (from 0) of pair `pair` in a gauntlet of `opponents`: round
/// robin, so after any number of pairs each opponent has met the candidate
/// in as many pairs as any other, give or take one.
pub fn gauntlet_opponent(opponents: NonZeroUsize, pair: u64) -> usize {
    (pair % opponents.get() as u64) as usize
}

/// Sebastiano Vigna's SplitMix64 (the seeding generator of
/// `java.util.SplittableRandom` and of xoshiro).
pub(crate) struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

    pub(crate) fn new(state: u64) -> SplitMix64 {
        SplitMix64 { state }
    }

    fn for_cycle(seed: u64, cycle: u64) -> SplitMix64 {
        let key = SplitMix64::new(seed).next_u64();
        SplitMix64::new(key ^ SplitMix64::new(cycle).next_u64())
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(Self::GOLDEN_GAMMA);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..bound` (`bound` ≥ 1), by Lemire's multiply-and-reject.
    fn below(&mut self, bound: u64) -> u64 {
        let threshold = bound.wrapping_neg() % bound;
        loop {
            let product = u128::from(self.next_u64()) * u128::from(bound);
            if (product as u64) >= threshold {
                return (product >> 64) as u64;
            }
        }
    }
}
