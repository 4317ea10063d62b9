//! Seats under load: one venue (goref's own listener, in this process, on
//! one thread as `goref play` and an event's runner run it) with 64 real
//! `goref seat` processes connected over TLS on loopback, each running the
//! built-in engine over GTP, and 32 boards sending commands at once.
//!
//! ```text
//! cargo build --release && \
//! cargo run --release --example seat_load -- [SEATS] [BOARDS] [COMMANDS]
//! ```
//!
//! It prints:
//!
//! - what the seat path adds to a command's round trip: the venue's own
//!   measure less the seat's stamp of the program's time, over every
//!   command of every board: p50, p99, max (budget: p99 under 2 ms);
//! - the venue's memory (RSS) before the seats and with them connected, per
//!   seat (budget: under 1 MB);
//! - over 10 s with every seat connected and no command (the programs
//!   thinking): the venue's CPU and one seat process's (budget: each under
//!   0.5 % of a core; one clock tick over 10 s is 0.1 %);
//! - the resync of a 300-move 19x19 game through one seat, as the board
//!   tells a program that came back: `boardsize`, `clear_board`, `komi` and
//!   a `play` for every move (budget: under 1 s).
//!
//! `seat_load cgos [CLIENTS] [BOARDS] [MOVES]` measures the CGOS door
//! instead (32 clients on 16 boards by default): see `seat_load/cgos.rs`.

#[path = "seat_load/cgos.rs"]
mod cgos;
mod support;

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use goref::seats::keys::SeatKeys;
use goref::seats::link::SeatLink;
use goref::seats::venue::Venue;
use goref_core::game::board::{Board, BoardRules, KoRule};
use goref_core::game::{Color, Point};

fn main() {
    let mut words: Vec<String> = std::env::args().skip(1).collect();
    if words.first().is_some_and(|w| w == "cgos") {
        words.remove(0);
        let number = |n: usize, default: usize| {
            words
                .get(n)
                .map_or(default, |w| w.parse().expect("numbers"))
        };
        let moves = number(2, 200);
        let game: Vec<String> = game(moves).iter().map(|(_, p)| p.to_gtp()).collect();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(cgos::measure(
            number(0, 32),
            number(1, 16),
            moves,
            std::sync::Arc::new(game),
        ));
        return;
    }
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("numbers"))
        .collect();
    let seats = args.first().copied().unwrap_or(64) as usize;
    let boards = args.get(1).copied().unwrap_or(32) as usize;
    let commands = args.get(2).copied().unwrap_or(200) as usize;
    let goref = support::goref_beside().unwrap_or_else(|e| panic!("{e}"));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(measure(goref, seats, boards, commands));
}

async fn measure(goref: std::path::PathBuf, seats: usize, boards: usize, commands: usize) {
    let folder = tempfile::tempdir().unwrap();
    let entrants: Vec<String> = (1..=seats).map(|n| format!("e{n}")).collect();
    let keys = SeatKeys::load_or_make(folder.path(), &entrants, &["localhost".into()]).unwrap();
    let rss_before = rss_kb();
    let mut venue = Venue::start("127.0.0.1:0", &keys, "seat_load", false)
        .await
        .unwrap();
    let address = format!("127.0.0.1:{}", venue.address.port());
    let mut children: Vec<Child> = entrants
        .iter()
        .map(|entrant| {
            Command::new(&goref)
                .current_dir(folder.path())
                .env("GOREF_TOKEN", keys.tokens.get(entrant).unwrap())
                .args(["seat", &address, "--entrant", entrant, "--headless"])
                .args(["--pin", &keys.identity.fingerprint(), "--"])
                .arg(&goref)
                .args(["bot", "--gtp"])
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut links: Vec<SeatLink> = entrants
        .iter()
        .map(|e| venue.take_link(e).unwrap())
        .collect();
    for link in &mut links {
        let within = Instant::now() + Duration::from_secs(60);
        link.wait_admitted(Some(within)).await.unwrap();
    }
    let rss_after = rss_kb();
    println!("{seats} seats connected");
    println!(
        "venue memory: {rss_before} kB before, {rss_after} kB with the seats: {:.1} kB a seat (budget 1024)",
        rss_after.saturating_sub(rss_before) as f64 / seats as f64
    );

    let idle = Duration::from_secs(10);
    let seat_pid = children[0].id();
    let (venue_before, seat_before) = (own_cpu_ms(), support::cpu_ms_of(seat_pid).unwrap());
    let idle_until = Instant::now() + idle;
    while Instant::now() < idle_until {
        tokio::select! {
            _ = tokio::time::sleep_until(idle_until.into()) => {}
            _ = drain(&mut links) => {}
        }
    }
    let percent = |ms: f64| ms / idle.as_secs_f64() / 10.0;
    println!(
        "idle, every seat connected: venue {:.3} % of a core, one seat {:.3} % (budget 0.5 each)",
        percent(own_cpu_ms() - venue_before),
        percent(support::cpu_ms_of(seat_pid).unwrap() - seat_before)
    );

    let started = Instant::now();
    let playing: Vec<SeatLink> = links.drain(..boards.min(seats)).collect();
    let tasks: Vec<_> = playing
        .into_iter()
        .map(|link| tokio::spawn(board(link, commands)))
        .collect();
    let mut added = Vec::new();
    for task in tasks {
        added.extend(task.await.unwrap());
    }
    added.sort_by(f64::total_cmp);
    let at = |q: f64| added[((added.len() - 1) as f64 * q) as usize];
    println!(
        "{boards} boards, {} commands in {:.1} s: the seat path adds p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms (budget p99 2)",
        added.len(),
        started.elapsed().as_secs_f64(),
        at(0.5),
        at(0.99),
        added[added.len() - 1]
    );
    let mut seat = links.pop().expect("a seat not used by a board");
    let started = Instant::now();
    let told = resync(&mut seat, &game(300)).await;
    println!(
        "resync of a {told}-command 19x19 game of 300 moves: {:.0} ms (budget 1000)",
        started.elapsed().as_secs_f64() * 1000.0
    );
    for child in &mut children {
        let _ = child.kill();
        let _ = child.wait();
    }
}

/// `moves` legal moves on 19x19, a stone each (none retakes a ko).
fn game(moves: usize) -> Vec<(Color, Point)> {
    let rules = BoardRules {
        ko: KoRule::PositionalSuperko,
        suicide_allowed: false,
    };
    let mut board = Board::new(19, rules).unwrap();
    let mut played = Vec::new();
    let mut next = 0u32;
    while played.len() < moves {
        let color = board.to_move();
        next = (next + 97) % 361;
        let point = Point::new((next % 19) as u8, (next / 19) as u8);
        if board.play(color, point).is_ok() {
            played.push((color, point));
        }
    }
    played
}

/// Tells the seat's program the game as a board resyncs it; the commands sent.
async fn resync(link: &mut SeatLink, moves: &[(Color, Point)]) -> usize {
    let mut lines = vec![
        "boardsize 19".to_string(),
        "clear_board".into(),
        "komi 7.5".into(),
    ];
    lines.extend(
        moves
            .iter()
            .map(|(color, point)| format!("play {} {}", color.name(), point.to_gtp())),
    );
    for (n, line) in lines.iter().enumerate() {
        link.write(format!("{} {line}\n", n + 1).as_bytes())
            .await
            .unwrap();
        loop {
            let bytes = link.read().await.unwrap();
            assert!(!bytes.is_empty(), "the seat was lost");
            if link.last_stamp.take().is_some() {
                assert!(
                    bytes.starts_with(b"="),
                    "{line}: {}",
                    String::from_utf8_lossy(&bytes)
                );
                break;
            }
        }
    }
    lines.len()
}

/// What the seats said while nothing was asked: their admissions, round
/// trips. Never completes while they are quiet.
async fn drain(links: &mut [SeatLink]) {
    loop {
        tokio::time::sleep(Duration::from_millis(500)).await;
        for link in links.iter_mut() {
            link.notes.clear();
        }
    }
}

/// One board: `commands` GTP commands one after the other; for each, the
/// venue's measure less the seat's stamp, in ms.
async fn board(mut link: SeatLink, commands: usize) -> Vec<f64> {
    let mut added = Vec::with_capacity(commands);
    for n in 1..=commands {
        link.write(format!("{n} name\n").as_bytes()).await.unwrap();
        loop {
            let bytes = link.read().await.unwrap();
            assert!(!bytes.is_empty(), "a seat was lost");
            if let Some((think, venue)) = link.last_stamp.take() {
                added.push(venue.saturating_sub(think).as_secs_f64() * 1000.0);
                break;
            }
        }
    }
    added
}

fn rss_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

fn own_cpu_ms() -> f64 {
    support::cpu_ms_of(std::process::id()).unwrap()
}
