//! The screen's CPU while it waits on a player that does not move
//! (DESIGN.md §6: under 1 % of one core).
//!
//! Starts the real binary in a tmux terminal (120x40) on a 19x19 game whose
//! Black moves are typed by an operator who types nothing, under a running
//! 30-minute clock, so the screen redraws once a second for the countdown
//! and otherwise sleeps. Reads goref's own user and system CPU time from
//! `/proc` over the given seconds and prints it as a share of one core.
//!
//! With `hall`, the same for the event's hall (issue 28: under 1 % of a
//! core): `goref event` at 200x60 with eight boards whose players never
//! answer (every engine thinking, every clock running), each board followed
//! through its socket; the event's own process is measured, not its
//! boards'.
//!
//! ```text
//! cargo build --release --examples
//! target/release/examples/idle_cpu [SECONDS] [hall]
//! ```

mod support;

use std::process::Command;
use std::time::{Duration, Instant};

fn main() -> Result<(), String> {
    let seconds: u64 = std::env::args().nth(1).map_or(Ok(60), |a| {
        a.parse().map_err(|_| format!("not a number: {a}"))
    })?;
    let goref = support::goref_beside()?;
    let hall = std::env::args().nth(2).is_some_and(|a| a == "hall");
    let session = format!("goref-idle-{}", std::process::id());
    let folder = std::env::temp_dir().join(format!("goref-idle-hall-{}", std::process::id()));
    let (command, size) = match hall {
        true => (hall_command(&goref, &folder)?, ("200", "60")),
        false => (
            format!(
                "LANG=C.UTF-8 exec '{}' play --size 19 --black human --white human --time \
                 absolute:30m",
                goref.display()
            ),
            ("120", "40"),
        ),
    };
    let started = Command::new("tmux")
        .args([
            "new-session",
            "-d",
            "-s",
            &session,
            "-x",
            size.0,
            "-y",
            size.1,
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
    if hall {
        let _ = Command::new("pkill")
            .arg("-f")
            .arg(folder.display().to_string())
            .status();
        let _ = std::fs::remove_dir_all(&folder);
    }
    let (cpu, wall) = result?;
    if hall {
        println!(
            "the hall watched 8 boards whose players never answer for {:.1} s (clocks running, \
             200x60): {:.3} s of CPU, {:.3} % of one core",
            wall.as_secs_f64(),
            cpu.as_secs_f64(),
            100.0 * cpu.as_secs_f64() / wall.as_secs_f64()
        );
        return Ok(());
    }
    println!(
        "goref waited {:.1} s on a player that does not move (clock running, 120x40): \
         {:.3} s of CPU, {:.3} % of one core",
        wall.as_secs_f64(),
        cpu.as_secs_f64(),
        100.0 * cpu.as_secs_f64() / wall.as_secs_f64()
    );
    Ok(())
}

/// `goref event` on a one-round Swiss of sixteen entrants that never
/// answer a move, in `folder`.
fn hall_command(goref: &std::path::Path, folder: &std::path::Path) -> Result<String, String> {
    let fake = goref.with_file_name("examples").join("fake_gtp");
    if !fake.exists() {
        return Err(format!(
            "{} is missing: cargo build --release --examples",
            fake.display()
        ));
    }
    let mut text = "name = \"idle\"\nsystem = \"swiss\"\nrounds = 1\n\n[game]\nsize = 19\n\
                    time = \"absolute:30m\"\n"
        .to_string();
    for n in 1..=16 {
        text.push_str(&format!(
            "[[entrant]]\nname = \"silent{n}\"\nplayer = \"gtp:{} --hang-at 1\"\n",
            fake.display()
        ));
    }
    std::fs::create_dir_all(folder).map_err(|e| e.to_string())?;
    std::fs::write(folder.join("event.toml"), text).map_err(|e| e.to_string())?;
    Ok(format!(
        "LANG=C.UTF-8 exec '{}' event '{}' --yes",
        goref.display(),
        folder.display()
    ))
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
