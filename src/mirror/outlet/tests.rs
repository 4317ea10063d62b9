//! The outlet: subjects, addresses, the bounded queue and its notices.

use super::*;

fn outlet(limits: OutletLimits) -> Outlet {
    Outlet::new(
        Subjects::new("cup"),
        "nats://localhost:4222".into(),
        "run1".into(),
        limits,
    )
}

fn line(text: &str) -> Line {
    text.into()
}

#[test]
fn addresses_name_a_server_an_event_and_a_board() {
    let full = BrokerAddress::parse("nats://venue:4333/cup-2026/3").unwrap();
    assert_eq!(full.server, "venue:4333");
    assert_eq!(full.event.as_deref(), Some("cup-2026"));
    assert_eq!(full.board, Some(3));
    let bare = BrokerAddress::parse("nats://venue").unwrap();
    assert_eq!(bare.server, "venue:4222");
    assert_eq!(bare.event, None);
    assert_eq!(bare.naming("cup", Some(2)), "nats://venue:4222/cup/2");
    for bad in [
        "venue:4222",
        "nats://",
        "nats://venue:x/cup",
        "nats://venue/cup.final",
        "nats://venue/cup/two",
        "nats://venue/cup/2/3",
    ] {
        assert!(BrokerAddress::parse(bad).is_err(), "{bad} was taken");
    }
}

#[test]
fn subjects_are_named_by_the_event_and_the_board() {
    let subjects = Subjects::new("Cup final.2026");
    assert_eq!(subjects.event(), "Cup_final_2026");
    assert_eq!(subjects.welcome(), "goref.Cup_final_2026.welcome");
    assert_eq!(subjects.events(None), "goref.Cup_final_2026.game.event");
    assert_eq!(
        subjects.snapshots(Some(4)),
        "goref.Cup_final_2026.4.snapshot"
    );
    assert_eq!(subjects.game_wildcard(Some(4)), "goref.Cup_final_2026.4.*");
    assert_eq!(subjects.all(), "goref.Cup_final_2026.>");
    assert_eq!(subjects.live(), "goref-live.Cup_final_2026");
}

#[test]
fn lines_go_in_order_with_ids_unique_to_the_run() {
    let mut outlet = outlet(OutletLimits::default());
    outlet.push_welcome(line("w"));
    outlet.push_event(Some(2), line("e1"));
    let first = outlet.front().unwrap().clone();
    assert_eq!(
        (first.subject.as_str(), &*first.line),
        ("goref.cup.welcome", "w")
    );
    assert_eq!(outlet.sent(Instant::now()), None);
    let second = outlet.front().unwrap().clone();
    assert_eq!(second.subject, "goref.cup.2.event");
    assert_ne!(first.id, second.id);
    assert!(second.id.starts_with("run1-"));
    outlet.sent(Instant::now());
    assert_eq!((outlet.front(), outlet.published()), (None, 2));
}

#[test]
fn a_game_is_published_whole_every_so_many_events() {
    let mut outlet = outlet(OutletLimits {
        snapshot_every: 3,
        ..OutletLimits::default()
    });
    assert_eq!(outlet.push_event(None, line("1")), Pushed::Queued);
    assert_eq!(outlet.push_event(None, line("2")), Pushed::Queued);
    assert_eq!(outlet.push_event(Some(1), line("b1")), Pushed::Queued);
    assert_eq!(outlet.push_event(None, line("3")), Pushed::WantsSnapshot);
    outlet.push_snapshot(None, line("s"));
    assert_eq!(outlet.push_event(None, line("4")), Pushed::Queued);
}

#[test]
fn a_broker_away_is_told_once_and_its_return_when_the_queue_is_empty() {
    let mut outlet = outlet(OutletLimits::default());
    let t0 = Instant::now();
    outlet.push_event(None, line("1"));
    outlet.push_event(None, line("2"));
    let stopped = outlet.failed("connection refused", t0).unwrap();
    assert!(
        stopped.contains("stopped (connection refused)"),
        "{stopped}"
    );
    assert_eq!(outlet.failed("again", t0), None);
    assert_eq!(outlet.stopped(), Some("connection refused"));
    assert_eq!(outlet.sent(t0 + Duration::from_secs(3)), None);
    let back = outlet.sent(t0 + Duration::from_secs(4)).unwrap();
    assert!(
        back.contains("caught up after 4.0s: nothing lost"),
        "{back}"
    );
    assert_eq!(outlet.stopped(), None);
}

#[test]
fn a_full_queue_is_replaced_by_the_stream_as_it_stands() {
    let mut outlet = outlet(OutletLimits {
        lines: 3,
        bytes: 1 << 20,
        snapshot_every: 100,
    });
    let t0 = Instant::now();
    outlet.failed("timed out", t0);
    for n in 0..3 {
        assert_eq!(
            outlet.push_event(None, line(&n.to_string())),
            Pushed::Queued
        );
    }
    assert_eq!(outlet.push_event(None, line("3")), Pushed::WantsWhole);
    assert_eq!(outlet.queued(), 0);
    outlet.push_welcome(line("w"));
    outlet.push_snapshot(None, line("s"));
    outlet.sent(t0);
    let back = outlet.sent(t0 + Duration::from_secs(1)).unwrap();
    assert!(back.contains("4 lines the queue could not hold"), "{back}");
}

#[test]
fn bytes_bound_the_queue_too() {
    let mut outlet = outlet(OutletLimits {
        lines: 100,
        bytes: 10,
        snapshot_every: 100,
    });
    assert_eq!(outlet.push_event(None, line("123456")), Pushed::Queued);
    assert_eq!(outlet.push_event(None, line("123456")), Pushed::WantsWhole);
}
