//! A child process with piped stdin, stdout and stderr.
//!
//! Stdout is read as raw chunks (the protocol codec does the framing).
//! Stderr is drained continuously by its own task, so a chatty program can
//! never block on a full pipe, and is delivered as bounded lines. Ordinary
//! logging, however chatty, passes whole; only a flood (bytes at a rate far
//! above any engine's logging) is cut, and becomes a count of the lines left
//! out, not a stall.
//!
//! Each program runs in a process group of its own: the terminal's Ctrl-C or
//! hang-up reaches goref, which ends the game properly, and not the engines;
//! and when the program is dropped the whole group is killed, so nothing it
//! started outlives the game.

use std::process::{ExitStatus, Stdio};
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::sync::mpsc;

/// The longest stderr line kept; the rest of the line is cut.
pub(crate) const STDERR_LINE_LIMIT: usize = 500;
/// The stderr rate, in bytes a second, sustained beyond which a program
/// floods: some 50 times what a chatty engine (Leela Zero: a dozen lines a
/// move) writes at its fastest.
pub const STDERR_FLOOD_BYTES_PER_SECOND: u64 = 64 * 1024;
/// The bytes a program may write at once before the rate applies.
pub const STDERR_BURST_BYTES: u64 = 256 * 1024;

#[derive(Debug, thiserror::Error)]
pub(crate) enum ProcessError {
    #[error("empty command line")]
    EmptyCommand,
    #[error("unbalanced quote in command line: {0}")]
    Quote(String),
    #[error("cannot start '{program}': {source}")]
    Spawn {
        program: String,
        source: std::io::Error,
    },
}

/// What the stderr reader reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum StderrItem {
    Line(String),
    /// The program floods its stderr: from now on lines beyond the rate are
    /// counted, not passed on. Reported once per program.
    FloodStarted,
    /// Lines (and their bytes) left out since the last report.
    Suppressed {
        lines: u64,
        bytes: u64,
    },
}

/// The most bytes of stdout taken at once.
const READ_CHUNK: usize = 8192;

/// A running program with its pipes.
pub(crate) struct Process {
    child: Child,
    /// The program's process group (its own PID), killed on drop.
    group: Option<i32>,
    stdin: Option<ChildStdin>,
    stdout: ChildStdout,
    /// Where stdout is read, reused from one read to the next.
    buffer: Box<[u8]>,
    pub program: String,
}

/// Splits a command line on whitespace, honouring single and double quotes.
pub(crate) fn split_command_line(line: &str) -> Result<Vec<String>, ProcessError> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(ProcessError::Quote(line.to_string()));
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// Has the child that `command` starts sent `signal` by the kernel when
/// the thread that started it ends (`PR_SET_PDEATHSIG`), however goref
/// ends, kill -9 included.
pub(crate) fn dies_with_its_starter(command: &mut std::process::Command, signal: libc::c_int) {
    use std::os::unix::process::CommandExt;
    // SAFETY: prctl only sets the child's parent-death signal; it is
    // async-signal-safe and allocates nothing.
    unsafe {
        command.pre_exec(move || {
            libc::prctl(libc::PR_SET_PDEATHSIG, signal);
            Ok(())
        });
    }
}

/// The environment variable that holds goref's own secret (a seat's or a
/// spectator's token): never handed down to a program goref starts.
pub const SECRET_VARIABLE: &str = "GOREF_TOKEN";
/// Where `goref seat cgos://` takes its password from; kept from programs too.
pub const CGOS_PASSWORD_VARIABLE: &str = "GOREF_CGOS_PASSWORD";

impl Process {
    /// Starts `argv[0]` with the rest as arguments. The child is killed when
    /// the `Process` is dropped. Stderr lines go to `stderr_tx`. goref's own
    /// secret (`GOREF_TOKEN`) is not handed down to the program.
    pub(crate) fn spawn(
        argv: &[String],
        stderr_tx: mpsc::Sender<StderrItem>,
    ) -> Result<Process, ProcessError> {
        Self::spawn_with(argv, stderr_tx, false)
    }

    /// As [`Process::spawn`], and the child is killed by the kernel when
    /// the thread that started it ends, however goref ends (kill -9
    /// included): for programs kept across games, which a program that
    /// reads no more would otherwise outlive. The caller starts it from a
    /// thread that lives as long as the program should.
    pub(crate) fn spawn_bound(
        argv: &[String],
        stderr_tx: mpsc::Sender<StderrItem>,
    ) -> Result<Process, ProcessError> {
        Self::spawn_with(argv, stderr_tx, true)
    }

    fn spawn_with(
        argv: &[String],
        stderr_tx: mpsc::Sender<StderrItem>,
        bound: bool,
    ) -> Result<Process, ProcessError> {
        let (program, args) = argv.split_first().ok_or(ProcessError::EmptyCommand)?;
        let mut command = Command::new(program);
        command
            .args(args)
            .env_remove(SECRET_VARIABLE)
            .env_remove(CGOS_PASSWORD_VARIABLE)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .kill_on_drop(true);
        if bound {
            dies_with_its_starter(command.as_std_mut(), libc::SIGKILL);
        }
        let mut child = command.spawn().map_err(|source| ProcessError::Spawn {
            program: program.clone(),
            source,
        })?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        tokio::spawn(drain_lines(stderr, stderr_tx));
        Ok(Process {
            group: child.id().and_then(|pid| i32::try_from(pid).ok()),
            child,
            stdin,
            stdout,
            buffer: vec![0; READ_CHUNK].into_boxed_slice(),
            program: program.clone(),
        })
    }

    pub(crate) async fn write(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::BrokenPipe))?;
        stdin.write_all(bytes).await?;
        stdin.flush().await
    }

    /// Reads the next chunk of stdout; an empty vector means end of file.
    /// Cancel-safe: a read that is dropped unfinished has taken nothing.
    pub(crate) async fn read(&mut self) -> std::io::Result<Vec<u8>> {
        let n = self.stdout.read(&mut self.buffer).await?;
        Ok(self.buffer[..n].to_vec())
    }

    /// The user CPU time the program has used so far (Linux `/proc`), as the
    /// Usenix rules count it. `None` where it cannot be read.
    pub(crate) fn user_cpu_time(&self) -> Option<Duration> {
        let pid = self.child.id()?;
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        user_time_from_stat(&stat)
    }

    /// The processes the program has started that are still running: its
    /// children, and anything else left in its process group. Read from
    /// `/proc`, each as its PID and command name.
    pub(crate) fn offspring(&self) -> Vec<(u32, String)> {
        let (Some(pid), Some(group)) = (self.child.id(), self.group) else {
            return Vec::new();
        };
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return Vec::new();
        };
        let mut found = Vec::new();
        for entry in entries.flatten() {
            let Some(other) = entry
                .file_name()
                .to_str()
                .and_then(|n| n.parse::<u32>().ok())
            else {
                continue;
            };
            if other == pid {
                continue;
            }
            let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
                continue;
            };
            if let Some(kin) = kin_from_stat(&stat) {
                if kin.parent == pid || kin.group == group {
                    found.push((other, kin.name));
                }
            }
        }
        found.sort_unstable();
        found
    }

    /// Waits up to `grace` for the program to exit, then kills it and
    /// whatever else is left in its process group.
    pub(crate) async fn shut_down(&mut self, grace: Duration) -> Option<ExitStatus> {
        self.stdin.take();
        let status = match tokio::time::timeout(grace, self.child.wait()).await {
            Ok(status) => status.ok(),
            Err(_) => {
                let _ = self.child.kill().await;
                self.child.wait().await.ok()
            }
        };
        self.kill_group();
        status
    }

    /// Kills every process left in the program's group.
    fn kill_group(&self) {
        if let Some(group) = self.group {
            // SAFETY: killpg only sends a signal; the group is the one the
            // program was started in, whose ID no new process can take while
            // any member lives.
            unsafe {
                libc::killpg(group, libc::SIGKILL);
            }
        }
    }

    /// Waits for the program to exit, up to `grace`, without closing stdin.
    pub(crate) async fn wait_exit(&mut self, grace: Duration) -> Option<ExitStatus> {
        tokio::time::timeout(grace, self.child.wait())
            .await
            .ok()
            .and_then(Result::ok)
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill_group();
    }
}

/// Clock ticks per second in `/proc/<pid>/stat` (USER_HZ, fixed by the Linux ABI).
const USER_HZ: u64 = 100;

/// Field 14 (`utime`) of a `/proc/<pid>/stat` line. The command name in
/// field 2 may hold spaces and parentheses, so fields are counted after its
/// closing parenthesis.
fn user_time_from_stat(stat: &str) -> Option<Duration> {
    let after_name = &stat[stat.rfind(')')? + 1..];
    let ticks: u64 = after_name.split_whitespace().nth(11)?.parse().ok()?;
    Some(Duration::from_millis(ticks * 1000 / USER_HZ))
}

/// A process's name, parent and process group, from its `/proc` stat line.
#[derive(Debug, PartialEq, Eq)]
struct Kin {
    name: String,
    parent: u32,
    group: i32,
}

fn kin_from_stat(stat: &str) -> Option<Kin> {
    let open = stat.find('(')?;
    let close = stat.rfind(')')?;
    let name = stat.get(open + 1..close)?.to_string();
    let mut fields = stat[close + 1..].split_whitespace();
    let _state = fields.next()?;
    let parent = fields.next()?.parse().ok()?;
    let group = fields.next()?.parse().ok()?;
    Some(Kin {
        name,
        parent,
        group,
    })
}

/// Describes an exit status for a person: `exited with status 3`, `was killed by signal 9`.
pub(crate) fn describe_exit(status: Option<ExitStatus>) -> String {
    match (status, exit_text(status)) {
        (Some(status), Some(text)) if status.code().is_some() => format!("exited with {text}"),
        (Some(_), Some(text)) => format!("was killed by {text}"),
        (Some(_), None) => "exited".to_string(),
        (None, _) => "closed its output".to_string(),
    }
}

/// An exit status in a few words: `status 3`, `signal 6 (SIGABRT)`.
pub(crate) fn exit_text(status: Option<ExitStatus>) -> Option<String> {
    use std::os::unix::process::ExitStatusExt;
    let status = status?;
    match (status.code(), status.signal()) {
        (Some(code), _) => Some(format!("status {code}")),
        (None, Some(signal)) => Some(match signal_name(signal) {
            Some(name) => format!("signal {signal} ({name})"),
            None => format!("signal {signal}"),
        }),
        _ => None,
    }
}

/// The usual name of a signal that kills programs, e.g. `SIGABRT` for 6.
fn signal_name(signal: i32) -> Option<&'static str> {
    Some(match signal {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGILL => "SIGILL",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXCPU => "SIGXCPU",
        _ => return None,
    })
}

/// Reads lines from `reader` until end of file, cutting each at
/// [`STDERR_LINE_LIMIT`] and passing them on until they flood.
async fn drain_lines(mut reader: impl AsyncRead + Unpin, tx: mpsc::Sender<StderrItem>) {
    let mut limiter = FloodLimiter::new(crate::shell_time::now());
    let mut line: Vec<u8> = Vec::new();
    let mut line_bytes: u64 = 0;
    let mut chunk = vec![0u8; 8192];
    let send = |limiter: &mut FloodLimiter, items: Vec<StderrItem>| {
        for item in items {
            if tx.try_send(item.clone()).is_err() {
                limiter.count_lost(&item);
            }
        }
    };
    loop {
        let n = match reader.read(&mut chunk).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        let now = crate::shell_time::now();
        for &byte in &chunk[..n] {
            line_bytes += 1;
            if byte == b'\n' {
                let text = String::from_utf8_lossy(&line).trim_end().to_string();
                line.clear();
                let items = limiter.admit(now, text, std::mem::take(&mut line_bytes));
                send(&mut limiter, items);
            } else if line.len() < STDERR_LINE_LIMIT {
                line.push(byte);
            }
        }
    }
    if !line.is_empty() {
        let text = String::from_utf8_lossy(&line).trim_end().to_string();
        let items = limiter.admit(crate::shell_time::now(), text, line_bytes);
        send(&mut limiter, items);
    }
    if let Some(report) = limiter.take_suppressed() {
        let _ = tx.try_send(report);
    }
}

/// A token bucket over stderr bytes: lines pass while the program writes
/// within [`STDERR_FLOOD_BYTES_PER_SECOND`] (with a burst of
/// [`STDERR_BURST_BYTES`]); beyond it they are counted, and the count is
/// reported once a second while the flood lasts.
struct FloodLimiter {
    tokens: f64,
    refilled_at: Instant,
    reported_at: Instant,
    flood_told: bool,
    suppressed_lines: u64,
    suppressed_bytes: u64,
}

impl FloodLimiter {
    fn new(now: Instant) -> Self {
        FloodLimiter {
            tokens: STDERR_BURST_BYTES as f64,
            refilled_at: now,
            reported_at: now,
            flood_told: false,
            suppressed_lines: 0,
            suppressed_bytes: 0,
        }
    }

    /// A line of `bytes` bytes (its newline included) written at `now`.
    fn admit(&mut self, now: Instant, line: String, bytes: u64) -> Vec<StderrItem> {
        let elapsed = now
            .saturating_duration_since(self.refilled_at)
            .as_secs_f64();
        self.refilled_at = now;
        self.tokens = (self.tokens + elapsed * STDERR_FLOOD_BYTES_PER_SECOND as f64)
            .min(STDERR_BURST_BYTES as f64);
        let mut out = Vec::new();
        if now.saturating_duration_since(self.reported_at) >= Duration::from_secs(1) {
            self.reported_at = now;
            out.extend(self.take_suppressed());
        }
        if self.tokens >= bytes as f64 {
            self.tokens -= bytes as f64;
            if !line.is_empty() {
                out.push(StderrItem::Line(line));
            }
            return out;
        }
        if !self.flood_told {
            self.flood_told = true;
            out.push(StderrItem::FloodStarted);
        }
        self.suppressed_lines += 1;
        self.suppressed_bytes += bytes;
        out
    }

    /// Counts an item that could not be handed on (the reader is behind);
    /// the news of a flood is given again with the next line left out.
    fn count_lost(&mut self, item: &StderrItem) {
        match item {
            StderrItem::Line(line) => {
                self.suppressed_lines += 1;
                self.suppressed_bytes += line.len() as u64 + 1;
            }
            StderrItem::FloodStarted => self.flood_told = false,
            StderrItem::Suppressed { lines, bytes } => {
                self.suppressed_lines += lines;
                self.suppressed_bytes += bytes;
            }
        }
    }

    fn take_suppressed(&mut self) -> Option<StderrItem> {
        (self.suppressed_lines > 0).then(|| StderrItem::Suppressed {
            lines: std::mem::take(&mut self.suppressed_lines),
            bytes: std::mem::take(&mut self.suppressed_bytes),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bound_program_is_killed_when_the_thread_that_started_it_ends() {
        let pid = std::thread::spawn(|| {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async {
                let (tx, _rx) = mpsc::channel(4);
                let argv = ["sleep".to_string(), "30".to_string()];
                let process = Process::spawn_bound(&argv, tx).unwrap();
                let pid = process.group.unwrap();
                std::mem::forget(process);
                pid
            })
        })
        .join()
        .unwrap();
        let mut status = 0;
        // SAFETY: waitpid on this test's own child, which nothing else reaps.
        let reaped = unsafe { libc::waitpid(pid, &mut status, 0) };
        assert_eq!(reaped, pid);
        assert!(libc::WIFSIGNALED(status), "ended by a signal: {status:#x}");
        assert_eq!(libc::WTERMSIG(status), libc::SIGKILL);
    }

    #[test]
    fn command_lines_split_on_whitespace_and_keep_quoted_words() {
        let words = split_command_line("gnugo --mode gtp  --level 0").unwrap();
        assert_eq!(words, ["gnugo", "--mode", "gtp", "--level", "0"]);
        let words = split_command_line(r#"engine --name "My Bot" -x '' end"#).unwrap();
        assert_eq!(words, ["engine", "--name", "My Bot", "-x", "", "end"]);
        assert!(split_command_line("engine \"open").is_err());
        assert!(split_command_line("   ").unwrap().is_empty());
    }

    #[test]
    fn user_time_is_field_14_even_with_odd_command_names() {
        let stat = "4242 (my (odd) bot) S 1 2 3 4 5 6 7 8 9 10 250 17 0 0 20 0 1 0";
        assert_eq!(user_time_from_stat(stat), Some(Duration::from_millis(2500)));
        assert_eq!(user_time_from_stat("garbage"), None);
    }

    #[test]
    fn kin_is_read_after_the_command_name() {
        let stat = "4243 (sh -c (x)) S 4242 4242 4242 0 -1 4194304";
        let kin = kin_from_stat(stat).unwrap();
        assert_eq!(
            kin,
            Kin {
                name: "sh -c (x)".into(),
                parent: 4242,
                group: 4242
            }
        );
        assert_eq!(kin_from_stat("4243 (x"), None);
    }

    #[tokio::test]
    async fn a_program_that_forks_has_offspring_and_one_that_does_not_has_none() {
        let (tx, _rx) = mpsc::channel(16);
        let argv = ["sh", "-c", "sleep 30 & read line"].map(String::from);
        let mut forking = Process::spawn(&argv, tx.clone()).unwrap();
        let argv = ["sh", "-c", "exec sleep 30"].map(String::from);
        let mut single = Process::spawn(&argv, tx).unwrap();
        let mut offspring = Vec::new();
        for _ in 0..100 {
            offspring = forking.offspring();
            if offspring.iter().any(|(_, name)| name == "sleep") {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert!(
            offspring.iter().any(|(_, name)| name == "sleep"),
            "{offspring:?}"
        );
        assert_eq!(single.offspring(), Vec::new());
        forking.shut_down(Duration::ZERO).await;
        single.shut_down(Duration::ZERO).await;
    }

    #[tokio::test]
    async fn a_busy_program_uses_cpu_time_and_an_idle_one_does_not() {
        let (tx, _rx) = mpsc::channel(16);
        let argv = [
            "sh",
            "-c",
            "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done; sleep 5",
        ];
        let argv: Vec<String> = argv.iter().map(|s| s.to_string()).collect();
        let process = Process::spawn(&argv, tx).unwrap();
        let first = process.user_cpu_time().unwrap();
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let later = process.user_cpu_time().unwrap();
        assert!(later > first, "{first:?} then {later:?}");
    }

    #[test]
    fn a_chatty_engine_is_never_cut() {
        let start = Instant::now();
        let mut limiter = FloodLimiter::new(start);
        let line = "x".repeat(120);
        let mut passed = 0;
        for mv in 0..3000u64 {
            let at = start + Duration::from_millis(mv * 50);
            for _ in 0..14 {
                for item in limiter.admit(at, line.clone(), 121) {
                    assert!(matches!(item, StderrItem::Line(_)), "{item:?} at move {mv}");
                    passed += 1;
                }
            }
        }
        assert_eq!(passed, 3000 * 14);
    }

    #[test]
    fn a_flood_is_told_once_and_counted_every_second() {
        let start = Instant::now();
        let mut limiter = FloodLimiter::new(start);
        let line = "y".repeat(1023);
        let mut items = Vec::new();
        for i in 0..5000u64 {
            let at = start + Duration::from_millis(i);
            items.extend(limiter.admit(at, line.clone(), 1024));
        }
        items.extend(limiter.take_suppressed());
        let floods = items
            .iter()
            .filter(|i| **i == StderrItem::FloodStarted)
            .count();
        assert_eq!(floods, 1);
        let passed = items
            .iter()
            .filter(|i| matches!(i, StderrItem::Line(_)))
            .count() as u64;
        let (lines, bytes) = items.iter().fold((0, 0), |(l, b), item| match item {
            StderrItem::Suppressed { lines, bytes } => (l + lines, b + bytes),
            _ => (l, b),
        });
        assert_eq!(passed + lines, 5000);
        assert_eq!(bytes, lines * 1024);
        let budget = (STDERR_BURST_BYTES + 5 * STDERR_FLOOD_BYTES_PER_SECOND) / 1024;
        assert!(passed <= budget + 1, "{passed} lines passed");
        let reports = items
            .iter()
            .filter(|i| matches!(i, StderrItem::Suppressed { .. }))
            .count();
        assert!((4..=6).contains(&reports), "{reports} reports in 5 s");
    }

    #[tokio::test]
    async fn a_flood_of_stderr_arrives_bounded() {
        let (tx, mut rx) = mpsc::channel(1024);
        let flood = "x".repeat(10_000) + "\n";
        let input = flood.repeat(200);
        let started = std::time::Instant::now();
        drain_lines(input.as_bytes(), tx).await;
        let refilled = STDERR_FLOOD_BYTES_PER_SECOND as f64 * started.elapsed().as_secs_f64();
        let mut lines = 0;
        let mut suppressed = 0;
        while let Some(item) = rx.recv().await {
            match item {
                StderrItem::Line(line) => {
                    assert!(line.len() <= STDERR_LINE_LIMIT);
                    lines += 1;
                }
                StderrItem::Suppressed { lines, .. } => suppressed += lines,
                StderrItem::FloodStarted => {}
            }
        }
        assert_eq!(lines + suppressed, 200);
        let allowed = (STDERR_BURST_BYTES as f64 + refilled) / 10_001.0;
        assert!(
            lines as f64 <= allowed.floor() + 1.0,
            "{lines} lines passed"
        );
    }
}
