//! The hall on the terminal, for the director (`goref event DIR`) and for
//! a spectator of the hall (`goref --watch HOST:PORT`): the hall's frame,
//! or one board opened on the whole screen with the single game's panes
//! and keys, and the way back.
//!
//! It draws a [`HallView`] it is handed and turns keys into `Action`s:
//! what reaches the event or a board's goref is the caller's to carry.
//! On a spectator's screen the keys have no operator command, so a board
//! opened there can only be looked at.

use std::collections::HashMap;
use std::time::Duration;

use ratatui::layout::Rect;
use ratatui::style::Style;
use tokio::time::Instant;

use crate::ui::clocks::next_change_ms;
use crate::ui::commands::KeyMap;
use crate::ui::control::{follow_game, handle_key, Effect};
use crate::ui::hall::keys::{self, HallEffect};
use crate::ui::hall::{board_state, HallState, HallView, Laid, Mode};
use crate::ui::keys::Key;
use crate::ui::layout::areas;
use crate::ui::{LinkStatus, PaneId, Role, Theme, UiState};

use super::terminal::Screen;
use super::FRAME_GAP;

/// The least time between two frames of the hall's tiles: boards that move
/// together are one frame, and ten a second is more than a clock needs.
pub(crate) const HALL_FRAME_GAP: Duration = Duration::from_millis(100);

/// What a key asks of the caller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Action {
    /// Something for the event (the director's hall only).
    Hall(HallEffect),
    /// An operator's line for board `board`'s goref.
    Board { board: u32, line: String },
}

/// One hall screen: the hall's own state and each opened board's.
pub(crate) struct HallScreen {
    pub state: HallState,
    /// Each board's full screen, kept while the round lasts.
    screens: HashMap<u32, UiState>,
    role: Role,
    keys: KeyMap,
    laid: Laid,
    /// The panes of the board screen drawn last, and its page.
    board_panes: (Vec<PaneId>, usize),
}

impl HallScreen {
    /// The director's hall (`Role::Operator`) or a spectator's.
    pub(crate) fn new(role: Role, keys: KeyMap) -> HallScreen {
        HallScreen {
            state: HallState::new(role == Role::Operator),
            screens: HashMap::new(),
            role,
            keys,
            laid: Laid { columns: 1 },
            board_panes: (Vec::new(), 10),
        }
    }

    /// A new round: what was opened and seen was of the round before.
    pub(crate) fn new_round(&mut self) {
        self.screens.clear();
        self.state.seen.clear();
        if let Mode::Board(_) = self.state.mode {
            self.state.mode = Mode::Boards;
        }
    }

    /// Board `board`'s screen is dropped: another game plays there now.
    pub(crate) fn forget(&mut self, board: u32) {
        self.screens.remove(&board);
    }

    /// The board opened, if one is.
    pub(crate) fn opened(&self) -> Option<u32> {
        match self.state.mode {
            Mode::Board(board) => Some(board),
            _ => None,
        }
    }

    /// A line for the opened board's hint bar (a command refused).
    pub(crate) fn tell_board(&mut self, board: u32, message: String) {
        if let Some(screen) = self.screens.get_mut(&board) {
            screen.message = Some(message);
        }
    }

    /// Marks board `board`'s alerts seen: it is on screen.
    pub(crate) fn see(&mut self, hall: &HallView, board: u32) {
        if let Some(game) = hall.games.get(&board) {
            let last = game.view.alerts.back().map_or(0, |a| a.n);
            self.state.seen.insert(board, last);
        }
    }

    /// Opens board `board` on the whole screen, if the hall has its game.
    pub(crate) fn open(&mut self, hall: &HallView, board: u32) {
        let Some(game) = hall.games.get(&board) else {
            let state = hall
                .picture
                .board(board)
                .map(|b| board_state(b, None))
                .unwrap_or_default();
            self.state.message = Some(format!("board {board} has no game to show: {state}"));
            return;
        };
        let last_alert = game.view.alerts.back().map_or(0, |a| a.n);
        let (role, keys) = (self.role, &self.keys);
        let screen = self.screens.entry(board).or_insert_with(|| {
            let mut screen = UiState::new(role);
            screen.detaches = true;
            screen.keys = keys.clone();
            screen
        });
        screen.alerts_acknowledged = screen.alerts_acknowledged.max(last_alert);
        self.state.mode = Mode::Board(board);
        self.see(hall, board);
    }

    /// Handles one key.
    pub(crate) fn key(&mut self, hall: &HallView, key: Key) -> Vec<Action> {
        if let Mode::Board(board) = self.state.mode {
            return self.board_key(hall, board, key);
        }
        let mut actions = Vec::new();
        for effect in keys::handle(key, hall, &mut self.state, self.laid.columns) {
            match effect {
                HallEffect::Open(board) => self.open(hall, board),
                effect => actions.push(Action::Hall(effect)),
            }
        }
        actions
    }

    /// A key on a board's full screen: `esc` with nothing open, or `q`,
    /// goes back to the hall; the rest are the board screen's keys.
    fn board_key(&mut self, hall: &HallView, board: u32, key: Key) -> Vec<Action> {
        let (Some(game), Some(screen)) = (hall.games.get(&board), self.screens.get_mut(&board))
        else {
            self.state.mode = Mode::Boards;
            return Vec::new();
        };
        let idle = screen.input.is_none()
            && screen.confirm.is_none()
            && screen.help.is_none()
            && screen.zoom.is_none()
            && screen.pending.is_empty();
        if key == Key::Esc && idle {
            self.state.mode = Mode::Boards;
            return Vec::new();
        }
        let (panes, page) = &self.board_panes;
        let mut actions = Vec::new();
        for effect in handle_key(key, &game.view, screen, panes, *page) {
            let line = match effect {
                Effect::Quit | Effect::Interrupt => {
                    self.state.mode = Mode::Boards;
                    return actions;
                }
                Effect::Operator(command) => command.as_line(),
                Effect::TypedLine(text) => text,
                Effect::NextGame | Effect::Step(_) => continue,
            };
            actions.push(Action::Board { board, line });
        }
        actions
    }

    /// The least time between two frames: a board opened is drawn as its
    /// own screen is, the tiles less often.
    pub(crate) fn frame_gap(&self) -> Duration {
        match self.state.mode {
            Mode::Board(_) => FRAME_GAP,
            _ => HALL_FRAME_GAP,
        }
    }

    /// When a clock on screen shows another second next.
    pub(crate) fn next_tick(&self, hall: &HallView) -> Instant {
        let now = std::time::Instant::now();
        let soonest = hall
            .games
            .iter()
            .filter(|(_, g)| g.view.result.is_none() && !g.view.clocks_paused)
            .filter_map(|(&board, g)| next_change_ms(&g.view, hall.now_t_ms(board, now)?))
            .min()
            .unwrap_or(60_000);
        Instant::now() + Duration::from_millis(soonest)
    }

    /// Draws the hall, or the board opened, at the terminal's size; `link`
    /// is a spectator's connection, for the status line.
    pub(crate) fn draw(
        &mut self,
        screen: &mut Screen,
        hall: &HallView,
        theme: &Theme,
        link: Option<&LinkStatus>,
    ) {
        if screen.is_lost() {
            return;
        }
        let (width, height) = screen.size();
        let now = std::time::Instant::now();
        if let Mode::Board(board) = self.state.mode {
            let line = hall_line(hall, &self.state, board, theme);
            let (Some(game), Some(ui)) = (hall.games.get(&board), self.screens.get_mut(&board))
            else {
                self.state.mode = Mode::Boards;
                return self.draw(screen, hall, theme, link);
            };
            ui.now_t_ms = hall.now_t_ms(board, now).unwrap_or(game.view.last_t_ms);
            ui.link = match (&game.trouble, link) {
                (Some(text), _) => Some(LinkStatus {
                    text: text.clone(),
                    trouble: true,
                }),
                (None, link) => link.cloned(),
            };
            follow_game(&game.view, ui);
            ui.in_hall = Some(LinkStatus {
                text: line.0,
                trouble: line.1 == theme.alert,
            });
            let board_area = Rect::new(0, 0, width, height);
            let laid = areas(board_area, &game.view, ui);
            let page = laid
                .pane(PaneId::Trace)
                .map_or(10, |t| usize::from(t.height.saturating_sub(3).max(1)));
            if let Some(trace) = laid.pane(PaneId::Trace) {
                ui.trace.pane_rows = trace.height.saturating_sub(2);
            }
            self.board_panes = (laid.panes.iter().map(|(p, _)| *p).collect(), page);
            screen.draw(|frame| {
                crate::ui::render(board_area, frame.buffer_mut(), &game.view, ui, theme);
            });
            return;
        }
        let area = Rect::new(0, 0, width, height);
        let mut laid = Laid { columns: 1 };
        let state = &mut self.state;
        screen.draw(|frame| {
            laid = crate::ui::hall::draw(area, frame.buffer_mut(), hall, state, theme, now);
            if let Some(link) = link.filter(|l| l.trouble) {
                let text = format!(" {} ", link.text);
                let x = width.saturating_sub(text.chars().count() as u16);
                frame
                    .buffer_mut()
                    .set_stringn(x, 0, text, usize::from(width), theme.alert);
            }
        });
        self.laid = laid;
    }
}

/// The hall's word on a board opened from it, first on its status line:
/// a board that needs the director, or which board this is.
fn hall_line(hall: &HallView, state: &HallState, shown: u32, theme: &Theme) -> (String, Style) {
    let other = hall.order(state).into_iter().find_map(|n| {
        let board = hall.picture.board(n).filter(|_| n != shown)?;
        hall.needs(board, state).map(|why| (n, why))
    });
    match other {
        Some((n, why)) => {
            let who = if state.director {
                "you"
            } else {
                "the director"
            };
            (format!("! board {n} needs {who}: {why}"), theme.alert)
        }
        None => {
            let label = hall.picture.board(shown).and_then(|b| b.label.clone());
            let round = hall.picture.round;
            let text = label.unwrap_or_else(|| format!("round {round} board {shown}"));
            (text, theme.status)
        }
    }
}
