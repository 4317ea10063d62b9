//! How often the mirror reads the game's events while only the broker
//! watches, pure. Each read wakes the mirror's thread, and each becomes a
//! message to the broker: a game that moves faster than the pace allows
//! has what it made in the meantime read, and published, at once. A few
//! reads go at once after a quiet time, so that the two or three bursts of
//! one move in a slow game are not held back; after those, one read each
//! `every`. (A token bucket, kept as the time its tokens are spent until.)

use std::time::{Duration, Instant};

/// The reads allowed, and when the next one is.
#[derive(Debug, Clone)]
pub struct Pace {
    every: Duration,
    burst: u32,
    /// The tokens are spent until this instant.
    spent_until: Option<Instant>,
}

impl Pace {
    /// Reads at most one each `every`, after up to `burst` at once.
    pub fn new(every: Duration, burst: u32) -> Pace {
        Pace {
            every,
            burst: burst.max(1),
            spent_until: None,
        }
    }

    /// A read was made at `now`: until when the next must wait, if it must.
    pub fn read(&mut self, now: Instant) -> Option<Instant> {
        let from = self.spent_until.map_or(now, |spent| spent.max(now));
        let spent = from + self.every;
        self.spent_until = Some(spent);
        let next = spent.checked_sub(self.every * self.burst)?;
        (next > now).then_some(next)
    }
}

#[cfg(test)]
mod tests;
