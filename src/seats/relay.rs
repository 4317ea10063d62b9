//! Seats in an event: the runner owns the venue (the TLS listener and the
//! seats, which stay connected between rounds), and each board's goref, a
//! process of its own, reaches its seated entrant through the runner over a
//! Unix socket in the event's keys folder. [`RelayServer`] is the runner's
//! side; [`attach`] gives a board the entrant's [`SeatLink`], which comes
//! back by itself when the runner is started again.

use crate::shell_time::Threads;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::{UnixListener, UnixStream};
use tokio::sync::{mpsc, watch};

pub use super::board_news::SeatBoard;
use super::board_news::ToBoard;
use super::cgos::CgosListener;
use super::keeper::{keep, Cards, ToKeeper};
use super::keys::SeatKeys;
use super::link::{SeatLink, SeatNews, ToSeat};
use super::venue::{Venue, GOODBYE_WAIT};
use goref_core::protocol::seat::encode;
use goref_core::tournament::hall::SeatPicture;

/// The runner's socket for the boards, in the keys folder.
pub const RELAY_SOCKET: &str = "relay.sock";
/// How soon a board tries the runner's socket again.
const RETRY: Duration = Duration::from_millis(500);

/// What a board says to the runner.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum FromBoard {
    Attach {
        entrant: String,
        /// The board's game folder: only the board the runner plays the
        /// entrant on now may take its seat.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        folder: Option<PathBuf>,
    },
    Command {
        line: String,
    },
    Stream {
        line: String,
    },
    Info {
        text: String,
    },
}

/// The game folder each seated entrant plays in now, as the runner says:
/// a board's goref in another folder (one of the runner's earlier life,
/// whose game was voided or started again since) is refused the seat.
pub type PlayingBoards = Arc<Mutex<HashMap<String, PathBuf>>>;

/// Why the board in `folder` may not take `entrant`'s seat, if it may not.
/// A board that names no folder (an older goref) is let in.
fn attach_refusal(
    playing: &HashMap<String, PathBuf>,
    entrant: &str,
    folder: Option<&Path>,
) -> Option<String> {
    let folder = folder?;
    match playing.get(entrant) {
        Some(now) if same_folder(now, folder) => None,
        Some(now) => Some(format!(
            "{entrant} plays in {} now, not in {}",
            now.display(),
            folder.display()
        )),
        None => Some(format!(
            "{entrant} plays no board now; {} is not one of the runner's",
            folder.display()
        )),
    }
}

fn same_folder(a: &Path, b: &Path) -> bool {
    let key = |p: &Path| {
        std::fs::canonicalize(p)
            .or_else(|_| std::path::absolute(p))
            .unwrap_or_else(|_| p.to_path_buf())
    };
    a == b || key(a) == key(b)
}

/// How the runner's venue takes its seats.
pub struct RelaySettings {
    /// `HOST:PORT` to listen on for `goref seat`s.
    pub listen: Option<String>,
    /// The CGOS door, for the entrants with a CGOS client.
    pub cgos: Option<CgosSettings>,
    /// The venue's name, as its `welcome` says it.
    pub name: String,
    /// The seats are asked for their programs' stderr.
    pub asks_stderr: bool,
    /// Each seat's check card, run through it when it first connects.
    pub cards: Option<Cards>,
}

/// The event's CGOS door: where it listens, the CGOS entrants' passwords,
/// and the door's settings.
pub struct CgosSettings {
    pub listen: String,
    pub passwords: goref_core::protocol::seat::Tokens,
    pub door: goref_core::protocol::cgos::DoorSettings,
}

/// The runner's venue and relay, on a thread of their own; they stop with
/// the runner.
pub struct RelayServer {
    /// Where the venue listens for seats; none for programs kept here.
    pub address: Option<std::net::SocketAddr>,
    /// Where the CGOS door listens, when the event has one.
    pub cgos_address: Option<std::net::SocketAddr>,
    pub socket: PathBuf,
    pub seats: SeatBoard,
    /// Where each seated entrant plays now, kept by the runner.
    pub playing: PlayingBoards,
    farewell: mpsc::UnboundedSender<String>,
    said: std::sync::mpsc::Receiver<()>,
}

/// A CGOS entrant's card: the door speaks CGOS to its client, so the
/// program behind it cannot be checked over GTP.
const UNCHECKED_CGOS: &str = "not checked: a CGOS client";

impl RelayServer {
    /// Listens for seats on `listen` and for boards on the keys folder's
    /// socket.
    pub fn start(keys: SeatKeys, settings: RelaySettings) -> Result<RelayServer, String> {
        let socket = keys.folder.join(RELAY_SOCKET);
        let cgos = settings
            .cgos
            .iter()
            .flat_map(|cgos| cgos.passwords.entrants());
        let entrants: Vec<String> = keys
            .tokens
            .entrants()
            .chain(cgos)
            .map(|(e, _)| e.to_string())
            .collect();
        Self::spawn(socket, &entrants, Seats::Venue(keys, Box::new(settings)))
    }

    /// Serves programs kept here (`seats::local`), each by its link, to
    /// the boards on `socket`; no venue listens.
    pub fn start_kept(socket: PathBuf, links: Vec<SeatLink>) -> Result<RelayServer, String> {
        let entrants: Vec<String> = links.iter().map(|link| link.entrant.clone()).collect();
        Self::spawn(socket, &entrants, Seats::Kept(links))
    }

    fn spawn(
        socket: PathBuf,
        entrants: &[String],
        seats_from: Seats,
    ) -> Result<RelayServer, String> {
        let _ = std::fs::remove_file(&socket);
        let seats: SeatBoard = Arc::new(Mutex::new(
            entrants
                .iter()
                .map(|entrant| {
                    let picture = SeatPicture {
                        entrant: entrant.to_string(),
                        ..SeatPicture::default()
                    };
                    (entrant.to_string(), picture)
                })
                .collect(),
        ));
        let board = seats.clone();
        let playing = PlayingBoards::default();
        let who_plays = playing.clone();
        let (ready_tx, ready_rx) = std::sync::mpsc::channel();
        let (farewell, farewell_rx) = mpsc::unbounded_channel();
        let (said_tx, said) = std::sync::mpsc::channel();
        let path = socket.clone();
        std::thread::Builder::new()
            .name("seats".into())
            .spawn(move || {
                let runtime = match crate::shell_time::runtime(Threads::Caller) {
                    Ok(runtime) => runtime,
                    Err(e) => return drop(ready_tx.send(Err(e.to_string()))),
                };
                let ends = Ends {
                    ready: ready_tx,
                    farewell: farewell_rx,
                    said: said_tx,
                    playing: who_plays,
                };
                runtime.block_on(serve(seats_from, path, board, ends));
            })
            .map_err(|e| format!("cannot start the seats' thread: {e}"))?;
        let (address, cgos_address) = ready_rx
            .recv()
            .map_err(|_| "the seats' thread stopped".to_string())??;
        Ok(RelayServer {
            address,
            cgos_address,
            socket,
            seats,
            playing,
            farewell,
            said,
        })
    }

    /// The event is over: every seat is told so (`goodbye`) and stops
    /// rather than dial again. Waits a few seconds at most for them.
    pub fn farewell(&self, reason: &str) {
        if self.farewell.send(reason.to_string()).is_ok() {
            let _ = self
                .said
                .recv_timeout(GOODBYE_WAIT + Duration::from_secs(1));
        }
    }
}

/// How the seats' thread tells the runner it listens, hears that the event
/// is over, and says it has told the seats.
struct Ends {
    ready: std::sync::mpsc::Sender<Result<Listening, String>>,
    farewell: mpsc::UnboundedReceiver<String>,
    said: std::sync::mpsc::Sender<()>,
    playing: PlayingBoards,
}

/// Where the venue and the CGOS door listen, each when there is one.
type Listening = (Option<std::net::SocketAddr>, Option<std::net::SocketAddr>);

/// Where a relay's seats come from.
enum Seats {
    /// A venue's listener, for the entrants with a token.
    Venue(SeatKeys, Box<RelaySettings>),
    /// Programs kept by the runner, one link each.
    Kept(Vec<SeatLink>),
}

async fn serve(seats: Seats, socket: PathBuf, board: SeatBoard, ends: Ends) {
    let Ends {
        ready,
        mut farewell,
        said,
        playing,
    } = ends;
    let mut venue = None;
    let mut door = None;
    let mut links: Vec<(SeatLink, Option<Cards>, Option<&'static str>)> = Vec::new();
    match seats {
        Seats::Venue(keys, settings) => {
            let RelaySettings {
                listen,
                cgos,
                name,
                asks_stderr,
                cards,
            } = *settings;
            if let Some(listen) = listen {
                let mut started = match Venue::start(&listen, &keys, &name, asks_stderr).await {
                    Ok(started) => started,
                    Err(why) => return drop(ready.send(Err(why))),
                };
                for (entrant, _) in keys.tokens.entrants() {
                    if let Some(link) = started.take_link(entrant) {
                        links.push((link, cards.clone(), None));
                    }
                }
                venue = Some(started);
            }
            if let Some(cgos) = cgos {
                let entrants: Vec<String> = cgos
                    .passwords
                    .entrants()
                    .map(|(e, _)| e.to_string())
                    .collect();
                let mut started =
                    match CgosListener::start(&cgos.listen, cgos.passwords, cgos.door).await {
                        Ok(started) => started,
                        Err(why) => return drop(ready.send(Err(why))),
                    };
                for entrant in &entrants {
                    if let Some(link) = started.take_link(entrant) {
                        links.push((link, None, Some(UNCHECKED_CGOS)));
                    }
                }
                door = Some(started);
            }
        }
        Seats::Kept(kept) => links.extend(kept.into_iter().map(|link| (link, None, None))),
    }
    let bound = crate::files::SocketPath::of(&socket);
    let boards = match bound.and_then(|bound| UnixListener::bind(bound.path())) {
        Ok(listener) => listener,
        Err(e) => {
            let why = format!("{}: {e}", socket.display());
            return drop(ready.send(Err(why)));
        }
    };
    let mut keepers = HashMap::new();
    for (link, cards, unchecked) in links {
        let (tx, rx) = mpsc::unbounded_channel();
        let entrant = link.entrant.clone();
        tokio::spawn(keep(link, rx, board.clone(), cards, unchecked));
        keepers.insert(entrant, tx);
    }
    let listening = (
        venue.as_ref().map(|venue| venue.address),
        door.as_ref().map(|door| door.address),
    );
    let _ = ready.send(Ok(listening));
    let mut next_board = 0u64;
    loop {
        let accepted = tokio::select! {
            accepted = boards.accept() => accepted,
            reason = farewell.recv() => {
                let reason = reason.unwrap_or_else(|| "the venue closed".into());
                for keeper in keepers.values() {
                    let _ = keeper.send(ToKeeper::Goodbye(reason.clone()));
                }
                if let Some(venue) = &venue {
                    venue.settled(GOODBYE_WAIT).await;
                }
                if let Some(door) = &door {
                    door.settled(GOODBYE_WAIT).await;
                }
                let _ = said.send(());
                return;
            }
        };
        let Ok((stream, _)) = accepted else {
            tokio::time::sleep(RETRY).await;
            continue;
        };
        next_board += 1;
        let (reader, writer) = stream.into_split();
        let mut lines = BufReader::new(reader).lines();
        let Ok(Some(first)) = lines.next_line().await else {
            continue;
        };
        let Ok(FromBoard::Attach { entrant, folder }) = serde_json::from_str(&first) else {
            continue;
        };
        let refused = attach_refusal(
            &playing.lock().expect("playing boards"),
            &entrant,
            folder.as_deref(),
        );
        if let Some(why) = refused {
            tracing::warn!(%entrant, "a board is refused the seat: {why}");
            continue;
        }
        let Some(keeper) = keepers.get(&entrant).cloned() else {
            continue;
        };
        let board = next_board;
        let _ = keeper.send(ToKeeper::Board(board, writer));
        tokio::spawn(async move {
            while let Ok(Some(line)) = lines.next_line().await {
                match serde_json::from_str(&line) {
                    Ok(FromBoard::Command { line }) => {
                        let _ = keeper.send(ToKeeper::Command(board, line));
                    }
                    Ok(FromBoard::Stream { line }) => {
                        let _ = keeper.send(ToKeeper::Stream(board, line));
                    }
                    Ok(FromBoard::Info { text }) => {
                        let _ = keeper.send(ToKeeper::Info(board, text));
                    }
                    _ => {}
                }
            }
            let _ = keeper.send(ToKeeper::Gone(board));
        });
    }
}

/// The link a board's player uses for `entrant`, through the runner's
/// socket at `socket`; dialled, and dialled again, by a task of its own.
pub fn attach(socket: &Path, entrant: &str, folder: Option<&Path>) -> SeatLink {
    let (to_seat, mut commands) = mpsc::unbounded_channel();
    let (news_tx, news) = mpsc::unbounded_channel();
    let (admitted_tx, admitted) = watch::channel(0);
    let (socket, name) = (socket.to_path_buf(), entrant.to_string());
    let folder = folder.map(|f| std::path::absolute(f).unwrap_or_else(|_| f.to_path_buf()));
    tokio::spawn(async move {
        let mut away_said = false;
        loop {
            let reach = crate::files::SocketPath::of(&socket);
            let connected = match &reach {
                Ok(reach) => UnixStream::connect(reach.path()).await,
                Err(_) => Err(std::io::ErrorKind::NotFound.into()),
            };
            let Ok(stream) = connected else {
                tokio::time::sleep(RETRY).await;
                continue;
            };
            while commands.try_recv().is_ok() {}
            let (reader, mut writer) = stream.into_split();
            let attach = FromBoard::Attach {
                entrant: name.clone(),
                folder: folder.clone(),
            };
            if writer.write_all(&encode(&attach)).await.is_err() {
                continue;
            }
            let mut lines = BufReader::new(reader).lines();
            loop {
                tokio::select! {
                    line = lines.next_line() => {
                        let Ok(Some(line)) = line else { break };
                        away_said = false;
                        let Ok(news) = serde_json::from_str::<ToBoard>(&line) else { continue };
                        if let ToBoard::Admitted { .. } = news {
                            admitted_tx.send_modify(|generation| *generation += 1);
                        }
                        if news_tx.send(SeatNews::from(news)).is_err() {
                            return;
                        }
                    }
                    command = commands.recv() => {
                        let order = match command {
                            Some(ToSeat::Command(line)) => FromBoard::Command { line },
                            Some(ToSeat::Stream(line)) => FromBoard::Stream { line },
                            Some(ToSeat::Info(text)) => FromBoard::Info { text },
                            Some(ToSeat::Goodbye(_)) => continue,
                            None => return,
                        };
                        let _ = writer.write_all(&encode(&order)).await;
                    }
                }
            }
            if !std::mem::replace(&mut away_said, true) {
                let lost = SeatNews::VenueAway("the event's runner went away".into());
                if news_tx.send(lost).is_err() {
                    return;
                }
            }
            tokio::time::sleep(RETRY).await;
        }
    });
    SeatLink::new(entrant.to_string(), to_seat, news, admitted)
}

#[cfg(test)]
mod tests {
    use super::*;
    use goref_core::protocol::seat::Right;

    #[test]
    fn only_the_board_the_runner_plays_an_entrant_on_may_take_its_seat() {
        let root = tempfile::tempdir().unwrap();
        let now = root.path().join("round-1").join("board-2-2");
        let before = root.path().join("round-1").join("board-2");
        std::fs::create_dir_all(&now).unwrap();
        std::fs::create_dir_all(&before).unwrap();
        let playing = HashMap::from([("alpha".to_string(), now.clone())]);
        assert_eq!(attach_refusal(&playing, "alpha", Some(&now)), None);
        let dotted = root.path().join("round-1").join(".").join("board-2-2");
        assert_eq!(attach_refusal(&playing, "alpha", Some(&dotted)), None);
        let old = attach_refusal(&playing, "alpha", Some(&before)).unwrap();
        assert!(
            old.contains("alpha plays in") && old.contains("board-2-2"),
            "{old}"
        );
        let idle = attach_refusal(&playing, "beta", Some(&now)).unwrap();
        assert!(idle.contains("beta plays no board now"), "{idle}");
        assert_eq!(
            attach_refusal(&playing, "beta", None),
            None,
            "an older goref"
        );
    }

    #[test]
    fn a_seats_news_crosses_the_relay_unchanged() {
        let news = [
            SeatNews::Admitted {
                client: "goref-seat 0.1.0".into(),
            },
            SeatNews::Answer {
                text: "= D4\n\n".into(),
                think: Duration::from_millis(1200),
                venue_measure: Duration::from_millis(1450),
            },
            SeatNews::Operator(Right::Resign),
            SeatNews::Lost {
                why: "silent for 10 s".into(),
                replaced: false,
            },
        ];
        for item in news {
            let line = encode(&ToBoard::from(item.clone()));
            let back: ToBoard = serde_json::from_slice(&line[..line.len() - 1]).unwrap();
            assert_eq!(SeatNews::from(back), item);
        }
    }
}
