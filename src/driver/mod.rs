//! The game driver: the async loop around the pure [`Referee`].
//!
//! It starts both players, feeds their reports and the passing of time into
//! the referee, carries the referee's actions back to the players, and hands
//! every event to the sinks: `--json` lines, the progress lines, the trace
//! file and the SGF record, which is rewritten atomically after every move.

mod operator_input;
mod record_file;

use std::fs;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use tokio::sync::mpsc;
use tokio::task::JoinHandle;

pub use record_file::write_atomically;
use record_file::RecordFile;

use crate::game::Color;
use crate::players::{self, human, PlayerHandle, PlayerSetup, PlayerSpec, Report};
use crate::protocol::sgmp::link::Direction;
use crate::referee::event::attributed;
use crate::referee::operator::{parse_operator_line, OPERATOR_HELP};
use crate::referee::{
    Action, AgreementEvent, GameConfig, GameEvent, GameResult, OperatorCommand, Phase, RecordInfo,
    Recorder, Referee, StampedEvent,
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
    pub record: RecordInfo,
    pub command_timeout: Duration,
    /// The goref binary, for `bot` players.
    pub self_exe: PathBuf,
    /// Read the operator's commands (score, dead, adjudicate, void) from stdin.
    pub operator_stdin: bool,
    /// Receives every event with the instant it was handed on: the feed
    /// for a screen, a mirror, or a measurement.
    pub subscriber: Option<mpsc::UnboundedSender<(Instant, StampedEvent)>>,
}

#[derive(Debug, thiserror::Error)]
pub enum DriverError {
    #[error("cannot write the record {path}: {source}")]
    Record {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot write the trace {path}: {source}")]
    Trace {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{0}")]
    Setup(String),
    #[error("no game was played: {0}")]
    NoGame(String),
}

/// Plays one game to its result.
pub async fn run_game(config: DriverConfig) -> Result<GameResult, DriverError> {
    let mut referee =
        Referee::new(config.game.clone()).map_err(|e| DriverError::Setup(e.to_string()))?;
    let handicap = config
        .game
        .handicap_stones()
        .map_err(|e| DriverError::Setup(e.to_string()))?;
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
    let mut interrupt = std::pin::pin!(tokio::signal::ctrl_c());
    let mut interrupted = false;
    let mut operator = config
        .operator_stdin
        .then(operator_input::spawn_stdin_reader);
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
        let timer = sleep_until(referee.poll_timeout());
        tokio::select! {
            report = reports.recv() => match report {
                Some(report) => referee.handle_player(report.at, report.color, report.event),
                None => break,
            },
            _ = timer => referee.handle_timeout(now()),
            line = next_line(&mut operator) => match line {
                Some(line) => take_typed_line(&mut referee, &players, &line),
                None => {
                    operator = None;
                    for player in &mut players {
                        player.lines = None;
                    }
                    if judge_called {
                        call_the_judge(&mut referee, false);
                    }
                }
            },
            _ = &mut interrupt, if !interrupted => {
                interrupted = true;
                referee.handle_operator(
                    now(),
                    OperatorCommand::Adjudicate {
                        result: "Void".into(),
                        reason: "the operator interrupted the game".into(),
                    },
                );
            }
        }
    }
    sinks.drain(&mut referee);
    shut_down_players(players, &mut reports, &mut referee, &mut sinks).await;
    sinks.finish();
    match referee.result() {
        Some(result) if sinks.game_started => Ok(result.clone()),
        Some(result) => Err(DriverError::NoGame(result.reason.clone())),
        None => Err(DriverError::NoGame(
            "the players stopped before the game ended".into(),
        )),
    }
}

/// A line the operator typed: a judge's command, or a typed player's move.
fn take_typed_line(referee: &mut Referee, players: &[PlayerHandle], line: &str) {
    let command = match parse_operator_line(line, referee.config().size) {
        Ok(Some(command)) => command,
        Ok(None) => return,
        Err(message) => {
            let typed: Vec<Color> = players
                .iter()
                .filter(|p| p.lines.is_some())
                .map(|p| p.color)
                .collect();
            match human::addressee(&typed, referee.board().to_move()) {
                Some(color) => {
                    let player = players.iter().find(|p| p.color == color);
                    if let Some(lines) = player.and_then(|p| p.lines.as_ref()) {
                        let _ = lines.send(line.to_string());
                    }
                }
                None => eprintln!("goref: {message}"),
            }
            return;
        }
    };
    referee.handle_operator(now(), command);
}

/// The game needs the judge: ask the operator, or if none is attached, end
/// the game with an unknown result that says why.
fn call_the_judge(referee: &mut Referee, operator_attached: bool) {
    if operator_attached {
        eprintln!("goref: the game needs the judge; type one of: {OPERATOR_HELP}");
        return;
    }
    referee.handle_operator(
        now(),
        OperatorCommand::Adjudicate {
            result: "?".into(),
            reason: "the game needs the judge and no operator is attached".into(),
        },
    );
}

async fn next_line(operator: &mut Option<mpsc::UnboundedReceiver<String>>) -> Option<String> {
    match operator {
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
/// kills whatever is left.
async fn shut_down_players(
    players: Vec<PlayerHandle>,
    reports: &mut mpsc::UnboundedReceiver<Report>,
    referee: &mut Referee,
    sinks: &mut Sinks,
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
    game_started: bool,
    json: bool,
    progress: bool,
    recorder: Recorder,
    subscriber: Option<mpsc::UnboundedSender<(Instant, StampedEvent)>>,
    record_file: Option<RecordFile>,
    trace: Option<(PathBuf, fs::File)>,
}

impl Sinks {
    fn open(config: &DriverConfig) -> Result<Sinks, DriverError> {
        let mut recorder = Recorder::new(config.record.clone());
        recorder.comment(format!(
            "Refereed by goref {} with rules {} (time {}).",
            env!("CARGO_PKG_VERSION"),
            config.game.rules.preset,
            config.game.rules.time
        ));
        let trace = match &config.trace {
            Some(path) => {
                let file = fs::File::create(path).map_err(|source| DriverError::Trace {
                    path: path.clone(),
                    source,
                })?;
                Some((path.clone(), file))
            }
            None => None,
        };
        let record_file = match &config.sgf {
            Some(path) => Some(
                RecordFile::create(path.clone(), &recorder.to_sgf()).map_err(|source| {
                    DriverError::Record {
                        path: path.clone(),
                        source,
                    }
                })?,
            ),
            None => None,
        };
        Ok(Sinks {
            started: tokio::time::Instant::now(),
            game_started: false,
            json: config.json,
            progress: config.progress,
            recorder,
            subscriber: config.subscriber.clone(),
            record_file,
            trace,
        })
    }

    fn drain(&mut self, referee: &mut Referee) {
        while let Some(event) = referee.poll_event() {
            self.take(event);
        }
    }

    fn take(&mut self, event: GameEvent) {
        let t_ms = self.started.elapsed().as_millis() as u64;
        self.game_started |= matches!(event, GameEvent::GameStart(_));
        self.recorder.apply(&event);
        let stamped = StampedEvent { t_ms, event };
        if self.json || self.trace.is_some() {
            let line = serde_json::to_string(&stamped).expect("events always serialise");
            if self.json {
                let mut out = std::io::stdout().lock();
                let _ = writeln!(out, "{line}");
                let _ = out.flush();
            }
            if let Some((path, file)) = &mut self.trace {
                if let Err(e) = writeln!(file, "{line}") {
                    tracing::error!("cannot write the trace {}: {e}", path.display());
                }
            }
        }
        let needs_the_operator = matches!(
            stamped.event,
            GameEvent::Error { .. } | GameEvent::Notice { .. }
        );
        if self.progress || needs_the_operator {
            if let Some(text) = progress_line(&stamped.event) {
                eprintln!("{text}");
            }
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
        if let Some(subscriber) = &self.subscriber {
            let now = now();
            let _ = subscriber.send((now, stamped));
        }
    }

    fn save_record(&mut self) {
        if let Some(record_file) = &self.record_file {
            record_file.save(self.recorder.to_sgf());
        }
    }

    /// Waits until the record is on disk.
    fn finish(&mut self) {
        if let Some(record_file) = &mut self.record_file {
            record_file.finish();
        }
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
fn progress_line(event: &GameEvent) -> Option<String> {
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
