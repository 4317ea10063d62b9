//! The full-screen app: the async shell around the pure screen.
//!
//! `ui` draws a view and decides what keys mean; this module owns the
//! terminal (raw mode, the alternate screen, restoring it on any exit), reads
//! the keys, runs the game's driver beside the screen and carries the
//! operator's commands to it. A live game is [`live::run`]; a recorded one
//! is [`replay::run`].

pub mod input;
pub mod live;
pub mod replay;
pub mod terminal;

pub use live::{Ending, ScreenOptions};

use crate::cli::ScreenArgs;
use crate::ui::commands::KeyMap;
use crate::ui::theme::{Environment, Theme};

/// The theme and the keys the flags ask for, checked before the screen
/// takes the terminal, so that a mistake is a one-line message.
pub fn screen_options(args: &ScreenArgs) -> Result<ScreenOptions, String> {
    let theme = Theme::choose(args.theme.as_deref(), &Environment::from_process())
        .map_err(|e| format!("--theme: {e}"))?;
    let keys = match &args.keys {
        Some(path) => {
            let text = std::fs::read_to_string(path)
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
    })
}

impl ScreenOptions {
    /// Whether `n` may start another game when this one is over.
    pub fn with_next_games(mut self, can_start_next: bool) -> ScreenOptions {
        self.can_start_next = can_start_next;
        self
    }
}
