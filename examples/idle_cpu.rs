//! The screen's CPU while it waits on a player that does not move
//! (DESIGN.md §6: under 1 % of one core).
//!
//! Starts the real binary in a tmux terminal (120x40) on a 19x19 game whose
//! Black moves are typed by an operator who types nothing, under a running
//! 30-minute clock, so the screen redraws once a second for the countdown
//! and otherwise sleeps. Reads goref's own user and system CPU time from
//! `/proc` over the given seconds and prints it as a share of one core.
//!
//! ```text
//! cargo run --release --example idle_cpu -- [SECONDS]
//! ```

use std::process::Command;
use std::time::{Duration, Instant};

fn main() -> Result<(), String> {
    let seconds: u64 = std::env::args().nth(1).map_or(Ok(60), |a| {
        a.parse().map_err(|_| format!("not a number: {a}"))
    })?;
    let goref = std::env::current_exe()
        .map_err(|e| e.to_string())?
        .parent()
        .and_then(|examples| examples.parent())
        .map(|release| release.join("goref"))
        .ok_or("cannot find the goref binary beside the example")?;
    let session = format!("goref-idle-{}", std::process::id());
    let command = format!(
        "LANG=C.UTF-8 exec '{}' play --size 19 --black human --white human --time absolute:30m",
        goref.display()
    );
    let started = Command::new("tmux")
        .args([
            "new-session",
            "-d",
            "-s",
            &session,
            "-x",
            "120",
            "-y",
            "40",
            &command,
        ])
        .status()
        .map_err(|e| format!("cannot run tmux: {e}"))?;
    if !started.success() {
        return Err("tmux new-session failed".into());
    }
    let result = measure(&session, seconds);
    let _ = Command::new("tmux")
        .args(["kill-session", "-t", &session])
        .status();
    let (cpu, wall) = result?;
    println!(
        "goref waited {:.1} s on a player that does not move (clock running, 120x40): \
         {:.3} s of CPU, {:.3} % of one core",
        wall.as_secs_f64(),
        cpu.as_secs_f64(),
        100.0 * cpu.as_secs_f64() / wall.as_secs_f64()
    );
    Ok(())
}

fn measure(session: &str, seconds: u64) -> Result<(Duration, Duration), String> {
    std::thread::sleep(Duration::from_secs(3));
    let out = Command::new("tmux")
        .args(["display-message", "-p", "-t", session, "#{pane_pid}"])
        .output()
        .map_err(|e| e.to_string())?;
    let pid = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let before = cpu_time(&pid)?;
    let start = Instant::now();
    std::thread::sleep(Duration::from_secs(seconds));
    let after = cpu_time(&pid)?;
    Ok((after.saturating_sub(before), start.elapsed()))
}

/// User plus system time of a process, from `/proc/PID/stat`.
fn cpu_time(pid: &str) -> Result<Duration, String> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map_err(|e| format!("goref (pid {pid}) is not running: {e}"))?;
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map(|(_, rest)| rest.split_whitespace().collect())
        .unwrap_or_default();
    let ticks = |i: usize| -> Result<u64, String> {
        fields
            .get(i)
            .and_then(|f| f.parse().ok())
            .ok_or_else(|| format!("cannot read /proc/{pid}/stat"))
    };
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64;
    let total = (ticks(11)? + ticks(12)?) as f64 / per_second;
    Ok(Duration::from_secs_f64(total))
}
