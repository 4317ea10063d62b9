//! `GameEvent`: everything the referee decides, as one serialisable stream.
//!
//! The record, `--json`, the trace file, the screen's [`GameView`](super::GameView)
//! and the spectators are all fed from this stream and nothing else. Its JSON
//! form (`{"type": "move", ...}`) is part of the command-line contract
//! (DESIGN.md §3); fields are only ever added, never renamed.

use serde::{Deserialize, Serialize};

use crate::game::board::{Illegal, KoRule};
use crate::game::clock::{ClockReading, TimeSystem};
use crate::game::rules::MoveLimits;
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

/// The time system in numbers, so that a viewer can tick the clocks between
/// events: `kind` is `none`, `absolute`, `byoyomi`, `canadian`, `fischer` or
/// `cpu`, and only the fields of that kind are set.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct TimeSettings {
    pub kind: String,
    pub main_ms: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub period_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub periods: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stones: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub increment_ms: Option<u64>,
    /// The clock charges the program's CPU time, not the wall clock.
    pub cpu: bool,
}

impl From<TimeSystem> for TimeSettings {
    fn from(system: TimeSystem) -> TimeSettings {
        let ms = |d: std::time::Duration| d.as_millis() as u64;
        let kind = |k: &str| TimeSettings {
            kind: k.to_string(),
            ..TimeSettings::default()
        };
        match system {
            TimeSystem::None => kind("none"),
            TimeSystem::Absolute { main } => TimeSettings {
                main_ms: ms(main),
                ..kind("absolute")
            },
            TimeSystem::ByoYomi {
                main,
                period,
                periods,
            } => TimeSettings {
                main_ms: ms(main),
                period_ms: Some(ms(period)),
                periods: Some(periods),
                ..kind("byoyomi")
            },
            TimeSystem::Canadian {
                main,
                period,
                stones,
            } => TimeSettings {
                main_ms: ms(main),
                period_ms: Some(ms(period)),
                stones: Some(stones),
                ..kind("canadian")
            },
            TimeSystem::Fischer { main, increment } => TimeSettings {
                main_ms: ms(main),
                increment_ms: Some(ms(increment)),
                ..kind("fischer")
            },
            TimeSystem::Cpu { main, per_move } => TimeSettings {
                main_ms: ms(main),
                period_ms: Some(ms(per_move)),
                cpu: true,
                ..kind("cpu")
            },
        }
    }
}

impl TimeSettings {
    /// The time system these numbers describe; `None` for a kind this goref
    /// does not know (a newer producer's).
    pub fn system(&self) -> Option<TimeSystem> {
        let ms = std::time::Duration::from_millis;
        let main = ms(self.main_ms);
        Some(match self.kind.as_str() {
            "none" => TimeSystem::None,
            "absolute" => TimeSystem::Absolute { main },
            "byoyomi" => TimeSystem::ByoYomi {
                main,
                period: ms(self.period_ms?),
                periods: self.periods?,
            },
            "canadian" => TimeSystem::Canadian {
                main,
                period: ms(self.period_ms?),
                stones: self.stones?,
            },
            "fischer" => TimeSystem::Fischer {
                main,
                increment: ms(self.increment_ms?),
            },
            "cpu" => TimeSystem::Cpu {
                main,
                per_move: ms(self.period_ms?),
            },
            _ => return None,
        })
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
    /// The time system in numbers (`time` is its spec).
    #[serde(default)]
    pub time_settings: TimeSettings,
    /// The move limits: time-outs from `time_loss_before` go to the judge,
    /// the game stops at `stop_at`, and whether passes count.
    #[serde(default)]
    pub limits: MoveLimits,
    #[serde(default)]
    pub ko: Option<KoRule>,
    #[serde(default)]
    pub suicide_allowed: bool,
    /// The game's folder on the referee's machine (journal, record, logs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub folder: Option<String>,
    /// Where the game is published to be watched (`--publish`):
    /// `nats://HOST:PORT/NAME`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub published: Option<String>,
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

/// How a game ended, as one code from a closed set: the `end` of a result,
/// for programs that must not parse the prose `reason`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum End {
    /// Two passes, both sides' dead-stone claims the same: scored.
    DoublePassAgreed,
    /// The KGS cleanup's second double pass: scored with every stone alive.
    DoublePassCleanup,
    /// Scored by the operator (`score`) after the game went to the judge.
    ScoredByJudge,
    /// A player resigned.
    Resign,
    /// A clock ran out while time-outs lose (before `limit`, if one is set).
    Time,
    /// A move the rules forbid (`illegal` says why).
    ForfeitIllegalMove,
    /// The program exited or its line closed (`exit` says how, when known).
    ForfeitCrash,
    /// No answer within a deadline.
    ForfeitHang,
    /// An answer that is not the protocol, or not a move.
    ForfeitGarbage,
    /// The program refused a legal move relayed to it.
    ForfeitRefusedRelay,
    /// Any other failure that leaves a player unable to play on.
    ForfeitFailure,
    /// A Usenix program started a child process, which the rules forbid.
    ForfeitFork,
    /// The operator decided the result (`adjudicate`).
    Adjudicated,
    /// No result: voided by the operator, or goref was stopped (a signal).
    Void,
    /// The game stopped at the move limit (`limit`) and no operator decided it.
    MoveLimit,
    /// The game needed the judge and no operator was attached.
    NoOperator,
    /// No game was played: a player could not be set up.
    NoGame,
    /// A result written before end codes existed.
    #[default]
    Unknown,
}

impl End {
    /// The code as written in the stream: `double_pass_agreed`, `time`, ...
    pub fn code(self) -> &'static str {
        match self {
            End::DoublePassAgreed => "double_pass_agreed",
            End::DoublePassCleanup => "double_pass_cleanup",
            End::ScoredByJudge => "scored_by_judge",
            End::Resign => "resign",
            End::Time => "time",
            End::ForfeitIllegalMove => "forfeit_illegal_move",
            End::ForfeitCrash => "forfeit_crash",
            End::ForfeitHang => "forfeit_hang",
            End::ForfeitGarbage => "forfeit_garbage",
            End::ForfeitRefusedRelay => "forfeit_refused_relay",
            End::ForfeitFailure => "forfeit_failure",
            End::ForfeitFork => "forfeit_fork",
            End::Adjudicated => "adjudicated",
            End::Void => "void",
            End::MoveLimit => "move_limit",
            End::NoOperator => "no_operator",
            End::NoGame => "no_game",
            End::Unknown => "unknown",
        }
    }

    /// Whether the game ended with a decided result (a winner or a draw),
    /// not `Void` or `?`.
    pub fn is_decided(self) -> bool {
        !matches!(
            self,
            End::Void | End::MoveLimit | End::NoOperator | End::NoGame | End::Unknown
        )
    }
}

/// How a game ended, in SGF `RE` form with the reason in words and the
/// machine-readable `end` code.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    /// `B+3.5`, `W+R`, `B+T`, `W+F`, `0`, `Void`, `?`.
    pub result: String,
    pub reason: String,
    pub winner: Option<Color>,
    pub score: Option<Score>,
    #[serde(default)]
    pub end: End,
    /// With `forfeit_illegal_move`: why the move was illegal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub illegal: Option<Illegal>,
    /// With `forfeit_crash`: how the program ended (`status 3`, `signal 6 (SIGABRT)`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit: Option<String>,
    /// With `time`: the move from which time-outs go to the judge; with
    /// `move_limit`: the move the game stopped at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u32>,
}

impl GameResult {
    /// A result with its end code and no detail fields.
    pub fn new(result: String, reason: String, winner: Option<Color>, end: End) -> GameResult {
        GameResult {
            result,
            reason,
            winner,
            score: None,
            end,
            illegal: None,
            exit: None,
            limit: None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum GameEvent {
    /// A player is started, checked and set up: it is named as soon as it is
    /// ready, before the game starts.
    Player {
        color: Color,
        info: PlayerInfo,
    },
    GameStart(Box<GameStart>),
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
        /// The referee's own share: microseconds from the move's arrival to
        /// its relay to the opponent and this event (set by the driver).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        referee_us: Option<u64>,
        /// For a seated program: the venue's measure of the move less the
        /// seat's own stamp of its thinking, the network's share.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        net_ms: Option<u64>,
        /// One of the opening's moves, played for the players (a match's
        /// opening): nobody's thinking.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        opening: bool,
    },
    /// What the mover's program thought of move `n` when it chose it
    /// (`*-genmove_analyze`): its chance to win, from its own side
    /// (`winrate`) and from Black's, from 0 to 1; its lead in points from
    /// its side, when it gives one; the visits behind it; the moves it
    /// expects, this one first (at most 12).
    Analysis {
        n: u32,
        color: Color,
        winrate: f64,
        black_winrate: f64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        score_lead: Option<f64>,
        visits: u64,
        pv: Vec<String>,
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
    /// One line of the Usenix protocol, or of a Usenix program's stderr,
    /// with what goref made of it when there is something to say.
    Usenix {
        color: Color,
        direction: LineDirection,
        line: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        note: Option<String>,
    },
    /// One line on a CGOS server's link, as `goref seat cgos://` plays a
    /// game there: the server's (`received`) or the seat's (`sent`);
    /// `color` is the seat's side. The login is never traced.
    Cgos {
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
    /// goref asks the operator for something: the move of a typed player
    /// (`color`), the judge's decision.
    Prompt {
        color: Option<Color>,
        message: String,
    },
    /// An operator command the referee accepted, e.g. `dead D4`, `void`.
    /// A `resume` may also be goref's own, when nobody is left to give it
    /// (the reason says so).
    Operator {
        command: String,
        reason: String,
        /// For `resume`: how long the game was held, charged to nobody.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        paused_ms: Option<u64>,
    },
    /// Who watches through `--serve`: how many now, and who joined and left
    /// since the last such event, which comes at most about once a second.
    /// Nothing in the game depends on it.
    Spectators {
        count: u32,
        /// The addresses of spectators who joined (at most
        /// [`SPECTATORS_NAMED`]).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        joined: Vec<String>,
        /// Spectators who left: the address and why (at most
        /// [`SPECTATORS_NAMED`]).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        left: Vec<String>,
        /// Joins and leaves beyond the two lists.
        #[serde(default, skip_serializing_if = "is_zero")]
        unnamed: u32,
        /// Connections refused since the last such event: a wrong token, a
        /// cap reached.
        #[serde(default, skip_serializing_if = "is_zero")]
        refused: u32,
    },
    /// The referee's own life beside the game: goref taken back from the
    /// journal after it stopped, its screen lost or attached again, a
    /// player's program started again. The game is told only through the
    /// other events.
    Session {
        what: SessionChange,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        color: Option<Color>,
        message: String,
        /// For `resumed`: how long goref was down, charged to nobody.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        down_ms: Option<u64>,
    },
}

/// What happened to the referee's session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SessionChange {
    /// `goref resume` took the game back from its journal.
    Resumed,
    /// The terminal went away; the game goes on without a screen.
    Detached,
    /// `goref attach` brought a screen back.
    Attached,
    /// A screen attached with `goref attach` went away again.
    Left,
    /// A player's program was started again.
    Restarted,
    /// A seated program's seat connected (`goref seat`).
    SeatIn,
    /// A seated program's seat was lost: its clock runs on.
    SeatLost,
    /// A lost seat connected again; the message says after how long.
    SeatBack,
    /// A seated program's seat was not connected when its game was to
    /// start: the game waits for it, its clock running (CGF §6(3)).
    SeatAbsent,
    /// The venue's own link to the seats went away (the event's runner
    /// stopped): the game is held, charged to nobody, until the seats are
    /// back.
    VenueAway,
}

impl GameEvent {
    /// A `spectators` event in words (see `spectators_summary`).
    pub fn audience_text(&self) -> Option<String> {
        let GameEvent::Spectators {
            count,
            joined,
            left,
            unnamed,
            refused,
        } = self
        else {
            return None;
        };
        Some(spectators_summary(*count, joined, left, *unnamed, *refused))
    }
}

/// How many joins and how many leaves a `spectators` event names.
pub const SPECTATORS_NAMED: usize = 8;

/// A `spectators` event in words, e.g. `2 watching; joined 10.0.0.5:40112;
/// left 10.0.0.7:39001 (closed); 1 refused`.
pub(crate) fn spectators_summary(
    count: u32,
    joined: &[String],
    left: &[String],
    unnamed: u32,
    refused: u32,
) -> String {
    let mut parts = vec![format!("{count} watching")];
    if !joined.is_empty() {
        parts.push(format!("joined {}", joined.join(", ")));
    }
    if !left.is_empty() {
        parts.push(format!("left {}", left.join(", ")));
    }
    if unnamed > 0 {
        parts.push(format!("{unnamed} more joined or left"));
    }
    if refused > 0 {
        parts.push(format!("{refused} refused"));
    }
    parts.join("; ")
}

impl GameEvent {
    /// The JSON `type` tag.
    pub fn kind(&self) -> &'static str {
        match self {
            GameEvent::Player { .. } => "player",
            GameEvent::GameStart(_) => "game_start",
            GameEvent::Move { .. } => "move",
            GameEvent::Analysis { .. } => "analysis",
            GameEvent::Clock { .. } => "clock",
            GameEvent::Packet { .. } => "packet",
            GameEvent::Gtp { .. } => "gtp",
            GameEvent::Usenix { .. } => "usenix",
            GameEvent::Cgos { .. } => "cgos",
            GameEvent::Agreement(_) => "agreement",
            GameEvent::Phase { .. } => "phase",
            GameEvent::Illegal { .. } => "illegal",
            GameEvent::Result(_) => "result",
            GameEvent::Error { .. } => "error",
            GameEvent::Notice { .. } => "notice",
            GameEvent::Prompt { .. } => "prompt",
            GameEvent::Operator { .. } => "operator",
            GameEvent::Spectators { .. } => "spectators",
            GameEvent::Session { .. } => "session",
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

fn is_false(value: &bool) -> bool {
    !value
}

fn is_zero(value: &u32) -> bool {
    *value == 0
}

/// The version of the event stream's schema, in the first line of every
/// stream. It goes up when a field changes meaning; added event types and
/// fields do not change it (readers skip what they do not know).
pub const SCHEMA_VERSION: u32 = 1;

/// The first line of every stream (`--json`, `--trace`):
/// `{"type":"stream","schema":1,"producer":"goref 0.1.0"}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "stream")]
pub struct StreamHeader {
    pub schema: u32,
    pub producer: String,
}

impl StreamHeader {
    /// The header this goref writes.
    pub fn current() -> StreamHeader {
        StreamHeader {
            schema: SCHEMA_VERSION,
            producer: format!("goref {}", env!("CARGO_PKG_VERSION")),
        }
    }
}

/// An event with its number in the game's stream (1, 2, 3, ... with no gap)
/// and the time it happened, in milliseconds since the referee started.
/// This is the line `--json` prints and the mirror sends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StampedEvent {
    #[serde(default)]
    pub seq: u64,
    pub t_ms: u64,
    /// The event came after the game's result: the players saying goodbye,
    /// the record's last write. It changes nothing in the game.
    #[serde(default, skip_serializing_if = "is_false")]
    pub after_result: bool,
    #[serde(flatten)]
    pub event: GameEvent,
}

/// An event handed on from the game to a subscriber: the instant it was
/// handed on, and its JSON line when the game has made it already (for the
/// journal, `--json` or `--trace`), so that nobody serialises it again.
#[derive(Debug, Clone)]
pub struct HandedOn {
    pub at: std::time::Instant,
    pub stamped: StampedEvent,
    /// `serde_json::to_string(&stamped)`, when it was made.
    pub json: Option<std::sync::Arc<str>>,
}

impl HandedOn {
    /// An event handed on at `at` with no line made for it.
    pub fn new(at: std::time::Instant, stamped: StampedEvent) -> HandedOn {
        HandedOn {
            at,
            stamped,
            json: None,
        }
    }
}

/// Events handed on together from the game to a subscriber (a move's,
/// mostly): one wake of the subscriber's thread for all of them.
pub type EventBatch = Vec<HandedOn>;
