//! The card of a program on a GMP or SGMP line.
//!
//! The line is opened as a game opens it and the referee's own protocol
//! session runs on it, in the role the program's colour implies; the
//! built-in engine plays the other side for a few moves. This shell around
//! the session also times every read, so the card can tell the line's real
//! speed, and once sends one of its moves twice, as a line that lost the
//! program's OK would, to see the program take it as a duplicate.

use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt, ReadHalf, WriteHalf};

use crate::game::board::first_to_move;
use crate::game::score::Scoring;
use crate::game::{Color, Move};
use crate::players::sgmp::link_config;
use crate::protocol::sgmp::link::{Direction, TraceEntry, TraceFlag};
use crate::protocol::sgmp::packet::{Command, Query};
use crate::protocol::sgmp::session::{Profile, Session, SessionConfig, SessionEvent};
use crate::shell_time::{now, sleep_until};
use crate::transport::line::{self, BoxedLine, LineSpec, LineTarget};

use super::card::{Section, Verdict};
use super::script::{Opponent, TimedMove};
use super::{judge_timed_moves, millis, plural, CheckConfig};

/// Which of our relayed moves is sent twice.
const REPEATED_MOVE: usize = 2;
/// How long the line is watched after the repeat before the next move.
const AFTER_REPEAT: Duration = Duration::from_millis(1500);
/// The handshake's packets the card spells out; a full-GMP handshake has 10.
const BYTES_SHOWN: usize = 12;
/// Bits on the wire per byte: a start bit, eight data bits, a stop bit.
const BITS_PER_BYTE: f64 = 10.0;

/// Checks the program on `spec`, a line of `profile`.
pub async fn check(
    config: &CheckConfig,
    profile: Profile,
    spec: &LineSpec,
    text: &str,
) -> Vec<Section> {
    let mut opened = Section::new("Line");
    let line = match line::open(spec).await {
        Ok(line) => line,
        Err(e) => {
            opened.fail("open", format!("cannot open {text}: {e}"));
            return vec![opened];
        }
    };
    let baud = match &spec.target {
        LineTarget::Device { baud, .. } => Some(*baud),
        LineTarget::Tcp { .. } => None,
    };
    opened.pass(
        "open",
        match baud {
            Some(baud) => format!("{} at {baud} baud", spec.target.place()),
            None => format!("{} over TCP", spec.target.place()),
        },
    );
    let setup = config.setup();
    let session = Session::new(
        SessionConfig {
            profile,
            program_color: config.color,
            size: setup.size,
            handicap: setup.handicap.len() as u8,
            chinese_rules: Some(setup.rules.scoring == Scoring::Area),
            link: link_config(profile, spec),
        },
        now(),
    );
    let (reader, writer) = tokio::io::split(line);
    let mut run = LineRun {
        session,
        reader,
        writer,
        trace: Vec::new(),
        speed: Speed::default(),
        turn_given: None,
        delivered: 0,
        repeated: None,
        repeat_taken_as_new: false,
        alarms: Vec::new(),
    };
    let mut handshake = Section::new(match profile {
        Profile::Sgmp => "Handshake (CGF simplified GMP)",
        Profile::Gmp => "Handshake (full GMP)",
    });
    let mut play = Section::new("Moves");
    crate::console::say(format!(
        "goref: waiting up to {} for the handshake on {} (the program {})",
        crate::game::clock::format_duration(spec.setup_deadline()),
        spec.target.place(),
        match config.color {
            Color::Black => "sends NEWGAME",
            Color::White => "answers goref's NEWGAME",
        }
    ));
    let ready = run.until(now() + spec.setup_deadline(), is_ready).await;
    let handshake_len = run.trace.len();
    judge_handshake(config, profile, &run.trace, &ready, &mut handshake);
    if matches!(ready, Drive::Got(_)) {
        run.exchange(config, &mut play).await;
    }
    run.session.game_over();
    run.session.flush_trace(now());
    run.pump().await;
    let _ = run.writer.shutdown().await;
    judge_acknowledgements(&run, handshake_len, &mut play);
    let mut quality = Section::new("Line quality");
    judge_speed(&run.speed, baud, &mut quality);
    judge_noise(&run.trace, &mut quality);
    vec![opened, handshake, play, quality]
}

/// How a drive of the line ended.
#[derive(Debug, Clone, PartialEq)]
enum Drive {
    Got(SessionEvent),
    /// The deadline came first.
    Late,
    /// The line closed, or could not be written.
    Closed(String),
    /// The program's answer contradicts the game.
    Mismatch(String),
}

fn is_ready(event: &SessionEvent) -> bool {
    matches!(event, SessionEvent::Ready)
}

/// The session on the open line, and what the check saw of it.
struct LineRun {
    session: Session,
    reader: ReadHalf<BoxedLine>,
    writer: WriteHalf<BoxedLine>,
    /// Every packet and every piece of noise, when it was handled.
    trace: Vec<(Instant, TraceEntry)>,
    /// The line's speed, from every read.
    speed: Speed,
    /// When the bytes that handed the program the move were written.
    turn_given: Option<Instant>,
    /// Our moves the program has acknowledged.
    delivered: usize,
    /// Where in the trace our repeated move went out, once it has.
    repeated: Option<usize>,
    /// The program answered the repeat with a move.
    repeat_taken_as_new: bool,
    alarms: Vec<String>,
}

impl LineRun {
    /// Writes and traces what the session has to say; the first event
    /// `wanted` picks is returned.
    async fn pump_for(&mut self, wanted: &mut dyn FnMut(&SessionEvent) -> bool) -> Option<Drive> {
        let mut found = None;
        while let Some(event) = self.session.poll_event() {
            match &event {
                SessionEvent::Transmit {
                    bytes, gives_turn, ..
                } => {
                    let written = async {
                        self.writer.write_all(bytes).await?;
                        self.writer.flush().await
                    };
                    if let Err(e) = written.await {
                        return Some(Drive::Closed(format!("cannot write to the line: {e}")));
                    }
                    if *gives_turn {
                        self.turn_given = Some(now());
                    }
                }
                SessionEvent::Trace(entry) => self.trace.push((now(), entry.clone())),
                SessionEvent::Delivered => self.delivered += 1,
                SessionEvent::Alarm(message) => self.alarms.push(message.clone()),
                SessionEvent::Mismatch(message) => {
                    return Some(Drive::Mismatch(message.clone()));
                }
                SessionEvent::Restarted(message) => {
                    return Some(Drive::Closed(format!(
                        "the program started over: {message}"
                    )))
                }
                SessionEvent::Ready | SessionEvent::Move(_) | SessionEvent::Answered { .. } => {}
            }
            if found.is_none() && wanted(&event) {
                found = Some(Drive::Got(event));
            }
        }
        found
    }

    async fn pump(&mut self) {
        self.pump_for(&mut |_| false).await;
    }

    /// Runs the line until an event `wanted` picks, or `deadline`.
    async fn until(
        &mut self,
        deadline: Instant,
        mut wanted: impl FnMut(&SessionEvent) -> bool,
    ) -> Drive {
        let mut buf = vec![0u8; 1024];
        loop {
            if let Some(drive) = self.pump_for(&mut wanted).await {
                return drive;
            }
            let due = self
                .session
                .poll_timeout()
                .map_or(deadline, |t| t.min(deadline));
            tokio::select! {
                read = self.reader.read(&mut buf) => match read {
                    Ok(n) if n > 0 => {
                        let at = now();
                        self.speed.read(at, &buf[..n]);
                        self.session.handle_bytes(at, &buf[..n]);
                    }
                    Ok(_) => return Drive::Closed("the line closed".into()),
                    Err(e) => return Drive::Closed(format!("the line failed: {e}")),
                },
                _ = sleep_until(Some(due)) => {
                    let at = now();
                    if at >= deadline {
                        return Drive::Late;
                    }
                    self.session.handle_timeout(at);
                }
            }
        }
    }

    /// A few moves each way; one of ours goes out twice.
    async fn exchange(&mut self, config: &CheckConfig, play: &mut Section) {
        let setup = config.setup();
        let color = config.color;
        let mut opponent = Opponent::new(&setup);
        let mut to_move = first_to_move(&setup.handicap);
        let mut moves: Vec<TimedMove> = Vec::new();
        let mut relayed = 0;
        let limit = config.move_limit();
        let mut stopped: Option<String> = None;
        if to_move == color && color == Color::White {
            self.turn_given = Some(now());
        }
        while moves.len() < config.moves as usize {
            if to_move != color {
                let mv = opponent.move_for(color.opponent());
                self.session.relay_move(now(), mv.point());
                relayed += 1;
                to_move = color;
                continue;
            }
            let drive = self
                .until(now() + limit, |event| {
                    matches!(event, SessionEvent::Move(_))
                })
                .await;
            let Drive::Got(SessionEvent::Move(point)) = drive else {
                stopped = Some(match drive {
                    Drive::Late => format!(
                        "no move within {} (its move {})",
                        millis(limit),
                        moves.len() + 1
                    ),
                    Drive::Closed(why) | Drive::Mismatch(why) => why,
                    Drive::Got(other) => format!("the line stopped at {other:?}"),
                });
                break;
            };
            let mv = point.map(Move::Play).unwrap_or(Move::Pass);
            let arrived = now();
            let took = self
                .turn_given
                .take()
                .map(|given| arrived.saturating_duration_since(given))
                .unwrap_or_default();
            moves.push(TimedMove { mv, took });
            if let Err(why) = opponent.record(color, mv) {
                stopped = Some(format!(
                    "played {mv}, which is illegal ({why}): it would forfeit"
                ));
                break;
            }
            to_move = color.opponent();
            if relayed == REPEATED_MOVE && self.repeated.is_none() {
                if let Some(why) = self.repeat_a_move().await {
                    stopped = Some(why);
                    break;
                }
            }
        }
        let tried = stopped.is_none() || self.repeated.is_some();
        judge_moves(config, &moves, stopped, play);
        if tried {
            judge_repeat(&self.trace, self.repeated, self.repeat_taken_as_new, play);
        }
    }

    /// Sends our last delivered move again and watches the line a moment:
    /// a move from the program then means it took the repeat for a new
    /// move of ours, and says why the exchange stops.
    async fn repeat_a_move(&mut self) -> Option<String> {
        if !self.session.repeat_delivered(now()) {
            return None;
        }
        self.repeated = Some(self.trace.len());
        let watched = self
            .until(now() + AFTER_REPEAT, |event| {
                matches!(event, SessionEvent::Move(_))
            })
            .await;
        match watched {
            Drive::Late => None,
            Drive::Got(_) => {
                self.repeat_taken_as_new = true;
                Some("it answered our repeated MOVE with a move of its own".into())
            }
            Drive::Closed(why) | Drive::Mismatch(why) => Some(why),
        }
    }
}

/// What the program made of our repeated move: the first packet it sent
/// after it (`repeated` indexes the trace), or a move in answer.
fn judge_repeat(
    trace: &[(Instant, TraceEntry)],
    repeated: Option<usize>,
    taken_as_new: bool,
    play: &mut Section,
) {
    let Some(at) = repeated else {
        play.warn(
            "duplicate",
            "not tried: the program did not acknowledge two of goref's moves",
        );
        return;
    };
    if taken_as_new {
        play.fail(
            "duplicate",
            "our MOVE sent twice: it took the repeat for a new move and answered it",
        );
        return;
    }
    let next = trace[at.min(trace.len())..]
        .iter()
        .map(|(_, entry)| entry)
        .find(|entry| entry.direction == Direction::In && !entry.is_noise())
        .and_then(|entry| entry.packet());
    match next {
        Some(packet) if packet.command == Command::Ok => play.pass(
            "duplicate",
            "our MOVE sent twice: it OKed the repeat again and played on, as GMP says",
        ),
        Some(packet) if packet.command == Command::Deny => play.fail(
            "duplicate",
            "our MOVE sent twice: it DENIED the repeat, taking it for a new move",
        ),
        _ => play.pass(
            "duplicate",
            "our MOVE sent twice: it ignored the repeat and played on, as GNU Go does",
        ),
    };
}

/// The packets before the handshake ended, against what it should be.
fn judge_handshake(
    config: &CheckConfig,
    profile: Profile,
    trace: &[(Instant, TraceEntry)],
    ready: &Drive,
    handshake: &mut Section,
) {
    let packets: Vec<&TraceEntry> = trace
        .iter()
        .map(|(_, entry)| entry)
        .filter(|entry| !entry.is_noise())
        .collect();
    let seen: Vec<String> = packets
        .iter()
        .map(|entry| {
            let arrow = match entry.direction {
                Direction::In => "in",
                Direction::Out => "out",
            };
            format!("{arrow} {} {}", entry.hex, entry.meaning)
        })
        .collect();
    match ready {
        Drive::Got(_) => {}
        Drive::Mismatch(why) => {
            handshake.fail("answers", why.clone());
        }
        Drive::Late => {
            let waited = match packets.is_empty() {
                true => "nothing came: is it set to play this colour, is the line right?",
                false => "it stopped before the end",
            };
            handshake.fail(
                "handshake",
                format!("not done within the set-up deadline: {waited}"),
            );
        }
        Drive::Closed(why) => {
            handshake.fail("handshake", why.clone());
        }
    }
    if !seen.is_empty() {
        let mut shown = seen[..seen.len().min(BYTES_SHOWN)].join(", ");
        if seen.len() > BYTES_SHOWN {
            shown.push_str(&format!(", and {} more", seen.len() - BYTES_SHOWN));
        }
        handshake.pass("bytes", shown);
    }
    if !matches!(ready, Drive::Got(_)) {
        return;
    }
    let commands: Vec<(Direction, Command, u16)> = packets
        .iter()
        .filter_map(|entry| {
            let packet = entry.packet()?;
            Some((entry.direction, packet.command, packet.value))
        })
        .collect();
    let expected = expected_handshake(config, profile);
    let answers = answers(&packets);
    match expected {
        Some(expected) if commands != expected => {
            handshake.warn(
                "as expected",
                format!(
                    "not the CGF fixed handshake ({}), but goref got through it",
                    spell(&expected)
                ),
            );
        }
        Some(_) => {
            handshake.pass("as expected", "the CGF fixed handshake, packet for packet");
        }
        None => {
            handshake.pass("as expected", "complete");
        }
    }
    let flagged = packets
        .iter()
        .filter(|entry| {
            entry.flags.iter().any(|f| {
                matches!(
                    f,
                    TraceFlag::Duplicate | TraceFlag::Resend | TraceFlag::Ignored
                )
            })
        })
        .count();
    if flagged > 0 {
        handshake.warn(
            "clean",
            format!(
                "{} repeated, resent or ignored",
                plural(flagged, "packet", "packets")
            ),
        );
    }
    let unknown: Vec<&String> = answers
        .iter()
        .filter(|a| !a.starts_with("it asked") && a.contains("(unknown)"))
        .collect();
    match (answers.is_empty(), unknown.is_empty()) {
        (true, _) => {}
        (false, true) => {
            handshake.pass("its answers", answers.join("; "));
        }
        (false, false) => {
            handshake.warn(
                "its answers",
                format!(
                    "{}: it does not say everything, so make sure it is set up for this game",
                    answers.join("; ")
                ),
            );
        }
    }
}

/// The questions and answers of the handshake, in words: what the
/// program answered us, or what it asked and was told.
fn answers(packets: &[&TraceEntry]) -> Vec<String> {
    let mut asked: Option<(Direction, u16)> = None;
    let mut found = Vec::new();
    for packet in packets
        .iter()
        .filter_map(|entry| entry.packet().map(|p| (entry.direction, p)))
    {
        match packet {
            (direction, p) if p.command == Command::Query => asked = Some((direction, p.value)),
            (direction, p) if p.command == Command::Answer => {
                let Some((asker, query)) = asked.take().filter(|(asker, _)| *asker != direction)
                else {
                    continue;
                };
                let mut words = answer_words(query, p.value);
                if asker == Direction::In {
                    words = words.replace("I am", "goref is");
                }
                let topic = query_name(query);
                found.push(match asker {
                    Direction::Out => format!("{topic}: {} ({words})", p.value),
                    Direction::In => format!("it asked {topic}, told {} ({words})", p.value),
                });
            }
            _ => {}
        }
    }
    found
}

fn query_name(query: u16) -> String {
    Query::ALL
        .into_iter()
        .find(|q| q.number() == query)
        .map_or_else(|| format!("query {query}"), |q| q.name().to_string())
}

/// An ANSWER's value in words (`reference/sgmp.md` §7).
fn answer_words(query: u16, value: u16) -> String {
    match (query, value) {
        (_, 0) => "unknown".to_string(),
        (7, 1) => "Japanese rules".to_string(),
        (7, 2) => "Chinese rules".to_string(),
        (8, 1) => "an even game".to_string(),
        (8, n) => format!("handicap {n}"),
        (9, n) => format!("{n}x{n}"),
        (11, 1) => "I am White".to_string(),
        (11, 2) => "I am Black".to_string(),
        (_, n) => format!("{n}, which GMP does not define"),
    }
}

/// The CGF fixed handshake in the program's colour; `None` in full GMP,
/// where the program chooses its queries.
fn expected_handshake(
    config: &CheckConfig,
    profile: Profile,
) -> Option<Vec<(Direction, Command, u16)>> {
    if profile != Profile::Sgmp {
        return None;
    }
    let handicap = config.setup().handicap.len().max(1) as u16;
    let (program, referee) = (Direction::In, Direction::Out);
    let (asker, answerer) = match config.color {
        Color::Black => (referee, program),
        Color::White => (program, referee),
    };
    Some(vec![
        (answerer, Command::NewGame, 0),
        (asker, Command::Query, Query::Color.number()),
        (answerer, Command::Answer, 2),
        (asker, Command::Query, Query::Handicap.number()),
        (answerer, Command::Answer, handicap),
        (asker, Command::Ok, crate::protocol::sgmp::packet::OK_VALUE),
    ])
}

fn spell(expected: &[(Direction, Command, u16)]) -> String {
    let words: Vec<String> = expected
        .iter()
        .map(|(_, command, value)| match command {
            Command::Query | Command::Answer => format!("{} {value}", command.name()),
            _ => command.name().to_string(),
        })
        .collect();
    words.join(", ")
}

/// The program's moves: the first, and the rest.
fn judge_moves(
    config: &CheckConfig,
    moves: &[TimedMove],
    stopped: Option<String>,
    play: &mut Section,
) {
    judge_timed_moves(
        moves,
        ("first move", "later moves"),
        config.game.rules.time,
        play,
    );
    if let Some(why) = stopped {
        play.fail("moves", why);
    }
}

/// How the program acknowledged our moves, after the handshake.
fn judge_acknowledgements(run: &LineRun, handshake_len: usize, play: &mut Section) {
    let entries = &run.trace[handshake_len.min(run.trace.len())..];
    let mut sent = 0;
    let mut explicit = Vec::new();
    let mut implicit = 0;
    let mut resends = 0;
    let mut stray_oks = 0;
    let mut last_move_out: Option<Instant> = None;
    for (index, (at, entry)) in entries.iter().enumerate() {
        let Some(packet) = entry.packet() else {
            continue;
        };
        let repeat = run.repeated == Some(handshake_len + index);
        match (entry.direction, packet.command) {
            (Direction::Out, Command::Move) if entry.flags.contains(&TraceFlag::Resend) => {
                resends += usize::from(!repeat);
            }
            (Direction::Out, Command::Move) => {
                sent += 1;
                last_move_out = Some(*at);
            }
            (Direction::In, Command::Ok) if entry.flags.contains(&TraceFlag::Ignored) => {
                stray_oks += 1;
            }
            (Direction::In, Command::Ok) => {
                if let Some(out) = last_move_out.take() {
                    explicit.push(at.saturating_duration_since(out));
                }
            }
            (Direction::In, _) if entry.flags.contains(&TraceFlag::ImplicitAck) => {
                implicit += usize::from(last_move_out.take().is_some());
            }
            _ => {}
        }
    }
    if sent == 0 {
        return;
    }
    let acked = run.delivered;
    let slowest = explicit.iter().max().copied().unwrap_or_default();
    let how = format!(
        "{} of {} of our moves OKed ({} explicitly, the slowest in {}; {} by its next move)",
        acked,
        sent,
        explicit.len(),
        millis(slowest),
        implicit
    );
    let verdict = match (acked < sent, resends) {
        (true, _) => Verdict::Fail,
        (false, 0) => Verdict::Pass,
        (false, _) => Verdict::Warn,
    };
    let mut reason = how;
    if resends > 0 {
        reason.push_str(&format!(
            "; goref had to resend {}",
            plural(resends, "time", "times")
        ));
    }
    play.add("OK handling", verdict, reason);
    let repeat_oks = usize::from(run.repeated.is_some());
    if stray_oks > repeat_oks {
        play.warn(
            "stray OKs",
            format!(
                "{} that acknowledged nothing: ignored",
                plural(stray_oks - repeat_oks, "OK", "OKs")
            ),
        );
    }
    for alarm in run.alarms.iter().take(3) {
        play.warn("alarm", alarm.clone());
    }
}

/// The line's speed, measured as the reads come: the bytes of a packet
/// that came after its first read, over the time they took. Nothing of a
/// read is kept, so a program that floods the line costs no memory.
#[derive(Debug, Default)]
struct Speed {
    bytes: usize,
    span: Duration,
    packets: usize,
    /// The packet being read: when its start byte came, and its bytes so far.
    packet_start: Option<(Instant, usize)>,
}

impl Speed {
    fn read(&mut self, at: Instant, chunk: &[u8]) {
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
fn judge_speed(speed: &Speed, baud: Option<u32>, quality: &mut Section) {
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

/// Bytes on the line that were no packet.
fn judge_noise(trace: &[(Instant, TraceEntry)], quality: &mut Section) {
    let noise: Vec<&TraceEntry> = trace
        .iter()
        .map(|(_, entry)| entry)
        .filter(|entry| entry.direction == Direction::In && entry.is_noise())
        .collect();
    let (talk, stray): (Vec<&TraceEntry>, Vec<&TraceEntry>) = noise
        .into_iter()
        .partition(|entry| entry.flags.iter().all(|f| *f == TraceFlag::Talk));
    match stray.first() {
        None => quality.pass("stray bytes", "none"),
        Some(first) => quality.warn(
            "stray bytes",
            format!(
                "{}, e.g. {} ({}): dropped",
                plural(stray.len(), "piece", "pieces"),
                first.hex,
                first.meaning
            ),
        ),
    };
    if let Some(first) = talk.first() {
        quality.pass(
            "talk",
            format!(
                "{}: {}",
                plural(talk.len(), "piece", "pieces"),
                first.meaning
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::sgmp::packet::Packet;

    fn reads(bytes_apart: &[(u64, &[u8])]) -> Speed {
        let t = crate::test_support::epoch();
        let mut speed = Speed::default();
        for (us, bytes) in bytes_apart {
            speed.read(t + Duration::from_micros(*us), bytes);
        }
        speed
    }

    fn verdict(section: &Section) -> (Verdict, String) {
        let check = &section.checks[0];
        (check.verdict, check.reason.clone())
    }

    #[test]
    fn the_speed_is_measured_from_packets_that_come_a_byte_at_a_time() {
        let byte = 4167;
        let slow = reads(&[
            (0, &[0x01]),
            (byte, &[0xa1]),
            (2 * byte, &[0xa0]),
            (3 * byte, &[0x80]),
        ]);
        let mut section = Section::new("q");
        judge_speed(&slow, Some(2400), &mut section);
        let (first, reason) = verdict(&section);
        assert_eq!(first, Verdict::Pass);
        assert!(
            reason.starts_with("about 2400 baud measured, 2400 set"),
            "{reason}"
        );

        let mut section = Section::new("q");
        judge_speed(&slow, Some(9600), &mut section);
        assert_eq!(verdict_of(&section), Verdict::Warn);

        let mut section = Section::new("q");
        judge_speed(&Speed::default(), Some(2400), &mut section);
        assert!(section.checks.is_empty(), "nothing came: nothing to say");

        let whole = reads(&[
            (0, &[0x01, 0xa1, 0xa0, 0x80]),
            (10_000, &[0x02, 0x88, 0x87, 0xff]),
        ]);
        let mut section = Section::new("q");
        judge_speed(&whole, Some(2400), &mut section);
        assert!(verdict(&section).1.contains("in one read"));
    }

    fn verdict_of(section: &Section) -> Verdict {
        section.checks[0].verdict
    }

    #[test]
    fn a_repeat_may_be_oked_again_or_ignored_but_never_taken_as_new() {
        let t = crate::test_support::epoch();
        let entry = |direction, hex: &str| {
            (
                t,
                TraceEntry {
                    direction,
                    hex: hex.to_string(),
                    meaning: String::new(),
                    flags: Vec::new(),
                    note: None,
                },
            )
        };
        let repeat = entry(Direction::Out, "00:85:d2:b3");
        let verdict_after = |answer: Option<&str>, taken_as_new: bool| {
            let mut trace = vec![entry(Direction::In, "01:a1:a0:80"), repeat.clone()];
            trace.extend(answer.map(|hex| entry(Direction::In, hex)));
            let mut section = Section::new("moves");
            judge_repeat(&trace, Some(1), taken_as_new, &mut section);
            let check = section.checks.pop().unwrap();
            (check.verdict, check.reason)
        };
        let (verdict, reason) = verdict_after(Some("00:86:87:ff"), false);
        assert_eq!((verdict, reason.contains("OKed")), (Verdict::Pass, true));
        let (verdict, reason) = verdict_after(None, false);
        assert_eq!((verdict, reason.contains("ignored")), (Verdict::Pass, true));
        let deny = Packet::new(false, false, Command::Deny, 0).encode();
        let deny = crate::protocol::sgmp::packet::hex(&deny);
        assert_eq!(verdict_after(Some(&deny), false).0, Verdict::Fail);
        assert_eq!(verdict_after(None, true).0, Verdict::Fail);
        let mut section = Section::new("moves");
        judge_repeat(&[], None, false, &mut section);
        assert_eq!(section.checks[0].verdict, Verdict::Warn);
    }

    #[test]
    fn answers_are_told_in_words_from_either_side() {
        let entry = |direction, hex: &str| TraceEntry {
            direction,
            hex: hex.to_string(),
            meaning: String::new(),
            flags: Vec::new(),
            note: None,
        };
        let black = [
            entry(Direction::In, "01:a1:a0:80"),
            entry(Direction::Out, "03:be:b0:8b"),
            entry(Direction::In, "02:c4:c0:82"),
            entry(Direction::Out, "00:b8:b0:88"),
            entry(Direction::In, "01:c1:c0:80"),
        ];
        let refs: Vec<&TraceEntry> = black.iter().collect();
        assert_eq!(
            answers(&refs),
            ["colour: 2 (I am Black)", "handicap: 0 (unknown)"]
        );
        let white = [
            entry(Direction::In, "03:bb:b0:88"),
            entry(Direction::Out, "02:c3:c0:81"),
            entry(Direction::In, "00:bb:b0:8b"),
            entry(Direction::Out, "01:c3:c0:82"),
        ];
        let refs: Vec<&TraceEntry> = white.iter().collect();
        assert_eq!(
            answers(&refs),
            [
                "it asked handicap, told 1 (an even game)",
                "it asked colour, told 2 (goref is Black)"
            ]
        );
    }
}
