//! A match played by `goref worker`s through a real NATS JetStream broker
//! (`nats-server -js` on loopback): the built-in engine with fixed playouts
//! on both sides, so that every game is the same wherever it is played.
//!
//! Three workers, one killed with -9 mid-game and one started late, reach
//! the figures the same match reaches played locally, though a result is
//! delivered twice; every copied folder passes `sha256sum -c`. The broker
//! killed and started again mid-match, and the match killed with -9 and
//! run again: workers and match wait and go on, nothing published or
//! counted twice. A job for an engine no worker has waits and is named,
//! until a worker that has it comes. The SPRT's decision leaves no job on
//! the queue. The broker's own users and TLS pass through; a wrong
//! password or an untrusted broker is said at once. A worker keeps its
//! slot's programs across the jobs of one match, starts them afresh for
//! another, and leaves none behind when killed with -9.

use crate::common;

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use common::nats::Broker;
use common::tmux::{last_line, Tmux};
use common::{figures_of, goref, wait_until};
use serde_json::Value;

const LIMIT: Duration = Duration::from_secs(300);
const NEW: &str = "bot:11,playouts=150";
const OLD: &str = "bot:12,playouts=60";

fn match_folder(root: &Path, folder: &str, pairs: u64) -> PathBuf {
    let dir = root.join(folder);
    std::fs::create_dir_all(&dir).unwrap();
    let text = format!(
        "name = \"bots\"\nboards = 2\nseed = 5\n\
         [game]\nrules = \"kgs\"\nsize = 9\nkomi = 7.5\n\
         [[engine]]\nname = \"new\"\nplayer = \"{NEW}\"\n\
         [[engine]]\nname = \"old\"\nplayer = \"{OLD}\"\n\
         [openings]\nsource = \"random:2\"\n\
         [stop]\npairs = {pairs}\n\
         [workers]\nack_wait = \"3s\"\nqueued = 4\n"
    );
    std::fs::write(dir.join("match.toml"), text).unwrap();
    dir
}

fn worker_file(root: &Path, name: &str, engines: &[(&str, &str)]) -> PathBuf {
    let path = root.join(format!("{name}.toml"));
    let text: String = engines
        .iter()
        .map(|(engine, player)| format!("[[engine]]\nname = \"{engine}\"\nplayer = \"{player}\"\n"))
        .collect();
    std::fs::write(&path, text).unwrap();
    path
}

/// A goref the test runs, its stderr in a file to be read as it grows.
struct Proc {
    child: Child,
    log: PathBuf,
}

impl Proc {
    fn start(root: &Path, label: &str, args: &[&str]) -> Proc {
        Proc::start_with_env(root, label, args, &[])
    }

    fn start_with_env(root: &Path, label: &str, args: &[&str], env: &[(&str, &str)]) -> Proc {
        let log = root.join(format!("{label}.log"));
        let child = Command::new(goref())
            .args(args)
            .envs(env.iter().copied())
            .current_dir(root)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(File::create(&log).unwrap())
            .spawn()
            .unwrap();
        Proc { child, log }
    }

    fn said(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    fn wait_for(&self, what: &str) {
        wait_until(
            LIMIT,
            || format!("{what:?} in {}:\n{}", self.log.display(), self.said()),
            || self.said().contains(what),
        );
    }

    fn finish(mut self) -> String {
        let deadline = std::time::Instant::now() + LIMIT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                let said = self.said();
                assert!(status.success(), "{status}: {said}");
                return said;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "still running: {}",
                self.said()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn worker(root: &Path, broker: &Broker, name: &str, file: &Path) -> Proc {
    worker_with_slots(root, broker, name, file, 1)
}

fn worker_with_slots(root: &Path, broker: &Broker, name: &str, file: &Path, slots: u8) -> Proc {
    let dir = root.join(format!("{name}-games"));
    Proc::start(
        root,
        name,
        &[
            "worker",
            &broker.server(),
            "--config",
            file.to_str().unwrap(),
            "--slots",
            &slots.to_string(),
            "--name",
            name,
            "--dir",
            dir.to_str().unwrap(),
            "--headless",
        ],
    )
}

/// `goref match DIR --workers` on its full screen in tmux at 80x24; none
/// when tmux is missing.
fn match_on_screen(root: &Path, broker: &Broker, dir: &Path, name: &str) -> Option<Tmux> {
    let command = format!(
        "cd '{}' && '{}' match '{}' --workers {}",
        root.display(),
        goref().display(),
        dir.display(),
        broker.server()
    );
    Tmux::start(name, 80, 24, &command)
}

/// The match in `dir` with its `ack_wait` set to `wait` (`"8s"`).
fn with_ack_wait(dir: &Path, wait: &str) {
    let toml = dir.join("match.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    let set = text.replace("ack_wait = \"3s\"", &format!("ack_wait = \"{wait}\""));
    assert_ne!(set, text, "the match sets ack_wait");
    std::fs::write(&toml, set).unwrap();
}

fn remote_match(root: &Path, broker: &Broker, dir: &Path) -> Proc {
    Proc::start(
        root,
        "match",
        &[
            "match",
            dir.to_str().unwrap(),
            "--workers",
            &broker.server(),
            "--headless",
        ],
    )
}

/// The figures two runs of a match must share.
fn essentials(figures: &Value) -> Vec<Value> {
    [
        "games", "pairs", "wins", "losses", "draws", "as_black", "as_white", "penta", "elo",
    ]
    .iter()
    .map(|key| figures[*key].clone())
    .collect()
}

/// Every game folder's name and its result, and that its manifest holds.
fn checked_games(dir: &Path) -> Vec<(String, String)> {
    let mut found: Vec<(String, String)> = std::fs::read_dir(dir.join("games"))
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir() && !e.file_name().to_string_lossy().starts_with('.'))
        .map(|e| {
            let check = Command::new("sha256sum")
                .args(["-c", "--quiet", "MANIFEST.sha256"])
                .current_dir(e.path())
                .output()
                .unwrap();
            assert!(check.status.success(), "{:?}: {check:?}", e.path());
            let result = common::journal(&e.path())
                .iter()
                .find(|e| e["type"] == "result")
                .map_or(String::new(), |r| r["result"].as_str().unwrap().to_string());
            (e.file_name().to_string_lossy().into_owned(), result)
        })
        .collect();
    found.sort();
    found
}

fn journal_lines(dir: &Path, what: &str) -> Vec<Value> {
    std::fs::read_to_string(dir.join("match.jsonl"))
        .unwrap_or_default()
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|line| line["what"] == what)
        .collect()
}

/// Sends pair `pair`'s counted result again as a worker `ghost` would, a
/// worker presumed lost that came back.
fn deliver_again(broker: &Broker, pair: u64) {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let client = async_nats::connect(format!("127.0.0.1:{}", broker.port))
            .await
            .unwrap();
        let js = async_nats::jetstream::new(client);
        let stream = js.get_stream("GOREF-RESULTS").await.unwrap();
        let subject = format!("goref-result.bots.pair.{pair}");
        let sent = stream
            .get_last_raw_message_by_subject(&subject)
            .await
            .unwrap();
        let mut result: Value = serde_json::from_slice(&sent.payload).unwrap();
        result["worker"] = "ghost".into();
        js.publish(subject, serde_json::to_vec(&result).unwrap().into())
            .await
            .unwrap()
            .await
            .unwrap();
    });
}

#[test]
fn three_workers_one_killed_one_late_reach_the_local_figures_and_count_a_result_once() {
    let root = tempfile::tempdir().unwrap();
    let local = match_folder(root.path(), "local", 4);
    let played = Proc::start(
        root.path(),
        "local",
        &["match", local.to_str().unwrap(), "--headless"],
    );
    played.finish();
    let local_figures = figures_of(&local);
    assert_eq!(local_figures["games"], 8, "{local_figures}");

    let broker = Broker::start();
    let dir = match_folder(root.path(), "remote", 4);
    let both = worker_file(root.path(), "engines", &[("new", NEW), ("old", OLD)]);
    let first = worker(root.path(), &broker, "first", &both);
    let second = worker(root.path(), &broker, "second", &both);
    let running = remote_match(root.path(), &broker, &dir);
    first.wait_for("(try 1)");
    running.wait_for("taken by first");
    drop(first);
    running.wait_for(" counted, played by ");
    let third = worker(root.path(), &broker, "third", &both);
    let counted = journal_lines(&dir, "counted");
    let pair = counted[0]["pair"].as_u64().unwrap();
    deliver_again(&broker, pair);
    let began = std::time::Instant::now();
    let said = running.finish();
    eprintln!(
        "the match ended {:?} after the duplicate:\n{said}",
        began.elapsed()
    );
    drop((second, third));

    assert!(said.contains("a second result, from ghost"), "{said}");
    let duplicates = journal_lines(&dir, "duplicate");
    assert_eq!(duplicates.len(), 1, "{duplicates:?}");
    assert_eq!(duplicates[0]["worker"], "ghost");
    assert_eq!(duplicates[0]["pair"], pair);
    let abandoned = journal_lines(&dir, "abandoned");
    assert!(
        abandoned.iter().any(|a| a["worker"] == "first"),
        "first's try is named given up: {abandoned:?}\n{said}"
    );
    assert_eq!(journal_lines(&dir, "counted").len(), 4);
    assert_eq!(journal_lines(&dir, "published").len(), 4);
    let remote_figures = figures_of(&dir);
    assert_eq!(
        essentials(&remote_figures),
        essentials(&local_figures),
        "remote {remote_figures}\nlocal {local_figures}"
    );
    assert_eq!(checked_games(&dir), checked_games(&local));
    let workers: Vec<String> = journal_lines(&dir, "counted")
        .iter()
        .map(|c| c["worker"].as_str().unwrap().to_string())
        .collect();
    assert!(!workers.contains(&"first".to_string()), "{workers:?}");
}

#[test]
fn the_broker_and_the_match_killed_and_started_again_mid_match_lose_and_repeat_nothing() {
    let root = tempfile::tempdir().unwrap();
    let mut broker = Broker::start();
    let dir = match_folder(root.path(), "remote", 5);
    let both = worker_file(root.path(), "engines", &[("new", NEW), ("old", OLD)]);
    let one = worker(root.path(), &broker, "one", &both);
    let two = worker(root.path(), &broker, "two", &both);
    let running = remote_match(root.path(), &broker, &dir);
    running.wait_for(" counted, played by ");
    broker.kill();
    running.wait_for("went away: the workers' games go on");
    one.wait_for("went away: the games in play go on");
    broker.up();
    running.wait_for("the broker answers again");
    one.wait_for("the broker answers again");
    running.wait_for("pair 3: taken by");
    drop(running);
    let published = journal_lines(&dir, "published").len();
    assert!(published >= 3, "{published}");
    let again = remote_match(root.path(), &broker, &dir);
    let said = again.finish();
    drop((one, two));
    assert_eq!(journal_lines(&dir, "counted").len(), 5, "{said}");
    assert_eq!(journal_lines(&dir, "published").len(), 5, "{said}");
    let counted: Vec<Value> = journal_lines(&dir, "counted")
        .iter()
        .map(|c| c["pair"].clone())
        .collect();
    assert_eq!(counted.len(), 5, "each pair counted once: {counted:?}");
    assert_eq!(figures_of(&dir)["games"], 10);
    assert_eq!(checked_games(&dir).len(), 10);
}

#[test]
fn a_broker_restarted_mid_pair_leaves_the_pair_with_the_live_worker_playing_it() {
    let root = tempfile::tempdir().unwrap();
    let _ends = common::EndsWithin(root.path().to_path_buf());
    let mut broker = Broker::start();
    let dir = match_folder(root.path(), "kept", 1);
    with_ack_wait(&dir, "8s");
    let slow = worker_file(
        root.path(),
        "slow",
        &[
            ("new", "bot:11,playouts=150,think=100ms"),
            ("old", "bot:12,playouts=60,think=100ms"),
        ],
    );
    let one = worker(root.path(), &broker, "one", &slow);
    let two = worker(root.path(), &broker, "two", &slow);
    let running = remote_match(root.path(), &broker, &dir);
    let now_s = || {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs()
    };
    wait_until(
        LIMIT,
        || format!("the pair held past ack_wait:\n{}", running.said()),
        || {
            journal_lines(&dir, "taken")
                .iter()
                .any(|t| t["at"].as_u64().is_some_and(|at| at + 10 <= now_s()))
        },
    );
    assert!(
        journal_lines(&dir, "counted").is_empty(),
        "{}",
        running.said()
    );
    broker.kill();
    std::thread::sleep(Duration::from_secs(10));
    broker.up();
    let said = running.finish();
    let taken = journal_lines(&dir, "taken");
    assert_eq!(
        taken.len(),
        1,
        "the pair stayed with the worker playing it: {taken:?}\n{said}\n{}\n{}",
        one.said(),
        two.said()
    );
    assert!(journal_lines(&dir, "abandoned").is_empty(), "{said}");
    assert_eq!(journal_lines(&dir, "counted").len(), 1, "{said}");
    let idle = match taken[0]["worker"].as_str() {
        Some("one") => &two,
        _ => &one,
    };
    if !idle.said().contains("still plays it") {
        eprintln!(
            "the broker kept its consumer's state this time and handed nothing out again: \
             the rule was not put to the test"
        );
    }
    drop((one, two));
    assert_eq!(figures_of(&dir)["games"], 2);
}

#[test]
fn a_job_for_an_engine_no_worker_has_waits_named_until_one_comes() {
    let root = tempfile::tempdir().unwrap();
    let broker = Broker::start();
    let dir = match_folder(root.path(), "remote", 1);
    let only_old = worker_file(root.path(), "old-only", &[("old", OLD)]);
    let lacking = worker(root.path(), &broker, "lacking", &only_old);
    let running = remote_match(root.path(), &broker, &dir);
    running.wait_for("pair 1 waits: worker lacking has no engine 'new'");
    lacking.wait_for("which the worker's file does not name");
    assert!(journal_lines(&dir, "counted").is_empty());
    assert_eq!(journal_lines(&dir, "refused")[0]["engine"], "new");
    let both = worker_file(root.path(), "engines", &[("new", NEW), ("old", OLD)]);
    let able = worker(root.path(), &broker, "able", &both);
    able.wait_for("bots pair 1 done");
    let said = running.finish();
    drop((lacking, able));
    assert!(said.contains("taken by able"), "{said}");
    assert_eq!(figures_of(&dir)["games"], 2);
}

/// A CA, and a certificate it signed for 127.0.0.1, as PEM files in `dir`:
/// `ca.pem`, `server.pem`, `server.key`.
fn certificates(dir: &Path) {
    let ca_key = rcgen::KeyPair::generate().unwrap();
    let mut ca_params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    ca_params
        .distinguished_name
        .push(rcgen::DnType::CommonName, "goref test CA");
    let ca = ca_params.self_signed(&ca_key).unwrap();
    let issuer = rcgen::Issuer::new(ca_params, ca_key);
    let key = rcgen::KeyPair::generate().unwrap();
    let params = rcgen::CertificateParams::new(vec!["127.0.0.1".to_string()]).unwrap();
    let cert = params.signed_by(&key, &issuer).unwrap();
    std::fs::write(dir.join("ca.pem"), ca.pem()).unwrap();
    std::fs::write(dir.join("server.pem"), cert.pem()).unwrap();
    std::fs::write(dir.join("server.key"), key.serialize_pem()).unwrap();
}

#[test]
fn the_brokers_own_users_and_tls_are_passed_through_and_a_wrong_password_is_said() {
    let root = tempfile::tempdir().unwrap();
    certificates(root.path());
    let port = common::free_port();
    let conf = root.path().join("broker.conf");
    std::fs::write(
        &conf,
        format!(
            "listen: 127.0.0.1:{port}\njetstream {{ store_dir: \"{store}\" }}\n\
             tls {{ cert_file: \"{dir}/server.pem\", key_file: \"{dir}/server.key\" }}\n\
             authorization {{ users = [ {{user: referee, password: s3cret}}, {{user: box, password: b0x}} ] }}\n",
            store = root.path().join("store").display(),
            dir = root.path().display()
        ),
    )
    .unwrap();
    let mut server = Command::new("nats-server")
        .arg("-c")
        .arg(&conf)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("nats-server runs (tests/run.sh installs it)");
    wait_until(
        Duration::from_secs(10),
        || "nats-server with TLS".into(),
        || std::net::TcpStream::connect(("127.0.0.1", port)).is_ok(),
    );
    let ca = root.path().join("ca.pem");
    let dir = match_folder(root.path(), "remote", 1);
    let referee = |password: &str, tls: bool| {
        let mut args = vec![
            "match".to_string(),
            dir.display().to_string(),
            "--workers".into(),
            format!("nats://referee:{password}@127.0.0.1:{port}"),
            "--headless".into(),
        ];
        if tls {
            args.extend(["--tls-ca".into(), ca.display().to_string()]);
        }
        args
    };
    for (password, tls, expected) in [
        ("wrong", true, "authorization violation"),
        ("s3cret", false, "refused the connection"),
    ] {
        let out = Command::new(goref())
            .args(referee(password, tls))
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{said}");
        assert!(said.contains(expected), "{said}");
        assert!(
            !said.contains("wrong") && !said.contains("s3cret"),
            "{said}"
        );
    }
    let both = worker_file(root.path(), "engines", &[("new", NEW), ("old", OLD)]);
    let ca_text = ca.to_str().unwrap();
    let boxed = Proc::start_with_env(
        root.path(),
        "box",
        &[
            "worker",
            &format!("nats://127.0.0.1:{port}"),
            "--config",
            both.to_str().unwrap(),
            "--slots",
            "1",
            "--name",
            "box",
            "--headless",
        ],
        &[
            ("GOREF_NATS_USER", "box"),
            ("GOREF_NATS_PASSWORD", "b0x"),
            ("GOREF_NATS_TLS_CA", ca_text),
        ],
    );
    let shown = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let looking = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let scanner = {
        let (shown, looking) = (shown.clone(), looking.clone());
        std::thread::spawn(move || {
            while looking.load(std::sync::atomic::Ordering::Relaxed) {
                shown.lock().unwrap().extend(command_lines_with("b0x"));
                std::thread::sleep(Duration::from_millis(50));
            }
        })
    };
    let args = referee("s3cret", true);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let said = Proc::start(root.path(), "match", &args).finish();
    looking.store(false, std::sync::atomic::Ordering::Relaxed);
    scanner.join().unwrap();
    let worker_said = boxed.said();
    drop(boxed);
    assert!(said.contains("pair 1 counted, played by box"), "{said}");
    assert_eq!(figures_of(&dir)["games"], 2);
    assert_eq!(checked_games(&dir).len(), 2);
    assert!(
        shown.lock().unwrap().is_empty(),
        "a password on a command line: {:?}",
        shown.lock().unwrap()
    );

    let live = worker_said
        .lines()
        .find_map(|line| line.split(" live at ").nth(1))
        .unwrap_or_else(|| panic!("the worker names where a game is live: {worker_said}"))
        .to_string();
    let watched = Proc::start_with_env(
        root.path(),
        "watch",
        &["--watch", &live, "--headless"],
        &[
            ("GOREF_NATS_USER", "referee"),
            ("GOREF_NATS_PASSWORD", "s3cret"),
            ("GOREF_NATS_TLS_CA", ca_text),
        ],
    )
    .finish();
    let _ = server.kill();
    let _ = server.wait();
    let first = checked_games(&dir)[0].1.clone();
    assert!(
        watched.contains(&first),
        "a game published through a broker with users and TLS is watched to its result \
         {first}: {watched}"
    );
}

/// The command lines of the running processes that contain `text`.
fn command_lines_with(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        if let Ok(line) = std::fs::read(entry.path().join("cmdline")) {
            let line = String::from_utf8_lossy(&line).replace('\0', " ");
            if line.contains(text) {
                found.push(line);
            }
        }
    }
    found
}

#[test]
fn the_sprts_decision_takes_the_pairs_no_worker_has_taken_off_the_queue() {
    let root = tempfile::tempdir().unwrap();
    let broker = Broker::start();
    let dir = match_folder(root.path(), "remote", 40);
    let text = std::fs::read_to_string(dir.join("match.toml"))
        .unwrap()
        .replace(NEW, "bot:11,playouts=300")
        .replace(OLD, "bot:12,playouts=1")
        .replace(
            "pairs = 40\n",
            "pairs = 40\nsprt = { elo0 = 0, elo1 = 400, alpha = 0.2, beta = 0.2 }\n",
        )
        .replace("queued = 4", "queued = 8");
    std::fs::write(dir.join("match.toml"), text).unwrap();
    let both = worker_file(
        root.path(),
        "engines",
        &[("new", "bot:11,playouts=300"), ("old", "bot:12,playouts=1")],
    );
    let only = worker(root.path(), &broker, "only", &both);
    let said = remote_match(root.path(), &broker, &dir).finish();
    drop(only);
    let figures = figures_of(&dir);
    assert_ne!(
        figures["sprt"], "continue",
        "the SPRT decided: {figures}\n{said}"
    );
    assert!(figures["pairs"].as_u64().unwrap() < 40, "{figures}");
    let counted = journal_lines(&dir, "counted").len();
    let withdrawn = journal_lines(&dir, "withdrawn").len();
    let published = journal_lines(&dir, "published").len();
    assert!(withdrawn >= 1, "{said}");
    assert_eq!(counted + withdrawn, published, "{said}");
    assert!(said.contains("withdrawn, the stop rule is met"), "{said}");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let left = runtime.block_on(async {
        let client = async_nats::connect(format!("127.0.0.1:{}", broker.port))
            .await
            .unwrap();
        let js = async_nats::jetstream::new(client);
        let mut stream = js.get_stream("GOREF-WORK").await.unwrap();
        stream.info().await.unwrap().state.messages
    });
    assert_eq!(left, 0, "no job is left on the queue");
}

/// What a screen shows fits 80x24.
fn fits(screen: &str) {
    assert!(screen.lines().count() <= 24, "{screen}");
    for line in screen.lines() {
        assert!(line.chars().count() <= 80, "{line}\n{screen}");
    }
}

#[test]
fn the_worker_and_the_match_on_terminals_show_the_workers_games_as_tiles() {
    let broker = Broker::start();
    let root = tempfile::tempdir().unwrap();
    let dir = match_folder(root.path(), "screens", 2);
    let slow = worker_file(
        root.path(),
        "slow",
        &[("new", "bot:11,think=150ms"), ("old", "bot:12,think=150ms")],
    );
    let in_tmux = |label: &str, args: String| {
        let stderr = root.path().join(format!("{label}.err"));
        let command = format!(
            "cd '{}' && '{}' {args} 2>'{}'",
            root.path().display(),
            goref().display(),
            stderr.display()
        );
        (Tmux::start(label, 80, 24, &command), stderr)
    };
    let deep = root
        .path()
        .join("a-worker-folder-as-deep-as-a-home-directory-gets")
        .join("the-games-of-the-tiled-worker");
    let (Some(worker), worker_err) = in_tmux(
        "worker",
        format!(
            "worker {} --config '{}' --slots 2 --name tiled --dir '{}'",
            broker.server(),
            slow.display(),
            deep.display()
        ),
    ) else {
        return;
    };
    let (Some(referee), _) = in_tmux(
        "referee",
        format!("match '{}' --workers {}", dir.display(), broker.server()),
    ) else {
        return;
    };
    let limit = Duration::from_secs(120);
    let played = |s: &str| s.contains(": B ") || s.contains(": W ");

    let slots = worker.wait_for("the worker's two slots playing", limit, |s| {
        s.contains("bots pair 1 game 1") && s.contains("bots pair 2 game 1") && played(s)
    });
    fits(&slots);
    assert!(
        slots.starts_with("worker tiled | pairs done 0 | "),
        "the worker's name, slots and pairs done on the status line:\n{slots}"
    );
    let moving = worker.wait_for("the worker's games moving on its tiles", limit, |s| {
        s.matches("move ").count() >= 2 && !s.contains("no move yet")
    });
    assert!(
        !moving.contains("--:--") && !moving.contains("starting"),
        "games in a folder deeper than a socket's address are followed:\n{moving}"
    );
    let followed = referee.wait_for("the workers' games as tiles", limit, |s| {
        s.contains("pair 1 game 1 · tiled") && played(s)
    });
    fits(&followed);
    assert!(
        followed.starts_with("bots | games 0 of 4 | "),
        "the match's status line:\n{followed}"
    );
    referee.keys(&["Enter"]);
    let opened = referee.wait_for("a worker's game on the whole screen", limit, |s| {
        last_line(s).contains("q/esc the hall")
    });
    fits(&opened);
    let status = opened.lines().next().unwrap();
    assert!(
        status.contains("pair 1 game 1") && status.contains("new") && !status.contains("goref-bot"),
        "the game named, its sides by the match's engine names:\n{opened}"
    );
    referee.keys(&["q"]);

    worker.keys(&["Enter"]);
    let opened = worker.wait_for("a slot's game opened", limit, |s| {
        last_line(s).contains("q/esc the hall")
    });
    let status = opened.lines().next().unwrap();
    let at = status.find("bots pair ").expect("the game's name");
    let game: String = status[at..].chars().take_while(|&c| c != '|').collect();
    assert!(
        game.trim_end().ends_with("game 1") && status.contains("new") && status.contains("old"),
        "the match's engine names, not the programs' own:\n{opened}"
    );
    assert!(!status.contains("goref-bot"), "{opened}");
    let ended = worker.wait_for("the opened game's result", limit, |s| {
        s.lines().next().is_some_and(|l| l.starts_with("result "))
    });
    std::thread::sleep(Duration::from_secs(4));
    let kept = worker.screen();
    assert!(
        kept.lines().next().unwrap().starts_with("result ")
            && kept.lines().next().unwrap().contains(&game),
        "an ended game stays open on its result while its slot plays on:\n{ended}\n{kept}"
    );
    worker.keys(&["q"]);
    worker.wait_for("the tiles again", limit, |s| {
        s.starts_with("worker tiled |")
    });
    worker.keys(&["q"]);
    let asked = worker.wait_for("q asks first", limit, |s| {
        last_line(s).contains("stop the worker?")
    });
    assert!(asked.contains("in play"), "{asked}");
    worker.keys(&["n"]);
    worker.wait_for("the worker plays on", limit, |s| {
        last_line(s).contains("nothing changed")
    });

    let over = referee.wait_for("the match over", limit, |s| s.contains("the match is over"));
    fits(&over);
    assert!(
        over.contains("games 4: "),
        "the figures under the tiles:\n{over}"
    );
    referee.keys(&["q"]);
    referee.wait_for("the match to end", limit, |s| s.contains("EXIT=0"));
    let done = worker.wait_for("both pairs done", limit, |s| s.contains("pairs done 2"));
    fits(&done);
    worker.keys(&["q"]);
    let left = worker.wait_for("the worker to end", limit, |s| s.contains("EXIT="));
    assert!(left.contains("EXIT=0"), "{left}");
    let said = std::fs::read_to_string(&worker_err).unwrap();
    assert!(
        !said.contains("goref worker tiled"),
        "the worker's lines stayed on its screen: {said}"
    );
    assert_eq!(figures_of(&dir)["games"], 4);
    assert_eq!(checked_games(&dir).len(), 4);
}

#[test]
fn a_worker_killed_mid_game_leaves_its_tile_on_the_matchs_screen_marked_stale() {
    let broker = Broker::start();
    let root = tempfile::tempdir().unwrap();
    let dir = match_folder(root.path(), "stale", 1);
    let slow = worker_file(
        root.path(),
        "slow",
        &[("new", "bot:11,think=300ms"), ("old", "bot:12,think=300ms")],
    );
    let mut doomed = worker(root.path(), &broker, "doomed", &slow);
    let Some(referee) = match_on_screen(root.path(), &broker, &dir, "stale-referee") else {
        return;
    };
    let limit = Duration::from_secs(120);
    let playing = referee.wait_for("the worker's game as a tile", limit, |s| {
        s.contains("pair 1 game 1 · doomed") && (s.contains(": B ") || s.contains(": W "))
    });
    assert!(!playing.contains("stale"), "{playing}");
    doomed.child.kill().unwrap();
    let _ = doomed.child.wait();
    let killed = std::time::Instant::now();
    let stale = referee.wait_for("the tile marked stale", Duration::from_secs(40), |s| {
        s.contains("stale: nothing heard")
    });
    fits(&stale);
    assert!(stale.contains("pair 1 game 1 · doomed"), "{stale}");
    assert!(
        killed.elapsed() >= Duration::from_secs(10),
        "stale only once its heartbeats stopped for long: {stale}"
    );
}

#[test]
fn a_killed_workers_games_are_marked_stale_in_the_matchs_list_of_games() {
    let broker = Broker::start();
    let root = tempfile::tempdir().unwrap();
    let _ends = common::EndsWithin(root.path().to_path_buf());
    let dir = match_folder(root.path(), "listed", 4);
    with_ack_wait(&dir, "60s");
    let slow = worker_file(
        root.path(),
        "slow",
        &[("new", "bot:11,think=300ms"), ("old", "bot:12,think=300ms")],
    );
    let _steady = worker(root.path(), &broker, "steady", &slow);
    let mut doomed = worker_with_slots(root.path(), &broker, "doomed", &slow, 2);
    let Some(referee) = match_on_screen(root.path(), &broker, &dir, "stale-list") else {
        return;
    };
    let limit = Duration::from_secs(120);
    let listed = referee.wait_for("three games listed, two of them doomed's", limit, |s| {
        s.contains("3 boards") && s.matches("doomed").count() >= 2
    });
    assert!(!listed.contains("stale"), "{listed}");
    doomed.child.kill().unwrap();
    let _ = doomed.child.wait();
    let stale = referee.wait_for(
        "doomed's games marked stale",
        Duration::from_secs(40),
        |s| s.contains("2 stale") && s.matches("stale: nothing heard").count() >= 2,
    );
    fits(&stale);
    assert!(stale.contains("1 playing"), "{stale}");
}

#[test]
fn a_worker_whose_link_stalls_mid_pair_loses_nothing_and_is_not_counted_a_failure() {
    let broker = Broker::start();
    let root = tempfile::tempdir().unwrap();
    let dir = match_folder(root.path(), "stalled", 1);
    let slow_engines = worker_file(
        root.path(),
        "slow-engines",
        &[("new", "bot:11,think=80ms"), ("old", "bot:12,think=80ms")],
    );
    let target = format!("127.0.0.1:{}", broker.port).parse().unwrap();
    let proxy = common::tcp_proxy::Proxy::start(target, Duration::ZERO);
    let stalled = Proc::start(
        root.path(),
        "stalled",
        &[
            "worker",
            &format!("nats://{}", proxy.address()),
            "--config",
            slow_engines.to_str().unwrap(),
            "--slots",
            "1",
            "--name",
            "stalled",
            "--dir",
            root.path().join("stalled-games").to_str().unwrap(),
            "--headless",
        ],
    );
    let referee = remote_match(root.path(), &broker, &dir);
    referee.wait_for("pair 1: taken by stalled");
    stalled.wait_for("game 1: live at");
    proxy.go_half_open();
    let both = worker_file(root.path(), "engines", &[("new", NEW), ("old", OLD)]);
    let direct = worker(root.path(), &broker, "direct", &both);
    let said = referee.finish();
    if said.contains("pair 1 counted, played by direct") {
        assert!(
            said.contains(
                "pair 1: stalled's try (delivery 1) given up: the pair was counted from another"
            ),
            "{said}"
        );
    } else {
        assert!(
            said.contains("pair 1 counted, played by stalled"),
            "the stalled worker connected again within the deadline and kept its pair: {said}"
        );
    }
    assert_eq!(journal_lines(&dir, "counted").len(), 1, "{said}");
    assert_eq!(figures_of(&dir)["games"], 2);
    assert_eq!(checked_games(&dir).len(), 2);
    drop(direct);
    wait_until(
        LIMIT,
        || format!("the stalled worker to finish its try: {}", stalled.said()),
        || {
            let said = stalled.said();
            said.contains("pair 1 done") || said.contains("the broker did not take its games")
        },
    );
    let taken = journal_lines(&dir, "taken").len();
    let abandoned = journal_lines(&dir, "abandoned");
    let counted = &journal_lines(&dir, "counted")[0];
    assert!(
        abandoned
            .iter()
            .all(|a| a["delivery"] != counted["delivery"]),
        "the try counted is never called abandoned: {abandoned:?} {counted}"
    );
    assert_eq!(
        abandoned.len(),
        taken - 1,
        "every other try is, once counted"
    );
    assert!(
        !stalled.said().contains("handed back:"),
        "a stalled link is not the job's failure: {}",
        stalled.said()
    );
}

/// A tmpfs of `size` mounted at `dir` while it lives; none when this
/// process may not mount (not root).
struct SmallDisk {
    dir: PathBuf,
}

impl SmallDisk {
    fn mount(dir: &Path, size: &str) -> Option<SmallDisk> {
        std::fs::create_dir_all(dir).unwrap();
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        mounted.then(|| SmallDisk {
            dir: dir.to_path_buf(),
        })
    }

    fn grow(&self, size: &str) {
        let status = Command::new("mount")
            .args(["-o", &format!("remount,size={size}")])
            .arg(&self.dir)
            .status()
            .unwrap();
        assert!(status.success());
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.dir).status();
    }
}

#[test]
fn a_full_disk_on_the_matchs_side_waits_and_blames_no_worker() {
    let broker = Broker::start();
    let root = tempfile::tempdir().unwrap();
    let dir = match_folder(root.path(), "full", 2);
    let Some(disk) = SmallDisk::mount(&dir.join("games"), "64k") else {
        eprintln!("cannot mount a tmpfs (not root): skipping");
        return;
    };
    let both = worker_file(root.path(), "engines", &[("new", NEW), ("old", OLD)]);
    let only = worker(root.path(), &broker, "only", &both);
    let referee = remote_match(root.path(), &broker, &dir);
    referee.wait_for("No space left on device");
    std::thread::sleep(Duration::from_secs(3));
    disk.grow("20m");
    let said = referee.finish();
    drop(only);
    assert!(
        said.contains("the workers' games are copied again"),
        "{said}"
    );
    assert!(
        !said.contains("refused"),
        "no result refused for a disk: {said}"
    );
    assert_eq!(
        said.matches("No space left").count(),
        1,
        "said once: {said}"
    );
    assert_eq!(figures_of(&dir)["games"], 4);
    assert_eq!(checked_games(&dir).len(), 4);
    assert_eq!(
        journal_lines(&dir, "published").len(),
        2,
        "nothing played again"
    );
    assert!(journal_lines(&dir, "rejected").is_empty());
    let incoming = std::fs::read_dir(dir.join("games/.incoming"))
        .unwrap()
        .count();
    assert_eq!(incoming, 0, "no partial copy left");
    drop(disk);
}

#[test]
fn a_worker_whose_terminal_goes_away_plays_on_until_sigterm() {
    let broker = Broker::start();
    let root = tempfile::tempdir().unwrap();
    let file = worker_file(root.path(), "engines", &[("new", NEW), ("old", OLD)]);
    let command = format!(
        "cd '{}' && '{}' worker {} --config '{}' --slots 1 --name hungup-{} 2>worker.err",
        root.path().display(),
        goref().display(),
        broker.server(),
        file.display(),
        std::process::id()
    );
    let Some(tmux) = Tmux::start("hungup", 80, 24, &command) else {
        return;
    };
    tmux.wait_for("the worker's screen", Duration::from_secs(30), |s| {
        s.starts_with("worker hungup-")
    });
    let pattern = format!("--name hungup-{}", std::process::id());
    let pid = || {
        let out = Command::new("pgrep")
            .args(["-f", "--", &pattern])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout)
            .split_whitespace()
            .find(|pid| {
                std::fs::read_to_string(format!("/proc/{pid}/comm"))
                    .is_ok_and(|comm| comm.trim() == "goref")
            })
            .map(str::to_string)
    };
    let worker_pid = pid().unwrap_or_else(|| {
        let said = std::fs::read_to_string(root.path().join("worker.err")).unwrap_or_default();
        panic!("the worker runs: {said}\n{}", tmux.screen())
    });
    let killed = tmux
        .command()
        .args(["kill-session", "-t", &tmux.name])
        .status()
        .unwrap();
    assert!(killed.success());
    std::thread::sleep(Duration::from_secs(3));
    assert_eq!(
        pid(),
        Some(worker_pid.clone()),
        "the worker plays on without its terminal"
    );
    let _ = Command::new("kill").args(["-TERM", &worker_pid]).status();
    wait_until(
        Duration::from_secs(30),
        || "the worker to end on SIGTERM".into(),
        || pid().is_none(),
    );
}

#[test]
fn a_match_with_slots_plays_pairs_here_too_through_a_worker_of_its_own() {
    let broker = Broker::start();
    let root = tempfile::tempdir().unwrap();
    let dir = match_folder(root.path(), "mixed", 3);
    let alone = Command::new(goref())
        .args(["match", dir.to_str().unwrap(), "--slots", "1", "--headless"])
        .output()
        .unwrap();
    assert!(!alone.status.success());
    assert!(
        String::from_utf8_lossy(&alone.stderr).contains("--workers"),
        "--slots needs --workers: {alone:?}"
    );
    let referee = Proc::start(
        root.path(),
        "match",
        &[
            "match",
            dir.to_str().unwrap(),
            "--workers",
            &broker.server(),
            "--slots",
            "1",
            "--headless",
        ],
    );
    referee.wait_for("pair 1: taken by match-bots");
    let both = worker_file(root.path(), "engines", &[("new", NEW), ("old", OLD)]);
    let other = worker(root.path(), &broker, "other", &both);
    let said = referee.finish();
    drop(other);
    assert!(
        said.contains("the match plays here too, as worker match-bots"),
        "{said}"
    );
    assert_eq!(figures_of(&dir)["games"], 6, "{said}");
    assert_eq!(checked_games(&dir).len(), 6);
    let counted = journal_lines(&dir, "counted");
    assert_eq!(counted.len(), 3);
    assert!(
        counted.iter().any(|c| c["worker"] == "match-bots"),
        "{counted:?}"
    );
    let log = std::fs::read_to_string(dir.join("worker.log")).unwrap();
    assert!(
        log.contains("goref worker match-bots: bots pair 1"),
        "{log}"
    );
    let left = Command::new("pgrep")
        .args(["-f", "--", "--name match-bots"])
        .output()
        .unwrap();
    assert!(
        left.stdout.is_empty(),
        "the match's own worker ends with the match: {}",
        String::from_utf8_lossy(&left.stdout)
    );
}

#[test]
fn a_match_and_its_workers_that_make_the_queue_at_once_all_get_it() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    for _round in 0..4 {
        let broker = Broker::start();
        let address = format!("127.0.0.1:{}", broker.port);
        let made = runtime.block_on(async {
            let makers = (0..6).map(|_| {
                let address = address.clone();
                tokio::spawn(async move {
                    let client = async_nats::connect(address).await.unwrap();
                    let js = async_nats::jetstream::new(client);
                    let work = goref::broker::work::work_queue(&js, None).await;
                    let results = goref::broker::work::results_stream(&js).await;
                    work.map(|_| ()).and(results.map(|_| ()))
                })
            });
            outcomes_of(makers.collect()).await
        });
        for outcome in made {
            assert_eq!(outcome, Ok(()), "every maker has the queue");
        }
    }
}

async fn outcomes_of(
    handles: Vec<tokio::task::JoinHandle<Result<(), String>>>,
) -> Vec<Result<(), String>> {
    let mut outcomes = Vec::new();
    for handle in handles {
        outcomes.push(handle.await.unwrap());
    }
    outcomes
}

/// A process the test did not start itself, ended with SIGTERM when
/// dropped.
struct Terminated(u32);

impl Drop for Terminated {
    fn drop(&mut self) {
        let _ = Command::new("kill").arg(self.0.to_string()).status();
    }
}

/// The CPU time process `pid` has used, in clock ticks.
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let fields: Vec<&str> = stat
        .rsplit(')')
        .next()
        .unwrap()
        .split_whitespace()
        .collect();
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

#[test]
fn a_worker_whose_terminal_goes_away_plays_on_without_spinning() {
    let broker = Broker::start();
    let root = tempfile::tempdir().unwrap();
    let dir = match_folder(root.path(), "away", 2);
    let slow = worker_file(
        root.path(),
        "slow",
        &[("new", "bot:11,think=100ms"), ("old", "bot:12,think=100ms")],
    );
    let command = format!(
        "exec '{}' worker {} --config '{}' --slots 1 --name away --dir '{}' 2>/dev/null",
        goref().display(),
        broker.server(),
        slow.display(),
        root.path().join("away-games").display()
    );
    let Some(tmux) = Tmux::start("away-worker", 80, 24, &command) else {
        return;
    };
    let panes = tmux
        .command()
        .args(["list-panes", "-s", "-t", &tmux.name, "-F", "#{pane_pid}"])
        .output()
        .unwrap();
    let pid: u32 = String::from_utf8_lossy(&panes.stdout)
        .trim()
        .parse()
        .unwrap();
    let _worker = Terminated(pid);
    let referee = remote_match(root.path(), &broker, &dir);
    let limit = Duration::from_secs(120);
    tmux.wait_for("a game on the worker's tile", limit, |s| {
        s.contains("move ")
    });
    let _ = tmux.command().arg("kill-server").status();
    std::thread::sleep(Duration::from_secs(1));
    let before = cpu_ticks(pid);
    std::thread::sleep(Duration::from_secs(3));
    let used = cpu_ticks(pid) - before;
    assert!(
        used < 60,
        "a worker with no terminal used {used} ticks of CPU in 3 s"
    );
    let said = referee.finish();
    assert_eq!(figures_of(&dir)["games"], 4, "the worker played on: {said}");
}

/// The pids of the GNU Go processes working in `root`.
fn gnu_go_within(root: &Path) -> Vec<String> {
    let root = root.canonicalize().unwrap();
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter(|entry| {
            let comm = std::fs::read_to_string(entry.path().join("comm")).unwrap_or_default();
            let cwd = std::fs::read_link(entry.path().join("cwd"));
            comm.trim() == "gnugo" && cwd.is_ok_and(|cwd| cwd.starts_with(&root))
        })
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect()
}

#[test]
fn a_worker_keeps_its_programs_across_a_matchs_jobs_and_starts_them_afresh_for_another() {
    let broker = Broker::start();
    let root = tempfile::tempdir().unwrap();
    let _ends = common::EndsWithin(root.path().to_path_buf());
    let level_0 = crate::kept::gnugo_level_0();
    let (new, new_starts) = crate::kept::counted(root.path(), "new", &level_0);
    let (old, old_starts) = crate::kept::counted(root.path(), "old", &level_0);
    let file = worker_file(root.path(), "engines", &[("new", &new), ("old", &old)]);
    let mut one = worker(root.path(), &broker, "one", &file);

    let first = match_folder(root.path(), "first", 2);
    let said = remote_match(root.path(), &broker, &first).finish();
    assert_eq!(figures_of(&first)["games"], 4, "{said}");
    assert_eq!(crate::kept::starts(&new_starts), 1, "{}", one.said());
    assert_eq!(crate::kept::starts(&old_starts), 1, "{}", one.said());
    let programs = root.path().join("one-games/bots/programs-slot-1");
    assert!(programs.join("board-1-new.log").is_file());
    for game in checked_games(&first) {
        let folder = first.join("games").join(&game.0);
        let start = common::journal(&folder)
            .into_iter()
            .find(|e| e["type"] == "game_start")
            .unwrap();
        let specs = [&start["black"]["spec"], &start["white"]["spec"]];
        assert!(
            specs
                .iter()
                .all(|s| s.as_str().unwrap().starts_with("seat:board-1-")),
            "both programs kept by the slot: {specs:?}"
        );
    }

    let second = match_folder(root.path(), "second", 1);
    let toml = second.join("match.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, text.replace("name = \"bots\"", "name = \"later\"")).unwrap();
    let said = remote_match(root.path(), &broker, &second).finish();
    assert_eq!(figures_of(&second)["games"], 2, "{said}");
    assert_eq!(
        crate::kept::starts(&new_starts),
        2,
        "started afresh for another match: {}",
        one.said()
    );
    assert_eq!(crate::kept::starts(&old_starts), 2);
    assert_eq!(
        gnu_go_within(root.path()).len(),
        2,
        "the later match's kept"
    );

    one.child.kill().unwrap();
    let _ = one.child.wait();
    wait_until(
        Duration::from_secs(10),
        || format!("GNU Go left behind: {:?}", gnu_go_within(root.path())),
        || gnu_go_within(root.path()).is_empty(),
    );
}

#[test]
fn a_workers_kept_program_that_crashes_loses_its_game_and_its_restart_is_in_the_matchs_figures() {
    let broker = Broker::start();
    let root = tempfile::tempdir().unwrap();
    let _ends = common::EndsWithin(root.path().to_path_buf());
    let (crasher, starts) = crate::kept::crashing_once(root.path());
    let level_0 = format!("gtp:{}", crate::kept::gnugo_level_0());
    let file = worker_file(
        root.path(),
        "engines",
        &[("new", &crasher), ("old", &level_0)],
    );
    let one = worker(root.path(), &broker, "one", &file);
    let dir = match_folder(root.path(), "crashing", 2);
    let said = remote_match(root.path(), &broker, &dir).finish();
    let figures = figures_of(&dir);
    assert_eq!(figures["games"], 4, "{said}\n{}", one.said());
    assert_eq!(figures["crashes"], serde_json::json!([1, 0]), "{figures}");
    assert_eq!(crate::kept::starts(&starts), 2, "started again once");
    assert_eq!(
        figures["restarts"]["new"], 1,
        "the worker's restart counted by the match: {figures}"
    );
    let text = common::standings_text(&dir);
    assert!(
        text.contains("kept programs started again: new 1"),
        "{text}"
    );
}
