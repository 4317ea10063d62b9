//! Tests of the session: the CGF sample trace byte for byte from both ends,
//! the full-GMP start, the end of a game, the refusals and alarms, and two
//! referees playing through a faulty simulated line.

use std::time::Duration;

use proptest::prelude::*;

use super::*;
use crate::protocol::sgmp::link::LinkConfig;
use crate::protocol::sgmp::packet::{hex, parse_hex};
use crate::protocol::sgmp::sim::{arb_fault, Fault, Wire};

fn config(profile: Profile, program_color: Color) -> SessionConfig {
    SessionConfig {
        profile,
        program_color,
        size: 19,
        handicap: 0,
        chinese_rules: Some(false),
        link: LinkConfig::sgmp(),
    }
}

fn point(vertex: &str) -> Point {
    Point::parse_gtp(vertex, 19).unwrap()
}

fn drain(session: &mut Session) -> Vec<SessionEvent> {
    std::iter::from_fn(|| session.poll_event()).collect()
}

/// The transmissions among `events`: hex, and whether they give the turn.
fn transmits(events: &[SessionEvent]) -> Vec<(String, bool)> {
    events
        .iter()
        .filter_map(|e| match e {
            SessionEvent::Transmit {
                bytes, gives_turn, ..
            } => Some((hex(bytes), *gives_turn)),
            _ => None,
        })
        .collect()
}

fn sent(events: &[SessionEvent]) -> Vec<String> {
    transmits(events).into_iter().map(|(h, _)| h).collect()
}

/// The events other than transmissions and traces.
fn outcomes(events: &[SessionEvent]) -> Vec<SessionEvent> {
    events
        .iter()
        .filter(|e| {
            !matches!(
                e,
                SessionEvent::Transmit { .. }
                    | SessionEvent::Trace(_)
                    | SessionEvent::Answered { .. }
            )
        })
        .cloned()
        .collect()
}

fn alarms(events: &[SessionEvent]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            SessionEvent::Alarm(text) => Some(text.clone()),
            _ => None,
        })
        .collect()
}

fn feed(session: &mut Session, now: Instant, text: &str) -> Vec<SessionEvent> {
    session.handle_bytes(now, &parse_hex(text).unwrap());
    drain(session)
}

fn packet(seq: bool, ack: bool, command: Command, value: u16) -> String {
    hex(&Packet::new(seq, ack, command, value).encode())
}

fn notes(events: &[SessionEvent]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            SessionEvent::Trace(t) => t.note.clone(),
            _ => None,
        })
        .collect()
}

/// The answers to the session's own commands tell how fast the line is:
/// the program's QUERY answers our NEWGAME, its OK our MOVE, each reported
/// with the time since our command went out, before what it does.
#[test]
fn answers_to_the_sessions_commands_come_with_their_round_trips() {
    let t0 = crate::test_support::epoch();
    let ms = |ms: u64| Duration::from_millis(ms);
    let mut s = Session::new(config(Profile::Sgmp, Color::White), t0);
    drain(&mut s);
    let answered = |events: &[SessionEvent]| -> Vec<Duration> {
        events
            .iter()
            .filter_map(|e| match e {
                SessionEvent::Answered { round_trip } => Some(*round_trip),
                _ => None,
            })
            .collect()
    };
    assert_eq!(answered(&feed(&mut s, t0 + ms(2), "03:be:b0:8b")), [ms(2)]);
    assert_eq!(answered(&feed(&mut s, t0 + ms(3), "00:b8:b0:88")), [ms(1)]);
    assert_eq!(answered(&feed(&mut s, t0 + ms(4), "02:88:87:ff")), [ms(1)]);
    s.relay_move(t0 + ms(10), Some(point("C17")));
    drain(&mut s);
    let events = feed(&mut s, t0 + ms(45), "00:86:87:ff");
    assert_eq!(answered(&events), [ms(35)]);
    let delivered = events.iter().position(|e| *e == SessionEvent::Delivered);
    let measured = events
        .iter()
        .position(|e| matches!(e, SessionEvent::Answered { .. }));
    assert!(measured < delivered, "{events:?}");
}

/// The sample trace of §11 from Black's side: the session plays Black
/// against a White program.
#[test]
fn golden_sample_trace_with_the_program_white() {
    let t0 = crate::test_support::epoch();
    let mut s = Session::new(config(Profile::Sgmp, Color::White), t0);
    let events = drain(&mut s);
    assert_eq!(transmits(&events), [("01:a1:a0:80".to_string(), false)]);
    assert!(!s.is_ready());

    let events = feed(&mut s, t0, "03:be:b0:8b");
    assert_eq!(transmits(&events), [("02:c4:c0:82".to_string(), false)]);
    let events = feed(&mut s, t0, "00:b8:b0:88");
    assert_eq!(transmits(&events), [("01:c2:c0:81".to_string(), false)]);
    assert!(!s.is_ready());

    let events = feed(&mut s, t0, "02:88:87:ff");
    assert!(transmits(&events).is_empty());
    assert_eq!(outcomes(&events), [SessionEvent::Ready]);
    assert!(s.is_ready());

    s.relay_move(t0, Some(point("C17")));
    let events = drain(&mut s);
    assert_eq!(transmits(&events), [("00:85:d2:b3".to_string(), true)]);

    let events = feed(&mut s, t0, "00:86:87:ff");
    assert!(transmits(&events).is_empty());
    assert_eq!(outcomes(&events), [SessionEvent::Delivered]);

    let events = feed(&mut s, t0, "01:92:d4:bd");
    assert_eq!(transmits(&events), [("02:88:87:ff".to_string(), false)]);
    assert_eq!(outcomes(&events), [SessionEvent::Move(Some(point("D4")))]);
    // The move is reported after its OK was queued.
    let ok_at = events
        .iter()
        .position(|e| matches!(e, SessionEvent::Transmit { .. }))
        .unwrap();
    let move_at = events
        .iter()
        .position(|e| matches!(e, SessionEvent::Move(_)))
        .unwrap();
    assert!(ok_at < move_at);
    assert_eq!(s.poll_timeout(), None);
}

/// The sample trace of §11 from White's side: the session plays White
/// against a Black program.
#[test]
fn golden_sample_trace_with_the_program_black() {
    let t0 = crate::test_support::epoch();
    let mut s = Session::new(config(Profile::Sgmp, Color::Black), t0);
    assert!(drain(&mut s).is_empty());

    let events = feed(&mut s, t0, "01:a1:a0:80");
    assert_eq!(transmits(&events), [("03:be:b0:8b".to_string(), false)]);
    let events = feed(&mut s, t0, "02:c4:c0:82");
    assert_eq!(transmits(&events), [("00:b8:b0:88".to_string(), false)]);
    assert!(!s.is_ready());

    let events = feed(&mut s, t0, "01:c2:c0:81");
    assert_eq!(transmits(&events), [("02:88:87:ff".to_string(), true)]);
    assert_eq!(outcomes(&events), [SessionEvent::Ready]);
    assert!(s.is_ready());

    let events = feed(&mut s, t0, "00:85:d2:b3");
    assert_eq!(transmits(&events), [("00:86:87:ff".to_string(), false)]);
    assert_eq!(outcomes(&events), [SessionEvent::Move(Some(point("C17")))]);

    s.relay_move(t0, Some(point("D4")));
    let events = drain(&mut s);
    assert_eq!(transmits(&events), [("01:92:d4:bd".to_string(), true)]);
    let events = feed(&mut s, t0, "02:88:87:ff");
    assert_eq!(outcomes(&events), [SessionEvent::Delivered]);
}

#[test]
fn the_whole_sample_trace_in_one_read_gives_the_same_bytes() {
    let t0 = crate::test_support::epoch();
    let mut s = Session::new(config(Profile::Sgmp, Color::Black), t0);
    let events = feed(
        &mut s,
        t0,
        "01:a1:a0:80 02:c4:c0:82 01:c2:c0:81 00:85:d2:b3",
    );
    assert_eq!(
        sent(&events),
        ["03:be:b0:8b", "00:b8:b0:88", "02:88:87:ff", "00:86:87:ff"]
    );
    assert_eq!(
        outcomes(&events),
        [SessionEvent::Ready, SessionEvent::Move(Some(point("C17")))]
    );
}

/// §9: GNU Go as White in full GMP asks rules, size, handicap, colour.
#[test]
fn full_gmp_start_with_gnu_go_white() {
    let t0 = crate::test_support::epoch();
    let mut s = Session::new(config(Profile::Gmp, Color::White), t0);
    assert_eq!(sent(&drain(&mut s)), ["01:a1:a0:80"]);
    let exchange = [
        ("03:ba:b0:87", "02:c3:c0:81"),
        ("00:b9:b0:89", "01:d4:c0:93"),
        ("03:bb:b0:88", "02:c3:c0:81"),
        ("00:bb:b0:8b", "01:c3:c0:82"),
    ];
    for (query, answer) in exchange {
        assert_eq!(sent(&feed(&mut s, t0, query)), [answer], "{query}");
    }
    assert_eq!(
        outcomes(&feed(&mut s, t0, "02:88:87:ff")),
        [SessionEvent::Ready]
    );
    s.relay_move(t0, Some(point("C17")));
    assert_eq!(sent(&drain(&mut s)), ["00:85:d2:b3"]);
    assert_eq!(
        outcomes(&feed(&mut s, t0, "00:86:87:ff")),
        [SessionEvent::Delivered]
    );
}

#[test]
fn queries_are_answered_from_the_configuration() {
    let t0 = crate::test_support::epoch();
    let mut cfg = config(Profile::Sgmp, Color::White);
    cfg.size = 9;
    cfg.handicap = 3;
    cfg.chinese_rules = Some(true);
    let mut s = Session::new(cfg, t0);
    drain(&mut s);
    // After NEWGAME (S = 1) the program's queries alternate its seq bit.
    let answers: Vec<u16> = [11u16, 8, 7, 9, 0, 12, 0x205]
        .iter()
        .enumerate()
        .map(|(i, &q)| {
            let seq = i % 2 == 0;
            let ack = i % 2 == 0;
            let events = feed(&mut s, t0, &packet(seq, ack, Command::Query, q));
            let bytes = parse_hex(&sent(&events)[0]).unwrap();
            let answer = Packet::decode(bytes.try_into().unwrap()).unwrap();
            assert_eq!(answer.command, Command::Answer);
            answer.value
        })
        .collect();
    assert_eq!(answers, [2, 3, 2, 9, 0, 0, 0]);
}

#[test]
fn full_gmp_with_the_program_black_asks_the_board_size_and_the_rules() {
    let t0 = crate::test_support::epoch();
    let mut s = Session::new(config(Profile::Gmp, Color::Black), t0);
    assert_eq!(sent(&feed(&mut s, t0, "01:a1:a0:80")), ["03:be:b0:8b"]);
    assert_eq!(sent(&feed(&mut s, t0, "02:c4:c0:82")), ["00:b8:b0:88"]);
    let events = feed(&mut s, t0, "01:c2:c0:81");
    assert_eq!(sent(&events), [packet(true, true, Command::Query, 9)]);
    assert!(!s.is_ready());
    // An answer of 0 (unknown, as GNU Go in gmp mode says) is accepted.
    let events = feed(&mut s, t0, &packet(false, true, Command::Answer, 0));
    assert_eq!(sent(&events), [packet(false, false, Command::Query, 7)]);
    assert!(notes(&events)[0].contains("does not know the board size"));
    assert_eq!(s.setup_wait(), Some(SetupWait::Answer(Query::Rules)));
    // ANSWER 1: Japanese rules, as the game's territory scoring.
    let events = feed(&mut s, t0, &packet(true, false, Command::Answer, 1));
    assert_eq!(
        transmits(&events),
        [(packet(false, true, Command::Ok, 0x3FF), true)]
    );
    assert_eq!(outcomes(&events), [SessionEvent::Ready]);
}

/// The events that say the set-up stopped.
fn mismatches(events: &[SessionEvent]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            SessionEvent::Mismatch(text) => Some(text.clone()),
            _ => None,
        })
        .collect()
}

/// After a mismatch the session is silent and plays no move: the MOVE a
/// Black program sends after its handshake (GNU Go does) is not OKed, not
/// reported, and nothing is ever resent. `seq` is the move's sequence bit
/// (and its ack bit, as the program saw our last command).
fn assert_stopped(s: &mut Session, t0: Instant, seq: bool) {
    assert!(!s.is_ready());
    assert_eq!(s.setup_wait(), None);
    assert_eq!(s.poll_timeout(), None);
    let events = feed(s, t0, &packet(seq, seq, Command::Move, 307));
    assert!(sent(&events).is_empty(), "{events:?}");
    assert!(outcomes(&events).is_empty(), "{events:?}");
    assert!(notes(&events)[0].contains("set-up stopped"));
}

#[test]
fn a_board_size_that_differs_stops_the_set_up() {
    let t0 = crate::test_support::epoch();
    let mut s = Session::new(config(Profile::Gmp, Color::Black), t0);
    feed(&mut s, t0, "01:a1:a0:80");
    feed(&mut s, t0, "02:c4:c0:82");
    feed(&mut s, t0, "01:c2:c0:81");
    let events = feed(&mut s, t0, &packet(false, true, Command::Answer, 9));
    assert!(sent(&events).is_empty());
    assert_eq!(
        outcomes(&events),
        [SessionEvent::Mismatch(
            "board size mismatch: the program says 9x9 (ANSWER 9 to QUERY 9); the game is 19x19"
                .into()
        )]
    );
    assert_stopped(&mut s, t0, true);
}

#[test]
fn a_black_program_that_claims_white_stops_the_set_up() {
    let t0 = crate::test_support::epoch();
    let mut s = Session::new(config(Profile::Sgmp, Color::Black), t0);
    feed(&mut s, t0, "01:a1:a0:80");
    // ANSWER 1: "I am White".
    let events = feed(&mut s, t0, &packet(false, true, Command::Answer, 1));
    assert!(sent(&events).is_empty(), "no QUERY 8 after a wrong colour");
    assert_eq!(
        mismatches(&events),
        [
            "colour mismatch: the program says it is White (ANSWER 1 to QUERY 11); the game has \
          it play Black"
        ]
    );
    assert_stopped(&mut s, t0, true);

    let mut s = Session::new(config(Profile::Gmp, Color::Black), t0);
    feed(&mut s, t0, "01:a1:a0:80");
    let events = feed(&mut s, t0, &packet(false, true, Command::Answer, 3));
    assert!(mismatches(&events)[0].contains("colour 3, which is neither"));
}

/// The defect of the issue: `--handicap 2` against GNU Go started without
/// one. Its ANSWER 1 (an even game) must stop the set-up before Black's
/// first move, which GNU Go sends right after the handshake OK.
#[test]
fn a_handicap_that_differs_stops_the_set_up_naming_both_values() {
    let t0 = crate::test_support::epoch();
    let mut cfg = config(Profile::Sgmp, Color::Black);
    cfg.handicap = 2;
    let mut s = Session::new(cfg, t0);
    feed(&mut s, t0, "01:a1:a0:80");
    feed(&mut s, t0, "02:c4:c0:82");
    let events = feed(&mut s, t0, &packet(true, false, Command::Answer, 1));
    assert!(sent(&events).is_empty(), "no handshake OK: {events:?}");
    assert_eq!(
        outcomes(&events),
        [SessionEvent::Mismatch(
            "handicap mismatch: the program says an even game (ANSWER 1 to QUERY 8); the game \
             has handicap 2"
                .into()
        )]
    );
    assert_stopped(&mut s, t0, false);

    // The other way round: an even game, a program set to four stones.
    let mut s = Session::new(config(Profile::Sgmp, Color::Black), t0);
    feed(&mut s, t0, "01:a1:a0:80");
    feed(&mut s, t0, "02:c4:c0:82");
    let events = feed(&mut s, t0, &packet(true, false, Command::Answer, 4));
    assert_eq!(
        mismatches(&events),
        [
            "handicap mismatch: the program says handicap 4 (ANSWER 4 to QUERY 8); the game has \
          an even game"
        ]
    );
}

#[test]
fn handicap_0_and_1_are_both_an_even_game() {
    let t0 = crate::test_support::epoch();
    for handicap in [0, 1] {
        let mut cfg = config(Profile::Sgmp, Color::Black);
        cfg.handicap = handicap;
        let mut s = Session::new(cfg, t0);
        feed(&mut s, t0, "01:a1:a0:80");
        feed(&mut s, t0, "02:c4:c0:82");
        let events = feed(&mut s, t0, "01:c2:c0:81");
        assert_eq!(
            outcomes(&events),
            [SessionEvent::Ready],
            "handicap {handicap}"
        );
        // Asked, the session says 1 too.
        let mut cfg = config(Profile::Sgmp, Color::White);
        cfg.handicap = handicap;
        let mut s = Session::new(cfg, t0);
        feed(&mut s, t0, "03:be:b0:8b");
        assert_eq!(sent(&feed(&mut s, t0, "00:b8:b0:88")), ["01:c2:c0:81"]);
    }
}

#[test]
fn an_unknown_answer_is_no_mismatch() {
    let t0 = crate::test_support::epoch();
    // Full GMP: 0 for colour, handicap, size and rules, as a program that
    // leaves them to us says. Nothing is raised; the trace notes it.
    let mut s = Session::new(config(Profile::Gmp, Color::Black), t0);
    feed(&mut s, t0, "01:a1:a0:80");
    let mut events = Vec::new();
    let mut seq = false;
    while !s.is_ready() {
        events.extend(feed(&mut s, t0, &packet(seq, !seq, Command::Answer, 0)));
        seq = !seq;
    }
    assert!(alarms(&events).is_empty(), "{events:?}");
    assert!(mismatches(&events).is_empty());
    assert_eq!(notes(&events).len(), 4, "{events:?}");
    // SGMP expects definite answers: an unknown colour is raised, but play
    // goes on.
    let mut s = Session::new(config(Profile::Sgmp, Color::Black), t0);
    feed(&mut s, t0, "01:a1:a0:80");
    let events = feed(&mut s, t0, &packet(false, true, Command::Answer, 0));
    assert!(alarms(&events)[0].contains("does not know its colour"));
    assert_eq!(sent(&events), ["00:b8:b0:88"]);
}

#[test]
fn rules_that_differ_stop_the_set_up_in_full_gmp() {
    let t0 = crate::test_support::epoch();
    let black_program_to_rules = |chinese_rules: Option<bool>| {
        let mut cfg = config(Profile::Gmp, Color::Black);
        cfg.chinese_rules = chinese_rules;
        let mut s = Session::new(cfg, t0);
        feed(&mut s, t0, "01:a1:a0:80");
        feed(&mut s, t0, "02:c4:c0:82");
        feed(&mut s, t0, "01:c2:c0:81");
        feed(&mut s, t0, &packet(false, true, Command::Answer, 19));
        s
    };
    // Area scoring (Chinese), a program set to Japanese rules.
    let mut s = black_program_to_rules(Some(true));
    let events = feed(&mut s, t0, &packet(true, false, Command::Answer, 1));
    assert_eq!(
        mismatches(&events),
        [
            "rules mismatch: the program says Japanese rules (ANSWER 1 to QUERY 7); the game is \
          played under Chinese rules"
        ]
    );
    assert_stopped(&mut s, t0, false);
    // The built-in engine knows no rules (None): it takes any answer.
    let mut s = black_program_to_rules(None);
    let events = feed(&mut s, t0, &packet(true, false, Command::Answer, 2));
    assert_eq!(outcomes(&events), [SessionEvent::Ready]);
}

/// SGMP: only Black sends NEWGAME (§10.1). A NEWGAME from the program we
/// took for White means it is set to play Black: the two would wait on each
/// other for ever.
#[test]
fn a_newgame_from_a_white_program_is_a_colour_mismatch_in_sgmp() {
    let t0 = crate::test_support::epoch();
    let mut s = Session::new(config(Profile::Sgmp, Color::White), t0);
    drain(&mut s);
    let events = feed(&mut s, t0, "01:a1:a0:80");
    assert!(sent(&events).is_empty(), "{events:?}");
    assert!(mismatches(&events)[0]
        .starts_with("colour mismatch: the program sent NEWGAME, which in SGMP only Black sends"));
    assert_eq!(s.poll_timeout(), None, "our NEWGAME is no longer resent");
    assert_eq!(s.setup_wait(), None);
    // In full GMP a program that does not know its colour may send NEWGAME
    // too: it is OKed.
    let mut s = Session::new(config(Profile::Gmp, Color::White), t0);
    drain(&mut s);
    let events = feed(&mut s, t0, "01:a1:a0:80");
    assert!(mismatches(&events).is_empty());
    assert_eq!(sent(&events).len(), 1);
}

#[test]
fn setup_wait_says_what_the_handshake_waits_for() {
    let t0 = crate::test_support::epoch();
    let mut s = Session::new(config(Profile::Sgmp, Color::Black), t0);
    assert_eq!(s.setup_wait(), Some(SetupWait::NewGame));
    feed(&mut s, t0, "01:a1:a0:80");
    assert_eq!(s.setup_wait(), Some(SetupWait::Answer(Query::Color)));
    feed(&mut s, t0, "02:c4:c0:82");
    assert_eq!(s.setup_wait(), Some(SetupWait::Answer(Query::Handicap)));
    feed(&mut s, t0, "01:c2:c0:81");
    assert_eq!(s.setup_wait(), None);

    let mut s = Session::new(config(Profile::Sgmp, Color::White), t0);
    assert_eq!(s.setup_wait(), Some(SetupWait::NewGameReply));
    feed(&mut s, t0, "03:be:b0:8b");
    assert_eq!(s.setup_wait(), Some(SetupWait::HandshakeOk));
    feed(&mut s, t0, "00:b8:b0:88");
    feed(&mut s, t0, "02:88:87:ff");
    assert_eq!(s.setup_wait(), None);
}

#[test]
fn in_a_handicap_game_the_handshake_ok_does_not_give_black_the_move() {
    let t0 = crate::test_support::epoch();
    let mut cfg = config(Profile::Sgmp, Color::Black);
    cfg.handicap = 2;
    let mut s = Session::new(cfg, t0);
    feed(&mut s, t0, "01:a1:a0:80");
    feed(&mut s, t0, "02:c4:c0:82");
    let events = feed(&mut s, t0, &packet(true, false, Command::Answer, 2));
    assert!(alarms(&events).is_empty());
    assert_eq!(transmits(&events), [("02:88:87:ff".to_string(), false)]);
}

/// A session with the program White, through the handshake of §11.
fn ready_with_white_program(t0: Instant) -> Session {
    let mut s = Session::new(config(Profile::Sgmp, Color::White), t0);
    for text in ["03:be:b0:8b", "00:b8:b0:88", "02:88:87:ff"] {
        feed(&mut s, t0, text);
    }
    drain(&mut s);
    assert!(s.is_ready());
    s
}

/// A session with the program Black, through the handshake of §11.
fn ready_with_black_program(t0: Instant) -> Session {
    let mut s = Session::new(config(Profile::Sgmp, Color::Black), t0);
    for text in ["01:a1:a0:80", "02:c4:c0:82", "01:c2:c0:81"] {
        feed(&mut s, t0, text);
    }
    drain(&mut s);
    assert!(s.is_ready());
    s
}

#[test]
fn passes_cross_both_ways_and_the_extra_pass_is_oked_and_ignored() {
    let t0 = crate::test_support::epoch();
    let mut s = ready_with_white_program(t0);
    s.relay_move(t0, None);
    assert_eq!(
        transmits(&drain(&mut s)),
        [("00:d0:d0:80".to_string(), true)]
    );
    assert_eq!(
        outcomes(&feed(&mut s, t0, "00:86:87:ff")),
        [SessionEvent::Delivered]
    );
    let events = feed(&mut s, t0, &packet(true, false, Command::Move, 0x200));
    assert_eq!(outcomes(&events), [SessionEvent::Move(None)]);
    assert_eq!(sent(&events), ["02:88:87:ff"]);
    s.game_over();
    // GNU Go's extra pass after the second pass.
    let events = feed(&mut s, t0, &packet(false, false, Command::Move, 0x200));
    assert_eq!(sent(&events), ["00:86:87:ff"]);
    assert!(outcomes(&events).is_empty());
    assert!(notes(&events)[0].contains("after the end of the game"));
}

#[test]
fn a_program_move_acknowledges_our_relayed_move_implicitly() {
    let t0 = crate::test_support::epoch();
    let mut s = ready_with_white_program(t0);
    s.relay_move(t0, Some(point("C17")));
    drain(&mut s);
    let events = feed(&mut s, t0, "01:92:d4:bd");
    assert_eq!(
        outcomes(&events),
        [
            SessionEvent::Delivered,
            SessionEvent::Move(Some(point("D4")))
        ]
    );
    assert_eq!(sent(&events), ["02:88:87:ff"]);
    assert_eq!(s.poll_timeout(), None);
}

#[test]
fn undo_and_extended_are_denied_with_an_alarm() {
    let t0 = crate::test_support::epoch();
    let mut s = ready_with_white_program(t0);
    let events = feed(&mut s, t0, &packet(true, true, Command::Undo, 1));
    assert_eq!(sent(&events), ["02:92:90:80"]);
    assert!(alarms(&events)[0].contains("UNDO 1"));
    // The program OKs the DENY, then tries EXTENDED.
    feed(&mut s, t0, &packet(true, false, Command::Ok, 0x3FF));
    let events = feed(&mut s, t0, &packet(false, false, Command::Extended, 5));
    assert_eq!(sent(&events), [packet(true, false, Command::Deny, 0)]);
    assert!(alarms(&events)[0].contains("EXTENDED 5"));
}

#[test]
fn an_off_board_move_is_denied_and_not_delivered() {
    let t0 = crate::test_support::epoch();
    let mut s = ready_with_black_program(t0);
    let events = feed(&mut s, t0, &packet(false, false, Command::Move, 400));
    assert_eq!(sent(&events), ["01:91:90:80"]);
    let outcomes = outcomes(&events);
    assert_eq!(outcomes.len(), 1);
    assert!(alarms(&events)[0].contains("position 400"));
}

#[test]
fn a_move_of_the_wrong_colour_is_denied_and_not_delivered() {
    let t0 = crate::test_support::epoch();
    let mut s = ready_with_black_program(t0);
    let events = feed(&mut s, t0, &packet(false, false, Command::Move, 0x23D));
    assert_eq!(sent(&events), ["01:91:90:80"]);
    assert_eq!(outcomes(&events).len(), 1);
    assert!(alarms(&events)[0].contains("white stone"));
}

#[test]
fn a_deny_of_our_move_is_oked_and_raised() {
    let t0 = crate::test_support::epoch();
    let mut s = ready_with_white_program(t0);
    s.relay_move(t0, Some(point("C17")));
    drain(&mut s);
    // DENY with A = 0 acknowledges (and refuses) our MOVE.
    let events = feed(&mut s, t0, &packet(true, false, Command::Deny, 0));
    assert_eq!(sent(&events), ["02:88:87:ff"]);
    let outcomes = outcomes(&events);
    assert_eq!(outcomes.len(), 1, "{outcomes:?}");
    assert!(alarms(&events)[0].contains("denied our MOVE B C17"));
}

#[test]
fn a_repeated_newgame_is_oked_and_traced() {
    let t0 = crate::test_support::epoch();
    let mut s = ready_with_black_program(t0);
    let events = feed(&mut s, t0, &packet(false, false, Command::NewGame, 0));
    assert_eq!(sent(&events), ["00:86:87:ff"]);
    assert!(outcomes(&events).is_empty());
    assert!(notes(&events)[0].contains("repeated NEWGAME"));
}

#[test]
fn a_repeated_move_is_re_oked_and_delivered_once() {
    let t0 = crate::test_support::epoch();
    let mut s = ready_with_black_program(t0);
    let events = feed(&mut s, t0, "00:85:d2:b3 00:85:d2:b3");
    assert_eq!(sent(&events), ["00:86:87:ff", "00:86:87:ff"]);
    assert_eq!(outcomes(&events), [SessionEvent::Move(Some(point("C17")))]);
}

#[test]
fn a_move_before_the_handshake_is_denied() {
    let t0 = crate::test_support::epoch();
    let mut s = Session::new(config(Profile::Sgmp, Color::Black), t0);
    feed(&mut s, t0, "01:a1:a0:80");
    let events = feed(&mut s, t0, "00:85:d2:b3");
    assert!(alarms(&events)[0].contains("before the handshake"));
    assert!(!events.iter().any(|e| matches!(e, SessionEvent::Move(_))));
}

#[test]
fn the_relayed_move_is_resent_without_giving_the_turn_again() {
    let t0 = crate::test_support::epoch();
    let mut s = ready_with_black_program(t0);
    feed(&mut s, t0, "00:85:d2:b3");
    s.relay_move(t0, Some(point("D4")));
    drain(&mut s);
    let due = s.poll_timeout().unwrap();
    assert_eq!(due, t0 + Duration::from_secs(20));
    s.handle_timeout(due);
    let events = drain(&mut s);
    assert!(events.contains(&SessionEvent::Transmit {
        bytes: parse_hex("01:92:d4:bd").unwrap(),
        gives_turn: false,
        resend: true,
    }));
    // Nine resends: the operator is told, and resending goes on.
    let mut now = due;
    let mut raised = Vec::new();
    for _ in 0..9 {
        now += Duration::from_secs(20);
        s.handle_timeout(now);
        raised.extend(alarms(&drain(&mut s)));
    }
    assert_eq!(raised.len(), 1, "{raised:?}");
    assert!(raised[0].contains("9 resends of MOVE W D4"));
    assert_eq!(s.poll_timeout(), Some(now + Duration::from_secs(20)));
}

/// The referee on each end: `black_line` talks to (what it takes for) the
/// Black program, `white_line` to the White program, so each relays the
/// other's moves.
struct Match {
    black_line: Session,
    white_line: Session,
    to_white_line: Wire,
    to_black_line: Wire,
    faults_from_black_line: std::collections::VecDeque<Fault>,
    faults_from_white_line: std::collections::VecDeque<Fault>,
    /// The moves the black line's session reported: Black's, which the
    /// white line's session relayed.
    black_moves: Vec<Option<Point>>,
    white_moves: Vec<Option<Point>>,
    alarms: Vec<String>,
}

fn play(moves: &[Option<Point>], faults_b: Vec<Fault>, faults_w: Vec<Fault>) -> Match {
    let t0 = crate::test_support::epoch();
    let mut m = Match {
        black_line: Session::new(config(Profile::Sgmp, Color::Black), t0),
        white_line: Session::new(config(Profile::Sgmp, Color::White), t0),
        to_white_line: Wire::default(),
        to_black_line: Wire::default(),
        faults_from_black_line: faults_b.into(),
        faults_from_white_line: faults_w.into(),
        black_moves: Vec::new(),
        white_moves: Vec::new(),
        alarms: Vec::new(),
    };
    let mut now = t0;
    for _ in 0..50_000 {
        let bytes = m.to_black_line.take_due(now);
        if !bytes.is_empty() {
            m.black_line.handle_bytes(now, &bytes);
        }
        let bytes = m.to_white_line.take_due(now);
        if !bytes.is_empty() {
            m.white_line.handle_bytes(now, &bytes);
        }
        m.black_line.handle_timeout(now);
        m.white_line.handle_timeout(now);
        while let Some(event) = m.black_line.poll_event() {
            match event {
                SessionEvent::Transmit { bytes, .. } => {
                    let fault = m.faults_from_black_line.pop_front();
                    m.to_white_line.transmit(now, bytes, fault);
                }
                SessionEvent::Move(point) => {
                    m.black_moves.push(point);
                    let next = m.black_moves.len() + m.white_moves.len();
                    if let Some(&reply) = moves.get(next) {
                        m.black_line.relay_move(now, reply);
                    }
                }
                SessionEvent::Alarm(text) => m.alarms.push(text),
                _ => {}
            }
        }
        while let Some(event) = m.white_line.poll_event() {
            match event {
                SessionEvent::Transmit { bytes, .. } => {
                    let fault = m.faults_from_white_line.pop_front();
                    m.to_black_line.transmit(now, bytes, fault);
                }
                SessionEvent::Ready => {
                    if let Some(&first) = moves.first() {
                        m.white_line.relay_move(now, first);
                    }
                }
                SessionEvent::Move(point) => {
                    m.white_moves.push(point);
                    let next = m.black_moves.len() + m.white_moves.len();
                    if let Some(&reply) = moves.get(next) {
                        m.white_line.relay_move(now, reply);
                    }
                }
                SessionEvent::Alarm(text) => m.alarms.push(text),
                _ => {}
            }
        }
        let next = [
            m.black_line.poll_timeout(),
            m.white_line.poll_timeout(),
            m.to_black_line.next_at(),
            m.to_white_line.next_at(),
        ]
        .into_iter()
        .flatten()
        .min();
        match next {
            Some(at) => now = now.max(at),
            None => return m,
        }
    }
    panic!("the game never settled");
}

#[test]
fn two_referees_play_a_short_game_on_a_clean_line() {
    let moves = [Some(point("C17")), Some(point("D4")), None, None];
    let m = play(&moves, Vec::new(), Vec::new());
    assert!(m.alarms.is_empty(), "{:?}", m.alarms);
    assert_eq!(m.black_moves, [Some(point("C17")), None]);
    assert_eq!(m.white_moves, [Some(point("D4")), None]);
}

fn arb_move() -> impl Strategy<Value = Option<Point>> {
    proptest::option::weighted(0.9, (0u8..19, 0u8..19).prop_map(|(c, r)| Point::new(c, r)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    #[test]
    fn every_move_arrives_once_in_order_through_a_faulty_line(
        moves in proptest::collection::vec(arb_move(), 40),
        faults_b in proptest::collection::vec(arb_fault(), 0..40),
        faults_w in proptest::collection::vec(arb_fault(), 0..40),
    ) {
        let m = play(&moves, faults_b, faults_w);
        let black: Vec<_> = moves.iter().step_by(2).copied().collect();
        let white: Vec<_> = moves.iter().skip(1).step_by(2).copied().collect();
        prop_assert_eq!(&m.black_moves, &black);
        prop_assert_eq!(&m.white_moves, &white);
        prop_assert!(m.black_line.is_ready() && m.white_line.is_ready());
        for alarm in &m.alarms {
            prop_assert!(alarm.starts_with("no acknowledgement"), "{}", alarm);
        }
    }
}

/// A live session's link state, as the journal's trace of it says.
fn traced_state(events: &[SessionEvent]) -> LinkState {
    let mut state = LinkState::default();
    for event in events {
        if let SessionEvent::Trace(entry) = event {
            state.observe(entry);
        }
    }
    state
}

#[test]
fn a_resumed_session_sends_the_unacknowledged_move_again_and_gives_the_turn() {
    let t0 = crate::test_support::epoch();
    let mut live = Session::new(config(Profile::Sgmp, Color::White), t0);
    let mut trace = drain(&mut live);
    for text in ["03:be:b0:8b", "00:b8:b0:88", "02:88:87:ff"] {
        trace.extend(feed(&mut live, t0, text));
    }
    live.relay_move(t0, Some(point("C17")));
    let relayed = drain(&mut live);
    trace.extend(relayed.iter().cloned());
    let state = traced_state(&trace);
    assert_eq!(state.outstanding, Some((Command::Move, 307)));

    let later = t0 + Duration::from_secs(60);
    let mut resumed = Session::resumed(config(Profile::Sgmp, Color::White), state, later);
    assert!(resumed.is_ready());
    let events = drain(&mut resumed);
    assert_eq!(outcomes(&events)[0], SessionEvent::Ready);
    assert_eq!(transmits(&events), [(sent(&relayed)[0].clone(), true)]);
    assert!(notes(&events)[0].contains("resuming"));
    // The program had it: its move acknowledges ours and is delivered.
    let events = feed(&mut resumed, later, "01:92:d4:bd");
    assert_eq!(
        outcomes(&events),
        [
            SessionEvent::Delivered,
            SessionEvent::Move(Some(point("D4")))
        ]
    );
}

#[test]
fn a_resumed_session_with_nothing_outstanding_waits_and_sends_nothing() {
    let t0 = crate::test_support::epoch();
    let mut live = Session::new(config(Profile::Sgmp, Color::Black), t0);
    let mut trace = Vec::new();
    for text in ["01:a1:a0:80", "02:c4:c0:82", "01:c2:c0:81"] {
        trace.extend(feed(&mut live, t0, text));
    }
    live.relay_move(t0, Some(point("D4")));
    trace.extend(drain(&mut live));
    let black_move = packet(
        false,
        true,
        Command::Move,
        encode_move(Color::Black, Some(point("C3")), 19),
    );
    trace.extend(feed(&mut live, t0, &packet(true, true, Command::Ok, 0x3FF)));
    let state = traced_state(&trace);
    assert_eq!(state.outstanding, None);
    let mut resumed = Session::resumed(config(Profile::Sgmp, Color::Black), state, t0);
    let events = drain(&mut resumed);
    assert_eq!(outcomes(&events), [SessionEvent::Ready]);
    assert!(sent(&events).is_empty());
    assert_eq!(resumed.poll_timeout(), None);
    let events = feed(&mut resumed, t0, &black_move);
    let moved = matches!(outcomes(&events)[..], [SessionEvent::Move(Some(_))]);
    assert!(moved, "{events:?}");
}

#[test]
fn a_newgame_once_the_program_has_moved_means_it_was_started_again() {
    let t0 = crate::test_support::epoch();
    let mut s = ready_with_black_program(t0);
    let black_move = encode_move(Color::Black, Some(point("C3")), 19);
    let events = feed(&mut s, t0, &packet(false, false, Command::Move, black_move));
    assert!(
        matches!(outcomes(&events)[..], [SessionEvent::Move(_)]),
        "{events:?}"
    );
    // A fresh program's NEWGAME: its bits look like a repeat here.
    let events = feed(&mut s, t0, "01:a1:a0:80");
    let restarted: Vec<_> = outcomes(&events)
        .into_iter()
        .filter(|e| matches!(e, SessionEvent::Restarted(_)))
        .collect();
    assert_eq!(restarted.len(), 1, "{events:?}");
    assert!(notes(&events).iter().any(|n| n.contains("started again")));
    s.relay_move(t0, Some(point("C3")));
    assert!(
        sent(&drain(&mut s)).is_empty(),
        "a stopped session relays nothing"
    );
    let black_move = encode_move(Color::Black, Some(point("D3")), 19);
    let events = feed(&mut s, t0, &packet(false, false, Command::Move, black_move));
    assert!(outcomes(&events).is_empty(), "{events:?}");
}

#[test]
fn a_newgame_in_a_resumed_session_means_the_program_was_started_again() {
    let t0 = crate::test_support::epoch();
    let state = LinkState {
        my_seq: true,
        his_seq: false,
        outstanding: None,
    };
    let mut s = Session::resumed(config(Profile::Sgmp, Color::Black), state, t0);
    drain(&mut s);
    let events = feed(&mut s, t0, "01:a1:a0:80");
    assert!(outcomes(&events)
        .iter()
        .any(|e| matches!(e, SessionEvent::Restarted(text) if text.contains("lost the position"))));
}
