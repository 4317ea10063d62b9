//! The GTP player: a child process driven by the sans-IO GTP controller.
//!
//! Before the game it checks the engine (`protocol_version`, `name`,
//! `version`, and `known_command` for each optional command the referee
//! may send, or `list_commands` for an engine without `known_command`) and
//! sets it up (`boardsize`, `clear_board`,
//! `komi`, rules, handicap, time). Then it serves the referee's actions one
//! at a time. Every command has a deadline; an engine that exits, hangs or
//! answers garbage is reported as failed, never waited on forever, with the
//! last lines it wrote to stderr. An engine still thinking when the game ends
//! (it lost on time, or forfeited) is stopped at once.

use std::collections::{HashSet, VecDeque};
use std::time::Duration;

use tokio::sync::mpsc;

use crate::seats::link::SeatNote;
use crate::shell_time::{now, Timer};
use crate::transport::process::StderrItem;
use goref_core::game::clock::format_duration;
use goref_core::game::{Color, Move};
use goref_core::protocol::gtp::analysis::{self, AnalysisCommand};
use goref_core::protocol::gtp::codec::{parse_command_list, parse_vertex_list, Response};
use goref_core::protocol::gtp::controller::{Controller, ControllerEvent};
use goref_core::referee::{Action, Failure, LineDirection, PlayerEvent, PlayerInfo, SessionChange};

use super::{CpuWatch, PlayerSetup, Reporter};

mod engine;
mod said;

use engine::{seat_comes, Engine, SeatHold, SeatWait};
use said::played_vertex;

/// Extra time a move request may take beyond the referee's own move
/// deadline, so that the referee, not the adapter, rules on slow moves.
const MOVE_DEADLINE_SLACK: Duration = Duration::from_secs(30);
/// The commands the referee sends only to an engine that knows them.
const OPTIONAL_COMMANDS: [&str; 8] = [
    "kgs-rules",
    "set_free_handicap",
    "kgs-time_settings",
    "time_settings",
    "time_left",
    "final_status_list",
    "kgs-genmove_cleanup",
    "kgs-game_over",
];
/// The commands that ask for a move with analysis, asked about when
/// analysis is on.
const ANALYSIS_COMMANDS: [&str; 3] = [
    "kata-genmove_analyze",
    "lz-genmove_analyze",
    "cgos-genmove_analyze",
];
/// How often an engine's CPU time is read while a move is asked for on a
/// CPU-time clock or under an idle limit.
const CPU_WATCH_EVERY: Duration = Duration::from_secs(1);
/// How many of its last stderr lines are quoted when an engine fails.
const STDERR_TAIL: usize = 5;
/// How long a seated program's seat has to connect before its game; the
/// time it takes comes off its clock.
const SEAT_WAIT: Duration = Duration::from_secs(300);
/// A seat that connects this soon after its board started is not late, nor
/// said to be absent (a runner's seats come back a few ms after its boards).
const LATE_AFTER: Duration = Duration::from_secs(1);
/// A seated program's stderr lines waiting for the player; beyond, they
/// are dropped, as the seat bounds them already.
const STDERR_WAITING: usize = 256;

/// Why the adapter stops serving its engine before the normal goodbye.
#[derive(Debug)]
enum Stop {
    /// The engine can no longer play; the reason is reported.
    Failed(Failure),
    /// The game ended while the engine was thinking: it is stopped at once.
    GameOver,
    /// A seated program's seat is gone, or its program exited there: the
    /// player waits for it to come back and tells it the game again.
    SeatDown,
}

impl From<Failure> for Stop {
    fn from(failure: Failure) -> Stop {
        Stop::Failed(failure)
    }
}

/// The adapter's state while the game runs.
struct GtpPlayer {
    color: Color,
    engine: Engine,
    controller: Controller,
    stderr: mpsc::Receiver<StderrItem>,
    /// The last lines the engine wrote to stderr, for a failure's report.
    stderr_tail: VecDeque<String>,
    actions: mpsc::UnboundedReceiver<Action>,
    /// Actions that arrived while a move was awaited.
    pending: VecDeque<Action>,
    reporter: Reporter,
    commands: HashSet<String>,
    setup: PlayerSetup,
    kgs_time: bool,
    /// While a move is asked for on a CPU-time clock or under an idle
    /// limit: the engine's CPU time, watched every second.
    cpu_watch: Option<CpuWatch>,
    /// Every move the engine has been told or has played, in order: what a
    /// seated program that comes back is told again.
    moves: Vec<(Color, Move)>,
    /// A seated program is being told the game again.
    resyncing: bool,
    /// The last analysis line of the last reply, for `*-genmove_analyze`.
    last_analysis: Option<String>,
    /// The command that asks this engine for its move with its analysis,
    /// when analysis is on and the engine knows one.
    analysis: Option<AnalysisCommand>,
    /// The operator was told that an analysis line could not be read.
    analysis_unread_told: bool,
}

/// Runs one GTP engine for the whole game. Returns when the game is over
/// or the engine has failed.
pub async fn run(
    command_line: String,
    spec: String,
    setup: PlayerSetup,
    actions: mpsc::UnboundedReceiver<Action>,
    reporter: Reporter,
) {
    let color = setup.color;
    let (process, stderr) = match super::start_program(color, &command_line) {
        Ok(started) => started,
        Err(failure) => return reporter.send(PlayerEvent::Failed(failure)),
    };
    let engine = Engine::Local(process);
    serve_engine(engine, stderr, spec, setup, actions, reporter, None).await
}

/// Runs a seated entrant's program, reached through its seat, for the
/// whole game: as a local engine, once its seat has connected.
pub async fn run_seated(
    entrant: String,
    spec: String,
    setup: PlayerSetup,
    actions: mpsc::UnboundedReceiver<Action>,
    reporter: Reporter,
) {
    let Some(mut link) = setup.seats.take(&entrant) else {
        let why = format!("{}: no seat for '{entrant}' at this venue", setup.color);
        return reporter.send(PlayerEvent::Failed(Failure::other(why)));
    };
    let waiting_from = now();
    let mut actions = actions;
    let mut told_late = false;
    if !link.is_admitted() {
        let _ = link.wait_admitted(Some(waiting_from + LATE_AFTER)).await;
    }
    if !link.is_admitted() {
        let whole_time = whole_time(setup.rules.time);
        let message = match whole_time {
            Some(time) => format!(
                "{entrant}'s seat is not connected: the game waits for it, its clock running ({} to lose on time)",
                format_duration(time)
            ),
            None => format!(
                "{entrant}'s seat is not connected: the game waits for it, or for the director"
            ),
        };
        let what = SessionChange::SeatAbsent;
        reporter.send(PlayerEvent::Seat { what, message });
        let fallen = whole_time.map(|time| waiting_from + time + Duration::from_millis(1));
        match seat_comes(&mut link, (waiting_from, fallen), &mut actions, &reporter).await {
            SeatWait::Over => return setup.seats.put(link),
            SeatWait::CameAfterItsTime => told_late = true,
            SeatWait::Came => {}
        }
    }
    let (stderr_to, stderr) = mpsc::channel(STDERR_WAITING);
    link.send_stderr_to(stderr_to);
    let seat = SeatHold {
        link: Some(link),
        desk: setup.seats.clone(),
    };
    let late = now().saturating_duration_since(waiting_from);
    let late = (late > LATE_AFTER && !told_late).then_some(late);
    serve_engine(
        Engine::Seat(seat),
        stderr,
        spec,
        setup,
        actions,
        reporter,
        late,
    )
    .await
}

/// The whole time a clock of `system` gives before it flags, if it can.
fn whole_time(system: goref_core::game::clock::TimeSystem) -> Option<Duration> {
    let start = now();
    let mut clock = goref_core::game::clock::Clock::new(system);
    clock.start(start);
    Some(clock.deadline()?.saturating_duration_since(start))
}

async fn serve_engine(
    engine: Engine,
    stderr: mpsc::Receiver<StderrItem>,
    spec: String,
    setup: PlayerSetup,
    actions: mpsc::UnboundedReceiver<Action>,
    reporter: Reporter,
    late: Option<Duration>,
) {
    let color = setup.color;
    let mut player = GtpPlayer {
        color,
        engine,
        controller: Controller::new(),
        stderr,
        stderr_tail: VecDeque::new(),
        actions,
        pending: VecDeque::new(),
        reporter,
        commands: HashSet::new(),
        setup,
        kgs_time: false,
        cpu_watch: None,
        moves: Vec::new(),
        resyncing: false,
        last_analysis: None,
        analysis: None,
        analysis_unread_told: false,
    };
    let outcome = match player.prepare(spec).await {
        Ok(info) => {
            player.reporter.send(PlayerEvent::Ready(info));
            if let Some(late) = late {
                player.reporter.send(PlayerEvent::Late(late));
            }
            player.serve().await
        }
        Err(stop) => Err(stop),
    };
    match outcome {
        Ok(()) => player.say_goodbye().await,
        Err(Stop::GameOver) => {
            player.engine.shut_down(Duration::ZERO).await;
            player.drain_stderr().await;
        }
        Err(Stop::SeatDown) => {
            let why = format!("{} lost its seat", player.who());
            player
                .reporter
                .send(PlayerEvent::Failed(Failure::crash(why, None)));
        }
        Err(Stop::Failed(failure)) => {
            player.engine.shut_down(Duration::from_millis(100)).await;
            player.drain_stderr().await;
            let failure = Failure {
                reason: player.with_stderr_tail(failure.reason),
                ..failure
            };
            player.reporter.send(PlayerEvent::Failed(failure));
        }
    }
}

impl GtpPlayer {
    async fn prepare(&mut self, spec: String) -> Result<PlayerInfo, Stop> {
        let timeout = self.setup.command_timeout;
        let version = self.command("protocol_version", &[], timeout).await?;
        if !version.success || version.text.trim() != "2" {
            self.notice(format!(
                "protocol_version answered '{}'; goref speaks GTP version 2",
                version.text
            ));
        }
        let name = self.optional("name", &[]).await?;
        let engine_version = self.optional("version", &[]).await?;
        self.learn_commands(timeout).await?;
        if self.setup.analysis.is_some() {
            self.analysis = AnalysisCommand::choose(|name| self.commands.contains(name));
        }
        self.set_up_game().await?;
        self.replay_position().await?;
        Ok(PlayerInfo {
            protocol: "gtp".into(),
            spec,
            name,
            version: engine_version,
            kgs_end_protocol: self.lists("final_status_list") && self.lists("kgs-genmove_cleanup"),
            claims_dead_stones: self.lists("final_status_list"),
            stops_at_double_pass: false,
        })
    }

    /// Learns which of the optional commands the referee may send the
    /// engine knows: `known_command` for each, a few short answers, rather
    /// than `list_commands`, which GNU Go answers in some 150 pieces, each
    /// a line of the trace. An engine that does not know `known_command`
    /// is asked `list_commands` instead.
    async fn learn_commands(&mut self, timeout: Duration) -> Result<(), Stop> {
        let handicap = !self.setup.handicap.is_empty();
        let analysis = self.setup.analysis.is_some();
        let wanted = OPTIONAL_COMMANDS
            .iter()
            .filter(|name| handicap || **name != "set_free_handicap")
            .chain(ANALYSIS_COMMANDS.iter().filter(|_| analysis));
        for name in wanted {
            let reply = self.command("known_command", &[name], timeout).await?;
            if !reply.success {
                let listed = self.command("list_commands", &[], timeout).await?;
                if listed.success {
                    self.commands = parse_command_list(&listed.text).into_iter().collect();
                }
                return Ok(());
            }
            if reply.text.trim() == "true" {
                self.commands.insert(name.to_string());
            }
        }
        Ok(())
    }

    /// Brings the engine to the game's position: `play` for every move so
    /// far. An engine that refuses one cannot go on with this game.
    async fn replay_position(&mut self) -> Result<(), Stop> {
        let moves = std::mem::take(&mut self.setup.position);
        for (color, mv) in moves {
            self.required("play", &[color.name(), &mv.to_gtp()]).await?;
            self.moves.push((color, mv));
        }
        Ok(())
    }

    async fn place_handicap(&mut self) -> Result<(), Stop> {
        let stones: Vec<String> = self.setup.handicap.iter().map(|p| p.to_gtp()).collect();
        if stones.is_empty() {
            return Ok(());
        }
        if self.lists("set_free_handicap") {
            let args: Vec<&str> = stones.iter().map(String::as_str).collect();
            return self.required("set_free_handicap", &args).await.map(drop);
        }
        for stone in &stones {
            self.required("play", &["black", stone]).await?;
        }
        Ok(())
    }

    async fn set_time(&mut self) -> Result<(), Stop> {
        let time = self.setup.rules.time;
        if let (true, Some(kgs)) = (self.lists("kgs-time_settings"), time.kgs_time_settings()) {
            let args: Vec<&str> = kgs.split_whitespace().collect();
            let reply = self.optional("kgs-time_settings", &args).await;
            self.kgs_time = reply.is_ok();
            return reply.map(drop);
        }
        if self.lists("time_settings") {
            let (main, period, stones) = time.gtp_time_settings();
            let args = [main.to_string(), period.to_string(), stones.to_string()];
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            self.optional("time_settings", &args).await?;
        }
        Ok(())
    }

    /// Serves actions until the game is over or the engine must stop.
    async fn serve(&mut self) -> Result<(), Stop> {
        loop {
            let action = match self.pending.pop_front() {
                Some(action) => Some(action),
                None => tokio::select! {
                    action = self.actions.recv() => action,
                    chunk = self.engine.read() => {
                        self.seat_notes();
                        match self.unsolicited(chunk).await {
                            Err(Stop::SeatDown) => self.recover_seat().await?,
                            other => other?,
                        }
                        continue;
                    }
                    Some(item) = self.stderr.recv() => {
                        self.forward_stderr(item);
                        continue;
                    }
                },
            };
            match action {
                Some(Action::RequestMove {
                    cleanup, time_left, ..
                }) => self.request_move(cleanup, time_left).await?,
                Some(Action::TellMove { color, mv, .. }) => self.tell_move(color, mv).await?,
                Some(Action::MainTimeUsed { .. }) => {}
                Some(Action::RequestDeadStones { .. }) => self.request_dead_stones().await?,
                Some(Action::GameOver { .. }) | None => return Ok(()),
            }
        }
    }

    async fn request_move(
        &mut self,
        cleanup: bool,
        time_left: Option<goref_core::referee::TimeLeft>,
    ) -> Result<(), Stop> {
        let color = self.color.name();
        if let (Some(left), true) = (time_left, self.lists("time_left")) {
            let stones = if self.kgs_time {
                left.kgs_stones
            } else {
                left.stones
            };
            let (seconds, stones) = (left.seconds.to_string(), stones.to_string());
            self.optional("time_left", &[color, &seconds, &stones])
                .await?;
        }
        let asking = match (cleanup, self.analysis, self.setup.analysis) {
            (false, Some(command), Some(interval)) => {
                let centis = u32::try_from(interval.as_millis() / 10).unwrap_or(u32::MAX);
                Some(command.request(self.color, centis))
            }
            _ => None,
        };
        let (name, args): (&str, Vec<&str>) = match &asking {
            Some((name, args)) => (name, args.iter().map(String::as_str).collect()),
            None if cleanup && self.lists("kgs-genmove_cleanup") => {
                ("kgs-genmove_cleanup", vec![color])
            }
            None => ("genmove", vec![color]),
        };
        let deadline = self
            .setup
            .rules
            .move_timeout
            .saturating_add(MOVE_DEADLINE_SLACK);
        let counts_cpu = self.setup.rules.time.counts_cpu();
        let watched = counts_cpu || self.setup.rules.idle_limit.is_some();
        let cpu_before = watched.then(|| self.engine.user_cpu_time()).flatten();
        self.cpu_watch = cpu_before.map(|at_start| CpuWatch::new(at_start, now()));
        self.last_analysis = None;
        let reply = self.command_then(name, &args, deadline, true).await;
        self.cpu_watch = None;
        let reply = reply?;
        if let (true, Some(before)) = (counts_cpu, cpu_before) {
            if let Some(after) = self.engine.user_cpu_time() {
                self.reporter
                    .send(PlayerEvent::CpuTime(after.saturating_sub(before)));
            }
        }
        if !reply.success {
            return Err(Failure::garbage(format!(
                "{} refused '{name} {color}': {}",
                self.who(),
                reply.text
            ))
            .into());
        }
        let answer = match asking {
            Some(_) => played_vertex(&reply.text),
            None => Some(reply.text.as_str()),
        };
        match answer.map(|vertex| Move::parse_gtp(vertex, self.setup.size)) {
            Some(Ok(mv)) => {
                self.moves.push((self.color, mv));
                if let Some(think) = self.engine.seat_think() {
                    self.reporter.send(PlayerEvent::SeatTime(think));
                }
                self.reporter.send(PlayerEvent::Moved(mv));
                self.tell_analysis(&mv);
                Ok(())
            }
            Some(Err(_)) => Err(Failure::garbage(format!(
                "{} answered '{name} {color}' with '{}', which is not a move",
                self.who(),
                reply.text
            ))
            .into()),
            None => Err(Failure::garbage(format!(
                "{} answered '{name} {color}' with no play line: '{}'",
                self.who(),
                reply.text
            ))
            .into()),
        }
    }

    async fn tell_move(&mut self, mover: Color, mv: Move) -> Result<(), Stop> {
        let vertex = mv.to_gtp();
        let reply = self
            .command("play", &[mover.name(), &vertex], self.setup.command_timeout)
            .await?;
        if reply.success {
            self.moves.push((mover, mv));
        } else {
            self.reporter.send(PlayerEvent::RejectedMove {
                mv,
                message: reply.text,
            });
        }
        Ok(())
    }

    async fn request_dead_stones(&mut self) -> Result<(), Stop> {
        let reply = self
            .command("final_status_list", &["dead"], self.setup.command_timeout)
            .await?;
        let event = if !reply.success {
            PlayerEvent::DeadStonesUnavailable(reply.text)
        } else {
            match parse_vertex_list(&reply.text, self.setup.size) {
                Ok(stones) => PlayerEvent::DeadStones(stones),
                Err(e) => PlayerEvent::DeadStonesUnavailable(format!("unreadable answer: {e}")),
            }
        };
        self.reporter.send(event);
        Ok(())
    }

    /// Tells the engine the game is over and lets it quit; kills it if it lingers.
    async fn say_goodbye(&mut self) {
        let grace = Duration::from_secs(5);
        if self.lists("kgs-game_over") {
            let _ = self
                .command("kgs-game_over", &[], Duration::from_secs(10))
                .await;
        }
        if !self.engine.is_seat() {
            let _ = self.command("quit", &[], grace).await;
        }
        self.engine.shut_down(grace).await;
        match self.engine.is_seat() {
            true => self.take_stderr_queued(),
            false => self.drain_stderr().await,
        }
    }

    /// Output that arrived while no command was in flight.
    async fn unsolicited(&mut self, chunk: std::io::Result<Vec<u8>>) -> Result<(), Stop> {
        let now = now();
        match chunk {
            Ok(bytes) if !bytes.is_empty() => {
                for event in self.controller.handle_stdout(now, &bytes) {
                    match event {
                        ControllerEvent::Unexpected { response } => self.notice(format!(
                            "unexpected output ignored: {}",
                            response_line(&response)
                        )),
                        ControllerEvent::Protocol { error } => {
                            let why = format!("{}: {error}", self.who());
                            return Err(Failure::garbage(why).into());
                        }
                        _ => {}
                    }
                }
                Ok(())
            }
            _ if self.engine.comes_back() => Err(Stop::SeatDown),
            _ => {
                let who = self.who();
                let why = |how| format!("{who} {how} between moves");
                Err(self.engine.gone(why).await.into())
            }
        }
    }

    async fn command(
        &mut self,
        name: &str,
        args: &[&str],
        timeout: Duration,
    ) -> Result<Response, Stop> {
        self.command_then(name, args, timeout, false).await
    }

    /// A command whose failure reply is only noticed, with an empty answer.
    async fn optional(&mut self, name: &str, args: &[&str]) -> Result<String, Stop> {
        let reply = self.command(name, args, self.setup.command_timeout).await?;
        if reply.success {
            Ok(reply.text)
        } else {
            self.notice(format!("'{name}' failed: {}", reply.text));
            Ok(String::new())
        }
    }

    /// A command the game cannot do without.
    async fn required(&mut self, name: &str, args: &[&str]) -> Result<String, Stop> {
        let reply = self.command(name, args, self.setup.command_timeout).await?;
        if reply.success {
            Ok(reply.text)
        } else {
            Err(Failure::other(format!(
                "{} refused '{} {}': {}",
                self.who(),
                name,
                args.join(" "),
                reply.text
            ))
            .into())
        }
    }

    /// Sends one command and waits for its reply, its deadline, or the
    /// engine's death. With `report_thinking` (a move request), the referee
    /// is told the moment the command has been written, and the end of the
    /// game stops the wait.
    async fn command_then(
        &mut self,
        name: &str,
        args: &[&str],
        timeout: Duration,
        report_thinking: bool,
    ) -> Result<Response, Stop> {
        loop {
            match self.exchange(name, args, timeout, report_thinking).await {
                Err(Stop::SeatDown) if !self.resyncing => self.recover_seat().await?,
                outcome => return outcome,
            }
        }
    }

    /// Waits for a seated program that went away to come back, the clock
    /// running (the end of the game ends the wait), then tells it the game
    /// again: the same set-up, every move so far. A seat lost again while
    /// it is told is waited for again.
    async fn recover_seat(&mut self) -> Result<(), Stop> {
        let give_up = now() + SEAT_WAIT;
        loop {
            let Engine::Seat(seat) = &mut self.engine else {
                return Err(Failure::other("only a seat comes back".into()).into());
            };
            let link = seat.link_mut();
            let back = tokio::select! {
                back = link.wait_back() => back,
                action = self.actions.recv() => match action {
                    Some(Action::GameOver { .. }) | None => return Err(Stop::GameOver),
                    Some(other) => {
                        self.pending.push_back(other);
                        continue;
                    }
                },
                _ = crate::shell_time::sleep_until(Some(give_up)) => Err(format!(
                    "not back within {} min",
                    SEAT_WAIT.as_secs() / 60
                )),
            };
            self.seat_notes();
            if let Err(why) = back {
                let why = format!("{}: {why}", self.who());
                return Err(Failure::hang(why).into());
            }
            self.controller = Controller::new();
            self.resyncing = true;
            self.reporter.send(PlayerEvent::TellingAgain(true));
            let told = Box::pin(self.tell_again()).await;
            self.resyncing = false;
            match told {
                Ok(()) => return Ok(()),
                Err(Stop::SeatDown) => {
                    self.reporter.send(PlayerEvent::TellingAgain(false));
                    continue;
                }
                Err(other) => return Err(other),
            }
        }
    }

    /// The game's board, rules, handicap and clock, on an empty board.
    async fn set_up_game(&mut self) -> Result<(), Stop> {
        let size = self.setup.size.to_string();
        self.required("boardsize", &[&size]).await?;
        self.required("clear_board", &[]).await?;
        let komi = self.setup.rules.komi.to_string();
        self.optional("komi", &[&komi]).await?;
        if self.lists("kgs-rules") {
            let rules = self.setup.rules.kgs_rules_name();
            self.optional("kgs-rules", &[rules]).await?;
        }
        self.place_handicap().await?;
        self.set_time().await
    }

    /// The game so far, to a seated program that came back.
    async fn tell_again(&mut self) -> Result<(), Stop> {
        let began = now();
        self.set_up_game().await?;
        let moves = self.moves.clone();
        for (color, mv) in moves {
            self.required("play", &[color.name(), &mv.to_gtp()]).await?;
        }
        let told = format!(
            "{} was told the game again: {} moves in {:.1} s, charged to nobody",
            self.who(),
            self.moves.len(),
            now().saturating_duration_since(began).as_secs_f64()
        );
        self.reporter.send(PlayerEvent::Info(told));
        Ok(())
    }

    /// One command and its reply; [`Stop::SeatDown`] when a seat goes away
    /// meanwhile.
    async fn exchange(
        &mut self,
        name: &str,
        args: &[&str],
        timeout: Duration,
        report_thinking: bool,
    ) -> Result<Response, Stop> {
        let bytes = self
            .controller
            .send(now(), name, args, timeout)
            .map_err(|_| {
                Failure::other(format!("{}: a command is already in flight", self.who()))
            })?;
        let line = String::from_utf8_lossy(&bytes).trim_end().to_string();
        self.trace(LineDirection::Sent, line.clone());
        let who = self.who();
        self.engine.write_line(&bytes, &who, &line).await?;
        if report_thinking {
            self.reporter.send(PlayerEvent::Thinking);
        }
        // One timer for the command, not one for each chunk the engine writes.
        let mut timer = Timer::default();
        let mut watch = (report_thinking && self.cpu_watch.is_some())
            .then(|| tokio::time::interval(CPU_WATCH_EVERY));
        loop {
            timer.set(self.controller.poll_timeout());
            tokio::select! {
                chunk = self.engine.read() => {
                    self.seat_notes();
                    let now = now();
                    let bytes = match chunk {
                        Ok(bytes) if !bytes.is_empty() => bytes,
                        _ if self.engine.comes_back() => return Err(Stop::SeatDown),
                        _ => {
                            self.controller.handle_eof(now);
                            let who = self.who();
                            let why = |how| format!("{who} {how} while answering '{line}'");
                            return Err(self.engine.gone(why).await.into());
                        }
                    };
                    for event in self.controller.handle_stdout(now, &bytes) {
                        if let Some(reply) = self.on_controller_event(event, &line)? {
                            return Ok(reply);
                        }
                    }
                }
                Some(item) = self.stderr.recv() => self.forward_stderr(item),
                action = self.actions.recv(), if report_thinking => match action {
                    Some(Action::GameOver { .. }) | None => return Err(Stop::GameOver),
                    Some(other) => self.pending.push_back(other),
                },
                _ = timer.fired() => {
                    let now = now();
                    if let Some(event) = self.controller.handle_timeout(now) {
                        self.on_controller_event(event, &line)?;
                    }
                }
                _ = tick(&mut watch) => self.watch_cpu()?,
            }
        }
    }

    /// Once a second while a move is asked for: the CPU time used so far,
    /// for a CPU-time clock, and the idle rule (no growth for the limit).
    fn watch_cpu(&mut self) -> Result<(), Stop> {
        let who = self.who();
        let (Some(watch), Some(cpu)) = (&mut self.cpu_watch, self.engine.user_cpu_time()) else {
            return Ok(());
        };
        if let Some(event) = watch.observe(cpu, now(), &self.setup.rules, &who)? {
            self.reporter.send(event);
        }
        Ok(())
    }

    fn on_controller_event(
        &mut self,
        event: ControllerEvent,
        line: &str,
    ) -> Result<Option<Response>, Stop> {
        match event {
            ControllerEvent::Reply {
                response, analysis, ..
            } => {
                for text in response_line(&response).lines() {
                    self.trace(LineDirection::Received, text.to_string());
                }
                self.last_analysis = analysis;
                Ok(Some(response))
            }
            ControllerEvent::Analysis { line } => {
                let readable = self
                    .analysis
                    .is_some_and(|command| analysis::parse_line(&line, command).is_ok());
                if !readable {
                    self.trace(LineDirection::Received, line);
                }
                Ok(None)
            }
            ControllerEvent::AnalysisLeftOut { lines } => {
                let said = format!(
                    "({lines} analysis lines passed over: more than 20 lines or 64 KiB a second)"
                );
                self.trace(LineDirection::Received, said);
                Ok(None)
            }
            ControllerEvent::TimedOut { limit, .. } => Err(Failure::hang(format!(
                "{} gave no answer to '{line}' within {}",
                self.who(),
                format_duration(limit)
            ))
            .into()),
            ControllerEvent::Protocol { error } => {
                Err(Failure::garbage(format!("{} broke the protocol: {error}", self.who())).into())
            }
            ControllerEvent::Unexpected { response } => {
                self.notice(format!(
                    "unexpected response ignored: {}",
                    response_line(&response)
                ));
                Ok(None)
            }
        }
    }

    /// The engine knows `command`, one of [`OPTIONAL_COMMANDS`].
    fn lists(&self, command: &str) -> bool {
        debug_assert!(
            OPTIONAL_COMMANDS.contains(&command),
            "{command} is not asked about"
        );
        self.commands.contains(command)
    }

    fn who(&self) -> String {
        match &self.engine {
            Engine::Local(process) => format!("{}'s engine ({})", self.color, process.program),
            Engine::Seat(seat) => format!("{}'s seated engine ({})", self.color, seat.entrant()),
        }
    }

    /// What a seat had to say besides the program's output: it connected,
    /// it was lost, its operator used a right.
    fn seat_notes(&mut self) {
        let notes: Vec<SeatNote> = match &mut self.engine {
            Engine::Seat(seat) => seat.link_mut().notes.drain(..).collect(),
            Engine::Local(_) => Vec::new(),
        };
        for note in notes {
            self.reporter.send(match note {
                SeatNote::Session(what, message) => PlayerEvent::Seat { what, message },
                SeatNote::Info(message) => PlayerEvent::Info(message),
                SeatNote::VenueAway(message) => PlayerEvent::VenueAway(message),
                SeatNote::VenueBack(message) => PlayerEvent::VenueBack(message),
            });
        }
    }

    fn trace(&self, direction: LineDirection, line: String) {
        self.reporter.send(PlayerEvent::Line { direction, line });
    }

    fn notice(&self, message: String) {
        self.reporter.send(PlayerEvent::Notice(message));
    }
}

/// The next tick of `watch`, or never when there is none.
async fn tick(watch: &mut Option<tokio::time::Interval>) {
    match watch {
        Some(watch) => {
            watch.tick().await;
        }
        None => std::future::pending().await,
    }
}

/// A response as it appeared on the wire: `=12 D4`, `? illegal move`.
fn response_line(response: &Response) -> String {
    let status = if response.success { '=' } else { '?' };
    let id = response.id.map(|id| id.to_string()).unwrap_or_default();
    format!("{status}{id} {}", response.text)
}
