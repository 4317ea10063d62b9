//! A match's openings: the first moves of each game, taken from SGF text
//! (each game of a collection, its main line) or made by a seeded
//! generator, each checked legal from the empty board.

use crate::game::board::{Board, BoardRules, KoRule};
use crate::game::sgf::{main_line_moves, parse};
use crate::game::{Color, Point};

use super::schedule::SplitMix64;

/// One opening: where it came from, and its moves, Black first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opening {
    /// `book.sgf, game 3`, or `random 7`.
    pub source: String,
    pub moves: Vec<Point>,
}

/// Why an opening cannot be used; each names its file and game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OpeningError {
    #[error("{origin}: not SGF: {why}")]
    Unreadable { origin: String, why: String },
    #[error("{origin}: a {found}x{found} game, and the match is played on {size}x{size}")]
    Size { origin: String, found: u8, size: u8 },
    #[error(
        "{origin}: {moves} moves before its first pass or its end, and the openings are {plies}"
    )]
    TooShort {
        origin: String,
        moves: usize,
        plies: usize,
    },
    #[error("{origin}: setup stones (AB/AW) before its moves; an opening is moves only")]
    SetupStones { origin: String },
    #[error("{origin}: move {n} ({vertex}) is illegal: {why}")]
    Illegal {
        origin: String,
        n: usize,
        vertex: String,
        why: String,
    },
    #[error("{origin}: no game in it")]
    Empty { origin: String },
}

/// The first `plies` moves of each game in `text` (an SGF file of one game
/// or a collection), named after `name`.
pub fn from_sgf(
    text: &str,
    name: &str,
    size: u8,
    plies: usize,
) -> Result<Vec<Opening>, OpeningError> {
    let trees = game_trees(text);
    if trees.is_empty() {
        return Err(OpeningError::Empty {
            origin: name.to_string(),
        });
    }
    let many = trees.len() > 1;
    trees
        .iter()
        .enumerate()
        .map(|(i, tree)| {
            let source = match many {
                true => format!("{name}, game {}", i + 1),
                false => name.to_string(),
            };
            opening_of(tree, source, size, plies)
        })
        .collect()
}

fn opening_of(tree: &str, source: String, size: u8, plies: usize) -> Result<Opening, OpeningError> {
    let unreadable = |why: String| OpeningError::Unreadable {
        origin: source.clone(),
        why,
    };
    let nodes = parse(tree).map_err(|e| unreadable(e.to_string()))?;
    let found = nodes
        .first()
        .and_then(|root| root.get("SZ"))
        .map_or(Ok(19), |sz| sz.trim().parse::<u8>())
        .map_err(|e| unreadable(format!("SZ: {e}")))?;
    if found != size {
        return Err(OpeningError::Size {
            origin: source,
            found,
            size,
        });
    }
    if nodes
        .iter()
        .any(|n| n.get("AB").is_some() || n.get("AW").is_some())
    {
        return Err(OpeningError::SetupStones { origin: source });
    }
    let moves = main_line_moves(&nodes, size).map_err(|e| unreadable(e.to_string()))?;
    let played: Vec<(Color, Point)> = moves
        .iter()
        .map_while(|m| m.point.map(|point| (m.color, point)))
        .take(plies)
        .collect();
    if played.len() < plies {
        return Err(OpeningError::TooShort {
            origin: source,
            moves: played.len(),
            plies,
        });
    }
    let mut board = new_board(size);
    for (n, (color, point)) in played.iter().enumerate() {
        let illegal = |why: String| OpeningError::Illegal {
            origin: source.clone(),
            n: n + 1,
            vertex: point.to_gtp(),
            why,
        };
        if *color != board.to_move() {
            return Err(illegal(format!("{color} plays out of turn")));
        }
        board
            .play(*color, *point)
            .map_err(|e| illegal(e.to_string()))?;
    }
    Ok(Opening {
        source,
        moves: played.into_iter().map(|(_, point)| point).collect(),
    })
}

/// An empty board under the strictest rules an opening may meet.
fn new_board(size: u8) -> Board {
    let rules = BoardRules {
        ko: KoRule::PositionalSuperko,
        suicide_allowed: false,
    };
    Board::new(size, rules).expect("a size the match file checked")
}

/// The game trees of an SGF collection, each as its own text: split at the
/// parentheses that open a tree at the top level, property values (and
/// their escapes) skipped.
fn game_trees(text: &str) -> Vec<&str> {
    let mut trees = Vec::new();
    let (mut depth, mut start, mut in_value, mut escaped) = (0usize, None, false, false);
    for (i, c) in text.char_indices() {
        if in_value {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, ']') => in_value = false,
                _ => {}
            }
            continue;
        }
        match c {
            '[' => in_value = true,
            '(' => {
                if depth == 0 {
                    start = Some(i);
                }
                depth += 1;
            }
            ')' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    if let Some(from) = start.take() {
                        trees.push(&text[from..=i]);
                    }
                }
            }
            _ => {}
        }
    }
    trees
}

/// `count` openings of `plies` moves each from `seed`: stones on the third
/// line or further in, none capturing, none touching a stone already down,
/// so that no opening decides the game; no two openings alike.
pub fn random(count: usize, plies: usize, size: u8, seed: u64) -> Vec<Opening> {
    let mut rng = SplitMix64::new(seed);
    let inner: Vec<Point> = (2..size.saturating_sub(2))
        .flat_map(|col| (2..size.saturating_sub(2)).map(move |row| Point::new(col, row)))
        .collect();
    let mut openings: Vec<Opening> = Vec::new();
    let mut attempts = 0;
    while openings.len() < count && attempts < count * 100 + 100 {
        attempts += 1;
        let mut board = new_board(size);
        let mut moves = Vec::new();
        for _ in 0..plies * 50 {
            if moves.len() == plies {
                break;
            }
            if inner.is_empty() {
                break;
            }
            let point = inner[(rng.next_u64() % inner.len() as u64) as usize];
            let crowded = board.neighbors(point).any(|n| board.get(n).is_some());
            if board.get(point).is_some() || crowded {
                continue;
            }
            let color = board.to_move();
            if board.play(color, point).is_ok() {
                moves.push(point);
            }
        }
        let new = moves.len() == plies && openings.iter().all(|o| o.moves != moves);
        if new {
            openings.push(Opening {
                source: format!("random {}", openings.len() + 1),
                moves,
            });
        }
    }
    openings
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO_GAMES: &str =
        "(;GM[1]SZ[9]C[a comment with ( and \\] in it];B[ee];W[cc];B[gg];W[gc])\n\
                             (;SZ[9];B[cg];W[ec](;B[ge])(;B[cc]))";

    #[test]
    fn each_game_of_a_collection_gives_its_main_lines_first_moves() {
        let openings = from_sgf(TWO_GAMES, "book.sgf", 9, 3).unwrap();
        let vertices: Vec<Vec<String>> = openings
            .iter()
            .map(|o| o.moves.iter().map(|p| p.to_gtp()).collect())
            .collect();
        assert_eq!(vertices, [["E5", "C7", "G3"], ["C3", "E7", "G5"]]);
        assert_eq!(openings[1].source, "book.sgf, game 2");
    }

    #[test]
    fn a_short_a_wrong_sized_or_an_illegal_game_is_refused_with_its_name() {
        let short = from_sgf(TWO_GAMES, "book.sgf", 9, 4).unwrap_err();
        assert_eq!(
            short.to_string(),
            "book.sgf, game 2: 3 moves before its first pass or its end, and the openings are 4"
        );
        let sized = from_sgf(TWO_GAMES, "book.sgf", 13, 2).unwrap_err();
        assert!(sized
            .to_string()
            .contains("a 9x9 game, and the match is played on 13x13"));
        let twice = from_sgf("(;SZ[9];B[ee];W[ee])", "bad.sgf", 9, 2).unwrap_err();
        assert!(
            twice
                .to_string()
                .starts_with("bad.sgf: move 2 (E5) is illegal"),
            "{twice}"
        );
        let out_of_turn = from_sgf("(;SZ[9];B[ee];B[cc])", "turn.sgf", 9, 2).unwrap_err();
        assert!(
            out_of_turn.to_string().contains("out of turn"),
            "{out_of_turn}"
        );
        let setup = from_sgf("(;SZ[9]AB[ee];W[cc])", "setup.sgf", 9, 1).unwrap_err();
        assert!(matches!(setup, OpeningError::SetupStones { .. }));
        assert!(matches!(
            from_sgf("no game here", "x.sgf", 9, 1),
            Err(OpeningError::Empty { .. })
        ));
    }

    #[test]
    fn random_openings_are_seeded_distinct_central_and_quiet() {
        let openings = random(20, 4, 9, 7);
        assert_eq!(openings.len(), 20);
        assert_eq!(
            openings,
            random(20, 4, 9, 7),
            "the same seed, the same openings"
        );
        assert_ne!(openings, random(20, 4, 9, 8));
        for (i, opening) in openings.iter().enumerate() {
            assert_eq!(opening.moves.len(), 4);
            assert!(openings[..i].iter().all(|o| o.moves != opening.moves));
            let mut board = new_board(9);
            for &point in &opening.moves {
                assert!((2..7).contains(&point.col) && (2..7).contains(&point.row));
                let color = board.to_move();
                assert!(board.play(color, point).unwrap().is_empty(), "no capture");
            }
        }
    }
}
