//! The trace of what a line carries besides packets (talk, stray bytes,
//! partial packets cut short, groups of four with a bad checksum or the
//! reserved bit), summarised without IO.
//!
//! One trace entry per frame is right for the odd stray byte and wrong for
//! a line that carries noise (a wrong baud rate, a floating input, a program
//! printing its thoughts): random bytes break into a new frame every two
//! bytes or so, and the trace grew by megabytes a minute. So:
//!
//! * Frames of noise with no good packet between them coalesce into one
//!   entry. Its hex keeps the first `KEPT_BYTES` bytes; its meaning gives
//!   the total count. An entry made of a single frame reads as that frame
//!   always did (`stray bytes`, `talk "..."`, `bad checksum`).
//! * An entry goes out when the bytes that make it have been read, if the
//!   last one is at least `MIN_INTERVAL` old; otherwise the noise is held,
//!   gathers what follows, and goes out at `Noise::due`: at most four
//!   entries a second, however fast the noise comes.
//! * Held noise goes out before the next good packet, whatever the rate, so
//!   the trace keeps the order of the line.
//!
//! The caller passes `now` in; nothing here reads the clock.

use std::time::{Duration, Instant};

use super::packet::hex;
use super::trace::{Direction, TraceEntry, TraceFlag};

/// The bytes of noise one trace entry shows in its hex.
pub(crate) const KEPT_BYTES: usize = 16;

/// The least time between two entries of noise, unless a packet follows.
pub(crate) const MIN_INTERVAL: Duration = Duration::from_millis(250);

/// Noise read and not yet traced.
#[derive(Debug)]
struct Pending {
    /// The first [`KEPT_BYTES`] bytes.
    kept: Vec<u8>,
    bytes: u64,
    frames: u64,
    /// The kinds of noise, in the order first seen.
    flags: Vec<TraceFlag>,
    /// The meaning of the first frame, used when it is the only one.
    first_meaning: String,
    since: Instant,
}

/// One line's noise, gathered into trace entries. See the module
/// documentation.
#[derive(Debug, Default)]
pub struct Noise {
    pending: Option<Pending>,
    last_entry: Option<Instant>,
}

impl Noise {
    pub fn new() -> Noise {
        Noise::default()
    }

    /// Adds one frame of noise: its bytes, its kind and its meaning as a
    /// trace entry of its own would give it.
    pub(crate) fn add(&mut self, now: Instant, bytes: &[u8], flag: TraceFlag, meaning: String) {
        let pending = self.pending.get_or_insert_with(|| Pending {
            kept: Vec::with_capacity(KEPT_BYTES),
            bytes: 0,
            frames: 0,
            flags: Vec::new(),
            first_meaning: meaning,
            since: now,
        });
        let room = KEPT_BYTES - pending.kept.len();
        pending.kept.extend(bytes.iter().take(room));
        pending.bytes += bytes.len() as u64;
        pending.frames += 1;
        if !pending.flags.contains(&flag) {
            pending.flags.push(flag);
        }
    }

    /// The entry for the noise gathered so far, if the rate allows one now;
    /// otherwise the noise stays held until `due`.
    pub fn flush(&mut self, now: Instant) -> Option<TraceEntry> {
        let allowed = self
            .last_entry
            .is_none_or(|last| now >= last + MIN_INTERVAL);
        if allowed {
            self.flush_now(now)
        } else {
            None
        }
    }

    /// The entry for the noise gathered so far, whatever the rate: a packet
    /// follows, and the trace must keep the order of the line.
    pub(crate) fn flush_now(&mut self, now: Instant) -> Option<TraceEntry> {
        let pending = self.pending.take()?;
        self.last_entry = Some(now);
        Some(entry(pending, now))
    }

    /// When held noise may go out: `None` when nothing is held.
    pub(crate) fn due(&self) -> Option<Instant> {
        self.pending.as_ref()?;
        Some(self.last_entry? + MIN_INTERVAL)
    }
}

fn entry(pending: Pending, now: Instant) -> TraceEntry {
    let Pending {
        kept,
        bytes,
        frames,
        flags,
        first_meaning,
        since,
    } = pending;
    let shown = if bytes > kept.len() as u64 {
        format!(", first {} shown", kept.len())
    } else {
        String::new()
    };
    let (meaning, note) = if frames == 1 {
        let meaning = if shown.is_empty() {
            first_meaning
        } else {
            format!("{first_meaning} ({bytes} bytes{shown})")
        };
        (meaning, None)
    } else {
        let kinds: Vec<&str> = flags.iter().map(|f| kind(*f)).collect();
        let span = now.saturating_duration_since(since).as_secs_f64();
        (
            format!("noise: {bytes} bytes ({}){shown}", kinds.join(", ")),
            Some(format!("{frames} pieces over {span:.2} s")),
        )
    };
    TraceEntry {
        direction: Direction::In,
        hex: hex(&kept),
        meaning,
        flags,
        note,
    }
}

/// A kind of noise in words.
fn kind(flag: TraceFlag) -> &'static str {
    match flag {
        TraceFlag::Stray => "stray",
        TraceFlag::Talk => "talk",
        TraceFlag::BadChecksum => "bad checksum",
        TraceFlag::Reserved => "reserved bit",
        TraceFlag::Cut => "cut",
        _ => "other",
    }
}
