//! `UiState`: what one screen adds to the game's view, and only that screen.
//!
//! The focus, the zoom, the trace's scrolling and filter, the help, the
//! board cursor, the open dialog and the alerts acknowledged are local: the
//! host's keys never change a spectator's screen, and a spectator's never
//! reach the game. [`super::draw`] reads this with the
//! [`GameView`] and draws both.

use goref_core::game::{Color, Point};
use goref_core::referee::GameView;

use super::commands::{Context, KeyMap};
use super::keys::Key;
pub use super::panes::{PaneId, Role};
use super::trace::TraceState;

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
    /// A question of the screen's own on the hint bar, answered with a key
    /// (the seat operator's rights): no alert covers it.
    pub question: Option<String>,
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
    /// The hall's word, on a board opened from an event's hall: the first
    /// thing on the status line, and `q` goes back to the hall.
    pub in_hall: Option<LinkStatus>,
    /// The typed player's turn (moves played, colour) whose move box the
    /// operator closed with `esc`: it stays closed for that turn.
    pub move_box_closed: Option<(usize, Color)>,
    /// When ctrl-c asked to void the game, in stream time: a second ctrl-c
    /// soon after confirms.
    pub interrupted_at_ms: Option<u64>,
    /// The board shows the variation the last mover's program expects.
    pub variation: bool,
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
            question: None,
            keys: KeyMap::default(),
            pending: Vec::new(),
            can_start_next: false,
            demo: false,
            detaches: false,
            in_hall: None,
            move_box_closed: None,
            interrupted_at_ms: None,
            variation: false,
        }
    }
}

/// What the commands can see of the screen now.
pub fn context(view: &GameView, state: &UiState) -> Context {
    Context {
        role: state.role,
        phase: view.phase,
        over: view.result.is_some(),
        focus: state.focus,
        typed_to_move: view
            .to_move
            .filter(|c| view.players[c.index()].protocol == "human"),
        clocks_paused: view.clocks_paused,
        alerting: unacknowledged(view, state) > 0,
        closable: state.help.is_some()
            || state.zoom.is_some()
            || state.trace.detail
            || !state.pending.is_empty(),
        can_start_next: state.can_start_next,
    }
}

/// How many alerts wait for the operator.
fn unacknowledged(view: &GameView, state: &UiState) -> usize {
    view.alerts
        .iter()
        .filter(|a| a.n > state.alerts_acknowledged)
        .count()
}
