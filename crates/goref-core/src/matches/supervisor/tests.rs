//! The supervisor's rules, driven as the shell drives it but with a broker
//! that is a few lines of test: what it publishes and how far ahead, what it
//! counts once, what it names, gives up, withdraws and fails.

use super::*;
use crate::matches::jobs::MESSAGE_VERSION;
use crate::test_support::job_result;

fn settings(queued: usize, failures: usize) -> Settings {
    Settings {
        match_id: "nightly".into(),
        broker_shown: "nats://broker:4222".into(),
        queued,
        failures,
    }
}

fn notice(pair: u64, worker: &str, delivery: u64, kind: NoticeKind) -> Vec<u8> {
    WorkerNotice {
        version: MESSAGE_VERSION,
        match_name: "nightly".into(),
        pair,
        worker: worker.into(),
        delivery,
        kind,
    }
    .to_json()
    .into_bytes()
}

fn taken(pair: u64, worker: &str, delivery: u64) -> Vec<u8> {
    notice(pair, worker, delivery, NoticeKind::Taken)
}

fn failed(pair: u64, worker: &str, delivery: u64, reason: &str) -> Vec<u8> {
    let reason = reason.into();
    notice(pair, worker, delivery, NoticeKind::Failed { reason })
}

fn result(pair: u64, worker: &str, delivery: u64) -> JobResult {
    job_result(pair, worker, delivery, &format!("{worker}-{delivery}"))
}

fn drain(supervisor: &mut Supervisor) -> Vec<Action> {
    std::iter::from_fn(|| supervisor.poll_action()).collect()
}

/// A round against a broker that takes everything: what was asked of it.
fn round(supervisor: &mut Supervisor) -> Vec<Action> {
    supervisor.begin_round();
    let mut done = Vec::new();
    while let Some(action) = supervisor.poll_action() {
        match &action {
            Action::Publish { pair } => supervisor.handle_published(*pair),
            Action::Withdraw { pair } => supervisor.handle_withdrawn(*pair),
            _ => {}
        }
        done.push(action);
    }
    done
}

fn published(actions: &[Action]) -> Vec<u64> {
    actions
        .iter()
        .filter_map(|a| match a {
            Action::Publish { pair } => Some(*pair),
            _ => None,
        })
        .collect()
}

fn said(actions: &[Action]) -> Vec<&str> {
    actions
        .iter()
        .filter_map(|a| match a {
            Action::Say(line) => Some(line.as_str()),
            _ => None,
        })
        .collect()
}

/// The result delivered, its games fetched under their first names.
fn deliver(supervisor: &mut Supervisor, result: &JobResult) -> Vec<Action> {
    supervisor.handle_result(result.to_json().as_bytes());
    let mut actions = drain(supervisor);
    if let Some(Action::Fetch { result }) = actions.last() {
        let pair = result.pair + 1;
        let names = vec![format!("pair-{pair:04}-a"), format!("pair-{pair:04}-b")];
        supervisor.handle_fetched(Ok(names));
        actions.extend(drain(supervisor));
    }
    actions
}

fn counted(actions: &[Action]) -> Vec<u64> {
    actions
        .iter()
        .filter_map(|a| match a {
            Action::Count { pair, .. } => Some(*pair),
            _ => None,
        })
        .collect()
}

#[test]
fn no_more_pairs_are_published_than_queued_ahead_of_the_results() {
    let mut supervisor = Supervisor::new(settings(2, 3));
    let first = round(&mut supervisor);
    assert_eq!(published(&first), [0, 1]);
    assert_eq!(published(&round(&mut supervisor)), [] as [u64; 0]);
    supervisor.handle_notice(&taken(0, "box-1", 1));
    drain(&mut supervisor);
    assert_eq!(
        published(&round(&mut supervisor)),
        [] as [u64; 0],
        "a pair taken is still outstanding"
    );
    assert_eq!(
        counted(&deliver(&mut supervisor, &result(0, "box-1", 1))),
        [0]
    );
    assert_eq!(published(&round(&mut supervisor)), [2]);
    assert_eq!(supervisor.outstanding(), [1, 2]);
}

#[test]
fn a_publication_the_broker_refuses_is_said_once_and_tried_again() {
    let mut supervisor = Supervisor::new(settings(2, 3));
    supervisor.begin_round();
    assert_eq!(supervisor.poll_action(), Some(Action::Publish { pair: 0 }));
    supervisor.handle_broker_error("no responders".into());
    assert_eq!(
        drain(&mut supervisor),
        [Action::Say("goref: no responders; trying again".into())]
    );
    supervisor.begin_round();
    assert_eq!(supervisor.poll_action(), Some(Action::Publish { pair: 0 }));
    supervisor.handle_broker_error("no responders".into());
    assert_eq!(drain(&mut supervisor), [], "said once while it lasts");
    let again = round(&mut supervisor);
    assert_eq!(published(&again), [0, 1]);
    assert_eq!(said(&again), ["goref: the broker answers again"]);
}

#[test]
fn the_stop_rule_ends_the_match_once_its_pairs_are_counted() {
    let mut supervisor = Supervisor::new(settings(5, 3));
    supervisor.handle_stop_rule(Some(2));
    assert_eq!(published(&round(&mut supervisor)), [0, 1]);
    for pair in 0..2 {
        assert!(!supervisor.is_finished());
        deliver(&mut supervisor, &result(pair, "box-1", 1));
    }
    assert!(supervisor.is_finished());
    assert_eq!(round(&mut supervisor), []);
}

#[test]
fn the_sprts_decision_withdraws_the_pairs_no_worker_has_taken() {
    let mut supervisor = Supervisor::new(settings(4, 3));
    assert_eq!(published(&round(&mut supervisor)), [0, 1, 2, 3]);
    supervisor.handle_notice(&taken(2, "box-1", 1));
    drain(&mut supervisor);
    supervisor.handle_stop_rule(Some(0));
    let withdrawn = round(&mut supervisor);
    assert_eq!(
        withdrawn,
        [
            Action::Withdraw { pair: 0 },
            Action::Say("goref: pair 1: withdrawn, the stop rule is met".into()),
            Action::Withdraw { pair: 1 },
            Action::Say("goref: pair 2: withdrawn, the stop rule is met".into()),
            Action::Withdraw { pair: 3 },
            Action::Say("goref: pair 4: withdrawn, the stop rule is met".into()),
        ]
    );
    assert_eq!(supervisor.outstanding(), [2], "the pair taken plays on");
    assert!(!supervisor.is_finished());
    deliver(&mut supervisor, &result(2, "box-1", 1));
    assert!(supervisor.is_finished());
}

#[test]
fn a_result_delivered_twice_counts_once_and_another_tries_is_journaled_not_counted() {
    let mut supervisor = Supervisor::new(settings(1, 3));
    round(&mut supervisor);
    let mut first = result(0, "box-1", 1);
    first.games[1].restarts = vec!["new".into()];
    let counted_once = deliver(&mut supervisor, &first);
    assert_eq!(
        counted_once,
        [
            Action::Fetch {
                result: first.clone()
            },
            Action::Journal(Entry::Counted {
                pair: 0,
                worker: "box-1".into(),
                delivery: 1
            }),
            Action::Count {
                pair: 0,
                worker: "box-1".into(),
                names: vec!["pair-0001-a".into(), "pair-0001-b".into()],
                restarts: vec!["new".into()]
            },
            Action::Ack,
        ]
    );
    assert_eq!(deliver(&mut supervisor, &first), [Action::Ack]);
    let other = deliver(&mut supervisor, &result(0, "box-2", 2));
    assert_eq!(
        other,
        [
            Action::Say(
                "pair 1: a second result, from box-2 (delivery 2): journaled, not counted".into()
            ),
            Action::Journal(Entry::Duplicate {
                pair: 0,
                worker: "box-2".into(),
                delivery: 2,
                counted_worker: "box-1".into(),
                counted_delivery: 1
            }),
            Action::Ack,
        ]
    );
}

#[test]
fn a_result_for_a_pair_never_published_or_unreadable_is_journaled_and_acknowledged() {
    let mut supervisor = Supervisor::new(settings(1, 3));
    let stray = deliver(&mut supervisor, &result(9, "box-1", 1));
    assert_eq!(
        stray,
        [
            Action::Journal(Entry::Unreadable {
                why: "a result for pair 10, which was never published".into()
            }),
            Action::Ack
        ]
    );
    supervisor.handle_result(b"{\"version\": 1}");
    let garbled = drain(&mut supervisor);
    assert!(
        matches!(&garbled[..], [Action::Say(line), Action::Journal(Entry::Unreadable { .. }), Action::Ack] if line.starts_with("goref: a result refused: ")),
        "{garbled:?}"
    );
    supervisor.handle_notice(b"not json");
    assert!(matches!(
        &drain(&mut supervisor)[..],
        [Action::Journal(Entry::Unreadable { .. }), Action::Ack]
    ));
}

#[test]
fn a_try_overtaken_by_a_later_delivery_is_stale_and_given_up_when_the_later_counts() {
    let mut supervisor = Supervisor::new(settings(1, 2));
    round(&mut supervisor);
    supervisor.handle_notice(&taken(0, "box-1", 1));
    assert_eq!(said(&drain(&mut supervisor)), ["pair 1: taken by box-1"]);
    supervisor.handle_notice(&taken(0, "box-2", 2));
    assert_eq!(
        said(&drain(&mut supervisor)),
        [
            "pair 1: handed out again, to box-2 (delivery 2), while box-1's try (delivery 1) \
             was not heard of; the first result counts",
            "pair 1: taken by box-2 (delivery 2)"
        ]
    );
    supervisor.handle_notice(&failed(0, "box-1", 1, "engine crashed"));
    let stale = drain(&mut supervisor);
    assert_eq!(
        said(&stale),
        [
            "pair 1: an earlier try failed on box-1 (delivery 1), not counted against the pair: \
          engine crashed"
        ]
    );
    assert!(matches!(stale[0], Action::Journal(Entry::Failed { .. })));
    assert_eq!(stale.last(), Some(&Action::Ack));
    let counted = deliver(&mut supervisor, &result(0, "box-2", 2));
    assert_eq!(
        said(&counted),
        ["pair 1: box-1's try (delivery 1) given up: the pair was counted from another"]
    );
    assert!(counted.contains(&Action::Journal(Entry::Abandoned {
        pair: 0,
        worker: "box-1".into(),
        delivery: 1
    })));
    assert_eq!(
        supervisor.failure(),
        None,
        "a stale failure counts for nothing"
    );
}

#[test]
fn failures_of_a_pair_fail_the_match_at_the_limit_with_the_last_reason() {
    let mut supervisor = Supervisor::new(settings(1, 3));
    round(&mut supervisor);
    for delivery in 1..=3 {
        assert_eq!(supervisor.failure(), None);
        let worker = format!("box-{delivery}");
        supervisor.handle_notice(&taken(0, &worker, delivery));
        drain(&mut supervisor);
        supervisor.handle_notice(&failed(0, &worker, delivery, "no such file"));
        let actions = drain(&mut supervisor);
        assert_eq!(
            said(&actions),
            [format!("pair 1: failed on {worker}: no such file")]
        );
        assert_eq!(actions.last(), Some(&Action::Ack));
    }
    assert_eq!(
        supervisor.failure(),
        Some("pair 1 failed 3 times; the last: box-3: no such file")
    );
}

#[test]
fn a_result_that_does_not_check_out_is_published_again_until_the_limit() {
    let mut supervisor = Supervisor::new(settings(1, 3));
    round(&mut supervisor);
    supervisor.handle_notice(&failed(0, "box-1", 1, "engine crashed"));
    drain(&mut supervisor);
    for (delivery, id) in [(2, Some("nightly/pair-0/again-2")), (3, None)] {
        supervisor.handle_result(result(0, "box-2", delivery).to_json().as_bytes());
        assert!(matches!(drain(&mut supervisor)[..], [Action::Fetch { .. }]));
        supervisor.handle_fetched(Err(NotFetched::Refused("game 1's manifest".into())));
        let actions = drain(&mut supervisor);
        assert_eq!(
            actions[..2],
            [
                Action::Say(
                    "pair 1: box-2's result refused: game 1's manifest; published again".into()
                ),
                Action::Journal(Entry::Rejected {
                    pair: 0,
                    worker: "box-2".into(),
                    delivery,
                    reason: "game 1's manifest".into()
                }),
            ]
        );
        let again = id.map(|id| Action::PublishAgain {
            pair: 0,
            id: id.into(),
        });
        assert_eq!(
            actions[2..],
            again.into_iter().chain([Action::Ack]).collect::<Vec<_>>()[..]
        );
    }
    assert_eq!(supervisor.failure(), Some("pair 1: 3 results refused"));
}

#[test]
fn games_that_cannot_be_copied_now_wait_on_the_broker_said_once() {
    let mut supervisor = Supervisor::new(settings(1, 3));
    round(&mut supervisor);
    let late = result(0, "box-1", 1);
    for lines in [1, 0] {
        supervisor.handle_result(late.to_json().as_bytes());
        drain(&mut supervisor);
        supervisor.handle_fetched(Err(NotFetched::Later("disk full".into())));
        let waits = drain(&mut supervisor);
        assert_eq!(waits.last(), Some(&Action::Nak { delay: COPY_AGAIN }));
        assert_eq!(said(&waits).len(), lines, "{waits:?}");
    }
    let copied = deliver(&mut supervisor, &late);
    assert_eq!(
        said(&copied),
        ["goref: the workers' games are copied again"]
    );
    assert_eq!(counted(&copied), [0]);
    assert_eq!(
        supervisor.failure(),
        None,
        "a full disk is no worker's fault"
    );
}

#[test]
fn refusals_are_named_once_an_engine_until_a_worker_takes_the_pair() {
    let mut supervisor = Supervisor::new(settings(1, 3));
    round(&mut supervisor);
    let refused = |worker: &str| {
        let engine = "katago".into();
        notice(0, worker, 1, NoticeKind::Refused { engine })
    };
    supervisor.handle_notice(&refused("box-1"));
    let named = drain(&mut supervisor);
    assert_eq!(
        named,
        [
            Action::Journal(Entry::Refused {
                pair: 0,
                worker: "box-1".into(),
                engine: "katago".into()
            }),
            Action::Say("pair 1 waits: worker box-1 has no engine 'katago'".into()),
            Action::Ack
        ]
    );
    supervisor.handle_notice(&refused("box-2"));
    assert_eq!(drain(&mut supervisor), [Action::Ack]);
    supervisor.handle_notice(&taken(0, "box-3", 2));
    drain(&mut supervisor);
    supervisor.handle_notice(&refused("box-2"));
    assert_eq!(
        said(&drain(&mut supervisor)).len(),
        1,
        "named again once taken"
    );
}

#[test]
fn only_the_latest_tries_game_is_shown_live() {
    let mut supervisor = Supervisor::new(settings(1, 3));
    round(&mut supervisor);
    let playing = |worker: &str, delivery| {
        let live = format!("{worker}-live");
        notice(0, worker, delivery, NoticeKind::Playing { game: 2, live })
    };
    supervisor.handle_notice(&taken(0, "box-1", 1));
    supervisor.handle_notice(&taken(0, "box-2", 2));
    supervisor.handle_notice(&playing("box-1", 1));
    assert!(supervisor.live().is_empty());
    supervisor.handle_notice(&playing("box-2", 2));
    assert_eq!(supervisor.live()[&0].name, "box-2-live");
    deliver(&mut supervisor, &result(0, "box-2", 2));
    assert!(supervisor.live().is_empty());
}

#[test]
fn a_match_read_back_publishes_nothing_twice_and_republishes_what_the_broker_lost() {
    let mut supervisor = Supervisor::new(settings(3, 2));
    let heard = vec![
        Entry::Published { pair: 0 },
        Entry::Published { pair: 1 },
        Entry::Published { pair: 2 },
        Entry::Taken {
            pair: 0,
            worker: "box-1".into(),
            delivery: 1,
        },
        Entry::Counted {
            pair: 0,
            worker: "box-1".into(),
            delivery: 1,
        },
        Entry::Failed {
            pair: 1,
            worker: "box-2".into(),
            delivery: 1,
            reason: "gone".into(),
        },
    ];
    supervisor.read_back(heard, BTreeSet::from([2, 4]));
    assert_eq!(supervisor.outstanding(), [1]);
    supervisor.handle_lost(1);
    assert_eq!(
        drain(&mut supervisor),
        [
            Action::Say("goref: pair 2 is not on the broker: published again".into()),
            Action::PublishAgain {
                pair: 1,
                id: "nightly/pair-1".into()
            }
        ]
    );
    assert_eq!(published(&round(&mut supervisor)), [5, 6]);
    supervisor.handle_notice(&failed(1, "box-3", 1, "gone again"));
    drain(&mut supervisor);
    assert_eq!(
        supervisor.failure(),
        Some("pair 2 failed 2 times; the last: box-3: gone again"),
        "the failure read back counts"
    );
}

#[test]
fn the_broker_going_away_and_back_is_said_once_each() {
    let mut supervisor = Supervisor::new(settings(1, 3));
    supervisor.handle_link(true);
    assert_eq!(drain(&mut supervisor), []);
    supervisor.handle_link(false);
    supervisor.handle_link(true);
    supervisor.handle_link(true);
    assert_eq!(
        said(&drain(&mut supervisor)),
        [
            "goref: the broker at nats://broker:4222 went away: the workers' games go on, \
             their results wait for it",
            "goref: the broker answers again"
        ]
    );
}
