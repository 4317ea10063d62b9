//! The server over real loopback TCP, with the limits shortened: a reader
//! that never reads is dropped while another spectator keeps up, a
//! restarted referee is followed again, and shutting down delivers every
//! event before the goodbye.

use std::io::{BufRead, BufReader, Write};
use std::time::Duration;

use super::*;
use crate::mirror::client::{Link, Spectator};
use crate::mirror::follow::{Follow, FollowEvent, Target};
use goref_core::game::Color;
use goref_core::referee::{GameView, LineDirection};
use goref_core::referee::{HandedOn, StampedEvent};

fn quick_limits() -> Limits {
    Limits {
        send_timeout: Duration::from_millis(500),
        heartbeat: Duration::from_millis(200),
        ..Limits::default()
    }
}

fn start(address: &str) -> MirrorServer {
    MirrorServer::start(ServeConfig {
        address: Some(address.into()),
        web: None,
        publish: None,
        token: None,
        limits: quick_limits(),
        history: HistoryLimits::default(),
        operator: None,
    })
    .unwrap()
}

fn line(seq: u64) -> StampedEvent {
    StampedEvent {
        seq,
        t_ms: seq,
        after_result: false,
        event: GameEvent::Gtp {
            color: Color::Black,
            direction: LineDirection::Stderr,
            line: format!("{seq:>8} {}", "thinking ".repeat(30)),
        },
    }
}

/// Follows until the view reaches `seq` (or a minute passes).
async fn follow_to(follow: &mut Follow, seq: u64) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while follow.spectator.view.last_seq < seq {
        match tokio::time::timeout_at(deadline, follow.next()).await {
            Ok(FollowEvent::Failed(why)) => panic!("{why}"),
            Ok(_) => {}
            Err(_) => panic!("stuck at {}", follow.spectator.view.last_seq),
        }
    }
}

fn raw_spectator(address: SocketAddr) -> std::net::TcpStream {
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    stream
        .write_all(b"{\"type\":\"hello\",\"version\":1}\n")
        .unwrap();
    stream
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reader_that_never_reads_is_dropped_while_another_keeps_up() {
    let server = start("127.0.0.1:0");
    let (feed, mut notes) = server.attach_game();
    let stuck = raw_spectator(server.address().unwrap());
    let total = 40_000;
    let mut follow = Follow::new(
        Target::Tcp(server.address().unwrap().to_string()),
        Spectator::new(None, false, now()),
        false,
    );
    while !matches!(follow.spectator.link(), Link::Live { .. }) {
        follow.next().await;
    }
    let follower = tokio::spawn(async move {
        follow_to(&mut follow, total).await;
        follow
    });
    let mut host = GameView::new();
    for seq in 1..=total {
        let event = line(seq);
        host.apply_stamped(&event);
        feed.send(vec![HandedOn::new(now(), event)]).unwrap();
        if seq % 100 == 0 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
    let follow = follower.await.unwrap();
    assert_eq!(follow.spectator.view, host);

    let stuck_address = format!("{} (", stuck.local_addr().unwrap());
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    let stuck_left = loop {
        let note = tokio::time::timeout_at(deadline, notes.recv())
            .await
            .expect("the stuck reader is dropped")
            .unwrap();
        if let GameEvent::Spectators { left, .. } = note {
            if let Some(entry) = left.into_iter().find(|l| l.starts_with(&stuck_address)) {
                break entry;
            }
        }
    };
    assert!(stuck_left.contains("too slow"), "{stuck_left}");
    drop(stuck);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_referee_is_followed_again_from_a_snapshot() {
    let first = start("127.0.0.1:0");
    let address = first.address().unwrap();
    let (feed, _notes) = first.attach_game();
    for seq in 1..=10 {
        feed.send(vec![HandedOn::new(now(), line(seq))]).unwrap();
    }
    let mut follow = Follow::new(
        Target::Tcp(address.to_string()),
        Spectator::new(None, false, now()),
        false,
    );
    follow_to(&mut follow, 10).await;
    first.shutdown();

    let second = start(&address.to_string());
    let (feed, _notes) = second.attach_game();
    let mut host = GameView::new();
    for seq in 1..=5 {
        let event = line(seq);
        host.apply_stamped(&event);
        feed.send(vec![HandedOn::new(now(), event)]).unwrap();
    }
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while follow.spectator.view != host {
        tokio::time::timeout_at(deadline, follow.next())
            .await
            .expect("followed again");
    }
    assert_eq!(follow.spectator.status(now()).text, "resynced");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutting_down_delivers_every_event_before_the_goodbye() {
    let server = start("127.0.0.1:0");
    let address = server.address().unwrap();
    let (feed, _notes) = server.attach_game();
    let mut stream = BufReader::new(raw_spectator(address));
    read_until(&mut stream, r#""type":"welcome""#);
    let reader =
        std::thread::spawn(move || stream.lines().map_while(Result::ok).collect::<Vec<_>>());
    for seq in 1..=500 {
        feed.send(vec![HandedOn::new(now(), line(seq))]).unwrap();
    }
    server.shutdown();
    let lines = reader.join().unwrap();
    let events = lines.iter().filter(|l| l.contains(r#""type":"event""#));
    assert_eq!(events.count(), 500);
    assert!(
        lines
            .last()
            .unwrap()
            .contains("the referee is shutting down"),
        "{:?}",
        lines.last()
    );
}

/// What the next `session` event for the game says happened.
async fn next_session(notes: &mut mpsc::UnboundedReceiver<GameEvent>) -> SessionChange {
    let note = tokio::time::timeout(Duration::from_secs(10), notes.recv())
        .await
        .unwrap()
        .unwrap();
    match note {
        GameEvent::Session { what, .. } => what,
        other => panic!("not a session event: {other:?}"),
    }
}

/// Reads lines from `reader` until one contains `wanted`, or panics.
fn read_until(reader: &mut impl BufRead, wanted: &str) -> String {
    let mut line = String::new();
    for _ in 0..1000 {
        line.clear();
        if reader.read_line(&mut line).unwrap() == 0 {
            break;
        }
        if line.contains(wanted) {
            return line;
        }
    }
    panic!("no line with {wanted}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_go_to_the_game_from_the_folders_socket_and_close_a_spectator() {
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("attach.sock");
    let (operator, mut commands) = mpsc::unbounded_channel();
    let attach = MirrorServer::start_attach(&socket, operator).unwrap();
    let mode = std::fs::metadata(&socket).unwrap().permissions();
    assert_eq!(
        std::os::unix::fs::PermissionsExt::mode(&mode) & 0o777,
        0o600
    );
    let (_feed, mut notes) = attach.attach_game();
    let attached = tokio::task::spawn_blocking(move || {
        let mut stream = std::os::unix::net::UnixStream::connect(&socket).unwrap();
        stream
            .write_all(b"{\"type\":\"hello\",\"version\":1}\n")
            .unwrap();
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        read_until(&mut reader, "\"welcome\"");
        stream
            .write_all(b"{\"type\":\"command\",\"line\":\"adjudicate B+R a power cut\"}\n")
            .unwrap();
        stream
    });
    let command = tokio::time::timeout(Duration::from_secs(10), commands.recv())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        command,
        OperatorInput::Command(goref_core::referee::OperatorCommand::Adjudicate {
            result: "B+R".into(),
            reason: "a power cut".into(),
        })
    );
    assert_eq!(next_session(&mut notes).await, SessionChange::Attached);
    drop(attached.await.unwrap());
    assert_eq!(next_session(&mut notes).await, SessionChange::Left);
    drop(attach);
    assert!(!dir.path().join("attach.sock").exists(), "the socket goes");

    let server = start("127.0.0.1:0");
    let (_feed, _notes) = server.attach_game();
    let address = server.address().unwrap();
    let told = tokio::task::spawn_blocking(move || {
        let mut stream = raw_spectator(address);
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        read_until(&mut reader, "\"welcome\"");
        stream
            .write_all(b"{\"type\":\"command\",\"line\":\"void\"}\n")
            .unwrap();
        read_until(&mut reader, "\"bye\"")
    })
    .await
    .unwrap();
    assert!(told.contains("cannot send commands"), "{told}");
}

#[test]
fn an_events_own_screens_on_its_boards_are_told_apart_by_their_pid() {
    let attached = format!("goref: {}", super::attached_notice("uid 0 pid 4242"));
    assert!(super::is_screen_of(&attached, 4242));
    assert!(!super::is_screen_of(&attached, 424), "another process");
    assert!(!super::is_screen_of(&attached, 42421));
    let left = "goref: the screen attached by uid 0 pid 4242 left (its link closed)";
    assert!(super::is_screen_of(left, 4242));
    assert!(!super::is_screen_of("goref: move 42 pid 4242", 4242));
}
