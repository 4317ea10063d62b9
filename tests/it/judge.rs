//! The judge's part: disputes and move limits under the CGF preset, decided
//! by the operator on stdin, or ended as unknown when no operator is there;
//! and the operator's pause, which holds a game of real players (GNU Go, the
//! built-in engine, a program on a line) until the operator resumes it.

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::time::Duration;

use common::{
    fake, gnugo, journal, move_events, run_goref, run_goref_answering, wait_for_moves, wait_until,
    Run,
};
use goref_core::game::sgf;
use serde_json::Value;

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

// ------------------------------------------------------------ the pause

/// goref refereeing a headless game into its folder, the operator's console
/// on its stdin; killed if the test ends before it does.
struct Console {
    goref: Child,
    input: ChildStdin,
    folder: PathBuf,
}

impl Console {
    /// A 9x9 game under the KGS rules between `players`.
    fn play(folder: &Path, players: &[&str]) -> Console {
        let mut args = vec!["play", "--headless", "--rules", "kgs", "--size", "9"];
        args.extend_from_slice(players);
        args.extend(["--game-dir", folder.to_str().unwrap()]);
        Console::spawn(folder, &args)
    }

    /// `goref resume` of the game in `folder`.
    fn resume(folder: &Path) -> Console {
        Console::spawn(folder, &["resume", folder.to_str().unwrap(), "--headless"])
    }

    fn spawn(folder: &Path, args: &[&str]) -> Console {
        let mut goref = Command::new(common::goref())
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("goref starts");
        let input = goref.stdin.take().unwrap();
        Console {
            goref,
            input,
            folder: folder.to_path_buf(),
        }
    }

    fn type_line(&mut self, line: &str) {
        writeln!(self.input, "{line}").unwrap();
        self.input.flush().unwrap();
    }

    /// The journal once an event that `wanted` picks is in it after the
    /// first `after` events, and where the first such is.
    fn wait_for(
        &self,
        what: &str,
        after: usize,
        wanted: impl Fn(&Value) -> bool,
    ) -> (Vec<Value>, usize) {
        let mut events = Vec::new();
        let found = |events: &[Value]| events.iter().skip(after).position(&wanted);
        wait_until(
            LIMIT,
            || what.to_string(),
            || {
                events = journal(&self.folder);
                found(&events).is_some()
            },
        );
        let at = after + found(&events).unwrap();
        (events, at)
    }

    fn finish(mut self) -> ExitStatus {
        let mut status = None;
        wait_until(
            LIMIT,
            || "the end of the game".into(),
            || {
                status = self.goref.try_wait().unwrap();
                status.is_some()
            },
        );
        status.unwrap()
    }
}

impl Drop for Console {
    fn drop(&mut self) {
        let _ = self.goref.kill();
        let _ = self.goref.wait();
    }
}

fn is_operator(event: &Value, command: &str) -> bool {
    event["type"] == "operator" && event["command"] == command
}

fn genmoves_in(events: &[Value]) -> usize {
    events
        .iter()
        .filter(|e| e["type"] == "gtp" && e["direction"] == "sent")
        .filter(|e| e["line"].as_str().unwrap().contains("genmove"))
        .count()
}

#[test]
fn a_pause_holds_a_gnu_go_game_until_the_operator_resumes_it() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("game");
    let black = format!("gtp:{} --mode gtp --level 0 --seed 1", gnugo());
    let mut console = Console::play(&folder, &["--black", &black, "--white", "bot:1"]);
    wait_for_moves(&folder, 4, |_| true);
    console.type_line("pause the judge looks at the board");
    let (_, paused_at) = console.wait_for("the pause", 0, |e| is_operator(e, "pause"));
    std::thread::sleep(Duration::from_secs(2));
    let held = journal(&folder);
    let during = &held[paused_at + 1..];
    assert!(
        move_events(during).is_empty(),
        "no move is played in the 2 s paused: {during:#?}"
    );
    assert!(
        genmoves_in(during) <= 1,
        "no move is asked for: at most the genmove sent before the pause, reported after it: \
         {during:#?}"
    );
    let played = move_events(&held[..paused_at]).len();

    console.type_line("resume");
    let status = console.finish();
    assert!(matches!(status.code(), Some(0 | 1)), "{status:?}");
    let events = journal(&folder);
    let resumed_at = events
        .iter()
        .position(|e| is_operator(e, "resume"))
        .unwrap();
    assert!(move_events(&events[paused_at..resumed_at]).is_empty());
    let resume = &events[resumed_at];
    assert!(resume["paused_ms"].as_u64().unwrap() >= 2_000, "{resume}");
    let after = move_events(&events[resumed_at..]);
    assert!(after.len() >= 2, "the game goes on: {after:#?}");
    assert_eq!(after[0]["n"].as_u64(), Some(played as u64 + 1));
    assert!(
        after[0]["ms"].as_u64().unwrap() < 2_000,
        "the paused time is charged to nobody: {}",
        after[0]
    );
    let results = events.iter().filter(|e| e["type"] == "result");
    assert_eq!(results.count(), 1, "the game reaches its end");

    let text = std::fs::read_to_string(folder.join("game.sgf")).unwrap();
    let nodes = sgf::parse(&text).unwrap();
    let comment = nodes[played].get("C").unwrap_or_default();
    assert!(
        comment.starts_with(
            "Operator: pause (the judge looks at the board).\nOperator: resume (the game goes on \
             after 2"
        ),
        "on the node of the move the pause followed: {comment:?}"
    );
}

#[test]
fn a_move_a_line_sends_during_a_pause_is_acknowledged_held_and_relayed_at_the_resumption() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("game");
    let white = format!("gtp:{} --mode gtp --level 0 --seed 2", gnugo());
    let players = ["--black", "bot-sgmp:1,think=1s", "--white", &white];
    let mut console = Console::play(&folder, &players);
    wait_for_moves(&folder, 2, |m| m["color"] == "W");
    console.type_line("pause a question about the line");
    let (_, paused_at) = console.wait_for("the pause", 0, |e| is_operator(e, "pause"));
    let black_move_in = |e: &Value| {
        e["type"] == "packet"
            && e["direction"] == "in"
            && e["meaning"].as_str().unwrap().starts_with("MOVE B")
    };
    let (_, arrived_at) =
        console.wait_for("Black's MOVE during the pause", paused_at, black_move_in);
    std::thread::sleep(Duration::from_millis(500));
    let held = journal(&folder);
    let during = &held[paused_at + 1..];
    assert!(
        move_events(during).is_empty(),
        "held, not played: {during:#?}"
    );
    assert!(
        held[arrived_at + 1..]
            .iter()
            .any(|e| e["type"] == "packet" && e["direction"] == "out" && e["meaning"] == "OK"),
        "the link acknowledges it, so the line stays healthy: {during:#?}"
    );
    assert!(
        during
            .iter()
            .any(|e| e["type"] == "notice" && e["message"].as_str().unwrap().contains("held")),
        "{during:#?}"
    );
    assert!(
        !during
            .iter()
            .any(|e| e["type"] == "gtp" && e["direction"] == "sent"),
        "nothing is relayed to White or asked of it: {during:#?}"
    );
    let meaning = held[arrived_at]["meaning"].as_str().unwrap();
    let vertex = meaning.split_whitespace().nth(2).unwrap().to_string();

    console.type_line("resume");
    let (_, resumed_at) =
        console.wait_for("the resumption", paused_at, |e| is_operator(e, "resume"));
    let (events, answered_at) = console.wait_for("White's answer", resumed_at, |e| {
        e["type"] == "move" && e["color"] == "W"
    });
    let reason = events[resumed_at]["reason"].as_str().unwrap();
    assert!(reason.contains(&format!("Black's {vertex}")), "{reason}");
    let taken = move_events(&events[resumed_at..]);
    assert_eq!(
        (&taken[0]["color"], taken[0]["vertex"].as_str().unwrap()),
        (&Value::from("B"), vertex.as_str()),
        "the held move is played at the resumption"
    );
    assert!(
        taken[0]["ms"].as_u64().unwrap() < 1_000,
        "the program's second of thought fell in the pause, charged to nobody: {}",
        taken[0]
    );
    assert!(
        taken[0]["referee_us"].as_u64().unwrap() < 250_000,
        "the referee's share runs from the resumption, not from the MOVE's arrival before \
         the pause: {}",
        taken[0]
    );
    let relayed = events[resumed_at..answered_at].iter().any(|e| {
        let line = e["line"].as_str().unwrap_or_default().to_ascii_lowercase();
        e["type"] == "gtp"
            && e["direction"] == "sent"
            && line.contains("play")
            && line.ends_with(&vertex.to_ascii_lowercase())
    });
    assert!(
        relayed,
        "relayed to White before it moves: {:#?}",
        &events[resumed_at..]
    );

    console.type_line("void the pause is checked");
    assert_eq!(console.finish().code(), Some(1), "a void game");
}

#[test]
fn a_game_whose_referee_died_during_a_pause_comes_back_paused() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("game");
    let black = format!("gtp:{} --mode gtp --level 0 --seed 3", gnugo());
    let mut first = Console::play(&folder, &["--black", &black, "--white", "bot:3"]);
    wait_for_moves(&folder, 4, |_| true);
    first.type_line("pause the hall's power flickers");
    first.wait_for("the pause", 0, |e| is_operator(e, "pause"));
    drop(first);
    let played = move_events(&journal(&folder)).len();

    let mut second = Console::resume(&folder);
    let (_, told_at) = second.wait_for("the operator told", 0, |e| {
        let message = e["message"].as_str().unwrap_or_default();
        e["type"] == "notice"
            && message.contains("paused when goref stopped (the hall's power flickers)")
    });
    std::thread::sleep(Duration::from_secs(1));
    let held = journal(&folder);
    let since = &held[told_at..];
    assert!(move_events(since).is_empty(), "{since:#?}");
    assert_eq!(genmoves_in(since), 0, "no move asked for: {since:#?}");

    second.type_line("resume");
    let status = second.finish();
    assert!(matches!(status.code(), Some(0 | 1)), "{status:?}");
    let events = journal(&folder);
    let resumed_at = told_at
        + events[told_at..]
            .iter()
            .position(|e| is_operator(e, "resume"))
            .unwrap();
    let after = move_events(&events[resumed_at..]);
    assert_eq!(
        after[0]["n"].as_u64(),
        Some(played as u64 + 1),
        "{after:#?}"
    );
    let results = events.iter().filter(|e| e["type"] == "result");
    assert_eq!(results.count(), 1, "the game reaches its end");
}
