//! The 4-byte GMP packet: its bits, its checksum, its meaning, and how it is
//! found in a byte stream that also carries talk characters
//! (`reference/sgmp.md` §2–§7).
//!
//! [`Packet`] encodes and decodes one packet; [`Deframer`] cuts a stream of
//! bytes, arriving in chunks of any size, into [`Frame`]s; [`describe`] and
//! [`hex`] spell packets for the operator's trace the way the CGF sample
//! program logs them (`01:a1:a0:80  NEWGAME`).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::game::coord::{Color, CoordError, Point};

/// The value every OK is sent with: all ten bits set (§5.1). CgfGoBan
/// recognises an OK only as `87:ff`; any value is accepted on receipt.
pub const OK_VALUE: u16 = 0x3FF;

/// The largest value the 10-bit field can carry.
pub const MAX_VALUE: u16 = 0x3FF;

/// Bit 9 of a MOVE value: the stone is White.
const WHITE_BIT: u16 = 0x200;
/// Bits 8..0 of a MOVE value: the position, 0 = pass.
const POSITION_MASK: u16 = 0x1FF;
/// Bit 9 of a QUERY value: "do you support extended command n?".
const EXTENDED_QUERY_BIT: u16 = 0x200;

/// The eight commands of §5, numbered as on the line (bits 6..4 of b2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Command {
    Ok,
    Deny,
    NewGame,
    Query,
    Answer,
    Move,
    Undo,
    Extended,
}

impl Command {
    pub const ALL: [Command; 8] = [
        Command::Ok,
        Command::Deny,
        Command::NewGame,
        Command::Query,
        Command::Answer,
        Command::Move,
        Command::Undo,
        Command::Extended,
    ];

    /// The command's number on the line, 0..=7.
    pub fn number(self) -> u8 {
        self as u8
    }

    /// The command with this number; only the low three bits count.
    pub fn from_number(number: u8) -> Command {
        Command::ALL[(number & 0x07) as usize]
    }

    /// The spec's name, in capitals: `OK`, `NEWGAME`, ...
    pub fn name(self) -> &'static str {
        match self {
            Command::Ok => "OK",
            Command::Deny => "DENY",
            Command::NewGame => "NEWGAME",
            Command::Query => "QUERY",
            Command::Answer => "ANSWER",
            Command::Move => "MOVE",
            Command::Undo => "UNDO",
            Command::Extended => "EXTENDED",
        }
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why four bytes are not a packet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PacketError {
    #[error("byte {0:#04x} cannot start a packet (start bytes are 0x00..=0x03)")]
    BadStart(u8),
    #[error("byte {index} of the packet is {byte:#04x}, which lacks bit 7")]
    BadContinuation { index: usize, byte: u8 },
    #[error("checksum byte is {found:#04x}, the packet needs {expected:#04x}")]
    BadChecksum { expected: u8, found: u8 },
    #[error("reserved bit 3 of the command byte is set")]
    Reserved,
}

/// One packet, as §3 lays it out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Packet {
    /// S, bit 0 of b0: the sender's own sequence bit.
    pub seq: bool,
    /// A, bit 1 of b0: the sender's copy of the receiver's sequence bit.
    pub ack: bool,
    pub command: Command,
    /// The 10-bit value; higher bits are dropped when encoding.
    pub value: u16,
}

/// The checksum byte for b0, b2 and b3 (§4).
pub fn checksum(b0: u8, b2: u8, b3: u8) -> u8 {
    0x80 | (b0.wrapping_add(b2).wrapping_add(b3) & 0x7F)
}

impl Packet {
    pub fn new(seq: bool, ack: bool, command: Command, value: u16) -> Packet {
        Packet {
            seq,
            ack,
            command,
            value,
        }
    }

    /// The four bytes on the line. The reserved bit is always 0 and the value
    /// is masked to 10 bits.
    pub fn encode(&self) -> [u8; 4] {
        let value = self.value & MAX_VALUE;
        let b0 = self.seq as u8 | (self.ack as u8) << 1;
        let b2 = 0x80 | self.command.number() << 4 | (value >> 7) as u8;
        let b3 = 0x80 | (value & 0x7F) as u8;
        [b0, checksum(b0, b2, b3), b2, b3]
    }

    /// Reads four bytes. The whole checksum byte must match (GNU Go, GoGui);
    /// a packet with the reserved bit set is refused even when its checksum
    /// is right, as GNU Go ignores those.
    pub fn decode(bytes: [u8; 4]) -> Result<Packet, PacketError> {
        let [b0, b1, b2, b3] = bytes;
        if b0 > 0x03 {
            return Err(PacketError::BadStart(b0));
        }
        for (index, &byte) in bytes.iter().enumerate().skip(1) {
            if byte & 0x80 == 0 {
                return Err(PacketError::BadContinuation { index, byte });
            }
        }
        let expected = checksum(b0, b2, b3);
        if b1 != expected {
            return Err(PacketError::BadChecksum {
                expected,
                found: b1,
            });
        }
        if b2 & 0x08 != 0 {
            return Err(PacketError::Reserved);
        }
        Ok(Packet {
            seq: b0 & 1 != 0,
            ack: b0 & 2 != 0,
            command: Command::from_number(b2 >> 4),
            value: u16::from(b2 & 0x07) << 7 | u16::from(b3 & 0x7F),
        })
    }
}

/// The QUERY numbers of §7.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Query {
    Game,
    BufferSize,
    ProtocolVersion,
    Stones,
    BlackTime,
    WhiteTime,
    CharacterSet,
    Rules,
    Handicap,
    BoardSize,
    TimeLimit,
    Color,
    Who,
}

impl Query {
    pub const ALL: [Query; 13] = [
        Query::Game,
        Query::BufferSize,
        Query::ProtocolVersion,
        Query::Stones,
        Query::BlackTime,
        Query::WhiteTime,
        Query::CharacterSet,
        Query::Rules,
        Query::Handicap,
        Query::BoardSize,
        Query::TimeLimit,
        Query::Color,
        Query::Who,
    ];

    /// The QUERY value that asks this, 0..=12.
    pub fn number(self) -> u16 {
        self as u16
    }

    /// The query a QUERY value asks, if it is one of the thirteen (an
    /// extended query, bit 9 set, is none of them).
    pub(crate) fn from_number(number: u16) -> Option<Query> {
        Query::ALL.get(usize::from(number)).copied()
    }

    /// Lower-case words for the trace: `colour`, `board size`, ...
    pub fn name(self) -> &'static str {
        match self {
            Query::Game => "game",
            Query::BufferSize => "buffer size",
            Query::ProtocolVersion => "protocol version",
            Query::Stones => "stones",
            Query::BlackTime => "black time",
            Query::WhiteTime => "white time",
            Query::CharacterSet => "character set",
            Query::Rules => "rules",
            Query::Handicap => "handicap",
            Query::BoardSize => "board size",
            Query::TimeLimit => "time limit",
            Query::Color => "colour",
            Query::Who => "who",
        }
    }
}

/// The MOVE value for a stone of `color` at `point`, or a pass (§6).
pub fn encode_move(color: Color, point: Option<Point>, size: u8) -> u16 {
    let colour = match color {
        Color::Black => 0,
        Color::White => WHITE_BIT,
    };
    colour | point.map_or(0, |p| p.to_gmp(size) & POSITION_MASK)
}

/// The colour and point of a MOVE value (`None` = pass). Fails when the
/// position is off a `size` x `size` board.
pub fn decode_move(value: u16, size: u8) -> Result<(Color, Option<Point>), CoordError> {
    let color = if value & WHITE_BIT != 0 {
        Color::White
    } else {
        Color::Black
    };
    Ok((color, Point::from_gmp(value & POSITION_MASK, size)?))
}

/// The packet in words, for the trace: `NEWGAME`, `QUERY 11 (colour)`,
/// `MOVE B C17 (pos 307)`, `MOVE W pass`, `MOVE ? (pos 400, off the board)`.
/// An OK with a value other than 0x3FF says so (`OK (value 0)`), as that is
/// the trap of §5.1.
pub fn describe(packet: &Packet, size: u8) -> String {
    let value = packet.value & MAX_VALUE;
    match packet.command {
        Command::Ok if value == OK_VALUE => "OK".to_string(),
        Command::Ok => format!("OK (value {value})"),
        Command::Deny | Command::NewGame if value == 0 => packet.command.name().to_string(),
        Command::Query if value & EXTENDED_QUERY_BIT != 0 => format!(
            "QUERY {value} (extended command {}?)",
            value & POSITION_MASK
        ),
        Command::Query => match Query::from_number(value) {
            Some(query) => format!("QUERY {value} ({})", query.name()),
            None => format!("QUERY {value}"),
        },
        Command::Move => match decode_move(value, size) {
            Ok((color, Some(point))) => format!(
                "MOVE {} {} (pos {})",
                color.letter(),
                point.to_gtp(),
                value & POSITION_MASK
            ),
            Ok((color, None)) => format!("MOVE {} pass", color.letter()),
            Err(_) => format!("MOVE ? (pos {}, off the board)", value & POSITION_MASK),
        },
        _ => format!("{} {value}", packet.command.name()),
    }
}

/// Bytes as lower-case hex pairs joined by `:`, e.g. `01:a1:a0:80`.
pub fn hex(bytes: &[u8]) -> String {
    let pairs: Vec<String> = bytes.iter().map(|b| format!("{b:02x}")).collect();
    pairs.join(":")
}

/// The inverse of [`hex`]: pairs of hex digits, in either case, separated by
/// `:` and/or white space, or run together (`01a1a080`). `None` when any
/// group is not an even number of hex digits.
pub fn parse_hex(text: &str) -> Option<Vec<u8>> {
    let mut bytes = Vec::new();
    for group in text
        .split(|c: char| c == ':' || c.is_whitespace())
        .filter(|g| !g.is_empty())
    {
        if group.len() % 2 != 0 || !group.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        for pair in group.as_bytes().chunks(2) {
            let pair = std::str::from_utf8(pair).ok()?;
            bytes.push(u8::from_str_radix(pair, 16).ok()?);
        }
    }
    Some(bytes)
}

/// What the [`Deframer`] found in the byte stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Frame {
    /// A packet with a good checksum.
    Packet { packet: Packet, bytes: [u8; 4] },
    /// Four bytes whose checksum is wrong: dropped, never answered (§8.5).
    BadChecksum { bytes: [u8; 4] },
    /// Checksum right but the reserved bit 3 of b2 set: dropped, as GNU Go
    /// ignores these.
    Reserved { bytes: [u8; 4] },
    /// A run of talk bytes 0x04..=0x7F, as text.
    Talk(String),
    /// Continuation bytes (>= 0x80) that arrived outside a packet.
    Stray(Vec<u8>),
    /// A partial packet abandoned because a new start byte arrived.
    Cut(Vec<u8>),
}

/// The run of talk or stray bytes being collected within one push.
#[derive(Debug)]
enum Run {
    None,
    Talk(String),
    Stray(Vec<u8>),
}

/// Cuts a byte stream into [`Frame`]s, following the Recommendation of §2:
/// a start byte (0x00..=0x03) always starts a new packet, abandoning any
/// partial one; talk bytes are reported without disturbing a partial packet;
/// continuation bytes outside a packet are stray; four collected bytes are
/// checked and decoded.
///
/// Between calls only the partial packet (at most three bytes) is kept.
/// Within one [`push`](Self::push), consecutive talk bytes come out as one
/// [`Frame::Talk`] and consecutive stray bytes as one [`Frame::Stray`]. The
/// packets found do not depend on how the stream was chunked.
#[derive(Debug, Default)]
pub struct Deframer {
    partial: Vec<u8>,
}

impl Deframer {
    pub fn new() -> Self {
        Deframer {
            partial: Vec::with_capacity(4),
        }
    }

    /// Takes the next bytes of the stream and returns the frames they complete.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<Frame> {
        let mut frames = Vec::new();
        let mut rest = bytes;
        while !rest.is_empty() {
            let (more, taken) = self.push_to_packet(rest);
            frames.extend(more);
            rest = &rest[taken..];
        }
        frames
    }

    /// Like [`push`](Self::push), but stops after the first byte that
    /// completes a group of four (a packet, good or bad), so that the caller
    /// can act on it before reading on. Returns the frames and how many bytes
    /// were taken; the frames of successive calls are those of one `push`.
    pub(crate) fn push_to_packet(&mut self, bytes: &[u8]) -> (Vec<Frame>, usize) {
        let mut frames = Vec::new();
        let mut run = Run::None;
        for (i, &b) in bytes.iter().enumerate() {
            match b {
                0x00..=0x03 => {
                    flush(&mut run, &mut frames);
                    if !self.partial.is_empty() {
                        frames.push(Frame::Cut(std::mem::take(&mut self.partial)));
                    }
                    self.partial.push(b);
                }
                0x04..=0x7F => match &mut run {
                    Run::Talk(text) => text.push(b as char),
                    _ => {
                        flush(&mut run, &mut frames);
                        run = Run::Talk((b as char).to_string());
                    }
                },
                _ if !self.partial.is_empty() => {
                    flush(&mut run, &mut frames);
                    self.partial.push(b);
                    if self.partial.len() == 4 {
                        let bytes = [
                            self.partial[0],
                            self.partial[1],
                            self.partial[2],
                            self.partial[3],
                        ];
                        self.partial.clear();
                        frames.push(frame(bytes));
                        return (frames, i + 1);
                    }
                }
                _ => match &mut run {
                    Run::Stray(stray) => stray.push(b),
                    _ => {
                        flush(&mut run, &mut frames);
                        run = Run::Stray(vec![b]);
                    }
                },
            }
        }
        flush(&mut run, &mut frames);
        (frames, bytes.len())
    }
}

fn flush(run: &mut Run, frames: &mut Vec<Frame>) {
    match std::mem::replace(run, Run::None) {
        Run::None => {}
        Run::Talk(text) => frames.push(Frame::Talk(text)),
        Run::Stray(bytes) => frames.push(Frame::Stray(bytes)),
    }
}

/// The frame for four collected bytes: a start byte and three continuation
/// bytes, so only the checksum and the reserved bit can be wrong.
fn frame(bytes: [u8; 4]) -> Frame {
    match Packet::decode(bytes) {
        Ok(packet) => Frame::Packet { packet, bytes },
        Err(PacketError::Reserved) => Frame::Reserved { bytes },
        Err(_) => Frame::BadChecksum { bytes },
    }
}

#[cfg(test)]
mod tests;
