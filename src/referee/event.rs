//! `GameEvent`: everything the referee decides, as one serialisable stream.
//!
//! The record, `--json`, the trace file, the screen's [`GameView`](super::GameView)
//! and the spectators are all fed from this stream and nothing else. Its JSON
//! form (`{"type": "move", ...}`) is part of the command-line contract
//! (DESIGN.md §3); fields are only ever added, never renamed.

use serde::{Deserialize, Serialize};

use crate::game::board::Illegal;
use crate::game::clock::ClockReading;
use crate::game::score::Score;
use crate::game::Color;
use crate::protocol::sgmp::link::TraceEntry;

/// Who a player is, as learned before the game.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct PlayerInfo {
    /// The protocol it speaks: `gtp`, `sgmp`, `gmp`, `usenix`, `human`.
    pub protocol: String,
    /// How it was started: the command line or the device.
    pub spec: String,
    pub name: String,
    pub version: String,
    /// It lists both `final_status_list` and `kgs-genmove_cleanup`.
    pub kgs_end_protocol: bool,
    /// It can say which stones it considers dead (a GTP engine that lists
    /// `final_status_list`). Under the judge's end of game, a side that
    /// cannot has agreed to nothing: the judge marks the dead stones.
    #[serde(default)]
    pub claims_dead_stones: bool,
    /// It cannot play on after two passes (a GMP line program ends its game
    /// there), so a dead-stone dispute goes to the judge, not to a cleanup.
    #[serde(default)]
    pub stops_at_double_pass: bool,
}

impl PlayerInfo {
    /// `name version`, or just the name when the version is empty.
    pub fn full_name(&self) -> String {
        match (self.name.is_empty(), self.version.is_empty()) {
            (true, _) => self.spec.clone(),
            (false, true) => self.name.clone(),
            (false, false) => format!("{} {}", self.name, self.version),
        }
    }
}

/// What the game looks like before the first move.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameStart {
    pub size: u8,
    pub komi: f64,
    /// The preset the rules came from (`kgs`, `cgf`, `usenix`).
    pub rules: String,
    /// The SGF `RU` name: `Chinese` or `Japanese`.
    pub ruleset: String,
    /// The `--time` spec, e.g. `byoyomi:5m,30s,3`.
    pub time: String,
    pub handicap: Vec<String>,
    pub black: PlayerInfo,
    pub white: PlayerInfo,
    pub first_to_move: Color,
}

/// Phases of a game. Only [`Phase::Play`] and [`Phase::Cleanup`] ask for moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Players are being started and checked.
    Setup,
    Play,
    /// The programs are asked which stones are dead.
    DeadStones,
    /// KGS: the claims differed, play resumes until all dead stones are gone.
    Cleanup,
    /// The game waits for the operator's decision.
    Adjudication,
    Over,
}

/// A GTP line in either direction, or a line of an engine's stderr.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LineDirection {
    /// Referee to engine.
    Sent,
    /// Engine to referee (stdout).
    Received,
    /// The engine's stderr.
    Stderr,
}

/// The dead-stone agreement, step by step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AgreementEvent {
    /// One side's list of dead stones (already expanded to whole chains).
    Claim {
        color: Color,
        stones: Vec<String>,
        /// Why the claim is what it is when the program was not asked or its
        /// answer was unusable, e.g. "does not support final_status_list".
        note: Option<String>,
    },
    /// Both claims name the same stones.
    Agreed { stones: Vec<String> },
    /// The claims differ: which stones only one side calls dead.
    Disputed {
        black_only: Vec<String>,
        white_only: Vec<String>,
    },
    /// The stones the operator has marked dead so far.
    Marked { stones: Vec<String> },
}

/// How a game ended, in SGF `RE` form with the reason in words.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    /// `B+3.5`, `W+R`, `B+T`, `W+F`, `0`, `Void`, `?`.
    pub result: String,
    pub reason: String,
    pub winner: Option<Color>,
    pub score: Option<Score>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum GameEvent {
    GameStart(GameStart),
    /// A move the referee accepted, or a resignation.
    Move {
        /// 1-based, counting passes.
        n: u32,
        color: Color,
        /// `D4`, `pass` or `resign`.
        vertex: String,
        /// Thinking time charged for the move.
        ms: u64,
        captures: Vec<String>,
        /// The mover's clock after the move.
        clock: ClockReading,
    },
    /// A clock started, stopped or flagged.
    Clock {
        color: Color,
        clock: ClockReading,
    },
    /// One packet (or stray bytes) on a GMP line, in hex and decoded.
    Packet {
        color: Color,
        /// Time the bytes take on the wire at the line's baud rate, shown
        /// apart from the program's thinking time.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        wire_ms: Option<f64>,
        #[serde(flatten)]
        entry: TraceEntry,
    },
    /// One GTP line, or one line of an engine's stderr.
    Gtp {
        color: Color,
        direction: LineDirection,
        line: String,
    },
    Agreement(AgreementEvent),
    Phase {
        phase: Phase,
        reason: String,
    },
    /// A move the rules forbid. It is never shown to the opponent.
    Illegal {
        n: u32,
        color: Color,
        vertex: String,
        reason: Illegal,
    },
    Result(GameResult),
    /// Something went wrong. `fatal` errors end the game (a result follows);
    /// the others are told and play goes on.
    Error {
        color: Option<Color>,
        message: String,
        fatal: bool,
    },
    /// Something the operator should know that is not a fault: what the
    /// set-up of a player is waiting for, a typed move to enter again, an
    /// engine that floods its stderr.
    Notice {
        color: Option<Color>,
        message: String,
    },
}

impl GameEvent {
    /// The JSON `type` tag.
    pub fn kind(&self) -> &'static str {
        match self {
            GameEvent::GameStart(_) => "game_start",
            GameEvent::Move { .. } => "move",
            GameEvent::Clock { .. } => "clock",
            GameEvent::Packet { .. } => "packet",
            GameEvent::Gtp { .. } => "gtp",
            GameEvent::Agreement(_) => "agreement",
            GameEvent::Phase { .. } => "phase",
            GameEvent::Illegal { .. } => "illegal",
            GameEvent::Result(_) => "result",
            GameEvent::Error { .. } => "error",
            GameEvent::Notice { .. } => "notice",
        }
    }
}

/// An error message with its player named once: `White: ...` unless the
/// message already begins with the player's name.
pub fn attributed(color: Option<Color>, message: &str) -> String {
    match color {
        Some(color) if !message.starts_with(&color.to_string()) => format!("{color}: {message}"),
        _ => message.to_string(),
    }
}

/// An event with the time it happened, in milliseconds since the referee
/// started. This is the line `--json` prints and the mirror sends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StampedEvent {
    pub t_ms: u64,
    #[serde(flatten)]
    pub event: GameEvent,
}
