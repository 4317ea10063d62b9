//! A live game on the screen: the driver plays, its events fold into the
//! view, keys become operator commands, and the screen is drawn when
//! something changed.
//!
//! There is no fixed tick. The loop wakes for an event, a key, a resize, a
//! signal, the game's end, or the moment a running clock shows another
//! second; bursts of events are folded before one frame is drawn, and
//! frames are at least `FRAME_GAP` apart.

use std::time::Duration;

use tokio::sync::mpsc;
use tokio::time::Instant;

use crate::driver::{run_game_with, DriverConfig, GameOutcome, Inputs, Resumption};
use crate::mirror::server::MirrorServer;
use crate::shell_time::next_from;
use crate::signals::{Received, Signals};
use crate::ui::clocks::next_change_ms;
use crate::ui::control::{handle_key, Effect};
use crate::ui::{LinkStatus, Role, Theme, UiState};
use goref_core::referee::{GameView, HandedOn, OperatorCommand, OperatorInput};

use super::input::{spawn_reader, TerminalEvent};
use super::terminal::Screen;
use super::{draw_frame, Drawn, FRAME_GAP};

/// What the screen needs besides the game.
pub struct ScreenOptions {
    pub theme: Theme,
    pub keys: crate::ui::commands::KeyMap,
    /// Another game can follow (the demo): `n` starts it.
    pub can_start_next: bool,
    /// The game is the demo, which the screen says, with how to start a
    /// real game.
    pub demo: bool,
    /// A line for the operator's eyes only, kept on the status line (where
    /// the seats' commands are); never in the game's stream.
    pub message: Option<String>,
}

/// How the screen ended.
pub enum Ending {
    /// The last game played, and how it ended.
    Played(Box<GameOutcome>),
    /// A game could not be played; the message says why.
    Failed(String),
}

/// Plays games on the screen until the operator quits: `game(n)` gives the
/// configuration of the `n`th game (from 0). With `resume`, the first game
/// is taken back from its folder.
pub async fn run(
    mut game: impl FnMut(u32) -> DriverConfig,
    options: ScreenOptions,
    mirror: Option<&MirrorServer>,
    mut resume: Option<Resumption>,
) -> Result<Ending, String> {
    let mut screen = Screen::enter().map_err(|e| format!("cannot take the terminal: {e}"))?;
    let mut keys = Some(spawn_reader());
    let mut signals = Signals::install().map_err(|e| format!("cannot catch signals: {e}"))?;
    let mut number = 0;
    loop {
        let mut config = game(number);
        let notes = mirror.map(|mirror| {
            let (feed, notes) = mirror.attach_game();
            config.subscribers.push(feed);
            notes
        });
        let serving = mirror
            .and_then(MirrorServer::address)
            .map(|address| LinkStatus {
                text: format!("serving {address}"),
                trouble: false,
            });
        let game = OneGame {
            config,
            notes,
            serving,
            resume: resume.take(),
        };
        let (ending, next) = play_one(game, &options, &mut screen, &mut keys, &mut signals).await;
        match (ending, next) {
            (Ending::Played(_), true) => number += 1,
            (ending, _) => return Ok(ending),
        }
    }
}

/// A game to play on the screen, and what it is served with.
struct OneGame {
    config: DriverConfig,
    /// The mirror's `spectators` events, for the game's stream.
    notes: Option<mpsc::UnboundedReceiver<goref_core::referee::GameEvent>>,
    /// Where the mirror serves it, for the status line.
    serving: Option<LinkStatus>,
    resume: Option<Resumption>,
}

/// One game on the screen; whether the operator asked for the next one.
async fn play_one(
    game: OneGame,
    options: &ScreenOptions,
    screen: &mut Screen,
    keys: &mut Option<mpsc::UnboundedReceiver<TerminalEvent>>,
    signals: &mut Signals,
) -> (Ending, bool) {
    let OneGame {
        mut config,
        notes,
        serving,
        resume,
    } = game;
    let (events_tx, events) = mpsc::unbounded_channel();
    let mut events = Some(events);
    config.subscribers.push(events_tx);
    let before_start = GameView::before_start(&config.game);
    let (operator, operator_rx) = mpsc::unbounded_channel();
    let inputs = Inputs {
        operator: Some(operator_rx),
        notes,
        resume,
    };
    let mut driver = tokio::spawn(run_game_with(config, inputs));
    let mut view = before_start;
    let mut state = UiState::new(Role::Operator);
    state.keys = options.keys.clone();
    state.can_start_next = options.can_start_next;
    state.demo = options.demo;
    state.link = match (serving, &options.message) {
        (Some(serving), Some(message)) => Some(LinkStatus {
            text: format!("{}; {message}", serving.text),
            trouble: true,
        }),
        (None, Some(message)) => Some(LinkStatus {
            text: message.clone(),
            trouble: true,
        }),
        (serving, None) => serving,
    };
    let mut origin: Option<Instant> = None;
    let mut outcome: Option<Result<GameOutcome, String>> = None;
    let mut leaving = false;
    let mut dirty = true;
    let mut last_frame = Instant::now() - FRAME_GAP;
    let mut drawn = Drawn {
        panes: Vec::new(),
        page: 10,
    };

    loop {
        let now = Instant::now();
        state.now_t_ms = origin.map_or(0, |o| now.duration_since(o).as_millis() as u64);
        if dirty && now >= last_frame + FRAME_GAP {
            drawn = draw_frame(screen, &view, &mut state, &options.theme);
            last_frame = now;
            dirty = false;
        }
        if (leaving || screen.is_lost()) && outcome.is_some() {
            break;
        }
        if leaving && state.message.is_none() {
            state.message = Some("the game is over; stopping the players…".into());
            dirty = true;
        }
        let wake = if dirty {
            last_frame + FRAME_GAP
        } else {
            let shown = !screen.is_lost();
            let clock = (shown && outcome.is_none() && !view.clocks_paused)
                .then(|| next_change_ms(&view, state.now_t_ms))
                .flatten();
            clock.map_or(now + Duration::from_secs(3600), |ms| {
                now + Duration::from_millis(ms)
            })
        };
        tokio::select! {
            event = next_from(&mut events) => {
                let Some(first) = event else {
                    events = None;
                    continue;
                };
                let Some(events) = &mut events else { continue };
                // The latest event sets the origin: a resumed game retells
                // its journal first, with times older than the telling.
                let since = |at, t_ms| Instant::from_std(at).checked_sub(Duration::from_millis(t_ms));
                let mut next = Some(first);
                while let Some(batch) = next {
                    for HandedOn { at, stamped, .. } in batch {
                        origin = since(at, stamped.t_ms).or(origin);
                        show_folder(&stamped, &mut state);
                        view.apply_stamped(&stamped);
                    }
                    next = events.try_recv().ok();
                }
                dirty = true;
            }
            input = next_from(keys) => match input {
                Some(TerminalEvent::Key(key)) => {
                    for effect in handle_key(key, &view, &mut state, &drawn.panes, drawn.page) {
                        match effect {
                            Effect::Operator(command) => {
                                let _ = operator.send(OperatorInput::Command(command));
                            }
                            Effect::TypedLine(text) => {
                                let not_a_command = format!("'{text}' is no command, and no typed player is to move");
                                let _ = operator.send(OperatorInput::Line { text, not_a_command });
                            }
                            Effect::Quit => leaving = true,
                            Effect::Interrupt => {
                                leaving = true;
                                let _ = operator.send(OperatorInput::Command(OperatorCommand::Adjudicate {
                                    result: "Void".into(),
                                    reason: "goref was interrupted (ctrl-c)".into(),
                                }));
                            }
                            Effect::NextGame if outcome.is_some() => {
                                return (ended(outcome), true);
                            }
                            Effect::NextGame | Effect::Step(_) => {}
                        }
                    }
                    dirty = true;
                }
                Some(TerminalEvent::Repaint) => {
                    screen.repaint();
                    dirty = true;
                }
                Some(TerminalEvent::Lost(why)) => {
                    tracing::warn!("the terminal cannot be read: {why}");
                    *keys = None;
                }
                None => *keys = None,
            },
            joined = &mut driver, if outcome.is_none() => {
                outcome = Some(match joined {
                    Ok(Ok(game)) => Ok(game),
                    Ok(Err(e)) => Err(e.to_string()),
                    Err(e) => Err(format!("the game stopped: {e}")),
                });
                if matches!(outcome, Some(Err(_))) {
                    leaving = true;
                }
                dirty = true;
            }
            signal = signals.next() => match signal {
                // The driver catches the same signal: it voids the game, or
                // notes that the terminal went away and plays on.
                Received::Stop(_) => leaving = true,
                Received::Hangup => {
                    screen.lose("the terminal went away (SIGHUP)");
                    *keys = None;
                }
            },
            _ = tokio::time::sleep_until(wake) => dirty = true,
        }
    }
    (ended(outcome), false)
}

/// The game's folder on the status line, where `goref attach` and `goref
/// resume` find the game, unless the line says where the game is served.
fn show_folder(stamped: &goref_core::referee::StampedEvent, state: &mut UiState) {
    let goref_core::referee::GameEvent::GameStart(start) = &stamped.event else {
        return;
    };
    let (Some(folder), None) = (&start.folder, &state.link) else {
        return;
    };
    state.link = Some(LinkStatus {
        text: format!("folder {folder}"),
        trouble: false,
    });
}

fn ended(outcome: Option<Result<GameOutcome, String>>) -> Ending {
    match outcome {
        Some(Ok(game)) => Ending::Played(Box::new(game)),
        Some(Err(message)) => Ending::Failed(message),
        None => Ending::Failed("the game did not end".into()),
    }
}
