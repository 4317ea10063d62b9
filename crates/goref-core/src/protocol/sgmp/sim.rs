//! A simulated serial line for the link and session tests: it drops,
//! repeats, corrupts, splits and delays transmissions, but, like a real
//! line, never reorders bytes.
//!
//! A corruption flips one bit, which GMP's checksum and framing always
//! catch. Several bits flipped at once can make another valid packet (the
//! checksum has 7 bits), which no GMP program can tell: a property test
//! found such a pair of corruptions turning a NEWGAME into an UNDO.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use proptest::prelude::*;

/// What the simulated line does to one transmission.
#[derive(Debug, Clone)]
pub(super) enum Fault {
    Pass,
    Drop,
    Duplicate,
    Corrupt { index: usize, mask: u8 },
    Split { at: usize, gap_ms: u64 },
    Delay { ms: u64 },
}

pub(crate) fn arb_fault() -> impl Strategy<Value = Fault> {
    prop_oneof![
        3 => Just(Fault::Pass),
        2 => Just(Fault::Drop),
        1 => Just(Fault::Duplicate),
        1 => (0usize..4, 0u32..8).prop_map(|(index, bit)| Fault::Corrupt { index, mask: 1 << bit }),
        1 => (1usize..4, 0u64..3000).prop_map(|(at, gap_ms)| Fault::Split { at, gap_ms }),
        1 => (0u64..5000).prop_map(|ms| Fault::Delay { ms }),
    ]
}

/// One direction of a serial line: bytes come out in the order they went
/// in, however they were delayed, as on a real line.
#[derive(Default)]
pub(super) struct Wire {
    queue: VecDeque<(Instant, Vec<u8>)>,
}

impl Wire {
    fn put(&mut self, at: Instant, bytes: Vec<u8>) {
        let at = match self.queue.back() {
            Some((last, _)) if *last > at => *last,
            _ => at,
        };
        self.queue.push_back((at, bytes));
    }

    /// Writes one transmission, damaged as `fault` says.
    pub(crate) fn transmit(&mut self, now: Instant, mut bytes: Vec<u8>, fault: Option<Fault>) {
        let latency = Duration::from_millis(5);
        match fault.unwrap_or(Fault::Pass) {
            Fault::Pass => self.put(now + latency, bytes),
            Fault::Drop => {}
            Fault::Duplicate => {
                self.put(now + latency, bytes.clone());
                self.put(now + latency, bytes);
            }
            Fault::Corrupt { index, mask } => {
                let index = index % bytes.len();
                bytes[index] ^= mask;
                self.put(now + latency, bytes);
            }
            Fault::Split { at, gap_ms } => {
                let tail = bytes.split_off(at.min(bytes.len()));
                self.put(now + latency, bytes);
                self.put(now + latency + Duration::from_millis(gap_ms), tail);
            }
            Fault::Delay { ms } => self.put(now + latency + Duration::from_millis(ms), bytes),
        }
    }

    pub(crate) fn next_at(&self) -> Option<Instant> {
        self.queue.front().map(|(at, _)| *at)
    }

    /// Everything due by `now`.
    pub(crate) fn take_due(&mut self, now: Instant) -> Vec<u8> {
        let mut out = Vec::new();
        while self.next_at().is_some_and(|at| at <= now) {
            out.extend(self.queue.pop_front().map(|(_, b)| b).unwrap_or_default());
        }
        out
    }
}
