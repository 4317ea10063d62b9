//! How goref writes and how it ends, with the real binary: record and trace
//! paths that are not regular files, symlinks, two gorefs on one record, a
//! closed stdout and stderr, a full disk, signals, and set-ups that never
//! became a game.

use crate::common;

use std::io::{BufRead, BufReader};
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{fake, goref, run_goref, wait_for_moves, wait_until, Run};
use goref_core::game::sgf;

const LIMIT: Duration = Duration::from_secs(60);

/// The root node's value of `property` in the SGF file at `path`.
fn root_property(path: &Path, property: &str) -> Option<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let nodes = sgf::parse(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
    nodes[0].get(property).map(str::to_string)
}

fn bot_game(extra: &[&str]) -> Run {
    let mut args = vec![
        "play",
        "--headless",
        "--size",
        "9",
        "--black",
        "bot:1",
        "--white",
        "bot:2",
    ];
    args.extend_from_slice(extra);
    run_goref(&args, LIMIT)
}

/// A character device of the test's own, like `/dev/full` (which a goref
/// that replaced devices would turn into a plain file).
fn device_node(dir: &Path) -> PathBuf {
    let path = dir.join("full");
    let made = Command::new("mknod")
        .arg(&path)
        .args(["c", "1", "7"])
        .status()
        .is_ok_and(|s| s.success());
    assert!(made, "mknod needs root, as tests/run.sh runs");
    path
}

#[test]
fn a_record_or_trace_that_is_not_a_regular_file_is_refused_before_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let device = device_node(dir.path());
    let fifo = dir.path().join("fifo");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let (device, fifo) = (device.to_str().unwrap(), fifo.to_str().unwrap());
    let folder = dir.path().to_str().unwrap();
    for (flag, path, kind) in [
        ("--sgf", device, "a character device"),
        ("--trace", device, "a character device"),
        ("--sgf", folder, "a directory"),
        ("--trace", fifo, "a named pipe"),
    ] {
        let run = bot_game(&[flag, path]);
        assert_eq!(run.status, 2, "{flag} {path}: {}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
        assert!(run.stderr.contains(kind), "{}", run.stderr);
        let meta = std::fs::metadata(path).unwrap();
        assert!(!meta.is_file(), "{path} is still what it was");
    }
    assert!(std::fs::metadata(device)
        .unwrap()
        .file_type()
        .is_char_device());

    let same = dir.path().join("both");
    let same = same.display().to_string();
    let run = bot_game(&["--sgf", &same, "--trace", &same]);
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains("the same file"), "{}", run.stderr);
}

#[test]
fn a_symlinked_record_replaces_its_target_and_keeps_the_link() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("real")).unwrap();
    let target = dir.path().join("real/target.sgf");
    std::fs::write(&target, "(;GM[1]C[stale])").unwrap();
    let link = dir.path().join("link.sgf");
    std::os::unix::fs::symlink("real/target.sgf", &link).unwrap();
    let run = bot_game(&["--sgf", link.to_str().unwrap()]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let meta = std::fs::symlink_metadata(&link).unwrap();
    assert!(meta.file_type().is_symlink(), "the link is still a link");
    assert!(
        root_property(&target, "RE").is_some(),
        "the target holds the game"
    );
    let leftovers: Vec<_> = std::fs::read_dir(dir.path().join("real"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(leftovers, ["target.sgf"], "no .tmp or .lock is left");
}

#[test]
fn a_path_that_leads_to_a_file_goref_did_not_write_is_refused_and_the_file_kept() {
    let dir = tempfile::tempdir().unwrap();
    let passwd = dir.path().join("passwd");
    let precious = "root:x:0:0:root:/root:/bin/bash\n";
    std::fs::write(&passwd, precious).unwrap();
    let link = dir.path().join("game.sgf");
    std::os::unix::fs::symlink(&passwd, &link).unwrap();
    let (link, passwd_text) = (link.to_str().unwrap(), passwd.to_str().unwrap());
    for args in [
        vec!["--sgf", link],
        vec!["--sgf", passwd_text],
        vec!["--trace", link],
        vec!["--log", link],
    ] {
        let run = bot_game(&args);
        assert_eq!(run.status, 2, "{args:?}: {}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
        assert!(
            run.stderr.contains("will not write over it"),
            "{args:?}: {}",
            run.stderr
        );
        assert_eq!(std::fs::read_to_string(&passwd).unwrap(), precious);
    }
    let run = bot_game(&["--sgf", link]);
    assert!(
        run.stderr.contains(&format!("leads to {passwd_text}")),
        "{}",
        run.stderr
    );
    let mut left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    left.sort();
    assert_eq!(left, ["game.sgf", "passwd"], "no .tmp or .lock is left");
}

/// A 9x9 game with `--json`, started and left running; its output is kept
/// for `wait_with_output` when `keep_output` is set.
fn spawn_game(black: &str, white: &str, extra: &[&str], keep_output: bool) -> Child {
    let output = || {
        if keep_output {
            Stdio::piped()
        } else {
            Stdio::null()
        }
    };
    Command::new(goref())
        .args(["play", "--headless", "--json", "--size", "9"])
        .args(["--black", black, "--white", white])
        .args(extra)
        .stdin(Stdio::null())
        .stdout(output())
        .stderr(output())
        .spawn()
        .unwrap()
}

/// A slow game between two fake engines, started and left running.
fn slow_game(args: &[&str]) -> Child {
    let black = fake("--moves D4,E5,F6,G7,H8,pass --think-ms 150");
    let white = fake("--moves C3,C4,C5,C6,C7,pass --think-ms 150");
    spawn_game(&black, &white, args, false)
}

fn wait_for(path: &Path) {
    wait_until(
        Duration::from_secs(10),
        || format!("{path:?}"),
        || path.exists(),
    );
}

#[test]
fn a_second_goref_on_the_same_record_or_trace_is_refused_with_the_holders_pid() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("game.sgf");
    let trace = dir.path().join("game.jsonl");
    let mut first = slow_game(&[
        "--sgf",
        record.to_str().unwrap(),
        "--trace",
        trace.to_str().unwrap(),
    ]);
    wait_for(&dir.path().join("game.jsonl.lock"));
    let pid = format!("PID {}", first.id());
    let other = dir.path().join("other.sgf");
    for args in [
        ["--sgf", record.to_str().unwrap()],
        ["--trace", trace.to_str().unwrap()],
    ] {
        let mut args = args.to_vec();
        if args[0] == "--trace" {
            args.extend(["--sgf", other.to_str().unwrap()]);
        }
        let second = bot_game(&args);
        assert_eq!(second.status, 2, "{}", second.stderr);
        assert!(second.stderr.contains(&pid), "{}", second.stderr);
        assert!(second.stderr.contains("another goref"), "{}", second.stderr);
    }
    assert!(first.wait().unwrap().success());
    assert!(root_property(&record, "RE").is_some());
    assert!(!dir.path().join("game.sgf.lock").exists());
    let third = bot_game(&["--sgf", record.to_str().unwrap()]);
    assert_eq!(third.status, 0, "the claim went with its holder");
}

#[test]
fn a_closed_stdout_and_stderr_never_stop_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("p.sgf");
    let (reader, writer) = std::io::pipe().unwrap();
    let mut child = Command::new(goref())
        .args(["play", "--size", "9", "--black", "bot", "--white", "bot"])
        .args(["--sgf", record.to_str().unwrap()])
        .stdin(Stdio::null())
        .stdout(writer.try_clone().unwrap())
        .stderr(writer)
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(reader).lines();
    for _ in 0..3 {
        lines.next().unwrap().unwrap();
    }
    drop(lines);
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "{status}");
    let result = root_property(&record, "RE").expect("the record has its result");
    assert!(
        result.starts_with('B') || result.starts_with('W'),
        "{result}"
    );
}

/// A small tmpfs of goref's own, unmounted when dropped.
struct SmallDisk {
    path: PathBuf,
}

impl SmallDisk {
    /// `None` where this machine does not let the test mount one.
    fn mount(dir: &Path, kib: u32) -> Option<SmallDisk> {
        let path = dir.join("disk");
        std::fs::create_dir(&path).unwrap();
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={kib}k"), "tmpfs"])
            .arg(&path)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !mounted {
            eprintln!("cannot mount a tmpfs here (not root?): the full-disk test is skipped");
        }
        mounted.then_some(SmallDisk { path })
    }

    /// Fills the disk with one file, up to the last byte.
    fn fill(&self) -> PathBuf {
        use std::io::Write;
        let filler = self.path.join("filler");
        let mut file = std::fs::File::create(&filler).unwrap();
        let block = vec![0u8; 4096];
        while file.write_all(&block).is_ok() {}
        while file.write_all(&block[..1]).is_ok() {}
        filler
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.path).status();
    }
}

/// A game whose record (and trace, with `trace_too`) is on a disk that
/// fills once the game has begun, freed again after `free_after` if given.
/// Returns the run, the record's result as the disk kept it, and the files
/// left on the disk.
fn game_on_a_filling_disk(
    free_after: Option<Duration>,
    trace_too: bool,
) -> Option<(Run, Option<String>, Vec<String>)> {
    let dir = tempfile::tempdir().unwrap();
    let disk = SmallDisk::mount(dir.path(), 256)?;
    let record = disk.path.join("game.sgf");
    let black = fake("--moves D4,E5,F6,G7,H8,J9,D5,pass --think-ms 100");
    let white = fake("--moves C3,C4,C5,C6,C7,C8,C9,pass --think-ms 100");
    let trace = disk.path.join("game.jsonl");
    let folder = disk.path.join("folder");
    let mut args = vec![
        "--sgf",
        record.to_str().unwrap(),
        "--game-dir",
        folder.to_str().unwrap(),
    ];
    if trace_too {
        args.extend(["--trace", trace.to_str().unwrap()]);
    }
    let child = spawn_game(&black, &white, &args, true);
    wait_for(&record);
    std::thread::sleep(Duration::from_millis(300));
    let filler = disk.fill();
    if let Some(after) = free_after {
        std::thread::sleep(after);
        std::fs::remove_file(&filler).unwrap();
    }
    let output = child.wait_with_output().unwrap();
    let left: Vec<String> = std::fs::read_dir(&disk.path)
        .unwrap()
        .chain(std::fs::read_dir(&folder).unwrap())
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    let journal = std::fs::read_to_string(folder.join("journal.jsonl")).unwrap();
    assert!(
        journal.is_empty() || journal.ends_with('\n'),
        "whole lines only"
    );
    let result = root_property(&record, "RE");
    let run = Run {
        status: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).to_string(),
        stderr: String::from_utf8_lossy(&output.stderr).to_string(),
        elapsed: Duration::ZERO,
    };
    Some((run, result, left))
}

#[test]
fn a_full_disk_is_an_error_event_and_an_exit_status_and_leaves_no_temporary_file() {
    let Some((run, result, left)) = game_on_a_filling_disk(None, true) else {
        return;
    };
    assert_eq!(run.status, 3, "{}", run.stderr);
    assert_eq!(run.moves().len(), 16, "the game went on");
    let errors: Vec<String> = run
        .of_type("error")
        .iter()
        .map(|e| e["message"].as_str().unwrap().to_string())
        .collect();
    for record in ["/disk/game.sgf", "/disk/folder/game.sgf"] {
        let told = errors
            .iter()
            .filter(|m| m.contains("cannot write the record ") && m.contains(record))
            .count();
        assert_eq!(told, 1, "{record} told once: {errors:?}");
    }
    assert!(
        errors.iter().any(|m| m.contains("is incomplete")),
        "{errors:?}"
    );
    assert!(
        errors.iter().any(|m| m.contains("cannot write the trace")),
        "{errors:?}"
    );
    let journal_told = errors
        .iter()
        .filter(|m| m.contains("cannot write the journal"))
        .count();
    assert_eq!(journal_told, 1, "told once: {errors:?}");
    assert!(
        run.stderr.contains("the journal") && run.stderr.contains("MANIFEST"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("the record"), "{}", run.stderr);
    assert!(
        run.stderr.contains("the trace") && run.stderr.contains("is incomplete"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.lines().count() < 60, "{}", run.stderr);
    assert!(!left.iter().any(|f| f.ends_with(".tmp")), "{left:?}");
    assert_eq!(
        result, None,
        "the stale record is whole, from before the disk filled"
    );
}

#[test]
fn a_disk_that_fills_and_frees_again_ends_with_a_complete_record() {
    let Some((run, result, left)) = game_on_a_filling_disk(Some(Duration::from_millis(800)), false)
    else {
        return;
    };
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(run.of_type("error").iter().any(|e| e["message"]
        .as_str()
        .unwrap()
        .contains("cannot write the record")));
    let notices: Vec<String> = run
        .of_type("notice")
        .iter()
        .map(|e| e["message"].as_str().unwrap().to_string())
        .collect();
    assert!(
        notices
            .iter()
            .any(|m| m.contains("the record") && m.contains("written again")),
        "{notices:?}"
    );
    assert!(
        notices
            .iter()
            .any(|m| m.contains("the journal") && m.contains("written again")),
        "{notices:?}"
    );
    assert!(left.contains(&"MANIFEST.sha256".to_string()), "{left:?}");
    assert!(result.is_some());
    assert!(!left.iter().any(|f| f.ends_with(".tmp")), "{left:?}");
}

/// Whether a process whose command line contains `marker` is running.
fn running(marker: &str) -> bool {
    std::fs::read_dir("/proc").unwrap().any(|entry| {
        let path = entry.unwrap().path().join("cmdline");
        std::fs::read(path)
            .map(|cmdline| {
                let text = String::from_utf8_lossy(&cmdline).replace('\0', " ");
                text.contains(marker)
            })
            .unwrap_or(false)
    })
}

fn ends_on_signal(signal: &str) {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("game.sgf");
    let marker = format!("stubborn-{signal}-{}", std::process::id());
    let tag: u32 = signal.bytes().map(u32::from).sum();
    let sleeper = format!("{}.{tag}", std::process::id() % 1000);
    let black = format!(
        "gtp:sh -c 'sleep 7{sleeper} & exec {} --name {marker} --stubborn --moves D4,E5,F6,G7,H8 --think-ms 200'",
        common::fake_gtp().display()
    );
    let white = fake("--moves C3,C4,C5,C6,C7 --think-ms 200");
    let child = spawn_game(&black, &white, &["--sgf", record.to_str().unwrap()], true);
    let what = || "the stubborn engine to run".to_string();
    wait_until(Duration::from_secs(20), what, || running(&marker));
    std::thread::sleep(Duration::from_millis(300));
    let killed = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let started = Instant::now();
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        output.status.code(),
        Some(1),
        "{signal}: no result: {output:?}"
    );
    assert!(started.elapsed() < Duration::from_secs(15));
    let result: serde_json::Value = stdout
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|e| e["type"] == "result")
        .unwrap_or_else(|| panic!("{signal}: no result in {stdout}"));
    assert_eq!(result["result"], "Void");
    assert!(
        result["reason"].as_str().unwrap().contains(signal),
        "{result}"
    );
    assert_eq!(root_property(&record, "RE").as_deref(), Some("Void"));
    assert!(!running(&marker), "{signal}: the stubborn engine is gone");
    assert!(
        !running(&format!("sleep 7{sleeper}")),
        "its child is gone too"
    );
}

#[test]
fn sigterm_ends_the_game_as_void_and_leaves_no_engine_behind() {
    ends_on_signal("TERM");
}

#[test]
fn sigquit_ends_the_game_as_void_and_leaves_no_engine_behind() {
    ends_on_signal("QUIT");
}

/// SIGHUP is the SSH session dropping: the game plays on to its result,
/// with nothing lost, and the journal says when the terminal went.
#[test]
fn sighup_lets_the_game_play_on_and_the_journal_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("game.sgf");
    let folder = dir.path().join("folder");
    let black = fake("--moves D4,E5,F6,G7,H8,pass --think-ms 150");
    let white = fake("--moves C3,C4,C5,C6,C7,pass --think-ms 150");
    let args = [
        "--sgf",
        record.to_str().unwrap(),
        "--game-dir",
        folder.to_str().unwrap(),
    ];
    let child = spawn_game(&black, &white, &args, true);
    wait_for_moves(&folder, 1, |_| true);
    let hung_up = Command::new("kill")
        .args(["-HUP", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(hung_up.success());
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let events: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let session: Vec<_> = events.iter().filter(|e| e["type"] == "session").collect();
    assert_eq!(session.len(), 1, "{stdout}");
    assert_eq!(session[0]["what"], "detached");
    let result = events.iter().find(|e| e["type"] == "result").unwrap();
    assert_ne!(result["result"], "Void", "{result}");
    let moves = events.iter().filter(|e| e["type"] == "move").count();
    assert_eq!(moves, 12, "every move of both programs was played");
    assert_eq!(
        root_property(&record, "RE").as_deref(),
        result["result"].as_str()
    );
    let journal = std::fs::read_to_string(folder.join("journal.jsonl")).unwrap();
    assert!(journal.contains(r#""what":"detached""#));
    assert_eq!(journal.lines().count(), events.len());
}

#[test]
fn a_failed_set_up_writes_the_set_up_and_no_result() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("none.sgf");
    let run = run_goref(
        &[
            "play",
            "--headless",
            "--size",
            "9",
            "--komi",
            "6.5",
            "--black",
            "sgmp:/nonexistent/ttyS9",
            "--white",
            "bot",
            "--sgf",
            record.to_str().unwrap(),
        ],
        LIMIT,
    );
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(run.stderr.contains("no game was played"), "{}", run.stderr);
    assert_eq!(root_property(&record, "RE"), None);
    assert_eq!(root_property(&record, "SZ").as_deref(), Some("9"));
    assert_eq!(root_property(&record, "KM").as_deref(), Some("6.5"));
    assert_eq!(
        root_property(&record, "PB").as_deref(),
        Some("sgmp:/nonexistent/ttyS9")
    );
    assert_eq!(root_property(&record, "PW").as_deref(), Some("bot"));
    let text = std::fs::read_to_string(&record).unwrap();
    assert!(text.contains("No game was played"), "{text}");
}

#[test]
fn an_engine_still_thinking_when_it_loses_is_stopped_at_once() {
    let black = fake("--moves D4 --hang-at 2");
    let white = fake("--moves C3,C4");
    let run = run_goref(
        &[
            "play",
            "--headless",
            "--json",
            "--size",
            "9",
            "--time",
            "absolute:2s",
            "--black",
            &black,
            "--white",
            &white,
        ],
        LIMIT,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let result = run.result();
    assert_eq!(result["result"], "W+T");
    let result_at = Duration::from_millis(result["t_ms"].as_u64().unwrap());
    assert!(
        run.elapsed < result_at + Duration::from_secs(5),
        "result at {result_at:?}, exit at {:?}",
        run.elapsed
    );
}

#[test]
fn an_engine_that_dies_at_start_up_is_shown_with_its_last_stderr_lines() {
    let black = fake("--abort-at-start");
    let run = run_goref(
        &["play", "--headless", "--black", &black, "--white", "bot"],
        LIMIT,
    );
    assert_eq!(run.status, 2, "{}", run.stderr);
    let last = run.stderr.lines().last().unwrap();
    assert!(last.contains("SIGABRT"), "{last}");
    assert!(last.contains("cannot open weights.bin"), "{last}");
}

#[test]
fn an_engine_that_cannot_start_is_one_line_and_a_finished_folder_suggests_no_resume() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("game");
    let folder_arg = folder.to_str().unwrap();
    let run = common::run_goref(
        &[
            "play",
            "--headless",
            "--black",
            "gtp:/nonexistent/engine",
            "--white",
            "bot",
            "--game-dir",
            folder_arg,
        ],
        Duration::from_secs(20),
    );
    assert_eq!(run.status, 2, "{}", run.stderr);
    let lines: Vec<&str> = run
        .stderr
        .lines()
        .filter(|l| l.contains("cannot start"))
        .collect();
    assert_eq!(lines.len(), 1, "one line, not four: {}", run.stderr);
    assert!(
        lines[0].starts_with("goref: no game was played:"),
        "{}",
        run.stderr
    );

    let played = dir.path().join("played");
    let played_arg = played.to_str().unwrap();
    let game = common::run_goref(
        &[
            "play",
            "--headless",
            "--size",
            "5",
            "--black",
            "bot:1",
            "--white",
            "bot:2",
            "--game-dir",
            played_arg,
        ],
        Duration::from_secs(60),
    );
    assert!(played.join("MANIFEST.sha256").exists(), "{}", game.stderr);
    let again = common::run_goref(
        &[
            "play",
            "--headless",
            "--size",
            "5",
            "--black",
            "bot",
            "--white",
            "bot",
            "--game-dir",
            played_arg,
        ],
        Duration::from_secs(20),
    );
    assert_eq!(again.status, 2, "{}", again.stderr);
    assert!(
        again.stderr.contains("already holds a finished game") && !again.stderr.contains("resume"),
        "a finished game cannot be resumed: {}",
        again.stderr
    );
}
