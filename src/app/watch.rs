//! `goref --watch HOST:PORT`: a spectator's screen, or with `--headless`
//! its lines; and `goref attach DIR`: the operator's screen of a running
//! game again, through its folder's socket.
//!
//! The spectator follows the referee's stream ([`Follow`]) and folds it into
//! its own view, and draws it with the same `ui::draw` at its own terminal
//! size. Its keys go through the same `handle_key` with the spectator's
//! role, which has no operator command: scrolling, filters, zoom and help
//! act on this screen alone, and nothing is ever sent to the referee but
//! hello, ping and bye. The status line says how far behind the referee the
//! screen is, or that it is reconnecting. A spectator may come before the
//! referee: it waits for it (its screen up, saying so; headless, a line on
//! stderr) until the referee lets it in or it quits. An attached screen has
//! the operator's role: its commands go to the referee as `command` lines,
//! and a game folder whose goref does not answer is a message at once.
//!
//! A referee that serves an event's hall (`goref event DIR --serve`) is
//! watched on the hall's screen (`HallScreen`): every board, any one
//! opened and left, and with `--board N` that board opened from the start.

use std::time::Duration;

use tokio::time::Instant;

use crate::console;
use crate::driver::progress_line;
use crate::mirror::client::Spectator;
use crate::mirror::follow::{Follow, FollowEvent, Target};
use crate::shell_time::{next_from, now};
use crate::signals::Signals;
use crate::ui::clocks::next_change_ms;
use crate::ui::control::{handle_key, Effect};
use crate::ui::{Role, UiState};
use goref_core::referee::StampedEvent;

use super::hall_screen::{Action, HallScreen};
use super::input::{spawn_reader, TerminalEvent};
use super::terminal::Screen;
use super::{draw_frame, Drawn, ScreenOptions, FRAME_GAP};
use crate::ui::hall::keys::HallEffect;

/// How often the status line is looked at (the delay, a countdown).
const STATUS_EVERY: Duration = Duration::from_secs(1);

/// What a spectator prints without a screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Headless {
    /// The events as JSON lines, as `--json` prints them.
    Json,
    /// A line per event worth a line, as `goref play --headless` prints.
    Progress,
}

/// How a watch ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WatchEnd {
    /// The spectator quit, or the referee went after the result.
    Done,
    /// Headless: the output could not take a line (closed, or the disk is
    /// full), so what was printed is not the whole stream.
    OutputCut,
}

/// Follows the game at `target` until the spectator quits, or, headless,
/// until the referee goes after the result. An error is a one-line message.
/// A spectator waits for a referee that is not there yet; with
/// [`Role::Operator`] (an attached screen) the keys command the game, and
/// the game must be there: it is followed only once its goref has let the
/// screen in.
pub async fn run(
    target: Target,
    token: Option<String>,
    headless: Option<Headless>,
    options: ScreenOptions,
    role: Role,
    board: Option<u32>,
) -> Result<WatchEnd, String> {
    let spectator = Spectator::new(token, headless == Some(Headless::Json), now());
    let mut follow = Follow::new(target, spectator, headless.is_some());
    if role == Role::Spectator {
        follow = follow.waiting();
    }
    let mut signals = Signals::install().map_err(|e| format!("cannot catch signals: {e}"))?;
    let first = match role {
        Role::Spectator => Vec::new(),
        _ => let_in(&mut follow).await?,
    };
    match headless {
        Some(mode) => {
            if !print(&first, mode) {
                follow.leave();
                return Ok(WatchEnd::OutputCut);
            }
            run_headless(&mut follow, mode, &mut signals).await
        }
        None => run_screen(&mut follow, options, &mut signals, role, board)
            .await
            .map(|()| WatchEnd::Done),
    }
}

/// Waits until the referee has let this screen in, so that a goref that
/// does not answer is a message before the screen takes the terminal; the
/// lines to print that came meanwhile.
async fn let_in(follow: &mut Follow) -> Result<Vec<String>, String> {
    let mut printed = Vec::new();
    while !follow.spectator.ever_live() {
        match follow.next().await {
            FollowEvent::Update(update) => printed.extend(update.print),
            FollowEvent::Failed(why) | FollowEvent::Finished(why) => return Err(why),
            FollowEvent::Link | FollowEvent::Dropped => {}
        }
    }
    Ok(printed)
}

/// Prints the lines as `mode` asks; false once the output is closed.
fn print(lines: &[String], mode: Headless) -> bool {
    lines.iter().all(|line| match mode {
        Headless::Json => console::out(line),
        Headless::Progress => progress_text(line).is_none_or(console::say),
    })
}

async fn run_headless(
    follow: &mut Follow,
    mode: Headless,
    signals: &mut Signals,
) -> Result<WatchEnd, String> {
    let mut waiting_told = None;
    loop {
        tokio::select! {
            event = follow.next() => match event {
                FollowEvent::Update(update) => {
                    if !print(&update.print, mode) {
                        follow.leave();
                        return Ok(WatchEnd::OutputCut);
                    }
                }
                FollowEvent::Link => {}
                FollowEvent::Dropped => match follow.spectator.waiting_for_the_referee() {
                    Some(waiting) if waiting_told.as_ref() != Some(&waiting) => {
                        console::say(format!("goref: {waiting}"));
                        waiting_told = Some(waiting);
                    }
                    Some(_) => {}
                    None => {
                        let status = follow.spectator.status(now());
                        console::say(format!("goref: {}: {}", follow.address(), status.text));
                    }
                },
                FollowEvent::Failed(why) => return Err(why),
                FollowEvent::Finished(_) => return Ok(WatchEnd::Done),
            },
            _ = signals.next() => {
                follow.leave();
                return Ok(WatchEnd::Done);
            }
        }
    }
}

/// The progress line of a printed event line, if it is one; a hall's
/// board's, after its number.
fn progress_text(line: &str) -> Option<String> {
    let stamped: StampedEvent = serde_json::from_str(line).ok()?;
    let text = progress_line(&stamped.event)?;
    let board = line
        .strip_prefix("{\"board\":")
        .and_then(|rest| rest.split(',').next())
        .and_then(|n| n.parse::<u32>().ok());
    Some(match board {
        Some(board) => format!("board {board}: {text}"),
        None => text,
    })
}

async fn run_screen(
    follow: &mut Follow,
    options: ScreenOptions,
    signals: &mut Signals,
    role: Role,
    mut board: Option<u32>,
) -> Result<(), String> {
    let mut screen = Screen::enter().map_err(|e| format!("cannot take the terminal: {e}"))?;
    let mut keys = Some(spawn_reader());
    let mut state = UiState::new(role);
    state.detaches = role == Role::Operator;
    state.keys = options.keys.clone();
    let mut dirty = true;
    let mut last_frame = Instant::now() - FRAME_GAP;
    let mut next_status = Instant::now() + STATUS_EVERY;
    let mut drawn = Drawn {
        panes: Vec::new(),
        page: 10,
    };
    let mut hall_screen = HallScreen::new(Role::Spectator, options.keys.clone());
    let mut hall_round = None;
    loop {
        if let Some(hall) = &follow.spectator.hall {
            if hall_round.replace(hall.picture.round) != Some(hall.picture.round) {
                hall_screen.new_round();
            }
            if let Some(wanted) = board.filter(|b| hall.games.contains_key(b)) {
                hall_screen.open(hall, wanted);
                board = None;
            }
            if let Some(opened) = hall_screen.opened() {
                hall_screen.see(hall, opened);
            }
        }
        let at = Instant::now();
        let host_ms = follow.spectator.host_ms(at.into_std());
        state.now_t_ms = host_ms.map_or(follow.spectator.view.last_t_ms, |ms| ms.max(0.0) as u64);
        let status = follow.spectator.status(at.into_std());
        if state.link.as_ref() != Some(&status) {
            state.link = Some(status);
            dirty = true;
        }
        let gap = match follow.spectator.hall {
            Some(_) => hall_screen.frame_gap(),
            None => FRAME_GAP,
        };
        if dirty && at >= last_frame + gap {
            match &follow.spectator.hall {
                Some(hall) => {
                    let link = state.link.as_ref();
                    hall_screen.draw(&mut screen, hall, &options.theme, link);
                }
                None => {
                    drawn = draw_frame(
                        &mut screen,
                        &follow.spectator.view,
                        &mut state,
                        &options.theme,
                    );
                }
            }
            last_frame = at;
            dirty = false;
        }
        if screen.is_lost() {
            follow.leave();
            return Ok(());
        }
        let view = &follow.spectator.view;
        let clock = (view.result.is_none() && !view.clocks_paused)
            .then(|| next_change_ms(view, state.now_t_ms))
            .flatten()
            .map(|ms| at + Duration::from_millis(ms));
        let clock = match &follow.spectator.hall {
            Some(hall) => Some(hall_screen.next_tick(hall)),
            None => clock,
        };
        let wake = match dirty {
            true => last_frame + gap,
            false => clock.map_or(next_status, |c| c.min(next_status)),
        };
        tokio::select! {
            event = follow.next() => match event {
                FollowEvent::Update(update) => dirty |= update.changed,
                FollowEvent::Link | FollowEvent::Dropped => dirty = true,
                FollowEvent::Failed(why) if !follow.spectator.ever_live() => return Err(why),
                FollowEvent::Failed(why) | FollowEvent::Finished(why) => {
                    state.message = Some(why);
                    dirty = true;
                }
            },
            input = next_from(&mut keys) => match input {
                Some(TerminalEvent::Key(key)) if follow.spectator.hall.is_some() => {
                    let hall = follow.spectator.hall.as_ref().expect("a hall");
                    let quit = Action::Hall(HallEffect::Quit);
                    if hall_screen.key(hall, key).contains(&quit) {
                        follow.leave();
                        return Ok(());
                    }
                    dirty = true;
                }
                Some(TerminalEvent::Key(key)) => {
                    let view = &follow.spectator.view;
                    for effect in handle_key(key, view, &mut state, &drawn.panes, drawn.page) {
                        let line = match effect {
                            Effect::Quit | Effect::Interrupt => {
                                follow.leave();
                                return Ok(());
                            }
                            Effect::Operator(command) => command.as_line(),
                            Effect::TypedLine(text) => text,
                            Effect::NextGame | Effect::Step(_) => continue,
                        };
                        if let Some(why) = follow.command(&line) {
                            state.message = Some(format!("'{line}' was not sent: {why}"));
                        }
                    }
                    dirty = true;
                }
                Some(TerminalEvent::Repaint) => {
                    screen.repaint();
                    dirty = true;
                }
                Some(TerminalEvent::Lost(_)) | None => keys = None,
            },
            _ = signals.next() => {
                follow.leave();
                return Ok(());
            }
            _ = tokio::time::sleep_until(wake) => {
                if Instant::now() >= next_status {
                    next_status = Instant::now() + STATUS_EVERY;
                }
                dirty |= clock.is_some_and(|c| Instant::now() >= c);
            }
        }
    }
}
