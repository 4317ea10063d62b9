//! The broker's part in a match played by workers (`goref match DIR
//! --workers`, `goref worker`): the address with its credentials, the
//! streams, subjects, consumers and object stores both sides agree on, and
//! the connection (made by `broker::connect`), waiting for a broker not
//! there yet.
//!
//! ```text
//! GOREF-WORK      work queue   goref-work.MATCH.pair.K       one job a pair
//!   consumer `workers`         pulled by every worker, explicit acks
//! GOREF-RESULTS   limits       goref-result.MATCH.pair.K     a worker's result
//!                              goref-result.MATCH.notice     taken, refused, failed
//!   consumer `match-MATCH`     the match's own
//! goref-games-MATCH  object store   pair-K/game-G/TRY/FILE, the manifest last
//! GOREF-ALIVE     limits       goref-alive.MATCH.pair.K      a try's word that it lives,
//!                              the newest kept, for half the ack deadline
//! ```
//!
//! The roots are not `goref.`: that is the audience's stream (§5d), whose
//! subjects a second stream may not overlap.

use std::path::PathBuf;
use std::time::Duration;

use async_nats::jetstream::{self, consumer, object_store, stream};

use super::address::BrokerAddress;
use super::auth::{server_of, split_user, BrokerAuth};
use super::connect::{connect, Dial, NotConnected};

/// The stream of jobs, shared by every match on the broker.
pub const WORK_STREAM: &str = "GOREF-WORK";
/// The one pull consumer every worker takes jobs from.
pub const WORK_CONSUMER: &str = "workers";
/// The stream of results and notices.
pub const RESULTS_STREAM: &str = "GOREF-RESULTS";
/// How long a job taken may go unheard of before it is handed out again,
/// unless the match sets it.
pub const DEFAULT_ACK_WAIT: Duration = Duration::from_secs(60);
/// How long the broker remembers a message id: a job published again
/// within it is dropped.
const DUPLICATE_WINDOW: Duration = Duration::from_secs(24 * 3600);
/// How long one connect may take.
const CONNECT_WITHIN: Duration = Duration::from_secs(5);
/// How often the client asks the broker whether the link still carries:
/// two unanswered, and it connects again. A link that stalls without
/// closing is found within about three of these, not the client's default
/// of minutes.
const PING_EVERY: Duration = Duration::from_secs(5);

/// The subject of pair `pair`'s job.
pub fn job_subject(match_id: &str, pair: u64) -> String {
    format!("goref-work.{match_id}.pair.{pair}")
}

/// The subject of pair `pair`'s results.
pub fn result_subject(match_id: &str, pair: u64) -> String {
    format!("goref-result.{match_id}.pair.{pair}")
}

/// The subject of the workers' notices for a match.
pub fn notice_subject(match_id: &str) -> String {
    format!("goref-result.{match_id}.notice")
}

/// The subject where the worker playing pair `pair` says it lives.
pub fn alive_subject(match_id: &str, pair: u64) -> String {
    format!("goref-alive.{match_id}.pair.{pair}")
}

/// The stream of the workers' words that they live.
pub const ALIVE_STREAM: &str = "GOREF-ALIVE";

/// The stream of words that workers live, made if missing, keeping the
/// newest of each pair for `alive_for(ack_wait)` (the worker's rule).
pub async fn alive_stream(
    js: &jetstream::Context,
    ack_wait: Duration,
) -> Result<stream::Stream, String> {
    let config = stream::Config {
        name: ALIVE_STREAM.into(),
        subjects: vec!["goref-alive.>".into()],
        storage: stream::StorageType::File,
        max_messages_per_subject: 1,
        max_age: goref_core::matches::worker::alive_for(ack_wait),
        ..stream::Config::default()
    };
    let stream = super::stream::made(js, config.clone()).await?;
    if stream.cached_info().config.max_age == config.max_age {
        return Ok(stream);
    }
    js.update_stream(config)
        .await
        .map_err(|e| format!("cannot set the stream {ALIVE_STREAM}: {e}"))?;
    js.get_stream(ALIVE_STREAM)
        .await
        .map_err(|e| format!("cannot find the stream {ALIVE_STREAM}: {e}"))
}

/// The newest word said on `subject` within the worker's `alive_for` of the ack
/// deadline; none when nothing was, or the stream is not there.
pub async fn alive_word(js: &jetstream::Context, subject: &str) -> Option<Vec<u8>> {
    let stream = js.get_stream(ALIVE_STREAM).await.ok()?;
    let message = stream.get_last_raw_message_by_subject(subject).await.ok()?;
    Some(message.payload.to_vec())
}

/// The object store of a match's game folders.
pub fn store_name(match_id: &str) -> String {
    format!("goref-games-{match_id}")
}

/// The object of file `file` of game `game` (1 or 2) of pair `pair`, in
/// the try named `try_id`.
pub fn object_name(pair: u64, game: u8, try_id: &str, file: &str) -> String {
    format!("pair-{pair}/game-{game}/{try_id}/{file}")
}

/// The match's name as a subject token: the id of its jobs and objects.
pub fn match_id(name: &str) -> String {
    super::address::subject_token(name)
}

/// A broker, as given on the command line: `nats://[USER:PASS@]HOST[:PORT]`,
/// with a credentials file and a CA for its TLS; what the command line
/// leaves out is taken from the environment (see [`BrokerAuth`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrokerLink {
    /// `HOST:PORT`.
    pub server: String,
    pub auth: BrokerAuth,
}

impl BrokerLink {
    /// Reads `nats://[USER:PASS@]HOST[:PORT]`; the port defaults to 4222.
    pub fn parse(
        url: &str,
        creds: Option<PathBuf>,
        tls_ca: Option<PathBuf>,
    ) -> Result<BrokerLink, String> {
        let bad = |why: &str| format!("{url}: {why} (e.g. nats://user:pass@broker:4222)");
        let rest = url
            .strip_prefix("nats://")
            .or_else(|| url.strip_prefix("tls://"))
            .ok_or_else(|| bad("not a nats:// address"))?
            .trim_end_matches('/');
        let (user, host) = split_user(rest).map_err(bad)?;
        if host.contains('/') {
            return Err(bad("a path after the host"));
        }
        let server = server_of(host).map_err(bad)?;
        if user.is_some() && creds.is_some() {
            return Err(bad("give a user and password or --creds, not both"));
        }
        Ok(BrokerLink {
            server,
            auth: BrokerAuth {
                user,
                creds,
                tls_ca,
            },
        })
    }

    /// This link, with what its command line left out taken from the
    /// environment.
    pub fn with_env(self) -> BrokerLink {
        BrokerLink {
            auth: self.auth.or(BrokerAuth::from_env()),
            ..self
        }
    }

    /// The address of the game or event published as `event` on this
    /// broker, with this link's credentials.
    pub fn address(&self, event: &str) -> BrokerAddress {
        BrokerAddress {
            server: self.server.clone(),
            auth: self.auth.clone(),
            event: Some(event.to_string()),
            board: None,
        }
    }

    /// The address with no credentials, as it may be shown.
    pub fn shown(&self) -> String {
        format!("nats://{}", self.server)
    }

    /// Connects, trying again every second while the broker cannot be
    /// reached (a worker or a match may start before it), and saying so
    /// once with `say`, until `stop_asked` gives a reason to stop;
    /// credentials or TLS the broker refuses are an error at once. With
    /// the client comes its link's news: false when the broker went away,
    /// true when it answers again (the client connects again by itself).
    pub async fn connect(
        &self,
        name: &str,
        say: &(dyn Fn(String) + Sync),
        stop_asked: &(dyn Fn() -> Option<String> + Sync),
    ) -> Result<(async_nats::Client, LinkNews), String> {
        let (news_tx, news) = tokio::sync::mpsc::unbounded_channel();
        let mut said = false;
        loop {
            if let Some(why) = stop_asked() {
                return Err(format!(
                    "{why} while waiting for the broker at {}",
                    self.shown()
                ));
            }
            let news_tx = news_tx.clone();
            let dial = Dial {
                name,
                within: CONNECT_WITHIN,
                ping_every: Some(PING_EVERY),
            };
            let connected = connect(&self.server, &self.auth, dial, move |up| {
                let _ = news_tx.send(up);
            });
            match connected.await {
                Ok(client) => {
                    let link = LinkNews {
                        news,
                        lost: false,
                        back_at: None,
                    };
                    return Ok((client, link));
                }
                Err(NotConnected::Auth(why)) => return Err(why),
                Err(NotConnected::Connect(e)) if is_unreachable(&e) => {
                    if !std::mem::replace(&mut said, true) {
                        say(format!(
                            "goref: waiting for the broker at {}: {e}",
                            self.shown()
                        ));
                    }
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
                Err(NotConnected::Connect(e)) => {
                    return Err(format!(
                        "the broker at {} refused the connection: {e}",
                        self.shown()
                    ))
                }
            }
        }
    }
}

/// What the client hears of its link to the broker.
pub struct LinkNews {
    news: tokio::sync::mpsc::UnboundedReceiver<bool>,
    lost: bool,
    back_at: Option<std::time::Instant>,
}

impl LinkNews {
    /// The change since last asked, once: `Some(false)` when the broker
    /// went away, `Some(true)` when it answers again after that.
    pub fn change(&mut self) -> Option<bool> {
        let was_lost = self.lost;
        while let Ok(up) = self.news.try_recv() {
            if up && self.lost {
                self.back_at = Some(std::time::Instant::now());
            }
            self.lost = !up;
        }
        (self.lost != was_lost).then_some(!self.lost)
    }

    /// Whether the link came back within `span`, as last asked by
    /// [`Self::change`] (which hears a loss and a return between two asks).
    pub fn back_within(&self, span: Duration) -> bool {
        self.back_at.is_some_and(|at| at.elapsed() < span)
    }
}

/// Whether a failed connect is the broker not there (yet): worth another
/// try. A refused password, an untrusted certificate or a TLS mismatch
/// will not mend by waiting; async-nats reports the TLS ones as I/O
/// errors, so they are told apart by what they say.
fn is_unreachable(error: &async_nats::ConnectError) -> bool {
    use async_nats::ConnectErrorKind as Kind;
    let text = error.to_string().to_ascii_lowercase();
    match error.kind() {
        Kind::TimedOut | Kind::Dns => true,
        Kind::Io => !["certificate", "tls", "handshake", "peer"]
            .iter()
            .any(|word| text.contains(word)),
        _ => false,
    }
}

/// Publishes `payload` on `subject` with the message id `id`, so that the
/// broker stores it once however often it is sent; waits for the broker
/// to say it has it.
pub async fn publish_once(
    js: &jetstream::Context,
    subject: String,
    id: &str,
    payload: String,
) -> Result<(), String> {
    let mut headers = async_nats::HeaderMap::new();
    headers.insert(async_nats::header::NATS_MESSAGE_ID, id);
    js.publish_with_headers(subject, headers, payload.into())
        .await
        .map_err(|e| format!("cannot publish {id}: {e}"))?
        .await
        .map(|_| ())
        .map_err(|e| format!("cannot publish {id}: {e}"))
}

/// The work queue and its consumer, made if missing; `ack_wait` (the
/// match's setting) replaces the consumer's when given. The consumer is
/// then made anew: a broker of the 2.9 series keeps the old deadline for
/// a running consumer whose settings were updated. Jobs held at that
/// moment are handed out again, and counted once whoever finishes first.
pub async fn work_queue(
    js: &jetstream::Context,
    ack_wait: Option<Duration>,
) -> Result<(stream::Stream, consumer::PullConsumer), String> {
    let stream = super::stream::made(
        js,
        stream::Config {
            name: WORK_STREAM.into(),
            subjects: vec!["goref-work.>".into()],
            retention: stream::RetentionPolicy::WorkQueue,
            storage: stream::StorageType::File,
            duplicate_window: DUPLICATE_WINDOW,
            ..stream::Config::default()
        },
    )
    .await?;
    let config = consumer::pull::Config {
        durable_name: Some(WORK_CONSUMER.into()),
        ack_policy: consumer::AckPolicy::Explicit,
        ack_wait: ack_wait.unwrap_or(DEFAULT_ACK_WAIT),
        max_ack_pending: -1,
        ..consumer::pull::Config::default()
    };
    if let Some(wait) = ack_wait {
        let held: Result<consumer::PullConsumer, _> = stream.get_consumer(WORK_CONSUMER).await;
        if let Ok(mut held) = held {
            let current = held.info().await.map(|i| i.config.ack_wait);
            if current.is_ok_and(|current| current != wait) {
                stream
                    .delete_consumer(WORK_CONSUMER)
                    .await
                    .map_err(|e| format!("cannot renew the consumer {WORK_CONSUMER}: {e}"))?;
            }
        }
    }
    let consumer = super::stream::consumer_made(&stream, WORK_CONSUMER, config).await?;
    Ok((stream, consumer))
}

/// The stream of results and notices, made if missing.
pub async fn results_stream(js: &jetstream::Context) -> Result<stream::Stream, String> {
    super::stream::made(
        js,
        stream::Config {
            name: RESULTS_STREAM.into(),
            subjects: vec!["goref-result.>".into()],
            storage: stream::StorageType::File,
            duplicate_window: DUPLICATE_WINDOW,
            ..stream::Config::default()
        },
    )
    .await
}

/// How long a result delivered to the match waits for its answer before
/// the broker delivers it again. Short, so that a match killed while it
/// held a result has it again soon after its restart; a result whose
/// games take longer to copy only comes again once they are counted, and
/// is then acknowledged as the pair counted from the same try.
pub const RESULTS_ACK_WAIT: Duration = Duration::from_secs(10);

/// The match's own consumer of its results and notices. One made with
/// another deadline (goref kept results for 120 s before) is made anew:
/// the results it had handed out come again and count once.
pub async fn results_consumer(
    js: &jetstream::Context,
    match_id: &str,
) -> Result<consumer::PullConsumer, String> {
    let stream = results_stream(js).await?;
    let name = format!("match-{match_id}");
    let held: Result<consumer::PullConsumer, _> = stream.get_consumer(&name).await;
    if let Ok(mut held) = held {
        let current = held.info().await.map(|i| i.config.ack_wait);
        if current.is_ok_and(|current| current != RESULTS_ACK_WAIT) {
            stream
                .delete_consumer(&name)
                .await
                .map_err(|e| format!("cannot renew the consumer {name}: {e}"))?;
        }
    }
    let config = consumer::pull::Config {
        durable_name: Some(name.clone()),
        filter_subject: format!("goref-result.{match_id}.>"),
        ack_policy: consumer::AckPolicy::Explicit,
        ack_wait: RESULTS_ACK_WAIT,
        ..consumer::pull::Config::default()
    };
    super::stream::consumer_made(&stream, &name, config).await
}

/// The match's object store of game folders, made if missing.
pub async fn game_store(
    js: &jetstream::Context,
    match_id: &str,
) -> Result<object_store::ObjectStore, String> {
    let bucket = store_name(match_id);
    match js.get_object_store(&bucket).await {
        Ok(store) => Ok(store),
        Err(_) => js
            .create_object_store(object_store::Config {
                bucket: bucket.clone(),
                storage: stream::StorageType::File,
                ..object_store::Config::default()
            })
            .await
            .map_err(|e| format!("cannot make the object store {bucket}: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_broker_address_keeps_its_credentials_out_of_sight() {
        let link = BrokerLink::parse("nats://ref:s3cret@broker.example:4333", None, None).unwrap();
        assert_eq!(link.server, "broker.example:4333");
        assert_eq!(link.auth.user, Some(("ref".into(), "s3cret".into())));
        assert_eq!(link.shown(), "nats://broker.example:4333");
        assert!(!link.auth.is_none());
        let plain = BrokerLink::parse("nats://127.0.0.1", None, None).unwrap();
        assert_eq!(plain.server, "127.0.0.1:4222");
        assert!(plain.auth.is_none());
        for bad in [
            "http://x",
            "nats://",
            "nats://u@h",
            "nats://h:port",
            "nats://h/event",
        ] {
            assert!(BrokerLink::parse(bad, None, None).is_err(), "{bad}");
        }
        let both = BrokerLink::parse("nats://u:p@h", Some("a.creds".into()), None);
        assert!(both.unwrap_err().contains("not both"));
    }

    #[test]
    fn the_subjects_stay_out_of_the_audiences_stream() {
        assert_eq!(job_subject("nightly", 7), "goref-work.nightly.pair.7");
        assert_eq!(result_subject("nightly", 7), "goref-result.nightly.pair.7");
        assert_eq!(notice_subject("nightly"), "goref-result.nightly.notice");
        assert_eq!(match_id("new vs old.2"), "new_vs_old_2");
        assert_eq!(
            object_name(7, 2, "box-1-3-99", "MANIFEST.sha256"),
            "pair-7/game-2/box-1-3-99/MANIFEST.sha256"
        );
        assert!(!job_subject("m", 1).starts_with("goref."));
        assert_eq!(alive_subject("nightly", 7), "goref-alive.nightly.pair.7");
    }
}
