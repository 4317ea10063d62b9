//! What a key does: the screen's own state changes here, and what must
//! reach the game comes back as `Effect`s for the app to carry out.
//!
//! Pure, like the panes: the host's app, a spectator's and a replay feed it
//! their keys; a spectator's keys can only ever change its own screen,
//! because the registry gives it no operator command to produce an effect.
//! Risky commands (resign, adjudicate, void, a clock adjustment, the count,
//! quitting a game that is on) ask for a reason, then for `y`; an empty
//! reason takes the command's default, which the box names.
//!
//! At a typed player's turn the move box is open on the hint bar and takes
//! every key, so that `E5` then `enter` plays E5 and a letter that is also
//! a key (`q`, `a`, `c`, `h`..`n`) can only ever be part of the move;
//! `esc` closes the box for that turn and gives the keys back, `m` opens it
//! again. On the operator's screen of a game that is on, ctrl-c asks, as `q`
//! does; a second ctrl-c within `INTERRUPT_AGAIN_MS` confirms.

use goref_core::game::{Color, Move, Point};
use goref_core::referee::operator::{is_sgf_result, parse_adjustment};
use goref_core::referee::{GameView, OperatorCommand};

use super::commands::{Command, Lookup};
use super::keys::Key;
use super::state::context;
use super::state::{Confirm, InputBox, InputPurpose, PaneId, RiskyCommand, Role, UiState};

/// What the app must do for the screen.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Effect {
    /// A command for the referee.
    Operator(OperatorCommand),
    /// A typed player's move, as the operator typed it.
    TypedLine(String),
    /// Leave the screen; the game, if one is on, is already over.
    Quit,
    /// Ctrl-C, confirmed on a game that is on: the game is void; then
    /// leave.
    Interrupt,
    NextGame,
    /// Replay: move through the recording.
    Step(Step),
}

/// A step through a recording.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    EventBack,
    EventForward,
    MoveBack,
    MoveForward,
    Start,
    End,
}

/// One edit of an input box, as tui-input names it.
pub(crate) type Edit = tui_input::InputRequest;

/// How soon a second ctrl-c confirms the first, in ms.
pub(crate) const INTERRUPT_AGAIN_MS: u64 = 5_000;

/// Handles one key. `panes` are the panes on screen now, in focus order,
/// and `page` the rows a page scrolls.
pub(crate) fn handle_key(
    key: Key,
    view: &GameView,
    state: &mut UiState,
    panes: &[PaneId],
    page: usize,
) -> Vec<Effect> {
    follow_game(view, state);
    state.message = None;
    if key == Key::Ctrl('c') {
        return interrupt(view, state);
    }
    if let Some(confirm) = state.confirm.take() {
        return confirmed(key, confirm, state);
    }
    if state.input.is_some() {
        return typed(key, view, state);
    }
    if state.help.is_some() {
        if let Some(offset) = help_scroll(key, state.help.unwrap_or(0), page) {
            state.help = Some(offset);
            return Vec::new();
        }
    }
    state.pending.push(key);
    let ctx = context(view, state);
    match state.keys.lookup(&state.pending, &ctx) {
        Lookup::Command(command) => {
            state.pending.clear();
            run(command, view, state, panes, page)
        }
        Lookup::Prefix(_) => Vec::new(),
        Lookup::None => {
            let typed = std::mem::take(&mut state.pending);
            if typed.len() > 1 && key != Key::Esc {
                let chord: Vec<String> = typed.iter().map(ToString::to_string).collect();
                state.message = Some(format!("'{}' does nothing", chord.join(" ")));
            }
            Vec::new()
        }
    }
}

/// Keeps the screen's dialogs in step with the game: at a typed player's
/// turn on the operator's screen the move box opens (unless the operator
/// closed it for this turn, or something else is open), and a move box whose
/// turn has passed closes. Called before each frame and each key.
pub(crate) fn follow_game(view: &GameView, state: &mut UiState) {
    let ctx = context(view, state);
    let turn = ctx
        .typed_to_move
        .filter(|_| state.role == Role::Operator && !ctx.over)
        .map(|color| (view.moves.len(), color));
    if let Some(InputBox {
        purpose: InputPurpose::Move(color),
        ..
    }) = &state.input
    {
        if turn.map(|(_, c)| c) == Some(*color) {
            return;
        }
        state.input = None;
    }
    let Some(turn) = turn else {
        return;
    };
    let free = state.input.is_none()
        && state.confirm.is_none()
        && state.help.is_none()
        && state.pending.is_empty();
    if free && state.move_box_closed != Some(turn) {
        open_input(state, InputPurpose::Move(turn.1), String::new());
    }
}

/// ctrl-c: leaves a screen with no game to lose at once; on a game that is
/// on, asks first, and a second ctrl-c soon after confirms.
fn interrupt(view: &GameView, state: &mut UiState) -> Vec<Effect> {
    let on = state.role == Role::Operator && view.result.is_none() && !state.detaches;
    if !on {
        return vec![Effect::Interrupt];
    }
    let asked = matches!(
        state.confirm,
        Some(Confirm {
            command: RiskyCommand::Interrupt,
            ..
        })
    );
    let soon = state
        .interrupted_at_ms
        .is_some_and(|at| state.now_t_ms.saturating_sub(at) <= INTERRUPT_AGAIN_MS);
    if asked && soon {
        state.confirm = None;
        return vec![Effect::Interrupt];
    }
    state.input = None;
    state.interrupted_at_ms = Some(state.now_t_ms);
    state.confirm = Some(Confirm {
        command: RiskyCommand::Interrupt,
        reason: "goref was interrupted (ctrl-c)".into(),
    });
    Vec::new()
}

fn help_scroll(key: Key, offset: u16, page: usize) -> Option<u16> {
    let page = u16::try_from(page).unwrap_or(u16::MAX);
    match key {
        Key::Up | Key::Char('k') => Some(offset.saturating_sub(1)),
        Key::Down | Key::Char('j') => Some(offset.saturating_add(1)),
        Key::PageUp => Some(offset.saturating_sub(page)),
        Key::PageDown | Key::Char(' ') => Some(offset.saturating_add(page)),
        Key::Home => Some(0),
        _ => None,
    }
}

fn run(
    command: Command,
    view: &GameView,
    state: &mut UiState,
    panes: &[PaneId],
    page: usize,
) -> Vec<Effect> {
    match command {
        Command::Help => state.help = state.help.is_none().then_some(0),
        Command::Quit
            if state.role == Role::Operator && view.result.is_none() && !state.detaches =>
        {
            state.confirm = Some(Confirm {
                command: RiskyCommand::Quit,
                reason: "the operator quit goref".into(),
            });
        }
        Command::Quit => return vec![Effect::Quit],
        Command::Back => back(state),
        Command::Acknowledge => {
            state.alerts_acknowledged = view.alerts.back().map_or(0, |a| a.n);
        }
        Command::Interrupt => return vec![Effect::Interrupt],
        Command::NextGame => return vec![Effect::NextGame],
        Command::FocusNext | Command::FocusPrev => {
            let forward = command == Command::FocusNext;
            match state.zoom {
                Some(_) => {
                    state.focus = next_focus(state.focus, &PaneId::ALL, forward);
                    state.zoom = Some(state.focus);
                }
                None => state.focus = next_focus(state.focus, panes, forward),
            }
        }
        Command::Variation => state.variation = !state.variation,
        Command::Zoom => {
            state.zoom = match state.zoom {
                Some(_) => None,
                None => Some(state.focus),
            }
        }
        Command::Up | Command::Down | Command::Left | Command::Right => {
            return navigate(command, view, state);
        }
        Command::PageUp => state.trace.scroll_up(view, page),
        Command::PageDown => state.trace.scroll_down(view, page),
        Command::Top => state.trace.scroll_up(view, usize::MAX / 2),
        Command::Follow => state.trace.follow_tail(),
        Command::TracePause => state.trace.toggle_pause(view),
        Command::TraceSide => state.trace.cycle_side(),
        Command::TracePackets => state.trace.toggle_packets(),
        Command::TraceGtp => state.trace.toggle_gtp(),
        Command::TraceStderr => state.trace.toggle_stderr(),
        Command::TraceDetail => state.trace.toggle_detail(),
        Command::TraceSearch => {
            let text = state.trace.filter.text.clone();
            open_input(state, InputPurpose::TraceFilter, text);
        }
        Command::TypeMove => {
            if let Some(color) = context(view, state).typed_to_move {
                open_input(state, InputPurpose::Move(color), String::new());
            }
        }
        Command::ResignBlack => ask_reason(state, RiskyCommand::Resign(Color::Black)),
        Command::ResignWhite => ask_reason(state, RiskyCommand::Resign(Color::White)),
        Command::RestartBlack => ask_reason(state, RiskyCommand::Restart(Color::Black)),
        Command::RestartWhite => ask_reason(state, RiskyCommand::Restart(Color::White)),
        Command::Adjudicate => open_input(state, InputPurpose::Result, String::new()),
        Command::Void => ask_reason(state, RiskyCommand::Void),
        Command::PauseClocks => {
            return vec![Effect::Operator(OperatorCommand::PauseClocks {
                reason: "the judge deliberates".into(),
            })]
        }
        Command::ResumeClocks => return vec![Effect::Operator(OperatorCommand::ResumeClocks)],
        Command::AdjustBlack => open_input(
            state,
            InputPurpose::ClockAdjustment(Color::Black),
            String::new(),
        ),
        Command::AdjustWhite => open_input(
            state,
            InputPurpose::ClockAdjustment(Color::White),
            String::new(),
        ),
        Command::Mark => {
            let point = cursor(view, state);
            state.cursor = Some(point);
            if view.stone(point).is_some() {
                return vec![Effect::Operator(OperatorCommand::ToggleDead(point))];
            }
            state.message = Some(format!("{point} is empty: put the cursor on a stone"));
        }
        Command::Score => ask_reason(state, RiskyCommand::Score),
        Command::MoveBack => return vec![Effect::Step(Step::MoveBack)],
        Command::MoveForward => return vec![Effect::Step(Step::MoveForward)],
        Command::Start => return vec![Effect::Step(Step::Start)],
        Command::End => return vec![Effect::Step(Step::End)],
    }
    Vec::new()
}

/// `esc`: closes the innermost thing open.
fn back(state: &mut UiState) {
    if state.help.is_some() {
        state.help = None;
    } else if state.trace.detail {
        state.trace.toggle_detail();
    } else if state.zoom.is_some() {
        state.zoom = None;
    }
}

fn next_focus(focus: PaneId, panes: &[PaneId], forward: bool) -> PaneId {
    let Some(i) = panes.iter().position(|&p| p == focus) else {
        return panes.first().copied().unwrap_or(focus);
    };
    let n = panes.len();
    let next = if forward {
        (i + 1) % n
    } else {
        (i + n - 1) % n
    };
    panes[next]
}

/// The arrows: the cursor while marking, steps in a replay, else scrolling.
fn navigate(command: Command, view: &GameView, state: &mut UiState) -> Vec<Effect> {
    let ctx = context(view, state);
    if ctx.marking() && state.focus == PaneId::Board {
        let point = cursor(view, state);
        let last = view.size - 1;
        let (col, row) = (point.col, point.row);
        let moved = match command {
            Command::Up => Point::new(col, (row + 1).min(last)),
            Command::Down => Point::new(col, row.saturating_sub(1)),
            Command::Left => Point::new(col.saturating_sub(1), row),
            _ => Point::new((col + 1).min(last), row),
        };
        state.cursor = Some(moved);
        return Vec::new();
    }
    match command {
        Command::Left if state.role == Role::Replay => vec![Effect::Step(Step::EventBack)],
        Command::Right if state.role == Role::Replay => vec![Effect::Step(Step::EventForward)],
        Command::Up => {
            state.trace.select_up(view);
            Vec::new()
        }
        Command::Down => {
            state.trace.select_down(view);
            Vec::new()
        }
        _ => Vec::new(),
    }
}

/// The cursor, or the board's centre when there is none yet.
fn cursor(view: &GameView, state: &UiState) -> Point {
    state
        .cursor
        .filter(|p| p.is_on(view.size))
        .unwrap_or(Point::new(view.size / 2, view.size / 2))
}

fn open_input(state: &mut UiState, purpose: InputPurpose, text: String) {
    let cursor = text.chars().count();
    state.input = Some(InputBox {
        purpose,
        text,
        cursor,
        problem: None,
    });
}

fn ask_reason(state: &mut UiState, command: RiskyCommand) {
    open_input(state, InputPurpose::Reason(command), String::new());
}

/// A key while an input box is open: edit, accept or cancel.
fn typed(key: Key, view: &GameView, state: &mut UiState) -> Vec<Effect> {
    let Some(mut input) = state.input.take() else {
        return Vec::new();
    };
    let edit = match key {
        Key::Esc => {
            if let InputPurpose::Move(color) = input.purpose {
                state.move_box_closed = Some((view.moves.len(), color));
                state.message = Some("the keys are back; m types the move".into());
            } else {
                state.message = Some("cancelled".into());
            }
            return Vec::new();
        }
        Key::Enter => return accept(input, view, state),
        Key::Char(c) => Some(Edit::InsertChar(c)),
        Key::Backspace => Some(Edit::DeletePrevChar),
        Key::Delete => Some(Edit::DeleteNextChar),
        Key::Left => Some(Edit::GoToPrevChar),
        Key::Right => Some(Edit::GoToNextChar),
        Key::Home => Some(Edit::GoToStart),
        Key::End => Some(Edit::GoToEnd),
        Key::Ctrl('w') => Some(Edit::DeletePrevWord),
        Key::Ctrl('u') => Some(Edit::DeleteLine),
        _ => None,
    };
    if let Some(edit) = edit {
        let mut editor = tui_input::Input::new(input.text.clone()).with_cursor(input.cursor);
        editor.handle(edit);
        input.text = editor.value().to_string();
        input.cursor = editor.cursor();
        input.problem = problem(&input.purpose, &input.text, view)
            .err()
            .filter(|_| judged_as_typed(&input.purpose, &input.text, view));
    }
    state.input = Some(input);
    Vec::new()
}

/// Whether a problem is shown while the text is typed: a move only once it
/// reads as one (an occupied point), since `E` on the way to `E5` is no
/// mistake; the rest at `enter`.
fn judged_as_typed(purpose: &InputPurpose, text: &str, view: &GameView) -> bool {
    match purpose {
        InputPurpose::Move(_) => Move::parse_gtp(text.trim(), view.size).is_ok(),
        _ => true,
    }
}

/// Why `text` cannot be used for `purpose`, checked as it is typed.
fn problem(purpose: &InputPurpose, text: &str, view: &GameView) -> Result<(), String> {
    let text = text.trim();
    match purpose {
        InputPurpose::Move(_) => match Move::parse_gtp(text, view.size) {
            Ok(Move::Play(point)) if view.stone(point).is_some() => {
                Err(format!("{point} is occupied"))
            }
            Ok(_) => Ok(()),
            Err(_) => Err(format!(
                "not a move on {size}x{size}: D4, pass, resign",
                size = view.size
            )),
        },

        InputPurpose::Result if !is_sgf_result(text) || text == "Void" => {
            Err("a result: B+3.5, W+R, B+T, W+F, 0 or ? (v voids)".into())
        }
        InputPurpose::ClockAdjustment(_) => parse_adjustment(text).map(|_| ()),
        _ => Ok(()),
    }
}

/// `enter` in an input box: the text is used when it can be.
fn accept(mut input: InputBox, view: &GameView, state: &mut UiState) -> Vec<Effect> {
    if let Err(problem) = problem(&input.purpose, &input.text, view) {
        input.problem = Some(problem);
        state.input = Some(input);
        return Vec::new();
    }
    let text = input.text.trim().to_string();
    match input.purpose {
        InputPurpose::Move(_) => return vec![Effect::TypedLine(text)],
        InputPurpose::Reason(command) => {
            let reason = match text.is_empty() {
                true => default_reason(&command).to_string(),
                false => text,
            };
            state.confirm = Some(Confirm { command, reason });
        }
        InputPurpose::Result => ask_reason(state, RiskyCommand::Adjudicate(text)),
        InputPurpose::ClockAdjustment(color) => {
            let delta_ms = parse_adjustment(&text).unwrap_or(0);
            ask_reason(state, RiskyCommand::AdjustClock { color, delta_ms });
        }
        InputPurpose::TraceFilter => state.trace.set_text(text),
    }
    Vec::new()
}

/// The reason a risky command is given when the operator gives none: what
/// the record then says.
pub(crate) fn default_reason(command: &RiskyCommand) -> &'static str {
    match command {
        RiskyCommand::Resign(_) => "its operator resigned",
        RiskyCommand::Restart(_) => "the operator restarted it",
        RiskyCommand::Adjudicate(_) => "adjudicated by the operator",
        RiskyCommand::Void => "voided by the operator",
        RiskyCommand::AdjustClock { .. } => "adjusted by the operator",
        RiskyCommand::Score => goref_core::referee::operator::SCORED_BY_DEFAULT,
        RiskyCommand::Quit => "the operator quit goref",
        RiskyCommand::Interrupt => "goref was interrupted (ctrl-c)",
    }
}

/// A key while a risky command waits: `y` carries it out.
fn confirmed(key: Key, confirm: Confirm, state: &mut UiState) -> Vec<Effect> {
    if !matches!(key, Key::Char('y') | Key::Char('Y')) {
        state.message = Some("cancelled".into());
        return Vec::new();
    }
    let reason = confirm.reason;
    let command = match confirm.command {
        RiskyCommand::Resign(color) => OperatorCommand::Resign { color, reason },
        RiskyCommand::Restart(color) => OperatorCommand::Restart { color, reason },
        RiskyCommand::Adjudicate(result) => OperatorCommand::Adjudicate { result, reason },
        RiskyCommand::Void => OperatorCommand::Adjudicate {
            result: "Void".into(),
            reason,
        },
        RiskyCommand::AdjustClock { color, delta_ms } => OperatorCommand::AdjustClock {
            color,
            delta_ms,
            reason,
        },
        RiskyCommand::Score => OperatorCommand::ScoreNow { reason },
        RiskyCommand::Interrupt => return vec![Effect::Interrupt],
        RiskyCommand::Quit => {
            return vec![
                Effect::Operator(OperatorCommand::Adjudicate {
                    result: "Void".into(),
                    reason,
                }),
                Effect::Quit,
            ]
        }
    };
    vec![Effect::Operator(command)]
}

#[cfg(test)]
mod tests;
