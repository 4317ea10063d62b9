//! A match played by `goref worker`s on this machine, through a local
//! `nats-server -js`: one worker, then three, one slot each.
//!
//! ```text
//! cargo build --release && \
//! cargo run --release --example workers_throughput -- [PAIRS] [THINK_MS]
//! ```
//!
//! The built-in engine thinks THINK_MS (default 200) a move on both sides
//! of 9x9 games. Each run is a fresh match of PAIRS (default 6) pairs. It
//! prints, for one worker and for three:
//!
//! - games an hour, and the ratio of three workers' to one's (budget:
//!   at least 2.7);
//! - the CPU of the match process and of each worker process, their
//!   gorefs and engines not counted, as a share of one core over the run
//!   (budget: under 1 %);
//! - how long after a slot freed its next job was taken, over every job
//!   but each worker's first (budget: within 50 ms).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

mod support;

struct Run {
    games_per_hour: f64,
    match_cpu: f64,
    worker_cpu: Vec<f64>,
    waits_ms: Vec<u64>,
}

fn main() {
    let mut args = std::env::args().skip(1);
    let pairs: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(6);
    let think_ms: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(200);
    let goref = support::goref_beside().unwrap_or_else(|e| panic!("{e}"));
    let root = std::env::temp_dir().join(format!("workers_throughput.{}", std::process::id()));
    std::fs::create_dir_all(&root).unwrap();
    let port = free_port();
    let mut broker = Command::new("nats-server")
        .args(["-js", "-a", "127.0.0.1", "-p", &port.to_string(), "-sd"])
        .arg(root.join("store"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("nats-server (apt-get install nats-server)");
    let deadline = Instant::now() + Duration::from_secs(10);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "nats-server does not answer");
        std::thread::sleep(Duration::from_millis(50));
    }
    let url = format!("nats://127.0.0.1:{port}");
    println!(
        "workers_throughput: {pairs} pairs a run, the built-in engine thinking {think_ms} ms a move"
    );
    let mut runs = Vec::new();
    for workers in [1usize, 3] {
        let run = play(&goref, &root, &url, workers, pairs, think_ms);
        println!(
            "{workers} worker(s): {:.0} games an hour; match CPU {:.2} % of a core; \
             workers' {}; jobs taken {} after a slot freed",
            run.games_per_hour,
            run.match_cpu,
            run.worker_cpu
                .iter()
                .map(|c| format!("{c:.2} %"))
                .collect::<Vec<_>>()
                .join(", "),
            spread(&run.waits_ms)
        );
        runs.push(run);
    }
    let ratio = runs[1].games_per_hour / runs[0].games_per_hour;
    let cpu = runs
        .iter()
        .flat_map(|r| std::iter::once(r.match_cpu).chain(r.worker_cpu.iter().copied()))
        .fold(0.0f64, f64::max);
    let wait = runs.iter().flat_map(|r| r.waits_ms.iter().copied()).max();
    println!(
        "three workers: {ratio:.2}x one's games an hour (budget >= 2.7: {}); \
         the most CPU of a match or worker process: {cpu:.2} % (budget < 1 %: {}); \
         the longest wait for a job: {} (budget 50 ms: {})",
        met(ratio >= 2.7),
        met(cpu < 1.0),
        wait.map_or("-".into(), |w| format!("{w} ms")),
        met(wait.is_none_or(|w| w <= 50))
    );
    let _ = broker.kill();
    let _ = broker.wait();
    let _ = std::fs::remove_dir_all(&root);
}

fn met(yes: bool) -> &'static str {
    if yes {
        "met"
    } else {
        "NOT met"
    }
}

fn spread(waits: &[u64]) -> String {
    let mut sorted = waits.to_vec();
    sorted.sort_unstable();
    match (sorted.get(sorted.len() / 2), sorted.last()) {
        (Some(median), Some(max)) => format!("median {median} ms, max {max} ms"),
        _ => "-".into(),
    }
}

fn play(goref: &Path, root: &Path, url: &str, workers: usize, pairs: u64, think_ms: u64) -> Run {
    let name = format!("throughput{workers}");
    let dir = root.join(&name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("match.toml"),
        format!(
            "name = \"{name}\"\nseed = 1\n\
             [game]\nsize = 9\nrules = \"kgs\"\n\
             [[engine]]\nname = \"a\"\nplayer = \"bot:1,think={think_ms}ms\"\n\
             [[engine]]\nname = \"b\"\nplayer = \"bot:2,think={think_ms}ms\"\n\
             [openings]\nsource = \"random:2\"\n[stop]\npairs = {pairs}\n\
             [workers]\nqueued = 8\n"
        ),
    )
    .unwrap();
    let file = root.join("worker.toml");
    std::fs::write(
        &file,
        format!(
            "[[engine]]\nname = \"a\"\nplayer = \"bot:1,think={think_ms}ms\"\n\
             [[engine]]\nname = \"b\"\nplayer = \"bot:2,think={think_ms}ms\"\n"
        ),
    )
    .unwrap();
    let logs: Vec<PathBuf> = (0..workers)
        .map(|i| root.join(format!("{name}-worker-{i}.log")))
        .collect();
    let mut started: Vec<Child> = logs
        .iter()
        .enumerate()
        .map(|(i, log)| {
            Command::new(goref)
                .args(["worker", url, "--slots", "1", "--headless", "--name"])
                .arg(format!("w{i}"))
                .arg("--config")
                .arg(&file)
                .arg("--dir")
                .arg(root.join(format!("{name}-w{i}")))
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(std::fs::File::create(log).unwrap())
                .spawn()
                .unwrap()
        })
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    let begun = Instant::now();
    let mut runner = Command::new(goref)
        .arg("match")
        .arg(&dir)
        .args(["--workers", url, "--headless"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(root.join(format!("{name}-match.log"))).unwrap())
        .spawn()
        .unwrap();
    let pid = runner.id();
    let mut match_cpu = 0.0;
    loop {
        if let Some(cpu) = support::cpu_ms_of(pid) {
            match_cpu = cpu;
        }
        if let Some(status) = runner.try_wait().unwrap() {
            assert!(status.success(), "the match failed: see {}", root.display());
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let wall = begun.elapsed().as_secs_f64();
    let worker_cpu = started
        .iter()
        .map(|w| support::cpu_ms_of(w.id()).unwrap_or(0.0) / 10.0 / wall)
        .collect();
    for worker in &mut started {
        let _ = worker.kill();
        let _ = worker.wait();
    }
    let mut waits_ms = Vec::new();
    for log in &logs {
        let text = std::fs::read_to_string(log).unwrap_or_default();
        let waits: Vec<u64> = text
            .lines()
            .filter_map(|line| {
                line.split_once("taken ")?
                    .1
                    .split_once(" ms after")?
                    .0
                    .parse()
                    .ok()
            })
            .collect();
        waits_ms.extend(waits.into_iter().skip(1));
    }
    Run {
        games_per_hour: (pairs * 2) as f64 * 3600.0 / wall,
        match_cpu: match_cpu / 10.0 / wall,
        worker_cpu,
        waits_ms,
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}
