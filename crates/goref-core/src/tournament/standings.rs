//! The standings of an event, computed from its games every time and never
//! kept: each entrant's score and tie-break values, and the ranking by the
//! event's chain of tie-breaks, a tie the whole chain leaves being an equal
//! rank.
//!
//! The conventions (KGS's, which the CGF's rules agree with where both
//! speak): a win scores 1 and a jigo ½; a void game counts for nothing and
//! makes no opponent; a bye adds the bye score to its taker and nothing to
//! any sum. SOS sums the final scores of the opponents played, once per
//! game; SOSOS sums their SOS; SODOS sums the final scores of the opponents
//! beaten, once per win (a jigo adds nothing); the trimmed SODOS leaves out
//! the highest and the lowest of those (CGF'99 §7: nothing is left of two
//! wins or fewer). `wins` counts games won, byes not included. Head-to-head
//! ranks the entrants still tied by the points they took from each other;
//! the pairing number (the entrant's place in the event's list) decides
//! last, and ranks lower numbers first.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::games::{Game, Outcome};
use crate::game::Color;

/// Half points: scores and sums of scores are whole or half.
pub type Halves = u64;

/// One criterion of the chain, after the score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TieBreak {
    Wins,
    Sos,
    Sosos,
    Sodos,
    TrimmedSodos,
    HeadToHead,
    PairingNumber,
}

impl TieBreak {
    pub const ALL: [TieBreak; 7] = [
        TieBreak::Wins,
        TieBreak::Sos,
        TieBreak::Sosos,
        TieBreak::Sodos,
        TieBreak::TrimmedSodos,
        TieBreak::HeadToHead,
        TieBreak::PairingNumber,
    ];

    /// The name in a list, a JSON key and a column heading's source.
    pub fn name(self) -> &'static str {
        match self {
            TieBreak::Wins => "wins",
            TieBreak::Sos => "sos",
            TieBreak::Sosos => "sosos",
            TieBreak::Sodos => "sodos",
            TieBreak::TrimmedSodos => "trimmed_sodos",
            TieBreak::HeadToHead => "head_to_head",
            TieBreak::PairingNumber => "pairing_number",
        }
    }

    /// The column's heading in a crosstable.
    pub fn heading(self) -> &'static str {
        match self {
            TieBreak::Wins => "wins",
            TieBreak::Sos => "SOS",
            TieBreak::Sosos => "SOSOS",
            TieBreak::Sodos => "SODOS",
            TieBreak::TrimmedSodos => "tSODOS",
            TieBreak::HeadToHead => "h2h",
            TieBreak::PairingNumber => "no",
        }
    }

    /// Whether the criterion is a value of the entrant's own, shown in a
    /// column; head-to-head depends on who else is tied, and the pairing
    /// number is shown as the entrant's number.
    pub fn is_column(self) -> bool {
        !matches!(self, TieBreak::HeadToHead | TieBreak::PairingNumber)
    }

    /// A preset (`cgf`, `kgs`) or a comma-separated list of names (`-` and
    /// `_` alike).
    pub fn parse_chain(text: &str) -> Result<Vec<TieBreak>, String> {
        match text.trim() {
            "cgf" => return Ok(CGF.to_vec()),
            "kgs" => return Ok(KGS.to_vec()),
            _ => {}
        }
        let mut chain = Vec::new();
        for word in text.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            let wanted = word.to_ascii_lowercase().replace('-', "_");
            let found = TieBreak::ALL.into_iter().find(|t| t.name() == wanted);
            let Some(tie_break) = found else {
                let names: Vec<&str> = TieBreak::ALL.iter().map(|t| t.name()).collect();
                return Err(format!(
                    "unknown tie-break '{word}': cgf, kgs, or a list of {}",
                    names.join(", ")
                ));
            };
            if chain.contains(&tie_break) {
                return Err(format!("tie-break '{word}' is named twice"));
            }
            chain.push(tie_break);
        }
        Ok(chain)
    }
}

/// CGF'99 §7: wins, SOS, SODOS, trimmed SODOS, head-to-head, the pairing
/// table.
pub const CGF: [TieBreak; 5] = [
    TieBreak::Sos,
    TieBreak::Sodos,
    TieBreak::TrimmedSodos,
    TieBreak::HeadToHead,
    TieBreak::PairingNumber,
];

/// KGS: score, SOS, SODOS.
pub const KGS: [TieBreak; 2] = [TieBreak::Sos, TieBreak::Sodos];

/// How an entrant's game ended, for the entrant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mark {
    Win,
    Loss,
    Jigo,
    Void,
    Bye,
}

/// One game of an entrant, as its crosstable cell tells it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cell {
    pub round: u32,
    /// The opponent's index in the entrants; none for a bye.
    pub opponent: Option<usize>,
    pub side: Option<Color>,
    pub mark: Mark,
    /// `R`, `T`, `F`, a margin, or empty.
    pub how: String,
}

/// One entrant's line of the standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    /// The entrant's place in the event's list, from 1.
    pub number: usize,
    pub name: String,
    pub rank: usize,
    /// Others share the rank.
    pub tied: bool,
    pub score: Halves,
    /// The value of each column tie-break of the chain, in its order.
    pub values: Vec<(TieBreak, Halves)>,
    pub cells: Vec<Cell>,
    /// The points taken from the others still tied when head-to-head was
    /// applied; none when the row was placed before it.
    #[serde(default)]
    pub head_to_head: Option<Halves>,
    /// The criterion that last split the row's group, placing it apart
    /// from those it was tied with; none when the score alone placed it.
    #[serde(default)]
    pub decided_by: Option<TieBreak>,
    /// The round from which the entrant plays no more.
    #[serde(default)]
    pub withdrawn_from: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standings {
    pub tie_breaks: Vec<TieBreak>,
    pub rounds: u32,
    /// Every entrant's name by number, ranked or not (an opponent's name
    /// when its row is left out).
    pub names: Vec<String>,
    /// By rank, then by number.
    pub rows: Vec<Row>,
}

/// A bye's score given in points, as half points: a multiple of ½ from 0
/// up to half a million.
pub fn bye_halves(points: f64) -> Result<Halves, String> {
    let halves = points * 2.0;
    match halves >= 0.0 && halves.fract() == 0.0 && halves <= 1e6 {
        true => Ok(halves as Halves),
        false => Err(format!("{points}: a number of points, a multiple of 0.5")),
    }
}

/// The entrants a list of games names, in the order they first appear: the
/// pairing numbers of an event known only by its games.
pub fn entrants_in(games: &[Game]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut add = |name: &str| {
        if !names.iter().any(|n| n == name) {
            names.push(name.to_string());
        }
    };
    for game in games {
        match game {
            Game::Played { black, white, .. } => {
                add(black);
                add(white);
            }
            Game::Bye { taker, .. } => add(taker),
        }
    }
    names
}

/// Ranks `entrants` (in pairing order) by their `games`.
pub fn standings(
    entrants: &[String],
    games: &[Game],
    chain: &[TieBreak],
    bye_score: Halves,
) -> Result<Standings, String> {
    let index: HashMap<&str, usize> = entrants
        .iter()
        .enumerate()
        .map(|(i, name)| (name.as_str(), i))
        .collect();
    let find = |name: &str| {
        index
            .get(name)
            .copied()
            .ok_or_else(|| format!("{name} is not an entrant"))
    };
    let mut cells: Vec<Vec<Cell>> = vec![Vec::new(); entrants.len()];
    for game in games {
        match game {
            Game::Bye { round, taker } => cells[find(taker)?].push(Cell {
                round: *round,
                opponent: None,
                side: None,
                mark: Mark::Bye,
                how: String::new(),
            }),
            Game::Played {
                round,
                black,
                white,
                outcome,
            } => {
                let (b, w) = (find(black)?, find(white)?);
                let (black_mark, white_mark, how) = match outcome {
                    Outcome::Win { winner, how } if *winner == Color::Black => {
                        (Mark::Win, Mark::Loss, how.clone())
                    }
                    Outcome::Win { how, .. } => (Mark::Loss, Mark::Win, how.clone()),
                    Outcome::Jigo => (Mark::Jigo, Mark::Jigo, String::new()),
                    Outcome::Void => (Mark::Void, Mark::Void, String::new()),
                };
                let cell = |opponent, side, mark| Cell {
                    round: *round,
                    opponent: Some(opponent),
                    side: Some(side),
                    mark,
                    how: how.clone(),
                };
                cells[b].push(cell(w, Color::Black, black_mark));
                cells[w].push(cell(b, Color::White, white_mark));
            }
        }
    }
    for list in &mut cells {
        list.sort_by_key(|c| c.round);
    }
    let scores: Vec<Halves> = cells
        .iter()
        .map(|list| list.iter().map(|c| points(c.mark, bye_score)).sum())
        .collect();
    let opponents = |i: usize, only: Option<Mark>| -> Vec<usize> {
        cells[i]
            .iter()
            .filter(|c| c.mark != Mark::Void && only.is_none_or(|m| m == c.mark))
            .filter_map(|c| c.opponent)
            .collect()
    };
    let sos: Vec<Halves> = (0..entrants.len())
        .map(|i| opponents(i, None).iter().map(|&o| scores[o]).sum())
        .collect();
    let value = |i: usize, tie_break: TieBreak| -> Halves {
        match tie_break {
            TieBreak::Wins => 2 * opponents(i, Some(Mark::Win)).len() as Halves,
            TieBreak::Sos => sos[i],
            TieBreak::Sosos => opponents(i, None).iter().map(|&o| sos[o]).sum(),
            TieBreak::Sodos => opponents(i, Some(Mark::Win))
                .iter()
                .map(|&o| scores[o])
                .sum(),
            TieBreak::TrimmedSodos => {
                let mut beaten: Vec<Halves> = opponents(i, Some(Mark::Win))
                    .iter()
                    .map(|&o| scores[o])
                    .collect();
                beaten.sort_unstable();
                match beaten.len() {
                    0..=2 => 0,
                    n => beaten[1..n - 1].iter().sum(),
                }
            }
            TieBreak::HeadToHead | TieBreak::PairingNumber => 0,
        }
    };
    let head_to_head = |i: usize, group: &[usize]| -> Halves {
        cells[i]
            .iter()
            .filter(|c| c.opponent.is_some_and(|o| group.contains(&o)))
            .map(|c| points(c.mark, 0))
            .sum()
    };
    let mut groups: Vec<Vec<usize>> = vec![(0..entrants.len()).collect()];
    let mut criteria: Vec<Option<TieBreak>> = vec![None];
    criteria.extend(chain.iter().copied().map(Some));
    let mut head_to_heads: Vec<Option<Halves>> = vec![None; entrants.len()];
    let mut decided_by: Vec<Option<TieBreak>> = vec![None; entrants.len()];
    for criterion in criteria {
        let mut split = Vec::new();
        for group in groups {
            if group.len() > 1 && criterion == Some(TieBreak::HeadToHead) {
                for &i in &group {
                    head_to_heads[i] = Some(head_to_head(i, &group));
                }
            }
            let key = |i: usize| -> (Halves, usize) {
                match criterion {
                    None => (scores[i], 0),
                    Some(TieBreak::HeadToHead) => (head_to_head(i, &group), 0),
                    Some(TieBreak::PairingNumber) => (0, usize::MAX - i),
                    Some(other) => (value(i, other), 0),
                }
            };
            let runs = split_by(group.clone(), key);
            if runs.len() > 1 {
                for &i in &group {
                    decided_by[i] = criterion;
                }
            }
            split.extend(runs);
        }
        groups = split;
    }
    let mut rows = Vec::new();
    let mut rank = 1;
    for group in groups {
        let tied = group.len() > 1;
        let mut members = group.clone();
        members.sort_unstable();
        for i in members {
            rows.push(Row {
                number: i + 1,
                name: entrants[i].clone(),
                rank,
                tied,
                score: scores[i],
                values: chain
                    .iter()
                    .filter(|t| t.is_column())
                    .map(|&t| (t, value(i, t)))
                    .collect(),
                cells: cells[i].clone(),
                head_to_head: head_to_heads[i],
                decided_by: decided_by[i],
                withdrawn_from: None,
            });
        }
        rank += group.len();
    }
    let rounds = games.iter().map(Game::round).max().unwrap_or(0);
    Ok(Standings {
        tie_breaks: chain.to_vec(),
        rounds,
        names: entrants.to_vec(),
        rows,
    })
}

impl Standings {
    /// The standings with each withdrawn entrant marked from the round it
    /// left.
    pub fn with_withdrawals(mut self, withdrawn_from: impl Fn(&str) -> Option<u32>) -> Standings {
        for row in &mut self.rows {
            row.withdrawn_from = withdrawn_from(&row.name);
        }
        self
    }

    /// The standings without the rows whose names `leave_out` picks (an
    /// event's filler, whose games count for its opponents but who is not
    /// ranked; another division), ranks closed up.
    pub fn without(mut self, leave_out: impl Fn(&str) -> bool) -> Standings {
        self.rows.retain(|row| !leave_out(&row.name));
        let mut rank = 1;
        let mut at = 0;
        while at < self.rows.len() {
            let old = self.rows[at].rank;
            let end = at + self.rows[at..].iter().take_while(|r| r.rank == old).count();
            for row in &mut self.rows[at..end] {
                row.rank = rank;
                row.tied = end - at > 1;
            }
            rank += end - at;
            at = end;
        }
        self
    }
}

/// What a game's mark is worth, in half points.
fn points(mark: Mark, bye_score: Halves) -> Halves {
    match mark {
        Mark::Win => 2,
        Mark::Jigo => 1,
        Mark::Loss | Mark::Void => 0,
        Mark::Bye => bye_score,
    }
}

/// The group split into runs of equal key, highest key first.
fn split_by(group: Vec<usize>, key: impl Fn(usize) -> (Halves, usize)) -> Vec<Vec<usize>> {
    let mut keyed: Vec<((Halves, usize), usize)> = group.into_iter().map(|i| (key(i), i)).collect();
    keyed.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut runs: Vec<Vec<usize>> = Vec::new();
    let mut last = None;
    for (k, i) in keyed {
        match runs.last_mut() {
            Some(run) if last == Some(k) => run.push(i),
            _ => runs.push(vec![i]),
        }
        last = Some(k);
    }
    runs
}
