//! Reading a stream back: the pure check that a `--json`/`--trace` stream is
//! one goref could have written.
//!
//! [`Validator`] takes the stream's lines one at a time, with their numbers,
//! and says for each what it is (the header, an event as parsed, an event of
//! a type this goref does not know) or the first way it is inconsistent
//! ([`Inconsistency`]): a missing or newer header, a line that is not JSON or
//! an event that does not parse, a gap or repeat in `seq`, a move the rules
//! forbid (replayed on a [`Board`] built from `game_start`), or a result that
//! does not follow. Reading the file, bounding its lines and printing belong
//! to the shell (`crate::replay`).

use std::collections::BTreeSet;

use serde_json::Value;

use crate::game::board::{Board, BoardRules, Illegal, KoRule};
use crate::game::{Color, Point};

use super::event::{GameEvent, GameStart, Phase, StampedEvent, StreamHeader, SCHEMA_VERSION};

/// What one line of a stream is.
#[derive(Debug, Clone, PartialEq)]
pub enum Line {
    Header(StreamHeader),
    Event(Box<StampedEvent>),
    /// An event of a type this goref does not know: skipped.
    Unknown {
        kind: String,
    },
}

/// The first way a stream is not one goref could have written.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Inconsistency {
    #[error("the file is empty: no stream header")]
    Empty,
    #[error("not JSON: {0}")]
    NotJson(String),
    #[error("not a JSON object with a type")]
    NoType,
    #[error("the first line is not the stream header (type \"{0}\"); is this a goref trace?")]
    NoHeader(String),
    #[error("a stream header that does not parse: {0}")]
    BadHeader(String),
    #[error(
        "written by a newer goref (schema {0}); this goref reads schema {SCHEMA_VERSION} and older"
    )]
    NewerSchema(u32),
    #[error("a second stream header")]
    SecondHeader,
    #[error("a {0} event without seq")]
    NoSeq(String),
    #[error("seq jumps from {} to {found}: {}", .expected - 1, missing(*.expected, *.found))]
    SeqGap { expected: u64, found: u64 },
    #[error("seq {found} repeats or goes back (seq {expected} comes next)")]
    SeqRepeat { expected: u64, found: u64 },
    #[error("a {kind} event that does not parse: {error}")]
    BadEvent { kind: String, error: String },
    #[error("game_start describes no game: {0}")]
    BadStart(String),
    #[error("a second game_start (the first is on line {0})")]
    SecondStart(usize),
    #[error("game_start after the result on line {0}")]
    StartAfterResult(usize),
    #[error("move {0} before game_start")]
    MoveBeforeStart(u32),
    #[error("move {found} where move {expected} comes next")]
    MoveNumber { expected: u32, found: u32 },
    #[error("move {n} is {color}'s, but {to_move} is to move")]
    WrongTurn {
        n: u32,
        color: Color,
        to_move: Color,
    },
    #[error("move {n}: {vertex} is not a point on a {size}x{size} board")]
    BadVertex { n: u32, vertex: String, size: u8 },
    #[error("move {n}: {color} {vertex} is illegal here ({reason})")]
    Illegal {
        n: u32,
        color: Color,
        vertex: String,
        reason: Illegal,
    },
    #[error("move {n} lists the captures [{}] but the board captures [{}]", .listed.join(","), .actual.join(","))]
    Captures {
        n: u32,
        listed: Vec<String>,
        actual: Vec<String>,
    },
    #[error("a second result (the first is on line {0})")]
    SecondResult(usize),
    #[error("a {kind} event after the result (line {result_line}) is not marked after_result")]
    NotMarkedAfterResult { kind: String, result_line: usize },
    #[error("a {0} event is marked after_result, but no result came before it")]
    MarkedBeforeResult(String),
}

fn missing(expected: u64, found: u64) -> String {
    if found == expected + 1 {
        format!("seq {expected} is missing")
    } else {
        format!("seq {expected} to {} are missing", found - 1)
    }
}

/// The game as replayed so far.
struct Game {
    board: Board,
    start_line: usize,
    moves: u32,
}

/// Checks a stream line by line. Feed it every line of the file, in order,
/// with its 1-based number; stop at the first error.
#[derive(Default)]
pub struct Validator {
    header: bool,
    last_seq: u64,
    game: Option<Game>,
    result_line: Option<usize>,
    /// Types this goref does not know, and how many events of them.
    skipped: Vec<(String, usize)>,
}

impl Validator {
    pub fn new() -> Validator {
        Validator::default()
    }

    /// What line `number` is, or the first inconsistency it shows.
    pub fn line(&mut self, number: usize, text: &str) -> Result<Line, Inconsistency> {
        let value: Value =
            serde_json::from_str(text).map_err(|e| Inconsistency::NotJson(e.to_string()))?;
        let kind = value
            .get("type")
            .and_then(Value::as_str)
            .ok_or(Inconsistency::NoType)?
            .to_string();
        if !self.header {
            return self.header(kind, value).map(Line::Header);
        }
        if kind == "stream" {
            return Err(Inconsistency::SecondHeader);
        }
        let seq = value
            .get("seq")
            .and_then(Value::as_u64)
            .ok_or_else(|| Inconsistency::NoSeq(kind.clone()))?;
        let expected = self.last_seq + 1;
        if seq > expected {
            return Err(Inconsistency::SeqGap {
                expected,
                found: seq,
            });
        }
        if seq < expected {
            return Err(Inconsistency::SeqRepeat {
                expected,
                found: seq,
            });
        }
        self.last_seq = seq;
        let stamped: StampedEvent = match serde_json::from_value(value) {
            Ok(stamped) => stamped,
            Err(e)
                if e.to_string()
                    .starts_with(&format!("unknown variant `{kind}`")) =>
            {
                match self.skipped.iter_mut().find(|(k, _)| *k == kind) {
                    Some((_, count)) => *count += 1,
                    None => self.skipped.push((kind.clone(), 1)),
                }
                return Ok(Line::Unknown { kind });
            }
            Err(e) => {
                return Err(Inconsistency::BadEvent {
                    kind: kind.clone(),
                    error: e.to_string(),
                })
            }
        };
        self.event(number, &stamped)?;
        Ok(Line::Event(Box::new(stamped)))
    }

    /// The types skipped as unknown, with how many events of each, in the
    /// order first seen.
    pub fn skipped(&self) -> &[(String, usize)] {
        &self.skipped
    }

    /// Whether the header has been read.
    pub fn has_header(&self) -> bool {
        self.header
    }

    /// The line the result is on, once read.
    pub fn result_line(&self) -> Option<usize> {
        self.result_line
    }

    fn header(&mut self, kind: String, value: Value) -> Result<StreamHeader, Inconsistency> {
        if kind != "stream" {
            return Err(Inconsistency::NoHeader(kind));
        }
        if let Some(schema) = value.get("schema").and_then(Value::as_u64) {
            if schema > u64::from(SCHEMA_VERSION) {
                return Err(Inconsistency::NewerSchema(
                    u32::try_from(schema).unwrap_or(u32::MAX),
                ));
            }
        }
        let header: StreamHeader =
            serde_json::from_value(value).map_err(|e| Inconsistency::BadHeader(e.to_string()))?;
        self.header = true;
        Ok(header)
    }

    fn event(&mut self, number: usize, stamped: &StampedEvent) -> Result<(), Inconsistency> {
        let kind = stamped.event.kind();
        let Some(result_line) = self.result_line else {
            if stamped.after_result {
                return Err(Inconsistency::MarkedBeforeResult(kind.into()));
            }
            return self.game_event(number, &stamped.event);
        };
        let changes_the_game = match &stamped.event {
            GameEvent::Phase { phase, .. } => *phase != Phase::Over,
            GameEvent::Move { .. } | GameEvent::Clock { .. } | GameEvent::Agreement(_) => true,
            GameEvent::GameStart(_) => return Err(Inconsistency::StartAfterResult(result_line)),
            GameEvent::Result(_) => return Err(Inconsistency::SecondResult(result_line)),
            _ => false,
        };
        if changes_the_game && !stamped.after_result {
            return Err(Inconsistency::NotMarkedAfterResult {
                kind: kind.into(),
                result_line,
            });
        }
        Ok(())
    }

    /// An event before the result: game_start builds the board, moves are
    /// played on it.
    fn game_event(&mut self, number: usize, event: &GameEvent) -> Result<(), Inconsistency> {
        match event {
            GameEvent::GameStart(start) => {
                if let Some(game) = &self.game {
                    return Err(Inconsistency::SecondStart(game.start_line));
                }
                self.game = Some(Game {
                    board: board_of(start)?,
                    start_line: number,
                    moves: 0,
                });
            }
            GameEvent::Move {
                n,
                color,
                vertex,
                captures,
                ..
            } => {
                let game = self
                    .game
                    .as_mut()
                    .ok_or(Inconsistency::MoveBeforeStart(*n))?;
                game.play(*n, *color, vertex, captures)?;
            }
            GameEvent::Result(_) => self.result_line = Some(number),
            _ => {}
        }
        Ok(())
    }
}

/// The board a game starts on: its size, ko rule, suicide, handicap stones
/// and first player.
fn board_of(start: &GameStart) -> Result<Board, Inconsistency> {
    let rules = BoardRules {
        ko: start.ko.unwrap_or(KoRule::Simple),
        suicide_allowed: start.suicide_allowed,
    };
    let bad = |what: String| Inconsistency::BadStart(what);
    let mut board = Board::new(start.size, rules).map_err(|e| bad(e.to_string()))?;
    let stones = start
        .handicap
        .iter()
        .map(|v| {
            Point::parse_gtp(v, start.size).map_err(|e| bad(format!("handicap stone {v}: {e}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if !stones.is_empty() {
        board
            .place_setup(Color::Black, &stones)
            .map_err(|e| bad(format!("handicap stones: {e}")))?;
    }
    board.set_to_move(start.first_to_move);
    Ok(board)
}

impl Game {
    fn play(
        &mut self,
        n: u32,
        color: Color,
        vertex: &str,
        captures: &[String],
    ) -> Result<(), Inconsistency> {
        let expected = self.moves + 1;
        if n != expected {
            return Err(Inconsistency::MoveNumber { expected, found: n });
        }
        let to_move = self.board.to_move();
        if color != to_move {
            return Err(Inconsistency::WrongTurn { n, color, to_move });
        }
        let size = self.board.size();
        let actual = match vertex.to_ascii_lowercase().as_str() {
            "resign" => Vec::new(),
            "pass" => {
                self.board
                    .pass(color)
                    .map_err(|reason| illegal(n, color, vertex, reason))?;
                Vec::new()
            }
            _ => {
                let point =
                    Point::parse_gtp(vertex, size).map_err(|_| Inconsistency::BadVertex {
                        n,
                        vertex: vertex.into(),
                        size,
                    })?;
                self.board
                    .play(color, point)
                    .map_err(|reason| illegal(n, color, vertex, reason))?
            }
        };
        let listed: BTreeSet<Option<Point>> = captures
            .iter()
            .map(|v| Point::parse_gtp(v, size).ok())
            .collect();
        let played: BTreeSet<Option<Point>> = actual.iter().copied().map(Some).collect();
        if listed != played || listed.len() != captures.len() {
            return Err(Inconsistency::Captures {
                n,
                listed: captures.to_vec(),
                actual: actual.iter().map(|p| p.to_gtp()).collect(),
            });
        }
        self.moves = n;
        Ok(())
    }
}

fn illegal(n: u32, color: Color, vertex: &str, reason: Illegal) -> Inconsistency {
    Inconsistency::Illegal {
        n,
        color,
        vertex: vertex.into(),
        reason,
    }
}

#[cfg(test)]
mod tests;
