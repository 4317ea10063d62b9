//! The GTP player: a child process driven by the sans-IO GTP controller.
//!
//! Before the game it checks the engine (`protocol_version`, `name`,
//! `version`, `list_commands`) and sets it up (`boardsize`, `clear_board`,
//! `komi`, rules, handicap, time). Then it serves the referee's actions one
//! at a time. Every command has a deadline; an engine that exits, hangs or
//! answers garbage is reported as failed, never waited on forever.

use std::collections::HashSet;
use std::time::Duration;

use tokio::sync::mpsc;

use crate::game::clock::{format_duration, TimeSystem};
use crate::game::{Color, Move};
use crate::protocol::gtp::codec::{parse_command_list, parse_vertex_list, Response};
use crate::protocol::gtp::controller::{Controller, ControllerEvent};
use crate::referee::{Action, LineDirection, PlayerEvent, PlayerInfo};
use crate::shell_time::{now, sleep_until};
use crate::transport::process::{
    describe_exit, split_command_line, Process, StderrItem, STDERR_LINES_PER_SECOND,
};

use super::{PlayerSetup, Reporter};

/// Extra time a move request may take beyond the referee's own move
/// deadline, so that the referee, not the adapter, rules on slow moves.
const MOVE_DEADLINE_SLACK: Duration = Duration::from_secs(30);

/// The adapter's state while the game runs.
struct GtpPlayer {
    color: Color,
    process: Process,
    controller: Controller,
    stderr: mpsc::Receiver<StderrItem>,
    reporter: Reporter,
    commands: HashSet<String>,
    setup: PlayerSetup,
    kgs_time: bool,
}

/// Runs one GTP engine for the whole game. Returns when the game is over
/// or the engine has failed.
pub async fn run(
    command_line: String,
    spec: String,
    setup: PlayerSetup,
    mut actions: mpsc::UnboundedReceiver<Action>,
    reporter: Reporter,
) {
    let color = setup.color;
    let argv = match split_command_line(&command_line) {
        Ok(argv) if !argv.is_empty() => argv,
        Ok(_) => return reporter.send(PlayerEvent::Failed(format!("{color}: empty command"))),
        Err(e) => return reporter.send(PlayerEvent::Failed(format!("{color}: {e}"))),
    };
    let (stderr_tx, stderr) = mpsc::channel(256);
    let process = match Process::spawn(&argv, stderr_tx) {
        Ok(process) => process,
        Err(e) => return reporter.send(PlayerEvent::Failed(format!("{color}: {e}"))),
    };
    let mut player = GtpPlayer {
        color,
        process,
        controller: Controller::new(),
        stderr,
        reporter,
        commands: HashSet::new(),
        setup,
        kgs_time: false,
    };
    match player.prepare(spec).await {
        Ok(info) => player.reporter.send(PlayerEvent::Ready(info)),
        Err(failure) => {
            player.reporter.send(PlayerEvent::Failed(failure));
            player.process.shut_down(Duration::from_millis(100)).await;
            return;
        }
    }
    let ended_cleanly = player.serve(&mut actions).await;
    if ended_cleanly {
        player.say_goodbye().await;
    } else {
        player.process.shut_down(Duration::from_millis(100)).await;
        player.drain_stderr().await;
    }
}

impl GtpPlayer {
    async fn prepare(&mut self, spec: String) -> Result<PlayerInfo, String> {
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
        let listed = self.command("list_commands", &[], timeout).await?;
        if listed.success {
            self.commands = parse_command_list(&listed.text).into_iter().collect();
        }
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
        self.set_time().await?;
        Ok(PlayerInfo {
            protocol: "gtp".into(),
            spec,
            name,
            version: engine_version,
            kgs_end_protocol: self.lists("final_status_list") && self.lists("kgs-genmove_cleanup"),
            stops_at_double_pass: false,
        })
    }

    async fn place_handicap(&mut self) -> Result<(), String> {
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

    async fn set_time(&mut self) -> Result<(), String> {
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

    /// Serves actions until the game is over (true) or the engine fails (false).
    async fn serve(&mut self, actions: &mut mpsc::UnboundedReceiver<Action>) -> bool {
        loop {
            let action = tokio::select! {
                action = actions.recv() => action,
                chunk = self.process.read() => {
                    if let Err(failure) = self.unsolicited(chunk).await {
                        self.reporter.send(PlayerEvent::Failed(failure));
                        return false;
                    }
                    continue;
                }
                Some(item) = self.stderr.recv() => {
                    self.forward_stderr(item);
                    continue;
                }
            };
            let Some(action) = action else { return true };
            let outcome = match action {
                Action::RequestMove {
                    cleanup, time_left, ..
                } => self.request_move(cleanup, time_left).await,
                Action::TellMove { color, mv, .. } => self.tell_move(color, mv).await,
                Action::RequestDeadStones { .. } => self.request_dead_stones().await,
                Action::GameOver { .. } => return true,
            };
            if let Err(failure) = outcome {
                self.reporter.send(PlayerEvent::Failed(failure));
                return false;
            }
        }
    }

    async fn request_move(
        &mut self,
        cleanup: bool,
        time_left: Option<crate::referee::TimeLeft>,
    ) -> Result<(), String> {
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
        let name = if cleanup && self.lists("kgs-genmove_cleanup") {
            "kgs-genmove_cleanup"
        } else {
            "genmove"
        };
        let deadline = self.setup.rules.move_timeout + MOVE_DEADLINE_SLACK;
        let counts_cpu = matches!(self.setup.rules.time, TimeSystem::Cpu { .. });
        let cpu_before = counts_cpu.then(|| self.process.user_cpu_time()).flatten();
        let reply = self.command_then(name, &[color], deadline, true).await?;
        let cpu_after = counts_cpu.then(|| self.process.user_cpu_time()).flatten();
        if let (Some(before), Some(after)) = (cpu_before, cpu_after) {
            self.reporter
                .send(PlayerEvent::CpuTime(after.saturating_sub(before)));
        }
        if !reply.success {
            return Err(format!(
                "{} refused '{name} {color}': {}",
                self.who(),
                reply.text
            ));
        }
        match Move::parse_gtp(&reply.text, self.setup.size) {
            Ok(mv) => {
                self.reporter.send(PlayerEvent::Moved(mv));
                Ok(())
            }
            Err(_) => Err(format!(
                "{} answered '{name} {color}' with '{}', which is not a move",
                self.who(),
                reply.text
            )),
        }
    }

    async fn tell_move(&mut self, mover: Color, mv: Move) -> Result<(), String> {
        let vertex = mv.to_gtp();
        let reply = self
            .command("play", &[mover.name(), &vertex], self.setup.command_timeout)
            .await?;
        if !reply.success {
            self.reporter.send(PlayerEvent::RejectedMove {
                mv,
                message: reply.text,
            });
        }
        Ok(())
    }

    async fn request_dead_stones(&mut self) -> Result<(), String> {
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
        let _ = self.command("quit", &[], grace).await;
        self.process.shut_down(grace).await;
        self.drain_stderr().await;
    }

    /// Passes on what the engine wrote to stderr before it exited.
    async fn drain_stderr(&mut self) {
        let linger = Duration::from_millis(200);
        while let Ok(Some(item)) = tokio::time::timeout(linger, self.stderr.recv()).await {
            self.forward_stderr(item);
        }
    }

    /// Output that arrived while no command was in flight.
    async fn unsolicited(&mut self, chunk: std::io::Result<Vec<u8>>) -> Result<(), String> {
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
                            return Err(format!("{}: {error}", self.who()))
                        }
                        _ => {}
                    }
                }
                Ok(())
            }
            _ => {
                let status = self.process.wait_exit(Duration::from_millis(500)).await;
                Err(format!(
                    "{} {} between moves",
                    self.who(),
                    describe_exit(status)
                ))
            }
        }
    }

    async fn command(
        &mut self,
        name: &str,
        args: &[&str],
        timeout: Duration,
    ) -> Result<Response, String> {
        self.command_then(name, args, timeout, false).await
    }

    /// A command whose failure reply is only noticed, with an empty answer.
    async fn optional(&mut self, name: &str, args: &[&str]) -> Result<String, String> {
        let reply = self.command(name, args, self.setup.command_timeout).await?;
        if reply.success {
            Ok(reply.text)
        } else {
            self.notice(format!("'{name}' failed: {}", reply.text));
            Ok(String::new())
        }
    }

    /// A command the game cannot do without.
    async fn required(&mut self, name: &str, args: &[&str]) -> Result<String, String> {
        let reply = self.command(name, args, self.setup.command_timeout).await?;
        if reply.success {
            Ok(reply.text)
        } else {
            Err(format!(
                "{} refused '{} {}': {}",
                self.who(),
                name,
                args.join(" "),
                reply.text
            ))
        }
    }

    /// Sends one command and waits for its reply, its deadline, or the
    /// engine's death. With `report_thinking`, the referee is told the
    /// moment the command has been written.
    async fn command_then(
        &mut self,
        name: &str,
        args: &[&str],
        timeout: Duration,
        report_thinking: bool,
    ) -> Result<Response, String> {
        let bytes = self
            .controller
            .send(now(), name, args, timeout)
            .map_err(|_| format!("{}: a command is already in flight", self.who()))?;
        let line = String::from_utf8_lossy(&bytes).trim_end().to_string();
        self.trace(LineDirection::Sent, line.clone());
        if let Err(e) = self.process.write(&bytes).await {
            let status = self.process.wait_exit(Duration::from_millis(500)).await;
            return Err(format!(
                "{} {} before '{line}' could be sent ({e})",
                self.who(),
                describe_exit(status)
            ));
        }
        if report_thinking {
            self.reporter.send(PlayerEvent::Thinking);
        }
        loop {
            let sleep = sleep_until(self.controller.poll_timeout());
            tokio::select! {
                chunk = self.process.read() => {
                    let now = now();
                    let bytes = match chunk {
                        Ok(bytes) if !bytes.is_empty() => bytes,
                        _ => {
                            self.controller.handle_eof(now);
                            let status = self.process.wait_exit(Duration::from_millis(500)).await;
                            return Err(format!(
                                "{} {} while answering '{line}'",
                                self.who(),
                                describe_exit(status)
                            ));
                        }
                    };
                    for event in self.controller.handle_stdout(now, &bytes) {
                        if let Some(reply) = self.on_controller_event(event, &line)? {
                            return Ok(reply);
                        }
                    }
                }
                Some(item) = self.stderr.recv() => self.forward_stderr(item),
                _ = sleep => {
                    let now = now();
                    if let Some(event) = self.controller.handle_timeout(now) {
                        self.on_controller_event(event, &line)?;
                    }
                }
            }
        }
    }

    fn on_controller_event(
        &mut self,
        event: ControllerEvent,
        line: &str,
    ) -> Result<Option<Response>, String> {
        match event {
            ControllerEvent::Reply { response, .. } => {
                for text in response_line(&response).lines() {
                    self.trace(LineDirection::Received, text.to_string());
                }
                Ok(Some(response))
            }
            ControllerEvent::TimedOut { waited, .. } => Err(format!(
                "{} gave no answer to '{line}' within {}",
                self.who(),
                format_duration(waited)
            )),
            ControllerEvent::Protocol { error } => {
                Err(format!("{} broke the protocol: {error}", self.who()))
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

    fn lists(&self, command: &str) -> bool {
        self.commands.contains(command)
    }

    fn who(&self) -> String {
        format!("{}'s engine ({})", self.color, self.process.program)
    }

    fn trace(&self, direction: LineDirection, line: String) {
        self.reporter.send(PlayerEvent::Line { direction, line });
    }

    fn notice(&self, message: String) {
        self.reporter.send(PlayerEvent::Notice(message));
    }

    fn forward_stderr(&self, item: StderrItem) {
        match item {
            StderrItem::Line(line) => self.trace(LineDirection::Stderr, line),
            StderrItem::LimitReached => self.notice(format!(
                "writes to stderr too fast: beyond {STDERR_LINES_PER_SECOND} lines a second, \
                 lines are counted, not shown"
            )),
            StderrItem::Suppressed(count) => self.notice(format!("{count} stderr lines not shown")),
        }
    }
}

/// A response as it appeared on the wire: `=12 D4`, `? illegal move`.
fn response_line(response: &Response) -> String {
    let status = if response.success { '=' } else { '?' };
    let id = response.id.map(|id| id.to_string()).unwrap_or_default();
    format!("{status}{id} {}", response.text)
}
