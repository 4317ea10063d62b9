//! A spectator's connection: the async shell around [`Spectator`].
//!
//! [`Follow::next`] connects, says hello, reads the referee's lines, pings,
//! and after a drop waits the spectator's back-off and connects again, and
//! tells the caller what happened. It is cancel-safe, so a screen can
//! `select!` on it beside its keys: every write is one short line written
//! without waiting (a socket that cannot take 100 bytes is a dead link),
//! and every wait is a deadline kept in `self`.

use std::time::{Duration, Instant};

use std::path::PathBuf;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use tokio::net::{TcpStream, UnixStream};
use tokio::task::JoinHandle;

use crate::shell_time::{now, sleep_until};

use super::client::{Spectator, Update, PING_EVERY, SILENT_LIMIT};
use super::conn::{Conn, ConnRead, ConnWrite};
use super::lines::LineReader;
use super::wire::REFEREE_LINE_LIMIT;

/// How long one connect may take.
const CONNECT_WITHIN: Duration = Duration::from_secs(5);

/// Where the referee serves the game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// `--serve`'s `HOST:PORT`.
    Tcp(String),
    /// A game folder's `attach.sock`.
    Unix(PathBuf),
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Target::Tcp(address) => f.write_str(address),
            Target::Unix(path) => write!(f, "{}", path.display()),
        }
    }
}

impl Target {
    async fn connect(self) -> std::io::Result<Conn> {
        match self {
            Target::Tcp(address) => TcpStream::connect(address).await.map(Conn::Tcp),
            Target::Unix(path) => UnixStream::connect(path).await.map(Conn::Unix),
        }
    }
}

/// What [`Follow::next`] brings.
#[derive(Debug)]
pub enum FollowEvent {
    /// A line from the referee, taken.
    Update(Update),
    /// The connection changed: a try started, or it opened.
    Link,
    /// The connection dropped; the spectator waits, then tries again.
    Dropped,
    /// Nothing more will come: the first connect failed, or the referee
    /// refused this spectator for good (a wrong token, another version).
    Failed(String),
    /// The referee went after the game's result (`--headless` ends here).
    Finished(String),
}

enum State {
    Waiting(Instant),
    Connecting(JoinHandle<std::io::Result<Conn>>),
    Open {
        reader: LineReader<ConnRead>,
        writer: ConnWrite,
        next_ping: Instant,
    },
    Done,
}

pub struct Follow {
    target: Target,
    address: String,
    pub spectator: Spectator,
    state: State,
    ever_open: bool,
    /// The referee's last `bye`: why the connection is about to close.
    bye: Option<String>,
    /// After the result, a closed connection finishes (`--headless`).
    finish_after_result: bool,
    random: StdRng,
}

impl Follow {
    /// Follows the game served at `target`.
    pub fn new(target: Target, spectator: Spectator, finish_after_result: bool) -> Follow {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
            ^ u64::from(std::process::id());
        Follow {
            address: target.to_string(),
            target,
            spectator,
            state: State::Waiting(now()),
            ever_open: false,
            bye: None,
            finish_after_result,
            random: StdRng::seed_from_u64(seed),
        }
    }

    pub fn address(&self) -> &str {
        &self.address
    }

    /// The next thing that happens on the connection.
    pub async fn next(&mut self) -> FollowEvent {
        loop {
            match &mut self.state {
                State::Done => std::future::pending::<()>().await,
                State::Waiting(until) => {
                    sleep_until(Some(*until)).await;
                    let target = self.target.clone();
                    self.state = State::Connecting(tokio::spawn(async move {
                        match tokio::time::timeout(CONNECT_WITHIN, target.connect()).await {
                            Ok(connected) => connected,
                            Err(_) => Err(std::io::Error::new(
                                std::io::ErrorKind::TimedOut,
                                "no answer within 5s",
                            )),
                        }
                    }));
                    return FollowEvent::Link;
                }
                State::Connecting(handle) => {
                    let connected = match handle.await {
                        Ok(connected) => connected,
                        Err(e) => Err(std::io::Error::other(e.to_string())),
                    };
                    return match connected {
                        Ok(stream) => self.open(stream),
                        Err(e) if !self.ever_open => {
                            self.state = State::Done;
                            FollowEvent::Failed(format!("cannot connect to {}: {e}", self.address))
                        }
                        Err(e) => self.drop_link(e.to_string()),
                    };
                }
                State::Open {
                    reader, next_ping, ..
                } => {
                    let ping_at = *next_ping;
                    tokio::select! {
                        line = reader.next_line() => return match line {
                            Ok(Some(line)) => self.take(&line),
                            Ok(None) => {
                                let why = self.bye.take().unwrap_or_else(|| {
                                    "the referee closed the connection".into()
                                });
                                self.drop_link(why)
                            }
                            Err(e) => self.drop_link(e.to_string()),
                        },
                        _ = sleep_until(Some(ping_at)) => {
                            let at = now();
                            if self.spectator.silent_for(at) >= SILENT_LIMIT {
                                let why = format!("nothing heard for {}s", SILENT_LIMIT.as_secs());
                                return self.drop_link(why);
                            }
                            let ping = self.spectator.ping(at);
                            if let Some(why) = self.write(&ping) {
                                return self.drop_link(why);
                            }
                            if let State::Open { next_ping, .. } = &mut self.state {
                                *next_ping = at + PING_EVERY;
                            }
                        }
                    }
                }
            }
        }
    }

    fn open(&mut self, conn: Conn) -> FollowEvent {
        let (read, writer) = conn.into_split();
        let at = now();
        self.state = State::Open {
            reader: LineReader::new(read, REFEREE_LINE_LIMIT),
            writer,
            next_ping: at,
        };
        self.ever_open = true;
        self.bye = None;
        self.spectator.connected(at);
        let hello = self.spectator.hello();
        match self.write(&hello) {
            Some(why) => self.drop_link(why),
            None => FollowEvent::Link,
        }
    }

    /// One line from the referee.
    fn take(&mut self, line: &str) -> FollowEvent {
        match self.spectator.receive(line, now()) {
            Ok(update) => {
                if let Some((why, retry)) = &update.bye {
                    if !retry {
                        self.state = State::Done;
                        return FollowEvent::Failed(format!("the referee refused: {why}"));
                    }
                    self.bye = Some(format!("the referee closed: {why}"));
                }
                FollowEvent::Update(update)
            }
            Err(e) => self.drop_link(format!("the referee sent {e}")),
        }
    }

    /// Writes a short line at once; why not, if it could not.
    fn write(&mut self, line: &str) -> Option<String> {
        let State::Open { writer, .. } = &mut self.state else {
            return Some("not connected".into());
        };
        match writer.try_write(line.as_bytes()) {
            Ok(n) if n == line.len() => None,
            Ok(_) | Err(_) => Some("the connection does not take what is sent".into()),
        }
    }

    /// The connection is gone: wait, then connect again.
    fn drop_link(&mut self, why: String) -> FollowEvent {
        if self.finish_after_result && self.spectator.game_over() {
            self.state = State::Done;
            return FollowEvent::Finished(why);
        }
        let random = self.random.random::<f64>();
        let wait = self.spectator.lost(why, now(), random);
        self.state = State::Waiting(now() + wait);
        FollowEvent::Dropped
    }

    /// Sends an operator's command line (only the folder's socket takes
    /// one); why not, if it could not be sent.
    pub fn command(&mut self, line: &str) -> Option<String> {
        let message = super::wire::SpectatorMessage::Command {
            line: line.to_string(),
        };
        self.write(&message.line())
    }

    /// Says goodbye, if connected.
    pub fn leave(&mut self) {
        let bye = super::wire::SpectatorMessage::Bye.line();
        let _ = self.write(&bye);
        self.state = State::Done;
    }
}
