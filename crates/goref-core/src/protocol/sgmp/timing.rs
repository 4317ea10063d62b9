//! A line program's turn on the wire, without IO: when the bytes that hand
//! the program the move are on its side, when its MOVE began to come, and
//! what the line has shown of its own speed.
//!
//! A line has a nominal baud rate, ten bits a byte (8N1). At that rate a
//! packet takes its time on the wire (16.7 ms at 2400 baud), which is
//! nobody's thinking: the program's turn starts once the bytes that hand it
//! the move have crossed (the write's start plus their wire time, or the
//! write's end if that is later, as on a line that makes the writer wait)
//! and ends when its MOVE began to cross (the instant the MOVE had come
//! whole, less its wire time).
//!
//! A line can be faster than its rate: a pty carries bytes at once whatever
//! rate it is set to. An answer to a packet of ours that comes back sooner
//! than the two packets take at the rate proves it, as no line at that rate
//! could carry them (the instants the shell reads can only make a round
//! trip look longer, never shorter). From that answer on, for the rest of
//! the game, no wire time is taken off: a turn runs from the end of the
//! write to the arrival of the MOVE, the time measured, and packets show no
//! wire time. A line with no rate (a terminal server over TCP) is measured
//! so from the start.

use std::time::{Duration, Instant};

/// Bits on the wire for each byte: a start bit, eight data bits, a stop bit.
pub const BITS_PER_BYTE: u32 = 10;

/// The bytes of one GMP packet.
const PACKET_BYTES: usize = 4;

/// How much sooner than the rate allows an answer must come to show a line
/// faster: the precision of the shell's timers, so that a line that makes
/// each crossing last exactly its time (the built-in engine's virtual line)
/// is never taken for a faster one.
const PRECISION: Duration = Duration::from_millis(1);

/// What a line's rate and its answers say about the time its bytes take.
#[derive(Debug, Clone, PartialEq)]
pub struct LineTiming {
    /// The nominal rate, for a line that has one.
    baud: Option<u32>,
    /// The round trip that showed the line faster than its rate.
    faster: Option<Duration>,
}

impl LineTiming {
    /// A line at `baud`, or with no rate.
    pub fn new(baud: Option<u32>) -> LineTiming {
        LineTiming { baud, faster: None }
    }

    /// The line's nominal rate.
    pub fn baud(&self) -> Option<u32> {
        self.baud
    }

    /// How long `bytes` take at the nominal rate, whatever the line has
    /// shown; nothing on a line with no rate.
    pub fn nominal(&self, bytes: usize) -> Duration {
        self.baud.map_or(Duration::ZERO, |baud| {
            Duration::from_secs_f64(bytes as f64 * f64::from(BITS_PER_BYTE) / f64::from(baud))
        })
    }

    /// The wire time taken off a program's clock for `bytes`: their nominal
    /// time until the line has shown itself faster, nothing after.
    pub(crate) fn wire_time(&self, bytes: usize) -> Duration {
        match self.faster {
            None => self.nominal(bytes),
            Some(_) => Duration::ZERO,
        }
    }

    /// A packet of ours was answered `round_trip` after it went out. True
    /// when this is the answer that first shows the line faster than its
    /// rate: the two packets would take longer at that rate (by more than
    /// the `PRECISION` of the instants).
    pub fn answered(&mut self, round_trip: Duration) -> bool {
        let at_the_rate = self.nominal(2 * PACKET_BYTES);
        if self.faster.is_some() || self.baud.is_none() || round_trip + PRECISION >= at_the_rate {
            return false;
        }
        self.faster = Some(round_trip);
        true
    }

    /// The round trip that showed the line faster than its rate, if one did.
    pub fn shown_faster(&self) -> Option<Duration> {
        self.faster
    }

    /// When `bytes` written from `started` to `done` are on the program's
    /// side: the program's turn starts then, if they hand it the move.
    pub fn handed_over(&self, started: Instant, done: Instant, bytes: usize) -> Instant {
        done.max(started + self.wire_time(bytes))
    }

    /// When a MOVE that had come whole at `arrived` began to come: the
    /// program's turn ends then.
    pub fn move_began(&self, arrived: Instant) -> Instant {
        arrived
            .checked_sub(self.wire_time(PACKET_BYTES))
            .unwrap_or(arrived)
    }

    /// The wire time a packet event shows, in ms: none for noise, none once
    /// the line has shown itself faster than its rate.
    pub fn packet_wire_ms(&self, bytes: usize) -> Option<f64> {
        (self.baud.is_some() && self.faster.is_none())
            .then(|| self.nominal(bytes).as_secs_f64() * 1e3)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::epoch;

    fn ms(ms: u64) -> Duration {
        Duration::from_millis(ms)
    }

    /// What a turn is charged: from the hand-over of a packet written from
    /// `written` to `done` until the MOVE that came whole at `arrived`.
    fn charged(timing: &LineTiming, written: Instant, done: Instant, arrived: Instant) -> Duration {
        let start = timing.handed_over(written, done, PACKET_BYTES);
        timing.move_began(arrived).saturating_duration_since(start)
    }

    #[test]
    fn a_line_at_its_rate_charges_the_time_between_the_packets_crossings() {
        let t0 = epoch();
        let timing = LineTiming::new(Some(2400));
        let packet = timing.nominal(PACKET_BYTES);
        assert!(
            (packet.as_secs_f64() * 1e3 - 16.667).abs() < 0.001,
            "{packet:?}"
        );
        // A serial port takes the bytes at once; they cross, the program
        // thinks 50 ms, and its MOVE crosses back.
        let arrived = t0 + packet + ms(50) + packet;
        assert_eq!(charged(&timing, t0, t0, arrived), ms(50));
        // A line that makes the writer wait for the crossing: not twice.
        assert_eq!(charged(&timing, t0, t0 + packet, arrived), ms(50));
        assert_eq!(
            timing.packet_wire_ms(PACKET_BYTES),
            Some(packet.as_secs_f64() * 1e3)
        );
    }

    #[test]
    fn answers_no_line_at_the_rate_could_carry_show_it_faster_once_and_for_good() {
        let t0 = epoch();
        let mut timing = LineTiming::new(Some(2400));
        // A quick program on a pty: before, its 10 ms were less than the
        // 33 ms of wire time, and it was charged nothing.
        assert_eq!(charged(&timing, t0, t0, t0 + ms(10)), Duration::ZERO);
        assert!(!timing.answered(ms(34)), "a real line at 2400 baud");
        assert!(!timing.answered(ms(33)), "within the timers' precision");
        assert_eq!(timing.shown_faster(), None);
        assert!(timing.answered(ms(1)));
        assert!(!timing.answered(ms(1)), "shown once");
        assert!(!timing.answered(ms(40)), "and for good");
        assert_eq!(timing.shown_faster(), Some(ms(1)));
        assert_eq!(charged(&timing, t0, t0, t0 + ms(10)), ms(10));
        assert_eq!(charged(&timing, t0, t0 + ms(1), t0 + ms(51)), ms(50));
        assert_eq!(timing.packet_wire_ms(PACKET_BYTES), None);
    }

    #[test]
    fn a_line_with_no_rate_is_measured_and_never_told_faster() {
        let t0 = epoch();
        let mut timing = LineTiming::new(None);
        assert!(!timing.answered(Duration::ZERO));
        assert_eq!(charged(&timing, t0, t0 + ms(1), t0 + ms(21)), ms(20));
        assert_eq!(timing.packet_wire_ms(PACKET_BYTES), None);
    }
}
