//! The board pane.
//!
//! ```text
//!     A B C D E F G H J
//!   9 . . . . . . . . . 9
//!   8 . . . . . . . . . 8
//!   7 . . + . . . + . . 7
//!   6 . . . X O . . . . 6
//!   5 . . . .(X). . . . 5      (X) the last move
//!   4 . . . O x . . . . 4      x o  stones counted dead
//!   3 . . + . . . + . . 3      X?   stones only one side calls dead
//!   2 . . . . . . . . . 2
//!   1 . . . . . . . . . 1
//!     A B C D E F G H J
//! ```
//!
//! Each point takes two columns, so a 19x19 board with its coordinates is
//! 44 columns by 21 rows and fits an 80x24 terminal beside the clocks. The
//! column letters skip I, as Go coordinates do. The last move is bracketed
//! (while no stones are marked dead), dead stones (agreed, or marked by the
//! operator) are lower case, and a stone only one side claims dead is
//! followed by `?`: no state rests on colour alone. Once the game is
//! scored, the empty points counted for Black show `▪` (`#`) and White's
//! `▫` (`-`). While the operator marks dead stones, the cursor's point is
//! drawn as `[x]`.
//!
//! With the variation on (`w`), the moves the last mover's program expects
//! after its move are numbered on the empty points they would take, `1`
//! the opponent's reply, each number in its mover's stone style; a move of
//! the variation on a point already taken is left out, and so are the
//! moves after the ninth: a point holds one character, and `11` beside a
//! `4` reads as `114`.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

use goref_core::game::board::fixed_handicap;
use goref_core::game::{Color, Point};
use goref_core::referee::GameView;

use super::Theme;

/// Column letters, I left out.
const COLUMNS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// The board of a [`GameView`], as a ratatui widget.
pub struct BoardPane<'a> {
    pub view: &'a GameView,
    pub theme: &'a Theme,
    /// The operator's cursor while marking dead stones: the point is drawn
    /// between `[` and `]`.
    pub cursor: Option<Point>,
    /// Number the last mover's expected variation on the board.
    pub variation: bool,
}

/// What one point shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mark {
    Empty,
    Hoshi,
    Stone(Color),
    /// Counted dead: agreed by both sides or marked by the operator.
    Dead(Color),
    /// Only one side calls it dead.
    Disputed(Color),
    /// After the count: an empty point counted for this side.
    Territory(Color),
}

impl BoardPane<'_> {
    /// The columns and rows the board needs with its coordinates.
    pub(crate) fn size_needed(size: u8) -> (u16, u16) {
        let size = u16::from(size);
        (2 * size + 6, size + 2)
    }

    fn mark(&self, point: Point, marks: &Marks) -> Mark {
        match self.view.stone(point) {
            Some(color) if marks.dead.contains(&point) => Mark::Dead(color),
            Some(color) if marks.disputed.contains(&point) => Mark::Disputed(color),
            Some(color) => Mark::Stone(color),
            None if marks.territory[0].contains(&point) => Mark::Territory(Color::Black),
            None if marks.territory[1].contains(&point) => Mark::Territory(Color::White),
            None if marks.hoshi.contains(&point) => Mark::Hoshi,
            None => Mark::Empty,
        }
    }

    /// What the board's marks mean, drawn with this theme's glyphs: the
    /// help's legend.
    pub(crate) fn legend(theme: &Theme) -> Vec<String> {
        let g = |mark| glyph(theme, mark).0;
        let (black, white) = (g(Mark::Stone(Color::Black)), g(Mark::Stone(Color::White)));
        vec![
            format!("  ({black})  the last move          [{black}]  the cursor (marking)"),
            format!(
                "  {} {}  stones counted dead    {black}?   dead for one side only",
                g(Mark::Dead(Color::Black)),
                g(Mark::Dead(Color::White))
            ),
            format!(
                "  {} {}  points counted for Black and for White, once scored",
                g(Mark::Territory(Color::Black)),
                g(Mark::Territory(Color::White))
            ),
            format!(
                "  {} {}  an empty point, a star point; {black} {white} Black's and White's stones",
                g(Mark::Empty),
                g(Mark::Hoshi)
            ),
        ]
    }

    fn glyph(&self, mark: Mark) -> (char, Style) {
        glyph(self.theme, mark)
    }
}

/// The glyph and style of a point of a small board (the hall's tiles):
/// a stone, or empty.
pub(crate) fn point_glyph(theme: &Theme, stone: Option<Color>) -> (char, Style) {
    glyph(theme, stone.map_or(Mark::Empty, Mark::Stone))
}

/// The glyph and style of one point's mark in `theme`.
fn glyph(theme: &Theme, mark: Mark) -> (char, Style) {
    let (black, white, empty) = if theme.unicode {
        ('●', '○', '·')
    } else {
        ('X', 'O', '.')
    };
    match mark {
        Mark::Empty => (empty, theme.grid),
        Mark::Hoshi => ('+', theme.hoshi),
        Mark::Stone(Color::Black) | Mark::Disputed(Color::Black) => (black, theme.black_stone),
        Mark::Stone(Color::White) | Mark::Disputed(Color::White) => (white, theme.white_stone),
        Mark::Dead(Color::Black) => ('x', theme.dead),
        Mark::Dead(Color::White) => ('o', theme.dead),
        Mark::Territory(Color::Black) if theme.unicode => ('▪', theme.black_stone),
        Mark::Territory(Color::White) if theme.unicode => ('▫', theme.white_stone),
        Mark::Territory(Color::Black) => ('#', theme.black_stone),
        Mark::Territory(Color::White) => ('-', theme.white_stone),
    }
}

impl Widget for BoardPane<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let size = self.view.size;
        let (width, height) = Self::size_needed(size);
        if area.width < width || area.height < height {
            let text = format!("the board needs {width}x{height}");
            buf.set_stringn(area.x, area.y, text, usize::from(area.width), Style::new());
            return;
        }
        let points = |list: &[String]| -> Vec<Point> {
            list.iter()
                .filter_map(|v| Point::parse_gtp(v, size).ok())
                .collect()
        };
        let agreement = &self.view.agreement;
        let mut dead = points(&agreement.marked);
        if let Some(agreed) = &agreement.agreed {
            dead.extend(points(agreed));
        }
        let mut disputed = points(&agreement.black_only);
        disputed.extend(points(&agreement.white_only));
        let score = self.view.result.as_ref().and_then(|r| r.score.as_ref());
        if let Some(score) = score {
            dead.extend(score.dead.iter().copied());
        }
        let territory = match score {
            Some(score) => [score.black_territory.clone(), score.white_territory.clone()],
            None => [Vec::new(), Vec::new()],
        };
        let marks = Marks {
            hoshi: star_points(size),
            dead,
            disputed,
            territory,
        };
        let last = self
            .view
            .last_move
            .as_ref()
            .and_then(|m| Point::parse_gtp(&m.vertex, size).ok());

        let theme = self.theme;
        let letters: String = COLUMNS[..usize::from(size)]
            .iter()
            .flat_map(|&c| [c as char, ' '])
            .collect();
        let (x0, y0) = (area.x, area.y);
        buf.set_string(x0 + 4, y0, &letters, theme.coordinates);
        buf.set_string(x0 + 4, y0 + height - 1, &letters, theme.coordinates);
        for row in (0..size).rev() {
            let y = y0 + 1 + u16::from(size - 1 - row);
            let number = format!("{:>2}", row + 1);
            buf.set_string(x0, y, &number, theme.coordinates);
            buf.set_string(x0 + 4 + 2 * u16::from(size), y, &number, theme.coordinates);
            for col in 0..size {
                let point = Point::new(col, row);
                let x = x0 + 4 + 2 * u16::from(col);
                let mark = self.mark(point, &marks);
                let (glyph, style) = self.glyph(mark);
                buf.set_string(x, y, glyph.to_string(), style);
                if col + 1 < size {
                    buf.set_string(x + 1, y, " ", theme.grid);
                }
                if matches!(mark, Mark::Disputed(_)) {
                    buf.set_string(x + 1, y, "?", theme.disputed);
                }
                if self.cursor == Some(point) {
                    buf.set_string(x - 1, y, "[", theme.cursor);
                    buf.set_string(x, y, glyph.to_string(), style.patch(theme.cursor));
                    buf.set_string(x + 1, y, "]", theme.cursor);
                } else if last == Some(point) && marks.dead.is_empty() && marks.disputed.is_empty()
                {
                    buf.set_string(x - 1, y, "(", theme.last_move);
                    buf.set_string(x + 1, y, ")", theme.last_move);
                }
            }
        }
        if self.variation {
            let shown = variation(self.view).into_iter();
            for (number, point, color) in shown.take_while(|(number, ..)| *number <= 9) {
                let x = x0 + 4 + 2 * u16::from(point.col);
                let y = y0 + 1 + u16::from(size - 1 - point.row);
                let style = match color {
                    Color::Black => theme.black_stone,
                    Color::White => theme.white_stone,
                };
                buf.set_string(x, y, number.to_string(), style);
            }
        }
    }
}

/// The variation the last mover's program expects after its move, as
/// (number, point, mover): the moves on empty points, numbered from 1.
pub(crate) fn variation(view: &GameView) -> Vec<(usize, Point, Color)> {
    let Some(last) = &view.last_move else {
        return Vec::new();
    };
    let Some(analysis) = view.analysis[last.color.index()]
        .as_ref()
        .filter(|a| a.n == last.n)
    else {
        return Vec::new();
    };
    let mut taken = Vec::new();
    let mut color = last.color;
    let mut shown = Vec::new();
    for (number, vertex) in analysis.pv.iter().skip(1).enumerate() {
        color = color.opponent();
        let Ok(point) = Point::parse_gtp(vertex, view.size) else {
            continue;
        };
        if view.stone(point).is_some() || taken.contains(&point) {
            continue;
        }
        taken.push(point);
        shown.push((number + 1, point, color));
    }
    shown
}

/// What the board marks besides the stones.
struct Marks {
    hoshi: Vec<Point>,
    dead: Vec<Point>,
    disputed: Vec<Point>,
    /// Empty points counted for Black and for White, once the game is scored.
    territory: [Vec<Point>; 2],
}

/// The hoshi of a board: nine points from 13x13 up, five below (four on
/// even sizes), on the fixed handicap's points.
fn star_points(size: u8) -> Vec<Point> {
    let stones: &[u8] = if size >= 13 { &[9, 4] } else { &[5, 4] };
    stones
        .iter()
        .find_map(|&stones| fixed_handicap(size, stones).ok())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests;
