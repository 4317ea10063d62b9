//! The winrate pane: each program's chance to win as it saw it when it
//! chose its move, drawn over the game from Black's side.
//!
//! ```text
//! B 62% 1.2k visits  W 55% 800 visits  each thinks it wins
//! B ┤        ●  ●●
//!   ┤ ●○ ●○●    ○  ○
//! 50┼┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄
//!   ┤
//! W ┤
//! ```
//!
//! One column per analysed move, the newest on the right, as many as fit;
//! the top row is Black sure to win, the bottom row White. Black's
//! program's points are `●` (`B` in ASCII), White's `○` (`W`); the dashed
//! row is an even game. The first row gives each program's newest figure,
//! and says so when each thinks it is winning.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use goref_core::game::Color;
use goref_core::referee::GameView;

use super::clocks::disagree;
use super::Theme;

/// Columns before the plot: the side's letter and the axis.
const AXIS: u16 = 3;

/// The winrate graph of a [`GameView`], as a ratatui widget.
pub struct WinratePane<'a> {
    pub view: &'a GameView,
    pub theme: &'a Theme,
}

impl Widget for WinratePane<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if area.height == 0 || area.width == 0 {
            return;
        }
        let theme = self.theme;
        buf.set_stringn(
            area.x,
            area.y,
            self.summary(usize::from(area.width)),
            area.width as usize,
            theme.text,
        );
        if !self.view.has_analysis() {
            return;
        }
        let plot_rows = area.height.saturating_sub(1);
        if plot_rows < 3 || area.width <= AXIS {
            return;
        }
        let top = area.y + 1;
        let middle = top + plot_rows / 2;
        let width = area.width - AXIS;
        let (even, dash, axis) = match theme.unicode {
            true => ("50┼", "┄", "┤"),
            false => ("50+", "-", "|"),
        };
        for row in top..top + plot_rows {
            let label = match row {
                r if r == top => format!("B {axis}"),
                r if r == middle => even.to_string(),
                r if r == top + plot_rows - 1 => format!("W {axis}"),
                _ => format!("  {axis}"),
            };
            buf.set_string(area.x, row, label, theme.dim);
        }
        buf.set_string(
            area.x + AXIS,
            middle,
            dash.repeat(width as usize),
            theme.dim,
        );
        let points: Vec<(Color, f32)> = self
            .view
            .moves
            .iter()
            .filter_map(|m| m.black_winrate.map(|w| (m.color, w)))
            .collect();
        let shown = &points[points.len().saturating_sub(width as usize)..];
        for (column, (color, black)) in shown.iter().enumerate() {
            let row = top + plot_row(*black, plot_rows);
            let (glyph, style) = match (color, theme.unicode) {
                (Color::Black, true) => ("●", theme.gtp_sent),
                (Color::White, true) => ("○", theme.gtp_received),
                (Color::Black, false) => ("B", theme.gtp_sent),
                (Color::White, false) => ("W", theme.gtp_received),
            };
            buf.set_string(area.x + AXIS + column as u16, row, glyph, style);
        }
    }
}

/// The row, from the plot's top, of Black's winrate `black` on a plot of
/// `rows` rows: to scale, except that only an even game is drawn on the
/// 50 line; a side ahead is drawn on its own side of it, however few the
/// rows (on three, 40 % and 60 % would both round to the middle).
fn plot_row(black: f32, rows: u16) -> u16 {
    let middle = rows / 2;
    let scaled = ((1.0 - black.clamp(0.0, 1.0)) * f32::from(rows - 1)).round() as u16;
    match black {
        b if (b - 0.5).abs() < 0.005 => scaled,
        b if b > 0.5 => scaled.min(middle - 1),
        _ => scaled.max(middle + 1),
    }
}

impl WinratePane<'_> {
    /// Each program's newest figure, and the disagreement, in `width`:
    /// the visits give way first, then the lead.
    fn summary(&self, width: usize) -> String {
        if !self.view.has_analysis() {
            return "no analysis: the programs give none (lz-, kata- or cgos-genmove_analyze)"
                .to_string();
        }
        let said = |visits_shown: bool, lead_shown: bool| {
            let mut parts: Vec<String> = Color::BOTH
                .iter()
                .filter_map(|&color| {
                    let analysis = self.view.analysis[color.index()].as_ref()?;
                    let lead = match (lead_shown, analysis.score_lead) {
                        (true, Some(lead)) => format!(" {lead:+.1}"),
                        _ => String::new(),
                    };
                    let visits = match visits_shown {
                        true => format!(" {} visits", visits(analysis.visits)),
                        false => String::new(),
                    };
                    Some(format!(
                        "{} {:.0}%{lead}{visits}",
                        color.letter(),
                        analysis.winrate * 100.0
                    ))
                })
                .collect();
            if disagree(self.view) {
                parts.push("each thinks it wins".into());
            }
            parts.join("  ")
        };
        [(true, true), (false, true), (false, false)]
            .into_iter()
            .map(|(visits_shown, lead_shown)| said(visits_shown, lead_shown))
            .find(|text| text.chars().count() <= width)
            .unwrap_or_else(|| said(false, false))
    }
}

/// Visits as people read them: `800`, `1.2k`, `35k`, `1.2M`.
fn visits(n: u64) -> String {
    match n {
        n if n < 1_000 => n.to_string(),
        n if n < 10_000 => format!("{:.1}k", n as f64 / 1e3),
        n if n < 1_000_000 => format!("{}k", n / 1_000),
        n => format!("{:.1}M", n as f64 / 1e6),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use goref_core::referee::view::{AnalysisLine, MoveLine};

    fn view_with(points: &[(Color, f32)], newest: [Option<f64>; 2]) -> GameView {
        let mut view = GameView::new();
        for (i, &(color, black)) in points.iter().enumerate() {
            view.moves.push(MoveLine {
                n: i as u32 + 1,
                color,
                vertex: "D4".into(),
                ms: 0,
                wire_ms: 0.0,
                resends: 0,
                referee_ms: 0.0,
                net_ms: 0,
                black_winrate: Some(black),
            });
        }
        for (side, winrate) in newest.iter().enumerate() {
            view.analysis[side] = winrate.map(|winrate| AnalysisLine {
                n: 1,
                winrate,
                score_lead: Some(2.5),
                visits: 1_234,
                pv: Vec::new(),
            });
        }
        view
    }

    fn draw(view: &GameView, width: u16, height: u16) -> Vec<String> {
        let area = Rect::new(0, 0, width, height);
        let mut buf = Buffer::empty(area);
        WinratePane {
            view,
            theme: &Theme::mono(),
        }
        .render(area, &mut buf);
        crate::test_support::buffer_lines(&buf)
    }

    #[test]
    fn a_side_ahead_is_drawn_on_its_side_of_the_even_line_however_few_the_rows() {
        assert_eq!(
            [0.6, 0.5, 0.4].map(|b| plot_row(b, 3)),
            [0, 1, 2],
            "40 % and 60 % do not meet on the 50 line"
        );
        assert_eq!(
            [1.0, 0.75, 0.5, 0.25, 0.0].map(|b| plot_row(b, 5)),
            [0, 1, 2, 3, 4]
        );
        assert_eq!(plot_row(0.52, 9), 3, "just ahead is above the line");
    }

    #[test]
    fn black_sure_to_win_is_the_top_row_and_white_the_bottom() {
        let points = [
            (Color::Black, 1.0),
            (Color::White, 0.0),
            (Color::Black, 0.5),
        ];
        let lines = draw(&view_with(&points, [Some(0.62), Some(0.3)]), 48, 6);
        assert_eq!(lines[0], "B 62% +2.5 1.2k visits  W 30% +2.5 1.2k visits");
        assert_eq!(lines[1], "B |B");
        assert_eq!(lines[3], format!("50+--B{}", "-".repeat(42)));
        assert_eq!(lines[5], "W | W");
    }

    #[test]
    fn the_newest_moves_fill_the_width_and_a_disagreement_is_said() {
        let points: Vec<(Color, f32)> = (0..50)
            .map(|i| (Color::BOTH[i % 2], if i == 49 { 0.0 } else { 0.5 }))
            .collect();
        let lines = draw(&view_with(&points, [Some(0.7), Some(0.6)]), 13, 6);
        assert!(lines[0].starts_with("B 70%"), "{lines:?}");
        assert_eq!(lines[5], "W |         W", "{lines:?}");
        let all = draw(&view_with(&points, [Some(0.7), Some(0.6)]), 80, 2).join("\n");
        assert!(all.contains("each thinks it wins"), "{all}");
        let narrow = draw(&view_with(&points, [Some(0.7), Some(0.6)]), 44, 2);
        assert_eq!(narrow[0], "B 70% +2.5  W 60% +2.5  each thinks it wins");
        let narrower = draw(&view_with(&points, [Some(0.7), Some(0.6)]), 35, 2);
        assert_eq!(narrower[0], "B 70%  W 60%  each thinks it wins");
    }

    #[test]
    fn a_game_without_analysis_says_why_there_is_no_graph() {
        let lines = draw(&GameView::new(), 80, 5);
        assert!(lines[0].starts_with("no analysis"), "{lines:?}");
        assert!(lines[1..].iter().all(|l| l.is_empty()), "{lines:?}");
    }

    #[test]
    fn visits_read_short() {
        assert_eq!(
            [
                visits(800),
                visits(1_234),
                visits(35_000),
                visits(1_200_000)
            ],
            ["800", "1.2k", "35k", "1.2M"]
        );
    }
}
