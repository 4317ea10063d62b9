//! A scripted referee: it drives one player adapter with the actions a game
//! would send, keeps every report, and plays the other side with the
//! built-in engine.

use std::time::{Duration, Instant};

use tokio::sync::mpsc;

use crate::bot::engine::Engine;
use crate::players::{self, PlayerHandle, PlayerSetup, PlayerSpec, Report};
use crate::shell_time::now;
use goref_core::game::board::first_to_move;
use goref_core::game::clock::{Clock, TimeSystem};
use goref_core::game::{Color, Move};
use goref_core::referee::{Action, Failure, PlayerEvent, TimeLeft};

/// How a wait for the player ended.
#[derive(Debug)]
pub(crate) enum Waited<T> {
    Got(T),
    Failed(Failure),
    /// Nothing came within the time allowed.
    Silent(Duration),
}

/// One player adapter, driven by the check.
pub(crate) struct Scripted {
    handle: PlayerHandle,
    reports: mpsc::UnboundedReceiver<Report>,
    /// Every report so far, in order.
    pub log: Vec<Report>,
}

impl Scripted {
    pub(super) fn start(spec: &PlayerSpec, setup: PlayerSetup) -> Scripted {
        let (tx, reports) = mpsc::unbounded_channel();
        let handle = players::spawn(spec, setup, tx);
        Scripted {
            handle,
            reports,
            log: Vec::new(),
        }
    }

    pub(crate) fn act(&self, action: Action) {
        let _ = self.handle.actions.send(action);
    }

    /// Waits up to `within` for a report `wanted` picks, keeping every
    /// report; a failure of the player ends the wait.
    pub(super) async fn wait<T>(
        &mut self,
        within: Duration,
        mut wanted: impl FnMut(&Report) -> Option<T>,
    ) -> Waited<T> {
        let since = now();
        let deadline = tokio::time::Instant::from_std(since + within);
        loop {
            let report = match tokio::time::timeout_at(deadline, self.reports.recv()).await {
                Ok(Some(report)) => report,
                Ok(None) | Err(_) => return Waited::Silent(now().saturating_duration_since(since)),
            };
            self.log.push(report.clone());
            if let PlayerEvent::Failed(failure) = &report.event {
                return Waited::Failed(failure.clone());
            }
            if let Some(found) = wanted(&report) {
                return Waited::Got(found);
            }
        }
    }

    /// Ends the game for the player and waits up to `within` for the
    /// adapter to say goodbye, keeping its last reports.
    pub(super) async fn finish(mut self, within: Duration) -> Vec<Report> {
        self.act(Action::GameOver {
            result: "Void".into(),
        });
        let deadline = tokio::time::Instant::from_std(now() + within);
        loop {
            match tokio::time::timeout_at(deadline, self.reports.recv()).await {
                Ok(Some(report)) => self.log.push(report),
                Ok(None) => break,
                Err(_) => {
                    self.handle.task.abort();
                    break;
                }
            }
            if self.handle.task.is_finished() {
                while let Ok(report) = self.reports.try_recv() {
                    self.log.push(report);
                }
                break;
            }
        }
        self.log
    }
}

/// One move the program made.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TimedMove {
    pub mv: Move,
    /// From the moment it had the turn to its move; for a seated program,
    /// its seat's own stamp (the network is not the program's time).
    pub took: Duration,
}

/// How the exchange of moves went.
#[derive(Debug, Default)]
pub(crate) struct Exchange {
    pub moves: Vec<TimedMove>,
    /// The opponent's moves the program refused.
    pub refused: Vec<String>,
    /// Why the exchange stopped short, if it did.
    pub stopped: Option<Stopped>,
}

/// Why the exchange stopped short.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Stopped {
    Failed(Failure),
    Silent(Duration),
    Illegal { mv: Move, why: String },
    Resigned,
}

/// The other side of the game: the built-in engine, its board the game's.
pub(crate) struct Opponent {
    engine: Engine,
}

impl Opponent {
    pub(super) fn new(setup: &PlayerSetup) -> Opponent {
        let mut engine = Engine::new(setup.size, 7).expect("the size was checked");
        let _ = engine.place(Color::Black, &setup.handicap);
        Opponent { engine }
    }

    /// A move for `color`, played on its board.
    pub(crate) fn move_for(&mut self, color: Color) -> Move {
        self.engine.genmove(color)
    }

    /// Whose move it is on the opponent's board.
    pub(crate) fn color_to_move(&self) -> Color {
        self.engine.board().to_move()
    }

    /// Records the program's move, or says why it is illegal.
    pub(super) fn record(&mut self, color: Color, mv: Move) -> Result<(), String> {
        self.engine.play(color, mv).map_err(|e| e.to_string())
    }

    pub(super) fn board(&self) -> &goref_core::game::board::Board {
        self.engine.board()
    }
}

/// What the referee tells the program of its clock before each move, as
/// at the start of the game.
pub(super) fn time_left(system: TimeSystem, at: Instant) -> Option<TimeLeft> {
    TimeLeft::on(&Clock::new(system), at)
}

/// Asks the program for `moves` moves, the opponent answering each, as in
/// a game. `limit` is the longest one move may take.
pub(super) async fn exchange(
    player: &mut Scripted,
    setup: &PlayerSetup,
    opponent: &mut Opponent,
    moves: u32,
    limit: Duration,
) -> Exchange {
    let color = setup.color;
    let mut exchange = Exchange::default();
    let mut to_move = first_to_move(&setup.handicap);
    while exchange.moves.len() < moves as usize {
        if to_move != color {
            let mv = opponent.move_for(color.opponent());
            player.act(Action::TellMove {
                to: color,
                color: color.opponent(),
                mv,
            });
            to_move = color;
            continue;
        }
        player.act(Action::RequestMove {
            color,
            cleanup: false,
            time_left: time_left(setup.rules.time, now()),
        });
        match ask_move(player, limit, &mut exchange.refused).await {
            Ok(timed) => {
                let mv = timed.mv;
                exchange.moves.push(timed);
                if mv == Move::Resign {
                    exchange.stopped = Some(Stopped::Resigned);
                    break;
                }
                if let Err(why) = opponent.record(color, mv) {
                    exchange.stopped = Some(Stopped::Illegal { mv, why });
                    break;
                }
            }
            Err(stopped) => {
                exchange.stopped = Some(stopped);
                break;
            }
        }
        to_move = color.opponent();
    }
    exchange
}

/// Waits for the move just asked for, noting refused moves on the way.
pub(crate) async fn ask_move(
    player: &mut Scripted,
    limit: Duration,
    refused: &mut Vec<String>,
) -> Result<TimedMove, Stopped> {
    let mut thinking_from = None;
    let mut seat_think = None;
    let waited = player
        .wait(limit, |report| match &report.event {
            PlayerEvent::Thinking => {
                thinking_from = Some(report.at);
                None
            }
            PlayerEvent::SeatTime(think) => {
                seat_think = Some(*think);
                None
            }
            PlayerEvent::RejectedMove { mv, message } => {
                refused.push(format!("{mv}: {message}"));
                None
            }
            PlayerEvent::Moved(mv) => Some((*mv, report.at)),
            _ => None,
        })
        .await;
    match waited {
        Waited::Got((mv, at)) => {
            let measured = at.saturating_duration_since(thinking_from.unwrap_or(at));
            Ok(TimedMove {
                mv,
                took: seat_think.map_or(measured, |think| think.min(measured)),
            })
        }
        Waited::Failed(failure) => Err(Stopped::Failed(failure)),
        Waited::Silent(waited) => Err(Stopped::Silent(waited)),
    }
}
