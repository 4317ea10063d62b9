//! One line of the packet trace: which way the bytes went, what they were
//! in hex, what they meant, and what was unusual about them. The link and
//! its noise summary both write it; the screen, the stream and `goref
//! decode` read it.

use serde::{Deserialize, Serialize};

use super::packet::{hex, parse_hex, Packet};

/// Which way a packet crossed the line, seen from the referee.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    In,
    Out,
}

/// What was unusual about a trace line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TraceFlag {
    /// Four bytes with a wrong checksum, dropped.
    BadChecksum,
    /// A command already accepted, re-OKed and not delivered again.
    Duplicate,
    /// Our outstanding packet, sent again.
    Resend,
    /// Continuation bytes outside a packet.
    Stray,
    /// Talk characters.
    Talk,
    /// A packet with the reserved bit set, dropped.
    Reserved,
    /// A partial packet abandoned for a new start byte.
    Cut,
    /// A packet that means nothing in the current state, dropped.
    Ignored,
    /// Both sides sent a command at once; both are kept.
    Conflict,
    /// A new command that acknowledged our outstanding one.
    ImplicitAck,
}

/// One line of the packet trace: what crossed the line, and what it meant.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TraceEntry {
    pub direction: Direction,
    pub hex: String,
    pub meaning: String,
    pub flags: Vec<TraceFlag>,
    pub note: Option<String>,
}

impl TraceEntry {
    pub(super) fn new(
        direction: Direction,
        bytes: &[u8],
        meaning: String,
        flags: Vec<TraceFlag>,
    ) -> Self {
        TraceEntry {
            direction,
            hex: hex(bytes),
            meaning,
            flags,
            note: None,
        }
    }

    /// The entry is of bytes that are not a packet (talk, stray, cut, bad
    /// checksum, reserved bit), perhaps summarised: its hex may show only
    /// the first of them.
    pub fn is_noise(&self) -> bool {
        self.flags.iter().any(|f| {
            matches!(
                f,
                TraceFlag::Stray
                    | TraceFlag::Talk
                    | TraceFlag::Cut
                    | TraceFlag::BadChecksum
                    | TraceFlag::Reserved
            )
        })
    }

    /// The packet this entry shows, when it is one (not noise).
    pub fn packet(&self) -> Option<Packet> {
        if self.is_noise() {
            return None;
        }
        let bytes = <[u8; 4]>::try_from(parse_hex(&self.hex)?).ok()?;
        Packet::decode(bytes).ok()
    }

    pub(super) fn with_note(mut self, note: impl Into<String>) -> Self {
        self.note = Some(note.into());
        self
    }
}
