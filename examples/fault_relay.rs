//! A relay between two lines that puts faults on them, for tests of the
//! GMP/SGMP link against a real, imperfect wire.
//!
//! It forwards bytes both ways between side A and side B. The bytes of each
//! direction are taken in groups of four, counted from the start of the
//! stream (a GMP packet is four bytes); a short group is sent on once the
//! line has been quiet for a moment. Each group may be dropped, duplicated,
//! corrupted (one bit of one byte flipped), split in two writes with a pause
//! of a few ms between, or held back for a random delay (later groups wait
//! behind it, so order is kept). Every group draws the same amount of
//! randomness whatever happens to it, so for a seed and the same input the
//! faults are the same.
//!
//! With `--take-repeats-as-new`, the first MOVE from side A that repeats A's
//! last MOVE byte for byte is passed on as a new packet: side B then reads it
//! as a new move, as a program that ignores sequence bits would. With
//! `--deny-repeats`, that repeat is answered with a DENY in B's name, as a
//! program that took it for a new move and refused it would; B never sees it.
//!
//! A side is an existing device (`--a PATH`, e.g. a pty made by socat) or a
//! virtual line the relay makes itself (`--create-a LINK`): LINK is then a
//! symlink to the far end's device, for another program to open. The relay
//! prints `ready` once both sides are set up and runs until both sides close
//! or it is killed. A created side never closes, since the relay holds its
//! far end open so that bytes wait there until a program opens it.
//!
//! ```text
//! cargo run --example fault_relay -- --create-a /tmp/ref --create-b /tmp/bot \
//!     --seed 7 --drop 0.05 --corrupt 0.02 --log /tmp/faults.log
//! ```

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use clap::Parser;
use goref::transport::line::FlowControl;
use goref::transport::pty::virtual_line;
use goref::transport::serial::open_device;
use goref_core::protocol::sgmp::packet::{Command, Packet};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_serial::{SerialPort, SerialStream};

/// How long an incomplete group waits for the rest of its bytes.
const TAIL_WAIT: Duration = Duration::from_millis(20);
/// The baud the devices are opened at (ptys are not slowed by it).
const BAUD: u32 = 2400;

#[derive(Parser, Debug)]
#[command(about = "Relays bytes between two lines, putting faults on them")]
struct Args {
    /// Side A: an existing device to open.
    #[arg(long, value_name = "PATH", conflicts_with = "create_a")]
    a: Option<PathBuf>,
    /// Side B: an existing device to open.
    #[arg(long, value_name = "PATH", conflicts_with = "create_b")]
    b: Option<PathBuf>,
    /// Side A: make a virtual line and a symlink LINK to its far end.
    #[arg(long, value_name = "LINK")]
    create_a: Option<PathBuf>,
    /// Side B: make a virtual line and a symlink LINK to its far end.
    #[arg(long, value_name = "LINK")]
    create_b: Option<PathBuf>,
    /// Seed of the fault schedule.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Probability that a group is dropped.
    #[arg(long, default_value_t = 0.0, value_parser = rate)]
    drop: f64,
    /// Probability that a group is sent twice.
    #[arg(long, default_value_t = 0.0, value_parser = rate)]
    duplicate: f64,
    /// Probability that one bit of one byte of a group is flipped.
    #[arg(long, default_value_t = 0.0, value_parser = rate)]
    corrupt: f64,
    /// Probability that a group is written in two parts with a pause between.
    #[arg(long, default_value_t = 0.0, value_parser = rate)]
    split: f64,
    /// The longest delay a held-back group waits, in ms.
    #[arg(long, value_name = "MAX", default_value_t = 0)]
    delay_ms: u64,
    /// Probability that a group is held back for up to --delay-ms.
    #[arg(long, default_value_t = 0.0, value_parser = rate)]
    delay_rate: f64,
    /// Pace both directions as a serial line at this rate would: each byte
    /// written alone, ten bits' time after the last.
    #[arg(long, value_name = "BAUD")]
    baud: Option<u32>,
    /// Pass on the first MOVE from side A that repeats A's last MOVE exactly
    /// as a new packet, so that side B takes it for a new move.
    #[arg(long, conflicts_with = "deny_repeats")]
    take_repeats_as_new: bool,
    /// Answer the first MOVE from side A that repeats A's last MOVE exactly
    /// with a DENY in side B's name, keeping the repeat from B.
    #[arg(long)]
    deny_repeats: bool,
    /// Append one line per fault to FILE (`a->b drop 03:be:b0:8b`).
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,
}

fn rate(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(r) if (0.0..=1.0).contains(&r) => Ok(r),
        _ => Err(format!("{text} is not a probability from 0 to 1")),
    }
}

#[derive(Debug, Clone, Copy)]
struct Faults {
    drop: f64,
    duplicate: f64,
    corrupt: f64,
    split: f64,
    delay_rate: f64,
    delay_max_ms: u64,
}

/// One side: the end the relay reads and writes, and for a created side the
/// far end, kept open for the program that opens the link.
struct Side {
    near: SerialStream,
    _far: Option<SerialStream>,
}

fn open_side(existing: Option<&Path>, create: Option<&Path>, name: &str) -> Result<Side, String> {
    match (existing, create) {
        (Some(path), None) => {
            let near = open_device(path, BAUD, FlowControl::None).map_err(|e| e.to_string())?;
            Ok(Side { near, _far: None })
        }
        (None, Some(link)) => {
            let (near, far) = virtual_line().map_err(|e| e.to_string())?;
            let target = far
                .name()
                .ok_or_else(|| "the virtual line's far end has no device path".to_string())?;
            if link
                .symlink_metadata()
                .is_ok_and(|m| m.file_type().is_symlink())
            {
                std::fs::remove_file(link)
                    .map_err(|e| format!("cannot replace {}: {e}", link.display()))?;
            }
            std::os::unix::fs::symlink(&target, link)
                .map_err(|e| format!("cannot make the link {}: {e}", link.display()))?;
            Ok(Side {
                near,
                _far: Some(far),
            })
        }
        _ => Err(format!(
            "side {name} needs --{name} PATH or --create-{name} LINK"
        )),
    }
}

/// The fault log, shared by both directions.
#[derive(Clone)]
struct Log(Option<Arc<Mutex<File>>>);

impl Log {
    fn open(path: Option<&Path>) -> Result<Log, String> {
        let Some(path) = path else {
            return Ok(Log(None));
        };
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot open the log {}: {e}", path.display()))?;
        Ok(Log(Some(Arc::new(Mutex::new(file)))))
    }

    fn line(&self, text: String) {
        if let Some(file) = &self.0 {
            let mut file = file.lock().unwrap_or_else(|e| e.into_inner());
            let _ = writeln!(file, "{text}");
        }
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(":")
}

/// What the writer of a direction does with one group.
struct Out {
    release: Instant,
    bytes: Vec<u8>,
    copies: usize,
    /// Write `bytes[..at]`, pause, then the rest.
    split: Option<(usize, Duration)>,
}

/// Decides the faults of one group. Draws the same randomness for every
/// group so that the schedule depends only on the seed and the bytes.
fn plan(
    mut bytes: Vec<u8>,
    faults: &Faults,
    rng: &mut StdRng,
    direction: &str,
    log: &Log,
) -> Option<Out> {
    let draws: [f64; 5] = std::array::from_fn(|_| rng.random::<f64>());
    let byte = rng.random_range(0..bytes.len());
    let bit = rng.random_range(0..8u32);
    let cut = rng.random_range(1..=bytes.len().max(2) - 1);
    let pause = Duration::from_millis(rng.random_range(2..=8));
    let delay = Duration::from_millis(rng.random_range(0..=faults.delay_max_ms));
    let [drop, duplicate, corrupt, split, delayed] = draws;

    if drop < faults.drop {
        log.line(format!("{direction} drop {}", hex(&bytes)));
        return None;
    }
    if corrupt < faults.corrupt {
        let before = hex(&bytes);
        bytes[byte] ^= 1 << bit;
        log.line(format!("{direction} corrupt {before} -> {}", hex(&bytes)));
    }
    let copies = if duplicate < faults.duplicate {
        log.line(format!("{direction} duplicate {}", hex(&bytes)));
        2
    } else {
        1
    };
    let split = if split < faults.split && bytes.len() >= 2 {
        log.line(format!(
            "{direction} split {} | {} pause {}ms",
            hex(&bytes[..cut]),
            hex(&bytes[cut..]),
            pause.as_millis()
        ));
        Some((cut, pause))
    } else {
        None
    };
    let mut release = Instant::now();
    if delayed < faults.delay_rate && faults.delay_max_ms > 0 {
        log.line(format!(
            "{direction} delay {}ms {}",
            delay.as_millis(),
            hex(&bytes)
        ));
        release += delay;
    }
    Some(Out {
        release,
        bytes,
        copies,
        split,
    })
}

/// What a program that ignores sequence bits does with A's first repeated
/// MOVE.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum RepeatFault {
    /// Takes it for a new move: `--take-repeats-as-new`.
    TakeAsNew,
    /// Refuses it as a new move: `--deny-repeats`.
    Deny,
}

/// Plays a program that ignores sequence bits, for `--take-repeats-as-new`
/// and `--deny-repeats`.
///
/// - Taken as new, the repeat goes to B as a new packet: its sequence bit
///   flipped, and its acknowledgement brought up to date. From then on B's
///   idea of A's sequence bit is the opposite of A's, so every later packet
///   is mended on its way for the link to stay whole: A's sequence bit
///   flipped one way, B's acknowledgement the other.
/// - Denied, the repeat is kept from B and A gets a DENY with B's next
///   sequence bit. From then on A's idea of B's sequence bit is the
///   opposite of B's: B's sequence bit is flipped one way, A's
///   acknowledgement the other.
#[derive(Clone)]
struct Resequencer(Arc<Mutex<Resequencing>>);

struct Resequencing {
    fault: RepeatFault,
    last_move: Option<[u8; 4]>,
    /// B's sequence bit in its last packet, as B sent it.
    b_seq: bool,
    shifted: bool,
}

/// What becomes of a group that went through the resequencer.
enum Passed {
    /// On its way, mended if need be.
    On,
    /// Kept back, and these bytes sent back where it came from.
    Answered([u8; 4]),
}

impl Resequencer {
    fn new(fault: RepeatFault) -> Resequencer {
        Resequencer(Arc::new(Mutex::new(Resequencing {
            fault,
            last_move: None,
            b_seq: false,
            shifted: false,
        })))
    }

    fn pass(&self, direction: &str, group: &mut [u8], log: &Log) -> Passed {
        let Ok(bytes) = <[u8; 4]>::try_from(&*group) else {
            return Passed::On;
        };
        let Ok(packet) = Packet::decode(bytes) else {
            return Passed::On;
        };
        let mut state = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if direction == "b->a" {
            state.b_seq = packet.seq;
        }
        let repeat = direction == "a->b"
            && !state.shifted
            && packet.command == Command::Move
            && state.last_move.replace(bytes) == Some(bytes);
        let mended = match (state.fault, direction) {
            (RepeatFault::TakeAsNew, "a->b") if repeat => {
                state.shifted = true;
                log.line(format!("a->b repeat taken as new {}", hex(&bytes)));
                Packet {
                    seq: !packet.seq,
                    ack: !packet.ack,
                    ..packet
                }
            }
            (RepeatFault::Deny, "a->b") if repeat => {
                state.shifted = true;
                let deny = Packet::new(!state.b_seq, packet.seq, Command::Deny, 0).encode();
                log.line(format!(
                    "a->b repeat denied {} <- {}",
                    hex(&bytes),
                    hex(&deny)
                ));
                return Passed::Answered(deny);
            }
            (RepeatFault::TakeAsNew, "a->b") | (RepeatFault::Deny, "b->a") if state.shifted => {
                Packet {
                    seq: !packet.seq,
                    ..packet
                }
            }
            (RepeatFault::TakeAsNew, "b->a") | (RepeatFault::Deny, "a->b") if state.shifted => {
                Packet {
                    ack: !packet.ack,
                    ..packet
                }
            }
            _ => return Passed::On,
        };
        group.copy_from_slice(&mended.encode());
        Passed::On
    }
}

/// The resequencer as one direction sees it, with where its answers go
/// (back the way the direction's packets came).
struct Repeats {
    resequencer: Resequencer,
    answers: Option<mpsc::UnboundedSender<Out>>,
}

/// Reads one direction and plans its groups; ends when the side closes.
async fn read_direction(
    mut from: impl AsyncRead + Unpin,
    out: mpsc::UnboundedSender<Out>,
    faults: Faults,
    mut rng: StdRng,
    direction: &'static str,
    log: Log,
    repeats: Option<Repeats>,
) {
    let mut pending: Vec<u8> = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let read = if pending.is_empty() {
            from.read(&mut buf).await
        } else {
            match tokio::time::timeout(TAIL_WAIT, from.read(&mut buf)).await {
                Ok(read) => read,
                Err(_) => {
                    let group = std::mem::take(&mut pending);
                    if let Some(o) = plan(group, &faults, &mut rng, direction, &log) {
                        let _ = out.send(o);
                    }
                    continue;
                }
            }
        };
        let n = match read {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        pending.extend_from_slice(&buf[..n]);
        while pending.len() >= 4 {
            let mut group: Vec<u8> = pending.drain(..4).collect();
            let passed = match &repeats {
                Some(repeats) => repeats.resequencer.pass(direction, &mut group, &log),
                None => Passed::On,
            };
            if let (Passed::Answered(answer), Some(answers)) =
                (passed, repeats.as_ref().and_then(|r| r.answers.as_ref()))
            {
                let _ = answers.send(Out {
                    release: Instant::now(),
                    bytes: answer.to_vec(),
                    copies: 1,
                    split: None,
                });
                continue;
            }
            if let Some(o) = plan(group, &faults, &mut rng, direction, &log) {
                let _ = out.send(o);
            }
        }
    }
    if !pending.is_empty() {
        if let Some(o) = plan(pending, &faults, &mut rng, direction, &log) {
            let _ = out.send(o);
        }
    }
}

/// Writes the planned groups of one direction in order.
async fn write_direction(
    mut to: impl AsyncWrite + Unpin,
    mut planned: mpsc::UnboundedReceiver<Out>,
    byte_time: Option<Duration>,
) {
    while let Some(out) = planned.recv().await {
        tokio::time::sleep_until(out.release).await;
        for _ in 0..out.copies {
            let written = match out.split {
                Some((at, pause)) => {
                    let first = write_paced(&mut to, &out.bytes[..at], byte_time).await;
                    tokio::time::sleep(pause).await;
                    match first {
                        Ok(()) => write_paced(&mut to, &out.bytes[at..], byte_time).await,
                        Err(e) => Err(e),
                    }
                }
                None => write_paced(&mut to, &out.bytes, byte_time).await,
            };
            if written.is_err() {
                return;
            }
        }
    }
}

/// Writes `bytes`, one at a time `byte_time` apart when the line is paced.
async fn write_paced(
    to: &mut (impl AsyncWrite + Unpin),
    bytes: &[u8],
    byte_time: Option<Duration>,
) -> std::io::Result<()> {
    let Some(byte_time) = byte_time else {
        return to.write_all(bytes).await;
    };
    let mut next = Instant::now();
    for byte in bytes {
        tokio::time::sleep_until(next).await;
        to.write_all(std::slice::from_ref(byte)).await?;
        to.flush().await?;
        next += byte_time;
    }
    tokio::time::sleep_until(next).await;
    Ok(())
}

async fn run(args: Args) -> Result<(), String> {
    let faults = Faults {
        drop: args.drop,
        duplicate: args.duplicate,
        corrupt: args.corrupt,
        split: args.split,
        delay_rate: args.delay_rate,
        delay_max_ms: args.delay_ms,
    };
    let log = Log::open(args.log.as_deref())?;
    let a = open_side(args.a.as_deref(), args.create_a.as_deref(), "a")?;
    let b = open_side(args.b.as_deref(), args.create_b.as_deref(), "b")?;
    let (a_read, a_write) = tokio::io::split(a.near);
    let (b_read, b_write) = tokio::io::split(b.near);
    let (ab_tx, ab_rx) = mpsc::unbounded_channel();
    let (ba_tx, ba_rx) = mpsc::unbounded_channel();
    // Each direction has its own stream of randomness, so the faults of one
    // do not depend on how the two interleave.
    let ab_rng = StdRng::seed_from_u64(args.seed);
    let ba_rng = StdRng::seed_from_u64(args.seed ^ 0x9e37_79b9_7f4a_7c15);

    println!("ready");
    let _ = std::io::stdout().flush();

    let byte_time = args
        .baud
        .map(|baud| Duration::from_secs_f64(10.0 / f64::from(baud.max(1))));
    let resequencer = match (args.take_repeats_as_new, args.deny_repeats) {
        (true, _) => Some(Resequencer::new(RepeatFault::TakeAsNew)),
        (_, true) => Some(Resequencer::new(RepeatFault::Deny)),
        _ => None,
    };
    tokio::join!(
        read_direction(
            a_read,
            ab_tx,
            faults,
            ab_rng,
            "a->b",
            log.clone(),
            resequencer.clone().map(|resequencer| Repeats {
                resequencer,
                answers: Some(ba_tx.clone()),
            }),
        ),
        write_direction(b_write, ab_rx, byte_time),
        read_direction(
            b_read,
            ba_tx,
            faults,
            ba_rng,
            "b->a",
            log.clone(),
            resequencer.map(|resequencer| Repeats {
                resequencer,
                answers: None,
            }),
        ),
        write_direction(a_write, ba_rx, byte_time),
    );
    Ok(())
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let args = Args::parse();
    if let Err(message) = run(args).await {
        eprintln!("fault_relay: {message}");
        std::process::exit(2);
    }
}
