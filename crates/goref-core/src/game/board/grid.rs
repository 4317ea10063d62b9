//! The board's stones as the rules engine keeps them: a flat array with a
//! one-point border, each chain with its pseudo-liberties, Zobrist keys for
//! the position's hash, and the [`Outcome`] a move would have, worked out
//! without touching the board.

use crate::game::coord::{Color, Point, MAX_SIZE};

pub(super) const EMPTY: u8 = 0;
pub(super) const BORDER: u8 = 3;

pub(super) fn cell_of(color: Color) -> u8 {
    1 + color.index() as u8
}

pub(super) fn color_of(cell: u8) -> Option<Color> {
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

pub(super) fn key(i: usize, cell: u8) -> u64 {
    ZOBRIST[i][cell as usize - 1]
}

/// Pseudo-liberties of a chain: one entry per (stone, empty neighbour) pair.
/// The chain has no liberty iff `libs == 0`, and exactly one distinct liberty
/// iff all entries are the same point, i.e. `libs * sum_sq == sum^2`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Chain {
    pub(super) size: u16,
    pub(super) libs: u16,
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

    pub(super) fn in_atari(&self) -> bool {
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
pub(super) struct Grid {
    pub(super) size: usize,
    pub(super) stride: usize,
    pub(super) cells: Vec<u8>,
    pub(super) head: Vec<u16>,
    next: Vec<u16>,
    pub(super) chains: Vec<Chain>,
    pub(super) hash: u64,
}

impl Grid {
    pub(super) fn new(size: usize) -> Grid {
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

    pub(super) fn index(&self, p: Point) -> usize {
        (p.row as usize + 1) * self.stride + p.col as usize + 1
    }

    pub(super) fn point(&self, i: usize) -> Point {
        Point::new((i % self.stride - 1) as u8, (i / self.stride - 1) as u8)
    }

    pub(super) fn neighbours(&self, i: usize) -> [usize; 4] {
        [i - self.stride, i - 1, i + 1, i + self.stride]
    }

    pub(super) fn chain_of(&self, i: usize) -> &Chain {
        &self.chains[self.head[i] as usize]
    }

    /// The stones of the chain whose head is `h`.
    pub(super) fn stones_of(&self, h: usize) -> ChainStones<'_> {
        ChainStones {
            next: &self.next,
            start: h,
            at: Some(h),
        }
    }

    /// Places a stone of `color` on the empty point `i`, merges it with its
    /// friends and removes opponent chains left without liberties. Returns
    /// the padded indices of the captured stones. Suicide is left to the caller.
    pub(super) fn place(&mut self, i: usize, color: Color) -> Vec<usize> {
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
    pub(super) fn remove_chain(&mut self, h: usize, out: &mut Vec<usize>) {
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
    pub(super) fn snapshot(&self) -> Box<[u8]> {
        let mut out = Vec::with_capacity(self.size * self.size);
        for row in 0..self.size {
            let start = (row + 1) * self.stride + 1;
            out.extend_from_slice(&self.cells[start..start + self.size]);
        }
        out.into_boxed_slice()
    }

    pub(super) fn same_stones(&self, snapshot: &[u8]) -> bool {
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
    pub(super) fn load(&mut self, snapshot: &[u8]) {
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

pub(super) struct ChainStones<'a> {
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
pub(super) struct Outcome {
    pub(super) point: usize,
    pub(super) cell: u8,
    /// Heads of the chains the move removes: captured opponents, or for an
    /// allowed suicide the mover's own chains (and then no stone is placed).
    pub(super) removed: [u16; 4],
    pub(super) n_removed: usize,
    pub(super) suicide: bool,
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

    pub(super) fn hash_after(&self, grid: &Grid) -> u64 {
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

    pub(super) fn matches(&self, grid: &Grid, snapshot: &[u8]) -> bool {
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
