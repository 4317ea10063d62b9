//! Spectators over real loopback TCP against the real binary: `goref play
//! --serve` as the referee, `goref --watch` (or the library's spectator) as
//! the spectators.
//!
//! A late spectator ends with the host's view and draws the host's screen;
//! one whose connection is cut twice prints every event exactly once;
//! hostile peers (a reader that never reads, garbage, an 8 MB line, a
//! thousand connects, a wrong token, another protocol version) change no
//! move of the game and leave the referee's memory bounded; a spectator
//! without the token is told the game needs one; a spectator that comes
//! before the referee waits for it, headless or on its screen; mistakes on
//! the command line are one-line messages.

use crate::common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use common::tmux::Tmux;
use common::{goref, wait_until};
use goref::mirror::client::Spectator;
use goref::mirror::follow::{Follow, FollowEvent, Target};
use goref::ui::{Role, Theme, UiState};
use goref_core::referee::{GameView, StampedEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use serde_json::Value;

/// A bot game of about ten seconds, the same moves every time.
const LONG_GAME: &[&str] = &[
    "play",
    "--black",
    "bot:3,think=70ms",
    "--white",
    "bot:4,think=70ms",
    "--size",
    "9",
    "--headless",
    "--json",
];

/// A bot game of about four seconds, the same moves every time.
const GAME: &[&str] = &[
    "play",
    "--black",
    "bot:3,think=30ms",
    "--white",
    "bot:4,think=30ms",
    "--size",
    "9",
    "--headless",
    "--json",
];

/// A referee run by the test: its stdout lines and stderr kept as they come.
struct Host {
    child: Child,
    port: u16,
    stdout: JoinHandle<Vec<String>>,
    stderr: Arc<Mutex<String>>,
    started: Instant,
}

impl Host {
    /// `goref` with `args`, serving on a free port when `serve`.
    fn start(args: &[&str], serve: &[&str]) -> Host {
        let mut child = Command::new(goref())
            .args(args)
            .args(serve)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("goref starts");
        let started = Instant::now();
        let out = BufReader::new(child.stdout.take().unwrap());
        let stdout = std::thread::spawn(move || out.lines().map_while(Result::ok).collect());
        let stderr = Arc::new(Mutex::new(String::new()));
        let (port_tx, port_rx) = std::sync::mpsc::channel();
        let err = BufReader::new(child.stderr.take().unwrap());
        let kept = stderr.clone();
        std::thread::spawn(move || {
            for line in err.lines().map_while(Result::ok) {
                if let Some(port) = line
                    .strip_prefix("goref: serving spectators on 127.0.0.1:")
                    .and_then(|rest| rest.split(':').next())
                {
                    let _ = port_tx.send(port.parse::<u16>().unwrap());
                }
                kept.lock().unwrap().push_str(&(line + "\n"));
            }
        });
        let port = match serve.is_empty() {
            true => 0,
            false => port_rx
                .recv_timeout(Duration::from_secs(10))
                .unwrap_or_else(|_| panic!("no serve line: {}", stderr.lock().unwrap())),
        };
        Host {
            child,
            port,
            stdout,
            stderr,
            started,
        }
    }

    fn address(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// Waits for the end; the stdout lines and how long the run took.
    fn finish(mut self) -> (Vec<String>, Duration, String) {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(
                    status.success(),
                    "{status}: {}",
                    self.stderr.lock().unwrap()
                );
                break;
            }
            assert!(Instant::now() < deadline, "the game did not end");
            std::thread::sleep(Duration::from_millis(20));
        }
        let took = self.started.elapsed();
        let lines = self.stdout.join().unwrap();
        let stderr = self.stderr.lock().unwrap().clone();
        (lines, took, stderr)
    }

    /// The referee's resident memory now, in KiB.
    fn rss_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches(" kB").trim().parse().ok())
    }
}

/// The view the host's screen folds from its stream.
fn fold(lines: &[String]) -> GameView {
    let mut view = GameView::new();
    for line in lines {
        if let Ok(stamped) = serde_json::from_str::<StampedEvent>(line) {
            view.apply_stamped(&stamped);
        }
    }
    view
}

fn moves(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["type"] == "move")
        .map(|v| format!("{} {}", v["color"], v["vertex"]))
        .collect()
}

fn drawn(view: &GameView, width: u16, height: u16) -> Buffer {
    let area = Rect::new(0, 0, width, height);
    let mut buffer = Buffer::empty(area);
    let state = UiState::new(Role::Spectator);
    goref::ui::render(area, &mut buffer, view, &state, &Theme::default());
    buffer
}

#[test]
fn a_late_spectator_folds_the_hosts_view_and_draws_the_same_screen() {
    let spectator = a_late_spectator_of(GAME);
    assert!(spectator.view.moves.len() > 50);
    assert!(spectator.view.analysis.iter().all(Option::is_none));
}

#[test]
fn a_late_spectator_sees_what_the_programs_think_as_the_host_does() {
    let fake = common::fake_gtp().display().to_string();
    let moves = "--moves C3,G7,C7,G3,E5,D4,F6,E3,D6,F4";
    let black = format!("gtp:{fake} --board {moves} --analyze kata --winrate 0.7 --think-ms 150");
    let white = format!("gtp:{fake} --board {moves} --analyze lz --winrate 0.6 --think-ms 150");
    let game = [
        "play",
        "--black",
        &black,
        "--white",
        &white,
        "--size",
        "9",
        "--headless",
        "--json",
    ];
    let spectator = a_late_spectator_of(&game);
    let view = &spectator.view;
    assert!(
        view.analysis.iter().all(Option::is_some),
        "{:?}",
        view.analysis
    );
    let analysed = view
        .moves
        .iter()
        .filter(|m| m.black_winrate.is_some())
        .count();
    assert!(
        analysed >= view.moves.len() / 2,
        "{analysed} of {}",
        view.moves.len()
    );
}

/// Plays `game` with a spectator that joins late: its view folds to the
/// host's, and draws the same screen at 80x24 and 160x48.
fn a_late_spectator_of(game: &[&str]) -> Spectator {
    let host = Host::start(game, &["--serve", "127.0.0.1:0"]);
    std::thread::sleep(Duration::from_millis(1500));
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let spectator = runtime.block_on(async {
        let spectator = Spectator::new(None, false, goref::shell_time::now());
        let mut follow = Follow::new(Target::Tcp(host.address()), spectator, true);
        let mut first_seq = None;
        loop {
            match tokio::time::timeout(Duration::from_secs(30), follow.next()).await {
                Ok(FollowEvent::Update(update)) if update.changed => {
                    first_seq.get_or_insert(follow.spectator.view.last_seq);
                }
                Ok(FollowEvent::Update(_) | FollowEvent::Link | FollowEvent::Dropped) => {}
                Ok(FollowEvent::Finished(_)) => break,
                Ok(FollowEvent::Failed(why)) => panic!("{why}"),
                Err(_) => panic!("the spectator heard nothing for 30s"),
            }
        }
        assert!(first_seq.unwrap() > 20, "joined late: {first_seq:?}");
        follow.spectator
    });
    let (lines, _, _) = host.finish();
    let host_view = fold(&lines);
    assert!(host_view.result.is_some() && host_view.moves.len() > 20);
    assert_eq!(spectator.view, host_view);
    assert_eq!(spectator.view.seq_gaps, 0);
    for (width, height) in [(80, 24), (160, 48)] {
        assert_eq!(
            drawn(&spectator.view, width, height),
            drawn(&host_view, width, height),
            "{width}x{height}"
        );
    }
    spectator
}

/// A TCP relay whose connections the test can cut.
struct Relay {
    port: u16,
    open: Arc<Mutex<Vec<TcpStream>>>,
    accepted: Arc<AtomicUsize>,
}

impl Relay {
    fn to(target: u16) -> Relay {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let open: Arc<Mutex<Vec<TcpStream>>> = Arc::default();
        let accepted: Arc<AtomicUsize> = Arc::default();
        let (kept, counted) = (open.clone(), accepted.clone());
        std::thread::spawn(move || {
            for client in listener.incoming().map_while(Result::ok) {
                let Ok(server) = TcpStream::connect(("127.0.0.1", target)) else {
                    continue;
                };
                for stream in [&client, &server] {
                    kept.lock().unwrap().push(stream.try_clone().unwrap());
                }
                counted.fetch_add(1, Ordering::SeqCst);
                for (mut from, mut to) in [
                    (client.try_clone().unwrap(), server.try_clone().unwrap()),
                    (server, client),
                ] {
                    std::thread::spawn(move || {
                        let _ = std::io::copy(&mut from, &mut to);
                        let _ = to.shutdown(Shutdown::Both);
                    });
                }
            }
        });
        Relay {
            port,
            open,
            accepted,
        }
    }

    /// Cuts the connections once the `n`th has come and had a moment to
    /// carry some of the game.
    fn cut_once_connected(&self, n: usize) {
        wait_until(
            Duration::from_secs(30),
            || format!("connection {n}"),
            || self.accepted.load(Ordering::SeqCst) >= n,
        );
        std::thread::sleep(Duration::from_millis(500));
        self.cut();
    }

    fn cut(&self) {
        for stream in self.open.lock().unwrap().drain(..) {
            let _ = stream.shutdown(Shutdown::Both);
        }
    }
}

#[test]
fn a_spectator_cut_off_twice_prints_every_event_exactly_once() {
    let host = Host::start(LONG_GAME, &["--serve", "127.0.0.1:0"]);
    let relay = Relay::to(host.port);
    let mut watcher = Command::new(goref())
        .args(["--watch", &format!("127.0.0.1:{}", relay.port)])
        .args(["--headless", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = watcher.stdout.take().unwrap();
    let printed = std::thread::spawn(move || {
        let mut text = String::new();
        out.read_to_string(&mut text).unwrap();
        text
    });
    for n in 1..=2 {
        relay.cut_once_connected(n);
    }
    let (lines, _, _) = host.finish();
    let status = watcher.wait().unwrap();
    let err = rest_of_stderr(&mut watcher);
    assert!(status.success(), "{status}: {err}");
    assert_eq!(err.matches("reconnecting…").count(), 2, "{err}");
    let printed: Vec<String> = printed.join().unwrap().lines().map(String::from).collect();
    assert_eq!(
        printed, lines,
        "the watcher prints the host's stream line for line"
    );
    assert!(moves(&printed).len() > 50);
}

/// A raw connection that says `hello` and reads what the referee answers.
fn raw_hello(port: u16, hello: &str) -> (TcpStream, String, Duration) {
    let started = Instant::now();
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream.write_all(hello.as_bytes()).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut answer = String::new();
    let _ = BufReader::new(stream.try_clone().unwrap()).read_line(&mut answer);
    (stream, answer, started.elapsed())
}

/// Reads everything until the referee closes; the last line.
fn last_line(stream: TcpStream) -> String {
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut last = String::new();
    for line in BufReader::new(stream).lines() {
        match line {
            Ok(line) => last = line,
            Err(_) => break,
        }
    }
    last
}

#[test]
fn hostile_spectators_change_no_move_and_leave_the_referees_memory_bounded() {
    let (calm, calm_took) = {
        let host = Host::start(LONG_GAME, &[]);
        let (lines, took, _) = host.finish();
        (lines, took)
    };
    let mut host = Host::start(LONG_GAME, &["--serve", "127.0.0.1:0", "--token", "t0k"]);
    let port = host.port;
    let storm = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let mut failed = Vec::new();
            for _ in 0..1000 {
                let socket = tokio::net::TcpSocket::new_v4().unwrap();
                socket.bind("127.0.0.2:0".parse().unwrap()).unwrap();
                let target = format!("127.0.0.1:{port}").parse().unwrap();
                if let Err(e) = socket.connect(target).await {
                    failed.push(e.to_string());
                }
            }
            failed
        })
    });
    let hello = r#"{"type":"hello","version":1,"token":"t0k"}"#.to_string() + "\n";

    let (never_reads, welcome, _) = raw_hello(port, &hello);
    assert!(welcome.contains(r#""type":"welcome""#), "{welcome}");

    let (_, told, _) = raw_hello(port, "garbage\n");
    assert!(
        told.contains("not a message of the mirror protocol"),
        "{told}"
    );

    let mut huge = TcpStream::connect(("127.0.0.1", port)).unwrap();
    let chunk = vec![b'x'; 1 << 20];
    let sent = (0..8)
        .take_while(|_| huge.write_all(&chunk).is_ok())
        .count();
    let told = last_line(huge);
    assert!(
        told.contains("a line longer than 4096 bytes") || sent < 8,
        "{sent} MB sent, then {told}"
    );

    let nope = r#"{"type":"hello","version":1,"token":"nope"}"#.to_string() + "\n";
    let (_, wrong, waited) = raw_hello(port, &nope);
    assert!(waited >= Duration::from_millis(900), "{waited:?}");
    assert!(
        wrong.contains("wrong token") && wrong.contains(r#""retry":false"#),
        "{wrong}"
    );

    let (_, version, _) = raw_hello(
        port,
        "{\"type\":\"hello\",\"version\":99,\"token\":\"t0k\"}\n",
    );
    assert!(
        version.contains("mirror protocol 1") && version.contains("the spectator 99"),
        "{version}"
    );

    let mut peak_kib = 0;
    while !storm.is_finished() {
        peak_kib = peak_kib.max(host.rss_kib().unwrap_or(0));
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        host.child.try_wait().unwrap().is_none(),
        "the storm outlasted the game"
    );
    assert_eq!(
        storm.join().unwrap(),
        Vec::<String>::new(),
        "every connect is taken"
    );
    while host.child.try_wait().ok().flatten().is_none() && host.started.elapsed().as_secs() < 60 {
        peak_kib = peak_kib.max(host.rss_kib().unwrap_or(0));
        std::thread::sleep(Duration::from_millis(50));
    }
    let (lines, took, _) = host.finish();
    drop(never_reads);

    eprintln!("attacked: {took:?}, peak RSS {peak_kib} KiB; calm: {calm_took:?}");
    assert_eq!(moves(&lines), moves(&calm), "the same game, move for move");
    let result = |lines: &[String]| fold(lines).result.map(|r| r.result);
    assert_eq!(result(&lines), result(&calm));
    assert!(
        took < calm_took * 2 + Duration::from_secs(5),
        "{took:?} against {calm_took:?} without spectators"
    );
    assert!(peak_kib < 40 * 1024, "peak RSS {peak_kib} KiB");
    let audience: Vec<Value> = lines
        .iter()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["type"] == "spectators")
        .collect();
    let refused: u64 = audience.iter().filter_map(|v| v["refused"].as_u64()).sum();
    assert!(refused >= 900, "{refused} refused: {audience:?}");
    assert!(
        audience.iter().all(|v| v["count"].as_u64() <= Some(1)),
        "only the reader that never reads ever watched: {audience:?}"
    );
    assert!(audience.len() < 30, "coalesced: {} events", audience.len());
}

#[test]
fn command_line_mistakes_are_one_line_messages() {
    let run = |args: &[&str]| {
        let out = Command::new(goref()).args(args).output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, err) = run(&["--watch", "venue-host", "--headless"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("give the referee's HOST:PORT"), "{err}");

    let taken = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = taken.local_addr().unwrap().to_string();
    let (code, err) = run(&[
        "play",
        "--black",
        "bot",
        "--white",
        "bot",
        "--headless",
        "--serve",
        &address,
    ]);
    assert_eq!(code, Some(2));
    assert!(err.contains("cannot listen there"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");

    let (code, err) = run(&["play", "--black", "bot", "--white", "bot", "--token", "t"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--token guards --serve and --web"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// A referee with a token: a spectator that gives none is told that this
/// game needs one and where to give it, at once; one that gives the wrong
/// one is told so after the second's wait. Neither is asked to try again.
#[test]
fn a_spectator_without_the_token_is_told_the_game_needs_one() {
    let host = Host::start(GAME, &["--serve", "127.0.0.1:0", "--token", "right"]);
    let watch = |token: &[&str]| {
        let started = Instant::now();
        let out = Command::new(goref())
            .args(["--watch", &host.address(), "--headless", "--json"])
            .args(token)
            .env_remove("GOREF_TOKEN")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        (out.status.code(), err, started.elapsed())
    };

    let (code, err, _) = watch(&[]);
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(
        err.trim_end(),
        "goref: the referee refused: this game needs a token (give it with --token or \
         GOREF_TOKEN)"
    );

    let (code, err, waited) = watch(&["--token", "wrong"]);
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(err.trim_end(), "goref: the referee refused: wrong token");
    assert!(waited >= Duration::from_millis(900), "{waited:?}");

    let (_, told, _) = raw_hello(host.port, "{\"type\":\"hello\",\"version\":1}\n");
    assert!(
        told.contains("this game needs a token") && told.contains(r#""retry":false"#),
        "{told}"
    );
    host.finish();
}

/// A spectator started on a free port: headless, with its output read as it
/// comes.
struct EarlyWatcher {
    child: Child,
    stdout: JoinHandle<String>,
    stderr: Arc<Mutex<String>>,
}

impl EarlyWatcher {
    fn start(address: &str) -> EarlyWatcher {
        let mut child = Command::new(goref())
            .args(["--watch", address, "--headless", "--json"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut out = child.stdout.take().unwrap();
        let stdout = std::thread::spawn(move || {
            let mut text = String::new();
            out.read_to_string(&mut text).unwrap();
            text
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let kept = stderr.clone();
        let err = BufReader::new(child.stderr.take().unwrap());
        std::thread::spawn(move || {
            for line in err.lines().map_while(Result::ok) {
                kept.lock().unwrap().push_str(&(line + "\n"));
            }
        });
        EarlyWatcher {
            child,
            stdout,
            stderr,
        }
    }

    fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }
}

/// A port on loopback with nothing listening on it.
fn free_address() -> String {
    let free = TcpListener::bind("127.0.0.1:0").unwrap();
    free.local_addr().unwrap().to_string()
}

/// Spectators arrive before the game, and the referee is started again
/// between games: a spectator with no referee at its address waits for one,
/// saying so once on stderr, and follows the game of the referee that comes,
/// printing its whole stream. A host name that does not resolve is still a
/// one-line message at once.
#[test]
fn a_spectator_that_comes_before_the_referee_waits_for_it() {
    let address = free_address();
    let mut watcher = EarlyWatcher::start(&address);
    let waiting = format!("goref: waiting for the referee at {address}");
    let told = watcher.stderr.clone();
    wait_until(
        Duration::from_secs(10),
        || format!("the waiting line; stderr: {}", told.lock().unwrap()),
        || {
            let gone = watcher.child.try_wait().unwrap();
            assert!(gone.is_none(), "{gone:?}: {}", watcher.stderr());
            watcher.stderr().contains(&waiting)
        },
    );
    std::thread::sleep(Duration::from_millis(1500));
    assert!(watcher.child.try_wait().unwrap().is_none(), "still waiting");

    let host = Host::start(LONG_GAME, &["--serve", &address]);
    let (lines, _, _) = host.finish();
    let status = watcher.child.wait().unwrap();
    let err = watcher.stderr();
    assert!(status.success(), "{status}: {err}");
    assert_eq!(err.matches("waiting for the referee").count(), 1, "{err}");
    let printed: Vec<String> = watcher
        .stdout
        .join()
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(printed, lines, "the whole stream, line for line");

    let started = Instant::now();
    let out = Command::new(goref())
        .args(["--watch", "nonexistent.invalid:7000", "--headless"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with("goref: cannot connect to nonexistent.invalid:7000: ")
            && err.lines().count() == 1,
        "{err}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
}

/// The spectator's screen is up while it waits for the referee, says so on
/// its status line within 80 columns, and `q` (or ctrl-c) quits it with
/// status 0 and the terminal given back.
#[test]
fn a_spectators_screen_waits_for_the_referee_and_quits_on_q() {
    for (name, key) in [("goref-wait-q", "q"), ("goref-wait-c", "C-c")] {
        let address = free_address();
        let command = format!("'{}' --watch {address}", goref().display());
        let Some(tmux) = Tmux::start(name, 80, 24, &command) else {
            return;
        };
        let screen = tmux.wait_for("the waiting status", Duration::from_secs(10), |s| {
            s.lines().next().is_some_and(|status| {
                status.contains(&format!("waiting for the referee at {address}"))
            })
        });
        assert!(!screen.contains("EXIT="), "{screen}");
        tmux.keys(&[key]);
        tmux.wait_for("the spectator gone", Duration::from_secs(10), |s| {
            s.contains("EXIT=0") && s.contains("icanon") && !s.contains("-icanon")
        });
    }
}

#[test]
fn a_headless_watcher_whose_output_closes_says_so_and_ends_with_status_3() {
    let host = Host::start(GAME, &["--serve", "127.0.0.1:0"]);
    let mut watcher = Command::new(goref())
        .args(["--watch", &host.address(), "--headless", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(watcher.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with(r#"{"type":"stream""#), "{first}");
    let status = watcher.wait().unwrap();
    let err = rest_of_stderr(&mut watcher);
    assert_eq!(status.code(), Some(3), "{err}");
    assert!(
        err.contains("the output could not take every line"),
        "{err}"
    );
    host.finish();
}

/// What a finished child wrote on its stderr.
fn rest_of_stderr(child: &mut Child) -> String {
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    err
}
