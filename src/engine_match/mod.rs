//! `goref match`: an engine author's match in one folder. The candidate
//! plays its opponent (or each of several, a gauntlet) in colour-swapped
//! pairs of games, each its own goref process, until the number of pairs
//! asked for or the SPRT decides; the figures come from the folders.
//!
//! What the match shares with `goref worker` (its file, plan, figures,
//! picture, desk, queue and screen) is [`crate::match_play`]'s; this room
//! holds what only `goref match` does:
//!
//! - [`precheck`]: each engine's check card, before the first game.
//! - [`run`]: the games played, `boards` at once, resumed after a kill.
//! - [`report`]: `DIR/report.html`, the figures and their plots.
//! - [`screen`]: `goref match DIR` on a terminal.
//! - [`remote`]: `goref match DIR --workers`: the pairs handed to workers,
//!   their games copied back and counted.

pub(crate) mod precheck;
pub(crate) mod remote;
pub(crate) mod report;
pub(crate) mod run;
pub(crate) mod screen;

use std::path::Path;

/// Writes the commented `DIR/match.toml`; refuses to overwrite one.
pub(crate) fn init(dir: &Path) -> Result<std::path::PathBuf, String> {
    let path = dir.join(crate::match_play::file::MATCH_FILE);
    if path.exists() {
        return Err(format!(
            "{} exists already: goref match init writes a new one only",
            path.display()
        ));
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
    crate::files::write_atomically(&path, crate::match_play::file::TEMPLATE)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}

/// Whether `dir` is a match's folder.
pub(crate) fn is_match(dir: &Path) -> bool {
    dir.join(crate::match_play::file::MATCH_FILE).is_file()
}
