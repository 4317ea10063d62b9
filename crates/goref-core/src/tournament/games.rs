//! The games of an event as a plain list: who played whom in which round,
//! with which colours, and how it ended, read from the CSV `goref standings
//! --games` takes (`round,black,white,result`).
//!
//! Results are written as SGF writes them: `B+R`, `W+3.5`, `B+T`, `W+F`,
//! `B+` (a win with no margin given), `0` or `Draw` for jigo, `Void` for a
//! game that does not count. `BYE` as the white player makes a bye for the
//! black one.

use crate::game::Color;

/// How a game ended, from the first-named player's point of view.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// One side won; `how` is the SGF text after `+` (`R`, `T`, `F`, a
    /// margin, or empty).
    Win {
        winner: Color,
        how: String,
    },
    Jigo,
    /// Played or not, the game does not count: no score, no opponent.
    Void,
}

/// One line of the list: a game, or a bye.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Game {
    Played {
        round: u32,
        black: String,
        white: String,
        outcome: Outcome,
    },
    Bye {
        round: u32,
        taker: String,
    },
}

impl Game {
    pub fn round(&self) -> u32 {
        match self {
            Game::Played { round, .. } | Game::Bye { round, .. } => *round,
        }
    }
}

/// The longest list of games read: a million games is well under it, and
/// a device or a wrong file is refused rather than read without end.
pub const MAX_GAMES_FILE: u64 = 64 << 20;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {why}")]
pub struct GamesError {
    pub line: usize,
    pub why: String,
}

/// Reads the SGF result text of a game.
pub fn parse_outcome(text: &str) -> Result<Outcome, String> {
    let text = text.trim();
    match text.to_ascii_lowercase().as_str() {
        "0" | "draw" | "jigo" => return Ok(Outcome::Jigo),
        "void" => return Ok(Outcome::Void),
        _ => {}
    }
    let winner = match text.get(..2) {
        Some("B+") | Some("b+") => Color::Black,
        Some("W+") | Some("w+") => Color::White,
        _ => {
            return Err(format!(
                "'{text}' is not a result: write B+R, W+3.5, B+T, W+F, B+, 0 (jigo) or Void"
            ))
        }
    };
    let how = text[2..].trim().to_string();
    let known = matches!(
        how.as_str(),
        "" | "R" | "T" | "F" | "Resign" | "Time" | "Forfeit"
    ) || how.parse::<f64>().is_ok_and(|m| m.is_finite() && m > 0.0);
    if !known {
        return Err(format!(
            "'{text}': after '+' comes R, T, F, a margin such as 3.5, or nothing"
        ));
    }
    let how = match how.as_str() {
        "Resign" => "R".to_string(),
        "Time" => "T".to_string(),
        "Forfeit" => "F".to_string(),
        _ => how,
    };
    Ok(Outcome::Win { winner, how })
}

/// Reads the CSV list of games. A first line that starts with `round` is a
/// header; blank lines and lines starting with `#` are skipped. An entrant
/// with two games (or a game and the bye) in one round is refused at the
/// second, naming the first.
pub fn parse_games(text: &str) -> Result<Vec<Game>, GamesError> {
    let mut games = Vec::new();
    let mut seen: std::collections::HashMap<(u32, String), (usize, String)> =
        std::collections::HashMap::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = trimmed.split(',').map(str::trim).collect();
        if index == 0 && fields[0].eq_ignore_ascii_case("round") {
            continue;
        }
        let error = |why: String| GamesError { line, why };
        let [round, black, white, result] = fields[..] else {
            return Err(error(format!(
                "{} fields where round,black,white,result takes 4",
                fields.len()
            )));
        };
        let round: u32 = round
            .parse()
            .ok()
            .filter(|r| *r > 0)
            .ok_or_else(|| error(format!("round '{round}' is not a number from 1")))?;
        if black.is_empty() || white.is_empty() {
            return Err(error("a player's name is empty".into()));
        }
        let is_bye = white.eq_ignore_ascii_case("bye");
        let what = match is_bye {
            true => "the bye".to_string(),
            false => format!("{black} - {white}"),
        };
        for name in std::iter::once(black).chain((!is_bye).then_some(white)) {
            if let Some((first, game)) = seen.get(&(round, name.to_string())) {
                return Err(error(format!(
                    "{name} already has a game in round {round}: {game}, on line {first}"
                )));
            }
        }
        for name in std::iter::once(black).chain((!is_bye).then_some(white)) {
            seen.insert((round, name.to_string()), (line, what.clone()));
        }
        if is_bye {
            games.push(Game::Bye {
                round,
                taker: black.to_string(),
            });
            continue;
        }
        if black == white {
            return Err(error(format!("{black} cannot play itself")));
        }
        let outcome = parse_outcome(result).map_err(error)?;
        games.push(Game::Played {
            round,
            black: black.to_string(),
            white: white.to_string(),
            outcome,
        });
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_read_as_sgf_writes_them() {
        let win = |winner, how: &str| {
            Ok(Outcome::Win {
                winner,
                how: how.into(),
            })
        };
        assert_eq!(parse_outcome("B+R"), win(Color::Black, "R"));
        assert_eq!(parse_outcome("W+3.5"), win(Color::White, "3.5"));
        assert_eq!(parse_outcome("w+Time"), win(Color::White, "T"));
        assert_eq!(parse_outcome("B+"), win(Color::Black, ""));
        assert_eq!(parse_outcome("0"), Ok(Outcome::Jigo));
        assert_eq!(parse_outcome("Draw"), Ok(Outcome::Jigo));
        assert_eq!(parse_outcome("Void"), Ok(Outcome::Void));
        for bad in ["?", "B+X", "W+-2", "W+inf", "", "black"] {
            assert!(parse_outcome(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_list_names_its_bad_line() {
        let games =
            parse_games("round,black,white,result\n1,a,b,B+R\n\n# note\n1,c,BYE,\n").unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(
            games[1],
            Game::Bye {
                round: 1,
                taker: "c".into()
            }
        );
        let error = parse_games("1,a,b,B+R\n2,a,b\n").unwrap_err();
        assert_eq!(error.line, 2);
        assert!(parse_games("0,a,b,B+R").unwrap_err().why.contains("round"));
        let twice = parse_games("1,a,b,B+R\n1,c,d,W+R\n1,d,b,B+R\n").unwrap_err();
        assert_eq!(twice.line, 3);
        assert_eq!(
            twice.why,
            "d already has a game in round 1: c - d, on line 2"
        );
        let bye = parse_games("1,a,BYE,\n1,b,a,W+R\n").unwrap_err();
        assert!(bye.why.contains("a already has a game in round 1: the bye"));
        assert!(parse_games("1,a,b,B+R\n2,b,a,B+R\n").is_ok());
        assert!(parse_games("1,a,a,B+R").unwrap_err().why.contains("itself"));
        assert!(parse_games("1,a,b,W+Q")
            .unwrap_err()
            .why
            .contains("after '+'"));
    }
}
