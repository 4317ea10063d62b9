//! Counting a finished game: area (KGS Chinese) or territory (Japanese)
//! scoring, given the dead stones the players agreed on.
//!
//! Both methods first remove the dead stones, then split the empty points
//! into regions. A region bordered only by one colour's stones belongs to that
//! colour; a region touching both colours (dame, the shared liberties of a
//! seki) or none counts for nobody.
//!
//! Seki is not detected beyond that: under territory scoring the eye points
//! of a group living in seki, being bordered by one colour only, are counted
//! as its territory. Such positions need a judge (`reference/rules.md` §3.4).

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::board::Board;
use super::coord::{Color, Point};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scoring {
    /// Stones on the board plus surrounded empty points; prisoners do not count.
    Area,
    /// Surrounded empty points plus prisoners and the opponent's dead stones.
    Territory,
}

/// The count of a finished game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Score {
    pub scoring: Scoring,
    /// Black's total.
    pub black: f64,
    /// White's total, including komi.
    pub white: f64,
    pub komi: f64,
    /// Empty points and dead white stones' points counted for Black, sorted.
    #[serde(with = "vertices")]
    pub black_territory: Vec<Point>,
    /// Empty points and dead black stones' points counted for White, sorted.
    #[serde(with = "vertices")]
    pub white_territory: Vec<Point>,
    /// The dead stones removed before counting, sorted.
    #[serde(with = "vertices")]
    pub dead: Vec<Point>,
}

impl Score {
    /// Black's total minus White's: positive means Black wins.
    pub fn margin(&self) -> f64 {
        self.black - self.white
    }

    /// The SGF `RE` value (`B+3.5`, `W+2`, `0` for a draw) and the winner.
    pub fn result(&self) -> (String, Option<Color>) {
        let margin = self.margin();
        if margin > 0.0 {
            (format!("B+{margin}"), Some(Color::Black))
        } else if margin < 0.0 {
            (format!("W+{}", -margin), Some(Color::White))
        } else {
            ("0".to_string(), None)
        }
    }
}

/// Point lists as GTP vertices (`["D4", "Q16"]`), the spelling the rest of
/// goref's records use.
mod vertices {
    use serde::{de, Deserialize, Deserializer, Serialize, Serializer};

    use crate::game::coord::{Point, MAX_SIZE};

    pub(crate) fn serialize<S: Serializer>(
        points: &[Point],
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        let spelled: Vec<String> = points.iter().map(|p| p.to_gtp()).collect();
        spelled.serialize(serializer)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Vec<Point>, D::Error> {
        Vec::<String>::deserialize(deserializer)?
            .iter()
            .map(|v| Point::parse_gtp(v, MAX_SIZE).map_err(de::Error::custom))
            .collect()
    }
}

/// Counts `board` after removing the stones in `dead`.
///
/// Points of `dead` that hold no stone are ignored.
pub fn score(board: &Board, dead: &BTreeSet<Point>, scoring: Scoring, komi: f64) -> Score {
    let size = board.size();
    let area = size as usize * size as usize;
    let mut live: Vec<Option<Color>> = vec![None; area];
    let mut dead_stones = Vec::new();
    let mut dead_count = [0u32; 2];
    for (p, color) in board.stones() {
        if dead.contains(&p) {
            dead_stones.push(p);
            dead_count[color.index()] += 1;
        } else {
            live[p.index(size)] = Some(color);
        }
    }

    let mut territory: [Vec<Point>; 2] = [Vec::new(), Vec::new()];
    let mut visited = vec![false; area];
    let mut region = Vec::new();
    let mut stack = Vec::new();
    for start in board.points() {
        let k = start.index(size);
        if visited[k] || live[k].is_some() {
            continue;
        }
        region.clear();
        let mut borders = [false; 2];
        visited[k] = true;
        stack.push(start);
        while let Some(p) = stack.pop() {
            region.push(p);
            for q in board.neighbors(p) {
                let j = q.index(size);
                match live[j] {
                    Some(color) => borders[color.index()] = true,
                    None if !visited[j] => {
                        visited[j] = true;
                        stack.push(q);
                    }
                    None => {}
                }
            }
        }
        match borders {
            [true, false] => territory[Color::Black.index()].extend_from_slice(&region),
            [false, true] => territory[Color::White.index()].extend_from_slice(&region),
            _ => {}
        }
    }
    for points in &mut territory {
        points.sort();
    }
    dead_stones.sort();

    let total = |color: Color| -> f64 {
        let own_territory = territory[color.index()].len() as f64;
        match scoring {
            Scoring::Area => {
                let on_board = live.iter().filter(|&&c| c == Some(color)).count();
                on_board as f64 + own_territory
            }
            Scoring::Territory => {
                own_territory
                    + f64::from(board.prisoners(color))
                    + f64::from(dead_count[color.opponent().index()])
            }
        }
    };
    let black = total(Color::Black);
    let white = total(Color::White) + komi;
    let [black_territory, white_territory] = territory;
    Score {
        scoring,
        black,
        white,
        komi,
        black_territory,
        white_territory,
        dead: dead_stones,
    }
}

/// Marks the whole chain at `p` dead, or alive again if `p` was marked dead.
/// Does nothing on an empty point.
pub(crate) fn toggle_group(board: &Board, dead: &mut BTreeSet<Point>, p: Point) {
    let chain = board.group(p);
    if chain.is_empty() {
        return;
    }
    if dead.contains(&p) {
        for q in &chain {
            dead.remove(q);
        }
    } else {
        dead.extend(chain);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::board::{BoardRules, KoRule};

    const RULES: BoardRules = BoardRules {
        ko: KoRule::PositionalSuperko,
        suicide_allowed: false,
    };

    fn pts(vertices: &str) -> Vec<Point> {
        let mut points: Vec<Point> = vertices
            .split_whitespace()
            .map(|v| Point::parse_gtp(v, 25).unwrap())
            .collect();
        points.sort();
        points
    }

    fn setup(size: u8, black: &str, white: &str) -> Board {
        let mut board = Board::new(size, RULES).unwrap();
        board.place_setup(Color::Black, &pts(black)).unwrap();
        board.place_setup(Color::White, &pts(white)).unwrap();
        board
    }

    /// Black walls off columns A-B with column C, White owns E with column D.
    fn walls() -> Board {
        setup(5, "C1 C2 C3 C4 C5", "D1 D2 D3 D4 D5")
    }

    #[test]
    fn area_counts_stones_and_surrounded_points() {
        let count = score(&walls(), &BTreeSet::new(), Scoring::Area, 0.5);
        assert_eq!(count.black, 15.0);
        assert_eq!(count.white, 10.5);
        assert_eq!(count.margin(), 4.5);
        assert_eq!(count.komi, 0.5);
        assert_eq!(count.black_territory, pts("A1 A2 A3 A4 A5 B1 B2 B3 B4 B5"));
        assert_eq!(count.white_territory, pts("E1 E2 E3 E4 E5"));
        assert!(count.dead.is_empty());
    }

    #[test]
    fn territory_counts_surrounded_points_and_prisoners() {
        let count = score(&walls(), &BTreeSet::new(), Scoring::Territory, 6.5);
        assert_eq!(count.black, 10.0);
        assert_eq!(count.white, 11.5);
        assert_eq!(count.margin(), -1.5);

        let mut board = setup(5, "C1 C2 C3 C4 C5 B1", "D1 D2 D3 D4 D5 A1");
        assert_eq!(board.play(Color::Black, pts("A2")[0]), Ok(pts("A1")));
        assert_eq!(board.prisoners(Color::Black), 1);
        let count = score(&board, &BTreeSet::new(), Scoring::Territory, 0.0);
        assert_eq!(count.black_territory, pts("A1 A3 A4 A5 B2 B3 B4 B5"));
        assert_eq!(count.black, 8.0 + 1.0);
        assert_eq!(count.white, 5.0);
        let count = score(&board, &BTreeSet::new(), Scoring::Area, 0.0);
        assert_eq!(count.black, 7.0 + 8.0, "area scoring ignores prisoners");
    }

    #[test]
    fn dame_and_open_regions_count_for_nobody() {
        let board = setup(5, "B1 B2 B3 B4 B5", "D1 D2 D3 D4 D5");
        for scoring in [Scoring::Area, Scoring::Territory] {
            let count = score(&board, &BTreeSet::new(), scoring, 7.5);
            assert_eq!(count.black_territory, pts("A1 A2 A3 A4 A5"));
            assert_eq!(count.white_territory, pts("E1 E2 E3 E4 E5"));
            let stones = if scoring == Scoring::Area { 5.0 } else { 0.0 };
            assert_eq!(count.black, 5.0 + stones);
            assert_eq!(count.white, 5.0 + stones + 7.5);
        }
        let empty = Board::new(9, RULES).unwrap();
        let count = score(&empty, &BTreeSet::new(), Scoring::Area, 7.5);
        assert_eq!((count.black, count.white), (0.0, 7.5));
        assert!(count.black_territory.is_empty() && count.white_territory.is_empty());
    }

    #[test]
    fn dead_stones_are_removed_and_counted_for_the_other_side() {
        let board = setup(5, "C1 C2 C3 C4 C5", "D1 D2 D3 D4 D5 A3 A4");
        let alive = score(&board, &BTreeSet::new(), Scoring::Area, 0.5);
        assert_eq!(alive.black, 5.0, "A-B touch both colours while A3-A4 live");
        assert_eq!(alive.white, 12.5);

        let mut dead = BTreeSet::new();
        toggle_group(&board, &mut dead, pts("A4")[0]);
        assert_eq!(dead, pts("A3 A4").into_iter().collect());
        let area = score(&board, &dead, Scoring::Area, 0.5);
        assert_eq!(area.dead, pts("A3 A4"));
        assert_eq!(area.black_territory.len(), 10);
        assert!(area.black_territory.contains(&pts("A3")[0]));
        assert_eq!(area.black, 15.0);
        assert_eq!(area.white, 10.5);
        let territory = score(&board, &dead, Scoring::Territory, 0.5);
        assert_eq!(
            territory.black,
            10.0 + 2.0,
            "territory plus the dead stones"
        );
        assert_eq!(territory.white, 5.5);
    }

    #[test]
    fn dead_marks_on_empty_points_are_ignored() {
        let board = walls();
        let dead: BTreeSet<Point> = pts("A1 B2").into_iter().collect();
        let count = score(&board, &dead, Scoring::Territory, 0.0);
        assert!(count.dead.is_empty());
        assert_eq!(count.black, 10.0);
    }

    #[test]
    fn toggling_a_group_marks_and_unmarks_the_whole_chain() {
        let board = setup(5, "C1 C2 C3 C4 C5", "A3 A4 E1");
        let mut dead = BTreeSet::new();
        toggle_group(&board, &mut dead, pts("A3")[0]);
        toggle_group(&board, &mut dead, pts("E1")[0]);
        assert_eq!(dead, pts("A3 A4 E1").into_iter().collect());
        toggle_group(&board, &mut dead, pts("A4")[0]);
        assert_eq!(dead, pts("E1").into_iter().collect());
        toggle_group(&board, &mut dead, pts("B2")[0]);
        assert_eq!(
            dead,
            pts("E1").into_iter().collect(),
            "empty point: no change"
        );
    }

    #[test]
    fn scores_serialise_points_as_vertices() {
        let count = score(&walls(), &BTreeSet::new(), Scoring::Area, 0.5);
        let json = serde_json::to_string(&count).unwrap();
        assert!(json.contains("\"scoring\":\"area\""));
        assert!(json.contains("\"white_territory\":[\"E1\",\"E2\",\"E3\",\"E4\",\"E5\"]"));
        let back: Score = serde_json::from_str(&json).unwrap();
        assert_eq!(back, count);
    }
}
