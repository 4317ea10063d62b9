//! Swiss pairings: the next round of an event from the standings so far.
//!
//! The rules, in the order they yield: no two entrants meet twice while any
//! other pairing of the field exists; pairs are made inside score groups
//! from the top, the upper half of a group against its lower half, and an
//! entrant moves to another group only when its own cannot pair it; the bye
//! of an odd field goes to the lowest-ranked entrant who has not had one and
//! whose absence leaves the others a pairing without a rematch.
//!
//! The search tries opponents in that order of preference and backtracks,
//! so it finds a pairing without a rematch whenever one exists, within a
//! bound on the positions it visits; past the bound, or when none exists,
//! it pairs again allowing rematches, the fewest it meets first.
//!
//! Colours: nobody is given a colour a third time running when the other
//! can take it; then the one who has had more whites takes Black; then the
//! one who had White last; then the seed decides, so that the same event
//! and seed pair the same way every time.

use super::round_robin::RoundPairing;
use super::standings::Halves;
use crate::game::Color;

/// What the pairing needs to know of an entrant.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Record {
    pub score: Halves,
    /// The entrants met, by index, once per game.
    pub met: Vec<usize>,
    /// The colours played, in order.
    pub colours: Vec<Color>,
    pub had_bye: bool,
}

/// How many positions the search visits before it allows rematches.
const SEARCH_LIMIT: usize = 200_000;

/// Pairs `order` (indices into `records`, best ranked first; withdrawn
/// entrants left out) for the next round.
pub fn pair(order: &[usize], records: &[Record], seed: u64) -> RoundPairing {
    let (bye, pairs) = match order.len() % 2 {
        0 => (None, pair_field(order, records)),
        _ => {
            let (bye, pairs) = pair_with_bye(order, records);
            (Some(bye), pairs)
        }
    };
    let pairs = pairs
        .into_iter()
        .map(|(a, b)| colour(a, b, records, seed))
        .collect();
    RoundPairing { pairs, bye }
}

/// The bye of an odd field and the pairing of the rest: the lowest-ranked
/// entrant without a bye (anyone, when all have had one) whose absence
/// leaves a pairing without a rematch, else the lowest-ranked of them.
fn pair_with_bye(order: &[usize], records: &[Record]) -> (usize, Vec<(usize, usize)>) {
    let mut candidates: Vec<usize> = order
        .iter()
        .rev()
        .copied()
        .filter(|&i| !records[i].had_bye)
        .collect();
    if candidates.is_empty() {
        candidates = order.iter().rev().copied().collect();
    }
    let without =
        |bye: usize| -> Vec<usize> { order.iter().copied().filter(|&i| i != bye).collect() };
    candidates
        .iter()
        .find_map(|&bye| search(&without(bye), records, false).map(|pairs| (bye, pairs)))
        .unwrap_or_else(|| (candidates[0], pair_field(&without(candidates[0]), records)))
}

/// A pairing of an even field: without a rematch if the search finds one,
/// else with the fewest it meets first.
fn pair_field(field: &[usize], records: &[Record]) -> Vec<(usize, usize)> {
    search(field, records, false)
        .or_else(|| search(field, records, true))
        .unwrap_or_default()
}

/// A pairing of `field` (in rank order), rematches allowed or not.
fn search(field: &[usize], records: &[Record], rematches: bool) -> Option<Vec<(usize, usize)>> {
    let mut remaining = field.to_vec();
    let mut pairs = Vec::new();
    let mut budget = SEARCH_LIMIT;
    pair_from(&mut remaining, records, rematches, &mut pairs, &mut budget).then_some(pairs)
}

fn pair_from(
    remaining: &mut Vec<usize>,
    records: &[Record],
    rematches: bool,
    pairs: &mut Vec<(usize, usize)>,
    budget: &mut usize,
) -> bool {
    let Some(&first) = remaining.first() else {
        return true;
    };
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    for opponent in preferred(remaining, records, rematches) {
        let at = remaining
            .iter()
            .position(|&i| i == opponent)
            .expect("a candidate remains");
        let taken = remaining.remove(at);
        remaining.remove(0);
        pairs.push((first, opponent));
        if pair_from(remaining, records, rematches, pairs, budget) {
            return true;
        }
        pairs.pop();
        remaining.insert(0, first);
        remaining.insert(at, taken);
        if *budget == 0 && !rematches {
            return false;
        }
    }
    false
}

/// The opponents of the first remaining entrant, most preferred first.
fn preferred(remaining: &[usize], records: &[Record], rematches: bool) -> Vec<usize> {
    let first = remaining[0];
    let score = records[first].score;
    let group = remaining
        .iter()
        .filter(|&&i| records[i].score == score)
        .count();
    let target = group.div_ceil(2).max(1);
    let times_met = |i: usize| records[first].met.iter().filter(|&&m| m == i).count();
    let mut candidates: Vec<(usize, (usize, Halves, usize, usize))> = remaining
        .iter()
        .enumerate()
        .skip(1)
        .filter(|&(_, &i)| rematches || times_met(i) == 0)
        .map(|(position, &i)| {
            let apart = score.abs_diff(records[i].score);
            (
                i,
                (times_met(i), apart, position.abs_diff(target), position),
            )
        })
        .collect();
    candidates.sort_by_key(|&(_, key)| key);
    candidates.into_iter().map(|(i, _)| i).collect()
}

/// `(black, white)` for a pair.
fn colour(a: usize, b: usize, records: &[Record], seed: u64) -> (usize, usize) {
    let third_running = |i: usize, side: Color| third_running(&records[i], side);
    let whites_over_blacks = |i: usize| {
        let colours = &records[i].colours;
        let whites = colours.iter().filter(|&&c| c == Color::White).count() as i64;
        whites - (colours.len() as i64 - whites)
    };
    let a_black = match (
        third_running(a, Color::Black) || third_running(b, Color::White),
        third_running(a, Color::White) || third_running(b, Color::Black),
    ) {
        (true, false) => false,
        (false, true) => true,
        _ => match whites_over_blacks(a).cmp(&whites_over_blacks(b)) {
            std::cmp::Ordering::Greater => true,
            std::cmp::Ordering::Less => false,
            std::cmp::Ordering::Equal => {
                match (records[a].colours.last(), records[b].colours.last()) {
                    (Some(Color::White), Some(Color::Black) | None) => true,
                    (Some(Color::Black) | None, Some(Color::White)) => false,
                    _ => mix(seed ^ ((a as u64) << 32) ^ b as u64).is_multiple_of(2),
                }
            }
        },
    };
    match a_black {
        true => (a, b),
        false => (b, a),
    }
}

/// Whether `side` would be the entrant's colour a third time running.
pub fn third_running(record: &Record, side: Color) -> bool {
    let colours = &record.colours;
    colours.len() >= 2 && colours[colours.len() - 2..].iter().all(|&c| c == side)
}

/// A well-spread function of a number (splitmix64's finaliser).
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests;
