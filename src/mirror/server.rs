//! `--serve ADDR`: the mirror's server, the async shell around `Hub`,
//! `Gate` and `Audience`.
//!
//! It runs on a thread of its own with its own runtime, at a lower CPU
//! priority than the referee. The game hands it events through an unbounded
//! channel and never waits for it; each event is serialised once and sent
//! to every spectator through a bounded broadcast queue. A spectator that
//! falls behind the queue is sent a fresh snapshot, and one that falls
//! behind again and again, or whose writes stall, is dropped. Nothing a
//! spectator sends reaches the game: the server reads only `hello`, `ping`
//! and `bye`, and closes a connection on anything else.
//!
//! The same server listens on the game folder's Unix socket for `goref
//! attach` (`MirrorServer::start_attach`). There, and only there, a
//! `command` line is the operator's and goes to the game; the socket's
//! file permissions are the access control, and each screen that attaches
//! or leaves is a `session` event.

use crate::shell_time::Threads;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::net::{TcpListener, UnixListener};
use tokio::sync::{broadcast, mpsc, watch};

use crate::shell_time::{next_from, now, sleep_until};
use goref_core::referee::{EventBatch, GameEvent, OperatorInput, SessionChange};

use source::{publish, publish_hall, Source};
use spectator::{bye, spectate};

use super::accept_trouble::AcceptTrouble;
use super::audience::Audience;
use super::conn::Conn;
use super::gate::{Gate, Limits};
use super::hall_hub::{HallHub, HallItem};
use super::hub::{HistoryLimits, Hub, Line};
use super::pace::Pace;
use super::publisher::{PublishConfig, Publisher};

/// How the mirror serves.
#[derive(Debug, Clone, Default)]
pub struct ServeConfig {
    /// `HOST:PORT` to listen on (port 0 picks a free one); none to publish
    /// alone.
    pub address: Option<String>,
    /// The broker the stream is published to too (`--publish`).
    pub publish: Option<PublishConfig>,
    /// `HOST:PORT` to serve the page for browsers on (`--web`).
    pub web: Option<String>,
    /// The token a spectator's hello must carry, if any.
    pub token: Option<String>,
    pub limits: Limits,
    pub history: HistoryLimits,
    /// Where an attached operator's commands go (the folder's socket).
    pub operator: Option<mpsc::UnboundedSender<OperatorInput>>,
}

#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("{flag} {address}: cannot listen there: {error}")]
    Listen {
        flag: &'static str,
        address: String,
        error: std::io::Error,
    },
    #[error("--serve: cannot start the mirror: {0}")]
    Start(std::io::Error),
    #[error("cannot listen on {path} for goref attach: {error}")]
    Socket {
        path: PathBuf,
        error: std::io::Error,
    },
}

/// The feed of one game's events, in the batches the game hands them on
/// in, with the instant each was handed on.
pub(crate) type Feed = mpsc::UnboundedSender<EventBatch>;

/// The feed of an event's hall.
pub(crate) type HallFeed = mpsc::UnboundedSender<HallItem>;

enum Control {
    /// A new game: its events come on `feed`; `spectators` events go to
    /// `notes`, for the game to put into its stream.
    Game {
        feed: mpsc::UnboundedReceiver<EventBatch>,
        notes: mpsc::UnboundedSender<GameEvent>,
    },
    /// An event's hall, from now on: its items come on `feed`; the
    /// mirror's own notices (publishing stopped, caught up) and the
    /// audience go to `news`.
    Hall {
        feed: mpsc::UnboundedReceiver<HallItem>,
        news: mpsc::UnboundedSender<HallNews>,
    },
    Shutdown,
}

/// What the mirror tells an event's hall.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum HallNews {
    /// A notice for the hall's news line (publishing stopped, caught up).
    Said(String),
    /// How many spectators watch the hall now, told at most once a second.
    Audience(u32),
}

/// The running mirror. Dropping it shuts it down.
pub struct MirrorServer {
    /// Where spectators connect, when it listens.
    address: Option<SocketAddr>,
    web_address: Option<SocketAddr>,
    /// The address watchers give for the broker, when it publishes.
    publishing: Option<String>,
    /// The folder's socket, removed when the server goes.
    socket: Option<PathBuf>,
    control: mpsc::UnboundedSender<Control>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// What a mirror listens on.
enum Listener {
    Tcp(std::net::TcpListener),
    Unix(std::os::unix::net::UnixListener),
    /// Nothing: the mirror publishes to a broker alone.
    None,
}

/// A listener on the mirror's runtime.
enum Accepting {
    Tcp(TcpListener),
    Unix(UnixListener),
    None,
}

impl Accepting {
    /// The next connection, with a name for it and the address its connects
    /// are counted against (the loopback one for the folder's socket).
    async fn accept(&self) -> std::io::Result<(Conn, String, IpAddr)> {
        match self {
            Accepting::Tcp(listener) => {
                let (stream, peer) = listener.accept().await?;
                Ok((Conn::Tcp(stream), peer.to_string(), peer.ip()))
            }
            Accepting::Unix(listener) => {
                let (stream, _) = listener.accept().await?;
                let who = match stream.peer_cred() {
                    Ok(cred) => format!("uid {} pid {}", cred.uid(), cred.pid().unwrap_or(0)),
                    Err(_) => "the folder's socket".into(),
                };
                Ok((Conn::Unix(stream), who, IpAddr::V4(Ipv4Addr::LOCALHOST)))
            }
            Accepting::None => std::future::pending().await,
        }
    }
}

/// How long shutting down waits for spectators to be told.
const SHUTDOWN_WAIT: Duration = Duration::from_secs(1);
/// How long shutting down waits for the broker to take what is queued.
const PUBLISH_SETTLE: Duration = Duration::from_secs(5);
/// The most bytes of queued lines written to a spectator at once.
const BATCH_BYTES: usize = 64 << 10;
/// While only the broker watches, the feeds are read at most once each
/// [`PUBLISH_PACE`] after [`PUBLISH_BURST`] reads at once ([`Pace`]).
const PUBLISH_PACE: Duration = Duration::from_millis(50);
const PUBLISH_BURST: u32 = 3;

impl MirrorServer {
    /// Listens on the configured address, if any (an error at once if it
    /// cannot), and serves and publishes from a thread of its own.
    pub fn start(config: ServeConfig) -> Result<MirrorServer, ServeError> {
        let web = match &config.web {
            Some(wanted) => Some(listen(wanted, "--web")?),
            None => None,
        };
        let Some(wanted) = config.address.clone() else {
            return Self::spawn(Listener::None, web, config, None, None);
        };
        let (listener, address) = listen(&wanted, "--serve")?;
        let server = Self::spawn(Listener::Tcp(listener), web, config, Some(address), None)?;
        tracing::info!("serving spectators on {address}");
        Ok(server)
    }

    /// Listens on the game folder's socket at `path` for `goref attach`,
    /// readable and writable by this user only; a socket left there by a
    /// goref that died is replaced. Commands go to `operator`.
    pub(crate) fn start_attach(
        path: &Path,
        operator: mpsc::UnboundedSender<OperatorInput>,
    ) -> Result<MirrorServer, ServeError> {
        use std::os::unix::fs::{FileTypeExt, PermissionsExt};
        let socket_error = |error| ServeError::Socket {
            path: path.to_path_buf(),
            error,
        };
        if std::fs::symlink_metadata(path).is_ok_and(|meta| meta.file_type().is_socket()) {
            std::fs::remove_file(path).map_err(socket_error)?;
        }
        let bound = crate::files::SocketPath::of(path).map_err(socket_error)?;
        let listener =
            std::os::unix::net::UnixListener::bind(bound.path()).map_err(socket_error)?;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
            .map_err(socket_error)?;
        listener.set_nonblocking(true).map_err(socket_error)?;
        let config = ServeConfig {
            operator: Some(operator),
            ..ServeConfig::default()
        };
        let server = Self::spawn(
            Listener::Unix(listener),
            None,
            config,
            None,
            Some(path.into()),
        )?;
        Ok(server)
    }

    fn spawn(
        listener: Listener,
        web: Option<(std::net::TcpListener, SocketAddr)>,
        config: ServeConfig,
        address: Option<SocketAddr>,
        socket: Option<PathBuf>,
    ) -> Result<MirrorServer, ServeError> {
        let web_address = web.as_ref().map(|(_, address)| *address);
        let publishing = config.publish.as_ref().map(|p| p.watch_address());
        let (control, control_rx) = mpsc::unbounded_channel();
        let thread = std::thread::Builder::new()
            .name("mirror".into())
            .spawn(move || {
                lower_priority();
                let runtime = match crate::shell_time::runtime(Threads::Caller) {
                    Ok(runtime) => runtime,
                    Err(e) => return tracing::error!("the mirror cannot start: {e}"),
                };
                let web = web.map(|(listener, _)| listener);
                runtime.block_on(serve(listener, web, config, control_rx));
            })
            .map_err(ServeError::Start)?;
        Ok(MirrorServer {
            address,
            web_address,
            publishing,
            socket,
            control,
            thread: Some(thread),
        })
    }

    /// Where spectators connect with `--serve` (none for the folder's
    /// socket or a mirror that only publishes).
    pub fn address(&self) -> Option<SocketAddr> {
        self.address
    }

    /// Where browsers open the page with `--web`.
    pub fn web_address(&self) -> Option<SocketAddr> {
        self.web_address
    }

    /// Where it serves, in a few words for a title: `serving :7777, web
    /// :8080, nats://host:4222/cup`; none when it serves nothing.
    pub fn serving(&self) -> Option<String> {
        let port = |address: SocketAddr| format!(":{}", address.port());
        let places: Vec<String> = [
            self.address.map(port),
            self.web_address.map(|a| format!("web {}", port(a))),
            self.publishing.clone(),
        ]
        .into_iter()
        .flatten()
        .collect();
        (!places.is_empty()).then(|| format!("serving {}", places.join(", ")))
    }

    /// Serves a new game: the feed to subscribe to its driver, and the
    /// `spectators` events to put into its stream.
    pub fn attach_game(&self) -> (Feed, mpsc::UnboundedReceiver<GameEvent>) {
        let (feed, feed_rx) = mpsc::unbounded_channel();
        let (notes_tx, notes) = mpsc::unbounded_channel();
        let _ = self.control.send(Control::Game {
            feed: feed_rx,
            notes: notes_tx,
        });
        (feed, notes)
    }

    /// Serves an event's hall from now on: the feed to hand its items to,
    /// and the mirror's news for the hall (publishing stopped, caught up,
    /// how many watch).
    pub(crate) fn attach_hall(&self) -> (HallFeed, mpsc::UnboundedReceiver<HallNews>) {
        let (feed, feed_rx) = mpsc::unbounded_channel();
        let (news, news_rx) = mpsc::unbounded_channel();
        let _ = self.control.send(Control::Hall {
            feed: feed_rx,
            news,
        });
        (feed, news_rx)
    }

    /// Tells every spectator the referee is going and closes, waiting a
    /// second at most.
    pub fn shutdown(mut self) {
        self.stop();
    }

    fn stop(&mut self) {
        let _ = self.control.send(Control::Shutdown);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
        if let Some(socket) = self.socket.take() {
            let _ = std::fs::remove_file(socket);
        }
    }
}

impl Drop for MirrorServer {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A listener on `wanted` for `flag`, and the address it got.
fn listen(
    wanted: &str,
    flag: &'static str,
) -> Result<(std::net::TcpListener, SocketAddr), ServeError> {
    let listen_error = |error| ServeError::Listen {
        flag,
        address: wanted.to_string(),
        error,
    };
    let listener = std::net::TcpListener::bind(wanted).map_err(listen_error)?;
    listener.set_nonblocking(true).map_err(listen_error)?;
    let address = listener.local_addr().map_err(listen_error)?;
    Ok((listener, address))
}

/// The mirror's thread runs below the referee: with both cores busy the
/// game comes first and spectators wait.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority on this thread's id changes only its nice value.
    unsafe {
        let thread = libc::syscall(libc::SYS_gettid) as libc::id_t;
        libc::setpriority(libc::PRIO_PROCESS, thread, 10);
    }
}

/// What every connection shares.
struct Shared {
    hub: Mutex<Source>,
    gate: Mutex<Gate>,
    audience: Mutex<Audience>,
    events: broadcast::Sender<Line>,
    limits: Limits,
    shutdown: watch::Receiver<bool>,
    /// The folder's socket: where an attached operator's commands go.
    operator: Option<mpsc::UnboundedSender<OperatorInput>>,
    /// Events for the game's stream: an operator's screen attached or left.
    notes: Mutex<Option<mpsc::UnboundedSender<GameEvent>>>,
}

impl Shared {
    /// A `session` event for the game's stream, on the folder's socket.
    fn session(&self, what: SessionChange, message: String) {
        if let Some(notes) = lock(&self.notes).as_ref() {
            let _ = notes.send(GameEvent::Session {
                what,
                color: None,
                message,
                down_ms: None,
            });
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A name for a new stream that no stream before it had: from the time,
/// the process and a count.
fn new_stream_name() -> String {
    use std::hash::{BuildHasher, Hasher};
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(nanos);
    hasher.write_u32(std::process::id());
    hasher.write_u64(COUNT.fetch_add(1, Ordering::Relaxed));
    format!("{:016x}", hasher.finish())
}

async fn serve(
    listener: Listener,
    web: Option<std::net::TcpListener>,
    config: ServeConfig,
    mut control: mpsc::UnboundedReceiver<Control>,
) {
    let listener = match listener {
        Listener::Tcp(listener) => TcpListener::from_std(listener).map(Accepting::Tcp),
        Listener::Unix(listener) => UnixListener::from_std(listener).map(Accepting::Unix),
        Listener::None => Ok(Accepting::None),
    };
    let listener = match listener {
        Ok(listener) => listener,
        Err(e) => return tracing::error!("the mirror cannot listen: {e}"),
    };
    let (shutdown_tx, shutdown) = watch::channel(false);
    let (events, _) = broadcast::channel(config.limits.queue.max(1));
    let shared = Arc::new(Shared {
        hub: Mutex::new(Source::Game(Box::new(Hub::new(
            new_stream_name(),
            config.history,
        )))),
        gate: Mutex::new(Gate::new(config.limits.clone(), config.token.clone())),
        audience: Mutex::new(Audience::new()),
        events,
        limits: config.limits.clone(),
        shutdown,
        operator: config.operator.clone(),
        notes: Mutex::new(None),
    });
    let counts_spectators = config.operator.is_none();
    let (browsers, mut browser) = mpsc::unbounded_channel::<(Conn, SocketAddr)>();
    if let Some(web) = web {
        tokio::spawn(super::web::serve(web, move |conn, peer: SocketAddr| {
            let _ = browsers.send((conn, peer));
        }));
    }
    let mut feed: Option<mpsc::UnboundedReceiver<EventBatch>> = None;
    let mut hall_feed: Option<mpsc::UnboundedReceiver<HallItem>> = None;
    let mut notes: Option<mpsc::UnboundedSender<GameEvent>> = None;
    let mut hall_news: Option<mpsc::UnboundedSender<HallNews>> = None;
    let (broker_notices, mut broker_news) = mpsc::unbounded_channel();
    let publisher = config
        .publish
        .clone()
        .map(|publish| Publisher::start(publish, new_stream_name(), broker_notices));
    let mut trouble = AcceptTrouble::default();
    let mut heartbeat = tokio::time::interval(config.limits.heartbeat);
    heartbeat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    // While nobody watches, the game's events wait in their channel: the
    // game's thread never wakes this one, and they are folded at the next
    // connection, before it is let in.
    let mut pace = Pace::new(PUBLISH_PACE, PUBLISH_BURST);
    let mut resting_until: Option<Instant> = None;
    loop {
        let audience_due = ((notes.is_some() || hall_news.is_some()) && counts_spectators)
            .then(|| lock(&shared.audience).due(now()))
            .flatten();
        let spectators = lock(&shared.gate).open() > 0;
        if spectators {
            resting_until = None;
        }
        let watched = spectators || (publisher.is_some() && resting_until.is_none());
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((conn, peer, ip)) => {
                    if let Some(message) = trouble.accepted() {
                        tracing::info!("{message}");
                        tell_game(&mut notes, message);
                    }
                    fold_waiting(&shared, &mut feed, &mut hall_feed, publisher.as_ref());
                    admit(conn, peer, ip, &shared)
                }
                Err(e) => {
                    let failed = trouble.failed(&e.to_string());
                    if let Some(message) = failed.tell {
                        tracing::warn!("{message}");
                        tell_game(&mut notes, message);
                    }
                    tokio::time::sleep(failed.wait).await;
                }
            },
            Some((conn, peer)) = browser.recv() => {
                fold_waiting(&shared, &mut feed, &mut hall_feed, publisher.as_ref());
                admit(conn, peer.to_string(), peer.ip(), &shared)
            }
            event = next_from(&mut feed), if watched => match event {
                Some(first) => {
                    publish(&shared, first, feed.as_mut(), publisher.as_ref());
                    resting_until = rest(&mut pace, spectators, publisher.as_ref());
                }
                None => feed = None,
            },
            item = next_from(&mut hall_feed), if resting_until.is_none() => match item {
                Some(first) => {
                    publish_hall(&shared, first, hall_feed.as_mut(), publisher.as_ref());
                    resting_until = rest(&mut pace, spectators, publisher.as_ref());
                }
                None => hall_feed = None,
            },
            _ = sleep_until(resting_until) => resting_until = None,
            Some(notice) = broker_news.recv() => match &hall_news {
                Some(news) => {
                    let _ = news.send(HallNews::Said(notice));
                }
                None => tell_game(&mut notes, notice),
            },
            message = control.recv() => match message {
                Some(Control::Hall { feed: items, news }) => {
                    let mut hub = lock(&shared.hub);
                    *hub = Source::Hall(HallHub::new(new_stream_name(), now()));
                    if let Some(publisher) = &publisher {
                        hub.publish_whole(publisher, now());
                    }
                    hall_feed = Some(items);
                    hall_news = Some(news);
                    lock(&shared.audience).retell();
                }
                Some(Control::Game { feed: game, notes: to_game }) => {
                    if anyone_is_sent(&shared, publisher.as_ref()) {
                        fold_waiting(&shared, &mut feed, &mut hall_feed, publisher.as_ref());
                    }
                    let mut hub = lock(&shared.hub);
                    *hub = Source::Game(Box::new(Hub::new(new_stream_name(), config.history)));
                    if let Some(publisher) = &publisher {
                        hub.publish_whole(publisher, now());
                    }
                    let _ = shared.events.send(hub.snapshot());
                    feed = Some(game);
                    *lock(&shared.notes) = Some(to_game.clone());
                    notes = Some(to_game);
                    lock(&shared.audience).retell();
                }
                Some(Control::Shutdown) | None => {
                    if anyone_is_sent(&shared, publisher.as_ref()) {
                        fold_waiting(&shared, &mut feed, &mut hall_feed, publisher.as_ref());
                    }
                    break;
                }
            },
            _ = sleep_until(audience_due) => {
                if let Some(event) = lock(&shared.audience).take(now()) {
                    match (&hall_news, event) {
                        (Some(news), GameEvent::Spectators { count, .. }) => {
                            let _ = news.send(HallNews::Audience(count));
                        }
                        (_, event) => to_the_game(&mut notes, event),
                    }
                }
            }
            _ = heartbeat.tick(), if watched => {
                let line = lock(&shared.hub).heartbeat(now());
                if let Some(publisher) = &publisher {
                    publisher.beat(line.clone());
                }
                let _ = shared.events.send(line);
            }
        }
    }
    let _ = shutdown_tx.send(true);
    if let Some(publisher) = &publisher {
        publisher.settle(PUBLISH_SETTLE).await;
    }
    let deadline = tokio::time::Instant::now() + SHUTDOWN_WAIT;
    while lock(&shared.gate).open() > 0 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Until when the feeds rest after a read: as the pace says while only the
/// broker watches, not at all while spectators do.
fn rest(pace: &mut Pace, spectators: bool, publisher: Option<&Publisher>) -> Option<Instant> {
    if spectators || publisher.is_none() {
        return None;
    }
    pace.read(now())
}

/// Whether what is folded now goes anywhere: to a spectator connected, or
/// to the broker.
fn anyone_is_sent(shared: &Shared, publisher: Option<&Publisher>) -> bool {
    publisher.is_some() || lock(&shared.gate).open() > 0
}

/// Folds the game's events, or the hall's items, that waited while nobody
/// watched or while the feeds rested, before a connection is let in, or,
/// when somebody watches or the broker is fed, before a new game is served
/// or the mirror goes: events nobody will be sent are not folded at all.
fn fold_waiting(
    shared: &Shared,
    feed: &mut Option<mpsc::UnboundedReceiver<EventBatch>>,
    hall_feed: &mut Option<mpsc::UnboundedReceiver<HallItem>>,
    publisher: Option<&Publisher>,
) {
    if let Some(first) = feed.as_mut().and_then(|f| f.try_recv().ok()) {
        publish(shared, first, feed.as_mut(), publisher);
    }
    if let Some(first) = hall_feed.as_mut().and_then(|f| f.try_recv().ok()) {
        publish_hall(shared, first, hall_feed.as_mut(), publisher);
    }
}

/// An event for the game's stream, while the game takes them.
fn to_the_game(notes: &mut Option<mpsc::UnboundedSender<GameEvent>>, event: GameEvent) {
    if notes
        .as_ref()
        .is_some_and(|to_game| to_game.send(event).is_err())
    {
        *notes = None;
    }
}

/// A notice of the mirror's own in the game's stream.
fn tell_game(notes: &mut Option<mpsc::UnboundedSender<GameEvent>>, message: String) {
    let notice = GameEvent::Notice {
        color: None,
        message,
    };
    to_the_game(notes, notice);
}

/// Lets a connection in, or tells it why not and closes it at once.
fn admit(mut conn: Conn, peer: String, ip: IpAddr, shared: &Arc<Shared>) {
    let admitted = lock(&shared.gate).connect(ip, now());
    match admitted {
        Ok(()) => {
            let shared = shared.clone();
            tokio::spawn(async move {
                let (joined, why) = spectate(conn, &peer, &shared).await;
                lock(&shared.gate).closed();
                if joined && shared.operator.is_some() {
                    shared.session(
                        SessionChange::Left,
                        format!("the screen attached by {peer} left ({why})"),
                    );
                } else if joined {
                    lock(&shared.audience).left(peer.clone(), &why);
                }
                tracing::info!("spectator {peer} left: {why}");
            });
        }
        Err(refusal) => {
            lock(&shared.audience).refused();
            tracing::info!("spectator {peer} refused: {refusal}");
            let mut unread = [0u8; 4096];
            let _ = conn.try_read(&mut unread);
            let _ = conn.try_write(bye(&refusal.to_string(), refusal.retry()).as_bytes());
        }
    }
}

mod source;
mod spectator;

/// What a game says when a screen attaches through its folder; `peer`
/// names the process (`uid 1000 pid 4242`).
fn attached_notice(peer: &str) -> String {
    format!("a screen attached through the game's folder ({peer})")
}

/// Whether a game's progress line says that the process `pid` attached a
/// screen to it, or that its screen left: an event's runner follows every
/// board so, and its hall need not say it of each.
pub fn is_screen_of(line: &str, pid: u32) -> bool {
    let of_pid = format!(" pid {pid}");
    line.contains("screen attached")
        && line
            .match_indices(&of_pid)
            .any(|(at, _)| !line[at + of_pid.len()..].starts_with(|c: char| c.is_ascii_digit()))
}

#[cfg(test)]
mod tests;
