//! One serial line's sequence bits, acknowledgements and resends
//! (`reference/sgmp.md` §8), without IO.
//!
//! The caller writes every [`LinkEvent::Transmit`] to the line, hands what it
//! reads to `Link::handle_bytes`, and calls `Link::handle_timeout` once
//! the instant from `Link::poll_timeout` has come. The link never reads the
//! clock.
//!
//! Receiving follows the reference algorithm of §8.2 (GNU Go and CGoban),
//! with these choices where a referee needs more:
//!
//! * **Duplicates are always re-OKed.** A command whose sequence bit equals
//!   the last one accepted is a repeat, so our OK was lost: the link sends OK
//!   again, whether or not a command of ours is outstanding (GoGui's
//!   behaviour, recommended in §8.4), flags it [`TraceFlag::Duplicate`] and
//!   never delivers it twice. GNU Go and CgfGoBan never resend, so our OKs
//!   must be reliable; both ignore an OK they did not expect.
//! * **Conflicts keep both commands.** A new command whose ack bit shows the
//!   peer has not yet seen our outstanding one means both sides spoke at
//!   once. GNU Go drops both, CGoban ignores the peer's, GoGui ignores the
//!   conflict. A referee may lose neither a program's move nor its own, so
//!   the link accepts and delivers the peer's command and keeps its own
//!   outstanding, rebuilt with the new ack bit (same sequence bit) so that
//!   its next resend is acceptable to the peer as a new command. Flagged
//!   [`TraceFlag::Conflict`]. With turn-taking sessions conflicts do not
//!   arise; two links of this kind always settle one.
//! * **Explicit OKs** acknowledge per §8.2, waiting case 1 (ack bit equal to
//!   our sequence bit and sequence bit equal to the peer's last); any other
//!   OK is ignored and flagged [`TraceFlag::Ignored`].
//! * **Resends** repeat the identical outstanding bytes every
//!   [`LinkConfig::resend_after`] and never stop; every
//!   [`LinkConfig::alarm_after`] resends of one packet raise an
//!   [`LinkEvent::Alarm`].
//!
//! * **Round trips.** A command sent once and then acknowledged carries how
//!   long the answer took to come ([`LinkEvent::Delivered`]): the shortest
//!   time in which the line carried it there and an answer back, which is
//!   how a line shows itself faster than its baud rate.
//!
//! Further commands wait in a FIFO queue while one is outstanding, and the
//! next is sent as soon as the outstanding one is delivered. OK is never
//! queued. Whether to answer a received command with OK, ANSWER or anything
//! else is the caller's decision: the link itself only re-OKs duplicates.
//!
//! What is not a packet (talk, stray bytes, cut or bad groups) is traced
//! through [`Noise`]: coalesced and at most four entries a second, always
//! before the next packet's entry.
//!
//! Event order within one call: the [`TraceEntry`] of a packet comes before
//! what it causes. An implicit acknowledgement yields [`LinkEvent::Delivered`]
//! immediately followed by the [`LinkEvent::Received`] of the command that
//! carried it, and that command's trace is flagged
//! [`TraceFlag::ImplicitAck`].
//!
//! A link can be taken back from its trace: `LinkState::observe` folds
//! the trace entries a journal kept into the sequence bits and the
//! outstanding command, and [`Link::resumed`] goes on from them, so a
//! program that kept running while its referee was down finds the link as
//! it left it.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use super::noise::Noise;
use super::packet::{describe, hex, Command, Deframer, Frame, Packet, OK_VALUE};
pub use super::trace::{Direction, TraceEntry, TraceFlag};

/// How patient the link is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LinkConfig {
    /// Resend the outstanding packet after this long without acknowledgement.
    pub resend_after: Duration,
    /// Alarm the operator after this many resends of one packet (and again
    /// after each further `alarm_after`); 0 never alarms.
    pub alarm_after: u32,
}

impl LinkConfig {
    /// The CGF rule: resend after 20 s; alarm after 9 resends, GNU Go's SGMP
    /// give-up count.
    pub fn sgmp() -> Self {
        LinkConfig {
            resend_after: Duration::from_secs(20),
            alarm_after: 9,
        }
    }

    /// Full GMP: resend after 3 s; alarm after 20 resends.
    pub fn gmp() -> Self {
        LinkConfig {
            resend_after: Duration::from_secs(3),
            alarm_after: 20,
        }
    }

    /// These settings with a line spec's own resend time and alarm count,
    /// where it gives them.
    pub fn with_overrides(self, resend_after: Option<Duration>, alarm_after: Option<u32>) -> Self {
        LinkConfig {
            resend_after: resend_after.unwrap_or(self.resend_after),
            alarm_after: alarm_after.unwrap_or(self.alarm_after),
        }
    }
}

/// What the line and the passing of time amount to.
#[derive(Debug, Clone, PartialEq)]
pub enum LinkEvent {
    /// Write these bytes to the line.
    Transmit { bytes: Vec<u8>, resend: bool },
    /// A new command from the peer (never a duplicate), in order.
    Received { command: Command, value: u16 },
    /// Our outstanding command was acknowledged (explicit OK or implicit).
    /// `round_trip`: how long after it was sent, when it was sent once
    /// (an answer to a packet sent again may answer any of its sendings).
    Delivered {
        command: Command,
        value: u16,
        round_trip: Option<Duration>,
    },
    /// Every packet in and out, and every other frame the line produced.
    Trace(TraceEntry),
    /// `resends` resends of the same packet and still no acknowledgement:
    /// tell the operator. The link keeps resending.
    Alarm { resends: u32, pending: String },
}

/// Where a link's sequence bits stand, as its trace shows them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LinkState {
    /// The sequence bit of our last non-OK packet.
    pub my_seq: bool,
    /// The sequence bit of the peer's last accepted non-OK packet.
    pub his_seq: bool,
    /// Our last non-OK command, while no acknowledgement has been seen.
    pub outstanding: Option<(Command, u16)>,
}

impl LinkState {
    /// Takes in one trace entry of the link, in order. Noise, resends,
    /// duplicates and ignored packets change nothing; commands queued but
    /// never sent are not in a trace and are not known.
    pub(crate) fn observe(&mut self, entry: &TraceEntry) {
        let Some(packet) = entry.packet() else {
            return;
        };
        let flagged = |flag| entry.flags.contains(&flag);
        match entry.direction {
            Direction::Out if packet.command != Command::Ok && !flagged(TraceFlag::Resend) => {
                self.my_seq = packet.seq;
                self.outstanding = Some((packet.command, packet.value));
            }
            Direction::Out => {}
            Direction::In if flagged(TraceFlag::Duplicate) || flagged(TraceFlag::Ignored) => {}
            Direction::In if packet.command == Command::Ok => self.outstanding = None,
            Direction::In => {
                self.his_seq = packet.seq;
                if flagged(TraceFlag::ImplicitAck) {
                    self.outstanding = None;
                }
            }
        }
    }
}

#[derive(Debug)]
struct Outstanding {
    command: Command,
    value: u16,
    packet: Packet,
    last_sent: Instant,
    /// When it was sent, while it has been sent only once by this link.
    sent_once_at: Option<Instant>,
    resends: u32,
}

impl Outstanding {
    /// The acknowledgement of this command, come at `now`. One taken at the
    /// instant the command was sent came in the read that made it be sent,
    /// before it was on the line: it answers something else, and shows no
    /// round trip.
    fn delivered(&self, now: Instant) -> LinkEvent {
        LinkEvent::Delivered {
            command: self.command,
            value: self.value,
            round_trip: self
                .sent_once_at
                .map(|sent| now.saturating_duration_since(sent))
                .filter(|round_trip| !round_trip.is_zero()),
        }
    }
}

/// The state machine of one line. See the module documentation.
#[derive(Debug)]
pub struct Link {
    config: LinkConfig,
    size: u8,
    deframer: Deframer,
    /// The sequence bit of our last non-OK packet.
    my_seq: bool,
    /// The sequence bit of the peer's last accepted non-OK packet.
    his_seq: bool,
    outstanding: Option<Outstanding>,
    /// The last command of ours the peer acknowledged.
    last_delivered: Option<Packet>,
    queue: VecDeque<(Command, u16)>,
    events: VecDeque<LinkEvent>,
    noise: Noise,
}

impl Link {
    /// A link in the initial state (both sequence bits 0). `size` is only
    /// used to spell MOVEs in the trace.
    pub fn new(config: LinkConfig, size: u8) -> Link {
        Link {
            config,
            size,
            deframer: Deframer::new(),
            my_seq: false,
            his_seq: false,
            outstanding: None,
            last_delivered: None,
            queue: VecDeque::new(),
            events: VecDeque::new(),
            noise: Noise::new(),
        }
    }

    /// A link that goes on from `state`, e.g. after its referee was
    /// restarted: the outstanding command, if any, is sent again at once,
    /// the identical packet (flagged [`TraceFlag::Resend`]), so a peer that
    /// had it takes it as a repeat and one that had not takes it as new.
    pub fn resumed(config: LinkConfig, size: u8, state: LinkState, now: Instant) -> Link {
        let mut link = Link::new(config, size);
        link.my_seq = state.my_seq;
        link.his_seq = state.his_seq;
        if let Some((command, value)) = state.outstanding {
            let packet = Packet::new(state.my_seq, state.his_seq, command, value);
            link.outstanding = Some(Outstanding {
                command,
                value,
                packet,
                last_sent: now,
                sent_once_at: None,
                resends: 0,
            });
            link.transmit_again(
                packet,
                "sent again on resuming: the referee was down".into(),
            );
        }
        link
    }

    /// The sequence bits and the outstanding command now.
    pub fn state(&self) -> LinkState {
        LinkState {
            my_seq: self.my_seq,
            his_seq: self.his_seq,
            outstanding: self.outstanding(),
        }
    }

    /// Sends a non-OK command: at once when nothing is outstanding, else
    /// after the commands queued before it. An OK passed here is sent as
    /// `send_ok` would.
    pub fn send(&mut self, now: Instant, command: Command, value: u16) {
        if command == Command::Ok {
            self.send_ok(now);
        } else if self.outstanding.is_none() {
            self.transmit_new(now, command, value);
        } else {
            self.queue.push_back((command, value));
        }
    }

    /// Sends one OK (value 0x3FF) with the current bits. It is never
    /// acknowledged and never resent by the timer.
    pub(crate) fn send_ok(&mut self, _now: Instant) {
        self.transmit_ok(Vec::new(), None);
    }

    /// Takes bytes read from the line, all of them at once. A caller that
    /// answers what it receives should use
    /// [`handle_some_bytes`](Self::handle_some_bytes) instead, so that its
    /// answer to one packet goes out before the next packet is looked at.
    #[cfg(test)]
    pub(crate) fn handle_bytes(&mut self, now: Instant, bytes: &[u8]) {
        let mut rest = bytes;
        while !rest.is_empty() {
            let taken = self.handle_some_bytes(now, rest);
            rest = &rest[taken..];
        }
    }

    /// Takes bytes read from the line up to and including the end of the
    /// first packet, and returns how many it took. The caller reacts to the
    /// events, then calls again with the rest, as the reference
    /// implementations handle one packet completely before the next. The
    /// noise of one read is traced once the read is used up.
    pub(crate) fn handle_some_bytes(&mut self, now: Instant, bytes: &[u8]) -> usize {
        let (frames, taken) = self.deframer.push_to_packet(bytes);
        for frame in frames {
            self.frame(now, frame);
        }
        if taken == bytes.len() {
            self.flush_noise(now, false);
        }
        taken
    }

    /// Resends the outstanding packet if `resend_after` has passed since it
    /// was last written, and traces held noise when its time has come.
    pub(crate) fn handle_timeout(&mut self, now: Instant) {
        if self.noise.due().is_some_and(|due| now >= due) {
            self.flush_noise(now, false);
        }
        let Some(due) = self.resend_due() else {
            return;
        };
        if now < due {
            return;
        }
        let alarm_after = self.config.alarm_after;
        let Some(out) = self.outstanding.as_mut() else {
            return;
        };
        out.resends += 1;
        out.last_sent = now;
        out.sent_once_at = None;
        let resends = out.resends;
        let packet = out.packet;
        self.transmit_again(packet, format!("resend {resends}"));
        if alarm_after > 0 && resends % alarm_after == 0 {
            self.events.push_back(LinkEvent::Alarm {
                resends,
                pending: format!(
                    "{} ({})",
                    describe(&packet, self.size),
                    hex(&packet.encode())
                ),
            });
        }
    }

    /// When [`handle_timeout`](Self::handle_timeout) should next be called:
    /// `None` while nothing is outstanding and no noise is held.
    pub(crate) fn poll_timeout(&self) -> Option<Instant> {
        match (self.resend_due(), self.noise.due()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// When the outstanding packet is to be resent.
    fn resend_due(&self) -> Option<Instant> {
        let out = self.outstanding.as_ref()?;
        out.last_sent.checked_add(self.config.resend_after)
    }

    pub fn poll_event(&mut self) -> Option<LinkEvent> {
        self.events.pop_front()
    }

    /// Traces held noise at once, whatever the rate: the line is about to
    /// be dropped, and the trace must account for everything read.
    pub(crate) fn flush_trace(&mut self, now: Instant) {
        self.flush_noise(now, true);
    }

    /// Gives up the outstanding command and the queue: nothing is resent
    /// or sent from now on but OKs (asked for, or for duplicates).
    pub fn stop(&mut self) {
        self.outstanding = None;
        self.queue.clear();
    }

    /// Sends the last command the peer acknowledged again, the identical
    /// packet, as a line that lost the peer's OK would: `goref check` tries
    /// the peer's duplicate handling so. The peer must OK it again or
    /// ignore it (§8.2), never take it as new. Nothing is sent, and false
    /// returned, while a command is outstanding or before any was
    /// acknowledged.
    pub fn repeat_delivered(&mut self) -> bool {
        let Some(packet) = self.last_delivered.filter(|_| self.outstanding.is_none()) else {
            return false;
        };
        self.transmit_again(
            packet,
            "sent again on purpose, as if the program's OK had been lost: a duplicate".into(),
        );
        true
    }

    /// Nothing outstanding and nothing queued.
    pub(crate) fn is_idle(&self) -> bool {
        self.outstanding.is_none() && self.queue.is_empty()
    }

    /// The command waiting for its acknowledgement, if any.
    pub(crate) fn outstanding(&self) -> Option<(Command, u16)> {
        self.outstanding.as_ref().map(|o| (o.command, o.value))
    }

    fn transmit_new(&mut self, now: Instant, command: Command, value: u16) {
        self.my_seq = !self.my_seq;
        let packet = Packet::new(self.my_seq, self.his_seq, command, value);
        let bytes = packet.encode();
        self.outstanding = Some(Outstanding {
            command,
            value,
            packet,
            last_sent: now,
            sent_once_at: Some(now),
            resends: 0,
        });
        self.events.push_back(LinkEvent::Trace(TraceEntry::new(
            Direction::Out,
            &bytes,
            describe(&packet, self.size),
            Vec::new(),
        )));
        self.events.push_back(LinkEvent::Transmit {
            bytes: bytes.to_vec(),
            resend: false,
        });
    }

    /// Sends the outstanding packet again, identical, traced as a resend.
    fn transmit_again(&mut self, packet: Packet, note: String) {
        let bytes = packet.encode();
        let trace = TraceEntry::new(
            Direction::Out,
            &bytes,
            describe(&packet, self.size),
            vec![TraceFlag::Resend],
        );
        self.events
            .push_back(LinkEvent::Trace(trace.with_note(note)));
        self.events.push_back(LinkEvent::Transmit {
            bytes: bytes.to_vec(),
            resend: true,
        });
    }

    fn transmit_ok(&mut self, flags: Vec<TraceFlag>, note: Option<String>) {
        let packet = Packet::new(self.my_seq, self.his_seq, Command::Ok, OK_VALUE);
        let bytes = packet.encode();
        let mut trace =
            TraceEntry::new(Direction::Out, &bytes, describe(&packet, self.size), flags);
        trace.note = note;
        self.events.push_back(LinkEvent::Trace(trace));
        self.events.push_back(LinkEvent::Transmit {
            bytes: bytes.to_vec(),
            resend: false,
        });
    }

    /// Traces the noise gathered so far: if the rate allows, or, when
    /// `before_packet`, at once.
    fn flush_noise(&mut self, now: Instant, before_packet: bool) {
        let entry = if before_packet {
            self.noise.flush_now(now)
        } else {
            self.noise.flush(now)
        };
        if let Some(entry) = entry {
            self.events.push_back(LinkEvent::Trace(entry));
        }
    }

    fn frame(&mut self, now: Instant, frame: Frame) {
        let noise = &mut self.noise;
        match frame {
            Frame::Packet { packet, bytes } => {
                self.flush_noise(now, true);
                self.packet(now, packet, bytes)
            }
            Frame::BadChecksum { bytes } => noise.add(
                now,
                &bytes,
                TraceFlag::BadChecksum,
                "bad checksum".to_string(),
            ),
            Frame::Reserved { bytes } => noise.add(
                now,
                &bytes,
                TraceFlag::Reserved,
                "reserved bit set".to_string(),
            ),
            Frame::Talk(text) => noise.add(now, text.as_bytes(), TraceFlag::Talk, talk(&text)),
            Frame::Stray(bytes) => {
                noise.add(now, &bytes, TraceFlag::Stray, "stray bytes".to_string())
            }
            Frame::Cut(bytes) => noise.add(
                now,
                &bytes,
                TraceFlag::Cut,
                "partial packet cut by a new start byte".to_string(),
            ),
        }
    }

    fn packet(&mut self, now: Instant, packet: Packet, bytes: [u8; 4]) {
        let meaning = describe(&packet, self.size);
        let trace = |flags: Vec<TraceFlag>| TraceEntry::new(Direction::In, &bytes, meaning, flags);
        let waiting = self.outstanding.is_some();
        if packet.command == Command::Ok {
            if waiting && packet.ack == self.my_seq && packet.seq == self.his_seq {
                self.events.push_back(LinkEvent::Trace(trace(Vec::new())));
                self.delivered(now);
            } else {
                let note = if waiting {
                    "sequence bits do not acknowledge our command"
                } else {
                    "no command of ours is waiting for an OK"
                };
                self.events.push_back(LinkEvent::Trace(
                    trace(vec![TraceFlag::Ignored]).with_note(note),
                ));
            }
            return;
        }
        if packet.seq == self.his_seq {
            self.events.push_back(LinkEvent::Trace(
                trace(vec![TraceFlag::Duplicate]).with_note("already accepted: OK sent again"),
            ));
            self.transmit_ok(
                vec![TraceFlag::Duplicate],
                Some("for a repeated command".to_string()),
            );
            return;
        }
        if !waiting {
            if packet.ack != self.my_seq {
                self.events.push_back(LinkEvent::Trace(
                    trace(vec![TraceFlag::Ignored])
                        .with_note("ack bit does not match our last command"),
                ));
                return;
            }
            self.events.push_back(LinkEvent::Trace(trace(Vec::new())));
            self.accept(packet);
            return;
        }
        if packet.ack == self.my_seq {
            self.events
                .push_back(LinkEvent::Trace(trace(vec![TraceFlag::ImplicitAck])));
            let out = self.outstanding.take();
            if let Some(out) = out {
                self.last_delivered = Some(out.packet);
                self.events.push_back(out.delivered(now));
            }
            self.accept(packet);
            self.send_next(now);
            return;
        }
        // Conflict: both sides sent a command at once.
        self.events.push_back(LinkEvent::Trace(
            trace(vec![TraceFlag::Conflict])
                .with_note("both sides sent a command: accepted, ours stays outstanding"),
        ));
        self.accept(packet);
        if let Some(out) = self.outstanding.as_mut() {
            out.packet.ack = self.his_seq;
        }
    }

    fn accept(&mut self, packet: Packet) {
        self.his_seq = packet.seq;
        self.events.push_back(LinkEvent::Received {
            command: packet.command,
            value: packet.value,
        });
    }

    fn delivered(&mut self, now: Instant) {
        if let Some(out) = self.outstanding.take() {
            self.last_delivered = Some(out.packet);
            self.events.push_back(out.delivered(now));
        }
        self.send_next(now);
    }

    fn send_next(&mut self, now: Instant) {
        if self.outstanding.is_none() {
            if let Some((command, value)) = self.queue.pop_front() {
                self.transmit_new(now, command, value);
            }
        }
    }
}

/// Talk in words for the trace: `talk "GNU Go thinks"`, the text cut
/// after 64 characters.
fn talk(text: &str) -> String {
    const SHOWN: usize = 64;
    match text.char_indices().nth(SHOWN) {
        Some((cut, _)) => format!("talk {:?}...", &text[..cut]),
        None => format!("talk {text:?}"),
    }
}

#[cfg(test)]
mod tests;
