//! Usenix programs, speaking the 1987 referee's line protocol, refereed end
//! to end: the strict and the sloppy test programs (`tests/programs`)
//! against each other, the built-in engine and GNU Go; `byo-romi` and a
//! loss on CPU time, the idle rule, forks, illegal moves and resigning.

use crate::common;

use std::time::Duration;

use common::{example, gnugo, run_goref, run_goref_answering, Run};
use serde_json::Value;

const LIMIT: Duration = Duration::from_secs(120);

fn program(name: &str, flags: &str) -> String {
    format!("usenix:{} --size 9 {flags}", example(name).display())
}

fn strict(flags: &str) -> String {
    program("usenix_strict", flags)
}

fn sloppy(flags: &str) -> String {
    program("usenix_sloppy", flags)
}

fn usenix_game(black: &str, white: &str, extra: &[&str], judge: Option<&str>) -> Run {
    let mut args = vec![
        "play", "--json", "--rules", "usenix", "--size", "9", "--black", black, "--white", white,
    ];
    args.extend_from_slice(extra);
    let run = match judge {
        Some(input) => run_goref_answering(&args, "needs the judge", input, LIMIT),
        None => run_goref(&args, LIMIT),
    };
    run.assert_status_matches_result();
    run
}

/// Asserts that `run` ended `result` with `end`, its reason saying `says`.
fn assert_ended(run: &Run, result: &str, end: &str, says: &str) {
    let got = run.result();
    assert_eq!(
        (got["result"].as_str(), got["end"].as_str()),
        (Some(result), Some(end)),
        "{got}"
    );
    assert!(got["reason"].as_str().unwrap().contains(says), "{got}");
}

/// The `usenix` lines of one side in one direction, in order.
fn lines(run: &Run, color: &str, direction: &str) -> Vec<Value> {
    run.of_type("usenix")
        .into_iter()
        .filter(|e| e["color"] == color && e["direction"] == direction)
        .collect()
}

fn texts(lines: &[Value]) -> Vec<String> {
    lines
        .iter()
        .map(|l| l["line"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_strict_and_a_sloppy_program_play_a_whole_game_which_the_judge_scores() {
    let run = usenix_game(
        &strict(""),
        &sloppy("--seed 2"),
        &[],
        Some("score by territory, no dead stones\n"),
    );
    let result = run.result();
    assert_eq!(result["end"], "scored_by_judge", "{result}");
    let moves = run.moves();
    assert!(moves.len() > 30, "{moves:?}");
    let last_two: Vec<&str> = moves[moves.len() - 2..]
        .iter()
        .map(|(_, v)| v.as_str())
        .collect();
    assert_eq!(last_two, ["pass", "pass"]);

    let to_white = texts(&lines(&run, "W", "sent"));
    let to_black = texts(&lines(&run, "B", "sent"));
    assert_eq!(to_white[0], "white");
    assert_eq!(to_black[0], "black");
    let black_moves: Vec<String> = moves
        .iter()
        .filter(|(c, _)| c == "B")
        .map(|(_, v)| v.clone())
        .collect();
    let white_moves: Vec<String> = moves
        .iter()
        .filter(|(c, _)| c == "W")
        .map(|(_, v)| v.clone())
        .collect();
    assert_eq!(
        to_white[1..],
        black_moves[..],
        "every Black move relayed, final pass included"
    );
    assert_eq!(to_black[1..], white_moves[..], "every White move relayed");

    let strict_lines = lines(&run, "B", "received");
    assert!(
        strict_lines.iter().all(|l| l.get("note").is_none()),
        "{strict_lines:?}"
    );
    let sloppy_lines = lines(&run, "W", "received");
    let notes: Vec<&str> = sloppy_lines
        .iter()
        .filter_map(|l| l["note"].as_str())
        .collect();
    assert!(
        notes
            .iter()
            .any(|n| n.contains("a 1987 referee would have read it as")),
        "{notes:?}"
    );
    assert!(
        sloppy_lines.iter().any(|l| l["line"] == "\r"),
        "the blank CR lines are shown too"
    );
    assert!(
        sloppy_lines
            .iter()
            .any(|l| l["line"] == "Pass\r" && l["note"].as_str().unwrap().contains("ignored it")),
        "{sloppy_lines:?}"
    );
}

#[test]
fn a_usenix_program_plays_the_built_in_engine_through_to_the_judge() {
    let run = usenix_game(&strict("--seed 3"), "bot:5,playouts=8", &[], None);
    let result = run.result();
    assert_eq!(result["result"], "?");
    assert_eq!(result["end"], "no_operator");
    assert!(run.moves().len() > 20, "{:?}", run.moves());
}

#[test]
fn a_sloppy_usenix_program_plays_gnu_go_over_gtp() {
    let gnugo = format!("gtp:{} --mode gtp --level 0", gnugo());
    let run = usenix_game(&gnugo, &sloppy("--seed 4"), &[], Some("score\n"));
    let result = run.result();
    assert_eq!(result["end"], "scored_by_judge", "{result}");
    let moves = run.moves();
    assert!(moves.len() > 20, "{moves:?}");
    let start = &run.of_type("game_start")[0];
    assert_eq!(start["black"]["protocol"], "gtp");
    assert_eq!(start["white"]["protocol"], "usenix");
    assert!(!run.of_type("gtp").is_empty() && !run.of_type("usenix").is_empty());
}

#[test]
fn byo_romi_comes_once_before_a_relayed_move_and_overtime_is_lost_on_cpu_time() {
    let run = usenix_game(
        &strict("--burn-each-ms 700 --burn-from 6"),
        &strict("--seed 2"),
        &["--time", "cpu:1s,2s"],
        None,
    );
    let result = run.result();
    assert_eq!(
        (result["result"].as_str(), result["end"].as_str()),
        (Some("W+T"), Some("time")),
        "{result}"
    );
    let to_black = texts(&lines(&run, "B", "sent"));
    let at = to_black
        .iter()
        .position(|l| l == "byo-romi")
        .unwrap_or_else(|| panic!("{to_black:?}"));
    assert_eq!(to_black.iter().filter(|l| *l == "byo-romi").count(), 1);
    assert!(
        to_black[at + 1]
            .chars()
            .next()
            .unwrap()
            .is_ascii_uppercase(),
        "a move follows: {to_black:?}"
    );
    assert_eq!(
        at, 2,
        "black, White's first move, then byo-romi once Black's second move used up the second of main time: {to_black:?}"
    );
    let stderr = texts(&lines(&run, "B", "stderr"));
    assert!(stderr.iter().any(|l| l == "got byo-romi"), "{stderr:?}");
    let black_moves = run.moves().iter().filter(|(c, _)| c == "B").count();
    assert_eq!(black_moves, 5, "the sixth move burned past its 2 s");
    let charged: Vec<u64> = run
        .of_type("move")
        .iter()
        .filter(|m| m["color"] == "B")
        .map(|m| m["ms"].as_u64().unwrap())
        .collect();
    assert!(
        charged.iter().all(|&ms| (650..=900).contains(&ms)),
        "CPU time is charged, not wall time: {charged:?}"
    );
}

#[test]
fn a_program_whose_cpu_time_stops_growing_forfeits_by_the_idle_rule() {
    let run = usenix_game(
        &strict("--sleep-from 2"),
        &strict("--seed 2"),
        &["--idle-limit", "3s"],
        None,
    );
    assert_ended(&run, "W+F", "forfeit_hang", "idle rule");
    assert!(run.elapsed < Duration::from_secs(20), "{:?}", run.elapsed);
}

#[test]
fn a_program_that_forks_forfeits_or_is_reported_as_the_rules_say() {
    let run = usenix_game(
        &strict("--fork --burn-each-ms 30"),
        &strict("--seed 2"),
        &[],
        None,
    );
    assert_ended(&run, "W+F", "forfeit_fork", "started another process (");

    // A program that forks at start forfeits in either colour, however long
    // its opponent takes to be ready: never a void game.
    let run = usenix_game(&strict("--fork"), "bot", &[], None);
    assert_ended(&run, "W+F", "forfeit_fork", "started another process (");
    let run = usenix_game("bot", &strict("--fork"), &[], None);
    assert_ended(&run, "B+F", "forfeit_fork", "started another process (");

    let run = usenix_game(
        &strict("--fork --burn-each-ms 30"),
        &strict("--seed 2"),
        &["--forks", "report"],
        None,
    );
    assert_eq!(run.result()["end"], "no_operator");
    let reports: Vec<Value> = run
        .of_type("error")
        .into_iter()
        .filter(|e| {
            e["message"]
                .as_str()
                .unwrap()
                .contains("started another process")
        })
        .collect();
    assert_eq!(reports.len(), 1, "reported once: {reports:?}");
    assert_eq!(reports[0]["fatal"], false);
}

#[test]
fn an_illegal_move_forfeits_and_resign_is_an_extension() {
    let run = usenix_game(&strict("--illegal-at 3"), &sloppy("--seed 2"), &[], None);
    let result = run.result();
    assert_eq!(result["result"], "W+F");
    assert_eq!(result["end"], "forfeit_illegal_move");
    assert_eq!(result["illegal"], "occupied");

    let run = usenix_game(&strict("--seed 2"), &sloppy("--resign-at 2"), &[], None);
    let result = run.result();
    assert_eq!(result["result"], "B+R");
    let resign = lines(&run, "W", "received")
        .into_iter()
        .find(|l| l["line"].as_str().unwrap().starts_with("resign"))
        .expect("the resign line is traced");
    assert!(resign["note"].as_str().unwrap().contains("extension"));
}

#[test]
fn a_program_writing_garbage_in_a_loop_forfeits_without_flooding_the_stream() {
    let run = usenix_game(&strict(""), "usenix:yes garbage", &[], None);
    assert_ended(&run, "B+F", "forfeit_garbage", "lost its way");
    let shown = lines(&run, "W", "received");
    assert!(shown.len() <= 250, "{} lines shown", shown.len());
    let counted = shown
        .iter()
        .filter_map(|l| l["line"].as_str())
        .filter(|l| l.contains("more lines that are not moves"))
        .count();
    assert!(counted >= 1, "the rest are counted");
    assert!(shown[0]["note"].as_str().unwrap().contains("rule (i)"));
}

#[test]
fn a_gtp_engine_under_usenix_rules_is_held_to_the_idle_rule_too() {
    let hangs = common::fake("--moves D4,E5 --hang-at 2");
    let run = usenix_game(&hangs, &strict("--seed 2"), &["--idle-limit", "3s"], None);
    assert_ended(&run, "W+F", "forfeit_hang", "idle rule");
    assert!(run.elapsed < Duration::from_secs(20), "{:?}", run.elapsed);
}

#[test]
fn a_program_writing_moves_in_a_loop_forfeits_without_flooding_the_stream() {
    let run = usenix_game(&strict(""), "usenix:yes G7", &[], None);
    assert_ended(
        &run,
        "B+F",
        "forfeit_garbage",
        "moves before it was asked for them",
    );
    let shown = lines(&run, "W", "received");
    assert!(shown.len() <= 25, "{} lines shown", shown.len());
}
