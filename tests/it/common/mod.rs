//! Shared helpers for the integration tests: the real goref binary, the
//! scripted fake engine, GNU Go, and the JSON event stream.
#![allow(dead_code)]

pub(crate) mod browser;
#[path = "../../../examples/support/leela_network.rs"]
pub(crate) mod leela_network;
pub(crate) mod nats;
pub(crate) mod pty;
pub(crate) mod tcp_proxy;
pub(crate) mod tmux;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use goref_core::game::sgf;
use serde_json::Value;

/// A child process killed and reaped when dropped, so that a test that
/// fails half-way still ends what it started.
pub(crate) struct Ended(pub std::process::Child);

impl Drop for Ended {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Every process working in a folder (a test's root), ended with SIGKILL
/// when dropped: an event's boards run in gorefs of their own, detached
/// from the runner by design, and one waiting on a hung engine would
/// outlive the test by its whole clock.
pub(crate) struct EndsWithin(pub PathBuf);

impl Drop for EndsWithin {
    fn drop(&mut self) {
        let Ok(root) = self.0.canonicalize() else {
            return;
        };
        let me = std::process::id();
        for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
            let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
                continue;
            };
            let cwd = std::fs::read_link(entry.path().join("cwd"));
            if pid != me && cwd.is_ok_and(|cwd| cwd.starts_with(&root)) {
                let _ = Command::new("kill")
                    .args(["-KILL", &pid.to_string()])
                    .status();
            }
        }
    }
}

/// The output of `command`, which must succeed; if it does not, the
/// assertion names the command and shows its stderr.
pub(crate) fn succeeded(command: &mut Command) -> std::process::Output {
    let out = command
        .output()
        .unwrap_or_else(|e| panic!("{command:?} cannot start: {e}"));
    assert!(
        out.status.success(),
        "{command:?}: {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

pub(crate) fn goref() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_goref"))
}

/// The scripted fake engine, built by cargo from `examples/fake_gtp.rs`.
pub(crate) fn fake_gtp() -> PathBuf {
    example("fake_gtp")
}

/// An example program. `cargo test` builds examples as `NAME-HASH`; only
/// `cargo build --example` adds the plain name, so both are looked for.
pub(crate) fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().unwrap().parent().unwrap().join("examples");
    let plain = dir.join(name);
    if plain.exists() {
        return plain;
    }
    let prefix = format!("{name}-");
    let mut built: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            let file = path.file_name().unwrap().to_string_lossy();
            file.starts_with(&prefix) && path.extension().is_none()
        })
        .collect();
    built.sort_by_key(|path| std::fs::metadata(path).and_then(|m| m.modified()).ok());
    built
        .pop()
        .unwrap_or_else(|| panic!("example {name} is missing from {}", dir.display()))
}

/// Starts the fault relay (`examples/fault_relay.rs`) with `args`; returns
/// once it says it is ready.
pub(crate) fn start_relay<I, S>(args: I) -> std::process::Child
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    use std::io::{BufRead, BufReader};
    let mut relay = Command::new(example("fault_relay"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut ready = String::new();
    BufReader::new(relay.stdout.take().unwrap())
        .read_line(&mut ready)
        .unwrap();
    assert_eq!(ready.trim(), "ready", "the relay did not get ready");
    relay
}

/// GNU Go, installed by tests/run.sh.
pub(crate) fn gnugo() -> String {
    for candidate in ["/usr/games/gnugo", "/usr/bin/gnugo"] {
        if Path::new(candidate).exists() {
            return candidate.to_string();
        }
    }
    panic!("GNU Go is not installed: run the tests with tests/run.sh, which installs it");
}

/// A `gtp:` spec for the fake engine with these flags.
pub(crate) fn fake(flags: &str) -> String {
    format!("gtp:{} {flags}", fake_gtp().display())
}

pub(crate) struct Run {
    pub status: i32,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
}

impl Run {
    /// The JSON events printed with `--json`.
    pub(crate) fn events(&self) -> Vec<Value> {
        self.stdout
            .lines()
            .map(|line| {
                serde_json::from_str(line).unwrap_or_else(|e| panic!("bad JSON line {line:?}: {e}"))
            })
            .collect()
    }

    pub(crate) fn of_type(&self, kind: &str) -> Vec<Value> {
        self.events()
            .into_iter()
            .filter(|e| e["type"] == kind)
            .collect()
    }

    pub(crate) fn result(&self) -> Value {
        let results = self.of_type("result");
        assert_eq!(results.len(), 1, "one result expected\n{}", self.stderr);
        results[0].clone()
    }

    /// Asserts that the exit status is the one the result calls for: 0 for
    /// a decided result, 1 for `?` or `Void`.
    pub(crate) fn assert_status_matches_result(&self) {
        let result = self.result();
        let decided = !matches!(result["result"].as_str(), Some("?" | "Void"));
        let expected = if decided { 0 } else { 1 };
        assert_eq!(self.status, expected, "{result}\n{}", self.stderr);
    }

    pub(crate) fn moves(&self) -> Vec<(String, String)> {
        self.of_type("move")
            .iter()
            .map(|m| {
                (
                    m["color"].as_str().unwrap().to_string(),
                    m["vertex"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    }
}

/// Runs goref with `args`, killing it if it outlives `limit`.
pub(crate) fn run_goref(args: &[&str], limit: Duration) -> Run {
    run_goref_with_input(args, None, limit)
}

/// Runs goref and, when a line of its stderr contains `prompt`, types
/// `input` on its stdin, as an operator at the keyboard would.
pub(crate) fn run_goref_answering(
    args: &[&str],
    prompt: &str,
    input: &str,
    limit: Duration,
) -> Run {
    run_goref_scripted(args, prompt, &[input], limit)
}

/// An answer that closes goref's stdin, as Ctrl-D at the keyboard does.
pub(crate) const END_OF_INPUT: &str = "<Ctrl-D>";

/// Like [`run_goref_answering`], with the next answer typed at each prompt.
pub(crate) fn run_goref_scripted(
    args: &[&str],
    prompt: &str,
    answers: &[&str],
    limit: Duration,
) -> Run {
    run_goref_with_input(args, Some((prompt, answers)), limit)
}

fn run_goref_with_input(args: &[&str], input: Option<(&str, &[&str])>, limit: Duration) -> Run {
    let started = Instant::now();
    let mut child = Command::new(goref())
        .args(args)
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("goref starts");
    let mut stdin = child.stdin.take();
    let answer = input.map(|(prompt, answers)| {
        let answers: Vec<String> = answers.iter().map(|a| a.to_string()).collect();
        (prompt.to_string(), answers.into_iter())
    });
    let mut answer = answer;
    let mut stdout = child.stdout.take().unwrap();
    let stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut text = String::new();
        stdout.read_to_string(&mut text).unwrap();
        text
    });
    let err = std::thread::spawn(move || {
        use std::io::{BufRead, Write};
        let mut text = String::new();
        for line in std::io::BufReader::new(stderr).lines() {
            let line = line.unwrap();
            let typed = match (&mut answer, stdin.is_some()) {
                (Some((prompt, answers)), true) if line.contains(prompt.as_str()) => answers.next(),
                _ => None,
            };
            match typed.as_deref() {
                Some(END_OF_INPUT) => drop(stdin.take()),
                Some(input) => {
                    let pipe = stdin.as_mut().unwrap();
                    pipe.write_all(input.as_bytes()).unwrap();
                    pipe.flush().unwrap();
                }
                None => {}
            }
            text.push_str(&line);
            text.push('\n');
        }
        text
    });
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > limit {
            child.kill().unwrap();
            let _ = child.wait();
            panic!(
                "goref {args:?} still running after {limit:?}\nstderr:\n{}",
                err.join().unwrap()
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Run {
        status: status.code().unwrap_or(-1),
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
        elapsed: started.elapsed(),
    }
}

/// The moves of an SGF record's main line, as (`B`/`W`, vertex or `pass`).
pub(crate) fn sgf_moves(nodes: &[sgf::Node], size: u8) -> Vec<(String, String)> {
    sgf::main_line_moves(nodes, size)
        .unwrap()
        .iter()
        .map(|m| {
            let vertex = m.point.map(|p| p.to_gtp()).unwrap_or_else(|| "pass".into());
            (m.color.letter().to_string(), vertex)
        })
        .collect()
}

/// The moves of the SGF record at `path`.
pub(crate) fn sgf_file_moves(path: &Path, size: u8) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(path).unwrap();
    sgf_moves(&sgf::parse(&text).unwrap(), size)
}

/// goref started with `args`, its standard streams closed, not waited for.
pub(crate) fn spawn_goref<I, S>(args: I) -> std::process::Child
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    Command::new(goref())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("goref starts")
}

/// The whole events of a game folder's journal (a torn last line left out).
pub(crate) fn journal(folder: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(folder.join("journal.jsonl")).unwrap_or_default();
    text.lines()
        .filter(|line| line.ends_with('}'))
        .filter_map(|line| serde_json::from_str(line).ok())
        .collect()
}

/// The `move` events of a game folder's journal.
pub(crate) fn journal_moves(folder: &Path) -> Vec<Value> {
    journal(folder)
        .into_iter()
        .filter(|e| e["type"] == "move")
        .collect()
}

/// Polls `done` until it holds; after `limit`, panics saying `what` never
/// came.
pub(crate) fn wait_until(
    limit: Duration,
    what: impl FnOnce() -> String,
    mut done: impl FnMut() -> bool,
) {
    let started = Instant::now();
    while !done() {
        if started.elapsed() >= limit {
            panic!("waited {limit:?} for {}", what());
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Waits, a minute at most, until the game in `folder` has `count` moves
/// and `last` holds for its last one.
pub(crate) fn wait_for_moves(
    folder: &Path,
    count: usize,
    last: impl Fn(&Value) -> bool,
) -> Vec<Value> {
    let mut moves = Vec::new();
    let what = || format!("{count} moves");
    wait_until(Duration::from_secs(60), what, || {
        moves = journal_moves(folder);
        moves.len() >= count && moves.last().is_some_and(&last)
    });
    moves
}

/// A loopback port free when asked, for a server the test starts.
pub(crate) fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The lines of an event's journal, `DIR/event.jsonl`, read; none when it
/// is not there yet.
pub(crate) fn event_lines(dir: &Path) -> Vec<Value> {
    std::fs::read_to_string(dir.join("event.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// Waits for `child` to end and gives its output, failing the test (the
/// child killed) once `limit` has passed.
pub(crate) fn wait_with_watchdog(
    child: std::process::Child,
    limit: Duration,
) -> std::process::Output {
    let pid = child.id() as i32;
    let (done, finished) = std::sync::mpsc::channel::<()>();
    let watchdog = std::thread::spawn(move || {
        if finished.recv_timeout(limit).is_err() {
            // SAFETY: kill(2) on the test's own child.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            return true;
        }
        false
    });
    let output = child.wait_with_output().unwrap();
    let _ = done.send(());
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    let killed = watchdog.join().unwrap();
    if killed {
        say_past_capture(&format!("did not end within {limit:?}"), &stderr);
    }
    assert!(!killed, "did not end within {limit:?}: {stderr}");
    output
}

/// Writes `what` and the last lines of `said` to the test binary's own
/// stderr, past the harness's capture: a log that keeps only the lines
/// around a failing test's name then shows its cause beside it.
pub(crate) fn say_past_capture(what: &str, said: &str) {
    use std::io::Write;
    let lines: Vec<&str> = said.lines().collect();
    let last = lines[lines.len().saturating_sub(12)..].join("\n    ");
    let _ = writeln!(std::io::stderr().lock(), "FAILING: {what}:\n    {last}");
}

/// `goref event DIR --headless --yes`, its stderr to `stderr`.
pub(crate) fn spawn_event(dir: &Path, stderr: Stdio) -> std::process::Child {
    Command::new(goref())
        .arg("event")
        .arg(dir)
        .args(["--headless", "--yes"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(stderr)
        .spawn()
        .unwrap()
}

/// What `goref standings DIR` prints.
pub(crate) fn standings_text(dir: &Path) -> String {
    let out = Command::new(goref())
        .arg("standings")
        .arg(dir)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A match's figures, from `goref standings DIR --json`.
pub(crate) fn figures_of(dir: &Path) -> Value {
    let out = Command::new(goref())
        .arg("standings")
        .arg(dir)
        .arg("--json")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    serde_json::from_slice(&out.stdout).unwrap()
}

/// A path as one word of a shell command line.
pub(crate) fn shell_words(path: &Path) -> String {
    format!("'{}'", path.display())
}

/// The `move` events among `events`.
pub(crate) fn move_events(events: &[Value]) -> Vec<&Value> {
    events.iter().filter(|e| e["type"] == "move").collect()
}

/// GNU Go over GTP at level 0, with a seed.
pub(crate) fn gnugo_seeded(seed: u32) -> String {
    format!("gtp:{} --mode gtp --level 0 --seed {seed}", gnugo())
}
