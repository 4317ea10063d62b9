//! `goref seat cgos://HOST:PORT`: this machine's program on a CGOS server,
//! the shell around [`goref_core::referee::cgos_seat::CgosSeat`]. It
//! keeps one program across games (started again only when it exits or
//! the operator asks), dials the server and dials again with backoff and
//! jitter when the link drops, writes each game to its own folder under
//! `--dir`, and tells the seat's screen the game as a venue's stream would.
//! `--games N` stops after N games; the first stop signal lets the game in
//! play end, a second stops at once.

mod folder;

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::mpsc;

use crate::seats::client::{dial_wait, jitter, Output, SeatEvent, SeatUi, MAX_BACKOFF};
use crate::shell_time::{now, sleep_until};
use crate::signals::{Received, Signals};
use crate::transport::process::{Process, StderrItem};
use folder::CgosGameFolder;
use goref_core::protocol::cgos::wire::MAX_LINE;
use goref_core::protocol::gtp::codec::ResponseReader;
use goref_core::protocol::seat::{LineSplitter, Right};
use goref_core::referee::cgos_seat::{CgosSeat, SeatLogin, SeatNote};

/// How long dialling may take.
const DIAL_WAIT: Duration = Duration::from_secs(10);
/// How long a server may take to ask for the login once connected.
const LOGIN_WAIT: Duration = Duration::from_secs(30);
/// The most lines of the server's words printed in a second; the rest
/// are counted.
const SAID_PER_SECOND: u32 = 20;
/// The longest line of the server's words printed.
const SAID_CHARS: usize = 300;
/// How often the screen hears the link's round trip.
const ROUND_TRIP_EVERY: Duration = Duration::from_secs(5);

/// What `goref seat cgos://` was told.
#[derive(Debug, Clone)]
pub struct CgosOptions {
    /// `HOST:PORT` of the server.
    pub address: String,
    pub user: String,
    pub password: String,
    pub program: Vec<String>,
    /// Where each game's folder goes.
    pub dir: PathBuf,
    /// Stop after this many games.
    pub games: Option<u32>,
    /// Where the program's stderr goes, beside each game's journal.
    pub log: PathBuf,
}

/// The program the seat keeps.
struct Program {
    process: Process,
    stderr: mpsc::Receiver<StderrItem>,
    reader: ResponseReader,
    /// When the command in flight was written.
    sent_at: Option<tokio::time::Instant>,
}

impl Program {
    fn start(argv: &[String], log: &mut std::fs::File) -> Result<Program, String> {
        let (stderr_tx, stderr) = mpsc::channel(256);
        let process = Process::spawn_bound(argv, stderr_tx).map_err(|e| e.to_string())?;
        let _ = writeln!(log, "--- started: {}", argv.join(" "));
        Ok(Program {
            process,
            stderr,
            reader: ResponseReader::new(),
            sent_at: None,
        })
    }
}

/// The link to the server.
struct Link {
    reader: tokio::net::tcp::OwnedReadHalf,
    writer: tokio::net::tcp::OwnedWriteHalf,
    splitter: LineSplitter,
    fd: std::os::fd::RawFd,
}

/// Why the loop ends.
enum Stop {
    Done(String),
    Failed(String),
}

/// Runs the seat until its games are played, a stop signal's game is
/// over, the operator quits (the screen ends it) or the server refuses it.
pub async fn run(options: CgosOptions, ui: Option<SeatUi>) -> Result<String, String> {
    let mut out = Output { ui };
    let shown = options.dir.display();
    match std::fs::create_dir_all(&options.dir) {
        Ok(()) => {}
        Err(_) if options.dir.exists() && !options.dir.is_dir() => {
            return Err(format!("--dir {shown}: not a folder"))
        }
        Err(e) => return Err(format!("--dir {shown}: {e}")),
    }
    let mut log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&options.log)
        .map_err(|e| format!("{}: {e}", options.log.display()))?;
    let mut signals = Signals::install().map_err(|e| format!("cannot catch signals: {e}"))?;
    let mut program = Program::start(&options.program, &mut log)?;
    let mut seat = CgosSeat::new(SeatLogin {
        user: options.user.clone(),
        password: options.password.clone(),
        client: format!("goref-seat {}", env!("CARGO_PKG_VERSION")),
    });
    out.say(format!(
        "seat: {} on CGOS at {} runs '{}' (stderr to {}; games to {})",
        options.user,
        options.address,
        options.program.join(" "),
        options.log.display(),
        options.dir.display()
    ));
    let mut state = State {
        options: &options,
        folder: None,
        games: 0,
        stop_asked: None,
        logged_in: false,
        said: SaidQuota::default(),
    };
    let mut link: Option<Link> = None;
    let mut redial_at = Some(now());
    let mut login_by = None;
    let mut backoff = Duration::from_secs(1);
    let mut buffer = vec![0u8; 16 * 1024];
    let mut round_trips = tokio::time::interval(ROUND_TRIP_EVERY);
    let stop = loop {
        tokio::select! {
            _ = sleep_until(redial_at), if link.is_none() => {
                redial_at = None;
                match dial(&options.address).await {
                    Ok(dialled) => {
                        link = Some(dialled);
                        login_by = Some(now() + LOGIN_WAIT);
                        out.say(format!("seat: connected to {}; waiting for the server to ask who is there", options.address));
                    }
                    Err(why) => {
                        let wait = dial_wait(backoff, jitter());
                        out.tell(SeatEvent::Lost(why.clone()));
                        out.say(format!("seat: {why}; dialling again in {:.1} s", wait.as_secs_f64()));
                        backoff = (backoff * 2).min(MAX_BACKOFF);
                        redial_at = Some(now() + wait);
                    }
                }
            }
            _ = sleep_until(login_by), if link.is_some() && !state.logged_in => {
                link = None;
                let why = format!("the server asked for no login in {} s", LOGIN_WAIT.as_secs());
                redial_at = Some(state.link_lost(&why, &mut seat, &mut backoff, &out));
            }
            read = read_link(&mut link, &mut buffer) => {
                let Some(current) = link.as_mut() else { continue };
                let lines = match read {
                    Ok(0) => Err("the server closed the connection".to_string()),
                    Ok(n) => current.splitter.feed(&buffer[..n]).map_err(|e| e.to_string()),
                    Err(e) => Err(format!("the connection broke: {e}")),
                };
                match lines {
                    Ok(lines) => {
                        for line in lines {
                            let text = String::from_utf8_lossy(&line);
                            seat.handle_line(now(), text.trim_end_matches(['\r', '\n']));
                        }
                    }
                    Err(why) => {
                        link = None;
                        redial_at = Some(state.link_lost(&why, &mut seat, &mut backoff, &out));
                    }
                }
            }
            output = program.process.read() => {
                match output {
                    Ok(bytes) if !bytes.is_empty() => {
                        program.reader.feed(&bytes);
                        while let Some(response) = program.reader.next() {
                            let think = program.sent_at.take().map_or(Duration::ZERO, |at| at.elapsed());
                            match response {
                                Ok(response) => seat.handle_answer(now(), response.success, &response.text, think),
                                Err(e) => seat.handle_answer(now(), false, &format!("not GTP: {e}"), think),
                            }
                        }
                    }
                    _ => {
                        let status = program.process.shut_down(Duration::from_millis(100)).await;
                        let detail = crate::transport::process::describe_exit(status);
                        out.say(format!("seat: the program exited ({detail}); starting it again"));
                        tokio::time::sleep(Duration::from_millis(500)).await;
                        program = Program::start(&options.program, &mut log)?;
                        seat.handle_program_restarted(&format!("it exited: {detail}"));
                    }
                }
            }
            Some(item) = program.stderr.recv() => {
                if let StderrItem::Line(line) = item {
                    let _ = writeln!(log, "{line}");
                    seat.handle_stderr(&line);
                }
            }
            right = out.next_right() => {
                let Some(right) = right else { continue };
                seat.handle_right(now(), right);
                if right == Right::Restart {
                    program.process.shut_down(Duration::from_millis(200)).await;
                    program = Program::start(&options.program, &mut log)?;
                    seat.handle_program_restarted("the operator asked");
                }
            }
            signal = signals.next() => match signal {
                Received::Hangup => {}
                Received::Stop(name) if state.stop_asked.is_some() || seat.between_games() => {
                    break Stop::Done(format!("stopped by {name}"));
                }
                Received::Stop(name) => {
                    state.stop_asked = Some(name);
                    out.say(format!("seat: {name}: the game in play is finished first; a second one stops at once"));
                }
            },
            _ = round_trips.tick() => {
                if let Some(trip) = link.as_ref().and_then(|l| crate::transport::tcp::round_trip(l.fd)) {
                    out.tell(SeatEvent::RoundTrip(trip));
                }
            }
        }
        if let Some(stop) = state.take_notes(&mut seat, &mut out) {
            let _ = flush(&mut seat, &mut program, &mut link).await;
            break stop;
        }
        if let Err(why) = flush(&mut seat, &mut program, &mut link).await {
            link = None;
            redial_at = Some(state.link_lost(&why, &mut seat, &mut backoff, &out));
        }
    };
    if let Some(folder) = state.folder.take() {
        for trouble in folder.finish() {
            out.say(format!("seat: {trouble}"));
        }
    }
    if let Some(mut link) = link {
        let _ = link.writer.shutdown().await;
    }
    program.process.shut_down(Duration::from_millis(500)).await;
    match stop {
        Stop::Done(text) => Ok(text),
        Stop::Failed(text) => Err(text),
    }
}

/// What the loop keeps beside the machine.
struct State<'a> {
    options: &'a CgosOptions,
    folder: Option<CgosGameFolder>,
    games: u32,
    stop_asked: Option<&'static str>,
    logged_in: bool,
    said: SaidQuota,
}

/// The server's words printed in the current second, and those held back.
#[derive(Default)]
struct SaidQuota {
    second: Option<std::time::Instant>,
    shown: u32,
    hidden: u32,
}

impl SaidQuota {
    /// `text` as it may be printed now, cut to [`SAID_CHARS`]; none past
    /// [`SAID_PER_SECOND`] lines a second, which are counted and told of
    /// once the next second begins.
    fn admit(&mut self, at: std::time::Instant, text: &str) -> Vec<String> {
        let mut lines = Vec::new();
        if self
            .second
            .is_none_or(|second| at >= second + Duration::from_secs(1))
        {
            lines.extend(self.held_back());
            *self = SaidQuota {
                second: Some(at),
                ..SaidQuota::default()
            };
        }
        match self.shown < SAID_PER_SECOND {
            true => {
                self.shown += 1;
                lines.push(text.chars().take(SAID_CHARS).collect());
            }
            false => self.hidden += 1,
        }
        lines
    }

    /// The line telling of the lines held back, once, if any were.
    fn held_back(&mut self) -> Option<String> {
        let hidden = std::mem::take(&mut self.hidden);
        (hidden > 0).then(|| format!("seat: {hidden} more lines of the server's not shown"))
    }
}

impl State<'_> {
    /// The link is gone: the machine and the screen are told, and the
    /// time to dial again is chosen, a second after a session that logged
    /// in (the server tells the game again), longer each time after one
    /// that did not.
    fn link_lost(
        &mut self,
        why: &str,
        seat: &mut CgosSeat,
        backoff: &mut Duration,
        out: &Output,
    ) -> std::time::Instant {
        seat.handle_link_lost(why);
        if let Some(line) = std::mem::take(&mut self.said).held_back() {
            out.say(line);
        }
        let logged_in = std::mem::take(&mut self.logged_in);
        if logged_in {
            *backoff = Duration::from_secs(1);
        }
        let wait = dial_wait(*backoff, jitter());
        if !logged_in {
            *backoff = (*backoff * 2).min(MAX_BACKOFF);
        }
        out.tell(SeatEvent::Lost(why.to_string()));
        out.say(format!(
            "seat: link lost ({why}); dialling again in {:.1} s",
            wait.as_secs_f64()
        ));
        now() + wait
    }

    /// Carries out the machine's notes; why the seat stops, when it does.
    fn take_notes(&mut self, seat: &mut CgosSeat, out: &mut Output) -> Option<Stop> {
        while let Some(note) = seat.poll_note() {
            match note {
                SeatNote::LoggedIn => {
                    self.logged_in = true;
                    out.tell(SeatEvent::Connected {
                        venue: format!("CGOS {}", self.options.address),
                        entrant: self.options.user.clone(),
                    });
                    out.say(format!("seat: login sent as {}", self.options.user));
                }
                SeatNote::GameBegins {
                    game,
                    title,
                    resumed,
                    played,
                } => {
                    if resumed && self.folder.as_ref().is_some_and(|f| f.game == game) {
                        out.say(format!("seat: {title}: told again"));
                        continue;
                    }
                    if let Some(folder) = self.folder.take() {
                        for trouble in folder.finish() {
                            out.say(format!("seat: {trouble}"));
                        }
                    }
                    let at = &self.options.address;
                    let told = (title.as_str(), resumed || played > 0);
                    match CgosGameFolder::create(&self.options.dir, game, told, at, now()) {
                        Ok((folder, aside)) => {
                            if let Some(aside) = aside {
                                let aside = aside.display();
                                out.say(format!("seat: {title}: the folder an earlier run left unfinished is set aside as {aside}"));
                            }
                            out.say(format!("seat: {title} in {}", folder.path().display()));
                            self.folder = Some(folder);
                        }
                        Err(why) => out.say(format!("seat: {title}: no folder: {why}")),
                    }
                    out.tell(SeatEvent::Game(title));
                }
                SeatNote::Event(event) => {
                    let Some(folder) = self.folder.as_mut() else {
                        continue;
                    };
                    if let Some(line) = folder.write(now(), event) {
                        out.tell(SeatEvent::Stream(line));
                    }
                    if let Some(news) = folder.journal_news() {
                        out.say(format!("seat: {news}"));
                    }
                }
                SeatNote::GameEnds { game, result } => {
                    self.games += 1;
                    let path = self.folder.as_ref().map(|f| f.path().display().to_string());
                    if let Some(folder) = self.folder.take() {
                        for trouble in folder.finish() {
                            out.say(format!("seat: {trouble}"));
                        }
                    }
                    out.say(format!(
                        "seat: game {game} is over: {result} (in {})",
                        path.unwrap_or_else(|| "no folder".into())
                    ));
                    if self.options.games.is_some_and(|n| self.games >= n) {
                        let noun = if self.games == 1 { "game" } else { "games" };
                        return Some(Stop::Done(format!("{} {noun} played", self.games)));
                    }
                    if let Some(name) = self.stop_asked {
                        return Some(Stop::Done(format!("stopped by {name} after its game")));
                    }
                }
                SeatNote::Said(text) => {
                    for line in self.said.admit(now(), &format!("seat: {text}")) {
                        out.say(line);
                    }
                }
                SeatNote::Refused(text) => {
                    if !self.logged_in || seat.between_games() {
                        return Some(Stop::Failed(format!(
                            "the CGOS server at {} refused {}: {text}",
                            self.options.address, self.options.user
                        )));
                    }
                    out.say(format!("seat: the server said: Error: {text}"));
                }
            }
        }
        None
    }
}

/// Writes what the machine has for the program and for the server.
async fn flush(
    seat: &mut CgosSeat,
    program: &mut Program,
    link: &mut Option<Link>,
) -> Result<(), String> {
    while let Some(command) = seat.poll_command() {
        program.sent_at = Some(tokio::time::Instant::now());
        let _ = program
            .process
            .write(format!("{command}\n").as_bytes())
            .await;
    }
    let mut written = false;
    while let Some(line) = seat.poll_line() {
        let Some(current) = link.as_mut() else {
            continue;
        };
        written = true;
        let sent = tokio::time::timeout(
            Duration::from_secs(5),
            current.writer.write_all(format!("{line}\n").as_bytes()),
        )
        .await;
        match sent {
            Ok(Ok(())) => {}
            Ok(Err(e)) => return Err(format!("cannot write to the server: {e}")),
            Err(_) => return Err("the server took nothing for 5 s".into()),
        }
    }
    if written {
        if let Some(current) = link.as_mut() {
            let _ = current.writer.flush().await;
        }
    }
    Ok(())
}

async fn read_link(link: &mut Option<Link>, buffer: &mut [u8]) -> std::io::Result<usize> {
    match link {
        Some(link) => link.reader.read(buffer).await,
        None => std::future::pending().await,
    }
}

async fn dial(address: &str) -> Result<Link, String> {
    let stream = match tokio::time::timeout(DIAL_WAIT, TcpStream::connect(address)).await {
        Ok(Ok(stream)) => stream,
        Ok(Err(e)) => return Err(format!("cannot reach {address}: {e}")),
        Err(_) => return Err(format!("no answer from {address} in time")),
    };
    let _ = stream.set_nodelay(true);
    let fd = std::os::fd::AsRawFd::as_raw_fd(&stream);
    let (reader, writer) = stream.into_split();
    Ok(Link {
        reader,
        writer,
        splitter: LineSplitter::bounded(MAX_LINE),
        fd,
    })
}
