//! The card of a program speaking the 1987 Usenix referee's line protocol:
//! the referee's own Usenix player runs it, the built-in engine plays the
//! other side, and the card reads the player's trace.

use std::time::Duration;

use crate::players::{PlayerSpec, Report};
use goref_core::referee::{FailureKind, LineDirection, PlayerEvent};

use super::card::Section;
use super::script::{self, Opponent, Scripted, Stopped, Waited};
use super::{judge_timed_moves, millis, plural, CheckConfig};

/// Checks the Usenix program started by `command`.
pub(super) async fn check(config: &CheckConfig, command: &str) -> Vec<Section> {
    let mut start = Section::new("Start-up");
    let mut moves = Section::new("Moves");
    let mut rules = Section::new("The rules of 1987");
    let setup = config.setup();
    let spec = PlayerSpec::Usenix {
        command: command.to_string(),
    };
    let mut player = Scripted::start(&spec, setup.clone());
    let ready = player
        .wait(config.command_timeout, |report| {
            matches!(report.event, PlayerEvent::Ready(_)).then_some(())
        })
        .await;
    if let Waited::Failed(failure) = ready {
        start.fail("start-up", failure.reason);
        return vec![start];
    }
    let mut opponent = Opponent::new(&setup);
    let exchange = script::exchange(
        &mut player,
        &setup,
        &mut opponent,
        config.moves,
        config.move_limit(),
    )
    .await;
    let log = player.finish(Duration::from_secs(10)).await;
    let sent: Vec<&str> = usenix_lines(&log, LineDirection::Sent)
        .map(|(line, _)| line)
        .collect();
    match sent.first() {
        Some(colour) => start.pass("colour line", format!("'{colour}' sent")),
        None => start.fail("colour line", "nothing was sent"),
    };
    judge_timed_moves(
        &exchange.moves,
        ("first move", "later moves"),
        config.game.rules.time,
        &mut moves,
    );
    judge_lines(&log, &mut moves);
    match &exchange.stopped {
        None => {}
        Some(Stopped::Failed(failure)) if failure.kind == FailureKind::Forked => {
            rules.fail("one process", failure.reason.clone());
        }
        Some(Stopped::Failed(failure)) => {
            moves.fail("moves", failure.reason.clone());
        }
        Some(Stopped::Silent(waited)) => {
            moves.fail(
                "moves",
                format!(
                    "no move within {} (its move {})",
                    millis(*waited),
                    exchange.moves.len() + 1
                ),
            );
        }
        Some(Stopped::Illegal { mv, why }) => {
            moves.fail(
                "moves",
                format!("played {mv}, which is illegal ({why}): it would forfeit"),
            );
        }
        Some(Stopped::Resigned) => {
            moves.warn(
                "moves",
                "resigned, an extension of the 1987 protocol: the check stopped there",
            );
        }
    }
    judge_rules(&log, &exchange.stopped, &mut rules);
    vec![start, moves, rules]
}

/// The program's lines of `direction`, with their notes.
fn usenix_lines(
    log: &[Report],
    wanted: LineDirection,
) -> impl Iterator<Item = (&str, Option<&str>)> {
    log.iter().filter_map(move |report| match &report.event {
        PlayerEvent::UsenixLine {
            direction,
            line,
            note,
        } if *direction == wanted => Some((line.as_str(), note.as_deref())),
        _ => None,
    })
}

/// Whether its lines read as the 1987 referee read them.
fn judge_lines(log: &[Report], moves: &mut Section) {
    let received: Vec<(&str, Option<&str>)> = usenix_lines(log, LineDirection::Received).collect();
    let noted: Vec<&(&str, Option<&str>)> =
        received.iter().filter(|(_, note)| note.is_some()).collect();
    match noted.first() {
        None => moves.pass(
            "its lines",
            format!(
                "{}, each read as the 1987 referee read it",
                plural(received.len(), "line", "lines")
            ),
        ),
        Some((line, note)) => moves.warn(
            "its lines",
            format!(
                "{} of {} read otherwise by the 1987 referee, e.g. '{}': {}",
                noted.len(),
                received.len(),
                line.escape_debug(),
                note.unwrap_or_default()
            ),
        ),
    };
}

/// CPU time, forks and stderr.
fn judge_rules(log: &[Report], stopped: &Option<Stopped>, rules: &mut Section) {
    let charged: Vec<Duration> = log
        .iter()
        .filter_map(|r| match r.event {
            PlayerEvent::CpuTime(cpu) => Some(cpu),
            _ => None,
        })
        .collect();
    let total: Duration = charged.iter().sum();
    match charged.iter().max() {
        Some(_) if total.is_zero() => rules.pass(
            "CPU time",
            format!(
                "less than /proc's 10 ms tick of CPU over {}",
                plural(charged.len(), "move", "moves")
            ),
        ),
        Some(most) => rules.pass(
            "CPU time",
            format!(
                "{} of CPU over {}, the most for one {}",
                millis(total),
                plural(charged.len(), "move", "moves"),
                millis(*most)
            ),
        ),
        None if !log.iter().any(|r| matches!(r.event, PlayerEvent::Moved(_))) => {
            rules.warn("CPU time", "it made no move, so none was charged")
        }
        None => rules.warn(
            "CPU time",
            "no move was charged: its CPU time could not be read",
        ),
    };
    let forked = log.iter().find_map(|r| match &r.event {
        PlayerEvent::Notice(notice) if notice.contains("started another process") => {
            Some(notice.clone())
        }
        _ => None,
    });
    let forfeited = matches!(stopped, Some(Stopped::Failed(f)) if f.kind == FailureKind::Forked);
    match (forked, forfeited) {
        (_, true) => {}
        (Some(notice), false) => {
            rules.fail("one process", notice);
        }
        (None, false) => {
            rules.pass("one process", "it started no other process");
        }
    }
    let stderr = usenix_lines(log, LineDirection::Stderr).count();
    rules.pass("stderr", plural(stderr, "line", "lines"));
}
