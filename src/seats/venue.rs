//! The venue's seat listener: accepts TLS connections, lets in only an
//! entrant's own token (the pure [`VenueSide`] decides), and joins each
//! admitted connection to that entrant's [`SeatLink`]. A newer connection
//! for an entrant replaces the older (the way back after a half-open link):
//! the older's loss reaches the link before the newer's admission.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_rustls::TlsAcceptor;

use super::keys::SeatKeys;
use super::link::{SeatLink, SeatNews, ToSeat};
use super::slots::{Claim, Slots};
use crate::shell_time::{now, Timer};
use goref_core::protocol::seat::{
    encode, LineSplitter, Tokens, VenueEvent, VenueMessage, VenueSide,
};

/// How long a TLS handshake may take.
const HANDSHAKE_WAIT: Duration = Duration::from_secs(10);
/// How long one write to a seat may block before the link counts as lost.
const WRITE_WAIT: Duration = Duration::from_secs(5);
/// How long the seats are given to hear the venue's goodbye.
pub(crate) const GOODBYE_WAIT: Duration = Duration::from_secs(3);

/// The listening venue. Dropping it stops taking new seats.
pub struct Venue {
    pub address: std::net::SocketAddr,
    links: HashMap<String, SeatLink>,
    /// Where each entrant's seat is told goodbye, whoever holds its link.
    farewells: Vec<tokio::sync::mpsc::UnboundedSender<ToSeat>>,
    accept: tokio::task::JoinHandle<()>,
    shared: Arc<Shared>,
}

impl Drop for Venue {
    fn drop(&mut self) {
        self.accept.abort();
    }
}

impl Venue {
    /// Listens on `listen` for the seats of every entrant with a token;
    /// `asks_stderr`: the seats are asked for their programs' stderr.
    pub async fn start(
        listen: &str,
        keys: &SeatKeys,
        name: &str,
        asks_stderr: bool,
    ) -> Result<Venue, String> {
        let listener = TcpListener::bind(listen)
            .await
            .map_err(|e| format!("cannot listen for seats on {listen}: {e}"))?;
        let address = listener.local_addr().map_err(|e| e.to_string())?;
        let acceptor = TlsAcceptor::from(keys.identity.server_config().map_err(|e| e.to_string())?);
        let (slots, links) = Slots::new(keys.tokens.entrants().map(|(entrant, _)| entrant));
        let shared = Arc::new(Shared {
            slots,
            tokens: keys.tokens.clone(),
            name: name.to_string(),
            asks_stderr,
        });
        let accept = tokio::spawn(accept_seats(listener, acceptor, shared.clone()));
        let farewells = links.values().map(|link| link.to_seat.clone()).collect();
        Ok(Venue {
            address,
            links,
            farewells,
            accept,
            shared,
        })
    }

    /// Waits until no admitted seat is connected (each was said goodbye),
    /// `limit` at most.
    pub async fn settled(&self, limit: Duration) {
        self.shared.slots.settled(limit).await;
    }

    /// No more games here: every seat is told `goodbye` with `reason` and
    /// stops rather than dial again; waits a few seconds at most for them.
    pub async fn farewell(&self, reason: &str) {
        for seat in &self.farewells {
            let _ = seat.send(ToSeat::Goodbye(reason.to_string()));
        }
        self.settled(GOODBYE_WAIT).await;
    }

    /// The link to `entrant`'s seat, once.
    pub fn take_link(&mut self, entrant: &str) -> Option<SeatLink> {
        self.links.remove(entrant)
    }
}

struct Shared {
    slots: Arc<Slots>,
    tokens: Tokens,
    name: String,
    asks_stderr: bool,
}

async fn accept_seats(listener: TcpListener, acceptor: TlsAcceptor, shared: Arc<Shared>) {
    loop {
        let Ok((tcp, peer)) = listener.accept().await else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let (acceptor, shared) = (acceptor.clone(), shared.clone());
        tokio::spawn(async move {
            let _ = tcp.set_nodelay(true);
            if let Err(why) = serve_seat(tcp, peer, acceptor, shared).await {
                tracing::info!(%peer, "seat connection closed: {why}");
            }
        });
    }
}

async fn serve_seat(
    tcp: TcpStream,
    peer: std::net::SocketAddr,
    acceptor: TlsAcceptor,
    shared: Arc<Shared>,
) -> Result<(), String> {
    let tls = tokio::time::timeout(HANDSHAKE_WAIT, acceptor.accept(tcp))
        .await
        .map_err(|_| "no TLS handshake in time".to_string())?
        .map_err(|e| format!("TLS: {e}"))?;
    let (mut reader, mut writer) = tokio::io::split(tls);
    let mut side = VenueSide::new(now(), shared.name.clone()).asking_stderr(shared.asks_stderr);
    let mut splitter = LineSplitter::default();
    let mut buffer = vec![0u8; 16 * 1024];
    let mut timer = Timer::default();
    let entrant = loop {
        timer.set(side.poll_timeout());
        let events = tokio::select! {
            read = reader.read(&mut buffer) => {
                let lines = match read_lines(read, &mut buffer, &mut splitter) {
                    Ok(lines) => lines,
                    Err(end) => return Err(end.tell(&mut writer).await),
                };
                lines.iter().flat_map(|line| side.handle_line(now(), line, &shared.tokens)).collect()
            }
            _ = timer.fired() => side.handle_timeout(now()),
        };
        let mut admitted = None;
        for event in events {
            match event {
                VenueEvent::Send(message) => send(&mut writer, &message).await?,
                VenueEvent::Refuse { reason, after } => {
                    tracing::warn!("seat refused: {reason}");
                    tokio::time::sleep(after).await;
                    let _ = send(
                        &mut writer,
                        &VenueMessage::Refused {
                            reason: reason.clone(),
                        },
                    )
                    .await;
                    let _ = writer.shutdown().await;
                    return Err(format!("refused: {reason}"));
                }
                VenueEvent::Lost { why } => return Err(why),
                VenueEvent::Admitted { entrant, client } => admitted = Some((entrant, client)),
                _ => {}
            }
        }
        if let Some(admitted) = admitted {
            break admitted;
        }
    };
    let (entrant, client) = entrant;
    let Claim {
        commands,
        news,
        replaced: mut close_rx,
    } = shared.slots.claim(&entrant, format!("{peer} ({client})"))?;
    let _open = shared.slots.opened();
    let mut commands = commands.lock().await;
    shared.slots.admit(&entrant, client);
    tracing::info!(%entrant, "seat admitted");
    let outcome: Result<(), (String, bool)> = loop {
        timer.set(side.poll_timeout());
        let events: Vec<VenueEvent> = tokio::select! {
            read = reader.read(&mut buffer) => match read_lines(read, &mut buffer, &mut splitter) {
                Ok(lines) => lines.iter().flat_map(|line| side.handle_line(now(), line, &shared.tokens)).collect(),
                Err(end) => break Err((end.tell(&mut writer).await, false)),
            },
            command = commands.recv() => match command {
                Some(ToSeat::Command(line)) => {
                    let (_, message) = side.command(now(), &line);
                    vec![VenueEvent::Send(message)]
                }
                Some(ToSeat::Stream(line)) => vec![VenueEvent::Send(VenueMessage::Stream { line })],
                Some(ToSeat::Info(text)) => vec![VenueEvent::Send(VenueMessage::Info { text })],
                Some(ToSeat::Goodbye(reason)) => {
                    let _ = send(&mut writer, &VenueMessage::Goodbye { reason }).await;
                    let _ = writer.shutdown().await;
                    break Ok(());
                }
                None => break Ok(()),
            },
            _ = timer.fired() => side.handle_timeout(now()),
            newer = &mut close_rx => {
                let newer = newer.unwrap_or_else(|_| "an unknown address".into());
                let reason = format!(
                    "a newer seat for {entrant} replaced this one: it connected from {newer}; \
                     if that is not {entrant}'s operator, tell the director"
                );
                let _ = send(&mut writer, &VenueMessage::Refused { reason: reason.clone() }).await;
                break Err((reason, true));
            }
        };
        let mut lost = None;
        for event in events {
            match event {
                VenueEvent::Send(message) => {
                    if let Err(why) = send(&mut writer, &message).await {
                        lost = Some(why);
                        break;
                    }
                }
                VenueEvent::Lost { why } => {
                    lost = Some(why);
                    break;
                }
                VenueEvent::Answer {
                    text,
                    think,
                    venue_measure,
                    ..
                } => {
                    let _ = news.send(SeatNews::Answer {
                        text,
                        think,
                        venue_measure,
                    });
                }
                VenueEvent::Output(text) => drop(news.send(SeatNews::Output(text))),
                VenueEvent::Operator(right) => drop(news.send(SeatNews::Operator(right))),
                VenueEvent::Program { state, detail } => {
                    let _ = news.send(SeatNews::Program { state, detail });
                }
                VenueEvent::RoundTrip(trip) => drop(news.send(SeatNews::RoundTrip(trip))),
                VenueEvent::Stderr(line) => drop(news.send(SeatNews::Stderr(line))),
                VenueEvent::Admitted { .. } | VenueEvent::Refuse { .. } => {}
            }
        }
        if let Some(why) = lost {
            break Err((why, false));
        }
    };
    if let Err((why, replaced)) = outcome {
        tracing::info!(%entrant, "seat lost: {why}");
        let _ = news.send(SeatNews::Lost {
            why: why.clone(),
            replaced,
        });
        return Err(why);
    }
    Ok(())
}

/// How reading from a seat ended.
enum ReadEnd {
    /// The connection closed or broke.
    Closed(String),
    /// The seat sent what the protocol does not allow (a line over the
    /// bound): it is told why before the connection closes.
    Broken(String),
}

impl ReadEnd {
    /// Says why to a seat that broke the protocol; the reason either way.
    async fn tell<W: AsyncWrite + Unpin>(self, writer: &mut W) -> String {
        match self {
            ReadEnd::Closed(why) => why,
            ReadEnd::Broken(why) => {
                let refused = VenueMessage::Refused {
                    reason: why.clone(),
                };
                let _ = send(writer, &refused).await;
                why
            }
        }
    }
}

fn read_lines(
    read: std::io::Result<usize>,
    buffer: &mut [u8],
    splitter: &mut LineSplitter,
) -> Result<Vec<Vec<u8>>, ReadEnd> {
    match read {
        Ok(0) => Err(ReadEnd::Closed("the seat closed the connection".into())),
        Ok(n) => splitter
            .feed(&buffer[..n])
            .map_err(|e| ReadEnd::Broken(e.to_string())),
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Err(ReadEnd::Closed(
            "the connection ended without a goodbye".into(),
        )),
        Err(e) => Err(ReadEnd::Closed(format!("the connection broke: {e}"))),
    }
}

/// Writes one message, within [`WRITE_WAIT`].
pub(crate) async fn send<W, T>(writer: &mut W, message: &T) -> Result<(), String>
where
    W: AsyncWrite + Unpin,
    T: serde::Serialize,
{
    let line = encode(message);
    let write = async {
        writer.write_all(&line).await?;
        writer.flush().await
    };
    match tokio::time::timeout(WRITE_WAIT, write).await {
        Ok(Ok(())) => Ok(()),
        Ok(Err(e)) => Err(format!("the connection broke: {e}")),
        Err(_) => Err(format!("a write blocked for {} s", WRITE_WAIT.as_secs())),
    }
}
