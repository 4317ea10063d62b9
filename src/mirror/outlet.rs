//! What the referee publishes to a broker (`--publish nats://…`), pure: the
//! subjects a game or a hall is published on, the bounded queue of lines
//! not yet acknowledged, and the notices when publishing stops and when it
//! catches up. The shell ([`super::publisher`]) takes messages from the front
//! and tells the outlet how each went; the referee never waits for it. A
//! game's events that come together (a move's, mostly) go as one message
//! of several lines, so that a move costs the broker one message.
//!
//! The lines are the mirror's wire lines, unchanged, so that a watcher
//! folds them with the same reducer as a spectator of `--serve`:
//!
//! ```text
//! goref.EVENT.welcome          the welcome: the stream, whether it is a hall
//! goref.EVENT.hall             an event's picture (its round, boards, standings)
//! goref.EVENT.BOARD.event      each event of a game (BOARD: `game`, or a board's number)
//! goref.EVENT.BOARD.snapshot   the game whole: at its start, every few hundred
//!                              events, and after the queue overflowed
//! goref-live.EVENT             heartbeats, not stored
//! ```
//!
//! A late joiner starts from a game's last snapshot and replays the events
//! after it. When the broker stays away so long that the queue fills, the
//! queue is replaced by the stream as it stands now (its welcome, the
//! picture, each game whole), so that what reaches the broker once it is
//! back is still a stream a watcher can fold.

use std::collections::{BTreeMap, VecDeque};
use std::time::{Duration, Instant};

use super::hub::Line;
use crate::broker::address::subject_token;

/// The root of every stored subject.
pub(crate) const SUBJECT_ROOT: &str = "goref";
/// The root of the heartbeats' subjects, outside the stored ones.
pub(crate) const LIVE_ROOT: &str = "goref-live";

/// The subjects of one event (or game) on the broker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Subjects {
    event: String,
}

impl Subjects {
    /// The subjects of `event`, a subject token.
    pub(crate) fn new(event: &str) -> Subjects {
        Subjects {
            event: subject_token(event),
        }
    }

    pub(crate) fn event(&self) -> &str {
        &self.event
    }

    pub(crate) fn welcome(&self) -> String {
        format!("{SUBJECT_ROOT}.{}.welcome", self.event)
    }

    pub(crate) fn hall(&self) -> String {
        format!("{SUBJECT_ROOT}.{}.hall", self.event)
    }

    /// A game's events: board `board` of a hall, or the one game.
    pub(crate) fn events(&self, board: Option<u32>) -> String {
        format!("{}.event", self.game(board))
    }

    pub(crate) fn snapshots(&self, board: Option<u32>) -> String {
        format!("{}.snapshot", self.game(board))
    }

    /// Every subject of one game: its events and its snapshots.
    pub(crate) fn game_wildcard(&self, board: Option<u32>) -> String {
        format!("{}.*", self.game(board))
    }

    /// Every stored subject of the event.
    pub(crate) fn all(&self) -> String {
        format!("{SUBJECT_ROOT}.{}.>", self.event)
    }

    pub(crate) fn live(&self) -> String {
        format!("{LIVE_ROOT}.{}", self.event)
    }

    fn game(&self, board: Option<u32>) -> String {
        match board {
            Some(board) => format!("{SUBJECT_ROOT}.{}.{board}", self.event),
            None => format!("{SUBJECT_ROOT}.{}.game", self.event),
        }
    }
}

/// How much the outlet holds while the broker does not take it, and how
/// often a game is published whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutletLimits {
    pub lines: usize,
    pub bytes: usize,
    /// A game's snapshot after this many of its events.
    pub snapshot_every: u32,
}

impl Default for OutletLimits {
    fn default() -> OutletLimits {
        OutletLimits {
            lines: 20_000,
            bytes: 32 << 20,
            snapshot_every: 500,
        }
    }
}

/// One message to publish: its subject, the id that lets the broker drop
/// it if a retry sends it twice, and its lines (a game's events that came
/// together go as one message).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Outgoing {
    pub subject: String,
    pub id: String,
    pub payload: String,
    /// When its first line was pushed: a watcher's delay is counted from
    /// there.
    pub since: Instant,
    lines: usize,
    /// Events: more of the same subject may join it until it is sent.
    joins: bool,
    /// It has been handed out to be sent: nothing joins it any more, even
    /// when it is sent again after a failure (the broker keeps the first
    /// copy it stored of an id, and would drop the lines added to it).
    sealed: bool,
}

/// What a pushed line asks of the shell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pushed {
    /// Queued.
    Queued,
    /// Queued, and the game has had enough events since its last snapshot:
    /// push one.
    WantsSnapshot,
    /// The queue was full and is now empty: push the stream as it stands
    /// ([`Outlet::push_welcome`], the picture, each game's snapshot).
    WantsWhole,
}

#[derive(Debug, Clone, PartialEq)]
enum Flow {
    Flowing,
    /// Since when the broker has not taken a line, and why.
    Stopped {
        since: Instant,
        why: String,
    },
}

/// The most bytes of events joined into one message.
const MESSAGE_BYTES: usize = 64 << 10;

/// The lines on their way to the broker.
#[derive(Debug)]
pub(crate) struct Outlet {
    subjects: Subjects,
    /// Where, as notices name it.
    broker: String,
    /// Unique to this run: the prefix of every message's id.
    run: String,
    /// Messages pushed on each subject: the last part of their ids.
    counts: BTreeMap<String, u64>,
    queue: VecDeque<Outgoing>,
    /// Messages at the front handed to the shell, not yet acknowledged.
    sending: usize,
    lines: usize,
    bytes: usize,
    limits: OutletLimits,
    since_snapshot: BTreeMap<Option<u32>, u32>,
    flow: Flow,
    /// Lines the queue could not hold while the broker was away.
    replaced: u64,
    published: u64,
}

impl Outlet {
    /// An outlet for `subjects` on `broker` (as notices name it); `run` is
    /// unique to this referee's run.
    pub(crate) fn new(
        subjects: Subjects,
        broker: String,
        run: String,
        limits: OutletLimits,
    ) -> Outlet {
        Outlet {
            subjects,
            broker,
            run,
            counts: BTreeMap::new(),
            queue: VecDeque::new(),
            sending: 0,
            lines: 0,
            bytes: 0,
            limits,
            since_snapshot: BTreeMap::new(),
            flow: Flow::Flowing,
            replaced: 0,
            published: 0,
        }
    }

    /// The broker, as notices name it.
    pub(crate) fn broker(&self) -> &str {
        &self.broker
    }

    /// The stream's welcome, pushed at `now` (as every line is).
    pub(crate) fn push_welcome(&mut self, line: Line, now: Instant) -> Pushed {
        self.push(self.subjects.welcome(), &line, false, now)
    }

    pub(crate) fn push_hall(&mut self, line: Line, now: Instant) -> Pushed {
        self.push(self.subjects.hall(), &line, false, now)
    }

    /// A game's event: board `board` of a hall, or the one game.
    pub(crate) fn push_event(&mut self, board: Option<u32>, line: Line, now: Instant) -> Pushed {
        let pushed = self.push(self.subjects.events(board), &line, true, now);
        let count = self.since_snapshot.entry(board).or_insert(0);
        *count += 1;
        match (pushed, *count >= self.limits.snapshot_every) {
            (Pushed::Queued, true) => Pushed::WantsSnapshot,
            _ => pushed,
        }
    }

    pub(crate) fn push_snapshot(&mut self, board: Option<u32>, line: Line, now: Instant) -> Pushed {
        self.since_snapshot.insert(board, 0);
        self.push(self.subjects.snapshots(board), &line, false, now)
    }

    fn push(&mut self, subject: String, line: &str, joins: bool, now: Instant) -> Pushed {
        self.lines += 1;
        self.bytes += line.len();
        match self.queue.back_mut() {
            Some(last)
                if joins
                    && !last.sealed
                    && last.joins
                    && last.subject == subject
                    && last.payload.len() + line.len() <= MESSAGE_BYTES =>
            {
                last.payload.push_str(line);
                last.lines += 1;
            }
            _ => {
                let count = self.counts.entry(subject.clone()).or_insert(0);
                *count += 1;
                let id = message_id(&self.run, &subject, *count);
                self.queue.push_back(Outgoing {
                    subject,
                    id,
                    payload: line.to_string(),
                    lines: 1,
                    joins,
                    since: now,
                    sealed: false,
                });
            }
        }
        if self.lines <= self.limits.lines && self.bytes <= self.limits.bytes {
            return Pushed::Queued;
        }
        self.replaced += self.lines as u64;
        self.queue.clear();
        self.sending = 0;
        self.lines = 0;
        self.bytes = 0;
        self.since_snapshot.clear();
        Pushed::WantsWhole
    }

    /// The next message to send, which nothing joins from now on.
    pub(crate) fn next_to_send(&mut self) -> Option<Outgoing> {
        let next = self.queue.get_mut(self.sending)?;
        next.sealed = true;
        let next = next.clone();
        self.sending += 1;
        Some(next)
    }

    /// Lines waiting, sent or not, for the broker to take them.
    pub(crate) fn queued(&self) -> usize {
        self.lines
    }

    /// Lines the broker has taken.
    #[cfg(test)]
    pub(crate) fn published(&self) -> u64 {
        self.published
    }

    /// The broker took message `id` at `now` (an id no longer at the front,
    /// of a queue replaced meanwhile, is let be); a notice when that ends a
    /// time it took nothing.
    pub(crate) fn sent(&mut self, id: &str, now: Instant) -> Option<String> {
        if self.queue.front().is_none_or(|front| front.id != id) {
            return None;
        }
        if let Some(sent) = self.queue.pop_front() {
            self.sending = self.sending.saturating_sub(1);
            self.lines -= sent.lines;
            self.bytes -= sent.payload.len();
            self.published += sent.lines as u64;
        }
        let Flow::Stopped { since, .. } = &self.flow else {
            return None;
        };
        if !self.queue.is_empty() {
            return None;
        }
        let away = now.saturating_duration_since(*since);
        let replaced = std::mem::take(&mut self.replaced);
        self.flow = Flow::Flowing;
        let held = match replaced {
            0 => "nothing lost".to_string(),
            n => format!("{n} lines the queue could not hold were replaced by snapshots"),
        };
        Some(format!(
            "publishing to {} caught up after {}: {held}",
            self.broker,
            seconds(away)
        ))
    }

    /// The broker did not take a message at `now`, for `why`: every message
    /// is sent again from the front; a notice when publishing stops.
    pub(crate) fn failed(&mut self, why: &str, now: Instant) -> Option<String> {
        self.sending = 0;
        if let Flow::Stopped { .. } = self.flow {
            return None;
        }
        self.flow = Flow::Stopped {
            since: now,
            why: why.to_string(),
        };
        Some(format!(
            "publishing to {} stopped ({why}): the game goes on, and up to {} lines wait for it",
            self.broker, self.limits.lines
        ))
    }

    /// Why publishing is stopped, while it is.
    pub(crate) fn stopped(&self) -> Option<&str> {
        match &self.flow {
            Flow::Stopped { why, .. } => Some(why),
            Flow::Flowing => None,
        }
    }
}

/// A message's id: this run's, then its subject's, then its number on
/// that subject, counted from 1 with no number left out.
fn message_id(run: &str, subject: &str, number: u64) -> String {
    format!("{run}:{subject}:{number}")
}

/// A message id's run and subject, and its number on that subject.
pub(crate) fn read_message_id(id: &str) -> Option<(&str, u64)> {
    let (run_and_subject, number) = id.rsplit_once(':')?;
    Some((run_and_subject, number.parse().ok()?))
}

fn seconds(duration: Duration) -> String {
    format!("{:.1}s", duration.as_secs_f64())
}

#[cfg(test)]
mod tests;
