//! Colours, points and moves, and their spellings in GTP, SGF and GMP.
//!
//! A [`Point`] is zero-based: `col` 0 is the leftmost column (`A`), `row` 0 is
//! the bottom row (`1`). GTP vertices skip the letter `I`; SGF counts rows from
//! the top; GMP numbers positions from 1 = A1 row by row (`reference/sgmp.md` §6).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The smallest board goref plays on.
pub const MIN_SIZE: u8 = 2;
/// The largest board GTP can name (columns `A`..`Z` without `I`).
pub const MAX_SIZE: u8 = 25;

const GTP_COLUMNS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Color {
    #[serde(rename = "B")]
    Black,
    #[serde(rename = "W")]
    White,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::Black, Color::White];

    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// `B` or `W`, as SGF and the JSON events spell it.
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }

    /// `black` or `white`, as GTP commands spell it.
    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "Black",
            Color::White => "White",
        })
    }
}

impl FromStr for Color {
    type Err = CoordError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "b" | "black" => Ok(Color::Black),
            "w" | "white" => Ok(Color::White),
            _ => Err(CoordError::BadColor(s.to_string())),
        }
    }
}

/// A point on the board, zero-based from the lower left corner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    pub col: u8,
    pub row: u8,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CoordError {
    #[error("'{0}' is not a vertex")]
    BadVertex(String),
    #[error("'{vertex}' is off a {size}x{size} board")]
    OffBoard { vertex: String, size: u8 },
    #[error("'{0}' is not a colour")]
    BadColor(String),
    #[error("GMP position {pos} is off a {size}x{size} board")]
    BadPosition { pos: u16, size: u8 },
}

impl Point {
    pub fn new(col: u8, row: u8) -> Point {
        Point { col, row }
    }

    pub fn is_on(self, size: u8) -> bool {
        self.col < size && self.row < size
    }

    /// Index into a row-major array of `size * size` points.
    pub fn index(self, size: u8) -> usize {
        self.row as usize * size as usize + self.col as usize
    }

    pub(crate) fn from_index(index: usize, size: u8) -> Point {
        let size = size as usize;
        Point::new((index % size) as u8, (index / size) as u8)
    }

    /// The GTP vertex, e.g. `D4`. Valid for any point of a board up to 25x25.
    pub fn to_gtp(self) -> String {
        format!("{}{}", GTP_COLUMNS[self.col as usize] as char, self.row + 1)
    }

    /// Parses a GTP vertex (case-insensitive, no `I`). `pass` is not a point: see [`Move::parse_gtp`].
    pub fn parse_gtp(text: &str, size: u8) -> Result<Point, CoordError> {
        let bad = || CoordError::BadVertex(text.to_string());
        let upper = text.trim().to_ascii_uppercase();
        let mut chars = upper.bytes();
        let letter = chars.next().ok_or_else(bad)?;
        let col = GTP_COLUMNS
            .iter()
            .position(|&c| c == letter)
            .ok_or_else(bad)? as u8;
        let digits = &upper[1..];
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 2 {
            return Err(bad());
        }
        let row: u8 = digits.parse().map_err(|_| bad())?;
        if row == 0 || col >= size || row > size {
            return Err(CoordError::OffBoard {
                vertex: text.to_string(),
                size,
            });
        }
        Ok(Point::new(col, row - 1))
    }

    /// The SGF point, two lower-case letters counted from the top left.
    pub fn to_sgf(self, size: u8) -> String {
        let col = (b'a' + self.col) as char;
        let row = (b'a' + (size - 1 - self.row)) as char;
        format!("{col}{row}")
    }

    /// Parses an SGF point. An empty string or `tt` (on boards up to 19) is a pass and returns `None`.
    pub(crate) fn parse_sgf(text: &str, size: u8) -> Result<Option<Point>, CoordError> {
        let bytes = text.as_bytes();
        if bytes.is_empty() || (text == "tt" && size <= 19) {
            return Ok(None);
        }
        let bad = || CoordError::BadVertex(text.to_string());
        if bytes.len() != 2 || !bytes.iter().all(u8::is_ascii_lowercase) {
            return Err(bad());
        }
        let col = bytes[0] - b'a';
        let from_top = bytes[1] - b'a';
        if col >= size || from_top >= size {
            return Err(CoordError::OffBoard {
                vertex: text.to_string(),
                size,
            });
        }
        Ok(Some(Point::new(col, size - 1 - from_top)))
    }

    /// The GMP position number: `(row-1)*size + col + 1`, so A1 = 1.
    pub(crate) fn to_gmp(self, size: u8) -> u16 {
        self.row as u16 * size as u16 + self.col as u16 + 1
    }

    /// Decodes a GMP position number. Position 0 is a pass and returns `None`.
    pub(crate) fn from_gmp(pos: u16, size: u8) -> Result<Option<Point>, CoordError> {
        if pos == 0 {
            return Ok(None);
        }
        let area = size as u16 * size as u16;
        if pos > area {
            return Err(CoordError::BadPosition { pos, size });
        }
        let index = pos - 1;
        Ok(Some(Point::new(
            (index % size as u16) as u8,
            (index / size as u16) as u8,
        )))
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_gtp())
    }
}

/// What a player can answer when asked for a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    Play(Point),
    Pass,
    Resign,
}

impl Move {
    /// The GTP spelling: a vertex, `pass` or `resign`.
    pub fn to_gtp(self) -> String {
        match self {
            Move::Play(p) => p.to_gtp(),
            Move::Pass => "pass".to_string(),
            Move::Resign => "resign".to_string(),
        }
    }

    /// Parses a `genmove` answer: a vertex, `pass` or `resign`, in any case.
    pub fn parse_gtp(text: &str, size: u8) -> Result<Move, CoordError> {
        let word = text.trim();
        if word.eq_ignore_ascii_case("pass") {
            Ok(Move::Pass)
        } else if word.eq_ignore_ascii_case("resign") {
            Ok(Move::Resign)
        } else {
            Point::parse_gtp(word, size).map(Move::Play)
        }
    }

    pub fn point(self) -> Option<Point> {
        match self {
            Move::Play(p) => Some(p),
            _ => None,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_gtp())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gtp_vertices_skip_i_and_count_rows_from_the_bottom() {
        assert_eq!(Point::new(0, 0).to_gtp(), "A1");
        assert_eq!(Point::new(8, 8).to_gtp(), "J9");
        assert_eq!(Point::new(18, 18).to_gtp(), "T19");
        assert_eq!(Point::parse_gtp("j9", 9), Ok(Point::new(8, 8)));
        assert_eq!(Point::parse_gtp("D4", 19), Ok(Point::new(3, 3)));
        assert!(matches!(
            Point::parse_gtp("I5", 19),
            Err(CoordError::BadVertex(_))
        ));
        assert!(matches!(
            Point::parse_gtp("K5", 9),
            Err(CoordError::OffBoard { .. })
        ));
        assert!(matches!(
            Point::parse_gtp("A0", 9),
            Err(CoordError::OffBoard { .. })
        ));
        assert!(Point::parse_gtp("A", 9).is_err());
        assert!(Point::parse_gtp("A1x", 9).is_err());
        assert!(Point::parse_gtp("", 9).is_err());
    }

    #[test]
    fn moves_parse_case_insensitively() {
        assert_eq!(Move::parse_gtp("PASS", 9), Ok(Move::Pass));
        assert_eq!(Move::parse_gtp("Resign", 9), Ok(Move::Resign));
        assert_eq!(Move::parse_gtp("e5", 9), Ok(Move::Play(Point::new(4, 4))));
    }

    #[test]
    fn sgf_and_gmp_match_the_reference_cheat_sheet() {
        let c17 = Point::parse_gtp("C17", 19).unwrap();
        assert_eq!(c17.to_sgf(19), "cc");
        assert_eq!(c17.to_gmp(19), 307);
        let d4 = Point::parse_gtp("D4", 19).unwrap();
        assert_eq!(d4.to_sgf(19), "dp");
        assert_eq!(d4.to_gmp(19), 61);
        assert_eq!(Point::from_gmp(361, 19), Ok(Some(Point::new(18, 18))));
        assert_eq!(Point::from_gmp(343, 19), Ok(Some(Point::new(0, 18))));
        assert_eq!(Point::from_gmp(0, 19), Ok(None));
        assert!(Point::from_gmp(362, 19).is_err());
        assert_eq!(Point::parse_sgf("dp", 19), Ok(Some(d4)));
        assert_eq!(Point::parse_sgf("", 19), Ok(None));
        assert_eq!(Point::parse_sgf("tt", 19), Ok(None));
        assert_eq!(Point::parse_sgf("tt", 9), Ok(None));
        assert_eq!(Point::parse_sgf("tt", 25), Ok(Some(Point::new(19, 5))));
    }

    #[test]
    fn every_point_round_trips_through_every_spelling() {
        for size in MIN_SIZE..=MAX_SIZE {
            for index in 0..size as usize * size as usize {
                let p = Point::from_index(index, size);
                assert_eq!(p.index(size), index);
                assert_eq!(Point::parse_gtp(&p.to_gtp(), size), Ok(p));
                assert_eq!(Point::parse_sgf(&p.to_sgf(size), size), Ok(Some(p)));
                assert_eq!(Point::from_gmp(p.to_gmp(size), size), Ok(Some(p)));
            }
        }
    }
}
