//! What a key does on the hall: move between boards, open one, show the
//! standings, and, between rounds, answer the event's pairing. What must
//! reach the event comes back as [`HallEffect`]s for the app to carry out.
//!
//! ```text
//! up/down/left/right, j/k/h/l   the board selected
//! 1..9 then enter               open that board;  enter  the one selected
//! s                             the standings (again: the boards)
//! ?                             the hall's keys (again, or esc: the boards)
//! R                             a result for the selected board
//! t                             start the selected board again, when its
//!                               game never started (its line failed)
//! q                             leave the hall (the boards play on)
//! between rounds:  y  start the round   c  swap colours   w  withdraw
//!                  a  add               r  re-pair        R  a result
//! ```
//!
//! Every change to the event (a swap, a withdrawal, an entrant added, a
//! new pairing, a result) asks for `y` first, as the game's risky commands
//! do.

use goref_core::tournament::games::parse_outcome;
use goref_core::tournament::hall::Stage;

use super::super::keys::Key;
use super::{Asking, HallInput, HallKind, HallState, HallView, Mode};

/// What the app must do for the hall.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HallEffect {
    /// Show board N's full screen.
    Open(u32),
    /// Leave the hall; the boards play on.
    Quit,
    /// An answer to the event's pairing prompt (`y`, `swap 3`, ...).
    Answer(String),
    /// The director's result for a board of the round.
    SetResult {
        board: u32,
        result: String,
        reason: String,
        /// It replaces the result the board has (the director said so).
        replace: bool,
    },
    /// Start a board of the round again, in a new folder: its game never
    /// started, or its goref failed.
    Retry(u32),
}

/// Handles one key on the hall. `columns` is how many tiles a row of the
/// frame just drawn holds, for up and down.
pub(crate) fn handle(
    key: Key,
    hall: &HallView,
    state: &mut HallState,
    columns: usize,
) -> Vec<HallEffect> {
    state.message = None;
    if let Some((_, effect)) = state.confirm.take() {
        return match key {
            Key::Char('y') => vec![effect],
            _ => {
                state.message = Some("nothing changed".into());
                Vec::new()
            }
        };
    }
    if state.input.is_some() {
        return typed(key, hall, state);
    }
    let order = hall.order(state);
    if state.selected.is_none_or(|b| !order.contains(&b)) {
        state.selected = order.first().copied();
    }
    let pairing = matches!(hall.picture.stage, Stage::Pairing { .. }) && state.director;
    let text = matches!(state.mode, Mode::Standings | Mode::Seats | Mode::Help)
        || !matches!(hall.picture.stage, Stage::Playing | Stage::Starting);
    match key {
        Key::Char('q') if hall.kind == HallKind::Worker => {
            match hall.picture.boards.iter().filter(|b| b.playing).count() {
                0 => return vec![HallEffect::Quit],
                playing => {
                    let games = match playing {
                        1 => "its game in play stops and its pair goes".to_string(),
                        n => format!("its {n} games in play stop and their pairs go"),
                    };
                    state.confirm = Some((
                        format!("stop the worker? {games} back to the queue"),
                        HallEffect::Quit,
                    ))
                }
            }
        }
        Key::Char('q') | Key::Ctrl('c') => return vec![HallEffect::Quit],
        Key::Char(c @ '0'..='9') => {
            state.typed.push(c);
            state.message = Some(format!("board {}: enter opens it", state.typed));
        }
        Key::Esc => {
            state.typed.clear();
            if matches!(state.mode, Mode::Standings | Mode::Seats | Mode::Help) {
                state.mode = Mode::Boards;
            }
        }
        Key::Char('?') => {
            state.mode = match state.mode {
                Mode::Help => Mode::Boards,
                _ => Mode::Help,
            };
            state.scroll = 0;
        }
        Key::Enter => return open(hall, state),
        Key::Char('s') if hall.kind != HallKind::Worker => {
            state.mode = match state.mode {
                Mode::Standings => Mode::Boards,
                _ => Mode::Standings,
            };
            state.scroll = 0;
        }
        Key::Char('S') if !hall.picture.seats.is_empty() => {
            state.mode = match state.mode {
                Mode::Seats => Mode::Boards,
                _ => Mode::Seats,
            };
            state.scroll = 0;
        }
        Key::Down | Key::Char('j') if text => state.scroll += 1,
        Key::Up | Key::Char('k') if text => state.scroll = state.scroll.saturating_sub(1),
        Key::PageDown if text => state.scroll += 10,
        Key::PageUp if text => state.scroll = state.scroll.saturating_sub(10),
        Key::Down | Key::Char('j') => step(&order, state, columns as isize),
        Key::Up | Key::Char('k') => step(&order, state, -(columns as isize)),
        Key::Right | Key::Char('l') => step(&order, state, 1),
        Key::Left | Key::Char('h') => step(&order, state, -1),
        Key::Char('y') if pairing => return vec![HallEffect::Answer("y".into())],
        Key::Char('c') if pairing => {
            ask(state, Asking::Prompt("swap"), "swap the colours of board")
        }
        Key::Char('w') if pairing => ask(
            state,
            Asking::Prompt("withdraw"),
            "withdraw (NAME [REASON])",
        ),
        Key::Char('a') if pairing => ask(state, Asking::Prompt("add"), "add (NAME PLAYER)"),
        Key::Char('r') if pairing => {
            state.confirm = Some((
                "pair the round again by the rules alone, the swaps dropped?".into(),
                HallEffect::Answer("repair".into()),
            ));
        }
        Key::Char('R') if pairing => ask(
            state,
            Asking::Prompt("result"),
            "result (BLACK WHITE RESULT REASON)",
        ),
        Key::Char('t') if state.director && !pairing => {
            let Some(board) = state.selected.and_then(|b| hall.picture.board(b)) else {
                return Vec::new();
            };
            let waiting = hall
                .games
                .get(&board.board)
                .and_then(|game| game.view.waits_for_absent_seat())
                .map(|side| {
                    format!("its game waits for {side}'s absent seat; the clocks start afresh")
                });
            match board.needs_director.clone().or(waiting) {
                Some(why) => {
                    state.confirm = Some((
                        format!("start board {} again ({why})?", board.board),
                        HallEffect::Retry(board.board),
                    ))
                }
                None => {
                    state.message = Some(format!(
                        "board {} needs no retry: t starts again a board whose game never \
                         started or waits for an absent seat",
                        board.board
                    ))
                }
            }
        }
        Key::Char('R') if state.director => {
            if let Some(board) = state.selected.and_then(|b| hall.picture.board(b)) {
                let label = match &board.result {
                    None => format!(
                        "board {}: {} (B) - {} (W): RESULT REASON",
                        board.board, board.black, board.white
                    ),
                    Some(old) => format!(
                        "board {} has {old}: to override it, RESULT REASON",
                        board.board
                    ),
                };
                ask(state, Asking::Result(board.board), &label);
            }
        }
        _ => {}
    }
    Vec::new()
}

/// `enter`: the board typed, else the one selected.
fn open(hall: &HallView, state: &mut HallState) -> Vec<HallEffect> {
    let typed = std::mem::take(&mut state.typed);
    let board = match typed.parse::<u32>() {
        Ok(n) => n,
        Err(_) => match state.selected {
            Some(n) => n,
            None => return Vec::new(),
        },
    };
    if hall.picture.board(board).is_none() {
        state.message = Some(format!("round {} has no board {board}", hall.picture.round));
        return Vec::new();
    }
    state.selected = Some(board);
    vec![HallEffect::Open(board)]
}

/// Moves the selection `by` places in the hall's order.
fn step(order: &[u32], state: &mut HallState, by: isize) {
    let Some(at) = state
        .selected
        .and_then(|b| order.iter().position(|&o| o == b))
    else {
        return;
    };
    let to = (at as isize + by).clamp(0, order.len() as isize - 1);
    state.selected = Some(order[to as usize]);
}

fn ask(state: &mut HallState, asking: Asking, label: &str) {
    state.input = Some(HallInput {
        asking,
        label: label.to_string(),
        text: String::new(),
        cursor: 0,
    });
}

/// A key in the box on the hint bar: `enter` asks to confirm what was
/// typed, `esc` drops it.
fn typed(key: Key, hall: &HallView, state: &mut HallState) -> Vec<HallEffect> {
    let mut input = state.input.take().expect("a box is open");
    let edit = match key {
        Key::Esc => return Vec::new(),
        Key::Enter => {
            match confirmation(&input, hall) {
                Ok(confirm) => state.confirm = Some(confirm),
                Err(why) => {
                    state.message = Some(why);
                    state.input = Some(input);
                }
            }
            return Vec::new();
        }
        Key::Char(c) => tui_input::InputRequest::InsertChar(c),
        Key::Backspace => tui_input::InputRequest::DeletePrevChar,
        Key::Delete => tui_input::InputRequest::DeleteNextChar,
        Key::Left => tui_input::InputRequest::GoToPrevChar,
        Key::Right => tui_input::InputRequest::GoToNextChar,
        Key::Home => tui_input::InputRequest::GoToStart,
        Key::End => tui_input::InputRequest::GoToEnd,
        Key::Ctrl('u') => tui_input::InputRequest::DeleteLine,
        Key::Ctrl('w') => tui_input::InputRequest::DeletePrevWord,
        _ => {
            state.input = Some(input);
            return Vec::new();
        }
    };
    let mut editor = tui_input::Input::new(input.text.clone()).with_cursor(input.cursor);
    editor.handle(edit);
    input.text = editor.value().to_string();
    input.cursor = editor.cursor();
    state.input = Some(input);
    Vec::new()
}

/// The question a typed line asks before it acts, and what it does.
fn confirmation(input: &HallInput, hall: &HallView) -> Result<(String, HallEffect), String> {
    let text = input.text.trim();
    if text.is_empty() {
        return Err(format!("{}: type it, or esc", input.label));
    }
    match &input.asking {
        Asking::Prompt(verb) => {
            let line = format!("{verb} {text}");
            Ok((format!("{line}?"), HallEffect::Answer(line)))
        }
        Asking::Result(board) => {
            let (result, reason) = text.split_once(' ').unwrap_or((text, ""));
            parse_outcome(result)?;
            if reason.trim().is_empty() {
                return Err("say why after the result: B+R the program crashed twice".into());
            }
            let shown = hall.picture.board(*board);
            let pair = shown
                .map(|b| format!("{} - {}", b.black, b.white))
                .unwrap_or_default();
            let old = shown.and_then(|b| b.result.clone());
            let question = match &old {
                None => format!("board {board} ({pair}) {result} ({})?", reason.trim()),
                Some(old) => format!(
                    "override board {board}'s {old} with {result} ({})?",
                    reason.trim()
                ),
            };
            Ok((
                question,
                HallEffect::SetResult {
                    board: *board,
                    result: result.to_string(),
                    reason: reason.trim().to_string(),
                    replace: old.is_some(),
                },
            ))
        }
    }
}
