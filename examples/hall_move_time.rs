//! Whether the hall delays a board's game (issue 28: a board's per-move
//! referee time is the same with the hall open as without it).
//!
//! The same one-round event of sixteen GNU Go entrants (`--level 0`, eight
//! boards) is played twice: headless, and with the hall open in a 200x60
//! tmux terminal, which follows every board through its socket. Each move's
//! referee time (`referee_us` in the boards' journals: from the move's
//! arrival to its relay, journal synced) is read from every board's
//! journal, and the two runs' median, p90, p99 and mean are printed side by
//! side.
//!
//! ```text
//! cargo build --release --examples
//! target/release/examples/hall_move_time [SIZE]
//! ```

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const GNUGO: &str = "/usr/games/gnugo";

fn event_folder(root: &Path, name: &str, size: u8) -> Result<PathBuf, String> {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let mut text = format!(
        "name = \"{name}\"\nsystem = \"swiss\"\nrounds = 1\n\n[game]\nrules = \"kgs\"\n\
         size = {size}\ntime = \"absolute:30m\"\n"
    );
    for n in 1..=16 {
        text.push_str(&format!(
            "[[entrant]]\nname = \"gnugo{n}\"\nplayer = \"gtp:{GNUGO} --mode gtp --level 0 \
             --seed {n}\"\n"
        ));
    }
    std::fs::write(dir.join("event.toml"), text).map_err(|e| e.to_string())?;
    Ok(dir)
}

/// Every move's referee time, in µs, from the boards' journals.
fn referee_times(dir: &Path) -> Result<Vec<u64>, String> {
    let mut times = Vec::new();
    for board in 1..=8 {
        let journal = dir.join(format!("round-1/board-{board}/journal.jsonl"));
        let text =
            std::fs::read_to_string(&journal).map_err(|e| format!("{}: {e}", journal.display()))?;
        for line in text.lines() {
            let Ok(event) = serde_json::from_str::<serde_json::Value>(line) else {
                continue;
            };
            if event["type"] == "move" {
                if let Some(us) = event["referee_us"].as_u64() {
                    times.push(us);
                }
            }
        }
    }
    times.sort_unstable();
    Ok(times)
}

fn headless(goref: &Path, dir: &Path) -> Result<(), String> {
    let status = Command::new(goref)
        .arg("event")
        .arg(dir)
        .args(["--headless", "--yes"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|e| e.to_string())?;
    match status.success() {
        true => Ok(()),
        false => Err(format!("goref event {} failed: {status}", dir.display())),
    }
}

/// The event with its hall open in tmux, until its round is over.
fn with_the_hall(goref: &Path, dir: &Path) -> Result<(), String> {
    let session = format!("goref-hall-time-{}", std::process::id());
    let command = format!(
        "LANG=C.UTF-8 exec '{}' event '{}' --yes",
        goref.display(),
        dir.display()
    );
    let started = Command::new("tmux")
        .args(["new-session", "-d", "-s", &session, "-x", "200", "-y", "60"])
        .arg(&command)
        .status()
        .map_err(|e| format!("cannot run tmux: {e}"))?;
    if !started.success() {
        return Err("tmux new-session failed".into());
    }
    let start = Instant::now();
    let over = loop {
        let log = std::fs::read_to_string(dir.join("event.jsonl")).unwrap_or_default();
        if log.contains("\"type\":\"standings\"") {
            break true;
        }
        if start.elapsed() > Duration::from_secs(1800) {
            break false;
        }
        std::thread::sleep(Duration::from_millis(500));
    };
    let _ = Command::new("tmux")
        .args(["kill-session", "-t", &session])
        .status();
    match over {
        true => Ok(()),
        false => Err("the round with the hall did not end within 30 minutes".into()),
    }
}

fn summary(times: &[u64]) -> String {
    let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize] as f64 / 1000.0;
    let mean = times.iter().sum::<u64>() as f64 / times.len().max(1) as f64 / 1000.0;
    format!(
        "{:>5} moves  median {:.3} ms  p90 {:.3} ms  p99 {:.3} ms  mean {:.3} ms",
        times.len(),
        at(0.5),
        at(0.9),
        at(0.99),
        mean
    )
}

fn main() -> Result<(), String> {
    let size: u8 = std::env::args()
        .nth(1)
        .map_or(Ok(9), |a| a.parse().map_err(|_| format!("not a size: {a}")))?;
    let goref = support::goref_beside()?;
    let root = std::env::temp_dir().join(format!("goref-hall-time-{}", std::process::id()));
    let alone = event_folder(&root, "headless", size)?;
    let watched = event_folder(&root, "hall", size)?;
    headless(&goref, &alone)?;
    with_the_hall(&goref, &watched)?;
    let (alone_times, watched_times) = (referee_times(&alone)?, referee_times(&watched)?);
    let _ = std::fs::remove_dir_all(&root);
    if alone_times.is_empty() || watched_times.is_empty() {
        return Err("no move carried its referee time".into());
    }
    println!("8 boards of GNU Go on {size}x{size}, each move's referee time:");
    println!("  headless       {}", summary(&alone_times));
    println!("  the hall open  {}", summary(&watched_times));
    Ok(())
}
