//! The check card of a seated entrant's program, run through its seat when
//! it first connects (the CGF's preliminary system testing, before round
//! 1): `goref check`'s card, under the event's own game settings.

use std::path::Path;
use std::sync::Arc;

use crate::check::{CheckConfig, DEFAULT_MOVES};
use crate::players::PlayerSpec;
use crate::seats::keeper::{CheckedCard, SeatChecker};
use goref_core::game::Color;

use super::file::EventFile;

/// The checker the runner's seats use: each card is for the event's
/// `[game]`, the program playing Black against the built-in engine.
pub fn seat_checker(event: &EventFile, exe: &Path) -> Result<SeatChecker, String> {
    let mut game = event.game.clone();
    game.black = Some("bot".into());
    game.white = Some("bot".into());
    let today = goref_core::game::sgf::Date::from_unix_seconds(0);
    let resolved = crate::config::resolve_file(&Default::default(), game, exe.to_path_buf(), today)
        .map_err(|e| format!("[game]: {e}"))?;
    let template = CheckConfig {
        spec: PlayerSpec::Seat {
            entrant: String::new(),
        },
        color: Color::Black,
        game: resolved.game,
        command_timeout: resolved.command_timeout,
        self_exe: exe.to_path_buf(),
        moves: DEFAULT_MOVES,
        seats: Default::default(),
    };
    Ok(Arc::new(move |desk, entrant| {
        let config = CheckConfig {
            spec: PlayerSpec::Seat {
                entrant: entrant.clone(),
            },
            seats: desk,
            ..template.clone()
        };
        Box::pin(async move { checked(&crate::check::run_seated(&config, &entrant).await) })
    }))
}

/// The card in a few words, and the program's names from it.
fn checked(card: &crate::check::Card) -> CheckedCard {
    let tally = card.tally();
    let count = |n: usize, what: &str| match n {
        1 => format!("1 {what}"),
        n => format!("{n} {what}s"),
    };
    let summary = match (tally.fail, tally.warn) {
        (0, 0) => "ready".to_string(),
        (0, warn) => format!("ready, {}", count(warn, "warning")),
        (fail, 0) => format!("NOT READY: {}", count(fail, "failure")),
        (fail, warn) => format!(
            "NOT READY: {}, {}",
            count(fail, "failure"),
            count(warn, "warning")
        ),
    };
    let said = |name: &str| {
        card.sections
            .iter()
            .flat_map(|s| &s.checks)
            .find(|c| c.name == name && c.verdict == crate::check::Verdict::Pass)
            .map(|c| c.reason.clone())
    };
    let program = match (said("name"), said("version")) {
        (Some(name), Some(version)) => Some(format!("{name} {version}")),
        (name, _) => name,
    };
    CheckedCard {
        summary,
        program,
        text: card.render(crate::check::CARD_WIDTH).join("\n"),
    }
}
