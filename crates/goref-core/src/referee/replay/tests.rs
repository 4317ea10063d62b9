//! Tests of the stream validator: a stream goref writes passes, and each kind
//! of inconsistency is reported on the line that shows it.

use super::{Inconsistency, Line, Validator};
use crate::game::board::Illegal;
use crate::game::clock::ClockReading;
use crate::game::Color;
use crate::referee::event::{
    End, GameEvent, GameResult, GameStart, Phase, StampedEvent, StreamHeader,
};

use crate::test_support::{clock_reading, game_start};
use Color::{Black, White};

fn clock() -> ClockReading {
    clock_reading(0)
}

fn start(size: u8, handicap: &[&str], first: Color) -> GameEvent {
    GameEvent::GameStart(Box::new(GameStart {
        ruleset: "Japanese".into(),
        ..game_start(size, handicap, first)
    }))
}

fn mv(n: u32, color: Color, vertex: &str, captures: &[&str]) -> GameEvent {
    GameEvent::Move {
        n,
        color,
        vertex: vertex.into(),
        ms: 5,
        captures: captures.iter().map(|v| v.to_string()).collect(),
        clock: clock(),
        referee_us: None,
        net_ms: None,
        opening: false,
    }
}

fn result() -> GameEvent {
    GameEvent::Result(GameResult::new(
        "W+R".into(),
        "Black resigned".into(),
        Some(White),
        End::Resign,
    ))
}

fn notice(message: &str) -> GameEvent {
    GameEvent::Notice {
        color: None,
        message: message.into(),
    }
}

/// The lines of a stream: the header, then the events numbered from 1,
/// marked after_result once a result has been written.
fn stream(events: Vec<GameEvent>) -> Vec<String> {
    let mut lines = vec![serde_json::to_string(&StreamHeader::current()).unwrap()];
    let mut after = false;
    for (i, event) in events.into_iter().enumerate() {
        let is_result = matches!(event, GameEvent::Result(_));
        let stamped = StampedEvent {
            seq: i as u64 + 1,
            t_ms: i as u64 * 10,
            after_result: after,
            event,
        };
        after |= is_result;
        lines.push(serde_json::to_string(&stamped).unwrap());
    }
    lines
}

/// A short game with a capture (Black's A2 takes White's A1), a pass and a
/// resignation, then a goodbye after the result.
fn game() -> Vec<GameEvent> {
    vec![
        start(9, &[], Black),
        GameEvent::Phase {
            phase: Phase::Play,
            reason: "go".into(),
        },
        mv(1, Black, "B1", &[]),
        mv(2, White, "A1", &[]),
        mv(3, Black, "A2", &["A1"]),
        mv(4, White, "pass", &[]),
        mv(5, Black, "resign", &[]),
        GameEvent::Phase {
            phase: Phase::Over,
            reason: "Black resigned".into(),
        },
        result(),
        notice("goodbye"),
    ]
}

/// Feeds every line; the first error with its line number, or the lines' kinds.
fn check(lines: &[String]) -> Result<Vec<Line>, (usize, Inconsistency)> {
    let mut validator = Validator::new();
    let mut out = Vec::new();
    for (i, text) in lines.iter().enumerate() {
        out.push(validator.line(i + 1, text).map_err(|e| (i + 1, e))?);
    }
    Ok(out)
}

fn error(lines: &[String]) -> (usize, String) {
    let (line, what) = check(lines).expect_err("an inconsistency");
    (line, what.to_string())
}

#[test]
fn a_stream_goref_writes_passes_and_reads_back_equal() {
    let lines = stream(game());
    let read = check(&lines).unwrap();
    assert!(matches!(read[0], Line::Header(_)));
    for (line, text) in read.iter().zip(&lines).skip(1) {
        let Line::Event(event) = line else {
            panic!("{line:?}")
        };
        assert_eq!(&serde_json::to_string(event).unwrap(), text);
    }
}

#[test]
fn handicap_stones_and_first_to_move_are_set_up() {
    let lines = stream(vec![
        start(9, &["C3", "G7"], White),
        mv(1, White, "D4", &[]),
        mv(2, Black, "E5", &[]),
    ]);
    check(&lines).unwrap();
    let on_a_stone = stream(vec![
        start(9, &["C3", "G7"], White),
        mv(1, White, "C3", &[]),
    ]);
    assert_eq!(error(&on_a_stone).0, 3);
}

#[test]
fn a_missing_or_wrong_header_is_reported_on_line_1() {
    let mut lines = stream(game());
    lines.remove(0);
    let (line, what) = error(&lines);
    assert_eq!(line, 1);
    assert!(what.contains("not the stream header"), "{what}");

    let mut newer = stream(game());
    newer[0] = r#"{"type":"stream","schema":7,"producer":"goref 9.0.0"}"#.into();
    assert_eq!(
        error(&newer),
        (
            1,
            "written by a newer goref (schema 7); this goref reads schema 1 and older".into()
        )
    );
}

#[test]
fn a_line_that_is_not_json_or_an_event_that_does_not_parse_is_reported() {
    let mut lines = stream(game());
    lines[3] = "{\"seq\":3, oops".into();
    let (line, what) = error(&lines);
    assert_eq!(line, 4);
    assert!(what.starts_with("not JSON"), "{what}");

    let mut lines = stream(game());
    lines[3] = lines[3].replace("\"color\":\"B\"", "\"color\":\"purple\"");
    let (line, what) = error(&lines);
    assert_eq!(line, 4);
    assert!(
        what.starts_with("a move event that does not parse"),
        "{what}"
    );
}

#[test]
fn a_gap_or_repeat_in_seq_is_reported() {
    let mut gap = stream(game());
    gap.remove(4);
    assert_eq!(
        error(&gap),
        (5, "seq jumps from 3 to 5: seq 4 is missing".into())
    );

    let mut repeat = stream(game());
    let copy = repeat[2].clone();
    repeat.insert(3, copy);
    assert_eq!(
        error(&repeat),
        (4, "seq 2 repeats or goes back (seq 3 comes next)".into())
    );
}

#[test]
fn moves_the_rules_forbid_are_reported() {
    let cases: [(GameEvent, &str); 5] = [
        (
            mv(3, Black, "B1", &[]),
            "move 3: Black B1 is illegal here (the point is occupied)",
        ),
        (
            mv(3, White, "C3", &[]),
            "move 3 is White's, but Black is to move",
        ),
        (mv(4, Black, "C3", &[]), "move 4 where move 3 comes next"),
        (
            mv(3, Black, "Z9", &[]),
            "move 3: Z9 is not a point on a 9x9 board",
        ),
        (
            mv(3, Black, "C3", &["A1"]),
            "move 3 lists the captures [A1] but the board captures []",
        ),
    ];
    for (bad, message) in cases {
        let mut events = game();
        events[4] = bad;
        assert_eq!(error(&stream(events)), (6, message.to_string()));
    }
    let mut uncounted = game();
    uncounted[4] = mv(3, Black, "A2", &[]);
    assert_eq!(
        error(&stream(uncounted)).1,
        "move 3 lists the captures [] but the board captures [A1]"
    );

    let early = stream(vec![mv(1, Black, "D4", &[])]);
    assert_eq!(error(&early), (2, "move 1 before game_start".into()));
}

#[test]
fn ko_and_suicide_follow_game_start() {
    // A ko in the corner: White takes B1 at A1, Black may not retake at once.
    let ko = vec![
        start(9, &[], Black),
        mv(1, Black, "B1", &[]),
        mv(2, White, "C1", &[]),
        mv(3, Black, "A2", &[]),
        mv(4, White, "B2", &[]),
        mv(5, Black, "C2", &[]),
        mv(6, White, "A1", &["B1"]),
        mv(7, Black, "B1", &["A1"]),
    ];
    let (line, what) = error(&stream(ko));
    assert_eq!(line, 9);
    assert!(what.contains("ko"), "{what}");

    let suicide = vec![
        start(9, &[], Black),
        mv(1, Black, "B1", &[]),
        mv(2, White, "pass", &[]),
        mv(3, Black, "A2", &[]),
        mv(4, White, "A1", &[]),
    ];
    assert_eq!(
        error(&stream(suicide)),
        (6, "move 4: White A1 is illegal here (suicide)".into())
    );
}

#[test]
fn a_result_that_does_not_follow_is_reported() {
    let mut twice = game();
    twice.insert(9, result());
    let (line, what) = error(&stream(twice));
    assert_eq!(
        (line, what.as_str()),
        (11, "a second result (the first is on line 10)")
    );

    let mut start_later = vec![result()];
    start_later.extend(game());
    assert_eq!(
        error(&stream(start_later)),
        (3, "game_start after the result on line 2".into())
    );

    let mut unmarked = stream(game());
    unmarked.push(
        serde_json::to_string(&StampedEvent {
            seq: 11,
            t_ms: 0,
            after_result: false,
            event: GameEvent::Phase {
                phase: Phase::Play,
                reason: "again".into(),
            },
        })
        .unwrap(),
    );
    assert_eq!(
        error(&unmarked),
        (
            12,
            "a phase event after the result (line 10) is not marked after_result".into()
        )
    );

    let mut marked_early = stream(game());
    marked_early[3] = marked_early[3].replacen("{", "{\"after_result\":true,", 1);
    assert_eq!(
        error(&marked_early),
        (
            4,
            "a move event is marked after_result, but no result came before it".into()
        )
    );
}

#[test]
fn unknown_types_and_fields_are_skipped_and_counted() {
    let mut lines = stream(game());
    lines.insert(3, r#"{"seq":3,"t_ms":1,"type":"hologram","x":1}"#.into());
    lines.insert(4, r#"{"seq":4,"t_ms":1,"type":"hologram"}"#.into());
    lines.insert(5, r#"{"seq":5,"t_ms":1,"type":"smell"}"#.into());
    for (i, line) in lines.iter_mut().enumerate().skip(6) {
        let event: serde_json::Value = serde_json::from_str(line).unwrap();
        let mut event = event.as_object().unwrap().clone();
        event.insert("seq".into(), i.into());
        event.insert("colour_of_the_sky".into(), "blue".into());
        *line = serde_json::to_string(&event).unwrap();
    }
    let mut validator = Validator::new();
    for (i, text) in lines.iter().enumerate() {
        validator
            .line(i + 1, text)
            .unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
    }
    assert_eq!(
        validator.skipped(),
        &[("hologram".to_string(), 2), ("smell".to_string(), 1)]
    );
}

#[test]
fn a_failed_move_is_not_a_move() {
    // An illegal event is the referee's note of a forbidden move; the board
    // does not change and the result follows.
    let events = vec![
        start(9, &[], Black),
        mv(1, Black, "D4", &[]),
        GameEvent::Illegal {
            n: 2,
            color: White,
            vertex: "D4".into(),
            reason: Illegal::Occupied,
        },
        result(),
    ];
    check(&stream(events)).unwrap();
}
