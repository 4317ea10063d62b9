//! The game driver: the async loop around the pure [`Referee`].
//!
//! It starts both players, feeds their reports and the passing of time into
//! the referee, carries the referee's actions back to the players, and hands
//! every event to the sinks: `--json` lines, the progress lines, the trace
//! file and the SGF record, which is rewritten atomically after every move.
//!
//! However goref ends, the game ends with it: a signal voids the game, and
//! the record, the trace and the stream are finished before the players are
//! shut down. Output that cannot be written (a closed pipe, a full disk)
//! never stops the game; it is an event, and the [`GameOutcome`] says which
//! files are incomplete.

mod json_out;
mod operator_input;
mod record_file;
pub mod signals;
mod trace_file;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use tokio::sync::mpsc;
use tokio::task::JoinHandle;

pub use crate::files::write_atomically;
use json_out::JsonOut;
pub use operator_input::OperatorInput;
use record_file::{RecordFile, RecordStatus};
use signals::Signals;
use trace_file::TraceFile;

use crate::console;
use crate::files::{resolve_output, same_file, FileError};
use crate::game::Color;
use crate::players::{self, human, PlayerHandle, PlayerSetup, PlayerSpec, Report};
use crate::protocol::sgmp::link::Direction;
use crate::referee::event::attributed;
use crate::referee::operator::OPERATOR_HELP;
use crate::referee::{
    Action, AgreementEvent, GameConfig, GameEvent, GameResult, LineDirection, Phase, PlannedGame,
    RecordInfo, Recorder, Referee, StampedEvent, StreamHeader,
};
use crate::shell_time::{now, sleep_until};

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
    pub subscribers: Vec<mpsc::UnboundedSender<(Instant, StampedEvent)>>,
}

/// What reaches a game from outside besides its players.
#[derive(Debug, Default)]
pub struct Inputs {
    /// The operator's commands and typed moves; `None` when nobody operates.
    pub operator: Option<mpsc::UnboundedReceiver<OperatorInput>>,
    /// Events from beside the game, put into the stream as they come: the
    /// mirror's `spectators`. They change nothing in the game.
    pub notes: Option<mpsc::UnboundedReceiver<GameEvent>>,
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
}

/// How a game that was played ended, and what of its output is missing.
#[derive(Debug, Clone, PartialEq)]
pub struct GameOutcome {
    pub result: GameResult,
    /// One line per output file that does not hold the whole game (a full
    /// disk), e.g. `the record game.sgf is incomplete: ...`.
    pub incomplete: Vec<String>,
}

/// Plays one game to its result, with the operator on stdin when the
/// configuration says so.
pub async fn run_game(
    config: DriverConfig,
    notes: Option<mpsc::UnboundedReceiver<GameEvent>>,
) -> Result<GameOutcome, DriverError> {
    let operator = config
        .operator_stdin
        .then(|| operator_input::spawn_stdin_reader(config.game.size));
    run_game_with(config, Inputs { operator, notes }).await
}

/// Plays one game to its result, with the operator's input and the notes
/// from `inputs` (the full-screen view's commands, the mirror's spectators).
pub async fn run_game_with(
    config: DriverConfig,
    inputs: Inputs,
) -> Result<GameOutcome, DriverError> {
    let Inputs {
        mut operator,
        mut notes,
    } = inputs;
    let mut referee =
        Referee::new(config.game.clone()).map_err(|e| DriverError::Setup(e.to_string()))?;
    let handicap = config
        .game
        .handicap_stones()
        .map_err(|e| DriverError::Setup(e.to_string()))?;
    let mut signals =
        Signals::install().map_err(|e| DriverError::Setup(format!("cannot catch signals: {e}")))?;
    let mut sinks = Sinks::open(&config)?;
    let (report_tx, mut reports) = mpsc::unbounded_channel::<Report>();
    let mut players: Vec<PlayerHandle> = Vec::new();
    for (color, spec) in [(Color::Black, &config.black), (Color::White, &config.white)] {
        let setup = PlayerSetup {
            color,
            size: config.game.size,
            rules: config.game.rules.clone(),
            handicap: handicap.clone(),
            command_timeout: config.command_timeout,
            self_exe: config.self_exe.clone(),
        };
        players.push(players::spawn(spec, setup, report_tx.clone()));
    }
    drop(report_tx);
    let mut interrupted = false;
    let mut judge_called = false;

    loop {
        while let Some(action) = referee.poll_action() {
            for player in &players {
                if addressed_to(&action, player.color) {
                    let _ = player.actions.send(action.clone());
                }
            }
        }
        sinks.drain(&mut referee);
        if referee.is_over() {
            break;
        }
        if referee.phase() == Phase::Adjudication && !judge_called {
            judge_called = true;
            call_the_judge(&mut referee, operator.is_some());
            continue;
        }
        if referee.phase() != Phase::Adjudication {
            judge_called = false;
        }
        let timer = sleep_until(referee.poll_timeout());
        tokio::select! {
            report = reports.recv() => match report {
                Some(report) => {
                    sinks.arrived = Some(report.at);
                    referee.handle_player(report.at, report.color, report.event);
                }
                None => break,
            },
            _ = timer => referee.handle_timeout(now()),
            input = next_from(&mut operator) => match input {
                Some(input) => take_operator_input(&mut referee, &players, input),
                None => {
                    operator = None;
                    let typed: Vec<Color> = players
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
            signal = signals.next(), if !interrupted => {
                interrupted = true;
                referee.void(now(), format!("goref received {signal}: the game is void"));
            }
        }
    }
    sinks.drain(&mut referee);
    sinks.finish_record();
    shut_down_players(
        players,
        &mut reports,
        &mut referee,
        &mut sinks,
        &mut signals,
    )
    .await;
    let incomplete = sinks.finish();
    match referee.result() {
        Some(result) if sinks.game_started => Ok(GameOutcome {
            result: result.clone(),
            incomplete,
        }),
        Some(result) => Err(DriverError::NoGame(result.reason.clone())),
        None => Err(DriverError::NoGame(
            "the players stopped before the game ended".into(),
        )),
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
fn take_operator_input(referee: &mut Referee, players: &[PlayerHandle], input: OperatorInput) {
    let (text, not_a_command) = match input {
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

/// The next message of a channel, or never once the channel is gone
/// (`None`): a `select!` branch that stays quiet without its input.
pub async fn next_from<T>(input: &mut Option<mpsc::UnboundedReceiver<T>>) -> Option<T> {
    match input {
        Some(rx) => rx.recv().await,
        None => std::future::pending().await,
    }
}

fn addressed_to(action: &Action, color: Color) -> bool {
    match action {
        Action::RequestMove { color: c, .. } | Action::RequestDeadStones { color: c } => {
            *c == color
        }
        Action::TellMove { to, .. } => *to == color,
        Action::GameOver { .. } => true,
    }
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
            _ = signals.next() => {
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

/// Where events go.
struct Sinks {
    started: tokio::time::Instant,
    /// The number of the last event handed on.
    seq: u64,
    game_started: bool,
    /// The result has been handed on: what follows is the epilogue.
    result_given: bool,
    json: bool,
    progress: bool,
    engine_stderr: bool,
    recorder: Recorder,
    subscribers: Vec<mpsc::UnboundedSender<(Instant, StampedEvent)>>,
    record_file: Option<(PathBuf, RecordFile)>,
    /// Why the record on disk is not the game's, while it is not.
    record_failing: Option<String>,
    record_outcome: Option<Result<(), String>>,
    trace: Option<TraceFile>,
    stdout_told: bool,
    json_out: Option<JsonOut>,
    /// When the report being handled arrived, for a move's referee share.
    arrived: Option<Instant>,
}

impl Sinks {
    fn open(config: &DriverConfig) -> Result<Sinks, DriverError> {
        if let (Some(sgf), Some(trace)) = (&config.sgf, &config.trace) {
            let (sgf_target, trace_target) = (
                resolve_output(sgf).map_err(DriverError::Record)?,
                resolve_output(trace).map_err(DriverError::Trace)?,
            );
            if same_file(&sgf_target, &trace_target) {
                return Err(DriverError::Setup(format!(
                    "--sgf and --trace name the same file ({}); give each its own",
                    sgf.display()
                )));
            }
        }
        let mut recorder = Recorder::new(config.record.clone());
        recorder.plan(PlannedGame {
            size: config.game.size,
            komi: config.game.rules.komi,
            ruleset: config.game.rules.sgf_name().to_string(),
            black: config.black.to_string(),
            white: config.white.to_string(),
        });
        recorder.comment(format!(
            "Refereed by goref {} with rules {} (time {}).",
            env!("CARGO_PKG_VERSION"),
            config.game.rules.preset,
            config.game.rules.time
        ));
        let record_file = match &config.sgf {
            Some(path) => Some((
                path.clone(),
                RecordFile::create(path, &recorder.to_sgf()).map_err(DriverError::Record)?,
            )),
            None => None,
        };
        let trace = match &config.trace {
            Some(path) => Some(TraceFile::create(path).map_err(DriverError::Trace)?),
            None => None,
        };
        let header = serde_json::to_string(&StreamHeader::current()).expect("headers serialise");
        if let Some(trace) = &trace {
            trace.append(header.clone());
        }
        let mut json_out = config.json.then(JsonOut::start);
        let stdout_told = match &mut json_out {
            Some(out) => !out.send(0, header),
            None => false,
        };
        Ok(Sinks {
            started: tokio::time::Instant::now(),
            seq: 0,
            game_started: false,
            result_given: false,
            json: config.json,
            progress: config.progress,
            engine_stderr: config.engine_stderr,
            recorder,
            subscribers: config.subscribers.clone(),
            record_file,
            record_failing: None,
            record_outcome: None,
            trace,
            stdout_told,
            json_out,
            arrived: None,
        })
    }

    fn drain(&mut self, referee: &mut Referee) {
        while let Some(event) = referee.poll_event() {
            self.take(event);
        }
        self.take_record_status();
        self.take_trace_failure();
    }

    /// Turns the trace's first failed write into an event.
    fn take_trace_failure(&mut self) {
        let Some(trace) = &self.trace else { return };
        let Some(error) = trace.poll_failure() else {
            return;
        };
        tracing::error!("cannot write the trace {}: {error}", trace.path.display());
        let message = format!(
            "cannot write the trace {}: {error}; the trace stops there, the game goes on",
            trace.path.display()
        );
        self.take(GameEvent::Error {
            color: None,
            message,
            fatal: false,
        });
    }

    fn take(&mut self, mut event: GameEvent) {
        let t_ms = self.started.elapsed().as_millis() as u64;
        if let (GameEvent::Move { referee_us, .. }, Some(arrived)) = (&mut event, self.arrived) {
            let share = now().saturating_duration_since(arrived).as_micros();
            *referee_us = Some(u64::try_from(share).unwrap_or(u64::MAX));
        }
        self.game_started |= matches!(event, GameEvent::GameStart(_));
        self.recorder.apply(&event);
        self.seq += 1;
        let stamped = StampedEvent {
            seq: self.seq,
            t_ms,
            after_result: self.result_given,
            event,
        };
        self.result_given |= matches!(stamped.event, GameEvent::Result(_));
        let mut told = Vec::new();
        if (self.json && !self.stdout_told) || self.trace.is_some() {
            let line = serde_json::to_string(&stamped).expect("events always serialise");
            let sent = match (&mut self.json_out, self.stdout_told) {
                (Some(out), false) => out.send(stamped.seq, line.clone()),
                _ => true,
            };
            if !sent {
                self.stdout_told = true;
                told.push(GameEvent::Notice {
                    color: None,
                    message: "stdout is closed: the JSON events stop there; the game goes on"
                        .into(),
                });
            }
            if let Some(trace) = &self.trace {
                trace.append(line);
            }
        }
        let needs_the_operator = matches!(
            stamped.event,
            GameEvent::Error { .. } | GameEvent::Notice { .. } | GameEvent::Prompt { .. }
        );
        if self.progress || needs_the_operator {
            if let Some(text) = progress_line(&stamped.event) {
                console::say(text);
            }
        }
        if let (
            true,
            GameEvent::Gtp {
                color,
                direction: LineDirection::Stderr,
                line,
            },
        ) = (self.engine_stderr, &stamped.event)
        {
            console::say(format!("     {} stderr: {line}", color.letter()));
        }
        let save = matches!(
            stamped.event,
            GameEvent::GameStart(_)
                | GameEvent::Move { .. }
                | GameEvent::Result(_)
                | GameEvent::Error { fatal: true, .. }
        );
        if save {
            self.save_record();
        }
        if let Some((last, others)) = self.subscribers.split_last() {
            let now = now();
            for subscriber in others {
                let _ = subscriber.send((now, stamped.clone()));
            }
            let _ = last.send((now, stamped));
        }
        for event in told {
            self.take(event);
        }
    }

    fn save_record(&mut self) {
        if let Some((_, record_file)) = &self.record_file {
            record_file.save(self.recorder.to_sgf());
        }
    }

    /// Turns a change in whether the record reaches the disk into an event.
    fn take_record_status(&mut self) {
        let Some((path, record_file)) = &self.record_file else {
            return;
        };
        let path = path.display().to_string();
        let mut told = Vec::new();
        while let Some(status) = record_file.poll_status() {
            told.push(match status {
                RecordStatus::Failing(error) => {
                    self.record_failing = Some(error.clone());
                    GameEvent::Error {
                        color: None,
                        message: format!(
                            "cannot write the record {path}: {error}; the game goes on, the \
                             file keeps its last complete record, and goref tries again after \
                             every move"
                        ),
                        fatal: false,
                    }
                }
                RecordStatus::Recovered => {
                    self.record_failing = None;
                    GameEvent::Notice {
                        color: None,
                        message: format!("the record {path} is written again"),
                    }
                }
            });
        }
        for event in told {
            self.take(event);
        }
    }

    /// Waits until the record's last text is written, telling the stream
    /// whether it reached the disk.
    fn finish_record(&mut self) {
        let Some((path, record_file)) = &mut self.record_file else {
            return;
        };
        let outcome = record_file.finish();
        let path = path.display().to_string();
        self.take_record_status();
        if let Err(error) = &outcome {
            self.take(GameEvent::Error {
                color: None,
                message: format!(
                    "the record {path} is incomplete: {error}; it holds the game as it was at \
                     the last write that succeeded"
                ),
                fatal: false,
            });
        }
        self.record_outcome = Some(outcome);
    }

    /// Finishes the record and the trace, and says which are incomplete.
    fn finish(&mut self) -> Vec<String> {
        if self.record_outcome.is_none() {
            self.finish_record();
        }
        let mut incomplete = Vec::new();
        if let (Some((path, _)), Some(Err(error))) = (&self.record_file, &self.record_outcome) {
            incomplete.push(format!(
                "the record {} is incomplete: {error}",
                path.display()
            ));
        }
        if let Some(trace) = &mut self.trace {
            if let Err(error) = trace.finish() {
                incomplete.push(format!(
                    "the trace {} is incomplete: {error}",
                    trace.path.display()
                ));
            }
        }
        if let Some(out) = &mut self.json_out {
            out.finish();
        }
        incomplete
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
pub fn progress_line(event: &GameEvent) -> Option<String> {
    Some(match event {
        GameEvent::GameStart(start) => format!(
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
        ),
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
        GameEvent::Operator { command, reason } => format!("operator: {command} ({reason})"),
        GameEvent::Spectators { .. } => format!("spectators: {}", event.audience_text()?),
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
        GameEvent::Clock { .. } | GameEvent::Gtp { .. } => return None,
    })
}
