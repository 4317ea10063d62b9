//! A real headless Chromium on goref's page (`--web`): the page's DOM and
//! screenshots, and the positions to compare them with.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::journal;

pub(crate) fn chromium() -> &'static str {
    for name in ["chromium", "chromium-browser"] {
        if Command::new(name).arg("--version").output().is_ok() {
            return name;
        }
    }
    panic!("chromium is missing (tests/run.sh installs it)")
}

/// Chromium, headless, on `url`, given `wait_ms` of the page's own time.
pub(crate) fn headless(url: &str, wait_ms: u32, what: &[&str]) -> std::process::Output {
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

/// The stones on the game's board the page draws (not the hall's tiles,
/// which stay in the page, hidden, once a board is opened): vertex to
/// colour.
pub(crate) fn page_stones(dom: &str) -> BTreeMap<String, String> {
    let board = dom
        .split_once("id=\"board\"")
        .and_then(|(_, rest)| rest.split_once("</svg>"))
        .map_or("", |(svg, _)| svg);
    let mut stones = BTreeMap::new();
    for piece in board.split("data-vertex=\"").skip(1) {
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
pub(crate) fn host_stones(folder: &Path) -> BTreeMap<String, String> {
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

pub(crate) fn artefacts() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("web");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The page at `url` once it is live and has drawn a board. Chromium's
/// virtual time may run out before the page's WebSocket has answered, so
/// the page is loaded again, with more time each try, until it has.
pub(crate) fn dom(url: &str) -> String {
    let mut page = String::new();
    for wait_ms in [2000, 4000, 6000, 8000, 10000, 15000, 20000, 30000] {
        page =
            String::from_utf8_lossy(&headless(url, wait_ms, &["--dump-dom"]).stdout).into_owned();
        if page.contains("class=\"status\">live<") && page.contains("data-first-board-ms") {
            return page;
        }
    }
    page
}
