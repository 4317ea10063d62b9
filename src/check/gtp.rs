//! The card of a GTP engine.
//!
//! Two runs of the engine. The first speaks to it directly, one command at
//! a time, for what a game never asks: how long it takes to start, its
//! names, `list_commands`, an unknown command, an illegal `play`, whether
//! it echoes ids, and whether `quit` ends it. The second is a game's
//! opening: the referee's own GTP player sets the engine up for the round's
//! rules and clock and asks it for moves, and the card reads every command
//! it sent and every answer from that player's trace, so it shows exactly
//! what a game will send.

use std::time::{Duration, Instant};

use tokio::sync::mpsc;

use crate::game::clock::TimeSystem;
use crate::game::rules::EndOfGame;
use crate::game::{Color, Move, Point};
use crate::players::{self, PlayerSpec, Report};
use crate::protocol::gtp::codec::{parse_command_list, Response};
use crate::protocol::gtp::controller::{Controller, ControllerEvent};
use crate::referee::{Action, LineDirection, PlayerEvent, PlayerInfo};
use crate::shell_time::{now, Timer};
use crate::transport::process::{describe_exit, Process, StderrItem};

use super::card::{Section, Verdict};
use super::script::{self, ask_move, Exchange, Opponent, Scripted, Stopped, Waited};
use super::{millis, plural, CheckConfig};

/// A start-up slower than this is worth a warning: a crashed engine is
/// started again with its clock running.
const SLOW_START: Duration = Duration::from_secs(10);
/// How long an engine has to answer `quit` and exit.
const QUIT_GRACE: Duration = Duration::from_secs(5);
/// A command the engine cannot know.
const UNKNOWN_COMMAND: &str = "goref-check-no-such-command";
/// Stderr beyond this over the whole check is worth a warning.
const CHATTY_BYTES: u64 = 256 * 1024;

/// Checks the engine started by `command` and returns the card's sections.
pub async fn check(config: &CheckConfig, command: &str) -> Vec<Section> {
    let mut start = Section::new("Start-up and identity");
    let mut protocol = Section::new("Protocol");
    let mut stderr = StderrTally::default();
    let mut ids = Ids::default();
    let probed = probe(config, command, &mut start, &mut protocol, &mut stderr, &mut ids).await;
    if !probed {
        return vec![start];
    }
    let mut game = Section::new("The commands of a game under these rules");
    let mut end = Section::new(match config.game.rules.end_of_game {
        EndOfGame::KgsCleanup => "KGS end of game",
        EndOfGame::Judge => "End of game (the judge's)",
    });
    let spec = PlayerSpec::Gtp {
        command: command.to_string(),
    };
    let log = play_opening(config, &spec, &mut game, &mut end).await;
    for exchanged in exchanges(&log) {
        match exchanged.id_echoed {
            Some(true) => ids.echoed += 1,
            Some(false) => ids.missing += 1,
            None => {}
        }
    }
    ids.judge(&mut protocol);
    stderr.add_reports(&log);
    let moves = log
        .iter()
        .filter(|r| matches!(r.event, PlayerEvent::Moved(_)))
        .count();
    stderr.judge(&mut protocol, moves);
    vec![start, game, end, protocol]
}

/// The first run: the engine spoken to directly. False when it could not
/// be brought to answer at all, so that nothing else is worth trying.
async fn probe(
    config: &CheckConfig,
    command: &str,
    start: &mut Section,
    protocol: &mut Section,
    stderr: &mut StderrTally,
    ids: &mut Ids,
) -> bool {
    let started = now();
    let (process, stderr_rx) = match players::start_program(config.color, command) {
        Ok(started) => started,
        Err(failure) => {
            start.fail("start-up", format!("cannot start it: {}", failure.reason));
            return false;
        }
    };
    let mut engine = Probe {
        process,
        controller: Controller::new(),
        stderr_rx,
        stderr,
        ids,
    };
    let timeout = config.command_timeout;
    match engine.ask("protocol_version", &[], timeout).await {
        Asked::Answer { response, .. } => {
            let took = now().saturating_duration_since(started);
            let verdict = if took > SLOW_START {
                Verdict::Warn
            } else {
                Verdict::Pass
            };
            start
                .add(
                    "start-up",
                    verdict,
                    format!(
                        "first answer {} after the start{}",
                        millis(took),
                        match verdict {
                            Verdict::Pass => "",
                            _ => ": a crashed engine restarts with its clock running",
                        }
                    ),
                )
                .timed(took);
            match response.result() {
                Ok("2") => start.pass("protocol_version", "2"),
                Ok(other) => start.warn(
                    "protocol_version",
                    format!("'{other}': goref speaks GTP version 2"),
                ),
                Err(why) => start.warn("protocol_version", format!("refused: {why}")),
            };
        }
        other => {
            start.fail(
                "start-up",
                other.failure("protocol_version", "its first command"),
            );
            engine.stop().await;
            return false;
        }
    }
    for (name, missing) in [
        ("name", "the record names it by its command line"),
        ("version", "the record shows no version"),
    ] {
        match engine.ask(name, &[], timeout).await {
            Asked::Answer { response, took } => {
                match response.result() {
                    Ok(text) if !text.trim().is_empty() => start.pass(name, text.trim()),
                    Ok(_) => start.warn(name, format!("empty: {missing}")),
                    Err(why) => start.warn(name, format!("refused ({why}): {missing}")),
                }
                .timed(took);
            }
            other => {
                start.fail(name, other.failure(name, "an identity question"));
                engine.stop().await;
                return false;
            }
        }
    }
    match engine.ask("list_commands", &[], timeout).await {
        Asked::Answer { response, took } => {
            match response.result() {
                Ok(text) => start.pass(
                    "list_commands",
                    plural(parse_command_list(text).len(), "command", "commands"),
                ),
                Err(why) => start.warn(
                    "list_commands",
                    format!("refused ({why}): goref asks known_command instead"),
                ),
            }
            .timed(took);
        }
        other => {
            start.fail("list_commands", other.failure("list_commands", ""));
            engine.stop().await;
            return false;
        }
    }
    engine.protocol_checks(config, protocol).await;
    true
}

/// The engine of the first run.
struct Probe<'a> {
    process: Process,
    controller: Controller,
    stderr_rx: mpsc::Receiver<StderrItem>,
    stderr: &'a mut StderrTally,
    ids: &'a mut Ids,
}

/// Whether answers carried the ids of their commands.
#[derive(Debug, Default)]
struct Ids {
    echoed: u32,
    missing: u32,
    /// Answers with another command's id, as they came.
    wrong: Vec<String>,
}

impl Ids {
    fn judge(&self, protocol: &mut Section) {
        let ids = self;
        if let Some(first) = ids.wrong.first() {
            protocol.fail(
                "ids echoed",
                format!(
                    "{} with another command's id, e.g. '{first}'",
                    plural(ids.wrong.len(), "answer", "answers")
                ),
            );
        } else if ids.missing > 0 {
            protocol.fail(
                "ids echoed",
                format!(
                    "{} of {} answers without the command's id: after a time-out a late answer \
                     would be taken for the next command's",
                    ids.missing,
                    ids.missing + ids.echoed
                ),
            );
        } else {
            protocol.pass(
                "ids echoed",
                format!("all {} answers carried their command's id", ids.echoed),
            );
        }
    }

}

/// What came of one command.
enum Asked {
    Answer { response: Response, took: Duration },
    /// No answer within the deadline.
    Silent(Duration),
    /// The engine went away; how.
    Gone(String),
    /// It wrote something that is not GTP.
    Broken(String),
}

impl Asked {
    /// The one-line reason of a command that got no answer.
    fn failure(&self, command: &str, what: &str) -> String {
        let what = match what {
            "" => String::new(),
            what => format!(" ({what})"),
        };
        match self {
            Asked::Answer { response, .. } => {
                format!("'{command}'{what} answered '{}'", response.text)
            }
            Asked::Silent(waited) => {
                format!("no answer to '{command}'{what} within {}", millis(*waited))
            }
            Asked::Gone(how) => format!("it {how} before answering '{command}'{what}"),
            Asked::Broken(error) => format!("'{command}'{what} got an answer that is not GTP: {error}"),
        }
    }
}

impl Probe<'_> {
    async fn ask(&mut self, name: &str, args: &[&str], timeout: Duration) -> Asked {
        let Ok(bytes) = self.controller.send(now(), name, args, timeout) else {
            return Asked::Broken("a command is still in flight".into());
        };
        let sent_id = self.controller.in_flight().and_then(|c| c.id);
        if self.process.write(&bytes).await.is_err() {
            let status = self.process.wait_exit(Duration::from_millis(500)).await;
            return Asked::Gone(describe_exit(status));
        }
        let mut timer = Timer::default();
        loop {
            timer.set(self.controller.poll_timeout());
            tokio::select! {
                chunk = self.process.read() => {
                    let events = match chunk {
                        Ok(bytes) if !bytes.is_empty() => self.controller.handle_stdout(now(), &bytes),
                        _ => {
                            let events = self.controller.handle_eof(now());
                            if let Some(asked) = self.settle(events, sent_id) {
                                return asked;
                            }
                            let status = self.process.wait_exit(Duration::from_millis(500)).await;
                            return Asked::Gone(describe_exit(status));
                        }
                    };
                    if let Some(asked) = self.settle(events, sent_id) {
                        return asked;
                    }
                }
                Some(item) = self.stderr_rx.recv() => self.stderr.add(&item),
                _ = timer.fired() => {
                    if let Some(ControllerEvent::TimedOut { waited, .. }) =
                        self.controller.handle_timeout(now())
                    {
                        return Asked::Silent(waited);
                    }
                }
            }
        }
    }

    /// The answer among `events`, if one came; ids are tallied.
    fn settle(&mut self, events: Vec<ControllerEvent>, sent_id: Option<u32>) -> Option<Asked> {
        for event in events {
            match event {
                ControllerEvent::Reply {
                    response, elapsed, ..
                } => {
                    match response.id {
                        Some(id) if Some(id) == sent_id => self.ids.echoed += 1,
                        _ => self.ids.missing += 1,
                    }
                    return Some(Asked::Answer {
                        response,
                        took: elapsed,
                    });
                }
                ControllerEvent::Unexpected { response } => {
                    let id = response.id.map(|id| id.to_string()).unwrap_or_default();
                    self.ids.wrong.push(format!("={id} {}", response.text));
                }
                ControllerEvent::Protocol { error } => return Some(Asked::Broken(error.to_string())),
                ControllerEvent::TimedOut { waited, .. } => return Some(Asked::Silent(waited)),
            }
        }
        None
    }

    /// An unknown command, an illegal `play`, the ids, and `quit`.
    async fn protocol_checks(&mut self, config: &CheckConfig, protocol: &mut Section) {
        let timeout = config.command_timeout;
        match self.ask(UNKNOWN_COMMAND, &[], timeout).await {
            Asked::Answer { response, took } => {
                match response.result() {
                    Err(why) => protocol.pass("unknown command", format!("'? {why}', as GTP says")),
                    Ok(text) => protocol.fail(
                        "unknown command",
                        format!(
                            "answered '= {text}' to '{UNKNOWN_COMMAND}': GTP asks for '?', \
                             and an engine that claims every command cannot be asked what it knows"
                        ),
                    ),
                }
                .timed(took);
            }
            other => {
                protocol.fail("unknown command", other.failure(UNKNOWN_COMMAND, ""));
                return self.stop().await;
            }
        }
        if !self.illegal_play(config, protocol).await {
            return self.stop().await;
        }
        let quit = self.ask("quit", &[], QUIT_GRACE).await;
        let asked_at = now();
        match quit {
            Asked::Answer { .. } | Asked::Gone(_) => {
                match self.process.wait_exit(QUIT_GRACE).await {
                    Some(_) => protocol.pass(
                        "quit",
                        match quit {
                            Asked::Answer { .. } => "answered and exited".to_string(),
                            _ => "exited without answering, which goref takes as a goodbye"
                                .to_string(),
                        },
                    ),
                    None => protocol.fail(
                        "quit",
                        format!(
                            "still running {} after 'quit': goref kills it after every game",
                            millis(QUIT_GRACE)
                        ),
                    ),
                }
                .timed(now().saturating_duration_since(asked_at));
            }
            other => {
                protocol.fail("quit", other.failure("quit", ""));
            }
        }
        self.stop().await;
    }

    /// `play` on a point its opponent holds must be refused. False when the
    /// engine stopped answering.
    async fn illegal_play(&mut self, config: &CheckConfig, protocol: &mut Section) -> bool {
        let timeout = config.command_timeout;
        let size = config.game.size;
        let point = Point::new(size / 2, size / 2).to_gtp();
        let setup = [
            ("boardsize", vec![size.to_string()]),
            ("clear_board", vec![]),
            ("play", vec!["black".to_string(), point.clone()]),
        ];
        for (name, args) in setup {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let shown = format!("{name} {}", args.join(" ")).trim().to_string();
            match self.ask(name, &args, timeout).await {
                Asked::Answer { response, .. } if response.success => {}
                Asked::Answer { response, .. } => {
                    protocol.fail(
                        "illegal play",
                        format!("refused '{shown}' ({}), so it could not be tried", response.text),
                    );
                    return true;
                }
                other => {
                    protocol.fail("illegal play", other.failure(&shown, ""));
                    return false;
                }
            }
        }
        let shown = format!("play white {point}");
        match self.ask("play", &["white", &point], timeout).await {
            Asked::Answer { response, took } => {
                match response.result() {
                    Err(why) => protocol.pass(
                        "illegal play",
                        format!("'{shown}' on Black's stone refused: '? {why}'"),
                    ),
                    Ok(_) => protocol.fail(
                        "illegal play",
                        format!(
                            "accepted '{shown}' on Black's stone: it does not check the moves \
                             it is told, so its board can part from the referee's"
                        ),
                    ),
                }
                .timed(took);
                true
            }
            other => {
                protocol.fail("illegal play", other.failure(&shown, ""));
                false
            }
        }
    }

    /// Ends the engine and keeps what it wrote to stderr.
    async fn stop(&mut self) {
        self.process.shut_down(Duration::ZERO).await;
        for item in players::drain_stderr(&mut self.stderr_rx).await {
            self.stderr.add(&item);
        }
    }
}

/// What the engine wrote to stderr over the whole check.
#[derive(Debug, Default)]
struct StderrTally {
    lines: u64,
    bytes: u64,
    flooded: bool,
}

impl StderrTally {
    fn add(&mut self, item: &StderrItem) {
        match item {
            StderrItem::Line(line) => {
                self.lines += 1;
                self.bytes += line.len() as u64 + 1;
            }
            StderrItem::FloodStarted => self.flooded = true,
            StderrItem::Suppressed { lines, bytes } => {
                self.lines += lines;
                self.bytes += bytes;
            }
        }
    }

    /// The stderr lines in the game run's trace.
    fn add_reports(&mut self, log: &[Report]) {
        for report in log {
            match &report.event {
                PlayerEvent::Line {
                    direction: LineDirection::Stderr,
                    line,
                } => match left_out(line) {
                    Some((lines, bytes)) => {
                        self.lines += lines;
                        self.bytes += bytes;
                    }
                    None => self.add(&StderrItem::Line(line.clone())),
                },
                PlayerEvent::Notice(notice) if notice.starts_with("floods its stderr") => {
                    self.flooded = true
                }
                _ => {}
            }
        }
    }

    fn judge(&self, protocol: &mut Section, moves: usize) {
        let volume = format!(
            "{} ({} KiB) over the check, {}",
            plural(self.lines as usize, "line", "lines"),
            self.bytes.div_ceil(1024),
            plural(moves, "move", "moves")
        );
        if self.flooded {
            protocol.fail(
                "stderr",
                format!(
                    "floods it: {volume}; beyond {} KiB a second goref leaves lines out of \
                     the trace and the engine log",
                    crate::transport::process::STDERR_FLOOD_BYTES_PER_SECOND / 1024
                ),
            );
        } else if self.bytes > CHATTY_BYTES {
            protocol.warn(
                "stderr",
                format!("chatty: {volume}; every line goes to the trace and the engine log"),
            );
        } else {
            protocol.pass("stderr", volume);
        }
    }
}

/// The counts of a `[goref: N stderr lines (B bytes) not shown]` line.
fn left_out(line: &str) -> Option<(u64, u64)> {
    let rest = line.strip_prefix("[goref: ")?;
    let (lines, rest) = rest.split_once(" stderr lines (")?;
    let (bytes, _) = rest.split_once(" bytes")?;
    Some((lines.parse().ok()?, bytes.parse().ok()?))
}

/// The second run: the referee's GTP player sets the engine up and plays a
/// game's opening with it, then its end. Returns the player's reports.
async fn play_opening(
    config: &CheckConfig,
    spec: &PlayerSpec,
    game: &mut Section,
    end: &mut Section,
) -> Vec<Report> {
    let setup = config.setup();
    let mut player = Scripted::start(spec, setup.clone());
    let set_up_within = config.command_timeout.saturating_mul(16);
    let info = player
        .wait(set_up_within, |report| match &report.event {
            PlayerEvent::Ready(info) => Some(info.clone()),
            _ => None,
        })
        .await;
    let mut opponent = Opponent::new(&setup);
    let (info, exchange) = match info {
        Waited::Got(info) => {
            let exchange = script::exchange(
                &mut player,
                &setup,
                &mut opponent,
                config.moves,
                config.move_limit(),
            )
            .await;
            (Some(info), exchange)
        }
        Waited::Failed(failure) => (
            None,
            Exchange {
                stopped: Some(Stopped::Failed(failure)),
                ..Exchange::default()
            },
        ),
        Waited::Silent(waited) => (
            None,
            Exchange {
                stopped: Some(Stopped::Silent(waited)),
                ..Exchange::default()
            },
        ),
    };
    let finished = exchange.stopped.is_none();
    let mut ending = Ending::default();
    if let (Some(info), true) = (&info, finished) {
        ending = play_end(config, &mut player, &mut opponent, info).await;
    }
    let log = player.finish(Duration::from_secs(15)).await;
    let exchanged = exchanges(&log);
    judge_setup(config, &exchanged, info.as_ref(), game);
    judge_moves(config, &exchanged, &exchange, game);
    if let Some(info) = &info {
        judge_end(config, &exchanged, info, &ending, &opponent, end);
    } else {
        end.fail("end of game", "not reached: the set-up or the moves failed");
    }
    log
}

/// What the end of the game brought.
#[derive(Debug, Default)]
struct Ending {
    /// The moves told to bring the game to its end.
    told: usize,
    cleanup: Option<Result<Move, Stopped>>,
    dead: Option<Result<Vec<Point>, String>>,
}

/// Each move told to the engine may take this long on top of the command
/// deadline, when the rest of a game is told before the dead stones are asked.
const TOLD_MOVE_ALLOWANCE: Duration = Duration::from_millis(50);

/// The end of a game as the rules run it. The engine is told the rest of a
/// game, both sides played by the built-in engine to two passes, so that it
/// is asked its dead stones on a finished board, as in a game; then the
/// cleanup move, where the rules use one.
async fn play_end(
    config: &CheckConfig,
    player: &mut Scripted,
    opponent: &mut Opponent,
    info: &PlayerInfo,
) -> Ending {
    let rules = &config.game.rules;
    let color = config.color;
    let mut ending = Ending::default();
    let (cleanup, asked) = match rules.end_of_game {
        EndOfGame::KgsCleanup => (info.kgs_end_protocol, info.kgs_end_protocol),
        EndOfGame::Judge => (false, info.claims_dead_stones),
    };
    if asked {
        ending.told = tell_rest_of_game(player, opponent, color);
        player.act(Action::RequestDeadStones { color });
        let within = config.command_timeout
            + TOLD_MOVE_ALLOWANCE.saturating_mul(ending.told as u32);
        let waited = player
            .wait(within, |report| match &report.event {
                PlayerEvent::DeadStones(stones) => Some(Ok(stones.clone())),
                PlayerEvent::DeadStonesUnavailable(why) => Some(Err(why.clone())),
                _ => None,
            })
            .await;
        ending.dead = Some(match waited {
            Waited::Got(answer) => answer,
            Waited::Failed(failure) => Err(failure.reason),
            Waited::Silent(waited) => Err(format!("no answer within {}", millis(waited))),
        });
    }
    if cleanup && matches!(ending.dead, Some(Ok(_))) {
        player.act(Action::RequestMove {
            color,
            cleanup: true,
            time_left: script::time_left(rules.time, now()),
        });
        let mut refused = Vec::new();
        ending.cleanup = Some(
            ask_move(player, config.move_limit(), &mut refused)
                .await
                .map(|timed| timed.mv),
        );
    }
    ending
}

/// Tells the engine the rest of a game, to two passes: the built-in engine
/// plays both sides. Returns how many moves were told.
fn tell_rest_of_game(player: &mut Scripted, opponent: &mut Opponent, to: Color) -> usize {
    let mut to_move = opponent.color_to_move();
    let mut passes = 0;
    let mut told = 0;
    let most = 4 * usize::from(opponent.board().size()).pow(2);
    while passes < 2 && told < most {
        let mv = opponent.move_for(to_move);
        passes = if mv == Move::Pass { passes + 1 } else { 0 };
        player.act(Action::TellMove {
            to,
            color: to_move,
            mv,
        });
        told += 1;
        to_move = to_move.opponent();
    }
    told
}

/// One command from the player's trace and what came back.
#[derive(Debug, Clone, PartialEq)]
struct Exchanged {
    /// The command as sent, without its id: `komi 7.5`.
    command: String,
    name: String,
    /// The answer's lines, without status and id; `None` when none came.
    answer: Option<Vec<String>>,
    success: bool,
    took: Duration,
    /// Whether the answer carried the command's id; `None` without one.
    id_echoed: Option<bool>,
}

/// Pairs each command the player sent with the answer that followed it.
fn exchanges(log: &[Report]) -> Vec<Exchanged> {
    let mut found: Vec<Exchanged> = Vec::new();
    let mut sent_at: Option<Instant> = None;
    let mut sent_id = String::new();
    let mut open = false;
    for report in log {
        let PlayerEvent::Line { direction, line } = &report.event else {
            continue;
        };
        match direction {
            LineDirection::Sent => {
                let command = without_id(line);
                sent_id = line.trim().split(' ').next().unwrap_or("").to_string();
                found.push(Exchanged {
                    name: command.split_whitespace().next().unwrap_or("").to_string(),
                    command,
                    answer: None,
                    success: false,
                    took: Duration::ZERO,
                    id_echoed: None,
                });
                sent_at = Some(report.at);
                open = true;
            }
            LineDirection::Received => {
                let Some(last) = found.last_mut() else {
                    continue;
                };
                match &mut last.answer {
                    Some(lines) if !open => lines.push(line.clone()),
                    _ if open => {
                        last.success = line.starts_with('=');
                        let text = line[1..].trim_start_matches(|c: char| c.is_ascii_digit());
                        let id = &line[1..line.len() - text.len()];
                        last.id_echoed = Some(id == sent_id);
                        last.answer = Some(vec![text.trim().to_string()]);
                        last.took = report.at.saturating_duration_since(sent_at.unwrap_or(report.at));
                        open = false;
                    }
                    _ => {}
                }
            }
            LineDirection::Stderr => {}
        }
    }
    found
}

/// `12 komi 7.5` → `komi 7.5`.
fn without_id(line: &str) -> String {
    let line = line.trim();
    match line.split_once(' ') {
        Some((id, rest)) if id.chars().all(|c| c.is_ascii_digit()) => rest.to_string(),
        _ => line.to_string(),
    }
}

/// The optional commands the engine said it knows, from `known_command`
/// (or `list_commands`) in the trace.
fn known(exchanged: &[Exchanged]) -> (Vec<String>, Vec<String>) {
    let mut yes = Vec::new();
    let mut no = Vec::new();
    for e in exchanged.iter().filter(|e| e.name == "known_command") {
        let asked = e.command.split_whitespace().nth(1).unwrap_or("").to_string();
        match e.answer.as_deref() {
            Some([answer, ..]) if e.success && answer == "true" => yes.push(asked),
            Some(_) if e.success => no.push(asked),
            _ => {}
        }
    }
    (yes, no)
}

/// The commands that set the engine up, each as it went.
fn judge_setup(
    config: &CheckConfig,
    exchanged: &[Exchanged],
    info: Option<&PlayerInfo>,
    game: &mut Section,
) {
    let (yes, no) = known(exchanged);
    let listed = exchanged.iter().any(|e| e.name == "list_commands");
    let knows = |name: &str| yes.iter().any(|y| y == name);
    if listed {
        game.pass("known_command", "not known: goref reads list_commands instead");
    } else if !yes.is_empty() || !no.is_empty() {
        let mut reason = format!("knows {}", words(&yes));
        if !no.is_empty() {
            reason.push_str(&format!("; not {}", words(&no)));
        }
        game.pass("known_command", reason);
    }
    let setup_commands = [
        "boardsize",
        "clear_board",
        "komi",
        "kgs-rules",
        "set_free_handicap",
        "time_settings",
        "kgs-time_settings",
    ];
    let optional = ["komi", "kgs-rules", "time_settings", "kgs-time_settings"];
    let first_genmove = exchanged
        .iter()
        .position(|e| e.name == "genmove")
        .unwrap_or(exchanged.len());
    for e in &exchanged[..first_genmove] {
        let handicap_play = e.name == "play" && !config.setup().handicap.is_empty();
        if !setup_commands.contains(&e.name.as_str()) && !handicap_play {
            continue;
        }
        let name = if handicap_play { "play (handicap)" } else { &e.name };
        let check = match (&e.answer, e.success) {
            (None, _) => game.fail(name, format!("'{}': no answer", e.command)),
            (Some(_), true) => game.pass(name, format!("'{}' answered", e.command)),
            (Some(answer), false) if optional.contains(&e.name.as_str()) => game.warn(
                name,
                format!("'{}' refused ({}): the game goes on without it", e.command, answer.join(" ")),
            ),
            (Some(answer), false) => game.fail(
                name,
                format!("'{}' refused ({}): no game can start", e.command, answer.join(" ")),
            ),
        };
        check.timed(e.took);
    }
    if info.is_some() {
        judge_time(config.game.rules.time, &knows, game);
    }
}

/// Whether the engine learns the round's clock.
fn judge_time(time: TimeSystem, knows: &dyn Fn(&str) -> bool, game: &mut Section) {
    let kgs = knows("kgs-time_settings") && time.kgs_time_settings().is_some();
    let (main, period, stones) = time.gtp_time_settings();
    let told = format!("time_settings {main} {period} {stones}");
    match time {
        TimeSystem::None if !knows("time_settings") && !kgs => {
            game.pass("clock", "untimed, and it is told nothing of a clock");
        }
        TimeSystem::None => {
            game.pass("clock", "untimed, and told so");
        }
        _ if kgs => {
            game.pass("clock", format!("told the clock exactly with kgs-time_settings ({time})"));
        }
        TimeSystem::ByoYomi { periods, .. } if periods > 1 && knows("time_settings") => {
            game.warn(
                "clock",
                format!(
                    "no kgs-time_settings: {time} is told as '{told}', so it does not know \
                     of its {} spare periods",
                    periods - 1
                ),
            );
        }
        TimeSystem::Fischer { .. } | TimeSystem::Cpu { .. } if knows("time_settings") => {
            game.warn(
                "clock",
                format!("GTP cannot say {time}: it is told '{told}', and its time_left as it goes"),
            );
        }
        _ if knows("time_settings") => {
            game.pass("clock", format!("told '{told}'"));
        }
        _ => {
            game.warn(
                "clock",
                format!(
                    "knows neither time_settings nor kgs-time_settings: it is told nothing \
                     of the clock ({time}) and must manage its time blind"
                ),
            );
        }
    }
    if time == TimeSystem::None {
        return;
    }
    if !knows("time_left") {
        game.warn(
            "time_left",
            "not known: it is never told how much time it has left",
        );
    }
}

/// The moves: `play`, `genmove` on the empty board and in the middle of
/// the game, `time_left`.
fn judge_moves(
    config: &CheckConfig,
    exchanged: &[Exchanged],
    exchange: &Exchange,
    game: &mut Section,
) {
    let moves = &exchange.moves;
    if let Some(time_left) = exchanged.iter().find(|e| e.name == "time_left") {
        let check = match (&time_left.answer, time_left.success) {
            (Some(_), true) => game.pass("time_left", format!("'{}' answered", time_left.command)),
            (Some(answer), false) => game.warn(
                "time_left",
                format!("'{}' refused ({})", time_left.command, answer.join(" ")),
            ),
            (None, _) => game.fail("time_left", format!("'{}': no answer", time_left.command)),
        };
        check.timed(time_left.took);
    }
    let first = exchanged.iter().position(|e| e.name == "genmove");
    let last = exchanged.iter().rposition(|e| e.name == "genmove");
    let during = match (first, last) {
        (Some(first), Some(last)) => &exchanged[first..last],
        _ => &[],
    };
    let plays: Vec<&Exchanged> = during.iter().filter(|e| e.name == "play").collect();
    if !exchange.refused.is_empty() {
        game.fail(
            "play",
            format!(
                "refused the opponent's {}: the game would stop",
                exchange.refused.join(", ")
            ),
        );
    } else if let Some(slowest) = plays.iter().map(|e| e.took).max() {
        game.pass(
            "play",
            format!(
                "{} of the opponent answered, the slowest in {}",
                plural(plays.len(), "move", "moves"),
                millis(slowest)
            ),
        )
        .timed(slowest);
    }
    let pace = pace_limit(config.game.rules.time);
    let judged = |took: Duration, text: String, game: &mut Section, name: &str| {
        match pace {
            Some(limit) if took > limit => game.warn(
                name,
                format!("{text}: longer than the {} a move its clock allows", millis(limit)),
            ),
            _ => game.pass(name, text),
        }
        .timed(took);
    };
    if let Some(first) = moves.first() {
        let name = match config.setup().handicap.len() {
            0 | 1 => "genmove (empty board)",
            _ => "genmove (handicap)",
        };
        judged(first.took, format!("{} in {}", first.mv, millis(first.took)), game, name);
    }
    if moves.len() > 1 {
        let rest = &moves[1..];
        let fastest = rest.iter().map(|m| m.took).min().unwrap_or_default();
        let slowest = rest.iter().map(|m| m.took).max().unwrap_or_default();
        let played: Vec<String> = rest.iter().map(|m| m.mv.to_string()).collect();
        judged(
            slowest,
            format!(
                "{} ({}) in {} to {}",
                plural(rest.len(), "move", "moves"),
                played.join(" "),
                millis(fastest),
                millis(slowest)
            ),
            game,
            "genmove (mid-game)",
        );
    }
    if let Some(stopped) = &exchange.stopped {
        let asked = exchange.moves.len() + 1;
        let (name, reason) = stopped_reason(stopped, asked);
        match stopped {
            Stopped::Resigned => game.warn(name, reason),
            _ => game.fail(name, reason),
        };
    }
}

/// The name and reason of a check the exchange stopped at.
fn stopped_reason(stopped: &Stopped, asked: usize) -> (&'static str, String) {
    match stopped {
        Stopped::Failed(failure) => ("game", failure.reason.clone()),
        Stopped::Silent(waited) => (
            "genmove",
            format!("no move within {} (its move {asked})", millis(*waited)),
        ),
        Stopped::Illegal { mv, why } => (
            "genmove",
            format!("played {mv}, which is illegal ({why}): it would forfeit"),
        ),
        Stopped::Resigned => (
            "genmove",
            format!("resigned at its move {}: the check stopped there", asked - 1),
        ),
    }
}

/// The longest one move may take before the clock is in danger, where the
/// time system has a per-move measure.
fn pace_limit(time: TimeSystem) -> Option<Duration> {
    match time {
        TimeSystem::ByoYomi { period, .. } => Some(period),
        TimeSystem::Canadian { period, stones, .. } => Some(period / stones.max(1)),
        TimeSystem::Cpu { per_move, .. } => Some(per_move),
        TimeSystem::None | TimeSystem::Absolute { .. } | TimeSystem::Fischer { .. } => None,
    }
}

/// The end of the game: the dead stones, the cleanup move, and what will
/// happen at the end of a game with this engine.
fn judge_end(
    config: &CheckConfig,
    exchanged: &[Exchanged],
    info: &PlayerInfo,
    ending: &Ending,
    opponent: &Opponent,
    end: &mut Section,
) {
    let took = |name: &str| exchanged.iter().rev().find(|e| e.name == name).map(|e| e.took);
    if ending.told > 0 {
        let last = exchanged.iter().rposition(|e| e.name == "genmove").unwrap_or(0);
        let told: Vec<&Exchanged> = exchanged[last..]
            .iter()
            .take_while(|e| e.name != "final_status_list")
            .filter(|e| e.name == "play")
            .collect();
        let spent: Duration = told.iter().map(|e| e.took).sum();
        match told.iter().find(|e| !e.success) {
            Some(refused) => end.fail(
                "rest of a game",
                format!(
                    "refused '{}' ({}) while told the rest of a game",
                    refused.command,
                    refused.answer.as_deref().unwrap_or_default().join(" ")
                ),
            ),
            None => end.pass(
                "rest of a game",
                format!(
                    "{} told, to two passes, in {}",
                    plural(told.len(), "move", "moves"),
                    millis(spent)
                ),
            ),
        }
        .timed(spent);
    }
    match &ending.dead {
        Some(Ok(stones)) => {
            let board = opponent.board();
            let empty: Vec<String> = stones
                .iter()
                .filter(|p| board.get(**p).is_none())
                .map(|p| p.to_gtp())
                .collect();
            let check = match empty.is_empty() {
                true => end.pass(
                    "final_status_list",
                    format!(
                        "'final_status_list dead' answered, {}",
                        plural(stones.len(), "stone", "stones")
                    ),
                ),
                false => end.warn(
                    "final_status_list",
                    format!(
                        "named empty points ({}): such a claim counts as no dead stones",
                        empty.join(" ")
                    ),
                ),
            };
            check.ms = took("final_status_list").map(|t| t.as_millis() as u64);
        }
        Some(Err(why)) => {
            end.fail(
                "final_status_list",
                format!("'final_status_list dead' failed: {why}"),
            );
        }
        None => {}
    }
    match &ending.cleanup {
        Some(Ok(mv)) => {
            let check = end.pass("kgs-genmove_cleanup", format!("answered {mv}"));
            check.ms = took("kgs-genmove_cleanup").map(|t| t.as_millis() as u64);
        }
        Some(Err(stopped)) => {
            end.fail("kgs-genmove_cleanup", stopped_reason(stopped, 0).1);
        }
        None => {}
    }
    let (yes, _) = known(exchanged);
    let game_over = yes.iter().any(|c| c == "kgs-game_over");
    end.pass(
        "kgs-game_over",
        match game_over {
            true => "known: it is told the game is over before quit",
            false => "not known: it is told only quit",
        },
    );
    let (verdict, text) = end_of_game_story(config.game.rules.end_of_game, info);
    end.add("at the end", verdict, text);
}

/// What will happen at the end of a game with this engine under `end`.
fn end_of_game_story(end: EndOfGame, info: &PlayerInfo) -> (Verdict, String) {
    match (end, info.kgs_end_protocol, info.claims_dead_stones) {
        (EndOfGame::KgsCleanup, true, _) => (
            Verdict::Pass,
            "after two passes it is asked its dead stones; if the claims differ, play resumes \
             with kgs-genmove_cleanup until the dead stones are captured"
                .into(),
        ),
        (EndOfGame::KgsCleanup, false, lists) => (
            Verdict::Warn,
            format!(
                "it lacks {}: it claims no dead stones, so if its opponent claims some, play \
                 resumes with plain genmove, and at a second double pass every stone is alive",
                match lists {
                    true => "kgs-genmove_cleanup",
                    false => "final_status_list and kgs-genmove_cleanup",
                }
            ),
        ),
        (EndOfGame::Judge, _, true) => (
            Verdict::Pass,
            "after two passes it is asked its dead stones; agreed claims are scored, a \
             dispute goes to the judge"
                .into(),
        ),
        (EndOfGame::Judge, _, false) => (
            Verdict::Warn,
            "it lacks final_status_list: it cannot claim dead stones, so the judge marks them \
             in every game it plays"
                .into(),
        ),
    }
}

/// `a, b and c`, or `none`.
fn words(items: &[String]) -> String {
    match items {
        [] => "none".to_string(),
        [one] => one.clone(),
        [first @ .., last] => format!("{} and {last}", first.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(direction: LineDirection, text: &str, ms: u64) -> Report {
        Report {
            color: Color::Black,
            at: crate::test_support::epoch() + Duration::from_millis(ms),
            event: PlayerEvent::Line {
                direction,
                line: text.to_string(),
            },
        }
    }

    #[test]
    fn each_command_is_paired_with_the_answer_that_followed_it() {
        use LineDirection::{Received, Sent, Stderr};
        let log = [
            line(Sent, "1 protocol_version", 0),
            line(Received, "=1 2", 3),
            line(Sent, "2 known_command kgs-time_settings", 4),
            line(Stderr, "thinking", 5),
            line(Received, "=2 false", 6),
            line(Sent, "3 komi 7.5", 10),
            line(Received, "?3 unknown command", 12),
            line(Sent, "4 list_commands", 20),
            line(Received, "=4 play", 21),
            line(Received, "genmove", 21),
        ];
        let found = exchanges(&log);
        assert_eq!(found.len(), 4);
        assert_eq!(found[0].command, "protocol_version");
        assert_eq!(found[0].took, Duration::from_millis(3));
        assert_eq!(found[1].answer, Some(vec!["false".to_string()]));
        assert!(!found[2].success);
        assert_eq!(found[2].name, "komi");
        assert_eq!(
            found[3].answer,
            Some(vec!["play".to_string(), "genmove".to_string()])
        );
        assert_eq!(known(&found), (vec![], vec!["kgs-time_settings".to_string()]));
    }

    #[test]
    fn the_clock_warning_names_what_the_engine_misses() {
        let byoyomi: TimeSystem = "byoyomi:5m,30s,3".parse().unwrap();
        let mut section = Section::new("game");
        judge_time(byoyomi, &|c| c == "time_settings" || c == "time_left", &mut section);
        assert_eq!(section.checks.len(), 1);
        assert_eq!(section.checks[0].verdict, Verdict::Warn);
        assert!(section.checks[0].reason.contains("2 spare periods"));
        assert!(section.checks[0].reason.contains("time_settings 300 30 1"));
        let mut section = Section::new("game");
        judge_time(byoyomi, &|_| true, &mut section);
        assert_eq!(section.checks[0].verdict, Verdict::Pass);
        let mut section = Section::new("game");
        judge_time(byoyomi, &|_| false, &mut section);
        assert_eq!(
            section.checks.iter().map(|c| c.verdict).collect::<Vec<_>>(),
            [Verdict::Warn, Verdict::Warn]
        );
    }

    #[test]
    fn the_end_of_game_story_follows_the_rules_and_the_engine() {
        let mut info = PlayerInfo {
            kgs_end_protocol: true,
            claims_dead_stones: true,
            ..PlayerInfo::default()
        };
        assert_eq!(end_of_game_story(EndOfGame::KgsCleanup, &info).0, Verdict::Pass);
        info.kgs_end_protocol = false;
        let (verdict, text) = end_of_game_story(EndOfGame::KgsCleanup, &info);
        assert_eq!(verdict, Verdict::Warn);
        assert!(text.contains("lacks kgs-genmove_cleanup"), "{text}");
        info.claims_dead_stones = false;
        let (verdict, text) = end_of_game_story(EndOfGame::Judge, &info);
        assert_eq!(verdict, Verdict::Warn);
        assert!(text.contains("judge marks them"), "{text}");
        assert_eq!(left_out("[goref: 12 stderr lines (3400 bytes) not shown]"), Some((12, 3400)));
    }
}
