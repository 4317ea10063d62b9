//! `--publish nats://…`: the async shell around `Outlet`, on the mirror's
//! thread. It connects to the broker, makes the JetStream stream if it is
//! missing, and publishes the outlet's lines one at a time, each waited for
//! its acknowledgement, so that they are stored in the order the game made
//! them; a line sent again after a lost acknowledgement is dropped by the
//! broker by its id. The game never waits for any of it: the outlet's
//! queue is bounded, and a broker that is down, slow or restarting is a
//! notice when publishing stops and another when it catches up.

use std::collections::VecDeque;
use std::future::IntoFuture;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use async_nats::jetstream::{self, stream};
use tokio::sync::{mpsc, Notify};

use crate::shell_time::now;

use super::hub::Line;
use super::outlet::{Outgoing, Outlet, OutletLimits, Pushed, Subjects};
use crate::broker::auth::BrokerAuth;
use crate::broker::connect::{connect, Dial, NotConnected};

/// How long one connect may take.
const CONNECT_WITHIN: Duration = Duration::from_secs(3);
/// How long the broker may take to acknowledge a line.
const ACK_WITHIN: Duration = Duration::from_secs(3);
/// The header that says when a message's first line was handed to the
/// publisher, in microseconds since the Unix epoch: a watcher's delay.
pub(crate) const SENT_HEADER: &str = "Goref-Sent-Us";

/// `at` in microseconds since the Unix epoch, by the wall clock.
fn unix_us(at: std::time::Instant) -> u64 {
    let ago = now().saturating_duration_since(at);
    std::time::SystemTime::now()
        .checked_sub(ago)
        .and_then(|then| then.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |since| since.as_micros() as u64)
}

/// Messages on their way to the broker at once, not yet confirmed.
const WINDOW: usize = 64;
/// A message asks for the broker's acknowledgement at least this often
/// while messages go out.
const CONFIRM_EVERY: Duration = Duration::from_secs(1);
/// The first wait after a failure, doubled up to [`BACKOFF_CAP`].
const BACKOFF_BASE: Duration = Duration::from_millis(200);
const BACKOFF_CAP: Duration = Duration::from_secs(3);

/// The JetStream stream the lines are stored in, made if missing; a
/// stream that is there is used as it is.
#[derive(Debug, Clone, PartialEq)]
pub struct StreamSettings {
    pub name: String,
    /// Messages older than this are dropped (0: kept).
    pub max_age: Duration,
    /// The stream's size at most, in bytes (-1: no limit).
    pub max_bytes: i64,
}

impl Default for StreamSettings {
    fn default() -> StreamSettings {
        StreamSettings {
            name: "GOREF".into(),
            max_age: Duration::from_secs(7 * 24 * 3600),
            max_bytes: 1 << 30,
        }
    }
}

/// What to publish, where.
#[derive(Debug, Clone, PartialEq)]
pub struct PublishConfig {
    /// The broker's `HOST:PORT`.
    pub server: String,
    /// Its credentials and CA.
    pub auth: BrokerAuth,
    /// The event's (or game's) subject token.
    pub event: String,
    pub stream: StreamSettings,
    pub limits: OutletLimits,
}

impl PublishConfig {
    /// The address watchers give `goref --watch`.
    pub fn watch_address(&self) -> String {
        format!("nats://{}/{}", self.server, self.event)
    }
}

/// The publishing side the mirror's loop pushes lines into.
#[derive(Clone)]
pub(crate) struct Publisher {
    outlet: Arc<Mutex<Outlet>>,
    beat: Arc<Mutex<Option<Line>>>,
    wake: Arc<Notify>,
    /// The mirror is going: every message asks to be acknowledged.
    settling: Arc<AtomicBool>,
}

impl Publisher {
    /// Starts publishing on the current runtime; notices go to `notices`.
    pub(crate) fn start(
        config: PublishConfig,
        run: String,
        notices: mpsc::UnboundedSender<String>,
    ) -> Publisher {
        let subjects = Subjects::new(&config.event);
        let broker = format!("nats://{}", config.server);
        let publisher = Publisher {
            outlet: Arc::new(Mutex::new(Outlet::new(
                subjects,
                broker,
                run,
                config.limits,
            ))),
            beat: Arc::new(Mutex::new(None)),
            wake: Arc::new(Notify::new()),
            settling: Arc::new(AtomicBool::new(false)),
        };
        tokio::spawn(publish(config, publisher.clone(), notices));
        publisher
    }

    /// Pushes lines with `push` and wakes the publishing task; what the
    /// last push asked for.
    pub(crate) fn with(&self, push: impl FnOnce(&mut Outlet) -> Pushed) -> Pushed {
        let pushed = push(&mut lock(&self.outlet));
        self.wake.notify_one();
        pushed
    }

    /// Waits, `within` at most, until the broker has every line; says
    /// what it could not publish.
    pub(crate) async fn settle(&self, within: Duration) {
        self.settling.store(true, Ordering::Relaxed);
        self.wake.notify_one();
        let deadline = tokio::time::Instant::now() + within;
        loop {
            let (queued, stopped, broker) = {
                let outlet = lock(&self.outlet);
                let stopped = outlet.stopped().map(str::to_string);
                (outlet.queued(), stopped, outlet.broker().to_string())
            };
            if queued == 0 {
                return;
            }
            if tokio::time::Instant::now() < deadline {
                tokio::time::sleep(Duration::from_millis(10)).await;
                continue;
            }
            let why = stopped.unwrap_or_else(|| "it is too slow".into());
            crate::console::say(format!(
                "goref: the last {queued} lines of the stream were not published to {broker}: {why}"
            ));
            return;
        }
    }

    /// A heartbeat, published as soon as the broker takes it.
    pub(crate) fn beat(&self, line: Line) {
        *lock(&self.beat) = Some(line);
        self.wake.notify_one();
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Why a line was not taken.
struct NotTaken(String);

async fn publish(
    config: PublishConfig,
    publisher: Publisher,
    notices: mpsc::UnboundedSender<String>,
) {
    let subjects = Subjects::new(&config.event);
    let mut backoff = BACKOFF_BASE;
    let mut told_stream = false;
    let mut client: Option<async_nats::Client> = None;
    loop {
        let result = async {
            let nats = match &client {
                Some(nats) => nats.clone(),
                None => {
                    let nats = dial(&config, &publisher, &notices).await?;
                    client = Some(nats.clone());
                    nats
                }
            };
            let mut context = jetstream::new(nats.clone());
            context.set_timeout(ACK_WITHIN);
            let made = ensure_stream(&context, &config.stream, &subjects).await?;
            if let Some(made) = made.filter(|_| !told_stream) {
                let _ = notices.send(made);
                told_stream = true;
            }
            drain(
                &nats,
                &context,
                &publisher,
                &subjects,
                &notices,
                &mut backoff,
            )
            .await
        }
        .await;
        if let Err(NotTaken(why)) = result {
            if let Some(notice) = lock(&publisher.outlet).failed(&why, now()) {
                tracing::warn!("{notice}");
                let _ = notices.send(notice);
            }
            tokio::time::sleep(backoff).await;
            backoff = (backoff * 2).min(BACKOFF_CAP);
        }
    }
}

/// Connects; a dropped connection stops publishing at once, with its
/// notice, though the client connects again by itself.
async fn dial(
    config: &PublishConfig,
    publisher: &Publisher,
    notices: &mpsc::UnboundedSender<String>,
) -> Result<async_nats::Client, NotTaken> {
    let (outlet, notices) = (publisher.outlet.clone(), notices.clone());
    let dial = Dial {
        name: "goref referee",
        within: CONNECT_WITHIN,
        ping_every: None,
    };
    let dropped = move |up: bool| {
        if up {
            return;
        }
        if let Some(notice) = lock(&outlet).failed("the connection dropped", now()) {
            tracing::warn!("{notice}");
            let _ = notices.send(notice);
        }
    };
    connect(&config.server, &config.auth, dial, dropped)
        .await
        .map_err(|e| match e {
            NotConnected::Auth(why) => NotTaken(why),
            NotConnected::Connect(e) => NotTaken(format!("cannot connect: {e}")),
        })
}

/// Makes the stream if it is missing; a line saying so when it made it.
async fn ensure_stream(
    context: &jetstream::Context,
    settings: &StreamSettings,
    subjects: &Subjects,
) -> Result<Option<String>, NotTaken> {
    match context.stream_by_subject(subjects.welcome()).await {
        Ok(_) => return Ok(None),
        Err(e) if e.kind() != jetstream::context::GetStreamByNameErrorKind::NotFound => {
            return Err(NotTaken(format!("cannot look up the stream: {e}")));
        }
        Err(_) => {}
    }
    let config = stream::Config {
        name: settings.name.clone(),
        subjects: vec![format!("{}.>", super::outlet::SUBJECT_ROOT)],
        max_age: settings.max_age,
        max_bytes: settings.max_bytes,
        storage: stream::StorageType::File,
        ..stream::Config::default()
    };
    crate::broker::stream::made(context, config)
        .await
        .map_err(|e| NotTaken(format!("{e} for {}", subjects.all())))?;
    Ok(Some(format!(
        "publishing into the JetStream stream {} (made for goref.>)",
        settings.name
    )))
}

/// Publishes the outlet's messages as they come, until one is not taken:
/// up to [`WINDOW`] on their way at once, in order, each taken from the
/// outlet only once the broker has confirmed it. Not every message asks
/// for the broker's acknowledgement, as each would wake this thread: one
/// does each [`CONFIRM_EVERY`], or when the window is half full, or while
/// the mirror is settling, and its acknowledgement confirms every message
/// before it on the connection, which the broker takes in order. When the
/// last message went without asking and none follows it for
/// [`CONFIRM_EVERY`], it is sent again, asking: the broker drops the copy
/// by its id and acknowledges it. (Timed from the last ask instead, that
/// would fire beside the next move's own ask: a wake and a message more
/// each second of a steady game.) After a failure the next
/// drain starts again from the front: what the broker had stored of the
/// window is a prefix of it, and its ids drop the messages sent twice.
async fn drain(
    nats: &async_nats::Client,
    context: &jetstream::Context,
    publisher: &Publisher,
    subjects: &Subjects,
    notices: &mpsc::UnboundedSender<String>,
    backoff: &mut Duration,
) -> Result<(), NotTaken> {
    let mut unconfirmed: VecDeque<String> = VecDeque::new();
    let mut asking: Option<Asking> = None;
    let mut last_unasked: Option<Outgoing> = None;
    let mut last_asked = tokio::time::Instant::now();
    let mut last_sent = last_asked;
    loop {
        let beat = lock(&publisher.beat).take();
        if let Some(beat) = beat {
            let _ = nats
                .publish(subjects.live(), beat.as_bytes().to_vec().into())
                .await;
        }
        let settling = publisher.settling.load(Ordering::Relaxed);
        while unconfirmed.len() < WINDOW {
            let next = lock(&publisher.outlet).next_to_send();
            let Some(outgoing) = next else { break };
            let ask = asking.is_none()
                && (settling
                    || unconfirmed.len() + 1 >= WINDOW / 2
                    || last_asked.elapsed() >= CONFIRM_EVERY);
            unconfirmed.push_back(outgoing.id.clone());
            last_sent = tokio::time::Instant::now();
            if ask {
                asking = Some(ask_for(context, &outgoing, unconfirmed.len()).await?);
                last_asked = tokio::time::Instant::now();
                last_unasked = None;
            } else {
                send_unasked(nats, &outgoing).await?;
                last_unasked = Some(outgoing);
            }
        }
        let confirm_at = last_sent + CONFIRM_EVERY;
        if asking.is_none() && (settling || tokio::time::Instant::now() >= confirm_at) {
            if let Some(last) = last_unasked.take() {
                asking = Some(ask_for(context, &last, unconfirmed.len()).await?);
                last_asked = tokio::time::Instant::now();
            }
        }
        let confirm_due = asking.is_none() && last_unasked.is_some();
        tokio::select! {
            acknowledged = acknowledgement(&mut asking) => {
                let count = acknowledged?;
                asking = None;
                *backoff = BACKOFF_BASE;
                for id in unconfirmed.drain(..count.min(unconfirmed.len())) {
                    if let Some(notice) = lock(&publisher.outlet).sent(&id, now()) {
                        tracing::info!("{notice}");
                        let _ = notices.send(notice);
                    }
                }
            }
            _ = publisher.wake.notified() => {}
            _ = tokio::time::sleep_until(confirm_at), if confirm_due => {}
        }
    }
}

/// A message that asked for the broker's acknowledgement, which confirms
/// it and the `count` messages up to it.
struct Asking {
    ack: <jetstream::context::PublishAckFuture as IntoFuture>::IntoFuture,
    count: usize,
}

/// The message's headers: its id, and when its first line was pushed.
fn headers_of(outgoing: &Outgoing) -> async_nats::HeaderMap {
    let mut headers = async_nats::HeaderMap::new();
    headers.insert("Nats-Msg-Id", outgoing.id.as_str());
    headers.insert(SENT_HEADER, unix_us(outgoing.since).to_string().as_str());
    headers
}

/// Sends `outgoing`, asking for the broker's acknowledgement.
async fn ask_for(
    context: &jetstream::Context,
    outgoing: &Outgoing,
    count: usize,
) -> Result<Asking, NotTaken> {
    let ack = context
        .publish_with_headers(
            outgoing.subject.clone(),
            headers_of(outgoing),
            outgoing.payload.clone().into(),
        )
        .await
        .map_err(|e| NotTaken(e.to_string()))?;
    Ok(Asking {
        ack: ack.into_future(),
        count,
    })
}

/// Sends `outgoing` without asking for an acknowledgement.
async fn send_unasked(nats: &async_nats::Client, outgoing: &Outgoing) -> Result<(), NotTaken> {
    nats.publish_with_headers(
        outgoing.subject.clone(),
        headers_of(outgoing),
        outgoing.payload.clone().into(),
    )
    .await
    .map_err(|e| NotTaken(e.to_string()))
}

/// The acknowledgement asked for: how many messages it confirms. Never,
/// while none is asked for.
async fn acknowledgement(asking: &mut Option<Asking>) -> Result<usize, NotTaken> {
    let Some(asked) = asking else {
        return std::future::pending().await;
    };
    match (&mut asked.ack).await {
        Ok(_) => Ok(asked.count),
        Err(e) if e.kind() == jetstream::context::PublishErrorKind::TimedOut => Err(NotTaken(
            format!("no acknowledgement within {}s", ACK_WITHIN.as_secs()),
        )),
        Err(e) => Err(NotTaken(e.to_string())),
    }
}
