//! The 1987 Usenix referee's line protocol, sans-IO: the lines goref writes to
//! a Usenix program, and how it reads the lines the program writes.
//!
//! goref writes what the 1987 referee (GREF) wrote: the colour line (`black`
//! or `white`), each opponent move as an upper-case letter and a row
//! (`G7`, `pass`), and `byo-romi` once, just before a relayed move, when the
//! program's main CPU time is used up. Each line ends in one LF.
//!
//! It reads leniently, as `reference/rules.md` §4.2 recommends: any case, CR
//! dropped, spaces and tabs removed (GREF removed them too), empty lines
//! ignored. A line that does not begin with a column letter, `pass` or
//! `resign` is garbage and ignored, as rule (i) says; `resign` is goref's
//! extension. Every line GREF would have read differently carries a note
//! saying how, so a program that would have lost a 1987 game to the
//! referee's parser is told so.

use crate::game::{Color, Move, Point};

/// The columns, `A` to `Z` without `I`: the 1987 board used the first 19.
const COLUMNS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";
/// The columns of GREF's table, for the 19x19 board it knew.
const GREF_COLUMNS: &[u8; 19] = b"ABCDEFGHJKLMNOPQRST";
/// Longest line kept whole; the rest of a longer line is dropped. GREF kept 32.
pub const MAX_LINE: usize = 256;
/// The line that tells a program its main CPU time is used up.
pub const BYO_ROMI: &str = "byo-romi";

/// The first line a program reads: the colour it plays.
pub fn colour_line(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// A move as the referee relays it: `G7`, `T19`, `pass`. A resignation is
/// never relayed (the game is over), but reads as `resign`.
pub fn move_line(mv: Move) -> String {
    mv.to_gtp()
}

/// What a line from the program means to goref.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reading {
    /// A move: a point (on the board or not: the referee rules on it) or a pass.
    Move(Move),
    /// `resign`, goref's extension.
    Resign,
    /// Nothing but spaces, tabs and CRs: skipped.
    Empty,
    /// Not a move: shown and ignored.
    Garbage,
}

/// A line read, with what goref makes of it and, when there is something to
/// say, a note for the trace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadLine {
    pub reading: Reading,
    pub note: Option<String>,
}

/// Reads one line the program wrote (without its LF).
pub fn read_line(line: &str) -> ReadLine {
    let squeezed: String = line
        .chars()
        .filter(|c| !matches!(c, ' ' | '\t' | '\r'))
        .collect();
    let reading = lenient_reading(&squeezed);
    let mut notes = Vec::new();
    match reading {
        Reading::Resign => notes.push(
            "resign is goref's extension: the 1987 referee ignored it and waited".to_string(),
        ),
        Reading::Garbage => notes.push("not a move: ignored, as rule (i) says".to_string()),
        Reading::Move(_) | Reading::Empty => {}
    }
    if let Some(note) = gref_difference(line, reading) {
        notes.push(note);
    }
    ReadLine {
        reading,
        note: (!notes.is_empty()).then(|| notes.join("; ")),
    }
}

/// goref's reading of a line with its spaces, tabs and CRs removed.
fn lenient_reading(squeezed: &str) -> Reading {
    if squeezed.is_empty() {
        return Reading::Empty;
    }
    if squeezed.eq_ignore_ascii_case("pass") {
        return Reading::Move(Move::Pass);
    }
    if squeezed.eq_ignore_ascii_case("resign") {
        return Reading::Resign;
    }
    let bytes = squeezed.as_bytes();
    let Some(col) = COLUMNS
        .iter()
        .position(|&c| c == bytes[0].to_ascii_uppercase())
    else {
        return Reading::Garbage;
    };
    let digits: String = squeezed[1..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    match digits.parse::<u8>() {
        Ok(row @ 1..=99) if digits.len() <= 2 => {
            Reading::Move(Move::Play(Point::new(col as u8, row - 1)))
        }
        _ => Reading::Garbage,
    }
}

/// How GREF read a line, as `reference/rules.md` §4.2 describes its parser:
/// spaces and tabs removed, 32 characters kept, `pass` only when exact; the
/// first character looked up in its 19 upper-case columns, and the row read
/// as C's `atoi` does. A first character not in the table fell off its end,
/// to column B of the next row. A point off its 19x19 board was ignored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GrefReading {
    Pass,
    Point { col: u8, row: u32 },
    Ignored,
}

pub(crate) fn gref_reading(line: &str) -> GrefReading {
    let kept: String = line
        .chars()
        .filter(|c| !matches!(c, ' ' | '\t'))
        .take(32)
        .collect();
    if kept == "pass" {
        return GrefReading::Pass;
    }
    let Some((&first, rest)) = kept.as_bytes().split_first() else {
        return GrefReading::Ignored;
    };
    let row = rest
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .take(9)
        .fold(0u32, |row, b| row * 10 + u32::from(b - b'0'));
    let (col, row) = match GREF_COLUMNS.iter().position(|&c| c == first) {
        Some(col) => (col as u8, row),
        None => (1, row + 1),
    };
    if (1..=19).contains(&row) {
        GrefReading::Point { col, row }
    } else {
        GrefReading::Ignored
    }
}

/// The note for a line GREF would have read otherwise than goref does.
fn gref_difference(line: &str, reading: Reading) -> Option<String> {
    let gref = gref_reading(line);
    let same = match (reading, gref) {
        (Reading::Move(Move::Pass), GrefReading::Pass) => true,
        (Reading::Move(Move::Play(p)), GrefReading::Point { col, row }) => {
            p.col == col && u32::from(p.row) + 1 == row
        }
        (Reading::Empty | Reading::Garbage | Reading::Resign, GrefReading::Ignored) => true,
        _ => false,
    };
    if same {
        return None;
    }
    Some(match gref {
        GrefReading::Pass => "a 1987 referee would have read it as pass".to_string(),
        GrefReading::Point { col, row } => format!(
            "a 1987 referee would have read it as {}{row}",
            GREF_COLUMNS[col as usize] as char
        ),
        GrefReading::Ignored => {
            "a 1987 referee would have ignored it and waited for a move".to_string()
        }
    })
}

/// Splits the bytes a program writes into lines. A line longer than
/// [`MAX_LINE`] is cut there and the rest of it dropped; bytes that are not
/// UTF-8 are shown as replacement characters.
#[derive(Debug, Default)]
pub struct LineSplitter {
    partial: Vec<u8>,
    /// Bytes dropped from overlong lines so far.
    pub dropped: u64,
}

impl LineSplitter {
    /// The whole lines in `bytes` and what came before them, without LFs.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<String> {
        let mut lines = Vec::new();
        for &byte in bytes {
            if byte == b'\n' {
                lines.push(String::from_utf8_lossy(&self.partial).into_owned());
                self.partial.clear();
            } else if self.partial.len() < MAX_LINE {
                self.partial.push(byte);
            } else {
                self.dropped += 1;
            }
        }
        lines
    }

    /// What is left without its LF when the program's output ends.
    pub fn finish(&mut self) -> Option<String> {
        (!self.partial.is_empty()).then(|| {
            let line = String::from_utf8_lossy(&self.partial).into_owned();
            self.partial.clear();
            line
        })
    }
}

#[cfg(test)]
mod tests;
