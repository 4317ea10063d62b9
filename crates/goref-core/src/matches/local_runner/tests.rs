//! The local runner's decisions, with folders and gorefs played by hand:
//! the boards limit, games played again in folders of their own, finished
//! games never played again, games under way resumed or followed, the stop
//! rule letting the pairs in play finish, and a stop leaving games playing.

use std::num::NonZeroUsize;

use super::*;
use crate::matches::{Sprt, SprtModel, SprtSettings, StopRule};

fn ledger(pairs: Option<u64>) -> Ledger {
    Ledger::new(StopRule { pairs, sprt: None }, NonZeroUsize::MIN)
}

fn game(pair: u64, candidate: Color) -> PairGame {
    PairGame { pair, candidate }
}

fn won() -> FolderLook {
    FolderLook::Counts(GameEnd {
        outcome: Outcome::Win,
        end: "score".into(),
    })
}

fn actions(runner: &mut LocalRunner) -> Vec<Action> {
    std::iter::from_fn(|| runner.poll_action()).collect()
}

fn spawns(actions: &[Action]) -> Vec<(PairGame, u32, bool)> {
    actions
        .iter()
        .filter_map(|action| match action {
            Action::Spawn {
                game,
                attempt,
                resume,
            } => Some((*game, *attempt, *resume)),
            _ => None,
        })
        .collect()
}

fn spawn(pair: u64, candidate: Color, attempt: u32, resume: bool) -> (PairGame, u32, bool) {
    (game(pair, candidate), attempt, resume)
}

/// A runner begun on a match with no folder yet, its first turn taken.
fn fresh(boards: usize, ledger: &Ledger) -> (LocalRunner, Vec<Action>, Instant) {
    let t = goref_epoch::epoch();
    let mut runner = LocalRunner::new(boards, t);
    runner.handle_folder_states([]);
    runner.handle_turn(ledger);
    let first = actions(&mut runner);
    (runner, first, t)
}

#[test]
fn no_more_games_play_at_once_than_there_are_boards() {
    let ledger = ledger(Some(5));
    let (mut runner, first, t) = fresh(3, &ledger);
    assert_eq!(
        spawns(&first),
        [
            spawn(0, Color::Black, 1, false),
            spawn(0, Color::White, 1, false),
            spawn(1, Color::Black, 1, false)
        ]
    );
    assert_eq!(runner.running().len(), 3);
    runner.handle_board_ended(game(0, Color::White), won(), true, t);
    runner.handle_turn(&ledger);
    assert_eq!(
        spawns(&actions(&mut runner)),
        [spawn(1, Color::White, 1, false)],
        "one board freed, one game started"
    );
    runner.handle_turn(&ledger);
    assert!(spawns(&actions(&mut runner)).is_empty(), "no board is free");
}

#[test]
fn a_void_or_crashed_game_is_played_again_in_a_folder_of_its_own() {
    let ledger = ledger(Some(1));
    let (mut runner, _, t) = fresh(2, &ledger);
    let black = game(0, Color::Black);
    runner.handle_board_ended(
        black,
        FolderLook::Replay("Void (void): no".into()),
        false,
        t,
    );
    runner.handle_turn(&ledger);
    assert_eq!(
        spawns(&actions(&mut runner)),
        [spawn(0, Color::Black, 2, false)],
        "a void game is played again from its start, in its folder of try 2"
    );
    for resumed in 1..=MAX_RESUMES {
        runner.handle_board_ended(black, FolderLook::Unfinished, false, t);
        runner.handle_turn(&ledger);
        assert_eq!(
            spawns(&actions(&mut runner)),
            [spawn(0, Color::Black, 2, true)],
            "resume {resumed}: a game whose goref died goes on in its folder"
        );
    }
    runner.handle_board_ended(black, FolderLook::Unfinished, false, t);
    runner.handle_turn(&ledger);
    assert_eq!(
        spawns(&actions(&mut runner)),
        [spawn(0, Color::Black, 3, false)],
        "resumed {MAX_RESUMES} times, it is played again in a new folder"
    );
    runner.handle_board_ended(black, FolderLook::Unreadable, false, t);
    runner.handle_turn(&ledger);
    assert_eq!(
        spawns(&actions(&mut runner)),
        [spawn(0, Color::Black, 4, false)]
    );
}

#[test]
fn a_game_played_too_often_with_no_result_stops_the_match_once_the_others_end() {
    let ledger = ledger(None);
    let t = goref_epoch::epoch();
    let mut runner = LocalRunner::new(2, t);
    let black = game(0, Color::Black);
    runner.handle_folder_states([
        FolderRead {
            game: black,
            attempt: MAX_ATTEMPTS,
            look: FolderLook::Replay("Void (void): the engine hung".into()),
            told: false,
        },
        FolderRead {
            game: game(0, Color::White),
            attempt: 1,
            look: FolderLook::Empty,
            told: false,
        },
    ]);
    runner.handle_turn(&ledger);
    let first = actions(&mut runner);
    assert!(spawns(&first).is_empty(), "nothing starts: {first:?}");
    let failure = Failure::NoResult {
        game: black,
        attempts: MAX_ATTEMPTS,
        last: "Void (void): the engine hung".into(),
    };
    assert_eq!(
        first.last(),
        Some(&Action::Finished {
            failed: Some(failure)
        })
    );
    assert!(runner.is_over());
}

#[test]
fn a_finished_game_is_never_played_again_and_told_once() {
    let ledger = ledger(Some(2));
    let t = goref_epoch::epoch();
    let mut runner = LocalRunner::new(4, t);
    let read = |pair, candidate, look, told| FolderRead {
        game: game(pair, candidate),
        attempt: 1,
        look,
        told,
    };
    runner.handle_folder_states([
        read(0, Color::Black, won(), true),
        read(0, Color::White, won(), false),
    ]);
    let end = GameEnd {
        outcome: Outcome::Win,
        end: "score".into(),
    };
    assert_eq!(
        actions(&mut runner),
        [Action::Tell {
            game: game(0, Color::White),
            attempt: 1,
            end: Some(end)
        }],
        "only the game that ended while no runner followed is told"
    );
    runner.handle_turn(&ledger);
    assert_eq!(
        spawns(&actions(&mut runner)),
        [
            spawn(1, Color::Black, 1, false),
            spawn(1, Color::White, 1, false)
        ],
        "the finished pair is not played again"
    );
}

#[test]
fn a_game_under_way_is_resumed_or_followed_after_a_restart() {
    let ledger = ledger(Some(1));
    let t = goref_epoch::epoch();
    let mut runner = LocalRunner::new(2, t);
    let (black, white) = (game(0, Color::Black), game(0, Color::White));
    runner.handle_folder_states([
        FolderRead {
            game: black,
            attempt: 2,
            look: FolderLook::Unfinished,
            told: false,
        },
        FolderRead {
            game: white,
            attempt: 1,
            look: FolderLook::Live,
            told: false,
        },
    ]);
    runner.handle_turn(&ledger);
    assert_eq!(
        spawns(&actions(&mut runner)),
        [spawn(0, Color::Black, 2, true)],
        "the dead goref's game is resumed in its folder; the live one is left to its goref"
    );
    assert_eq!(runner.in_play(white), Some(1));
    runner.handle_tick();
    assert_eq!(
        actions(&mut runner),
        [Action::LookAgain {
            game: white,
            attempt: 1
        }]
    );
    runner.handle_adopted_ended(white, won(), true);
    runner.handle_board_ended(black, won(), true, t);
    runner.handle_turn(&ledger);
    let last = actions(&mut runner);
    assert_eq!(last.last(), Some(&Action::Finished { failed: None }));
    assert_eq!(
        last.iter()
            .filter(|a| matches!(a, Action::Tell { .. }))
            .count(),
        2
    );
}

#[test]
fn the_pairs_asked_for_begin_no_new_pair_but_the_pairs_in_play_finish() {
    let ledger = ledger(Some(1));
    let (mut runner, first, t) = fresh(1, &ledger);
    assert_eq!(spawns(&first), [spawn(0, Color::Black, 1, false)]);
    runner.handle_board_ended(game(0, Color::Black), won(), true, t);
    runner.handle_turn(&ledger);
    assert_eq!(
        spawns(&actions(&mut runner)),
        [spawn(0, Color::White, 1, false)]
    );
    runner.handle_board_ended(game(0, Color::White), won(), true, t);
    runner.handle_turn(&ledger);
    let last = actions(&mut runner);
    assert!(spawns(&last).is_empty(), "{last:?}");
    assert_eq!(last.last(), Some(&Action::Finished { failed: None }));
}

#[test]
fn the_sprt_decided_lets_the_pair_in_play_finish_and_begins_no_other() {
    let sprt = Sprt::new(SprtSettings {
        elo0: 0.0,
        elo1: 200.0,
        alpha: 0.2,
        beta: 0.2,
        model: SprtModel::Logistic,
    })
    .unwrap();
    let rule = StopRule {
        pairs: None,
        sprt: Some(sprt),
    };
    let mut ledger = Ledger::new(rule, NonZeroUsize::MIN);
    let (mut runner, first, t) = fresh(3, &ledger);
    assert_eq!(spawns(&first).len(), 3);
    let mut pair = 0;
    while ledger.decision().is_none() {
        for candidate in [Color::Black, Color::White] {
            ledger.record(pair, candidate, Outcome::Win);
            runner.handle_board_ended(game(pair, candidate), won(), true, t);
            runner.handle_turn(&ledger);
        }
        pair += 1;
    }
    let started: Vec<_> = spawns(&actions(&mut runner));
    let begun = started.iter().map(|(g, ..)| g.pair).max().unwrap();
    assert_eq!(begun, pair, "the pair begun before the decision is played");
    assert!(!runner.running().is_empty(), "the pair in play plays on");
    while let Some(&(game, _)) = runner.running().first() {
        runner.handle_board_ended(game, won(), true, t);
        runner.handle_turn(&ledger);
        let started = spawns(&actions(&mut runner));
        assert!(
            started.iter().all(|(g, ..)| g.pair <= begun),
            "no pair begins after the decision: {started:?}"
        );
    }
    assert!(runner.is_over());
}

#[test]
fn a_stop_asked_ends_the_runner_and_leaves_its_games_playing() {
    let ledger = ledger(None);
    let (mut runner, first, _) = fresh(2, &ledger);
    assert_eq!(spawns(&first).len(), 2);
    runner.handle_stop_asked("goref received SIGTERM".into());
    runner.handle_turn(&ledger);
    assert_eq!(
        actions(&mut runner),
        [Action::Stopped {
            why: "goref received SIGTERM".into(),
            playing: 2
        }],
        "nothing more starts, and the games are not ended"
    );
    assert!(runner.is_over());
}

#[test]
fn the_report_is_written_at_most_every_ten_seconds_and_the_picture_when_it_changes() {
    let ledger = ledger(None);
    let (mut runner, first, t) = fresh(1, &ledger);
    assert!(matches!(
        &first[..],
        [Action::Spawn { .. }, Action::Show(_)]
    ));
    runner.handle_turn(&ledger);
    assert!(actions(&mut runner).is_empty(), "nothing changed");
    let black = game(0, Color::Black);
    runner.handle_board_ended(black, won(), true, t + Duration::from_secs(1));
    let early = actions(&mut runner);
    assert!(!early.contains(&Action::Report), "{early:?}");
    runner.handle_turn(&ledger);
    assert!(matches!(
        &actions(&mut runner)[..],
        [Action::Spawn { .. }, Action::Show(_)]
    ));
    let white = game(0, Color::White);
    runner.handle_board_ended(white, won(), true, t + REPORT_EVERY);
    assert!(actions(&mut runner).contains(&Action::Report));
}

#[test]
fn a_game_whose_engine_is_not_ready_waits_unbegun_while_the_games_in_play_finish() {
    let ledger = ledger(Some(5));
    let (mut runner, first, t) = fresh(2, &ledger);
    assert_eq!(
        spawns(&first),
        [
            spawn(0, Color::Black, 1, false),
            spawn(0, Color::White, 1, false)
        ]
    );
    let failure = Failure::NotReady {
        engine: "new".into(),
        why: "not ready twice on board 2: no answer to protocol_version within 60.0 s".into(),
    };
    runner.handle_not_started(game(0, Color::White), failure.clone());
    runner.handle_turn(&ledger);
    assert_eq!(runner.running(), [(game(0, Color::Black), 1)]);
    assert!(spawns(&actions(&mut runner)).is_empty(), "no game begins");
    runner.handle_board_ended(game(0, Color::Black), won(), true, t);
    runner.handle_turn(&ledger);
    let last = actions(&mut runner);
    assert!(spawns(&last).is_empty(), "{last:?}");
    assert_eq!(
        last.last(),
        Some(&Action::Finished {
            failed: Some(failure)
        })
    );

    let mut again = LocalRunner::new(2, t);
    again.handle_folder_states([
        FolderRead {
            game: game(0, Color::Black),
            attempt: 1,
            look: won(),
            told: true,
        },
        FolderRead {
            game: game(0, Color::White),
            attempt: 1,
            look: FolderLook::Empty,
            told: false,
        },
    ]);
    again.handle_turn(&ledger);
    assert_eq!(
        spawns(&actions(&mut again))[0],
        spawn(0, Color::White, 1, false),
        "the next run begins it in its first folder"
    );
}
