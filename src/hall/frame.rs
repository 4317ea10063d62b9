//! What every screen of followed boards shares, the event's hall and a
//! match's screen: frames paced as the hall's screen asks, the terminal's
//! input turned into keys, the runner's lines kept, a board's new view
//! shown, and an operator's line carried to a board's goref.

use std::collections::HashMap;

use tokio::sync::mpsc;
use tokio::time::Instant;

use crate::app::hall_screen::HallScreen;
use crate::app::input::TerminalEvent;
use crate::app::terminal::Screen;
use crate::app::FRAME_GAP;
use crate::ui::hall::{BoardGame, HallView};
use crate::ui::keys::Key;
use crate::ui::Theme;

use super::follower::Follower;

/// How many of the runner's lines a screen keeps.
const NEWS_KEPT: usize = 50;

/// When the next frame is drawn: once something changed, no sooner than
/// the screen's gap after the last; else at the screen's next tick.
pub(crate) struct Pacer {
    dirty: bool,
    last_frame: Instant,
}

impl Pacer {
    pub(crate) fn new() -> Pacer {
        Pacer {
            dirty: true,
            last_frame: Instant::now() - FRAME_GAP,
        }
    }

    /// Draws the view if a frame is due.
    pub(crate) fn draw(
        &mut self,
        hall: &mut HallScreen,
        screen: &mut Screen,
        view: &HallView,
        theme: &Theme,
    ) {
        if self.dirty && Instant::now() >= self.last_frame + hall.frame_gap() {
            hall.draw(screen, view, theme, None);
            self.last_frame = Instant::now();
            self.dirty = false;
        }
    }

    /// When to wake for the next frame.
    pub(crate) fn wake(&self, hall: &HallScreen, view: &HallView) -> Instant {
        match self.dirty {
            true => self.last_frame + hall.frame_gap(),
            false => hall.next_tick(view),
        }
    }

    /// Something changed.
    pub(crate) fn touch(&mut self) {
        self.dirty = true;
    }
}

/// What the terminal's reader sent, as a key when it is one; a repaint or
/// a lost terminal is dealt with here.
pub(crate) fn terminal_key(
    input: Option<TerminalEvent>,
    screen: &mut Screen,
    keys: &mut Option<mpsc::UnboundedReceiver<TerminalEvent>>,
) -> Option<Key> {
    match input {
        Some(TerminalEvent::Key(key)) => return Some(key),
        Some(TerminalEvent::Repaint) => screen.repaint(),
        Some(TerminalEvent::Lost(why)) => {
            screen.lose(&why);
            *keys = None;
        }
        None => *keys = None,
    }
    None
}

/// Keeps one of the runner's lines, the oldest dropped past the limit.
pub(crate) fn keep_line(view: &mut HallView, line: String) {
    if view.news.len() == NEWS_KEPT {
        view.news.remove(0);
    }
    view.news.push(line);
}

/// A board's new view: kept, and shown at once when the board is open.
pub(crate) fn show_board(
    view: &mut HallView,
    screen: &mut HallScreen,
    board: u32,
    game: BoardGame,
) {
    view.games.insert(board, game);
    if screen.opened() == Some(board) {
        screen.see(view, board);
    }
}

/// Carries an operator's line to board `board`'s goref; the board's screen
/// says why when it cannot (`gone`: the screen follows it no more).
pub(crate) fn send_to_board(
    followers: &HashMap<u32, Follower>,
    screen: &mut HallScreen,
    board: u32,
    line: String,
    gone: &str,
) {
    let sent = followers
        .get(&board)
        .is_some_and(|f| f.command(line.clone()));
    if !sent {
        screen.tell_board(board, format!("'{line}' was not sent: {gone}"));
    }
}
