//! Keys as the screen names them: `q`, `ctrl-c`, `enter`, `shift-tab`,
//! `pgup`, `f1`. The app turns the terminal's key events into [`Key`]s, the
//! key map file names them with these words, and the help prints them the
//! same way.

use std::fmt;
use std::str::FromStr;

/// One key press.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Key {
    Char(char),
    Ctrl(char),
    Enter,
    Esc,
    Tab,
    BackTab,
    Backspace,
    Delete,
    Up,
    Down,
    Left,
    Right,
    PageUp,
    PageDown,
    Home,
    End,
    F(u8),
}

/// A key name that is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a key: write a character (q, ?, G), ctrl-X, enter, esc, tab, shift-tab, backspace, delete, up, down, left, right, pgup, pgdn, home, end, space or f1..f12")]
pub struct BadKey(pub String);

impl FromStr for Key {
    type Err = BadKey;

    fn from_str(text: &str) -> Result<Key, BadKey> {
        let bad = || BadKey(text.to_string());
        let mut chars = text.chars();
        if let (Some(c), None) = (chars.next(), chars.next()) {
            return Ok(Key::Char(c));
        }
        let lower = text.to_ascii_lowercase();
        if let Some(rest) = lower.strip_prefix("ctrl-") {
            let mut chars = rest.chars();
            return match (chars.next(), chars.next()) {
                (Some(c), None) if c.is_ascii_alphanumeric() => Ok(Key::Ctrl(c)),
                _ => Err(bad()),
            };
        }
        if let Some(number) = lower.strip_prefix('f') {
            if let Ok(n @ 1..=12) = number.parse::<u8>() {
                return Ok(Key::F(n));
            }
        }
        Ok(match lower.as_str() {
            "enter" | "return" => Key::Enter,
            "esc" | "escape" => Key::Esc,
            "tab" => Key::Tab,
            "shift-tab" | "backtab" => Key::BackTab,
            "backspace" => Key::Backspace,
            "delete" | "del" => Key::Delete,
            "up" => Key::Up,
            "down" => Key::Down,
            "left" => Key::Left,
            "right" => Key::Right,
            "pgup" | "pageup" => Key::PageUp,
            "pgdn" | "pagedown" => Key::PageDown,
            "home" => Key::Home,
            "end" => Key::End,
            "space" => Key::Char(' '),
            _ => return Err(bad()),
        })
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Key::Char(' ') => f.write_str("space"),
            Key::Char(c) => write!(f, "{c}"),
            Key::Ctrl(c) => write!(f, "ctrl-{c}"),
            Key::Enter => f.write_str("enter"),
            Key::Esc => f.write_str("esc"),
            Key::Tab => f.write_str("tab"),
            Key::BackTab => f.write_str("shift-tab"),
            Key::Backspace => f.write_str("backspace"),
            Key::Delete => f.write_str("delete"),
            Key::Up => f.write_str("up"),
            Key::Down => f.write_str("down"),
            Key::Left => f.write_str("left"),
            Key::Right => f.write_str("right"),
            Key::PageUp => f.write_str("pgup"),
            Key::PageDown => f.write_str("pgdn"),
            Key::Home => f.write_str("home"),
            Key::End => f.write_str("end"),
            Key::F(n) => write!(f, "f{n}"),
        }
    }
}

/// Keys pressed one after the other, e.g. `r b`: a chord is harder to hit by
/// accident than one key.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Chord(pub Vec<Key>);

impl FromStr for Chord {
    type Err = BadKey;

    fn from_str(text: &str) -> Result<Chord, BadKey> {
        let keys = text
            .split_whitespace()
            .map(Key::from_str)
            .collect::<Result<Vec<_>, _>>()?;
        if keys.is_empty() {
            return Err(BadKey(text.to_string()));
        }
        Ok(Chord(keys))
    }
}

impl fmt::Display for Chord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, key) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{key}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_read_and_print_the_same_way() {
        for name in [
            "q",
            "?",
            "G",
            "ctrl-c",
            "enter",
            "esc",
            "tab",
            "shift-tab",
            "up",
            "pgup",
            "pgdn",
            "home",
            "end",
            "space",
            "f1",
            "f12",
            "backspace",
        ] {
            let key: Key = name.parse().unwrap();
            assert_eq!(key.to_string(), name);
        }
        assert_eq!("Enter".parse::<Key>(), Ok(Key::Enter));
        assert_eq!("CTRL-C".parse::<Key>(), Ok(Key::Ctrl('c')));
    }

    #[test]
    fn chords_are_keys_separated_by_spaces() {
        let chord: Chord = "r b".parse().unwrap();
        assert_eq!(chord, Chord(vec![Key::Char('r'), Key::Char('b')]));
        assert_eq!(chord.to_string(), "r b");
    }

    #[test]
    fn a_bad_key_says_what_keys_look_like() {
        for bad in ["", "ctrl-", "f13", "hyper-x", "ctrl-ab"] {
            let error = bad.parse::<Chord>().unwrap_err().to_string();
            assert!(error.contains("is not a key"), "{bad}: {error}");
        }
    }
}
