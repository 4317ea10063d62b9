//! The first run of a GTP engine: spoken to directly, one command at a
//! time, for what a game never asks. How long it takes to start, its
//! names, `list_commands`, an unknown command, an illegal `play`, the ids
//! of its answers, and whether `quit` ends it (not asked of a program
//! behind a seat, which keeps it between games).

use std::time::Duration;

use tokio::sync::mpsc;

use crate::players;
use crate::seats::link::{SeatDesk, SeatLink};
use crate::shell_time::{now, Timer};
use crate::transport::process::{describe_exit, Process, StderrItem};
use goref_core::game::Point;
use goref_core::protocol::gtp::codec::{parse_command_list, Response};
use goref_core::protocol::gtp::controller::{Controller, ControllerEvent};

use super::StderrTally;
use crate::check::card::{Section, Verdict};
use crate::check::{millis, plural, CheckConfig};

/// A start-up slower than this is worth a warning: a crashed engine is
/// started again with its clock running.
const SLOW_START: Duration = Duration::from_secs(10);
/// How long an engine has to answer `quit` and exit.
const QUIT_GRACE: Duration = Duration::from_secs(5);
/// A command the engine cannot know.
const UNKNOWN_COMMAND: &str = "goref-check-no-such-command";

/// The first run: the engine spoken to directly. False when it could not
/// be brought to answer at all, so that nothing else is worth trying.
pub(super) async fn probe(
    config: &CheckConfig,
    target: &Target<'_>,
    start: &mut Section,
    protocol: &mut Section,
    stderr: &mut StderrTally,
    ids: &mut Ids,
) -> bool {
    let started = now();
    let (process, stderr_rx) = match target.start(config) {
        Ok(started) => started,
        Err(why) => {
            start.fail("start-up", why);
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
        Ok(Answer { response, .. }) => {
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
        Err(other) => {
            let why = other.reason("protocol_version", "its first command");
            engine.give_up(start, "start-up", why).await;
            return false;
        }
    }
    for (name, missing) in [
        ("name", "the record names it by its command line"),
        ("version", "the record shows no version"),
    ] {
        match engine.ask(name, &[], timeout).await {
            Ok(Answer { response, took }) => {
                match response.result() {
                    Ok(text) if !text.trim().is_empty() => start.pass(name, text.trim()),
                    Ok(_) => start.warn(name, format!("empty: {missing}")),
                    Err(why) => start.warn(name, format!("refused ({why}): {missing}")),
                }
                .timed(took);
            }
            Err(other) => {
                let why = other.reason(name, "an identity question");
                engine.give_up(start, name, why).await;
                return false;
            }
        }
    }
    match engine.ask("list_commands", &[], timeout).await {
        Ok(Answer { response, took }) => {
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
        Err(other) => {
            let why = other.reason("list_commands", "");
            engine.give_up(start, "list_commands", why).await;
            return false;
        }
    }
    engine.protocol_checks(config, protocol).await;
    true
}

/// What the card is of: a program goref starts, or one behind a seat.
pub(super) enum Target<'a> {
    Program(&'a str),
    Seat(&'a str),
}

impl Target<'_> {
    fn start(&self, config: &CheckConfig) -> Result<(Engine, mpsc::Receiver<StderrItem>), String> {
        match self {
            Target::Program(command) => players::start_program(config.color, command)
                .map(|(process, stderr)| (Engine::Program(process), stderr))
                .map_err(|failure| failure.reason),
            Target::Seat(entrant) => {
                let Some(mut link) = config.seats.take(entrant) else {
                    return Err(format!("no seat for '{entrant}'"));
                };
                let (to, stderr) = mpsc::channel(256);
                link.send_stderr_to(to);
                let desk = config.seats.clone();
                Ok((Engine::Seat(Some(link), desk), stderr))
            }
        }
    }
}

/// The program the first run speaks to. A seat's link goes back to its
/// desk when the run ends, however it ends.
enum Engine {
    Program(Process),
    Seat(Option<SeatLink>, SeatDesk),
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Engine::Seat(link, desk) = self {
            if let Some(link) = link.take() {
                desk.put(link);
            }
        }
    }
}

impl Engine {
    fn link(link: &mut Option<SeatLink>) -> &mut SeatLink {
        link.as_mut().expect("held until dropped")
    }

    async fn write(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        match self {
            Engine::Program(process) => process.write(bytes).await,
            Engine::Seat(link, _) => Self::link(link).write(bytes).await,
        }
    }

    async fn read(&mut self) -> std::io::Result<Vec<u8>> {
        match self {
            Engine::Program(process) => process.read().await,
            Engine::Seat(link, _) => Self::link(link).read().await,
        }
    }

    /// How the program exited, if it did within `within`; a seat's never
    /// exits for goref.
    async fn wait_exit(&mut self, within: Duration) -> Option<std::process::ExitStatus> {
        match self {
            Engine::Program(process) => process.wait_exit(within).await,
            Engine::Seat(..) => None,
        }
    }

    async fn shut_down(&mut self, grace: Duration) {
        if let Engine::Program(process) = self {
            process.shut_down(grace).await;
        }
    }
}

/// The engine of the first run.
struct Probe<'a> {
    process: Engine,
    controller: Controller,
    stderr_rx: mpsc::Receiver<StderrItem>,
    stderr: &'a mut StderrTally,
    ids: &'a mut Ids,
}

/// Whether answers carried the ids of their commands.
#[derive(Debug, Default)]
pub(super) struct Ids {
    pub(super) echoed: u32,
    pub(super) missing: u32,
    /// Answers with another command's id, as they came.
    wrong: Vec<String>,
}

impl Ids {
    pub(super) fn judge(&self, protocol: &mut Section) {
        if let Some(first) = self.wrong.first() {
            protocol.fail(
                "ids echoed",
                format!(
                    "{} with another command's id, e.g. '{first}'",
                    plural(self.wrong.len(), "answer", "answers")
                ),
            );
        } else if self.missing > 0 {
            protocol.fail(
                "ids echoed",
                format!(
                    "{} of {} answers without the command's id: after a time-out a late answer \
                     would be taken for the next command's",
                    self.missing,
                    self.missing + self.echoed
                ),
            );
        } else {
            protocol.pass(
                "ids echoed",
                format!("all {} answers carried their command's id", self.echoed),
            );
        }
    }
}

/// An answer and how long it took.
struct Answer {
    response: Response,
    took: Duration,
}

/// Why a command got no answer.
enum NoAnswer {
    /// None within the deadline.
    Silent(Duration),
    /// The engine went away; how.
    Gone(String),
    /// It wrote something that is not GTP.
    Broken(String),
}

impl NoAnswer {
    /// The one-line reason: `command`, with `what` it was in brackets.
    fn reason(&self, command: &str, what: &str) -> String {
        let what = match what {
            "" => String::new(),
            what => format!(" ({what})"),
        };
        match self {
            NoAnswer::Silent(waited) => {
                format!("no answer to '{command}'{what} within {}", millis(*waited))
            }
            NoAnswer::Gone(how) => format!("it {how} before answering '{command}'{what}"),
            NoAnswer::Broken(error) => {
                format!("'{command}'{what} got an answer that is not GTP: {error}")
            }
        }
    }
}

impl Probe<'_> {
    async fn ask(
        &mut self,
        name: &str,
        args: &[&str],
        timeout: Duration,
    ) -> Result<Answer, NoAnswer> {
        let Ok(bytes) = self.controller.send(now(), name, args, timeout) else {
            return Err(NoAnswer::Broken("a command is still in flight".into()));
        };
        let sent_id = self.controller.in_flight().and_then(|c| c.id);
        if self.process.write(&bytes).await.is_err() {
            let status = self.process.wait_exit(Duration::from_millis(500)).await;
            return Err(NoAnswer::Gone(describe_exit(status)));
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
                            return Err(NoAnswer::Gone(describe_exit(status)));
                        }
                    };
                    if let Some(asked) = self.settle(events, sent_id) {
                        return asked;
                    }
                }
                Some(item) = self.stderr_rx.recv() => self.stderr.add(&item),
                _ = timer.fired() => {
                    if let Some(ControllerEvent::TimedOut { limit, .. }) =
                        self.controller.handle_timeout(now())
                    {
                        return Err(NoAnswer::Silent(limit));
                    }
                }
            }
        }
    }

    /// The answer among `events`, if one came; ids are tallied.
    fn settle(
        &mut self,
        events: Vec<ControllerEvent>,
        sent_id: Option<u32>,
    ) -> Option<Result<Answer, NoAnswer>> {
        for event in events {
            match event {
                ControllerEvent::Reply {
                    response, elapsed, ..
                } => {
                    match response.id {
                        Some(id) if Some(id) == sent_id => self.ids.echoed += 1,
                        _ => self.ids.missing += 1,
                    }
                    return Some(Ok(Answer {
                        response,
                        took: elapsed,
                    }));
                }
                ControllerEvent::Unexpected { response } => {
                    let id = response.id.map(|id| id.to_string()).unwrap_or_default();
                    self.ids.wrong.push(format!("={id} {}", response.text));
                }
                ControllerEvent::Protocol { error } => {
                    return Some(Err(NoAnswer::Broken(error.to_string())))
                }
                ControllerEvent::TimedOut { limit, .. } => {
                    return Some(Err(NoAnswer::Silent(limit)))
                }
                ControllerEvent::Analysis { .. } | ControllerEvent::AnalysisLeftOut { .. } => {}
            }
        }
        None
    }

    /// An unknown command, an illegal `play`, the ids, and `quit`.
    async fn protocol_checks(&mut self, config: &CheckConfig, protocol: &mut Section) {
        let timeout = config.command_timeout;
        match self.ask(UNKNOWN_COMMAND, &[], timeout).await {
            Ok(Answer { response, took }) => {
                match response.result() {
                    Err(why) => protocol.pass("unknown command", format!("'? {why}', as GTP says")),
                    Ok(text) => protocol.fail(
                        "unknown command",
                        format!(
                            "answered '{}' to '{UNKNOWN_COMMAND}': GTP asks for '?', \
                             and an engine that claims every command cannot be asked what it knows",
                            format!("= {text}").trim_end()
                        ),
                    ),
                }
                .timed(took);
            }
            Err(other) => {
                let why = other.reason(UNKNOWN_COMMAND, "");
                return self.give_up(protocol, "unknown command", why).await;
            }
        }
        if let Err(why) = self.illegal_play(config, protocol).await {
            return self.give_up(protocol, "illegal play", why).await;
        }
        if let Engine::Seat(..) = self.process {
            return;
        }
        let quit = self.ask("quit", &[], QUIT_GRACE).await;
        let asked_at = now();
        match quit {
            Ok(_) | Err(NoAnswer::Gone(_)) => {
                match self.process.wait_exit(QUIT_GRACE).await {
                    Some(_) => protocol.pass(
                        "quit",
                        match quit {
                            Ok(_) => "answered and exited".to_string(),
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
            Err(other) => {
                protocol.fail("quit", other.reason("quit", ""));
            }
        }
        self.stop().await;
    }

    /// `play` on a point its opponent holds must be refused. An error, the
    /// reason, when the engine stopped answering.
    async fn illegal_play(
        &mut self,
        config: &CheckConfig,
        protocol: &mut Section,
    ) -> Result<(), String> {
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
                Ok(Answer { response, .. }) if response.success => {}
                Ok(Answer { response, .. }) => {
                    protocol.warn(
                        "illegal play",
                        format!("not tried: it refused '{shown}' ({})", response.text),
                    );
                    return Ok(());
                }
                Err(other) => return Err(other.reason(&shown, "")),
            }
        }
        let shown = format!("play white {point}");
        match self.ask("play", &["white", &point], timeout).await {
            Ok(Answer { response, took }) => {
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
                Ok(())
            }
            Err(other) => Err(other.reason(&shown, "")),
        }
    }

    /// Ends the engine, then fails `name` for `why` with the last lines it
    /// wrote to stderr.
    async fn give_up(&mut self, section: &mut Section, name: &str, why: String) {
        self.stop().await;
        section.fail(name, self.stderr.with_tail(why));
    }

    /// Ends the engine and keeps what it wrote to stderr.
    async fn stop(&mut self) {
        self.process.shut_down(Duration::ZERO).await;
        for item in players::drain_stderr(&mut self.stderr_rx).await {
            self.stderr.add(&item);
        }
    }
}
