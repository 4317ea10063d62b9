//! A child process with piped stdin, stdout and stderr.
//!
//! Stdout is read as raw chunks (the protocol codec does the framing).
//! Stderr is drained continuously by its own task, so a chatty program can
//! never block on a full pipe, and is delivered as bounded lines at a bounded
//! rate: a flood becomes a count of the lines left out, not a stall.

use std::process::{ExitStatus, Stdio};
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::sync::mpsc;

/// The longest stderr line kept; the rest of the line is cut.
pub const STDERR_LINE_LIMIT: usize = 500;
/// Stderr lines passed on per second; the others are counted.
pub const STDERR_LINES_PER_SECOND: u32 = 20;

#[derive(Debug, thiserror::Error)]
pub enum ProcessError {
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
pub enum StderrItem {
    Line(String),
    /// The program reached the limit; further lines this second are counted.
    LimitReached,
    /// Lines left out because the program wrote faster than the limit.
    Suppressed(u64),
}

/// A running program with its pipes.
pub struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: ChildStdout,
    pub program: String,
}

/// Splits a command line on whitespace, honouring single and double quotes.
pub fn split_command_line(line: &str) -> Result<Vec<String>, ProcessError> {
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

impl Process {
    /// Starts `argv[0]` with the rest as arguments. The child is killed when
    /// the `Process` is dropped. Stderr lines go to `stderr_tx`.
    pub fn spawn(
        argv: &[String],
        stderr_tx: mpsc::Sender<StderrItem>,
    ) -> Result<Process, ProcessError> {
        let (program, args) = argv.split_first().ok_or(ProcessError::EmptyCommand)?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .map_err(|source| ProcessError::Spawn {
                program: program.clone(),
                source,
            })?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        tokio::spawn(drain_lines(stderr, stderr_tx));
        Ok(Process {
            child,
            stdin,
            stdout,
            program: program.clone(),
        })
    }

    pub async fn write(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::BrokenPipe))?;
        stdin.write_all(bytes).await?;
        stdin.flush().await
    }

    /// Reads the next chunk of stdout; an empty vector means end of file.
    pub async fn read(&mut self) -> std::io::Result<Vec<u8>> {
        let mut buf = vec![0u8; 8192];
        let n = self.stdout.read(&mut buf).await?;
        buf.truncate(n);
        Ok(buf)
    }

    /// The user CPU time the program has used so far (Linux `/proc`), as the
    /// Usenix rules count it. `None` where it cannot be read.
    pub fn user_cpu_time(&self) -> Option<Duration> {
        let pid = self.child.id()?;
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        user_time_from_stat(&stat)
    }

    /// The exit status, if the program has exited.
    pub fn try_status(&mut self) -> Option<ExitStatus> {
        self.child.try_wait().ok().flatten()
    }

    /// Waits up to `grace` for the program to exit, then kills it.
    pub async fn shut_down(&mut self, grace: Duration) -> Option<ExitStatus> {
        self.stdin.take();
        match tokio::time::timeout(grace, self.child.wait()).await {
            Ok(status) => status.ok(),
            Err(_) => {
                let _ = self.child.kill().await;
                self.child.wait().await.ok()
            }
        }
    }

    /// Waits for the program to exit, up to `grace`, without closing stdin.
    pub async fn wait_exit(&mut self, grace: Duration) -> Option<ExitStatus> {
        tokio::time::timeout(grace, self.child.wait())
            .await
            .ok()
            .and_then(Result::ok)
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

/// Describes an exit status for a person: `exited with status 3`, `was killed by signal 9`.
pub fn describe_exit(status: Option<ExitStatus>) -> String {
    use std::os::unix::process::ExitStatusExt;
    match status {
        Some(status) => match (status.code(), status.signal()) {
            (Some(code), _) => format!("exited with status {code}"),
            (None, Some(signal)) => format!("was killed by signal {signal}"),
            _ => "exited".to_string(),
        },
        None => "closed its output".to_string(),
    }
}

/// Reads lines from `reader` until end of file, cutting each at
/// [`STDERR_LINE_LIMIT`] and passing at most [`STDERR_LINES_PER_SECOND`] a second.
async fn drain_lines(mut reader: impl AsyncRead + Unpin, tx: mpsc::Sender<StderrItem>) {
    let mut limiter = LineLimiter::new(crate::shell_time::now());
    let mut line: Vec<u8> = Vec::new();
    let mut chunk = vec![0u8; 8192];
    loop {
        let n = match reader.read(&mut chunk).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        let now = crate::shell_time::now();
        for &byte in &chunk[..n] {
            if byte == b'\n' {
                let text = String::from_utf8_lossy(&line).trim_end().to_string();
                line.clear();
                for item in limiter.admit(now, text) {
                    if tx.try_send(item).is_err() {
                        limiter.suppressed += 1;
                    }
                }
            } else if line.len() < STDERR_LINE_LIMIT {
                line.push(byte);
            }
        }
    }
    if !line.is_empty() {
        let text = String::from_utf8_lossy(&line).trim_end().to_string();
        let _ = tx.try_send(StderrItem::Line(text));
    }
    if limiter.suppressed > 0 {
        let _ = tx.try_send(StderrItem::Suppressed(limiter.suppressed));
    }
}

/// A one-second window that lets a fixed number of lines through.
struct LineLimiter {
    window_start: Instant,
    in_window: u32,
    suppressed: u64,
}

impl LineLimiter {
    fn new(now: Instant) -> Self {
        LineLimiter {
            window_start: now,
            in_window: 0,
            suppressed: 0,
        }
    }

    fn admit(&mut self, now: Instant, line: String) -> Vec<StderrItem> {
        let mut out = Vec::new();
        if now.duration_since(self.window_start) >= Duration::from_secs(1) {
            self.window_start = now;
            self.in_window = 0;
            if self.suppressed > 0 {
                out.push(StderrItem::Suppressed(std::mem::take(&mut self.suppressed)));
            }
        }
        if line.is_empty() {
            return out;
        }
        if self.in_window < STDERR_LINES_PER_SECOND {
            self.in_window += 1;
            out.push(StderrItem::Line(line));
        } else {
            if self.suppressed == 0 {
                out.push(StderrItem::LimitReached);
            }
            self.suppressed += 1;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn the_limiter_counts_what_it_leaves_out_and_reports_it_next_window() {
        let start = Instant::now();
        let mut limiter = LineLimiter::new(start);
        let items: Vec<StderrItem> = (0..100)
            .flat_map(|i| limiter.admit(start, format!("line {i}")))
            .collect();
        let lines = items
            .iter()
            .filter(|i| matches!(i, StderrItem::Line(_)))
            .count();
        assert_eq!(lines, STDERR_LINES_PER_SECOND as usize);
        assert_eq!(
            items[STDERR_LINES_PER_SECOND as usize],
            StderrItem::LimitReached
        );
        assert_eq!(items.len(), lines + 1);
        let later = limiter.admit(start + Duration::from_secs(1), "next".into());
        assert_eq!(
            later,
            vec![
                StderrItem::Suppressed(100 - STDERR_LINES_PER_SECOND as u64),
                StderrItem::Line("next".into())
            ]
        );
    }

    #[tokio::test]
    async fn a_flood_of_stderr_arrives_bounded() {
        let (tx, mut rx) = mpsc::channel(1024);
        let flood = "x".repeat(10_000) + "\n";
        let input = flood.repeat(200);
        drain_lines(input.as_bytes(), tx).await;
        let mut lines = 0;
        let mut suppressed = 0;
        while let Some(item) = rx.recv().await {
            match item {
                StderrItem::Line(line) => {
                    assert!(line.len() <= STDERR_LINE_LIMIT);
                    lines += 1;
                }
                StderrItem::Suppressed(n) => suppressed += n,
                StderrItem::LimitReached => {}
            }
        }
        assert_eq!(lines + suppressed, 200);
        assert!(lines <= STDERR_LINES_PER_SECOND as u64 * 2);
    }
}
