//! The match as a screen draws it: the games in play as a round's tiles
//! (board `2k + 1` is pair `k + 1`'s first game, `2k + 2` its second,
//! titled `pair K game N`), where each is followed (its folder's socket
//! here, or its stream on the broker when a worker plays it), and the
//! figures with the course of the LLR and of Elo, for the panel under them.

use std::collections::BTreeMap;

use crate::hall::follower::Follower;
use crate::mirror::follow::Target;
use crate::ui::hall::MatchPanel;
use goref_core::tournament::hall::{BoardPicture, EventPicture, Stage};

use super::file::MatchFile;
use super::plan::{GameSlot, Plan};
use super::tally::{MatchFigures, Tally};

/// What a screen draws of the match.
#[derive(Debug, Clone)]
pub struct MatchPicture {
    pub boards: EventPicture,
    /// Where each board's game is followed; a folder's socket relative to
    /// the match's folder.
    pub sources: BTreeMap<u32, Target>,
    pub panel: Option<MatchPanel>,
    /// The match is over: decided, or the pairs asked for played.
    pub over: bool,
}

/// A game in play, as a tile shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct GameInPlay {
    pub slot: GameSlot,
    /// Where it is followed.
    pub target: Target,
    /// Its folder, relative to the match's, when it is played here.
    pub dir: Option<String>,
    /// The worker that plays it, when one does.
    pub worker: Option<String>,
}

impl GameInPlay {
    /// Try `attempt` of `slot`, played here.
    pub fn here(slot: GameSlot, attempt: u32) -> GameInPlay {
        let dir = super::games::GamesFolder::relative(&slot, attempt);
        GameInPlay {
            target: Follower::in_folder(&dir),
            dir: Some(dir.to_string_lossy().into_owned()),
            worker: None,
            slot,
        }
    }

    /// The tile's board: `2k + 1` for pair `k + 1`'s first game.
    pub fn board(&self) -> u32 {
        self.slot.board()
    }
}

/// The match as a screen draws it: `running`, the games in play, as tiles;
/// the figures and the course of the match under them.
pub fn picture(
    file: &MatchFile,
    plan: &Plan,
    tally: &Tally,
    running: &[GameInPlay],
    figures: &MatchFigures,
    over: bool,
) -> MatchPicture {
    let boards = running
        .iter()
        .map(|game| {
            let slot = &game.slot;
            let opponent = &file.engines[plan.opponent(slot.pair)].name;
            let candidate = &file.engines[0].name;
            let (black, white) = slot.colours(candidate, opponent);
            let leg = slot.game();
            let by = game
                .worker
                .as_ref()
                .map_or(String::new(), |worker| format!(" · {worker}"));
            BoardPicture {
                board: game.board(),
                black: black.clone(),
                white: white.clone(),
                dir: game.dir.clone(),
                playing: true,
                result: None,
                reason: None,
                needs_director: None,
                label: Some(format!("pair {} game {leg}{by}", slot.pair + 1)),
            }
        })
        .collect();
    let sources = running
        .iter()
        .map(|game| (game.board(), game.target.clone()))
        .collect();
    let target = file
        .pairs
        .map_or(String::new(), |pairs| format!(" of {}", pairs * 2));
    let boards = EventPicture {
        name: format!("{} | games {}{target}", file.name, figures.games),
        stage: match over {
            true => Stage::Over {
                standings_html: super::plan::REPORT_PAGE.into(),
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
        sources,
        panel: Some(panel),
        over,
    }
}
