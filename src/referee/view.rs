//! `GameView`: the pure fold of the event stream that every screen draws.
//!
//! The host's screen and each spectator's apply the same events to the same
//! reducer, so their views are equal by construction. The view is bounded:
//! the trace and the error list keep only their newest lines.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use crate::game::clock::ClockReading;
use crate::game::{Color, Point};
use crate::protocol::sgmp::link::TraceEntry;

use super::event::{
    attributed, AgreementEvent, GameEvent, GameResult, LineDirection, Phase, PlayerInfo,
};

/// How many trace lines the view keeps.
pub const TRACE_CAPACITY: usize = 2000;
/// How many error lines the view keeps.
pub const ERROR_CAPACITY: usize = 200;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MoveLine {
    pub n: u32,
    pub color: Color,
    pub vertex: String,
    pub ms: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TraceLine {
    pub color: Color,
    pub direction: LineDirection,
    pub line: String,
}

/// One packet of a GMP line, as the trace pane shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PacketLine {
    pub color: Color,
    pub wire_ms: Option<f64>,
    #[serde(flatten)]
    pub entry: TraceEntry,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct AgreementView {
    pub claims: [Option<Vec<String>>; 2],
    pub notes: [Option<String>; 2],
    pub agreed: Option<Vec<String>>,
    pub black_only: Vec<String>,
    pub white_only: Vec<String>,
    pub marked: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameView {
    pub size: u8,
    pub komi: f64,
    pub rules: String,
    pub ruleset: String,
    pub time: String,
    pub players: [PlayerInfo; 2],
    /// Row-major from A1, indexed by [`Point::index`].
    pub board: Vec<Option<Color>>,
    pub last_move: Option<MoveLine>,
    pub first_to_move: Option<Color>,
    /// Who is asked to move; `None` while nobody is.
    pub to_move: Option<Color>,
    pub moves: Vec<MoveLine>,
    /// Stones captured by Black and by White.
    pub captures: [u32; 2],
    pub clocks: [Option<ClockReading>; 2],
    pub phase: Phase,
    pub phase_reason: String,
    pub agreement: AgreementView,
    pub trace: VecDeque<TraceLine>,
    pub packets: VecDeque<PacketLine>,
    pub errors: VecDeque<String>,
    /// Notices for the operator that are not faults, newest last.
    #[serde(default)]
    pub notices: VecDeque<String>,
    /// What goref is asking the operator for, while it asks.
    #[serde(default)]
    pub prompt: Option<String>,
    pub result: Option<GameResult>,
}

impl Default for GameView {
    fn default() -> Self {
        GameView {
            size: 19,
            komi: 0.0,
            rules: String::new(),
            ruleset: String::new(),
            time: String::new(),
            players: Default::default(),
            board: vec![None; 19 * 19],
            last_move: None,
            first_to_move: None,
            to_move: None,
            moves: Vec::new(),
            captures: [0, 0],
            clocks: [None, None],
            phase: Phase::Setup,
            phase_reason: String::new(),
            agreement: AgreementView::default(),
            trace: VecDeque::new(),
            packets: VecDeque::new(),
            errors: VecDeque::new(),
            notices: VecDeque::new(),
            prompt: None,
            result: None,
        }
    }
}

impl GameView {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn stone(&self, point: Point) -> Option<Color> {
        self.board.get(point.index(self.size)).copied().flatten()
    }

    pub fn apply(&mut self, event: &GameEvent) {
        match event {
            GameEvent::Player { color, info } => self.players[color.index()] = info.clone(),
            GameEvent::Prompt { message, .. } => self.prompt = Some(message.clone()),
            GameEvent::Operator { command, reason } => push_bounded(
                &mut self.notices,
                format!("operator: {command} ({reason})"),
                ERROR_CAPACITY,
            ),
            GameEvent::GameStart(start) => {
                *self = GameView::default();
                self.size = start.size;
                self.komi = start.komi;
                self.rules = start.rules.clone();
                self.ruleset = start.ruleset.clone();
                self.time = start.time.clone();
                self.players = [start.black.clone(), start.white.clone()];
                self.board = vec![None; start.size as usize * start.size as usize];
                for vertex in &start.handicap {
                    self.put(vertex, Some(Color::Black));
                }
                self.first_to_move = Some(start.first_to_move);
                self.to_move = Some(start.first_to_move);
            }
            GameEvent::Move {
                n,
                color,
                vertex,
                ms,
                captures,
                clock,
            } => {
                self.put(vertex, Some(*color));
                for captured in captures {
                    self.put(captured, None);
                }
                self.captures[color.index()] += captures.len() as u32;
                self.clocks[color.index()] = Some(clock.clone());
                let line = MoveLine {
                    n: *n,
                    color: *color,
                    vertex: vertex.clone(),
                    ms: *ms,
                };
                self.moves.push(line.clone());
                self.last_move = Some(line);
                self.prompt = None;
                self.to_move = Some(color.opponent());
            }
            GameEvent::Clock { color, clock } => {
                self.clocks[color.index()] = Some(clock.clone());
            }
            GameEvent::Packet {
                color,
                wire_ms,
                entry,
            } => push_bounded(
                &mut self.packets,
                PacketLine {
                    color: *color,
                    wire_ms: *wire_ms,
                    entry: entry.clone(),
                },
                TRACE_CAPACITY,
            ),
            GameEvent::Gtp {
                color,
                direction,
                line,
            } => {
                push_bounded(
                    &mut self.trace,
                    TraceLine {
                        color: *color,
                        direction: *direction,
                        line: line.clone(),
                    },
                    TRACE_CAPACITY,
                );
            }
            GameEvent::Agreement(agreement) => self.apply_agreement(agreement),
            GameEvent::Phase { phase, reason } => {
                self.phase = *phase;
                self.phase_reason = reason.clone();
                self.to_move = match phase {
                    Phase::Play | Phase::Cleanup => self.next_to_move(),
                    _ => None,
                };
            }
            GameEvent::Illegal {
                n,
                color,
                vertex,
                reason,
            } => {
                let text = format!("move {n}: {color} {vertex} is illegal ({reason})");
                push_bounded(&mut self.errors, text, ERROR_CAPACITY);
            }
            GameEvent::Result(result) => {
                self.result = Some(result.clone());
                self.to_move = None;
                self.prompt = None;
                for clock in self.clocks.iter_mut().flatten() {
                    clock.running = false;
                }
            }
            GameEvent::Error { color, message, .. } => {
                push_bounded(
                    &mut self.errors,
                    attributed(*color, message),
                    ERROR_CAPACITY,
                );
            }
            GameEvent::Notice { color, message } => {
                push_bounded(
                    &mut self.notices,
                    attributed(*color, message),
                    ERROR_CAPACITY,
                );
            }
        }
    }

    /// Who moves next when play goes on: the opponent of the last mover.
    fn next_to_move(&self) -> Option<Color> {
        match &self.last_move {
            Some(last) => Some(last.color.opponent()),
            None => self.first_to_move,
        }
    }

    fn apply_agreement(&mut self, event: &AgreementEvent) {
        let agreement = &mut self.agreement;
        match event {
            AgreementEvent::Claim {
                color,
                stones,
                note,
            } => {
                agreement.claims[color.index()] = Some(stones.clone());
                agreement.notes[color.index()] = note.clone();
            }
            AgreementEvent::Agreed { stones } => agreement.agreed = Some(stones.clone()),
            AgreementEvent::Disputed {
                black_only,
                white_only,
            } => {
                agreement.black_only = black_only.clone();
                agreement.white_only = white_only.clone();
            }
            AgreementEvent::Marked { stones } => agreement.marked = stones.clone(),
        }
    }

    fn put(&mut self, vertex: &str, stone: Option<Color>) {
        if let Ok(point) = Point::parse_gtp(vertex, self.size) {
            self.board[point.index(self.size)] = stone;
        }
    }
}

fn push_bounded<T>(queue: &mut VecDeque<T>, item: T, capacity: usize) {
    if queue.len() == capacity {
        queue.pop_front();
    }
    queue.push_back(item);
}

#[cfg(test)]
mod tests;
