//! `UiState`: what one screen adds to the game's view, and only that screen.
//!
//! The focus, the zoom, the trace's scrolling and filter, the help, the
//! board cursor, the open dialog and the alerts acknowledged are local: the
//! host's keys never change a spectator's screen, and a spectator's never
//! reach the game. [`super::draw`] reads this with the
//! [`GameView`](crate::referee::GameView) and draws both.

use crate::game::{Color, Point};

use super::commands::KeyMap;
use super::keys::Key;
use super::trace::TraceState;

/// The panes, in the order `Tab` visits them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PaneId {
    Board,
    Clocks,
    Trace,
    Moves,
    Agreement,
    TimeChart,
}

impl PaneId {
    pub const ALL: [PaneId; 6] = [
        PaneId::Board,
        PaneId::Clocks,
        PaneId::Trace,
        PaneId::Moves,
        PaneId::Agreement,
        PaneId::TimeChart,
    ];

    pub fn title(self) -> &'static str {
        match self {
            PaneId::Board => "board",
            PaneId::Clocks => "clocks",
            PaneId::Trace => "trace",
            PaneId::Moves => "moves",
            PaneId::Agreement => "end of game",
            PaneId::TimeChart => "time per move",
        }
    }
}

/// Who is looking, which decides the commands there are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The referee's own screen: the operator's commands are there.
    Operator,
    /// A spectator's screen: read-only.
    Spectator,
    /// A recorded trace, stepped through.
    Replay,
}

/// The state of one screen.
#[derive(Debug, Clone, PartialEq)]
pub struct UiState {
    pub role: Role,
    /// The pane that scrolling and `z` apply to.
    pub focus: PaneId,
    /// The pane drawn on the whole screen, if any.
    pub zoom: Option<PaneId>,
    /// The help is open, scrolled down this many lines.
    pub help: Option<u16>,
    pub trace: TraceState,
    /// The operator's cursor on the board while marking dead stones.
    pub cursor: Option<Point>,
    /// Alerts up to this number have been acknowledged.
    pub alerts_acknowledged: u64,
    /// The stream time now, in ms: the clock of the side to move is drawn
    /// as it stands at this time, ticking between the referee's readings.
    pub now_t_ms: u64,
    /// A spectator's connection to the referee, for its status line.
    pub link: Option<LinkStatus>,
    /// A line for the hint bar's end, e.g. what the last command did.
    pub message: Option<String>,
    /// Replay: the position in the recording, `(shown, total)` events.
    pub replay_position: Option<(usize, usize)>,
    /// Where a typed move or an operator's reason is being entered.
    pub input: Option<InputBox>,
    /// A risky command waiting for its confirmation.
    pub confirm: Option<Confirm>,
    /// The keys in force.
    pub keys: KeyMap,
    /// The keys of a chord typed so far.
    pub pending: Vec<Key>,
    /// Another game follows when this one is over (the demo).
    pub can_start_next: bool,
    /// The game is the demo: the status line and the help say so.
    pub demo: bool,
    /// A screen attached to a running game (`goref attach`): quitting
    /// leaves the game playing, so it asks nothing and voids nothing.
    pub detaches: bool,
    /// The typed player's turn (moves played, colour) whose move box the
    /// operator closed with `esc`: it stays closed for that turn.
    pub move_box_closed: Option<(usize, Color)>,
    /// When ctrl-c asked to void the game, in stream time: a second ctrl-c
    /// soon after confirms.
    pub interrupted_at_ms: Option<u64>,
}

/// How a spectator's screen stands with the referee it watches.
#[derive(Debug, Clone, PartialEq)]
pub struct LinkStatus {
    /// e.g. `live, 4 ms behind`, `reconnecting… (3)`, `resynced`.
    pub text: String,
    /// The screen is not live: reconnecting, or nothing heard for a while.
    pub trouble: bool,
}

/// A line being typed, with what it is for.
#[derive(Debug, Clone, PartialEq)]
pub struct InputBox {
    pub purpose: InputPurpose,
    pub text: String,
    /// The cursor's position in characters.
    pub cursor: usize,
    /// Why the text cannot be used as it stands, checked as it is typed.
    pub problem: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum InputPurpose {
    /// A typed player's move.
    Move(Color),
    /// The reason for a risky command, which then asks for confirmation.
    Reason(RiskyCommand),
    /// A result to adjudicate, e.g. `B+3.5`.
    Result,
    /// A clock adjustment, e.g. `+30s` or `-1m`.
    ClockAdjustment(Color),
    /// Text the trace must contain.
    TraceFilter,
}

/// An operator command that ends the game or changes a clock: it asks for
/// a reason, then for confirmation.
#[derive(Debug, Clone, PartialEq)]
pub enum RiskyCommand {
    Resign(Color),
    Restart(Color),
    Adjudicate(String),
    Void,
    AdjustClock {
        color: Color,
        delta_ms: i64,
    },
    Score,
    Quit,
    /// ctrl-c on a game that is on: void it and leave.
    Interrupt,
}

/// A risky command and its reason, waiting for `y`.
#[derive(Debug, Clone, PartialEq)]
pub struct Confirm {
    pub command: RiskyCommand,
    pub reason: String,
}

impl UiState {
    pub fn new(role: Role) -> UiState {
        UiState {
            role,
            focus: PaneId::Board,
            zoom: None,
            help: None,
            trace: TraceState::default(),
            cursor: None,
            alerts_acknowledged: 0,
            now_t_ms: 0,
            link: None,
            message: None,
            replay_position: None,
            input: None,
            confirm: None,
            keys: KeyMap::default(),
            pending: Vec::new(),
            can_start_next: false,
            demo: false,
            detaches: false,
            move_box_closed: None,
            interrupted_at_ms: None,
        }
    }
}
