//! Seated programs: real GNU Go behind a real `goref seat`, over TLS on
//! loopback, played by `goref play --seats`. The seat line the venue prints
//! is the one the operator runs; the game is played to its end with the
//! KGS end of game through the seat; a wrong token and a wrong pin are
//! refused and the seat says why.

use crate::common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use common::tcp_proxy::Proxy;
use common::tmux::Tmux;
use common::{gnugo, goref, journal, journal_moves, wait_until};

const LIMIT: Duration = Duration::from_secs(120);

/// A `goref play` whose Black is seated, and the seat line it printed:
/// (address, token, pin).
fn venue(root: &Path, white: &str) -> (Child, [String; 3]) {
    venue_sized(root, white, "9")
}

fn venue_sized(root: &Path, white: &str, size: &str) -> (Child, [String; 3]) {
    venue_with(root, white, size, &[])
}

fn venue_with(root: &Path, white: &str, size: &str, more: &[&str]) -> (Child, [String; 3]) {
    let mut play = Command::new(goref())
        .current_dir(root)
        .args(["play", "--black", "seat:alpha", "--white", white])
        .args([
            "--seats",
            "127.0.0.1:0",
            "--seat-keys",
            "keys",
            "--size",
            size,
        ])
        .args(["--headless", "--game-dir", "game"])
        .args(more)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = BufReader::new(play.stderr.take().unwrap());
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in stderr.lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let line = loop {
        let line = rx
            .recv_timeout(Duration::from_secs(20))
            .expect("the venue prints the seat's line");
        if line.contains("goref seat ") {
            break line;
        }
    };
    std::thread::spawn(move || while rx.recv().is_ok() {});
    let words: Vec<&str> = line.split_whitespace().collect();
    let after = |flag: &str| {
        let at = words
            .iter()
            .position(|w| *w == flag)
            .unwrap_or_else(|| panic!("{flag} in {line}"));
        words[at + 1].to_string()
    };
    let seat = words.iter().position(|w| *w == "seat").unwrap();
    assert_eq!(after("--entrant"), "alpha");
    assert!(line.contains(" -- "), "{line}");
    assert!(
        !line.contains("--token"),
        "the token stays out of argv: {line}"
    );
    let token = words
        .iter()
        .find_map(|w| w.strip_prefix("GOREF_TOKEN="))
        .unwrap_or_else(|| panic!("GOREF_TOKEN= in {line}"));
    (
        play,
        [
            words[seat + 1].to_string(),
            token.to_string(),
            after("--pin"),
        ],
    )
}

fn seat(root: &Path, address: &str, token: &str, pin: &str) -> Command {
    let mut seat = Command::new(goref());
    seat.current_dir(root)
        .env("GOREF_TOKEN", token)
        .args(["seat", address, "--entrant", "alpha", "--pin", pin])
        .args(["--", &gnugo(), "--mode", "gtp", "--level", "1"]);
    seat
}

fn spawn_seat(root: &Path, address: &str, token: &str, pin: &str) -> Child {
    seat(root, address, token, pin)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// The journal's `session` events of `what`.
fn sessions(root: &Path, what: &str) -> Vec<serde_json::Value> {
    journal(&root.join("game"))
        .into_iter()
        .filter(|e| e["type"] == "session" && e["what"] == what)
        .collect()
}

/// Waits for the game to have `n` moves.
fn wait_moves(root: &Path, n: usize) {
    let folder = root.join("game");
    wait_until(
        LIMIT,
        || format!("{n} moves"),
        || journal_moves(&folder).len() >= n,
    );
}

/// The game ended by play, not by its seated side's loss.
fn assert_played_out(root: &Path, play: &mut Child, at_least: usize) {
    let status = wait_exit(play, LIMIT);
    let events = journal(&root.join("game"));
    let result = events
        .iter()
        .find(|e| e["type"] == "result")
        .unwrap_or_else(|| panic!("no result ({status})"));
    let reason = result["reason"].as_str().unwrap();
    assert!(!reason.contains("seat"), "{result}");
    assert!(!reason.contains("forfeit"), "{result}");
    let moves = journal_moves(&root.join("game")).len();
    assert!(moves >= at_least, "only {moves} moves");
    assert!(
        events.iter().any(|e| e["type"] == "notice"
            && e["message"]
                .as_str()
                .unwrap_or("")
                .contains("told the game again")),
        "the seated program was told the game again"
    );
}

fn wait_exit(child: &mut Child, limit: Duration) -> std::process::ExitStatus {
    let deadline = std::time::Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_seated_gnu_go_plays_a_whole_game_through_its_seat_over_tls() {
    let root = tempfile::tempdir().unwrap();
    let white = format!("gtp:{} --mode gtp --level 1", gnugo());
    let (mut play, [address, token, pin]) = venue(root.path(), &white);
    let mut seat = seat(root.path(), &address, &token, &pin)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let status = wait_exit(&mut play, LIMIT);
    let _ = seat.kill();
    let _ = seat.wait();
    assert!(status.success(), "the game ends decided: {status}");

    let events = journal(&root.path().join("game"));
    let of_type = |t: &'static str| events.iter().filter(move |e| e["type"] == t);
    let session: Vec<_> = of_type("session").collect();
    assert!(
        session
            .iter()
            .any(|e| e["what"] == "seat_in" && e["color"] == "B"),
        "{session:?}"
    );
    let players: Vec<_> = of_type("player").collect();
    assert!(
        players.iter().any(|p| p["color"] == "B"
            && p["info"]["spec"] == "seat:alpha"
            && p["info"]["name"] == "GNU Go"),
        "{players:?}"
    );
    let moves = of_type("move").count();
    assert!(moves > 20, "only {moves} moves");
    let black_moves = of_type("move").filter(|m| m["color"] == "B").count();
    assert!(black_moves > 10);
    let result = of_type("result").next().expect("a result");
    assert!(
        result["reason"].as_str().unwrap().contains("agree"),
        "both GNU Gos, one seated, agree on the dead stones: {result}"
    );
    let log = std::fs::read_to_string(root.path().join("seat-alpha.log")).unwrap();
    assert!(
        log.contains("--- started:"),
        "the program's stderr stays beside the seat"
    );
    let token_mode = std::fs::metadata(root.path().join("keys/tokens"))
        .map(|m| std::os::unix::fs::PermissionsExt::mode(&m.permissions()) & 0o777)
        .unwrap();
    assert_eq!(token_mode, 0o600);
}

#[test]
fn a_wrong_token_and_a_wrong_pin_are_refused_with_the_reason() {
    let root = tempfile::tempdir().unwrap();
    let white = format!("gtp:{} --mode gtp --level 1", gnugo());
    let (mut play, [address, token, pin]) = venue(root.path(), &white);

    let wrong_token = seat(
        root.path(),
        &address,
        "0123456789abcdef0123456789abcdef",
        &pin,
    )
    .output()
    .unwrap();
    assert!(!wrong_token.status.success());
    let said = String::from_utf8_lossy(&wrong_token.stderr);
    assert!(said.contains("wrong token for 'alpha'"), "{said}");

    let other = format!("sha256:{}", "ab".repeat(32));
    let wrong_pin = seat(root.path(), &address, &token, &other)
        .output()
        .unwrap();
    assert!(!wrong_pin.status.success());
    let said = String::from_utf8_lossy(&wrong_pin.stderr);
    assert!(said.contains("not the venue pinned"), "{said}");

    let elsewhere = tempfile::tempdir().unwrap();
    let (mut impostor, [impostor_address, _, _]) = venue(elsewhere.path(), &white);
    let in_the_middle = seat(root.path(), &impostor_address, &token, &pin)
        .output()
        .unwrap();
    let _ = impostor.kill();
    let _ = impostor.wait();
    assert!(!in_the_middle.status.success());
    let said = String::from_utf8_lossy(&in_the_middle.stderr);
    assert!(
        said.contains("not the venue pinned"),
        "a man in the middle with a certificate of its own: {said}"
    );
    let impostor_events = journal(&elsewhere.path().join("game"));
    assert!(
        !impostor_events
            .iter()
            .any(|e| e["type"] == "session" && e["what"] == "seat_in"),
        "not a byte of the game passed"
    );

    let events = journal(&root.path().join("game"));
    assert!(
        !events
            .iter()
            .any(|e| e["type"] == "session" && e["what"] == "seat_in"),
        "no refused seat got in"
    );
    let _ = play.kill();
    let _ = play.wait();
}

#[test]
fn a_seat_killed_mid_game_and_started_again_finishes_its_game() {
    let root = tempfile::tempdir().unwrap();
    let white = format!("gtp:{} --mode gtp --level 1", gnugo());
    let (mut play, [address, token, pin]) = venue_sized(root.path(), &white, "13");
    let mut first = spawn_seat(root.path(), &address, &token, &pin);
    wait_moves(root.path(), 12);
    first.kill().unwrap();
    first.wait().unwrap();
    wait_until(
        LIMIT,
        || "seat_lost".into(),
        || !sessions(root.path(), "seat_lost").is_empty(),
    );
    let mut second = spawn_seat(root.path(), &address, &token, &pin);
    assert_played_out(root.path(), &mut play, 20);
    let _ = second.kill();
    let _ = second.wait();
    let back = sessions(root.path(), "seat_back");
    assert_eq!(back.len(), 1, "{back:?}");
    assert!(back[0]["message"]
        .as_str()
        .unwrap()
        .contains("is back after"));
}

/// A game whose seat's link, through the proxy, `breaks` twelve moves in:
/// how soon the loss was found, and the journal once the game is over,
/// the seat back.
fn link_broken_mid_game(breaks: impl FnOnce(&Proxy)) -> (Duration, Vec<serde_json::Value>) {
    let root = tempfile::tempdir().unwrap();
    let white = format!("gtp:{} --mode gtp --level 1", gnugo());
    let (mut play, [address, token, pin]) = venue_sized(root.path(), &white, "13");
    let proxy = Proxy::start(address.parse().unwrap(), Duration::ZERO);
    let mut seat = spawn_seat(root.path(), &proxy.address(), &token, &pin);
    wait_moves(root.path(), 12);
    let broken_at = std::time::Instant::now();
    breaks(&proxy);
    wait_until(
        LIMIT,
        || "seat_lost".into(),
        || !sessions(root.path(), "seat_lost").is_empty(),
    );
    let found_in = broken_at.elapsed();
    assert_played_out(root.path(), &mut play, 20);
    let _ = seat.kill();
    let _ = seat.wait();
    assert!(proxy.connections() >= 1, "the seat dialled again");
    assert_eq!(sessions(root.path(), "seat_back").len(), 1);
    (found_in, journal(&root.path().join("game")))
}

fn said(events: &[serde_json::Value], what: &str, text: &str) -> bool {
    events.iter().any(|e| {
        e["type"] == "session"
            && e["what"] == what
            && e["message"].as_str().unwrap_or("").contains(text)
    })
}

#[test]
fn a_half_open_link_is_found_within_ten_seconds_and_the_seat_comes_back() {
    let (found_in, events) = link_broken_mid_game(Proxy::go_half_open);
    assert!(
        found_in < Duration::from_secs(13),
        "found after {found_in:?}"
    );
    assert!(said(&events, "seat_lost", "silent"), "{events:?}");
}

#[test]
fn a_link_cut_outright_is_lost_at_once_and_the_seat_dials_back_and_finishes() {
    let (found_in, events) = link_broken_mid_game(Proxy::cut);
    assert!(
        found_in < Duration::from_secs(3),
        "a closed link needs no keepalive to be found: {found_in:?}"
    );
    assert!(events.iter().any(|e| e["message"]
        .as_str()
        .unwrap_or("")
        .contains("was told the game again")));
}

#[test]
fn a_program_that_dies_on_its_seat_is_started_there_again_and_told_the_game() {
    let root = tempfile::tempdir().unwrap();
    let white = format!("gtp:{} --mode gtp --level 1", gnugo());
    let (mut play, [address, token, pin]) = venue_sized(root.path(), &white, "13");
    let mut seat = spawn_seat(root.path(), &address, &token, &pin);
    wait_moves(root.path(), 12);
    let killed = Command::new("pkill")
        .args(["-9", "-P", &seat.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success(), "the seat's program was there to kill");
    assert_played_out(root.path(), &mut play, 20);
    let _ = seat.kill();
    let _ = seat.wait();
    let events = journal(&root.path().join("game"));
    assert!(events.iter().any(|e| e["type"] == "notice"
        && e["message"]
            .as_str()
            .unwrap_or("")
            .contains("program exited on its seat")));
    assert!(
        sessions(root.path(), "seat_lost").is_empty(),
        "the link itself held"
    );
}

#[test]
fn through_a_link_that_delays_200_ms_each_way_a_seat_is_charged_its_own_thinking() {
    let root = tempfile::tempdir().unwrap();
    let white = format!("gtp:{} --mode gtp --level 1", gnugo());
    let (mut play, [address, token, pin]) =
        venue_with(root.path(), &white, "9", &["--time", "absolute:10m"]);
    let proxy = Proxy::start(address.parse().unwrap(), Duration::from_millis(200));
    let mut seat = spawn_seat(root.path(), &proxy.address(), &token, &pin);
    let status = wait_exit(&mut play, LIMIT);
    let _ = seat.kill();
    let _ = seat.wait();
    assert!(status.success(), "{status}");
    let charged: Vec<(u64, u64)> = journal_moves(&root.path().join("game"))
        .iter()
        .filter(|m| m["color"] == "B")
        .map(|m| (m["ms"].as_u64().unwrap(), m["net_ms"].as_u64().unwrap()))
        .collect();
    let log = std::fs::read_to_string(root.path().join("seat-alpha.log")).unwrap();
    let thought: Vec<u64> = log
        .lines()
        .filter_map(|l| l.strip_prefix("--- move "))
        .map(|l| l.split_whitespace().nth(2).unwrap().parse().unwrap())
        .collect();
    assert!(charged.len() > 10, "{charged:?}");
    assert!(
        thought.len().abs_diff(charged.len()) <= 1,
        "{thought:?} {charged:?}"
    );
    for (n, ((ms, net_ms), think)) in charged.iter().zip(&thought).enumerate() {
        assert!(
            ms.abs_diff(*think) <= 20,
            "move {n}: charged {ms} ms, thought {think} ms: {charged:?} {thought:?}"
        );
        assert!(
            *net_ms >= 380,
            "move {n}: the network's 400 ms round trip is its net, not {net_ms}"
        );
    }
}

/// When an event was journaled, in ms since goref started.
fn t_ms(event: &serde_json::Value) -> u64 {
    event["t_ms"].as_u64().unwrap()
}

#[test]
fn a_seat_that_comes_back_through_a_slow_link_is_not_charged_for_being_told_the_game() {
    let root = tempfile::tempdir().unwrap();
    let white = format!("gtp:{} --mode gtp --level 1", gnugo());
    let (play, [address, token, pin]) =
        venue_with(root.path(), &white, "9", &["--time", "absolute:20m"]);
    let mut play = common::Ended(play);
    let proxy = Proxy::start(address.parse().unwrap(), Duration::from_millis(200));
    let seat = common::Ended(spawn_seat(root.path(), &proxy.address(), &token, &pin));
    let folder = root.path().join("game");
    wait_moves(root.path(), 10);
    let blacks_turn = || {
        let events = journal(&folder);
        let last_move = events.iter().rposition(|e| e["type"] == "move");
        let asked = events.iter().rposition(|e| {
            e["type"] == "gtp"
                && e["color"] == "B"
                && e["direction"] == "sent"
                && e["line"].as_str().unwrap_or("").contains("genmove")
        });
        matches!((last_move, asked), (Some(m), Some(a)) if a > m && events[m]["color"] == "W")
    };
    wait_until(LIMIT, || "Black asked to move".into(), blacks_turn);
    proxy.cut();
    assert_played_out(root.path(), &mut play.0, 14);
    drop(seat);
    let events = journal(&folder);
    let find = |what: &dyn Fn(&serde_json::Value) -> bool| {
        events
            .iter()
            .position(what)
            .unwrap_or_else(|| panic!("{events:#?}"))
    };
    let message =
        |e: &serde_json::Value, text: &str| e["message"].as_str().unwrap_or("").contains(text);
    let held = find(&|e| e["type"] == "notice" && message(e, "clock is held"));
    let told = find(&|e| e["type"] == "notice" && message(e, "was told the game again"));
    let telling_ms = t_ms(&events[told]) - t_ms(&events[held]);
    assert!(
        telling_ms >= 2000,
        "the test means something only if the telling is slow: {telling_ms} ms: {:#?}",
        events
            .iter()
            .filter(|e| e["type"] == "notice" || e["type"] == "session" || e["type"] == "move")
            .map(|e| format!(
                "{} {} {} {}",
                e["t_ms"], e["type"], e["color"], e["message"]
            ))
            .collect::<Vec<_>>()
    );
    let asked_at = events[..held]
        .iter()
        .rev()
        .find(|e| e["type"] == "move")
        .map(t_ms)
        .unwrap();
    let came_back = &events[told..].iter().find(|e| e["type"] == "move").unwrap();
    assert_eq!(came_back["color"], "B", "{came_back}");
    let absent_ms = t_ms(&events[held]) - asked_at;
    let charged = came_back["ms"].as_u64().unwrap();
    assert!(
        charged <= absent_ms + 1000,
        "charged {charged} ms: absent {absent_ms} ms, told for {telling_ms} ms, which is nobody's"
    );
    let net_ms = came_back["net_ms"].as_u64().unwrap();
    assert!(
        net_ms < 1500,
        "net_ms {net_ms}: the uncharged share of the last genmove"
    );
}

/// `goref seat` for alpha at `[address, token, pin]`, GNU Go at `level`,
/// on its screen in tmux at 80x24; none when tmux is missing.
fn seat_on_screen(
    root: &Path,
    [address, token, pin]: [&str; 3],
    level: u32,
    name: &str,
) -> Option<Tmux> {
    let command = format!(
        "cd {} && GOREF_TOKEN={token} {} seat {address} --entrant alpha --pin {pin} -- {} --mode gtp --level {level}",
        root.display(),
        goref().display(),
        gnugo()
    );
    Tmux::start(name, 80, 24, &command)
}

/// A 19x19 venue against GNU Go with alpha's seat, GNU Go at `level`, on
/// an 80x24 screen; none (the venue ended) without tmux.
fn seated_game_on_screen(root: &Path, level: u32, name: &str) -> Option<(Child, Tmux)> {
    let white = format!("gtp:{} --mode gtp --level 1", gnugo());
    let (mut play, [address, token, pin]) = venue_sized(root, &white, "19");
    let seated = [address.as_str(), &token, &pin];
    match seat_on_screen(root, seated, level, name) {
        Some(tmux) => Some((play, tmux)),
        None => {
            let _ = play.kill();
            let _ = play.wait();
            None
        }
    }
}

#[test]
fn a_seats_operator_restarts_then_resigns_the_program_from_its_screen_at_80x24() {
    let root = tempfile::tempdir().unwrap();
    let Some((mut play, tmux)) = seated_game_on_screen(root.path(), 6, "seat-screen") else {
        return;
    };
    let screen = tmux.wait_for("the game on the seat's screen", LIMIT, |s| {
        s.contains("· Black against gnugo") && s.contains("GNU Go") && s.contains(" B ")
    });
    assert!(screen.lines().count() <= 24);
    assert!(screen.contains("| rtt "), "the link first: {screen}");
    assert!(screen.contains("R resign  X restart"), "{screen}");
    assert!(screen.contains("GNU Go"), "the board's players: {screen}");

    tmux.keys(&["X"]);
    tmux.wait_for("the restart's question", LIMIT, |s| {
        s.contains("restart the program? y: yes")
    });
    tmux.keys(&["y"]);
    let folder = root.path().join("game");
    wait_until(
        LIMIT,
        || "the program told the game again".into(),
        || {
            journal(&folder).iter().any(|e| {
                e["message"]
                    .as_str()
                    .unwrap_or("")
                    .contains("told the game again")
            })
        },
    );
    tmux.keys(&["R"]);
    tmux.wait_for("the resign's question", LIMIT, |s| {
        s.contains("resign? y: yes")
    });
    tmux.keys(&["y"]);
    let status = wait_exit(&mut play, LIMIT);
    assert!(status.success());
    let events = journal(&folder);
    let result = events.iter().find(|e| e["type"] == "result").unwrap();
    assert_eq!(result["result"], "W+R", "{result}");
    assert!(events.iter().any(|e| e["message"]
        .as_str()
        .unwrap_or("")
        .contains("alpha's operator starts the program again")));
    assert!(events.iter().any(|e| e["message"]
        .as_str()
        .unwrap_or("")
        .contains("alpha's operator has the program resign")));
    let stale: Vec<_> = events
        .iter()
        .filter(|e| e.to_string().contains("unexpected response"))
        .collect();
    assert!(stale.is_empty(), "an answer crossed the restart: {stale:?}");
    tmux.wait_for("the seat told goodbye with the result", LIMIT, |s| {
        s.contains("the venue said goodbye: the game is over: W+R") && s.contains("EXIT=0")
    });
}

#[test]
fn a_seat_whose_terminal_goes_away_plays_its_game_out_without_its_screen() {
    let root = tempfile::tempdir().unwrap();
    let _ends = common::EndsWithin(root.path().to_path_buf());
    let Some((mut play, tmux)) = seated_game_on_screen(root.path(), 1, "seat-hangup") else {
        return;
    };
    tmux.wait_for("the game on the seat's screen", LIMIT, |s| {
        s.contains("· Black against gnugo") && s.contains(" B ")
    });
    wait_moves(root.path(), 4);
    let _ = tmux.command().arg("kill-server").status();
    let at_hangup = journal_moves(&root.path().join("game")).len();
    let status = wait_exit(&mut play, LIMIT);
    assert!(status.success(), "{status}");
    let events = journal(&root.path().join("game"));
    let lost: Vec<_> = events
        .iter()
        .filter(|e| e["type"] == "session" && e["what"] != "seat_in")
        .collect();
    assert!(lost.is_empty(), "the seat stayed: {lost:?}");
    assert!(events.iter().any(|e| e["type"] == "result"));
    let moves = journal_moves(&root.path().join("game"));
    assert!(
        moves.len() > at_hangup + 10,
        "the game went on after the hangup: {} moves, {at_hangup} at it",
        moves.len()
    );
}

/// A game whose seated program says `aloud` on its stderr before it
/// plays; `more` for the venue. The journal's stderr lines.
fn stderr_in_journal(more: &[&str], aloud: &str) -> (Vec<String>, String) {
    let root = tempfile::tempdir().unwrap();
    let white = format!("gtp:{} --mode gtp --level 1", gnugo());
    let (mut play, [address, token, pin]) = venue_with(root.path(), &white, "9", more);
    let program = format!("echo {aloud} >&2; exec {} --mode gtp --level 1", gnugo());
    let mut seat = Command::new(goref())
        .current_dir(root.path())
        .env("GOREF_TOKEN", &token)
        .args(["seat", &address, "--entrant", "alpha"])
        .args(["--pin", &pin, "--headless", "--", "sh", "-c", &program])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let status = wait_exit(&mut play, LIMIT);
    let _ = seat.kill();
    let _ = seat.wait();
    assert!(status.success(), "{status}");
    let lines = journal(&root.path().join("game"))
        .into_iter()
        .filter(|e| e["type"] == "gtp" && e["direction"] == "stderr")
        .map(|e| e["line"].as_str().unwrap_or("").to_string())
        .collect();
    let log = std::fs::read_to_string(root.path().join("seat-alpha.log")).unwrap();
    (lines, log)
}

#[test]
fn a_seats_stderr_stays_on_its_machine_unless_the_venue_asks_for_it() {
    let (kept, log) = stderr_in_journal(&[], "thinking-aloud");
    assert!(
        !kept.iter().any(|line| line.contains("thinking-aloud")),
        "{kept:?}"
    );
    assert!(log.contains("thinking-aloud"), "{log}");
    let (sent, log) = stderr_in_journal(&["--seat-stderr"], "thinking-aloud");
    assert!(
        sent.iter().any(|line| line.contains("thinking-aloud")),
        "{sent:?}"
    );
    assert!(
        log.contains("thinking-aloud"),
        "and kept beside the seat too"
    );
}

#[test]
fn the_hosts_full_screen_says_where_the_seats_commands_are_kept() {
    let root = tempfile::tempdir().unwrap();
    let command = format!(
        "cd {} && {} play --black seat:alpha --white 'gtp:{} --mode gtp' --seats 127.0.0.1:0 --seat-keys keys --size 9 --time absolute:10m",
        root.path().display(),
        goref().display(),
        gnugo()
    );
    let Some(tmux) = Tmux::start("seat-host", 80, 24, &command) else {
        return;
    };
    let screen = tmux.wait_for("the seats' message on the host's screen", LIMIT, |s| {
        s.contains("keys/commands.txt") && s.contains("absent")
    });
    assert!(
        screen
            .lines()
            .next()
            .unwrap()
            .contains("seats' commands in keys/commands.txt"),
        "on the status line: {screen}"
    );
    assert!(screen.contains("absent"), "Black's clock says so: {screen}");
    assert!(
        !screen.contains("--token"),
        "no token on the screen: {screen}"
    );
    let commands = std::fs::read_to_string(root.path().join("keys/commands.txt")).unwrap();
    assert!(commands.contains("GOREF_TOKEN="), "{commands}");
    assert!(commands.contains("seat 127.0.0.1:"), "{commands}");
}

#[test]
fn a_seat_runs_an_engine_given_as_a_player_spec() {
    let root = tempfile::tempdir().unwrap();
    let (mut play, [address, token, pin]) = venue(root.path(), "bot:2");
    let mut seat = Command::new(goref())
        .current_dir(root.path())
        .env("GOREF_TOKEN", &token)
        .args(["seat", &address, "--entrant", "alpha"])
        .args(["--pin", &pin, "--engine", "bot:7", "--headless"])
        .args(["--program-log", "bot.log", "--log", "goref.log"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let status = wait_exit(&mut play, LIMIT);
    let seat_status = wait_exit(&mut seat, Duration::from_secs(20));
    let output = seat.wait_with_output().unwrap();
    assert!(status.success(), "{status}");
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(
        seat_status.success(),
        "a decided game's venue says goodbye and the seat stops: {seat_status} {said}"
    );
    let last = String::from_utf8_lossy(&output.stderr);
    assert!(
        last.contains("goref seat: the venue said goodbye: the game is over: "),
        "{last}"
    );
    assert!(!said.contains("dialling again"), "{said}");
    assert!(said.contains("bot --gtp --seed 7"), "{said}");
    assert!(said.contains("(stderr to bot.log)"), "{said}");
    let program_log = std::fs::read_to_string(root.path().join("bot.log")).unwrap();
    assert!(program_log.contains("--- started:"), "{program_log}");
    assert!(
        root.path().join("goref.log").exists(),
        "--log stays goref's own"
    );
    assert!(said.contains("seat: connected to goref play"), "{said}");
    let events = journal(&root.path().join("game"));
    assert!(events
        .iter()
        .any(|e| e["type"] == "player" && e["color"] == "B" && e["info"]["spec"] == "seat:alpha"));
    assert!(events.iter().any(|e| e["type"] == "result"));

    let wrong = Command::new(goref())
        .env("GOREF_TOKEN", &token)
        .args(["seat", &address, "--entrant", "alpha"])
        .args(["--pin", &pin, "--engine", "human"])
        .output()
        .unwrap();
    assert!(!wrong.status.success());
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("a seat runs a GTP program"));
}

#[test]
fn a_seat_that_comes_late_has_the_time_taken_off_its_clock() {
    let root = tempfile::tempdir().unwrap();
    let white = format!("gtp:{} --mode gtp --level 1", gnugo());
    let (mut play, [address, token, pin]) =
        venue_with(root.path(), &white, "9", &["--time", "absolute:10m"]);
    std::thread::sleep(Duration::from_secs(3));
    let mut seat = spawn_seat(root.path(), &address, &token, &pin);
    let status = wait_exit(&mut play, LIMIT);
    let _ = seat.kill();
    let _ = seat.wait();
    assert!(status.success(), "{status}");
    let events = journal(&root.path().join("game"));
    assert!(events.iter().any(|e| e["type"] == "notice"
        && e["color"] == "B"
        && e["message"]
            .as_str()
            .unwrap_or("")
            .contains("late: the time comes off its clock")));
    let came = sessions(root.path(), "seat_in")[0]["t_ms"]
        .as_u64()
        .unwrap();
    assert!(
        came >= 2_500,
        "the seat came about 3 s into the game: {came}"
    );
    let first = journal_moves(&root.path().join("game"))
        .into_iter()
        .find(|m| m["color"] == "B")
        .unwrap();
    let charged = first["ms"].as_u64().unwrap();
    assert!(
        charged + 100 >= came,
        "the time from the board's start to the seat's coming is charged: {first}"
    );
    let left = first["clock"]["main_left_ms"].as_u64().unwrap();
    assert!(left.abs_diff(600_000 - charged) <= 1, "{first}");
}

#[test]
fn a_seat_that_never_comes_loses_on_time_once_its_whole_time_has_passed() {
    let root = tempfile::tempdir().unwrap();
    let white = format!("gtp:{} --mode gtp --level 1", gnugo());
    let (mut play, _) = venue_with(root.path(), &white, "9", &["--time", "absolute:4s"]);
    let status = wait_exit(&mut play, LIMIT);
    assert!(status.success(), "{status}");
    let events = journal(&root.path().join("game"));
    assert!(
        events
            .iter()
            .any(|e| e["type"] == "session" && e["what"] == "seat_absent" && e["color"] == "B"),
        "{events:#?}"
    );
    let result = events.iter().find(|e| e["type"] == "result").unwrap();
    assert_eq!(result["result"], "W+T", "{result}");
    assert_eq!(result["end"], "time", "{result}");
    let kept = root.path().join("keys/commands.txt");
    let commands = std::fs::read_to_string(&kept).unwrap();
    assert!(commands.contains("goref seat ") && commands.contains("--entrant alpha"));
    let mode = std::fs::metadata(&kept).unwrap();
    assert_eq!(
        std::os::unix::fs::PermissionsExt::mode(&mode.permissions()) & 0o777,
        0o600
    );
}

#[test]
fn a_second_seat_for_the_entrant_replaces_the_first_which_stops_and_both_are_journaled() {
    let root = tempfile::tempdir().unwrap();
    let white = format!("gtp:{} --mode gtp --level 1", gnugo());
    let (mut play, [address, token, pin]) = venue_sized(root.path(), &white, "13");
    let first = seat(root.path(), &address, &token, &pin)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_moves(root.path(), 10);
    let mut second = spawn_seat(root.path(), &address, &token, &pin);
    let replaced = first.wait_with_output().unwrap();
    assert!(!replaced.status.success(), "the replaced seat stops");
    let said = String::from_utf8_lossy(&replaced.stderr);
    assert!(
        said.contains("another seat for alpha took this one's place"),
        "{said}"
    );
    assert!(
        said.contains("it connected from 127.0.0.1:") && said.contains("(goref-seat "),
        "the replaced seat says who took its place: {said}"
    );
    assert_played_out(root.path(), &mut play, 20);
    let _ = second.kill();
    let _ = second.wait();
    let lost = sessions(root.path(), "seat_lost");
    assert!(
        lost.iter().any(|e| {
            let message = e["message"].as_str().unwrap();
            message.contains("replaced") && message.contains("connected from 127.0.0.1:")
        }),
        "the board's alert names the address that took the seat: {lost:?}"
    );
    assert_eq!(sessions(root.path(), "seat_back").len(), 1);
}
