//! The full-screen app: the async shell around the pure screen.
//!
//! `ui` draws a view and decides what keys mean; this module owns the
//! terminal (raw mode, the alternate screen, restoring it on any exit), reads
//! the keys, runs the game's driver beside the screen and carries the
//! operator's commands to it. A live game is [`live::run`]; a recorded one
//! is [`replay::run`]; an event's hall on the terminal is
//! `hall_screen::HallScreen`.

pub mod hall_screen;
pub mod input;
pub mod key_decoder;
pub mod live;
pub mod replay;
pub mod seat_screen;
pub mod terminal;
pub mod watch;

pub use live::{Ending, ScreenOptions};

use crate::cli::ScreenArgs;
use crate::ui::commands::KeyMap;
use crate::ui::layout::areas;
use crate::ui::theme::{Environment, Theme};
use crate::ui::{PaneId, UiState};
use goref_core::referee::GameView;

use terminal::Screen;

/// The least time between two frames: a burst of events is one frame.
pub(crate) const FRAME_GAP: std::time::Duration = std::time::Duration::from_millis(15);

/// What a drawn frame tells the keys: the panes on screen in focus order,
/// and the rows a page of the trace scrolls.
pub(crate) struct Drawn {
    pub panes: Vec<PaneId>,
    pub page: usize,
}

/// Lays out and draws one frame at the terminal's size, the screen's
/// dialogs first brought in step with the game; the trace's height goes
/// into `state`, for its scrolling. A terminal that went away is not asked
/// its size (crossterm would start `tput` to find it), and nothing is
/// drawn: no panes are on screen.
pub(crate) fn draw_frame(
    screen: &mut Screen,
    view: &GameView,
    state: &mut UiState,
    theme: &Theme,
) -> Drawn {
    crate::ui::control::follow_game(view, state);
    if screen.is_lost() {
        return Drawn {
            panes: Vec::new(),
            page: 10,
        };
    }
    let (width, height) = screen.size();
    let laid = areas(ratatui::layout::Rect::new(0, 0, width, height), view, state);
    let mut page = 10;
    if let Some(trace) = laid.pane(PaneId::Trace) {
        state.trace.pane_rows = trace.height.saturating_sub(2);
        page = usize::from(trace.height.saturating_sub(3).max(1));
    }
    screen.draw(|frame| crate::ui::draw(frame, view, state, theme));
    Drawn {
        panes: laid.panes.iter().map(|(p, _)| *p).collect(),
        page,
    }
}

/// The theme and the keys the flags ask for, checked before the screen
/// takes the terminal, so that a mistake is a one-line message.
pub fn screen_options(args: &ScreenArgs) -> Result<ScreenOptions, String> {
    let theme = Theme::choose(args.theme.as_deref(), &Environment::from_process())
        .map_err(|e| format!("--theme: {e}"))?;
    let keys = match &args.keys {
        Some(path) => {
            let text = crate::files::read_text(path, crate::files::SETTINGS_MAX)
                .map_err(|e| format!("--keys: cannot read {}: {e}", path.display()))?;
            KeyMap::from_toml(&text, &path.display().to_string())
                .map_err(|e| format!("--keys: {e}"))?
        }
        None => KeyMap::default(),
    };
    Ok(ScreenOptions {
        theme,
        keys,
        can_start_next: false,
        demo: false,
        message: None,
    })
}

impl ScreenOptions {
    /// The demo: the screen says so, and how to start a real game.
    pub fn as_demo(mut self, demo: bool) -> ScreenOptions {
        self.demo = demo;
        self
    }

    /// Whether `n` may start another game when this one is over.
    pub fn with_next_games(mut self, can_start_next: bool) -> ScreenOptions {
        self.can_start_next = can_start_next;
        self
    }

    /// A line for the operator's eyes only, kept on the status line.
    pub fn with_message(mut self, message: Option<String>) -> ScreenOptions {
        self.message = message;
        self
    }
}
