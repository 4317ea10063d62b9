//! The card of a GTP engine.
//!
//! Two runs of the engine. The first speaks to it directly, one command at
//! a time, for what a game never asks: how long it takes to start, its
//! names, `list_commands`, an unknown command, an illegal `play`, whether
//! it echoes ids, and whether `quit` ends it. The second is a game's
//! opening: the referee's own GTP player sets the engine up for the round's
//! rules and clock and asks it for moves, and the card reads every command
//! it sent and every answer from that player's trace, so it shows exactly
//! what a game will send.

mod opening;
mod probe;
mod trace;

use crate::players::{is_stderr_flood_notice, read_stderr_left_out, PlayerSpec, Report};
use crate::transport::process::StderrItem;
use goref_core::game::rules::EndOfGame;
use goref_core::referee::{LineDirection, PlayerEvent};

use super::card::Section;
use super::{plural, CheckConfig};
use opening::play_opening;
use probe::{probe, Ids, Target};
use trace::exchanges;

/// Stderr beyond this a move is worth a warning.
const CHATTY_BYTES_PER_MOVE: u64 = 16 * 1024;

/// Checks the engine started by `command` and returns the card's sections.
pub(super) async fn check(config: &CheckConfig, command: &str) -> Vec<Section> {
    let spec = PlayerSpec::Gtp {
        command: command.to_string(),
    };
    check_target(config, &Target::Program(command), &spec).await
}

/// Checks the program behind `entrant`'s seat, whose link is in the
/// config's seat desk, as it will play: through its seat.
pub(super) async fn check_seated(config: &CheckConfig, entrant: &str) -> Vec<Section> {
    let spec = PlayerSpec::Seat {
        entrant: entrant.to_string(),
    };
    check_target(config, &Target::Seat(entrant), &spec).await
}

async fn check_target(
    config: &CheckConfig,
    target: &Target<'_>,
    spec: &PlayerSpec,
) -> Vec<Section> {
    let mut start = Section::new("Start-up and identity");
    let mut protocol = Section::new("Protocol");
    let mut stderr = StderrTally::default();
    let mut ids = Ids::default();
    let probed = probe(
        config,
        target,
        &mut start,
        &mut protocol,
        &mut stderr,
        &mut ids,
    )
    .await;
    if !probed {
        return vec![start];
    }
    let mut game = Section::new("The commands of a game under these rules");
    let mut end = Section::new(match config.game.rules.end_of_game {
        EndOfGame::KgsCleanup => "KGS end of game",
        EndOfGame::Judge => "End of game (the judge's)",
    });
    let log = play_opening(config, spec, &mut game, &mut end).await;
    for exchanged in exchanges(&log) {
        match exchanged.id_echoed {
            Some(true) => ids.echoed += 1,
            Some(false) => ids.missing += 1,
            None => {}
        }
    }
    ids.judge(&mut protocol);
    stderr.add_reports(&log);
    let moves = log
        .iter()
        .filter(|r| matches!(r.event, PlayerEvent::Moved(_)))
        .count();
    stderr.judge(&mut protocol, moves);
    vec![start, game, end, protocol]
}

/// What the engine wrote to stderr over the whole check.
#[derive(Debug, Default)]
pub(super) struct StderrTally {
    lines: u64,
    bytes: u64,
    flooded: bool,
    /// The last lines, for the reason of a failure.
    tail: std::collections::VecDeque<String>,
}

/// How many of its last stderr lines a failure quotes.
const STDERR_TAIL: usize = 3;

impl StderrTally {
    pub(super) fn add(&mut self, item: &StderrItem) {
        match item {
            StderrItem::Line(line) => {
                self.lines += 1;
                self.bytes += line.len() as u64 + 1;
                if self.tail.len() == STDERR_TAIL {
                    self.tail.pop_front();
                }
                self.tail.push_back(line.clone());
            }
            StderrItem::FloodStarted => self.flooded = true,
            StderrItem::Suppressed { lines, bytes } => {
                self.lines += lines;
                self.bytes += bytes;
            }
        }
    }

    /// `why`, with the last lines the engine wrote to stderr, if any.
    pub(super) fn with_tail(&self, why: String) -> String {
        match self.tail.is_empty() {
            true => why,
            false => {
                let lines: Vec<&str> = self.tail.iter().map(String::as_str).collect();
                format!("{why}; its last stderr lines: {}", lines.join(" | "))
            }
        }
    }

    /// The stderr lines in the game run's trace.
    fn add_reports(&mut self, log: &[Report]) {
        for report in log {
            match &report.event {
                PlayerEvent::Line {
                    direction: LineDirection::Stderr,
                    line,
                } => match read_stderr_left_out(line) {
                    Some((lines, bytes)) => {
                        self.lines += lines;
                        self.bytes += bytes;
                    }
                    None => self.add(&StderrItem::Line(line.clone())),
                },
                PlayerEvent::Notice(notice) if is_stderr_flood_notice(notice) => {
                    self.flooded = true
                }
                _ => {}
            }
        }
    }

    fn judge(&self, protocol: &mut Section, moves: usize) {
        let per_move = self.bytes / moves.max(1) as u64;
        let volume = format!(
            "{} ({} KiB) over the check, {}",
            plural(self.lines as usize, "line", "lines"),
            self.bytes.div_ceil(1024),
            plural(moves, "move", "moves")
        );
        if self.flooded {
            protocol.fail(
                "stderr",
                format!(
                    "floods it: {volume}; beyond {} KiB a second goref leaves lines out of \
                     the trace and the engine log",
                    crate::transport::process::STDERR_FLOOD_BYTES_PER_SECOND / 1024
                ),
            );
        } else if per_move > CHATTY_BYTES_PER_MOVE {
            protocol.warn(
                "stderr",
                format!(
                    "chatty: {volume}, some {} KiB a move; every line goes to the trace and \
                     the engine log",
                    per_move / 1024
                ),
            );
        } else {
            protocol.pass("stderr", volume);
        }
    }
}
