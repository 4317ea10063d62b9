//! `goref event`: the real binary writes a commented event file that reads
//! back; runs a Swiss of real engines, each board in its own goref, to its
//! crosstable; survives a kill in the middle of a round; waits for the
//! director when a board cannot finish; and streams every board tagged.

use crate::common;

use std::collections::HashSet;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use common::event_lines;
use serde_json::Value;

fn init(dir: &std::path::Path) -> std::process::Output {
    Command::new(common::goref())
        .args(["event", "init"])
        .arg(dir)
        .output()
        .unwrap()
}

#[test]
fn init_writes_a_file_that_reads_back_and_keeps_an_edited_one() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("championship");
    let first = init(&dir);
    assert!(first.status.success(), "{first:?}");
    let event = goref::event::file::load(&dir).unwrap();
    assert_eq!(event.entrants.len(), 4);
    let path = dir.join("event.toml");
    std::fs::write(&path, "name = \"edited\"\n").unwrap();
    let again = init(&dir);
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("already exists"));
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "name = \"edited\"\n"
    );
    let error = goref::event::file::load(&dir).unwrap_err().to_string();
    assert!(error.contains("system"), "{error}");
}

/// Writes `DIR/event.toml`: a Swiss of `rounds` over `entrants` (name,
/// player), 9x9 under the KGS rules, with `extra` keys at the top.
fn event_folder(dir: &Path, rounds: u32, entrants: &[(&str, String)], extra: &str) {
    std::fs::create_dir_all(dir).unwrap();
    let mut text = format!(
        "name = \"test cup\"\nsystem = \"swiss\"\nrounds = {rounds}\n{extra}\n\
         [game]\nrules = \"kgs\"\nsize = 9\ntime = \"absolute:10m\"\n"
    );
    for (name, player) in entrants {
        text.push_str(&format!(
            "[[entrant]]\nname = \"{name}\"\nplayer = \"{player}\"\n"
        ));
    }
    std::fs::write(dir.join("event.toml"), text).unwrap();
}

/// The built-in engine as a GTP program that thinks `think_ms` a move.
fn bot(seed: u32, think_ms: u32) -> String {
    format!(
        "gtp:{} bot --seed {seed} --think-ms {think_ms}",
        common::goref().display()
    )
}

fn six_bots(think_ms: u32) -> Vec<(&'static str, String)> {
    ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"]
        .into_iter()
        .zip(1..)
        .map(|(name, seed)| (name, bot(seed, think_ms)))
        .collect()
}

fn of_type(lines: &[Value], kind: &str) -> Vec<Value> {
    lines
        .iter()
        .filter(|l| l["type"] == kind)
        .cloned()
        .collect()
}

/// `goref event DIR --headless --yes EXTRA`, killed (and the test failed)
/// if it has not ended within two minutes, so that an event that waits
/// for a director nobody plays fails the test instead of hanging it.
fn run_event(dir: &Path, extra: &[&str]) -> std::process::Output {
    let child = Command::new(common::goref())
        .arg("event")
        .arg(dir)
        .args(["--headless", "--yes"])
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id() as i32;
    let (done, finished) = std::sync::mpsc::channel::<()>();
    let watchdog = std::thread::spawn(move || {
        if finished.recv_timeout(Duration::from_secs(120)).is_err() {
            unsafe { libc::kill(pid, libc::SIGKILL) };
            return true;
        }
        false
    });
    let output = child.wait_with_output().unwrap();
    let _ = done.send(());
    assert!(
        !watchdog.join().unwrap(),
        "goref event {} did not end within two minutes: {}",
        dir.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// Waits until the event's journal holds a board whose game never started.
fn wait_for_a_game_that_never_started(dir: &Path) {
    common::wait_until(
        Duration::from_secs(30),
        || "a board's end without a game in event.jsonl".into(),
        || {
            of_type(&event_lines(dir), "board_end")
                .iter()
                .any(|end| end["end"] == "no_game")
        },
    );
}

/// `goref standings DIR --json`, read.
fn standings_json(dir: &Path) -> Value {
    let json = Command::new(common::goref())
        .arg("standings")
        .arg(dir)
        .arg("--json")
        .output()
        .unwrap();
    assert!(json.status.success(), "{json:?}");
    serde_json::from_slice(&json.stdout).unwrap()
}

/// Checks a finished event: every round paired once, no pair met twice,
/// one result for every board, each in its own folder with its record,
/// and the standings from the folder agreeing with the games.
fn assert_played_once_each(dir: &Path, rounds: usize, entrants: usize) {
    let lines = event_lines(dir);
    let pairings = of_type(&lines, "pairing");
    assert_eq!(pairings.len(), rounds, "one pairing a round");
    let mut met = HashSet::new();
    let mut boards = 0;
    for pairing in &pairings {
        for board in pairing["boards"].as_array().unwrap() {
            let (b, w) = (
                board["black"].as_str().unwrap(),
                board["white"].as_str().unwrap(),
            );
            assert!(
                met.insert(if b < w { (b, w) } else { (w, b) }),
                "{b} and {w} met twice"
            );
            boards += 1;
        }
    }
    assert_eq!(boards, rounds * entrants / 2);
    let ends = of_type(&lines, "board_end");
    let mut ended = HashSet::new();
    for end in &ends {
        assert!(
            ended.insert((end["round"].as_u64(), end["board"].as_u64())),
            "a board ended twice: {end}"
        );
        let folder = dir.join(end["dir"].as_str().unwrap());
        let sgf = std::fs::read_to_string(folder.join("game.sgf")).unwrap();
        assert!(sgf.contains(&format!("RE[{}]", end["result"].as_str().unwrap())));
        assert!(folder.join("MANIFEST.sha256").exists());
    }
    assert_eq!(ends.len(), boards);
    assert_eq!(of_type(&lines, "standings").len(), rounds);
    let table = standings_json(dir);
    let rows = table["rows"].as_array().unwrap();
    assert_eq!(rows.len(), entrants);
    let points: f64 = rows.iter().map(|r| r["score"].as_f64().unwrap()).sum();
    assert_eq!(points, boards as f64, "a point a game");
    for row in rows {
        assert_eq!(row["games"].as_array().unwrap().len(), rounds, "{row}");
    }
}

#[test]
fn a_six_entrant_swiss_of_the_built_in_engine_runs_headless_to_its_crosstable() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("cup");
    event_folder(&dir, 3, &six_bots(0), "");
    let run = run_event(&dir, &[]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    assert!(stderr.contains("round 3 pairing: board 1"), "{stderr}");
    assert!(stderr.contains("standings after round 3"), "{stderr}");
    assert!(stderr.contains("test cup is over"), "{stderr}");
    assert_played_once_each(&dir, 3, 6);
    let table = Command::new(common::goref())
        .arg("standings")
        .arg(&dir)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&table.stdout);
    assert_eq!(text.lines().count(), 7, "{text}");
    assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
    let page = std::fs::read_to_string(dir.join("standings.html")).unwrap();
    let links: Vec<&str> = page
        .split("<a href=\"")
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap())
        .collect();
    assert_eq!(links.len(), 18, "a link from each side of each game");
    for link in links {
        assert!(dir.join(link).is_file(), "{link} is not a record");
    }
    let again = run_event(&dir, &[]);
    assert!(again.status.success());
    assert_eq!(
        of_type(&event_lines(&dir), "board_start").len(),
        9,
        "nothing replayed"
    );
}

/// The pids of the processes whose command line contains `text`.
fn pids_running(text: &str) -> Vec<i32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|bytes| {
                String::from_utf8_lossy(&bytes)
                    .replace('\0', " ")
                    .contains(text)
            })
        })
        .collect()
}

#[test]
fn a_kill_in_round_two_and_a_rerun_finish_the_event_with_every_pair_played_once() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("cup");
    event_folder(&dir, 3, &six_bots(40), "");
    let mut event = common::spawn_event(&dir, Stdio::null());
    let board_one = dir.join("round-2").join("board-1");
    common::wait_until(
        Duration::from_secs(120),
        || "round 2 under way".into(),
        || common::journal_moves(&board_one).len() >= 6,
    );
    event.kill().unwrap();
    event.wait().unwrap();
    for pid in pids_running(&format!("{}", board_one.display())) {
        unsafe { libc::kill(pid, libc::SIGKILL) };
    }
    let run = run_event(&dir, &[]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    assert!(
        stderr.contains("round 2 board 1: ") && stderr.contains("resumed in"),
        "the killed board is resumed: {stderr}"
    );
    assert_played_once_each(&dir, 3, 6);
    let lines = event_lines(&dir);
    let round_two = of_type(&lines, "pairing")
        .into_iter()
        .filter(|p| p["round"] == 2)
        .count();
    assert_eq!(round_two, 1, "round 2 paired once");
    let journal = common::journal(&board_one);
    let moves: Vec<u64> = journal
        .iter()
        .filter(|e| e["type"] == "move")
        .map(|e| e["n"].as_u64().unwrap())
        .collect();
    assert!(
        moves.windows(2).all(|w| w[1] == w[0] + 1),
        "one game, no move twice"
    );
}

#[test]
fn a_board_that_cannot_start_waits_for_the_director_and_her_result_lets_the_event_finish() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("cup");
    let entrants = [
        ("solid", bot(1, 0)),
        ("missing", "gtp:/nonexistent/engine --mode gtp".to_string()),
    ];
    event_folder(&dir, 1, &entrants, "");
    let event = common::spawn_event(&dir, Stdio::piped());
    wait_for_a_game_that_never_started(&dir);
    let pairing = &of_type(&event_lines(&dir), "pairing")[0]["boards"][0];
    let (black, white) = (
        pairing["black"].as_str().unwrap().to_string(),
        pairing["white"].as_str().unwrap().to_string(),
    );
    let wrong = Command::new(common::goref())
        .arg("event")
        .arg(&dir)
        .args(["result", "1", &black, &white, "X+1"])
        .args(["--reason", "typo"])
        .output()
        .unwrap();
    assert_eq!(wrong.status.code(), Some(2));
    let winner = if black == "solid" { "B+F" } else { "W+F" };
    let set = Command::new(common::goref())
        .arg("event")
        .arg(&dir)
        .args(["result", "1", &black, &white, winner])
        .args(["--reason", "missing's engine is not on the venue machine"])
        .output()
        .unwrap();
    assert!(set.status.success(), "{set:?}");
    let done = event.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert!(done.status.success(), "{stderr}");
    assert!(stderr.contains("waits for the director"), "{stderr}");
    assert!(stderr.contains("its game never started"), "{stderr}");
    assert!(
        stderr.contains("note: entrant missing: /nonexistent/engine: no such program"),
        "found when the event starts: {stderr}"
    );
    let table = standings_json(&dir);
    assert_eq!(table["rows"][0]["name"], "solid");
    assert_eq!(table["rows"][0]["score"], 1);
}

#[test]
fn the_json_stream_carries_the_events_lines_and_every_boards_tagged() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("cup");
    event_folder(&dir, 1, &six_bots(0)[..4], "");
    let run = run_event(&dir, &["--json"]);
    assert!(run.status.success());
    let lines: Vec<Value> = String::from_utf8_lossy(&run.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{line}: {e}")))
        .collect();
    for kind in ["pairing", "board_start", "board_end", "standings"] {
        assert!(lines.iter().any(|l| l["type"] == kind), "no {kind}");
    }
    for board in [1, 2] {
        let moves = lines
            .iter()
            .filter(|l| l["type"] == "move" && l["board"] == board && l["round"] == 1)
            .count();
        assert!(moves > 10, "board {board}: {moves} moves");
    }
    assert!(
        String::from_utf8_lossy(&run.stderr).is_empty(),
        "with --json, nothing on stderr"
    );
}

#[test]
fn at_the_prompt_the_director_swaps_colours_then_confirms_and_each_decision_is_journalled() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("cup");
    event_folder(&dir, 1, &six_bots(0)[..2], "");
    let answer = |input: &str| {
        let mut event = Command::new(common::goref())
            .arg("event")
            .arg(&dir)
            .arg("--headless")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        event
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        event.wait_with_output().unwrap()
    };
    let quit = answer("swap 1\nswap 7\nq\n");
    let said = String::from_utf8_lossy(&quit.stderr);
    assert_eq!(quit.status.code(), Some(1), "{said}");
    assert!(said.contains("round 1 has no board 7"), "{said}");
    assert!(said.contains("round 1 proposed:"), "{said}");
    let lines = event_lines(&dir);
    assert_eq!(of_type(&lines, "swap_colours").len(), 1);
    assert!(
        of_type(&lines, "pairing").is_empty(),
        "quit confirms nothing"
    );
    let shown: Vec<&str> = said.lines().filter(|l| l.contains("board  1")).collect();
    assert_ne!(shown.first(), shown.last(), "the swap changes the proposal");
    let proposed = shown.last().unwrap().to_string();
    let done = answer("y\n");
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    let pairing = &of_type(&event_lines(&dir), "pairing")[0];
    assert_eq!(pairing["confirmed_by"], "director");
    let black = pairing["boards"][0]["black"].as_str().unwrap();
    assert!(
        proposed.contains(&format!("{black} (B)")),
        "the swap asked before quitting still stands: {proposed}"
    );
}

#[test]
fn a_gnu_go_event_of_four_entrants_runs() {
    let gnugo = common::gnugo();
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("cup");
    let entrants: Vec<(&str, String)> = ["ga", "gb", "gc", "gd"]
        .into_iter()
        .zip(1..)
        .map(|(name, seed)| {
            (
                name,
                format!("gtp:{gnugo} --mode gtp --level 0 --seed {seed}"),
            )
        })
        .collect();
    event_folder(&dir, 2, &entrants, "tie_breaks = \"cgf\"");
    let run = run_event(&dir, &[]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert_played_once_each(&dir, 2, 4);
    let sgf = std::fs::read_to_string(dir.join("round-1/board-1/game.sgf")).unwrap();
    assert!(sgf.contains("GNU Go"), "the record names the engine: {sgf}");
    assert!(sgf.contains("EV[test cup]") && sgf.contains("RO[1]"));
    let board = &of_type(&event_lines(&dir), "pairing")[0]["boards"][0];
    let named = format!(
        "GN[round 1 board 1: {} (B) - {} (W)]",
        board["black"].as_str().unwrap(),
        board["white"].as_str().unwrap()
    );
    assert!(sgf.contains(&named), "the record names the entrants: {sgf}");
}

#[test]
fn under_void_and_replay_a_crash_voids_the_game_and_replays_it_twice_then_the_forfeit_stands() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("cup");
    let entrants = [
        ("steady", bot(1, 0)),
        ("crashy", common::fake("--crash-at 1")),
    ];
    event_folder(&dir, 1, &entrants, "on_crash = \"void-and-replay\"");
    let text = std::fs::read_to_string(dir.join("event.toml")).unwrap();
    let text = text.replace("[game]\n", "[game]\nrestart_crashed = 0\n");
    std::fs::write(dir.join("event.toml"), text).unwrap();
    let run = run_event(&dir, &[]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let ends = of_type(&event_lines(&dir), "board_end");
    let told: Vec<(&str, &str)> = ends
        .iter()
        .map(|e| (e["dir"].as_str().unwrap(), e["result"].as_str().unwrap()))
        .collect();
    assert_eq!(told.len(), 3, "{told:?}");
    assert_eq!(told[0], ("round-1/board-1", "Void"));
    assert_eq!(told[1], ("round-1/board-1-2", "Void"));
    assert_eq!(told[2].0, "round-1/board-1-3");
    assert!(told[2].1.ends_with("+F"), "{told:?}");
    assert!(ends.iter().all(|e| e["end"] == "forfeit_crash"));
    let table = standings_json(&dir);
    assert_eq!(table["rows"][0]["name"], "steady");
    assert_eq!(table["rows"][0]["score"], 1);
    assert_eq!(table["rows"][0]["games"].as_array().unwrap().len(), 1);
}

#[test]
fn with_boards_one_the_round_plays_one_board_at_a_time() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("cup");
    event_folder(&dir, 1, &six_bots(0), "boards = 1");
    let run = run_event(&dir, &[]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let order: Vec<String> = event_lines(&dir)
        .iter()
        .filter(|l| l["type"] == "board_start" || l["type"] == "board_end")
        .map(|l| format!("{} {}", l["type"].as_str().unwrap(), l["board"]))
        .collect();
    assert_eq!(
        order,
        [
            "board_start 1",
            "board_end 1",
            "board_start 2",
            "board_end 2",
            "board_start 3",
            "board_end 3"
        ]
    );
}

#[test]
fn two_divisions_play_the_same_rounds_apart_and_are_ranked_apart() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("cup");
    event_folder(&dir, 2, &six_bots(0), "");
    let text = std::fs::read_to_string(dir.join("event.toml")).unwrap();
    let mut divided = String::new();
    for (at, table) in text.split("[[entrant]]").enumerate() {
        if at > 0 {
            let division = if at <= 4 { "open" } else { "kyu" };
            divided.push_str(&format!("[[entrant]]{table}division = \"{division}\"\n"));
        } else {
            divided.push_str(table);
        }
    }
    std::fs::write(dir.join("event.toml"), divided).unwrap();
    let run = run_event(&dir, &[]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    assert!(
        stderr.contains("division open:") && stderr.contains("division kyu:"),
        "{stderr}"
    );
    let kyu = ["epsilon", "zeta"];
    for pairing in of_type(&event_lines(&dir), "pairing") {
        for board in pairing["boards"].as_array().unwrap() {
            let black = kyu.contains(&board["black"].as_str().unwrap());
            let white = kyu.contains(&board["white"].as_str().unwrap());
            assert_eq!(black, white, "a game across divisions: {board}");
        }
    }
    let table = standings_json(&dir);
    let divisions = table["divisions"].as_array().unwrap();
    assert_eq!(divisions[0]["division"], "open");
    assert_eq!(divisions[0]["rows"].as_array().unwrap().len(), 4);
    assert_eq!(divisions[1]["rows"].as_array().unwrap().len(), 2);
    assert_eq!(divisions[1]["rows"][0]["rank"], 1);
    let page = std::fs::read_to_string(dir.join("standings.html")).unwrap();
    assert!(page.contains("<h2>open</h2>") && page.contains("<h2>kyu</h2>"));
}

#[test]
fn the_rest_between_games_holds_the_next_round_and_a_rerun_waits_only_what_is_left() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("cup");
    event_folder(&dir, 2, &six_bots(0)[..2], "rest = \"2s\"");
    let run = run_event(&dir, &[]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    assert!(
        stderr.contains("round 2 starts in 2s: the rest between games"),
        "{stderr}"
    );
    let lines = event_lines(&dir);
    let at = |kind: &str, round: u64| {
        lines
            .iter()
            .find(|l| l["type"] == kind && l["round"] == round)
            .unwrap()["at_ms"]
            .as_u64()
            .unwrap()
    };
    let rested = at("board_start", 2) - at("standings", 1);
    assert!((2000..3500).contains(&rested), "rested {rested} ms");
    let again = run_event(&dir, &[]);
    assert!(!String::from_utf8_lossy(&again.stderr).contains("starts in"));
}

#[test]
fn a_board_whose_program_was_missing_plays_when_the_director_fixes_the_file_and_runs_again() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("cup");
    let missing = "gtp:/nonexistent/engine --mode gtp".to_string();
    event_folder(
        &dir,
        1,
        &[("solid", bot(1, 0)), ("late", missing.clone())],
        "",
    );
    let mut event = common::spawn_event(&dir, Stdio::null());
    wait_for_a_game_that_never_started(&dir);
    event.kill().unwrap();
    event.wait().unwrap();
    let text = std::fs::read_to_string(dir.join("event.toml")).unwrap();
    std::fs::write(dir.join("event.toml"), text.replace(&missing, &bot(2, 0))).unwrap();
    let run = run_event(&dir, &[]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let ends = of_type(&event_lines(&dir), "board_end");
    assert_eq!(ends.len(), 2, "{ends:?}");
    assert_eq!(ends[1]["dir"], "round-1/board-1-2");
    assert_ne!(ends[1]["end"], "no_game");
    assert!(dir.join("round-1/board-1-2/game.sgf").is_file());
}

#[test]
fn a_journal_or_a_page_that_is_a_device_is_refused_before_anything_plays() {
    for file in ["event.jsonl", "standings.html"] {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("cup");
        event_folder(&dir, 1, &six_bots(0)[..2], "");
        std::os::unix::fs::symlink("/dev/full", dir.join(file)).unwrap();
        let run = run_event(&dir, &[]);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains("a character device, not a regular file"),
            "{stderr}"
        );
        assert!(!dir.join("round-1").exists(), "{file}: a board started");
    }
}

#[test]
fn attach_on_an_event_folder_points_to_goref_event() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("cup");
    event_folder(&dir, 1, &six_bots(0), "");
    let attach = Command::new(common::goref())
        .arg("attach")
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(attach.status.code(), Some(2));
    let said = String::from_utf8_lossy(&attach.stderr);
    assert!(
        said.contains(&format!("`goref event {}`", dir.display())),
        "{said}"
    );
    assert!(said.contains("round-N/board-B"), "{said}");
}

#[test]
fn the_file_says_a_swiss_repeats_pairings_and_a_renamed_entrant_is_refused_by_name() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("cup");
    let pair = [("alpha", bot(1, 0)), ("beta", bot(2, 0))];
    event_folder(&dir, 2, &pair, "");
    let run = run_event(&dir, &[]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    assert!(
        stderr.contains(
            "note: 2 entrants allow 1 round without a rematch; rounds = 2 repeats pairings"
        ),
        "{stderr}"
    );
    let path = dir.join("event.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replace("\"alpha\"", "\"alfa\"")).unwrap();
    for args in [vec!["standings"], vec!["event", "--headless"]] {
        let refused = Command::new(common::goref())
            .args(&args[..1])
            .arg(&dir)
            .args(&args[1..])
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&refused.stderr);
        assert_eq!(refused.status.code(), Some(2), "{args:?}: {said}");
        assert!(
            said.contains("names alpha in round 1") && said.contains("a name is fixed"),
            "{args:?}: {said}"
        );
    }
    std::fs::write(&path, text.replace("rounds = 2", "rounds = 0")).unwrap();
    let zero = Command::new(common::goref())
        .arg("standings")
        .arg(&dir)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&zero.stderr);
    assert!(
        said.contains("line 3, column 10, key rounds: a Swiss plays 1 round at least"),
        "{said}"
    );
}

/// The UEC Cup's two days: a Swiss of six, then a knockout of the same six
/// seeded from its standings, with a game for third place. The top two of
/// the Swiss have byes into the semi-finals; the bracket is played round by
/// round to its champion, who won the final on the board; `goref
/// standings`, `--json` and `standings.html` give the bracket.
#[test]
fn a_knockout_of_six_seeded_from_a_finished_swiss_plays_its_bracket_to_a_champion() {
    let root = tempfile::tempdir().unwrap();
    let day1 = root.path().join("day1");
    let day2 = root.path().join("day2");
    event_folder(&day1, 2, &six_bots(0), "");
    let swiss = run_event(&day1, &[]);
    assert!(swiss.status.success(), "{swiss:?}");
    let seeds: Vec<String> = standings_json(&day1)["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap().to_string())
        .collect();
    event_folder(
        &day2,
        1,
        &six_bots(0),
        "seed_from = \"../day1\"\nthird_place = true",
    );
    let text = std::fs::read_to_string(day2.join("event.toml")).unwrap();
    std::fs::write(
        day2.join("event.toml"),
        text.replace(
            "system = \"swiss\"\nrounds = 1\n",
            "system = \"knockout\"\n",
        ),
    )
    .unwrap();
    let knockout = run_event(&day2, &[]);
    let said = String::from_utf8_lossy(&knockout.stderr);
    assert!(knockout.status.success(), "{said}");
    assert!(
        said.contains(&format!(
            "seeded from the standings of ../day1: 1 {}, 2 {}",
            seeds[0], seeds[1]
        )),
        "{said}"
    );
    let lines = event_lines(&day2);
    let pairings = of_type(&lines, "pairing");
    assert_eq!(pairings[0]["byes"], serde_json::json!([seeds[0], seeds[1]]));
    assert_eq!(pairings[0]["boards"].as_array().unwrap().len(), 2);
    let last = pairings.last().unwrap();
    assert_eq!(
        last["boards"].as_array().unwrap().len(),
        2,
        "the final and the game for third place"
    );
    let final_pair = &last["boards"][0];
    let final_end = of_type(&lines, "board_end")
        .into_iter()
        .rfind(|e| e["round"] == last["round"] && e["board"] == 1)
        .unwrap();
    let result = final_end["result"].as_str().unwrap();
    let champion = match &result[..2] {
        "B+" => final_pair["black"].as_str().unwrap(),
        "W+" => final_pair["white"].as_str().unwrap(),
        _ => panic!("the final ended {result}: replayed, not the champion's"),
    };
    let printed = Command::new(common::goref())
        .arg("standings")
        .arg(&day2)
        .output()
        .unwrap();
    let printed = String::from_utf8_lossy(&printed.stdout);
    assert!(printed.starts_with("quarter-finals\n"), "{printed}");
    assert!(
        printed.contains(&format!("champion: {champion}\n")),
        "{printed}"
    );
    assert!(printed.contains("third place: "), "{printed}");
    assert!(
        printed.lines().all(|l| l.chars().count() <= 80),
        "{printed}"
    );
    let json = standings_json(&day2);
    assert_eq!(json["champion"], champion);
    assert_eq!(json["bracket"]["stages"], 3);
    let page = std::fs::read_to_string(day2.join("standings.html")).unwrap();
    assert!(
        page.contains("<h2>The bracket</h2>") && page.contains(&format!("champion: {champion}")),
        "{page}"
    );
}
