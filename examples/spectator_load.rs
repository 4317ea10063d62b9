//! Spectator load: a real referee serving N spectators on loopback.
//!
//! ```text
//! cargo run --release --example spectator_load -- [SPECTATORS] [THINK_MS]
//! ```
//!
//! Plays the same 19x19 game of the built-in engine twice with `goref play
//! --headless --json`: once alone, once with `--serve` and SPECTATORS
//! (default 500) connected, and prints:
//!
//! - the event latency, from the referee stamping an event to a spectator
//!   reading it, over every delivery: p50, p99, max. The referee's stream
//!   time is found as a spectator finds it, from the pong with the shortest
//!   round trip; event stamps are whole milliseconds, so figures read up to
//!   1 ms high.
//! - the referee's peak resident memory (VmHWM), with and without;
//! - the referee's own share per move (`referee_us` of each move event:
//!   from the move's arrival to its relay) and the referee process's CPU
//!   per move, with and without.
//!
//! The spectators run in this process on one thread; the referee, its two
//! engines and they share the machine.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

mod support;

use goref::mirror::wire::{RefereeMessage, SpectatorMessage};
use support::{cpu_ms_of, join, local_ms};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

fn main() {
    let mut args = std::env::args().skip(1);
    let spectators: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(500);
    let think_ms: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(20);
    let goref = support::goref_beside().unwrap_or_else(|e| panic!("{e}"));
    println!("goref: {}", goref.display());
    println!("game: 19x19, built-in engine against itself, {think_ms} ms a move\n");

    let alone = Referee::start(&goref, think_ms, false).finish();
    alone.describe("without spectators");

    let served = Referee::start(&goref, think_ms, true);
    let port = served.port.expect("a served referee names its port");
    // The spectators stand for machines elsewhere: they get no more of this
    // one than the referee's mirror does, which runs at nice 10.
    // SAFETY: setpriority on this thread changes only its nice value.
    unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, 10) };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let latencies = Arc::new(Mutex::new(Vec::<(f64, bool)>::with_capacity(2_000_000)));
    let steady = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let offset = Arc::new(AtomicU64::new(f64::NAN.to_bits()));
    let epoch = Instant::now();
    let connected = runtime.block_on(async {
        let mut tasks = Vec::new();
        tasks.push(tokio::spawn(probe(port, epoch, offset.clone())));
        let mut joined = 0;
        for _ in 0..spectators {
            match TcpStream::connect(("127.0.0.1", port)).await {
                Ok(stream) => {
                    joined += 1;
                    let (offset, latencies) = (offset.clone(), latencies.clone());
                    let steady = steady.clone();
                    tasks.push(tokio::spawn(spectate(
                        stream, epoch, offset, latencies, steady,
                    )));
                }
                Err(e) => eprintln!("connect: {e}"),
            }
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
        steady.store(true, Ordering::Relaxed);
        for task in tasks {
            let _ = task.await;
        }
        joined
    });
    let served = served.finish();
    served.describe(&format!("with {connected} spectators"));
    if served.moves != alone.moves {
        println!("!! the moves differ from the game without spectators");
    }

    let all = latencies.lock().unwrap().clone();
    println!();
    for (name, steady_only) in [
        ("from a second after the last join", true),
        ("all, the joins included", false),
    ] {
        let mut latencies: Vec<f64> = all
            .iter()
            .filter(|(_, steady)| *steady || !steady_only)
            .map(|(ms, _)| *ms)
            .collect();
        latencies.sort_by(f64::total_cmp);
        let at = |q: f64| latencies[((latencies.len() - 1) as f64 * q) as usize];
        println!(
            "event latency, {name}: {} deliveries, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms (budget: p99 < 20 ms)",
            latencies.len(),
            at(0.5),
            at(0.99),
            latencies.last().copied().unwrap_or(f64::NAN)
        );
    }
    println!(
        "referee peak RSS: {:.1} MB with {connected} spectators, {:.1} MB without (budget: < 30 MB)",
        served.peak_kib as f64 / 1024.0,
        alone.peak_kib as f64 / 1024.0
    );
    for (name, run) in [("without", &alone), ("with", &served)] {
        let mut shares = run.referee_us.clone();
        shares.sort_unstable();
        let q = |q: f64| shares[((shares.len() - 1) as f64 * q) as usize] as f64 / 1000.0;
        println!(
            "referee per move {name} spectators: share median {:.3} ms, p99 {:.3} ms; process CPU {:.3} ms a move",
            q(0.5),
            q(0.99),
            run.cpu_ms / run.moves.len().max(1) as f64
        );
    }
}

struct Referee {
    child: Child,
    port: Option<u16>,
    stdout: std::thread::JoinHandle<Vec<String>>,
    started: Instant,
    /// The peak RSS (KiB) and the CPU (ms) last read from `/proc`.
    usage: Arc<Mutex<(u64, f64)>>,
}

struct Run {
    moves: Vec<String>,
    referee_us: Vec<u64>,
    events: usize,
    took: Duration,
    peak_kib: u64,
    cpu_ms: f64,
}

impl Run {
    fn describe(&self, name: &str) {
        println!(
            "{name}: {} moves in {:.1}s, {} events",
            self.moves.len(),
            self.took.as_secs_f64(),
            self.events
        );
    }
}

impl Referee {
    fn start(goref: &PathBuf, think_ms: u64, serve: bool) -> Referee {
        let mut command = Command::new(goref);
        command.args([
            "play",
            "--black",
            &format!("bot:1,think={think_ms}ms"),
            "--white",
            &format!("bot:2,think={think_ms}ms"),
            "--size",
            "19",
            "--headless",
            "--json",
        ]);
        if serve {
            command.args([
                "--serve",
                "127.0.0.1:0",
                "--max-spectators",
                "5000",
                "--connect-rate",
                "100000",
            ]);
        }
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("goref starts");
        let started = Instant::now();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let stdout = std::thread::spawn(move || stdout.lines().map_while(Result::ok).collect());
        let (port_tx, port_rx) = std::sync::mpsc::channel();
        let stderr = BufReader::new(child.stderr.take().unwrap());
        std::thread::spawn(move || {
            for line in stderr.lines().map_while(Result::ok) {
                if let Some(rest) = line.strip_prefix("goref: serving spectators on 127.0.0.1:") {
                    let port = rest.split(':').next().and_then(|p| p.parse::<u16>().ok());
                    let _ = port_tx.send(port);
                }
            }
        });
        let port = if serve {
            port_rx.recv_timeout(Duration::from_secs(10)).ok().flatten()
        } else {
            None
        };
        let usage = Arc::new(Mutex::new((0, 0.0)));
        let (pid, read) = (child.id(), usage.clone());
        std::thread::spawn(move || loop {
            let (Some(kib), Some(ms)) = (status_field(pid, "VmHWM:"), cpu_ms_of(pid)) else {
                return;
            };
            *read.lock().unwrap() = (kib, ms);
            std::thread::sleep(Duration::from_millis(5));
        });
        Referee {
            child,
            port,
            stdout,
            started,
            usage,
        }
    }

    /// Waits for the game's end.
    fn finish(mut self) -> Run {
        self.child.wait().unwrap();
        let took = self.started.elapsed();
        let (peak_kib, cpu_ms) = *self.usage.lock().unwrap();
        let lines = self.stdout.join().unwrap();
        let events: Vec<serde_json::Value> = lines
            .iter()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect();
        let moves = events.iter().filter(|v| v["type"] == "move");
        Run {
            moves: moves.clone().map(|v| v["vertex"].to_string()).collect(),
            referee_us: moves.filter_map(|v| v["referee_us"].as_u64()).collect(),
            events: events.len(),
            took,
            peak_kib,
            cpu_ms,
        }
    }
}

fn status_field(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}

/// One spectator: hello, then the stamp of every event against the
/// referee's time.
async fn spectate(
    stream: TcpStream,
    epoch: Instant,
    offset: Arc<AtomicU64>,
    latencies: Arc<Mutex<Vec<(f64, bool)>>>,
    steady: Arc<std::sync::atomic::AtomicBool>,
) {
    let Some((mut reader, _write)) = join(stream).await else {
        return;
    };
    let mut mine = Vec::new();
    while let Ok(Some(line)) = reader.next_line().await {
        let offset = f64::from_bits(offset.load(Ordering::Relaxed));
        if let (Some(t_ms), false) = (event_t_ms(&line), offset.is_nan()) {
            let steady = steady.load(Ordering::Relaxed);
            mine.push((local_ms(epoch) + offset - t_ms as f64, steady));
        }
    }
    latencies.lock().unwrap().extend(mine);
}

/// The `t_ms` of an `event` line, read without parsing the whole line, so
/// that 500 spectators in one thread keep up with the referee.
fn event_t_ms(line: &str) -> Option<u64> {
    let rest = line.strip_prefix(r#"{"type":"event","event":{"#)?;
    let at = rest.find(r#""t_ms":"#)? + r#""t_ms":"#.len();
    let digits = &rest[at..];
    let end = digits.find(|c: char| !c.is_ascii_digit())?;
    digits[..end].parse().ok()
}

/// Pings the referee and keeps the offset of the quickest round trip.
async fn probe(port: u16, epoch: Instant, offset: Arc<AtomicU64>) {
    let Ok(stream) = TcpStream::connect(("127.0.0.1", port)).await else {
        return;
    };
    let Some((mut reader, mut write)) = join(stream).await else {
        return;
    };
    let mut best_rtt = f64::INFINITY;
    let mut ping = tokio::time::interval(Duration::from_millis(100));
    loop {
        tokio::select! {
            _ = ping.tick() => {
                let line = SpectatorMessage::Ping { t_ms: (local_ms(epoch) * 1000.0) as u64 }.line();
                if write.write_all(line.as_bytes()).await.is_err() {
                    return;
                }
            }
            line = reader.next_line() => match line {
                Ok(Some(line)) => {
                    if let Ok(RefereeMessage::Pong { t_ms, host_t_ms }) = RefereeMessage::parse(&line) {
                        let sent = t_ms as f64 / 1000.0;
                        let rtt = local_ms(epoch) - sent;
                        if rtt < best_rtt {
                            best_rtt = rtt;
                            let estimate = host_t_ms as f64 - (sent + rtt / 2.0);
                            offset.store(estimate.to_bits(), Ordering::Relaxed);
                        }
                    }
                }
                _ => return,
            }
        }
    }
}
