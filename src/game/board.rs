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

use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};

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

fn handicap_message(size: u8, stones: u8, max: u8) -> String {
    if max == 0 {
        format!(
            "no fixed handicap is defined on a {size}x{size} board \
             ({stones} stones requested; fixed handicap needs 7x7 or larger)"
        )
    } else {
        format!(
            "a fixed handicap of {stones} stones is not defined on a {size}x{size} board \
             (2 to {max} stones)"
        )
    }
}

const EMPTY: u8 = 0;
const BORDER: u8 = 3;

fn cell_of(color: Color) -> u8 {
    1 + color.index() as u8
}

fn color_of(cell: u8) -> Option<Color> {
    match cell {
        1 => Some(Color::Black),
        2 => Some(Color::White),
        _ => None,
    }
}

fn is_stone(cell: u8) -> bool {
    cell == 1 || cell == 2
}

const MAX_PADDED: usize = (MAX_SIZE as usize + 2) * (MAX_SIZE as usize + 2);

/// One random key per (padded index, colour), fixed at compile time so that
/// hashes are reproducible across runs.
static ZOBRIST: [[u64; 2]; MAX_PADDED] = zobrist_table();

const fn zobrist_table() -> [[u64; 2]; MAX_PADDED] {
    let mut table = [[0; 2]; MAX_PADDED];
    let mut state: u64 = 0x676f_7265_665f_7a62;
    let mut i = 0;
    while i < MAX_PADDED {
        let mut c = 0;
        while c < 2 {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            table[i][c] = z ^ (z >> 31);
            c += 1;
        }
        i += 1;
    }
    table
}

fn key(i: usize, cell: u8) -> u64 {
    ZOBRIST[i][cell as usize - 1]
}

/// Pseudo-liberties of a chain: one entry per (stone, empty neighbour) pair.
/// The chain has no liberty iff `libs == 0`, and exactly one distinct liberty
/// iff all entries are the same point, i.e. `libs * sum_sq == sum^2`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Chain {
    size: u16,
    libs: u16,
    lib_sum: u32,
    lib_sum_sq: u64,
}

impl Chain {
    fn add_lib(&mut self, i: usize) {
        self.libs += 1;
        self.lib_sum += i as u32;
        self.lib_sum_sq += (i * i) as u64;
    }

    fn remove_lib(&mut self, i: usize) {
        self.libs -= 1;
        self.lib_sum -= i as u32;
        self.lib_sum_sq -= (i * i) as u64;
    }

    fn in_atari(&self) -> bool {
        self.libs > 0 && u64::from(self.libs) * self.lib_sum_sq == u64::from(self.lib_sum).pow(2)
    }

    fn absorb(&mut self, other: Chain) {
        self.size += other.size;
        self.libs += other.libs;
        self.lib_sum += other.lib_sum;
        self.lib_sum_sq += other.lib_sum_sq;
    }
}

/// The stones and their chains on a padded array (`stride = size + 2`).
/// `head` names each stone's chain, `next` links the chain's stones in a
/// circle, `chains` is indexed by head.
#[derive(Clone)]
struct Grid {
    size: usize,
    stride: usize,
    cells: Vec<u8>,
    head: Vec<u16>,
    next: Vec<u16>,
    chains: Vec<Chain>,
    hash: u64,
}

impl Grid {
    fn new(size: usize) -> Grid {
        let stride = size + 2;
        let mut cells = vec![BORDER; stride * stride];
        for row in 0..size {
            let start = (row + 1) * stride + 1;
            cells[start..start + size].fill(EMPTY);
        }
        Grid {
            size,
            stride,
            cells,
            head: vec![0; stride * stride],
            next: vec![0; stride * stride],
            chains: vec![Chain::default(); stride * stride],
            hash: 0,
        }
    }

    fn index(&self, p: Point) -> usize {
        (p.row as usize + 1) * self.stride + p.col as usize + 1
    }

    fn point(&self, i: usize) -> Point {
        Point::new((i % self.stride - 1) as u8, (i / self.stride - 1) as u8)
    }

    fn neighbours(&self, i: usize) -> [usize; 4] {
        [i - self.stride, i - 1, i + 1, i + self.stride]
    }

    fn chain_of(&self, i: usize) -> &Chain {
        &self.chains[self.head[i] as usize]
    }

    /// The stones of the chain whose head is `h`.
    fn stones_of(&self, h: usize) -> ChainStones<'_> {
        ChainStones {
            next: &self.next,
            start: h,
            at: Some(h),
        }
    }

    /// Places a stone of `color` on the empty point `i`, merges it with its
    /// friends and removes opponent chains left without liberties. Returns
    /// the padded indices of the captured stones. Suicide is left to the caller.
    fn place(&mut self, i: usize, color: Color) -> Vec<usize> {
        let own = cell_of(color);
        let opp = cell_of(color.opponent());
        self.cells[i] = own;
        self.start_chain(i);
        for q in self.neighbours(i) {
            if is_stone(self.cells[q]) {
                self.chains[self.head[q] as usize].remove_lib(i);
            }
        }
        let mut h = i;
        for q in self.neighbours(i) {
            if self.cells[q] == own && self.head[q] as usize != h {
                h = self.merge(h, self.head[q] as usize);
            }
        }
        let mut captured = Vec::new();
        for q in self.neighbours(i) {
            if self.cells[q] == opp && self.chain_of(q).libs == 0 {
                self.remove_chain(self.head[q] as usize, &mut captured);
            }
        }
        captured
    }

    /// Joins the chains headed by `a` and `b`; returns the surviving head.
    fn merge(&mut self, a: usize, b: usize) -> usize {
        let (big, small) = if self.chains[a].size >= self.chains[b].size {
            (a, b)
        } else {
            (b, a)
        };
        let mut s = small;
        loop {
            self.head[s] = big as u16;
            s = self.next[s] as usize;
            if s == small {
                break;
            }
        }
        self.next.swap(big, small);
        let absorbed = self.chains[small];
        self.chains[big].absorb(absorbed);
        big
    }

    /// Removes the chain headed by `h`, appending its stones to `out`.
    fn remove_chain(&mut self, h: usize, out: &mut Vec<usize>) {
        let cell = self.cells[h];
        let start = out.len();
        let mut s = h;
        loop {
            out.push(s);
            self.cells[s] = EMPTY;
            self.hash ^= key(s, cell);
            s = self.next[s] as usize;
            if s == h {
                break;
            }
        }
        for &s in &out[start..] {
            for q in self.neighbours(s) {
                if is_stone(self.cells[q]) {
                    self.chains[self.head[q] as usize].add_lib(s);
                }
            }
        }
    }

    /// The stones without the border, row by row: 0 empty, 1 black, 2 white.
    fn snapshot(&self) -> Box<[u8]> {
        let mut out = Vec::with_capacity(self.size * self.size);
        for row in 0..self.size {
            let start = (row + 1) * self.stride + 1;
            out.extend_from_slice(&self.cells[start..start + self.size]);
        }
        out.into_boxed_slice()
    }

    fn same_stones(&self, snapshot: &[u8]) -> bool {
        snapshot
            .chunks_exact(self.size)
            .enumerate()
            .all(|(row, stones)| {
                let start = (row + 1) * self.stride + 1;
                self.cells[start..start + self.size] == *stones
            })
    }

    /// Makes the stone at `i` a chain of its own, with its empty neighbours
    /// as liberties, and adds it to the hash.
    fn start_chain(&mut self, i: usize) {
        self.hash ^= key(i, self.cells[i]);
        self.head[i] = i as u16;
        self.next[i] = i as u16;
        self.chains[i] = Chain {
            size: 1,
            ..Chain::default()
        };
        for q in self.neighbours(i) {
            if self.cells[q] == EMPTY {
                self.chains[i].add_lib(q);
            }
        }
    }

    /// Rebuilds stones, chains and hash from a snapshot.
    fn load(&mut self, snapshot: &[u8]) {
        self.hash = 0;
        for (row, stones) in snapshot.chunks_exact(self.size).enumerate() {
            let start = (row + 1) * self.stride + 1;
            self.cells[start..start + self.size].copy_from_slice(stones);
        }
        let on_board: Vec<usize> = (0..self.size * self.size)
            .map(|k| (k / self.size + 1) * self.stride + k % self.size + 1)
            .collect();
        for &i in &on_board {
            let cell = self.cells[i];
            if !is_stone(cell) {
                continue;
            }
            self.start_chain(i);
        }
        for &i in &on_board {
            let cell = self.cells[i];
            if !is_stone(cell) {
                continue;
            }
            for q in [i + 1, i + self.stride] {
                if self.cells[q] == cell && self.head[q] != self.head[i] {
                    self.merge(self.head[i] as usize, self.head[q] as usize);
                }
            }
        }
    }
}

struct ChainStones<'a> {
    next: &'a [u16],
    start: usize,
    at: Option<usize>,
}

impl Iterator for ChainStones<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        let here = self.at?;
        let following = self.next[here] as usize;
        self.at = (following != self.start).then_some(following);
        Some(here)
    }
}

/// What a candidate move would do, worked out without touching the board.
struct Outcome {
    point: usize,
    cell: u8,
    /// Heads of the chains the move removes: captured opponents, or for an
    /// allowed suicide the mover's own chains (and then no stone is placed).
    removed: [u16; 4],
    n_removed: usize,
    suicide: bool,
}

impl Outcome {
    fn removes(&self, grid: &Grid, i: usize) -> bool {
        is_stone(grid.cells[i]) && self.removed[..self.n_removed].contains(&grid.head[i])
    }

    fn cell_after(&self, grid: &Grid, i: usize) -> u8 {
        if i == self.point {
            if self.suicide {
                EMPTY
            } else {
                self.cell
            }
        } else if self.removes(grid, i) {
            EMPTY
        } else {
            grid.cells[i]
        }
    }

    fn hash_after(&self, grid: &Grid) -> u64 {
        let mut hash = grid.hash;
        if !self.suicide {
            hash ^= key(self.point, self.cell);
        }
        for &h in &self.removed[..self.n_removed] {
            let cell = grid.cells[h as usize];
            for s in grid.stones_of(h as usize) {
                hash ^= key(s, cell);
            }
        }
        hash
    }

    fn matches(&self, grid: &Grid, snapshot: &[u8]) -> bool {
        snapshot
            .chunks_exact(grid.size)
            .enumerate()
            .all(|(row, stones)| {
                let start = (row + 1) * grid.stride + 1;
                stones
                    .iter()
                    .enumerate()
                    .all(|(col, &want)| self.cell_after(grid, start + col) == want)
            })
    }
}

/// Passes Zobrist hashes through unchanged: they are already uniformly random.
#[derive(Default)]
struct PassThrough(u64);

impl Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

#[derive(Clone)]
struct Position {
    hash: u64,
    /// The player to move in this position (for situational superko).
    to_move: Color,
    stones: Box<[u8]>,
}

/// Every position of the game, one per ply, starting with the initial (or
/// setup) position, and an index from stone hash to the positions having it.
#[derive(Clone, Default)]
struct History {
    positions: Vec<Position>,
    seen: HashMap<u64, Vec<u32>, BuildHasherDefault<PassThrough>>,
}

impl History {
    fn push(&mut self, position: Position) {
        self.seen
            .entry(position.hash)
            .or_default()
            .push(self.positions.len() as u32);
        self.positions.push(position);
    }

    fn reset(&mut self, position: Position) {
        self.positions.clear();
        self.seen.clear();
        self.push(position);
    }
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
        self.judge_repetition(outcome.hash_after(grid), color.opponent(), |stones| {
            outcome.matches(grid, stones)
        })
    }

    /// Judges the position a move would create (given by its hash and an
    /// exact comparison with a stored position) against the ko rule.
    fn judge_repetition(
        &self,
        hash: u64,
        next_to_move: Color,
        same: impl Fn(&[u8]) -> bool,
    ) -> Result<(), Illegal> {
        let positions = &self.history.positions;
        if let Some(before) = positions.len().checked_sub(2).map(|k| &positions[k]) {
            if before.hash == hash && same(&before.stones) {
                return Err(Illegal::Ko);
            }
        }
        let situational = match self.rules.ko {
            KoRule::Simple => return Ok(()),
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
            self.judge_repetition(grid.hash, color.opponent(), |s| grid.same_stones(s))
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
    pub fn prisoners(&self, color: Color) -> u32 {
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
    pub fn move_number(&self) -> usize {
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

/// The most stones `fixed_handicap` places on a board of this size (GTP §4.1.1).
fn max_fixed_handicap(size: u8) -> u8 {
    if size < 7 {
        0
    } else if size == 7 || size.is_multiple_of(2) {
        4
    } else {
        9
    }
}

/// The GTP `fixed_handicap` placement: corner star points first (the lower
/// left and upper right, then upper left, lower right), then for 5, 7 and 9
/// stones the centre, for 6 to 9 the left and right side points, for 8 and 9
/// the lower and upper side points. The star points are on the third line
/// below 13x13 and on the fourth line from 13x13.
///
/// Defined for 2 to 9 stones on odd boards from 9x9, 2 to 4 stones on 7x7
/// and on even boards from 8x8; any other request is an error.
pub fn fixed_handicap(size: u8, stones: u8) -> Result<Vec<Point>, BoardError> {
    if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
        return Err(BoardError::Size(size));
    }
    let max = max_fixed_handicap(size);
    if stones < 2 || stones > max {
        return Err(BoardError::Handicap { size, stones, max });
    }
    let low = if size >= 13 { 3 } else { 2 };
    let high = size - 1 - low;
    let mid = size / 2;
    let corners = [(low, low), (high, high), (low, high), (high, low)];
    let mut placed: Vec<(u8, u8)> = corners[..usize::from(stones.min(4))].to_vec();
    if stones >= 6 {
        placed.extend([(low, mid), (high, mid)]);
    }
    if stones >= 8 {
        placed.extend([(mid, low), (mid, high)]);
    }
    if stones >= 5 && stones % 2 == 1 {
        placed.push((mid, mid));
    }
    Ok(placed
        .into_iter()
        .map(|(col, row)| Point::new(col, row))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use proptest::sample::Index;

    use crate::game::score::{score, Scoring};

    const SIMPLE: BoardRules = BoardRules {
        ko: KoRule::Simple,
        suicide_allowed: false,
    };
    const POSITIONAL: BoardRules = BoardRules {
        ko: KoRule::PositionalSuperko,
        suicide_allowed: false,
    };
    const SITUATIONAL: BoardRules = BoardRules {
        ko: KoRule::SituationalSuperko,
        suicide_allowed: false,
    };
    const SUICIDE_OK: BoardRules = BoardRules {
        ko: KoRule::SituationalSuperko,
        suicide_allowed: true,
    };

    fn pt(vertex: &str) -> Point {
        Point::parse_gtp(vertex, MAX_SIZE).unwrap()
    }

    fn pts(vertices: &str) -> Vec<Point> {
        let mut points: Vec<Point> = vertices.split_whitespace().map(pt).collect();
        points.sort();
        points
    }

    fn color(letter: &str) -> Color {
        letter.parse().unwrap()
    }

    /// Plays moves like `"B D4"` or `"W pass"`, which must all be legal.
    fn play_all(board: &mut Board, moves: &[&str]) {
        for m in moves {
            let (c, vertex) = m.split_once(' ').unwrap();
            let result = if vertex == "pass" {
                board.pass(color(c)).map(|()| Vec::new())
            } else {
                board.play(color(c), pt(vertex))
            };
            assert!(result.is_ok(), "{m}: {result:?}\n{board}");
        }
    }

    fn setup(size: u8, rules: BoardRules, black: &str, white: &str) -> Board {
        let mut board = Board::new(size, rules).unwrap();
        board.place_setup(Color::Black, &pts(black)).unwrap();
        board.place_setup(Color::White, &pts(white)).unwrap();
        board
    }

    /// Plays after asserting that `check` gives the same verdict.
    fn checked_play(board: &mut Board, c: Color, p: Point) -> Result<Vec<Point>, Illegal> {
        let verdict = board.check(c, p);
        let result = board.play(c, p);
        assert_eq!(verdict, result.as_ref().map(|_| ()).map_err(|e| *e));
        result
    }

    #[test]
    fn sizes_outside_2_to_25_are_rejected() {
        assert_eq!(Board::new(1, SIMPLE).err(), Some(BoardError::Size(1)));
        assert_eq!(Board::new(26, SIMPLE).err(), Some(BoardError::Size(26)));
        assert_eq!(Board::new(2, SIMPLE).unwrap().points().count(), 4);
        let board = Board::new(25, SIMPLE).unwrap();
        assert_eq!(board.points().count(), 625);
        assert_eq!(board.to_move(), Color::Black);
        assert_eq!(board.hash(), 0);
        assert_eq!(board.move_number(), 0);
    }

    #[test]
    fn a_surrounded_stone_is_captured_and_counted() {
        let mut board = Board::new(9, SIMPLE).unwrap();
        play_all(
            &mut board,
            &["B E4", "W E5", "B E6", "W pass", "B D5", "W pass"],
        );
        assert_eq!(board.liberty_count(pt("E5")), 1);
        assert_eq!(
            checked_play(&mut board, Color::Black, pt("F5")),
            Ok(pts("E5"))
        );
        assert_eq!(board.get(pt("E5")), None);
        assert_eq!(board.prisoners(Color::Black), 1);
        assert_eq!(board.prisoners(Color::White), 0);
        assert_eq!(board.move_number(), 7);
        assert_eq!(board.to_move(), Color::White);
    }

    #[test]
    fn a_whole_chain_is_captured() {
        let mut board = setup(9, SIMPLE, "D5 D6 F5 F6 E4", "E5 E6");
        assert_eq!(board.group(pt("E6")), pts("E5 E6"));
        assert_eq!(board.liberty_count(pt("E5")), 1);
        assert_eq!(
            checked_play(&mut board, Color::Black, pt("E7")),
            Ok(pts("E5 E6"))
        );
        assert_eq!(board.prisoners(Color::Black), 2);
        assert_eq!(board.group(pt("E5")), Vec::<Point>::new());
    }

    #[test]
    fn one_stone_can_capture_several_chains() {
        let mut board = setup(9, SIMPLE, "B1 D1 A2 E2 B3 D3 C4", "B2 D2 C3");
        assert_eq!(board.liberty_count(pt("B2")), 1);
        assert_eq!(board.liberty_count(pt("D2")), 1);
        assert_eq!(board.liberty_count(pt("C3")), 1);
        assert_eq!(
            checked_play(&mut board, Color::Black, pt("C2")),
            Ok(pts("B2 C3 D2"))
        );
        assert_eq!(board.prisoners(Color::Black), 3);
        assert_eq!(board.liberty_count(pt("C2")), 4);
        let mut board = setup(9, SIMPLE, "A3 B2 C1", "A2 B1");
        assert_eq!(
            checked_play(&mut board, Color::Black, pt("A1")),
            Ok(pts("A2 B1")),
            "two single stones in the corner"
        );
        assert_eq!(board.liberty_count(pt("A1")), 2);
    }

    #[test]
    fn stones_on_the_edge_and_in_the_corner_are_captured() {
        let mut board = setup(9, SIMPLE, "B1", "A1");
        assert_eq!(
            checked_play(&mut board, Color::Black, pt("A2")),
            Ok(pts("A1"))
        );
        let mut board = setup(9, SIMPLE, "C1 D2 E2", "D1 E1");
        assert_eq!(
            checked_play(&mut board, Color::Black, pt("F1")),
            Ok(pts("D1 E1"))
        );
        assert_eq!(board.liberty_count(pt("F1")), 3);
        let mut board = setup(9, SIMPLE, "H9 J8", "J9 H8");
        board.set_to_move(Color::White);
        assert_eq!(
            checked_play(&mut board, Color::White, pt("G9")),
            Ok(pts("H9"))
        );
        let board = setup(9, SIMPLE, "C1 E1 D2", "D1");
        assert_eq!(
            board.liberty_count(pt("D1")),
            0,
            "setup stones capture nothing"
        );
        let mut board = setup(9, SIMPLE, "C1 D2", "D1");
        assert_eq!(
            checked_play(&mut board, Color::Black, pt("E1")),
            Ok(pts("D1"))
        );
    }

    #[test]
    fn suicide_is_illegal_unless_the_rules_allow_it() {
        for rules in [SIMPLE, POSITIONAL, SITUATIONAL] {
            let mut board = setup(9, rules, "", "A2 B1");
            let before = board.hash();
            assert_eq!(
                checked_play(&mut board, Color::Black, pt("A1")),
                Err(Illegal::Suicide)
            );
            assert_eq!(board.get(pt("A1")), None);
            assert_eq!(board.hash(), before);
            assert_eq!(board.to_move(), Color::Black);
            let mut board = setup(9, rules, "A1 B1", "A3 B2 C1");
            assert_eq!(
                checked_play(&mut board, Color::Black, pt("A2")),
                Err(Illegal::Suicide),
                "filling the last liberty of a chain"
            );
            assert_eq!(board.group(pt("A1")), pts("A1 B1"));
            assert_eq!(board.liberty_count(pt("A1")), 1);
        }

        let mut board = setup(9, SUICIDE_OK, "A1 B1", "A3 B2 C1");
        assert_eq!(
            checked_play(&mut board, Color::Black, pt("A2")),
            Ok(Vec::new())
        );
        assert_eq!(board.get(pt("A1")), None);
        assert_eq!(board.get(pt("B1")), None);
        assert_eq!(board.get(pt("A2")), None);
        assert_eq!(
            board.prisoners(Color::White),
            3,
            "the opponent gets the suicided stones"
        );
        assert_eq!(board.prisoners(Color::Black), 0);
        assert_eq!(board.to_move(), Color::White);
        assert_eq!(board.move_number(), 1);
        assert_eq!(board.liberty_count(pt("B2")), 4);
    }

    #[test]
    fn a_move_without_liberties_that_captures_is_not_suicide() {
        let mut board = setup(9, SIMPLE, "A2 B3 C2", "A3 B1 B2 C3 D2");
        board.set_to_move(Color::White);
        assert_eq!(board.liberty_count(pt("A2")), 1);
        assert_eq!(
            checked_play(&mut board, Color::White, pt("A1")),
            Ok(pts("A2"))
        );
        let mut board = setup(9, SIMPLE, "A2 B1", "A3 B2 C1");
        board.set_to_move(Color::White);
        assert_eq!(
            checked_play(&mut board, Color::White, pt("A1")),
            Ok(pts("A2 B1"))
        );
        assert_eq!(board.liberty_count(pt("A1")), 2);
    }

    #[test]
    fn occupied_off_board_and_wrong_turn_are_reported_in_order() {
        let mut board = Board::new(9, SIMPLE).unwrap();
        play_all(&mut board, &["B E5"]);
        assert_eq!(board.check(Color::White, pt("E5")), Err(Illegal::Occupied));
        assert_eq!(
            board.check(Color::White, Point::new(9, 0)),
            Err(Illegal::OffBoard)
        );
        assert_eq!(
            board.check(Color::White, Point::new(0, 9)),
            Err(Illegal::OffBoard)
        );
        assert_eq!(board.check(Color::Black, pt("A1")), Err(Illegal::WrongTurn));
        assert_eq!(board.check(Color::Black, pt("E5")), Err(Illegal::WrongTurn));
        assert_eq!(
            board.check(Color::Black, Point::new(20, 20)),
            Err(Illegal::WrongTurn)
        );
        assert_eq!(board.play(Color::Black, pt("A1")), Err(Illegal::WrongTurn));
        assert_eq!(board.play(Color::White, pt("E5")), Err(Illegal::Occupied));
        assert_eq!(
            board.play(Color::White, Point::new(9, 9)),
            Err(Illegal::OffBoard)
        );
        assert_eq!(board.pass(Color::Black), Err(Illegal::WrongTurn));
        assert_eq!(board.move_number(), 1);
        assert_eq!(board.pass(Color::White), Ok(()));
        assert_eq!(board.to_move(), Color::Black);
        assert_eq!(board.move_number(), 2);
    }

    #[test]
    fn immediate_ko_recapture_is_illegal_until_a_threat_is_exchanged() {
        for rules in [SIMPLE, POSITIONAL, SITUATIONAL] {
            let mut board = Board::new(9, rules).unwrap();
            play_all(
                &mut board,
                &["B D6", "W E6", "B C5", "W F5", "B D4", "W E4", "B E5"],
            );
            assert_eq!(
                checked_play(&mut board, Color::White, pt("D5")),
                Ok(pts("E5"))
            );
            assert_eq!(
                checked_play(&mut board, Color::Black, pt("E5")),
                Err(Illegal::Ko)
            );
            assert_eq!(
                board.get(pt("D5")),
                Some(Color::White),
                "rejected move left no trace"
            );
            assert_eq!(board.liberty_count(pt("D5")), 1);
            play_all(&mut board, &["B G7", "W G8"]);
            assert_eq!(
                checked_play(&mut board, Color::Black, pt("E5")),
                Ok(pts("D5"))
            );
            assert_eq!(
                checked_play(&mut board, Color::White, pt("D5")),
                Err(Illegal::Ko)
            );
            play_all(&mut board, &["W pass", "B pass"]);
            if rules == SIMPLE {
                assert_eq!(
                    checked_play(&mut board, Color::White, pt("D5")),
                    Ok(pts("E5"))
                );
            } else {
                assert_eq!(
                    checked_play(&mut board, Color::White, pt("D5")),
                    Err(Illegal::Superko),
                    "{rules:?}: recreates the position after W G8 with Black to move"
                );
            }
        }
    }

    #[test]
    fn the_superko_test_vector_of_the_rules_reference() {
        let moves = [
            "B A2", "W B1", "B B2", "W C2", "B B3", "W D1", "B A3", "W A1",
        ];
        let expected = [
            (SIMPLE, Ok(pts("C1"))),
            (POSITIONAL, Err(Illegal::Superko)),
            (SITUATIONAL, Ok(pts("C1"))),
        ];
        for (rules, outcome) in expected {
            let mut board = Board::new(19, rules).unwrap();
            play_all(&mut board, &moves);
            let after_a3 = board.history.positions[7].stones.clone();
            assert_eq!(
                checked_play(&mut board, Color::Black, pt("C1")),
                Ok(pts("A1 B1"))
            );
            assert_eq!(
                checked_play(&mut board, Color::White, pt("B1")),
                outcome,
                "{rules:?}"
            );
            if outcome.is_ok() {
                assert!(board.grid.same_stones(&after_a3));
            }
        }
    }

    #[test]
    fn situational_superko_forbids_a_repeat_with_the_same_player_to_move() {
        let expected = [
            (SIMPLE, Ok(pts("E5"))),
            (POSITIONAL, Err(Illegal::Superko)),
            (SITUATIONAL, Err(Illegal::Superko)),
        ];
        for (rules, outcome) in expected {
            let mut board = setup(9, rules, "D6 C5 D4", "E6 F5 E4 D5");
            assert_eq!(
                checked_play(&mut board, Color::Black, pt("E5")),
                Ok(pts("D5"))
            );
            play_all(&mut board, &["W pass", "B pass"]);
            assert_eq!(
                checked_play(&mut board, Color::White, pt("D5")),
                outcome,
                "{rules:?}: the setup position with Black to move again"
            );
        }
    }

    #[test]
    fn situational_superko_follows_the_player_to_move_set_after_setup() {
        let mut board = setup(9, SITUATIONAL, "D6 C5 D4", "E6 F5 E4 D5");
        board.set_to_move(Color::White);
        assert_eq!(board.history.positions.len(), 1);
        assert_eq!(board.history.positions[0].to_move, Color::White);
        play_all(&mut board, &["W A9", "B E5", "W pass", "B A8", "W pass"]);
        assert_eq!(board.check(Color::Black, pt("A7")), Ok(()));
    }

    #[test]
    fn a_hash_collision_never_makes_a_legal_move_illegal() {
        let mut board = Board::new(9, POSITIONAL).unwrap();
        play_all(&mut board, &["B E5", "W pass", "B pass"]);
        let d5 = board.grid.index(pt("D5"));
        let after = board.hash() ^ key(d5, cell_of(Color::White));
        let impostor = Position {
            hash: after,
            to_move: Color::Black,
            stones: vec![0; 81].into_boxed_slice(),
        };
        board.history.seen.entry(after).or_default().push(0);
        board.history.positions[0] = impostor;
        assert_eq!(board.check(Color::White, pt("D5")), Ok(()));
        let mut real = board.clone();
        let mut stones = board.grid.snapshot();
        stones[pt("D5").index(9)] = cell_of(Color::White);
        real.history.positions[0].stones = stones;
        assert_eq!(real.check(Color::White, pt("D5")), Err(Illegal::Superko));
        assert_eq!(board.play(Color::White, pt("D5")), Ok(Vec::new()));
        assert_eq!(board.hash(), after);
    }

    #[test]
    fn fixed_handicap_follows_the_gtp_patterns() {
        let spelled = |size: u8, stones: u8| -> Vec<String> {
            fixed_handicap(size, stones)
                .unwrap()
                .iter()
                .map(|p| p.to_gtp())
                .collect()
        };
        assert_eq!(spelled(19, 2), ["D4", "Q16"]);
        assert_eq!(spelled(19, 3), ["D4", "Q16", "D16"]);
        assert_eq!(spelled(19, 4), ["D4", "Q16", "D16", "Q4"]);
        assert_eq!(spelled(19, 5), ["D4", "Q16", "D16", "Q4", "K10"]);
        assert_eq!(spelled(19, 6), ["D4", "Q16", "D16", "Q4", "D10", "Q10"]);
        assert_eq!(
            spelled(19, 7),
            ["D4", "Q16", "D16", "Q4", "D10", "Q10", "K10"]
        );
        assert_eq!(
            spelled(19, 8),
            ["D4", "Q16", "D16", "Q4", "D10", "Q10", "K4", "K16"]
        );
        assert_eq!(
            spelled(19, 9),
            ["D4", "Q16", "D16", "Q4", "D10", "Q10", "K4", "K16", "K10"]
        );
        assert_eq!(spelled(9, 2), ["C3", "G7"]);
        assert_eq!(spelled(9, 9).len(), 9);
        assert!(spelled(9, 9).contains(&"E5".to_string()));
        assert_eq!(spelled(13, 5), ["D4", "K10", "D10", "K4", "G7"]);
        assert_eq!(spelled(7, 4), ["C3", "E5", "C5", "E3"]);
        assert_eq!(spelled(8, 4), ["C3", "F6", "C6", "F3"]);
        assert_eq!(spelled(10, 2), ["C3", "H8"]);
        assert_eq!(spelled(25, 9).last().unwrap(), "N13");

        let refused = [
            (19, 0),
            (19, 1),
            (19, 10),
            (9, 10),
            (7, 5),
            (8, 5),
            (18, 5),
            (6, 2),
            (2, 2),
        ];
        for (size, stones) in refused {
            let max = max_fixed_handicap(size);
            assert_eq!(
                fixed_handicap(size, stones),
                Err(BoardError::Handicap { size, stones, max }),
                "{size}x{size} h{stones}"
            );
        }
        assert_eq!(fixed_handicap(26, 2), Err(BoardError::Size(26)));
        assert_eq!(
            BoardError::Handicap {
                size: 8,
                stones: 5,
                max: 4
            }
            .to_string(),
            "a fixed handicap of 5 stones is not defined on a 8x8 board (2 to 4 stones)"
        );
        assert!(BoardError::Handicap {
            size: 5,
            stones: 2,
            max: 0
        }
        .to_string()
        .contains("needs 7x7 or larger"));
    }

    #[test]
    fn setup_stones_form_the_initial_position() {
        let mut board = Board::new(19, POSITIONAL).unwrap();
        let stones = fixed_handicap(19, 4).unwrap();
        assert_eq!(board.place_setup(Color::Black, &stones), Ok(()));
        assert_eq!(
            board.to_move(),
            Color::Black,
            "setup does not change the turn"
        );
        board.set_to_move(Color::White);
        assert_eq!(board.move_number(), 0);
        assert_eq!(board.stones().count(), 4);
        assert!(stones.iter().all(|&p| board.get(p) == Some(Color::Black)));
        assert_eq!(board.history.positions.len(), 1);
        assert!(board.grid.same_stones(&board.history.positions[0].stones));

        let before = board.hash();
        assert_eq!(
            board.place_setup(Color::White, &[pt("A1"), pt("D4")]),
            Err(Illegal::Occupied)
        );
        assert_eq!(
            board.place_setup(Color::White, &[pt("A1"), pt("A1")]),
            Err(Illegal::Occupied)
        );
        assert_eq!(
            board.place_setup(Color::White, &[pt("A1"), Point::new(19, 0)]),
            Err(Illegal::OffBoard)
        );
        assert_eq!(board.hash(), before, "a refused setup places nothing");
        assert_eq!(board.get(pt("A1")), None);
    }

    #[test]
    fn the_diagram_labels_columns_without_i_and_rows_from_the_bottom() {
        let board = setup(9, SIMPLE, "A1 J9", "E5");
        let expected = "   A B C D E F G H J
 9 . . . . . . . . X 9
 8 . . . . . . . . . 8
 7 . . . . . . . . . 7
 6 . . . . . . . . . 6
 5 . . . . O . . . . 5
 4 . . . . . . . . . 4
 3 . . . . . . . . . 3
 2 . . . . . . . . . 2
 1 X . . . . . . . . 1
   A B C D E F G H J
";
        assert_eq!(board.to_string(), expected);
    }

    #[test]
    fn eye_like_points_allow_one_enemy_diagonal_in_the_middle_only() {
        let board = setup(9, SIMPLE, "D5 F5 E4 E6 A2 B1 H9 J8", "D4");
        assert!(board.is_eye_like(Color::Black, pt("E5")));
        assert!(!board.is_eye_like(Color::White, pt("E5")));
        assert!(board.is_eye_like(Color::Black, pt("A1")));
        assert!(board.is_eye_like(Color::Black, pt("J9")));
        assert!(!board.is_eye_like(Color::Black, pt("E4")), "occupied");
        assert!(!board.is_eye_like(Color::Black, pt("C3")));
        let board = setup(9, SIMPLE, "D5 F5 E4 E6", "D4 F6");
        assert!(
            !board.is_eye_like(Color::Black, pt("E5")),
            "two enemy diagonals"
        );
        let board = setup(9, SIMPLE, "A2 B1", "B2");
        assert!(
            !board.is_eye_like(Color::Black, pt("A1")),
            "enemy diagonal in the corner"
        );
        let board = setup(9, SIMPLE, "D1 F1 E2", "D2");
        assert!(
            !board.is_eye_like(Color::Black, pt("E1")),
            "enemy diagonal on the edge"
        );
    }

    #[test]
    fn neighbours_groups_and_liberties() {
        let board = setup(9, SIMPLE, "E5 E6 F6", "D5");
        let n = |v: &str| board.neighbors(pt(v)).collect::<Vec<_>>();
        assert_eq!(n("A1"), [pt("B1"), pt("A2")]);
        assert_eq!(n("E5"), [pt("E4"), pt("D5"), pt("F5"), pt("E6")]);
        assert_eq!(n("J9"), [pt("J8"), pt("H9")]);
        assert_eq!(board.neighbors(Point::new(9, 0)).count(), 0);
        assert_eq!(board.group(pt("E5")), pts("E5 E6 F6"));
        assert_eq!(board.liberty_count(pt("F6")), 6);
        assert_eq!(board.liberty_count(pt("D5")), 3);
        assert_eq!(board.liberty_count(pt("A1")), 0);
        assert_eq!(board.group(Point::new(30, 30)), Vec::<Point>::new());
        assert_eq!(board.get(Point::new(30, 30)), None);
        let stones: Vec<_> = board.stones().collect();
        assert_eq!(
            stones,
            [
                (pt("D5"), Color::White),
                (pt("E5"), Color::Black),
                (pt("E6"), Color::Black),
                (pt("F6"), Color::Black)
            ]
        );
        assert_eq!(board.points().nth(9), Some(pt("A2")));
    }

    #[test]
    fn legal_points_are_the_checked_ones_for_the_side_to_move() {
        let board = setup(3, SIMPLE, "A2 B1", "C2");
        let legal = board.legal_points(Color::Black);
        assert_eq!(legal.len(), 9 - 3);
        assert!(legal.contains(&pt("A1")));
        let mut board = setup(3, SIMPLE, "", "A2 B1");
        assert!(!board.legal_points(Color::Black).contains(&pt("A1")));
        assert!(
            board.legal_points(Color::White).is_empty(),
            "not White's turn"
        );
        board.set_to_move(Color::White);
        assert_eq!(board.legal_points(Color::White).len(), 7);
    }

    #[test]
    fn illegal_reasons_read_and_serialise_plainly() {
        assert_eq!(Illegal::Occupied.to_string(), "the point is occupied");
        assert_eq!(Illegal::Ko.to_string(), "ko: immediate recapture");
        assert_eq!(
            Illegal::Superko.to_string(),
            "superko: repeats an earlier position"
        );
        assert_eq!(Illegal::WrongTurn.to_string(), "not this player's turn");
        assert_eq!(
            serde_json::to_string(&Illegal::WrongTurn).unwrap(),
            "\"wrong_turn\""
        );
        assert_eq!(
            serde_json::to_string(&KoRule::PositionalSuperko).unwrap(),
            "\"positional_superko\""
        );
    }

    /// A deliberately plain model of the rules: whole-board copies, flood
    /// fills, and a linear scan of every earlier position.
    #[derive(Clone)]
    struct Reference {
        size: usize,
        rules: BoardRules,
        cells: Vec<Option<Color>>,
        to_move: Color,
        history: Vec<(Vec<Option<Color>>, Color)>,
    }

    impl Reference {
        fn new(size: u8, rules: BoardRules) -> Reference {
            let cells = vec![None; size as usize * size as usize];
            Reference {
                size: size as usize,
                rules,
                history: vec![(cells.clone(), Color::Black)],
                cells,
                to_move: Color::Black,
            }
        }

        fn adjacent(&self, k: usize) -> Vec<usize> {
            let (col, row) = (k % self.size, k / self.size);
            let mut out = Vec::new();
            if row > 0 {
                out.push(k - self.size);
            }
            if col > 0 {
                out.push(k - 1);
            }
            if col + 1 < self.size {
                out.push(k + 1);
            }
            if row + 1 < self.size {
                out.push(k + self.size);
            }
            out
        }

        fn chain(&self, cells: &[Option<Color>], k: usize) -> (Vec<usize>, bool) {
            let mut chain = vec![k];
            let mut breathes = false;
            let mut at = 0;
            while at < chain.len() {
                for q in self.adjacent(chain[at]) {
                    if cells[q].is_none() {
                        breathes = true;
                    } else if cells[q] == cells[k] && !chain.contains(&q) {
                        chain.push(q);
                    }
                }
                at += 1;
            }
            (chain, breathes)
        }

        fn attempt(&self, c: Color, p: Point) -> Result<(Vec<Option<Color>>, Vec<Point>), Illegal> {
            if c != self.to_move {
                return Err(Illegal::WrongTurn);
            }
            if !p.is_on(self.size as u8) {
                return Err(Illegal::OffBoard);
            }
            let k = p.index(self.size as u8);
            if self.cells[k].is_some() {
                return Err(Illegal::Occupied);
            }
            let mut cells = self.cells.clone();
            cells[k] = Some(c);
            let mut captured = Vec::new();
            for q in self.adjacent(k) {
                if cells[q] == Some(c.opponent()) {
                    let (chain, breathes) = self.chain(&cells, q);
                    if !breathes {
                        for s in chain {
                            cells[s] = None;
                            captured.push(Point::from_index(s, self.size as u8));
                        }
                    }
                }
            }
            let (own, breathes) = self.chain(&cells, k);
            if !breathes {
                if !self.rules.suicide_allowed {
                    return Err(Illegal::Suicide);
                }
                for s in own {
                    cells[s] = None;
                }
            }
            let n = self.history.len();
            if n >= 2 && self.history[n - 2].0 == cells {
                return Err(Illegal::Ko);
            }
            let repeats = self.history.iter().any(|(earlier, to_move)| {
                *earlier == cells
                    && match self.rules.ko {
                        KoRule::Simple => false,
                        KoRule::PositionalSuperko => true,
                        KoRule::SituationalSuperko => *to_move == c.opponent(),
                    }
            });
            if repeats {
                return Err(Illegal::Superko);
            }
            captured.sort();
            Ok((cells, captured))
        }

        fn verdict(&self, c: Color, p: Point) -> Result<(), Illegal> {
            self.attempt(c, p).map(|_| ())
        }

        fn play(&mut self, c: Color, p: Point) -> Result<Vec<Point>, Illegal> {
            let (cells, captured) = self.attempt(c, p)?;
            self.cells = cells;
            self.advance();
            Ok(captured)
        }

        fn advance(&mut self) {
            self.to_move = self.to_move.opponent();
            self.history.push((self.cells.clone(), self.to_move));
        }
    }

    /// The hash from scratch, and chains rebuilt from scratch, must match the
    /// incrementally maintained ones.
    fn assert_consistent(board: &Board) {
        let grid = &board.grid;
        let from_scratch = board
            .stones()
            .fold(0, |h, (p, c)| h ^ key(grid.index(p), cell_of(c)));
        assert_eq!(board.hash(), from_scratch, "incremental hash\n{board}");
        let mut fresh = Grid::new(grid.size);
        fresh.load(&grid.snapshot());
        for (p, _) in board.stones() {
            let i = grid.index(p);
            assert_eq!(grid.chain_of(i), fresh.chain_of(i), "chain at {p}\n{board}");
            for q in grid.neighbours(i) {
                if grid.cells[q] == grid.cells[i] {
                    assert_eq!(grid.head[q], grid.head[i], "split chain at {p}");
                }
            }
        }
    }

    fn liberties_by_flood_fill(board: &Board, p: Point) -> usize {
        let c = board.get(p);
        let mut chain = vec![p];
        let mut liberties = Vec::new();
        let mut at = 0;
        while at < chain.len() {
            for q in board.neighbors(chain[at]) {
                match board.get(q) {
                    None if !liberties.contains(&q) => liberties.push(q),
                    Some(_) if board.get(q) == c && !chain.contains(&q) => chain.push(q),
                    _ => {}
                }
            }
            at += 1;
        }
        liberties.len()
    }

    fn any_rules() -> impl Strategy<Value = BoardRules> {
        (
            prop_oneof![
                Just(KoRule::Simple),
                Just(KoRule::PositionalSuperko),
                Just(KoRule::SituationalSuperko)
            ],
            any::<bool>(),
        )
            .prop_map(|(ko, suicide_allowed)| BoardRules {
                ko,
                suicide_allowed,
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(40))]

        #[test]
        fn random_games_agree_with_the_plain_model_and_stay_consistent(
            size in 2u8..=19,
            rules in any_rules(),
            steps in prop::collection::vec((any::<Index>(), any::<Index>(), 0u8..20), 1..220),
        ) {
            let mut board = Board::new(size, rules).unwrap();
            let mut model = Reference::new(size, rules);
            let area = size as usize * size as usize;
            let mut placed = 0u32;
            let mut recaptures: Vec<Point> = Vec::new();
            for (n, (probe, choice, kind)) in steps.into_iter().enumerate() {
                let c = board.to_move();
                let k = probe.index(area + 4);
                let p = if k < area {
                    Point::from_index(k, size)
                } else {
                    Point::new(size + (k - area) as u8 % 2, (k - area) as u8 / 2)
                };
                for p in std::iter::once(p).chain(recaptures.iter().copied()) {
                    let verdict = board.check(c, p);
                    prop_assert_eq!(verdict, model.verdict(c, p), "check at {}\n{}", p, board);
                    prop_assert_eq!(board.clone().play(c, p), model.clone().play(c, p));
                    prop_assert_eq!(board.check(c.opponent(), p), Err(Illegal::WrongTurn));
                }

                let legal = board.legal_points(c);
                if n % 25 == 0 {
                    let expected: Vec<Point> =
                        board.points().filter(|&q| model.verdict(c, q).is_ok()).collect();
                    prop_assert_eq!(&legal, &expected);
                }
                let sensible: Vec<Point> =
                    legal.iter().copied().filter(|&q| !board.is_eye_like(c, q)).collect();
                let pool = if kind < 4 { &legal } else { &sensible };
                if kind == 0 || pool.is_empty() {
                    prop_assert_eq!(board.pass(c), Ok(()));
                    model.advance();
                    recaptures.clear();
                } else {
                    let q = pool[choice.index(pool.len())];
                    let captured = board.play(c, q);
                    prop_assert!(captured.is_ok(), "legal point {} refused", q);
                    prop_assert_eq!(&captured, &model.play(c, q));
                    recaptures = captured.unwrap_or_default();
                    placed += 1;
                }

                assert_consistent(&board);
                let on_board: Vec<(Point, Color)> = board.stones().collect();
                let modelled: Vec<(Point, Color)> = model.cells.iter().enumerate()
                    .filter_map(|(k, c)| c.map(|c| (Point::from_index(k, size), c)))
                    .collect();
                prop_assert_eq!(&on_board, &modelled);
                for &(p, _) in &on_board {
                    prop_assert!(liberties_by_flood_fill(&board, p) > 0, "chain at {} has no liberty", p);
                    prop_assert_eq!(board.liberty_count(p), liberties_by_flood_fill(&board, p));
                }
                prop_assert_eq!(
                    placed,
                    on_board.len() as u32 + board.prisoners(Color::Black) + board.prisoners(Color::White)
                );
                let count = score(&board, &Default::default(), Scoring::Area, 0.0);
                prop_assert!(count.black + count.white <= area as f64);
            }
        }
    }
}
