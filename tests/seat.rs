//! Seated programs: real GNU Go behind a real `goref seat`, over TLS on
//! loopback, played by `goref play --seats`. The seat line the venue prints
//! is the one the operator runs; the game is played to its end with the
//! KGS end of game through the seat; a wrong token and a wrong pin are
//! refused and the seat says why.

mod common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use common::{gnugo, goref, journal};

const LIMIT: Duration = Duration::from_secs(120);

/// A `goref play` whose Black is seated, and the seat line it printed:
/// (address, token, pin).
fn venue(root: &Path, white: &str) -> (Child, [String; 3]) {
    let mut play = Command::new(goref())
        .current_dir(root)
        .args(["play", "--black", "seat:alpha", "--white", white])
        .args([
            "--seats",
            "127.0.0.1:0",
            "--seat-keys",
            "keys",
            "--size",
            "9",
        ])
        .args(["--headless", "--game-dir", "game"])
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
    let line = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("the venue prints the seat's line");
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
    (
        play,
        [
            words[seat + 1].to_string(),
            after("--token"),
            after("--pin"),
        ],
    )
}

fn seat(root: &Path, address: &str, token: &str, pin: &str) -> Command {
    let mut seat = Command::new(goref());
    seat.current_dir(root)
        .args([
            "seat",
            address,
            "--entrant",
            "alpha",
            "--token",
            token,
            "--pin",
            pin,
        ])
        .args(["--", &gnugo(), "--mode", "gtp", "--level", "1"]);
    seat
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
