//! `goref match`: an engine author's match in one folder. The candidate
//! plays its opponent (or each of several, a gauntlet) in colour-swapped
//! pairs of games, each its own goref process, until the number of pairs
//! asked for or the SPRT decides; the figures come from the folders.
//!
//! - [`desk`]: where a match says how it goes and hears it must stop.
//! - [`file`](mod@file): `DIR/match.toml`, read and checked, and its template.
//! - [`plan`]: which games, in which folders, with which game files.
//! - [`tally`]: the figures from the folders.
//! - [`precheck`]: each engine's check card, before the first game.
//! - [`run`]: the games played, `boards` at once, resumed after a kill.
//! - [`report`]: `DIR/report.html`, the figures and their plots.
//! - [`picture`]: the match as a screen draws it: tiles and a panel.
//! - [`screen`]: `goref match DIR` on a terminal.
//! - [`queue`]: the broker's streams and store for a match played by
//!   workers, shared with `goref worker`.
//! - [`remote`]: `goref match DIR --workers`: the pairs handed to workers,
//!   their games copied back and counted.

pub mod desk;
pub mod file;
pub mod picture;
pub mod plan;
pub mod precheck;
pub mod queue;
pub mod remote;
pub mod report;
pub mod run;
pub mod screen;
pub mod tally;

use std::path::Path;

/// Writes the commented `DIR/match.toml`; refuses to overwrite one.
pub fn init(dir: &Path) -> Result<std::path::PathBuf, String> {
    let path = dir.join(file::MATCH_FILE);
    if path.exists() {
        return Err(format!(
            "{} exists already: goref match init writes a new one only",
            path.display()
        ));
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
    crate::files::write_atomically(&path, file::TEMPLATE)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}

/// Whether `dir` is a match's folder.
pub fn is_match(dir: &Path) -> bool {
    dir.join(file::MATCH_FILE).is_file()
}
