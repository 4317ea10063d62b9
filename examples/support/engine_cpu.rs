//! The engines' CPU, taken off the referee's: a wrapper that runs an
//! engine and appends what it and the engine used to a report file (a line
//! `USER_US SYSTEM_US WAKES` for each engine that ended), and the reader
//! that sums a report file or a folder of them.

use std::fs;
use std::io::Write;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicI32, Ordering};

/// What wrapped engines used: microseconds of user and system CPU, the
/// times they went to sleep and were woken, and how many reported.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct EngineCpu {
    pub user: i64,
    pub system: i64,
    pub wakes: i64,
    pub reports: usize,
}

impl EngineCpu {
    pub(crate) fn total(self) -> i64 {
        self.user + self.system
    }

    pub(crate) fn plus(self, other: EngineCpu) -> EngineCpu {
        EngineCpu {
            user: self.user + other.user,
            system: self.system + other.system,
            wakes: self.wakes + other.wakes,
            reports: self.reports + other.reports,
        }
    }
}

/// The engine a wrapper runs, for its signal handler.
static ENGINE: AtomicI32 = AtomicI32::new(0);

/// Passes a signal that would end the wrapper on to its engine instead, so
/// that the wrapper outlives the engine and still reports.
extern "C" fn pass_on(signal: libc::c_int) {
    let pid = ENGINE.load(Ordering::Relaxed);
    if pid > 0 {
        // SAFETY: kill is async-signal-safe; it signals our own child.
        unsafe { libc::kill(pid, signal) };
    }
}

fn usage_of(who: libc::c_int) -> libc::rusage {
    // SAFETY: rusage is plain data, filled in by getrusage.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(who, &mut usage) };
    usage
}

fn micros(t: libc::timeval) -> i64 {
    t.tv_sec * 1_000_000 + t.tv_usec
}

/// `REPORT [--] CMD ARGS...`: runs the engine on this process's stdin and
/// stdout, appends the CPU of this wrapper and of the engine to REPORT,
/// and exits as the engine did.
pub(crate) fn wrap(args: &[String]) -> Result<(), String> {
    const USAGE: &str = "wrap REPORT [--] CMD ARGS...";
    let (report, command) = match args {
        [report, dashes, rest @ ..] if dashes == "--" => (report, rest),
        [report, rest @ ..] => (report, rest),
        [] => return Err(USAGE.into()),
    };
    let [program, rest @ ..] = command else {
        return Err(USAGE.into());
    };
    let mut engine = Command::new(program)
        .args(rest)
        .spawn()
        .map_err(|e| format!("cannot start {program}: {e}"))?;
    ENGINE.store(engine.id() as libc::pid_t, Ordering::Relaxed);
    for signal in [libc::SIGTERM, libc::SIGINT, libc::SIGHUP] {
        // SAFETY: the handler only reads an atomic and calls kill, both
        // async-signal-safe; a signal the referee had ignored stays ignored.
        unsafe {
            if libc::signal(signal, pass_on as *const () as libc::sighandler_t) == libc::SIG_IGN {
                libc::signal(signal, libc::SIG_IGN);
            }
        }
    }
    let status = engine
        .wait()
        .map_err(|e| format!("waiting for {program}: {e}"))?;
    let (mut user, mut system, mut wakes) = (0, 0, 0);
    for who in [libc::RUSAGE_SELF, libc::RUSAGE_CHILDREN] {
        let usage = usage_of(who);
        user += micros(usage.ru_utime);
        system += micros(usage.ru_stime);
        wakes += usage.ru_nvcsw;
    }
    fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(report)
        .and_then(|mut file| file.write_all(format!("{user} {system} {wakes}\n").as_bytes()))
        .map_err(|e| format!("{report}: {e}"))?;
    std::process::exit(
        status
            .code()
            .unwrap_or_else(|| 128 + status.signal().unwrap_or(0)),
    );
}

/// The sum of the reports at `path`: one file, or every file in a folder.
/// A path that does not exist has reported nothing.
pub(crate) fn read_reports(path: &Path) -> Result<EngineCpu, String> {
    if !path.exists() {
        return Ok(EngineCpu::default());
    }
    if path.is_dir() {
        let mut sum = EngineCpu::default();
        for entry in fs::read_dir(path).map_err(|e| format!("{}: {e}", path.display()))? {
            sum = sum.plus(read_reports(&entry.map_err(|e| e.to_string())?.path())?);
        }
        return Ok(sum);
    }
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut sum = EngineCpu::default();
    for line in text.lines() {
        let numbers: Result<Vec<i64>, _> = line.split_whitespace().map(str::parse).collect();
        let Ok([user, system, wakes]) = numbers.as_deref() else {
            return Err(format!("{}: not a report line: {line}", path.display()));
        };
        sum = sum.plus(EngineCpu {
            user: *user,
            system: *system,
            wakes: *wakes,
            reports: 1,
        });
    }
    Ok(sum)
}
