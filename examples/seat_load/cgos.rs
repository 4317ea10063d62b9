//! `seat_load cgos`: the CGOS door under load. One door (the event's CGOS
//! listener, in this process, on one thread as an event's runner runs it)
//! with CGOS clients logged in over TCP on loopback, each answering its
//! `genmove` at once with the next move of a legal 19x19 game, and boards
//! driving their games through the clients' links as a goref board does.
//!
//! It prints:
//!
//! - from a client's move leaving it to the opponent's `play` reaching
//!   its client, through the door, the board's relay and the door again:
//!   p50, p99, max (budget: p99 under 2 ms);
//! - over 10 s with every client logged in and no game: the process's CPU,
//!   the door and the idle clients together (budget: under 0.5 % of a core);
//! - one board whose two clients sit behind a link of 100 ms each way and
//!   think 300 ms a move: the median time charged, and its distance from
//!   the 300 ms thought (budget: within 60 ms).

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpSocket, TcpStream};

use goref::seats::cgos::CgosListener;
use goref::seats::link::{stream_to_seats, SeatLink};
use goref_core::protocol::cgos::DoorSettings;
use goref_core::protocol::seat::Tokens;
use goref_core::tournament::game_name::GameName;

/// When a move left its client: by game and move number.
type Sent = Arc<Mutex<HashMap<(u64, usize), Instant>>>;

pub(crate) async fn measure(clients: usize, boards: usize, moves: usize, game: Arc<Vec<String>>) {
    let entrants: Vec<String> = (1..=clients + 2).map(|n| format!("c{n}")).collect();
    let passwords: BTreeMap<String, String> = entrants
        .iter()
        .map(|e| (e.clone(), format!("{e}-pw")))
        .collect();
    let mut door = CgosListener::start(
        "127.0.0.1:0",
        Tokens::new(passwords),
        DoorSettings::default(),
    )
    .await
    .unwrap();
    let port = door.address.port();
    let sent: Sent = Arc::default();
    let latencies = Arc::new(Mutex::new(Vec::new()));
    for (n, entrant) in entrants.iter().take(clients).enumerate() {
        let client = Client {
            entrant: entrant.clone(),
            game: game.clone(),
            sent: sent.clone(),
            latencies: latencies.clone(),
            think: Duration::ZERO,
        };
        let source = format!("127.0.{}.{}", 1 + n / 200, 1 + n % 200);
        tokio::spawn(client.run(source, port));
    }
    let mut links: Vec<SeatLink> = entrants
        .iter()
        .map(|e| door.take_link(e).unwrap())
        .collect();
    for link in links.iter_mut().take(clients) {
        let within = Instant::now() + Duration::from_secs(60);
        link.wait_admitted(Some(within)).await.unwrap();
    }
    println!("{clients} CGOS clients logged in");

    let idle = Duration::from_secs(10);
    let before = own_cpu_ms();
    tokio::time::sleep(idle).await;
    println!(
        "idle, every client logged in: the door and its clients {:.3} % of a core (budget 0.5)",
        (own_cpu_ms() - before) / idle.as_secs_f64() / 10.0
    );

    let started = Instant::now();
    let slow_links: Vec<SeatLink> = links.drain(clients..).collect();
    let mut tasks = Vec::new();
    let mut links = links.into_iter();
    for board in 1..=boards.min(clients / 2) as u32 {
        let (black, white) = (links.next().unwrap(), links.next().unwrap());
        tasks.push(tokio::spawn(play(board, black, white, moves, game.clone())));
    }
    for task in tasks {
        task.await.unwrap();
    }
    let mut added = latencies.lock().unwrap().clone();
    added.sort_by(f64::total_cmp);
    let at = |q: f64| added[((added.len() - 1) as f64 * q) as usize];
    println!(
        "{} boards, {} moves in {:.1} s: a move to the opponent's play p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms (budget p99 2)",
        boards.min(clients / 2),
        added.len(),
        started.elapsed().as_secs_f64(),
        at(0.5),
        at(0.99),
        added[added.len() - 1]
    );
    slow_link(port, slow_links, &entrants[clients..], game).await;
}

/// One board whose clients are behind a 100 ms each-way link and think
/// 300 ms a move: the charged times.
async fn slow_link(port: u16, links: Vec<SeatLink>, entrants: &[String], game: Arc<Vec<String>>) {
    let delay = Duration::from_millis(100);
    let think = Duration::from_millis(300);
    let proxy = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let proxy_port = proxy.local_addr().unwrap().port();
    tokio::spawn(async move {
        while let Ok((client, _)) = proxy.accept().await {
            let server = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
            let _ = server.set_nodelay(true);
            let _ = client.set_nodelay(true);
            let (cr, cw) = client.into_split();
            let (sr, sw) = server.into_split();
            tokio::spawn(delayed(cr, sw, delay));
            tokio::spawn(delayed(sr, cw, delay));
        }
    });
    for (n, entrant) in entrants.iter().enumerate() {
        let client = Client {
            entrant: entrant.clone(),
            game: game.clone(),
            sent: Arc::default(),
            latencies: Arc::default(),
            think,
        };
        tokio::spawn(client.run(format!("127.9.0.{}", n + 1), proxy_port));
    }
    let mut links = links.into_iter();
    let (mut black, mut white) = (links.next().unwrap(), links.next().unwrap());
    for link in [&mut black, &mut white] {
        let within = Instant::now() + Duration::from_secs(60);
        link.wait_admitted(Some(within)).await.unwrap();
    }
    let charged = play(99, black, white, 20, game).await;
    let mut charged: Vec<f64> = charged.iter().map(|d| d.as_secs_f64() * 1000.0).collect();
    charged.sort_by(f64::total_cmp);
    let median = charged[charged.len() / 2];
    println!(
        "a link of 100 ms each way, 300 ms of thought a move: median charged {median:.0} ms, {:.0} ms from the thought (budget 60)",
        (median - 300.0).abs()
    );
}

/// Bytes from `from` to `to`, each chunk `delay` late, in order.
async fn delayed(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    delay: Duration,
) {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<(tokio::time::Instant, Vec<u8>)>();
    tokio::spawn(async move {
        while let Some((due, bytes)) = rx.recv().await {
            tokio::time::sleep_until(due).await;
            if to.write_all(&bytes).await.is_err() {
                return;
            }
        }
    });
    let mut buffer = vec![0u8; 16 * 1024];
    while let Ok(n) = from.read(&mut buffer).await {
        if n == 0
            || tx
                .send((tokio::time::Instant::now() + delay, buffer[..n].to_vec()))
                .is_err()
        {
            return;
        }
    }
}

/// A board: the game told to both links as a board tells it, then
/// `moves` moves relayed; the thinking charged for each.
async fn play(
    board: u32,
    mut black: SeatLink,
    mut white: SeatLink,
    moves: usize,
    game: Arc<Vec<String>>,
) -> Vec<Duration> {
    let name = GameName {
        round: 1,
        board,
        black: black.entrant.clone(),
        white: white.entrant.clone(),
    };
    let _feed = stream_to_seats(&[(&black, name.to_string()), (&white, name.to_string())]);
    let mut id = 0;
    for link in [&mut black, &mut white] {
        for line in ["boardsize 19", "clear_board", "komi 7.5"] {
            id += 1;
            ask(link, id, line).await;
        }
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut charged = Vec::new();
    for n in 0..moves.min(game.len()) {
        let (colour, mover, other) = match n % 2 {
            0 => ("black", &mut black, &mut white),
            _ => ("white", &mut white, &mut black),
        };
        id += 1;
        let (answer, think) = ask(mover, id, &format!("genmove {colour}")).await;
        charged.push(think);
        let vertex = answer.trim_start_matches(|c: char| c == '=' || c.is_ascii_digit());
        id += 1;
        ask(other, id, &format!("play {colour} {}", vertex.trim())).await;
    }
    charged
}

/// One command on a link; its answer and the thinking charged.
async fn ask(link: &mut SeatLink, id: u32, line: &str) -> (String, Duration) {
    link.write(format!("{id} {line}\n").as_bytes())
        .await
        .unwrap();
    let mut text = Vec::new();
    loop {
        let bytes = link.read().await.unwrap();
        assert!(!bytes.is_empty(), "a client was lost");
        text.extend_from_slice(&bytes);
        if text.ends_with(b"\n\n") {
            let think = link.last_stamp.take().map_or(Duration::ZERO, |(t, _)| t);
            return (String::from_utf8_lossy(&text).trim().to_string(), think);
        }
    }
}

/// A CGOS client that plays the game's moves in turn.
struct Client {
    entrant: String,
    game: Arc<Vec<String>>,
    sent: Sent,
    latencies: Arc<Mutex<Vec<f64>>>,
    think: Duration,
}

impl Client {
    async fn run(self, source: String, port: u16) {
        let socket = TcpSocket::new_v4().unwrap();
        socket.bind(format!("{source}:0").parse().unwrap()).unwrap();
        let tcp = socket
            .connect(format!("127.0.0.1:{port}").parse().unwrap())
            .await
            .unwrap();
        let _ = tcp.set_nodelay(true);
        let (reader, mut writer) = tcp.into_split();
        let mut lines = BufReader::new(reader).lines();
        let (mut game_id, mut moves_seen) = (0u64, 0usize);
        while let Ok(Some(line)) = lines.next_line().await {
            let words: Vec<&str> = line.split_whitespace().collect();
            let reply = match words.first().copied() {
                Some("protocol") => Some("e1 seat_load".to_string()),
                Some("username") => Some(self.entrant.clone()),
                Some("password") => Some(format!("{}-pw", self.entrant)),
                Some("setup") => {
                    game_id = words[1].parse().unwrap();
                    moves_seen = (words.len() - 7) / 2;
                    None
                }
                Some("play") => {
                    let key = (game_id, moves_seen);
                    if let Some(at) = self.sent.lock().unwrap().remove(&key) {
                        let ms = at.elapsed().as_secs_f64() * 1000.0;
                        self.latencies.lock().unwrap().push(ms);
                    }
                    moves_seen += 1;
                    None
                }
                Some("genmove") => {
                    tokio::time::sleep(self.think).await;
                    let vertex = self.game[moves_seen.min(self.game.len() - 1)].clone();
                    self.sent
                        .lock()
                        .unwrap()
                        .insert((game_id, moves_seen), Instant::now());
                    moves_seen += 1;
                    Some(vertex)
                }
                Some("gameover") => Some("ready".to_string()),
                _ => None,
            };
            if let Some(reply) = reply {
                if writer
                    .write_all(format!("{reply}\n").as_bytes())
                    .await
                    .is_err()
                {
                    return;
                }
            }
        }
    }
}

fn own_cpu_ms() -> f64 {
    super::support::cpu_ms_of(std::process::id()).unwrap()
}
