//! A match's panel under its tiles: the figures' lines, then the SPRT's
//! log-likelihood ratio and Elo against the games played, side by side,
//! each a small plot of one character a column with its bounds dashed.
//!
//! ```text
//! games 14: 9 wins, 5 losses, 0 draws; as Black 5-2-0, as White 4-3-0
//! LLR 1.21 in [-2.94, 2.94]                Elo 100.4 +/- 190.2
//!   2.94 ┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄    190.2       •  •
//!             •  •••                          •  •••     •••
//! ```

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::super::{cut, Theme};

/// The fewest rows the tiles keep above the panel.
const TILES_KEEP: u16 = 7;
/// The rows of a plot, its title included.
const PLOT_ROWS: u16 = 6;
/// The columns of a plot's value labels.
const LABEL_WIDTH: u16 = 7;

/// What a match shows under its tiles.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MatchPanel {
    /// The figures, a line each, at the screen's width: `lines` under the
    /// tiles, `details` after them on the figures' own screen only.
    pub lines: Vec<String>,
    pub details: Vec<String>,
    /// (games, LLR) after each completed pair, and the test's bounds.
    pub llr: Vec<(f64, f64)>,
    pub llr_bounds: Option<(f64, f64)>,
    /// (games, Elo) after each completed pair.
    pub elo: Vec<(f64, f64)>,
    /// The plots' titles: where each stands now.
    pub llr_title: String,
    pub elo_title: String,
}

/// The rows the panel takes of a body `body` rows high.
pub fn height(panel: &MatchPanel, body: u16) -> u16 {
    (panel.lines.len() as u16 + PLOT_ROWS).min(body.saturating_sub(TILES_KEEP))
}

/// Draws the panel in `area`: as many lines as fit above the plots, the
/// plots when they fit (the LLR's only with an SPRT), empty but for their
/// bounds until a pair is complete.
pub fn draw(area: Rect, buf: &mut Buffer, panel: &MatchPanel, theme: &Theme) {
    let width = usize::from(area.width);
    let plots = area.height > PLOT_ROWS;
    let text_rows = match plots {
        true => area.height - PLOT_ROWS,
        false => area.height,
    };
    for (row, line) in (0..text_rows).zip(&panel.lines) {
        buf.set_stringn(area.x, area.y + row, cut(line, width), width, theme.text);
    }
    if !plots {
        return;
    }
    let y = area.y + text_rows;
    let half = area.width / 2;
    let marks: Vec<f64> = panel
        .llr_bounds
        .map_or(Vec::new(), |(lower, upper)| vec![lower, upper]);
    let left = Rect::new(area.x, y, half.saturating_sub(1), PLOT_ROWS);
    let right = Rect::new(area.x + half, y, area.width - half, PLOT_ROWS);
    match panel.llr_bounds.is_none() {
        true => plot(left, buf, &panel.elo_title, &panel.elo, &[0.0], theme),
        false => {
            plot(left, buf, &panel.llr_title, &panel.llr, &marks, theme);
            plot(right, buf, &panel.elo_title, &panel.elo, &[0.0], theme);
        }
    }
}

/// One plot: its title, then `points` (x, value) one character a column,
/// the values at `marks` dashed, the top and bottom values labelled.
fn plot(
    area: Rect,
    buf: &mut Buffer,
    title: &str,
    points: &[(f64, f64)],
    marks: &[f64],
    theme: &Theme,
) {
    if area.width <= LABEL_WIDTH + 2 || area.height < 3 {
        return;
    }
    let width = usize::from(area.width);
    buf.set_stringn(area.x, area.y, cut(title, width), width, theme.title);
    let rows = area.height - 1;
    let columns = area.width - LABEL_WIDTH;
    let values = points.iter().map(|p| p.1).chain(marks.iter().copied());
    let (low, high) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    if !low.is_finite() || !high.is_finite() {
        return;
    }
    let (low, high) = match high - low < 1e-9 {
        true => (low - 1.0, high + 1.0),
        false => (low, high),
    };
    let row_of = |value: f64| {
        let from_top = (high - value) / (high - low) * f64::from(rows - 1);
        area.y + 1 + (from_top.round() as u16).min(rows - 1)
    };
    let last = points.last().map_or(1.0, |p| p.0).max(1.0);
    let column_of = |x: f64| {
        let at = (x / last * f64::from(columns - 1)).round();
        area.x + LABEL_WIDTH + (at as u16).min(columns - 1)
    };
    let (dash, dot) = match theme.unicode {
        true => ('┄', '•'),
        false => ('-', '*'),
    };
    for (value, row) in [(high, area.y + 1), (low, area.y + rows)] {
        let shown = if value.abs() < 0.05 { 0.0 } else { value };
        let label = format!("{shown:>6.1}");
        buf.set_stringn(area.x, row, label, usize::from(LABEL_WIDTH - 1), theme.dim);
    }
    for &mark in marks {
        let row = row_of(mark);
        for column in 0..columns {
            if let Some(cell) = buf.cell_mut((area.x + LABEL_WIDTH + column, row)) {
                cell.set_char(dash).set_style(theme.dim);
            }
        }
    }
    for &(x, value) in points {
        if let Some(cell) = buf.cell_mut((column_of(x), row_of(value))) {
            cell.set_char(dot).set_style(theme.text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(buf: &Buffer) -> Vec<String> {
        let area = buf.area;
        (0..area.height)
            .map(|y| {
                (0..area.width)
                    .map(|x| buf[(x, y)].symbol().to_string())
                    .collect::<String>()
            })
            .collect()
    }

    #[test]
    fn the_panel_draws_its_lines_and_both_plots_with_the_bounds_dashed() {
        let panel = MatchPanel {
            lines: vec!["games 4: 3 wins".into(), "pairs 2".into()],
            details: Vec::new(),
            llr: vec![(2.0, 0.5), (4.0, 1.5)],
            llr_bounds: Some((-2.94, 2.94)),
            elo: vec![(2.0, 0.0), (4.0, 190.0)],
            llr_title: "LLR 1.50 in [-2.94, 2.94]".into(),
            elo_title: "Elo 190.0".into(),
        };
        assert_eq!(height(&panel, 21), 8);
        assert_eq!(height(&panel, 10), 3, "the tiles keep their rows");
        let area = Rect::new(0, 0, 80, 8);
        let mut buf = Buffer::empty(area);
        draw(area, &mut buf, &panel, &Theme::default());
        let rows = text(&buf);
        assert!(rows[0].starts_with("games 4: 3 wins"));
        assert!(rows[2].starts_with("LLR 1.50") && rows[2].contains("Elo 190.0"));
        assert!(
            rows[3].starts_with("   2.9") && rows[3].contains('┄'),
            "{rows:#?}"
        );
        assert!(
            rows[7].starts_with("  -2.9") && rows[7].contains('┄'),
            "{rows:#?}"
        );
        let dots: usize = rows.iter().map(|r| r.matches('•').count()).sum();
        assert_eq!(dots, 4, "two points a plot: {rows:#?}");
    }
}
