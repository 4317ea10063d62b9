//! The CGOS listener on loopback: a client that logs in as the real
//! clients do (their lines as captured from cgos-client-python against the
//! Python CGOS server) is played through its entrant's link.

use std::collections::BTreeMap;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};

use super::*;

const WAIT: Duration = Duration::from_secs(10);

fn passwords() -> Tokens {
    Tokens::new(BTreeMap::from([
        ("alpha".to_string(), "alphapw".to_string()),
        ("beta".to_string(), "betapw".to_string()),
    ]))
}

struct Client {
    lines: tokio::io::Lines<BufReader<OwnedReadHalf>>,
    writer: OwnedWriteHalf,
}

impl Client {
    async fn dial(address: SocketAddr) -> Client {
        let tcp = TcpStream::connect(address).await.unwrap();
        let (reader, writer) = tcp.into_split();
        Client {
            lines: BufReader::new(reader).lines(),
            writer,
        }
    }

    async fn heard(&mut self) -> Option<String> {
        tokio::time::timeout(WAIT, self.lines.next_line())
            .await
            .expect("the door answers in time")
            .unwrap()
    }

    async fn say(&mut self, line: &str) {
        self.writer.write_all(line.as_bytes()).await.unwrap();
    }

    /// Logs in as cgos-client-python does.
    async fn log_in(address: SocketAddr, name: &str, password: &str) -> Client {
        let mut client = Client::dial(address).await;
        assert_eq!(
            client.heard().await.as_deref(),
            Some("protocol genmove_analyze")
        );
        client.say("e1 cgosPython 1.0.0 genmove_analyze\n").await;
        assert_eq!(client.heard().await.as_deref(), Some("username"));
        client.say(&format!("{name}\n")).await;
        assert_eq!(client.heard().await.as_deref(), Some("password"));
        client.say(&format!("{password}\n")).await;
        client
    }
}

/// Asks the link one GTP command and reads its whole answer.
async fn ask(link: &mut SeatLink, line: &str) -> String {
    link.write(format!("{line}\n").as_bytes()).await.unwrap();
    let bytes = tokio::time::timeout(WAIT, link.read())
        .await
        .expect("answered in time")
        .unwrap();
    String::from_utf8(bytes).unwrap()
}

#[tokio::test]
async fn a_cgos_client_is_played_through_its_entrants_link() {
    let mut door = CgosListener::start("127.0.0.1:0", passwords(), DoorSettings::default())
        .await
        .unwrap();
    let mut link = door.take_link("alpha").unwrap();
    let mut client = Client::log_in(door.address, "alpha", "alphapw").await;
    link.wait_admitted(Some(now() + WAIT)).await.unwrap();

    for (line, answer) in [
        ("1 protocol_version", "=1 2\n\n"),
        ("2 name", "=2 alpha\n\n"),
        ("3 version", "=3 cgosPython 1.0.0 genmove_analyze\n\n"),
        ("4 known_command cgos-genmove_analyze", "=4 true\n\n"),
        ("5 boardsize 9", "=5 \n\n"),
        ("6 clear_board", "=6 \n\n"),
        ("7 komi 7", "=7 \n\n"),
        ("8 time_settings 60 0 0", "=8 \n\n"),
    ] {
        assert_eq!(ask(&mut link, line).await, answer, "{line}");
    }
    link.to_seat
        .send(ToSeat::Info("round 1 board 2: alpha (B) - beta (W)".into()))
        .unwrap();
    link.write(b"9 genmove black\n").await.unwrap();
    assert_eq!(
        client.heard().await.as_deref(),
        Some("setup 1002 9 7.0 60000 beta(?) alpha(?)")
    );
    assert_eq!(client.heard().await.as_deref(), Some("genmove b 60000"));
    client.say("e5\n").await;
    let answer = tokio::time::timeout(WAIT, link.read())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(answer, b"=9 E5\n\n");
    let (think, measure) = link.last_stamp.unwrap();
    assert!(think <= measure, "{think:?} {measure:?}");

    assert_eq!(ask(&mut link, "10 play white C3").await, "=10 \n\n");
    assert_eq!(client.heard().await.as_deref(), Some("play w C3 60000"));
    let result = r#"{"seq":9,"t_ms":9000,"type":"result","result":"W+R","reason":"Black resigned","winner":"W","score":null}"#;
    link.to_seat.send(ToSeat::Stream(result.into())).unwrap();
    let over = client.heard().await.unwrap();
    assert!(
        over.starts_with("gameover 20") && over.ends_with(" W+Resign Black resigned"),
        "{over}"
    );
    client.say("ready\n").await;
}

#[tokio::test]
async fn a_wrong_password_or_a_stranger_is_told_why_and_closed() {
    let door = CgosListener::start("127.0.0.1:0", passwords(), DoorSettings::default())
        .await
        .unwrap();
    let mut wrong = Client::log_in(door.address, "alpha", "betapw").await;
    let said = wrong.heard().await.unwrap();
    assert_eq!(said, "Error: Sorry, password doesn't match for 'alpha'");
    assert_eq!(wrong.heard().await, None, "closed");
    let mut stranger = Client::dial(door.address).await;
    stranger.heard().await;
    stranger.say("GET / HTTP/1.1\r\n").await;
    let said = stranger.heard().await.unwrap();
    assert!(said.starts_with("Error: "), "{said}");
    assert_eq!(stranger.heard().await, None);
}

#[tokio::test]
async fn a_second_login_takes_the_seat_and_the_first_hears_so() {
    let mut door = CgosListener::start("127.0.0.1:0", passwords(), DoorSettings::default())
        .await
        .unwrap();
    let mut link = door.take_link("beta").unwrap();
    let mut first = Client::log_in(door.address, "beta", "betapw").await;
    link.wait_admitted(Some(now() + WAIT)).await.unwrap();
    let _second = Client::log_in(door.address, "beta", "betapw").await;
    let said = first.heard().await.unwrap();
    assert!(
        said.starts_with("info another login is being attempted using this user name"),
        "{said}"
    );
    assert_eq!(first.heard().await, None, "the first is closed");
    let read = tokio::time::timeout(WAIT, link.read())
        .await
        .unwrap()
        .unwrap();
    assert!(read.is_empty(), "the link went down with the first");
    tokio::time::timeout(WAIT, link.wait_back())
        .await
        .unwrap()
        .unwrap();
}

#[tokio::test]
async fn an_overlong_line_or_a_flood_closes_only_that_client() {
    let mut door = CgosListener::start("127.0.0.1:0", passwords(), DoorSettings::default())
        .await
        .unwrap();
    let mut link = door.take_link("alpha").unwrap();
    let mut flooder = Client::log_in(door.address, "alpha", "alphapw").await;
    link.wait_admitted(Some(now() + WAIT)).await.unwrap();
    let _calm = Client::log_in(door.address, "beta", "betapw").await;
    flooder.say(&"x".repeat(200_000)).await;
    let said = flooder.heard().await.unwrap();
    assert!(said.starts_with("Error: a line of"), "{said}");
    assert_eq!(flooder.heard().await, None);
    let read = tokio::time::timeout(WAIT, link.read())
        .await
        .unwrap()
        .unwrap();
    assert!(read.is_empty(), "alpha's link is down");
    let mut beta = door.take_link("beta").unwrap();
    beta.wait_admitted(Some(now() + WAIT)).await.unwrap();
    assert_eq!(
        ask(&mut beta, "1 name").await,
        "=1 beta\n\n",
        "beta plays on"
    );
}
