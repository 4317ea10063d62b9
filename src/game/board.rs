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
    pub(crate) fn place_setup(&mut self, color: Color, stones: &[Point]) -> Result<(), Illegal> {
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
    pub(crate) fn liberty_count(&self, p: Point) -> usize {
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
    pub(crate) fn hash(&self) -> u64 {
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

/// Who moves first in a game with these handicap stones on the board:
/// White once there are any, else Black.
pub fn first_to_move(handicap: &[Point]) -> Color {
    match handicap.is_empty() {
        true => Color::Black,
        false => Color::White,
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
pub(crate) fn fixed_handicap(size: u8, stones: u8) -> Result<Vec<Point>, BoardError> {
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
mod tests;
