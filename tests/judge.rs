//! The judge's part: disputes and move limits under the CGF preset, decided
//! by the operator on stdin, or ended as unknown when no operator is there.

mod common;

use std::time::Duration;

use common::{fake, run_goref, run_goref_answering, Run};

const LIMIT: Duration = Duration::from_secs(60);

fn cgf_game(black: &str, white: &str, extra: &[&str], input: Option<&str>) -> Run {
    let mut args = vec![
        "play", "--json", "--rules", "cgf", "--size", "9", "--black", black, "--white", white,
    ];
    args.extend_from_slice(extra);
    let run = match input {
        Some(input) => run_goref_answering(&args, "needs the judge", input, LIMIT),
        None => run_goref(&args, LIMIT),
    };
    run.assert_status_matches_result();
    run
}

fn phases(run: &Run) -> Vec<String> {
    run.of_type("phase")
        .iter()
        .map(|p| p["phase"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_dispute_with_no_operator_ends_unknown_and_says_why() {
    let black = fake("--moves D4,pass");
    let white = fake("--moves pass --dead D4");
    let run = cgf_game(&black, &white, &[], None);
    assert_eq!(
        phases(&run),
        ["play", "dead_stones", "adjudication", "over"]
    );
    let result = run.result();
    assert_eq!(result["result"], "?");
    assert_eq!(result["end"], "no_operator");
    assert!(result["reason"].as_str().unwrap().contains("no operator"));
}

#[test]
fn the_operator_decides_a_dispute() {
    let black = fake("--moves D4,pass");
    let white = fake("--moves pass --dead D4");
    let input = "adjudicate B+ black lives in the corner\n";
    let run = cgf_game(&black, &white, &[], Some(input));
    let result = run.result();
    assert_eq!(result["result"], "B+");
    assert_eq!(result["end"], "adjudicated");
    assert_eq!(result["winner"], "B");
    assert!(result["reason"].as_str().unwrap().contains("black lives"));
    assert!(run.stderr.contains("needs the judge"), "{}", run.stderr);
}

#[test]
fn the_operator_marks_dead_stones_and_scores() {
    let black = fake("--moves D4,pass");
    let white = fake("--moves E5,pass --dead D4");
    let run = cgf_game(&black, &white, &[], Some("dead D4\nscore\n"));
    let marked: Vec<_> = run
        .of_type("agreement")
        .into_iter()
        .filter(|a| a["kind"] == "marked")
        .collect();
    assert_eq!(
        marked[0]["stones"],
        serde_json::json!([]),
        "no stone both claimed"
    );
    assert_eq!(marked.last().unwrap()["stones"], serde_json::json!(["D4"]));
    let result = run.result();
    assert_eq!(result["result"], "W+86.5", "{result}");
    assert_eq!(result["end"], "scored_by_judge");
}

#[test]
fn the_game_stops_for_the_judge_at_the_move_limit() {
    let black = fake("--moves C3,C4,C5");
    let white = fake("--moves G3,G4,G5");
    let run = cgf_game(&black, &white, &["--stop-at", "4"], Some("void replay\n"));
    assert_eq!(run.moves().len(), 4);
    assert_eq!(phases(&run), ["play", "adjudication", "over"]);
    assert_eq!(run.result()["result"], "Void");
    assert_eq!(run.result()["end"], "void");
}

#[test]
fn a_move_limit_with_no_operator_ends_without_a_result() {
    let black = fake("--moves C3,C4,C5");
    let white = fake("--moves G3,G4,G5");
    let run = cgf_game(&black, &white, &["--stop-at", "4"], None);
    let result = run.result();
    assert_eq!(result["result"], "?");
    assert_eq!(result["end"], "move_limit");
    assert_eq!(result["limit"], 4);
    assert_eq!(run.status, 1);
}

#[test]
fn a_time_out_past_the_loss_limit_goes_to_the_judge() {
    let black = fake("--moves C3,C4,C5 --hang-at 3");
    let white = fake("--moves G3,G4,G5");
    let run = cgf_game(
        &black,
        &white,
        &["--time", "absolute:1s", "--time-loss-before", "4"],
        None,
    );
    assert_eq!(run.moves().len(), 4);
    let adjudication = &run.of_type("phase")[1];
    assert_eq!(adjudication["phase"], "adjudication");
    assert!(adjudication["reason"]
        .as_str()
        .unwrap()
        .contains("ran out of time"));
    let result = run.result();
    assert_eq!(result["result"], "?");
    assert_eq!(result["end"], "no_operator");
    let reason = result["reason"].as_str().unwrap();
    assert!(
        reason.contains("Black ran out of time on move 5") && reason.contains("no operator"),
        "the cause stays with the result: {reason}"
    );
}

#[test]
fn a_time_out_before_the_loss_limit_loses() {
    let black = fake("--moves C3,C4,C5 --hang-at 2");
    let white = fake("--moves G3,G4,G5");
    let run = cgf_game(
        &black,
        &white,
        &["--time", "absolute:1s", "--time-loss-before", "4"],
        None,
    );
    assert_eq!(run.result()["result"], "W+T");
    assert_eq!(run.result()["end"], "time");
    assert_eq!(run.result()["limit"], 4, "the move limit that applied");
}
