//! What a followed board's tile is told of its link: nothing while its
//! goref starts, stale when a goref on the broker is never heard for long
//! or goes quiet, and nothing once it is heard.

use super::*;
use crate::broker::address::BrokerAddress;
use crate::mirror::hub::{CatchUp, HistoryLimits, Hub};
use crate::test_support::epoch;

/// A follow of `target` begun at `t0`, its broker told nothing is there.
fn follow_from(target: Target, t0: std::time::Instant) -> Follow {
    let mut follow = Follow::new(target, Spectator::new(None, false, t0), true).waiting();
    follow.spectator.connected(t0);
    let why = "nothing is published as match-1-g5 yet".to_string();
    follow.spectator.broker_down(why, t0);
    follow
}

fn on_broker() -> Target {
    Target::Broker(BrokerAddress::parse("nats://127.0.0.1:4222/match-1-g5").unwrap())
}

/// The spectator let in by `hub` at `at`, as a broker's first lines let it.
fn heard(spectator: &mut Spectator, hub: &mut Hub, at: std::time::Instant) {
    let join = hub.join(None, None, at);
    let mut lines = vec![join.welcome];
    if let CatchUp::Snapshot(line) = join.catch_up {
        lines.push(line.to_string());
    }
    for line in lines {
        spectator.receive(&line, at).unwrap();
    }
}

#[test]
fn a_board_on_the_broker_never_heard_for_long_is_stale_and_heard_is_not() {
    let t0 = epoch();
    let mut follow = follow_from(on_broker(), t0);
    let early = t0 + STALE_AFTER - Duration::from_secs(1);
    assert_eq!(trouble(&follow, early).as_deref(), Some(NOT_STARTED));
    assert!(!is_stale(&follow, early));
    let late = t0 + STALE_AFTER + Duration::from_secs(3);
    assert_eq!(
        trouble(&follow, late).as_deref(),
        Some("stale: nothing heard for 15s")
    );
    assert!(is_stale(&follow, late));
    let mut hub = Hub::new("s".into(), HistoryLimits::default());
    heard(&mut follow.spectator, &mut hub, late);
    assert_eq!(trouble(&follow, late), None);
    assert!(!is_stale(&follow, late));
    let quiet = late + STALE_AFTER;
    assert_eq!(
        trouble(&follow, quiet).as_deref(),
        Some("stale: nothing heard for 12s")
    );
    assert!(is_stale(&follow, quiet));
}

#[test]
fn a_board_whose_goref_socket_is_not_there_yet_waits_and_is_never_called_stale() {
    let t0 = epoch();
    let follow = follow_from(Follower::in_folder(Path::new("pair-1")), t0);
    let late = t0 + STALE_AFTER * 5;
    assert_eq!(trouble(&follow, late).as_deref(), Some(NOT_STARTED));
    assert!(!is_stale(&follow, late));
}
