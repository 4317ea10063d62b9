//! The game driver: the async loop around the pure [`Referee`].
//!
//! It starts both players, feeds their reports and the passing of time into
//! the referee, hands every event to the `sinks` (the game folder's
//! journal first), and only then carries the referee's actions back to the
//! players: a move is relayed once it is on disk.
//!
//! However goref ends, the game ends with it: a signal voids the game, and
//! the record, the trace and the stream are finished before the players are
//! shut down. Output that cannot be written (a closed pipe, a full disk)
//! never stops the game; it is an event, and the [`GameOutcome`] says which
//! files are incomplete.

pub(crate) mod game_file;
mod json_out;
mod lineup;
mod operator_input;
mod record_file;
mod sinks;
mod trace_file;

use std::path::PathBuf;
use std::time::Duration;

use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use crate::signals::{Received, Signals};
use lineup::Lineup;
use sinks::{Retold, Sinks};

use crate::files::FileError;
use goref_core::game::Color;
use std::path::Path;

use crate::journal::folder::SOCKET;
use crate::journal::{FolderPlace, GameFolder, JournalSync};
use crate::mirror::server::MirrorServer;
use crate::players::{human, PlayerHandle, PlayerSpec, Report};
use crate::shell_time::{next_from, now, Timer};
use goref_core::protocol::sgmp::link::Direction;
use goref_core::referee::event::attributed;
use goref_core::referee::operator::OPERATOR_HELP;
use goref_core::referee::{
    AgreementEvent, EventBatch, GameConfig, GameEvent, GameResult, Phase, PlayerEvent, RecordInfo,
    Referee, ResumePoint, SessionChange, StampedEvent,
};
use goref_core::referee::{OperatorCommand, OperatorInput};

/// How long players get to quit after the game before they are killed.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(6);

#[derive(Debug, Clone)]
pub struct DriverConfig {
    pub game: GameConfig,
    pub black: PlayerSpec,
    pub white: PlayerSpec,
    pub sgf: Option<PathBuf>,
    pub trace: Option<PathBuf>,
    /// Print one JSON object per event on stdout.
    pub json: bool,
    /// Print a line per move and the result on stderr.
    pub progress: bool,
    /// Print the engines' stderr lines on stderr too.
    pub engine_stderr: bool,
    pub record: RecordInfo,
    pub command_timeout: Duration,
    /// The goref binary, for `bot` players.
    pub self_exe: PathBuf,
    /// Read the operator's commands (score, dead, adjudicate, void) from stdin.
    pub operator_stdin: bool,
    /// Each receives every event with the instant it was handed on: the
    /// feeds for a screen, a mirror, a measurement.
    pub subscribers: Vec<mpsc::UnboundedSender<EventBatch>>,
    /// Where the game's folder goes; `None` for none (a measurement).
    pub folder: Option<FolderPlace>,
    /// Where the game is published to be watched (`--publish`), as its
    /// `game_start` announces it.
    pub published: Option<String>,
    /// The links of the seated players (`seat:NAME`).
    pub seats: crate::seats::link::SeatDesk,
    /// When the game's journal waits for the disk.
    pub journal_sync: JournalSync,
    /// How often an engine that can is asked for an analysis line while it
    /// thinks (`*-genmove_analyze`); `None`: plain `genmove`.
    pub analysis: Option<Duration>,
}

/// How often an engine asked for its analysis sends a line, unless told.
pub const DEFAULT_ANALYSIS_INTERVAL: Duration = Duration::from_secs(1);
/// The shortest interval: engines count it in hundredths of a second.
pub const MIN_ANALYSIS_INTERVAL: Duration = Duration::from_millis(10);

/// What reaches a game from outside besides its players.
#[derive(Debug, Default)]
pub struct Inputs {
    /// The operator's commands and typed moves; `None` when nobody operates.
    pub operator: Option<mpsc::UnboundedReceiver<OperatorInput>>,
    /// Events from beside the game, put into the stream as they come: the
    /// mirror's `spectators`. They change nothing in the game.
    pub notes: Option<mpsc::UnboundedReceiver<GameEvent>>,
    /// The game is taken back from its folder (`goref resume`), not begun.
    pub resume: Option<Resumption>,
}

/// A game taken back from its folder by `goref resume`: the folder, claimed,
/// and what its journal holds.
#[derive(Debug)]
pub struct Resumption {
    pub folder: GameFolder,
    /// Every whole event of the journal, in order.
    pub history: Vec<StampedEvent>,
    pub point: ResumePoint,
    /// How long goref was down: from the journal's last write to now.
    pub down: Option<Duration>,
    /// The bytes of a last line cut short (a power cut), left out.
    pub cut_bytes: usize,
}

#[derive(Debug, thiserror::Error)]
pub enum DriverError {
    #[error("the record: {0}")]
    Record(FileError),
    #[error("the trace: {0}")]
    Trace(FileError),
    #[error("{0}")]
    Setup(String),
    #[error("no game was played: {0}")]
    NoGame(String),
    #[error(
        "the game was not taken back: {0}. Nothing was decided, and its folder holds it as \
         before: mend that and run goref resume again"
    )]
    NotTakenBack(String),
}

/// How a game that was played ended, and what of its output is missing.
#[derive(Debug, Clone, PartialEq)]
pub struct GameOutcome {
    pub result: GameResult,
    /// One line per output file that does not hold the whole game (a full
    /// disk), e.g. `the record game.sgf is incomplete: ...`.
    pub incomplete: Vec<String>,
    /// The game's folder, when it has one.
    pub folder: Option<std::path::PathBuf>,
}

/// Plays one game to its result, with the operator on stdin when the
/// configuration says so.
pub async fn run_game(
    config: DriverConfig,
    notes: Option<mpsc::UnboundedReceiver<GameEvent>>,
) -> Result<GameOutcome, DriverError> {
    let operator = config
        .operator_stdin
        .then(|| operator_stdin(config.game.size));
    let inputs = Inputs {
        operator,
        notes,
        resume: None,
    };
    run_game_with(config, inputs).await
}

/// The operator's commands and typed moves, read from stdin.
pub fn operator_stdin(size: u8) -> mpsc::UnboundedReceiver<OperatorInput> {
    operator_input::spawn_stdin_reader(size)
}

/// Plays one game to its result, with the operator's input and the notes
/// from `inputs` (the full-screen view's commands, the mirror's spectators).
pub async fn run_game_with(
    mut config: DriverConfig,
    inputs: Inputs,
) -> Result<GameOutcome, DriverError> {
    let Inputs {
        mut operator,
        mut notes,
        resume,
    } = inputs;
    let setup_error = |e: goref_core::referee::SetupError| DriverError::Setup(e.to_string());
    let (mut referee, position, lines) = match &resume {
        Some(resume) => {
            let referee =
                Referee::resume(config.game.clone(), &resume.point).map_err(setup_error)?;
            let position = match resume.point.moves.is_empty() {
                true => referee.opening().to_vec(),
                false => resume.point.moves.clone(),
            };
            let lines = resume.point.started.then(|| resume.point.lines.clone());
            (referee, position, lines)
        }
        None => {
            let referee = Referee::new(config.game.clone()).map_err(setup_error)?;
            let opening = referee.opening().to_vec();
            (referee, opening, None)
        }
    };
    let handicap = config
        .game
        .handicap_stones()
        .map_err(|e| DriverError::Setup(e.to_string()))?;
    let mut signals =
        Signals::install().map_err(|e| DriverError::Setup(format!("cannot catch signals: {e}")))?;
    let (folder, retold) = match resume {
        Some(resume) => {
            let told = sinks::resumed_event(&resume);
            let retold = Retold {
                history: resume.history,
                told,
            };
            (Some(resume.folder), Some(retold))
        }
        None => {
            let folder = config.folder.as_ref().map(GameFolder::create).transpose();
            (folder.map_err(|e| DriverError::Setup(e.to_string()))?, None)
        }
    };
    let (attach_tx, attached) = mpsc::unbounded_channel::<OperatorInput>();
    let mut attached = Some(attached);
    let attach = folder
        .as_ref()
        .map(|folder| MirrorServer::start_attach(&folder.file(SOCKET), attach_tx));
    let (attach, attach_trouble) = match attach {
        Some(Ok(server)) => (Some(server), None),
        Some(Err(e)) => (None, Some(e.to_string())),
        None => (None, None),
    };
    let mut attach_notes = attach.as_ref().map(|server| {
        let (feed, notes) = server.attach_game();
        config.subscribers.push(feed);
        notes
    });
    let mut sinks = Sinks::open(&config, folder, retold)?;
    if let Some(trouble) = attach_trouble {
        sinks.take(GameEvent::Notice {
            color: None,
            message: format!("{trouble}; the game goes on, but goref attach cannot reach it"),
        });
    }
    let (report_tx, mut reports) = mpsc::unbounded_channel::<Report>();
    let mut lineup = Lineup::start(&config, handicap, position, lines, report_tx);
    let mut interrupted = false;
    let mut detached = false;
    let mut judge_called = false;
    let mut screens_attached = 0u32;
    let mut timer = Timer::default();

    loop {
        sinks.drain_holding(&mut referee);
        while let Some(action) = referee.poll_action() {
            lineup.send(&action);
        }
        sinks.hand_on_held();
        if referee.is_over() {
            break;
        }
        if referee.phase() == Phase::Adjudication && !judge_called {
            judge_called = true;
            call_the_judge(&mut referee, operator.is_some() || screens_attached > 0);
            continue;
        }
        if referee.phase() != Phase::Adjudication {
            judge_called = false;
        }
        let due = [referee.poll_timeout(), sinks.poll_timeout()];
        timer.set(due.into_iter().flatten().min());
        tokio::select! {
            report = reports.recv() => match report {
                Some(report) => {
                    take_report(&mut referee, &mut sinks, &mut lineup, report);
                    while let Ok(report) = reports.try_recv() {
                        take_report(&mut referee, &mut sinks, &mut lineup, report);
                    }
                }
                None => break,
            },
            _ = timer.fired() => {
                referee.handle_timeout(now());
                sinks.handle_timeout(now());
            }
            input = next_from(&mut operator) => match input {
                Some(input) => {
                    sinks.arrived = Some(now());
                    take_operator_input(&mut referee, &mut lineup, input);
                }
                None => {
                    operator = None;
                    referee.operator_left(now());
                    let typed: Vec<Color> = lineup
                        .players
                        .iter_mut()
                        .filter_map(|p| p.lines.take().map(|_| p.color))
                        .collect();
                    if judge_called {
                        call_the_judge(&mut referee, false);
                    } else if let Some(color) = typed.first() {
                        operator_gone(&mut referee, *color);
                    }
                }
            },
            note = next_from(&mut notes) => match note {
                Some(note) => sinks.take(note),
                None => notes = None,
            },
            note = next_from(&mut attach_notes) => match note {
                Some(note) => {
                    match &note {
                        GameEvent::Session { what: SessionChange::Attached, .. } => {
                            screens_attached += 1;
                        }
                        GameEvent::Session { what: SessionChange::Left, .. } => {
                            screens_attached = screens_attached.saturating_sub(1);
                        }
                        _ => {}
                    }
                    sinks.take(note);
                    if judge_called && operator.is_none() && screens_attached == 0 {
                        call_the_judge(&mut referee, false);
                    }
                }
                None => attach_notes = None,
            },
            input = next_from(&mut attached) => match input {
                Some(input) => {
                    sinks.arrived = Some(now());
                    take_operator_input(&mut referee, &mut lineup, input);
                }
                None => attached = None,
            },
            signal = signals.next(), if !interrupted => match signal {
                Received::Stop(name) => {
                    interrupted = true;
                    referee.void(now(), format!("goref received {name}: the game is void"));
                }
                Received::Hangup if !detached => {
                    detached = true;
                    sinks.take(detached_event(sinks.folder()));
                }
                Received::Hangup => {}
            }
        }
    }
    sinks.drain(&mut referee);
    sinks.finish_record();
    shut_down_players(
        lineup.players,
        &mut reports,
        &mut referee,
        &mut sinks,
        &mut signals,
    )
    .await;
    let incomplete = sinks.finish();
    drop(attach);
    if let Some(reason) = referee.not_taken_back() {
        return Err(DriverError::NotTakenBack(reason.to_string()));
    }
    match referee.result() {
        Some(result) if sinks.game_started => Ok(GameOutcome {
            result: result.clone(),
            incomplete,
            folder: sinks.folder().map(Path::to_path_buf),
        }),
        Some(result) => Err(DriverError::NoGame(result.reason.clone())),
        None => Err(DriverError::NoGame(
            "the players stopped before the game ended".into(),
        )),
    }
}

/// A player's report, into the referee and its events into the sinks; the
/// journal is written once for all the reports that came together.
/// A crash the rules let goref mend starts the program again instead.
fn take_report(referee: &mut Referee, sinks: &mut Sinks, lineup: &mut Lineup, report: Report) {
    sinks.arrived = Some(report.at);
    let mended = match &report.event {
        PlayerEvent::Failed(failure) => lineup.restart(referee, report.color, failure),
        _ => false,
    };
    if !mended {
        referee.handle_player(report.at, report.color, report.event);
    }
    sinks.take_events(referee);
}

/// The `session` event of a terminal that went away.
fn detached_event(folder: Option<&std::path::Path>) -> GameEvent {
    let kept = match folder {
        Some(folder) => format!("; `goref attach {}` brings it back", folder.display()),
        None => String::new(),
    };
    GameEvent::Session {
        what: SessionChange::Detached,
        color: None,
        message: format!(
            "the terminal went away (SIGHUP): the game goes on without a screen{kept}"
        ),
        down_ms: None,
    }
}

/// The operator's input closed while a player's moves are typed: nobody is
/// left to type them. That is no fault of the program, so the game ends
/// without a result.
fn operator_gone(referee: &mut Referee, typed: Color) {
    let why = format!(
        "the operator's input closed (end of input) and {typed}'s moves are typed by the \
         operator"
    );
    referee.without_operator(now(), Some(why));
}

/// What the operator entered: a judge's command, or a typed player's move.
fn take_operator_input(referee: &mut Referee, lineup: &mut Lineup, input: OperatorInput) {
    let players = &lineup.players;
    let (text, not_a_command) = match input {
        OperatorInput::Command(OperatorCommand::Restart { color, reason }) => {
            if let Err(why) = lineup.restart_on_request(referee, color, &reason) {
                referee.notice(format!("operator command ignored: {why}"));
            }
            return;
        }
        OperatorInput::Command(command) => return referee.handle_operator(now(), command),
        OperatorInput::Line {
            text,
            not_a_command,
        } => (text, not_a_command),
    };
    let typed: Vec<Color> = players
        .iter()
        .filter(|p| p.lines.is_some())
        .map(|p| p.color)
        .collect();
    match human::addressee(&typed, referee.board().to_move()) {
        Some(color) => {
            let player = players.iter().find(|p| p.color == color);
            if let Some(lines) = player.and_then(|p| p.lines.as_ref()) {
                let _ = lines.send(text);
            }
        }
        None => referee.notice(not_a_command),
    }
}

/// The game needs the judge: ask the operator, or if none is attached, end
/// the game with an unknown result that says why.
fn call_the_judge(referee: &mut Referee, operator_attached: bool) {
    if operator_attached {
        let why = referee.judge_reason().unwrap_or("the game needs the judge");
        let prompt = format!("the game needs the judge ({why}); type one of: {OPERATOR_HELP}");
        return referee.prompt(prompt);
    }
    referee.without_operator(now(), None);
}

/// Lets the players say goodbye, still recording what they print, then
/// kills whatever is left; at once on a further signal.
async fn shut_down_players(
    players: Vec<PlayerHandle>,
    reports: &mut mpsc::UnboundedReceiver<Report>,
    referee: &mut Referee,
    sinks: &mut Sinks,
    signals: &mut Signals,
) {
    let handles: Vec<JoinHandle<()>> = players.into_iter().map(|p| p.task).collect();
    let aborts: Vec<_> = handles.iter().map(JoinHandle::abort_handle).collect();
    let all_done = futures_join_all(handles);
    let mut all_done = std::pin::pin!(all_done);
    let grace = tokio::time::sleep(SHUTDOWN_GRACE);
    let mut grace = std::pin::pin!(grace);
    loop {
        tokio::select! {
            _ = &mut all_done => break,
            _ = &mut grace => {
                aborts.iter().for_each(|a| a.abort());
                break;
            }
            _ = signals.next_stop() => {
                aborts.iter().for_each(|a| a.abort());
                break;
            }
            Some(report) = reports.recv() => {
                referee.handle_player(report.at, report.color, report.event);
                sinks.drain(referee);
            }
        }
    }
    while let Ok(report) = reports.try_recv() {
        referee.handle_player(report.at, report.color, report.event);
    }
    sinks.drain(referee);
}

async fn futures_join_all(handles: Vec<JoinHandle<()>>) {
    for handle in handles {
        let _ = handle.await;
    }
}

fn agreement_line(agreement: &AgreementEvent) -> String {
    let list = |stones: &[String]| {
        if stones.is_empty() {
            "none".to_string()
        } else {
            stones.join(" ")
        }
    };
    match agreement {
        AgreementEvent::Claim {
            color,
            stones,
            note,
        } => match note {
            Some(note) => format!("{color} claims dead: {} ({note})", list(stones)),
            None => format!("{color} claims dead: {}", list(stones)),
        },
        AgreementEvent::Agreed { stones } => format!("agreed dead: {}", list(stones)),
        AgreementEvent::Disputed {
            black_only,
            white_only,
        } => format!(
            "disputed: only Black claims {}, only White claims {}",
            list(black_only),
            list(white_only)
        ),
        AgreementEvent::Marked { stones } => format!("marked dead: {}", list(stones)),
    }
}

/// A plain one-line description of an event for the progress output.
pub(crate) fn progress_line(event: &GameEvent) -> Option<String> {
    Some(match event {
        GameEvent::GameStart(start) => {
            let line = format!(
                "{}x{} game, {} rules, komi {}, time {}: Black {} ({}) vs White {} ({})",
                start.size,
                start.size,
                start.rules,
                start.komi,
                start.time,
                start.black.full_name(),
                start.black.protocol,
                start.white.full_name(),
                start.white.protocol
            );
            match &start.folder {
                Some(folder) => format!("{line}; its folder is {folder}"),
                None => line,
            }
        }
        GameEvent::Move {
            n,
            color,
            vertex,
            ms,
            ..
        } => format!(
            "{n:>4} {} {vertex:<6} {:>8.3}s",
            color.letter(),
            *ms as f64 / 1000.0
        ),
        GameEvent::Phase { phase, reason } => {
            let phase = serde_json::to_value(phase).expect("phases serialise");
            format!("phase {}: {reason}", phase.as_str().unwrap_or_default())
        }
        GameEvent::Agreement(agreement) => agreement_line(agreement),
        GameEvent::Illegal {
            n,
            color,
            vertex,
            reason,
        } => format!("move {n}: {color} {vertex} is illegal: {reason}"),
        GameEvent::Error { color, message, .. } => {
            format!("error: {}", attributed(*color, message))
        }
        GameEvent::Notice { color, message } => {
            format!("note: {}", attributed(*color, message))
        }
        GameEvent::Player { color, info } => {
            format!("{color}: {} ({}) is ready", info.full_name(), info.protocol)
        }
        GameEvent::Prompt { message, .. } => format!("goref: {message}"),
        GameEvent::Operator {
            command, reason, ..
        } => format!("operator: {command} ({reason})"),
        GameEvent::Spectators { .. } => format!("spectators: {}", event.audience_text()?),
        GameEvent::Session { color, message, .. } => {
            format!("goref: {}", attributed(*color, message))
        }
        GameEvent::Result(result) => format!("result {}: {}", result.result, result.reason),
        GameEvent::Packet { color, entry, .. } => {
            let direction = match entry.direction {
                Direction::In => "<--",
                Direction::Out => "-->",
            };
            format!(
                "     {} {direction} {} {}",
                color.letter(),
                entry.hex,
                entry.meaning
            )
        }
        GameEvent::Clock { .. }
        | GameEvent::Gtp { .. }
        | GameEvent::Usenix { .. }
        | GameEvent::Cgos { .. }
        | GameEvent::Analysis { .. } => return None,
    })
}
