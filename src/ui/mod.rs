//! The screen: pure render functions from a [`GameView`](goref_core::referee::GameView)
//! to a ratatui buffer.
//!
//! Nothing here touches a transport or the terminal: the host's screen and
//! each spectator's draw the same view with the same functions, so their
//! screens are equal by construction. Meaning never rests on colour alone:
//! every state has its own glyph, and the [`Theme`] only adds colour.
//! [`hall`] draws an event's round the same way, a tile per board from each
//! board's view.

pub mod agreement;
pub mod board;
pub mod clocks;
pub mod commands;
pub mod control;
pub mod hall;
pub mod keys;
pub mod layout;
pub mod moves;
pub mod overlays;
pub mod panes;
pub mod screen;
pub mod state;
pub mod status;
pub mod theme;
pub mod time_chart;
pub mod trace;
pub mod winrate;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;

pub use agreement::AgreementPane;
pub use board::BoardPane;
pub use clocks::ClocksPane;
pub use moves::MovesPane;
pub use screen::{draw, render};
pub use state::{LinkStatus, PaneId, Role, UiState};
pub use status::StatusLine;
pub use theme::Theme;
pub use time_chart::TimeChartPane;

/// Writes one styled line per row from the top of `area`, each cut at its
/// width; lines beyond its height are left out.
fn draw_lines(area: Rect, buf: &mut Buffer, lines: impl IntoIterator<Item = (String, Style)>) {
    for (row, (text, style)) in (0..area.height).zip(lines) {
        buf.set_stringn(area.x, area.y + row, text, usize::from(area.width), style);
    }
}

/// `text` in at most `width` columns: whole when it fits, else cut and
/// ended with `…` (where a word ends, when one ends near the cut, so that
/// a number is never shown in part).
pub(crate) fn cut(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    if width == 0 {
        return String::new();
    }
    let kept: String = text.chars().take(width - 1).collect();
    let at_word = match kept.rfind(' ') {
        Some(space) if kept.len() - space <= 12 => kept[..space].trim_end().to_string(),
        _ => kept,
    };
    format!("{at_word}…")
}

/// `text` in lines of at most `width` columns, broken where words end (a
/// word longer than a line is broken where it must); lines after the first
/// begin with `indent` spaces.
pub(crate) fn wrap(text: &str, width: usize, indent: usize) -> Vec<String> {
    let width = width.max(indent + 8);
    let lead = text.len() - text.trim_start_matches(' ').len();
    let mut lines = Vec::new();
    let mut line = " ".repeat(lead);
    let mut used = lead;
    for word in text[lead..].split(' ') {
        let len = word.chars().count();
        if used > 0 && used + 1 + len > width {
            lines.push(std::mem::take(&mut line));
            line = " ".repeat(indent);
            used = indent;
        } else if used > lead {
            line.push(' ');
            used += 1;
        }
        let mut rest: Vec<char> = word.chars().collect();
        while used + rest.len() > width {
            let take = width - used;
            line.extend(rest.drain(..take));
            lines.push(std::mem::take(&mut line));
            line = " ".repeat(indent);
            used = indent;
        }
        used += rest.len();
        line.extend(rest);
    }
    lines.push(line);
    lines
}

#[cfg(test)]
mod wrap_tests {
    use super::wrap;

    #[test]
    fn long_lines_break_where_words_end_and_go_on_indented() {
        assert_eq!(wrap("short", 20, 2), ["short"]);
        assert_eq!(wrap("  k, up   scroll", 20, 4), ["  k, up   scroll"]);
        assert_eq!(
            wrap("next: the judge marks dead stones, then scores", 20, 2),
            ["next: the judge", "  marks dead stones,", "  then scores"]
        );
        assert_eq!(
            wrap("folder /a/very/long/path/that/goes/on", 16, 2),
            ["folder", "  /a/very/long/p", "  ath/that/goes/", "  on"]
        );
        for line in wrap("a b c d e f g h i j k l m n o p", 10, 4) {
            assert!(line.chars().count() <= 12, "{line}");
        }
    }
}
