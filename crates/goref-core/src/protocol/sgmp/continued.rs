//! A game a line program goes on with after its referee was restarted: the
//! moves it has seen and its link's sequence bits, as `goref resume` hands
//! them to the built-in engine (`goref bot --moves B:D4,W:PASS
//! --link-bits 1,0`).

use crate::game::{Color, Move};

use super::link::LinkState;

/// A game the engine goes on with: the moves it has seen, and its link as
/// it stood.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Continued {
    pub moves: Vec<(Color, Move)>,
    pub link: LinkState,
}

impl Continued {
    /// `--moves B:D4,W:PASS` and `--link-bits 1,0` (its own bit first).
    pub fn parse(moves: &str, bits: &str, size: u8) -> Result<Continued, String> {
        let moves = moves
            .split(',')
            .filter(|m| !m.trim().is_empty())
            .map(|text| {
                let (color, vertex) = text
                    .trim()
                    .split_once(':')
                    .ok_or_else(|| format!("--moves: '{text}' is not COLOR:VERTEX, e.g. B:D4"))?;
                let color = match color {
                    "B" | "b" => Color::Black,
                    "W" | "w" => Color::White,
                    other => return Err(format!("--moves: '{other}' is not B or W")),
                };
                let mv = Move::parse_gtp(vertex, size).map_err(|e| format!("--moves: {e}"))?;
                Ok((color, mv))
            })
            .collect::<Result<Vec<_>, String>>()?;
        let bit = |text: &str| match text.trim() {
            "0" => Ok(false),
            "1" => Ok(true),
            other => Err(format!("--link-bits: '{other}' is not 0 or 1")),
        };
        let (mine, his) = bits
            .split_once(',')
            .ok_or_else(|| format!("--link-bits: '{bits}' is not MY,HIS, e.g. 1,0"))?;
        let link = LinkState {
            my_seq: bit(mine)?,
            his_seq: bit(his)?,
            outstanding: None,
        };
        Ok(Continued { moves, link })
    }

    /// The flags that give it to `goref bot`.
    pub fn args(&self) -> [String; 4] {
        let moves: Vec<String> = self
            .moves
            .iter()
            .map(|(color, mv)| format!("{}:{mv}", color.letter()))
            .collect();
        let bit = |b: bool| if b { "1" } else { "0" };
        [
            "--moves".into(),
            moves.join(","),
            "--link-bits".into(),
            format!("{},{}", bit(self.link.my_seq), bit(self.link.his_seq)),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_continued_game_reads_back_the_flags_it_gives() {
        let continued = Continued::parse("B:E5,W:pass, B:C3", "1,0", 9).unwrap();
        assert_eq!(continued.moves.len(), 3);
        assert_eq!(continued.moves[1], (Color::White, Move::Pass));
        assert!(continued.link.my_seq && !continued.link.his_seq);
        let args = continued.args();
        assert_eq!(Continued::parse(&args[1], &args[3], 9).unwrap(), continued);
        for (moves, bits) in [
            ("E5", "1,0"),
            ("X:E5", "1,0"),
            ("B:Z9", "1,0"),
            ("", "2,0"),
            ("", "1"),
        ] {
            assert!(Continued::parse(moves, bits, 9).is_err(), "{moves} {bits}");
        }
    }
}
