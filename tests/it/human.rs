//! The `human` player: the operator types a program's moves on stdin.

use crate::common;

use std::time::Duration;

use common::{fake, run_goref, run_goref_scripted, END_OF_INPUT};

const LIMIT: Duration = Duration::from_secs(60);

#[test]
fn the_operator_types_a_programs_moves_and_mistakes_are_retyped() {
    let white = fake("--moves G3,G4,G5,pass");
    let run = run_goref_scripted(
        &[
            "play",
            "--json",
            "--size",
            "9",
            "--black",
            "human:Proxy",
            "--white",
            &white,
        ],
        "Black to move",
        &["C3\n", "c4\n", "Z9\n C5\n", "pass\n"],
        LIMIT,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let start = &run.of_type("game_start")[0];
    assert_eq!(start["black"]["protocol"], "human");
    assert_eq!(start["black"]["name"], "Proxy");
    let moves: Vec<String> = run
        .moves()
        .iter()
        .map(|(c, v)| format!("{c} {v}"))
        .collect();
    assert_eq!(
        moves,
        ["B C3", "W G3", "B C4", "W G4", "B C5", "W G5", "B pass", "W pass"]
    );
    assert!(run.stderr.contains("'Z9' is not a move"), "{}", run.stderr);
    assert!(run.stderr.contains("White played G3"), "{}", run.stderr);
    assert_eq!(run.result()["result"], "W+7.5");
}

#[test]
fn the_operators_typing_time_runs_on_the_programs_clock() {
    let white = fake("--moves G3,G4,G5,pass");
    let args = [
        "play",
        "--json",
        "--size",
        "9",
        "--time",
        "absolute:1s",
        "--black",
        "human",
        "--white",
        &white,
    ];
    let silent_operator = run_goref_scripted(&args, "no prompt matches this", &[], LIMIT);
    assert_eq!(silent_operator.status, 0, "{}", silent_operator.stderr);
    assert_eq!(silent_operator.result()["result"], "W+T");
    assert!(silent_operator.elapsed < Duration::from_secs(10));
}

#[test]
fn a_typed_player_without_an_operator_is_no_game() {
    let white = fake("--moves G3");
    let run = run_goref(
        &["play", "--json", "--black", "human", "--white", &white],
        LIMIT,
    );
    assert_ne!(run.status, 0);
    assert!(run.stderr.contains("input closed"), "{}", run.stderr);
}

#[test]
fn a_move_the_rules_refuse_is_typed_again_not_forfeited() {
    let white = fake("--moves G3,G4,pass");
    let run = run_goref_scripted(
        &[
            "play", "--json", "--size", "9", "--black", "human", "--white", &white,
        ],
        "Black to move",
        &["E5\n", "E5\n", "G3\n", "D4\n", "pass\n"],
        LIMIT,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let moves: Vec<String> = run
        .moves()
        .iter()
        .map(|(c, v)| format!("{c} {v}"))
        .collect();
    assert_eq!(
        moves,
        ["B E5", "W G3", "B D4", "W G4", "B pass", "W pass"],
        "{}",
        run.stderr
    );
    let notices: Vec<String> = run
        .of_type("notice")
        .iter()
        .map(|n| n["message"].as_str().unwrap().to_string())
        .collect();
    assert!(
        notices
            .iter()
            .any(|n| n.contains("E5") && n.contains("occupied")),
        "{notices:?}"
    );
    assert!(
        run.of_type("error").is_empty(),
        "{:?}",
        run.of_type("error")
    );
    assert_ne!(run.result()["result"], "W+F");
}

#[test]
fn end_of_input_detaches_the_operator_and_forfeits_nobody() {
    let white = fake("--moves G3,G4,pass");
    let run = run_goref_scripted(
        &[
            "play", "--json", "--size", "9", "--black", "human", "--white", &white,
        ],
        "Black to move",
        &["E5\n", END_OF_INPUT],
        LIMIT,
    );
    run.assert_status_matches_result();
    assert_eq!(run.status, 1, "no decided result: {}", run.stderr);
    let result = run.result();
    assert_eq!(result["result"], "?", "{result}");
    let reason = result["reason"].as_str().unwrap();
    assert!(reason.contains("input closed"), "{reason}");
    assert!(reason.contains("no operator is attached"), "{reason}");
    assert_eq!(run.moves().len(), 2);
}
