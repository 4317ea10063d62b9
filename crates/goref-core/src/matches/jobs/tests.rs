//! The job and result messages refused when they are not what the match
//! sends and expects, and the book counting each pair once whatever order
//! deliveries and results come in.

use proptest::prelude::*;

use super::*;
use crate::test_support::job_result;

fn job() -> Job {
    Job {
        version: MESSAGE_VERSION,
        match_name: "nightly".into(),
        pair: 7,
        opening: vec!["E5".into(), "C3".into()],
        engines: ["new".into(), "old".into()],
        game: "size = 9\ntime = \"fischer:10s,0.1s\"\n".into(),
    }
}

fn result(pair: u64, worker: &str, delivery: u64) -> JobResult {
    job_result(
        pair,
        worker,
        delivery,
        &format!("{worker}-{delivery}-1795880840123"),
    )
}

#[test]
fn a_job_goes_through_the_broker_and_back_unchanged() {
    let job = job();
    assert_eq!(job.id(), "nightly/pair-7");
    assert_eq!(Job::from_json(job.to_json().as_bytes()), Ok(job));
}

#[test]
fn a_job_that_could_smuggle_a_command_or_is_not_ours_is_refused() {
    let mut bad = job();
    bad.engines[0] = "new; rm -rf /".into();
    let refused = Job::from_json(bad.to_json().as_bytes()).unwrap_err();
    assert!(
        matches!(
            refused,
            MessageError::BadName {
                what: "the engine",
                ..
            }
        ),
        "{refused}"
    );
    let mut bad = job();
    bad.opening.push("E5 C3".into());
    assert!(matches!(
        Job::from_json(bad.to_json().as_bytes()),
        Err(MessageError::BadOpening(_))
    ));
    let mut bad = job();
    bad.game = "#".repeat(GAME_TABLE_LIMIT + 1);
    assert_eq!(
        Job::from_json(bad.to_json().as_bytes()),
        Err(MessageError::GameTooLong)
    );
    let newer = job().to_json().replace("\"version\":1", "\"version\":2");
    assert_eq!(
        Job::from_json(newer.as_bytes()),
        Err(MessageError::Version(2))
    );
    assert!(matches!(
        Job::from_json(b"{\"pair\": 7}"),
        Err(MessageError::Unreadable(_))
    ));
    assert!(matches!(
        Job::from_json(&[0xff, 0x00]),
        Err(MessageError::Unreadable(_))
    ));
}

#[test]
fn a_result_needs_both_games_with_their_manifests_and_our_match() {
    let good = result(7, "box-1", 1);
    assert_eq!(
        JobResult::from_json(good.to_json().as_bytes(), "nightly"),
        Ok(good.clone())
    );
    assert!(matches!(
        JobResult::from_json(good.to_json().as_bytes(), "weekly"),
        Err(MessageError::OtherMatch { .. })
    ));
    let mut one_game = good.clone();
    one_game.games.pop();
    let mut twice = good.clone();
    twice.games[1].game = 1;
    let mut short_sha = good.clone();
    short_sha.games[0].manifest_sha256 = "abc".into();
    let mut escaping = good.clone();
    escaping.try_id = "../../etc".into();
    assert!(matches!(
        JobResult::from_json(escaping.to_json().as_bytes(), "nightly"),
        Err(MessageError::BadName { .. })
    ));
    for bad in [one_game, twice, short_sha] {
        assert_eq!(
            JobResult::from_json(bad.to_json().as_bytes(), "nightly"),
            Err(MessageError::BadGames)
        );
    }
}

#[test]
fn a_result_arriving_twice_counts_once_and_the_lost_try_is_named() {
    let mut book = JobBook::new();
    book.published(7);
    book.taken(7, "box-1", 1);
    book.taken(7, "box-2", 2);
    assert_eq!(
        book.abandoned(7),
        [Try {
            worker: "box-1".into(),
            delivery: 1
        }]
    );
    assert_eq!(book.result(&result(7, "box-2", 2)), Verdict::Count);
    assert_eq!(
        book.result(&result(7, "box-1", 1)),
        Verdict::Duplicate {
            counted: Try {
                worker: "box-2".into(),
                delivery: 2
            }
        }
    );
    assert_eq!(book.result(&result(8, "box-1", 1)), Verdict::Unknown);
    assert!(book.waiting().is_empty());
}

#[test]
fn a_notice_names_a_plain_engine_and_carries_one_printable_line() {
    let notice = |kind| WorkerNotice {
        version: MESSAGE_VERSION,
        match_name: "nightly".into(),
        pair: 3,
        worker: "box-1".into(),
        delivery: 2,
        kind,
    };
    let refused = notice(NoticeKind::Refused {
        engine: "new".into(),
    });
    let json = refused.to_json();
    assert!(json.contains("\"what\":\"refused\""), "{json}");
    assert_eq!(
        WorkerNotice::from_json(json.as_bytes(), "nightly"),
        Ok(refused)
    );
    let smuggled = notice(NoticeKind::Refused {
        engine: "new; rm -rf /".into(),
    });
    assert!(matches!(
        WorkerNotice::from_json(smuggled.to_json().as_bytes(), "nightly"),
        Err(MessageError::BadName { .. })
    ));
    let failed = notice(NoticeKind::Failed {
        reason: format!("engine died\n\x1b[2J{}", "x".repeat(1000)),
    });
    let read = WorkerNotice::from_json(failed.to_json().as_bytes(), "nightly").unwrap();
    let NoticeKind::Failed { reason } = read.kind else {
        panic!("{read:?}")
    };
    assert!(reason.starts_with("engine died  [2J"), "{reason}");
    assert_eq!(reason.chars().count(), 300);
    assert!(matches!(
        WorkerNotice::from_json(failed.to_json().as_bytes(), "other"),
        Err(MessageError::OtherMatch { .. })
    ));
}

#[test]
fn a_game_in_play_names_game_one_or_two_and_a_subject_token() {
    let playing = |game, live: &str| WorkerNotice {
        version: MESSAGE_VERSION,
        match_name: "nightly".into(),
        pair: 3,
        worker: "box-1".into(),
        delivery: 1,
        kind: NoticeKind::Playing {
            game,
            live: live.into(),
        },
    };
    let good = playing(2, "nightly-pair-0004-b-box-1-1-1700000000000");
    let json = good.to_json();
    assert!(json.contains("\"what\":\"playing\""), "{json}");
    assert_eq!(
        WorkerNotice::from_json(json.as_bytes(), "nightly"),
        Ok(good)
    );
    for (game, live) in [(3, "nightly-x"), (1, "goref.>"), (1, "a b"), (1, "")] {
        let bad = playing(game, live).to_json();
        assert!(
            matches!(
                WorkerNotice::from_json(bad.as_bytes(), "nightly"),
                Err(MessageError::BadLive { .. })
            ),
            "{game} {live:?} was taken"
        );
    }
    let long = playing(1, &"x".repeat(201)).to_json();
    assert!(WorkerNotice::from_json(long.as_bytes(), "nightly").is_err());
}

#[test]
fn a_pair_counted_before_a_restart_stays_counted_once() {
    let mut book = JobBook::new();
    let first = Try {
        worker: "box-1".into(),
        delivery: 1,
    };
    book.counted_before(4, first.clone());
    assert!(book.is_counted(4));
    assert_eq!(book.latest(4), Some(&first));
    assert_eq!(
        book.result(&result(4, "box-1", 1)),
        Verdict::Duplicate { counted: first }
    );
    book.published(5);
    assert!(!book.is_counted(5));
    assert_eq!(book.waiting(), [5]);
}

proptest! {
    /// Published pairs, deliveries and results (some sent again) in any
    /// order: each pair with a result counts exactly once, the pairs
    /// without one wait, and every try but the counted one is abandoned.
    #[test]
    fn every_pair_counts_once_whatever_the_order(
        pairs in 1u64..6,
        steps in prop::collection::vec((0u64..6, 0usize..3, 1u64..4, any::<bool>()), 0..60),
    ) {
        let workers = ["box-1", "box-2", "box-3"];
        let mut book = JobBook::new();
        for pair in 0..pairs {
            book.published(pair);
        }
        let mut counts = BTreeMap::new();
        for (pair, worker, delivery, finished) in steps {
            let worker = workers[worker];
            match finished {
                false => book.taken(pair, worker, delivery),
                true => {
                    if book.result(&result(pair, worker, delivery)) == Verdict::Count {
                        *counts.entry(pair).or_insert(0) += 1;
                    }
                }
            }
        }
        prop_assert!(counts.values().all(|&n| n == 1));
        let waiting = book.waiting();
        for pair in 0..pairs {
            prop_assert_eq!(waiting.contains(&pair), !counts.contains_key(&pair));
        }
        prop_assert!(counts.keys().all(|pair| *pair < pairs), "unknown pairs never count");
        for pair in counts.keys() {
            let record = &book.pairs[pair];
            let counted = record.counted.clone().unwrap();
            let abandoned = book.abandoned(*pair);
            prop_assert!(!abandoned.contains(&counted));
            prop_assert_eq!(abandoned.len() + 1, record.tries.len());
        }
    }
}
