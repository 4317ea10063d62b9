//! A single-elimination bracket, as the UEC Cup's second day was played:
//! the entrants seeded, the bracket the next power of two wide with byes
//! for the top seeds, each match won by its first decided game. A jigo or
//! a void game is replayed with the colours swapped, or (by the event's
//! rule, or once the replays allowed are spent) the higher seed goes on.
//! The bracket is computed from the seeds and the games every time, never
//! kept; what can be played next is every match whose two sides are known
//! and that is not decided.
//!
//! Seeds are placed in the standard order (1 and 2 can meet only in the
//! final, 1 to 4 only from the semi-finals on), and a seed past the field
//! is a bye for the seed it would have met.

use serde::{Deserialize, Serialize};

use super::games::{Game, Outcome};
use crate::game::Color;

/// What decides a match whose game was a jigo or void.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OnTie {
    /// Played again with the colours swapped, up to the replays allowed;
    /// then the higher seed goes on.
    #[default]
    Replay,
    /// The higher seed goes on at once.
    HigherSeed,
}

/// The bracket's rules from the event file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KnockoutRules {
    pub third_place: bool,
    pub on_tie: OnTie,
    /// Replays of a tied match before the higher seed goes on.
    pub max_replays: u32,
}

/// One side of a match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Side {
    /// An entrant and its seed (from 1).
    Entrant { seed: usize, name: String },
    /// No one: the seed's opponent goes on without a game.
    Bye,
    /// The winner (or loser) of a match not decided yet.
    Unknown,
}

impl Side {
    fn entrant(&self) -> Option<(usize, &str)> {
        match self {
            Side::Entrant { seed, name } => Some((*seed, name)),
            _ => None,
        }
    }
}

/// A game of a match, as its result stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchGame {
    pub round: u32,
    pub black: String,
    pub white: String,
    /// As SGF writes it: `B+R`, `0`, `Void`.
    pub result: String,
}

/// One match of the bracket.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Match {
    /// From 1, the first stage; the final is the last.
    pub stage: u32,
    pub sides: [Side; 2],
    pub games: Vec<MatchGame>,
    /// The side that goes on, once decided.
    pub winner: Option<usize>,
    /// How it was decided: `bye`, `B+R in round 2`, `the higher seed, after
    /// 3 games drawn or void`.
    pub how: Option<String>,
}

impl Match {
    fn side_name(&self, side: usize) -> Option<&str> {
        self.sides[side].entrant().map(|(_, name)| name)
    }

    /// The entrant who goes on, once decided.
    pub(crate) fn winner_name(&self) -> Option<&str> {
        self.winner.and_then(|side| self.side_name(side))
    }
}

/// A match to play next: the colours for its next game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NextGame {
    /// `semi-finals`, `final`, `for third place`.
    pub stage: String,
    pub black: String,
    pub white: String,
    /// The higher seed of the two.
    pub higher: String,
    /// Its games so far were drawn or void: colours are swapped from the
    /// last one.
    pub replay: bool,
}

/// The whole bracket as the games so far decide it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bracket {
    pub entrants: usize,
    /// The stages, the final the last.
    pub stages: u32,
    /// Stage by stage, each in bracket order.
    pub matches: Vec<Match>,
    /// The semi-finals' losers' game, when the event has one.
    pub third_place: Option<Match>,
}

/// The seeds (from 1) in bracket order for a bracket `size` wide, a power
/// of two: `[1, 8, 4, 5, 2, 7, 3, 6]` for 8.
pub(crate) fn seed_order(size: usize) -> Vec<usize> {
    let mut order = vec![1];
    while order.len() < size {
        let width = order.len() * 2;
        order = order.iter().flat_map(|&s| [s, width + 1 - s]).collect();
    }
    order
}

/// The stages a field of `entrants` needs: 1 for 2, 3 for 5 to 8.
pub fn stages_for(entrants: usize) -> u32 {
    entrants.max(2).next_power_of_two().trailing_zeros()
}

/// The bracket of `seeds` (best first) after `games`.
pub fn bracket(seeds: &[String], games: &[Game], rules: &KnockoutRules) -> Bracket {
    let size = seeds.len().max(2).next_power_of_two();
    let stages = stages_for(seeds.len());
    let side_of = |seed: usize| match seeds.get(seed - 1) {
        Some(name) => Side::Entrant {
            seed,
            name: name.clone(),
        },
        None => Side::Bye,
    };
    let order = seed_order(size);
    let mut current: Vec<[Side; 2]> = order
        .chunks(2)
        .map(|pair| [side_of(pair[0]), side_of(pair[1])])
        .collect();
    let mut matches = Vec::new();
    for stage in 1..=stages {
        let decided: Vec<Match> = current
            .iter()
            .map(|sides| decide(stage, sides.clone(), games, rules))
            .collect();
        current = decided
            .chunks_exact(2)
            .map(|pair| [goes_on(&pair[0]), goes_on(&pair[1])])
            .collect();
        matches.extend(decided);
    }
    let third_place = (rules.third_place && stages >= 2).then(|| {
        let semis: Vec<&Match> = matches.iter().filter(|m| m.stage == stages - 1).collect();
        let sides = [drops_out(semis[0]), drops_out(semis[1])];
        decide(stages, sides, games, rules)
    });
    Bracket {
        entrants: seeds.len(),
        stages,
        matches,
        third_place,
    }
}

/// Who a match sends on to the next stage.
fn goes_on(m: &Match) -> Side {
    match m.winner {
        Some(side) => m.sides[side].clone(),
        None => Side::Unknown,
    }
}

/// Who a semi-final sends to the game for third place: its loser, or no
/// one when it was won without a game.
fn drops_out(m: &Match) -> Side {
    match m.winner {
        Some(side) if m.games.is_empty() => match &m.sides[1 - side] {
            Side::Entrant { .. } => m.sides[1 - side].clone(),
            _ => Side::Bye,
        },
        Some(side) => m.sides[1 - side].clone(),
        None => Side::Unknown,
    }
}

fn decide(stage: u32, sides: [Side; 2], games: &[Game], rules: &KnockoutRules) -> Match {
    let mut decided = Match {
        stage,
        sides,
        games: Vec::new(),
        winner: None,
        how: None,
    };
    let (a, b) = match (decided.sides[0].entrant(), decided.sides[1].entrant()) {
        (Some(a), Some(b)) => (a, b),
        (Some(_), None) if decided.sides[1] == Side::Bye => {
            decided.winner = Some(0);
            decided.how = Some("bye".into());
            return decided;
        }
        (None, Some(_)) if decided.sides[0] == Side::Bye => {
            decided.winner = Some(1);
            decided.how = Some("bye".into());
            return decided;
        }
        _ => return decided,
    };
    let side_named = |name: &str| usize::from(name != a.1);
    let mut ties = 0;
    for game in games {
        let Game::Played {
            round,
            black,
            white,
            outcome,
        } = game
        else {
            continue;
        };
        let between = (black == a.1 && white == b.1) || (black == b.1 && white == a.1);
        if !between || decided.winner.is_some() {
            continue;
        }
        decided.games.push(MatchGame {
            round: *round,
            black: black.clone(),
            white: white.clone(),
            result: result_text(outcome),
        });
        match outcome {
            Outcome::Win { winner, .. } => {
                let name = match winner {
                    Color::Black => black,
                    Color::White => white,
                };
                decided.winner = Some(side_named(name));
                decided.how = Some(format!("{} in round {round}", result_text(outcome)));
            }
            Outcome::Jigo | Outcome::Void => ties += 1,
        }
    }
    let spent = match rules.on_tie {
        OnTie::Replay => ties > rules.max_replays,
        OnTie::HigherSeed => ties > 0,
    };
    if decided.winner.is_none() && spent {
        decided.winner = Some(if a.0 < b.0 { 0 } else { 1 });
        decided.how = Some(format!(
            "the higher seed, after {ties} game{} drawn or void",
            if ties == 1 { "" } else { "s" }
        ));
    }
    decided
}

fn result_text(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Win { winner, how } => format!("{}+{how}", winner.letter()),
        Outcome::Jigo => "0".into(),
        Outcome::Void => "Void".into(),
    }
}

impl Bracket {
    /// The matches to play next, the final's and third place's alike:
    /// both sides known, not decided.
    pub fn next_games(&self) -> Vec<NextGame> {
        self.matches
            .iter()
            .chain(&self.third_place)
            .filter(|m| m.winner.is_none())
            .filter_map(|m| {
                let (a, b) = (m.sides[0].entrant()?, m.sides[1].entrant()?);
                let higher = if a.0 < b.0 { a.1 } else { b.1 };
                let stage = match m.stage == self.stages && self.final_match() != Some(m) {
                    true => "for third place".to_string(),
                    false => stage_name(m.stage, self.stages),
                };
                let lower = if a.0 < b.0 { b.1 } else { a.1 };
                Some(match m.games.last() {
                    Some(last) => NextGame {
                        stage,
                        black: last.white.clone(),
                        white: last.black.clone(),
                        higher: higher.to_string(),
                        replay: true,
                    },
                    None => NextGame {
                        stage,
                        black: higher.to_string(),
                        white: lower.to_string(),
                        higher: higher.to_string(),
                        replay: false,
                    },
                })
            })
            .collect()
    }

    /// The entrants who go on without a game in the first stage.
    pub fn first_byes(&self) -> Vec<String> {
        self.matches
            .iter()
            .filter(|m| m.stage == 1 && m.how.as_deref() == Some("bye"))
            .filter_map(|m| m.winner_name().map(str::to_string))
            .collect()
    }

    pub(crate) fn final_match(&self) -> Option<&Match> {
        self.matches.iter().rfind(|m| m.stage == self.stages)
    }

    /// The winner of the final.
    pub fn champion(&self) -> Option<&str> {
        self.final_match().and_then(Match::winner_name)
    }

    /// Every match that will be played is decided.
    pub fn is_over(&self) -> bool {
        self.champion().is_some() && self.third_place.as_ref().is_none_or(|m| m.winner.is_some())
    }

    /// The bracket as lines of at most `width` columns: each stage under
    /// its name, a match a line (the seeds, the names, how it was decided
    /// and who goes on), then the champion.
    pub fn lines(&self, width: usize) -> Vec<String> {
        let mut lines = Vec::new();
        let longest = self
            .matches
            .iter()
            .flat_map(|m| &m.sides)
            .filter_map(|s| s.entrant().map(|(_, name)| name.chars().count()))
            .max()
            .unwrap_or(0);
        let name_width = longest.clamp(5, (width.saturating_sub(30) / 2).max(6));
        let side = |side: &Side| match side {
            Side::Entrant { seed, name } => {
                format!("{seed:>2} {:<name_width$}", cut(name, name_width))
            }
            Side::Bye => format!("   {:<name_width$}", "(bye)"),
            Side::Unknown => format!("   {:<name_width$}", "?"),
        };
        let line = |m: &Match| {
            let state = match (m.winner_name(), &m.how) {
                (Some(winner), Some(how)) => format!("{winner} ({how})"),
                _ if m.games.is_empty() => match m.sides.iter().all(|s| s.entrant().is_some()) {
                    true => "to play".to_string(),
                    false => "waits".to_string(),
                },
                _ => {
                    let tied: Vec<String> = m
                        .games
                        .iter()
                        .map(|g| format!("{} r{}", g.result, g.round))
                        .collect();
                    format!("replayed ({})", tied.join(", "))
                }
            };
            cut(
                &format!("  {} - {}  {state}", side(&m.sides[0]), side(&m.sides[1])),
                width,
            )
        };
        for stage in 1..=self.stages {
            lines.push(stage_name(stage, self.stages));
            lines.extend(self.matches.iter().filter(|m| m.stage == stage).map(line));
        }
        if let Some(third) = &self.third_place {
            lines.push("for third place".into());
            lines.push(line(third));
        }
        if let Some(champion) = self.champion() {
            lines.push(format!("champion: {champion}"));
        }
        if let Some(third) = self.third_place.as_ref().and_then(Match::winner_name) {
            lines.push(format!("third place: {third}"));
        }
        lines
    }
}

/// `final`, `semi-finals`, `quarter-finals`, `round of 16`, ...
pub(crate) fn stage_name(stage: u32, stages: u32) -> String {
    match stages - stage {
        0 => "final".into(),
        1 => "semi-finals".into(),
        2 => "quarter-finals".into(),
        n => format!("round of {}", 1u64 << (n + 1)),
    }
}

fn cut(text: &str, width: usize) -> String {
    match text.chars().count() > width {
        true => text
            .chars()
            .take(width.saturating_sub(1))
            .chain(['…'])
            .collect(),
        false => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::games::parse_games;

    fn names(n: usize) -> Vec<String> {
        (1..=n).map(|i| format!("s{i}")).collect()
    }

    /// The next games' colours: (Black, White).
    fn pairs(bracket: &Bracket) -> Vec<(String, String)> {
        bracket
            .next_games()
            .into_iter()
            .map(|g| (g.black, g.white))
            .collect()
    }

    fn rules(third_place: bool, on_tie: OnTie) -> KnockoutRules {
        KnockoutRules {
            third_place,
            on_tie,
            max_replays: 1,
        }
    }

    #[test]
    fn seeds_are_placed_so_the_top_two_meet_only_in_the_final() {
        assert_eq!(seed_order(2), [1, 2]);
        assert_eq!(seed_order(4), [1, 4, 2, 3]);
        assert_eq!(seed_order(8), [1, 8, 4, 5, 2, 7, 3, 6]);
        assert_eq!(stages_for(6), 3);
        assert_eq!(stages_for(2), 1);
    }

    #[test]
    fn six_entrants_give_the_top_two_seeds_byes_and_the_winners_go_on() {
        let seeds = names(6);
        let none = bracket(&seeds, &[], &rules(false, OnTie::Replay));
        assert_eq!(none.first_byes(), ["s1", "s2"]);
        assert_eq!(
            pairs(&none),
            [("s4".into(), "s5".into()), ("s3".into(), "s6".into())],
            "the higher seed takes Black"
        );
        let games = parse_games("1,s4,s5,W+R\n1,s3,s6,B+3.5\n").unwrap();
        let after = bracket(&seeds, &games, &rules(false, OnTie::Replay));
        assert_eq!(
            pairs(&after),
            [("s1".into(), "s5".into()), ("s2".into(), "s3".into())]
        );
        assert!(!after.is_over());
        let games =
            parse_games("1,s4,s5,W+R\n1,s3,s6,B+3.5\n2,s1,s5,W+T\n2,s2,s3,B+R\n3,s2,s5,W+R\n")
                .unwrap();
        let done = bracket(&seeds, &games, &rules(false, OnTie::Replay));
        assert_eq!(done.champion(), Some("s5"));
        assert!(done.is_over());
        let lines = done.lines(80);
        assert!(lines.iter().all(|l| l.chars().count() <= 80), "{lines:#?}");
        assert_eq!(lines[0], "quarter-finals");
        assert!(lines.contains(&"final".to_string()), "{lines:#?}");
        assert_eq!(lines.last().unwrap(), "champion: s5");
        assert!(lines
            .iter()
            .any(|l| l.contains("(bye)") && l.contains("s1 (bye)")));
    }

    #[test]
    fn a_tied_game_is_replayed_with_colours_swapped_then_the_higher_seed_goes_on() {
        let seeds = names(2);
        let games = parse_games("1,s1,s2,0\n").unwrap();
        let once = bracket(&seeds, &games, &rules(false, OnTie::Replay));
        let next = once.next_games();
        assert_eq!(
            (next[0].black.as_str(), next[0].white.as_str()),
            ("s2", "s1")
        );
        assert!(next[0].replay);
        let games = parse_games("1,s1,s2,0\n2,s2,s1,Void\n").unwrap();
        let spent = bracket(&seeds, &games, &rules(false, OnTie::Replay));
        assert_eq!(spent.champion(), Some("s1"));
        assert_eq!(
            spent.final_match().unwrap().how.as_deref(),
            Some("the higher seed, after 2 games drawn or void")
        );
        let games = parse_games("1,s1,s2,Void\n").unwrap();
        let at_once = bracket(&seeds, &games, &rules(false, OnTie::HigherSeed));
        assert_eq!(at_once.champion(), Some("s1"));
    }

    #[test]
    fn the_semi_finals_losers_play_for_third_place_in_the_finals_round() {
        let seeds = names(4);
        let games = parse_games("1,s1,s4,B+R\n1,s2,s3,W+R\n").unwrap();
        let semis = bracket(&seeds, &games, &rules(true, OnTie::Replay));
        assert_eq!(
            pairs(&semis),
            [("s1".into(), "s3".into()), ("s2".into(), "s4".into())]
        );
        let games = parse_games("1,s1,s4,B+R\n1,s2,s3,W+R\n2,s1,s3,B+R\n2,s2,s4,W+R\n").unwrap();
        let done = bracket(&seeds, &games, &rules(true, OnTie::Replay));
        assert!(done.is_over());
        assert_eq!(done.third_place.unwrap().winner_name(), Some("s4"));
    }
}
