//! Where a game stood when its referee stopped, read from its journal: the
//! moves, each side's clock as last recorded, and the phase. `goref resume`
//! rebuilds the [`super::Referee`] from it ([`super::Referee::resume`]).
//!
//! A turn that was under way is lost with the referee: the side to move is
//! asked again, with its clock as it was when the turn began, so the time
//! the referee was down is charged to nobody. A GMP line goes on where its
//! link left off: its packet trace gives the sequence bits, the command
//! still unacknowledged and the MOVEs that crossed it. A game the operator
//! had paused comes back paused.

use crate::game::clock::ClockReading;
use crate::game::{Color, Move};
use crate::protocol::sgmp::LineMemory;

use super::event::{GameEvent, Phase, StampedEvent};

/// The state a journal leaves a game in.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ResumePoint {
    /// The game had started (a `game_start` is in the journal); otherwise
    /// it starts again from the beginning.
    pub started: bool,
    /// Every move played, in order.
    pub moves: Vec<(Color, Move)>,
    /// Each side's clock as the journal last shows it, Black's first.
    pub clocks: [Option<ClockReading>; 2],
    /// The phase the game was in.
    pub phase: Option<Phase>,
    /// Why the game awaited the judge, if it did.
    pub judge_reason: Option<String>,
    /// Why the operator had paused the game, if it was paused.
    pub paused: Option<String>,
    /// What the packet trace says of each side's GMP line, Black's first;
    /// `None` for a side that had no line.
    pub lines: [Option<LineMemory>; 2],
    /// The last event's `seq` and time.
    pub last_seq: u64,
    pub last_t_ms: u64,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ResumeError {
    #[error("the game is over ({result}: {reason}); there is nothing to resume")]
    Over { result: String, reason: String },
    #[error("move {n} in the journal ({vertex}) is not a move on this board: {why}")]
    BadMove { n: u32, vertex: String, why: String },
    #[error("move {n} in the journal comes after move {last}")]
    OutOfOrder { n: u32, last: u32 },
}

impl ResumePoint {
    /// Folds a journal's events, in order, into the point they leave the
    /// game at.
    pub fn from_events<'a>(
        events: impl IntoIterator<Item = &'a StampedEvent>,
        size: u8,
    ) -> Result<ResumePoint, ResumeError> {
        let mut point = ResumePoint::default();
        for stamped in events {
            point.last_seq = stamped.seq;
            point.last_t_ms = stamped.t_ms;
            match &stamped.event {
                GameEvent::GameStart(_) => point.started = true,
                GameEvent::Move {
                    n,
                    color,
                    vertex,
                    clock,
                    ..
                } => {
                    let last = point.moves.len() as u32;
                    if *n != last + 1 {
                        return Err(ResumeError::OutOfOrder { n: *n, last });
                    }
                    let mv = Move::parse_gtp(vertex, size).map_err(|e| ResumeError::BadMove {
                        n: *n,
                        vertex: vertex.clone(),
                        why: e.to_string(),
                    })?;
                    point.moves.push((*color, mv));
                    point.clocks[color.index()] = Some(clock.clone());
                }
                GameEvent::Clock { color, clock } => {
                    point.clocks[color.index()] = Some(clock.clone());
                }
                GameEvent::Packet { color, entry, .. } => point.lines[color.index()]
                    .get_or_insert_with(LineMemory::default)
                    .observe(entry),
                GameEvent::Phase { phase, reason } => {
                    point.phase = Some(*phase);
                    point.judge_reason = (*phase == Phase::Adjudication).then(|| reason.clone());
                }
                GameEvent::Operator {
                    command, reason, ..
                } => match command.as_str() {
                    "pause" => point.paused = Some(reason.clone()),
                    "resume" => point.paused = None,
                    _ => {}
                },
                GameEvent::Result(result) => {
                    return Err(ResumeError::Over {
                        result: result.result.clone(),
                        reason: result.reason.clone(),
                    })
                }
                _ => {}
            }
        }
        Ok(point)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::{End, GameResult};
    use crate::test_support::{clock_reading, game_start};

    fn stamped(seq: u64, event: GameEvent) -> StampedEvent {
        StampedEvent {
            seq,
            t_ms: seq * 100,
            after_result: false,
            event,
        }
    }

    fn reading(main_left_ms: u64, running: bool) -> ClockReading {
        ClockReading {
            running,
            used_ms: 60_000 - main_left_ms,
            ..clock_reading(main_left_ms)
        }
    }

    fn a_move(n: u32, color: Color, vertex: &str, left: u64) -> GameEvent {
        GameEvent::Move {
            n,
            color,
            vertex: vertex.into(),
            ms: 0,
            captures: Vec::new(),
            clock: reading(left, false),
            referee_us: None,
            net_ms: None,
            opening: false,
        }
    }

    #[test]
    fn the_moves_the_clocks_and_the_phase_are_taken_back() {
        let events = vec![
            stamped(
                1,
                GameEvent::GameStart(Box::new(game_start(9, &[], Color::Black))),
            ),
            stamped(2, a_move(1, Color::Black, "E5", 50_000)),
            stamped(3, a_move(2, Color::White, "pass", 40_000)),
            stamped(
                4,
                GameEvent::Clock {
                    color: Color::Black,
                    clock: reading(50_000, true),
                },
            ),
        ];
        let point = ResumePoint::from_events(&events, 9).unwrap();
        assert!(point.started);
        assert_eq!(point.moves.len(), 2);
        assert_eq!(point.moves[1], (Color::White, Move::Pass));
        assert_eq!(point.clocks[1].as_ref().unwrap().main_left_ms, 40_000);
        assert_eq!(point.clocks[0].as_ref().unwrap().main_left_ms, 50_000);
        assert_eq!((point.last_seq, point.last_t_ms), (4, 400));
    }

    #[test]
    fn a_finished_game_a_foreign_vertex_and_a_skipped_move_are_refused() {
        let over = vec![stamped(
            1,
            GameEvent::Result(GameResult::new(
                "B+R".into(),
                "White resigned".into(),
                Some(Color::Black),
                End::Resign,
            )),
        )];
        let error = ResumePoint::from_events(&over, 9).unwrap_err();
        assert!(error.to_string().contains("nothing to resume"), "{error}");
        let off_board = vec![stamped(1, a_move(1, Color::Black, "T19", 0))];
        assert!(matches!(
            ResumePoint::from_events(&off_board, 9),
            Err(ResumeError::BadMove { .. })
        ));
        let skipped = vec![stamped(1, a_move(2, Color::Black, "E5", 0))];
        assert!(matches!(
            ResumePoint::from_events(&skipped, 9),
            Err(ResumeError::OutOfOrder { .. })
        ));
    }
}
