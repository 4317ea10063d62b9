//! Colours and glyphs for the panes.
//!
//! A theme gives each thing on screen a style, and says whether the terminal
//! can show Unicode. The glyphs themselves differ by state (a last move is
//! bracketed, a dead stone is lower case), so a monochrome theme loses no
//! meaning.

use ratatui::style::{Color, Modifier, Style};

#[derive(Debug, Clone, PartialEq)]
pub struct Theme {
    pub name: String,
    /// The terminal shows Unicode; otherwise the board is drawn in ASCII.
    pub unicode: bool,
    pub black_stone: Style,
    pub white_stone: Style,
    pub grid: Style,
    pub hoshi: Style,
    pub coordinates: Style,
    pub last_move: Style,
    pub dead: Style,
    pub disputed: Style,
}

impl Theme {
    /// The default: colours on a dark terminal, Unicode stones.
    pub fn default_dark() -> Theme {
        Theme {
            name: "default".into(),
            unicode: true,
            black_stone: Style::new().fg(Color::Black).bg(Color::Yellow),
            white_stone: Style::new().fg(Color::White).bg(Color::Yellow),
            grid: Style::new().fg(Color::DarkGray).bg(Color::Yellow),
            hoshi: Style::new().fg(Color::Black).bg(Color::Yellow),
            coordinates: Style::new().fg(Color::Gray),
            last_move: Style::new().fg(Color::Red).bg(Color::Yellow),
            dead: Style::new()
                .fg(Color::DarkGray)
                .bg(Color::Yellow)
                .add_modifier(Modifier::CROSSED_OUT),
            disputed: Style::new()
                .fg(Color::Magenta)
                .bg(Color::Yellow)
                .add_modifier(Modifier::BOLD),
        }
    }

    /// No colour at all (`NO_COLOR`): attributes only, ASCII stones.
    pub fn mono() -> Theme {
        Theme {
            name: "mono".into(),
            unicode: false,
            black_stone: Style::new().add_modifier(Modifier::BOLD),
            white_stone: Style::new(),
            grid: Style::new(),
            hoshi: Style::new(),
            coordinates: Style::new(),
            last_move: Style::new().add_modifier(Modifier::BOLD),
            dead: Style::new(),
            disputed: Style::new().add_modifier(Modifier::BOLD),
        }
    }
}

impl Default for Theme {
    fn default() -> Theme {
        Theme::default_dark()
    }
}
