//! The page for browsers (`--web`) in a real headless Chromium, against the
//! real binary: the referee's full screen in tmux (which stays up after the
//! result), `--web` on loopback.
//!
//! The page's board after the game's last move is the host's position, with
//! its coordinates, and its result the host's; a screenshot of it is kept
//! as an artefact (`target/tmp/web/game.png`). The referee asks for a
//! token: a page opened without it is told how to give it.

mod common;

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
