//! `goref replay`: a trace written by a real game reads back unchanged, and
//! copies spoiled in each way the validator knows are refused with the line
//! that shows it and exit status 2.

use crate::common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::run_goref;
use serde_json::Value;

const LIMIT: Duration = Duration::from_secs(120);

/// Plays a 9x9 game with `black` against the built-in engine and returns
/// the trace's path (inside `dir`).
fn played_trace(dir: &Path, black: &str) -> PathBuf {
    let trace = dir.join("game.jsonl");
    let run = run_goref(
        &[
            "play",
            "--headless",
            "--json",
            "--size",
            "9",
            "--black",
            black,
            "--white",
            "bot",
            "--trace",
            trace.to_str().unwrap(),
        ],
        LIMIT,
    );
    run.assert_status_matches_result();
    trace
}

fn replay(path: &Path, extra: &[&str]) -> common::Run {
    let mut args = vec!["replay", path.to_str().unwrap()];
    args.extend_from_slice(extra);
    run_goref(&args, LIMIT)
}

fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

fn write(dir: &Path, name: &str, lines: &[String]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

/// The 1-based number of the first line whose event matches.
fn line_of(lines: &[String], matches: impl Fn(&Value) -> bool) -> usize {
    lines
        .iter()
        .position(|line| matches(&serde_json::from_str(line).unwrap()))
        .expect("a matching line")
        + 1
}

/// Asserts exit status 2 and `goref: PATH line N: ...` naming `what`.
fn assert_refused(run: &common::Run, path: &Path, line: usize, what: &str) {
    assert_eq!(run.status, 2, "{}", run.stderr);
    let expected = format!("goref: {} line {line}: {what}", path.display());
    assert!(
        run.stderr.lines().any(|l| l.starts_with(&expected)),
        "expected {expected:?} in\n{}",
        run.stderr
    );
}

#[test]
fn a_game_trace_replays_unchanged_and_summarises() {
    let dir = tempfile::tempdir().unwrap();
    let trace = played_trace(dir.path(), "bot");
    let run = replay(&trace, &["--headless", "--json"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(run.stdout, std::fs::read_to_string(&trace).unwrap());
    assert_eq!(run.stderr, "");

    let summary = replay(&trace, &["--headless"]);
    assert_eq!(summary.status, 0, "{}", summary.stderr);
    assert!(
        summary.stdout.contains("Black: goref-bot"),
        "{}",
        summary.stdout
    );
    assert!(
        summary.stdout.contains("(end double_pass_agreed)"),
        "{}",
        summary.stdout
    );
    assert!(
        summary.stdout.contains("problems: none"),
        "{}",
        summary.stdout
    );
}

#[test]
fn a_gmp_line_game_trace_replays_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let trace = played_trace(dir.path(), "bot-sgmp");
    let run = replay(&trace, &["--headless", "--json"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(run.stdout, std::fs::read_to_string(&trace).unwrap());
}

#[test]
fn spoiled_traces_are_refused_at_the_line_that_shows_it() {
    let dir = tempfile::tempdir().unwrap();
    let trace = played_trace(dir.path(), "bot");
    let original = lines(&trace);

    // A line removed: seq 4 (line 5) is missing. The valid prefix is printed.
    let mut gap = original.clone();
    gap.remove(4);
    let path = write(dir.path(), "gap.jsonl", &gap);
    let run = replay(&path, &["--headless", "--json"]);
    assert_refused(&run, &path, 5, "seq jumps from 3 to 5: seq 4 is missing");
    assert_eq!(run.stdout, original[..4].join("\n") + "\n");

    // Move 2 played on the point of move 1.
    let mut occupied = original.clone();
    let is_move = |n: u64| move |e: &Value| e["type"] == "move" && e["n"] == n;
    let first = line_of(&original, is_move(1));
    let second = line_of(&original, is_move(2));
    let vertex = |line: &str| serde_json::from_str::<Value>(line).unwrap()["vertex"].clone();
    let (v1, v2) = (vertex(&original[first - 1]), vertex(&original[second - 1]));
    occupied[second - 1] =
        original[second - 1].replace(&format!("\"vertex\":{v2}"), &format!("\"vertex\":{v1}"));
    let path = write(dir.path(), "occupied.jsonl", &occupied);
    let run = replay(&path, &["--headless", "--json"]);
    let what = format!(
        "move 2: White {} is illegal here (the point is occupied)",
        v1.as_str().unwrap()
    );
    assert_refused(&run, &path, second, &what);

    // The result written twice, the seqs after it renumbered so that only
    // the second result is wrong.
    let result = line_of(&original, |e| e["type"] == "result");
    let mut twice = original[..result].to_vec();
    twice.push(original[result - 1].clone());
    twice.extend(original[result..].iter().cloned());
    for (i, line) in twice.iter_mut().enumerate().skip(result) {
        let mut event: Value = serde_json::from_str(line).unwrap();
        event["seq"] = (i as u64).into();
        event["after_result"] = true.into();
        *line = serde_json::to_string(&event).unwrap();
    }
    let path = write(dir.path(), "twice.jsonl", &twice);
    let run = replay(&path, &["--headless"]);
    let what = format!("a second result (the first is on line {result})");
    assert_refused(&run, &path, result + 1, &what);
    assert!(run.stdout.contains(&format!("problem: {}", path.display())));
}

#[test]
fn a_newer_schema_and_a_cut_last_line_are_told_apart() {
    let dir = tempfile::tempdir().unwrap();
    let trace = played_trace(dir.path(), "bot");
    let original = lines(&trace);

    let mut newer = original.clone();
    newer[0] = r#"{"type":"stream","schema":99,"producer":"goref 9.0.0"}"#.into();
    let path = write(dir.path(), "newer.jsonl", &newer);
    let run = replay(&path, &["--headless", "--json"]);
    assert_refused(&run, &path, 1, "written by a newer goref (schema 99)");
    assert_eq!(run.stdout, "");

    // A line too long to be an event is refused without being read whole.
    let path = dir.path().join("long.jsonl");
    let long = format!(
        "{}\n{{\"seq\":1,\"x\":\"{}\"}}\n",
        original[0],
        "x".repeat(2 << 20)
    );
    std::fs::write(&path, long).unwrap();
    let run = replay(&path, &["--headless", "--json"]);
    assert_refused(&run, &path, 2, "longer than 1048576 bytes; refused");

    // A power cut: the last line stops half-way, without a newline.
    let mut text = original[..10].join("\n") + "\n";
    text.push_str(&original[10][..20]);
    let path = dir.path().join("cut.jsonl");
    std::fs::write(&path, text).unwrap();
    let run = replay(&path, &["--headless", "--json"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(run.stdout, original[..10].join("\n") + "\n");
    assert!(
        run.stderr
            .contains("line 11: the file ends in the middle of a line"),
        "{}",
        run.stderr
    );
}
