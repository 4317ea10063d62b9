//! The page for browsers (`--web`) in a real headless Chromium, against the
//! real binary: the referee's full screen in tmux (which stays up after the
//! result), `--web` on loopback.
//!
//! The page's board after the game's last move is the host's position, with
//! its coordinates, and its result the host's; a screenshot of it is kept
//! as an artefact (`target/tmp/web/game.png`). The referee asks for a
//! token: a page opened without it is told how to give it. A WebSocket
//! that sends what is not a text message is refused and counted. The final
//! board marks the stones the score counted dead, and the clocks read as
//! the terminal's do.

use crate::common;

use std::time::Duration;

use common::browser::{artefacts, dom, headless, host_stones, page_stones};
use common::tmux::Tmux;
use common::{free_port, goref, journal};

#[test]
fn the_page_shows_the_hosts_position_and_result_after_the_last_move() {
    let root = tempfile::tempdir().unwrap();
    let folder = root.path().join("game");
    let port = free_port();
    let command = format!(
        "{} play --black bot:3,think=20ms --white bot:4,think=20ms --size 9 --game-dir {} \
         --web 127.0.0.1:{port} --token s3cret",
        goref().display(),
        folder.display()
    );
    let Some(host) = Tmux::start("web-page", 100, 30, &command) else {
        return;
    };
    host.wait_for("the result", Duration::from_secs(120), |screen| {
        screen.contains("result ")
    });
    // Chromium's virtual time runs ahead of the socket: a page dumped
    // before the referee's answer came is loaded again, given longer.
    let refused = "this game needs a token: open this page as /?token=";
    let bare = (1..=5)
        .map(|n| {
            headless(
                &format!("http://127.0.0.1:{port}/"),
                3000 * n,
                &["--dump-dom"],
            )
        })
        .map(|out| String::from_utf8_lossy(&out.stdout).into_owned())
        .find(|dom| dom.contains(refused))
        .unwrap_or_default();
    assert!(
        bare.contains(refused),
        "a page without the token is told how to give it"
    );
    assert!(
        page_stones(&bare).is_empty(),
        "and shown nothing of the game"
    );
    let url = format!("http://127.0.0.1:{port}/?token=s3cret");
    let dom = dom(&url);
    let shown = page_stones(&dom);
    let position = host_stones(&folder);
    assert!(!position.is_empty());
    assert_eq!(shown, position, "the page's board is the host's");
    let result = journal(&folder)
        .into_iter()
        .find(|e| e["type"] == "result")
        .unwrap();
    let said = result["result"].as_str().unwrap();
    assert!(dom.contains(&format!(">{said}: ")), "the page shows {said}");
    assert!(dom.contains("class=\"status\">live<"), "the page is live");
    for label in ["A", "J", ">9<", ">1<"] {
        assert!(
            dom.contains(label),
            "the board has its coordinates ({label})"
        );
    }

    let shot = artefacts().join("game.png");
    let _ = std::fs::remove_file(&shot);
    headless(&url, 4000, &[&format!("--screenshot={}", shot.display())]);
    let size = std::fs::metadata(&shot).map(|m| m.len()).unwrap_or(0);
    assert!(
        size > 10_000,
        "a screenshot of the page at {}",
        shot.display()
    );
    eprintln!("the page's screenshot: {}", shot.display());
}

/// Opens the page's WebSocket on `port` by hand and sends `frame`, as a
/// browser never would; returns once the referee closed the socket.
fn hostile_socket(port: u16, frame: &[u8]) {
    use std::io::{Read, Write};
    let mut socket = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    socket
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    write!(
        socket,
        "GET /ws HTTP/1.1\r\nHost: goref\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    .unwrap();
    let mut answer = Vec::new();
    let mut byte = [0u8; 1];
    while !answer.ends_with(b"\r\n\r\n") {
        match socket.read(&mut byte) {
            Ok(1) => answer.push(byte[0]),
            outcome => panic!("the handshake's answer ended: {outcome:?} after {answer:?}"),
        }
    }
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 101"), "{answer}");
    socket.write_all(frame).expect("the frame is sent");
    let mut rest = Vec::new();
    let _ = socket.read_to_end(&mut rest);
}

/// A client frame: FIN, `opcode`, masked with a zero mask (so the payload
/// goes as it is), its length in the shortest form.
fn client_frame(opcode: u8, payload: &[u8]) -> Vec<u8> {
    let mut frame = vec![0x80 | opcode];
    match payload.len() {
        n if n < 126 => frame.push(0x80 | n as u8),
        n if n <= usize::from(u16::MAX) => {
            frame.push(0x80 | 126);
            frame.extend_from_slice(&(n as u16).to_be_bytes());
        }
        n => {
            frame.push(0x80 | 127);
            frame.extend_from_slice(&(n as u64).to_be_bytes());
        }
    }
    frame.extend_from_slice(&[0, 0, 0, 0]);
    frame.extend_from_slice(payload);
    frame
}

/// What the WebSocket protocol itself refuses (text that is not UTF-8, a
/// message past the wire's line limit) and a binary message are each a
/// refused spectator in the game's stream, as a `--serve` connection's
/// junk is; the game plays on to its result.
#[test]
fn what_is_not_a_text_message_is_refused_and_counted() {
    let root = tempfile::tempdir().unwrap();
    let folder = root.path().join("game");
    let port = free_port();
    let mut referee = common::spawn_goref([
        "play",
        "--headless",
        "--black",
        "bot:3,think=100ms",
        "--white",
        "bot:4,think=100ms",
        "--size",
        "9",
        "--game-dir",
        folder.to_str().unwrap(),
        "--web",
        &format!("127.0.0.1:{port}"),
    ]);
    common::wait_until(
        Duration::from_secs(20),
        || "the page to listen".into(),
        || std::net::TcpStream::connect(("127.0.0.1", port)).is_ok(),
    );
    hostile_socket(port, &client_frame(0x1, b"\xff\xfe not UTF-8"));
    hostile_socket(port, &client_frame(0x1, &vec![b'x'; 5000]));
    hostile_socket(port, &client_frame(0x2, b"\x00\x01\x02"));
    referee.wait().unwrap();
    let events = journal(&folder);
    let audience: Vec<_> = events
        .iter()
        .filter(|e| e["type"] == "spectators")
        .collect();
    let refused: u64 = audience.iter().filter_map(|e| e["refused"].as_u64()).sum();
    assert_eq!(refused, 3, "{audience:?}");
    assert!(events.iter().any(|e| e["type"] == "result"));
}

/// GNU Go against itself on 9x9 (seeded: the same game every run)
/// ends with both agreeing that a stone is dead; the page's final board
/// marks exactly the stones the score removed, and its clocks read as the
/// terminal's (`m:ss main`, rounded down).
#[test]
fn the_final_board_marks_the_stones_counted_dead() {
    let root = tempfile::tempdir().unwrap();
    let folder = root.path().join("game");
    let port = free_port();
    let gnugo = common::gnugo();
    let command = format!(
        "{} play --black 'gtp:{gnugo} --mode gtp --level 1 --seed 1' --white 'gtp:{gnugo} --mode gtp --level 0 --seed 1' \
         --size 9 --rules kgs --time absolute:10m --game-dir {} --web 127.0.0.1:{port}",
        goref().display(),
        folder.display()
    );
    let Some(host) = Tmux::start("web-dead", 100, 30, &command) else {
        return;
    };
    host.wait_for("the result", Duration::from_secs(120), |screen| {
        screen.contains("result ")
    });
    let result = journal(&folder)
        .into_iter()
        .find(|e| e["type"] == "result")
        .unwrap();
    let mut counted: Vec<String> = result["score"]["dead"]
        .as_array()
        .expect("a scored game")
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    assert!(
        !counted.is_empty(),
        "GNU Go's game has a dead stone: {result}"
    );
    let dom = dom(&format!("http://127.0.0.1:{port}/"));
    let board = dom
        .split_once("id=\"board\"")
        .and_then(|(_, rest)| rest.split_once("</svg>"))
        .map_or("", |(svg, _)| svg);
    let mut marked: Vec<String> = board
        .split("<circle class=\"stone dead\" data-vertex=\"")
        .skip(1)
        .map(|piece| piece.split('"').next().unwrap().to_string())
        .collect();
    counted.sort();
    marked.sort();
    assert_eq!(marked, counted, "the page marks the dead stones");
    assert!(board.contains("class=\"territory\""), "and the territory");
    let clock = reads_as_the_terminal_clocks(&dom);
    assert!(clock, "the clocks read m:ss main: {dom}");
    host.keys(&["q"]);
}

/// Whether the page's clocks read `m:ss main`, as the terminal's do.
fn reads_as_the_terminal_clocks(dom: &str) -> bool {
    dom.split("<span class=\"time\">").skip(1).all(|piece| {
        let text = piece.split('<').next().unwrap();
        let (time, phase) = text.split_once(' ').unwrap_or((text, ""));
        let (m, s) = time.split_once(':').unwrap_or(("", ""));
        phase == "main"
            && !m.is_empty()
            && m.chars().all(|c| c.is_ascii_digit())
            && s.len() == 2
            && s.chars().all(|c| c.is_ascii_digit())
    }) && dom.contains("<span class=\"time\">")
}

#[test]
fn the_page_marks_a_side_whose_seat_is_absent() {
    let root = tempfile::tempdir().unwrap();
    let port = free_port();
    let mut host = std::process::Command::new(goref())
        .current_dir(root.path())
        .args(["play", "--black", "seat:alpha", "--white", "bot:4"])
        .args([
            "--seats",
            "127.0.0.1:0",
            "--seat-keys",
            "keys",
            "--size",
            "9",
        ])
        .args(["--time", "absolute:10m", "--headless", "--game-dir", "game"])
        .args(["--web", &format!("127.0.0.1:{port}")])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let url = format!("http://127.0.0.1:{port}/");
    let marked = (1..=5)
        .map(|n| headless(&url, 3000 * n, &["--dump-dom"]))
        .map(|out| String::from_utf8_lossy(&out.stdout).into_owned())
        .find(|dom| dom.contains("class=\"absent\""));
    let _ = host.kill();
    let _ = host.wait();
    let dom = marked.expect("the page marks the absent seat");
    assert_eq!(
        dom.matches("class=\"absent\"").count(),
        1,
        "only Black's seat is absent"
    );
}

#[test]
fn the_page_draws_what_the_programs_think_and_their_disagreement() {
    let root = tempfile::tempdir().unwrap();
    let port = free_port();
    let moves = |columns: &str| -> String {
        (1..=9)
            .flat_map(|row| columns.chars().map(move |c| format!("{c}{row}")))
            .collect::<Vec<_>>()
            .join(",")
    };
    let black = format!(
        "{} --board --moves {} --analyze kata --winrate 0.7 --think-ms 150",
        common::fake_gtp().display(),
        moves("ABCD")
    );
    let white = format!(
        "{} --board --moves {} --analyze lz --winrate 0.6 --think-ms 150",
        common::fake_gtp().display(),
        moves("JHGF")
    );
    let mut host = std::process::Command::new(goref())
        .current_dir(root.path())
        .args(["play", "--size", "9", "--headless", "--game-dir", "game"])
        .args([
            "--black",
            &format!("gtp:{black}"),
            "--white",
            &format!("gtp:{white}"),
        ])
        .args(["--web", &format!("127.0.0.1:{port}")])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let url = format!("http://127.0.0.1:{port}/");
    let drawn = (1..=6)
        .map(|n| {
            std::thread::sleep(Duration::from_millis(500));
            headless(&url, 2000 * n, &["--dump-dom"])
        })
        .map(|out| String::from_utf8_lossy(&out.stdout).into_owned())
        .find(|dom| {
            dom.split("data-points=\"")
                .nth(1)
                .and_then(|rest| rest.split('"').next())
                .and_then(|n| n.parse::<u32>().ok())
                .is_some_and(|n| n >= 4)
        });
    let _ = host.kill();
    let _ = host.wait();
    let dom = drawn.expect("the page draws the winrate graph");
    assert!(dom.contains("<span class=\"winrate\">70%</span>"), "{dom}");
    assert!(dom.contains("<span class=\"winrate\">60%</span>"), "{dom}");
    assert!(
        dom.contains("each thinks it wins"),
        "the disagreement is said"
    );
    assert!(
        dom.contains("class=\"disagree\""),
        "and marked by the clocks"
    );
}
