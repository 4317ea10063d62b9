//! The built-in engine: fast, legal, deterministic play and a simple
//! Monte-Carlo judgement of which stones are dead.
//!
//! With no playouts (the default) it plays a random legal move that neither
//! fills one of its own eyes nor puts one of its own chains of two or more
//! stones into atari, preferring captures. With a budget of playouts per
//! move ([`Engine::playouts`]) it is a flat Monte-Carlo player: the same
//! policy names the candidate moves, the playouts are shared among them in
//! turn, each plays light random moves to the end and is scored by area with
//! komi, and the candidate with the best average wins. Both modes are
//! deterministic for a seed: nothing depends on the clock.
//!
//! It never makes a move that repeats an earlier position, so its moves are
//! legal under every rules preset. It accepts any move it is told of that is
//! legal under simple ko, the most permissive preset.

use std::collections::{BTreeSet, HashSet};

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use goref_core::game::board::{Board, BoardError, BoardRules, Illegal, KoRule};
use goref_core::game::score::{score, Scoring};
use goref_core::game::{Color, Move, Point};

/// How much a playout's area margin counts beside its win, per point of
/// margin per point of the board: a whole board's margin is worth half a win.
const MARGIN_WEIGHT: f64 = 0.5;

/// Random games played out to judge which stones are dead.
const OWNERSHIP_PLAYOUTS: usize = 48;

#[derive(Clone)]
pub struct Engine {
    board: Board,
    seen: HashSet<u64>,
    rng: StdRng,
    seed: u64,
    pub komi: f64,
    /// Random playouts spent on each move; 0 plays the random policy alone.
    pub playouts: u32,
}

/// The board the engine keeps: simple ko, so it accepts every move a referee
/// might allow; its own moves also avoid every earlier position.
fn permissive(size: u8) -> Result<Board, BoardError> {
    Board::new(
        size,
        BoardRules {
            ko: KoRule::Simple,
            suicide_allowed: false,
        },
    )
}

impl Engine {
    pub fn new(size: u8, seed: u64) -> Result<Engine, BoardError> {
        let board = permissive(size)?;
        let seen = HashSet::from([board.hash()]);
        Ok(Engine {
            board,
            seen,
            rng: StdRng::seed_from_u64(seed),
            seed,
            komi: 7.5,
            playouts: 0,
        })
    }

    /// The same engine spending `playouts` random playouts on each move.
    pub fn with_playouts(mut self, playouts: u32) -> Engine {
        self.playouts = playouts;
        self
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Starts over on an empty board of `size`, with the same seed, komi
    /// and playouts.
    pub(crate) fn reset(&mut self, size: u8) -> Result<(), BoardError> {
        let (komi, playouts) = (self.komi, self.playouts);
        *self = Engine::new(size, self.seed)?;
        self.komi = komi;
        self.playouts = playouts;
        Ok(())
    }

    /// Records a move made by either side.
    pub fn play(&mut self, color: Color, mv: Move) -> Result<(), Illegal> {
        self.board.set_to_move(color);
        match mv {
            Move::Play(point) => {
                self.board.play(color, point)?;
            }
            Move::Pass | Move::Resign => self.board.pass(color)?,
        }
        self.seen.insert(self.board.hash());
        Ok(())
    }

    /// Puts setup stones (handicap) on the board.
    pub fn place(&mut self, color: Color, stones: &[Point]) -> Result<(), Illegal> {
        self.board.place_setup(color, stones)?;
        self.seen.insert(self.board.hash());
        Ok(())
    }

    /// Chooses a move for `color` and plays it on the engine's own board.
    pub fn genmove(&mut self, color: Color) -> Move {
        self.board.set_to_move(color);
        let point = if self.playouts == 0 {
            choose(&self.board, color, &self.seen, &mut self.rng)
        } else {
            self.search(color)
        };
        let mv = match point {
            Some(point) => Move::Play(point),
            None => Move::Pass,
        };
        self.play(color, mv)
            .expect("the chosen move was checked against the board");
        mv
    }

    /// The Monte-Carlo choice for `color`, or `None` to pass.
    ///
    /// The candidates are the moves the random policy allows (legal, no own
    /// eye filled, no repeated position, no self-atari of a chain unless it
    /// captures); only when there are none do self-ataris count, and only
    /// when there are none of those either does it pass. So, like the random
    /// policy, it plays a game out until no dead stones are left: a referee
    /// then needs no dead-stone claims, which a program on a line cannot make.
    ///
    /// The playouts go to the candidates in turn (in random order, so with
    /// fewer playouts than candidates a random subset is tried). Each result
    /// is a win (1), draw (½) or loss (0) for the mover plus half its area
    /// margin as a share of the board ([`MARGIN_WEIGHT`]). Winning is what
    /// counts, but a budget of a few playouts per candidate gives a noisy
    /// win rate, which is also flat once a game is decided either way; the
    /// margin is a finer signal that keeps such a game played purposefully
    /// (taking and saving stones) rather than at random.
    fn search(&mut self, color: Color) -> Option<Point> {
        let (mut sensible, mut self_ataris) = (Vec::new(), Vec::new());
        let here = light_copy(&self.board);
        for point in shuffled_candidates(&self.board, color, &mut self.rng) {
            let mut after = here.clone();
            let Ok(captured) = after.play(color, point) else {
                continue;
            };
            if self.seen.contains(&after.hash()) {
                continue;
            }
            let self_atari = captured.is_empty()
                && after.liberty_count(point) == 1
                && after.group(point).len() >= 2;
            if self_atari {
                self_ataris.push((point, after));
            } else {
                sensible.push((point, after));
            }
        }
        let candidates = if sensible.is_empty() {
            self_ataris
        } else {
            sensible
        };
        if candidates.len() <= 1 {
            return candidates.first().map(|(point, _)| *point);
        }
        let area = self.board.size() as f64 * self.board.size() as f64;
        let mut totals = vec![(0.0f64, 0u32); candidates.len()];
        let none = BTreeSet::new();
        for n in 0..self.playouts as usize {
            let k = n % candidates.len();
            let end = playout(&candidates[k].1, &mut self.rng);
            let count = score(&end, &none, Scoring::Area, self.komi);
            let margin = match color {
                Color::Black => count.margin(),
                Color::White => -count.margin(),
            };
            let win = if margin > 0.0 {
                1.0
            } else if margin < 0.0 {
                0.0
            } else {
                0.5
            };
            totals[k].0 += win + MARGIN_WEIGHT * margin / area;
            totals[k].1 += 1;
        }
        let mut best: Option<(f64, Point)> = None;
        for ((point, _), &(sum, tries)) in candidates.iter().zip(&totals) {
            if tries == 0 {
                continue;
            }
            let mean = sum / f64::from(tries);
            if best.is_none_or(|(value, _)| mean > value) {
                best = Some((mean, *point));
            }
        }
        best.map(|(_, point)| point)
            .or_else(|| candidates.first().map(|(point, _)| *point))
    }

    /// The stones it judges dead: those that end up in the opponent's area in
    /// most random playouts from here.
    pub fn dead_stones(&self) -> Vec<Point> {
        let size = self.board.size();
        let points = size as usize * size as usize;
        let mut owned_by_black = vec![0usize; points];
        let mut rng = StdRng::seed_from_u64(self.seed ^ self.board.hash());
        for _ in 0..OWNERSHIP_PLAYOUTS {
            let end = playout(&self.board, &mut rng);
            for (index, owner) in ownership(&end).into_iter().enumerate() {
                if owner == Some(Color::Black) {
                    owned_by_black[index] += 1;
                }
            }
        }
        let mut dead = BTreeSet::new();
        for (point, color) in self.board.stones() {
            let black_share = owned_by_black[point.index(size)] as f64 / OWNERSHIP_PLAYOUTS as f64;
            let own_share = match color {
                Color::Black => black_share,
                Color::White => 1.0 - black_share,
            };
            if own_share < 0.5 {
                dead.insert(point);
            }
        }
        dead.into_iter().collect()
    }
}

/// The legal points for `color` that do not fill one of its own eyes, in
/// random order.
fn shuffled_candidates(board: &Board, color: Color, rng: &mut impl Rng) -> Vec<Point> {
    let mut candidates: Vec<Point> = board
        .legal_points(color)
        .into_iter()
        .filter(|&p| !board.is_eye_like(color, p))
        .collect();
    candidates.shuffle(rng);
    candidates
}

/// A random good move for `color`, or `None` to pass.
fn choose(board: &Board, color: Color, seen: &HashSet<u64>, rng: &mut impl Rng) -> Option<Point> {
    let mut fallback = None;
    for point in shuffled_candidates(board, color, rng) {
        let mut after = board.clone();
        let Ok(captured) = after.play(color, point) else {
            continue;
        };
        if seen.contains(&after.hash()) {
            continue;
        }
        if !captured.is_empty() {
            return Some(point);
        }
        let self_atari = after.liberty_count(point) == 1 && after.group(point).len() >= 2;
        if !self_atari {
            return Some(point);
        }
        fallback.get_or_insert(point);
    }
    fallback
}

/// The same stones and side to move with no history, cheap to clone for
/// playouts; the engine checks its own moves against the whole game itself.
fn light_copy(board: &Board) -> Board {
    let mut copy = Board::new(board.size(), board.rules()).expect("the size was accepted");
    for color in [Color::Black, Color::White] {
        let stones: Vec<Point> = board
            .stones()
            .filter(|&(_, c)| c == color)
            .map(|(p, _)| p)
            .collect();
        copy.place_setup(color, &stones)
            .expect("the stones come from a board");
    }
    copy.set_to_move(board.to_move());
    copy
}

/// Plays random non-eye-filling moves from `board` until both sides pass.
fn playout(board: &Board, rng: &mut impl Rng) -> Board {
    let mut board = board.clone();
    let size = board.size() as usize;
    let limit = size * size * 3;
    let mut passes = 0;
    for _ in 0..limit {
        let color = board.to_move();
        let played = shuffled_candidates(&board, color, rng)
            .into_iter()
            .any(|point| board.play(color, point).is_ok());
        if played {
            passes = 0;
        } else {
            let _ = board.pass(color);
            passes += 1;
            if passes == 2 {
                break;
            }
        }
    }
    board
}

/// Who owns each point at the end of a playout: its stone's colour, or for
/// an empty point the one colour around it.
fn ownership(board: &Board) -> Vec<Option<Color>> {
    board
        .points()
        .map(|point| {
            board.get(point).or_else(|| {
                let mut around = board.neighbors(point).filter_map(|n| board.get(n));
                let first = around.next()?;
                around.all(|c| c == first).then_some(first)
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play_out(engine: &mut Engine, limit: usize) -> Vec<Move> {
        let mut moves = Vec::new();
        let mut color = Color::Black;
        while moves.len() < limit {
            let mv = engine.genmove(color);
            moves.push(mv);
            let n = moves.len();
            if n >= 2 && moves[n - 1] == Move::Pass && moves[n - 2] == Move::Pass {
                break;
            }
            color = color.opponent();
        }
        moves
    }

    #[test]
    fn the_same_seed_plays_the_same_game_and_another_seed_another() {
        let game = |seed| play_out(&mut Engine::new(9, seed).unwrap(), 400);
        assert_eq!(game(5), game(5));
        assert_ne!(game(5), game(6));
    }

    #[test]
    fn monte_carlo_play_is_the_same_for_the_same_seed_and_playouts() {
        let game = |seed, playouts| {
            let mut engine = Engine::new(7, seed).unwrap().with_playouts(playouts);
            play_out(&mut engine, 30)
        };
        assert_eq!(game(5, 16), game(5, 16));
        assert_ne!(game(5, 16), game(6, 16));
        assert_ne!(game(5, 16), game(5, 0));
    }

    #[test]
    fn a_game_against_itself_ends_in_two_passes_with_no_eye_filled() {
        let mut engine = Engine::new(9, 3).unwrap();
        let moves = play_out(&mut engine, 1000);
        assert_eq!(moves[moves.len() - 2..], [Move::Pass, Move::Pass]);
        let board = engine.board();
        for point in board.points() {
            if board.get(point).is_none() {
                let around: HashSet<_> = board.neighbors(point).map(|n| board.get(n)).collect();
                assert!(
                    !around.contains(&None) || around.len() > 1,
                    "{point} is open"
                );
            }
        }
    }

    #[test]
    fn it_never_repeats_a_position() {
        let mut engine = Engine::new(5, 11).unwrap();
        let mut positions = HashSet::from([engine.board().hash()]);
        let mut color = Color::Black;
        for _ in 0..300 {
            let mv = engine.genmove(color);
            if let Move::Play(_) = mv {
                assert!(positions.insert(engine.board().hash()), "{mv} repeats");
            }
            color = color.opponent();
        }
    }

    #[test]
    fn a_lone_stone_inside_the_opponents_area_is_dead_and_the_walls_live() {
        let points = |vertices: &str| -> Vec<Point> {
            vertices
                .split_whitespace()
                .map(|v| Point::parse_gtp(v, 5).unwrap())
                .collect()
        };
        let mut engine = Engine::new(5, 1).unwrap();
        engine
            .place(Color::Black, &points("B1 B2 B3 B4 B5 E3"))
            .unwrap();
        engine
            .place(Color::White, &points("C1 C2 C3 C4 C5"))
            .unwrap();
        assert_eq!(engine.dead_stones(), points("E3"));
    }
}
