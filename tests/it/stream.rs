//! The event stream as a contract: a header with the schema version, then
//! every event numbered without a gap, the result the last game event, and
//! the same stream on stdout and in the trace.

use crate::common;

use std::time::Duration;

use common::{fake, run_goref, wait_until};
use goref_core::referee::GameView;
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
    assert_eq!(header["schema"], goref_core::referee::SCHEMA_VERSION);
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

    let moves = run.of_type("move");
    assert!(!moves.is_empty());
    for mv in &moves {
        let share = mv["referee_us"].as_u64().unwrap_or(u64::MAX);
        assert!(
            share < 1_000_000,
            "each move carries the referee's share: {mv}"
        );
    }
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
    let result = || {
        let text = std::fs::read_to_string(&trace).unwrap_or_default();
        text.contains(r#""type":"result""#)
    };
    let stalled = || "a result: the game stalled behind its unread stdout".to_string();
    wait_until(Duration::from_secs(20), stalled, result);
    let over = started.elapsed();
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

/// Plays a game in this process, folding the host's view from the events as
/// the driver hands them on, and the spectator's from their JSON lines.
fn host_and_spectator_views(black: &str, white: &str, size: u8) -> (GameView, GameView, usize) {
    use goref::cli::{GameArgs, PlayArgs};
    use goref_core::game::sgf::Date;
    use goref_core::referee::StampedEvent;

    let args = PlayArgs {
        black: Some(black.into()),
        white: Some(white.into()),
        game: GameArgs {
            size: Some(size),
            ..GameArgs::default()
        },
        ..PlayArgs::default()
    };
    let exe = common::goref();
    let mut config = goref::config::resolve(&args, exe, Date::from_unix_seconds(0)).unwrap();
    config.progress = false;
    config.operator_stdin = false;
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    config.subscribers = vec![tx];
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime
        .block_on(goref::driver::run_game(config, None))
        .unwrap();
    let mut host = GameView::new();
    let mut spectator = GameView::new();
    let mut events = 0;
    let handed: Vec<_> = std::iter::from_fn(|| rx.try_recv().ok())
        .flatten()
        .collect();
    let mut lines_handed_on = 0;
    for goref_core::referee::HandedOn { stamped, json, .. } in handed {
        host.apply_stamped(&stamped);
        let line = serde_json::to_string(&stamped).unwrap();
        if let Some(json) = json {
            assert_eq!(*json, line, "the line handed on is the event's own");
            lines_handed_on += 1;
        }
        let parsed: StampedEvent = serde_json::from_str(&line).unwrap();
        assert_eq!(parsed, stamped, "{line}");
        spectator.apply_stamped(&parsed);
        events += 1;
    }
    assert_eq!(
        lines_handed_on, events,
        "with a game folder, every event's journal line is handed on with it"
    );
    (host, spectator, events)
}

#[test]
fn a_real_games_events_fold_to_the_same_view_after_json() {
    let gnugo = format!(
        "gtp:{} --mode gtp --level 0 --max-level 0 --seed 3",
        common::gnugo()
    );
    for (black, white, size) in [
        (gnugo.as_str(), "bot:4", 13),
        ("bot-sgmp:5", gnugo.as_str(), 9),
    ] {
        let (host, spectator, events) = host_and_spectator_views(black, white, size);
        assert!(events > 100, "{black} vs {white}: {events} events");
        assert!(host.result.is_some());
        assert_eq!(host.rejected, 0, "the host's own stream fits its view");
        assert_eq!(host.seq_gaps, 0);
        assert_eq!(spectator, host, "{black} vs {white}");
        let snapshot = serde_json::to_vec(&host).unwrap();
        let again: GameView = serde_json::from_slice(&snapshot).unwrap();
        assert_eq!(again, host, "the snapshot itself round-trips");
        eprintln!(
            "{black} vs {white} on {size}x{size}: {events} events, {} moves, snapshot {} bytes",
            host.moves.len(),
            snapshot.len()
        );
    }
}
