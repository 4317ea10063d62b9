//! The audience: spectators joining and leaving, told to the game as one
//! `spectators` event at most once per `Audience::PERIOD`, so that a storm
//! of connects is a handful of lines in the trace. Pure, with time passed in.

use std::time::{Duration, Instant};

use goref_core::referee::event::SPECTATORS_NAMED;
use goref_core::referee::GameEvent;

#[derive(Debug, Default)]
pub(crate) struct Audience {
    count: u32,
    joined: Vec<String>,
    left: Vec<String>,
    unnamed: u32,
    refused: u32,
    /// Something changed since the last event.
    changed: bool,
    last: Option<Instant>,
}

impl Audience {
    /// The least time between two `spectators` events.
    pub(crate) const PERIOD: Duration = Duration::from_secs(1);

    pub(crate) fn new() -> Audience {
        Audience::default()
    }

    /// A spectator at `address` passed the gate and said hello.
    pub(crate) fn joined(&mut self, address: String) {
        self.count = self.count.saturating_add(1);
        Self::name(&mut self.joined, &mut self.unnamed, address);
        self.changed = true;
    }

    /// A spectator that had joined is gone, for `why`.
    pub(crate) fn left(&mut self, address: String, why: &str) {
        self.count = self.count.saturating_sub(1);
        Self::name(
            &mut self.left,
            &mut self.unnamed,
            format!("{address} ({why})"),
        );
        self.changed = true;
    }

    /// A connection was turned away.
    pub(crate) fn refused(&mut self) {
        self.refused = self.refused.saturating_add(1);
        self.changed = true;
    }

    /// Tells the count again with the next event (a new game's stream).
    pub(crate) fn retell(&mut self) {
        self.changed = true;
        self.last = None;
    }

    fn name(list: &mut Vec<String>, unnamed: &mut u32, entry: String) {
        if list.len() < SPECTATORS_NAMED {
            list.push(entry);
        } else {
            *unnamed = unnamed.saturating_add(1);
        }
    }

    /// When the next event is due, seen at `now`, if anything changed.
    pub(crate) fn due(&self, now: Instant) -> Option<Instant> {
        if !self.changed {
            return None;
        }
        Some(self.last.map_or(now, |last| (last + Self::PERIOD).max(now)))
    }

    /// The `spectators` event, when one is due at `now`.
    pub(crate) fn take(&mut self, now: Instant) -> Option<GameEvent> {
        if !self.changed || self.last.is_some_and(|last| now < last + Self::PERIOD) {
            return None;
        }
        self.changed = false;
        self.last = Some(now);
        Some(GameEvent::Spectators {
            count: self.count,
            joined: std::mem::take(&mut self.joined),
            left: std::mem::take(&mut self.left),
            unnamed: std::mem::take(&mut self.unnamed),
            refused: std::mem::take(&mut self.refused),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::epoch;

    #[test]
    fn joins_and_leaves_within_a_period_are_one_event() {
        let mut audience = Audience::new();
        let t0 = epoch();
        assert_eq!(audience.due(t0), None);
        audience.joined("10.0.0.5:4000".into());
        assert_eq!(audience.due(t0), Some(t0));
        let first = audience.take(t0).unwrap();
        assert_eq!(
            first,
            GameEvent::Spectators {
                count: 1,
                joined: vec!["10.0.0.5:4000".into()],
                left: vec![],
                unnamed: 0,
                refused: 0,
            }
        );
        let soon = t0 + Duration::from_millis(200);
        audience.joined("10.0.0.6:4000".into());
        audience.left("10.0.0.5:4000".into(), "closed");
        audience.refused();
        assert_eq!(audience.take(soon), None, "within the period");
        assert_eq!(audience.due(soon), Some(t0 + Audience::PERIOD));
        let GameEvent::Spectators {
            count,
            joined,
            left,
            refused,
            ..
        } = audience.take(t0 + Audience::PERIOD).unwrap()
        else {
            panic!("not spectators");
        };
        assert_eq!((count, refused), (1, 1));
        assert_eq!(joined, ["10.0.0.6:4000"]);
        assert_eq!(left, ["10.0.0.5:4000 (closed)"]);
        assert_eq!(
            audience.take(t0 + Duration::from_secs(9)),
            None,
            "nothing new"
        );
    }

    #[test]
    fn a_storm_names_a_few_and_counts_the_rest() {
        let mut audience = Audience::new();
        for i in 0..1000 {
            audience.joined(format!("127.0.0.1:{i}"));
            audience.left(format!("127.0.0.1:{i}"), "closed");
        }
        let Some(GameEvent::Spectators {
            count,
            joined,
            left,
            unnamed,
            ..
        }) = audience.take(epoch())
        else {
            panic!("no event");
        };
        assert_eq!(count, 0);
        assert_eq!(
            (joined.len(), left.len()),
            (SPECTATORS_NAMED, SPECTATORS_NAMED)
        );
        assert_eq!(unnamed, 2000 - 2 * SPECTATORS_NAMED as u32);
    }
}
