//! A spectator's side of the mirror, pure, with time passed in: the view it
//! folds, the stream it follows, how far behind the referee it is, and when
//! to try again after the connection drops.
//!
//! The shell (`app::watch`) connects, sends [`Spectator::hello`], hands
//! every line to `Spectator::receive` and pings now and then; when the
//! connection drops it waits [`Spectator::lost`] and connects again. A
//! reconnect says hello with the stream and the last `seq` seen, so that
//! the referee sends just the missed events; each event is printed (with
//! `--headless --json`) exactly once, and events a resync skipped are
//! named by a `stream_gap` line.
//!
//! The referee's stream time is found from pings: the pong with the
//! shortest round trip of the last few gives the offset between the two
//! clocks, good to half that round trip. An event's delay is when it
//! arrived, in the referee's time, less its `t_ms`.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::ui::hall::{BoardGame, HallView};
use crate::ui::LinkStatus;
use goref_core::referee::event::StreamHeader;
use goref_core::referee::GameView;

use super::wire::{
    read_event, RawEvent, RefereeMessage, SpectatorMessage, WireError, TOKEN_NEEDED, VERSION,
    WRONG_TOKEN,
};

/// How often a spectator pings.
pub(crate) const PING_EVERY: Duration = Duration::from_secs(5);
/// Nothing heard for this long shows the screen as stale.
pub(crate) const STALE_AFTER: Duration = Duration::from_secs(12);
/// Nothing heard for this long drops the connection and connects again.
pub(crate) const SILENT_LIMIT: Duration = Duration::from_secs(20);
/// How long "resynced" stays on the status line.
const NOTICE_FOR: Duration = Duration::from_secs(5);
/// The first wait before connecting again, doubled each time up to
/// [`BACKOFF_CAP`]; each wait is a random part of it (full jitter).
const BACKOFF_BASE: Duration = Duration::from_millis(500);
const BACKOFF_CAP: Duration = Duration::from_secs(10);
const BACKOFF_FLOOR: Duration = Duration::from_millis(100);
/// How many pongs the clock offset is chosen from.
const CLOCK_SAMPLES: usize = 8;

/// How the connection stands.
#[derive(Debug, Clone, PartialEq)]
pub enum Link {
    /// Connected, waiting for the referee's welcome.
    Connecting,
    /// Following the stream; `how` says how the last reconnect went.
    Live { since: Instant, how: Option<String> },
    /// The connection dropped; the next try is at `until`.
    Waiting {
        attempt: u32,
        until: Instant,
        why: String,
    },
}

/// What a line from the referee did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Update {
    /// Lines for `--headless --json`, in order.
    pub print: Vec<String>,
    /// The view changed.
    pub changed: bool,
    /// The referee is closing the connection: why, and whether to try again.
    pub bye: Option<(String, bool)>,
    /// The view starts afresh: a snapshot replaced it, or a new stream
    /// began. Its lines to print are then the stream's header or gap, not
    /// events.
    pub afresh: bool,
}

#[derive(Debug, Clone, Copy)]
struct ClockSample {
    rtt_ms: f64,
    offset_ms: f64,
}

/// A spectator: the view and everything about following the stream.
#[derive(Debug)]
pub struct Spectator {
    pub view: GameView,
    /// An event's hall, once the referee's welcome says it serves one:
    /// the event's picture and each board's game.
    pub hall: Option<HallView>,
    /// Where the referee is, as the status line names it.
    address: String,
    token: Option<String>,
    /// Ask for the whole stream on the first connect (`--headless --json`).
    from_the_start: bool,
    /// The local clock's zero.
    epoch: Instant,
    stream: Option<String>,
    /// The referee's name and version, from its welcome.
    producer: Option<String>,
    /// The newest `seq` printed, in the current stream.
    printed: u64,
    samples: VecDeque<ClockSample>,
    /// Referee's time minus local time, when only a welcome or heartbeat
    /// has given it.
    rough_offset_ms: Option<f64>,
    delay_ms: Option<f64>,
    last_heard: Option<Instant>,
    link: Link,
    attempt: u32,
    ever_live: bool,
    /// The welcome said a snapshot follows: it is the join, not a resync.
    snapshot_due: bool,
}

impl Spectator {
    pub fn new(token: Option<String>, from_the_start: bool, epoch: Instant) -> Spectator {
        Spectator {
            view: GameView::new(),
            hall: None,
            address: String::new(),
            token,
            from_the_start,
            epoch,
            stream: None,
            producer: None,
            printed: 0,
            samples: VecDeque::new(),
            rough_offset_ms: None,
            delay_ms: None,
            last_heard: None,
            link: Link::Connecting,
            attempt: 0,
            ever_live: false,
            snapshot_due: false,
        }
    }

    pub fn link(&self) -> &Link {
        &self.link
    }

    /// Where the referee is (`venue-host:7777`), as the status line names
    /// it while the spectator waits for it.
    pub(crate) fn set_address(&mut self, address: String) {
        self.address = address;
    }

    /// Whether the whole stream is asked for on the first connect.
    pub(crate) fn wants_the_whole_stream(&self) -> bool {
        self.from_the_start
    }

    /// Whether the referee has ever let this spectator in (welcomed it).
    pub(crate) fn ever_live(&self) -> bool {
        self.ever_live
    }

    /// While the referee has never let this spectator in and the next try
    /// waits: what the spectator waits for, and why the last try failed
    /// (`waiting for the referee at venue-host:7777 (Connection refused)`).
    pub(crate) fn waiting_for_the_referee(&self) -> Option<String> {
        match &self.link {
            Link::Waiting { why, .. } if !self.ever_live => {
                Some(format!("{} ({why})", self.waiting_words()))
            }
            _ => None,
        }
    }

    fn waiting_words(&self) -> String {
        match self.address.as_str() {
            "" => "waiting for the referee".to_string(),
            address => format!("waiting for the referee at {address}"),
        }
    }

    /// The line to send first on a new connection.
    pub fn hello(&self) -> String {
        let since_seq = match &self.stream {
            Some(_) => Some(self.view.last_seq),
            None => self.from_the_start.then_some(0),
        };
        SpectatorMessage::Hello {
            version: VERSION,
            token: self.token.clone(),
            stream: self.stream.clone(),
            since_seq,
        }
        .line()
    }

    /// A new connection is open.
    pub fn connected(&mut self, now: Instant) {
        self.link = Link::Connecting;
        self.last_heard = Some(now);
    }

    /// A `ping` line at `now`.
    pub fn ping(&self, now: Instant) -> String {
        SpectatorMessage::Ping {
            t_ms: self.local_ms(now) as u64,
        }
        .line()
    }

    /// Takes one line from the referee, received at `now`.
    pub(crate) fn receive(&mut self, line: &str, now: Instant) -> Result<Update, WireError> {
        let message = RefereeMessage::parse(line)?;
        self.last_heard = Some(now);
        let mut update = Update::default();
        match message {
            RefereeMessage::Welcome {
                version,
                producer,
                stream,
                host_t_ms,
                resume,
                hall,
                ..
            } => {
                if hall {
                    self.hall.get_or_insert_with(HallView::default);
                }
                if version != VERSION {
                    let why = format!(
                        "the referee speaks mirror protocol {version} ({producer}) and this \
                         goref {VERSION} (goref {}): watch with the referee's version of goref",
                        env!("CARGO_PKG_VERSION")
                    );
                    update.bye = Some((why, false));
                    return Ok(update);
                }
                self.producer = Some(producer);
                self.enter_stream(&stream, &mut update);
                self.rough_offset_ms = Some(host_t_ms as f64 - self.local_ms(now));
                let how = self.ever_live.then(|| match resume {
                    true => "resumed".to_string(),
                    false => "resynced".to_string(),
                });
                self.link = Link::Live { since: now, how };
                self.ever_live = true;
                self.attempt = 0;
                self.snapshot_due = !resume;
            }
            RefereeMessage::Snapshot {
                seq,
                view,
                board: Some(board),
                ..
            } => self.board_snapshot(board, seq, *view, now, &mut update),
            RefereeMessage::Event {
                event,
                board: Some(board),
            } => self.board_event(board, &event, now, &mut update)?,
            RefereeMessage::Hall { picture } => {
                let json = serde_json::to_string(&picture).expect("pictures serialise");
                update
                    .print
                    .push(format!(r#"{{"type":"hall","picture":{json}}}"#));
                let hall = self.hall.get_or_insert_with(HallView::default);
                if hall.picture.round != picture.round {
                    hall.games.clear();
                }
                hall.picture = *picture;
                update.changed = true;
            }
            RefereeMessage::Snapshot { stream, seq, .. }
                if !self.snapshot_due
                    && self.stream.as_deref() == Some(stream.as_str())
                    && seq == self.view.last_seq
                    && seq > 0 => {}
            RefereeMessage::Snapshot {
                stream, seq, view, ..
            } => {
                self.enter_stream(&stream, &mut update);
                let mut view = *view;
                view.repair();
                view.last_seq = seq;
                if seq > self.printed {
                    update.print.push(format!(
                        r#"{{"type":"stream_gap","first_seq":{},"last_seq":{seq}}}"#,
                        self.printed + 1
                    ));
                }
                self.printed = self.printed.max(seq);
                self.view = view;
                update.changed = true;
                update.afresh = true;
                let joining = std::mem::take(&mut self.snapshot_due);
                if let (Link::Live { how, since }, false) = (&mut self.link, joining) {
                    if seq > 0 {
                        *how = Some("resynced".into());
                        *since = now;
                    }
                }
            }
            RefereeMessage::Event { event, .. } => {
                let (stamp, known) = read_event(&event)?;
                if stamp.seq > self.view.last_seq {
                    match &known {
                        Some(stamped) => self.view.apply_stamped(stamped),
                        None => self.view.pass_over(stamp.seq, stamp.t_ms),
                    }
                    update.changed = true;
                    if let Some(host_now) = self.host_ms(now) {
                        self.delay_ms = Some((host_now - stamp.t_ms as f64).max(0.0));
                    }
                }
                if stamp.seq > self.printed {
                    self.printed = stamp.seq;
                    update.print.push(event.get().to_string());
                }
            }
            RefereeMessage::Heartbeat { host_t_ms, .. } => {
                self.rough_offset_ms = Some(host_t_ms as f64 - self.local_ms(now));
            }
            RefereeMessage::Pong { t_ms, host_t_ms } => {
                let (sent, received) = (t_ms as f64, self.local_ms(now));
                let rtt_ms = (received - sent).max(0.0);
                if rtt_ms < 60_000.0 {
                    let offset_ms = host_t_ms as f64 - (sent + rtt_ms / 2.0);
                    if self.samples.len() == CLOCK_SAMPLES {
                        self.samples.pop_front();
                    }
                    self.samples.push_back(ClockSample { rtt_ms, offset_ms });
                }
            }
            RefereeMessage::Bye { reason, retry } => {
                let tokenless = self.token.as_deref().is_none_or(str::is_empty);
                let reason = match reason.as_str() {
                    WRONG_TOKEN if tokenless => TOKEN_NEEDED.to_string(),
                    _ => reason,
                };
                update.bye = Some((reason, retry));
            }
            RefereeMessage::Unknown => {}
        }
        Ok(update)
    }

    /// A hall's board, whole: its game starts afresh from `view`.
    fn board_snapshot(
        &mut self,
        board: u32,
        seq: u64,
        mut view: GameView,
        now: Instant,
        update: &mut Update,
    ) {
        view.repair();
        view.last_seq = seq;
        if seq > 0 {
            update.print.push(format!(
                r#"{{"board":{board},"type":"stream_gap","first_seq":1,"last_seq":{seq}}}"#
            ));
        }
        let clock = Some((now, view.last_t_ms as f64));
        let game = BoardGame {
            view: Arc::new(view),
            clock,
            ..BoardGame::default()
        };
        self.hall
            .get_or_insert_with(HallView::default)
            .games
            .insert(board, game);
        update.changed = true;
    }

    /// An event of a hall's board, folded into its game and printed
    /// tagged with the board.
    fn board_event(
        &mut self,
        board: u32,
        event: &RawEvent,
        now: Instant,
        update: &mut Update,
    ) -> Result<(), WireError> {
        let (stamp, known) = read_event(event)?;
        let hall = self.hall.get_or_insert_with(HallView::default);
        let game = hall.games.entry(board).or_default();
        if stamp.seq <= game.view.last_seq {
            return Ok(());
        }
        let view = Arc::make_mut(&mut game.view);
        match &known {
            Some(stamped) => view.apply_stamped(stamped),
            None => view.pass_over(stamp.seq, stamp.t_ms),
        }
        game.clock = Some((now, stamp.t_ms as f64));
        let json = event.get();
        update.print.push(format!(
            "{{\"board\":{board},{}",
            json.strip_prefix('{').unwrap_or(json)
        ));
        update.changed = true;
        Ok(())
    }

    /// A new stream (a new game, a restarted referee) starts afresh: its
    /// header is printed before its first event.
    fn enter_stream(&mut self, stream: &str, update: &mut Update) {
        if self.stream.as_deref() == Some(stream) {
            return;
        }
        if self.stream.is_some() {
            self.view = GameView::new();
            self.delay_ms = None;
            update.changed = true;
        }
        self.stream = Some(stream.to_string());
        update.afresh = true;
        self.printed = 0;
        self.samples.clear();
        let mut header = StreamHeader::current();
        if let Some(producer) = &self.producer {
            header.producer = producer.clone();
        }
        update
            .print
            .push(serde_json::to_string(&header).expect("headers serialise"));
    }

    /// The connection dropped at `now` for `why`: how long to wait before
    /// the next try. `random` is uniform in `[0, 1)`.
    pub fn lost(&mut self, why: String, now: Instant, random: f64) -> Duration {
        let ceiling = BACKOFF_BASE
            .saturating_mul(1u32 << self.attempt.min(10))
            .min(BACKOFF_CAP);
        let wait = ceiling.mul_f64(random.clamp(0.0, 1.0)).max(BACKOFF_FLOOR);
        self.attempt = self.attempt.saturating_add(1);
        self.link = Link::Waiting {
            attempt: self.attempt,
            until: now + wait,
            why,
        };
        wait
    }

    /// The referee's stream time at `now`, in ms, once known.
    pub(crate) fn host_ms(&self, now: Instant) -> Option<f64> {
        let offset = self
            .samples
            .iter()
            .min_by(|a, b| a.rtt_ms.total_cmp(&b.rtt_ms))
            .map(|s| s.offset_ms)
            .or(self.rough_offset_ms)?;
        Some(self.local_ms(now) + offset)
    }

    fn local_ms(&self, now: Instant) -> f64 {
        now.saturating_duration_since(self.epoch).as_secs_f64() * 1000.0
    }

    /// How long since the referee was last heard.
    pub(crate) fn silent_for(&self, now: Instant) -> Duration {
        self.last_heard
            .map_or(Duration::ZERO, |at| now.saturating_duration_since(at))
    }

    /// The delay of the newest event behind the referee, in ms.
    pub fn delay_ms(&self) -> Option<f64> {
        self.delay_ms
    }

    /// The broker's task lost the broker at `now`, for `why`, and tries
    /// again by itself.
    pub(crate) fn broker_down(&mut self, why: String, now: Instant) {
        self.attempt = self.attempt.saturating_add(1);
        self.link = Link::Waiting {
            attempt: self.attempt,
            until: now,
            why,
        };
    }

    /// The broker's task reads the broker again at `now`.
    pub(crate) fn broker_up(&mut self, now: Instant) {
        if self.ever_live && matches!(self.link, Link::Waiting { .. }) {
            self.attempt = 0;
            self.link = Link::Live {
                since: now,
                how: Some("resumed".into()),
            };
        }
    }

    /// Nothing more will come once the referee goes: the game has a
    /// result, or the hall's event is over.
    pub(crate) fn finished(&self) -> bool {
        use goref_core::tournament::hall::Stage;
        match &self.hall {
            Some(hall) => matches!(hall.picture.stage, Stage::Over { .. }),
            None => self.view.result.is_some(),
        }
    }

    /// The status line's words for the connection at `now`.
    pub fn status(&self, now: Instant) -> LinkStatus {
        let (text, trouble) = match &self.link {
            Link::Connecting => ("connecting…".to_string(), true),
            Link::Waiting {
                attempt,
                until,
                why,
            } => {
                let wait = until.saturating_duration_since(now).as_secs_f64();
                let waiting = match self.ever_live {
                    true => "reconnecting…".to_string(),
                    false => self.waiting_words(),
                };
                (
                    format!("{waiting} (try {attempt} in {wait:.0}s: {why})"),
                    true,
                )
            }
            Link::Live { since, how } => {
                let silent = self.silent_for(now);
                if silent >= STALE_AFTER {
                    (
                        format!("stale: nothing heard for {}s", silent.as_secs()),
                        true,
                    )
                } else if let Some(how) = how.as_ref().filter(|_| now < *since + NOTICE_FOR) {
                    (how.clone(), false)
                } else {
                    match self.delay_ms {
                        Some(ms) => (format!("live, {ms:.0} ms behind"), false),
                        None => ("live".to_string(), false),
                    }
                }
            }
        };
        LinkStatus { text, trouble }
    }
}

#[cfg(test)]
mod tests;
