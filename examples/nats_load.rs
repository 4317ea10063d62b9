//! Watchers through a broker: a real referee publishing to a local
//! `nats-server -js`, and W watchers following the game from it.
//!
//! ```text
//! cargo build --release && \
//! cargo run --release --example nats_load -- [WATCHERS] [THINK_MS] [CONNECTIONS] [pull|push|core]
//! ```
//!
//! `live` (the default) reads as `goref --watch nats://…` follows a game
//! once it has caught up from the stream, a subscription each to the
//! game's subject; `pull` an ordered pull consumer each, as it catches up;
//! `push` an ordered push consumer each, for comparison.
//!
//! Starts its own `nats-server -js` on a free loopback port, then plays the
//! same 19x19 game of the built-in engine twice with `goref play --headless
//! --publish`: once with nobody watching, once with WATCHERS (default
//! 2000) readers of the game's events, spread over CONNECTIONS client
//! connections (default 40). It prints:
//!
//! - the event latency, from the referee handing a message's first event
//!   to its publisher (the message's `Goref-Sent-Us`) to a watcher taking
//!   it, over every delivery: p50, p99, max, and how many deliveries of
//!   how many were expected;
//! - the referee process's CPU per move, with and without the watchers.
//!
//! The watchers run in this process; the referee, its engines, the broker
//! and they share the machine.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

mod support;

use async_nats::jetstream::{self, consumer, stream};
use futures_util::StreamExt;

/// The names the two runs publish under.
const ALONE: &str = "load-alone";
const WATCHED: &str = "load-watched";

fn main() {
    let mut args = std::env::args().skip(1);
    let watchers: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(2000);
    let think_ms: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(100);
    let connections: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(40);
    let how = match args.next().as_deref() {
        None | Some("live") => How::Live,
        Some("pull") => How::Pull,
        Some("push") => How::Push,
        Some(other) => panic!("{other}: live, pull or push"),
    };
    let goref = support::goref_beside().unwrap_or_else(|e| panic!("{e}"));
    let store = tempfile_dir();
    let port = free_port();
    let mut broker = Command::new("nats-server")
        .args(["-js", "-a", "127.0.0.1", "-p", &port.to_string(), "-sd"])
        .arg(&store)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("nats-server runs (apt-get install nats-server)");
    let url = format!("nats://127.0.0.1:{port}");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(make_stream(&url));
    println!("goref: {}", goref.display());
    println!("game: 19x19, built-in engine against itself, {think_ms} ms a move");
    println!("broker: nats-server on {url}\n");

    let alone = play(&goref, &url, ALONE, think_ms);
    println!(
        "nobody watching: {} moves, goref CPU {:.3} ms a move",
        alone.moves,
        alone.cpu_ms / alone.moves as f64
    );

    let latencies = Arc::new(Mutex::new(Vec::<u64>::with_capacity(4_000_000)));
    let messages = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let ready = runtime.block_on(watch(&url, watchers, connections, how, latencies.clone()));
    println!(
        "{ready} watchers of {watchers} ready in {:.1}s over {connections} connections",
        started.elapsed().as_secs_f64()
    );
    let watched = play(&goref, &url, WATCHED, think_ms);
    std::thread::sleep(Duration::from_secs(3));
    runtime.block_on(count_messages(&url, messages.clone()));
    let mut latencies = std::mem::take(&mut *latencies.lock().unwrap());
    latencies.sort_unstable();
    let published = messages.load(Ordering::Relaxed);
    let expected = published * ready as u64;
    let at = |q: f64| latencies[((latencies.len() as f64 - 1.0) * q) as usize] as f64 / 1000.0;
    println!(
        "{ready} watching: {} moves, goref CPU {:.3} ms a move",
        watched.moves,
        watched.cpu_ms / watched.moves as f64
    );
    if latencies.is_empty() {
        println!("no deliveries");
    } else {
        println!(
            "latency over {} deliveries of {expected} ({published} messages): p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
            latencies.len(),
            at(0.5),
            at(0.99),
            at(1.0)
        );
    }
    let _ = broker.kill();
    let _ = broker.wait();
    let _ = std::fs::remove_dir_all(&store);
}

fn tempfile_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nats_load.{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

async fn make_stream(url: &str) {
    let started = Instant::now();
    let client = loop {
        match async_nats::connect(url).await {
            Ok(client) => break client,
            Err(_) if started.elapsed() < Duration::from_secs(10) => {
                tokio::time::sleep(Duration::from_millis(100)).await
            }
            Err(e) => panic!("the broker does not answer: {e}"),
        }
    };
    jetstream::new(client)
        .get_or_create_stream(stream::Config {
            name: "GOREF".into(),
            subjects: vec!["goref.>".into()],
            ..Default::default()
        })
        .await
        .unwrap();
}

/// The watched game's event messages the broker holds.
async fn count_messages(url: &str, count: Arc<AtomicU64>) {
    let client = async_nats::connect(url).await.unwrap();
    let stream = jetstream::new(client).get_stream("GOREF").await.unwrap();
    let subject = format!("goref.{WATCHED}.game.event");
    let mut subjects = stream.info_with_subjects(&subject).await.unwrap();
    while let Some(Ok((name, messages))) = subjects.next().await {
        if name == subject {
            count.store(messages as u64, Ordering::Relaxed);
        }
    }
}

/// How a watcher reads the broker.
#[derive(Debug, Clone, Copy)]
enum How {
    /// A subscription to the game's subject, as `goref --watch nats://…`
    /// follows a game once it has caught up from the stream.
    Live,
    /// An ordered pull consumer each, as it catches up.
    Pull,
    /// An ordered push consumer each.
    Push,
}

/// Starts `watchers` readers of the game's events, new messages only; how
/// many started.
async fn watch(
    url: &str,
    watchers: usize,
    connections: usize,
    how: How,
    latencies: Arc<Mutex<Vec<u64>>>,
) -> usize {
    let mut contexts = Vec::new();
    for _ in 0..connections.max(1) {
        let client = async_nats::connect(url).await.unwrap();
        contexts.push((client.clone(), jetstream::new(client)));
    }
    let subject = format!("goref.{WATCHED}.game.event");
    let mut ready = 0;
    let mut pending = Vec::new();
    for n in 0..watchers {
        let (client, context) = contexts[n % contexts.len()].clone();
        let (subject, latencies) = (subject.clone(), latencies.clone());
        pending.push(tokio::spawn(async move {
            let taken = move |headers: Option<&async_nats::HeaderMap>| {
                let sent = headers
                    .and_then(|h| h.get("Goref-Sent-Us"))
                    .and_then(|v| v.as_str().parse::<u64>().ok());
                if let Some(sent) = sent {
                    let taken = unix_us().saturating_sub(sent);
                    latencies.lock().unwrap().push(taken);
                }
            };
            match how {
                How::Pull => {
                    let stream = context.get_stream("GOREF").await.ok()?;
                    let consumer = stream
                        .create_consumer(consumer::pull::OrderedConfig {
                            filter_subject: subject,
                            deliver_policy: consumer::DeliverPolicy::New,
                            ..Default::default()
                        })
                        .await
                        .ok()?;
                    let mut messages = consumer.messages().await.ok()?;
                    tokio::spawn(async move {
                        while let Some(Ok(message)) = messages.next().await {
                            taken(message.headers.as_ref());
                        }
                    });
                }
                How::Push => {
                    let stream = context.get_stream("GOREF").await.ok()?;
                    let consumer = stream
                        .create_consumer(consumer::push::OrderedConfig {
                            deliver_subject: client.new_inbox(),
                            filter_subject: subject,
                            deliver_policy: consumer::DeliverPolicy::New,
                            ..Default::default()
                        })
                        .await
                        .ok()?;
                    let mut messages = consumer.messages().await.ok()?;
                    tokio::spawn(async move {
                        while let Some(Ok(message)) = messages.next().await {
                            taken(message.headers.as_ref());
                        }
                    });
                }
                How::Live => {
                    let mut messages = client.subscribe(subject).await.ok()?;
                    tokio::spawn(async move {
                        while let Some(message) = messages.next().await {
                            taken(message.headers.as_ref());
                        }
                    });
                }
            }
            Some(())
        }));
        if pending.len() == 100 {
            for task in pending.drain(..) {
                ready += usize::from(matches!(task.await, Ok(Some(()))));
            }
        }
    }
    for task in pending {
        ready += usize::from(matches!(task.await, Ok(Some(()))));
    }
    ready
}

fn unix_us() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_micros() as u64)
}

struct Played {
    moves: usize,
    cpu_ms: f64,
}

/// Plays the game once, publishing it; its moves and the referee's CPU.
fn play(goref: &Path, url: &str, name: &str, think_ms: u64) -> Played {
    let folder = std::env::temp_dir().join(format!(
        "nats_load.game.{}.{}",
        std::process::id(),
        unix_us()
    ));
    let child: Child = Command::new(goref)
        .args([
            "play",
            "--black",
            &format!("bot:1,think={think_ms}ms"),
            "--white",
            &format!("bot:2,think={think_ms}ms"),
            "--size",
            "19",
            "--headless",
            "--publish",
            &format!("{url}/{name}"),
            "--game-dir",
        ])
        .arg(&folder)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("goref starts");
    let cpu_ms = wait_for_cpu(child);
    let journal = std::fs::read_to_string(folder.join("journal.jsonl")).unwrap_or_default();
    let moves = journal
        .lines()
        .filter(|l| l.contains(r#""type":"move""#))
        .count();
    let _ = std::fs::remove_dir_all(&folder);
    Played {
        moves: moves.max(1),
        cpu_ms,
    }
}

/// Waits for `child`; its own CPU, user and system, in ms, as last read
/// before it ended (in clock ticks: 10 ms).
fn wait_for_cpu(mut child: Child) -> f64 {
    let mut cpu_ms = 0.0;
    while child.try_wait().ok().flatten().is_none() {
        if let Some(ms) = support::cpu_ms_of(child.id()) {
            cpu_ms = ms;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    cpu_ms
}
