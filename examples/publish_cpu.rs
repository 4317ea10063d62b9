//! What publishing to a broker costs the referee a move (DESIGN.md
//! §6: under 0.05 ms).
//!
//! `examples/referee_cpu` measures a whole game from outside, and its
//! run-to-run noise here (the disk's syncs, the engines) is larger than
//! this budget. This example measures the publishing alone, in the shape
//! it has in a game: a real game's events (the built-in engine against
//! itself on 19x19, played by the real binary and read back from its
//! journal) are handed on one move's batch at a time, a move every
//! `PACE_MS`, on a current-thread runtime as the driver does. Three runs:
//!
//! - to a subscriber that only drops them: the pacing's own cost (a wake
//!   a move);
//! - sent as plainly as a move can be published, one core NATS message on
//!   a TCP connection with nothing asked back: the floor of a send a move;
//! - published by the mirror on its own thread, as `play --publish` does.
//!
//! The broker is the example's own `nats-server -js` on loopback. The CPU
//! and the voluntary context switches come from `getrusage(RUSAGE_SELF)`,
//! every thread's; the difference a move from the first run is what
//! publishing costs, acknowledgements, heartbeats and the kernel's TCP
//! send included. On loopback the sender also pays for the broker's side
//! of TCP, which a broker on another machine would not cost the referee.
//!
//! ```text
//! cargo build --release --examples
//! target/release/examples/publish_cpu [PACE_MS ...]    # default: 20 200 1000
//! ```

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use goref::mirror::outlet::OutletLimits;
use goref::mirror::publisher::{PublishConfig, StreamSettings};
use goref::mirror::server::{MirrorServer, ServeConfig};
use goref::shell_time::now;
use goref_core::referee::{EventBatch, GameEvent, HandedOn};
use tokio::sync::mpsc;

/// A run's CPU on its thread.
#[derive(Debug, Clone, Copy)]
struct Usage {
    cpu_ms: f64,
    wakes: i64,
}

/// The process's usage, every thread's (the mirror's too).
fn usage() -> Usage {
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `usage` is a valid rusage for the call to fill.
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    let ms = |t: libc::timeval| t.tv_sec as f64 * 1e3 + t.tv_usec as f64 / 1e3;
    Usage {
        cpu_ms: ms(usage.ru_utime) + ms(usage.ru_stime),
        wakes: usage.ru_nvcsw,
    }
}

fn main() -> Result<(), String> {
    let paces: Vec<u64> = match std::env::args().skip(1).collect::<Vec<_>>() {
        args if args.is_empty() => vec![20, 200, 1000],
        args => args
            .iter()
            .map(|a| a.parse().map_err(|_| format!("not a number of ms: {a}")))
            .collect::<Result<_, _>>()?,
    };
    let goref = support::goref_beside()?;
    let scratch = std::env::temp_dir().join(format!("publish_cpu.{}", std::process::id()));
    std::fs::create_dir_all(&scratch).map_err(|e| e.to_string())?;
    let batches = recorded_game(&goref, &scratch.join("game"))?;
    let moves = batches.len();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map_err(|e| e.to_string())?
        .port();
    let mut broker = Command::new("nats-server")
        .args(["-js", "-a", "127.0.0.1", "-p", &port.to_string(), "-sd"])
        .arg(scratch.join("store"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("nats-server (apt-get install nats-server): {e}"))?;
    std::thread::sleep(Duration::from_millis(500));
    println!("a 19x19 game of the built-in engine: {moves} moves, published to nats-server -js on 127.0.0.1:{port}");
    for pace in paces {
        let pace = Duration::from_millis(pace);
        let alone = run(&batches, pace, Sink::Drop)?;
        let floor = run(&batches, pace, Sink::RawSend(port))?;
        let published = run(&batches, pace, Sink::Mirror(port))?;
        let per_move = |u: Usage| (u.cpu_ms / moves as f64, u.wakes as f64 / moves as f64);
        let (alone_ms, alone_wakes) = per_move(alone);
        let (floor_ms, _) = per_move(floor);
        let (pub_ms, pub_wakes) = per_move(published);
        println!(
            "a move every {:>4} ms: alone {alone_ms:.4} ms a move ({alone_wakes:.2} wakes); \
             one raw send a move {floor_ms:.4}; publishing {pub_ms:.4} ({pub_wakes:.2} wakes)",
            pace.as_millis(),
        );
        println!(
            "    publishing adds {:.4} ms and {:.2} wakes a move; one send a move costs {:.4}, \
             and goref {:.4} above it",
            pub_ms - alone_ms,
            pub_wakes - alone_wakes,
            floor_ms - alone_ms,
            pub_ms - floor_ms
        );
    }
    let _ = broker.kill();
    let _ = broker.wait();
    let _ = std::fs::remove_dir_all(&scratch);
    Ok(())
}

/// Where a run's batches go.
#[derive(Debug, Clone, Copy)]
enum Sink {
    /// Dropped: the pacing's own cost.
    Drop,
    /// The floor of publishing a move: its events as JSON lines, sent as
    /// one core NATS `PUB` on a plain TCP connection to the broker on this
    /// port, with no acknowledgement and nothing else.
    RawSend(u16),
    /// Published by the mirror, on its own thread, as `play --publish`
    /// does.
    Mirror(u16),
}

/// One run on a fresh current-thread runtime: the batches handed on at
/// `pace` to `sink`; the thread's usage from the first batch to the last
/// one taken.
fn run(batches: &[EventBatch], pace: Duration, sink: Sink) -> Result<Usage, String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(async {
        let mut mirror = None;
        let feed = match sink {
            Sink::Mirror(port) => {
                let server = MirrorServer::start(ServeConfig {
                    publish: Some(publish_config(port, "mirror", pace)),
                    ..ServeConfig::default()
                })
                .map_err(|e| e.to_string())?;
                let (feed, _notes) = server.attach_game();
                mirror = Some(server);
                tokio::time::sleep(Duration::from_millis(500)).await;
                feed
            }
            Sink::Drop => {
                let (feed, mut dropped) = mpsc::unbounded_channel::<EventBatch>();
                tokio::spawn(async move { while dropped.recv().await.is_some() {} });
                feed
            }
            Sink::RawSend(port) => {
                let (feed, batches) = mpsc::unbounded_channel::<EventBatch>();
                let stream = tokio::net::TcpStream::connect(("127.0.0.1", port))
                    .await
                    .map_err(|e| e.to_string())?;
                tokio::spawn(send_raw(stream, batches));
                tokio::time::sleep(Duration::from_millis(500)).await;
                feed
            }
        };
        let before = usage();
        let mut next = tokio::time::Instant::now();
        for batch in batches {
            next += pace;
            tokio::time::sleep_until(next).await;
            let at = now();
            let batch = batch
                .iter()
                .map(|handed| HandedOn {
                    at,
                    ..handed.clone()
                })
                .collect();
            let _ = feed.send(batch);
        }
        tokio::time::sleep(pace).await;
        let after = usage();
        drop(feed);
        if let Some(mirror) = mirror {
            tokio::task::spawn_blocking(move || mirror.shutdown())
                .await
                .ok();
        }
        Ok(Usage {
            cpu_ms: after.cpu_ms - before.cpu_ms,
            wakes: after.wakes - before.wakes,
        })
    })
}

fn publish_config(port: u16, how: &str, pace: Duration) -> PublishConfig {
    PublishConfig {
        server: format!("127.0.0.1:{port}"),
        auth: Default::default(),
        event: format!("{how}{}", pace.as_millis()),
        stream: StreamSettings::default(),
        limits: OutletLimits::default(),
    }
}

/// Sends each batch as one core NATS message, as plainly as it can be.
async fn send_raw(
    mut stream: tokio::net::TcpStream,
    mut batches: mpsc::UnboundedReceiver<EventBatch>,
) {
    use tokio::io::AsyncWriteExt;
    let _ = stream.set_nodelay(true);
    let hello = b"CONNECT {\"verbose\":false,\"pedantic\":false}\r\n";
    if stream.write_all(hello).await.is_err() {
        return;
    }
    let mut message = Vec::new();
    while let Some(batch) = batches.recv().await {
        let mut payload = Vec::new();
        for handed in &batch {
            match &handed.json {
                Some(json) => payload.extend_from_slice(json.as_bytes()),
                None => {
                    let _ = serde_json::to_writer(&mut payload, &handed.stamped);
                }
            }
            payload.push(b'\n');
        }
        message.clear();
        message.extend_from_slice(format!("PUB floor.game {}\r\n", payload.len()).as_bytes());
        message.extend_from_slice(&payload);
        message.extend_from_slice(b"\r\n");
        if stream.write_all(&message).await.is_err() {
            return;
        }
    }
}

/// A game played by the real binary, its journal read back and cut into
/// the batches the driver hands on: a move with the events up to the next
/// one that is not a move.
fn recorded_game(goref: &Path, folder: &PathBuf) -> Result<Vec<EventBatch>, String> {
    let played = Command::new(goref)
        .args(["play", "--headless", "--size", "19"])
        .args(["--black", "bot:1", "--white", "bot:2", "--game-dir"])
        .arg(folder)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|e| e.to_string())?;
    if !played.success() {
        return Err(format!("the game failed: {played}"));
    }
    let journal =
        goref::journal::reader::read(&folder.join("journal.jsonl")).map_err(|e| e.to_string())?;
    let at = now();
    let mut batches = Vec::new();
    let mut batch: EventBatch = Vec::new();
    for event in journal.events {
        let ends = !matches!(event.event, GameEvent::Move { .. })
            && batch
                .iter()
                .any(|handed| matches!(handed.stamped.event, GameEvent::Move { .. }));
        let json = serde_json::to_string(&event).map_err(|e| e.to_string())?;
        batch.push(HandedOn {
            at,
            stamped: event,
            json: Some(json.into()),
        });
        if ends {
            batches.push(std::mem::take(&mut batch));
        }
    }
    if !batch.is_empty() {
        batches.push(batch);
    }
    Ok(batches)
}
