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
}

/// Point lists as GTP vertices (`["D4", "Q16"]`), the spelling the rest of
/// goref's records use.
mod vertices {
    use serde::{de, Deserialize, Deserializer, Serialize, Serializer};

    use crate::game::coord::{Point, MAX_SIZE};

    pub fn serialize<S: Serializer>(points: &[Point], serializer: S) -> Result<S::Ok, S::Error> {
        let spelled: Vec<String> = points.iter().map(|p| p.to_gtp()).collect();
        spelled.serialize(serializer)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<Point>, D::Error> {
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
pub fn toggle_group(board: &Board, dead: &mut BTreeSet<Point>, p: Point) {
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

