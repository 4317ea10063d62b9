//! The screen: pure render functions from a [`GameView`](crate::referee::GameView)
//! to a ratatui buffer.
//!
//! Nothing here touches a transport or the terminal: the host's screen and
//! each spectator's draw the same view with the same functions, so their
//! screens are equal by construction. Meaning never rests on colour alone:
//! every state has its own glyph, and the [`Theme`] only adds colour.

pub mod agreement;
pub mod board;
pub mod clocks;
pub mod commands;
pub mod control;
pub mod keys;
pub mod layout;
pub mod moves;
pub mod overlays;
pub mod screen;
pub mod state;
pub mod status;
pub mod theme;
pub mod time_chart;
pub mod trace;

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
