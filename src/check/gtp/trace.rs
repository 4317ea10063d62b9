//! What a GTP player's trace says: each command paired with its answer,
//! and the card's checks of the set-up, the clock and the moves.

use std::time::{Duration, Instant};

use crate::players::Report;
use goref_core::game::clock::TimeSystem;
use goref_core::game::Color;
use goref_core::protocol::gtp::codec::parse_command_list;
use goref_core::referee::{LineDirection, PlayerEvent, PlayerInfo};

use crate::check::card::Section;
use crate::check::script::{Exchange, Stopped};
use crate::check::{judge_timed_moves, millis, plural, CheckConfig};

/// One command from the player's trace and what came back.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Exchanged {
    /// The command as sent, without its id: `komi 7.5`.
    pub(super) command: String,
    pub(super) name: String,
    /// The answer's lines, without status and id; `None` when none came.
    pub(super) answer: Option<Vec<String>>,
    pub(super) success: bool,
    pub(super) took: Duration,
    /// Whether the answer carried the command's id; `None` without one.
    pub(super) id_echoed: Option<bool>,
}

/// Pairs each command the player sent with the answer that followed it.
pub(super) fn exchanges(log: &[Report]) -> Vec<Exchanged> {
    let mut found: Vec<Exchanged> = Vec::new();
    let mut sent_at: Option<Instant> = None;
    let mut sent_id = String::new();
    let mut open = false;
    for report in log {
        let PlayerEvent::Line { direction, line } = &report.event else {
            continue;
        };
        match direction {
            LineDirection::Sent => {
                let command = without_id(line);
                sent_id = line.trim().split(' ').next().unwrap_or("").to_string();
                found.push(Exchanged {
                    name: command.split_whitespace().next().unwrap_or("").to_string(),
                    command,
                    answer: None,
                    success: false,
                    took: Duration::ZERO,
                    id_echoed: None,
                });
                sent_at = Some(report.at);
                open = true;
            }
            LineDirection::Received => {
                let Some(last) = found.last_mut() else {
                    continue;
                };
                match &mut last.answer {
                    Some(lines) if !open => lines.push(line.clone()),
                    _ if open => {
                        last.success = line.starts_with('=');
                        let text = line[1..].trim_start_matches(|c: char| c.is_ascii_digit());
                        let id = &line[1..line.len() - text.len()];
                        last.id_echoed = Some(id == sent_id);
                        last.answer = Some(vec![text.trim().to_string()]);
                        last.took = report
                            .at
                            .saturating_duration_since(sent_at.unwrap_or(report.at));
                        open = false;
                    }
                    _ => {}
                }
            }
            LineDirection::Stderr => {}
        }
    }
    found
}

/// `12 komi 7.5` → `komi 7.5`.
fn without_id(line: &str) -> String {
    let line = line.trim();
    match line.split_once(' ') {
        Some((id, rest)) if id.chars().all(|c| c.is_ascii_digit()) => rest.to_string(),
        _ => line.to_string(),
    }
}

/// The commands the engine said it knows and does not, as the GTP player
/// learnt them: from `known_command`, or from `list_commands` when the
/// engine has no `known_command`.
pub(super) fn known(exchanged: &[Exchanged]) -> (Vec<String>, Vec<String>) {
    let asked = |e: &&Exchanged| e.name == "known_command" && e.success;
    let listed = exchanged
        .iter()
        .find(|e| e.name == "list_commands" && e.success);
    if let (false, Some(listed)) = (exchanged.iter().any(|e| asked(&e)), listed) {
        let text = listed.answer.as_deref().unwrap_or_default().join("\n");
        return (parse_command_list(&text), Vec::new());
    }
    let mut yes = Vec::new();
    let mut no = Vec::new();
    for e in exchanged.iter().filter(|e| e.name == "known_command") {
        let asked = e
            .command
            .split_whitespace()
            .nth(1)
            .unwrap_or("")
            .to_string();
        match e.answer.as_deref() {
            Some([answer, ..]) if e.success && answer == "true" => yes.push(asked),
            Some(_) if e.success => no.push(asked),
            _ => {}
        }
    }
    (yes, no)
}

/// The commands that set the engine up, each as it went.
pub(super) fn judge_setup(
    config: &CheckConfig,
    exchanged: &[Exchanged],
    info: Option<&PlayerInfo>,
    game: &mut Section,
) {
    let (yes, no) = known(exchanged);
    let listed = exchanged.iter().any(|e| e.name == "list_commands");
    let knows = |name: &str| yes.iter().any(|y| y == name);
    if listed {
        game.pass(
            "known_command",
            "not known: goref reads list_commands instead",
        );
    } else if !yes.is_empty() || !no.is_empty() {
        let mut reason = format!("knows {}", words(&yes));
        if !no.is_empty() {
            reason.push_str(&format!("; not {}", words(&no)));
        }
        game.pass("known_command", reason);
    }
    let setup_commands = [
        "boardsize",
        "clear_board",
        "komi",
        "kgs-rules",
        "set_free_handicap",
        "time_settings",
        "kgs-time_settings",
    ];
    let optional = ["komi", "kgs-rules", "time_settings", "kgs-time_settings"];
    let first_genmove = exchanged
        .iter()
        .position(|e| e.name == "genmove")
        .unwrap_or(exchanged.len());
    let handicap = !config.setup().handicap.is_empty();
    for e in &exchanged[..first_genmove] {
        let handicap_play = handicap && e.name == "play";
        if !setup_commands.contains(&e.name.as_str()) && !handicap_play {
            continue;
        }
        let name = if handicap_play {
            "play (handicap)"
        } else {
            &e.name
        };
        judge_answer(game, name, e, optional.contains(&e.name.as_str()));
    }
    if info.is_some() {
        judge_time(config.game.rules.time, &knows, game);
    }
}

/// One command's answer on the card: answered, refused (a warning for an
/// optional command, a failure for one no game can do without), or none.
fn judge_answer(game: &mut Section, name: &str, e: &Exchanged, optional: bool) {
    let refused = |answer: &[String]| format!("'{}' refused ({})", e.command, answer.join(" "));
    match (&e.answer, e.success) {
        (None, _) => game.fail(name, format!("'{}': no answer", e.command)),
        (Some(_), true) => game.pass(name, format!("'{}' answered", e.command)),
        (Some(answer), false) if optional => game.warn(
            name,
            format!("{}: the game goes on without it", refused(answer)),
        ),
        (Some(answer), false) => game.fail(name, format!("{}: no game can start", refused(answer))),
    }
    .timed(e.took);
}

/// Whether the engine learns the round's clock.
fn judge_time(time: TimeSystem, knows: &dyn Fn(&str) -> bool, game: &mut Section) {
    let kgs = knows("kgs-time_settings") && time.kgs_time_settings().is_some();
    let (main, period, stones) = time.gtp_time_settings();
    let told = format!("time_settings {main} {period} {stones}");
    match time {
        TimeSystem::None if !knows("time_settings") && !kgs => {
            game.pass("clock", "untimed, and it is told nothing of a clock");
        }
        TimeSystem::None => {
            game.pass("clock", "untimed, and told so");
        }
        _ if kgs => {
            game.pass(
                "clock",
                format!("told the clock exactly with kgs-time_settings ({time})"),
            );
        }
        TimeSystem::ByoYomi { periods, .. } if periods > 1 && knows("time_settings") => {
            game.warn(
                "clock",
                format!(
                    "no kgs-time_settings: {time} is told as '{told}', so it does not know \
                     of its {} spare periods",
                    periods - 1
                ),
            );
        }
        TimeSystem::Fischer { .. } | TimeSystem::Cpu { .. } if knows("time_settings") => {
            game.warn(
                "clock",
                format!("GTP cannot say {time}: it is told '{told}', and its time_left as it goes"),
            );
        }
        _ if knows("time_settings") => {
            game.pass("clock", format!("told '{told}'"));
        }
        _ => {
            game.warn(
                "clock",
                format!(
                    "knows neither time_settings nor kgs-time_settings: it is told nothing \
                     of the clock ({time}) and must manage its time blind"
                ),
            );
        }
    }
    if time == TimeSystem::None {
        return;
    }
    if !knows("time_left") {
        game.warn(
            "time_left",
            "not known: it is never told how much time it has left",
        );
    }
}

/// The moves: `play`, `genmove` on the empty board and in the middle of
/// the game, `time_left`.
pub(super) fn judge_moves(
    config: &CheckConfig,
    exchanged: &[Exchanged],
    exchange: &Exchange,
    game: &mut Section,
) {
    let moves = &exchange.moves;
    if let Some(time_left) = exchanged.iter().find(|e| e.name == "time_left") {
        judge_answer(game, "time_left", time_left, true);
    }
    let first = exchanged.iter().position(|e| e.name == "genmove");
    let last = exchanged.iter().rposition(|e| e.name == "genmove");
    let during = match (first, last) {
        (Some(first), Some(last)) => &exchanged[first..last],
        _ => &[],
    };
    let plays: Vec<&Exchanged> = during.iter().filter(|e| e.name == "play").collect();
    if !exchange.refused.is_empty() {
        game.fail(
            "play",
            format!(
                "refused the opponent's {}: the game would stop",
                exchange.refused.join(", ")
            ),
        );
    } else if let Some(slowest) = plays.iter().map(|e| e.took).max() {
        game.pass(
            "play",
            format!(
                "{} of the opponent answered, the slowest in {}",
                plural(plays.len(), "move", "moves"),
                millis(slowest)
            ),
        )
        .timed(slowest);
    }
    let first_name = match (config.setup().handicap.len(), config.color) {
        (0 | 1, Color::Black) => "genmove (empty board)",
        (0 | 1, Color::White) => "genmove (first move)",
        _ => "genmove (handicap)",
    };
    let time = config.game.rules.time;
    judge_timed_moves(moves, (first_name, "genmove (mid-game)"), time, game);
    if let Some(stopped) = &exchange.stopped {
        let asked = exchange.moves.len() + 1;
        let (name, reason) = stopped_reason(stopped, asked);
        match stopped {
            Stopped::Resigned => game.warn(name, reason),
            _ => game.fail(name, reason),
        };
    }
}

/// The name and reason of a check the exchange stopped at.
pub(super) fn stopped_reason(stopped: &Stopped, asked: usize) -> (&'static str, String) {
    match stopped {
        Stopped::Failed(failure) => ("moves", failure.reason.clone()),
        Stopped::Silent(waited) => (
            "genmove",
            format!("no move within {} (its move {asked})", millis(*waited)),
        ),
        Stopped::Illegal { mv, why } => (
            "genmove",
            format!("played {mv}, which is illegal ({why}): it would forfeit"),
        ),
        Stopped::Resigned => (
            "genmove",
            format!(
                "resigned at its move {}: the check stopped there",
                asked - 1
            ),
        ),
    }
}

/// `a, b and c`, or `none`.
fn words(items: &[String]) -> String {
    match items {
        [] => "none".to_string(),
        [one] => one.clone(),
        [first @ .., last] => format!("{} and {last}", first.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Verdict;

    fn line(direction: LineDirection, text: &str, ms: u64) -> Report {
        static EPOCH: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
        Report {
            color: Color::Black,
            at: *EPOCH.get_or_init(crate::test_support::epoch) + Duration::from_millis(ms),
            event: PlayerEvent::Line {
                direction,
                line: text.to_string(),
            },
        }
    }

    #[test]
    fn each_command_is_paired_with_the_answer_that_followed_it() {
        use LineDirection::{Received, Sent, Stderr};
        let log = [
            line(Sent, "1 protocol_version", 0),
            line(Received, "=1 2", 3),
            line(Sent, "2 known_command kgs-time_settings", 4),
            line(Stderr, "thinking", 5),
            line(Received, "=2 false", 6),
            line(Sent, "3 komi 7.5", 10),
            line(Received, "?3 unknown command", 12),
            line(Sent, "4 list_commands", 20),
            line(Received, "=4 play", 21),
            line(Received, "genmove", 21),
        ];
        let found = exchanges(&log);
        assert_eq!(found.len(), 4);
        assert_eq!(found[0].command, "protocol_version");
        assert_eq!(found[0].took, Duration::from_millis(3));
        assert_eq!(found[1].answer, Some(vec!["false".to_string()]));
        assert!(!found[2].success);
        assert_eq!(found[2].name, "komi");
        assert_eq!(
            found[3].answer,
            Some(vec!["play".to_string(), "genmove".to_string()])
        );
        assert_eq!(
            known(&found),
            (vec![], vec!["kgs-time_settings".to_string()])
        );
    }

    #[test]
    fn the_clock_warning_names_what_the_engine_misses() {
        let byoyomi: TimeSystem = "byoyomi:5m,30s,3".parse().unwrap();
        let mut section = Section::new("game");
        judge_time(
            byoyomi,
            &|c| c == "time_settings" || c == "time_left",
            &mut section,
        );
        assert_eq!(section.checks.len(), 1);
        assert_eq!(section.checks[0].verdict, Verdict::Warn);
        assert!(section.checks[0].reason.contains("2 spare periods"));
        assert!(section.checks[0].reason.contains("time_settings 300 30 1"));
        let mut section = Section::new("game");
        judge_time(byoyomi, &|_| true, &mut section);
        assert_eq!(section.checks[0].verdict, Verdict::Pass);
        let mut section = Section::new("game");
        judge_time(byoyomi, &|_| false, &mut section);
        assert_eq!(
            section.checks.iter().map(|c| c.verdict).collect::<Vec<_>>(),
            [Verdict::Warn, Verdict::Warn]
        );
    }
}
