//! The outlet: subjects, the bounded queue and its notices.

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
fn messages_go_in_order_with_ids_unique_to_the_run() {
    let mut outlet = outlet(OutletLimits::default());
    outlet.push_welcome(line("w\n"), Instant::now());
    outlet.push_event(Some(2), line("e1\n"), Instant::now());
    let first = outlet.next_to_send().unwrap();
    assert_eq!(
        (first.subject.as_str(), first.payload.as_str()),
        ("goref.cup.welcome", "w\n")
    );
    let second = outlet.next_to_send().unwrap();
    assert_eq!(second.subject, "goref.cup.2.event");
    assert_ne!(first.id, second.id);
    assert_eq!(second.id, "run1:goref.cup.2.event:1");
    assert_eq!(
        read_message_id(&second.id),
        Some(("run1:goref.cup.2.event", 1))
    );
    assert_eq!(outlet.next_to_send(), None);
    assert_eq!(outlet.sent(&second.id, Instant::now()), None);
    assert_eq!(outlet.queued(), 2, "only the front is taken off");
    outlet.sent(&first.id, Instant::now());
    outlet.sent(&second.id, Instant::now());
    assert_eq!((outlet.queued(), outlet.published()), (0, 2));
}

#[test]
fn events_that_come_together_go_as_one_message_until_it_is_sent() {
    let mut outlet = outlet(OutletLimits::default());
    outlet.push_event(None, line("1\n"), Instant::now());
    outlet.push_event(None, line("2\n"), Instant::now());
    outlet.push_event(Some(1), line("b\n"), Instant::now());
    let first = outlet.next_to_send().unwrap();
    assert_eq!(first.payload, "1\n2\n");
    outlet.push_event(Some(1), line("c\n"), Instant::now());
    let second = outlet.next_to_send().unwrap();
    assert_eq!(second.payload, "b\nc\n");
    outlet.push_event(Some(1), line("d\n"), Instant::now());
    assert_eq!(
        outlet.next_to_send().unwrap().payload,
        "d\n",
        "a sent message takes no more"
    );
    outlet.push_snapshot(None, line("s\n"), Instant::now());
    outlet.push_snapshot(None, line("t\n"), Instant::now());
    assert_eq!(
        outlet.next_to_send().unwrap().payload,
        "s\n",
        "snapshots go alone"
    );
    assert_eq!(outlet.queued(), 7);
    outlet.sent(&first.id, Instant::now());
    assert_eq!((outlet.queued(), outlet.published()), (5, 2));
}

#[test]
fn a_failure_sends_everything_again_from_the_front() {
    let mut outlet = outlet(OutletLimits::default());
    outlet.push_welcome(line("w\n"), Instant::now());
    outlet.push_hall(line("h\n"), Instant::now());
    let first = outlet.next_to_send().unwrap();
    outlet.next_to_send().unwrap();
    outlet.failed("timed out", Instant::now());
    assert_eq!(outlet.next_to_send().unwrap(), first);
}

#[test]
fn a_message_sent_once_takes_no_more_lines_though_it_is_sent_again() {
    let mut outlet = outlet(OutletLimits::default());
    outlet.push_event(None, line("1\n"), Instant::now());
    let sent = outlet.next_to_send().unwrap();
    outlet.failed("the connection dropped", Instant::now());
    outlet.push_event(None, line("2\n"), Instant::now());
    let again = outlet.next_to_send().unwrap();
    assert_eq!(
        (again.id.as_str(), again.payload.as_str()),
        (sent.id.as_str(), "1\n")
    );
    let next = outlet.next_to_send().unwrap();
    assert_eq!(
        next.payload, "2\n",
        "the line after the failure goes in a message of its own"
    );
}

#[test]
fn a_game_is_published_whole_every_so_many_events() {
    let mut outlet = outlet(OutletLimits {
        snapshot_every: 3,
        ..OutletLimits::default()
    });
    assert_eq!(
        outlet.push_event(None, line("1"), Instant::now()),
        Pushed::Queued
    );
    assert_eq!(
        outlet.push_event(None, line("2"), Instant::now()),
        Pushed::Queued
    );
    assert_eq!(
        outlet.push_event(Some(1), line("b1"), Instant::now()),
        Pushed::Queued
    );
    assert_eq!(
        outlet.push_event(None, line("3"), Instant::now()),
        Pushed::WantsSnapshot
    );
    outlet.push_snapshot(None, line("s"), Instant::now());
    assert_eq!(
        outlet.push_event(None, line("4"), Instant::now()),
        Pushed::Queued
    );
}

#[test]
fn a_broker_away_is_told_once_and_its_return_when_the_queue_is_empty() {
    let mut outlet = outlet(OutletLimits::default());
    let t0 = Instant::now();
    outlet.push_welcome(line("1"), Instant::now());
    outlet.push_hall(line("2"), Instant::now());
    let stopped = outlet.failed("connection refused", t0).unwrap();
    assert!(
        stopped.contains("stopped (connection refused)"),
        "{stopped}"
    );
    assert_eq!(outlet.failed("again", t0), None);
    assert_eq!(outlet.stopped(), Some("connection refused"));
    let first = outlet.next_to_send().unwrap();
    let second = outlet.next_to_send().unwrap();
    assert_eq!(outlet.sent(&first.id, t0 + Duration::from_secs(3)), None);
    let back = outlet
        .sent(&second.id, t0 + Duration::from_secs(4))
        .unwrap();
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
            outlet.push_event(None, line(&n.to_string()), Instant::now()),
            Pushed::Queued
        );
    }
    let stale = outlet.next_to_send().unwrap();
    assert_eq!(
        outlet.push_event(None, line("3"), Instant::now()),
        Pushed::WantsWhole
    );
    assert_eq!(outlet.queued(), 0);
    outlet.push_welcome(line("w"), Instant::now());
    outlet.push_snapshot(None, line("s"), Instant::now());
    assert_eq!(
        outlet.sent(&stale.id, t0),
        None,
        "a message of the queue replaced"
    );
    assert_eq!(outlet.queued(), 2);
    let welcome = outlet.next_to_send().unwrap();
    let snapshot = outlet.next_to_send().unwrap();
    outlet.sent(&welcome.id, t0);
    let back = outlet
        .sent(&snapshot.id, t0 + Duration::from_secs(1))
        .unwrap();
    assert!(back.contains("4 lines the queue could not hold"), "{back}");
}

#[test]
fn bytes_bound_the_queue_too() {
    let mut outlet = outlet(OutletLimits {
        lines: 100,
        bytes: 10,
        snapshot_every: 100,
    });
    assert_eq!(
        outlet.push_event(None, line("123456"), Instant::now()),
        Pushed::Queued
    );
    assert_eq!(
        outlet.push_event(None, line("123456"), Instant::now()),
        Pushed::WantsWhole
    );
}
