//! The terminal's keys and resizes, on a channel.
//!
//! A plain thread blocks on crossterm's reader (a blocked read must not hold
//! the async runtime) and sends what it reads; keys arrive as the screen's
//! own [`Key`]s, so everything after this file is free of crossterm.

use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use tokio::sync::mpsc;

use crate::ui::keys::Key;

/// What the terminal reports.
#[derive(Debug, Clone, PartialEq)]
pub enum TerminalEvent {
    Key(Key),
    Resize,
    /// The terminal cannot be read any more (it went away).
    Lost(String),
}

/// Starts reading the terminal.
pub fn spawn_reader() -> mpsc::UnboundedReceiver<TerminalEvent> {
    let (tx, rx) = mpsc::unbounded_channel();
    let spawned = std::thread::Builder::new()
        .name("terminal".into())
        .spawn(move || loop {
            let event = match event::read() {
                Ok(Event::Key(key)) if key.kind != KeyEventKind::Release => match to_key(key) {
                    Some(key) => TerminalEvent::Key(key),
                    None => continue,
                },
                Ok(Event::Resize(..)) => TerminalEvent::Resize,
                Ok(_) => continue,
                Err(e) => {
                    let _ = tx.send(TerminalEvent::Lost(e.to_string()));
                    return;
                }
            };
            if tx.send(event).is_err() {
                return;
            }
        });
    if let Err(e) = spawned {
        tracing::error!("cannot read the terminal: {e}");
    }
    rx
}

/// The screen's name for a key, when it has one.
pub fn to_key(event: KeyEvent) -> Option<Key> {
    let ctrl = event.modifiers.contains(KeyModifiers::CONTROL);
    Some(match event.code {
        KeyCode::Char(c) if ctrl => Key::Ctrl(c.to_ascii_lowercase()),
        KeyCode::Char(c) => Key::Char(c),
        KeyCode::Enter => Key::Enter,
        KeyCode::Esc => Key::Esc,
        KeyCode::Tab if event.modifiers.contains(KeyModifiers::SHIFT) => Key::BackTab,
        KeyCode::Tab => Key::Tab,
        KeyCode::BackTab => Key::BackTab,
        KeyCode::Backspace => Key::Backspace,
        KeyCode::Delete => Key::Delete,
        KeyCode::Up => Key::Up,
        KeyCode::Down => Key::Down,
        KeyCode::Left => Key::Left,
        KeyCode::Right => Key::Right,
        KeyCode::PageUp => Key::PageUp,
        KeyCode::PageDown => Key::PageDown,
        KeyCode::Home => Key::Home,
        KeyCode::End => Key::End,
        KeyCode::F(n) => Key::F(n),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminal_keys_become_the_screens_keys() {
        let key = |code, modifiers| to_key(KeyEvent::new(code, modifiers));
        assert_eq!(
            key(KeyCode::Char('c'), KeyModifiers::CONTROL),
            Some(Key::Ctrl('c'))
        );
        assert_eq!(
            key(KeyCode::Char('S'), KeyModifiers::SHIFT),
            Some(Key::Char('S'))
        );
        assert_eq!(key(KeyCode::Tab, KeyModifiers::SHIFT), Some(Key::BackTab));
        assert_eq!(
            key(KeyCode::PageDown, KeyModifiers::NONE),
            Some(Key::PageDown)
        );
        assert_eq!(key(KeyCode::CapsLock, KeyModifiers::NONE), None);
    }
}
