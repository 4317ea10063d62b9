//! The Usenix player: a program on stdin and stdout, spoken to in the 1987
//! Usenix referee's line protocol ([`goref_core::protocol::usenix`]).
//!
//! The program runs with the command line as given: goref adds no
//! arguments, as the 1987 referee ran programs with argc = 1. It is told its
//! colour (`white` at once, `black` when Black is first asked to move), each
//! opponent move, and `byo-romi` when the referee says its main CPU time is
//! used up. What it writes is read line by line; its moves are taken in the
//! order written, as the 1987 referee read them from its pipe, so a move
//! written early is its next move.
//!
//! While it is to move, its user CPU time is read from `/proc` every second:
//! the referee is told the CPU used so far (a CPU-time clock flags at once,
//! not when the move comes), and a program whose CPU time has not grown for
//! the idle limit is stuck and forfeits. A program that starts another
//! process is reported, and under the Usenix rules forfeits. At the end its
//! stdin is closed, and it and its process group are stopped.

use std::collections::{BTreeSet, VecDeque};
use std::time::{Duration, Instant};

use tokio::sync::mpsc;

use crate::shell_time::now;
use crate::transport::process::{Process, StderrItem};
use goref_core::game::rules::ForkRule;
use goref_core::game::{Color, Move};
use goref_core::protocol::usenix::{self, LineSplitter, Reading, BYO_ROMI};
use goref_core::referee::{Action, Failure, LineDirection, PlayerEvent, PlayerInfo};

use super::{CpuWatch, PlayerSetup, Reporter};

/// How often the program's CPU time and offspring are looked at.
const WATCH_EVERY: Duration = Duration::from_secs(1);
/// A move also has the offspring looked at, when the last look at a move is
/// this old: a fast game is looked at more often than once a second. The
/// once-a-second looks do not count, so the program's first move is always
/// looked at, however soon after a tick it comes.
const OFFSPRING_LOOK_AT_A_MOVE: Duration = Duration::from_millis(250);
/// How many lines that are not moves are shown between two moves taken; more are
/// counted, not shown, so a program that writes garbage in a loop cannot
/// fill the journal.
const IGNORED_LINES_SHOWN: u64 = 200;
/// A program that writes this many lines that are not moves between two of
/// its moves taken has lost its way in a loop (as the idle rule's `for (;;)
/// read(0, ...)` has), and forfeits: goref would otherwise spend a core
/// reading them for as long as the game lasts.
const IGNORED_LINES_LIMIT: u64 = 100_000;
/// A program that has written this many moves it was not yet asked for
/// writes in a loop, and forfeits: GREF would have played them one a turn,
/// but a program that knows the game is never more than one ahead.
const MOVES_AHEAD_LIMIT: usize = 20;
/// How long a program may take to exit once its stdin is closed at the end
/// (the 1987 referee's "pregnant pause" was 3 s).
const GOODBYE_GRACE: Duration = Duration::from_secs(3);

/// A move the program wrote, not yet taken as its answer.
struct Written {
    mv: Move,
    line: String,
    at: Instant,
}

/// The turn the program is on.
struct Turn {
    /// Its user CPU time since the turn began (just before the line that
    /// gave it the turn was written), when it can be read.
    cpu: Option<CpuWatch>,
    started: Instant,
}

struct UsenixPlayer {
    color: Color,
    process: Process,
    stderr: mpsc::Receiver<StderrItem>,
    actions: mpsc::UnboundedReceiver<Action>,
    reporter: Reporter,
    setup: PlayerSetup,
    splitter: LineSplitter,
    written: VecDeque<Written>,
    colour_sent: bool,
    /// The CPU time read just before the last line that may hand the
    /// program its turn: the start of that turn.
    cpu_mark: Option<Duration>,
    turn: Option<Turn>,
    /// The offspring already reported, by PID, and when goref last looked
    /// at them on a move (never yet: the program's first move is looked at).
    offspring_seen: BTreeSet<u32>,
    offspring_looked_at_move: Option<Instant>,
    /// Whether the referee has told the program anything of the game yet.
    /// Its offspring are looked at only from then on, so that a program
    /// that forks at start forfeits a game that has begun, however fast its
    /// opponent was ready, rather than leaving no game.
    under_way: bool,
    /// Lines that were not moves since the last move taken (the first
    /// [`IGNORED_LINES_SHOWN`] are shown), and those not shown that the
    /// trace has yet to count.
    ignored: u64,
    ignored_hidden: u64,
}

/// Why the adapter stops serving its program before the game is over.
type Stop = Failure;

/// Runs one Usenix program for the whole game.
pub async fn run(
    command_line: String,
    spec: String,
    setup: PlayerSetup,
    actions: mpsc::UnboundedReceiver<Action>,
    reporter: Reporter,
) {
    let color = setup.color;
    if !setup.handicap.is_empty() {
        let why = format!("{color}: the Usenix protocol cannot tell a program handicap stones");
        return reporter.send(PlayerEvent::Failed(Failure::other(why)));
    }
    let (process, stderr) = match super::start_program(color, &command_line) {
        Ok(started) => started,
        Err(failure) => return reporter.send(PlayerEvent::Failed(failure)),
    };
    let mut player = UsenixPlayer {
        color,
        process,
        stderr,
        actions,
        reporter,
        setup,
        splitter: LineSplitter::default(),
        written: VecDeque::new(),
        colour_sent: false,
        cpu_mark: None,
        turn: None,
        offspring_seen: BTreeSet::new(),
        offspring_looked_at_move: None,
        under_way: false,
        ignored: 0,
        ignored_hidden: 0,
    };
    let outcome = player.play(spec).await;
    let grace = match (&outcome, &player.turn) {
        (Ok(()), None) => GOODBYE_GRACE,
        (Ok(()), Some(_)) => Duration::ZERO,
        (Err(_), _) => Duration::from_millis(100),
    };
    player.process.shut_down(grace).await;
    player.drain_stderr().await;
    if let Err(failure) = outcome {
        player.reporter.send(PlayerEvent::Failed(failure));
    }
}

impl UsenixPlayer {
    async fn play(&mut self, spec: String) -> Result<(), Stop> {
        let program = std::path::Path::new(&self.process.program)
            .file_name()
            .map(|name| name.to_string_lossy().into_owned());
        self.reporter.send(PlayerEvent::Ready(PlayerInfo {
            protocol: "usenix".into(),
            spec,
            name: program.unwrap_or_default(),
            version: String::new(),
            kgs_end_protocol: false,
            claims_dead_stones: false,
            stops_at_double_pass: true,
        }));
        if self.setup.size != 19 {
            self.info(format!(
                "a Usenix program is not told the board size: it must be set for {0}x{0} itself",
                self.setup.size
            ));
        }
        if !self.setup.position.is_empty() {
            self.reporter.send(PlayerEvent::LostPosition(format!(
                "{}: a Usenix program cannot be told the moves of a game taken back",
                self.color
            )));
        }
        if self.color == Color::White {
            self.send_colour().await?;
        }
        self.serve().await
    }

    async fn serve(&mut self) -> Result<(), Stop> {
        let mut watch = tokio::time::interval(WATCH_EVERY);
        watch.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                action = self.actions.recv() => match self.on_game_action(action)? {
                    Some(Action::RequestMove { .. }) => self.begin_turn().await?,
                    Some(Action::TellMove { mv, .. }) => {
                        self.mark_cpu();
                        self.send(&usenix::move_line(mv)).await?;
                    }
                    Some(Action::MainTimeUsed { .. }) => self.send(BYO_ROMI).await?,
                    Some(Action::RequestDeadStones { .. }) => {
                        self.reporter.send(PlayerEvent::DeadStonesUnavailable(
                            "a Usenix program cannot name dead stones: the judge marks them".into(),
                        ))
                    }
                    Some(Action::GameOver { .. }) | None => return Ok(()),
                },
                chunk = self.process.read() => self.on_output(chunk).await?,
                Some(item) = self.stderr.recv() => self.forward_stderr(item),
                _ = watch.tick() => self.watch()?,
            }
        }
    }

    /// An action from the referee, once the program's offspring have been
    /// looked at if it is the first of the game.
    fn on_game_action(&mut self, action: Option<Action>) -> Result<Option<Action>, Stop> {
        let of_the_game = matches!(
            action,
            Some(Action::RequestMove { .. } | Action::TellMove { .. })
        );
        if of_the_game && !self.under_way {
            self.under_way = true;
            self.watch_offspring()?;
        }
        Ok(action)
    }

    /// The referee asks for a move: Black's first request is its colour line.
    async fn begin_turn(&mut self) -> Result<(), Stop> {
        if !self.colour_sent {
            self.send_colour().await?;
        }
        let at = now();
        self.turn = Some(Turn {
            cpu: self.cpu_mark.map(|start| CpuWatch::new(start, at)),
            started: at,
        });
        self.reporter.send(PlayerEvent::Thinking);
        self.answer();
        Ok(())
    }

    async fn send_colour(&mut self) -> Result<(), Stop> {
        self.colour_sent = true;
        self.mark_cpu();
        self.send(usenix::colour_line(self.color)).await
    }

    /// Notes the program's CPU time just before a line that may hand it
    /// its turn, as the 1987 referee did.
    fn mark_cpu(&mut self) {
        self.cpu_mark = self.process.user_cpu_time();
    }

    async fn send(&mut self, line: &str) -> Result<(), Stop> {
        self.trace(LineDirection::Sent, line.to_string(), None);
        let bytes = format!("{line}\n");
        let who = self.who();
        super::write_line(&mut self.process, bytes.as_bytes(), &who, line).await
    }

    async fn on_output(&mut self, chunk: std::io::Result<Vec<u8>>) -> Result<(), Stop> {
        let bytes = match chunk {
            Ok(bytes) if !bytes.is_empty() => bytes,
            _ => {
                if let Some(line) = self.splitter.finish() {
                    self.on_line(line)?;
                }
                let who = self.who();
                return Err(super::gone(&mut self.process, |how| format!("{who} {how}")).await);
            }
        };
        for line in self.splitter.push(&bytes) {
            self.on_line(line)?;
        }
        if self.under_way
            && !self.written.is_empty()
            && self
                .offspring_looked_at_move
                .is_none_or(|at| now().saturating_duration_since(at) >= OFFSPRING_LOOK_AT_A_MOVE)
        {
            self.offspring_looked_at_move = Some(now());
            self.watch_offspring()?;
        }
        self.answer();
        Ok(())
    }

    /// One line from the program: traced, and kept when it is a move.
    fn on_line(&mut self, line: String) -> Result<(), Stop> {
        let read = usenix::read_line(&line);
        let mv = match read.reading {
            Reading::Move(mv) => Some(mv),
            Reading::Resign => Some(Move::Resign),
            Reading::Empty | Reading::Garbage => None,
        };
        match mv {
            Some(mv) => {
                self.written.push_back(Written {
                    mv,
                    line: line.clone(),
                    at: now(),
                });
                self.tell_hidden();
                if self.written.len() > MOVES_AHEAD_LIMIT {
                    self.trace(LineDirection::Received, line, read.note);
                    return Err(Failure::garbage(format!(
                        "{} wrote {} moves before it was asked for them: it has lost its way",
                        self.who(),
                        self.written.len()
                    )));
                }
            }
            None => {
                self.ignored += 1;
                if self.ignored >= IGNORED_LINES_LIMIT {
                    self.ignored_hidden += 1;
                    self.tell_hidden();
                    return Err(Failure::garbage(format!(
                        "{} wrote {IGNORED_LINES_LIMIT} lines that are not moves without a move \
                         between them: it has lost its way",
                        self.who()
                    )));
                }
                if self.ignored > IGNORED_LINES_SHOWN {
                    self.ignored_hidden += 1;
                    return Ok(());
                }
            }
        }
        self.trace(LineDirection::Received, line, read.note);
        Ok(())
    }

    /// Counts in the trace the ignored lines that were not shown.
    fn tell_hidden(&mut self) {
        if self.ignored_hidden > 0 {
            let hidden = std::mem::take(&mut self.ignored_hidden);
            self.trace(
                LineDirection::Received,
                format!("[goref: {hidden} more lines that are not moves, ignored and not shown]"),
                None,
            );
        }
    }

    /// Takes the program's next written move as its answer, if it is to move.
    fn answer(&mut self) {
        let Some(turn) = &self.turn else { return };
        let Some(written) = self.written.pop_front() else {
            return;
        };
        if written.at < turn.started {
            self.info(format!(
                "{} wrote '{}' before it was its turn; it is read as its next move, as the \
                 1987 referee read its pipe",
                self.color,
                written.line.trim_end()
            ));
        }
        let start = turn.cpu.as_ref().map(CpuWatch::at_start);
        if let (Some(start), Some(end)) = (start, self.process.user_cpu_time()) {
            self.reporter
                .send(PlayerEvent::CpuTime(end.saturating_sub(start)));
        }
        self.turn = None;
        self.ignored = 0;
        self.reporter.send(PlayerEvent::Moved(written.mv));
    }

    /// Once a second: the CPU time of a program to move, and any process it
    /// started.
    fn watch(&mut self) -> Result<(), Stop> {
        self.tell_hidden();
        self.watch_offspring()?;
        let who = self.who();
        let Some(Turn {
            cpu: Some(watch), ..
        }) = &mut self.turn
        else {
            return Ok(());
        };
        let Some(cpu) = self.process.user_cpu_time() else {
            return Ok(());
        };
        if let Some(event) = watch.observe(cpu, now(), &self.setup.rules, &who)? {
            self.reporter.send(event);
        }
        Ok(())
    }

    /// Any process the program started, once the game is under way.
    fn watch_offspring(&mut self) -> Result<(), Stop> {
        if !self.under_way {
            return Ok(());
        }
        let fresh: Vec<(u32, String)> = self
            .process
            .offspring()
            .into_iter()
            .filter(|(pid, _)| !self.offspring_seen.contains(pid))
            .collect();
        let Some((pid, name)) = fresh.first() else {
            return Ok(());
        };
        self.offspring_seen
            .extend(fresh.iter().map(|(pid, _)| *pid));
        let what = format!(
            "{} started another process ({name}, pid {pid}): a Usenix program must be one \
             process",
            self.who()
        );
        match self.setup.rules.forks {
            ForkRule::Forfeit => Err(Failure::forked(what)),
            ForkRule::Report => {
                self.reporter.send(PlayerEvent::Notice(what));
                Ok(())
            }
        }
    }

    /// Passes on what the program wrote to stderr before it exited.
    async fn drain_stderr(&mut self) {
        for item in super::drain_stderr(&mut self.stderr).await {
            self.forward_stderr(item);
        }
    }

    fn forward_stderr(&mut self, item: StderrItem) {
        match item {
            StderrItem::Line(line) => self.trace(LineDirection::Stderr, line, None),
            StderrItem::FloodStarted => self
                .reporter
                .send(PlayerEvent::Notice(super::stderr_flood_notice())),
            StderrItem::Suppressed { lines, bytes } => self.trace(
                LineDirection::Stderr,
                super::stderr_left_out(lines, bytes),
                None,
            ),
        }
    }

    fn trace(&self, direction: LineDirection, line: String, note: Option<String>) {
        self.reporter.send(PlayerEvent::UsenixLine {
            direction,
            line,
            note,
        });
    }

    fn info(&self, message: String) {
        self.reporter.send(PlayerEvent::Info(message));
    }

    fn who(&self) -> String {
        format!("{}'s program ({})", self.color, self.process.program)
    }
}
