//! The built-in engine: fast, legal, deterministic play and a simple
//! Monte-Carlo judgement of which stones are dead.
//!
//! It plays a random legal move that neither fills one of its own eyes nor
//! puts one of its own chains of two or more stones into atari, preferring
//! captures. It never makes a move that repeats an earlier position, so its
//! moves are legal under every rules preset. It accepts any move it is told
//! of that is legal under simple ko, the most permissive preset.

use std::collections::{BTreeSet, HashSet};

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use crate::game::board::{Board, BoardError, BoardRules, Illegal, KoRule};
use crate::game::{Color, Move, Point};

/// Random games played out to judge which stones are dead.
const OWNERSHIP_PLAYOUTS: usize = 48;

#[derive(Clone)]
pub struct Engine {
    board: Board,
    seen: HashSet<u64>,
    rng: StdRng,
    seed: u64,
    pub komi: f64,
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
        })
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Starts over on an empty board of `size`, with the same seed.
    pub fn reset(&mut self, size: u8) -> Result<(), BoardError> {
        let komi = self.komi;
        *self = Engine::new(size, self.seed)?;
        self.komi = komi;
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
        let mv = match choose(&self.board, color, &self.seen, &mut self.rng) {
            Some(point) => Move::Play(point),
            None => Move::Pass,
        };
        self.play(color, mv)
            .expect("the chosen move was checked against the board");
        mv
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
