//! The CGOS door in a real event: CGOS clients, each driving a real GNU Go
//! as cgos-client-python drives its engine (the lines it sends and the GTP
//! it gives its engine, as captured between the real client and the real
//! Python CGOS server of zakki/cgos), log in with the passwords `goref
//! event DIR seats` prints and play the event's games through its CGOS
//! port; a client that drops mid-game logs in again and is told the game.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::{event_lines, free_port, gnugo, goref, journal};
use serde_json::Value;

const LIMIT: Duration = Duration::from_secs(240);

/// GNU Go on GTP, as a CGOS client runs its engine.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Engine {
    fn start(root: &Path) -> Engine {
        let mut child = Command::new(gnugo())
            .args(["--mode", "gtp", "--level", "0"])
            .current_dir(root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Engine {
            child,
            stdin,
            stdout,
        }
    }

    /// One command; the answer's text.
    fn ask(&mut self, command: &str) -> String {
        writeln!(self.stdin, "{command}").unwrap();
        let mut answer = String::new();
        loop {
            let mut line = String::new();
            if self.stdout.read_line(&mut line).unwrap() == 0 || line.trim().is_empty() {
                break;
            }
            answer.push_str(&line);
        }
        answer.trim_start_matches(['=', ' ']).trim().to_string()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A fault a client puts in its first game, at its `n`th move.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fault {
    None,
    /// It closes its connection instead of moving, and logs in again a
    /// second later with a new engine, as cgos-client-python does.
    Drop(u32),
    /// It plays its first move's point again: occupied.
    Illegal(u32),
    /// It sends a line of 70 KiB, and then logs in again as after a drop.
    Overlong(u32),
}

/// What a client heard and did, for the test to read.
#[derive(Default)]
struct Heard {
    lines: Vec<String>,
    logins: u32,
    gameovers: u32,
    refused: Option<String>,
    faulted: bool,
}

/// A CGOS client in a thread of its own, as cgos-client-python plays:
/// `e1 cgosPython 1.0.0 genmove_analyze`, its name and password, then
/// `setup` told to its engine (boardsize, komi, time_settings, clear_board,
/// the moves so far), `time_left` and `genmove` for `genmove`, `play` for
/// `play`, `ready` after each `gameover`. `drop_after`: it closes its
/// connection after that many moves of its first game and logs in again a
/// second later with a new engine, as the client does after a drop. It
/// dials again until the door listens, a minute at most.
fn client(root: &Path, port: u16, name: &str, password: &str, fault: Fault) -> Arc<Mutex<Heard>> {
    let heard = Arc::new(Mutex::new(Heard::default()));
    let (root, name, password) = (root.to_path_buf(), name.to_string(), password.to_string());
    let shared = heard.clone();
    std::thread::spawn(move || {
        let mut fault = fault;
        let mut tries = 0;
        while tries < 300 {
            match session(&root, port, &name, &password, fault, &shared) {
                Some(false) => return,
                Some(true) => {
                    fault = Fault::None;
                    std::thread::sleep(Duration::from_secs(1));
                }
                None => {
                    tries += 1;
                    std::thread::sleep(Duration::from_millis(200));
                }
            }
        }
    });
    heard
}

/// One connection: `Some(true)` when it dropped on purpose, `Some(false)`
/// when the door closed it, `None` when it could not connect.
fn session(
    root: &Path,
    port: u16,
    name: &str,
    password: &str,
    fault: Fault,
    heard: &Mutex<Heard>,
) -> Option<bool> {
    let tcp = TcpStream::connect(("127.0.0.1", port)).ok()?;
    let mut writer = tcp.try_clone().unwrap();
    let mut say = |line: &str| writer.write_all(format!("{line}\n").as_bytes()).is_ok();
    let mut engine = Engine::start(root);
    let mut moved = 0;
    let mut first_move = String::new();
    for line in BufReader::new(tcp).lines() {
        let Ok(line) = line else { break };
        heard.lock().unwrap().lines.push(line.clone());
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("protocol") => drop(say("e1 cgosPython 1.0.0 genmove_analyze")),
            Some("username") => drop(say(name)),
            Some("password") => {
                heard.lock().unwrap().logins += 1;
                say(password);
            }
            Some("setup") => {
                engine.ask(&format!("boardsize {}", words[2]));
                engine.ask(&format!("komi {}", words[3]));
                let seconds = words[4].parse::<u64>().unwrap() / 1000;
                engine.ask(&format!("time_settings {seconds} 0 0"));
                engine.ask("clear_board");
                let mut colour = "b";
                for pair in words[7..].chunks(2) {
                    engine.ask(&format!("play {colour} {}", pair[0]));
                    colour = if colour == "b" { "w" } else { "b" };
                }
            }
            Some("genmove") => {
                let seconds = words[2].parse::<u64>().unwrap() / 1000;
                engine.ask(&format!("time_left {} {seconds} 0", words[1]));
                let mv = engine.ask(&format!("genmove {}", words[1]));
                moved += 1;
                if moved == 1 {
                    first_move = mv.clone();
                }
                match fault {
                    Fault::Drop(n) if n == moved => return Some(true),
                    Fault::Overlong(n) if n == moved => {
                        say(&"x".repeat(70 * 1024));
                        heard.lock().unwrap().faulted = true;
                        continue;
                    }
                    Fault::Illegal(n) if n == moved => {
                        heard.lock().unwrap().faulted = true;
                        say(&first_move.to_lowercase());
                        continue;
                    }
                    _ => {}
                }
                say(&mv.to_lowercase());
            }
            Some("play") if words[2] != "resign" => {
                engine.ask(&format!("play {} {}", words[1], words[2]));
            }
            Some("gameover") => {
                heard.lock().unwrap().gameovers += 1;
                say("ready");
            }
            Some("Error:") if fault != Fault::None => {
                heard.lock().unwrap().refused = Some(line.clone());
                return Some(true);
            }
            Some("Error:") => {
                heard.lock().unwrap().refused = Some(line.clone());
                return Some(false);
            }
            _ => {}
        }
    }
    Some(false)
}

/// An event of two CGOS entrants and two GNU Gos, a round robin on 9x9,
/// its CGOS door on a free loopback port; `alpha`'s password is set in the
/// file, `beta`'s is made. The file, holding a password, is refused until
/// only its owner may read it.
fn cgos_event(root: &Path) -> (PathBuf, u16) {
    let dir = root.join("cup");
    std::fs::create_dir_all(&dir).unwrap();
    let port = free_port();
    let mut text = format!(
        "name = \"cgos cup\"\nsystem = \"round-robin\"\n\n[game]\nsize = 9\nkomi = 7\n\
         time = \"absolute:10m\"\n\n[seats]\ncgos = \"127.0.0.1:{port}\"\n\n\
         [[entrant]]\nname = \"alpha\"\nplayer = \"cgos\"\npassword = \"alpha-pw\"\n\n\
         [[entrant]]\nname = \"beta\"\nplayer = \"cgos\"\n"
    );
    for name in ["gnu1", "gnu2"] {
        text.push_str(&format!(
            "\n[[entrant]]\nname = \"{name}\"\nplayer = \"gtp:{} --mode gtp --level 0\"\n",
            gnugo()
        ));
    }
    let file = dir.join("event.toml");
    std::fs::write(&file, text).unwrap();
    let readable = Command::new(goref())
        .arg("event")
        .arg(&dir)
        .arg("seats")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&readable.stderr);
    assert!(
        !readable.status.success() && said.contains("holds CGOS passwords and others may read it"),
        "{said}"
    );
    let private = std::os::unix::fs::PermissionsExt::from_mode(0o600);
    std::fs::set_permissions(&file, private).unwrap();
    (dir, port)
}

/// The settings `goref event DIR seats` prints for each CGOS entrant, as
/// `(user, password)`, checked line by line.
fn cgos_settings(dir: &Path, port: u16) -> Vec<(String, String)> {
    let out = common::succeeded(Command::new(goref()).arg("event").arg(dir).arg("seats"));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 10, "{text}");
    let mut settings = Vec::new();
    for block in lines.chunks(5) {
        let user = block[3].strip_prefix("ServerUser = ").unwrap();
        assert_eq!(
            block[0],
            format!(
                "# {user}: a CGOS client's settings \
                 (cgos-client-python's config; cgosGtp.tcl's -s -p -u -pw)"
            )
        );
        assert_eq!(block[1], "ServerHost = 127.0.0.1");
        assert_eq!(block[2], format!("ServerPort = {port}"));
        let password = block[4].strip_prefix("ServerPassword = ").unwrap();
        settings.push((user.to_string(), password.to_string()));
    }
    let again = common::succeeded(Command::new(goref()).arg("event").arg(dir).arg("seats"));
    assert_eq!(String::from_utf8(again.stdout).unwrap(), text, "kept");
    settings
}

/// Every board's journal.
fn boards(dir: &Path) -> Vec<(PathBuf, Vec<Value>)> {
    event_lines(dir)
        .iter()
        .filter(|l| l["type"] == "board_end")
        .map(|end| {
            let folder = dir.join(end["dir"].as_str().unwrap());
            let events = journal(&folder);
            (folder, events)
        })
        .collect()
}

fn spec_of(events: &[Value], colour: &str) -> String {
    events
        .iter()
        .find(|e| e["type"] == "game_start")
        .map(|e| e[colour]["spec"].as_str().unwrap().to_string())
        .unwrap_or_default()
}

#[test]
fn cgos_clients_play_an_event_in_both_colours_through_its_cgos_port() {
    let root = tempfile::tempdir().unwrap();
    let _ends = common::EndsWithin(root.path().to_path_buf());
    let (dir, port) = cgos_event(root.path());
    let settings = cgos_settings(&dir, port);
    assert_eq!(settings[0], ("alpha".into(), "alpha-pw".into()));
    assert_eq!(settings[1].0, "beta");
    let mode = std::fs::metadata(dir.join("seats/cgos-passwords"))
        .unwrap()
        .permissions();
    assert_eq!(
        std::os::unix::fs::PermissionsExt::mode(&mode) & 0o777,
        0o600
    );

    let event = common::spawn_event(&dir, Stdio::piped());
    let alpha = client(root.path(), port, "alpha", &settings[0].1, Fault::None);
    let beta = client(root.path(), port, "beta", &settings[1].1, Fault::None);
    let intruder = client(root.path(), port, "alpha", "wrong-pw", Fault::None);
    let stranger = client(root.path(), port, "gamma", "gamma-pw", Fault::None);
    let output = common::wait_with_watchdog(event, LIMIT);
    let said = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "{said}");

    let refused = |heard: &Arc<Mutex<Heard>>| heard.lock().unwrap().refused.clone();
    assert_eq!(
        refused(&intruder).as_deref(),
        Some("Error: Sorry, password doesn't match for 'alpha'")
    );
    assert!(
        refused(&stranger).is_some_and(|line| line.contains("'gamma' is not an entrant")),
        "a name is never registered by logging in"
    );
    let boards = boards(&dir);
    assert_eq!(boards.len(), 6, "three rounds of two boards");
    let mut colours = Vec::new();
    for (folder, events) in &boards {
        let result = events.iter().find(|e| e["type"] == "result").unwrap();
        assert!(
            !result["result"].as_str().unwrap().ends_with('F'),
            "{}: {result}",
            folder.display()
        );
        for colour in ["black", "white"] {
            if spec_of(events, colour) == "seat:alpha" {
                colours.push(colour);
            }
        }
    }
    colours.sort();
    colours.dedup();
    assert_eq!(colours, ["black", "white"], "alpha played both colours");
    let alpha = alpha.lock().unwrap();
    assert_eq!(alpha.logins, 1);
    assert_eq!(alpha.gameovers, 3, "{:?}", alpha.lines);
    let setups: Vec<&String> = alpha
        .lines
        .iter()
        .filter(|l| l.starts_with("setup "))
        .collect();
    assert_eq!(setups.len(), 3, "{setups:?}");
    for setup in setups {
        let words: Vec<&str> = setup.split_whitespace().collect();
        assert_eq!(&words[2..5], ["9", "7.0", "600000"], "{setup}");
        assert!(
            words[5] == "alpha(?)" || words[6] == "alpha(?)",
            "alpha is named as itself: {setup}"
        );
    }
    assert_eq!(beta.lock().unwrap().gameovers, 3);
}

#[test]
fn a_cgos_client_that_drops_mid_game_is_told_every_move_when_it_logs_in_again() {
    let root = tempfile::tempdir().unwrap();
    let _ends = common::EndsWithin(root.path().to_path_buf());
    let (dir, port) = cgos_event(root.path());
    let settings = cgos_settings(&dir, port);
    let event = common::spawn_event(&dir, Stdio::piped());
    let alpha = client(root.path(), port, "alpha", &settings[0].1, Fault::Drop(3));
    let _beta = client(root.path(), port, "beta", &settings[1].1, Fault::None);
    let output = common::wait_with_watchdog(event, LIMIT);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let alpha = alpha.lock().unwrap();
    assert_eq!(alpha.logins, 2, "{:?}", alpha.lines);
    let back = alpha
        .lines
        .iter()
        .filter(|l| l.starts_with("setup "))
        .nth(1)
        .unwrap();
    let told: Vec<&str> = back.split_whitespace().skip(7).collect();
    assert!(
        told.len() >= 2 * 4 && told.len().is_multiple_of(2),
        "the game so far, each move with its time: {back}"
    );
    let times: Vec<u64> = told
        .iter()
        .skip(1)
        .step_by(2)
        .map(|t| t.parse().unwrap())
        .collect();
    assert!(
        times.iter().all(|&ms| ms <= 600_000) && times.iter().any(|&ms| ms < 600_000),
        "each move's time left after it, as the clocks read: {back}"
    );
    let (_, events) = boards(&dir)
        .into_iter()
        .find(|(_, events)| {
            events
                .iter()
                .any(|e| e["type"] == "session" && e["what"] == "seat_back")
        })
        .expect("a board where alpha's seat came back");
    assert!(events
        .iter()
        .any(|e| e["type"] == "session" && e["what"] == "seat_lost"));
    let result = events.iter().find(|e| e["type"] == "result").unwrap();
    assert!(
        !result["result"].as_str().unwrap().ends_with('F'),
        "{result}"
    );
}

/// An event in `root/cup` of `alpha`, a CGOS entrant, against GNU Gos at
/// the levels given, on `size` with `time`; its CGOS port.
fn alpha_event(root: &Path, size: u32, time: &str, levels: &[u32]) -> (PathBuf, u16) {
    let dir = root.join("cup");
    std::fs::create_dir_all(&dir).unwrap();
    let port = free_port();
    let mut text = format!(
        "name = \"alpha's cup\"\nsystem = \"round-robin\"\n\n[game]\nsize = {size}\nkomi = 7\n\
         time = \"{time}\"\n\n[seats]\ncgos = \"127.0.0.1:{port}\"\n\n\
         [[entrant]]\nname = \"alpha\"\nplayer = \"cgos\"\n"
    );
    for (n, level) in levels.iter().enumerate() {
        text.push_str(&format!(
            "\n[[entrant]]\nname = \"gnu{}\"\nplayer = \"gtp:{} --mode gtp --level {level}\"\n",
            n + 1,
            gnugo()
        ));
    }
    std::fs::write(dir.join("event.toml"), text).unwrap();
    (dir, port)
}

/// `goref seat cgos://` for alpha, headless, with GNU Go at `level`, its
/// games under `games`, `more` flags given.
fn alpha_seat(
    root: &Path,
    port: u16,
    password: &str,
    games: &Path,
    more: &[&str],
    level: u32,
) -> Child {
    Command::new(goref())
        .arg("seat")
        .arg(format!("cgos://127.0.0.1:{port}"))
        .args(["--user", "alpha", "--headless", "--dir"])
        .arg(games)
        .args(more)
        .arg("--")
        .arg(gnugo())
        .args(["--mode", "gtp", "--level", &level.to_string()])
        .env("GOREF_CGOS_PASSWORD", password)
        .current_dir(root)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// The moves of a journal, as `(colour, vertex)`.
fn moves_of(events: &[Value]) -> Vec<(String, String)> {
    events
        .iter()
        .filter(|e| e["type"] == "move")
        .map(|e| {
            let text = |key: &str| e[key].as_str().unwrap().to_string();
            (text("color"), text("vertex"))
        })
        .collect()
}

#[test]
fn goref_seat_plays_two_games_in_a_row_on_a_cgos_server_with_its_program_kept() {
    let root = tempfile::tempdir().unwrap();
    let _ends = common::EndsWithin(root.path().to_path_buf());
    let (dir, port) = alpha_event(root.path(), 9, "absolute:10m", &[0, 0]);
    let (_, password) = cgos_settings_of(&dir).remove(0);
    let games = root.path().join("alpha-games");
    let seat = alpha_seat(root.path(), port, &password, &games, &["--games", "2"], 0);
    let event = common::spawn_event(&dir, Stdio::piped());
    let output = common::wait_with_watchdog(event, LIMIT);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let seat = common::wait_with_watchdog(seat, Duration::from_secs(30));
    let said = String::from_utf8_lossy(&seat.stdout).into_owned();
    assert!(
        seat.status.success(),
        "{said}\n{}",
        String::from_utf8_lossy(&seat.stderr)
    );
    let ended = String::from_utf8_lossy(&seat.stderr).into_owned();
    assert!(ended.contains("goref seat: 2 games played"), "{ended}");
    assert!(
        !said.contains(&password) && !ended.contains(&password),
        "the password is never shown"
    );

    let log = std::fs::read_to_string(games.join("alpha-program.log")).unwrap();
    assert_eq!(
        log.matches("--- started").count(),
        1,
        "one program for both games: {log}"
    );
    let mut folders: Vec<PathBuf> = std::fs::read_dir(&games)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    folders.sort();
    assert_eq!(folders.len(), 2, "{folders:?}");
    let event_boards: Vec<Vec<Value>> = boards(&dir)
        .into_iter()
        .map(|(_, events)| events)
        .filter(|events| {
            spec_of(events, "black") == "seat:alpha" || spec_of(events, "white") == "seat:alpha"
        })
        .collect();
    assert_eq!(event_boards.len(), 2);
    let mut colours = Vec::new();
    for folder in &folders {
        assert!(
            folder.join("MANIFEST.sha256").exists(),
            "{}",
            folder.display()
        );
        assert!(folder.join("game.sgf").exists());
        let bytes = std::fs::read_to_string(folder.join("journal.jsonl")).unwrap();
        assert!(
            !bytes.contains(&password),
            "the password is never journaled"
        );
        let events = journal(folder);
        let moves = moves_of(&events);
        let board = event_boards
            .iter()
            .find(|board| moves_of(board) == moves)
            .unwrap_or_else(|| {
                panic!(
                    "{}: no board of the event has these moves: {moves:?}; the boards': {:?}",
                    folder.display(),
                    event_boards.iter().map(|b| moves_of(b)).collect::<Vec<_>>()
                )
            });
        let result = |events: &[Value]| {
            events.iter().find(|e| e["type"] == "result").unwrap()["result"]
                .as_str()
                .unwrap()
                .trim_end_matches(".0")
                .to_string()
        };
        assert_eq!(
            result(&events),
            result(board),
            "the server's verdict is the result"
        );
        let traced = |kind: &str, direction: &str| {
            events
                .iter()
                .any(|e| e["type"] == kind && e["direction"] == direction)
        };
        assert!(traced("cgos", "sent") && traced("cgos", "received"));
        assert!(traced("gtp", "sent") && traced("gtp", "received"));
        for colour in ["black", "white"] {
            if spec_of(&events, colour) == "seat:alpha" {
                colours.push(colour);
            }
        }
    }
    colours.sort();
    assert_eq!(colours, ["black", "white"], "one game in each colour");
}

/// The CGOS entrants' `(user, password)` from `goref event DIR seats`.
fn cgos_settings_of(dir: &Path) -> Vec<(String, String)> {
    let out = common::succeeded(Command::new(goref()).arg("event").arg(dir).arg("seats"));
    let text = String::from_utf8(out.stdout).unwrap();
    let value = |key: &str| {
        text.lines()
            .filter_map(|l| l.strip_prefix(key))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    value("ServerUser = ")
        .into_iter()
        .zip(value("ServerPassword = "))
        .collect()
}

#[test]
fn a_cgos_clients_illegal_move_and_overlong_line_end_as_the_rules_say_and_change_no_other_game() {
    let root = tempfile::tempdir().unwrap();
    let _ends = common::EndsWithin(root.path().to_path_buf());
    let (dir, port) = cgos_event(root.path());
    let settings = cgos_settings(&dir, port);
    let event = common::spawn_event(&dir, Stdio::piped());
    let alpha = client(
        root.path(),
        port,
        "alpha",
        &settings[0].1,
        Fault::Illegal(2),
    );
    let beta = client(
        root.path(),
        port,
        "beta",
        &settings[1].1,
        Fault::Overlong(2),
    );
    let output = common::wait_with_watchdog(event, LIMIT);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(alpha.lock().unwrap().faulted && beta.lock().unwrap().faulted);
    assert_eq!(
        beta.lock().unwrap().logins,
        2,
        "beta was closed and came back"
    );
    let boards = boards(&dir);
    assert_eq!(boards.len(), 6);
    let mut forfeits = Vec::new();
    for (folder, events) in &boards {
        let result = events.iter().find(|e| e["type"] == "result").unwrap();
        if result["end"] == "forfeit_illegal_move" {
            let loser = match result["winner"].as_str() {
                Some("B") => "white",
                _ => "black",
            };
            assert_eq!(spec_of(events, loser), "seat:alpha", "{result}");
            assert_eq!(result["illegal"], "occupied", "{result}");
            forfeits.push(folder.clone());
        } else {
            assert!(
                !result["result"].as_str().unwrap().ends_with('F'),
                "{}: {result}",
                folder.display()
            );
        }
        let lost = events
            .iter()
            .find(|e| e["type"] == "session" && e["what"] == "seat_lost");
        if let Some(lost) = lost {
            let message = lost["message"].as_str().unwrap();
            assert!(
                message.contains("longer than the protocol allows"),
                "{message}"
            );
            assert!(events
                .iter()
                .any(|e| e["type"] == "session" && e["what"] == "seat_back"));
        }
    }
    assert_eq!(forfeits.len(), 1, "alpha's one illegal move: {forfeits:?}");
    assert!(
        boards.iter().any(|(_, events)| events
            .iter()
            .any(|e| e["type"] == "session" && e["what"] == "seat_lost")),
        "beta's board lost its seat to the overlong line"
    );
}

#[test]
fn a_cgos_client_whose_link_stalls_without_closing_loses_on_time_and_the_event_goes_on() {
    let root = tempfile::tempdir().unwrap();
    let _ends = common::EndsWithin(root.path().to_path_buf());
    let (dir, port) = alpha_event(root.path(), 9, "absolute:12s", &[0]);
    let (_, password) = cgos_settings_of(&dir).remove(0);
    let proxy = common::tcp_proxy::Proxy::start(
        format!("127.0.0.1:{port}").parse().unwrap(),
        Duration::ZERO,
    );
    let event = common::spawn_event(&dir, Stdio::piped());
    let began = std::time::Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            began.elapsed() < Duration::from_secs(60),
            "the door listens"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let alpha = client(root.path(), proxy.port, "alpha", &password, Fault::None);
    let asked = |heard: &Arc<Mutex<Heard>>| {
        let heard = heard.lock().unwrap();
        heard
            .lines
            .iter()
            .filter(|l| l.starts_with("genmove"))
            .count()
    };
    let began = std::time::Instant::now();
    while asked(&alpha) < 3 && began.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(asked(&alpha) >= 3, "alpha was asked for three moves");
    proxy.go_half_open();
    let output = common::wait_with_watchdog(event, LIMIT);
    proxy.cut();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let boards = boards(&dir);
    assert_eq!(boards.len(), 1);
    let (_, events) = &boards[0];
    let result = events.iter().find(|e| e["type"] == "result").unwrap();
    assert_eq!(result["end"], "time", "{result}");
    let loser = match result["winner"].as_str() {
        Some("B") => "white",
        _ => "black",
    };
    assert_eq!(spec_of(events, loser), "seat:alpha", "{result}");
    let standings = common::succeeded(Command::new(goref()).arg("standings").arg(&dir));
    let table = String::from_utf8_lossy(&standings.stdout);
    assert!(table.contains("gnu1"), "{table}");
}

#[test]
fn goref_seats_cgos_screen_at_80x24_shows_the_game_and_resigns_for_the_operator() {
    let root = tempfile::tempdir().unwrap();
    let _ends = common::EndsWithin(root.path().to_path_buf());
    let (dir, port) = alpha_event(root.path(), 19, "absolute:10m", &[8]);
    let (_, password) = cgos_settings_of(&dir).remove(0);
    let command = format!(
        "cd {} && LANG=C.UTF-8 GOREF_CGOS_PASSWORD={password} {} seat cgos://127.0.0.1:{port} --user alpha \
         --games 1 --dir games -- {} --mode gtp --level 8",
        root.path().display(),
        goref().display(),
        gnugo()
    );
    let Some(tmux) = common::tmux::Tmux::start("cgos-screen", 80, 24, &command) else {
        return;
    };
    let event = common::spawn_event(&dir, Stdio::piped());
    let screen = tmux.wait_for("the game on the seat's screen", LIMIT, |s| {
        s.contains("on 19x19: ")
            && s.contains("| rtt ")
            && s.contains("⇐ genmove ")
            && s.contains("→ play ")
    });
    assert!(screen.lines().count() <= 24, "{screen}");
    assert!(screen.contains("R resign  X restart"), "{screen}");
    assert!(
        screen.contains("gnu1 (?)"),
        "the opponent's name and rating: {screen}"
    );
    assert!(!screen.contains(&password), "{screen}");
    tmux.keys(&["R"]);
    tmux.wait_for("the resign's question", LIMIT, |s| {
        s.contains("resign? y: yes")
    });
    tmux.keys(&["y"]);
    let output = common::wait_with_watchdog(event, LIMIT);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let (_, events) = boards(&dir).remove(0);
    let result = events.iter().find(|e| e["type"] == "result").unwrap();
    assert!(
        result["result"].as_str().unwrap().ends_with("+R"),
        "{result}"
    );
    let winner = if result["winner"] == "B" {
        "black"
    } else {
        "white"
    };
    assert_ne!(spec_of(&events, winner), "seat:alpha", "alpha resigned");
    let games = root.path().join("games");
    let folder = std::fs::read_dir(&games)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.is_dir())
        .unwrap();
    let own = journal(&folder);
    assert!(own.iter().any(|e| e["type"] == "notice"
        && e["message"]
            .as_str()
            .unwrap_or("")
            .contains("the operator resigned")));
    let verdict = own.iter().find(|e| e["type"] == "result").unwrap();
    assert_eq!(verdict["result"], result["result"], "the server's verdict");
}

#[test]
fn goref_seat_cgos_finishes_the_game_in_play_on_sigterm_then_exits() {
    let root = tempfile::tempdir().unwrap();
    let _ends = common::EndsWithin(root.path().to_path_buf());
    let (dir, port) = alpha_event(root.path(), 9, "absolute:10m", &[6]);
    let (_, password) = cgos_settings_of(&dir).remove(0);
    let games = root.path().join("games");
    let mut seat = alpha_seat(root.path(), port, &password, &games, &[], 6);
    let stdout = BufReader::new(seat.stdout.take().unwrap());
    let event = common::Ended(common::spawn_event(&dir, Stdio::null()));
    let mut said = Vec::new();
    for line in stdout.lines() {
        let line = line.unwrap();
        let begun = line.contains("on 9x9:") && line.contains(" in ");
        said.push(line);
        if begun {
            break;
        }
    }
    // SAFETY: kill(2) on the test's own child.
    unsafe { libc::kill(seat.id() as i32, libc::SIGTERM) };
    let seat = common::wait_with_watchdog(seat, LIMIT);
    let ended = String::from_utf8_lossy(&seat.stderr).into_owned();
    assert!(seat.status.success(), "{said:?} {ended}");
    assert!(
        ended.contains("stopped by SIGTERM after its game"),
        "{said:?} {ended}"
    );
    let folders: Vec<PathBuf> = std::fs::read_dir(&games)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    assert_eq!(folders.len(), 1, "one game, finished: {folders:?}");
    assert!(folders[0].join("MANIFEST.sha256").exists());
    assert!(journal(&folders[0]).iter().any(|e| e["type"] == "result"));
    drop(event);
}

#[test]
fn goref_seat_cgos_killed_mid_game_and_started_again_writes_the_game_whole_and_sets_the_first_folder_aside(
) {
    let root = tempfile::tempdir().unwrap();
    let _ends = common::EndsWithin(root.path().to_path_buf());
    let (dir, port) = alpha_event(root.path(), 9, "absolute:10m", &[6]);
    let (_, password) = cgos_settings_of(&dir).remove(0);
    let games = root.path().join("games");
    let mut first = common::Ended(alpha_seat(root.path(), port, &password, &games, &[], 6));
    let event = common::spawn_event(&dir, Stdio::null());
    let game_folder = || {
        std::fs::read_dir(&games)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .find(|p| p.is_dir())
    };
    common::wait_until(
        LIMIT,
        || format!("four moves in a game folder under {}", games.display()),
        || game_folder().is_some_and(|f| common::journal_moves(&f).len() >= 4),
    );
    let folder = game_folder().unwrap();
    first.0.kill().unwrap();
    first.0.wait().unwrap();
    let before = common::journal_moves(&folder).len();

    let again = alpha_seat(root.path(), port, &password, &games, &["--games", "1"], 6);
    let again = common::wait_with_watchdog(again, LIMIT);
    let said = String::from_utf8_lossy(&again.stdout).into_owned();
    assert!(again.status.success(), "{said}");
    assert!(said.contains("set aside as"), "{said}");
    let ended = String::from_utf8_lossy(&again.stderr);
    assert!(ended.contains("goref seat: 1 game played"), "{ended}");
    let output = common::wait_with_watchdog(event, LIMIT);
    assert!(output.status.success());

    let mut names: Vec<String> = std::fs::read_dir(&games)
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let name = folder.file_name().unwrap().to_string_lossy().into_owned();
    assert_eq!(names.len(), 2, "{names:?}");
    assert_eq!(names[0], name, "the game keeps its folder's name");
    assert!(
        names[1].starts_with(&format!("{name}.abandoned-")),
        "{names:?}"
    );
    assert!(folder.join("MANIFEST.sha256").exists());
    let whole = moves_of(&journal(&folder));
    let aside = moves_of(&journal(&games.join(&names[1])));
    assert!(aside.len() >= before && aside.len() < whole.len());
    assert_eq!(aside[..], whole[..aside.len()], "the first run's moves");
    let (_, board) = boards(&dir).remove(0);
    assert_eq!(
        whole,
        moves_of(&board),
        "the whole game, as the server has it"
    );
    assert!(journal(&folder).iter().any(|e| e["type"] == "result"));
}
