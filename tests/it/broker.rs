//! The stream through a real NATS JetStream broker (`nats-server -js` on
//! loopback): `goref play --publish` and `goref event --publish` as the
//! referees, `goref --watch nats://…` as the watchers, beside `--serve`
//! spectators of the same game.
//!
//! A watcher of a game prints exactly the referee's `--json` lines, though
//! the broker is killed and started again mid-game; a late one prints them
//! too, from the stream's start, or starts from the last snapshot and ends
//! with the result. A 4-board event watched at once through the broker,
//! through `--serve` and in a browser (`--web`, a real headless Chromium)
//! gives every board's moves, result and position as its journal has them,
//! and a watcher of one board prints that board's events.

use crate::common;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use common::browser::{artefacts, dom, headless, host_stones, page_stones};
use common::nats::Broker;
use common::tmux::Tmux;
use common::{free_port, goref, journal};
use serde_json::Value;

/// A goref run by the test, its stdout lines gathered as they come.
struct Run {
    child: Child,
    lines: JoinHandle<Vec<String>>,
    stderr: JoinHandle<String>,
}

impl Run {
    fn start(args: &[&str]) -> Run {
        let mut child = Command::new(goref())
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let mut stderr = child.stderr.take().unwrap();
        Run {
            child,
            lines: std::thread::spawn(move || {
                BufReader::new(stdout)
                    .lines()
                    .map_while(Result::ok)
                    .collect()
            }),
            stderr: std::thread::spawn(move || {
                let mut text = String::new();
                let _ = std::io::Read::read_to_string(&mut stderr, &mut text);
                text
            }),
        }
    }

    /// Waits for it to end, `limit` at most; its lines and stderr.
    fn finish(mut self, limit: Duration) -> (Vec<String>, String) {
        let started = Instant::now();
        while self.child.try_wait().unwrap().is_none() {
            if started.elapsed() > limit {
                let _ = self.child.kill();
                let _ = self.child.wait();
                let stderr = self.stderr.join().unwrap();
                panic!("still running after {limit:?}; stderr: {stderr}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        (self.lines.join().unwrap(), self.stderr.join().unwrap())
    }
}

/// A bot game of about eight seconds, the same moves every time.
fn game(broker: &Broker, name: &str, serve: &str) -> Vec<String> {
    [
        "play",
        "--black",
        "bot:3,think=60ms",
        "--white",
        "bot:4,think=60ms",
        "--size",
        "9",
        "--time",
        "absolute:5m",
        "--headless",
        "--json",
        "--serve",
        serve,
        "--publish",
        &broker.url(name),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

fn run(args: &[String]) -> Run {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    Run::start(&args)
}

#[test]
fn a_game_through_the_broker_reaches_every_watcher_though_the_broker_restarts() {
    let mut broker = Broker::start();
    let serve = format!("127.0.0.1:{}", free_port());
    let watch_args = ["--watch", &broker.url("final"), "--headless", "--json"];
    let early = Run::start(&watch_args);
    let host = run(&game(&broker, "final", &serve));
    std::thread::sleep(Duration::from_millis(1500));
    let spectator = Run::start(&["--watch", &serve, "--headless", "--json"]);
    std::thread::sleep(Duration::from_millis(1500));
    broker.kill();
    std::thread::sleep(Duration::from_secs(2));
    broker.up();
    let (host_lines, host_err) = host.finish(Duration::from_secs(120));
    assert!(
        host_err.contains(&format!("goref --watch {}", broker.url("final"))),
        "the referee says where to watch: {host_err}"
    );
    let notices: Vec<&String> = host_lines
        .iter()
        .filter(|l| l.contains(r#""type":"notice""#) && l.contains("publishing to"))
        .collect();
    assert!(
        notices.iter().any(|l| l.contains("stopped"))
            && notices.iter().any(|l| l.contains("caught up")),
        "the stream says when publishing stopped and caught up: {notices:?}"
    );
    let start = host_lines
        .iter()
        .find(|l| l.contains(r#""type":"game_start""#))
        .unwrap();
    assert!(start.contains(&format!(r#""published":"{}""#, broker.url("final"))));

    let (early_lines, early_err) = early.finish(Duration::from_secs(30));
    assert_eq!(early_lines.len(), host_lines.len(), "{early_err}");
    assert!(
        early_lines == host_lines,
        "the watcher through the broker printed the referee's lines"
    );
    let (served_lines, _) = spectator.finish(Duration::from_secs(30));
    assert!(
        served_lines.last() == host_lines.last(),
        "the --serve spectator ends as the referee"
    );

    let late = Run::start(&watch_args);
    let (late_lines, _) = late.finish(Duration::from_secs(30));
    assert!(
        late_lines == host_lines,
        "a late --json watcher gets the stream from its start"
    );

    let progress = Run::start(&["--watch", &broker.url("final"), "--headless"]);
    let (_, progress_err) = progress.finish(Duration::from_secs(30));
    let result: Value = serde_json::from_str(
        host_lines
            .iter()
            .find(|l| l.contains(r#""type":"result""#))
            .unwrap(),
    )
    .unwrap();
    let said = result["result"].as_str().unwrap();
    assert!(
        progress_err.contains(said),
        "a late watcher ends with {said}: {progress_err}"
    );
}

/// A one-round Swiss of eight built-in engines: four boards.
fn event_folder(root: &Path) -> PathBuf {
    let dir = root.join("cup");
    std::fs::create_dir_all(&dir).unwrap();
    let mut text = "name = \"broker cup\"\nsystem = \"swiss\"\nrounds = 1\n\n[publish]\n\
                    snapshot_every = 50\n\n[game]\nrules = \"kgs\"\nsize = 9\n\
                    time = \"absolute:10m\"\n"
        .to_string();
    for n in 1..=8 {
        text.push_str(&format!(
            "[[entrant]]\nname = \"bot{n}\"\nplayer = \"gtp:{} bot --seed {n} --think-ms 40\"\n",
            goref().display()
        ));
    }
    std::fs::write(dir.join("event.toml"), text).unwrap();
    dir
}

fn moves_of(lines: &[String], board: Option<u32>) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|e| e["type"] == "move")
        .filter(|e| board.is_none_or(|b| e["board"] == b))
        .map(|e| format!("{}{}", e["color"], e["vertex"]))
        .collect()
}

/// A 4-board event on the director's hall (which stays up after the
/// event), watched at once through the broker, through `--serve` and in a
/// browser: every board ends with its journal's moves and result
/// everywhere, and the page's board is its position.
#[test]
fn an_event_through_the_broker_serve_and_a_browser_gives_every_board_as_its_journal() {
    let broker = Broker::start();
    let root = tempfile::tempdir().unwrap();
    let dir = event_folder(root.path());
    let serve = format!("127.0.0.1:{}", free_port());
    let web = format!("127.0.0.1:{}", free_port());
    let hall_url = broker.url("broker_cup");
    let through_broker = Run::start(&["--watch", &hall_url, "--headless", "--json"]);
    let board_one = Run::start(&["--watch", &format!("{hall_url}/1"), "--headless", "--json"]);
    let mut served = Run::start(&["--watch", &serve, "--headless", "--json"]);
    let publish = broker.url("");
    let command = format!(
        "{} event {} --yes --serve {serve} --web {web} --publish {}",
        goref().display(),
        dir.display(),
        publish.trim_end_matches('/')
    );
    let Some(hall) = Tmux::start("broker-hall", 100, 30, &command) else {
        return;
    };
    hall.wait_for("the event's end", Duration::from_secs(240), |screen| {
        screen.contains("is over")
    });
    let (hall_lines, _) = through_broker.finish(Duration::from_secs(30));
    let (board_lines, _) = board_one.finish(Duration::from_secs(30));
    std::thread::sleep(Duration::from_secs(2));
    let _ = served.child.kill();
    let (served_lines, _) = served.finish(Duration::from_secs(10));
    assert!(hall_lines
        .iter()
        .any(|l| l.starts_with(r#"{"type":"hall","picture":"#)));
    for board in 1..=4u32 {
        let folder = dir.join(format!("round-1/board-{board}"));
        let recorded = journal(&folder);
        let recorded_moves: Vec<String> = recorded
            .iter()
            .filter(|e| e["type"] == "move")
            .map(|e| format!("{}{}", e["color"], e["vertex"]))
            .collect();
        let result = recorded.iter().find(|e| e["type"] == "result").unwrap();
        for (how, lines) in [("the broker", &hall_lines), ("--serve", &served_lines)] {
            let tag = format!("{{\"board\":{board},");
            let streamed = lines
                .iter()
                .rfind(|l| l.starts_with(&tag) && l.contains(r#""type":"result""#))
                .unwrap_or_else(|| panic!("no result of board {board} through {how}"));
            let streamed: Value = serde_json::from_str(streamed).unwrap();
            assert_eq!(
                streamed["result"], result["result"],
                "board {board} through {how}"
            );
            let moves = moves_of(lines, Some(board));
            assert!(
                recorded_moves.ends_with(&moves) && !moves.is_empty(),
                "board {board}'s moves through {how}"
            );
        }
        let page = dom(&format!("http://{web}/?board={board}"));
        assert_eq!(
            page_stones(&page),
            host_stones(&folder),
            "board {board}'s position in the browser"
        );
        let said = result["result"].as_str().unwrap();
        assert!(
            page.contains(&format!(">{said}: ")),
            "board {board}'s result in the browser"
        );
        if board == 1 {
            let events: Vec<Value> = board_lines
                .iter()
                .filter_map(|l| serde_json::from_str::<Value>(l).ok())
                .filter(|e| e.get("seq").is_some())
                .collect();
            let first = events[0]["seq"].as_u64().unwrap();
            let journaled: Vec<&Value> = recorded
                .iter()
                .filter(|e| e["seq"].as_u64().is_some_and(|s| s >= first))
                .collect();
            assert_eq!(events.len(), journaled.len(), "board 1's watcher");
            assert!(
                events.iter().zip(journaled).all(|(a, b)| a == b),
                "board 1's watcher prints its journal's events"
            );
        }
    }
    let hall_page = (1..=6)
        .map(|n| headless(&format!("http://{web}/"), 2000 * n, &["--dump-dom"]))
        .map(|out| String::from_utf8_lossy(&out.stdout).into_owned())
        .find(|page| {
            page.matches("class=\"tile\"").count() == 4
                && page.contains("<th>SOS</th>")
                && page.matches("<span class=\"clock").count() == 8
        })
        .expect("the hall's page with its four tiles, each with both clocks, and the standings");
    assert!(
        hall_page.contains("<th>SOS</th><th>SODOS</th>"),
        "the page heads the tie-breaks as the terminal does"
    );
    assert!(
        hall_page.contains("<td class=\"rank\">1=</td>")
            && hall_page.contains("<td class=\"rank\">5=</td>"),
        "four winners share the first place, and four losers the fifth"
    );
    let shot = artefacts().join("hall.png");
    let _ = std::fs::remove_file(&shot);
    headless(
        &format!("http://{web}/"),
        4000,
        &[&format!("--screenshot={}", shot.display())],
    );
    assert!(
        std::fs::metadata(&shot).is_ok_and(|m| m.len() > 10_000),
        "{}",
        shot.display()
    );
    hall.keys(&["q"]);
}
