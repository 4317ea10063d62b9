//! The page for browsers (`--web`) in a real headless Chromium, against the
//! real binary: the referee's full screen in tmux (which stays up after the
//! result), `--web` on loopback.
//!
//! The page's board after the game's last move is the host's position, with
//! its coordinates, and its result the host's; a screenshot of it is kept
//! as an artefact (`target/tmp/web/game.png`).

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use common::tmux::Tmux;
use common::{goref, journal};

fn chromium() -> &'static str {
    for name in ["chromium", "chromium-browser"] {
        if Command::new(name).arg("--version").output().is_ok() {
            return name;
        }
    }
    panic!("chromium is missing (tests/run.sh installs it)")
}

/// Chromium, headless, on `url`, given `wait_ms` of the page's own time.
fn headless(url: &str, wait_ms: u32, what: &[&str]) -> std::process::Output {
    Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--window-size=1200,900",
        ])
        .arg(format!("--virtual-time-budget={wait_ms}"))
        .args(what)
        .arg(url)
        .output()
        .expect("chromium runs")
}

/// The stones on the board the page draws: vertex to colour.
fn page_stones(dom: &str) -> BTreeMap<String, String> {
    let mut stones = BTreeMap::new();
    for piece in dom.split("data-vertex=\"").skip(1) {
        let vertex = piece.split('"').next().unwrap().to_string();
        let color = piece
            .split("data-color=\"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .unwrap()
            .to_string();
        stones.insert(vertex, color);
    }
    stones
}

/// The position after the journal's last move: each move's stone placed
/// and its captures taken off.
fn host_stones(folder: &Path) -> BTreeMap<String, String> {
    let mut stones = BTreeMap::new();
    for event in journal(folder).into_iter().filter(|e| e["type"] == "move") {
        let vertex = event["vertex"].as_str().unwrap().to_string();
        if !matches!(vertex.to_ascii_lowercase().as_str(), "pass" | "resign") {
            stones.insert(vertex, event["color"].as_str().unwrap().to_string());
        }
        for captured in event["captures"].as_array().unwrap() {
            stones.remove(captured.as_str().unwrap());
        }
    }
    stones
}

fn artefacts() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("web");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn the_page_shows_the_hosts_position_and_result_after_the_last_move() {
    let root = tempfile::tempdir().unwrap();
    let folder = root.path().join("game");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let command = format!(
        "{} play --black bot:3,think=20ms --white bot:4,think=20ms --size 9 --game-dir {} \
         --web 127.0.0.1:{port}",
        goref().display(),
        folder.display()
    );
    let Some(host) = Tmux::start("web-page", 100, 30, &command) else {
        return;
    };
    host.wait_for("the result", Duration::from_secs(120), |screen| {
        screen.contains("result ")
    });
    let url = format!("http://127.0.0.1:{port}/");
    let dom = headless(&url, 4000, &["--dump-dom"]);
    let dom = String::from_utf8_lossy(&dom.stdout);
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
