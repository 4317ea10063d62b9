//! Colours and glyphs for the panes.
//!
//! A theme gives each thing on screen a style, and says whether the terminal
//! can show Unicode. The glyphs themselves differ by state (a last move is
//! bracketed, a dead stone is lower case, a low clock has `!`), so a
//! monochrome theme loses no meaning.

use ratatui::style::{Color, Modifier, Style};

#[derive(Debug, Clone, PartialEq)]
pub struct Theme {
    pub name: String,
    /// The terminal shows Unicode; otherwise the board is drawn in ASCII.
    pub unicode: bool,

    // The board.
    pub black_stone: Style,
    pub white_stone: Style,
    pub grid: Style,
    pub hoshi: Style,
    pub coordinates: Style,
    pub last_move: Style,
    pub dead: Style,
    pub disputed: Style,
    /// The operator's cursor on the board while marking dead stones.
    pub cursor: Style,

    // Text and frames.
    pub text: Style,
    /// Secondary text: times, hints' descriptions, empty states.
    pub dim: Style,
    /// A pane's title row.
    pub title: Style,
    /// The title row of the pane that has the focus.
    pub title_focused: Style,
    /// The status line at the top.
    pub status: Style,
    /// A key in the hint bar or the help.
    pub key: Style,
    /// The selected row of a list (the trace).
    pub selected: Style,

    // Clocks.
    pub to_move: Style,
    pub low_time: Style,
    pub flagged: Style,

    // The trace.
    pub packet_in: Style,
    pub packet_out: Style,
    pub gtp_sent: Style,
    pub gtp_received: Style,
    pub stderr: Style,
    /// Errors, resends, duplicates, bad checksums.
    pub problem: Style,

    // Alerts and notices.
    pub alert: Style,
    pub notice: Style,

    // The time chart.
    pub chart_think: Style,
    pub chart_wire: Style,
    pub chart_referee: Style,
    /// A resend or a time-out on a move's bar.
    pub chart_mark: Style,
}

impl Theme {
    /// The default: colours on a dark terminal, Unicode stones.
    pub fn default_dark() -> Theme {
        let board = |fg: Color| Style::new().fg(fg).bg(Color::Yellow);
        Theme {
            name: "default".into(),
            unicode: true,
            black_stone: board(Color::Black),
            white_stone: board(Color::White),
            grid: board(Color::DarkGray),
            hoshi: board(Color::Black),
            coordinates: Style::new().fg(Color::Gray),
            last_move: board(Color::Red),
            dead: board(Color::DarkGray).add_modifier(Modifier::CROSSED_OUT),
            disputed: board(Color::Magenta).add_modifier(Modifier::BOLD),
            cursor: Style::new()
                .fg(Color::Black)
                .bg(Color::Cyan)
                .add_modifier(Modifier::BOLD),
            text: Style::new(),
            dim: Style::new().fg(Color::Gray),
            title: Style::new()
                .fg(Color::Gray)
                .add_modifier(Modifier::UNDERLINED),
            title_focused: Style::new()
                .fg(Color::Cyan)
                .add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
            status: Style::new().add_modifier(Modifier::REVERSED),
            key: Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD),
            selected: Style::new().add_modifier(Modifier::REVERSED),
            to_move: Style::new().add_modifier(Modifier::BOLD),
            low_time: Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
            flagged: Style::new()
                .fg(Color::Red)
                .add_modifier(Modifier::BOLD | Modifier::REVERSED),
            packet_in: Style::new().fg(Color::Green),
            packet_out: Style::new().fg(Color::Cyan),
            gtp_sent: Style::new().fg(Color::Cyan),
            gtp_received: Style::new().fg(Color::Green),
            stderr: Style::new().fg(Color::Gray),
            problem: Style::new().fg(Color::Red).add_modifier(Modifier::BOLD),
            alert: Style::new()
                .fg(Color::White)
                .bg(Color::Red)
                .add_modifier(Modifier::BOLD),
            notice: Style::new().fg(Color::Yellow),
            chart_think: Style::new().fg(Color::Cyan),
            chart_wire: Style::new().fg(Color::Magenta),
            chart_referee: Style::new().fg(Color::Yellow),
            chart_mark: Style::new().fg(Color::Red).add_modifier(Modifier::BOLD),
        }
    }

    /// No colour at all (`NO_COLOR`): attributes only, ASCII stones.
    pub fn mono() -> Theme {
        let plain = Style::new();
        let bold = Style::new().add_modifier(Modifier::BOLD);
        let reversed = Style::new().add_modifier(Modifier::REVERSED);
        Theme {
            name: "mono".into(),
            unicode: false,
            black_stone: bold,
            white_stone: plain,
            grid: plain,
            hoshi: plain,
            coordinates: plain,
            last_move: bold,
            dead: plain,
            disputed: bold,
            cursor: reversed,
            text: plain,
            dim: plain,
            title: Style::new().add_modifier(Modifier::UNDERLINED),
            title_focused: Style::new().add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
            status: reversed,
            key: bold,
            selected: reversed,
            to_move: bold,
            low_time: Style::new().add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
            flagged: reversed.add_modifier(Modifier::BOLD),
            packet_in: plain,
            packet_out: plain,
            gtp_sent: plain,
            gtp_received: plain,
            stderr: plain,
            problem: Style::new().add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
            alert: reversed.add_modifier(Modifier::BOLD),
            notice: bold,
            chart_think: plain,
            chart_wire: plain,
            chart_referee: plain,
            chart_mark: bold,
        }
    }
}

impl Default for Theme {
    fn default() -> Theme {
        Theme::default_dark()
    }
}
