//! The hall: every board of a round on one screen, drawn from the event's
//! picture ([`EventPicture`]) and each board's own [`GameView`].
//!
//! Pure, like the single-board screen: the director's hall and a
//! spectator's draw the same [`HallView`] with the same functions. The hall
//! offers the view ([`HallView`]), what one screen adds to it
//! ([`HallState`]), the frame ([`draw()`]), the keys (`keys::handle`) and
//! where a board stands in words (`board_state`). A board that needs the
//! director (an alert not yet seen, the judge called, a result only the
//! director can give) is marked `!` and sorted to the top.

pub mod draw;
pub mod keys;
pub mod panel;

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::Instant;

use goref_core::referee::{GameView, Phase};
use goref_core::tournament::hall::{BoardPicture, EventPicture};

pub use draw::{draw, Laid};
pub use panel::MatchPanel;

/// One board's game as the hall follows it.
#[derive(Debug, Clone, Default)]
pub struct BoardGame {
    pub view: Arc<GameView>,
    /// The board's stream time at a local instant, to tick its clocks.
    pub clock: Option<(Instant, f64)>,
    /// The hall cannot follow the board now: why.
    pub trouble: Option<String>,
    /// Its goref, still linked, has gone quiet or was never heard: the
    /// header counts it apart from the boards playing.
    pub stale: bool,
}

/// The event and each board's game.
#[derive(Debug, Clone, Default)]
pub struct HallView {
    pub picture: EventPicture,
    /// By board number, for the boards of the round shown.
    pub games: BTreeMap<u32, BoardGame>,
    /// The event's newest lines (the runner's progress), newest last.
    pub news: Vec<String>,
    /// Where the hall is served (`serving :7777, web :8080`), if it is.
    pub serving: Option<String>,
    /// How many spectators watch the hall, once the mirror has said.
    pub watching: Option<u32>,
    /// A match's figures and plots, drawn under its tiles.
    pub panel: Option<MatchPanel>,
    /// Whose tiles these are: each lists its own keys.
    pub kind: HallKind,
}

/// What the tiles are of.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum HallKind {
    /// An event's boards: the director's keys, the rounds.
    #[default]
    Event,
    /// A match's games, with its figures.
    Match,
    /// A worker's slots.
    Worker,
}

/// What the hall shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The boards of the round.
    Boards,
    /// The standings, whole screen.
    Standings,
    /// The seated entrants' seats, whole screen.
    Seats,
    /// The hall's keys, whole screen.
    Help,
    /// One board's full screen.
    Board(u32),
}

/// What a line typed on the hall is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Asking {
    /// The words after this verb, for the event's prompt (`swap`, `add`...).
    Prompt(&'static str),
    /// A result for this board of the round shown: `RESULT REASON`.
    Result(u32),
}

/// A line being typed on the hall's hint bar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HallInput {
    pub asking: Asking,
    /// What the box says before the text.
    pub label: String,
    pub text: String,
    pub cursor: usize,
}

/// What one hall screen adds to the view.
#[derive(Debug, Clone, PartialEq)]
pub struct HallState {
    pub mode: Mode,
    /// The board the keys act on.
    pub selected: Option<u32>,
    /// The first row shown of a list longer than the screen.
    pub scroll: usize,
    /// Alerts seen, by board: up to this alert's number.
    pub seen: HashMap<u32, u64>,
    /// A board number typed so far.
    pub typed: String,
    pub input: Option<HallInput>,
    /// A change waiting for `y`: the question, and what it does.
    pub confirm: Option<(String, keys::HallEffect)>,
    /// A line for the hint bar's end: what the last key did.
    pub message: Option<String>,
    /// Spectators have no director's keys.
    pub director: bool,
}

impl HallState {
    pub fn new(director: bool) -> HallState {
        HallState {
            mode: Mode::Boards,
            selected: None,
            scroll: 0,
            seen: HashMap::new(),
            typed: String::new(),
            input: None,
            confirm: None,
            message: None,
            director,
        }
    }
}

impl HallView {
    /// The game of board `board`, once the hall has heard from it.
    pub fn game(&self, board: u32) -> Option<&BoardGame> {
        self.games.get(&board)
    }

    /// The board's stream time at `now`, for its clocks.
    pub fn now_t_ms(&self, board: u32, now: Instant) -> Option<u64> {
        let (at, t_ms) = self.game(board)?.clock?;
        let since = now.saturating_duration_since(at).as_secs_f64() * 1000.0;
        Some((t_ms + since).max(0.0) as u64)
    }

    /// Why `board` needs the director, if it does: an alert this screen
    /// has not seen, the judge called, or the event's own word (a result
    /// only the director can give).
    pub fn needs(&self, board: &BoardPicture, state: &HallState) -> Option<String> {
        if board.result.is_some() {
            return None;
        }
        if let Some(why) = &board.needs_director {
            return Some(why.clone());
        }
        let view = &self.game(board.board)?.view;
        if view.phase == Phase::Adjudication && view.result.is_none() {
            return Some(format!("the judge is called: {}", view.phase_reason));
        }
        let seen = state.seen.get(&board.board).copied().unwrap_or(0);
        view.alerts
            .iter()
            .rev()
            .find(|a| a.n > seen)
            .map(|a| a.message.clone())
    }

    /// The round's boards in the order the hall shows them: those that
    /// need the director first, then by number.
    pub fn order(&self, state: &HallState) -> Vec<u32> {
        let mut boards: Vec<(bool, u32)> = self
            .picture
            .boards
            .iter()
            .map(|b| (self.needs(b, state).is_none(), b.board))
            .collect();
        boards.sort();
        boards.into_iter().map(|(_, n)| n).collect()
    }
}

/// Where a board stands, in a few words: the result and why once it has
/// one, else its game's phase.
pub(crate) fn board_state(board: &BoardPicture, game: Option<&BoardGame>) -> String {
    if let Some(result) = &board.result {
        return match &board.reason {
            Some(reason) => format!("{result} ({reason})"),
            None => result.clone(),
        };
    }
    let Some(game) = game else {
        return match (&board.dir, board.playing) {
            (_, true) => "starting".into(),
            (Some(_), false) => "not playing".into(),
            (None, false) => "not started".into(),
        };
    };
    let view = &game.view;
    if let Some(result) = &view.result {
        return format!("{} ({})", result.result, result.reason);
    }
    match view.phase {
        Phase::Setup => "starting".into(),
        Phase::Play if view.clocks_paused => "paused".into(),
        Phase::Play => "playing".into(),
        Phase::Cleanup => "cleanup".into(),
        Phase::DeadStones => "dead stones".into(),
        Phase::Adjudication => "awaits the judge".into(),
        Phase::Over => "over".into(),
    }
}

#[cfg(test)]
mod tests;
