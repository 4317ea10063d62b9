//! `--web ADDR`: the page for browsers and the hall's projector, and the
//! WebSocket it watches through, on the mirror's runtime.
//!
//! The page (HTML, CSS and a small script, all inside the binary) is a
//! spectator like any other: its WebSocket speaks the mirror's wire, a
//! line of it in each text message (several lines may share one), and is
//! bridged to the same spectator's session as a `--serve` connection, with
//! the same gate, caps and token. `GET /` is the page, `/?projector` the
//! page cycling through a hall's boards in large type, `/?board=N` a board
//! opened at once, `/?token=T` a token for the hello. What is not a text
//! message (a binary one, a frame the WebSocket protocol refuses: text
//! that is not UTF-8, a message past the line limit) reaches the session
//! as a line that is not the wire, so that it is refused and counted as a
//! `--serve` connection's junk is.

use std::net::SocketAddr;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, State};
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;
use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream};

use super::conn::Conn;
use super::wire::SPECTATOR_LINE_LIMIT;

const PAGE: &str = include_str!("web/index.html");
const STYLE: &str = include_str!("web/goref.css");
const SCRIPT: &str = include_str!("web/goref.js");

/// How much a bridge holds between the WebSocket and the session.
const BRIDGE_BYTES: usize = 256 << 10;

/// Serves the page and its WebSocket on `listener`; each WebSocket is
/// handed to `admit` as a connection from its peer.
pub(crate) async fn serve<A>(listener: std::net::TcpListener, admit: A)
where
    A: Fn(Conn, SocketAddr) + Clone + Send + Sync + 'static,
{
    let listener = match tokio::net::TcpListener::from_std(listener) {
        Ok(listener) => listener,
        Err(e) => return tracing::error!("the page cannot listen: {e}"),
    };
    let router = Router::new()
        .route(
            "/",
            get(|| async { page("text/html; charset=utf-8", PAGE) }),
        )
        .route("/goref.css", get(|| async { page("text/css", STYLE) }))
        .route(
            "/goref.js",
            get(|| async { page("text/javascript", SCRIPT) }),
        )
        .route("/ws", get(upgrade::<A>))
        .with_state(admit);
    let service = router.into_make_service_with_connect_info::<SocketAddr>();
    if let Err(e) = axum::serve(listener, service).await {
        tracing::error!("the page stopped: {e}");
    }
}

fn page(kind: &'static str, body: &'static str) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
}

async fn upgrade<A>(
    socket: WebSocketUpgrade,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    State(admit): State<A>,
) -> impl IntoResponse
where
    A: Fn(Conn, SocketAddr) + Clone + Send + Sync + 'static,
{
    socket
        .max_message_size(SPECTATOR_LINE_LIMIT)
        .on_upgrade(move |socket| async move {
            let (session, bridge) = tokio::io::duplex(BRIDGE_BYTES);
            tokio::spawn(carry(socket, bridge));
            admit(Conn::Duplex(session), peer);
        })
}

/// What came first: a message from the browser, or lines from the session.
enum Came {
    Browser(Option<Result<Message, axum::Error>>),
    Session(std::io::Result<usize>),
}

/// Carries lines both ways between a WebSocket and its session, until
/// either side closes.
async fn carry(mut socket: WebSocket, bridge: DuplexStream) {
    let (mut from_session, mut to_session) = tokio::io::split(bridge);
    let mut buffer = vec![0u8; 64 << 10];
    let mut pending: Vec<u8> = Vec::new();
    loop {
        let came = tokio::select! {
            message = socket.recv() => Came::Browser(message),
            read = from_session.read(&mut buffer) => Came::Session(read),
        };
        match came {
            Came::Browser(Some(Ok(Message::Text(text)))) => {
                let mut line = text.as_str().trim_end_matches(['\r', '\n']).to_string();
                line.push('\n');
                if to_session.write_all(line.as_bytes()).await.is_err() {
                    break;
                }
            }
            Came::Browser(Some(Ok(Message::Binary(_)))) => {
                let _ = to_session.write_all(b"binary\n").await;
            }
            Came::Browser(Some(Ok(Message::Ping(_) | Message::Pong(_)))) => {}
            Came::Browser(Some(Err(_))) => {
                let _ = to_session
                    .write_all(b"not a WebSocket text message\n")
                    .await;
                break;
            }
            Came::Browser(Some(Ok(Message::Close(_))) | None) => break,
            Came::Session(Ok(0) | Err(_)) => break,
            Came::Session(Ok(n)) => {
                pending.extend_from_slice(&buffer[..n]);
                let Some(end) = pending.iter().rposition(|&b| b == b'\n') else {
                    continue;
                };
                let lines: Vec<u8> = pending.drain(..=end).collect();
                let text = String::from_utf8_lossy(&lines).into_owned();
                if socket.send(Message::Text(text.into())).await.is_err() {
                    break;
                }
            }
        }
    }
    let _ = socket.send(Message::Close(None)).await;
}
