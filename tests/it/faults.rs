//! Failures a real engine cannot produce on demand, played by the scripted
//! fake engine (`examples/fake_gtp.rs`) as a real process. Each game must end
//! with a result and a reason, never hang, and never pass an illegal move on.

use crate::common;

use std::time::Duration;

use common::{fake, run_goref, Run};
use goref::transport::process::{STDERR_BURST_BYTES, STDERR_FLOOD_BYTES_PER_SECOND};

const LIMIT: Duration = Duration::from_secs(60);

fn play(black: &str, white: &str, extra: &[&str]) -> Run {
    let mut args = vec![
        "play",
        "--headless",
        "--json",
        "--size",
        "9",
        "--black",
        black,
        "--white",
        white,
    ];
    args.extend_from_slice(extra);
    let run = run_goref(&args, LIMIT);
    assert_eq!(run.status, 0, "{}", run.stderr);
    run
}

fn log_lines(path: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let start = usize::from(words.first().is_some_and(|w| w.parse::<u32>().is_ok()));
            words[start..].join(" ")
        })
        .collect()
}

#[test]
fn disputed_dead_stones_lead_to_cleanup_and_then_everything_alive() {
    let dir = tempfile::tempdir().unwrap();
    let white_log = dir.path().join("white.log");
    let black = fake("--moves D4,pass --cleanup-moves pass");
    let white = fake(&format!(
        "--moves pass --dead D4 --cleanup-moves C4,E4,D5,D3,pass --log {}",
        white_log.display()
    ));
    let run = play(&black, &white, &[]);

    let agreement = run.of_type("agreement");
    let kinds: Vec<&str> = agreement
        .iter()
        .map(|a| a["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["claim", "claim", "disputed"]);
    let disputed = &agreement[2];
    assert_eq!(disputed["white_only"], serde_json::json!(["D4"]));
    assert_eq!(disputed["black_only"], serde_json::json!([]));
    let phases: Vec<String> = run
        .of_type("phase")
        .iter()
        .map(|p| p["phase"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(phases, ["play", "dead_stones", "cleanup", "over"]);

    assert!(log_lines(&white_log)
        .iter()
        .any(|l| l == "kgs-genmove_cleanup white"));
    let moves: Vec<String> = run
        .moves()
        .iter()
        .map(|(c, v)| format!("{c} {v}"))
        .collect();
    assert_eq!(
        moves,
        [
            "B D4", "W pass", "B pass", "W C4", "B pass", "W E4", "B pass", "W D5", "B pass",
            "W D3", "B pass", "W pass"
        ]
    );
    let result = run.result();
    assert_eq!(result["result"], "W+88.5", "{result}");
    assert_eq!(result["end"], "double_pass_cleanup");
    assert!(result["reason"].as_str().unwrap().contains("every stone"));
}

#[test]
fn agreed_dead_stones_are_removed_before_scoring() {
    let black = fake("--moves D4,pass --dead D4");
    let white = fake("--moves E5,pass --dead D4");
    let run = play(&black, &white, &[]);
    let agreed: Vec<_> = run
        .of_type("agreement")
        .into_iter()
        .filter(|a| a["kind"] == "agreed")
        .collect();
    assert_eq!(agreed[0]["stones"], serde_json::json!(["D4"]));
    assert_eq!(run.result()["result"], "W+88.5");
    assert_eq!(run.result()["end"], "double_pass_agreed");
}

#[test]
fn an_engine_without_the_kgs_commands_claims_nothing() {
    let black = fake("--moves D4,pass --no-kgs");
    let white = fake("--moves pass --dead D4");
    let run = play(&black, &white, &[]);
    let claims = run.of_type("agreement");
    assert!(claims[0]["note"]
        .as_str()
        .unwrap()
        .contains("does not support"));
}

#[test]
fn the_engines_commands_are_asked_one_by_one_or_listed_when_it_cannot_say() {
    let asks = fake("--moves D4,pass");
    let lists = fake("--moves pass --fail-command known_command");
    let run = play(&asks, &lists, &[]);
    let start = &run.of_type("game_start")[0];
    assert_eq!(start["black"]["kgs_end_protocol"], true);
    assert_eq!(
        start["white"]["kgs_end_protocol"], true,
        "learnt from list_commands"
    );
    let sent = |color: &str| -> Vec<String> {
        run.of_type("gtp")
            .iter()
            .filter(|g| g["color"] == color && g["direction"] == "sent")
            .map(|g| g["line"].as_str().unwrap().to_string())
            .collect()
    };
    let (black, white) = (sent("B"), sent("W"));
    assert!(black
        .iter()
        .any(|l| l.ends_with("known_command kgs-genmove_cleanup")));
    assert!(
        !black.iter().any(|l| l.ends_with("list_commands")),
        "{black:?}"
    );
    assert_eq!(
        white.iter().filter(|l| l.contains("known_command")).count(),
        1
    );
    assert!(
        white.iter().any(|l| l.ends_with("list_commands")),
        "{white:?}"
    );
    let no_kgs = fake("--moves D4,pass --no-kgs");
    let run = play(&no_kgs, &lists, &[]);
    assert_eq!(
        run.of_type("game_start")[0]["black"]["kgs_end_protocol"],
        false
    );
}

#[test]
fn a_crash_mid_game_forfeits_with_the_exit_status() {
    let black = fake("--moves D4,E5,F6 --crash-at 3");
    let run = play(
        &black,
        &fake("--moves C3,C4,C5"),
        &["--restart-crashed", "0"],
    );
    let result = run.result();
    assert_eq!(result["result"], "W+F");
    assert_eq!(result["end"], "forfeit_crash");
    assert_eq!(result["exit"], "status 3");
    let reason = result["reason"].as_str().unwrap();
    assert!(reason.contains("exited with status 3"), "{reason}");
    assert_eq!(run.moves().len(), 4);
}

#[test]
fn a_hang_past_the_move_deadline_forfeits_without_hanging_the_referee() {
    let white = fake("--moves E5 --hang-at 2");
    let run = play(&fake("--moves C3,C4"), &white, &["--move-timeout", "2s"]);
    let result = run.result();
    assert_eq!(result["result"], "B+F");
    assert_eq!(result["end"], "forfeit_hang");
    assert!(result["reason"].as_str().unwrap().contains("within 2s"));
    assert!(run.elapsed < Duration::from_secs(20), "{:?}", run.elapsed);
}

#[test]
fn a_hang_on_the_clock_loses_on_time() {
    let white = fake("--moves E5 --hang-at 2");
    let run = play(&fake("--moves C3,C4"), &white, &["--time", "absolute:2s"]);
    let result = run.result();
    assert_eq!(result["result"], "B+T", "{result}");
    assert_eq!(result["end"], "time");
    assert!(run.elapsed < Duration::from_secs(20));
}

#[test]
fn a_garbage_reply_forfeits() {
    let black = fake("--moves D4,E5 --garbage-at 2");
    let run = play(&black, &fake("--moves C3"), &[]);
    let result = run.result();
    assert_eq!(result["result"], "W+F");
    assert_eq!(result["end"], "forfeit_garbage");
    let reason = result["reason"].as_str().unwrap();
    assert!(reason.contains("this is not gtp"), "{reason}");
}

#[test]
fn a_move_that_is_not_a_vertex_forfeits() {
    let black = fake("--moves D4,Z99");
    let run = play(&black, &fake("--moves C3"), &[]);
    let result = run.result();
    assert_eq!(result["result"], "W+F");
    assert_eq!(result["end"], "forfeit_garbage");
    assert!(result["reason"].as_str().unwrap().contains("not a move"));
}

#[test]
fn a_stderr_flood_is_bounded_told_once_and_the_game_goes_on() {
    let black = fake("--moves D4,E5,F6,G7,pass --stderr-flood 4000000");
    let white = fake("--moves C3,C4,C5,C6,pass");
    let run = play(&black, &white, &[]);
    assert_eq!(run.moves().len(), 10);
    let stderr: Vec<String> = run
        .of_type("gtp")
        .iter()
        .filter(|g| g["direction"] == "stderr")
        .map(|g| g["line"].as_str().unwrap().to_string())
        .collect();
    let shown = stderr.iter().filter(|l| !l.starts_with("[goref:")).count();
    assert!(shown > 0, "the start of the flood is shown");
    let allowed = (STDERR_BURST_BYTES as f64
        + STDERR_FLOOD_BYTES_PER_SECOND as f64 * run.elapsed.as_secs_f64().ceil())
        / 100.0;
    assert!(
        (shown as f64) <= allowed,
        "{shown} of 200000 lines shown, {allowed} allowed in {:?}",
        run.elapsed
    );
    assert!(
        stderr
            .iter()
            .any(|l| l.contains("stderr lines") && l.contains("not shown")),
        "what was left out is counted in the trace"
    );
    let told: Vec<_> = run
        .of_type("error")
        .into_iter()
        .filter(|e| e["message"].as_str().unwrap().contains("floods its stderr"))
        .collect();
    assert_eq!(told.len(), 1, "the operator is told once: {told:?}");
}

#[test]
fn an_engines_ordinary_stderr_is_trace_not_errors() {
    let black = fake("--moves D4,E5,F6,G7,H8,J9,pass --stderr-lines 14");
    let white = fake("--moves C3,C4,C5,C6,C7,C8,pass --stderr-lines 14");
    let run = play(&black, &white, &[]);
    assert_eq!(run.moves().len(), 14);
    let stderr = run
        .of_type("gtp")
        .iter()
        .filter(|g| g["direction"] == "stderr")
        .count();
    assert_eq!(stderr, 14 * 14, "every line is in the trace");
    assert!(
        run.of_type("error").is_empty(),
        "{:?}",
        run.of_type("error")
    );
    assert!(!run.stderr.contains("error:"), "{}", run.stderr);

    let args = [
        "play",
        "--headless",
        "--engine-stderr",
        "--size",
        "9",
        "--black",
        &black,
        "--white",
        &white,
    ];
    let shown = run_goref(&args, LIMIT);
    assert_eq!(shown.status, 0, "{}", shown.stderr);
    assert!(
        shown.stderr.contains("B stderr: move 1: playout 13"),
        "{}",
        shown.stderr
    );
}

#[test]
fn an_illegal_move_forfeits_and_never_reaches_the_opponent() {
    let dir = tempfile::tempdir().unwrap();
    let white_log = dir.path().join("white.log");
    let black = fake("--moves D4,E5");
    let white = fake(&format!("--moves E5,F5 --log {}", white_log.display()));
    let run = play(&black, &white, &[]);
    let result = run.result();
    assert_eq!(result["result"], "W+F");
    assert_eq!(result["end"], "forfeit_illegal_move");
    assert_eq!(result["illegal"], "occupied");
    let illegal = &run.of_type("illegal")[0];
    assert_eq!(illegal["vertex"], "E5");
    assert_eq!(illegal["reason"], "occupied");
    let log = log_lines(&white_log);
    assert!(log.iter().any(|l| l == "play black D4"));
    assert!(!log.iter().any(|l| l == "play black E5"), "{log:?}");
}

#[test]
fn an_engine_that_refuses_a_legal_move_forfeits() {
    let white = fake("--reject-play --moves E5");
    let run = play("bot", &white, &[]);
    let result = run.result();
    assert_eq!(result["result"], "B+F");
    assert_eq!(result["end"], "forfeit_refused_relay");
    assert!(result["reason"].as_str().unwrap().contains("refused"));
}

#[test]
fn resignation_ends_the_game() {
    let white = fake("--moves E5,resign");
    let run = play(&fake("--moves C3,C4"), &white, &[]);
    assert_eq!(run.result()["result"], "B+R");
    assert_eq!(run.result()["end"], "resign");
    assert_eq!(run.moves().last().unwrap().1, "resign");
}

#[test]
fn a_program_that_cannot_start_is_named() {
    let run = run_goref(
        &[
            "play",
            "--json",
            "--black",
            "gtp:/nonexistent/engine",
            "--white",
            "bot",
        ],
        LIMIT,
    );
    assert_eq!(run.status, 2);
    assert!(
        run.stderr.contains("cannot start '/nonexistent/engine'"),
        "{}",
        run.stderr
    );
    assert!(run.of_type("game_start").is_empty());
    let result = run.result();
    assert_eq!(result["end"], "no_game", "{result}");
    assert_eq!(result["winner"], serde_json::Value::Null);
}

/// A program whose first life is the fake engine with `flags` and whose
/// every later life, started again with the same command line, is GNU Go
/// at level 0 (pinned: a clock would raise its level and its thinking).
fn two_lives(dir: &std::path::Path, flags: &str) -> String {
    format!(
        "gtp:sh -c 'if [ -e {lived} ]; then exec {gnugo} --mode gtp --level 0 --max-level 0; else touch {lived}; \
         exec {fake} {flags}; fi'",
        lived = dir.join("lived").display(),
        gnugo = common::gnugo(),
        fake = common::fake_gtp().display(),
    )
}

/// KGS lets a crashed program be started again with the same settings: its
/// first life is the fake engine, which crashes at its third move; its
/// second is GNU Go, which is told the position and plays on to the end.
#[test]
fn a_crashed_engine_is_started_again_told_the_position_and_plays_on() {
    let dir = tempfile::tempdir().unwrap();
    let black = two_lives(dir.path(), "--moves D4,A1,F6 --crash-at 3");
    let white = format!("gtp:{} --mode gtp --level 0 --max-level 0", common::gnugo());
    let run = play(
        &black,
        &white,
        &["--restart-crashed", "1", "--time", "absolute:10m"],
    );
    let result = run.result();
    assert_ne!(result["end"], "forfeit_crash", "{result}");
    let restarts = run.of_type("session");
    assert_eq!(restarts.len(), 1, "{restarts:?} {result} {}", run.stderr);
    assert_eq!(restarts[0]["what"], "restarted");
    assert_eq!(restarts[0]["color"], "B");
    let told = restarts[0]["message"].as_str().unwrap();
    assert!(
        told.contains("status 3") && told.contains("the 4 moves"),
        "{told}"
    );
    let moves = run.moves();
    assert!(moves.len() > 10, "the game went on: {moves:?}");
    assert_eq!(
        &moves[..2],
        &[("B".into(), "D4".into()), ("W".into(), moves[1].1.clone())]
    );
    let events = run.events();
    let at = events.iter().position(|e| e["type"] == "session").unwrap();
    let second_life: Vec<String> = events[at..]
        .iter()
        .filter(|e| e["type"] == "gtp" && e["color"] == "B" && e["direction"] == "sent")
        .map(|e| e["line"].as_str().unwrap().to_string())
        .collect();
    let told_moves: Vec<String> = moves[..4]
        .iter()
        .map(|(c, v)| format!("play {} {v}", if c == "B" { "black" } else { "white" }))
        .collect();
    let plays: Vec<String> = second_life
        .iter()
        .filter(|l| l.contains(" play "))
        .take(4)
        .map(|l| l.split_once(' ').unwrap().1.to_string())
        .collect();
    assert_eq!(
        plays, told_moves,
        "the second life is told every move first"
    );
    let black_clocks: Vec<u64> = run
        .of_type("move")
        .iter()
        .filter(|m| m["color"] == "B")
        .map(|m| m["clock"]["used_ms"].as_u64().unwrap())
        .collect();
    assert!(
        black_clocks.windows(2).all(|w| w[0] <= w[1]),
        "{black_clocks:?}"
    );
}

/// The operator starts a hung program again (`restart b` on the console):
/// the hung one is stopped, the new one is told the position and asked
/// again for its move, and the game goes on.
#[test]
fn the_operator_restarts_a_hung_engine_and_the_game_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let black = two_lives(dir.path(), "--moves D4,E5 --hang-at 2");
    let white = format!("gtp:{} --mode gtp --level 0 --max-level 0", common::gnugo());
    let folder = dir.path().join("game");
    let args = [
        "play",
        "--headless",
        "--size",
        "9",
        "--black",
        &black,
        "--white",
        &white,
        "--restart-crashed",
        "0",
        "--game-dir",
        folder.to_str().unwrap(),
    ];
    let run = common::run_goref_answering(&args, "   2 W ", "restart b it hangs\n", LIMIT);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let journal = Run {
        stdout: std::fs::read_to_string(folder.join("journal.jsonl")).unwrap(),
        ..run
    };
    let result = journal.result();
    assert_ne!(result["end"], "forfeit_hang", "{result}");
    let restarts = journal.of_type("session");
    assert_eq!(restarts.len(), 1, "{restarts:?}");
    assert_eq!(restarts[0]["color"], "B");
    let told = restarts[0]["message"].as_str().unwrap();
    assert!(told.contains("the operator: it hangs"), "{told}");
    assert!(told.contains("the 2 moves"), "{told}");
    assert!(
        journal.moves().len() > 6,
        "the game went on: {:?}",
        journal.moves()
    );
}
