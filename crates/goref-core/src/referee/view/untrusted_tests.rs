//! Tests of `GameView` fed by a peer goref does not trust: snapshots of the
//! wrong shape, events that do not fit the board, duplicate and missing
//! `seq`s, endless and hostile texts; the size of a whole view in bytes;
//! and a property test that `apply` never panics.

use proptest::prelude::*;

use super::{
    bounded_text, GameView, ERROR_CAPACITY, MOVE_CAPACITY, NOTICE_CAPACITY, PACKET_CAPACITY,
    TEXT_LIMIT, TRACE_CAPACITY,
};
use crate::game::board::Illegal;
use crate::game::clock::ClockReading;
use crate::game::{Color, Point, MAX_SIZE};
use crate::protocol::sgmp::link::{Direction, TraceEntry, TraceFlag};
use crate::referee::event::{
    AgreementEvent, End, GameEvent, GameResult, GameStart, LineDirection, Phase, PlayerInfo,
    StampedEvent,
};

use crate::test_support::{clock_reading, game_start};
use Color::{Black, White};

// ---------------------------------------------------------------- events

fn clock() -> ClockReading {
    clock_reading(60_000)
}

fn start(size: u8, handicap: &[&str]) -> GameEvent {
    let first = if handicap.is_empty() { Black } else { White };
    GameEvent::GameStart(Box::new(GameStart {
        time: "absolute:1m".into(),
        ko: None,
        ..game_start(size, handicap, first)
    }))
}

fn mv(n: u32, color: Color, vertex: &str, captures: &[&str]) -> GameEvent {
    GameEvent::Move {
        n,
        color,
        vertex: vertex.into(),
        ms: 1234,
        captures: captures.iter().map(|v| v.to_string()).collect(),
        clock: clock(),
        referee_us: None,
        net_ms: None,
        opening: false,
    }
}

fn gtp(line: String) -> GameEvent {
    GameEvent::Gtp {
        color: White,
        direction: LineDirection::Stderr,
        line,
    }
}

fn stamped(seq: u64, event: GameEvent) -> StampedEvent {
    StampedEvent {
        seq,
        t_ms: 0,
        after_result: false,
        event,
    }
}

fn pt(vertex: &str) -> Point {
    Point::parse_gtp(vertex, MAX_SIZE).unwrap()
}

/// A view deserialised from a default view's JSON with `size` and a board
/// of `board_len` points put in.
fn snapshot(size: u64, board_len: usize) -> GameView {
    let mut json = serde_json::to_value(GameView::new()).unwrap();
    json["size"] = size.into();
    json["board"] = vec![serde_json::Value::Null; board_len].into();
    serde_json::from_value(json).unwrap()
}

// ---------------------------------------------------------------- snapshots

#[test]
fn a_snapshot_with_a_short_board_is_repaired_before_a_move() {
    let mut view = snapshot(19, 3);
    assert!(!view.is_consistent());
    view.apply(&mv(1, Black, "D4", &[]));
    assert_eq!(view.board.len(), 361);
    assert_eq!(view.stone(pt("D4")), Some(Black));
    assert_eq!(view.rejected, 1, "the repair is counted");
    assert!(view.is_consistent());
}

#[test]
fn a_snapshot_of_an_impossible_size_is_clamped_and_resized() {
    for (size, clamped) in [(0, 2), (1, 2), (26, 25), (200, 25), (255, 25)] {
        let mut view = snapshot(size, 361);
        assert!(view.repair(), "{size}");
        assert_eq!(view.size, clamped);
        assert_eq!(view.board.len(), clamped as usize * clamped as usize);
        assert!(!view.repair(), "a repaired view needs no more");
        view.apply(&mv(1, Black, "B2", &["A1", "Z99"]));
        assert_eq!(view.stone(pt("B2")), Some(Black));
    }
}

#[test]
fn a_snapshot_over_its_capacities_is_cut_to_the_newest_entries() {
    let mut view = GameView::new();
    for k in 0..3 {
        view.apply(&gtp(format!("line {k}")));
    }
    let mut json = serde_json::to_value(&view).unwrap();
    let lines: Vec<_> = (0..TRACE_CAPACITY + 10)
        .map(|k| serde_json::json!({"color": "B", "direction": "sent", "line": format!("{k}\u{1b}[2J")}))
        .collect();
    json["trace"] = lines.into();
    json["phase_reason"] = "x".repeat(100_000).into();
    json["agreement"]["marked"] = serde_json::json!(["A1", "Z99", "", "a1", "T19"]);
    let mut view: GameView = serde_json::from_value(json).unwrap();
    assert!(view.repair());
    assert_eq!(view.trace.len(), TRACE_CAPACITY);
    assert_eq!(
        view.trace[0].line, "10\u{fffd}[2J",
        "no escape reaches a terminal"
    );
    assert!(view.phase_reason.ends_with("… [cut, 100000 bytes]"));
    assert_eq!(view.agreement.marked, vec!["A1", "T19"]);
    assert!(view.is_consistent());
}

#[test]
fn a_fresh_view_and_a_built_one_are_consistent() {
    let mut view = GameView::new();
    assert!(view.is_consistent());
    view.apply(&start(9, &["C3", "G7"]));
    view.apply(&mv(1, White, "E5", &[]));
    view.apply(&gtp("x".repeat(10_000)));
    assert!(view.is_consistent());
    assert!(!view.clone().repair());
    assert_eq!(view.rejected, 0);
}

// ---------------------------------------------------------------- events that do not fit

#[test]
fn a_game_start_of_an_impossible_size_is_rejected_whole() {
    let mut view = GameView::new();
    view.apply(&start(9, &[]));
    view.apply(&mv(1, Black, "E5", &[]));
    let before = view.clone();
    for size in [0, 1, 26, 200, 255] {
        view.apply(&start(size, &["A1"]));
    }
    assert_eq!(view.rejected, 5);
    assert_eq!(
        GameView {
            rejected: 0,
            ..view
        },
        before
    );
}

#[test]
fn handicap_vertices_off_the_board_are_rejected_one_by_one() {
    let mut view = GameView::new();
    view.apply(&start(9, &["C3", "J9", "K10", "A0", "", "Z99", "日本"]));
    assert_eq!(view.board.iter().flatten().count(), 2);
    assert_eq!(view.stone(pt("J9")), Some(Black));
    assert_eq!(view.rejected, 5);
}

#[test]
fn moves_off_the_board_or_on_a_stone_are_rejected_whole() {
    let mut view = GameView::new();
    view.apply(&start(9, &[]));
    view.apply(&mv(1, Black, "E5", &[]));
    let before = view.clone();
    for vertex in ["Z99", "", "A0", "K10", "I5", "日本", "E5", "D", "passe"] {
        view.apply(&mv(2, White, vertex, &[]));
    }
    assert_eq!(view.rejected, 9);
    assert_eq!(
        GameView {
            rejected: 0,
            ..view.clone()
        },
        before
    );
    view.apply(&mv(2, White, " PASS ", &["A1"]));
    assert_eq!(view.last_move.as_ref().unwrap().vertex, "pass");
    assert_eq!(view.rejected, 10, "a pass captures nothing");
}

#[test]
fn captures_that_are_not_opponent_stones_are_left_out() {
    let mut view = GameView::new();
    view.apply(&start(5, &[]));
    view.apply(&mv(1, Black, "A1", &[]));
    view.apply(&mv(2, White, "B1", &[]));
    view.apply(&mv(3, Black, "B2", &[]));
    view.apply(&mv(4, White, "A2", &["A1", "B1", "C3", "Z9", "a1"]));
    assert_eq!(view.stone(pt("A1")), None, "taken");
    assert_eq!(
        view.stone(pt("B1")),
        Some(White),
        "its own stone is not taken"
    );
    assert_eq!(view.captures, [0, 1]);
    assert_eq!(view.rejected, 4, "B1, C3 (empty), Z9, and A1 again");
}

#[test]
fn duplicate_and_out_of_order_seqs_are_rejected_and_gaps_counted() {
    let mut view = GameView::new();
    view.apply_stamped(&stamped(1, start(9, &[])));
    view.apply_stamped(&stamped(2, mv(1, Black, "E5", &[])));
    view.apply_stamped(&stamped(2, mv(1, Black, "E5", &[])));
    view.apply_stamped(&stamped(1, mv(2, White, "C3", &[])));
    assert_eq!(view.rejected, 2);
    assert_eq!(view.moves.len(), 1);
    assert_eq!(view.last_seq, 2);
    view.apply_stamped(&stamped(5, mv(2, White, "C3", &[])));
    assert_eq!(view.seq_gaps, 1);
    assert_eq!(view.last_seq, 5);
    assert_eq!(view.stone(pt("C3")), Some(White), "a gap is applied");
    view.apply_stamped(&stamped(u64::MAX, gtp("last".into())));
    view.apply_stamped(&stamped(u64::MAX, gtp("again".into())));
    assert_eq!(view.seq_gaps, 2);
    assert_eq!(view.rejected, 3);
    assert_eq!(view.trace.len(), 1);
}

#[test]
fn a_komi_or_a_wire_time_that_is_not_a_number_is_rejected() {
    let mut view = GameView::new();
    let GameEvent::GameStart(mut game) = start(9, &[]) else {
        unreachable!()
    };
    game.komi = f64::NAN;
    view.apply(&GameEvent::GameStart(game));
    view.apply(&GameEvent::Packet {
        color: Black,
        wire_ms: Some(f64::INFINITY),
        entry: entry("01 02 03 04", "OK"),
    });
    assert_eq!(view.komi, 0.0);
    assert_eq!(view.packets[0].wire_ms, None);
    assert_eq!(view.rejected, 2);
    let json = serde_json::to_vec(&view).unwrap();
    assert_eq!(serde_json::from_slice::<GameView>(&json).unwrap(), view);
}

// ---------------------------------------------------------------- texts and bytes

#[test]
fn long_texts_are_cut_at_a_character_with_a_marker() {
    assert_eq!(bounded_text("short", TEXT_LIMIT), "short");
    assert_eq!(bounded_text("a\tb\u{7}c", TEXT_LIMIT), "a b\u{fffd}c");
    let cut = bounded_text(&"é".repeat(1000), 11);
    assert_eq!(cut, format!("{}… [cut, 2000 bytes]", "é".repeat(5)));

    let mut view = GameView::new();
    view.apply(&gtp("x".repeat(10_000)));
    let line = &view.trace[0].line;
    assert!(line.starts_with(&"x".repeat(TEXT_LIMIT)), "{line}");
    assert_eq!(&line[TEXT_LIMIT..], "… [cut, 10000 bytes]");
    view.apply(&GameEvent::Prompt {
        color: None,
        message: "?".repeat(5000),
    });
    assert!(view.prompt.as_ref().unwrap().len() < TEXT_LIMIT + 40);
}

fn entry(hex: &str, meaning: &str) -> TraceEntry {
    TraceEntry {
        direction: Direction::In,
        hex: hex.into(),
        meaning: meaning.into(),
        flags: vec![TraceFlag::Resend; 20],
        note: Some(meaning.into()),
    }
}

/// A 400-move 19x19 game with a full trace: 10,000 GTP and stderr lines,
/// 10,000 packets and 1,000 errors, each made of `text`.
fn big_game(text: &str) -> GameView {
    let mut view = GameView::new();
    view.apply(&start(19, &[]));
    for n in 0..400u32 {
        let color = if n % 2 == 0 { Black } else { White };
        let point = Point::from_index(n as usize % 361, 19);
        let vertex = if n < 361 {
            point.to_gtp()
        } else {
            "pass".into()
        };
        view.apply(&mv(n + 1, color, &vertex, &[]));
    }
    for k in 0..10_000 {
        view.apply(&GameEvent::Gtp {
            color: Black,
            direction: if k % 2 == 0 {
                LineDirection::Received
            } else {
                LineDirection::Stderr
            },
            line: format!("{k} {}", text.repeat(40)),
        });
        view.apply(&GameEvent::Packet {
            color: White,
            wire_ms: Some(12.345678),
            entry: entry(&text.repeat(30), &text.repeat(30)),
        });
    }
    for k in 0..1000 {
        view.apply(&GameEvent::Error {
            color: Some(White),
            message: format!("{k} {}", text.repeat(40)),
            fatal: false,
        });
        view.apply(&GameEvent::Notice {
            color: Some(Black),
            message: text.repeat(40),
        });
    }
    let everywhere = vec![text.repeat(40); 2];
    view.apply(&GameEvent::Agreement(AgreementEvent::Marked {
        stones: everywhere.clone(),
    }));
    view.apply(&GameEvent::Phase {
        phase: Phase::Over,
        reason: text.repeat(40),
    });
    let mut result = GameResult::new(
        text.repeat(40),
        text.repeat(40),
        Some(Black),
        End::Adjudicated,
    );
    result.exit = Some(text.repeat(40));
    view.apply(&GameEvent::Result(result));
    assert_eq!(view.moves.len(), 400);
    assert_eq!(view.trace.len(), TRACE_CAPACITY);
    assert_eq!(view.packets.len(), PACKET_CAPACITY);
    assert_eq!(view.errors.len(), ERROR_CAPACITY);
    assert_eq!(view.notices.len(), NOTICE_CAPACITY);
    view
}

#[test]
fn a_whole_long_game_with_a_full_trace_serialises_under_a_mebibyte() {
    let view = big_game("long GTP line ");
    let bytes = serde_json::to_vec(&view).unwrap().len();
    eprintln!("a 400-move 19x19 view with a full trace: {bytes} bytes of JSON");
    assert!(bytes < 1 << 20, "{bytes}");
    assert!(bytes < 600 << 10, "well under: {bytes}");
}

#[test]
fn even_texts_that_json_escapes_keep_the_view_under_a_mebibyte() {
    // `"` and `\` take two bytes in JSON, the most there is: control
    // characters would take six but are replaced before they are stored.
    let view = big_game(&"\"\\".repeat(10));
    let bytes = serde_json::to_vec(&view).unwrap().len();
    eprintln!("the same view of the worst texts: {bytes} bytes of JSON");
    assert!(bytes < 1 << 20, "{bytes}");
}

#[test]
fn the_move_list_keeps_the_newest_moves() {
    let mut view = GameView::new();
    view.apply(&start(19, &[]));
    for n in 1..=MOVE_CAPACITY as u32 + 5 {
        let color = if n % 2 == 1 { Black } else { White };
        view.apply(&mv(n, color, "pass", &[]));
    }
    assert_eq!(view.moves.len(), MOVE_CAPACITY);
    assert_eq!(view.moves[0].n, 6);
    assert_eq!(view.time_used_ms[0], 1234 * (MOVE_CAPACITY as u64 / 2 + 3));
}

// ---------------------------------------------------------------- never panics

fn vertex() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("Z99".to_string()),
        Just(String::new()),
        Just("A0".to_string()),
        Just("日本".to_string()),
        Just("pass".to_string()),
        Just("resign".to_string()),
        "[A-HJ-Z][1-9][0-9]?",
        "[a-zA-Z]{0,2}[0-9]{0,3}",
        any::<String>(),
    ]
}

fn color() -> impl Strategy<Value = Color> {
    prop_oneof![Just(Black), Just(White)]
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![any::<String>(), "[\\x00-\\x7f]{0,600}"]
}

fn event() -> impl Strategy<Value = GameEvent> {
    let vertices = || proptest::collection::vec(vertex(), 0..6);
    prop_oneof![
        (any::<u8>(), vertices(), any::<f64>(), color(), text()).prop_map(
            |(size, handicap, komi, first, name)| {
                let GameEvent::GameStart(mut game) = start(size, &[]) else {
                    unreachable!()
                };
                game.handicap = handicap;
                game.komi = komi;
                game.first_to_move = first;
                game.black.name = name;
                GameEvent::GameStart(game)
            }
        ),
        (any::<u32>(), color(), vertex(), any::<u64>(), vertices()).prop_map(
            |(n, color, vertex, ms, captures)| GameEvent::Move {
                n,
                color,
                vertex,
                ms,
                captures,
                clock: clock(),
                referee_us: None,
                net_ms: None,
                opening: false,
            }
        ),
        (color(), text()).prop_map(|(color, line)| GameEvent::Gtp {
            color,
            direction: LineDirection::Sent,
            line,
        }),
        (color(), proptest::option::of(any::<f64>()), text(), text()).prop_map(
            |(color, wire_ms, hex, meaning)| GameEvent::Packet {
                color,
                wire_ms,
                entry: entry(&hex, &meaning),
            }
        ),
        (color(), vertices(), proptest::option::of(text())).prop_map(|(color, stones, note)| {
            GameEvent::Agreement(AgreementEvent::Claim {
                color,
                stones,
                note,
            })
        }),
        vertices().prop_map(|stones| GameEvent::Agreement(AgreementEvent::Marked { stones })),
        text().prop_map(|reason| GameEvent::Phase {
            phase: Phase::Play,
            reason,
        }),
        (color(), vertex()).prop_map(|(color, vertex)| GameEvent::Illegal {
            n: 1,
            color,
            vertex,
            reason: Illegal::Ko,
        }),
        (text(), text()).prop_map(|(result, reason)| GameEvent::Result(GameResult::new(
            result,
            reason,
            None,
            End::Void
        ))),
        (proptest::option::of(color()), text()).prop_map(|(color, message)| GameEvent::Error {
            color,
            message,
            fatal: true,
        }),
        (proptest::option::of(color()), text())
            .prop_map(|(color, message)| GameEvent::Notice { color, message }),
        (text(), text(), proptest::option::of(any::<u64>())).prop_map(
            |(command, reason, paused_ms)| {
                GameEvent::Operator {
                    command,
                    reason,
                    paused_ms,
                }
            }
        ),
        (
            any::<u32>(),
            proptest::collection::vec(text(), 0..12),
            text(),
            any::<u32>()
        )
            .prop_map(|(count, joined, left, refused)| GameEvent::Spectators {
                count,
                joined,
                left: vec![left],
                unnamed: count / 2,
                refused,
            }),
        (color(), text()).prop_map(|(color, name)| GameEvent::Player {
            color,
            info: PlayerInfo {
                name,
                ..PlayerInfo::default()
            },
        }),
    ]
}

/// A snapshot from a peer: a board of any length, any size, any seq, a
/// ko and a move list that may name anything.
fn peer_snapshot() -> impl Strategy<Value = GameView> {
    (
        any::<u8>(),
        proptest::collection::vec(proptest::option::of(color()), 0..700),
        any::<u64>(),
        proptest::option::of(vertex()),
        vertex(),
    )
        .prop_map(|(size, board, last_seq, ko, last)| {
            let mut json = serde_json::to_value(GameView::new()).unwrap();
            json["size"] = size.into();
            json["board"] = serde_json::to_value(board).unwrap();
            json["last_seq"] = last_seq.into();
            json["ko"] = serde_json::to_value(ko).unwrap();
            json["moves"] = serde_json::json!([{"n": 1, "color": "B", "vertex": last, "ms": 1}]);
            serde_json::from_value(json).unwrap()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn apply_never_panics_on_any_snapshot_and_events(
        mut view in prop_oneof![Just(GameView::new()), peer_snapshot()],
        events in proptest::collection::vec((any::<u64>(), any::<bool>(), event()), 0..40),
    ) {
        for (seq, stamp, event) in events {
            if stamp {
                view.apply_stamped(&stamped(seq % 64, event));
            } else {
                view.apply(&event);
            }
            prop_assert!(view.is_well_shaped());
        }
        view.repair();
        prop_assert!(view.is_consistent());
        let json = serde_json::to_vec(&view).unwrap();
        let back: GameView = serde_json::from_slice(&json).unwrap();
        prop_assert!(back.is_consistent());
    }
}
