//! One board of a hall handed on as one game: untagged, each game on the
//! board a stream of its own, heartbeats in the board's time.

use super::*;
use goref_core::referee::GameView;

fn snapshot(stream: &str, board: u32, seq: u64, folder: Option<&str>) -> String {
    let mut view = GameView::new();
    view.folder = folder.map(str::to_string);
    view.last_seq = seq;
    RefereeMessage::snapshot_line(stream, seq, &view, Some(board))
}

fn stream_of(line: &str) -> String {
    match RefereeMessage::parse(line).unwrap() {
        RefereeMessage::Snapshot { stream, board, .. } => {
            assert_eq!(board, None, "untagged");
            stream
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_hall_welcome_becomes_a_game_welcome() {
    let welcome = RefereeMessage::Welcome {
        version: 1,
        producer: "goref".into(),
        stream: "hall".into(),
        seq: 3,
        host_t_ms: 10,
        resume: false,
        hall: true,
    }
    .line();
    let line = OneBoard::default().line(&welcome).unwrap();
    assert!(matches!(
        RefereeMessage::parse(&line).unwrap(),
        RefereeMessage::Welcome { hall: false, .. }
    ));
}

#[test]
fn each_game_on_the_board_is_a_stream_of_its_own() {
    let mut board = OneBoard::default();
    let first = stream_of(&board.line(&snapshot("hall", 2, 0, None)).unwrap());
    let same = stream_of(
        &board
            .line(&snapshot("hall", 2, 40, Some("round-1/board-2")))
            .unwrap(),
    );
    assert_eq!(first, same, "the game got its folder: the same game");
    let resync = stream_of(
        &board
            .line(&snapshot("hall", 2, 500, Some("round-1/board-2")))
            .unwrap(),
    );
    assert_eq!(first, resync);
    let next_round = stream_of(
        &board
            .line(&snapshot("hall", 2, 90, Some("round-2/board-2")))
            .unwrap(),
    );
    assert_ne!(first, next_round);
    let started_again = stream_of(&board.line(&snapshot("hall", 2, 0, None)).unwrap());
    assert_ne!(
        next_round, started_again,
        "a seq that starts again: another game"
    );
}

#[test]
fn events_lose_their_board_and_heartbeats_take_the_boards_time() {
    let mut board = OneBoard::default();
    let event = r#"{"seq":7,"t_ms":1000,"type":"pass","color":"B"}"#;
    let tagged = RefereeMessage::board_event_line(2, 5000, event);
    let line = board.line(&tagged).unwrap();
    assert_eq!(line, RefereeMessage::event_line(event));
    let beat = RefereeMessage::Heartbeat {
        seq: 9,
        host_t_ms: 6000,
    }
    .line();
    match RefereeMessage::parse(&board.line(&beat).unwrap()).unwrap() {
        RefereeMessage::Heartbeat { host_t_ms, .. } => assert_eq!(host_t_ms, 2000),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        board.line(r#"{"type":"pong","t_ms":1,"host_t_ms":2}"#),
        None
    );
}
