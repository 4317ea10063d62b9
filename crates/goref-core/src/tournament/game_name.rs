//! The name an event gives each of its games, `round 2 board 1: alpha (B)
//! - beta (W)`: the record's game name and what a seat is told of its
//! game. The CGOS door reads it back for its `setup`.

use std::fmt;

/// One game of an event: its round, its board and its sides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameName {
    pub round: u32,
    pub board: u32,
    pub black: String,
    pub white: String,
}

impl fmt::Display for GameName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "round {} board {}: {} (B) - {} (W)",
            self.round, self.board, self.black, self.white
        )
    }
}

impl GameName {
    /// The name as [`GameName`]'s `Display` writes it; `None` for any
    /// other text.
    pub fn parse(text: &str) -> Option<GameName> {
        let rest = text.strip_prefix("round ")?;
        let (round, rest) = rest.split_once(" board ")?;
        let (board, sides) = rest.split_once(": ")?;
        let sides = sides.strip_suffix(" (W)")?;
        let (black, white) = sides.split_once(" (B) - ")?;
        Some(GameName {
            round: round.parse().ok()?,
            board: board.parse().ok()?,
            black: black.to_string(),
            white: white.to_string(),
        })
    }

    /// A number for the game, unique in its event: the round's thousands
    /// and the board.
    pub fn number(&self) -> u64 {
        u64::from(self.round) * 1000 + u64::from(self.board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_name_reads_back_as_written_and_numbers_its_game() {
        let name = GameName {
            round: 12,
            board: 3,
            black: "alpha".into(),
            white: "beta-2".into(),
        };
        let text = name.to_string();
        assert_eq!(text, "round 12 board 3: alpha (B) - beta-2 (W)");
        assert_eq!(GameName::parse(&text), Some(name.clone()));
        assert_eq!(name.number(), 12_003);
        for other in ["Black against beta", "round x board 1: a (B) - b (W)", ""] {
            assert_eq!(GameName::parse(other), None, "{other}");
        }
    }
}
