//! What a joining spectator is sent: the missed events when it can resume,
//! a snapshot when it cannot, and a view equal to the host's either way.

use std::time::Duration;

use super::*;
use crate::mirror::wire::{read_event, RefereeMessage};
use crate::test_support::{epoch, notice};

fn hub_with(events: u64, limits: HistoryLimits) -> (Hub, Instant) {
    let start = epoch();
    let mut hub = Hub::new("s1".into(), limits);
    for seq in 1..=events {
        hub.publish(start + Duration::from_millis(seq * 10), &notice(seq, "n"));
    }
    (hub, start)
}

fn seqs(lines: &[Line]) -> Vec<u64> {
    lines
        .iter()
        .map(|line| match RefereeMessage::parse(line).unwrap() {
            RefereeMessage::Event { event, .. } => read_event(&event).unwrap().0.seq,
            other => panic!("not an event: {other:?}"),
        })
        .collect()
}

fn welcome(join: &Join) -> RefereeMessage {
    RefereeMessage::parse(&join.welcome).unwrap()
}

#[test]
fn a_spectator_that_resumes_gets_exactly_the_events_it_missed() {
    let (mut hub, start) = hub_with(10, HistoryLimits::default());
    let join = hub.join(Some("s1"), Some(7), start + Duration::from_millis(150));
    let CatchUp::Events(lines) = &join.catch_up else {
        panic!("no resume: {join:?}");
    };
    assert_eq!(seqs(lines), vec![8, 9, 10]);
    assert_eq!(
        welcome(&join),
        RefereeMessage::Welcome {
            version: 1,
            producer: format!("goref {}", env!("CARGO_PKG_VERSION")),
            stream: "s1".into(),
            seq: 10,
            host_t_ms: 150,
            resume: true,
            hall: false,
        }
    );
    let join = hub.join(Some("s1"), Some(10), start);
    assert_eq!(join.catch_up, CatchUp::Events(Vec::new()));
}

#[test]
fn a_new_spectator_or_another_streams_gets_a_snapshot_equal_to_the_view() {
    let (mut hub, start) = hub_with(5, HistoryLimits::default());
    for (stream, since) in [(None, None), (Some("old"), Some(3)), (Some("s1"), Some(6))] {
        let join = hub.join(stream, since, start);
        let CatchUp::Snapshot(line) = &join.catch_up else {
            panic!("{stream:?} {since:?} resumed: {join:?}");
        };
        let Ok(RefereeMessage::Snapshot {
            stream, seq, view, ..
        }) = RefereeMessage::parse(line)
        else {
            panic!("not a snapshot: {line}");
        };
        assert_eq!((stream.as_str(), seq), ("s1", 5));
        assert_eq!(*view, *hub.view());
        assert!(matches!(
            welcome(&join),
            RefereeMessage::Welcome { resume: false, .. }
        ));
    }
}

#[test]
fn a_headless_spectator_asking_from_the_start_gets_the_whole_stream_while_it_is_kept() {
    let (mut hub, start) = hub_with(4, HistoryLimits::default());
    let CatchUp::Events(lines) = hub.join(None, Some(0), start).catch_up else {
        panic!("no events");
    };
    assert_eq!(seqs(&lines), vec![1, 2, 3, 4]);
}

#[test]
fn the_history_keeps_the_newest_events_within_its_limits() {
    let limits = HistoryLimits {
        events: 4,
        bytes: usize::MAX,
    };
    let (mut hub, start) = hub_with(10, limits);
    assert!(matches!(
        hub.join(Some("s1"), Some(5), start).catch_up,
        CatchUp::Snapshot(_)
    ));
    let CatchUp::Events(lines) = hub.join(Some("s1"), Some(6), start).catch_up else {
        panic!("no resume from 6");
    };
    assert_eq!(seqs(&lines), vec![7, 8, 9, 10]);

    let one_line = hub.history.back().unwrap().1.len();
    let limits = HistoryLimits {
        events: usize::MAX,
        bytes: 3 * one_line,
    };
    let (hub, _) = hub_with(10, limits);
    assert_eq!(hub.history.len(), 3);
    assert!(hub.history_bytes <= 3 * one_line);
}

#[test]
fn a_snapshot_is_made_once_per_seq() {
    let (mut hub, start) = hub_with(3, HistoryLimits::default());
    let first = hub.snapshot();
    assert!(Arc::ptr_eq(&first, &hub.snapshot()));
    hub.publish(start, &notice(4, "more"));
    let after = hub.snapshot();
    assert!(!Arc::ptr_eq(&first, &after));
    assert!(after.contains("\"seq\":4"));
}

#[test]
fn stream_time_runs_from_the_first_events_stamp() {
    let start = epoch();
    let mut hub = Hub::new("s".into(), HistoryLimits::default());
    assert_eq!(hub.host_t_ms(start), 0);
    hub.publish(start + Duration::from_millis(500), &notice(1, "a"));
    assert_eq!(hub.host_t_ms(start + Duration::from_millis(1490)), 1000);
    assert!(hub
        .heartbeat(start + Duration::from_millis(1490))
        .contains("\"host_t_ms\":1000"));
}

#[test]
fn the_line_the_driver_made_is_sent_as_it_is_and_folded_all_the_same() {
    let start = epoch();
    let event = notice(1, "made by the driver");
    let own = serde_json::to_string(&event).unwrap();
    let made = format!(" {own}");
    let mut hub = Hub::new("s1".into(), HistoryLimits::default());
    let handed = HandedOn {
        at: start,
        stamped: event.clone(),
        json: Some(made.as_str().into()),
    };
    let line = hub.publish_handed(&handed);
    assert_eq!(
        &*line,
        RefereeMessage::event_line(&made),
        "not serialised again"
    );
    assert_eq!(hub.seq(), 1, "the event is folded into the view");
    assert_eq!(seqs(&[line]), vec![1]);

    let mut other = Hub::new("s2".into(), HistoryLimits::default());
    let line = other.publish_handed(&HandedOn::new(start, event));
    assert_eq!(&*line, RefereeMessage::event_line(&own), "serialised here");
}
