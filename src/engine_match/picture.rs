//! The match as a screen draws it: the games in play as a round's tiles
//! (board `2k + 1` is pair `k + 1`'s first game, `2k + 2` its second,
//! titled `pair K game N`), and the figures with the course of the LLR and
//! of Elo, for the panel under them.

use crate::game::Color;
use crate::tournament::hall::{BoardPicture, EventPicture, Stage};
use crate::ui::hall::MatchPanel;

use super::file::MatchFile;
use super::plan::{GameSlot, Plan};
use super::tally::{MatchFigures, Tally};

/// What a screen draws of the match.
#[derive(Debug, Clone)]
pub struct MatchPicture {
    pub boards: EventPicture,
    pub panel: MatchPanel,
    /// The match is over: decided, or the pairs asked for played.
    pub over: bool,
}

/// The match as a screen draws it: `running`, the games in play with their
/// tries, as tiles; the figures and the course of the match under them.
pub fn picture(
    file: &MatchFile,
    plan: &Plan,
    tally: &Tally,
    running: &[(GameSlot, u32)],
    figures: &MatchFigures,
    over: bool,
) -> MatchPicture {
    let boards = running
        .iter()
        .map(|(slot, attempt)| {
            let opponent = &file.engines[plan.opponent(slot.pair)].name;
            let candidate = &file.engines[0].name;
            let (black, white, leg) = match slot.candidate {
                Color::Black => (candidate, opponent, 1),
                Color::White => (opponent, candidate, 2),
            };
            BoardPicture {
                board: (slot.pair * 2 + leg) as u32,
                black: black.clone(),
                white: white.clone(),
                dir: Some(slot.dir(*attempt).to_string_lossy().into_owned()),
                playing: true,
                result: None,
                reason: None,
                needs_director: None,
                label: Some(format!("pair {} game {leg}", slot.pair + 1)),
            }
        })
        .collect();
    let target = file
        .pairs
        .map_or(String::new(), |pairs| format!(" of {}", pairs * 2));
    let boards = EventPicture {
        name: format!("{} | games {}{target}", file.name, figures.games),
        stage: match over {
            true => Stage::Over {
                standings_html: super::report::REPORT_PAGE.into(),
            },
            false => Stage::Playing,
        },
        boards,
        ..EventPicture::default()
    };
    let steps = tally.ledger().steps();
    let (lines, details) = figures.screen_lines();
    let llr_title = figures.llr_text().unwrap_or_default();
    let elo_title = figures.elo_text(1).unwrap_or_else(|| "Elo -".into());
    let panel = MatchPanel {
        lines,
        details,
        llr: steps
            .iter()
            .filter_map(|s| Some((s.games as f64, s.llr?)))
            .collect(),
        llr_bounds: figures.llr_lower.zip(figures.llr_upper),
        elo: steps
            .iter()
            .filter_map(|s| Some((s.games as f64, s.elo?)))
            .collect(),
        llr_title,
        elo_title,
    };
    MatchPicture {
        boards,
        panel,
        over,
    }
}
