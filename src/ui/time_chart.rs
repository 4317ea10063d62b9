//! The time chart pane: how long each move took, and where the time went.
//!
//! ```text
//! max 6.1s  █ think  ▒ wire  R resend  p pass  r resign
//! B  think 12.1s  avg 2.4s  wire 1.5s  2 resends
//!                                             R  p
//!                                             ▒
//!                                             █
//!                                             ██
//!                                            ███
//!                                            █████
//! W  think 5.1s  avg 1.3s  wire 0.0s
//!                                                p
//!
//!                                               █
//!                                             ████
//! ```
//!
//! Black above, White below; one column per move, the newest on the right,
//! as many as fit. A column is a bar of the move's whole time on one scale for both sides
//! (the longest move shown, written as `max`), split bottom to top into the
//! program's thinking time and the time its GMP line spent carrying
//! packets (for a seated program: its network's share, `net_ms`), each
//! with its own glyph and style (`█`/`▒`, `#`/`=` in ASCII).
//! Above a bar, `R` marks resends, else `r` a resignation or `p` a pass.
//! Each side's line gives its total and average thinking time, wire time
//! and resends, over the moves the view keeps.
//!
//! The referee's own share of a move's time (from the move's arrival to its
//! relay, as the driver measures it) is a third segment (`░`/`+`,
//! `theme.chart_referee`); its legend entry shows once any move has some.
//! It is usually well under a millisecond, so it shows when it is not.
//!
//! Small areas lose the mark rows, then the bars; below 3 rows only the
//! totals are drawn.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

use goref_core::game::Color;
use goref_core::referee::view::MoveLine;
use goref_core::referee::GameView;

use super::Theme;

/// The move times of a [`GameView`] as bars, as a ratatui widget.
pub struct TimeChartPane<'a> {
    pub view: &'a GameView,
    pub theme: &'a Theme,
}

/// One part of a move's bar.
struct Segment {
    unicode: &'static str,
    ascii: &'static str,
    word: &'static str,
    style: fn(&Theme) -> Style,
}

/// The parts of a bar, bottom to top, as [`parts`] gives their times.
const SEGMENTS: [Segment; 3] = [
    Segment {
        unicode: "█",
        ascii: "#",
        word: "think",
        style: |theme| theme.chart_think,
    },
    Segment {
        unicode: "▒",
        ascii: "=",
        word: "wire",
        style: |theme| theme.chart_wire,
    },
    Segment {
        unicode: "░",
        ascii: "+",
        word: "referee",
        style: |theme| theme.chart_referee,
    },
];

/// A move's time in milliseconds, part by part as in [`SEGMENTS`]. A
/// seated program's network time is its wire.
fn parts(line: &MoveLine) -> [f64; 3] {
    let wire = if line.wire_ms.is_finite() {
        line.wire_ms.max(0.0)
    } else {
        0.0
    };
    [line.ms as f64, wire + line.net_ms as f64, referee_ms(line)]
}

/// The referee's own share of a move's time, as the driver measured it.
fn referee_ms(line: &MoveLine) -> f64 {
    if line.referee_ms.is_finite() {
        line.referee_ms.max(0.0)
    } else {
        0.0
    }
}

/// The mark above a move's bar, if any, and its style.
fn mark(line: &MoveLine, theme: &Theme) -> Option<(&'static str, Style)> {
    match line.vertex.as_str() {
        _ if line.resends > 0 => Some(("R", theme.chart_mark)),
        "resign" => Some(("r", theme.dim)),
        "pass" => Some(("p", theme.dim)),
        _ => None,
    }
}

/// How the pane's rows are shared out.
struct Layout {
    /// Rows for each side: its totals line, its marks and its bars.
    side_rows: u16,
    marks: bool,
    bar_rows: u16,
}

impl Layout {
    /// `None` below 3 rows: only the totals.
    fn of(height: u16) -> Option<Layout> {
        if height < 3 {
            return None;
        }
        let side_rows = (height - 1) / 2;
        let marks = side_rows >= 3;
        let bar_rows = side_rows - 1 - u16::from(marks);
        Some(Layout {
            side_rows,
            marks,
            bar_rows,
        })
    }
}

/// Writes into a buffer, never outside an area.
struct Pen<'b> {
    area: Rect,
    buf: &'b mut Buffer,
}

impl Pen<'_> {
    /// Writes `text` at `x, y`, cut at the area's right edge; returns the
    /// column after it.
    fn put(&mut self, x: u16, y: u16, text: &str, style: Style) -> u16 {
        let area = self.area;
        if x < area.x || x >= area.right() || y < area.y || y >= area.bottom() {
            return x;
        }
        let width = usize::from(area.right() - x);
        self.buf.set_stringn(x, y, text, width, style).0
    }
}

impl Widget for TimeChartPane<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let mut pen = Pen { area, buf };
        let text = self.theme.text;
        let Some(layout) = Layout::of(area.height) else {
            let [black, white] = Color::BOTH.map(|color| self.totals(color));
            if area.height == 1 {
                pen.put(area.x, area.y, &format!("{black}   {white}"), text);
            } else {
                pen.put(area.x, area.y, &black, text);
                pen.put(area.x, area.y + 1, &white, text);
            }
            return;
        };
        let shown = Color::BOTH.map(|color| self.shown(color, area.width));
        let times = || shown.iter().flatten().map(|line| parts(line));
        let max = times().map(|p| p.iter().sum()).fold(0.0, f64::max);
        let with_referee = times().any(|p| p[2] > 0.0);
        self.legend(&mut pen, max, with_referee);
        for (side, lines) in shown.iter().enumerate() {
            let top = area.y + 1 + side as u16 * layout.side_rows;
            let bottom = top + layout.side_rows - 1;
            pen.put(area.x, top, &self.totals(Color::BOTH[side]), text);
            let left = area.right() - lines.len() as u16;
            for (x, line) in (left..).zip(lines) {
                let times = parts(line);
                let cells = bar_cells(times.iter().sum(), max, layout.bar_rows);
                self.bar(&mut pen, x, bottom, cells, times);
                if let (true, Some((glyph, style))) = (layout.marks, mark(line, self.theme)) {
                    pen.put(x, bottom - layout.bar_rows, glyph, style);
                }
            }
        }
    }
}

impl TimeChartPane<'_> {
    /// The newest moves of `color` that fit in `width` columns, oldest first.
    fn shown(&self, color: Color, width: u16) -> Vec<&MoveLine> {
        let mut lines: Vec<&MoveLine> = self
            .view
            .moves
            .iter()
            .rev()
            .filter(|line| line.color == color)
            .take(usize::from(width))
            .collect();
        lines.reverse();
        lines
    }

    /// `max 4.2s  █ think  ▒ wire  R resend  p pass  r resign`: an entry
    /// that does not fit whole is left out, with those after it.
    fn legend(&self, pen: &mut Pen, max: f64, with_referee: bool) {
        let theme = self.theme;
        let (x0, y) = (pen.area.x, pen.area.y);
        let mut x = pen.put(x0, y, &format!("max {}", seconds(max)), theme.dim);
        let segments = SEGMENTS.iter().take(if with_referee { 3 } else { 2 });
        let entries = segments
            .map(|segment| (self.glyph(segment), segment.word, (segment.style)(theme)))
            .chain([
                ("R", "resend", theme.chart_mark),
                ("p", "pass", theme.dim),
                ("r", "resign", theme.dim),
            ]);
        for (glyph, word, style) in entries {
            let wide = 2 + glyph.chars().count() + 1 + word.chars().count();
            if usize::from(pen.area.right().saturating_sub(x)) < wide {
                break;
            }
            x = pen.put(x, y, "  ", theme.dim);
            x = pen.put(x, y, glyph, style);
            x = pen.put(x, y, &format!(" {word}"), theme.dim);
        }
    }

    /// `B  think 1:02  avg 2.1s  wire 3.2s  2 resends`.
    fn totals(&self, color: Color) -> String {
        let moves: Vec<&MoveLine> = self
            .view
            .moves
            .iter()
            .filter(|line| line.color == color)
            .collect();
        let sum = |part: usize| {
            moves
                .iter()
                .map(|line| parts(line)[part])
                .fold(0.0, |a, b| a + b)
        };
        let (think, wire) = (sum(0), sum(1));
        let resends: u64 = moves.iter().map(|line| u64::from(line.resends)).sum();
        let average = match moves.len() {
            0 => "-".to_string(),
            n => seconds(think / n as f64),
        };
        let mut text = format!(
            "{}  think {}  avg {average}  wire {}",
            color.letter(),
            seconds(think),
            seconds(wire)
        );
        match resends {
            0 => {}
            1 => text.push_str("  1 resend"),
            n => text.push_str(&format!("  {n} resends")),
        }
        text
    }

    /// A bar of `cells` in column `x` standing on row `bottom`, its
    /// segments in proportion to `times`.
    fn bar(&self, pen: &mut Pen, x: u16, bottom: u16, cells: u16, times: [f64; 3]) {
        if cells == 0 {
            return;
        }
        let total: f64 = times.iter().sum();
        let mut below = 0.0;
        let mut from = 0;
        for (segment, time) in SEGMENTS.iter().zip(times) {
            below += time;
            let to = ((below / total * f64::from(cells)).round() as u16).min(cells);
            for cell in from..to {
                pen.put(
                    x,
                    bottom - cell,
                    self.glyph(segment),
                    (segment.style)(self.theme),
                );
            }
            from = from.max(to);
        }
    }

    fn glyph(&self, segment: &Segment) -> &'static str {
        if self.theme.unicode {
            segment.unicode
        } else {
            segment.ascii
        }
    }
}

/// How many cells of `rows` a bar of `total` takes when `max` fills them:
/// at least one for any time at all.
fn bar_cells(total: f64, max: f64, rows: u16) -> u16 {
    if total <= 0.0 || max <= 0.0 || rows == 0 {
        return 0;
    }
    ((total / max * f64::from(rows)).round() as u16).clamp(1, rows)
}

/// `4.2s` under a minute, else `1:02` or `1:02:03`.
fn seconds(ms: f64) -> String {
    if ms < 60_000.0 {
        return format!("{:.1}s", ms / 1000.0);
    }
    let s = (ms / 1000.0) as u64;
    match s {
        s if s >= 3600 => format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60),
        s => format!("{}:{:02}", s / 60, s % 60),
    }
}

#[cfg(test)]
mod tests;
