//! A program kept across games as a seat of the venue's own: started once
//! on this machine and played through the same [`SeatLink`] a remote seat
//! gives, so that each game's goref reaches it through the runner's relay
//! as it reaches an entrant's `goref seat`. Between games the runner asks
//! it to be ready: a command still in flight (a game's goref that went
//! away mid-move) is answered and dropped, what the program writes beyond
//! its answers is drained, and it must answer `protocol_version` within
//! the time given. A program that exits is said to have exited and is
//! started again at the next readiness asked, never in a loop. Its stderr
//! goes to a log file; its answers are stamped here, with no network. It
//! dies with the thread that started it (a parent-death signal), so a
//! runner or worker killed with -9 leaves no program behind.

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, oneshot, watch};

use super::link::{SeatLink, SeatNews, ToSeat, KEPT_CLIENT};
use crate::shell_time::now;
use crate::transport::process::{describe_exit, Process, StderrItem};
use goref_core::protocol::seat::{ProgramState, Relay, SeatMessage};

/// The command a kept program answers to say it is ready.
const READY_COMMAND: &str = "protocol_version";
/// How long a program asked to stop is given before it is killed.
const STOP_GRACE: Duration = Duration::from_millis(500);

/// How a program kept for its board is told what to do between games.
#[derive(Debug, Clone)]
pub(crate) struct KeptProgram {
    pub(crate) entrant: String,
    orders: mpsc::UnboundedSender<Order>,
    #[cfg(test)]
    starts: Arc<AtomicU32>,
}

enum Order {
    /// Say again that the seat is here, for a relay that takes the link
    /// after another user (the check before the first game) heard it first.
    Announce,
    Ready {
        restart: bool,
        within: Duration,
        done: oneshot::Sender<Result<(), String>>,
    },
    /// The runner is done with it: the program is let go (its stdin
    /// closed, killed after a grace), then `done` is told.
    Stop { done: oneshot::Sender<()> },
}

impl KeptProgram {
    /// Starts `argv` for `entrant` (on the caller's tokio runtime), its
    /// stderr appended to `log`; the link its games play it through.
    pub(crate) fn start(entrant: &str, argv: Vec<String>, log: PathBuf) -> (KeptProgram, SeatLink) {
        let (to_seat, commands) = mpsc::unbounded_channel();
        let (news, news_rx) = mpsc::unbounded_channel();
        let (admitted, admitted_rx) = watch::channel(0);
        let (orders, orders_rx) = mpsc::unbounded_channel();
        let starts = Arc::new(AtomicU32::new(0));
        let keeper = Keeper {
            argv,
            log,
            program: None,
            relay: Relay::new(),
            next_id: 0,
            check: None,
            waiting: std::collections::VecDeque::new(),
            news,
            starts: starts.clone(),
        };
        tokio::spawn(keeper.run(commands, orders_rx, admitted));
        let link = SeatLink::new(entrant.to_string(), to_seat, news_rx, admitted_rx);
        let kept = KeptProgram {
            entrant: entrant.to_string(),
            orders,
            #[cfg(test)]
            starts,
        };
        (kept, link)
    }

    /// Makes the program ready for a game, started again first when
    /// `restart` (its last game ended with it hung or crashed): within
    /// `within` it must have answered what was in flight and
    /// `protocol_version`. Why not, if it is not.
    pub(crate) async fn ready(&self, restart: bool, within: Duration) -> Result<(), String> {
        let (done, answer) = oneshot::channel();
        let order = Order::Ready {
            restart,
            within,
            done,
        };
        self.orders
            .send(order)
            .map_err(|_| "its keeper has stopped".to_string())?;
        answer
            .await
            .unwrap_or_else(|_| Err("its keeper has stopped".into()))
    }

    /// Lets the program go, as `quit` would: its stdin closed, killed
    /// after half a second; returns once it has ended.
    pub(crate) async fn stop(&self) {
        let (done, ended) = oneshot::channel();
        if self.orders.send(Order::Stop { done }).is_ok() {
            let _ = ended.await;
        }
    }

    /// Says again that the seat is here, to whoever reads its link next.
    pub(crate) fn announce(&self) {
        let _ = self.orders.send(Order::Announce);
    }

    /// How many times the program was started.
    #[cfg(test)]
    pub(crate) fn starts(&self) -> u32 {
        self.starts.load(Ordering::Acquire)
    }
}

/// The running program and its stderr.
struct Program {
    process: Process,
    stderr: mpsc::Receiver<StderrItem>,
}

/// A readiness asked: answered once the program answers its command.
struct Check {
    deadline: tokio::time::Instant,
    within: Duration,
    done: oneshot::Sender<Result<(), String>>,
    /// The check's own command, once nothing else is in flight.
    sent: Option<u64>,
}

struct Keeper {
    argv: Vec<String>,
    log: PathBuf,
    program: Option<Program>,
    relay: Relay,
    next_id: u64,
    check: Option<Check>,
    /// Boards' commands that wait for the program's answer to another.
    waiting: std::collections::VecDeque<String>,
    news: mpsc::UnboundedSender<SeatNews>,
    starts: Arc<AtomicU32>,
}

impl Keeper {
    async fn run(
        mut self,
        mut commands: mpsc::UnboundedReceiver<ToSeat>,
        mut orders: mpsc::UnboundedReceiver<Order>,
        admitted: watch::Sender<u64>,
    ) {
        let client = KEPT_CLIENT.to_string();
        admitted.send_modify(|generation| *generation += 1);
        let _ = self.news.send(SeatNews::Admitted { client });
        self.start_program();
        loop {
            let deadline = self.check.as_ref().map(|check| check.deadline);
            let (process, stderr) = match &mut self.program {
                Some(program) => (Some(&mut program.process), Some(&mut program.stderr)),
                None => (None, None),
            };
            tokio::select! {
                command = commands.recv() => match command {
                    Some(ToSeat::Command(line)) => self.command(&line).await,
                    Some(ToSeat::Stream(_) | ToSeat::Info(_)) => {}
                    Some(ToSeat::Goodbye(_)) | None => break,
                },
                order = orders.recv() => match order {
                    Some(Order::Ready { restart, within, done }) => {
                        self.ready(restart, within, done).await;
                    }
                    Some(Order::Stop { done }) => {
                        if let Some(mut program) = self.program.take() {
                            program.process.shut_down(STOP_GRACE).await;
                        }
                        let _ = done.send(());
                        break;
                    }
                    Some(Order::Announce) => {
                        admitted.send_modify(|generation| *generation += 1);
                        let client = KEPT_CLIENT.to_string();
                        let _ = self.news.send(SeatNews::Admitted { client });
                    }
                    None => break,
                },
                output = read(process) => match output {
                    Some(bytes) => self.output(&bytes).await,
                    None => self.exited().await,
                },
                line = stderr_line(stderr) => self.log_line(&line),
                () = expiry(deadline) => {
                    let within = self.check.as_ref().map_or(0.0, |c| c.within.as_secs_f64());
                    self.check_failed(format!(
                        "no answer to {READY_COMMAND} within {within:.1} s"
                    ));
                }
            }
        }
        if let Some(mut program) = self.program.take() {
            program.process.shut_down(STOP_GRACE).await;
        }
    }

    fn start_program(&mut self) {
        let (stderr_tx, stderr) = mpsc::channel(256);
        self.relay = Relay::new();
        self.starts.fetch_add(1, Ordering::AcqRel);
        match Process::spawn_bound(&self.argv, stderr_tx) {
            Ok(process) => {
                self.log_line(&format!("--- started: {}", self.argv.join(" ")));
                self.program = Some(Program { process, stderr });
            }
            Err(why) => {
                self.log_line(&format!("--- not started: {why}"));
                self.program = None;
                let detail = why.to_string();
                let state = ProgramState::Exited;
                let _ = self.news.send(SeatNews::Program { state, detail });
            }
        }
    }

    /// A board's command: sent at once, or once the program has answered
    /// what is in flight and any readiness asked, one at a time.
    async fn command(&mut self, line: &str) {
        if self.program.is_none() {
            return;
        }
        self.waiting.push_back(line.to_string());
        self.send_next().await;
    }

    /// Sends what comes next while nothing is in flight: the readiness
    /// check's command first, then the boards' commands in order.
    async fn send_next(&mut self) {
        if self.relay.is_waiting() || self.program.is_none() {
            return;
        }
        match &self.check {
            Some(check) if check.sent.is_none() => {
                let id = self.send(READY_COMMAND).await;
                if let Some(check) = &mut self.check {
                    check.sent = Some(id);
                }
            }
            Some(_) => {}
            None => {
                if let Some(line) = self.waiting.pop_front() {
                    self.send(&line).await;
                }
            }
        }
    }

    async fn send(&mut self, line: &str) -> u64 {
        self.next_id += 1;
        let id = self.next_id;
        let bytes = self.relay.command(now(), id, line);
        if let Some(program) = &mut self.program {
            // A program gone: its end of file is read next.
            let _ = program.process.write(&bytes).await;
        }
        id
    }

    async fn ready(
        &mut self,
        restart: bool,
        within: Duration,
        done: oneshot::Sender<Result<(), String>>,
    ) {
        if let Some(older) = self.check.take() {
            let _ = older.done.send(Err("asked again".into()));
        }
        if restart || self.program.is_none() {
            self.waiting.clear();
            if let Some(mut program) = self.program.take() {
                program.process.shut_down(STOP_GRACE / 2).await;
                self.log_line("--- stopped to be started again");
            }
            self.start_program();
            if self.program.is_some() {
                let detail = self.argv.join(" ");
                let state = ProgramState::Started;
                let _ = self.news.send(SeatNews::Program { state, detail });
            }
        }
        if self.program.is_none() {
            let _ = done.send(Err("it could not be started".into()));
            return;
        }
        self.check = Some(Check {
            deadline: tokio::time::Instant::now() + within,
            within,
            done,
            sent: None,
        });
        self.send_next().await;
    }

    async fn output(&mut self, bytes: &[u8]) {
        for message in self.relay.program_output(now(), bytes) {
            match message {
                SeatMessage::Answer { id, text, think_ms } => {
                    let asked = self.check.as_ref().and_then(|check| check.sent);
                    if asked == Some(id) {
                        self.check_passed(&text);
                        continue;
                    }
                    let think = Duration::from_millis(think_ms);
                    let answer = SeatNews::Answer {
                        text,
                        think,
                        venue_measure: think,
                    };
                    let _ = self.news.send(answer);
                }
                SeatMessage::Output { text } if self.check.is_some() => {
                    self.log_line(&format!("--- drained: {}", text.trim_end()));
                }
                SeatMessage::Output { text } => drop(self.news.send(SeatNews::Output(text))),
                _ => {}
            }
        }
        self.send_next().await;
    }

    fn check_passed(&mut self, text: &str) {
        let Some(check) = self.check.take() else {
            return;
        };
        let result = match text.trim_start().starts_with('=') {
            true => Ok(()),
            false => Err(format!(
                "it answered {READY_COMMAND} with {:?}",
                text.trim()
            )),
        };
        let _ = check.done.send(result);
    }

    fn check_failed(&mut self, why: String) {
        if let Some(check) = self.check.take() {
            self.log_line(&format!("--- not ready: {why}"));
            let _ = check.done.send(Err(why));
        }
    }

    async fn exited(&mut self) {
        let Some(mut program) = self.program.take() else {
            return;
        };
        let detail = describe_exit(program.process.shut_down(STOP_GRACE / 5).await);
        while let Ok(StderrItem::Line(line)) = program.stderr.try_recv() {
            self.log_line(&line);
        }
        self.log_line(&format!("--- exited: {detail}"));
        if let Some(SeatMessage::Output { text }) = self.relay.program_gone() {
            let _ = self.news.send(SeatNews::Output(text));
        }
        self.waiting.clear();
        self.check_failed(format!("it exited ({detail})"));
        let state = ProgramState::Exited;
        let _ = self.news.send(SeatNews::Program { state, detail });
    }

    fn log_line(&self, line: &str) {
        let written = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log)
            .and_then(|mut log| writeln!(log, "{line}"));
        if let Err(e) = written {
            tracing::warn!("cannot write {}: {e}", self.log.display());
        }
    }
}

async fn read(process: Option<&mut Process>) -> Option<Vec<u8>> {
    match process {
        Some(process) => match process.read().await {
            Ok(bytes) if !bytes.is_empty() => Some(bytes),
            _ => None,
        },
        None => std::future::pending().await,
    }
}

async fn stderr_line(stderr: Option<&mut mpsc::Receiver<StderrItem>>) -> String {
    let Some(stderr) = stderr else {
        return std::future::pending().await;
    };
    loop {
        match stderr.recv().await {
            Some(StderrItem::Line(line)) => return line,
            Some(_) => {}
            None => return std::future::pending().await,
        }
    }
}

async fn expiry(deadline: Option<tokio::time::Instant>) {
    match deadline {
        Some(deadline) => tokio::time::sleep_until(deadline).await,
        None => std::future::pending().await,
    }
}

#[cfg(test)]
mod tests;
