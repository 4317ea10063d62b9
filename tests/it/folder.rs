//! The game folder and `goref resume`, with the real binary and GNU Go:
//! what the folder holds, that its manifest checks, and that a referee
//! killed with SIGKILL in the middle of a game is taken back from its
//! journal with every move once and the clocks as the journal left them.

use crate::common;

use std::path::Path;
use std::process::{Child, Command};
use std::time::Duration;

use common::{
    gnugo, gnugo_seeded, journal, move_events, run_goref, sgf_file_moves, spawn_goref,
    wait_for_moves,
};
use serde_json::Value;

/// goref playing `black` against `white`, headless, into `folder`, with
/// `extra` flags; its output is not read.
fn spawn_game(folder: &Path, black: &str, white: &str, extra: &[&str]) -> Child {
    let mut args = vec![
        "play",
        "--headless",
        "--black",
        black,
        "--white",
        white,
        "--game-dir",
    ];
    args.push(folder.to_str().unwrap());
    args.extend_from_slice(extra);
    spawn_goref(args)
}

#[test]
fn a_game_folder_holds_the_journal_record_configuration_and_a_manifest_that_checks() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("r1");
    let run = run_goref(
        &[
            "play",
            "--headless",
            "--json",
            "--black",
            "bot:3,playouts=50",
            "--white",
            "bot:4,playouts=50",
            "--size",
            "9",
            "--round",
            "1",
            "--game-dir",
            folder.to_str().unwrap(),
        ],
        Duration::from_secs(60),
    );
    run.assert_status_matches_result();
    let mut names: Vec<String> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "MANIFEST.sha256",
            "config.toml",
            "game.sgf",
            "journal.jsonl"
        ]
    );
    let stream: Vec<&str> = run.stdout.lines().collect();
    let written = std::fs::read_to_string(folder.join("journal.jsonl")).unwrap();
    assert_eq!(written.lines().collect::<Vec<_>>(), stream);
    let start = run.of_type("game_start");
    assert_eq!(start[0]["folder"], folder.to_str().unwrap());
    let checked = Command::new("sha256sum")
        .args(["-c", "--strict", "MANIFEST.sha256"])
        .current_dir(&folder)
        .output()
        .unwrap();
    assert!(checked.status.success(), "{checked:?}");
    assert_eq!(
        String::from_utf8_lossy(&checked.stdout)
            .matches(": OK")
            .count(),
        3
    );

    let again = run_goref(
        &[
            "play",
            "--headless",
            "--config",
            folder.join("config.toml").to_str().unwrap(),
            "--games",
            dir.path().join("again").to_str().unwrap(),
        ],
        Duration::from_secs(60),
    );
    assert!(matches!(again.status, 0 | 1), "{}", again.stderr);
    let made: Vec<_> = std::fs::read_dir(dir.path().join("again"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(made.len(), 1);
    assert!(made[0].ends_with("-r1-bot-vs-bot"), "{made:?}");
    let replayed = sgf_file_moves(&dir.path().join("again").join(&made[0]).join("game.sgf"), 9);
    assert_eq!(replayed, sgf_file_moves(&folder.join("game.sgf"), 9));

    let taken = run_goref(
        &[
            "play",
            "--headless",
            "--black",
            "bot",
            "--white",
            "bot",
            "--game-dir",
        ]
        .into_iter()
        .chain([folder.to_str().unwrap()])
        .collect::<Vec<_>>(),
        Duration::from_secs(10),
    );
    assert_eq!(taken.status, 2);
    assert!(
        taken.stderr.contains("already holds a finished game")
            && !taken.stderr.contains("goref resume"),
        "a finished game is not offered to goref resume: {}",
        taken.stderr
    );
    let over = run_goref(
        &["resume", folder.to_str().unwrap(), "--headless"],
        Duration::from_secs(10),
    );
    assert_eq!(over.status, 2);
    assert!(over.stderr.contains("nothing to resume"), "{}", over.stderr);
}

#[test]
fn a_referee_killed_mid_game_is_resumed_with_every_move_once_and_its_clocks() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("game");
    let (black, white) = (gnugo_seeded(1), gnugo_seeded(2));
    let mut first = spawn_game(
        &folder,
        &black,
        &white,
        &["--size", "13", "--time", "absolute:20m"],
    );
    wait_for_moves(&folder, 12, |_| true);
    let busy = run_goref(
        &["resume", folder.to_str().unwrap(), "--headless"],
        Duration::from_secs(10),
    );
    assert_eq!(busy.status, 2);
    assert!(
        busy.stderr
            .contains(&format!("refereed by another goref (PID {})", first.id())),
        "{}",
        busy.stderr
    );
    first.kill().unwrap();
    first.wait().unwrap();

    let before = journal(&folder);
    let moves_before = move_events(&before);
    assert!(before.iter().all(|e| e["type"] != "result"));
    let last_clock = |color: &str| {
        moves_before
            .iter()
            .rev()
            .find(|m| m["color"] == color)
            .map(|m| m["clock"].clone())
            .unwrap()
    };
    let (black_clock, white_clock) = (last_clock("B"), last_clock("W"));
    let torn = r#"{"seq":999999,"t_ms":1,"type":"gtp","col"#;
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(folder.join("journal.jsonl"))
        .unwrap();
    std::io::Write::write_all(&mut file, torn.as_bytes()).unwrap();
    drop(file);

    let resumed = run_goref(
        &["resume", folder.to_str().unwrap(), "--headless", "--json"],
        Duration::from_secs(240),
    );
    resumed.assert_status_matches_result();
    let stream = resumed.events();
    assert_eq!(stream[0]["type"], "stream");
    for (n, event) in stream[1..].iter().enumerate() {
        assert_eq!(event["seq"], n as u64 + 1, "the printed stream has no gap");
    }
    let session: Vec<&Value> = stream.iter().filter(|e| e["type"] == "session").collect();
    assert_eq!(session.len(), 1);
    let told = session[0]["message"].as_str().unwrap();
    assert!(
        told.contains(&format!("after move {}", moves_before.len())),
        "{told}"
    );
    assert!(told.contains("cut short"), "{told}");

    let after = journal(&folder);
    assert_eq!(&after[..before.len()], &before[..], "the journal goes on");
    let all_moves = move_events(&after);
    assert!(all_moves.len() > moves_before.len());
    for (n, mv) in all_moves.iter().enumerate() {
        assert_eq!(mv["n"], n as u64 + 1, "each move once, in order");
    }
    let journal_moves: Vec<(String, String)> = all_moves
        .iter()
        .filter(|m| m["vertex"] != "resign")
        .map(|m| {
            (
                m["color"].as_str().unwrap().to_string(),
                m["vertex"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(sgf_file_moves(&folder.join("game.sgf"), 13), journal_moves);

    for (color, clock) in [("B", black_clock), ("W", white_clock)] {
        let next = all_moves[moves_before.len()..]
            .iter()
            .find(|m| m["color"] == color)
            .unwrap();
        let spent = next["ms"].as_u64().unwrap();
        let left_before = clock["main_left_ms"].as_u64().unwrap();
        let left_after = next["clock"]["main_left_ms"].as_u64().unwrap();
        assert!(
            left_after + spent <= left_before && left_before <= left_after + spent + 1,
            "{color}: {left_before} ms left before the kill, {spent} ms spent, {left_after} left"
        );
        assert_eq!(
            next["clock"]["used_ms"].as_u64().unwrap(),
            clock["used_ms"].as_u64().unwrap() + spent,
            "{color}'s time used goes on from the journal's"
        );
    }
    let checked = Command::new("sha256sum")
        .args(["-c", "--quiet", "MANIFEST.sha256"])
        .current_dir(&folder)
        .status()
        .unwrap();
    assert!(checked.success());
}

/// A path refused at the start (a device as the record) leaves no half-made
/// folder behind: the same `--game-dir` plays a game at the next try.
#[test]
fn a_refused_start_leaves_no_folder_and_the_next_try_plays() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("r2");
    let game = |extra: &[&str]| {
        let mut args = vec![
            "play",
            "--headless",
            "--size",
            "9",
            "--black",
            "bot:1,playouts=20",
            "--white",
            "bot:2,playouts=20",
            "--game-dir",
            folder.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        run_goref(&args, Duration::from_secs(60))
    };
    let refused = game(&["--sgf", "/dev/null"]);
    assert_eq!(refused.status, 2, "{}", refused.stderr);
    assert!(
        refused.stderr.contains("character device"),
        "{}",
        refused.stderr
    );
    assert!(!folder.exists(), "no folder is left behind");
    let played = game(&[]);
    assert!(matches!(played.status, 0 | 1), "{}", played.stderr);
    assert!(folder.join("MANIFEST.sha256").exists());
}

#[test]
fn a_player_that_cannot_come_back_leaves_the_game_to_be_resumed_again() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("game");
    let engine = dir.path().join("white-engine.sh");
    let script = format!(
        "#!/bin/sh\nexec {} --mode gtp --level 0 --seed 2\n",
        gnugo()
    );
    std::fs::write(&engine, &script).unwrap();
    std::fs::set_permissions(&engine, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let folder_arg = folder.to_str().unwrap();
    let (black, white) = (gnugo_seeded(1), format!("gtp:{}", engine.display()));
    let mut first = spawn_game(&folder, &black, &white, &["--size", "9"]);
    wait_for_moves(&folder, 6, |_| true);
    first.kill().unwrap();
    first.wait().unwrap();
    let played = move_events(&journal(&folder)).len();

    std::fs::remove_file(&engine).unwrap();
    let refused = run_goref(
        &["resume", folder_arg, "--headless"],
        Duration::from_secs(60),
    );
    assert_eq!(refused.status, 2, "{}", refused.stderr);
    assert!(
        refused.stderr.contains("not taken back"),
        "{}",
        refused.stderr
    );
    assert!(
        refused.stderr.contains("goref resume again"),
        "{}",
        refused.stderr
    );
    let events = journal(&folder);
    assert!(
        events.iter().all(|e| e["type"] != "result"),
        "nothing decided"
    );
    assert!(!folder.join("MANIFEST.sha256").exists());

    std::fs::write(&engine, &script).unwrap();
    std::fs::set_permissions(&engine, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let resumed = run_goref(
        &["resume", folder_arg, "--headless", "--json"],
        Duration::from_secs(120),
    );
    resumed.assert_status_matches_result();
    let events = journal(&folder);
    let moves = move_events(&events);
    assert!(moves.len() > played, "the game went on");
    let numbers: Vec<u64> = moves.iter().map(|m| m["n"].as_u64().unwrap()).collect();
    assert_eq!(numbers, (1..=numbers.len() as u64).collect::<Vec<_>>());
    assert!(folder.join("MANIFEST.sha256").exists());
}

#[test]
fn a_line_taken_back_in_a_handicap_game_is_charged_from_the_relayed_move() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("game");
    let folder_arg = folder.to_str().unwrap();
    let mut first = spawn_game(
        &folder,
        "bot:1,think=300ms",
        "bot-sgmp:2",
        &["--size", "9", "--handicap", "2", "--time", "absolute:10m"],
    );
    // Killed while Black thinks: White, on its line, has just moved.
    wait_for_moves(&folder, 5, |last| last["color"] == "W");
    first.kill().unwrap();
    first.wait().unwrap();
    let killed_after = move_events(&journal(&folder)).len();

    let resumed = run_goref(
        &["resume", folder_arg, "--headless", "--json"],
        Duration::from_secs(120),
    );
    resumed.assert_status_matches_result();
    let after: Vec<Value> = resumed
        .of_type("move")
        .into_iter()
        .filter(|m| m["n"].as_u64().unwrap() as usize > killed_after)
        .collect();
    let white = after
        .iter()
        .find(|m| m["color"] == "W")
        .expect("White moved again");
    let black = after
        .iter()
        .find(|m| m["color"] == "B")
        .expect("Black moved again");
    assert!(black["ms"].as_u64().unwrap() >= 300, "{black}");
    assert!(
        white["ms"].as_u64().unwrap() < 200,
        "White's clock runs from Black's move relayed, not from the resume: {white}"
    );
}
