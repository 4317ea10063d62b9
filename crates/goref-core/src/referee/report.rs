//! What passes between the referee and the players' adapters: a player's
//! [`PlayerEvent`]s in (with the [`Failure`] that ends a player), the
//! referee's [`Action`]s out (with the [`TimeLeft`] a move request tells).

use std::time::{Duration, Instant};

use crate::game::clock::{Clock, TimeSystem};
use crate::game::{Color, Move, Point};
use crate::protocol::sgmp::link::TraceEntry;

use super::event::{End, LineDirection, PlayerInfo};

/// What a player adapter reports to the referee.
#[derive(Debug, Clone, PartialEq)]
pub enum PlayerEvent {
    /// The player is started, checked and set up for this game.
    Ready(PlayerInfo),
    /// The move request has reached the player: its clock runs from now.
    Thinking,
    Moved(Move),
    /// A move the operator typed for a player with no link of its own. It is
    /// checked like any move, but one the rules refuse is not played: the
    /// operator is told why and types again. Only a move the rules allow
    /// counts as the player's move.
    Typed(Move),
    /// A line of the Usenix protocol, or of the program's stderr, with
    /// what the adapter made of it.
    UsenixLine {
        direction: LineDirection,
        line: String,
        note: Option<String>,
    },
    /// The CPU time the player has used so far on the move it is thinking
    /// about: a CPU-time clock flags as soon as it is past the allowance.
    CpuSoFar(Duration),
    /// The CPU time the player used for the move it is about to report.
    /// Sent before [`PlayerEvent::Moved`]; a CPU-time clock charges it
    /// instead of the wall time.
    CpuTime(Duration),
    /// A seated program's own stamp of its thinking for the move it is
    /// about to send, charged within the rules' lag allowance.
    SeatTime(Duration),
    /// A seated program that came back is told the game again (`true`):
    /// its running turn stops being charged until it is asked to move
    /// again ([`PlayerEvent::Thinking`]), since the telling is nobody's
    /// thinking. `false`: the seat went away again while it was told, and
    /// the held turn runs again, as an absent seat's clock does.
    TellingAgain(bool),
    /// The player came this late to its game (its seat connected after
    /// the game was to start): the time comes off its clock.
    Late(Duration),
    /// The answer to [`Action::RequestDeadStones`].
    DeadStones(Vec<Point>),
    /// The player answered the dead-stone question with an error.
    DeadStonesUnavailable(String),
    /// The player refused a move relayed to it with [`Action::TellMove`].
    RejectedMove {
        mv: Move,
        message: String,
    },
    /// A packet on a GMP line, for the trace, with its time on the wire at
    /// the line's baud rate when the line has one.
    Packet {
        entry: TraceEntry,
        wire_ms: Option<f64>,
    },
    /// A protocol line, for the trace.
    Line {
        direction: LineDirection,
        line: String,
    },
    /// Something wrong the operator should see; play goes on.
    Notice(String),
    /// The venue's link to this player's seat went away with the
    /// venue itself (the event's runner stopped): nobody's time passes
    /// until [`PlayerEvent::VenueBack`].
    VenueAway(String),
    /// The seat is back after [`PlayerEvent::VenueAway`].
    VenueBack(String),
    /// A seated program's seat came, went or came back.
    Seat {
        what: crate::referee::SessionChange,
        message: String,
    },
    /// Something the operator should know that is not a fault, e.g. what
    /// the player's set-up is waiting for.
    Info(String),
    /// The operator is asked for something, e.g. the move of a typed player.
    Prompt(String),
    /// What the program thought of the move it just reported
    /// (`*-genmove_analyze`): sent right after [`PlayerEvent::Moved`].
    Analysis(crate::protocol::gtp::analysis::MoveAnalysis),
    /// The player can no longer play: it crashed, hung or spoke garbage.
    Failed(Failure),
    /// The program was started again outside the referee and has lost the
    /// position, which its protocol cannot give back (a GMP program that
    /// sent NEWGAME mid-game). No rule of the game covers it: the judge
    /// decides.
    LostPosition(String),
}

/// Why a player can no longer play: the kind names the result's `end`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub kind: FailureKind,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FailureKind {
    /// The program exited, or its line closed; `exit` says how, when known
    /// (`status 3`, `signal 6 (SIGABRT)`).
    Crash { exit: Option<String> },
    /// No answer within a deadline.
    Hang,
    /// An answer that is not the protocol, or not a move.
    Garbage,
    /// A Usenix program started a child process.
    Forked,
    /// Anything else: a set-up refused, a line that cannot be opened.
    Other,
}

impl Failure {
    pub fn crash(reason: String, exit: Option<String>) -> Failure {
        Failure {
            kind: FailureKind::Crash { exit },
            reason,
        }
    }

    pub fn hang(reason: String) -> Failure {
        Failure {
            kind: FailureKind::Hang,
            reason,
        }
    }

    pub fn garbage(reason: String) -> Failure {
        Failure {
            kind: FailureKind::Garbage,
            reason,
        }
    }

    pub fn forked(reason: String) -> Failure {
        Failure {
            kind: FailureKind::Forked,
            reason,
        }
    }

    pub fn other(reason: String) -> Failure {
        Failure {
            kind: FailureKind::Other,
            reason,
        }
    }

    /// The result's `end` for a forfeit through this failure.
    pub(crate) fn end(&self) -> End {
        match self.kind {
            FailureKind::Crash { .. } => End::ForfeitCrash,
            FailureKind::Hang => End::ForfeitHang,
            FailureKind::Garbage => End::ForfeitGarbage,
            FailureKind::Other => End::ForfeitFailure,
            FailureKind::Forked => End::ForfeitFork,
        }
    }
}

/// The time a player is told it has left, in both GTP conventions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeLeft {
    pub seconds: u64,
    /// Stones left in a Canadian period (`time_left` standard form).
    pub stones: u64,
    /// Like `stones`, but periods left under Japanese byo-yomi (KGS form).
    pub kgs_stones: u64,
}

impl TimeLeft {
    /// What a program is told of `clock` at `now`; nothing when untimed.
    pub fn on(clock: &Clock, now: Instant) -> Option<TimeLeft> {
        (clock.system() != TimeSystem::None).then(|| {
            let (seconds, stones) = clock.gtp_time_left(now);
            let (_, kgs_stones) = clock.kgs_time_left(now);
            TimeLeft {
                seconds,
                stones,
                kgs_stones,
            }
        })
    }
}

/// What the shell must do for the referee.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Ask `color` for a move. In the KGS cleanup phase `cleanup` is set.
    RequestMove {
        color: Color,
        cleanup: bool,
        time_left: Option<TimeLeft>,
    },
    /// Tell player `to` that `color` played `mv`.
    TellMove { to: Color, color: Color, mv: Move },
    /// `color`'s main time on a CPU-time clock is used up: from now on each
    /// move has its own limit. Sent once, just before the next move relayed
    /// to it (the Usenix `byo-romi`).
    MainTimeUsed { color: Color },
    /// Ask `color` which stones it considers dead.
    RequestDeadStones { color: Color },
    /// The game is over: players may be told and shut down.
    GameOver { result: String },
}
