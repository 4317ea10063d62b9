//! `goref --watch nats://HOST:PORT/EVENT[/BOARD]`: following a game or a
//! hall from JetStream, as a task that hands its follow the same wire lines
//! a spectator of `--serve` reads, so that the same reducer folds them.
//!
//! A late joiner reads the last `welcome`, the hall's last picture and each
//! game's last snapshot, then replays the stream from the oldest of them,
//! skipping for each subject what came before its chosen start. Once it has
//! read the stream to its end it takes the messages as the broker passes
//! them to every subscriber of their subjects, which costs the broker far
//! less than a consumer each: each message's id numbers it on its subject,
//! so one seen twice is dropped, and one that comes after a number missed
//! (or the connection coming back after a drop) sends the watch back to
//! the stream, to catch up from where it last read it. Nothing is folded
//! twice, and nothing is missed that the stream holds.
//! Watching one board of a hall, its lines are handed on as one game's:
//! untagged, and heartbeats put in the board's time.

use std::collections::HashMap;
use std::time::Duration;

use async_nats::jetstream::{self, consumer, stream::Stream as JetStream};
use futures_util::StreamExt;
use std::sync::Arc;
use tokio::sync::{mpsc, Notify};

use super::outlet::{read_message_id, Subjects};
use super::wire::RefereeMessage;
use crate::broker::address::BrokerAddress;
use crate::broker::connect::{connect, Dial, NotConnected};

/// How long one connect may take.
const CONNECT_WITHIN: Duration = Duration::from_secs(5);
/// The first wait after a failure, doubled up to [`BACKOFF_CAP`].
const BACKOFF_BASE: Duration = Duration::from_millis(250);
const BACKOFF_CAP: Duration = Duration::from_secs(5);
/// Lines waiting for the follow before the task waits for it.
const NEWS_QUEUE: usize = 1024;

/// What the task tells its follow.
#[derive(Debug)]
pub(crate) enum BrokerNews {
    /// A line of the mirror's wire.
    Line(String),
    /// The broker is there again, after [`BrokerNews::Down`].
    Up,
    /// The broker, or the event on it, cannot be read now; the task tries
    /// again.
    Down(String),
    /// Nothing more will come: the address cannot be followed.
    Failed(String),
}

/// Starts following `address` on the current runtime: from the start of
/// the stream it finds there (`from_start`, for `--headless --json`), or
/// from each game's last snapshot.
pub(crate) fn spawn(address: BrokerAddress, from_start: bool) -> mpsc::Receiver<BrokerNews> {
    let (news, receiver) = mpsc::channel(NEWS_QUEUE);
    tokio::spawn(async move {
        if let Err(Gone) = watch(address, from_start, &news).await {
            tracing::debug!("the broker watch ended: its follow went");
        }
    });
    receiver
}

/// The follow went away.
struct Gone;

/// Where to start each subject, and what to hand on.
struct Plan {
    stream: JetStream,
    /// The lines to hand on before the replay: the welcome.
    first: Vec<String>,
    /// Each subject's first stream sequence to hand on.
    starts: HashMap<String, u64>,
    filter: String,
    /// Watching board `board` of a hall, as one game.
    board: Option<u32>,
}

impl Plan {
    /// A plan for every subject of the event: a game, or a whole hall.
    fn whole(
        stream: JetStream,
        welcome: String,
        starts: HashMap<String, u64>,
        subjects: &Subjects,
    ) -> Plan {
        Plan {
            stream,
            first: vec![welcome],
            starts,
            filter: subjects.all(),
            board: None,
        }
    }

    fn start(&self) -> u64 {
        self.starts.values().copied().min().unwrap_or(1).max(1)
    }

    fn takes(&self, subject: &str, sequence: u64) -> bool {
        self.starts
            .get(subject)
            .is_none_or(|first| sequence >= *first)
    }
}

/// Why there is no plan yet.
enum NoPlan {
    /// Try again: the broker or the event is not there yet.
    Wait(String),
    /// No try will mend it.
    Never(String),
}

async fn watch(
    address: BrokerAddress,
    from_start: bool,
    news: &mpsc::Sender<BrokerNews>,
) -> Result<(), Gone> {
    let url = address.naming(address.event.as_deref().unwrap_or(""), address.board);
    let Some(event) = address.event.clone() else {
        let why = format!("{url}: name the event to watch: nats://HOST:PORT/EVENT[/BOARD]");
        return tell(news, BrokerNews::Failed(why)).await;
    };
    let subjects = Subjects::new(&event);
    let mut backoff = BACKOFF_BASE;
    let reconnected = Arc::new(Notify::new());
    let client = loop {
        let (on_connect, on_drop) = (reconnected.clone(), news.clone());
        let dial = Dial {
            name: "goref watcher",
            within: CONNECT_WITHIN,
            ping_every: None,
        };
        let connected = connect(&address.server, &address.auth, dial, move |up| match up {
            true => on_connect.notify_one(),
            false => {
                let why = "the connection to the broker dropped".to_string();
                let _ = on_drop.try_send(BrokerNews::Down(why));
            }
        })
        .await;
        match connected {
            Ok(client) => break client,
            Err(NotConnected::Auth(why)) => return tell(news, BrokerNews::Failed(why)).await,
            Err(NotConnected::Connect(e)) => {
                use async_nats::ConnectErrorKind::{
                    Authentication, AuthorizationViolation, Dns, ServerParse,
                };
                let why = format!("cannot connect to nats://{}: {e}", address.server);
                if matches!(
                    e.kind(),
                    Dns | ServerParse | Authentication | AuthorizationViolation
                ) {
                    return tell(news, BrokerNews::Failed(why)).await;
                }
                tell(news, BrokerNews::Down(why)).await?;
                pause(&mut backoff).await;
            }
        }
    };
    let context = jetstream::new(client.clone());
    let mut beats = client.subscribe(subjects.live()).await.ok();
    let filter = match address.board {
        Some(board) => subjects.game_wildcard(Some(board)),
        None => subjects.all(),
    };
    let mut fresh = client.subscribe(filter).await.ok();
    let plan = loop {
        match plan(&context, &subjects, address.board, from_start).await {
            Ok(plan) => break plan,
            Err(NoPlan::Never(why)) => return tell(news, BrokerNews::Failed(why)).await,
            Err(NoPlan::Wait(why)) => {
                tell(news, BrokerNews::Down(why)).await?;
                pause(&mut backoff).await;
            }
        }
    };
    tell(news, BrokerNews::Up).await?;
    for line in &plan.first {
        tell(news, BrokerNews::Line(line.clone())).await?;
    }
    let _ = tokio::time::timeout(Duration::ZERO, reconnected.notified()).await;
    let mut watching = Watching {
        plan,
        next: 0,
        taken: HashMap::new(),
        one_board: OneBoard::default(),
        news,
    };
    watching.next = watching.plan.start();
    let mut down = false;
    loop {
        let round = async {
            if !watching.catch_up(&mut beats, &reconnected).await? {
                return Ok(());
            }
            if std::mem::take(&mut down) {
                backoff = BACKOFF_BASE;
            }
            tell(news, BrokerNews::Up).await.map_err(Round::Gone)?;
            watching.follow(&mut fresh, &mut beats, &reconnected).await
        };
        match round.await {
            Err(Round::Gone(gone)) => return Err(gone),
            Err(Round::Down(why)) => {
                down = true;
                tell(news, BrokerNews::Down(why)).await?;
                pause(&mut backoff).await;
            }
            Ok(()) => {}
        }
    }
}

/// Why a round of the watch ended.
enum Round {
    Gone(Gone),
    /// The broker cannot be read now: wait, then catch up again.
    Down(String),
}

impl From<Gone> for Round {
    fn from(gone: Gone) -> Round {
        Round::Gone(gone)
    }
}

/// A watch under way: each round catches up from the stream, then follows
/// the messages as the broker passes them on, until the connection comes
/// back after a drop or a message is missed.
struct Watching<'a> {
    plan: Plan,
    /// The stream sequence to catch up from.
    next: u64,
    /// Each run's and subject's newest message number taken.
    taken: HashMap<String, u64>,
    one_board: OneBoard,
    news: &'a mpsc::Sender<BrokerNews>,
}

/// Whether a message is new, old, or comes after one missed.
#[derive(Debug, PartialEq, Eq)]
enum Order {
    New,
    Old,
    AfterAGap,
}

impl Watching<'_> {
    /// Reads the stream from `next` to its end as it is now; false when the
    /// connection came back meanwhile, to catch up again.
    async fn catch_up(
        &mut self,
        beats: &mut Option<async_nats::Subscriber>,
        reconnected: &Notify,
    ) -> Result<bool, Round> {
        let config = consumer::pull::OrderedConfig {
            filter_subject: self.plan.filter.clone(),
            deliver_policy: consumer::DeliverPolicy::ByStartSequence {
                start_sequence: self.next,
            },
            ..Default::default()
        };
        let consumer = match self.plan.stream.create_consumer(config).await {
            Ok(consumer) => consumer,
            Err(e) => return Err(Round::Down(e.to_string())),
        };
        if consumer.cached_info().num_pending == 0 {
            return Ok(true);
        }
        let mut messages = consumer
            .messages()
            .await
            .map_err(|e| Round::Down(e.to_string()))?;
        loop {
            tokio::select! {
                message = messages.next() => match message {
                    Some(Ok(message)) => {
                        let Ok(info) = message.info() else { continue };
                        let sequence = info.stream_sequence;
                        self.next = sequence + 1;
                        let order = self.order(message.headers.as_ref(), true);
                        if order == Order::New && self.plan.takes(message.subject.as_str(), sequence) {
                            self.hand_on(&message.payload).await?;
                        }
                        if info.pending == 0 {
                            return Ok(true);
                        }
                    }
                    Some(Err(e)) => return Err(Round::Down(e.to_string())),
                    None => return Err(Round::Down("the stream's consumer ended".into())),
                },
                _ = reconnected.notified() => return Ok(false),
                Some(beat) = next_message(beats) => self.beat(&beat.payload).await?,
            }
        }
    }

    /// Takes the messages as the broker passes them on, until one is missed
    /// or the connection comes back after a drop.
    async fn follow(
        &mut self,
        fresh: &mut Option<async_nats::Subscriber>,
        beats: &mut Option<async_nats::Subscriber>,
        reconnected: &Notify,
    ) -> Result<(), Round> {
        loop {
            tokio::select! {
                message = next_message(fresh) => match message {
                    Some(message) => match self.order(message.headers.as_ref(), false) {
                        Order::New => self.hand_on(&message.payload).await?,
                        Order::Old => {}
                        Order::AfterAGap => {
                            tracing::info!("a message was missed: catching up from the stream");
                            return Ok(());
                        }
                    },
                    None => return Err(Round::Down("the subscription ended".into())),
                },
                _ = reconnected.notified() => {
                    tracing::info!("the broker is back: catching up after {}", self.next - 1);
                    return Ok(());
                }
                Some(beat) = next_message(beats) => self.beat(&beat.payload).await?,
            }
        }
    }

    /// Where a message with these headers stands among those taken; taken
    /// now if new. A catch-up takes a message after a gap too (the stream
    /// holds what there is: a gap there is a queue the referee replaced).
    fn order(&mut self, headers: Option<&async_nats::HeaderMap>, stored: bool) -> Order {
        let id = headers.and_then(|h| h.get("Nats-Msg-Id"));
        let Some((key, number)) = id.and_then(|id| read_message_id(id.as_str())) else {
            return Order::New;
        };
        let last = self.taken.get(key).copied().unwrap_or(0);
        match number {
            n if n <= last => Order::Old,
            n if n > last + 1 && last > 0 && !stored => Order::AfterAGap,
            n => {
                self.taken.insert(key.to_string(), n);
                Order::New
            }
        }
    }

    async fn hand_on(&mut self, payload: &[u8]) -> Result<(), Gone> {
        let Ok(text) = std::str::from_utf8(payload) else {
            return Ok(());
        };
        for line in text.lines() {
            let line = match self.plan.board {
                Some(_) => self.one_board.line(line),
                None => Some(line.to_string()),
            };
            if let Some(line) = line {
                tell(self.news, BrokerNews::Line(line)).await?;
            }
        }
        Ok(())
    }

    async fn beat(&mut self, payload: &[u8]) -> Result<(), Gone> {
        self.hand_on(payload).await
    }
}

async fn next_message(
    subscription: &mut Option<async_nats::Subscriber>,
) -> Option<async_nats::Message> {
    match subscription {
        Some(subscription) => subscription.next().await,
        None => std::future::pending().await,
    }
}

async fn tell(news: &mpsc::Sender<BrokerNews>, what: BrokerNews) -> Result<(), Gone> {
    if let BrokerNews::Down(why) | BrokerNews::Failed(why) = &what {
        tracing::info!("watching the broker: {why}");
    }
    news.send(what).await.map_err(|_| Gone)
}

async fn pause(backoff: &mut Duration) {
    tokio::time::sleep(*backoff).await;
    *backoff = (*backoff * 2).min(BACKOFF_CAP);
}

/// The last message on `subject` after stream sequence `after`: its
/// sequence and text.
async fn last(
    stream: &JetStream,
    subject: &str,
    after: u64,
) -> Result<Option<(u64, String)>, NoPlan> {
    use jetstream::stream::LastRawMessageErrorKind;
    match stream.get_last_raw_message_by_subject(subject).await {
        Ok(message) if message.sequence <= after => Ok(None),
        Ok(message) => Ok(Some((
            message.sequence,
            String::from_utf8_lossy(&message.payload).into_owned(),
        ))),
        Err(e) if e.kind() == LastRawMessageErrorKind::NoMessageFound => Ok(None),
        Err(e) => Err(NoPlan::Wait(format!("cannot read {subject}: {e}"))),
    }
}

/// Where the watch starts: the last welcome, then the picture and each
/// game's last snapshot, or everything after the welcome (`from_start`).
async fn plan(
    context: &jetstream::Context,
    subjects: &Subjects,
    board: Option<u32>,
    from_start: bool,
) -> Result<Plan, NoPlan> {
    let nothing = || NoPlan::Wait(format!("nothing is published as {} yet", subjects.event()));
    let name = context
        .stream_by_subject(subjects.welcome())
        .await
        .map_err(|_| nothing())?;
    let stream = context
        .get_stream(&name)
        .await
        .map_err(|e| NoPlan::Wait(format!("cannot open the stream {name}: {e}")))?;
    let (welcome_at, welcome) = last(&stream, &subjects.welcome(), 0)
        .await?
        .ok_or_else(nothing)?;
    let hall = match RefereeMessage::parse(&welcome) {
        Ok(RefereeMessage::Welcome { hall, .. }) => hall,
        _ => {
            return Err(NoPlan::Never(format!(
                "{} is not a goref stream",
                subjects.welcome()
            )))
        }
    };
    let mut starts = HashMap::from([(subjects.welcome(), welcome_at + 1)]);
    let game_from = |starts: &mut HashMap<String, u64>, board: Option<u32>, at: u64| {
        let at = match from_start {
            true => welcome_at + 1,
            false => at,
        };
        starts.insert(subjects.snapshots(board), at);
        starts.insert(subjects.events(board), at);
    };
    match (hall, board) {
        (false, Some(_)) => Err(NoPlan::Never(format!(
            "{} is one game, not an event's hall: watch it without a board",
            subjects.event()
        ))),
        (true, Some(board)) => {
            let (at, _) = last(&stream, &subjects.snapshots(Some(board)), welcome_at)
                .await?
                .ok_or_else(|| NoPlan::Wait(format!("board {board} is not published yet")))?;
            let mut starts = HashMap::new();
            game_from(&mut starts, Some(board), at);
            Ok(Plan {
                stream,
                first: vec![OneBoard::default().line(&welcome).unwrap_or(welcome)],
                starts,
                filter: subjects.game_wildcard(Some(board)),
                board: Some(board),
            })
        }
        (false, None) => {
            if let Some((at, _)) = last(&stream, &subjects.snapshots(None), welcome_at).await? {
                game_from(&mut starts, None, at);
            }
            Ok(Plan::whole(stream, welcome, starts, subjects))
        }
        (true, None) => {
            if let Some((at, picture)) = last(&stream, &subjects.hall(), welcome_at).await? {
                starts.insert(
                    subjects.hall(),
                    if from_start { welcome_at + 1 } else { at },
                );
                if let Ok(RefereeMessage::Hall { picture }) = RefereeMessage::parse(&picture) {
                    for board in picture.boards.iter().map(|b| b.board) {
                        if let Some((at, _)) =
                            last(&stream, &subjects.snapshots(Some(board)), welcome_at).await?
                        {
                            game_from(&mut starts, Some(board), at);
                        }
                    }
                }
            }
            Ok(Plan::whole(stream, welcome, starts, subjects))
        }
    }
}

/// One board of a hall, watched as one game.
#[derive(Debug, Default)]
struct OneBoard {
    /// The hall's time less the board's, learnt from each event.
    offset_ms: i64,
    /// The game on the board: how many there were before it, its folder
    /// and its newest `seq`.
    games: u32,
    folder: Option<String>,
    seq: u64,
}

impl OneBoard {
    /// A hall's line as one game's: its welcome not a hall's, its snapshots
    /// and events without their board. The hall's boards share its stream;
    /// here each game is a stream of its own, so that the next round's
    /// game on the board starts afresh.
    fn line(&mut self, line: &str) -> Option<String> {
        match RefereeMessage::parse(line).ok()? {
            RefereeMessage::Welcome {
                version,
                producer,
                stream,
                seq,
                host_t_ms,
                resume,
                ..
            } => Some(
                RefereeMessage::Welcome {
                    version,
                    producer,
                    stream: self.game_stream(&stream),
                    seq,
                    host_t_ms,
                    resume,
                    hall: false,
                }
                .line(),
            ),
            RefereeMessage::Snapshot {
                stream, seq, view, ..
            } => {
                let other_folder = matches!(
                    (&self.folder, &view.folder),
                    (Some(was), Some(is)) if was != is
                );
                let another_game = other_folder || seq < self.seq;
                if another_game {
                    self.games += 1;
                    self.folder = None;
                }
                self.seq = seq;
                self.folder = view.folder.clone().or(self.folder.take());
                let game = self.game_stream(&stream);
                Some(RefereeMessage::snapshot_line(&game, seq, &view, None))
            }
            RefereeMessage::Event { event, .. } => {
                #[derive(serde::Deserialize)]
                struct At {
                    at: Option<u64>,
                    event: super::wire::EventStamp,
                }
                if let Ok(At { at, event: stamp }) = serde_json::from_str::<At>(line) {
                    if let Some(at) = at {
                        self.offset_ms = at as i64 - stamp.t_ms as i64;
                    }
                    self.seq = self.seq.max(stamp.seq);
                }
                Some(RefereeMessage::event_line(event.get()))
            }
            RefereeMessage::Heartbeat { seq, host_t_ms } => Some(
                RefereeMessage::Heartbeat {
                    seq,
                    host_t_ms: (host_t_ms as i64 - self.offset_ms).max(0) as u64,
                }
                .line(),
            ),
            _ => None,
        }
    }

    fn game_stream(&self, hall_stream: &str) -> String {
        format!("{hall_stream}/{}", self.games)
    }
}

#[cfg(test)]
mod tests;
