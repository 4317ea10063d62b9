//! `goref check SPEC`: a pre-round conformance card for one program.
//!
//! The card is built from the pieces a game uses, so that it tells the
//! truth about a game: a GTP engine is set up and asked for moves by the
//! same player adapter the referee drives (`gtp`), a program on a GMP
//! line meets the same protocol session on a line opened the same way
//! ([`line`]), and a Usenix program the same adapter (`usenix`). The
//! built-in engine plays the other side. Each check is pass, warn or fail
//! with a one-line reason ([`card`]).

pub(crate) mod card;
mod gtp;
mod line;
mod script;
mod usenix;

use std::path::PathBuf;
use std::time::Duration;

use crate::players::{bot_command, PlayerSetup, PlayerSpec};
use goref_core::game::clock::TimeSystem;
use goref_core::game::Color;
use goref_core::referee::GameConfig;

pub(crate) use card::{Card, Section, Verdict};

/// The moves the program is asked for, unless told otherwise: the first on
/// an empty board (or after the handicap), the rest in the middle of a game.
pub(crate) const DEFAULT_MOVES: u32 = 6;

/// The card's width: it reads at 80 columns.
pub(crate) const CARD_WIDTH: usize = 80;

/// The longest the check waits for one move, unless the rules' move
/// timeout is shorter.
pub(crate) const MOVE_LIMIT: Duration = Duration::from_secs(120);

/// What to check a program for.
#[derive(Debug, Clone)]
pub(crate) struct CheckConfig {
    pub spec: PlayerSpec,
    /// The colour it plays in the round.
    pub color: Color,
    pub game: GameConfig,
    /// The deadline for any command other than a move request.
    pub command_timeout: Duration,
    /// The goref binary, for `bot`.
    pub self_exe: PathBuf,
    /// How many moves the program is asked for.
    pub moves: u32,
    /// For a program behind a seat (`seat:NAME`): the desk that holds its
    /// link.
    pub seats: crate::seats::link::SeatDesk,
}

/// Why a program cannot be checked at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub(crate) struct CheckError(String);

impl CheckConfig {
    /// The game the card is for, in a few words.
    pub(crate) fn describe(&self) -> String {
        let rules = &self.game.rules;
        let time = match rules.time {
            TimeSystem::None => "no clock".to_string(),
            time => format!("time {time}"),
        };
        let handicap = match self.game.handicap_stones().map(|s| s.len()).unwrap_or(0) {
            0 => String::new(),
            n => format!(", handicap {n}"),
        };
        format!(
            "{} under {} rules, {}x{}, komi {}{handicap}, {time}",
            self.color, rules.preset, self.game.size, self.game.size, rules.komi
        )
    }

    /// The longest the check waits for one move.
    fn move_limit(&self) -> Duration {
        self.game.rules.move_timeout.min(MOVE_LIMIT)
    }

    /// The set-up the player adapter gets, as in a game.
    fn setup(&self) -> PlayerSetup {
        PlayerSetup {
            color: self.color,
            size: self.game.size,
            rules: self.game.rules.clone(),
            handicap: self.game.handicap_stones().unwrap_or_default(),
            command_timeout: self.command_timeout,
            self_exe: self.self_exe.clone(),
            position: Vec::new(),
            line: None,
            seats: self.seats.clone(),
            analysis: None,
        }
    }
}

/// Checks the program and returns its card. A program that cannot even be
/// reached gets a card that says so; only a player kind that has nothing to
/// check is an error.
pub(crate) async fn run(config: &CheckConfig) -> Result<Card, CheckError> {
    let sections = match &config.spec {
        PlayerSpec::Gtp { command } => gtp::check(config, command).await,
        PlayerSpec::Bot { seed, settings } => {
            let seed = seed.unwrap_or(config.color.index() as u64 + 1);
            let command = bot_command(&config.self_exe, seed, settings);
            gtp::check(config, &command).await
        }
        PlayerSpec::Line {
            profile,
            line,
            text,
        } => line::check(config, *profile, line, text).await,
        PlayerSpec::Usenix { command } => usenix::check(config, command).await,
        PlayerSpec::Seat { entrant } if config.seats.holds(entrant) => {
            return Ok(run_seated(config, entrant).await)
        }
        PlayerSpec::Human { .. } | PlayerSpec::BotOnLine { .. } | PlayerSpec::Seat { .. } => {
            return Err(CheckError(format!(
                "'{}' has nothing to check: goref check takes gtp:CMDLINE, usenix:CMDLINE, \
                 sgmp:DEVICE, gmp:DEVICE, sgmp-tcp:HOST:PORT, gmp-tcp:HOST:PORT or bot",
                config.spec
            )))
        }
    };
    Ok(Card {
        spec: config.spec.to_string(),
        game: config.describe(),
        sections: sections
            .into_iter()
            .filter(|s| !s.checks.is_empty())
            .collect(),
    })
}

/// Checks the program behind `entrant`'s seat, whose link is in the
/// config's seat desk (and goes back there), and returns its card.
pub(crate) async fn run_seated(config: &CheckConfig, entrant: &str) -> Card {
    let sections = gtp::check_seated(config, entrant).await;
    Card {
        spec: format!("seat:{entrant}"),
        game: config.describe(),
        sections: sections
            .into_iter()
            .filter(|s| !s.checks.is_empty())
            .collect(),
    }
}

/// The program's moves on the card: the first as `names.0`, the rest as
/// `names.1`; a move slower than the clock `time` allows one warns.
fn judge_timed_moves(
    moves: &[script::TimedMove],
    names: (&str, &str),
    time: TimeSystem,
    section: &mut Section,
) {
    let pace = pace_limit(time);
    let mut judged = |name: &str, took: Duration, text: String| {
        match pace {
            Some(limit) if took > limit => section.warn(
                name,
                format!(
                    "{text}: longer than the {} a move its clock allows",
                    millis(limit)
                ),
            ),
            _ => section.pass(name, text),
        }
        .timed(took);
    };
    if let Some(first) = moves.first() {
        judged(
            names.0,
            first.took,
            format!("{} in {}", first.mv, millis(first.took)),
        );
    }
    if let Some(rest) = moves.get(1..).filter(|rest| !rest.is_empty()) {
        let fastest = rest.iter().map(|m| m.took).min().unwrap_or_default();
        let slowest = rest.iter().map(|m| m.took).max().unwrap_or_default();
        let played: Vec<String> = rest.iter().map(|m| m.mv.to_string()).collect();
        let (fast, slow) = (millis(fastest), millis(slowest));
        let times = match fast == slow {
            true => format!("each in {slow}"),
            false => format!("in {fast} to {slow}"),
        };
        let text = format!(
            "{} ({}) {times}",
            plural(rest.len(), "move", "moves"),
            played.join(" "),
        );
        judged(names.1, slowest, text);
    }
}

/// The longest one move may take before the clock is in danger, where the
/// time system has a per-move measure.
fn pace_limit(time: TimeSystem) -> Option<Duration> {
    match time {
        TimeSystem::ByoYomi { period, .. } => Some(period),
        TimeSystem::Canadian { period, stones, .. } => Some(period / stones.max(1)),
        TimeSystem::Cpu { per_move, .. } => Some(per_move),
        TimeSystem::None | TimeSystem::Absolute { .. } | TimeSystem::Fischer { .. } => None,
    }
}

/// `n` things in words: `1 move`, `3 moves`.
pub(crate) fn plural(n: usize, one: &str, many: &str) -> String {
    match n {
        1 => format!("1 {one}"),
        n => format!("{n} {many}"),
    }
}

/// A duration as the card shows it: `41 ms`, `1.25 s`.
fn millis(elapsed: Duration) -> String {
    let ms = elapsed.as_secs_f64() * 1e3;
    if elapsed < Duration::from_micros(100) {
        return "under 0.1 ms".to_string();
    }
    match elapsed.as_millis() {
        0..10 => format!("{ms:.1} ms"),
        10..1000 => format!("{ms:.0} ms"),
        _ => format!("{:.2} s", elapsed.as_secs_f64()),
    }
}
