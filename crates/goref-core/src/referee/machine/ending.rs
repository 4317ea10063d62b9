//! The end of a game: two passes, the dead stones agreed or claimed (the
//! KGS protocol, `reference/gtp-kgs.md` §8, or the judge's end), the score,
//! and the result.

use std::collections::BTreeSet;
use std::time::Instant;

use crate::game::rules::EndOfGame;
use crate::game::score::score;
use crate::game::{Color, Point};
use crate::referee::event::{AgreementEvent, End, GameEvent, GameResult, Phase};
use crate::referee::report::{Action, Failure, FailureKind};

use super::{Referee, Waiting};

impl Referee {
    pub(super) fn on_double_pass(&mut self, now: Instant) {
        if self.phase == Phase::Cleanup {
            let none = BTreeSet::new();
            return self.finish_by_score(
                now,
                &none,
                "second double pass after the cleanup phase: every stone on the board is alive"
                    .into(),
                End::DoublePassCleanup,
            );
        }
        self.set_phase(
            Phase::DeadStones,
            "two consecutive passes: asking for dead stones".into(),
        );
        self.claims = [None, None];
        self.waiting = Waiting::DeadStones;
        self.no_claim = [None, None];
        let judged = self.config.rules.end_of_game == EndOfGame::Judge;
        for color in Color::BOTH {
            let info = self.players[color.index()].clone().unwrap_or_default();
            let asked = match self.config.rules.end_of_game {
                EndOfGame::KgsCleanup => info.kgs_end_protocol,
                EndOfGame::Judge => info.claims_dead_stones,
            };
            if asked {
                self.actions.push_back(Action::RequestDeadStones { color });
            } else if judged {
                let why = match info.protocol.as_str() {
                    "gtp" => "its engine does not list final_status_list",
                    "human" => "its moves are typed by the operator",
                    "sgmp" | "gmp" => "a GMP line has no dead-stone question",
                    _ => "it has no way to say which stones are dead",
                };
                self.on_no_claim(now, color, why.into());
            } else {
                let why = "does not support both final_status_list and kgs-genmove_cleanup";
                self.on_no_claim(now, color, why.into());
            }
        }
    }

    /// A side that cannot say which stones are dead. Under the KGS protocol
    /// it claims none; under the judge's end of game it has agreed to
    /// nothing, so the judge marks the dead stones.
    pub(super) fn on_no_claim(&mut self, now: Instant, color: Color, why: String) {
        let note = match self.config.rules.end_of_game {
            EndOfGame::KgsCleanup => format!("{why}: claims no dead stones"),
            EndOfGame::Judge => {
                self.no_claim[color.index()] = Some(why.clone());
                format!("{why}: it cannot claim dead stones, the judge marks them")
            }
        };
        self.on_claim(now, color, Vec::new(), Some(note));
    }

    pub(super) fn on_claim(
        &mut self,
        now: Instant,
        color: Color,
        stones: Vec<Point>,
        note: Option<String>,
    ) {
        if self.waiting != Waiting::DeadStones || self.claims[color.index()].is_some() {
            return;
        }
        let (claim, note) = self.expand_claim(stones, note);
        self.events
            .push_back(GameEvent::Agreement(AgreementEvent::Claim {
                color,
                stones: vertices(&claim),
                note,
            }));
        self.claims[color.index()] = Some(claim);
        let [Some(black), Some(white)] = self.claims.clone() else {
            return;
        };
        self.waiting = Waiting::Nothing;
        let unable: Vec<String> = Color::BOTH
            .into_iter()
            .filter_map(|c| {
                Some(format!(
                    "{c} cannot claim dead stones ({})",
                    self.no_claim[c.index()].as_ref()?
                ))
            })
            .collect();
        if !unable.is_empty() {
            self.marked_dead = BTreeSet::new();
            self.events
                .push_back(GameEvent::Agreement(AgreementEvent::Marked {
                    stones: Vec::new(),
                }));
            let reason = format!("the judge marks the dead stones: {}", unable.join("; "));
            return self.await_judge(now, reason);
        }
        if black == white {
            self.events
                .push_back(GameEvent::Agreement(AgreementEvent::Agreed {
                    stones: vertices(&black),
                }));
            return self.finish_by_score(
                now,
                &black,
                "both programs agree on the dead stones".into(),
                End::DoublePassAgreed,
            );
        }
        self.events
            .push_back(GameEvent::Agreement(AgreementEvent::Disputed {
                black_only: vertices(&(&black - &white)),
                white_only: vertices(&(&white - &black)),
            }));
        let can_clean_up = self
            .players
            .iter()
            .flatten()
            .all(|info| !info.stops_at_double_pass);
        match self.config.rules.end_of_game {
            EndOfGame::KgsCleanup if can_clean_up => {
                self.consecutive_passes = 0;
                self.set_phase(
                    Phase::Cleanup,
                    "the dead-stone claims differ: play resumes until the dead stones are captured"
                        .into(),
                );
                self.request_move(now);
            }
            EndOfGame::KgsCleanup | EndOfGame::Judge => {
                self.marked_dead = &black & &white;
                self.events
                    .push_back(GameEvent::Agreement(AgreementEvent::Marked {
                        stones: vertices(&self.marked_dead),
                    }));
                self.await_judge(now, "the dead-stone claims differ".into());
            }
        }
    }

    /// Expands each claimed stone to its whole chain. A claim naming an empty
    /// point is malformed: it counts as no dead stones, and says so.
    pub(super) fn expand_claim(
        &self,
        stones: Vec<Point>,
        note: Option<String>,
    ) -> (BTreeSet<Point>, Option<String>) {
        let mut claim = BTreeSet::new();
        for point in &stones {
            if self.board.get(*point).is_none() {
                let note = format!("claimed {point} dead, which holds no stone: no stones dead");
                return (BTreeSet::new(), Some(note));
            }
            claim.extend(self.board.group(*point));
        }
        (claim, note)
    }
}

pub(super) fn vertices(points: &BTreeSet<Point>) -> Vec<String> {
    points.iter().map(|p| p.to_gtp()).collect()
}

impl Referee {
    pub(super) fn time_out(&mut self, now: Instant, color: Color) {
        let clock = self.clocks[color.index()].reading(now);
        self.events.push_back(GameEvent::Clock { color, clock });
        let on_move = self.counted_moves() + 1;
        if let Some(before) = self.config.rules.limits.time_loss_before {
            if on_move >= before {
                return self.await_judge(
                    now,
                    format!("{color} ran out of time on move {on_move}, from move {before} on the judge decides"),
                );
            }
        }
        let mut result = self.defeat(color, "T", format!("{color} ran out of time"), End::Time);
        result.limit = self.config.rules.limits.time_loss_before;
        self.finish(now, result);
    }

    /// A player that can no longer play loses by forfeit; before the game
    /// started, there is no game.
    pub(super) fn forfeit(&mut self, now: Instant, loser: Color, failure: Failure) {
        self.fatal(loser, &failure.reason);
        if self.phase == Phase::Setup && self.resuming.is_some() {
            return self.stop_taking_back(failure.reason);
        }
        if self.phase == Phase::Setup {
            let result = GameResult::new("Void".into(), failure.reason, None, End::NoGame);
            return self.finish(now, result);
        }
        let mut result = self.defeat(loser, "F", failure.reason.clone(), failure.end());
        if let FailureKind::Crash { exit } = failure.kind {
            result.exit = exit;
        }
        self.finish(now, result);
    }

    /// A game taken back from its journal whose player failed before both
    /// were ready: no result, so the game stays as the journal left it, to
    /// be taken back again once the fault is mended. A player that cannot
    /// come back (a line that is not there, a program that will not start)
    /// is the venue's problem, not a fault of the game.
    pub(super) fn stop_taking_back(&mut self, reason: String) {
        self.waiting = Waiting::Nothing;
        self.not_taken_back = Some(reason.clone());
        self.set_phase(
            Phase::Over,
            format!("the game was not taken back: {reason}"),
        );
    }

    /// Why the game taken back from its journal could not go on, if so.
    pub fn not_taken_back(&self) -> Option<&str> {
        self.not_taken_back.as_deref()
    }

    /// The result of `loser` losing the game: `B+F`, `W+R`, ...
    pub(super) fn defeat(&self, loser: Color, how: &str, reason: String, end: End) -> GameResult {
        let winner = loser.opponent();
        let result = format!("{}+{how}", winner.letter());
        GameResult::new(result, reason, Some(winner), end)
    }

    /// A fault that ends the game, told before its result.
    pub(super) fn fatal(&mut self, color: Color, reason: &str) {
        self.events.push_back(GameEvent::Error {
            color: Some(color),
            message: reason.to_string(),
            fatal: true,
        });
    }

    pub(super) fn await_judge(&mut self, now: Instant, reason: String) {
        self.waiting = Waiting::Nothing;
        self.stop_clocks(now);
        self.judge_reason = Some(reason.clone());
        self.set_phase(Phase::Adjudication, reason);
    }

    pub(super) fn stop_clocks(&mut self, now: Instant) {
        for clock in &mut self.clocks {
            if clock.is_running() {
                clock.stop(now);
            }
        }
    }

    pub(super) fn finish_by_score(
        &mut self,
        now: Instant,
        dead: &BTreeSet<Point>,
        reason: String,
        end: End,
    ) {
        let rules = &self.config.rules;
        let score = score(&self.board, dead, rules.scoring, rules.komi);
        let (result, winner) = score.result();
        let mut result = GameResult::new(result, reason, winner, end);
        result.score = Some(score);
        self.finish(now, result);
    }

    pub(super) fn finish(&mut self, now: Instant, result: GameResult) {
        self.waiting = Waiting::Nothing;
        self.judge_reason = None;
        self.stopped_at = None;
        self.stop_clocks(now);
        self.set_phase(Phase::Over, result.reason.clone());
        self.actions.push_back(Action::GameOver {
            result: result.result.clone(),
        });
        self.events.push_back(GameEvent::Result(result.clone()));
        self.result = Some(result);
    }
}
