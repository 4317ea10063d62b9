//! The fault relay (`examples/fault_relay.rs`) as a real process between two
//! virtual lines: with no faults it is a transparent wire both ways; with
//! faults it does what it logs, and the same seed gives the same faults.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use goref::transport::line::FlowControl;
use goref::transport::serial::open_device;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio_serial::SerialStream;

/// The relay binary, built by cargo from `examples/fault_relay.rs`.
fn fault_relay() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let profile_dir = exe.parent().unwrap().parent().unwrap();
    let path = profile_dir.join("examples").join("fault_relay");
    assert!(
        path.exists(),
        "{} is missing: cargo test builds the examples",
        path.display()
    );
    path
}

/// A running relay and the two lines it joins, opened as a program would.
struct Relay {
    child: Child,
    dir: tempfile::TempDir,
    a: SerialStream,
    b: SerialStream,
}

impl Relay {
    fn start(flags: &[&str]) -> Relay {
        let dir = tempfile::tempdir().unwrap();
        let link_a = dir.path().join("a");
        let link_b = dir.path().join("b");
        let log = dir.path().join("faults.log");
        let mut child = Command::new(fault_relay())
            .arg("--create-a")
            .arg(&link_a)
            .arg("--create-b")
            .arg(&link_b)
            .arg("--log")
            .arg(&log)
            .args(flags)
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = rx.recv_timeout(Duration::from_secs(10));
        if line.as_deref().map(str::trim) != Ok("ready") {
            let _ = child.kill();
            panic!("the relay did not get ready: {line:?}");
        }
        let a = open_device(&link_a, 2400, FlowControl::None).unwrap();
        let b = open_device(&link_b, 2400, FlowControl::None).unwrap();
        Relay { child, dir, a, b }
    }

    fn log(&self) -> Vec<String> {
        let text = std::fs::read_to_string(self.dir.path().join("faults.log")).unwrap_or_default();
        text.lines().map(str::to_string).collect()
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn all_bytes() -> Vec<u8> {
    (0..=255u8).collect()
}

/// Whatever arrives until the line has been quiet for `quiet`.
async fn read_until_quiet(line: &mut (impl AsyncRead + Unpin), quiet: Duration) -> Vec<u8> {
    let mut got = Vec::new();
    let mut buf = [0u8; 1024];
    while let Ok(Ok(n)) = tokio::time::timeout(quiet, line.read(&mut buf)).await {
        if n == 0 {
            break;
        }
        got.extend_from_slice(&buf[..n]);
    }
    got
}

async fn read_n(line: &mut (impl AsyncRead + Unpin), n: usize) -> Vec<u8> {
    let mut got = vec![0u8; n];
    tokio::time::timeout(Duration::from_secs(5), line.read_exact(&mut got))
        .await
        .unwrap_or_else(|_| panic!("{n} bytes did not arrive within 5 s"))
        .unwrap();
    got
}

#[tokio::test]
async fn with_no_faults_every_byte_crosses_both_ways() {
    let mut relay = Relay::start(&["--seed", "1"]);
    relay.a.write_all(&all_bytes()).await.unwrap();
    assert_eq!(read_n(&mut relay.b, 256).await, all_bytes());
    let reversed: Vec<u8> = all_bytes().into_iter().rev().collect();
    relay.b.write_all(&reversed).await.unwrap();
    assert_eq!(read_n(&mut relay.a, 256).await, reversed);
    // A short group is sent on once the line is quiet.
    relay.a.write_all(b"\x03\xbe").await.unwrap();
    assert_eq!(read_n(&mut relay.b, 2).await, b"\x03\xbe");
    assert!(read_until_quiet(&mut relay.a, Duration::from_millis(200))
        .await
        .is_empty());
    assert!(relay.log().is_empty(), "{:?}", relay.log());
}

#[tokio::test]
async fn dropping_everything_lets_nothing_through() {
    let mut relay = Relay::start(&["--drop", "1"]);
    relay.a.write_all(&all_bytes()).await.unwrap();
    relay.b.write_all(&all_bytes()).await.unwrap();
    let quiet = Duration::from_millis(500);
    assert!(read_until_quiet(&mut relay.b, quiet).await.is_empty());
    assert!(read_until_quiet(&mut relay.a, quiet).await.is_empty());
    let log = relay.log();
    assert_eq!(log.len(), 128, "{log:?}");
    let a_to_b: Vec<&String> = log.iter().filter(|l| l.starts_with("a->b ")).collect();
    assert_eq!(a_to_b.len(), 64, "{log:?}");
    assert_eq!(a_to_b[0], "a->b drop 00:01:02:03");
    assert!(log.contains(&"b->a drop fc:fd:fe:ff".to_string()));
}

#[tokio::test]
async fn duplicated_groups_arrive_twice_in_order() {
    let mut relay = Relay::start(&["--duplicate", "1"]);
    relay
        .a
        .write_all(b"\x00\x87\x80\x81\x03\xbe\xb0\x8b")
        .await
        .unwrap();
    assert_eq!(
        read_n(&mut relay.b, 16).await,
        b"\x00\x87\x80\x81\x00\x87\x80\x81\x03\xbe\xb0\x8b\x03\xbe\xb0\x8b"
    );
}

#[tokio::test]
async fn splits_and_delays_keep_the_bytes_and_their_order() {
    let mut relay = Relay::start(&[
        "--seed",
        "3",
        "--split",
        "0.5",
        "--delay-ms",
        "40",
        "--delay-rate",
        "0.5",
    ]);
    relay.a.write_all(&all_bytes()).await.unwrap();
    assert_eq!(read_n(&mut relay.b, 256).await, all_bytes());
    let log = relay.log();
    assert!(log.iter().any(|l| l.starts_with("a->b split ")), "{log:?}");
    assert!(log.iter().any(|l| l.starts_with("a->b delay ")), "{log:?}");
}

/// Corrupts with a seed and returns what arrived and what was logged.
async fn corrupt_run(seed: &str) -> (Vec<u8>, Vec<String>) {
    let mut relay = Relay::start(&["--seed", seed, "--corrupt", "0.3"]);
    relay.a.write_all(&all_bytes()).await.unwrap();
    let got = read_n(&mut relay.b, 256).await;
    (got, relay.log())
}

#[tokio::test]
async fn corruption_flips_one_bit_and_a_seed_repeats_it() {
    let (got, log) = corrupt_run("7").await;
    let flipped: Vec<u32> = got
        .iter()
        .zip(all_bytes())
        .map(|(g, s)| (g ^ s).count_ones())
        .collect();
    let corrupted_groups = flipped
        .chunks(4)
        .filter(|c| c.iter().sum::<u32>() > 0)
        .count();
    assert!(flipped.iter().all(|&bits| bits <= 1));
    assert!(corrupted_groups > 0);
    assert_eq!(corrupted_groups, log.len(), "{log:?}");
    assert!(log.iter().all(|l| l.starts_with("a->b corrupt ")));

    assert_eq!(corrupt_run("7").await, (got.clone(), log));
    assert_ne!(corrupt_run("8").await.0, got);
}

#[test]
fn a_missing_device_is_reported() {
    let output = Command::new(fault_relay())
        .args(["--a", "/dev/ttyS9-nonexistent", "--create-b"])
        .arg(Path::new("/tmp").join(format!("fault-relay-test-{}", std::process::id())))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr).trim(),
        "fault_relay: cannot open /dev/ttyS9-nonexistent: No such file or directory"
    );
    assert!(output.stdout.is_empty());
}
