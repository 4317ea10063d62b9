//! An event whose every entrant is seated: four real GNU Gos, each behind
//! its own real `goref seat` over TLS on loopback, dialling the event's
//! runner, which relays each board's commands to the seat of the entrant
//! that plays it. The seats stay connected between rounds; the event's
//! runner may be killed mid-round and run again.

use crate::common;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use common::tmux::Tmux;
use common::{event_lines, free_port, gnugo, goref, journal, journal_moves, wait_until};
use serde_json::Value;

const NAMES: [&str; 4] = ["ant", "bee", "cat", "dog"];
const LIMIT: Duration = Duration::from_secs(240);

/// An event folder of four seated entrants, a round robin on 9x9.
fn seated_event(root: &Path) -> std::path::PathBuf {
    let dir = root.join("cup");
    std::fs::create_dir_all(&dir).unwrap();
    let mut text = format!(
        "name = \"seated cup\"\nsystem = \"round-robin\"\n\n[game]\nsize = 9\n\n\
         [seats]\nlisten = \"127.0.0.1:{}\"\n",
        free_port()
    );
    for name in NAMES {
        text.push_str(&format!(
            "\n[[entrant]]\nname = \"{name}\"\nplayer = \"seat\"\n"
        ));
    }
    std::fs::write(dir.join("event.toml"), text).unwrap();
    dir
}

/// `goref event DIR seats`, and a real seat with GNU Go for each line.
fn seats(root: &Path, dir: &Path) -> Vec<Child> {
    spawn_seats(root, &seat_lines(dir))
}

/// The lines `goref event DIR seats` prints, once the keys are made (the
/// same lines on a second run).
fn seat_lines(dir: &Path) -> Vec<String> {
    let out = Command::new(goref())
        .arg("event")
        .arg(dir)
        .arg("seats")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let entrants = std::fs::read_to_string(dir.join("event.toml"))
        .unwrap()
        .matches("[[entrant]]")
        .count();
    assert_eq!(lines.len(), entrants, "{text}");
    let again = Command::new(goref())
        .arg("event")
        .arg(dir)
        .arg("seats")
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(again.stdout).unwrap(),
        text,
        "the keys are kept"
    );
    lines.iter().map(|l| l.to_string()).collect()
}

/// Starts a seat for each line, as its operator would paste it.
fn spawn_seats(root: &Path, lines: &[String]) -> Vec<Child> {
    lines
        .iter()
        .map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let token = words[0]
                .strip_prefix("GOREF_TOKEN=")
                .unwrap_or_else(|| panic!("the line hands the token in the environment: {line}"));
            assert_eq!(&words[1..3], ["goref", "seat"], "{line}");
            assert!(!line.contains("--token"), "{line}");
            let end = words.iter().position(|w| *w == "--").unwrap();
            Command::new(goref())
                .current_dir(root)
                .env("GOREF_TOKEN", token)
                .args(&words[2..=end])
                .args([&gnugo(), "--mode", "gtp", "--level", "1"])
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect()
}

fn wait_success(child: Child) -> String {
    let output = common::wait_with_watchdog(child, LIMIT);
    let said = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "the event ends: {said}");
    said
}

/// Every board of the round robin played through the seats: no forfeit,
/// both sides' seats in, a point a game.
fn assert_every_game_right(dir: &Path) {
    let lines = event_lines(dir);
    let ends: Vec<&Value> = lines.iter().filter(|l| l["type"] == "board_end").collect();
    assert_eq!(ends.len(), 6, "three rounds of two boards");
    for end in ends {
        let result = end["result"].as_str().unwrap();
        assert!(!result.ends_with('F') && result != "Void", "{end}");
        let folder = dir.join(end["dir"].as_str().unwrap());
        let events = journal(&folder);
        for color in ["B", "W"] {
            assert!(
                events.iter().any(|e| e["type"] == "player"
                    && e["color"] == color
                    && e["info"]["name"] == "GNU Go"
                    && e["info"]["spec"].as_str().unwrap().starts_with("seat:")),
                "{} played through its seat",
                folder.display()
            );
        }
        assert!(folder.join("MANIFEST.sha256").exists());
    }
    let standings = Command::new(goref())
        .arg("standings")
        .arg(dir)
        .arg("--json")
        .output()
        .unwrap();
    let table: Value = serde_json::from_slice(&standings.stdout).unwrap();
    let points: f64 = table["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["score"].as_f64().unwrap())
        .sum();
    assert_eq!(points, 6.0);
}

/// Each seat stops by itself once the event is over (the venue's
/// goodbye), with success, within `limit`; any still running is killed.
fn stop_by_themselves(seats: Vec<Child>, limit: Duration) -> Vec<String> {
    let deadline = std::time::Instant::now() + limit;
    let mut stayed = Vec::new();
    for mut seat in seats {
        let status = loop {
            match seat.try_wait().unwrap() {
                Some(status) => break Some(status),
                None if std::time::Instant::now() > deadline => break None,
                None => std::thread::sleep(Duration::from_millis(50)),
            }
        };
        match status {
            Some(status) if status.success() => {}
            other => {
                let _ = seat.kill();
                let _ = seat.wait();
                stayed.push(format!("seat {}: {other:?}", seat.id()));
            }
        }
    }
    stayed
}

fn stop(seats: Vec<Child>) {
    for mut seat in seats {
        let _ = seat.kill();
        let _ = seat.wait();
    }
}

#[test]
fn an_event_of_four_seated_gnu_gos_plays_every_game_through_the_seats() {
    let root = tempfile::tempdir().unwrap();
    let dir = seated_event(root.path());
    let seats = seats(root.path(), &dir);
    let said = wait_success(common::spawn_event(&dir, Stdio::piped()));
    let stayed = stop_by_themselves(seats, Duration::from_secs(10));
    assert!(
        stayed.is_empty(),
        "the venue says goodbye and the seats stop: {stayed:?}"
    );
    assert_every_game_right(&dir);
    for name in NAMES {
        assert!(
            said.contains(&format!("seat of {name}: connected at ")),
            "{said}"
        );
        assert!(
            said.contains(&format!(
                "seat of {name}: check card: ready (seats/cards/{name}.txt)"
            )),
            "{said}"
        );
        let card = std::fs::read_to_string(dir.join(format!("seats/cards/{name}.txt"))).unwrap();
        assert!(card.starts_with("ready"), "{card}");
        assert!(
            card.lines()
                .nth(1)
                .is_some_and(|l| l.starts_with("program: GNU Go")),
            "the card keeps the program's name for a runner started again: {card}"
        );
        assert!(card.contains("seat:") && card.contains("GNU Go"), "{card}");
        assert!(
            card.contains("genmove"),
            "the opening was played through the seat: {card}"
        );
    }
    let mode = std::fs::metadata(dir.join("seats/tokens")).unwrap();
    assert_eq!(
        std::os::unix::fs::PermissionsExt::mode(&mode.permissions()) & 0o777,
        0o600
    );
}

#[test]
fn before_round_one_the_pairing_names_absent_seats_and_the_seats_view_is_live_at_80x24() {
    let root = tempfile::tempdir().unwrap();
    let dir = seated_event(root.path());
    let lines = seat_lines(&dir);
    let command = format!(
        "cd '{}' && '{}' event cup",
        root.path().display(),
        goref().display()
    );
    let Some(tmux) = Tmux::start("seats-before-round-1", 80, 24, &command) else {
        return;
    };
    let limit = Duration::from_secs(60);
    let absent = tmux.wait_for("absent seats on the pairing", limit, |s| {
        s.contains("proposed:") && s.contains("seat is absent (never connected)")
    });
    for name in NAMES {
        assert!(
            absent.contains(&format!("{name}'s seat is absent")),
            "{absent}"
        );
    }
    let seats = spawn_seats(root.path(), &lines);
    let pairing = tmux.wait_for("the seats in", limit, |s| {
        s.contains("proposed:") && !s.contains("seat is absent")
    });
    tmux.keys(&["S"]);
    let view = tmux.wait_for("the seats view", limit, |s| {
        s.contains("seats: 4 of 4 connected")
    });
    for name in NAMES {
        assert!(
            view.lines()
                .any(|l| l.starts_with(name) && l.contains("connected since")),
            "{view}"
        );
    }
    assert!(view.lines().all(|l| l.chars().count() <= 80), "{view}");
    assert!(!dir.join("round-1").exists(), "{pairing}");
    drop(tmux);
    stop(seats);
}

/// The folder of the board `name` plays in round `round`, once paired.
fn board_of(dir: &Path, round: u64, name: &str) -> Option<std::path::PathBuf> {
    event_lines(dir)
        .iter()
        .filter(|l| l["type"] == "board_start" && l["round"] == round)
        .find(|l| l["black"] == name || l["white"] == name)
        .map(|l| dir.join(l["dir"].as_str().unwrap()))
}

#[test]
fn a_seats_screen_shows_each_rounds_game_afresh_and_asks_before_quitting_one() {
    let root = tempfile::tempdir().unwrap();
    let _ends = common::EndsWithin(root.path().to_path_buf());
    let dir = seated_event(root.path());
    let (ant, others): (Vec<String>, Vec<String>) = seat_lines(&dir)
        .into_iter()
        .partition(|line| line.contains("--entrant ant "));
    let seat = ant[0].split(" -- ").next().unwrap();
    let command = format!(
        "cd '{}' && {} -- {} --mode gtp --level 8",
        root.path().display(),
        seat.replacen(" goref ", &format!(" '{}' ", goref().display()), 1),
        gnugo()
    );
    let Some(tmux) = Tmux::start("seat-rounds", 80, 24, &command) else {
        return;
    };
    let limit = Duration::from_secs(60);
    tmux.wait_for("the seat dialling", limit, |s| s.contains("dialling"));
    tmux.keys(&["R"]);
    tmux.wait_for("R with no game in play", limit, |s| {
        s.contains("no game in play to resign")
    });
    let seats = spawn_seats(root.path(), &others);
    let runner = common::spawn_event(&dir, Stdio::piped());
    let first = {
        let mut found = None;
        wait_until(
            LIMIT,
            || "ant's round 1 board".into(),
            || {
                found = board_of(&dir, 1, "ant");
                found.is_some()
            },
        );
        found.unwrap()
    };
    wait_until(
        LIMIT,
        || "ant's first game under way".into(),
        || common::journal_moves(&first).len() >= 4,
    );
    tmux.wait_for("round 1's game on the seat's screen", limit, |s| {
        s.contains("round 1 board")
    });
    tmux.keys(&["q"]);
    tmux.wait_for("q mid-game asks", limit, |s| s.contains("quit mid-game?"));
    tmux.keys(&["n"]);
    let second = {
        let mut found = None;
        wait_until(
            LIMIT,
            || format!("ant's round 2 board:\n{}", tmux.screen()),
            || {
                found = board_of(&dir, 2, "ant");
                found.is_some()
            },
        );
        found.unwrap()
    };
    assert!(
        journal(&first).iter().any(|e| e["type"] == "result"),
        "the seat stayed for round 1's game to its end"
    );
    wait_until(
        LIMIT,
        || "ant's second game under way".into(),
        || common::journal_moves(&second).len() >= 2,
    );
    let under_way = || journal(&second).iter().all(|e| e["type"] != "result");
    let screen = tmux.wait_for("round 2's game on the seat's screen", limit, |s| {
        s.contains("round 2 board") && s.contains("move ") && under_way()
    });
    if under_way() {
        assert!(
            !screen.contains("result"),
            "round 1's result is gone from the screen of round 2's game:\n{screen}"
        );
    } else {
        eprintln!("round 2's game ended before its screen was read: not asserted");
    }
    assert!(screen.lines().all(|l| l.chars().count() <= 80), "{screen}");
    wait_success(runner);
    drop(tmux);
    stop(seats);
}

#[test]
fn t_on_a_board_waiting_for_an_absent_seat_starts_it_again_in_a_new_folder() {
    let root = tempfile::tempdir().unwrap();
    let _ends = common::EndsWithin(root.path().to_path_buf());
    let dir = root.path().join("duel");
    std::fs::create_dir_all(&dir).unwrap();
    let mut text = format!(
        "name = \"duel\"\nsystem = \"round-robin\"\n\n[game]\nsize = 9\n\
         time = \"absolute:10m\"\n\n[seats]\nlisten = \"127.0.0.1:{}\"\n",
        free_port()
    );
    for name in ["ant", "bee"] {
        text.push_str(&format!(
            "\n[[entrant]]\nname = \"{name}\"\nplayer = \"seat\"\n"
        ));
    }
    std::fs::write(dir.join("event.toml"), text).unwrap();
    let lines = seat_lines(&dir);
    let (ant, bee): (Vec<String>, Vec<String>) = lines
        .into_iter()
        .partition(|line| line.contains("--entrant ant "));
    assert_eq!((ant.len(), bee.len()), (1, 1), "{ant:?} {bee:?}");
    let mut seats = spawn_seats(root.path(), &ant);
    let command = format!(
        "cd '{}' && '{}' event duel --yes",
        root.path().display(),
        goref().display()
    );
    let Some(tmux) = Tmux::start("retry-absent-seat", 80, 24, &command) else {
        stop(seats);
        return;
    };
    let limit = Duration::from_secs(60);
    let waiting = tmux.wait_for("bee's seat absent on the tile", limit, |s| {
        s.contains("bee absent")
    });
    let absent_line = waiting.lines().find(|l| l.contains("bee absent"));
    assert!(
        absent_line.is_some_and(|line| !line.contains("--:--")),
        "the absent side's clock runs:\n{waiting}"
    );
    tmux.keys(&["t"]);
    tmux.wait_for("t asks first", limit, |s| {
        s.contains("start board 1 again (its game waits for")
    });
    tmux.keys(&["y"]);
    let again = dir.join("round-1").join("board-1-2");
    wait_until(
        limit,
        || format!("the board started again:\n{}", tmux.screen()),
        || again.join("journal.jsonl").is_file(),
    );
    let first = journal(&dir.join("round-1").join("board-1"));
    let ended = first
        .iter()
        .rev()
        .find(|e| e["type"] == "result")
        .expect("a result");
    assert_eq!(ended["result"], "Void", "{ended}");
    assert!(
        ended["reason"]
            .as_str()
            .unwrap()
            .contains("started the board again"),
        "{ended}"
    );
    assert!(
        !first.iter().any(|e| e["type"] == "move"),
        "the first game had not started"
    );
    seats.extend(spawn_seats(root.path(), &bee));
    wait_until(
        Duration::from_secs(240),
        || format!("the game played again ends:\n{}", tmux.screen()),
        || {
            event_lines(&dir)
                .iter()
                .any(|l| l["type"] == "board_end" && l["dir"] == "round-1/board-1-2")
        },
    );
    let lines = event_lines(&dir);
    assert!(
        lines.iter().any(|l| l["type"] == "board_retry"),
        "the director's ask is journaled"
    );
    let ends: Vec<&Value> = lines.iter().filter(|l| l["type"] == "board_end").collect();
    assert_eq!(
        ends.len(),
        1,
        "one result, from the game played again: {ends:?}"
    );
    assert_ne!(ends[0]["result"], "Void", "{:?}", ends[0]);
    assert!(
        journal_moves(&again).len() >= 2,
        "the game played again was played"
    );
    let card = dir.join("seats").join("cards").join("bee.txt");
    wait_until(
        Duration::from_secs(150),
        || {
            format!(
                "bee's check, run after its game, finishes before the goodbye:\n{}",
                tmux.screen()
            )
        },
        || std::fs::read_to_string(&card).is_ok_and(|text| !text.starts_with("checking")),
    );
    let card = std::fs::read_to_string(&card).unwrap();
    assert!(card.starts_with("ready"), "{card}");
    drop(tmux);
    stop(seats);
}

#[test]
fn the_events_runner_killed_mid_round_and_run_again_loses_no_seated_game() {
    let root = tempfile::tempdir().unwrap();
    let dir = seated_event(root.path());
    let seats = seats(root.path(), &dir);
    let mut first = common::spawn_event(&dir, Stdio::piped());
    let board = dir.join("round-2").join("board-1");
    wait_until(
        LIMIT,
        || "round 2 under way".into(),
        || common::journal_moves(&board).len() >= 6,
    );
    first.kill().unwrap();
    first.wait().unwrap();
    let away = Duration::from_secs(3);
    std::thread::sleep(away);
    wait_success(common::spawn_event(&dir, Stdio::piped()));
    stop(seats);
    assert_every_game_right(&dir);
    let events = journal(&board);
    assert!(
        events.iter().any(|e| e["type"] == "session"
            && e["what"] == "venue_away"
            && e["message"].as_str().unwrap_or("").contains("runner")),
        "the board saw its runner go"
    );
    let held: Vec<u64> = events
        .iter()
        .filter(|e| e["type"] == "operator" && e["command"] == "resume")
        .filter_map(|e| e["paused_ms"].as_u64())
        .collect();
    assert!(
        held.iter().any(|ms| *ms >= away.as_millis() as u64),
        "the game was held while the runner was away: {held:?}"
    );
    let charged: Vec<u64> = events
        .iter()
        .filter(|e| e["type"] == "move")
        .filter_map(|e| e["ms"].as_u64())
        .collect();
    assert!(
        charged.iter().all(|ms| *ms < away.as_millis() as u64),
        "no move was charged the time the runner was away: {charged:?}"
    );
    assert_one_game(&events);
}

#[test]
fn a_boards_goref_killed_mid_game_is_resumed_and_its_seats_told_the_game_again() {
    let root = tempfile::tempdir().unwrap();
    let dir = seated_event(root.path());
    let seats = seats(root.path(), &dir);
    let runner = common::spawn_event(&dir, Stdio::piped());
    let board = dir.join("round-1").join("board-1");
    wait_until(
        LIMIT,
        || "round 1 under way".into(),
        || common::journal_moves(&board).len() >= 6,
    );
    let pattern = format!("game-dir {}", board.display());
    let found = Command::new("pgrep")
        .args(["-f", &pattern])
        .output()
        .unwrap();
    let pids: Vec<i32> = String::from_utf8_lossy(&found.stdout)
        .lines()
        .filter_map(|line| line.trim().parse().ok())
        .collect();
    assert_eq!(pids.len(), 1, "the board's own goref: {pids:?}");
    unsafe { libc::kill(pids[0], libc::SIGKILL) };
    let said = wait_success(runner);
    stop(seats);
    assert_every_game_right(&dir);
    let events = journal(&board);
    assert!(
        events
            .iter()
            .any(|e| e["type"] == "session" && e["what"] == "resumed"),
        "the runner resumed the board: {said}"
    );
    let told = events
        .iter()
        .filter(|e| {
            e["message"]
                .as_str()
                .unwrap_or("")
                .contains("was told the game again")
                || e["type"] == "player"
        })
        .count();
    assert!(told >= 4, "both seated programs set up again: {told}");
    assert_one_game(&events);
    let stale: Vec<&Value> = events
        .iter()
        .filter(|e| {
            e["message"]
                .as_str()
                .unwrap_or("")
                .contains("unexpected response")
        })
        .collect();
    assert!(
        stale.is_empty(),
        "an answer to the killed board's command never reaches the resumed one: {stale:#?}"
    );
    let resumed = events
        .iter()
        .position(|e| e["type"] == "session" && e["what"] == "resumed")
        .unwrap();
    let absent: Vec<&Value> = events[resumed..]
        .iter()
        .filter(|e| e["type"] == "session" && e["what"] == "seat_absent")
        .collect();
    assert!(
        absent.is_empty(),
        "seats that are back within a second of the resumed board's start are not absent: \
         {absent:#?}"
    );
}

/// The journal's moves are one game's: numbered on, none twice.
fn assert_one_game(events: &[Value]) {
    let moves: Vec<u64> = events
        .iter()
        .filter(|e| e["type"] == "move")
        .map(|e| e["n"].as_u64().unwrap())
        .collect();
    assert!(
        moves.windows(2).all(|w| w[1] == w[0] + 1),
        "one game, no move twice: {moves:?}"
    );
}
