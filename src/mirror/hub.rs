//! The served game as the mirror keeps it: the view folded from the stream,
//! a short history of event lines for spectators that resume, and the
//! snapshot for those that cannot. Pure: the server's shell feeds it events
//! and asks it what a joining spectator is sent.
//!
//! Every event is serialised once, by the driver when it made the line for
//! the journal, else here, and the same line goes to every spectator; a
//! snapshot is serialised once per `seq` however many ask.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Instant;

use goref_core::referee::{GameView, HandedOn, StampedEvent};

use super::wire::{RefereeMessage, VERSION};

/// How much of the stream the hub keeps for spectators that resume.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HistoryLimits {
    pub events: usize,
    pub bytes: usize,
}

impl Default for HistoryLimits {
    fn default() -> HistoryLimits {
        HistoryLimits {
            events: 8192,
            bytes: 4 << 20,
        }
    }
}

/// A line to send, shared by every spectator it goes to.
pub(crate) type Line = Arc<str>;

/// What a spectator that says hello is sent before the live events.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Join {
    pub welcome: String,
    pub catch_up: CatchUp,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum CatchUp {
    /// The events after the spectator's `since_seq`, oldest first.
    Events(Vec<Line>),
    /// The whole view: the spectator's `since_seq` is of another stream or
    /// no longer in the history, or it gave none.
    Snapshot(Line),
}

/// One game's stream as the mirror serves it.
#[derive(Debug)]
pub(crate) struct Hub {
    stream: String,
    producer: String,
    view: GameView,
    /// When the stream's time was 0.
    origin: Option<Instant>,
    history: VecDeque<(u64, Line)>,
    history_bytes: usize,
    limits: HistoryLimits,
    snapshot: Option<(u64, Line)>,
}

impl Hub {
    /// A stream named `stream` with nothing in it yet.
    pub(crate) fn new(stream: String, limits: HistoryLimits) -> Hub {
        Hub {
            stream,
            producer: format!("goref {}", env!("CARGO_PKG_VERSION")),
            view: GameView::new(),
            origin: None,
            history: VecDeque::new(),
            history_bytes: 0,
            limits,
            snapshot: None,
        }
    }

    /// The `seq` of the newest event.
    #[cfg(test)]
    pub(crate) fn view(&self) -> &GameView {
        &self.view
    }

    pub(crate) fn seq(&self) -> u64 {
        self.view.last_seq
    }

    /// The board size of the game served (19 before it starts).
    pub(crate) fn size(&self) -> u8 {
        self.view.size
    }

    /// The stream's time at `now`, in ms (0 before its first event).
    pub(crate) fn host_t_ms(&self, now: Instant) -> u64 {
        self.origin.map_or(0, |origin| {
            now.saturating_duration_since(origin).as_millis() as u64
        })
    }

    /// Folds one event the driver handed on into the view and the history,
    /// with the JSON line the driver made for it, if any, used as it is;
    /// the line every spectator is sent.
    pub(crate) fn publish_handed(&mut self, handed: &HandedOn) -> Line {
        self.publish_with(handed.at, &handed.stamped, handed.json.as_deref())
    }

    /// The same for an event handed on at `at` with no line made for it.
    #[cfg(test)]
    pub(crate) fn publish(&mut self, at: Instant, stamped: &StampedEvent) -> Line {
        self.publish_with(at, stamped, None)
    }

    fn publish_with(&mut self, at: Instant, stamped: &StampedEvent, json: Option<&str>) -> Line {
        // The latest event sets the origin: a resumed game retells its
        // journal first, whose times are older than the moment they are told.
        self.origin = at
            .checked_sub(std::time::Duration::from_millis(stamped.t_ms))
            .or(self.origin)
            .or(Some(at));
        self.view.apply_stamped(stamped);
        let made;
        let json = match json {
            Some(json) => json,
            None => {
                made = serde_json::to_string(stamped).expect("events always serialise");
                &made
            }
        };
        let line: Line = RefereeMessage::event_line(json).into();
        self.history_bytes += line.len();
        self.history.push_back((stamped.seq, line.clone()));
        while self.history.len() > self.limits.events || self.history_bytes > self.limits.bytes {
            let Some((_, old)) = self.history.pop_front() else {
                break;
            };
            self.history_bytes -= old.len();
        }
        line
    }

    /// The whole view as a `snapshot` line, made once per `seq`.
    pub(crate) fn snapshot(&mut self) -> Line {
        let seq = self.seq();
        match &self.snapshot {
            Some((at, line)) if *at == seq => line.clone(),
            _ => {
                let line: Line =
                    RefereeMessage::snapshot_line(&self.stream, seq, &self.view, None).into();
                self.snapshot = Some((seq, line.clone()));
                line
            }
        }
    }

    /// What a spectator that said hello at `now` is sent: with the stream
    /// and `since_seq` of a connection before, the events it missed when
    /// the history still holds them all, else a snapshot.
    pub(crate) fn join(
        &mut self,
        stream: Option<&str>,
        since_seq: Option<u64>,
        now: Instant,
    ) -> Join {
        let missed = match (stream, since_seq) {
            (Some(stream), Some(since)) if stream == self.stream => self.events_after(since),
            (None, Some(0)) => self.events_after(0),
            _ => None,
        };
        let resume = missed.is_some();
        let welcome = self.welcome(now, resume);
        let catch_up = match missed {
            Some(events) => CatchUp::Events(events),
            None => CatchUp::Snapshot(self.snapshot()),
        };
        Join { welcome, catch_up }
    }

    /// The `welcome` line at `now`: the stream and where it stands, and
    /// whether the events a spectator missed follow (`resume`).
    pub(crate) fn welcome(&self, now: Instant, resume: bool) -> String {
        RefereeMessage::Welcome {
            version: VERSION,
            producer: self.producer.clone(),
            stream: self.stream.clone(),
            seq: self.seq(),
            host_t_ms: self.host_t_ms(now),
            resume,
            hall: false,
        }
        .line()
    }

    /// The events after `since`, if the history holds every one of them.
    fn events_after(&self, since: u64) -> Option<Vec<Line>> {
        if since > self.seq() {
            return None;
        }
        if since == self.seq() {
            return Some(Vec::new());
        }
        let first = self.history.front()?.0;
        if first > since + 1 {
            return None;
        }
        Some(
            self.history
                .iter()
                .filter(|(seq, _)| *seq > since)
                .map(|(_, line)| line.clone())
                .collect(),
        )
    }

    /// A `heartbeat` line at `now`.
    pub(crate) fn heartbeat(&self, now: Instant) -> Line {
        RefereeMessage::Heartbeat {
            seq: self.seq(),
            host_t_ms: self.host_t_ms(now),
        }
        .line()
        .into()
    }
}

#[cfg(test)]
mod tests;
