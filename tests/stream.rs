//! The event stream as a contract: a header with the schema version, then
//! every event numbered without a gap, the result the last game event, and
//! the same stream on stdout and in the trace.

mod common;

use std::time::Duration;

use common::{fake, run_goref};
use serde_json::Value;

#[test]
fn the_stream_has_a_header_then_numbered_events_and_ends_with_the_result() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("game.jsonl");
    let black = fake("--moves D4,E5,F6,pass");
    let white = fake("--moves C3,C4,C5,pass");
    let run = run_goref(
        &[
            "play",
            "--json",
            "--size",
            "9",
            "--black",
            &black,
            "--white",
            &white,
            "--trace",
            trace.to_str().unwrap(),
        ],
        Duration::from_secs(60),
    );
    run.assert_status_matches_result();
    let lines: Vec<Value> = run.events();
    let header = &lines[0];
    assert_eq!(header["type"], "stream");
    assert_eq!(header["schema"], goref::referee::SCHEMA_VERSION);
    assert!(header["producer"].as_str().unwrap().starts_with("goref "));
    assert!(header.get("seq").is_none());

    let events = &lines[1..];
    for (i, event) in events.iter().enumerate() {
        assert_eq!(event["seq"], i as u64 + 1, "no gap: {event}");
    }
    let result_at = events.iter().position(|e| e["type"] == "result").unwrap();
    assert_eq!(events[result_at]["end"], "double_pass_agreed");
    for (i, event) in events.iter().enumerate() {
        let after = event.get("after_result").is_some_and(|v| v == true);
        assert_eq!(after, i > result_at, "{event}");
    }
    assert!(events[result_at + 1..]
        .iter()
        .all(|e| e["type"] == "gtp" || e["type"] == "notice" || e["type"] == "error"));

    let traced = std::fs::read_to_string(&trace).unwrap();
    assert_eq!(traced, run.stdout, "the trace holds the same stream");
}

#[test]
fn a_stalled_json_reader_delays_no_move_and_the_trace_is_complete() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    use std::time::Instant;

    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("game.jsonl");
    let mut child = Command::new(common::goref())
        .args(["play", "--json", "--size", "13", "--black", "bot:1"])
        .args(["--white", "bot:2", "--trace", trace.to_str().unwrap()])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let over = loop {
        let text = std::fs::read_to_string(&trace).unwrap_or_default();
        if text.contains(r#""type":"result""#) {
            break started.elapsed();
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the game stalled behind its unread stdout"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut stdout)
        .unwrap();
    assert!(child.wait().unwrap().code().is_some());
    let traced = std::fs::read_to_string(&trace).unwrap();
    assert!(
        traced.len() > 128 * 1024,
        "the stream is larger than a pipe: {} bytes",
        traced.len()
    );
    assert_eq!(stdout, traced, "stdout caught up, nothing left out");
    eprintln!(
        "game over after {over:?} with stdout unread; {} bytes of events",
        traced.len()
    );
}
