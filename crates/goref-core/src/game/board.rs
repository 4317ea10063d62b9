//! The Go board: stones, captures, suicide, ko and superko, and fixed handicap placement.
//!
//! [`Board`] owns the position, the side to move, the prisoners and the history
//! of every position that has occurred, which is what the ko rules need. It
//! executes moves the way the SGF specification describes (place, capture the
//! opponent, then remove or forbid a suicide) and judges repetition with
//! Zobrist hashes, confirmed by an exact comparison of the stones so that a
//! hash collision can never make a legal move illegal.
//!
//! Internally the board is a flat array with a one-point border, and every
//! chain keeps its pseudo-liberties (the count, sum and sum of squares of its
//! stone/empty adjacencies), so [`Board::check`] judges a move from the four
//! neighbours alone, without flood fills or allocation.
//!
//! This file holds [`Board`] and its rules; `board/grid.rs` the array, the
//! chains and the Zobrist keys; `board/history.rs` the positions the ko
//! rules look back on; `board/handicap.rs` the fixed handicap.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::coord::{Color, Point, MAX_SIZE, MIN_SIZE};

/// Which repetitions of a position are forbidden.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KoRule {
    /// Only the immediate recapture: a move may not recreate the position of two plies ago.
    Simple,
    /// A move may not recreate any earlier position, whoever was to move then.
    PositionalSuperko,
    /// A move may not recreate an earlier position that had the same player to move.
    SituationalSuperko,
    /// Nothing is refused: an immediate recapture is played. The 1987
    /// Usenix referee only noted a ko violation in its transcript and played
    /// the move; the referee notes it the same way
    /// (`Board::recaptures_ko`).
    Lax,
}

/// The parts of a rule set that decide whether a stone may be placed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardRules {
    pub ko: KoRule,
    pub suicide_allowed: bool,
}

/// Why a move is illegal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, thiserror::Error)]
#[serde(rename_all = "snake_case")]
pub enum Illegal {
    #[error("the point is occupied")]
    Occupied,
    #[error("suicide")]
    Suicide,
    #[error("ko: immediate recapture")]
    Ko,
    #[error("superko: repeats an earlier position")]
    Superko,
    #[error("off the board")]
    OffBoard,
    #[error("not this player's turn")]
    WrongTurn,
}

/// A board that cannot be built or a handicap that cannot be placed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    #[error("board size {0} is outside {MIN_SIZE}..={MAX_SIZE}")]
    Size(u8),
    #[error("{}", handicap_message(*.size, *.stones, *.max))]
    Handicap { size: u8, stones: u8, max: u8 },
}

/// A Go position with its rules and history.
#[derive(Clone)]
pub struct Board {
    size: u8,
    rules: BoardRules,
    grid: Grid,
    to_move: Color,
    prisoners: [u32; 2],
    moves: usize,
    history: History,
}

impl Board {
    /// An empty board with Black to move.
    pub fn new(size: u8, rules: BoardRules) -> Result<Board, BoardError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(BoardError::Size(size));
        }
        let mut board = Board {
            size,
            rules,
            grid: Grid::new(size as usize),
            to_move: Color::Black,
            prisoners: [0; 2],
            moves: 0,
            history: History::default(),
        };
        board.history.reset(board.current_position());
        Ok(board)
    }

    pub fn size(&self) -> u8 {
        self.size
    }

    pub fn rules(&self) -> BoardRules {
        self.rules
    }

    /// The stone on `p`; `None` if the point is empty or off the board.
    pub fn get(&self, p: Point) -> Option<Color> {
        if p.is_on(self.size) {
            color_of(self.grid.cells[self.grid.index(p)])
        } else {
            None
        }
    }

    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Whether `color` may play at `p` now, without changing anything.
    ///
    /// Checks in this order: turn, board edge, occupied point, suicide, then
    /// ko and superko. Always agrees with [`Board::play`].
    pub fn check(&self, color: Color, p: Point) -> Result<(), Illegal> {
        self.check_under(color, p, self.rules.ko)
    }

    /// Whether `color` playing `p` would retake a ko at once: a legal move,
    /// but for the simple ko rule. What [`KoRule::Lax`] plays and notes.
    pub(crate) fn recaptures_ko(&self, color: Color, p: Point) -> bool {
        self.check_under(color, p, KoRule::Simple) == Err(Illegal::Ko)
    }

    fn check_under(&self, color: Color, p: Point, ko: KoRule) -> Result<(), Illegal> {
        if color != self.to_move {
            return Err(Illegal::WrongTurn);
        }
        if !p.is_on(self.size) {
            return Err(Illegal::OffBoard);
        }
        let grid = &self.grid;
        let i = grid.index(p);
        if grid.cells[i] != EMPTY {
            return Err(Illegal::Occupied);
        }
        let own = cell_of(color);
        let mut captured = [0u16; 4];
        let mut n_captured = 0;
        let mut own_in_atari = [0u16; 4];
        let mut n_own = 0;
        let mut breathes = false;
        for q in grid.neighbours(i) {
            let cell = grid.cells[q];
            if cell == EMPTY {
                breathes = true;
            } else if cell != BORDER {
                let h = grid.head[q];
                let atari = grid.chains[h as usize].in_atari();
                if cell == own {
                    if !atari {
                        breathes = true;
                    } else if !own_in_atari[..n_own].contains(&h) {
                        own_in_atari[n_own] = h;
                        n_own += 1;
                    }
                } else if atari && !captured[..n_captured].contains(&h) {
                    captured[n_captured] = h;
                    n_captured += 1;
                }
            }
        }
        let suicide = !breathes && n_captured == 0;
        if suicide && !self.rules.suicide_allowed {
            return Err(Illegal::Suicide);
        }
        let outcome = if suicide {
            Outcome {
                point: i,
                cell: own,
                removed: own_in_atari,
                n_removed: n_own,
                suicide,
            }
        } else {
            Outcome {
                point: i,
                cell: own,
                removed: captured,
                n_removed: n_captured,
                suicide,
            }
        };
        self.judge_repetition(ko, outcome.hash_after(grid), color.opponent(), |stones| {
            outcome.matches(grid, stones)
        })
    }

    /// Judges the position a move would create (given by its hash and an
    /// exact comparison with a stored position) against the ko rule.
    fn judge_repetition(
        &self,
        ko: KoRule,
        hash: u64,
        next_to_move: Color,
        same: impl Fn(&[u8]) -> bool,
    ) -> Result<(), Illegal> {
        if ko == KoRule::Lax {
            return Ok(());
        }
        let positions = &self.history.positions;
        if let Some(before) = positions.len().checked_sub(2).map(|k| &positions[k]) {
            if before.hash == hash && same(&before.stones) {
                return Err(Illegal::Ko);
            }
        }
        let situational = match ko {
            KoRule::Simple | KoRule::Lax => return Ok(()),
            KoRule::PositionalSuperko => false,
            KoRule::SituationalSuperko => true,
        };
        if let Some(earlier) = self.history.seen.get(&hash) {
            for &k in earlier {
                let position = &positions[k as usize];
                if (!situational || position.to_move == next_to_move) && same(&position.stones) {
                    return Err(Illegal::Superko);
                }
            }
        }
        Ok(())
    }

    /// Plays a stone and returns the opponent stones it captured, sorted.
    ///
    /// When suicide is allowed and the move is suicide, the mover's own chain
    /// is removed and credited to the opponent as prisoners, but it is not
    /// listed in the returned captures (which are then empty).
    /// An illegal move leaves the board unchanged.
    pub fn play(&mut self, color: Color, p: Point) -> Result<Vec<Point>, Illegal> {
        if color != self.to_move {
            return Err(Illegal::WrongTurn);
        }
        if !p.is_on(self.size) {
            return Err(Illegal::OffBoard);
        }
        let i = self.grid.index(p);
        if self.grid.cells[i] != EMPTY {
            return Err(Illegal::Occupied);
        }
        let captured = self.grid.place(i, color);
        let mut own_removed = Vec::new();
        let own_head = self.grid.head[i] as usize;
        if self.grid.chains[own_head].libs == 0 {
            if !self.rules.suicide_allowed {
                self.restore();
                return Err(Illegal::Suicide);
            }
            self.grid.remove_chain(own_head, &mut own_removed);
        }
        let grid = &self.grid;
        if let Err(illegal) =
            self.judge_repetition(self.rules.ko, grid.hash, color.opponent(), |s| {
                grid.same_stones(s)
            })
        {
            self.restore();
            return Err(illegal);
        }
        self.prisoners[color.index()] += captured.len() as u32;
        self.prisoners[color.opponent().index()] += own_removed.len() as u32;
        self.to_move = color.opponent();
        self.moves += 1;
        self.history.push(self.current_position());
        let mut points: Vec<Point> = captured.iter().map(|&s| self.grid.point(s)).collect();
        points.sort();
        Ok(points)
    }

    /// Puts the stones back as they were before a rejected move.
    fn restore(&mut self) {
        let last = self
            .history
            .positions
            .last()
            .expect("the history always holds the current position");
        self.grid.load(&last.stones);
    }

    /// Passes. Only [`Illegal::WrongTurn`] can fail: passing is never restricted by ko.
    pub fn pass(&mut self, color: Color) -> Result<(), Illegal> {
        if color != self.to_move {
            return Err(Illegal::WrongTurn);
        }
        self.to_move = color.opponent();
        self.moves += 1;
        self.history.push(self.current_position());
        Ok(())
    }

    /// Sets the player to move, e.g. White after handicap stones, or after an
    /// operator's correction. The current position is remembered with this
    /// player to move, which is what situational superko compares.
    pub fn set_to_move(&mut self, color: Color) {
        self.to_move = color;
        if let Some(current) = self.history.positions.last_mut() {
            current.to_move = color;
        }
    }

    /// Adds setup stones (handicap, free placement) without playing them.
    ///
    /// Every point must be on the board, empty and listed once; otherwise
    /// nothing is placed. Setup stones capture nothing. The resulting
    /// position becomes the initial position of the history: earlier
    /// positions are forgotten by the ko rules. The side to move, the move
    /// number and the prisoners do not change.
    pub fn place_setup(&mut self, color: Color, stones: &[Point]) -> Result<(), Illegal> {
        let mut claimed = vec![false; self.grid.cells.len()];
        for &p in stones {
            if !p.is_on(self.size) {
                return Err(Illegal::OffBoard);
            }
            let i = self.grid.index(p);
            if self.grid.cells[i] != EMPTY || claimed[i] {
                return Err(Illegal::Occupied);
            }
            claimed[i] = true;
        }
        let mut snapshot = self.grid.snapshot();
        for &p in stones {
            snapshot[p.index(self.size)] = cell_of(color);
        }
        self.grid.load(&snapshot);
        self.history.reset(self.current_position());
        Ok(())
    }

    fn current_position(&self) -> Position {
        Position {
            hash: self.grid.hash,
            to_move: self.to_move,
            stones: self.grid.snapshot(),
        }
    }

    /// Stones captured by `color` during play (not counting dead stones).
    pub(crate) fn prisoners(&self, color: Color) -> u32 {
        self.prisoners[color.index()]
    }

    /// The chain containing `p`, sorted; empty if `p` is empty or off the board.
    pub fn group(&self, p: Point) -> Vec<Point> {
        if self.get(p).is_none() {
            return Vec::new();
        }
        let h = self.grid.head[self.grid.index(p)] as usize;
        let mut points: Vec<Point> = self.grid.stones_of(h).map(|s| self.grid.point(s)).collect();
        points.sort();
        points
    }

    /// The number of distinct liberties of the chain at `p` (0 if `p` is empty).
    pub fn liberty_count(&self, p: Point) -> usize {
        if self.get(p).is_none() {
            return 0;
        }
        let grid = &self.grid;
        let h = grid.head[grid.index(p)] as usize;
        let mut liberties: Vec<usize> = grid
            .stones_of(h)
            .flat_map(|s| grid.neighbours(s))
            .filter(|&q| grid.cells[q] == EMPTY)
            .collect();
        liberties.sort_unstable();
        liberties.dedup();
        liberties.len()
    }

    /// The orthogonal neighbours of `p` that are on the board (none if `p` is off it).
    pub fn neighbors(&self, p: Point) -> impl Iterator<Item = Point> {
        let size = i16::from(self.size);
        let on = p.is_on(self.size);
        let (col, row) = (i16::from(p.col), i16::from(p.row));
        [(0, -1), (-1, 0), (1, 0), (0, 1)]
            .into_iter()
            .filter_map(move |(dc, dr): (i16, i16)| {
                let (c, r) = (col + dc, row + dr);
                (on && (0..size).contains(&c) && (0..size).contains(&r))
                    .then(|| Point::new(c as u8, r as u8))
            })
    }

    /// Every stone on the board, in index order.
    pub fn stones(&self) -> impl Iterator<Item = (Point, Color)> + '_ {
        self.points()
            .filter_map(|p| self.get(p).map(|color| (p, color)))
    }

    /// Every point of the board, in index order (A1, B1, …, then row 2, …).
    pub fn points(&self) -> impl Iterator<Item = Point> {
        let size = self.size;
        (0..size as usize * size as usize).map(move |k| Point::from_index(k, size))
    }

    /// The Zobrist hash of the stones (the side to move is not included).
    pub fn hash(&self) -> u64 {
        self.grid.hash
    }

    /// Plays and passes made so far.
    #[cfg(test)]
    pub(crate) fn move_number(&self) -> usize {
        self.moves
    }

    /// Whether `p` is an empty point that `color` should not fill: all its
    /// neighbours are `color`, and at most one diagonal (none on the edge or
    /// in the corner) is an opponent stone.
    pub fn is_eye_like(&self, color: Color, p: Point) -> bool {
        if !p.is_on(self.size) {
            return false;
        }
        let grid = &self.grid;
        let i = grid.index(p);
        if grid.cells[i] != EMPTY {
            return false;
        }
        let own = cell_of(color);
        if grid
            .neighbours(i)
            .iter()
            .any(|&q| grid.cells[q] != own && grid.cells[q] != BORDER)
        {
            return false;
        }
        let s = grid.stride;
        let opp = cell_of(color.opponent());
        let mut opponents = 0;
        let mut edge = false;
        for q in [i - s - 1, i - s + 1, i + s - 1, i + s + 1] {
            match grid.cells[q] {
                BORDER => edge = true,
                cell if cell == opp => opponents += 1,
                _ => {}
            }
        }
        opponents < if edge { 1 } else { 2 }
    }

    /// The points where `color` may play now (none when it is not `color`'s turn).
    pub fn legal_points(&self, color: Color) -> Vec<Point> {
        self.points()
            .filter(|&p| self.check(color, p).is_ok())
            .collect()
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letters: Vec<String> = (0..self.size)
            .map(|col| Point::new(col, 0).to_gtp()[..1].to_string())
            .collect();
        let header = format!("   {}", letters.join(" "));
        writeln!(f, "{header}")?;
        for row in (0..self.size).rev() {
            write!(f, "{:>2}", row + 1)?;
            for col in 0..self.size {
                let mark = match self.get(Point::new(col, row)) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                };
                write!(f, " {mark}")?;
            }
            writeln!(f, " {}", row + 1)?;
        }
        writeln!(f, "{header}")
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Board")
            .field("size", &self.size)
            .field("rules", &self.rules)
            .field("to_move", &self.to_move)
            .field("move_number", &self.moves)
            .field("prisoners", &self.prisoners)
            .field("hash", &format_args!("{:016x}", self.grid.hash))
            .finish()
    }
}

mod grid;
mod handicap;
mod history;

use grid::{cell_of, color_of, Grid, Outcome, BORDER, EMPTY};
pub use handicap::first_to_move;
pub use handicap::fixed_handicap;
use handicap::handicap_message;
use history::{History, Position};

#[cfg(test)]
mod tests;
