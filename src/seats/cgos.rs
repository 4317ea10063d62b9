//! The CGOS door's listener: plain TCP, as a CGOS server listens, for the
//! entrants who play with a CGOS client. Each connection is a pure
//! [`CgosDoor`]; once its password lets it in, it serves its entrant's
//! [`SeatLink`] as a goref seat's connection does, so the boards play it
//! as any seat: absent, lost and back under the same rules. The link's
//! round trip is read from the kernel (`TCP_INFO`) before each command,
//! for the charge and for the director's seats view.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::os::fd::AsRawFd;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use super::link::{SeatLink, SeatNews, ToSeat};
use super::slots::{Claim, Slots};
use crate::shell_time::{now, Timer};
use goref_core::protocol::cgos::wire::MAX_LINE;
use goref_core::protocol::cgos::{
    CgosDoor, DoorEvent, DoorSettings, Ended, Named, ServerLine, Sides,
};
use goref_core::protocol::seat::{LineSplitter, Tokens};
use goref_core::referee::{GameEvent, StampedEvent};
use goref_core::tournament::game_name::GameName;

/// How long one write to a client may block before the link counts as lost.
const WRITE_WAIT: Duration = Duration::from_secs(5);
/// Logins one address may begin in a minute; more are refused at once.
const LOGINS_PER_MINUTE: usize = 20;

/// The listening door. Dropping it stops taking new clients.
pub struct CgosListener {
    pub address: SocketAddr,
    links: HashMap<String, SeatLink>,
    accept: tokio::task::JoinHandle<()>,
    shared: Arc<Shared>,
}

impl Drop for CgosListener {
    fn drop(&mut self) {
        self.accept.abort();
    }
}

struct Shared {
    slots: Arc<Slots>,
    passwords: Tokens,
    settings: DoorSettings,
    logins: Mutex<HashMap<IpAddr, Vec<Instant>>>,
}

impl CgosListener {
    /// Listens on `listen` for the CGOS clients of every entrant with a
    /// password.
    pub async fn start(
        listen: &str,
        passwords: Tokens,
        settings: DoorSettings,
    ) -> Result<CgosListener, String> {
        let listener = TcpListener::bind(listen)
            .await
            .map_err(|e| format!("cannot listen for CGOS clients on {listen}: {e}"))?;
        let address = listener.local_addr().map_err(|e| e.to_string())?;
        let (slots, links) = Slots::new(passwords.entrants().map(|(entrant, _)| entrant));
        let shared = Arc::new(Shared {
            slots,
            passwords,
            settings,
            logins: Mutex::new(HashMap::new()),
        });
        let accept = tokio::spawn(accept_clients(listener, shared.clone()));
        Ok(CgosListener {
            address,
            links,
            accept,
            shared,
        })
    }

    /// The link to `entrant`'s client, once.
    pub fn take_link(&mut self, entrant: &str) -> Option<SeatLink> {
        self.links.remove(entrant)
    }

    /// Waits until no admitted client is connected, `limit` at most.
    pub async fn settled(&self, limit: Duration) {
        self.shared.slots.settled(limit).await;
    }
}

impl Shared {
    /// Whether `address` may begin another login now.
    fn may_log_in(&self, address: IpAddr, at: Instant) -> bool {
        let mut logins = self.logins.lock().expect("cgos logins");
        let recent = logins.entry(address).or_default();
        recent.retain(|began| at.saturating_duration_since(*began) < Duration::from_secs(60));
        if recent.len() >= LOGINS_PER_MINUTE {
            return false;
        }
        recent.push(at);
        true
    }
}

async fn accept_clients(listener: TcpListener, shared: Arc<Shared>) {
    loop {
        let Ok((tcp, peer)) = listener.accept().await else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let shared = shared.clone();
        tokio::spawn(async move {
            let _ = tcp.set_nodelay(true);
            if let Err(why) = serve_client(tcp, peer, shared).await {
                tracing::info!(%peer, "CGOS client closed: {why}");
            }
        });
    }
}

async fn serve_client(tcp: TcpStream, peer: SocketAddr, shared: Arc<Shared>) -> Result<(), String> {
    let fd = tcp.as_raw_fd();
    let (mut reader, mut writer) = tcp.into_split();
    if !shared.may_log_in(peer.ip(), now()) {
        let refused = ServerLine::Error(format!(
            "more than {LOGINS_PER_MINUTE} logins from {} in a minute; wait",
            peer.ip()
        ));
        let _ = write_line(&mut writer, &refused).await;
        return Err("too many logins".into());
    }
    let (mut door, first) = CgosDoor::new(now(), shared.settings.clone());
    let mut splitter = LineSplitter::bounded(MAX_LINE);
    let mut buffer = vec![0u8; 16 * 1024];
    let mut timer = Timer::default();
    let mut pending = first;
    let (entrant, client) = loop {
        let mut admitted = None;
        for event in std::mem::take(&mut pending) {
            match event {
                DoorEvent::Send(line) => write_line(&mut writer, &line).await?,
                DoorEvent::Refuse { reason, after } => {
                    tracing::warn!(%peer, "CGOS login refused: {reason}");
                    tokio::time::sleep(after).await;
                    let _ = write_line(&mut writer, &ServerLine::Error(reason.clone())).await;
                    let _ = writer.shutdown().await;
                    return Err(format!("refused: {reason}"));
                }
                DoorEvent::Lost { why } => return Err(why),
                DoorEvent::Admitted { entrant, client } => admitted = Some((entrant, client)),
                DoorEvent::Answer { .. } | DoorEvent::Note(_) => {}
            }
        }
        if let Some(admitted) = admitted {
            break admitted;
        }
        timer.set(door.poll_timeout());
        pending = tokio::select! {
            read = reader.read(&mut buffer) => match lines_read(read, &buffer, &mut splitter, &mut writer).await {
                Ok(lines) => lines.iter().flat_map(|line| door.handle_line(now(), line, &shared.passwords)).collect(),
                Err(why) => return Err(why),
            },
            _ = timer.fired() => door.handle_timeout(now()),
        };
    };
    let Claim {
        commands,
        news,
        replaced: mut close_rx,
    } = shared.slots.claim(&entrant, format!("{peer}"))?;
    let _open = shared.slots.opened();
    let mut commands = commands.lock().await;
    shared.slots.admit(&entrant, client);
    tracing::info!(%entrant, %peer, "CGOS client admitted");
    let outcome: Result<(), (String, bool)> = loop {
        timer.set(door.poll_timeout());
        let events: Vec<DoorEvent> = tokio::select! {
            read = reader.read(&mut buffer) => match lines_read(read, &buffer, &mut splitter, &mut writer).await {
                Ok(lines) => lines.iter().flat_map(|line| door.handle_line(now(), line, &shared.passwords)).collect(),
                Err(why) => break Err((why, false)),
            },
            command = commands.recv() => match command {
                Some(ToSeat::Command(line)) => {
                    if let Some(trip) = crate::transport::tcp::round_trip(fd) {
                        door.handle_round_trip(trip);
                        let _ = news.send(SeatNews::RoundTrip(trip));
                    }
                    door.command(now(), &line)
                }
                Some(ToSeat::Stream(line)) => stream_news(&mut door, &line),
                Some(ToSeat::Info(text)) => match GameName::parse(&text) {
                    Some(game) => door.handle_sides(now(), sides_of(&game)),
                    None => Vec::new(),
                },
                Some(ToSeat::Goodbye(reason)) => {
                    let _ = write_line(&mut writer, &ServerLine::Info(reason)).await;
                    let _ = writer.shutdown().await;
                    break Ok(());
                }
                None => break Ok(()),
            },
            _ = timer.fired() => door.handle_timeout(now()),
            newer = &mut close_rx => {
                let newer = newer.unwrap_or_else(|_| "an unknown address".into());
                let mut events = door.replaced(&newer);
                if let Some(DoorEvent::Lost { why }) = events.pop() {
                    for event in events {
                        if let DoorEvent::Send(line) = event {
                            let _ = write_line(&mut writer, &line).await;
                        }
                    }
                    break Err((why, true));
                }
                Vec::new()
            }
        };
        let mut lost = None;
        for event in events {
            match event {
                DoorEvent::Send(line) => {
                    if let Err(why) = write_line(&mut writer, &line).await {
                        lost = Some(why);
                        break;
                    }
                }
                DoorEvent::Answer {
                    text,
                    think,
                    venue_measure,
                } => {
                    let _ = news.send(SeatNews::Answer {
                        text,
                        think,
                        venue_measure,
                    });
                }
                DoorEvent::Note(note) => drop(news.send(SeatNews::Stderr(format!("cgos: {note}")))),
                DoorEvent::Lost { why } => {
                    lost = Some(why);
                    break;
                }
                DoorEvent::Admitted { .. } | DoorEvent::Refuse { .. } => {}
            }
        }
        if let Some(why) = lost {
            break Err((why, false));
        }
    };
    if let Err((why, replaced)) = outcome {
        tracing::info!(%entrant, "CGOS client lost: {why}");
        let _ = news.send(SeatNews::Lost {
            why: why.clone(),
            replaced,
        });
        return Err(why);
    }
    Ok(())
}

/// What a line of the game's stream tells the door: a clock, the result.
fn stream_news(door: &mut CgosDoor, line: &str) -> Vec<DoorEvent> {
    let Ok(stamped) = serde_json::from_str::<StampedEvent>(line) else {
        return Vec::new();
    };
    match stamped.event {
        GameEvent::Move {
            n, color, clock, ..
        } => {
            door.handle_move(n, color, &clock);
            Vec::new()
        }
        GameEvent::Clock { color, clock } => {
            door.handle_clock(color, &clock);
            Vec::new()
        }
        GameEvent::Result(result) => {
            let ended = Ended {
                result: result.result,
                reason: result.reason,
                illegal: result.illegal.is_some(),
            };
            door.handle_result(&crate::shell_time::today().to_string(), &ended)
        }
        _ => Vec::new(),
    }
}

fn sides_of(game: &GameName) -> Sides {
    let named = |name: &str| Named {
        name: name.to_string(),
        rating: "?".into(),
    };
    Sides {
        game: game.number(),
        black: named(&game.black),
        white: named(&game.white),
    }
}

/// The lines read; why the connection ends, the client told when it
/// sent what the protocol does not allow.
async fn lines_read<W: AsyncWrite + Unpin>(
    read: std::io::Result<usize>,
    buffer: &[u8],
    splitter: &mut LineSplitter,
    writer: &mut W,
) -> Result<Vec<Vec<u8>>, String> {
    match read {
        Ok(0) => Err("the client closed the connection".into()),
        Ok(n) => match splitter.feed(&buffer[..n]) {
            Ok(lines) => Ok(lines),
            Err(e) => {
                let _ = write_line(writer, &ServerLine::Error(e.to_string())).await;
                Err(format!("the client broke the protocol: {e}"))
            }
        },
        Err(e) => Err(format!("the connection broke: {e}")),
    }
}

/// Writes one line, within [`WRITE_WAIT`].
async fn write_line<W: AsyncWrite + Unpin>(
    writer: &mut W,
    line: &ServerLine,
) -> Result<(), String> {
    let text = format!("{line}\n");
    let write = async {
        writer.write_all(text.as_bytes()).await?;
        writer.flush().await
    };
    match tokio::time::timeout(WRITE_WAIT, write).await {
        Ok(Ok(())) => Ok(()),
        Ok(Err(e)) => Err(format!("the connection broke: {e}")),
        Err(_) => Err(format!("a write blocked for {} s", WRITE_WAIT.as_secs())),
    }
}

#[cfg(test)]
mod tests;
