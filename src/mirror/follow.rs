//! A spectator's connection: the async shell around [`Spectator`].
//!
//! [`Follow::next`] connects, says hello, reads the referee's lines, pings,
//! and after a drop waits the spectator's back-off and connects again, and
//! tells the caller what happened. It is cancel-safe, so a screen can
//! `select!` on it beside its keys: every write is one short line written
//! without waiting (a socket that cannot take 100 bytes is a dead link),
//! and every wait is a deadline kept in `self`.
//!
//! Before the referee has let it in once, a failure ends the follow when no
//! try can mend it: a host name that does not resolve, a refusal for good
//! (a wrong token, another version), a peer that does not speak as a goref
//! referee. A follow that [waits](Follow::waiting) for its referee (a
//! spectator, who may come before the game or while the referee restarts)
//! tries again, with the same back-off, when nobody answers at the address
//! or the referee closes before its welcome; one that does not (an attached
//! screen, for a game that is running) ends there too.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use tokio::net::{TcpStream, UnixStream};
use tokio::task::JoinHandle;

use crate::shell_time::{now, sleep_until};

use super::broker_watch::{self, BrokerNews};
use super::client::{Spectator, Update, PING_EVERY, SILENT_LIMIT};
use super::conn::{Conn, ConnRead, ConnWrite};
use super::lines::LineReader;
use super::wire::REFEREE_LINE_LIMIT;
use crate::broker::address::BrokerAddress;

/// How long one connect may take.
const CONNECT_WITHIN: Duration = Duration::from_secs(5);
/// Following a broker, which never closes: how long after the game's
/// result, with nothing more heard, a headless watch finishes.
const BROKER_QUIET: Duration = Duration::from_secs(3);
/// How long a connection may take to be welcomed, until the referee has
/// let this spectator in once.
pub(crate) const WELCOME_WITHIN: Duration = Duration::from_secs(10);

/// Where the referee serves the game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// `--serve`'s `HOST:PORT`.
    Tcp(String),
    /// A game folder's `attach.sock`.
    Unix(PathBuf),
    /// A game or a hall published to a broker (`--publish`).
    Broker(BrokerAddress),
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Target::Tcp(address) => f.write_str(address),
            Target::Unix(path) => write!(f, "{}", path.display()),
            Target::Broker(address) => {
                f.write_str(&address.naming(address.event.as_deref().unwrap_or(""), address.board))
            }
        }
    }
}

/// Why a connect failed.
#[derive(Debug)]
enum Unreachable {
    /// The host name does not resolve: no try will mend it.
    Name(std::io::Error),
    /// Nobody answered at the address (refused, unreachable, too slow).
    Connect(std::io::Error),
}

impl std::fmt::Display for Unreachable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unreachable::Name(e) | Unreachable::Connect(e) => e.fmt(f),
        }
    }
}

impl Target {
    async fn connect(self) -> Result<Conn, Unreachable> {
        match self {
            Target::Tcp(address) => {
                let found: Vec<SocketAddr> = tokio::net::lookup_host(address.as_str())
                    .await
                    .map_err(Unreachable::Name)?
                    .collect();
                if found.is_empty() {
                    let none = std::io::Error::new(
                        std::io::ErrorKind::NotFound,
                        "the name has no address",
                    );
                    return Err(Unreachable::Name(none));
                }
                let connected =
                    tokio::time::timeout(CONNECT_WITHIN, TcpStream::connect(&found[..]));
                match connected.await {
                    Ok(stream) => stream.map(Conn::Tcp).map_err(Unreachable::Connect),
                    Err(_) => Err(Unreachable::Connect(std::io::Error::new(
                        std::io::ErrorKind::TimedOut,
                        "no answer within 5s",
                    ))),
                }
            }
            Target::Unix(path) => {
                let reach = crate::files::SocketPath::of(&path).map_err(Unreachable::Connect)?;
                UnixStream::connect(reach.path())
                    .await
                    .map(Conn::Unix)
                    .map_err(Unreachable::Connect)
            }
            Target::Broker(_) => Err(Unreachable::Connect(std::io::Error::other(
                "a broker is followed by its own task",
            ))),
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
    /// Nothing more will come: the referee could not be followed before it
    /// ever let this spectator in (see the module documentation), or it
    /// refused this spectator for good (a wrong token, another version).
    Failed(String),
    /// The referee went after the game's result (`--headless` ends here).
    Finished(String),
}

enum State {
    Waiting(Instant),
    Connecting(JoinHandle<Result<Conn, Unreachable>>),
    Open {
        reader: LineReader<ConnRead>,
        writer: ConnWrite,
        next_ping: Instant,
        /// Until the referee has let this spectator in once: by when its
        /// welcome must come.
        welcome_by: Option<Instant>,
    },
    /// Following a broker: its task connects, resumes and hands on lines.
    Broker {
        news: tokio::sync::mpsc::Receiver<BrokerNews>,
        /// Once the game is over, with nothing heard since: when to finish.
        quiet_by: Option<Instant>,
    },
    Done,
}

pub struct Follow {
    target: Target,
    address: String,
    pub spectator: Spectator,
    state: State,
    /// Nobody at the address yet is a wait, not a failure.
    waits: bool,
    /// The referee's last `bye`: why the connection is about to close.
    bye: Option<String>,
    /// After the result, a closed connection finishes (`--headless`).
    finish_after_result: bool,
    random: StdRng,
}

impl Follow {
    /// Follows the game served at `target`.
    pub fn new(target: Target, mut spectator: Spectator, finish_after_result: bool) -> Follow {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
            ^ u64::from(std::process::id());
        spectator.set_address(target.to_string());
        Follow {
            address: target.to_string(),
            target,
            spectator,
            state: State::Waiting(now()),
            waits: false,
            bye: None,
            finish_after_result,
            random: StdRng::seed_from_u64(seed),
        }
    }

    /// Waits for a referee that is not there yet: when nobody answers at the
    /// address, or the referee closes before its welcome, the follow tries
    /// again with the back-off of a lost connection, until it is let in.
    pub fn waiting(mut self) -> Follow {
        self.waits = true;
        self
    }

    pub fn address(&self) -> &str {
        &self.address
    }

    /// Whether the game is followed on a broker, which never closes.
    pub(crate) fn on_broker(&self) -> bool {
        matches!(self.target, Target::Broker(_))
    }

    /// The next thing that happens on the connection.
    pub async fn next(&mut self) -> FollowEvent {
        loop {
            match &mut self.state {
                State::Done => std::future::pending::<()>().await,
                State::Waiting(until) => {
                    sleep_until(Some(*until)).await;
                    let target = self.target.clone();
                    self.state = match target {
                        Target::Broker(address) => {
                            self.spectator.connected(now());
                            State::Broker {
                                news: broker_watch::spawn(
                                    address,
                                    self.spectator.wants_the_whole_stream(),
                                ),
                                quiet_by: None,
                            }
                        }
                        target => State::Connecting(tokio::spawn(target.connect())),
                    };
                    return FollowEvent::Link;
                }
                State::Broker { news, quiet_by } => {
                    let quiet_by = *quiet_by;
                    tokio::select! {
                        told = news.recv() => return self.broker(told),
                        _ = sleep_until(quiet_by) => {
                            self.state = State::Done;
                            return FollowEvent::Finished("the game is over".into());
                        }
                    }
                }
                State::Connecting(handle) => {
                    let connected = match handle.await {
                        Ok(connected) => connected,
                        Err(e) => Err(Unreachable::Connect(std::io::Error::other(e.to_string()))),
                    };
                    return match connected {
                        Ok(stream) => self.open(stream),
                        Err(failure) => self.unreachable(failure),
                    };
                }
                State::Open {
                    reader,
                    next_ping,
                    welcome_by,
                    ..
                } => {
                    let ping_at = *next_ping;
                    let welcome_by = welcome_by.filter(|_| !self.spectator.ever_live());
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
                        _ = sleep_until(welcome_by) => {
                            return self.fail(format!(
                                "{} did not answer as a goref referee within {}s",
                                self.address,
                                WELCOME_WITHIN.as_secs()
                            ));
                        }
                    }
                }
            }
        }
    }

    /// A connect failed: a failure, or a wait before the next try.
    fn unreachable(&mut self, failure: Unreachable) -> FollowEvent {
        let first = !self.spectator.ever_live();
        let lasting = matches!(failure, Unreachable::Name(_)) || !self.waits;
        if first && lasting {
            return self.fail(format!("cannot connect to {}: {failure}", self.address));
        }
        self.drop_link(failure.to_string())
    }

    /// Nothing more will come.
    fn fail(&mut self, why: String) -> FollowEvent {
        self.state = State::Done;
        FollowEvent::Failed(why)
    }

    fn open(&mut self, conn: Conn) -> FollowEvent {
        let (read, writer) = conn.into_split();
        let at = now();
        self.state = State::Open {
            reader: LineReader::new(read, REFEREE_LINE_LIMIT),
            writer,
            next_ping: at,
            welcome_by: Some(at + WELCOME_WITHIN),
        };
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
                        return self.fail(format!("the referee refused: {why}"));
                    }
                    self.bye = Some(format!("the referee closed: {why}"));
                }
                FollowEvent::Update(update)
            }
            Err(e) if !self.spectator.ever_live() => self.fail(format!(
                "{} did not answer as a goref referee: it sent {e}",
                self.address
            )),
            Err(e) => self.drop_link(format!("the referee sent {e}")),
        }
    }

    /// What the broker's task told.
    fn broker(&mut self, told: Option<BrokerNews>) -> FollowEvent {
        let at = now();
        match told {
            Some(BrokerNews::Line(line)) => match self.spectator.receive(&line, at) {
                Ok(update) => {
                    let over = self.finish_after_result && self.spectator.finished();
                    if let State::Broker { quiet_by, .. } = &mut self.state {
                        *quiet_by = over.then_some(at + BROKER_QUIET);
                    }
                    FollowEvent::Update(update)
                }
                Err(e) => {
                    tracing::warn!(
                        "{}: skipped a line that is not the mirror's: {e}",
                        self.address
                    );
                    FollowEvent::Link
                }
            },
            Some(BrokerNews::Up) => {
                self.spectator.broker_up(at);
                FollowEvent::Link
            }
            Some(BrokerNews::Down(why)) => {
                if !self.waits && !self.spectator.ever_live() {
                    return self.fail(why);
                }
                self.spectator.broker_down(why, at);
                FollowEvent::Dropped
            }
            Some(BrokerNews::Failed(why)) => self.fail(why),
            None => self.fail(format!("{}: the broker's watch stopped", self.address)),
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

    /// The connection is gone, or never came: wait, then connect again.
    fn drop_link(&mut self, why: String) -> FollowEvent {
        if self.finish_after_result && self.spectator.finished() {
            self.state = State::Done;
            return FollowEvent::Finished(why);
        }
        if !self.spectator.ever_live() && !self.waits {
            return self.fail(format!(
                "{} did not let this spectator in: {why}",
                self.address
            ));
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
