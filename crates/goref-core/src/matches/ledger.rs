//! A match's ledger and its stop rule. Games are recorded as they end, each
//! under its pair and the candidate's colour; a pair counts in the
//! pentanomial tally once both its games count, in the order pairs are
//! completed. The SPRT decides at the first completed pair whose LLR
//! crosses a bound, and that decision stands: the pairs in play then are
//! finished, so that every pair counts whole, whatever they do to the LLR.
//! No new pair begins once the pairs asked for are begun or the test has
//! decided.

use std::collections::BTreeMap;
use std::num::NonZeroUsize;

use serde::Serialize;

use crate::game::Color;

use super::{gauntlet_opponent, Outcome, Pentanomial, Sprt, SprtState, Trinomial};

/// When a match stops beginning pairs: after `pairs` pairs, when the SPRT
/// decides, or whichever comes first. With neither, never.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StopRule {
    pub pairs: Option<u64>,
    pub sprt: Option<Sprt>,
}

/// What recording one game did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recorded {
    /// The first of its pair's games to count.
    Leg,
    /// The second: the pair now counts.
    PairComplete,
    /// Its pair's game of that colour counts already; this one does not.
    Duplicate,
}

/// The SPRT's decision: what it accepted, after how many complete pairs,
/// at which LLR.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Decision {
    pub state: SprtState,
    pub pairs: u64,
    pub llr: f64,
}

/// The match after a pair was completed: the games and pairs counted by
/// then, Elo and the LLR. The course of the match, for its plots.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Step {
    pub games: u64,
    pub pairs: u64,
    pub elo: Option<f64>,
    pub llr: Option<f64>,
}

/// The candidate against one opponent of a gauntlet.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Against {
    pub pairs: Pentanomial,
    pub games: Trinomial,
}

/// Every counted game of a match, and what they decide.
#[derive(Debug, Clone)]
pub struct Ledger {
    rule: StopRule,
    opponents: NonZeroUsize,
    legs: BTreeMap<u64, [Option<Outcome>; 2]>,
    games: Trinomial,
    pairs: Pentanomial,
    against: Vec<Against>,
    decision: Option<Decision>,
    steps: Vec<Step>,
}

impl Ledger {
    /// An empty ledger of a match against `opponents` opponents.
    pub fn new(rule: StopRule, opponents: NonZeroUsize) -> Ledger {
        Ledger {
            rule,
            opponents,
            legs: BTreeMap::new(),
            games: Trinomial::default(),
            pairs: Pentanomial::default(),
            against: vec![Against::default(); opponents.get()],
            decision: None,
            steps: Vec::new(),
        }
    }

    /// Counts the game of pair `pair` (from 0) with the candidate as
    /// `candidate`.
    pub fn record(&mut self, pair: u64, candidate: Color, outcome: Outcome) -> Recorded {
        let legs = self.legs.entry(pair).or_default();
        let leg = &mut legs[candidate.index()];
        if leg.is_some() {
            return Recorded::Duplicate;
        }
        *leg = Some(outcome);
        let legs = *legs;
        let against = &mut self.against[gauntlet_opponent(self.opponents, pair)];
        self.games.add(outcome);
        against.games.add(outcome);
        let [Some(first), Some(second)] = legs else {
            return Recorded::Leg;
        };
        self.pairs.add_pair(first, second);
        against.pairs.add_pair(first, second);
        let llr = self.rule.sprt.map(|sprt| sprt.llr_pentanomial(&self.pairs));
        if let (Some(sprt), Some(llr), None) = (self.rule.sprt, llr, self.decision) {
            let state = sprt.state(llr);
            if state != SprtState::Continue {
                self.decision = Some(Decision {
                    state,
                    pairs: self.pairs.pairs(),
                    llr,
                });
            }
        }
        self.steps.push(Step {
            games: self.games.games(),
            pairs: self.pairs.pairs(),
            elo: self.pairs.figures().elo,
            llr,
        });
        Recorded::PairComplete
    }

    /// Whether pair `pair` (from 0) may begin: it is among the pairs asked
    /// for and the SPRT has not decided.
    pub fn may_begin(&self, pair: u64) -> bool {
        self.pairs_that_may_begin().is_none_or(|limit| pair < limit)
    }

    /// How many pairs, from the first, may begin: none once the SPRT has
    /// decided, else the pairs asked for; `None` when there is no limit.
    pub fn pairs_that_may_begin(&self) -> Option<u64> {
        match self.decision {
            Some(_) => Some(0),
            None => self.rule.pairs,
        }
    }

    /// The SPRT's decision, once taken.
    pub fn decision(&self) -> Option<Decision> {
        self.decision
    }

    /// Where the SPRT stands: its decision, or `Continue`; none without one.
    pub fn sprt_state(&self) -> Option<SprtState> {
        self.rule.sprt.map(|_| {
            self.decision
                .map_or(SprtState::Continue, |decision| decision.state)
        })
    }

    /// The LLR of every complete pair, decided or not; none without an SPRT.
    pub fn llr(&self) -> Option<f64> {
        self.rule.sprt.map(|sprt| sprt.llr_pentanomial(&self.pairs))
    }

    /// The stop rule.
    pub fn rule(&self) -> &StopRule {
        &self.rule
    }

    /// Every counted game.
    pub fn games(&self) -> &Trinomial {
        &self.games
    }

    /// The complete pairs.
    pub fn pairs(&self) -> &Pentanomial {
        &self.pairs
    }

    /// The candidate against each opponent, in the order of the opponents.
    pub fn against(&self) -> &[Against] {
        &self.against
    }

    /// The match's course: a step per completed pair.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// The counted outcomes of pair `pair`: the candidate's as Black, then
    /// as White.
    pub fn legs(&self, pair: u64) -> [Option<Outcome>; 2] {
        self.legs.get(&pair).copied().unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::super::schedule::SplitMix64;
    use super::super::{SprtModel, SprtSettings};
    use super::*;

    fn sprt(elo1: f64, error: f64) -> Sprt {
        Sprt::new(SprtSettings {
            elo0: 0.0,
            elo1,
            alpha: error,
            beta: error,
            model: SprtModel::Logistic,
        })
        .unwrap()
    }

    fn one() -> NonZeroUsize {
        NonZeroUsize::MIN
    }

    fn outcome(random: &mut SplitMix64, win_percent: u64) -> Outcome {
        match random.next_u64() % 100 {
            n if n < win_percent => Outcome::Win,
            n if n < win_percent + 5 => Outcome::Draw,
            _ => Outcome::Loss,
        }
    }

    #[test]
    fn a_decision_stands_when_the_pairs_finished_after_it_bring_the_llr_back() {
        let rule = StopRule {
            pairs: None,
            sprt: Some(sprt(200.0, 0.2)),
        };
        let mut ledger = Ledger::new(rule, one());
        let mut pair = 0;
        while ledger.decision().is_none() {
            assert!(ledger.may_begin(pair));
            ledger.record(pair, Color::Black, Outcome::Win);
            ledger.record(pair, Color::White, Outcome::Win);
            pair += 1;
            assert!(pair < 50, "ten won pairs decide this test");
        }
        let decided = ledger.decision().unwrap();
        assert_eq!(decided.state, SprtState::AcceptH1);
        assert_eq!(decided.pairs, pair);
        assert!(!ledger.may_begin(pair), "no pair after the decision");
        for late in pair..pair + 3 {
            ledger.record(late, Color::Black, Outcome::Loss);
            ledger.record(late, Color::White, Outcome::Loss);
        }
        let rule = ledger.rule().sprt.unwrap();
        assert_eq!(rule.state(ledger.llr().unwrap()), SprtState::Continue);
        assert_eq!(ledger.decision(), Some(decided));
        assert_eq!(ledger.sprt_state(), Some(SprtState::AcceptH1));
    }

    #[test]
    fn the_pairs_asked_for_stop_the_match_without_an_sprt() {
        let ledger = Ledger::new(
            StopRule {
                pairs: Some(3),
                sprt: None,
            },
            one(),
        );
        assert!(ledger.may_begin(2) && !ledger.may_begin(3));
        assert_eq!((ledger.sprt_state(), ledger.llr()), (None, None));
    }

    #[test]
    fn a_gauntlets_games_go_to_their_pairs_opponents() {
        let mut ledger = Ledger::new(
            StopRule {
                pairs: None,
                sprt: None,
            },
            NonZeroUsize::new(3).unwrap(),
        );
        for pair in 0..7 {
            ledger.record(pair, Color::Black, Outcome::Win);
            ledger.record(pair, Color::White, Outcome::Loss);
        }
        let pairs: Vec<u64> = ledger.against().iter().map(|a| a.pairs.pairs()).collect();
        assert_eq!(pairs, [3, 2, 2]);
        assert_eq!(ledger.against()[0].games.wins, 3);
    }

    proptest! {
        #[test]
        fn a_pair_counts_only_whole_and_each_game_once(
            records in proptest::collection::vec((0u64..12, any::<bool>(), 0u8..3), 0..80),
        ) {
            let mut ledger = Ledger::new(StopRule { pairs: None, sprt: Some(sprt(10.0, 0.05)) }, NonZeroUsize::new(2).unwrap());
            let mut seen = std::collections::BTreeSet::new();
            for (pair, black, result) in &records {
                let colour = if *black { Color::Black } else { Color::White };
                let outcome = [Outcome::Win, Outcome::Draw, Outcome::Loss][*result as usize];
                let recorded = ledger.record(*pair, colour, outcome);
                let fresh = seen.insert((*pair, *black));
                prop_assert_eq!(recorded == Recorded::Duplicate, !fresh);
            }
            let whole = (0u64..12)
                .filter(|p| seen.contains(&(*p, true)) && seen.contains(&(*p, false)))
                .count() as u64;
            prop_assert_eq!(ledger.pairs().pairs(), whole);
            prop_assert_eq!(ledger.games().games(), seen.len() as u64);
            prop_assert_eq!(ledger.steps().len() as u64, whole);
            let by_opponent: u64 = ledger.against().iter().map(|a| a.pairs.pairs()).sum();
            prop_assert_eq!(by_opponent, whole);
            let llr = ledger.llr().unwrap();
            prop_assert!(llr.is_finite());
        }

        #[test]
        fn the_match_stops_at_its_first_decided_pair_and_finishes_the_pairs_in_play(
            seed in any::<u64>(),
            boards in 1usize..9,
            win_percent in 0u64..95,
            limit in prop_oneof![Just(None), (1u64..80).prop_map(Some)],
        ) {
            let rule = StopRule { pairs: limit, sprt: Some(sprt(150.0, 0.1)) };
            let mut ledger = Ledger::new(rule, one());
            let mut random = SplitMix64::new(seed);
            let mut waiting: Vec<(u64, Color)> = Vec::new();
            let mut playing: Vec<(u64, Color)> = Vec::new();
            let mut begun = 0u64;
            let mut begun_at_decision = None;
            let mut completed = Vec::new();
            loop {
                while playing.len() < boards {
                    if let Some(game) = waiting.pop() {
                        playing.push(game);
                    } else if ledger.may_begin(begun) {
                        waiting.extend([(begun, Color::White), (begun, Color::Black)]);
                        begun += 1;
                    } else {
                        break;
                    }
                }
                if playing.is_empty() {
                    break;
                }
                let (pair, colour) = playing.swap_remove((random.next_u64() % playing.len() as u64) as usize);
                if random.next_u64().is_multiple_of(10) {
                    waiting.push((pair, colour));
                    continue;
                }
                let result = outcome(&mut random, win_percent);
                if ledger.record(pair, colour, result) == Recorded::PairComplete {
                    completed.push(ledger.legs(pair));
                }
                if ledger.decision().is_some() && begun_at_decision.is_none() {
                    begun_at_decision = Some(begun);
                }
                prop_assert!(begun < 1000, "a biased match decides long before");
            }
            prop_assert_eq!(ledger.pairs().pairs(), begun, "every begun pair is whole");
            let mut replay = Pentanomial::default();
            let first_decided = completed.iter().position(|legs| {
                replay.add_pair(legs[0].unwrap(), legs[1].unwrap());
                rule.sprt.unwrap().state(rule.sprt.unwrap().llr_pentanomial(&replay)) != SprtState::Continue
            });
            prop_assert_eq!(ledger.decision().map(|d| d.pairs), first_decided.map(|i| i as u64 + 1));
            match begun_at_decision {
                Some(at) => prop_assert_eq!(begun, at, "no pair begins after the decision"),
                None => prop_assert_eq!(Some(begun), limit),
            }
            if let Some(limit) = limit {
                prop_assert!(begun <= limit);
            }
        }
    }
}
