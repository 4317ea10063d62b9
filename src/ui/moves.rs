//! The moves pane: the newest moves that fit, with the time each took.
//!
//! ```text
//!  97 B D4      1.2s
//!  98 W pass    0.4s
//!  99 B resign
//! ```
//!
//! The list follows the game: the last move is always on the last line.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

use goref_core::referee::GameView;

use super::Theme;

/// The move list of a [`GameView`], as a ratatui widget.
pub struct MovesPane<'a> {
    pub view: &'a GameView,
    pub theme: &'a Theme,
}

impl Widget for MovesPane<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let rows = usize::from(area.height);
        let moves = &self.view.moves;
        let shown = &moves[moves.len().saturating_sub(rows)..];
        let lines = shown.iter().enumerate().map(|(i, line)| {
            let time = if line.vertex == "resign" {
                String::new()
            } else {
                format!("{:.1}s", line.ms as f64 / 1000.0)
            };
            let text = format!(
                "{:>4} {} {:<7}{:>7}",
                line.n,
                line.color.letter(),
                line.vertex,
                time
            );
            let last = i + 1 == shown.len();
            let style = if last {
                self.theme.last_move
            } else {
                Style::new()
            };
            (text, style)
        });
        super::draw_lines(area, buf, lines);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use goref_core::game::Color;
    use goref_core::referee::view::MoveLine;

    #[test]
    fn the_newest_moves_that_fit_are_shown_with_their_times() {
        let mut view = GameView::new();
        for n in 1..=30u32 {
            let color = if n % 2 == 1 {
                Color::Black
            } else {
                Color::White
            };
            view.moves.push(MoveLine {
                n,
                color,
                vertex: if n == 30 { "pass".into() } else { "D4".into() },
                ms: u64::from(n) * 100,
                wire_ms: 0.0,
                resends: 0,
                referee_ms: 0.0,
                net_ms: 0,
                black_winrate: None,
            });
        }
        let area = Rect::new(0, 0, 24, 3);
        let mut buf = Buffer::empty(area);
        MovesPane {
            view: &view,
            theme: &Theme::mono(),
        }
        .render(area, &mut buf);
        let lines = crate::test_support::buffer_lines(&buf);
        assert_eq!(
            lines,
            [
                "  28 W D4        2.8s",
                "  29 B D4        2.9s",
                "  30 W pass      3.0s"
            ]
        );
    }
}
