//! Games between two built-in engines in one process, with a board of its
//! own as referee: how a playout budget is shown to beat the random policy
//! (`tests/it/engine_strength.rs`, `examples/engine_match.rs`).

use std::collections::BTreeSet;

use goref_core::game::board::{Board, BoardRules, KoRule};
use goref_core::game::score::{score, Score, Scoring};
use goref_core::game::{Color, Move, Point};

use super::Engine;

/// One finished game.
#[derive(Debug, Clone)]
pub struct Played {
    pub moves: Vec<(Color, Move)>,
    /// The area count with komi, with the stones both engines judge dead removed.
    pub score: Score,
    /// Whether it ended in two passes (rather than at the move cap).
    pub finished: bool,
}

impl Played {
    /// The winner by the count; `None` for a draw.
    pub fn winner(&self) -> Option<Color> {
        let margin = self.score.margin();
        (margin != 0.0).then_some(if margin > 0.0 {
            Color::Black
        } else {
            Color::White
        })
    }
}

/// Plays `black` against `white` on an empty board until two passes in a
/// row (or four moves per point), each engine told the other's moves, and
/// counts the result by area with `komi`. Every move is checked under
/// positional superko; an illegal one panics.
pub fn play_game(black: &mut Engine, white: &mut Engine, size: u8, komi: f64) -> Played {
    let rules = BoardRules {
        ko: KoRule::PositionalSuperko,
        suicide_allowed: false,
    };
    let mut board = Board::new(size, rules).expect("a size the engines accepted");
    black.komi = komi;
    white.komi = komi;
    let cap = 4 * size as usize * size as usize;
    let mut moves = Vec::new();
    let mut passes = 0;
    let mut color = Color::Black;
    while passes < 2 && moves.len() < cap {
        let (mover, other) = match color {
            Color::Black => (&mut *black, &mut *white),
            Color::White => (&mut *white, &mut *black),
        };
        let mv = mover.genmove(color);
        match mv {
            Move::Play(point) => {
                board
                    .play(color, point)
                    .unwrap_or_else(|e| panic!("{color} {mv} is illegal: {e}"));
                passes = 0;
            }
            Move::Pass | Move::Resign => {
                board.pass(color).expect("in turn");
                passes += 1;
            }
        }
        other
            .play(color, mv)
            .unwrap_or_else(|e| panic!("{color} {mv} is refused: {e}"));
        moves.push((color, mv));
        color = color.opponent();
    }
    let by_black: BTreeSet<Point> = black.dead_stones().into_iter().collect();
    let dead: BTreeSet<Point> = white
        .dead_stones()
        .into_iter()
        .filter(|p| by_black.contains(p))
        .collect();
    Played {
        moves,
        score: score(&board, &dead, Scoring::Area, komi),
        finished: passes == 2,
    }
}
