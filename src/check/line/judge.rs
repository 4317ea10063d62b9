//! What the line card says of a run: the handshake against the one the
//! protocol expects, the moves and their acknowledgements, the repeated
//! move, and the line's noise, each packet's answer told in words.

use std::time::Instant;

use goref_core::game::Color;
use goref_core::protocol::sgmp::link::{Direction, TraceEntry, TraceFlag};
use goref_core::protocol::sgmp::packet::{Command, Query};
use goref_core::protocol::sgmp::session::Profile;

use super::{Drive, LineRun};
use crate::check::card::{Section, Verdict};
use crate::check::script::TimedMove;
use crate::check::{judge_timed_moves, millis, plural, CheckConfig};

/// The handshake's packets the card spells out; a full-GMP handshake has 10.
const BYTES_SHOWN: usize = 12;

/// What the program made of our repeated move: the first packet it sent
/// after it (`repeated` indexes the trace), or a move in answer.
pub(super) fn judge_repeat(
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
pub(super) fn judge_handshake(
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
pub(super) fn answers(packets: &[&TraceEntry]) -> Vec<String> {
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
        (
            asker,
            Command::Ok,
            goref_core::protocol::sgmp::packet::OK_VALUE,
        ),
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
pub(super) fn judge_moves(
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
pub(super) fn judge_acknowledgements(run: &LineRun, handshake_len: usize, play: &mut Section) {
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

/// Bytes on the line that were no packet.
pub(super) fn judge_noise(trace: &[(Instant, TraceEntry)], quality: &mut Section) {
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
