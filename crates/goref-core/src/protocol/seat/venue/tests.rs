//! The venue's side of a seat connection, with time passed in: admission,
//! refusal, stamps, keepalive and bounds.

use std::collections::BTreeMap;

use super::*;
use crate::protocol::seat::encode;

fn tokens() -> Tokens {
    Tokens::new(BTreeMap::from([(
        "alpha".to_string(),
        "tok-alpha".to_string(),
    )]))
}

fn line(message: &SeatMessage) -> Vec<u8> {
    let mut line = encode(message);
    line.pop();
    line
}

fn hello(entrant: &str, token: &str) -> Vec<u8> {
    line(&SeatMessage::Hello {
        protocol: PROTOCOL_VERSION,
        entrant: entrant.into(),
        token: token.into(),
        client: "test".into(),
    })
}

fn admitted(t: Instant) -> VenueSide {
    let mut venue = VenueSide::new(t, "venue");
    let events = venue.handle_line(t, &hello("alpha", "tok-alpha"), &tokens());
    assert!(matches!(&events[1], VenueEvent::Admitted { entrant, .. } if entrant == "alpha"));
    venue
}

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

#[test]
fn the_right_token_is_welcomed_and_a_wrong_one_refused_after_a_delay() {
    let t = goref_epoch::epoch();
    let venue = admitted(t);
    assert_eq!(venue.entrant(), Some("alpha"));

    for (entrant, token) in [("alpha", "tok-beta"), ("beta", "tok-alpha")] {
        let mut venue = VenueSide::new(t, "venue");
        let events = venue.handle_line(t, &hello(entrant, token), &tokens());
        assert!(
            matches!(&events[..], [VenueEvent::Refuse { after, .. }] if *after >= Duration::from_secs(1)),
            "{events:?}"
        );
        assert_eq!(venue.entrant(), None);
        assert!(venue.handle_line(t, b"{}", &tokens()).is_empty(), "closed");
    }
}

#[test]
fn a_connection_that_never_says_hello_or_says_junk_is_turned_away() {
    let t = goref_epoch::epoch();
    let mut silent = VenueSide::new(t, "venue");
    assert_eq!(silent.poll_timeout(), Some(t + HELLO_WAIT));
    assert!(matches!(
        &silent.handle_timeout(t + HELLO_WAIT)[..],
        [VenueEvent::Send(VenueMessage::Refused { reason }), VenueEvent::Lost { .. }]
            if reason == "no hello within 10 s"
    ));
    let mut junk = VenueSide::new(t, "venue");
    assert!(matches!(
        &junk.handle_line(t, b"GET / HTTP/1.1", &tokens())[..],
        [VenueEvent::Refuse { .. }]
    ));
    let mut early = VenueSide::new(t, "venue");
    let answer = line(&SeatMessage::Answer {
        id: 1,
        text: "= D4\n\n".into(),
        think_ms: 5,
    });
    assert!(matches!(
        &early.handle_line(t, &answer, &tokens())[..],
        [VenueEvent::Refuse { reason, .. }] if reason.contains("before hello")
    ));
}

#[test]
fn an_answer_carries_the_seats_stamp_and_the_venues_measure() {
    let t = goref_epoch::epoch();
    let mut venue = admitted(t);
    let (id, message) = venue.command(t, "genmove b");
    assert_eq!(
        message,
        VenueMessage::Command {
            id,
            line: "genmove b".into()
        }
    );
    let answer = line(&SeatMessage::Answer {
        id,
        text: "= D4\n\n".into(),
        think_ms: 1200,
    });
    let events = venue.handle_line(t + ms(1450), &answer, &tokens());
    assert_eq!(
        events,
        vec![VenueEvent::Answer {
            id,
            text: "= D4\n\n".into(),
            think: ms(1200),
            venue_measure: ms(1450),
        }]
    );
    let late = venue.handle_line(t + ms(1500), &answer, &tokens());
    assert_eq!(late, vec![VenueEvent::Output("= D4\n\n".into())]);
}

#[test]
fn an_answer_to_a_command_sent_before_the_program_exited_is_dropped() {
    let t = goref_epoch::epoch();
    let mut venue = admitted(t);
    let (before, _) = venue.command(t, "play w d4");
    let exited = line(&SeatMessage::Program {
        state: ProgramState::Exited,
        detail: "the operator started it again".into(),
    });
    let told = venue.handle_line(t + ms(10), &exited, &tokens());
    assert!(matches!(
        &told[..],
        [VenueEvent::Program {
            state: ProgramState::Exited,
            ..
        }]
    ));
    let stale = line(&SeatMessage::Answer {
        id: before,
        text: "=29\n\n".into(),
        think_ms: 3,
    });
    assert_eq!(venue.handle_line(t + ms(20), &stale, &tokens()), vec![]);
    let (after, _) = venue.command(t + ms(30), "boardsize 19");
    let answer = line(&SeatMessage::Answer {
        id: after,
        text: "=1\n\n".into(),
        think_ms: 2,
    });
    assert!(matches!(
        &venue.handle_line(t + ms(40), &answer, &tokens())[..],
        [VenueEvent::Answer { id, .. }] if *id == after
    ));
}

#[test]
fn pings_measure_the_round_trip_and_silence_loses_the_link() {
    let t = goref_epoch::epoch();
    let mut venue = admitted(t);
    assert_eq!(venue.poll_timeout(), Some(t + PING_EVERY));
    let events = venue.handle_timeout(t + PING_EVERY);
    assert_eq!(
        events,
        vec![VenueEvent::Send(VenueMessage::Ping { n: 1, rtt_ms: None })]
    );
    let pong = line(&SeatMessage::Pong { n: 1 });
    let events = venue.handle_line(t + PING_EVERY + ms(40), &pong, &tokens());
    assert_eq!(events, vec![VenueEvent::RoundTrip(ms(40))]);
    assert_eq!(venue.round_trip(), Some(ms(40)));

    let heard = t + PING_EVERY + ms(40);
    let mut now = heard;
    let mut lost = None;
    while lost.is_none() {
        now = venue.poll_timeout().unwrap();
        for event in venue.handle_timeout(now) {
            if let VenueEvent::Lost { why } = event {
                lost = Some(why);
            }
        }
    }
    assert_eq!(now, heard + LOST_AFTER, "a half-open link is found in 10 s");
    assert!(lost.unwrap().contains("silent"));
}

#[test]
fn a_flood_or_a_broken_line_closes_the_link() {
    let t = goref_epoch::epoch();
    let mut venue = admitted(t);
    let output = line(&SeatMessage::Output { text: "x".into() });
    let mut lost = false;
    for _ in 0..=MAX_LINES_PER_SECOND {
        lost |= venue
            .handle_line(t, &output, &tokens())
            .iter()
            .any(|e| matches!(e, VenueEvent::Lost { .. }));
    }
    assert!(lost);
    let mut venue = admitted(t);
    assert!(matches!(
        &venue.handle_line(t, b"= D4", &tokens())[..],
        [VenueEvent::Send(VenueMessage::Refused { reason }), VenueEvent::Lost { why }]
            if why.contains("protocol") && reason == why
    ));
    let mut venue = admitted(t);
    let negative = br#"{"type":"answer","id":1,"text":"= D4","think_ms":-5}"#;
    assert!(
        matches!(
            &venue.handle_line(t, negative, &tokens())[..],
            [VenueEvent::Send(VenueMessage::Refused { reason }), VenueEvent::Lost { .. }]
                if reason.contains("think_ms") || reason.contains("invalid value")
        ),
        "a negative think_ms is told why"
    );
}

#[test]
fn stderr_crosses_only_when_the_venue_asked_for_it_and_long_lines_are_cut() {
    let t = goref_epoch::epoch();
    let said = |line: &str| super::super::wire::encode(&SeatMessage::Stderr { line: line.into() });
    let mut quiet = admitted(t);
    let mut stderr_line = said("thinking...");
    stderr_line.pop();
    assert!(quiet.handle_line(t, &stderr_line, &tokens()).is_empty());

    let mut asking = VenueSide::new(t, "venue").asking_stderr(true);
    let events = asking.handle_line(t, &hello("alpha", "tok-alpha"), &tokens());
    assert!(
        matches!(
            &events[0],
            VenueEvent::Send(VenueMessage::Welcome { stderr: true, .. })
        ),
        "{events:?}"
    );
    assert_eq!(
        asking.handle_line(t, &stderr_line, &tokens()),
        [VenueEvent::Stderr("thinking...".into())]
    );
    let mut long = said(&"é".repeat(5000));
    long.pop();
    match &asking.handle_line(t, &long, &tokens())[..] {
        [VenueEvent::Stderr(line)] => assert_eq!(line.chars().count(), STDERR_LINE_CHARS),
        other => panic!("{other:?}"),
    }
}
