//! The wire's lines: what each side may send, and how the unknown and the
//! oversized are met.

use proptest::prelude::*;

use super::*;
use goref_core::referee::{GameEvent, GameView};

#[test]
fn a_hello_round_trips_and_leaves_out_what_it_lacks() {
    let hello = SpectatorMessage::Hello {
        version: VERSION,
        token: Some("s3cret".into()),
        stream: None,
        since_seq: Some(41),
    };
    let line = hello.line();
    assert_eq!(
        line,
        "{\"type\":\"hello\",\"version\":1,\"token\":\"s3cret\",\"since_seq\":41}\n"
    );
    assert_eq!(SpectatorMessage::parse(&line), Ok(hello));
}

#[test]
fn a_spectator_may_send_only_hello_ping_and_bye() {
    for line in [
        r#"{"type":"move","vertex":"D4"}"#,
        r#"{"type":"event","event":{}}"#,
        r#"{"type":"pong","t_ms":1,"host_t_ms":2}"#,
        r#"{"version":1}"#,
        "garbage",
        "",
    ] {
        assert!(
            matches!(SpectatorMessage::parse(line), Err(WireError::Malformed(_))),
            "{line}"
        );
    }
    assert_eq!(
        SpectatorMessage::parse(r#"{"type":"ping","t_ms":7,"extra":[1,2]}"#),
        Ok(SpectatorMessage::Ping { t_ms: 7 })
    );
    assert_eq!(
        SpectatorMessage::parse("{\"type\":\"bye\"}\r\n"),
        Ok(SpectatorMessage::Bye)
    );
}

#[test]
fn an_oversized_line_is_refused_before_it_is_parsed() {
    let long = format!(
        r#"{{"type":"ping","t_ms":1,"pad":"{}"}}"#,
        "x".repeat(SPECTATOR_LINE_LIMIT)
    );
    assert_eq!(
        SpectatorMessage::parse(&long),
        Err(WireError::TooLong {
            limit: SPECTATOR_LINE_LIMIT
        })
    );
}

#[test]
fn a_spectator_skips_message_types_and_fields_it_does_not_know() {
    assert_eq!(
        RefereeMessage::parse(r#"{"type":"chat","text":"hi"}"#),
        Ok(RefereeMessage::Unknown)
    );
    assert_eq!(
        RefereeMessage::parse(r#"{"type":"heartbeat","seq":3,"host_t_ms":9,"load":0.5}"#),
        Ok(RefereeMessage::Heartbeat {
            seq: 3,
            host_t_ms: 9
        })
    );
}

#[test]
fn an_event_line_carries_the_json_line_as_it_is() {
    let json = r#"{"seq":4,"t_ms":120,"type":"notice","color":null,"message":"hello"}"#;
    let line = RefereeMessage::event_line(json);
    assert_eq!(line, format!("{{\"type\":\"event\",\"event\":{json}}}\n"));
    let RefereeMessage::Event { event, .. } = RefereeMessage::parse(&line).unwrap() else {
        panic!("not an event: {line}");
    };
    assert_eq!(event.get(), json);
    let (stamp, known) = read_event(&event).unwrap();
    assert_eq!(stamp, EventStamp { seq: 4, t_ms: 120 });
    assert!(matches!(
        known.map(|s| s.event),
        Some(GameEvent::Notice { message, .. }) if message == "hello"
    ));
}

#[test]
fn an_event_of_an_unknown_type_keeps_its_stamp() {
    let line = RefereeMessage::event_line(r#"{"seq":9,"t_ms":5,"type":"hologram","x":1}"#);
    let RefereeMessage::Event { event, .. } = RefereeMessage::parse(&line).unwrap() else {
        panic!("not an event");
    };
    assert_eq!(
        read_event(&event).unwrap(),
        (EventStamp { seq: 9, t_ms: 5 }, None)
    );
    let RefereeMessage::Event { event, .. } =
        RefereeMessage::parse(&RefereeMessage::event_line(r#"{"type":"move"}"#)).unwrap()
    else {
        panic!("not an event");
    };
    assert!(read_event(&event).is_err());
}

#[test]
fn a_snapshot_line_reads_back_as_the_same_view() {
    let mut view = GameView::new();
    view.apply(&GameEvent::Notice {
        color: None,
        message: "ready".into(),
    });
    view.pending_wire_ms = [16.666666666666668, 0.1 + 0.2];
    let line = RefereeMessage::snapshot_line("ab12", 7, &view, None);
    assert_eq!(
        RefereeMessage::parse(&line),
        Ok(RefereeMessage::Snapshot {
            stream: "ab12".into(),
            seq: 7,
            view: Box::new(view),
            board: None,
        })
    );
}

proptest! {
    #[test]
    fn any_line_a_spectator_sends_is_read_or_refused_never_a_panic(line in ".{0,200}") {
        let _ = SpectatorMessage::parse(&line);
        let _ = RefereeMessage::parse(&line);
    }

    #[test]
    fn pings_round_trip(t_ms in any::<u64>()) {
        let ping = SpectatorMessage::Ping { t_ms };
        prop_assert_eq!(SpectatorMessage::parse(&ping.line()), Ok(ping));
    }

    #[test]
    fn floats_in_a_view_survive_the_wire_bit_for_bit(a in any::<f64>(), b in 0.0f64..1e9) {
        let mut view = GameView::new();
        view.pending_wire_ms = [if a.is_finite() { a.abs() } else { 0.0 }, b];
        let line = RefereeMessage::snapshot_line("s", 1, &view, None);
        let Ok(RefereeMessage::Snapshot { view: back, .. }) = RefereeMessage::parse(&line) else {
            panic!("no snapshot");
        };
        prop_assert_eq!(back.pending_wire_ms[0].to_bits(), view.pending_wire_ms[0].to_bits());
        prop_assert_eq!(back.pending_wire_ms[1].to_bits(), view.pending_wire_ms[1].to_bits());
    }
}
