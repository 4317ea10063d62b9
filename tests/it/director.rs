//! The director's results against a real `goref event` and real board
//! processes: a result set for a board still playing stops that board's
//! goref and its game ends void naming the director's result and reason,
//! whether it is the last board of the round, a board the event follows
//! after it was run again, or one no event watches; and a result is
//! refused when it would override one in silence, turn the pairing's
//! colours round or give an entrant a second game in a round.

use crate::common;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use common::event_lines;
use serde_json::Value;

/// A one-round event of two built-in engines, `a` and `b`, that think
/// 300 ms a move on 19x19, so that the board plays for minutes.
fn slow_pair(dir: &Path, rounds: u32, entrants: &[&str]) {
    std::fs::create_dir_all(dir).unwrap();
    let mut text = format!(
        "name = \"director cup\"\nsystem = \"swiss\"\nrounds = {rounds}\n\
         [game]\nrules = \"kgs\"\nsize = 19\ntime = \"absolute:30m\"\n"
    );
    for (seed, name) in entrants.iter().enumerate() {
        text.push_str(&format!(
            "[[entrant]]\nname = \"{name}\"\nplayer = \"gtp:{} bot --seed {} --think-ms 300\"\n",
            common::goref().display(),
            seed + 1
        ));
    }
    std::fs::write(dir.join("event.toml"), text).unwrap();
}

fn pairing(dir: &Path, round: u64) -> (String, String) {
    let lines = event_lines(dir);
    let pairing = lines
        .iter()
        .find(|l| l["type"] == "pairing" && l["round"] == round)
        .unwrap();
    let board = &pairing["boards"][0];
    (
        board["black"].as_str().unwrap().to_string(),
        board["white"].as_str().unwrap().to_string(),
    )
}

fn set_result(dir: &Path, args: &[&str]) -> Output {
    Command::new(common::goref())
        .arg("event")
        .arg(dir)
        .arg("result")
        .args(args)
        .output()
        .unwrap()
}

/// Whether a process's command line names `text`.
fn running(text: &str) -> bool {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .any(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|bytes| {
                let line = String::from_utf8_lossy(&bytes).replace('\0', " ");
                line.contains(text) && !line.contains(" result ")
            })
        })
}

/// A one-round event in `dir` whose only board plays on after its runner
/// was killed; the board's folder.
fn playing_without_its_runner(dir: &Path) -> std::path::PathBuf {
    slow_pair(dir, 1, &["a", "b"]);
    let mut first = common::spawn_event(dir, Stdio::piped());
    let board = dir.join("round-1").join("board-1");
    common::wait_for_moves(&board, 2, |_| true);
    first.kill().unwrap();
    first.wait().unwrap();
    assert!(running(&board.display().to_string()), "the board plays on");
    board
}

/// The board's game is over, void, its reason naming the director's
/// result and reason, in its journal and its record, and no goref of it
/// is left.
fn assert_voided_by_the_director(board: &Path, result: &str, reason: &str) {
    common::wait_until(
        Duration::from_secs(20),
        || format!("the goref of {} to end", board.display()),
        || !running(&board.display().to_string()),
    );
    let journal = common::journal(board);
    let end = journal
        .iter()
        .rev()
        .find(|e| e["type"] == "result")
        .expect("the game has a result");
    assert_eq!(end["result"], "Void", "{end}");
    let why = end["reason"].as_str().unwrap();
    assert!(why.contains(result) && why.contains(reason), "{why}");
    assert!(!why.contains("SIGTERM"), "{why}");
    let record = std::fs::read_to_string(board.join("game.sgf")).unwrap();
    assert!(record.contains("RE[Void]"), "{record}");
    assert!(board.join("MANIFEST.sha256").exists());
}

/// The standings give the director's result: the winner has the point.
fn assert_winner(dir: &Path, winner: &str) {
    let json = Command::new(common::goref())
        .arg("standings")
        .arg(dir)
        .arg("--json")
        .output()
        .unwrap();
    let table: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(table["rows"][0]["name"], winner, "{table}");
    assert_eq!(table["rows"][0]["score"], 1, "{table}");
}

#[test]
fn a_result_for_the_last_board_of_a_round_ends_its_game_void_before_the_event_goes_on() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("ev");
    slow_pair(&dir, 2, &["a", "b"]);
    let event = common::spawn_event(&dir, Stdio::piped());
    let board = dir.join("round-1").join("board-1");
    common::wait_for_moves(&board, 2, |_| true);
    let (black, white) = pairing(&dir, 1);
    let set = set_result(
        &dir,
        &[
            "1",
            &black,
            &white,
            "B+R",
            "--reason",
            "its operator resigned",
        ],
    );
    assert!(set.status.success(), "{set:?}");
    let said = String::from_utf8_lossy(&set.stdout);
    assert!(
        said.contains(&format!(
            "recorded: round 1 board 1, {black} (B) - {white} (W), B+R"
        )),
        "{said}"
    );
    assert_voided_by_the_director(&board, "B+R", "its operator resigned");
    let round_two = dir.join("round-2").join("board-1");
    common::wait_for_moves(&round_two, 1, |_| true);
    let lines = event_lines(&dir);
    let ended = lines
        .iter()
        .position(|l| l["type"] == "board_end" && l["round"] == 1)
        .expect("round 1's board ended in the journal");
    let paired = lines
        .iter()
        .position(|l| l["type"] == "pairing" && l["round"] == 2)
        .unwrap();
    assert!(ended < paired, "round 2 was paired while round 1 played");
    let (black2, white2) = pairing(&dir, 2);
    let done = set_result(
        &dir,
        &["2", &black2, &white2, "W+T", "--reason", "clock fell"],
    );
    assert!(done.status.success(), "{done:?}");
    let finished = common::wait_with_watchdog(event, Duration::from_secs(60));
    assert!(finished.status.success(), "{finished:?}");
    assert_voided_by_the_director(&round_two, "W+T", "clock fell");
    let page = std::fs::read_to_string(dir.join("standings.html")).unwrap();
    assert!(page.contains("director cup"));
    let json = Command::new(common::goref())
        .arg("standings")
        .arg(&dir)
        .arg("--json")
        .output()
        .unwrap();
    let table: Value = serde_json::from_slice(&json.stdout).unwrap();
    let score = |name: &str| {
        table["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["name"] == name)
            .unwrap()["score"]
            .as_f64()
            .unwrap()
    };
    let black_wins = if black == white2 { 2.0 } else { 1.0 };
    assert_eq!(score(&black), black_wins, "{table}");
}

#[test]
fn a_result_for_a_board_the_event_follows_after_a_restart_ends_its_game_void() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("ev");
    let board = playing_without_its_runner(&dir);
    let again = common::spawn_event(&dir, Stdio::piped());
    std::thread::sleep(Duration::from_secs(2));
    let (black, white) = pairing(&dir, 1);
    let set = set_result(
        &dir,
        &[
            "1",
            &black,
            &white,
            "W+F",
            "--reason",
            "black's program froze",
        ],
    );
    assert!(set.status.success(), "{set:?}");
    let finished = common::wait_with_watchdog(again, Duration::from_secs(60));
    assert!(finished.status.success(), "{finished:?}");
    assert_voided_by_the_director(&board, "W+F", "black's program froze");
    assert_winner(&dir, &white);
}

#[test]
fn a_result_for_a_board_no_event_watches_ends_its_game_void_at_once() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("ev");
    let board = playing_without_its_runner(&dir);
    let (black, white) = pairing(&dir, 1);
    let set = set_result(
        &dir,
        &["1", &black, &white, "0", "--reason", "agreed drawn"],
    );
    assert!(set.status.success(), "{set:?}");
    let said = String::from_utf8_lossy(&set.stdout);
    assert!(said.contains("ended void"), "{said}");
    assert_voided_by_the_director(&board, "0", "agreed drawn");
    let rerun = common::wait_with_watchdog(
        common::spawn_event(&dir, Stdio::piped()),
        Duration::from_secs(30),
    );
    assert!(rerun.status.success(), "{rerun:?}");
    let ends: Vec<Value> = event_lines(&dir)
        .into_iter()
        .filter(|l| l["type"] == "board_end")
        .collect();
    assert_eq!(ends.len(), 1, "{ends:?}");
    assert_eq!(ends[0]["result"], "Void");
}

#[test]
fn a_played_result_is_overridden_only_when_the_director_says_so_and_the_journal_keeps_both() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("ev");
    std::fs::create_dir_all(&dir).unwrap();
    let mut text = String::from(
        "name = \"quick cup\"\nsystem = \"swiss\"\nrounds = 1\n\
         [game]\nrules = \"kgs\"\nsize = 9\n",
    );
    for (seed, name) in ["a", "b", "c", "d"].iter().enumerate() {
        text.push_str(&format!(
            "[[entrant]]\nname = \"{name}\"\nplayer = \"gtp:{} bot --seed {}\"\n",
            common::goref().display(),
            seed + 1
        ));
    }
    std::fs::write(dir.join("event.toml"), text).unwrap();
    let run = common::wait_with_watchdog(
        common::spawn_event(&dir, Stdio::piped()),
        Duration::from_secs(60),
    );
    assert!(run.status.success(), "{run:?}");
    let lines = event_lines(&dir);
    let end = lines.iter().find(|l| l["type"] == "board_end").unwrap();
    let (black, white) = (
        end["black"].as_str().unwrap().to_string(),
        end["white"].as_str().unwrap().to_string(),
    );
    let played = end["result"].as_str().unwrap().to_string();
    let other = if played.starts_with('B') {
        "W+R"
    } else {
        "B+R"
    };

    let silent = set_result(&dir, &["1", &black, &white, other, "--reason", "typo"]);
    assert_eq!(silent.status.code(), Some(2), "{silent:?}");
    let why = String::from_utf8_lossy(&silent.stderr);
    assert!(
        why.contains(&format!("already has the result {played} from play"))
            && why.contains("--override"),
        "{why}"
    );

    let turned = set_result(
        &dir,
        &["1", &white, &black, other, "--reason", "x", "--override"],
    );
    assert_eq!(turned.status.code(), Some(2), "{turned:?}");
    let why = String::from_utf8_lossy(&turned.stderr);
    assert!(
        why.contains(&format!("{black} (B) - {white} (W)")) && why.contains("order"),
        "{why}"
    );

    let stranger = ["a", "b", "c", "d"]
        .into_iter()
        .find(|n| *n != black && *n != white)
        .unwrap();
    let second = set_result(&dir, &["1", &black, stranger, "B+R", "--reason", "x"]);
    let third = set_result(&dir, &["1", stranger, &black, "B+R", "--reason", "x"]);
    for refused in [&second, &third] {
        assert_eq!(refused.status.code(), Some(2), "{refused:?}");
        let why = String::from_utf8_lossy(&refused.stderr);
        assert!(why.contains("already has a game in round 1"), "{why}");
    }
    assert_eq!(event_lines(&dir).len(), lines.len(), "nothing was written");

    let page_before = std::fs::read_to_string(dir.join("standings.html")).unwrap();
    let overridden = set_result(
        &dir,
        &[
            "1",
            &black,
            &white,
            other,
            "--reason",
            "the judge found an illegal move",
            "--override",
        ],
    );
    assert!(overridden.status.success(), "{overridden:?}");
    let said = String::from_utf8_lossy(&overridden.stdout);
    assert!(
        said.contains(&format!("replaces {played} from play")),
        "{said}"
    );
    let after = event_lines(&dir);
    let set = after.last().unwrap();
    assert_eq!(set["type"], "result");
    assert_eq!(set["replaces"], format!("{played} from play"));
    assert!(after
        .iter()
        .any(|l| l["type"] == "board_end" && l["result"] == played.as_str()));
    let page_after = std::fs::read_to_string(dir.join("standings.html")).unwrap();
    assert_ne!(page_before, page_after, "the page is written again");
    let winner = if other.starts_with('B') {
        &black
    } else {
        &white
    };
    let json = Command::new(common::goref())
        .arg("standings")
        .arg(&dir)
        .arg("--json")
        .output()
        .unwrap();
    let table: Value = serde_json::from_slice(&json.stdout).unwrap();
    let row = table["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == winner.as_str())
        .unwrap();
    assert_eq!(row["score"], 1, "{table}");
}

/// A board whose goref stalls (stopped, its socket silent): the director's
/// result waits the 10 s for an answer, sends SIGTERM, and the event run
/// again kills it and finishes with her result, without resuming it.
#[test]
fn a_stalled_board_is_stopped_and_the_directors_result_stands() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("ev");
    let board = playing_without_its_runner(&dir);
    let pid = std::fs::read_to_string(board.join("journal.jsonl.lock")).unwrap();
    let pid: i32 = pid.trim().parse().unwrap();
    unsafe { libc::kill(pid, libc::SIGSTOP) };
    let (black, white) = pairing(&dir, 1);
    let set = set_result(&dir, &["1", &black, &white, "B+R", "--reason", "it hangs"]);
    assert!(set.status.success(), "{set:?}");
    let said = String::from_utf8_lossy(&set.stdout);
    assert!(said.contains("its goref was sent SIGTERM"), "{said}");
    let rerun = common::wait_with_watchdog(
        common::spawn_event(&dir, Stdio::piped()),
        Duration::from_secs(60),
    );
    let stderr = String::from_utf8_lossy(&rerun.stderr);
    assert!(rerun.status.success(), "{stderr}");
    assert!(stderr.contains("killing it"), "{stderr}");
    assert!(stderr.contains("the director's result stands"), "{stderr}");
    assert!(!stderr.contains("resuming it"), "{stderr}");
    assert!(!running(&board.display().to_string()));
    assert_winner(&dir, &black);
}
