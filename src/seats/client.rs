//! `goref seat`: the entrant's side. Runs the program here, dials the venue
//! over TLS with the venue's certificate pinned, and relays the venue's
//! GTP commands to the program and its answers back, stamped. It stays
//! connected between games and comes back by itself, with backoff and
//! jitter, when the link drops. The program's stderr goes to a log beside
//! the seat, never to the venue.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use rustls::pki_types::ServerName;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio_rustls::TlsConnector;

use super::venue::send;
use crate::console;
use crate::shell_time::now;
use crate::transport::process::{Process, StderrItem};
use crate::transport::tls::pinned_client_config;
use goref_core::protocol::seat::{
    decode, is_move_request, LineSplitter, ProgramState, Relay, Right, SeatMessage, VenueMessage,
    LOST_AFTER, PROTOCOL_VERSION,
};

/// How long dialling and the TLS handshake may take.
const DIAL_WAIT: Duration = Duration::from_secs(10);
/// The longest wait between two attempts to reach the venue.
pub(crate) const MAX_BACKOFF: Duration = Duration::from_secs(30);

/// What `goref seat` was told.
#[derive(Debug, Clone)]
pub struct SeatOptions {
    /// `HOST:PORT` of the venue.
    pub address: String,
    pub entrant: String,
    pub token: String,
    pub pin: String,
    /// The program and its arguments.
    pub program: Vec<String>,
    /// Where the program's stderr goes.
    pub log: PathBuf,
}

/// What the seat tells its screen, when it has one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SeatEvent {
    Connected {
        venue: String,
        entrant: String,
    },
    Lost(String),
    RoundTrip(Duration),
    /// A line of the stream of the game the entrant plays.
    Stream(String),
    /// The game the entrant plays now: round, board, colour, opponent.
    Game(String),
    /// A line worth showing the operator.
    Said(String),
}

/// The seat's screen: where its news go, and the operator's rights come
/// from. Without one, the seat prints its news as lines.
pub struct SeatUi {
    pub events: mpsc::UnboundedSender<SeatEvent>,
    pub rights: mpsc::UnboundedReceiver<Right>,
}

/// Where a seat's news go: its screen, or stdout.
pub(crate) struct Output {
    pub(crate) ui: Option<SeatUi>,
}

impl Output {
    pub(crate) fn say(&self, text: String) {
        match &self.ui {
            Some(ui) => drop(ui.events.send(SeatEvent::Said(text))),
            None => drop(console::out(text)),
        }
    }

    pub(crate) fn tell(&self, event: SeatEvent) {
        if let Some(ui) = &self.ui {
            let _ = ui.events.send(event);
        }
    }

    pub(crate) async fn next_right(&mut self) -> Option<Right> {
        match &mut self.ui {
            Some(ui) => ui.rights.recv().await,
            None => std::future::pending().await,
        }
    }
}

/// Why the seat stops for good.
#[derive(Debug)]
enum Session {
    /// The link dropped: dial again.
    Dropped(String),
    /// The venue will not have this seat, or it is not the pinned venue.
    Refused(String),
    /// The venue has no more games for the seat (the event is over).
    Goodbye(String),
}

/// Runs the seat until the venue says goodbye (its words are returned) or
/// refuses it; a dropped link is dialled again.
pub async fn run(options: SeatOptions, ui: Option<SeatUi>) -> Result<String, String> {
    crate::signals::ignore_hangup();
    let mut out = Output { ui };
    let config = pinned_client_config(&options.pin).map_err(|e| e.to_string())?;
    let connector = TlsConnector::from(config);
    let (host, _) = options
        .address
        .rsplit_once(':')
        .ok_or_else(|| format!("'{}' is not HOST:PORT", options.address))?;
    let server_name = ServerName::try_from(host.trim_matches(['[', ']']).to_string())
        .map_err(|_| format!("'{host}' is not a host name"))?;
    let mut log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&options.log)
        .map_err(|e| format!("{}: {e}", options.log.display()))?;
    let mut program = Program::start(&options.program, &mut log)?;
    out.say(format!(
        "seat: {} runs '{}' (stderr to {})",
        options.entrant,
        options.program.join(" "),
        options.log.display()
    ));
    let mut backoff = Duration::from_secs(1);
    loop {
        let session = session(
            &options,
            &connector,
            &server_name,
            &mut program,
            &mut log,
            &mut out,
        )
        .await;
        match session {
            Session::Refused(why) => return Err(why),
            Session::Goodbye(reason) => {
                program.process.shut_down(Duration::from_millis(500)).await;
                return Ok(format!("the venue said goodbye: {reason}"));
            }
            Session::Dropped(why) => {
                out.tell(SeatEvent::Lost(why.clone()));
                let wait = dial_wait(backoff, jitter());
                out.say(format!(
                    "seat: link lost ({why}); dialling again in {:.1} s",
                    wait.as_secs_f64()
                ));
                tokio::time::sleep(wait).await;
                backoff = (backoff * 2).min(MAX_BACKOFF);
                if program.admitted_once {
                    backoff = Duration::from_secs(1);
                    program.admitted_once = false;
                }
            }
        }
    }
}

/// One connection to the venue, from dialling to its end.
async fn session(
    options: &SeatOptions,
    connector: &TlsConnector,
    server_name: &ServerName<'static>,
    program: &mut Program,
    log: &mut std::fs::File,
    out: &mut Output,
) -> Session {
    let dial = async {
        let tcp = TcpStream::connect(&options.address)
            .await
            .map_err(|e| Session::Dropped(format!("cannot reach {}: {e}", options.address)))?;
        let _ = tcp.set_nodelay(true);
        connector
            .connect(server_name.clone(), tcp)
            .await
            .map_err(|e| match e.to_string() {
                why if why.contains("pinned") => Session::Refused(format!(
                    "{} is not the venue pinned: {why}",
                    options.address
                )),
                why => Session::Dropped(format!("TLS: {why}")),
            })
    };
    let tls = match tokio::time::timeout(DIAL_WAIT, dial).await {
        Ok(Ok(tls)) => tls,
        Ok(Err(session)) => return session,
        Err(_) => return Session::Dropped(format!("no answer from {} in time", options.address)),
    };
    let (mut reader, mut writer) = tokio::io::split(tls);
    let hello = SeatMessage::Hello {
        protocol: PROTOCOL_VERSION,
        entrant: options.entrant.clone(),
        token: options.token.clone(),
        client: format!("goref-seat {}", env!("CARGO_PKG_VERSION")),
    };
    if let Err(why) = send(&mut writer, &hello).await {
        return Session::Dropped(why);
    }
    let mut splitter = LineSplitter::default();
    let mut buffer = vec![0u8; 16 * 1024];
    let mut stale = program.relay.is_waiting();
    let mut held: std::collections::VecDeque<(u64, String)> = std::collections::VecDeque::new();
    let mut move_requests = std::collections::HashSet::new();
    let mut stderr_asked = false;
    loop {
        let silence = tokio::time::sleep(LOST_AFTER);
        let lines = tokio::select! {
            read = reader.read(&mut buffer) => match read {
                Ok(0) => return Session::Dropped("the venue closed the connection".into()),
                Ok(n) => match splitter.feed(&buffer[..n]) {
                    Ok(lines) => lines,
                    Err(e) => return Session::Dropped(e.to_string()),
                },
                Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
                    return Session::Dropped("the venue's connection ended without a goodbye".into())
                }
                Err(e) => return Session::Dropped(format!("the connection broke: {e}")),
            },
            output = program.process.read() => {
                let bytes = match output {
                    Ok(bytes) if !bytes.is_empty() => bytes,
                    _ => {
                        let detail = program.exited().await;
                        out.say(format!("seat: the program exited ({detail}); starting it again"));
                        let mut messages: Vec<SeatMessage> = program.relay.program_gone().into_iter().collect();
                        if std::mem::take(&mut stale) {
                            messages.clear();
                            held.clear();
                        }
                        messages.push(SeatMessage::Program { state: ProgramState::Exited, detail });
                        match Program::start(&options.program, log) {
                            Ok(started) => {
                                let unsent_stderr = std::mem::take(&mut program.unsent_stderr);
                                *program = Program { admitted_once: program.admitted_once, unsent_stderr, ..started };
                                messages.push(SeatMessage::Program {
                                    state: ProgramState::Started,
                                    detail: options.program.join(" "),
                                });
                            }
                            Err(why) => return Session::Refused(why),
                        }
                        for message in messages {
                            if let Err(why) = send(&mut writer, &message).await {
                                return Session::Dropped(why);
                            }
                        }
                        continue;
                    }
                };
                for message in program.relay.program_output(now(), &bytes) {
                    if stale {
                        if let SeatMessage::Answer { .. } = message {
                            stale = false;
                            for (id, line) in held.drain(..) {
                                let bytes = program.relay.command(now(), id, &line);
                                let _ = program.process.write(&bytes).await;
                            }
                        }
                        continue;
                    }
                    if let SeatMessage::Answer { id, think_ms, text } = &message {
                        if move_requests.remove(id) {
                            let answer = text.split_whitespace().nth(1).unwrap_or("");
                            let _ = writeln!(log, "--- move {answer} in {think_ms} ms");
                        }
                    }
                    if let Err(why) = send(&mut writer, &message).await {
                        return Session::Dropped(why);
                    }
                }
                continue;
            }
            Some(item) = program.stderr.recv() => {
                if let StderrItem::Line(line) = item {
                    let _ = writeln!(log, "{line}");
                    if !stderr_asked {
                        if program.unsent_stderr.len() == UNSENT_STDERR {
                            program.unsent_stderr.pop_front();
                        }
                        program.unsent_stderr.push_back(line);
                        continue;
                    }
                    for message in program.relay.stderr_line(now(), &line) {
                        if let Err(why) = send(&mut writer, &message).await {
                            return Session::Dropped(why);
                        }
                    }
                }
                continue;
            }
            _ = silence => return Session::Dropped(format!("the venue was silent for {} s", LOST_AFTER.as_secs())),
            right = out.next_right() => {
                let Some(right) = right else { continue };
                let what = match right {
                    Right::Resign => "the program is to resign",
                    Right::Restart => "the program is started again",
                };
                out.say(format!("seat: the operator's right: {what}"));
                if let Err(why) = send(&mut writer, &SeatMessage::Operator { right }).await {
                    return Session::Dropped(why);
                }
                if right == Right::Restart {
                    program.process.shut_down(Duration::from_millis(200)).await;
                }
                continue;
            }
        };
        for line in lines {
            let message = match decode::<VenueMessage>(&line) {
                Ok(message) => message,
                Err(e) => return Session::Dropped(format!("the venue broke the protocol: {e}")),
            };
            match message {
                VenueMessage::Welcome {
                    entrant,
                    venue,
                    stderr,
                    ..
                } => {
                    program.admitted_once = true;
                    stderr_asked = stderr;
                    let sent = match stderr {
                        true => "; the venue asks for the program's stderr, which it is sent",
                        false => "",
                    };
                    out.say(format!(
                        "seat: connected to {venue} at {} as {entrant}{sent}",
                        options.address
                    ));
                    let unsent: Vec<String> = match stderr {
                        true => program.unsent_stderr.drain(..).collect(),
                        false => Vec::new(),
                    };
                    for line in unsent {
                        for message in program.relay.stderr_line(now(), &line) {
                            if let Err(why) = send(&mut writer, &message).await {
                                return Session::Dropped(why);
                            }
                        }
                    }
                    out.tell(SeatEvent::Connected { venue, entrant });
                }
                VenueMessage::Refused { reason } => {
                    if reason.contains("replaced") {
                        return Session::Refused(format!(
                            "another seat for {} took this one's place: {reason}",
                            options.entrant
                        ));
                    }
                    return Session::Refused(format!("the venue refused the seat: {reason}"));
                }
                VenueMessage::Ping { n, rtt_ms } => {
                    if let Some(ms) = rtt_ms {
                        out.tell(SeatEvent::RoundTrip(Duration::from_millis(ms)));
                    }
                    if let Err(why) = send(&mut writer, &SeatMessage::Pong { n }).await {
                        return Session::Dropped(why);
                    }
                }
                VenueMessage::Command { id, line } => {
                    if is_move_request(&line) {
                        if out.ui.is_none() {
                            console::out(format!("seat: {line}"));
                        }
                        move_requests.insert(id);
                    }
                    if stale {
                        held.push_back((id, line));
                        continue;
                    }
                    let bytes = program.relay.command(now(), id, &line);
                    if program.process.write(&bytes).await.is_err() {
                        // The program is gone; its end of file is read next.
                    }
                }
                VenueMessage::Restart => {
                    program.process.shut_down(Duration::from_millis(200)).await;
                }
                VenueMessage::Info { text } => match out.ui.is_some() {
                    true => out.tell(SeatEvent::Game(text)),
                    false => out.say(format!("seat: {text}")),
                },
                VenueMessage::Stream { line } => out.tell(SeatEvent::Stream(line)),
                VenueMessage::Goodbye { reason } => return Session::Goodbye(reason),
            }
        }
        let _ = writer.flush().await;
    }
}

/// The program this seat runs.
struct Program {
    process: Process,
    stderr: mpsc::Receiver<StderrItem>,
    admitted_once: bool,
    /// Its last stderr lines while no venue asked for them (its start-up,
    /// mostly), sent once one does.
    unsent_stderr: std::collections::VecDeque<String>,
    /// Its relay between sessions: a command still in flight when a link
    /// dropped has its answer read and dropped before the next link's
    /// commands reach the program, so that no answer crosses over.
    relay: Relay,
}

/// The most stderr lines a seat keeps for a venue that will ask for them.
const UNSENT_STDERR: usize = 100;

impl Program {
    fn start(argv: &[String], log: &mut std::fs::File) -> Result<Program, String> {
        let (stderr_tx, stderr) = mpsc::channel(256);
        let process = Process::spawn_bound(argv, stderr_tx).map_err(|e| e.to_string())?;
        let _ = writeln!(log, "--- started: {}", argv.join(" "));
        Ok(Program {
            process,
            stderr,
            admitted_once: false,
            unsent_stderr: std::collections::VecDeque::new(),
            relay: Relay::new(),
        })
    }

    async fn exited(&mut self) -> String {
        let status = self.process.shut_down(Duration::from_millis(100)).await;
        crate::transport::process::describe_exit(status)
    }
}

/// A random fraction from 0 to 1, so that seats cut off together do not
/// all dial back at once.
pub(crate) fn jitter() -> f64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    f64::from(nanos % 1000) / 1000.0
}

/// The wait before dialling again: the backoff and up to half of it again
/// at random, never past [`MAX_BACKOFF`].
pub(crate) fn dial_wait(backoff: Duration, jitter: f64) -> Duration {
    (backoff + backoff.mul_f64(jitter.clamp(0.0, 1.0) / 2.0)).min(MAX_BACKOFF)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_before_dialling_again_never_passes_thirty_seconds() {
        let mut backoff = Duration::from_secs(1);
        let mut waits = Vec::new();
        for _ in 0..8 {
            waits.push(dial_wait(backoff, 0.99).as_secs_f64());
            backoff = (backoff * 2).min(MAX_BACKOFF);
        }
        assert!(waits.iter().all(|w| *w <= 30.0), "{waits:?}");
        assert_eq!(waits.last(), Some(&30.0));
        assert_eq!(
            dial_wait(Duration::from_secs(4), 0.5),
            Duration::from_secs(5)
        );
    }
}
