//! The line's real speed, measured from the times its bytes arrive, and
//! what the card says of it against the configured baud rate.

use std::time::{Duration, Instant};

use crate::check::card::Section;

/// Bits on the wire per byte: a start bit, eight data bits, a stop bit.
const BITS_PER_BYTE: f64 = 10.0;

/// The line's speed, measured as the reads come: the bytes of a packet
/// that came after its first read, over the time they took. Nothing of a
/// read is kept, so a program that floods the line costs no memory.
#[derive(Debug, Default)]
pub(super) struct Speed {
    bytes: usize,
    span: Duration,
    packets: usize,
    /// The packet being read: when its start byte came, and its bytes so far.
    packet_start: Option<(Instant, usize)>,
}

impl Speed {
    pub(super) fn read(&mut self, at: Instant, chunk: &[u8]) {
        for byte in chunk {
            if *byte < 0x04 {
                self.packet_start = Some((at, 1));
                continue;
            }
            let Some((start, count)) = self.packet_start.as_mut() else {
                continue;
            };
            *count += 1;
            if *count == 4 {
                self.packets += 1;
                if at > *start {
                    self.span += at.saturating_duration_since(*start);
                    self.bytes += 3;
                }
                self.packet_start = None;
            }
        }
    }
}

/// The line's speed against its baud rate.
pub(super) fn judge_speed(speed: &Speed, baud: Option<u32>, quality: &mut Section) {
    let Speed {
        bytes,
        span,
        packets,
        ..
    } = *speed;
    let Some(baud) = baud else {
        quality.pass("speed", "a TCP line: no baud rate to measure against");
        return;
    };
    if packets == 0 {
        return;
    }
    if bytes == 0 || span.is_zero() {
        quality.pass(
            "speed",
            format!(
                "every packet came in one read: faster than {baud} baud can show (a pty or a \
                 fast line)"
            ),
        );
        return;
    }
    let measured = bytes as f64 / span.as_secs_f64() * BITS_PER_BYTE;
    let reason = format!("about {measured:.0} baud measured, {baud} set");
    let set = f64::from(baud);
    if measured < 0.8 * set {
        quality.warn(
            "speed",
            format!("{reason}: the program writes slower than its line"),
        );
    } else if measured > 1.5 * set {
        quality.pass(
            "speed",
            format!("{reason}: faster than a line at that rate can carry (a pty?)"),
        );
    } else {
        quality.pass("speed", reason);
    }
}
