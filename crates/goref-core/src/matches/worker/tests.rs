//! The worker's rules, driven as the shell drives them but with a broker
//! that is a few lines of test: which jobs a slot takes and how it hands
//! the others back, the words that a job lives, the result before the ack,
//! and a stop.

use super::*;
use crate::test_support::epoch;

const ACK_WAIT: Duration = Duration::from_secs(30);

fn rules(slots: usize, only: Option<&str>) -> WorkerRules {
    WorkerRules::new(Settings {
        name: "box".into(),
        slots,
        only: only.map(str::to_string),
        engines: vec!["new".into(), "old".into()],
        redial_within: Duration::from_secs(1),
    })
}

fn job(match_name: &str, pair: u64, engines: [&str; 2]) -> Vec<u8> {
    Job {
        version: MESSAGE_VERSION,
        match_name: match_name.into(),
        pair,
        opening: vec![],
        engines: engines.map(str::to_string),
        game: "size = 9\n".into(),
    }
    .to_json()
    .into_bytes()
}

fn drain(rules: &mut WorkerRules) -> Vec<Action> {
    std::iter::from_fn(|| rules.poll_action()).collect()
}

fn replies(actions: &[Action]) -> Vec<(Token, Reply)> {
    let reply = |action: &Action| match action {
        Action::Reply { token, reply } => Some((*token, *reply)),
        _ => None,
    };
    actions.iter().filter_map(reply).collect()
}

fn notices(actions: &[Action]) -> Vec<NoticeKind> {
    let notice = |action: &Action| match action {
        Action::Notify(notice) => Some(notice.kind.clone()),
        _ => None,
    };
    actions.iter().filter_map(notice).collect()
}

fn lines(actions: &[Action]) -> Vec<String> {
    let line = |action: &Action| match action {
        Action::Say(line) => Some(line.clone()),
        _ => None,
    };
    actions.iter().filter_map(line).collect()
}

fn reports(pair: u64) -> Vec<GameReport> {
    crate::test_support::job_result(pair, "box", 1, "box-1-7").games
}

/// A job taken by the first free slot and played: the slot it took.
fn take_and_play(rules: &mut WorkerRules, now: Instant, token: Token, pair: u64) -> usize {
    assert!(rules.wants_job(now));
    rules.handle_job(
        now,
        7,
        token,
        1,
        &job("nightly", pair, ["new", "old"]),
        ACK_WAIT,
    );
    let slot = match drain(rules).as_slice() {
        [Action::Take(Taken { slot, look_for, .. })] => {
            assert_eq!(*look_for, Duration::ZERO);
            *slot
        }
        other => panic!("not taken: {other:?}"),
    };
    rules.handle_try_word(now, slot, None);
    slot
}

#[test]
fn a_job_taken_lives_every_sixth_of_the_deadline_and_its_result_is_stored_before_the_ack() {
    let t0 = epoch();
    let mut rules = rules(1, None);
    let slot = take_and_play(&mut rules, t0, 11, 4);
    let actions = drain(&mut rules);
    assert_eq!(notices(&actions), vec![NoticeKind::Taken]);
    assert!(matches!(actions[2], Action::Play { slot: 0, .. }));
    assert_eq!(
        actions[3],
        Action::Beat {
            slot,
            token: 11,
            word: "playing box-1-7".into(),
            progress: false
        },
        "the try says it lives as it begins"
    );
    assert!(!rules.wants_job(t0), "the one slot is held");
    assert_eq!(rules.poll_timeout(), Some(t0 + Duration::from_secs(5)));
    rules.handle_timeout(t0 + Duration::from_secs(4));
    assert!(drain(&mut rules).is_empty());
    rules.handle_timeout(t0 + Duration::from_secs(5));
    assert!(matches!(
        drain(&mut rules).as_slice(),
        [Action::Beat { progress: true, .. }]
    ));

    rules.handle_game_begun(slot, 1, "nightly-p5-g1".into());
    let live = NoticeKind::Playing {
        game: 1,
        live: "nightly-p5-g1".into(),
    };
    assert_eq!(notices(&drain(&mut rules)), vec![live]);

    rules.handle_played(slot, Played::Done(reports(4)));
    let result = match drain(&mut rules).as_slice() {
        [Action::PublishResult { result, .. }] => result.clone(),
        other => panic!("no result published: {other:?}"),
    };
    assert_eq!((result.pair, result.try_id.as_str()), (4, "box-1-7"));
    assert!(
        rules.poll_timeout().is_some(),
        "it lives until the result is stored"
    );
    assert!(!rules.wants_job(t0), "the slot is held until the ack");

    rules.handle_result_stored(slot);
    assert_eq!(
        rules.poll_timeout(),
        None,
        "no beat once the result is stored"
    );
    assert_eq!(
        drain(&mut rules),
        vec![Action::Finish {
            slot,
            token: 11,
            word: "reported box-1-7".into(),
            notice: None,
            reply: Reply::DoubleAck
        }]
    );
    rules.handle_acked(slot, Ok(()));
    let actions = drain(&mut rules);
    assert_eq!(actions[0], Action::MarkReported { slot, result });
    assert_eq!(lines(&actions), ["nightly pair 5 done: B+2.5, B+2.5"]);
    assert!(rules.wants_job(t0));
}

#[test]
fn a_job_for_an_engine_missing_is_handed_back_said_once_and_the_slot_waits_its_turn() {
    let t0 = epoch();
    let mut rules = rules(1, None);
    let wanting = job("nightly", 0, ["new", "leela"]);
    for token in [1, 2] {
        assert!(rules.wants_job(t0 + REFUSED_HOLD * token as u32));
        let now = t0 + REFUSED_HOLD * token as u32;
        rules.handle_job(now, 7, token, token, &wanting, ACK_WAIT);
        let actions = drain(&mut rules);
        assert_eq!(
            replies(&actions),
            [(token, Reply::Nak(Some(REFUSED_DELAY)))]
        );
        let refused = NoticeKind::Refused {
            engine: "leela".into(),
        };
        assert_eq!(notices(&actions), [refused], "the match is told each time");
        assert_eq!(lines(&actions).len(), usize::from(token == 1), "said once");
        assert!(
            !rules.wants_job(now + REFUSED_HOLD / 2),
            "another worker asks first"
        );
    }
}

#[test]
fn jobs_that_are_not_a_match_s_or_not_this_one_s_are_refused_or_handed_back() {
    let t0 = epoch();
    let mut only = rules(2, Some("nightly"));
    only.handle_job(t0, 7, 1, 1, b"{not json", ACK_WAIT);
    only.handle_job(t0, 7, 2, 1, &job("night.ly", 0, ["new", "old"]), ACK_WAIT);
    only.handle_job(t0, 7, 3, 1, &job("weekly", 0, ["new", "old"]), ACK_WAIT);
    let actions = drain(&mut only);
    assert_eq!(
        replies(&actions),
        [
            (1, Reply::Term),
            (2, Reply::Term),
            (3, Reply::Nak(Some(REFUSED_DELAY)))
        ]
    );
    assert_eq!(lines(&actions).len(), 2, "the other match's job is no news");
    assert!(notices(&actions).is_empty());
}

#[test]
fn a_job_that_failed_here_goes_to_another_worker_and_one_unplayable_is_refused_for_good() {
    let t0 = epoch();
    let mut rules = rules(1, None);
    let slot = take_and_play(&mut rules, t0, 1, 2);
    drain(&mut rules);
    rules.handle_played(slot, Played::Failed("gnugo died".into()));
    let actions = drain(&mut rules);
    assert_eq!(
        actions.last(),
        Some(&Action::Finish {
            slot,
            token: 1,
            word: "gone box-1-7".into(),
            notice: Some(WorkerNotice {
                version: MESSAGE_VERSION,
                match_name: "nightly".into(),
                pair: 2,
                worker: "box".into(),
                delivery: 1,
                kind: NoticeKind::Failed {
                    reason: "gnugo died".into()
                },
            }),
            reply: Reply::Nak(Some(FAILED_DELAY))
        })
    );
    assert!(rules.wants_job(t0));
    rules.handle_job(t0, 8, 2, 2, &job("nightly", 2, ["new", "old"]), ACK_WAIT);
    assert_eq!(
        replies(&drain(&mut rules)),
        [(2, Reply::Nak(Some(FAILED_DELAY)))]
    );

    let later = t0 + REFUSED_HOLD;
    assert!(rules.wants_job(later));
    rules.handle_job(later, 9, 3, 1, &job("nightly", 3, ["new", "old"]), ACK_WAIT);
    let Some(Action::Take(Taken { slot, .. })) = rules.poll_action() else {
        panic!("a job playable by its engines is taken");
    };
    rules.handle_unplayable(later, slot, "size 4 is not a board");
    let actions = drain(&mut rules);
    assert_eq!(replies(&actions), [(3, Reply::Term)]);
    assert_eq!(
        notices(&actions),
        [NoticeKind::Failed {
            reason: "refused by the worker: size 4 is not a board".into()
        }]
    );
}

#[test]
fn a_job_handed_out_again_is_left_with_its_live_try_or_dropped_once_reported() {
    let t0 = epoch();
    let mut rules = rules(1, None);
    let again = job("nightly", 5, ["new", "old"]);
    for (token, word) in [(1, "playing box-2-9"), (2, "playing box-2-9")] {
        rules.handle_job(t0, 7, token, 2, &again, ACK_WAIT);
        drain(&mut rules);
        rules.handle_try_word(t0, 0, Some(word.as_bytes()));
        let actions = drain(&mut rules);
        assert_eq!(
            replies(&actions),
            [(token, Reply::Nak(Some(Duration::from_secs(15))))],
            "handed back until the try's word has aged out"
        );
        assert_eq!(lines(&actions).len(), usize::from(token == 1), "said once");
    }
    rules.handle_job(t0, 7, 3, 3, &again, ACK_WAIT);
    drain(&mut rules);
    rules.handle_try_word(t0, 0, Some(b"reported box-2-9"));
    assert_eq!(replies(&drain(&mut rules)), [(3, Reply::Ack)]);
    assert!(rules.wants_job(t0), "no slot is held for it");
    assert_eq!(rules.poll_timeout(), None, "nothing beats for a job left");
}

#[test]
fn after_the_broker_comes_back_a_job_looks_for_its_try_while_the_others_connect_again() {
    let t0 = epoch();
    let mut rules = rules(1, None);
    rules.handle_fetch_failed("timed out");
    rules.handle_fetch_failed("timed out");
    rules.handle_link(t0, false, "venue:4222");
    let actions = drain(&mut rules);
    assert_eq!(
        lines(&actions).len(),
        2,
        "one line a trouble, not one an ask"
    );
    rules.handle_link(t0, true, "venue:4222");
    assert_eq!(lines(&drain(&mut rules)), ["the broker answers again"]);

    let soon = t0 + Duration::from_secs(10);
    rules.handle_job(soon, 7, 1, 2, &job("nightly", 1, ["new", "old"]), ACK_WAIT);
    let Some(Action::Take(Taken { look_for, .. })) = rules.poll_action() else {
        panic!("taken");
    };
    assert_eq!(look_for, ACK_WAIT / 4);
    assert_eq!(
        look_after_return(Duration::from_secs(8), Duration::from_secs(1)),
        Duration::from_secs(1) + Duration::from_secs(8) / 6 + Duration::from_secs(1),
        "a short deadline still waits for a worker's redial and its beat"
    );
    rules.handle_try_word(soon, 0, None);
    drain(&mut rules);

    rules.handle_played(0, Played::BrokerAway("stalled".into()));
    let late = soon + ACK_WAIT;
    rules.handle_job(late, 7, 2, 3, &job("nightly", 1, ["new", "old"]), ACK_WAIT);
    let Some(Action::Take(Taken { look_for, .. })) = drain(&mut rules).pop() else {
        panic!("taken");
    };
    assert_eq!(look_for, Duration::ZERO, "long after the return: one look");
}

#[test]
fn a_job_that_comes_before_the_link_says_it_is_back_still_looks_for_its_try() {
    let t0 = epoch();
    let mut rules = rules(1, None);
    rules.handle_link(t0, false, "venue:4222");
    drain(&mut rules);
    let back = t0 + Duration::from_secs(10);
    rules.handle_job(back, 7, 1, 2, &job("nightly", 1, ["new", "old"]), ACK_WAIT);
    let actions = drain(&mut rules);
    assert_eq!(lines(&actions), ["the broker answers again"]);
    let Some(Action::Take(Taken { look_for, .. })) = actions
        .into_iter()
        .find(|action| matches!(action, Action::Take(_)))
    else {
        panic!("taken");
    };
    assert_eq!(look_for, ACK_WAIT / 4);
    rules.handle_link(back, true, "venue:4222");
    assert!(lines(&drain(&mut rules)).is_empty(), "said once");
}

#[test]
fn a_stop_hands_back_the_jobs_held_and_ends_once_every_slot_is_free() {
    let t0 = epoch();
    let mut rules = rules(2, None);
    let playing = take_and_play(&mut rules, t0, 1, 0);
    assert!(rules.wants_job(t0));
    rules.handle_job(t0, 7, 2, 1, &job("nightly", 1, ["new", "old"]), ACK_WAIT);
    drain(&mut rules);

    rules.handle_stop("goref received SIGTERM");
    let actions = drain(&mut rules);
    assert_eq!(
        lines(&actions),
        ["goref received SIGTERM: handing back the jobs held"]
    );
    assert_eq!(actions.last(), Some(&Action::StopPlaying));
    assert!(!rules.wants_job(t0), "no job is asked for while stopping");

    rules.handle_try_word(t0, 1, None);
    let actions = drain(&mut rules);
    assert!(notices(&actions).is_empty(), "a job not begun is not taken");
    assert!(matches!(
        actions.as_slice(),
        [Action::Finish {
            reply: Reply::Nak(None),
            ..
        }]
    ));
    rules.handle_played(playing, Played::Stopped);
    let actions = drain(&mut rules);
    assert_eq!(
        actions.last(),
        Some(&Action::Stopped {
            reported: 0,
            unreported: 2
        })
    );
}
