//! The end of a game: two passes, the dead stones agreed or claimed (the
//! KGS protocol, `reference/gtp-kgs.md` §8, or the judge's end), the score,
//! and the result.

use std::collections::BTreeSet;
use std::time::Instant;

use crate::game::rules::EndOfGame;
use crate::game::score::Score;
use crate::game::{Color, Point};
use crate::referee::event::{AgreementEvent, End, GameEvent, Phase};
use crate::referee::report::Action;

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

/// The SGF `RE` value and the winner for a score.
pub(super) fn result_of(score: &Score) -> (String, Option<Color>) {
    let margin = score.margin();
    if margin > 0.0 {
        (format!("B+{margin}"), Some(Color::Black))
    } else if margin < 0.0 {
        (format!("W+{}", -margin), Some(Color::White))
    } else {
        ("0".to_string(), None)
    }
}

pub(super) fn vertices(points: &BTreeSet<Point>) -> Vec<String> {
    points.iter().map(|p| p.to_gtp()).collect()
}
