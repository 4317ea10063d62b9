//! The engines checked once before a match's first game: `goref check`'s
//! card for each, under the match's own game settings, playing Black
//! against the built-in engine; a kept engine's through the program kept
//! for board 1, which then plays its first game. Each card goes to `DIR/cards/NAME.txt`; an
//! engine that fails a check stops the match before any game is begun, so
//! that a wrong command line is one clear line instead of every game
//! crashing.

use crate::shell_time::Threads;
use std::path::Path;

use crate::check::{CheckConfig, CARD_WIDTH};
use goref_core::game::Color;

use crate::match_play::file::MatchFile;
use crate::match_play::kept::{entrant, KeptPrograms};

/// The folder of the engines' cards, in the match's.
pub(crate) const CARDS_FOLDER: &str = "cards";
/// The moves each engine is asked for: enough to see it play.
const MOVES: u32 = 3;

/// How often a check looks whether the match was asked to stop.
const STOP_POLL: std::time::Duration = std::time::Duration::from_millis(200);
/// How often a check that takes long says it is still running.
const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_secs(10);

/// Checks every engine of `file`, saying how each goes (and, every
/// `PROGRESS_EVERY`, that a slow one is still being checked), or why the
/// match cannot start. `stop_asked` is asked while a check runs: the match
/// may be stopped before an engine that hangs has had its whole time.
pub(crate) fn check_engines(
    dir: &Path,
    file: &MatchFile,
    exe: &Path,
    kept: Option<&KeptPrograms>,
    stop_asked: &dyn Fn() -> Option<String>,
    say: &dyn Fn(String),
) -> Result<(), String> {
    let runtime = crate::shell_time::runtime(Threads::Caller)
        .map_err(|e| format!("cannot check the engines: {e}"))?;
    let cards = dir.join(CARDS_FOLDER);
    std::fs::create_dir_all(&cards).map_err(|e| format!("cannot make {}: {e}", cards.display()))?;
    let today = goref_core::game::sgf::Date::from_unix_seconds(0);
    for engine in &file.engines {
        say(format!("goref: checking engine {}", engine.name));
        let mut game = file.game.clone();
        let seats = kept.filter(|kept| kept.keeps(&engine.name));
        game.black = Some(match seats {
            Some(_) => format!("seat:{}", entrant(1, &engine.name)),
            None => engine.player.clone(),
        });
        game.white = Some("bot".into());
        let resolved =
            crate::config::resolve_file(&Default::default(), game, exe.to_path_buf(), today)
                .map_err(|e| format!("engine {}: {e}", engine.name))?;
        let config = CheckConfig {
            spec: resolved.black,
            color: Color::Black,
            game: resolved.game,
            command_timeout: resolved.command_timeout,
            self_exe: exe.to_path_buf(),
            moves: MOVES,
            seats: seats.map(KeptPrograms::desk).unwrap_or_default(),
        };
        let card = runtime.block_on(async {
            let check = crate::check::run(&config);
            tokio::pin!(check);
            let started = tokio::time::Instant::now();
            let mut next_word = started + PROGRESS_EVERY;
            loop {
                if tokio::time::Instant::now() >= next_word {
                    next_word += PROGRESS_EVERY;
                    say(format!(
                        "goref: still checking engine {} ({} s)",
                        engine.name,
                        started.elapsed().as_secs()
                    ));
                }
                tokio::select! {
                    card = &mut check => {
                        return card.map_err(|e| format!("engine {}: {e}", engine.name));
                    }
                    _ = tokio::time::sleep(STOP_POLL) => {
                        if let Some(why) = stop_asked() {
                            return Err(format!(
                                "{why} while engine {} was being checked: the match did not start",
                                engine.name
                            ));
                        }
                    }
                }
            }
        })?;
        let path = cards.join(format!("{}.txt", file_name(&engine.name)));
        let text = card.render(CARD_WIDTH).join("\n") + "\n";
        crate::files::write_atomically(&path, &text)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        let failed: Vec<String> = card
            .sections
            .iter()
            .flat_map(|s| &s.checks)
            .filter(|c| c.verdict == crate::check::Verdict::Fail)
            .map(|c| format!("{}: {}", c.name, c.reason))
            .collect();
        if let Some(first) = failed.first() {
            return Err(format!(
                "engine {} is not ready ({first}); its card is {}",
                engine.name,
                path.display()
            ));
        }
        say(format!(
            "goref: engine {} checked: ready; its card is {}",
            engine.name,
            path.display()
        ));
    }
    Ok(())
}

/// An engine's name as a file's: letters, digits, `-`, `_` and `.` kept,
/// the rest `_`.
pub(crate) fn file_name(name: &str) -> String {
    name.chars()
        .map(|c| match c.is_ascii_alphanumeric() || "-_.".contains(c) {
            true => c,
            false => '_',
        })
        .collect()
}
