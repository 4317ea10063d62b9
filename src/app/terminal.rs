//! The terminal while the screen owns it: raw mode, the alternate screen,
//! and the promise to give it back however goref ends.
//!
//! [`Screen::enter`] takes the terminal; dropping the [`Screen`], or a
//! panic anywhere, restores it before anything else is printed. A terminal
//! that went away is let go quietly: goref plays on without it. Frames are
//! drawn inside synchronized updates, so a terminal that supports them never
//! shows half a frame.

use std::io::{self, Stdout, Write};
use std::mem::ManuallyDrop;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Once;

use crossterm::terminal::{
    self, BeginSynchronizedUpdate, EndSynchronizedUpdate, EnterAlternateScreen,
    LeaveAlternateScreen,
};
use crossterm::{cursor, execute, queue};
use ratatui::backend::CrosstermBackend;
use ratatui::{Frame, Terminal};

use crate::console;

/// The terminal, taken for the screen.
pub struct Screen {
    /// Dropped only while the terminal is there: ratatui's own drop prints
    /// a failure to show the cursor on stderr, and printing to a stderr
    /// that went away with the terminal panics.
    terminal: ManuallyDrop<Terminal<CrosstermBackend<Stdout>>>,
    /// A write to the terminal failed (it went away): nothing more is drawn.
    lost: bool,
}

impl Screen {
    /// Takes the terminal: raw mode, the alternate screen, cleared (a
    /// killed goref may have left its frame there), no cursor.
    pub fn enter() -> io::Result<Screen> {
        install_panic_hook();
        terminal::enable_raw_mode()?;
        TAKEN.store(true, Ordering::SeqCst);
        console::screen_owns_the_terminal(true);
        let mut stdout = io::stdout();
        if let Err(e) = execute!(stdout, EnterAlternateScreen, cursor::Hide) {
            restore();
            return Err(e);
        }
        let mut terminal = match Terminal::new(CrosstermBackend::new(stdout)) {
            Ok(terminal) => terminal,
            Err(e) => {
                restore();
                return Err(e);
            }
        };
        if let Err(e) = clear(&mut terminal) {
            restore();
            return Err(e);
        }
        Ok(Screen {
            terminal: ManuallyDrop::new(terminal),
            lost: false,
        })
    }

    /// Draws one frame; a terminal that went away is remembered, not fatal.
    pub fn draw(&mut self, render: impl FnOnce(&mut Frame)) {
        if self.lost {
            return;
        }
        let drawn = queue!(self.terminal.backend_mut(), BeginSynchronizedUpdate)
            .and_then(|()| self.terminal.draw(render).map(|_| ()))
            .and_then(|()| execute!(self.terminal.backend_mut(), EndSynchronizedUpdate));
        if let Err(e) = drawn {
            tracing::warn!("the terminal went away: {e}; the screen stops drawing");
            self.lost = true;
        }
    }

    /// Clears the terminal and forgets what was drawn, so that the next
    /// frame is written whole over whatever scribbled on it.
    pub(crate) fn repaint(&mut self) {
        if self.lost {
            return;
        }
        if let Err(e) = clear(&mut self.terminal) {
            tracing::warn!("the terminal went away: {e}; the screen stops drawing");
            self.lost = true;
        }
    }

    /// Stops drawing: the terminal is gone, though no write has failed yet.
    pub(crate) fn lose(&mut self, why: &str) {
        if !self.lost {
            tracing::warn!("{why}; the screen stops drawing");
            self.lost = true;
        }
    }

    /// Whether the terminal can still be drawn on.
    pub(crate) fn is_lost(&self) -> bool {
        self.lost
    }

    /// The terminal's size now.
    pub fn size(&self) -> (u16, u16) {
        terminal::size().unwrap_or((80, 24))
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        let _ = self.terminal.backend_mut().flush();
        if self.terminal.show_cursor().is_ok() {
            // SAFETY: the terminal is dropped here once and never used after.
            unsafe { ManuallyDrop::drop(&mut self.terminal) };
        }
        restore();
    }
}

/// Clears the whole terminal and empties the buffer the next frame is
/// compared with, so that frame is written whole. Through `resize`, not
/// `Terminal::clear`, which asks the terminal where its cursor is and
/// reads the answer from the input that goref's key reader owns.
fn clear(terminal: &mut Terminal<CrosstermBackend<Stdout>>) -> io::Result<()> {
    let size = terminal.size()?;
    terminal.resize(ratatui::layout::Rect::new(0, 0, size.width, size.height))
}

/// Whether the screen holds the terminal now.
static TAKEN: AtomicBool = AtomicBool::new(false);

/// Gives the terminal back: cooked mode, the main screen, the cursor. Only
/// once: leaving the alternate screen twice would move the cursor back over
/// what was printed in between (a panic's message).
pub(crate) fn restore() {
    if !TAKEN.swap(false, Ordering::SeqCst) {
        return;
    }
    let _ = terminal::disable_raw_mode();
    let _ = execute!(io::stdout(), LeaveAlternateScreen, cursor::Show);
    console::screen_owns_the_terminal(false);
}

/// A panic restores the terminal before its message is printed.
fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            default(info);
        }));
    });
}
