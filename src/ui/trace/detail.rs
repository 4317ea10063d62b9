//! The detail of the selected trace row, in the lower rows of the pane.
//!
//! ```text
//! packet seq 7  1:01.2 (61210 ms)  Black  → out: referee to program
//! MOVE W Q16 (pos 301)  flags RESEND  wire 16.7ms  note resend 1
//! b0 02  start byte  S=0 (sender's sequence bit)  A=1 (ack: receiver's bit)
//! b1 85  checksum 0x80 | (b0+b2+b3) & 0x7f = 85: good
//! b2 d6  command 5 MOVE (bits 6-4)  reserved bit 3 = 0  value bits 9-7 = 110
//! b3 ad  value bits 6-0 = 0101101  value 813: W, position 301 (Q16)
//! ```
//!
//! A packet's four bytes are taken apart as the line carries them
//! ([`goref_core::protocol::sgmp::packet`]): b0 is the start byte with the
//! sender's sequence bit S (bit 0) and its acknowledgement A (bit 1); b1
//! the checksum of the other three; b2 the command (bits 6-4), the reserved
//! bit 3 and the value's bits 9-7; b3 the value's bits 6-0. The checksum is
//! worked out afresh, so a bad one shows what it should have been. Bytes
//! that are not a packet (talk, stray, cut) are listed with their kind, and
//! a GTP or stderr line is shown whole, wrapped.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use goref_core::protocol::sgmp::link::Direction;
use goref_core::protocol::sgmp::packet::{decode_move, parse_hex, Command};
use goref_core::referee::event::LineDirection;
use goref_core::referee::view::{AudienceLine, PacketLine, TraceLine};

use super::{clock, flag_word, is_problem_flag, wire, TraceRow};
use crate::ui::Theme;

/// The detail of `row` in at most `height` lines of `width` columns. A
/// board of `size` spells MOVE positions.
pub(super) fn lines(
    row: TraceRow,
    size: u8,
    width: u16,
    height: u16,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let arrow = |glyph: char, ascii: char| if theme.unicode { glyph } else { ascii };
    let (kind, way) = match row {
        TraceRow::Packet(p) if p.entry.direction == Direction::Out => (
            "packet",
            format!("{} out: referee to program", arrow('→', '>')),
        ),
        TraceRow::Packet(_) => (
            "packet",
            format!("{} in: program to referee", arrow('←', '<')),
        ),
        TraceRow::Line(l) => match l.direction {
            LineDirection::Sent => ("gtp", format!("{} sent to the program", arrow('→', '>'))),
            LineDirection::Received => (
                "gtp",
                format!("{} received from the program", arrow('←', '<')),
            ),
            LineDirection::Stderr => ("stderr", "! the program's stderr".to_string()),
        },
        TraceRow::Audience(_) => ("spectators", "through --serve".to_string()),
    };
    let side = row
        .color()
        .map_or("nobody's".to_string(), |c| c.to_string());
    let header = format!(
        "{kind} seq {}  {} ({} ms)  {side}  {way}",
        row.seq(),
        clock(row.t_ms()),
        row.t_ms(),
    );
    let mut lines = vec![Line::styled(header, theme.title)];
    match row {
        TraceRow::Packet(packet) => {
            lines.push(summary(packet, theme));
            lines.extend(
                bytes(&packet.entry.hex, size)
                    .into_iter()
                    .map(|(text, bad)| {
                        Line::styled(text, if bad { theme.problem } else { theme.text })
                    }),
            );
        }
        TraceRow::Line(TraceLine {
            line: text, note, ..
        }) => {
            lines.extend(wrapped(text, width, theme.text));
            if let Some(note) = note {
                lines.extend(wrapped(note, width, theme.problem));
            }
        }
        TraceRow::Audience(AudienceLine { text, .. }) => {
            lines.extend(wrapped(text, width, theme.text));
        }
    }
    lines.truncate(usize::from(height));
    lines
}

/// `text` cut into rows of `width` characters.
fn wrapped(text: &str, width: u16, style: Style) -> Vec<Line<'static>> {
    let chars: Vec<char> = text.chars().collect();
    chars
        .chunks(usize::from(width.max(1)))
        .map(|chunk| Line::styled(chunk.iter().collect::<String>(), style))
        .collect()
}

/// The packet's meaning, flags, wire time and note.
fn summary(packet: &PacketLine, theme: &Theme) -> Line<'static> {
    let entry = &packet.entry;
    let mut spans = vec![Span::styled(entry.meaning.clone(), theme.text)];
    if entry.flags.is_empty() {
        spans.push(Span::styled("  no flags", theme.dim));
    } else {
        spans.push(Span::styled("  flags", theme.dim));
        for &flag in &entry.flags {
            let style = if is_problem_flag(flag) {
                theme.problem
            } else {
                theme.text
            };
            spans.push(Span::styled(format!(" {}", flag_word(flag)), style));
        }
    }
    if let Some(ms) = packet.wire_ms {
        spans.push(Span::styled(format!("  wire {}", wire(ms)), theme.text));
    }
    if let Some(note) = &entry.note {
        spans.push(Span::styled(format!("  note {note}"), theme.text));
    }
    Line::from(spans)
}

/// The lines that take the bytes of `hex` apart, each with whether it
/// shows a fault.
pub(super) fn bytes(hex: &str, size: u8) -> Vec<(String, bool)> {
    match parse_hex(hex) {
        Some(bytes) => match <[u8; 4]>::try_from(bytes.as_slice()) {
            Ok(four) if is_packet_shaped(four) => packet_fields(four, size),
            _ => bytes
                .chunks(4)
                .enumerate()
                .map(|(i, chunk)| {
                    let kinds: Vec<String> = chunk
                        .iter()
                        .map(|&b| format!("{b:02x} {}", byte_kind(b)))
                        .collect();
                    (format!("b{:<2} {}", i * 4, kinds.join("  ")), false)
                })
                .collect(),
        },
        None => vec![(format!("hex {hex}"), false)],
    }
}

/// A start byte and three continuation bytes: laid out as a packet, though
/// its checksum or reserved bit may be wrong.
fn is_packet_shaped([b0, b1, b2, b3]: [u8; 4]) -> bool {
    b0 <= 0x03 && [b1, b2, b3].iter().all(|b| b & 0x80 != 0)
}

/// A byte on a GMP line on its own: a start byte, a continuation byte, or
/// talk (printed when it is printable).
fn byte_kind(byte: u8) -> String {
    match byte {
        0x00..=0x03 => "start".to_string(),
        0x20..=0x7E => format!("'{}'", byte as char),
        0x04..=0x7F => "talk".to_string(),
        _ => "cont".to_string(),
    }
}

/// One line a byte, for four bytes laid out as a packet.
fn packet_fields([b0, b1, b2, b3]: [u8; 4], size: u8) -> Vec<(String, bool)> {
    let expected = goref_core::protocol::sgmp::packet::checksum(b0, b2, b3);
    let checksum = if b1 == expected {
        (
            format!("b1 {b1:02x}  checksum 0x80 | (b0+b2+b3) & 0x7f = {expected:02x}: good"),
            false,
        )
    } else {
        (
            format!("b1 {b1:02x}  checksum 0x80 | (b0+b2+b3) & 0x7f = {expected:02x}: BAD, got {b1:02x}"),
            true,
        )
    };
    let command = Command::from_number(b2 >> 4);
    let reserved = b2 & 0x08 != 0;
    let value = u16::from(b2 & 0x07) << 7 | u16::from(b3 & 0x7F);
    let of_move = match command {
        Command::Move => match decode_move(value, size) {
            Ok((color, Some(point))) => {
                format!(
                    ": {}, position {} ({})",
                    color.letter(),
                    value & 0x1FF,
                    point.to_gtp()
                )
            }
            Ok((color, None)) => format!(": {}, pass", color.letter()),
            Err(_) => format!(": position {} off the board", value & 0x1FF),
        },
        _ => String::new(),
    };
    vec![
        (
            format!(
                "b0 {b0:02x}  start byte  S={} (sender's sequence bit)  A={} (ack: receiver's bit)",
                b0 & 1,
                b0 >> 1 & 1
            ),
            false,
        ),
        checksum,
        (
            format!(
                "b2 {b2:02x}  command {} {} (bits 6-4)  reserved bit 3 = {}  value bits 9-7 = {:03b}",
                command.number(),
                command.name(),
                if reserved { "1: SET" } else { "0" },
                b2 & 0x07
            ),
            reserved,
        ),
        (
            format!("b3 {b3:02x}  value bits 6-0 = {:07b}  value {value}{of_move}", b3 & 0x7F),
            false,
        ),
    ]
}
