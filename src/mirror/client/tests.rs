//! A spectator's side against a hub: the view it ends with, what it prints
//! across reconnects, its clock, its back-off and its status line.

use std::time::Duration;

use super::*;
use crate::mirror::hub::{CatchUp, HistoryLimits, Hub};
use crate::test_support::epoch;
use goref_core::referee::{GameEvent, StampedEvent};

fn notice(seq: u64) -> StampedEvent {
    StampedEvent {
        seq,
        t_ms: seq * 100,
        after_result: false,
        event: GameEvent::Notice {
            color: None,
            message: format!("note {seq}"),
        },
    }
}

/// Joins `hub` as the spectator would and feeds it everything it is sent.
fn join(spectator: &mut Spectator, hub: &mut Hub, now: Instant) -> Vec<String> {
    let hello = SpectatorMessage::parse(&spectator.hello()).unwrap();
    let SpectatorMessage::Hello {
        stream, since_seq, ..
    } = hello
    else {
        panic!("not a hello");
    };
    spectator.connected(now);
    let join = hub.join(stream.as_deref(), since_seq, now);
    let mut lines = vec![join.welcome];
    match join.catch_up {
        CatchUp::Snapshot(line) => lines.push(line.to_string()),
        CatchUp::Events(events) => lines.extend(events.iter().map(|l| l.to_string())),
    }
    lines
        .iter()
        .flat_map(|line| spectator.receive(line, now).unwrap().print)
        .collect()
}

fn printed_seqs(printed: &[String]) -> Vec<u64> {
    printed
        .iter()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter_map(|v| v["seq"].as_u64())
        .collect()
}

#[test]
fn a_late_joiner_ends_with_the_hosts_view() {
    let t0 = epoch();
    let mut hub = Hub::new("s".into(), HistoryLimits::default());
    let mut host = GameView::new();
    let mut spectator = Spectator::new(None, false, t0);
    for seq in 1..=30 {
        let event = notice(seq);
        host.apply_stamped(&event);
        let line = hub.publish(t0, &event);
        if seq == 12 {
            join(&mut spectator, &mut hub, t0);
        }
        if seq > 12 {
            spectator.receive(&line, t0).unwrap();
        }
    }
    assert_eq!(spectator.view, host);
    assert_eq!(spectator.view.seq_gaps, 0);
}

#[test]
fn a_headless_spectator_prints_each_event_once_across_reconnects() {
    let t0 = epoch();
    let mut hub = Hub::new("s".into(), HistoryLimits::default());
    let mut spectator = Spectator::new(None, true, t0);
    let mut printed = Vec::new();
    for seq in 1..=5 {
        hub.publish(t0, &notice(seq));
    }
    printed.extend(join(&mut spectator, &mut hub, t0));
    for seq in 6..=9 {
        let line = hub.publish(t0, &notice(seq));
        if seq <= 7 {
            printed.extend(spectator.receive(&line, t0).unwrap().print);
        }
    }
    spectator.lost("closed".into(), t0, 0.5);
    printed.extend(join(&mut spectator, &mut hub, t0));
    let line = hub.publish(t0, &notice(10));
    printed.extend(spectator.receive(&line, t0).unwrap().print.clone());
    printed.extend(spectator.receive(&line, t0).unwrap().print);

    assert_eq!(printed_seqs(&printed), (1..=10).collect::<Vec<_>>());
    assert!(printed[0].starts_with(r#"{"type":"stream","schema":1,"producer":"goref "#));
    assert_eq!(
        printed
            .iter()
            .filter(|l| l.contains(r#""type":"stream""#))
            .count(),
        1
    );
    assert!(matches!(spectator.link(), Link::Live { how: Some(h), .. } if h == "resumed"));
}

#[test]
fn a_resync_past_the_history_names_the_events_it_skipped() {
    let t0 = epoch();
    let limits = HistoryLimits {
        events: 3,
        bytes: usize::MAX,
    };
    let mut hub = Hub::new("s".into(), limits);
    let mut spectator = Spectator::new(None, true, t0);
    hub.publish(t0, &notice(1));
    let first = join(&mut spectator, &mut hub, t0);
    assert_eq!(printed_seqs(&first), vec![1]);
    for seq in 2..=10 {
        hub.publish(t0, &notice(seq));
    }
    spectator.lost("closed".into(), t0, 0.0);
    let again = join(&mut spectator, &mut hub, t0);
    assert_eq!(
        again,
        vec![r#"{"type":"stream_gap","first_seq":2,"last_seq":10}"#.to_string()]
    );
    assert_eq!(spectator.view, *hub.view());
}

#[test]
fn a_new_stream_starts_the_view_afresh_and_prints_its_header() {
    let t0 = epoch();
    let mut hub = Hub::new("one".into(), HistoryLimits::default());
    let mut spectator = Spectator::new(None, true, t0);
    hub.publish(t0, &notice(1));
    join(&mut spectator, &mut hub, t0);
    let mut next = Hub::new("two".into(), HistoryLimits::default());
    let update = spectator.receive(&next.snapshot(), t0).unwrap();
    assert!(update.changed);
    assert_eq!(update.print.len(), 1, "{:?}", update.print);
    assert!(update.print[0].contains(r#""type":"stream""#));
    assert_eq!(spectator.view, GameView::new());
    let line = next.publish(t0, &notice(1));
    assert_eq!(
        printed_seqs(&spectator.receive(&line, t0).unwrap().print),
        vec![1]
    );
}

#[test]
fn the_referees_time_comes_from_the_quickest_pong() {
    let t0 = epoch();
    let mut spectator = Spectator::new(None, false, t0);
    assert_eq!(spectator.host_ms(t0), None);
    let mut hub = Hub::new("s".into(), HistoryLimits::default());
    join(&mut spectator, &mut hub, t0);
    assert_eq!(
        spectator.host_ms(t0),
        Some(0.0),
        "roughly, from the welcome"
    );
    let at = |ms: u64| t0 + Duration::from_millis(ms);
    let pong = |t_ms: u64, host_t_ms: u64| RefereeMessage::Pong { t_ms, host_t_ms }.line();
    spectator.receive(&pong(1000, 50_900), at(1400)).unwrap();
    spectator.receive(&pong(2000, 51_002), at(2004)).unwrap();
    spectator.receive(&pong(3000, 52_500), at(3900)).unwrap();
    let host = spectator.host_ms(at(5000)).unwrap();
    assert!((host - 54_000.0).abs() < 0.01, "{host}");

    let event = RefereeMessage::event_line(&serde_json::to_string(&notice(539)).unwrap());
    spectator.receive(&event, at(5000)).unwrap();
    assert_eq!(spectator.delay_ms(), Some(100.0));
    assert_eq!(spectator.status(at(5000)).text, "live, 100 ms behind");
}

#[test]
fn back_off_doubles_with_full_jitter_up_to_its_cap_and_resets_on_welcome() {
    let t0 = epoch();
    let mut spectator = Spectator::new(None, false, t0);
    spectator.set_address("venue:7777".into());
    let ceilings: Vec<Duration> = (0..8)
        .map(|_| spectator.lost("refused".into(), t0, 0.999_999))
        .collect();
    let ms: Vec<u128> = ceilings.iter().map(Duration::as_millis).collect();
    assert_eq!(ms, [499, 999, 1999, 3999, 7999, 9999, 9999, 9999]);
    assert_eq!(
        spectator.lost("refused".into(), t0, 0.0),
        Duration::from_millis(100),
        "never less than the floor"
    );
    let status = spectator.status(t0);
    assert!(status.trouble);
    assert_eq!(
        status.text,
        "waiting for the referee at venue:7777 (try 9 in 0s: refused)"
    );

    let mut hub = Hub::new("s".into(), HistoryLimits::default());
    join(&mut spectator, &mut hub, t0);
    assert_eq!(
        spectator.lost("closed".into(), t0, 0.999_999).as_millis(),
        499
    );
    assert_eq!(
        spectator.status(t0).text,
        "reconnecting… (try 1 in 0s: closed)"
    );
}

#[test]
fn a_spectator_never_let_in_waits_for_the_referee_and_one_let_in_reconnects() {
    let t0 = epoch();
    let mut spectator = Spectator::new(None, true, t0);
    spectator.set_address("venue:7777".into());
    assert_eq!(spectator.waiting_for_the_referee(), None, "a first try");
    spectator.lost("Connection refused".into(), t0, 0.5);
    assert_eq!(
        spectator.waiting_for_the_referee().as_deref(),
        Some("waiting for the referee at venue:7777 (Connection refused)")
    );
    let status = spectator.status(t0);
    assert!(status.trouble);
    assert!(
        status
            .text
            .starts_with("waiting for the referee at venue:7777 (try 1 in "),
        "{status:?}"
    );
    assert!(!spectator.ever_live());

    let mut hub = Hub::new("s".into(), HistoryLimits::default());
    hub.publish(t0, &notice(1));
    let printed = join(&mut spectator, &mut hub, t0);
    assert_eq!(printed_seqs(&printed), vec![1], "the stream from its start");
    assert!(spectator.ever_live());
    spectator.lost("closed".into(), t0, 0.5);
    assert_eq!(spectator.waiting_for_the_referee(), None);
    assert!(spectator.status(t0).text.starts_with("reconnecting…"));
}

#[test]
fn the_status_line_tells_a_resync_then_live_and_a_stale_link() {
    let t0 = epoch();
    let mut hub = Hub::new("s".into(), HistoryLimits::default());
    let mut spectator = Spectator::new(None, false, t0);
    assert_eq!(spectator.status(t0).text, "connecting…");
    join(&mut spectator, &mut hub, t0);
    assert_eq!(
        spectator.status(t0),
        LinkStatus {
            text: "live".into(),
            trouble: false
        }
    );
    let mut other = Hub::new("restarted".into(), HistoryLimits::default());
    spectator.lost("closed".into(), t0, 0.0);
    join(&mut spectator, &mut other, t0);
    assert_eq!(spectator.status(t0).text, "resynced");
    assert_eq!(spectator.status(t0 + NOTICE_FOR).text, "live");
    let stale = spectator.status(t0 + STALE_AFTER);
    assert_eq!(stale.text, "stale: nothing heard for 12s");
    assert!(stale.trouble);
}

#[test]
fn a_referee_of_another_protocol_version_is_told_apart_and_not_retried() {
    let t0 = epoch();
    let mut spectator = Spectator::new(None, false, t0);
    let welcome = RefereeMessage::Welcome {
        version: 2,
        producer: "goref 9.0".into(),
        stream: "s".into(),
        seq: 0,
        host_t_ms: 0,
        resume: false,
        hall: false,
    };
    let update = spectator.receive(&welcome.line(), t0).unwrap();
    let (why, retry) = update.bye.unwrap();
    assert!(!retry);
    assert!(why.contains("mirror protocol 2 (goref 9.0)"), "{why}");
}

#[test]
fn an_event_of_an_unknown_type_takes_its_number_and_is_printed() {
    let t0 = epoch();
    let mut hub = Hub::new("s".into(), HistoryLimits::default());
    let mut spectator = Spectator::new(None, true, t0);
    join(&mut spectator, &mut hub, t0);
    let odd = RefereeMessage::event_line(r#"{"seq":1,"t_ms":5,"type":"hologram"}"#);
    let update = spectator.receive(&odd, t0).unwrap();
    assert_eq!(update.print, [r#"{"seq":1,"t_ms":5,"type":"hologram"}"#]);
    assert_eq!(spectator.view.last_seq, 1);
    assert_eq!(spectator.view.seq_gaps, 0);
}

#[test]
fn an_older_referees_wrong_token_to_a_hello_without_one_says_a_token_is_needed() {
    let t0 = epoch();
    let bye = RefereeMessage::Bye {
        reason: "wrong token".into(),
        retry: false,
    }
    .line();
    let mut without = Spectator::new(None, false, t0);
    assert_eq!(
        without.receive(&bye, t0).unwrap().bye,
        Some((
            "this game needs a token (give it with --token or GOREF_TOKEN)".to_string(),
            false
        ))
    );
    let mut with = Spectator::new(Some("guess".into()), false, t0);
    assert_eq!(
        with.receive(&bye, t0).unwrap().bye,
        Some(("wrong token".to_string(), false))
    );
}
