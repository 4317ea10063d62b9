//! What a game is set up with: the board size, the rules, the handicap, the
//! opening its first moves are, and why a setup can fail.

use crate::game::board::{fixed_handicap, BoardError, Illegal};
use crate::game::rules::Rules;
use crate::game::Point;

/// Where the handicap stones go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Handicap {
    None,
    /// The standard star points for N stones.
    Fixed(u8),
    /// Stones at the points the operator named.
    Free(Vec<Point>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct GameConfig {
    pub size: u8,
    pub rules: Rules,
    pub handicap: Handicap,
    /// The game's first moves, played for the players, in turn from the
    /// side first to move (a match's opening): each a stone, none a pass.
    pub opening: Vec<Point>,
}

impl GameConfig {
    /// The handicap stones, checked against the board size.
    pub fn handicap_stones(&self) -> Result<Vec<Point>, BoardError> {
        match &self.handicap {
            Handicap::None => Ok(Vec::new()),
            Handicap::Fixed(n) => fixed_handicap(self.size, *n),
            Handicap::Free(points) => Ok(points.clone()),
        }
    }
}

/// Why a game cannot be set up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error(transparent)]
    Board(#[from] BoardError),
    #[error("the handicap stones cannot be placed: {0}")]
    Handicap(Illegal),
    #[error("the journal's moves do not replay: {0}")]
    Journal(String),
    #[error("the opening's move {n} ({vertex}) cannot be played: {why}")]
    Opening {
        n: usize,
        vertex: String,
        why: Illegal,
    },
}
