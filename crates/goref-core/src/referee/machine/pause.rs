//! The operator's hand on a game: the judge's commands (adjudicate, mark
//! dead stones, adjust a clock, void), the pause that holds the game and
//! the resumption that takes what came meanwhile, and the game's course
//! once nobody is left at the keyboard.

use std::time::{Duration, Instant};

use crate::game::clock::format_duration;
use crate::game::score::toggle_group;
use crate::game::Color;
use crate::referee::event::{AgreementEvent, End, GameEvent, GameResult, Phase};
use crate::referee::operator::{is_sgf_result, OperatorCommand};
use crate::referee::report::PlayerEvent;

use super::ending::vertices;
use super::{Referee, Waiting};

/// The game as the operator's pause holds it.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Pause {
    pub(super) since: Instant,
    /// What came from the players meanwhile that would change the game (a
    /// move, the CPU time reported with it), in order: taken at the
    /// resumption.
    pub(super) held: Vec<(Color, PlayerEvent)>,
    /// The side to move is still to be asked for its move.
    pub(super) request_due: bool,
    /// The venue's link to the seats went away: the pause ends by itself
    /// once every seat is back.
    pub(super) by_venue: bool,
}

impl Pause {
    pub(super) fn new(since: Instant) -> Pause {
        Pause {
            since,
            held: Vec::new(),
            request_due: false,
            by_venue: false,
        }
    }
}

impl Referee {
    pub fn handle_operator(&mut self, now: Instant, command: OperatorCommand) {
        let judging = matches!(self.phase, Phase::Adjudication | Phase::DeadStones);
        let refusal = match (&command, self.phase) {
            (_, Phase::Over) => Some("the game is over"),
            (OperatorCommand::Restart { .. }, _) => {
                Some("a program is started again by goref's driver, not the referee")
            }
            (OperatorCommand::Adjudicate { result, .. }, _) if !is_sgf_result(result) => {
                Some("a result must be in SGF form: B+3.5, W+R, B+T, W+F, B+, 0, Void or ?")
            }
            (OperatorCommand::ToggleDead(point), _) if self.board.get(*point).is_none() => {
                Some("'dead' names a stone, and that point is empty")
            }
            (OperatorCommand::Adjudicate { .. }, _) => None,
            (_, Phase::Setup) => Some("the game has not started"),
            (OperatorCommand::Resign { .. } | OperatorCommand::AdjustClock { .. }, _) => None,
            (OperatorCommand::PauseClocks { .. }, _) if self.pause.is_some() => {
                Some("the game is already paused")
            }
            (OperatorCommand::PauseClocks { .. }, Phase::Play | Phase::Cleanup) => None,
            (OperatorCommand::PauseClocks { .. }, _) => {
                Some("no clock runs now: the clocks run during play only")
            }
            (OperatorCommand::ResumeClocks, _) if self.pause.is_none() => {
                Some("the game is not paused")
            }
            (OperatorCommand::ResumeClocks, _) => None,
            (_, _) if judging => None,
            (OperatorCommand::ScoreNow { .. }, _) => Some(
                "'score' ends the game and counts it with the stones marked dead; it is \
                 available once the game awaits the judge (a dead-stone dispute, a time-out \
                 or a move limit), not during play",
            ),
            _ => Some(
                "'dead' marks a chain dead for the judge's count; it is available once the \
                 game awaits the judge (a dead-stone dispute, a time-out or a move limit), \
                 not during play",
            ),
        };
        if let Some(refusal) = refusal {
            self.events.push_back(GameEvent::Error {
                color: None,
                message: format!("operator command ignored: {refusal}"),
                fatal: false,
            });
            return;
        }
        if command == OperatorCommand::ResumeClocks {
            return self.resume_play(now, None);
        }
        self.events.push_back(GameEvent::Operator {
            command: command.to_string(),
            reason: command.reason(),
            paused_ms: None,
        });
        match command {
            OperatorCommand::Adjudicate { result, reason } => {
                let winner = match result.chars().next() {
                    Some('B') => Some(Color::Black),
                    Some('W') => Some(Color::White),
                    _ => None,
                };
                let (end, reason) = match result.as_str() {
                    "Void" => (End::Void, format!("voided by the operator: {reason}")),
                    _ => (End::Adjudicated, format!("adjudicated: {reason}")),
                };
                self.finish(now, GameResult::new(result, reason, winner, end));
            }
            OperatorCommand::ScoreNow { reason } => {
                let dead = self.marked_dead.clone();
                let reason = format!("scored by the operator: {reason}");
                self.finish_by_score(now, &dead, reason, End::ScoredByJudge);
            }
            OperatorCommand::Resign { color, reason } => {
                let why = format!("{color} resigned, as its operator told the judge ({reason})");
                let result = self.defeat(color, "R", why, End::Resign);
                self.finish(now, result);
            }
            OperatorCommand::PauseClocks { .. } => self.pause_play(now),
            OperatorCommand::ResumeClocks => {}
            OperatorCommand::AdjustClock {
                color, delta_ms, ..
            } => {
                self.clocks[color.index()].adjust(delta_ms);
                self.tell_clock(now, color);
            }
            OperatorCommand::Restart { .. } => {}
            OperatorCommand::ToggleDead(point) => {
                toggle_group(&self.board, &mut self.marked_dead, point);
                self.events
                    .push_back(GameEvent::Agreement(AgreementEvent::Marked {
                        stones: vertices(&self.marked_dead),
                    }));
            }
        }
    }

    /// A seated program that came back is told the game again: its running
    /// turn stops, charged up to now (its absence counts), and starts again
    /// when the move is asked of it anew; a seat lost again meanwhile has
    /// the held turn run again.
    pub(super) fn on_telling_again(&mut self, now: Instant, color: Color, telling: bool) {
        let on_move = matches!(self.waiting, Waiting::Move { color: c, .. } if c == color);
        let clock = &mut self.clocks[color.index()];
        let held = &mut self.told_again[color.index()];
        match telling {
            true if on_move && clock.is_running() => {
                clock.cancel(now);
                *held = true;
                self.events.push_back(GameEvent::Notice {
                    color: Some(color),
                    message: format!(
                        "{color}'s clock is held while its program is told the game again"
                    ),
                });
            }
            false if *held && on_move && self.pause.is_none() => {
                *held = false;
                clock.start(now);
            }
            _ => return,
        }
        self.tell_clock(now, color);
    }

    /// Holds the game: the running clock stops, charged up to now.
    pub(super) fn pause_play(&mut self, now: Instant) {
        self.pause = Some(Pause::new(now));
        for color in Color::BOTH {
            if self.clocks[color.index()].is_running() {
                self.clocks[color.index()].cancel(now);
                self.tell_clock(now, color);
            }
        }
    }

    /// A move (or the CPU time reported with it) that came during the pause:
    /// kept, unchecked and untold, for the resumption.
    pub(super) fn hold(&mut self, color: Color, event: PlayerEvent) {
        let Some(pause) = &mut self.pause else {
            return;
        };
        let mv = match &event {
            PlayerEvent::Moved(mv) | PlayerEvent::Typed(mv) => Some(*mv),
            _ => None,
        };
        pause.held.push((color, event));
        if let Some(mv) = mv {
            self.events.push_back(GameEvent::Notice {
                color: Some(color),
                message: format!(
                    "{color}'s move {mv} came during the pause: it is held, and taken when the \
                     game resumes"
                ),
            });
        }
    }

    /// Ends the pause (the operator's `resume`, or goref's own when nobody
    /// is left to give it, `why`): what was held is taken, in the order it
    /// came, and the side to move is asked for its move, or its clock starts
    /// again where the request reached it before the pause.
    pub(super) fn resume_play(&mut self, now: Instant, why: Option<String>) {
        let Some(pause) = self.pause.take() else {
            return;
        };
        let paused = now.saturating_duration_since(pause.since);
        let held: Vec<String> = pause
            .held
            .iter()
            .filter_map(|(color, event)| match event {
                PlayerEvent::Moved(mv) | PlayerEvent::Typed(mv) => Some(format!("{color}'s {mv}")),
                _ => None,
            })
            .collect();
        let goes_on = match why {
            Some(why) => format!("{why}: it goes on"),
            None => "the game goes on".to_string(),
        };
        let tenths = Duration::from_millis(paused.as_millis() as u64 / 100 * 100);
        let mut reason = match tenths.is_zero() {
            true => goes_on,
            false => format!("{goes_on} after {} paused", format_duration(tenths)),
        };
        if !held.is_empty() {
            reason.push_str(&format!(
                "; {}, held since it came during the pause, is taken now",
                held.join(", ")
            ));
        }
        self.events.push_back(GameEvent::Operator {
            command: OperatorCommand::ResumeClocks.to_string(),
            reason,
            paused_ms: Some(u64::try_from(paused.as_millis()).unwrap_or(u64::MAX)),
        });
        let turn = self.moves_played;
        for (color, event) in pause.held {
            self.handle_player(now, color, event);
        }
        let same_turn =
            self.moves_played == turn && matches!(self.phase, Phase::Play | Phase::Cleanup);
        let Waiting::Move { color, .. } = self.waiting else {
            return;
        };
        if !same_turn || self.clocks[color.index()].is_running() {
            return;
        }
        if pause.request_due {
            return self.request_move(now);
        }
        self.waiting = Waiting::Move { color, since: now };
        self.clocks[color.index()].start(now);
        self.tell_clock(now, color);
    }

    /// The operator's input has closed: a pause ends, since nobody is left
    /// to end it, and a game taken back paused will come back running.
    pub fn operator_left(&mut self, now: Instant) {
        self.unattended = true;
        if self.pause.is_some() && self.phase != Phase::Over {
            let why = "the operator's input closed, and nobody is left to resume the game";
            self.resume_play(now, Some(why.into()));
        }
    }

    /// Whether the operator holds the game.
    #[cfg(test)]
    pub(crate) fn is_paused(&self) -> bool {
        self.pause.is_some()
    }

    /// Tells the operator something that is not a fault, e.g. why a typed
    /// line was not understood.
    pub fn notice(&mut self, message: String) {
        self.events.push_back(GameEvent::Notice {
            color: None,
            message,
        });
    }

    /// Asks the operator for something, e.g. the judge's decision.
    pub fn prompt(&mut self, message: String) {
        self.events.push_back(GameEvent::Prompt {
            color: None,
            message,
        });
    }

    /// Ends the game as `Void` because goref itself must stop (a signal),
    /// with the reason as given. Nothing happens once the game is over.
    pub fn void(&mut self, now: Instant, reason: String) {
        if self.phase == Phase::Over {
            return;
        }
        let end = if self.phase == Phase::Setup {
            End::NoGame
        } else {
            End::Void
        };
        self.finish(now, GameResult::new("Void".into(), reason, None, end));
    }

    /// No operator is attached (any more): a game that awaits the judge ends
    /// as `?` with the cause it went to the judge for. With `why`, a game
    /// that cannot go on without an operator (a typed player) ends so too,
    /// whatever its phase. Otherwise nothing happens.
    pub fn without_operator(&mut self, now: Instant, why: Option<String>) {
        if self.phase == Phase::Over {
            return;
        }
        let (cause, end, limit) = match (&self.judge_reason, why) {
            (_, Some(why)) => (why, End::NoOperator, None),
            (Some(reason), None) => match self.stopped_at {
                Some(limit) => (reason.clone(), End::MoveLimit, Some(limit)),
                None => (reason.clone(), End::NoOperator, None),
            },
            (None, None) => return,
        };
        let end = if self.phase == Phase::Setup {
            End::NoGame
        } else {
            end
        };
        let reason = format!("{cause}; no operator is attached");
        let mut result = GameResult::new("?".into(), reason, None, end);
        result.limit = limit;
        self.finish(now, result);
    }
}
