//! The page's budgets (DESIGN.md §6): its first paint of a 19x19 board, and
//! its memory while it is left open on a stream of games.
//!
//! The real binary plays 19x19 games of the built-in engines with `--web`
//! on loopback, one after another on the same port, for as long as asked;
//! a real headless Chromium is driven through its DevTools protocol, in
//! real time (no virtual time).
//!
//! - **First paint**: the page is opened afresh `PAINTS` times while a game
//!   is under way; each time, the page's own `data-first-board-ms` (when it
//!   first drew a board, from the navigation's start) and the browser's
//!   first contentful paint.
//! - **Memory**: the page then stays open through every game until
//!   `MINUTES` have passed (it reconnects to each new game by itself). Every
//!   `SAMPLE_S` seconds, after a garbage collection, its JS heap in use, its
//!   DOM nodes and its event listeners.
//!
//! ```text
//! cargo build --release --examples && \
//! target/release/examples/page_budget [MINUTES] [THINK_MS] [PAINTS]
//! ```

mod support;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

const SAMPLE_S: u64 = 10;

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// One tab of the browser, driven through its DevTools session.
struct Tab {
    socket: Socket,
    session: String,
    next_id: u64,
}

impl Tab {
    async fn open(browser_ws: &str) -> Tab {
        let (socket, _) = tokio_tungstenite::connect_async(browser_ws)
            .await
            .expect("the browser's DevTools socket");
        let mut tab = Tab {
            socket,
            session: String::new(),
            next_id: 0,
        };
        let target = tab
            .call("Target.createTarget", json!({ "url": "about:blank" }))
            .await;
        let attached = tab
            .call(
                "Target.attachToTarget",
                json!({ "targetId": target["targetId"], "flatten": true }),
            )
            .await;
        tab.session = attached["sessionId"].as_str().unwrap().to_string();
        for domain in ["Page.enable", "Performance.enable", "Runtime.enable"] {
            tab.call(domain, json!({})).await;
        }
        tab
    }

    /// Calls `method` (on the tab once attached) and waits for its answer.
    async fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut call = json!({ "id": id, "method": method, "params": params });
        if !self.session.is_empty() {
            call["sessionId"] = json!(self.session);
        }
        self.socket
            .send(Message::text(call.to_string()))
            .await
            .expect("DevTools takes a call");
        while let Some(message) = self.socket.next().await {
            let Ok(Message::Text(text)) = message else {
                continue;
            };
            let answer: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
            if answer["id"] == id {
                if !answer["error"].is_null() {
                    panic!("{method}: {}", answer["error"]);
                }
                return answer["result"].clone();
            }
        }
        panic!("the browser went away during {method}");
    }

    /// The value of a script in the page.
    async fn eval(&mut self, expression: &str) -> Value {
        let result = self
            .call(
                "Runtime.evaluate",
                json!({ "expression": expression, "returnByValue": true }),
            )
            .await;
        result["result"]["value"].clone()
    }

    async fn metrics(&mut self) -> (f64, f64, f64) {
        self.call("HeapProfiler.collectGarbage", json!({})).await;
        let metrics = self.call("Performance.getMetrics", json!({})).await;
        let of = |name: &str| {
            metrics["metrics"]
                .as_array()
                .and_then(|all| all.iter().find(|m| m["name"] == name))
                .and_then(|m| m["value"].as_f64())
                .unwrap_or(f64::NAN)
        };
        (
            of("JSHeapUsedSize") / 1e6,
            of("Nodes"),
            of("JSEventListeners"),
        )
    }
}

/// Games one after another on `port` until told to stop.
fn play_on(port: u16, think_ms: u64, stop: Instant) -> std::thread::JoinHandle<u32> {
    let goref = support::goref_beside().unwrap_or_else(|e| panic!("{e}"));
    std::thread::spawn(move || {
        let folder = tempfile::tempdir().unwrap();
        let mut games = 0;
        while Instant::now() < stop {
            games += 1;
            let status = Command::new(&goref)
                .args(["play", "--headless", "--size", "19", "--time", "none"])
                .args(["--black", &format!("bot:{games},think={think_ms}ms")])
                .args([
                    "--white",
                    &format!("bot:{},think={think_ms}ms", games + 1000),
                ])
                .arg("--game-dir")
                .arg(folder.path().join(format!("game-{games}")))
                .args(["--web", &format!("127.0.0.1:{port}")])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .expect("goref runs");
            assert!(status.success(), "game {games} ended with {status}");
        }
        games
    })
}

/// Headless Chromium with its DevTools on a free port: the process and
/// the browser's socket.
fn chromium(profile: &std::path::Path) -> (Child, String) {
    let binary = ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|name| {
            Command::new(name)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
        .expect("chromium is missing (tests/run.sh installs it)");
    let mut child = Command::new(binary)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--window-size=1200,900",
            "--remote-debugging-port=0",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("about:blank")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("chromium starts");
    let mut stderr = BufReader::new(child.stderr.take().unwrap()).lines();
    let address = stderr
        .by_ref()
        .map_while(Result::ok)
        .find_map(|line| line.find("ws://").map(|at| line[at..].trim().to_string()));
    std::thread::spawn(move || stderr.for_each(drop));
    match address {
        Some(address) => (child, address),
        None => {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium said nowhere where its DevTools listen");
        }
    }
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, default: u64| {
        args.get(i)
            .map_or(default, |a| a.parse().expect("a whole number"))
    };
    let (minutes, think_ms, paints) = (number(0, 10), number(1, 100), number(2, 10));
    let port = {
        let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        free.local_addr().unwrap().port()
    };
    let start = Instant::now();
    let stop = start + Duration::from_secs(minutes * 60);
    let games = play_on(port, think_ms, stop);
    let profile = tempfile::tempdir().unwrap();
    let (mut browser, address) = chromium(profile.path());
    let mut tab = Tab::open(&address).await;
    let url = format!("http://127.0.0.1:{port}/");

    let drawn = "document.body && document.body.dataset.firstBoardMs";
    let mut boards = Vec::new();
    let mut contentful = Vec::new();
    for _ in 0..paints {
        tab.call("Page.navigate", json!({ "url": url })).await;
        let waited = Instant::now();
        let board = loop {
            if let Some(ms) = tab.eval(drawn).await.as_str().and_then(|v| v.parse().ok()) {
                break ms;
            }
            assert!(
                waited.elapsed() < Duration::from_secs(30),
                "the page drew no board"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        let fcp = tab
            .eval("performance.getEntriesByName('first-contentful-paint')[0]?.startTime")
            .await
            .as_f64()
            .unwrap_or(f64::NAN);
        boards.push(board);
        contentful.push(fcp);
    }
    println!(
        "first paint of a 19x19 board, {paints} fresh loads: the board drawn at {} ms \
         (median {:.0}, max {:.0}); first contentful paint median {:.0} ms",
        boards
            .iter()
            .map(|ms| format!("{ms:.0}"))
            .collect::<Vec<_>>()
            .join(", "),
        median(&mut boards.clone()),
        boards.iter().copied().fold(0.0, f64::max),
        median(&mut contentful),
    );

    let mut samples = Vec::new();
    while Instant::now() < stop {
        let (heap_mb, nodes, listeners) = tab.metrics().await;
        let status = tab
            .eval("document.getElementById('status').textContent")
            .await;
        let minute = start.elapsed().as_secs_f64() / 60.0;
        println!(
            "{minute:5.1} min: heap {heap_mb:6.2} MB, {nodes:5} nodes, {listeners:4} listeners ({})",
            status.as_str().unwrap_or("?")
        );
        samples.push(heap_mb);
        tokio::time::sleep(Duration::from_secs(SAMPLE_S)).await;
    }
    let played = games.join().unwrap();
    let _ = browser.kill();
    let _ = browser.wait();
    let settled = &samples[samples.len().min(3)..];
    let first = settled.first().copied().unwrap_or(f64::NAN);
    let last = settled.last().copied().unwrap_or(f64::NAN);
    let top = settled.iter().copied().fold(0.0, f64::max);
    println!(
        "memory over {minutes} min and {played} games: heap after GC {first:.2} MB after \
         30 s, {last:.2} MB at the end, at most {top:.2} MB"
    );
}
