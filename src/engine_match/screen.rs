//! `goref match DIR` on a terminal: the match's runner with its screen
//! ([`crate::match_play::screen`]): the games in play as tiles, the figures
//! and the plots of the LLR and of Elo under them, `s` for every figure.

use std::path::Path;

use crate::app::ScreenOptions;
use crate::hall::screen::Hangup;
use crate::match_play::desk::{MatchError, MatchOptions};
use crate::match_play::screen::run_on_screen;
use crate::match_play::tally::MatchFigures;

use super::run::run_at;

/// Plays the match in `dir` with its screen on the terminal, until it is
/// over and its player leaves, or the player stops it.
pub(crate) async fn run(
    dir: &Path,
    options: &MatchOptions,
    screen_options: ScreenOptions,
) -> Result<MatchFigures, MatchError> {
    let (runner_dir, runner_options) = (dir.to_path_buf(), options.clone());
    let over = "the match is over: its figures are in report.html; q leaves";
    run_on_screen(dir, screen_options, over, Hangup::Stops, move |desk| {
        run_at(&runner_dir, &runner_options, desk)
    })
    .await
}
