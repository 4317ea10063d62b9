//! The mirror's wire protocol: versioned JSON lines over TCP, one message a
//! line, each with a `type`.
//!
//! ```text
//! spectator                                  referee
//! {"type":"hello","version":1,"token":"s3cret","stream":"…","since_seq":41}
//!            {"type":"welcome","version":1,"producer":"goref 0.1.0","stream":"…",
//!             "seq":57,"host_t_ms":81234,"resume":true}
//!            {"type":"event","event":{"seq":42,"t_ms":80011,"type":"move",…}}  (or a snapshot)
//! {"type":"ping","t_ms":5000}
//!            {"type":"pong","t_ms":5000,"host_t_ms":86234}
//!            {"type":"heartbeat","seq":57,"host_t_ms":86500}
//!            {"type":"bye","reason":"the referee is shutting down","retry":true}
//! ```
//!
//! A spectator may send only `hello` (first, once), `ping` and `bye`, in
//! lines of at most `SPECTATOR_LINE_LIMIT` bytes; anything else closes its
//! connection. The referee's lines are at most [`REFEREE_LINE_LIMIT`] bytes.
//! Both sides skip fields they do not know; a spectator skips message types
//! it does not know. An `event` carries the event exactly as `--json` prints
//! it, so that `goref --watch … --headless --json` prints the same lines.
//!
//! An event's hall (`goref event DIR --serve`) speaks the same wire: its
//! welcome says `"hall":true`, a `hall` message carries the event's picture
//! (its round, its boards, the standings), and each board's `snapshot` and
//! `event` carry the board's number (an event also the hall's time it was
//! sent at, `at`, in ms). A late joiner gets the picture and a snapshot of
//! every board.

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use goref_core::referee::{GameView, StampedEvent};
use goref_core::tournament::hall::EventPicture;

/// The protocol's version: the `version` of `hello` and `welcome`.
pub const VERSION: u32 = 1;

/// The `bye` reason for a hello with no token where the referee needs one.
pub(crate) const TOKEN_NEEDED: &str =
    "this game needs a token (give it with --token or GOREF_TOKEN)";

/// The `bye` reason for a hello with a token that is not the referee's. A
/// referee older than [`TOKEN_NEEDED`] gives it to a hello with none too.
pub(crate) const WRONG_TOKEN: &str = "wrong token";

/// The longest line a spectator may send, newline included.
pub(crate) const SPECTATOR_LINE_LIMIT: usize = 4096;

/// The longest line the referee sends, newline included: a snapshot is
/// well under 1 MiB (the view bounds every list and text).
pub const REFEREE_LINE_LIMIT: usize = 4 << 20;

/// What a spectator sends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum SpectatorMessage {
    /// The first line: the protocol version, the token when the referee
    /// asks for one, and, to resume, the stream and the last `seq` seen.
    Hello {
        version: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        token: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        stream: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        since_seq: Option<u64>,
    },
    /// A heartbeat, answered by `pong`: `t_ms` is the spectator's own clock.
    Ping { t_ms: u64 },
    /// The spectator leaves.
    Bye,
    /// An operator's command line (`dead D4`, `adjudicate B+R`, a typed
    /// move), from a screen attached through the game folder's socket. A
    /// spectator on `--serve` that sends one is closed.
    Command { line: String },
}

/// What the referee sends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RefereeMessage {
    /// The answer to `hello`: the game's stream and where it stands. A
    /// `snapshot` follows, or with `resume` the events after `since_seq`.
    Welcome {
        version: u32,
        producer: String,
        stream: String,
        seq: u64,
        /// The referee's stream time now, in ms.
        host_t_ms: u64,
        resume: bool,
        /// The stream is an event's hall: a picture and many boards.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        hall: bool,
    },
    /// The whole view at `seq` of `stream`: the spectator starts afresh
    /// from it. Also sent when a new game starts and to a spectator that
    /// fell behind.
    Snapshot {
        stream: String,
        seq: u64,
        view: Box<GameView>,
        /// In a hall: the board whose game this is.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        board: Option<u32>,
    },
    /// One event of the stream, as `--json` prints it.
    Event {
        event: RawEvent,
        /// In a hall: the board whose game it is of.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        board: Option<u32>,
    },
    /// In a hall: the event as it stands now.
    Hall { picture: Box<EventPicture> },
    /// Sent every few seconds, so a quiet game is told from a dead link.
    Heartbeat { seq: u64, host_t_ms: u64 },
    /// The answer to `ping`, with the spectator's `t_ms` back.
    Pong { t_ms: u64, host_t_ms: u64 },
    /// The referee closes the connection: why, and whether connecting
    /// again can help (not for a wrong token or version).
    Bye { reason: String, retry: bool },
    /// A type this goref does not know (a newer referee's): skipped.
    #[serde(other)]
    Unknown,
}

/// An event's JSON text as the referee sent it, kept whole so that it can
/// be printed as it came.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RawEvent(pub Box<RawValue>);

impl RawEvent {
    pub fn get(&self) -> &str {
        self.0.get()
    }
}

impl PartialEq for RawEvent {
    fn eq(&self, other: &RawEvent) -> bool {
        self.get() == other.get()
    }
}

/// The `seq` and time of an event whose type may be unknown here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub(crate) struct EventStamp {
    pub seq: u64,
    pub t_ms: u64,
}

/// Why a line could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WireError {
    #[error("a line longer than {limit} bytes")]
    TooLong { limit: usize },
    #[error("not a message of the mirror protocol: {0}")]
    Malformed(String),
}

impl SpectatorMessage {
    /// The message as a line, newline included.
    pub fn line(&self) -> String {
        line_of(self)
    }

    /// Reads one line a spectator sent; any type but the three is malformed.
    pub fn parse(line: &str) -> Result<SpectatorMessage, WireError> {
        parse_capped(line, SPECTATOR_LINE_LIMIT)
    }
}

impl RefereeMessage {
    /// The message as a line, newline included.
    pub fn line(&self) -> String {
        line_of(self)
    }

    /// Reads one line the referee sent. An `event` is read apart, keeping
    /// its text whole (serde cannot keep raw text inside a tagged enum).
    pub fn parse(line: &str) -> Result<RefereeMessage, WireError> {
        #[derive(Deserialize)]
        struct Kind<'a> {
            #[serde(rename = "type", borrow)]
            kind: std::borrow::Cow<'a, str>,
        }
        #[derive(Deserialize)]
        struct Envelope {
            event: RawEvent,
            #[serde(default)]
            board: Option<u32>,
        }
        let is_event = matches!(
            parse_capped::<Kind>(line, REFEREE_LINE_LIMIT),
            Ok(Kind { kind }) if kind == "event"
        );
        match is_event {
            true => parse_capped::<Envelope>(line, REFEREE_LINE_LIMIT).map(|envelope| {
                RefereeMessage::Event {
                    event: envelope.event,
                    board: envelope.board,
                }
            }),
            false => parse_capped(line, REFEREE_LINE_LIMIT),
        }
    }

    /// The `event` line of an event already serialised as `--json` prints
    /// it, without parsing it again.
    pub(crate) fn event_line(event_json: &str) -> String {
        const HEAD: &str = "{\"type\":\"event\",\"event\":";
        let mut line = String::with_capacity(HEAD.len() + event_json.len() + 2);
        line.push_str(HEAD);
        line.push_str(event_json);
        line.push_str("}\n");
        line
    }

    /// The `event` line of board `board` of a hall, sent at the hall's time
    /// `at_ms`.
    pub(crate) fn board_event_line(board: u32, at_ms: u64, event_json: &str) -> String {
        format!("{{\"type\":\"event\",\"board\":{board},\"at\":{at_ms},\"event\":{event_json}}}\n")
    }

    /// The `snapshot` line of `view` at `seq`, without cloning the view;
    /// in a hall, of board `board`.
    pub(crate) fn snapshot_line(
        stream: &str,
        seq: u64,
        view: &GameView,
        board: Option<u32>,
    ) -> String {
        #[derive(Serialize)]
        #[serde(tag = "type", rename = "snapshot")]
        struct SnapshotRef<'a> {
            stream: &'a str,
            seq: u64,
            view: &'a GameView,
            #[serde(skip_serializing_if = "Option::is_none")]
            board: Option<u32>,
        }
        line_of(&SnapshotRef {
            stream,
            seq,
            view,
            board,
        })
    }
}

/// An `event`'s content: the event when this goref knows its type, and
/// its stamp either way.
pub(crate) fn read_event(raw: &RawEvent) -> Result<(EventStamp, Option<StampedEvent>), WireError> {
    let stamp: EventStamp = serde_json::from_str(raw.get())
        .map_err(|e| WireError::Malformed(format!("an event without seq and t_ms: {e}")))?;
    Ok((stamp, serde_json::from_str(raw.get()).ok()))
}

fn line_of(message: &impl Serialize) -> String {
    let mut line = serde_json::to_string(message).expect("mirror messages serialise");
    line.push('\n');
    line
}

fn parse_capped<'a, T: Deserialize<'a>>(line: &'a str, limit: usize) -> Result<T, WireError> {
    if line.len() > limit {
        return Err(WireError::TooLong { limit });
    }
    serde_json::from_str(line.trim_end_matches(['\n', '\r'])).map_err(|e| {
        let mut shown: String = line.chars().take(60).collect();
        if shown.len() < line.trim_end().len() {
            shown.push('…');
        }
        WireError::Malformed(format!("{e} in {shown:?}"))
    })
}

#[cfg(test)]
mod tests;
