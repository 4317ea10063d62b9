//! What the measuring examples share: the goref binary built beside them,
//! a child's CPU as `wait4` reaps it, the engines' CPU from their wrappers
//! (`engine_cpu`), Leela Zero and a network for it (`leela_network`), and a
//! spectator's side of the mirror's wire (its hello, its clock).
#![allow(dead_code)]

pub(crate) mod engine_cpu;
pub(crate) mod leela_network;

use std::path::PathBuf;
use std::time::Instant;

use goref::mirror::lines::LineReader;
use goref::mirror::wire::{SpectatorMessage, REFEREE_LINE_LIMIT, VERSION};
use tokio::io::AsyncWriteExt;
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::TcpStream;

/// The goref binary of the same build as this example
/// (`target/release/goref` beside `target/release/examples/`).
pub(crate) fn goref_beside() -> Result<PathBuf, String> {
    let goref = std::env::current_exe()
        .map_err(|e| e.to_string())?
        .parent()
        .and_then(|examples| examples.parent())
        .map(|release| release.join("goref"))
        .ok_or("cannot find the goref binary beside the example")?;
    match goref.exists() {
        true => Ok(goref),
        false => Err(format!(
            "{} is missing: cargo build --release first",
            goref.display()
        )),
    }
}

/// Milliseconds since `epoch`, the spectators' own clock.
pub(crate) fn local_ms(epoch: Instant) -> f64 {
    epoch.elapsed().as_secs_f64() * 1000.0
}

/// Says hello on a new connection: the lines to read, the half to write.
pub(crate) async fn join(stream: TcpStream) -> Option<(LineReader<OwnedReadHalf>, OwnedWriteHalf)> {
    let (read, mut write) = stream.into_split();
    let hello = SpectatorMessage::Hello {
        version: VERSION,
        token: None,
        stream: None,
        since_seq: None,
    };
    write.write_all(hello.line().as_bytes()).await.ok()?;
    Some((LineReader::new(read, REFEREE_LINE_LIMIT), write))
}

/// The process's own user and system CPU (not its children's), in ms.
pub(crate) fn cpu_ms_of(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // SAFETY: sysconf reads a constant of the system.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    Some(ticks as f64 * 1000.0 / per_second)
}

/// Runs `command` and reaps it: its resource usage (the children it reaped
/// included) and whether it exited with status 0.
pub(crate) fn run_and_reap(
    command: &mut std::process::Command,
) -> Result<(libc::rusage, bool), String> {
    let child = command
        .spawn()
        .map_err(|e| format!("cannot start {command:?}: {e}"))?;
    let mut status = 0;
    // SAFETY: rusage is plain data, filled in by wait4.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    // SAFETY: waits for our own child, writing into the locals above.
    if unsafe { libc::wait4(pid, &mut status, 0, &mut usage) } != pid {
        return Err(format!("wait4: {}", std::io::Error::last_os_error()));
    }
    Ok((
        usage,
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
    ))
}
