//! Tests of the referee state machine: the start, alternation, legality, the
//! KGS and judge ends of game, clocks, move limits and failures.

use std::time::{Duration, Instant};

use proptest::prelude::*;

use crate::game::board::Illegal;
use crate::game::clock::{parse_duration, TimeSystem};
use crate::game::rules::{Preset, Rules};
use crate::game::score::Scoring;
use crate::game::{Color, Move, Point, MAX_SIZE};
use crate::referee::event::{
    AgreementEvent, End, GameEvent, GameResult, LineDirection, Phase, PlayerInfo, SessionChange,
};
use crate::referee::{
    Action, Failure, GameConfig, Handicap, OperatorCommand, PlayerEvent, Referee, TimeLeft,
};

use Color::{Black, White};

// ---------------------------------------------------------------- harness

fn pt(vertex: &str) -> Point {
    Point::parse_gtp(vertex, MAX_SIZE).unwrap()
}

fn pts(vertices: &str) -> Vec<Point> {
    vertices.split_whitespace().map(pt).collect()
}

fn mv(word: &str) -> Move {
    Move::parse_gtp(word, MAX_SIZE).unwrap()
}

fn strings(vertices: &str) -> Vec<String> {
    vertices.split_whitespace().map(String::from).collect()
}

fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

fn ms(m: u64) -> Duration {
    Duration::from_millis(m)
}

fn ns(n: u64) -> Duration {
    Duration::from_nanos(n)
}

fn config(size: u8, preset: Preset) -> GameConfig {
    GameConfig {
        size,
        rules: Rules::preset(preset),
        handicap: Handicap::None,
        opening: Vec::new(),
    }
}

fn info(name: &str, kgs: bool) -> PlayerInfo {
    PlayerInfo {
        protocol: "gtp".into(),
        spec: format!("./{name}"),
        name: name.into(),
        version: "1.0".into(),
        kgs_end_protocol: kgs,
        claims_dead_stones: kgs,
        stops_at_double_pass: false,
    }
}

/// Sends `Ready` for both players at `t`; the game starts.
fn start(referee: &mut Referee, t: Instant, kgs_black: bool, kgs_white: bool) {
    referee.handle_player(t, Black, PlayerEvent::Ready(info("black-bot", kgs_black)));
    referee.handle_player(t, White, PlayerEvent::Ready(info("white-bot", kgs_white)));
}

/// A referee for `config` whose game has started at `t`, with the start's
/// events and actions drained.
fn started(config: GameConfig, t: Instant, kgs_black: bool, kgs_white: bool) -> Referee {
    let mut referee = Referee::new(config).unwrap();
    start(&mut referee, t, kgs_black, kgs_white);
    events(&mut referee);
    actions(&mut referee);
    referee
}

/// The player starts thinking at `t` and answers at once.
fn play(referee: &mut Referee, t: Instant, color: Color, mv: Move) {
    play_after(referee, t, color, mv, Duration::ZERO);
}

/// The player starts thinking at `t` and answers `think` later.
fn play_after(referee: &mut Referee, t: Instant, color: Color, mv: Move, think: Duration) {
    referee.handle_player(t, color, PlayerEvent::Thinking);
    referee.handle_player(t + think, color, PlayerEvent::Moved(mv));
}

/// Plays the moves in `line` (`"C3 D4 pass"`), each by the side to move.
fn play_line(referee: &mut Referee, t: Instant, line: &str) {
    for word in line.split_whitespace() {
        let color = referee.board().to_move();
        play(referee, t, color, mv(word));
    }
}

fn events(referee: &mut Referee) -> Vec<GameEvent> {
    std::iter::from_fn(|| referee.poll_event()).collect()
}

fn actions(referee: &mut Referee) -> Vec<Action> {
    std::iter::from_fn(|| referee.poll_action()).collect()
}

fn results(events: &[GameEvent]) -> Vec<&GameResult> {
    events
        .iter()
        .filter_map(|e| match e {
            GameEvent::Result(result) => Some(result),
            _ => None,
        })
        .collect()
}

/// The only result among `events`.
fn the_result(events: &[GameEvent]) -> &GameResult {
    let found = results(events);
    assert_eq!(found.len(), 1, "exactly one result in {events:#?}");
    found[0]
}

/// The mover's clock after the first move among `events`.
fn move_clock(events: &[GameEvent]) -> crate::game::clock::ClockReading {
    events
        .iter()
        .find_map(|e| match e {
            GameEvent::Move { clock, .. } => Some(clock.clone()),
            _ => None,
        })
        .expect("a move")
}

fn phases(events: &[GameEvent]) -> Vec<Phase> {
    events
        .iter()
        .filter_map(|e| match e {
            GameEvent::Phase { phase, .. } => Some(*phase),
            _ => None,
        })
        .collect()
}

fn phase_reason(events: &[GameEvent], wanted: Phase) -> &str {
    events
        .iter()
        .find_map(|e| match e {
            GameEvent::Phase { phase, reason } if *phase == wanted => Some(reason.as_str()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no {wanted:?} phase in {events:#?}"))
}

fn agreements(events: &[GameEvent]) -> Vec<&AgreementEvent> {
    events
        .iter()
        .filter_map(|e| match e {
            GameEvent::Agreement(a) => Some(a),
            _ => None,
        })
        .collect()
}

/// `(fatal, colour, message)` of every error event.
fn errors(events: &[GameEvent]) -> Vec<(bool, Option<Color>, String)> {
    events
        .iter()
        .filter_map(|e| match e {
            GameEvent::Error {
                color,
                message,
                fatal,
            } => Some((*fatal, *color, message.clone())),
            _ => None,
        })
        .collect()
}

/// `(n, colour, vertex, ms)` of every move event.
fn moves(events: &[GameEvent]) -> Vec<(u32, Color, String, u64)> {
    events
        .iter()
        .filter_map(|e| match e {
            GameEvent::Move {
                n,
                color,
                vertex,
                ms,
                ..
            } => Some((*n, *color, vertex.clone(), *ms)),
            _ => None,
        })
        .collect()
}

fn tells(actions: &[Action]) -> Vec<(Color, Color, Move)> {
    actions
        .iter()
        .filter_map(|a| match a {
            Action::TellMove { to, color, mv } => Some((*to, *color, *mv)),
            _ => None,
        })
        .collect()
}

fn requests(actions: &[Action]) -> Vec<(Color, bool)> {
    actions
        .iter()
        .filter_map(|a| match a {
            Action::RequestMove { color, cleanup, .. } => Some((*color, *cleanup)),
            _ => None,
        })
        .collect()
}

fn request_move(color: Color, cleanup: bool) -> Action {
    Action::RequestMove {
        color,
        cleanup,
        time_left: None,
    }
}

/// A move request in main time, with `seconds` left on the clock.
fn timed_request(color: Color, seconds: u64) -> Action {
    Action::RequestMove {
        color,
        cleanup: false,
        time_left: Some(TimeLeft {
            seconds,
            stones: 0,
            kgs_stones: 0,
        }),
    }
}

fn game_over(result: &str) -> Action {
    Action::GameOver {
        result: result.into(),
    }
}

/// 5x5: Black walls off columns A-B with column C, White holds D-E with
/// column D, then White's chain A3-A4 sits in Black's area. Ends with the
/// double pass "B pass, W pass" (moves 15 and 16), so Black moves next.
const WALLS_AND_INVADER: &str = "C1 D1 C2 D2 C3 D3 C4 D4 C5 D5 pass A3 pass A4 pass pass";

/// A 5x5 game (`preset`) played up to the double pass, with the double
/// pass's events and actions returned.
fn to_double_pass(
    preset: Preset,
    t: Instant,
    kgs_black: bool,
    kgs_white: bool,
) -> (Referee, Vec<GameEvent>, Vec<Action>) {
    let mut referee = started(config(5, preset), t, kgs_black, kgs_white);
    let (line, last) = WALLS_AND_INVADER.rsplit_once(' ').unwrap();
    play_line(&mut referee, t, line);
    events(&mut referee);
    actions(&mut referee);
    play(&mut referee, t, White, mv(last));
    let evs = events(&mut referee);
    let acts = actions(&mut referee);
    (referee, evs, acts)
}

fn claim(referee: &mut Referee, t: Instant, color: Color, vertices: &str) {
    referee.handle_player(t, color, PlayerEvent::DeadStones(pts(vertices)));
}

// ---------------------------------------------------------------- start

#[test]
fn the_game_starts_when_both_players_are_ready() {
    let t = crate::test_support::epoch();
    let mut referee = Referee::new(config(9, Preset::Kgs)).unwrap();
    referee.handle_player(t, Black, PlayerEvent::Ready(info("black-bot", true)));
    let evs = events(&mut referee);
    assert!(
        matches!(&evs[..], [GameEvent::Player { color: Black, .. }]),
        "one player is named, and is not enough: {evs:#?}"
    );
    assert!(actions(&mut referee).is_empty());
    assert_eq!(referee.phase(), Phase::Setup);

    referee.handle_player(t, White, PlayerEvent::Ready(info("white-bot", false)));
    let evs = events(&mut referee);
    assert_eq!(evs.len(), 3, "{evs:#?}");
    assert!(matches!(&evs[0], GameEvent::Player { color: White, .. }));
    let evs = &evs[1..];
    let GameEvent::GameStart(game) = &evs[0] else {
        panic!("expected the game start first: {evs:#?}");
    };
    assert_eq!(game.size, 9);
    assert_eq!(game.komi, 7.5);
    assert_eq!(game.rules, "kgs");
    assert_eq!(game.ruleset, "Chinese");
    assert_eq!(game.time, TimeSystem::None.to_string());
    assert!(game.handicap.is_empty());
    assert_eq!(game.first_to_move, Black);
    assert_eq!(game.black, info("black-bot", true));
    assert_eq!(game.white, info("white-bot", false));
    assert!(matches!(
        &evs[1],
        GameEvent::Phase {
            phase: Phase::Play,
            ..
        }
    ));
    assert_eq!(
        actions(&mut referee),
        vec![request_move(Black, false)],
        "untimed: no time left is sent"
    );
    assert_eq!(referee.phase(), Phase::Play);
}

#[test]
fn a_second_ready_after_the_start_changes_nothing() {
    let t = crate::test_support::epoch();
    let mut referee = started(config(9, Preset::Kgs), t, true, true);
    referee.handle_player(t, Black, PlayerEvent::Ready(info("impostor", false)));
    assert!(events(&mut referee).is_empty());
    assert!(actions(&mut referee).is_empty());
}

#[test]
fn with_a_fixed_handicap_white_moves_first() {
    let t = crate::test_support::epoch();
    let mut referee = Referee::new(GameConfig {
        handicap: Handicap::Fixed(2),
        ..config(9, Preset::Kgs)
    })
    .unwrap();
    start(&mut referee, t, true, true);
    let evs = events(&mut referee);
    let GameEvent::GameStart(game) = &evs[2] else {
        panic!("expected the game start after the players: {evs:#?}");
    };
    assert_eq!(game.handicap, strings("C3 G7"));
    assert_eq!(game.first_to_move, White);
    assert_eq!(actions(&mut referee), vec![request_move(White, false)]);
    assert_eq!(referee.board().get(pt("C3")), Some(Black));
    assert_eq!(referee.board().get(pt("G7")), Some(Black));

    play(&mut referee, t, White, mv("E5"));
    let evs = events(&mut referee);
    assert_eq!(moves(&evs), vec![(1, White, "E5".into(), 0)]);
}

#[test]
fn a_handicap_that_does_not_fit_the_board_is_refused() {
    assert!(Referee::new(GameConfig {
        handicap: Handicap::Fixed(2),
        ..config(5, Preset::Kgs)
    })
    .is_err());
    assert!(Referee::new(GameConfig {
        handicap: Handicap::Free(pts("C3 C3")),
        ..config(9, Preset::Kgs)
    })
    .is_err());
}

// ---------------------------------------------------------------- alternation

#[test]
fn a_move_is_told_to_the_opponent_before_the_opponent_is_asked() {
    let t = crate::test_support::epoch();
    let mut referee = started(config(9, Preset::Kgs), t, true, true);
    play(&mut referee, t, Black, mv("D4"));
    assert_eq!(
        actions(&mut referee),
        vec![
            Action::TellMove {
                to: White,
                color: Black,
                mv: mv("D4")
            },
            request_move(White, false),
        ]
    );
    let evs = events(&mut referee);
    assert_eq!(moves(&evs), vec![(1, Black, "D4".into(), 0)]);

    play(&mut referee, t, White, mv("pass"));
    assert_eq!(
        actions(&mut referee),
        vec![
            Action::TellMove {
                to: Black,
                color: White,
                mv: Move::Pass
            },
            request_move(Black, false),
        ]
    );
    assert_eq!(
        moves(&events(&mut referee)),
        vec![(2, White, "pass".into(), 0)]
    );
}

#[test]
fn captures_are_listed_with_the_move() {
    let t = crate::test_support::epoch();
    let mut referee = started(config(5, Preset::Kgs), t, true, true);
    play_line(&mut referee, t, "B1 A1");
    events(&mut referee);
    play(&mut referee, t, Black, mv("A2"));
    let evs = events(&mut referee);
    let captures: Vec<&Vec<String>> = evs
        .iter()
        .filter_map(|e| match e {
            GameEvent::Move { captures, .. } => Some(captures),
            _ => None,
        })
        .collect();
    assert_eq!(captures, vec![&strings("A1")]);
    assert_eq!(referee.board().get(pt("A1")), None);
}

// ---------------------------------------------------------------- illegal moves

#[test]
fn a_move_on_an_occupied_point_forfeits_and_is_never_told() {
    let t = crate::test_support::epoch();
    let mut referee = started(config(9, Preset::Kgs), t, true, true);
    play_line(&mut referee, t, "D4 E5");
    events(&mut referee);
    actions(&mut referee);

    play(&mut referee, t, Black, mv("E5"));
    let evs = events(&mut referee);
    let acts = actions(&mut referee);
    assert!(evs.contains(&GameEvent::Illegal {
        n: 3,
        color: Black,
        vertex: "E5".into(),
        reason: Illegal::Occupied,
    }));
    let errs = errors(&evs);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(errs[0].0, "an illegal move is a fatal error");
    assert_eq!(errs[0].1, Some(Black));
    let result = the_result(&evs);
    assert_eq!(result.result, "W+F");
    assert_eq!(result.winner, Some(White));
    assert!(result.reason.contains("E5"), "{}", result.reason);
    assert!(moves(&evs).is_empty(), "an illegal move is no move");
    assert!(tells(&acts).is_empty(), "the opponent never hears of it");
    assert_eq!(acts, vec![game_over("W+F")]);
    assert!(referee.is_over());
    assert_eq!(referee.board().get(pt("E5")), Some(White));
}

/// Three kos on a 9x9 board: a cycle of six captures that repeats the whole
/// position (a triple ko), which only a superko rule forbids.
const TRIPLE_KO_SETUP: &str = "A1 C2 B2 D1 F1 B1 G2 H2 A9 J1 B8 C8 H1 D9 pass B9";

#[test]
fn an_immediate_ko_recapture_forfeits() {
    let t = crate::test_support::epoch();
    let mut referee = started(config(9, Preset::Kgs), t, true, true);
    play_line(&mut referee, t, TRIPLE_KO_SETUP);
    play(&mut referee, t, Black, mv("C1"));
    events(&mut referee);
    actions(&mut referee);

    play(&mut referee, t, White, mv("B1"));
    let evs = events(&mut referee);
    assert!(evs.contains(&GameEvent::Illegal {
        n: 18,
        color: White,
        vertex: "B1".into(),
        reason: Illegal::Ko,
    }));
    assert_eq!(the_result(&evs).result, "B+F");
    assert_eq!(actions(&mut referee), vec![game_over("B+F")]);
}

#[test]
fn a_superko_repeat_forfeits_under_kgs_rules() {
    let t = crate::test_support::epoch();
    let mut referee = started(config(9, Preset::Kgs), t, true, true);
    play_line(&mut referee, t, TRIPLE_KO_SETUP);
    // Each capture is legal, none an immediate recapture...
    play_line(&mut referee, t, "C1 G1 C9 B1 H1");
    let evs = events(&mut referee);
    assert_eq!(moves(&evs).len(), 21, "{:#?}", errors(&evs));
    assert!(results(&evs).is_empty());
    actions(&mut referee);

    // ... but White's sixth capture brings back the position after move 16.
    play(&mut referee, t, White, mv("B9"));
    let evs = events(&mut referee);
    assert!(
        evs.contains(&GameEvent::Illegal {
            n: 22,
            color: White,
            vertex: "B9".into(),
            reason: Illegal::Superko,
        }),
        "{evs:#?}"
    );
    assert!(errors(&evs)
        .iter()
        .any(|(fatal, c, _)| *fatal && *c == Some(White)));
    let result = the_result(&evs);
    assert_eq!(
        (result.result.as_str(), result.winner),
        ("B+F", Some(Black))
    );
    let acts = actions(&mut referee);
    assert!(tells(&acts).is_empty());
    assert_eq!(acts, vec![game_over("B+F")]);
}

#[test]
fn the_same_triple_ko_cycle_is_legal_under_simple_ko() {
    let t = crate::test_support::epoch();
    let mut referee = started(config(9, Preset::Cgf), t, true, true);
    play_line(&mut referee, t, TRIPLE_KO_SETUP);
    play_line(&mut referee, t, "C1 G1 C9 B1 H1 B9");
    let evs = events(&mut referee);
    assert_eq!(moves(&evs).len(), 22);
    assert!(results(&evs).is_empty(), "{evs:#?}");
}

// ---------------------------------------------------------------- unexpected moves

#[test]
fn a_move_from_the_wrong_player_is_ignored() {
    let t = crate::test_support::epoch();
    let mut referee = started(config(9, Preset::Kgs), t, true, true);
    play(&mut referee, t, White, mv("D4"));
    let evs = events(&mut referee);
    let errs = errors(&evs);
    assert_eq!(errs.len(), 1, "{evs:#?}");
    assert_eq!((errs[0].0, errs[0].1), (false, Some(White)));
    assert!(errs[0].2.contains("unasked"), "{}", errs[0].2);
    assert!(moves(&evs).is_empty());
    assert!(actions(&mut referee).is_empty());
    assert_eq!(referee.board().get(pt("D4")), None);
    assert_eq!(referee.board().to_move(), Black);
    assert_eq!(referee.phase(), Phase::Play);

    play(&mut referee, t, Black, mv("D4"));
    assert_eq!(
        moves(&events(&mut referee)),
        vec![(1, Black, "D4".into(), 0)]
    );
}

#[test]
fn thinking_out_of_turn_starts_no_clock() {
    let t = crate::test_support::epoch();
    let mut referee = started(timed(9, absolute(secs(10))), t, true, true);
    referee.handle_player(t, White, PlayerEvent::Thinking);
    assert!(events(&mut referee).is_empty());
    assert!(!referee.clock(White).is_running());
    referee.handle_player(t, Black, PlayerEvent::Thinking);
    let evs = events(&mut referee);
    assert!(
        matches!(&evs[..], [GameEvent::Clock { color: Black, clock }] if clock.running),
        "{evs:#?}"
    );
}

#[test]
fn a_move_nobody_asked_for_is_ignored() {
    let t = crate::test_support::epoch();
    // Before the game starts.
    let mut referee = Referee::new(config(9, Preset::Kgs)).unwrap();
    referee.handle_player(t, Black, PlayerEvent::Moved(mv("D4")));
    let evs = events(&mut referee);
    assert_eq!(errors(&evs).len(), 1);
    assert!(!errors(&evs)[0].0);
    assert!(actions(&mut referee).is_empty());
    assert_eq!(referee.board().get(pt("D4")), None);
    assert_eq!(referee.phase(), Phase::Setup);

    // While the dead stones are asked for.
    let (mut referee, _, _) = to_double_pass(Preset::Kgs, t, true, true);
    play(&mut referee, t, Black, mv("B2"));
    let evs = events(&mut referee);
    let errs = errors(&evs);
    assert_eq!(errs.len(), 1, "{evs:#?}");
    assert!(!errs[0].0);
    assert!(moves(&evs).is_empty());
    assert!(actions(&mut referee).is_empty());
    assert_eq!(referee.board().get(pt("B2")), None);
    assert_eq!(referee.phase(), Phase::DeadStones);
}

// ---------------------------------------------------------------- resignation

#[test]
fn resigning_loses_by_resignation() {
    for (loser, expected) in [(Black, "W+R"), (White, "B+R")] {
        let t = crate::test_support::epoch();
        let mut referee = started(config(9, Preset::Kgs), t, true, true);
        if loser == White {
            play(&mut referee, t, Black, mv("D4"));
        }
        events(&mut referee);
        actions(&mut referee);
        play(&mut referee, t, loser, Move::Resign);
        let evs = events(&mut referee);
        let n = if loser == White { 2 } else { 1 };
        assert_eq!(moves(&evs), vec![(n, loser, "resign".into(), 0)]);
        let result = the_result(&evs);
        assert_eq!(result.result, expected);
        assert_eq!(result.winner, Some(loser.opponent()));
        assert_eq!(result.score, None);
        assert_eq!(actions(&mut referee), vec![game_over(expected)]);
        assert!(referee.is_over());
    }
}

// ---------------------------------------------------------------- KGS end of game

#[test]
fn a_double_pass_asks_both_kgs_programs_for_dead_stones() {
    let (referee, evs, acts) =
        to_double_pass(Preset::Kgs, crate::test_support::epoch(), true, true);
    assert_eq!(moves(&evs), vec![(16, White, "pass".into(), 0)]);
    assert_eq!(phases(&evs), vec![Phase::DeadStones]);
    assert_eq!(
        acts,
        vec![
            Action::TellMove {
                to: Black,
                color: White,
                mv: Move::Pass
            },
            Action::RequestDeadStones { color: Black },
            Action::RequestDeadStones { color: White },
        ]
    );
    assert_eq!(referee.phase(), Phase::DeadStones);
    assert_eq!(referee.poll_timeout(), None, "no move is awaited");
}

#[test]
fn equal_claims_are_scored_with_those_stones_removed() {
    // The same chain, named in different orders or by one of its stones.
    for (black, white) in [("A4 A3", "A3 A4"), ("A3", "A3 A4"), ("A4", "A3")] {
        let t = crate::test_support::epoch();
        let (mut referee, _, _) = to_double_pass(Preset::Kgs, t, true, true);
        claim(&mut referee, t, White, white);
        let evs = events(&mut referee);
        assert_eq!(
            agreements(&evs),
            vec![&AgreementEvent::Claim {
                color: White,
                stones: strings("A3 A4"),
                note: None
            }],
            "a claim is expanded to the whole chain"
        );
        assert!(results(&evs).is_empty(), "one claim is not enough");

        claim(&mut referee, t, Black, black);
        let evs = events(&mut referee);
        assert_eq!(
            agreements(&evs),
            vec![
                &AgreementEvent::Claim {
                    color: Black,
                    stones: strings("A3 A4"),
                    note: None
                },
                &AgreementEvent::Agreed {
                    stones: strings("A3 A4")
                }
            ],
            "claims {black:?} and {white:?}"
        );
        // Area scoring, komi 7.5: Black has C1-C5 and the ten points of
        // columns A and B (A3 and A4 once removed) = 15; White D1-D5 and
        // E1-E5 = 10 + 7.5 = 17.5.
        let result = the_result(&evs);
        assert_eq!(result.result, "W+2.5");
        assert_eq!(result.winner, Some(White));
        let score = result.score.as_ref().unwrap();
        assert_eq!(score.scoring, Scoring::Area);
        assert_eq!((score.black, score.white), (15.0, 17.5));
        assert_eq!(score.dead, pts("A3 A4"));
        assert_eq!(score.black_territory.len(), 10);
        assert_eq!(score.white_territory, pts("E1 E2 E3 E4 E5"));
        assert_eq!(phases(&evs), vec![Phase::Over]);
        assert_eq!(actions(&mut referee), vec![game_over("W+2.5")]);
    }
}

#[test]
fn a_second_claim_from_the_same_player_is_ignored() {
    let t = crate::test_support::epoch();
    let (mut referee, _, _) = to_double_pass(Preset::Kgs, t, true, true);
    claim(&mut referee, t, Black, "A3");
    claim(&mut referee, t, Black, "");
    let evs = events(&mut referee);
    assert_eq!(agreements(&evs).len(), 1, "{evs:#?}");
    assert!(results(&evs).is_empty());
}

#[test]
fn different_claims_start_the_cleanup_with_alternation_continuing() {
    let t = crate::test_support::epoch();
    let (mut referee, _, _) = to_double_pass(Preset::Kgs, t, true, true);
    // Both call A3-A4 dead; White also calls Black's wall dead.
    claim(&mut referee, t, Black, "A3");
    claim(&mut referee, t, White, "A4 C3");
    let evs = events(&mut referee);
    assert!(agreements(&evs).contains(&&AgreementEvent::Disputed {
        black_only: vec![],
        white_only: strings("C1 C2 C3 C4 C5"),
    }));
    assert!(results(&evs).is_empty());
    assert_eq!(phases(&evs), vec![Phase::Cleanup]);
    // "B pass, W pass": Black moves first in the cleanup.
    assert_eq!(actions(&mut referee), vec![request_move(Black, true)]);
    assert_eq!(referee.phase(), Phase::Cleanup);

    // A single pass right after the resumption does not end it...
    play(&mut referee, t, Black, Move::Pass);
    assert_eq!(requests(&actions(&mut referee)), vec![(White, true)]);
    // ... nor does a pass after a move.
    play(&mut referee, t, White, mv("E1"));
    assert_eq!(requests(&actions(&mut referee)), vec![(Black, true)]);
    play(&mut referee, t, Black, Move::Pass);
    let acts = actions(&mut referee);
    assert_eq!(requests(&acts), vec![(White, true)]);
    assert!(results(&events(&mut referee)).is_empty());

    // Two consecutive passes in the cleanup end the game, every stone alive,
    // even A3-A4 which both programs called dead.
    play(&mut referee, t, White, Move::Pass);
    let evs = events(&mut referee);
    let acts = actions(&mut referee);
    assert!(requests(&acts).is_empty());
    assert!(
        !acts
            .iter()
            .any(|a| matches!(a, Action::RequestDeadStones { .. })),
        "the dead stones are not asked for again"
    );
    // A3-A4 now live: A1-A2, A5 and B1-B5 touch both colours. Black: C1-C5 = 5.
    // White: D1-D5, E1, A3, A4 and E2-E5 = 12 + 7.5 = 19.5.
    let result = the_result(&evs);
    assert_eq!(result.result, "W+14.5");
    let score = result.score.as_ref().unwrap();
    assert!(score.dead.is_empty(), "no dead stones after the cleanup");
    assert_eq!((score.black, score.white), (5.0, 19.5));
    assert!(score.black_territory.is_empty());
    assert_eq!(score.white_territory, pts("E2 E3 E4 E5"));
    assert_eq!(acts.last(), Some(&game_over("W+14.5")));
}

#[test]
fn after_white_pass_black_pass_white_starts_the_cleanup() {
    let t = crate::test_support::epoch();
    let mut referee = started(config(5, Preset::Kgs), t, true, true);
    play_line(&mut referee, t, "C3 D3 E3 pass pass");
    assert_eq!(referee.phase(), Phase::DeadStones);
    actions(&mut referee);
    claim(&mut referee, t, Black, "D3");
    claim(&mut referee, t, White, "");
    assert_eq!(actions(&mut referee), vec![request_move(White, true)]);
}

#[test]
fn a_program_without_the_kgs_commands_is_not_asked_and_claims_nothing() {
    let t = crate::test_support::epoch();
    let (mut referee, evs, acts) = to_double_pass(Preset::Kgs, t, false, true);
    assert_eq!(
        acts.iter()
            .filter(|a| matches!(a, Action::RequestDeadStones { .. }))
            .collect::<Vec<_>>(),
        vec![&Action::RequestDeadStones { color: White }]
    );
    let claims = agreements(&evs);
    assert_eq!(claims.len(), 1, "{evs:#?}");
    let AgreementEvent::Claim {
        color,
        stones,
        note,
    } = claims[0]
    else {
        panic!("expected a claim: {claims:?}");
    };
    assert_eq!(*color, Black);
    assert!(stones.is_empty());
    assert!(note.as_deref().unwrap_or("").contains("final_status_list"));

    claim(&mut referee, t, White, "");
    let evs = events(&mut referee);
    assert!(agreements(&evs).contains(&&AgreementEvent::Agreed { stones: vec![] }));
    // Nothing removed: A3-A4 live, Black 5, White 5 + 2 + 5 + 7.5.
    assert_eq!(the_result(&evs).result, "W+14.5");
}

#[test]
fn two_programs_without_the_kgs_commands_are_scored_at_once() {
    let (_, evs, acts) = to_double_pass(Preset::Kgs, crate::test_support::epoch(), false, false);
    assert!(!acts
        .iter()
        .any(|a| matches!(a, Action::RequestDeadStones { .. })));
    assert_eq!(agreements(&evs).len(), 3, "two claims and the agreement");
    assert_eq!(the_result(&evs).result, "W+14.5");
}

#[test]
fn an_unusable_claim_counts_as_no_dead_stones_with_a_note() {
    let t = crate::test_support::epoch();
    let (mut referee, _, _) = to_double_pass(Preset::Kgs, t, true, true);
    referee.handle_player(
        t,
        Black,
        PlayerEvent::DeadStonesUnavailable("unknown command".into()),
    );
    // White names A3 (a stone) and B2 (an empty point).
    claim(&mut referee, t, White, "A3 B2");
    let evs = events(&mut referee);
    let claims = agreements(&evs);
    let AgreementEvent::Claim {
        color: Black,
        stones,
        note: Some(note),
    } = claims[0]
    else {
        panic!("expected Black's claim with a note: {claims:?}");
    };
    assert!(stones.is_empty());
    assert!(note.contains("unknown command"), "{note}");
    let AgreementEvent::Claim {
        color: White,
        stones,
        note: Some(note),
    } = claims[1]
    else {
        panic!("expected White's claim with a note: {claims:?}");
    };
    assert!(
        stones.is_empty(),
        "a claim of an empty point counts as none"
    );
    assert!(note.contains("B2"), "{note}");
    assert_eq!(claims[2], &AgreementEvent::Agreed { stones: vec![] });
    assert_eq!(the_result(&evs).result, "W+14.5");
}

// ---------------------------------------------------------------- the judge

/// A CGF game on 5x5 whose dead-stone claims differ: it waits for the judge.
fn disputed_cgf_game(t: Instant) -> Referee {
    let (mut referee, _, acts) = to_double_pass(Preset::Cgf, t, true, true);
    assert!(acts.contains(&Action::RequestDeadStones { color: Black }));
    claim(&mut referee, t, Black, "A3");
    claim(&mut referee, t, White, "");
    let evs = events(&mut referee);
    assert!(agreements(&evs).contains(&&AgreementEvent::Disputed {
        black_only: strings("A3 A4"),
        white_only: vec![],
    }));
    assert_eq!(phases(&evs), vec![Phase::Adjudication]);
    assert!(results(&evs).is_empty());
    assert!(
        actions(&mut referee).is_empty(),
        "no move is asked for while the judge decides"
    );
    assert_eq!(referee.phase(), Phase::Adjudication);
    assert_eq!(referee.poll_timeout(), None);
    referee
}

#[test]
fn under_a_judge_a_dispute_waits_for_the_adjudication() {
    let t = crate::test_support::epoch();
    let mut referee = disputed_cgf_game(t);
    referee.handle_operator(
        t,
        OperatorCommand::Adjudicate {
            result: "B+".into(),
            reason: "White's A3-A4 cannot live".into(),
        },
    );
    let evs = events(&mut referee);
    let result = the_result(&evs);
    assert_eq!(result.result, "B+");
    assert_eq!(result.winner, Some(Black));
    assert_eq!(result.score, None);
    assert!(result.reason.contains("adjudicated"), "{}", result.reason);
    assert!(result.reason.contains("cannot live"), "{}", result.reason);
    assert_eq!(actions(&mut referee), vec![game_over("B+")]);
    assert!(referee.is_over());

    // The game is over: the operator's commands change nothing now, and
    // the operator is told so.
    referee.handle_operator(
        t,
        OperatorCommand::ScoreNow {
            reason: "the judge counts".into(),
        },
    );
    let evs = events(&mut referee);
    assert!(results(&evs).is_empty());
    assert!(
        matches!(&evs[..], [GameEvent::Error { fatal: false, message, .. }] if message.contains("over")),
        "{evs:?}"
    );
    assert!(actions(&mut referee).is_empty());
}

#[test]
fn a_void_or_drawn_adjudication_has_no_winner() {
    for verdict in ["Void", "0", "?"] {
        let t = crate::test_support::epoch();
        let mut referee = disputed_cgf_game(t);
        referee.handle_operator(
            t,
            OperatorCommand::Adjudicate {
                result: verdict.into(),
                reason: "judge".into(),
            },
        );
        let evs = events(&mut referee);
        assert_eq!(the_result(&evs).result, verdict);
        assert_eq!(the_result(&evs).winner, None);
    }
}

#[test]
fn the_judge_marks_dead_chains_and_scores_with_territory_rules() {
    let t = crate::test_support::epoch();
    let mut referee = disputed_cgf_game(t);
    referee.handle_operator(t, OperatorCommand::ToggleDead(pt("A3")));
    let evs = events(&mut referee);
    assert_eq!(
        agreements(&evs),
        vec![&AgreementEvent::Marked {
            stones: strings("A3 A4")
        }]
    );
    // Toggling the chain again revives it; an empty point is refused.
    referee.handle_operator(t, OperatorCommand::ToggleDead(pt("A4")));
    referee.handle_operator(t, OperatorCommand::ToggleDead(pt("B2")));
    let evs = events(&mut referee);
    assert_eq!(
        agreements(&evs),
        vec![&AgreementEvent::Marked { stones: vec![] }]
    );
    assert!(errors(&evs)[0].2.contains("empty"));
    referee.handle_operator(t, OperatorCommand::ToggleDead(pt("A4")));
    events(&mut referee);

    referee.handle_operator(
        t,
        OperatorCommand::ScoreNow {
            reason: "the judge counts".into(),
        },
    );
    let evs = events(&mut referee);
    // Territory scoring, komi 5.5: Black's columns A and B (10 points, the
    // two dead stones' included) plus the 2 dead stones = 12; White E1-E5 =
    // 5 + 5.5 = 10.5.
    let result = the_result(&evs);
    assert_eq!(result.result, "B+1.5");
    assert_eq!(result.reason, "scored by the operator: the judge counts");
    assert_eq!(result.winner, Some(Black));
    let score = result.score.as_ref().unwrap();
    assert_eq!(score.scoring, Scoring::Territory);
    assert_eq!(score.komi, 5.5);
    assert_eq!((score.black, score.white), (12.0, 10.5));
    assert_eq!(score.dead, pts("A3 A4"));
    assert_eq!(actions(&mut referee), vec![game_over("B+1.5")]);
}

#[test]
fn scoring_a_dispute_unmarked_removes_only_the_stones_both_called_dead() {
    let t = crate::test_support::epoch();
    let (mut referee, _, _) = to_double_pass(Preset::Cgf, t, true, true);
    // Both call A3-A4 dead; only White calls C1-C5 dead.
    claim(&mut referee, t, Black, "A3");
    claim(&mut referee, t, White, "A4 C1");
    let evs = events(&mut referee);
    assert!(agreements(&evs).contains(&&AgreementEvent::Disputed {
        black_only: vec![],
        white_only: strings("C1 C2 C3 C4 C5"),
    }));
    referee.handle_operator(
        t,
        OperatorCommand::ScoreNow {
            reason: "the judge counts".into(),
        },
    );
    let evs = events(&mut referee);
    let score = the_result(&evs).score.clone().unwrap();
    assert_eq!(score.dead, pts("A3 A4"));
    assert_eq!(the_result(&evs).result, "B+1.5");
}

// ---------------------------------------------------------------- clocks

fn timed(size: u8, time: TimeSystem) -> GameConfig {
    let mut config = config(size, Preset::Kgs);
    config.rules.time = time;
    config
}

fn absolute(main: Duration) -> TimeSystem {
    TimeSystem::Absolute { main }
}

fn time_left_of(action: &Action) -> Option<TimeLeft> {
    match action {
        Action::RequestMove { time_left, .. } => *time_left,
        other => panic!("expected a move request, got {other:?}"),
    }
}

#[test]
fn the_timeout_is_the_flag_or_the_move_timeout_whichever_comes_first() {
    let t0 = crate::test_support::epoch();
    let mut referee = started(timed(9, absolute(secs(10))), t0, true, true);
    // Asked at t0; the clock has not started yet: only the move timeout.
    assert_eq!(referee.poll_timeout(), Some(t0 + secs(600)));
    referee.handle_player(t0 + secs(1), Black, PlayerEvent::Thinking);
    assert_eq!(referee.poll_timeout(), Some(t0 + secs(11) + ns(1)));

    // Once a clock runs that can flag, the clock alone decides: a program
    // may spend all its time on one move.
    let mut config = timed(9, absolute(secs(10)));
    config.rules.move_timeout = secs(5);
    let mut referee = started(config, t0, true, true);
    referee.handle_player(t0 + secs(1), Black, PlayerEvent::Thinking);
    assert_eq!(referee.poll_timeout(), Some(t0 + secs(11) + ns(1)));
}

#[test]
fn a_player_whose_flag_falls_loses_on_time() {
    let t0 = crate::test_support::epoch();
    let mut referee = started(timed(9, absolute(secs(10))), t0, true, true);
    play_after(&mut referee, t0, Black, mv("D4"), secs(1));
    events(&mut referee);
    actions(&mut referee);
    let thinking = t0 + secs(2);
    referee.handle_player(thinking, White, PlayerEvent::Thinking);
    let flag = thinking + secs(10);
    assert_eq!(referee.poll_timeout(), Some(flag + ns(1)));

    referee.handle_timeout(flag);
    assert!(
        results(&events(&mut referee)).is_empty(),
        "a player is in time up to the flag instant itself"
    );
    assert!(actions(&mut referee).is_empty());

    referee.handle_timeout(flag + ms(1));
    let evs = events(&mut referee);
    let result = the_result(&evs);
    assert_eq!(result.result, "B+T");
    assert_eq!(result.winner, Some(Black));
    assert_eq!(actions(&mut referee), vec![game_over("B+T")]);
    assert!(referee.is_over());
    assert_eq!(referee.poll_timeout(), None);
}

#[test]
fn a_move_that_arrives_after_the_flag_loses_on_time() {
    let t0 = crate::test_support::epoch();
    let mut referee = started(timed(9, absolute(secs(10))), t0, true, true);
    play(&mut referee, t0, Black, mv("D4"));
    events(&mut referee);
    actions(&mut referee);
    play_after(&mut referee, t0, White, mv("E5"), secs(10) + ms(1));
    let evs = events(&mut referee);
    assert_eq!(the_result(&evs).result, "B+T");
    assert!(moves(&evs).is_empty(), "the late move is not played");
    let acts = actions(&mut referee);
    assert!(tells(&acts).is_empty(), "the late move is not told");
    assert_eq!(acts, vec![game_over("B+T")]);
    assert_eq!(referee.board().get(pt("E5")), None);
}

#[test]
fn a_move_at_the_flag_instant_is_in_time() {
    let t0 = crate::test_support::epoch();
    let mut referee = started(timed(9, absolute(secs(10))), t0, true, true);
    play_after(&mut referee, t0, Black, mv("D4"), secs(10));
    let evs = events(&mut referee);
    assert!(results(&evs).is_empty(), "{evs:#?}");
    assert_eq!(moves(&evs), vec![(1, Black, "D4".into(), 10_000)]);
}

#[test]
fn move_requests_carry_the_time_left_and_moves_the_time_used() {
    let t0 = crate::test_support::epoch();
    let mut referee = Referee::new(timed(9, absolute(secs(10)))).unwrap();
    start(&mut referee, t0, true, true);
    events(&mut referee);
    let acts = actions(&mut referee);
    assert_eq!(
        time_left_of(&acts[0]),
        Some(TimeLeft {
            seconds: 10,
            stones: 0,
            kgs_stones: 0
        })
    );

    // Black is asked at t0, starts thinking at 1s and answers at 4.5s:
    // 3.5s are charged, from Thinking to Moved.
    referee.handle_player(t0 + secs(1), Black, PlayerEvent::Thinking);
    referee.handle_player(t0 + ms(4500), Black, PlayerEvent::Moved(mv("D4")));
    let evs = events(&mut referee);
    assert_eq!(moves(&evs), vec![(1, Black, "D4".into(), 3500)]);
    let clock = move_clock(&evs);
    assert_eq!(clock.main_left_ms, 6500);
    assert!(!clock.running);
    actions(&mut referee);

    play_after(&mut referee, t0 + secs(5), White, mv("E5"), ms(250));
    assert_eq!(moves(&events(&mut referee))[0].3, 250);
    let acts = actions(&mut referee);
    assert_eq!(requests(&acts), vec![(Black, false)]);
    assert_eq!(
        time_left_of(&acts[1]).unwrap().seconds,
        7,
        "6.5s of main time left, rounded up"
    );

    // Black uses all of its 6.5s: in time, with nothing left.
    play_after(&mut referee, t0 + secs(6), Black, mv("C3"), ms(6500));
    play(&mut referee, t0 + secs(13), White, mv("pass"));
    let evs = events(&mut referee);
    assert!(results(&evs).is_empty(), "{evs:#?}");
    let acts = actions(&mut referee);
    let last = acts.last().unwrap();
    assert_eq!(requests(std::slice::from_ref(last)), vec![(Black, false)]);
    assert_eq!(time_left_of(last).unwrap().seconds, 0);
}

#[test]
fn byo_yomi_requests_carry_both_stone_conventions() {
    let t0 = crate::test_support::epoch();
    let time = TimeSystem::ByoYomi {
        main: secs(1),
        period: secs(30),
        periods: 3,
    };
    let mut referee = started(timed(9, time), t0, true, true);
    // Black spends its main time and 10s of its first period.
    play_after(&mut referee, t0, Black, mv("D4"), secs(11));
    play(&mut referee, t0 + secs(11), White, mv("E5"));
    let acts = actions(&mut referee);
    let left = time_left_of(acts.last().unwrap()).unwrap();
    assert_eq!(
        left,
        TimeLeft {
            seconds: 30,
            stones: 1,
            kgs_stones: 3
        },
        "a move in the period resets it"
    );
}

#[test]
fn a_silent_player_forfeits_after_the_move_timeout() {
    let t0 = crate::test_support::epoch();
    let mut config = config(9, Preset::Kgs);
    config.rules.move_timeout = secs(5);
    let mut referee = started(config.clone(), t0, true, true);
    assert_eq!(referee.poll_timeout(), Some(t0 + secs(5)));
    referee.handle_timeout(t0 + secs(5) - ms(1));
    assert!(events(&mut referee).is_empty());
    referee.handle_timeout(t0 + secs(5));
    let evs = events(&mut referee);
    let result = the_result(&evs);
    assert_eq!(result.result, "W+F");
    assert!(result.reason.contains("within 5s"), "{}", result.reason);
    assert!(errors(&evs)
        .iter()
        .any(|(fatal, c, _)| *fatal && *c == Some(Black)));
    assert_eq!(actions(&mut referee), vec![game_over("W+F")]);

    // White, asked at 1s, is silent until 6s, thinking or not.
    let mut referee = started(config, t0, true, true);
    play(&mut referee, t0 + secs(1), Black, mv("D4"));
    referee.handle_player(t0 + secs(2), White, PlayerEvent::Thinking);
    events(&mut referee);
    assert_eq!(referee.poll_timeout(), Some(t0 + secs(6)));
    referee.handle_timeout(t0 + secs(6));
    let evs = events(&mut referee);
    assert_eq!(the_result(&evs).result, "B+F");
    assert!(the_result(&evs).reason.contains("within 5s"));
}

// ---------------------------------------------------------------- CGF limits

/// The CGF preset with a 1s clock, time losses before move 4 and a stop at 6.
fn cgf_limits(count_passes: bool) -> GameConfig {
    let mut config = config(9, Preset::Cgf);
    config.rules.time = absolute(secs(1));
    config.rules.limits.time_loss_before = Some(4);
    config.rules.limits.stop_at = Some(6);
    config.rules.limits.count_passes = count_passes;
    config
}

/// The side to move starts thinking at `t` and is timed out.
fn flag_now(referee: &mut Referee, t: Instant) {
    let color = referee.board().to_move();
    referee.handle_player(t, color, PlayerEvent::Thinking);
    let flagged = referee.poll_timeout().unwrap();
    assert_eq!(flagged, t + secs(1) + ns(1));
    referee.handle_timeout(flagged);
}

#[test]
fn cgf_a_time_out_before_the_limit_loses_on_time() {
    let t = crate::test_support::epoch();
    let mut referee = started(cgf_limits(true), t, true, true);
    play_line(&mut referee, t, "C3 D3");
    events(&mut referee);
    flag_now(&mut referee, t);
    let evs = events(&mut referee);
    assert_eq!(the_result(&evs).result, "W+T", "Black timed out on move 3");
    assert!(!phases(&evs).contains(&Phase::Adjudication));
}

#[test]
fn cgf_the_full_preset_loses_on_time_early_in_the_game() {
    let t = crate::test_support::epoch();
    let mut config = config(19, Preset::Cgf);
    config.rules.time = absolute(secs(1));
    let mut referee = started(config, t, true, true);
    flag_now(&mut referee, t);
    assert_eq!(the_result(&events(&mut referee)).result, "W+T");
}

#[test]
fn cgf_a_time_out_past_the_limit_goes_to_the_judge() {
    let t = crate::test_support::epoch();
    let mut referee = started(cgf_limits(true), t, true, true);
    play_line(&mut referee, t, "C3 D3 C4");
    events(&mut referee);
    actions(&mut referee);
    flag_now(&mut referee, t);
    let evs = events(&mut referee);
    assert!(results(&evs).is_empty(), "{evs:#?}");
    assert_eq!(phases(&evs), vec![Phase::Adjudication]);
    assert!(phase_reason(&evs, Phase::Adjudication).contains("ran out of time"));
    assert!(
        actions(&mut referee).is_empty(),
        "no more moves are asked for"
    );
    assert_eq!(referee.phase(), Phase::Adjudication);
    assert_eq!(referee.poll_timeout(), None);
}

#[test]
fn cgf_the_game_stops_for_the_judge_at_the_move_limit() {
    let t = crate::test_support::epoch();
    let mut referee = started(cgf_limits(true), t, true, true);
    play_line(&mut referee, t, "C3 D3 C4 D4 pass");
    assert!(!phases(&events(&mut referee)).contains(&Phase::Adjudication));
    actions(&mut referee);
    play(&mut referee, t, White, mv("D5"));
    let evs = events(&mut referee);
    assert_eq!(moves(&evs).len(), 1);
    assert_eq!(phases(&evs), vec![Phase::Adjudication]);
    assert!(
        phase_reason(&evs, Phase::Adjudication).contains("stopped at move 6"),
        "{evs:#?}"
    );
    assert!(results(&evs).is_empty());
    let acts = actions(&mut referee);
    assert_eq!(
        acts,
        vec![Action::TellMove {
            to: Black,
            color: White,
            mv: mv("D5")
        }],
        "the last move is told, no other is asked for"
    );
}

#[test]
fn cgf_limits_can_leave_passes_uncounted() {
    let t = crate::test_support::epoch();
    // Four moves, two of them passes: a time-out still loses.
    let mut referee = started(cgf_limits(false), t, true, true);
    play_line(&mut referee, t, "C3 pass D3 pass");
    events(&mut referee);
    flag_now(&mut referee, t);
    assert_eq!(the_result(&events(&mut referee)).result, "W+T");

    // The sixth stone is move 11.
    let mut referee = started(cgf_limits(false), t, true, true);
    play_line(&mut referee, t, "C3 pass D3 pass E3 pass F3 pass G3 pass");
    let evs = events(&mut referee);
    assert_eq!(moves(&evs).len(), 10);
    assert!(!phases(&evs).contains(&Phase::Adjudication), "{evs:#?}");
    play(&mut referee, t, Black, mv("H3"));
    let evs = events(&mut referee);
    assert_eq!(phases(&evs), vec![Phase::Adjudication]);
    assert!(phase_reason(&evs, Phase::Adjudication).contains("stopped at move 6"));
}

// ---------------------------------------------------------------- failures

#[test]
fn a_player_that_fails_during_play_forfeits() {
    let t = crate::test_support::epoch();
    let mut referee = started(config(9, Preset::Kgs), t, true, true);
    play(&mut referee, t, Black, mv("D4"));
    referee.handle_player(t, White, PlayerEvent::Thinking);
    events(&mut referee);
    actions(&mut referee);
    let crash = Failure::crash("the program exited".into(), Some("status 3".into()));
    referee.handle_player(t, White, PlayerEvent::Failed(crash));
    let evs = events(&mut referee);
    assert_eq!(
        errors(&evs),
        vec![(true, Some(White), "the program exited".into())]
    );
    let result = the_result(&evs);
    assert_eq!(result.result, "B+F");
    assert_eq!(result.reason, "the program exited");
    assert_eq!(result.end, End::ForfeitCrash);
    assert_eq!(result.exit.as_deref(), Some("status 3"));
    assert_eq!(actions(&mut referee), vec![game_over("B+F")]);
    assert!(!referee.clock(White).is_running());
}

#[test]
fn a_player_that_fails_before_the_start_leaves_no_game() {
    let t = crate::test_support::epoch();
    let mut referee = Referee::new(config(9, Preset::Kgs)).unwrap();
    referee.handle_player(t, Black, PlayerEvent::Ready(info("black-bot", true)));
    referee.handle_player(
        t,
        White,
        PlayerEvent::Failed(Failure::other("cannot start ./white-bot".into())),
    );
    let evs = events(&mut referee);
    assert!(!evs.iter().any(|e| matches!(e, GameEvent::GameStart(_))));
    assert_eq!(errors(&evs).len(), 1);
    assert!(errors(&evs)[0].0);
    let result = the_result(&evs);
    assert_eq!(result.result, "Void", "no game, no winner");
    assert_eq!(result.winner, None);
    assert_eq!(result.end, End::NoGame);
    assert_eq!(actions(&mut referee), vec![game_over("Void")]);

    // The other player's late readiness starts nothing.
    referee.handle_player(t, White, PlayerEvent::Ready(info("white-bot", true)));
    assert!(events(&mut referee).is_empty());
    assert!(actions(&mut referee).is_empty());
}

#[test]
fn after_the_result_only_lines_and_notices_are_heard() {
    let t = crate::test_support::epoch();
    let mut referee = started(config(9, Preset::Kgs), t, true, true);
    play(&mut referee, t, Black, Move::Resign);
    events(&mut referee);
    actions(&mut referee);

    referee.handle_player(
        t,
        White,
        PlayerEvent::Failed(Failure::crash("crashed".into(), None)),
    );
    referee.handle_player(t, White, PlayerEvent::Thinking);
    referee.handle_player(t, White, PlayerEvent::Moved(mv("D4")));
    referee.handle_player(
        t,
        Black,
        PlayerEvent::RejectedMove {
            mv: mv("D4"),
            message: "no".into(),
        },
    );
    referee.handle_player(t, Black, PlayerEvent::DeadStones(vec![]));
    referee.handle_timeout(t + secs(3600));
    assert!(events(&mut referee).is_empty(), "no second result");
    assert!(actions(&mut referee).is_empty());
    assert_eq!(referee.result().unwrap().result, "W+R");

    referee.handle_player(
        t,
        White,
        PlayerEvent::Line {
            direction: LineDirection::Stderr,
            line: "bye".into(),
        },
    );
    referee.handle_player(
        t,
        Black,
        PlayerEvent::Notice("quit was not answered".into()),
    );
    assert_eq!(
        events(&mut referee),
        vec![
            GameEvent::Gtp {
                color: White,
                direction: LineDirection::Stderr,
                line: "bye".into()
            },
            GameEvent::Error {
                color: Some(Black),
                message: "quit was not answered".into(),
                fatal: false
            },
        ]
    );
}

#[test]
fn lines_and_notices_are_passed_on_during_play() {
    let t = crate::test_support::epoch();
    let mut referee = Referee::new(config(9, Preset::Kgs)).unwrap();
    referee.handle_player(
        t,
        Black,
        PlayerEvent::Line {
            direction: LineDirection::Sent,
            line: "boardsize 9".into(),
        },
    );
    referee.handle_player(t, White, PlayerEvent::Notice("slow start".into()));
    assert_eq!(
        events(&mut referee),
        vec![
            GameEvent::Gtp {
                color: Black,
                direction: LineDirection::Sent,
                line: "boardsize 9".into()
            },
            GameEvent::Error {
                color: Some(White),
                message: "slow start".into(),
                fatal: false
            },
        ]
    );
    assert_eq!(referee.phase(), Phase::Setup);
}

#[test]
fn a_player_that_refuses_a_legal_move_forfeits() {
    let t = crate::test_support::epoch();
    let mut referee = started(config(9, Preset::Kgs), t, true, true);
    play(&mut referee, t, Black, mv("D4"));
    events(&mut referee);
    actions(&mut referee);
    referee.handle_player(
        t,
        White,
        PlayerEvent::RejectedMove {
            mv: mv("D4"),
            message: "illegal move".into(),
        },
    );
    let evs = events(&mut referee);
    let result = the_result(&evs);
    assert_eq!(result.result, "B+F");
    assert_eq!(result.winner, Some(Black));
    assert!(result.reason.contains("refused"), "{}", result.reason);
    assert!(result.reason.contains("D4"), "{}", result.reason);
    assert!(errors(&evs)
        .iter()
        .any(|(fatal, c, _)| *fatal && *c == Some(White)));
    assert_eq!(actions(&mut referee), vec![game_over("B+F")]);
}

// ---------------------------------------------------------------- properties

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Random games of legal moves and passes: every accepted move is told
    /// once to the opponent, numbered without gaps, and each request is
    /// answered before the next one.
    #[test]
    fn random_legal_games_keep_the_relay_in_order(
        size in 5u8..=9,
        picks in proptest::collection::vec(any::<u16>(), 150),
    ) {
        let t = crate::test_support::epoch();
        let mut referee = Referee::new(config(size, Preset::Kgs)).unwrap();
        start(&mut referee, t, true, true);
        let mut all_actions = actions(&mut referee);
        let mut all_events = events(&mut referee);
        let mut asked = requests(&all_actions).last().map(|r| r.0);
        for (i, pick) in picks.iter().enumerate() {
            let Some(color) = asked else { break };
            let legal = referee.board().legal_points(color);
            let choice = if legal.is_empty() || pick % 8 == 0 {
                Move::Pass
            } else {
                Move::Play(legal[usize::from(*pick) % legal.len()])
            };
            let now = t + ms(i as u64);
            play(&mut referee, now, color, choice);
            let evs = events(&mut referee);
            let acts = actions(&mut referee);

            let moved: Vec<_> = moves(&evs);
            prop_assert_eq!(moved.len(), 1, "move {} was not accepted: {:?}", i + 1, evs);
            prop_assert_eq!(moved[0].0, i as u32 + 1);
            prop_assert_eq!(moved[0].1, color);
            prop_assert_eq!(&moved[0].2, &choice.to_gtp());
            prop_assert_eq!(tells(&acts), vec![(color.opponent(), color, choice)]);
            prop_assert!(results(&evs).is_empty());

            asked = requests(&acts).last().map(|r| r.0);
            prop_assert!(requests(&acts).len() <= 1);
            if let Some(next) = asked {
                prop_assert_eq!(next, color.opponent());
            }
            all_events.extend(evs);
            all_actions.extend(acts);
        }

        // Over the whole game: moves numbered 1, 2, 3...; one TellMove per
        // move, in the same order; a request is always answered by a move of
        // that player before the next request.
        prop_assert!(!moves(&all_events).is_empty());
        let numbers: Vec<u32> = moves(&all_events).iter().map(|m| m.0).collect();
        prop_assert_eq!(numbers, (1..=moves(&all_events).len() as u32).collect::<Vec<_>>());
        let told: Vec<(Color, String)> =
            tells(&all_actions).iter().map(|(_, c, m)| (*c, m.to_gtp())).collect();
        let played: Vec<(Color, String)> =
            moves(&all_events).into_iter().map(|(_, c, v, _)| (c, v)).collect();
        prop_assert_eq!(told, played);
        let mut pending: Option<Color> = None;
        for action in &all_actions {
            match action {
                Action::RequestMove { color, .. } => {
                    prop_assert_eq!(pending, None, "asked twice without a move");
                    pending = Some(*color);
                }
                Action::TellMove { color, .. } => {
                    prop_assert_eq!(pending, Some(*color), "a move nobody asked for");
                    pending = None;
                }
                _ => {}
            }
        }
    }
}

#[test]
fn a_move_off_the_board_forfeits() {
    let t = crate::test_support::epoch();
    let mut referee = started(config(9, Preset::Kgs), t, true, true);
    play(&mut referee, t, Black, Move::Play(pt("T19")));
    let evs = events(&mut referee);
    assert!(evs.contains(&GameEvent::Illegal {
        n: 1,
        color: Black,
        vertex: "T19".into(),
        reason: Illegal::OffBoard,
    }));
    assert_eq!(the_result(&evs).result, "W+F");
    assert_eq!(actions(&mut referee), vec![game_over("W+F")]);
}

// ---------------------------------------------------------------- found wanting

#[test]
fn a_flag_is_announced_with_a_flagged_clock_reading() {
    let t0 = crate::test_support::epoch();
    let mut referee = started(timed(9, absolute(secs(10))), t0, true, true);
    referee.handle_player(t0, Black, PlayerEvent::Thinking);
    events(&mut referee);
    referee.handle_timeout(t0 + secs(10) + ms(1));
    let evs = events(&mut referee);
    assert_eq!(the_result(&evs).result, "W+T");
    let flagged = evs.iter().any(|e| {
        matches!(
            e,
            GameEvent::Clock { color: Black, clock } if clock.flagged && clock.main_left_ms == 0
        )
    });
    assert!(
        flagged,
        "the screen and the spectators only see events: {evs:#?}"
    );
}

#[test]
fn a_huge_move_timeout_does_not_panic() {
    let t0 = crate::test_support::epoch();
    let mut config = config(9, Preset::Kgs);
    // What `--move-timeout 10000000000000000000` (seconds) gives.
    config.rules.move_timeout = parse_duration("10000000000000000000").unwrap();
    let mut referee = started(config, t0, true, true);
    assert_eq!(
        referee.poll_timeout(),
        None,
        "no deadline that can be reached"
    );
    referee.handle_timeout(t0 + secs(3600));
    assert!(events(&mut referee).is_empty());
}

#[test]
fn a_dispute_announces_the_stones_already_marked_dead() {
    let t = crate::test_support::epoch();
    let (mut referee, _, _) = to_double_pass(Preset::Cgf, t, true, true);
    claim(&mut referee, t, Black, "A3");
    claim(&mut referee, t, White, "A4 C1");
    let evs = events(&mut referee);
    // ScoreNow would remove A3-A4 now (see
    // scoring_a_dispute_unmarked_removes_only_the_stones_both_called_dead);
    // the judge's screen, fed only by events, must show them marked.
    assert!(
        agreements(&evs).contains(&&AgreementEvent::Marked {
            stones: strings("A3 A4")
        }),
        "{evs:#?}"
    );
}

#[test]
fn a_kgs_dispute_goes_to_the_judge_when_a_player_cannot_play_on() {
    let t = crate::test_support::epoch();
    let mut referee = Referee::new(config(5, Preset::Kgs)).unwrap();
    let line_program = PlayerInfo {
        protocol: "sgmp".into(),
        stops_at_double_pass: true,
        ..info("line", false)
    };
    referee.handle_player(t, Black, PlayerEvent::Ready(line_program));
    referee.handle_player(t, White, PlayerEvent::Ready(info("engine", true)));
    events(&mut referee);
    actions(&mut referee);
    play_line(&mut referee, t, WALLS_AND_INVADER);
    events(&mut referee);
    actions(&mut referee);
    claim(&mut referee, t, White, "A3");
    let evs = events(&mut referee);
    assert_eq!(phases(&evs), vec![Phase::Adjudication], "{evs:#?}");
    assert!(actions(&mut referee)
        .iter()
        .all(|a| !matches!(a, Action::RequestMove { .. })));
}

// ---------------------------------------------------------------- sides that cannot claim

fn line_program(name: &str) -> PlayerInfo {
    PlayerInfo {
        protocol: "sgmp".into(),
        stops_at_double_pass: true,
        ..info(name, false)
    }
}

/// A 5x5 game between the two players played to its double pass.
fn double_pass_between(preset: Preset, black: PlayerInfo, white: PlayerInfo) -> Referee {
    let t = crate::test_support::epoch();
    let mut referee = Referee::new(config(5, preset)).unwrap();
    referee.handle_player(t, Black, PlayerEvent::Ready(black));
    referee.handle_player(t, White, PlayerEvent::Ready(white));
    events(&mut referee);
    actions(&mut referee);
    play_line(&mut referee, t, WALLS_AND_INVADER);
    referee
}

#[test]
fn under_the_judge_two_line_programs_have_agreed_to_nothing() {
    let t = crate::test_support::epoch();
    for preset in [Preset::Cgf, Preset::Usenix] {
        let mut referee =
            double_pass_between(preset, line_program("gnugo-b"), line_program("gnugo-w"));
        let evs = events(&mut referee);
        assert!(
            !agreements(&evs)
                .iter()
                .any(|a| matches!(a, AgreementEvent::Agreed { .. })),
            "{preset}: {evs:#?}"
        );
        assert!(
            results(&evs).is_empty(),
            "{preset}: no score without the judge"
        );
        assert_eq!(referee.phase(), Phase::Adjudication);
        let reason = phase_reason(&evs, Phase::Adjudication);
        assert!(reason.contains("Black cannot claim"), "{reason}");
        assert!(
            reason.contains("a GMP line has no dead-stone question"),
            "{reason}"
        );
        assert_eq!(referee.judge_reason(), Some(reason));
        referee.handle_operator(t, OperatorCommand::ToggleDead(pt("A3")));
        referee.handle_operator(
            t,
            OperatorCommand::ScoreNow {
                reason: "the judge counts".into(),
            },
        );
        let evs = events(&mut referee);
        let score = the_result(&evs).score.clone().unwrap();
        assert_eq!(score.dead, pts("A3 A4"));
    }
}

#[test]
fn under_the_judge_one_side_that_cannot_claim_sends_the_claims_to_the_judge() {
    let t = crate::test_support::epoch();
    let human = PlayerInfo {
        protocol: "human".into(),
        ..info("typist", false)
    };
    let mut referee = double_pass_between(Preset::Cgf, human, info("engine", true));
    let acts = actions(&mut referee);
    assert_eq!(dead_stone_requests(&acts), vec![White]);
    claim(&mut referee, t, White, "");
    let evs = events(&mut referee);
    assert_eq!(referee.phase(), Phase::Adjudication);
    let reason = phase_reason(&evs, Phase::Adjudication);
    assert!(reason.contains("typed by the operator"), "{reason}");

    let mut referee = double_pass_between(Preset::Cgf, info("a", true), info("b", true));
    actions(&mut referee);
    events(&mut referee);
    referee.handle_player(
        t,
        Black,
        PlayerEvent::DeadStonesUnavailable("unknown command".into()),
    );
    claim(&mut referee, t, White, "");
    let evs = events(&mut referee);
    assert_eq!(referee.phase(), Phase::Adjudication, "{evs:#?}");
    assert!(phase_reason(&evs, Phase::Adjudication).contains("unknown command"));
}

#[test]
fn under_the_kgs_protocol_a_side_without_the_commands_claims_none() {
    let mut referee = double_pass_between(Preset::Kgs, line_program("line"), info("engine", false));
    let evs = events(&mut referee);
    assert!(agreements(&evs).contains(&&AgreementEvent::Agreed { stones: vec![] }));
    assert!(the_result(&evs).score.is_some());
}

fn dead_stone_requests(actions: &[Action]) -> Vec<Color> {
    actions
        .iter()
        .filter_map(|a| match a {
            Action::RequestDeadStones { color } => Some(*color),
            _ => None,
        })
        .collect()
}

#[test]
fn a_gtp_engine_with_final_status_list_alone_is_asked_under_the_judge() {
    let t = crate::test_support::epoch();
    let claims_only = PlayerInfo {
        claims_dead_stones: true,
        ..info("claims-only", false)
    };
    let mut referee = double_pass_between(Preset::Cgf, claims_only.clone(), claims_only);
    let acts = actions(&mut referee);
    assert_eq!(dead_stone_requests(&acts), vec![Black, White]);
    claim(&mut referee, t, Black, "A3");
    claim(&mut referee, t, White, "A4");
    let evs = events(&mut referee);
    assert!(agreements(&evs).contains(&&AgreementEvent::Agreed {
        stones: strings("A3 A4")
    }));
    assert_eq!(the_result(&evs).score.as_ref().unwrap().dead, pts("A3 A4"));
}

// ---------------------------------------------------------------- typed moves

#[test]
fn a_typed_move_the_rules_refuse_is_typed_again_not_forfeited() {
    let t = crate::test_support::epoch();
    let mut referee = started(config(9, Preset::Cgf), t, false, false);
    referee.handle_player(t, Black, PlayerEvent::Thinking);
    referee.handle_player(t, Black, PlayerEvent::Typed(mv("E5")));
    play(&mut referee, t, White, mv("D4"));
    events(&mut referee);
    actions(&mut referee);
    referee.handle_player(t, Black, PlayerEvent::Thinking);
    referee.handle_player(t, Black, PlayerEvent::Typed(mv("E5")));
    let evs = events(&mut referee);
    assert!(results(&evs).is_empty(), "{evs:#?}");
    assert!(errors(&evs).is_empty(), "{evs:#?}");
    let notice = evs
        .iter()
        .find_map(|e| match e {
            GameEvent::Notice { message, .. } => Some(message.clone()),
            _ => None,
        })
        .unwrap();
    assert!(
        notice.contains("occupied") && notice.contains("again"),
        "{notice}"
    );
    assert!(actions(&mut referee).is_empty(), "nothing is told of it");
    referee.handle_player(t, Black, PlayerEvent::Typed(mv("F5")));
    assert_eq!(moves(&events(&mut referee))[0].2, "F5");
    assert_eq!(
        tells(&actions(&mut referee)),
        vec![(White, Black, mv("F5"))]
    );

    referee.handle_player(t, Black, PlayerEvent::Typed(mv("G5")));
    let evs = events(&mut referee);
    assert!(moves(&evs).is_empty());
    assert!(results(&evs).is_empty());
}

#[test]
fn a_typed_ko_recapture_is_refused_and_typed_again() {
    let t = crate::test_support::epoch();
    let mut referee = started(config(9, Preset::Cgf), t, false, false);
    play_line(&mut referee, t, "B1 C1 A2 D2 B3 C3 pass B2");
    events(&mut referee);
    play(&mut referee, t, Black, mv("C2"));
    events(&mut referee);
    actions(&mut referee);
    referee.handle_player(t, White, PlayerEvent::Thinking);
    referee.handle_player(t, White, PlayerEvent::Typed(mv("B2")));
    let evs = events(&mut referee);
    assert!(results(&evs).is_empty(), "{evs:#?}");
    assert!(evs
        .iter()
        .any(|e| matches!(e, GameEvent::Notice { message, .. } if message.contains("ko"))));
}

// ---------------------------------------------------------------- small rulings

#[test]
fn score_during_play_is_refused_with_what_it_does_and_when() {
    let t = crate::test_support::epoch();
    let mut referee = started(config(9, Preset::Cgf), t, true, true);
    referee.handle_operator(
        t,
        OperatorCommand::ScoreNow {
            reason: "the judge counts".into(),
        },
    );
    let message = errors(&events(&mut referee)).remove(0).2;
    assert!(message.contains("ends the game"), "{message}");
    assert!(message.contains("awaits the judge"), "{message}");
    assert!(!message.contains("dead stones are marked"), "{message}");
}

#[test]
fn a_pass_after_play_has_stopped_is_no_error() {
    let t = crate::test_support::epoch();
    let mut referee = double_pass_between(
        Preset::Cgf,
        line_program("gnugo-b"),
        line_program("gnugo-w"),
    );
    events(&mut referee);
    referee.handle_player(t, White, PlayerEvent::Moved(Move::Pass));
    assert!(errors(&events(&mut referee)).is_empty());
    referee.handle_player(t, White, PlayerEvent::Moved(mv("A1")));
    assert_eq!(errors(&events(&mut referee)).len(), 1);
}

#[test]
fn voiding_ends_the_game_once_with_the_reason_as_given() {
    let t = crate::test_support::epoch();
    let mut referee = started(config(9, Preset::Kgs), t, true, true);
    referee.handle_player(t, Black, PlayerEvent::Thinking);
    referee.void(t + secs(1), "goref received SIGTERM".into());
    let evs = events(&mut referee);
    let result = the_result(&evs);
    assert_eq!(result.result, "Void");
    assert_eq!(result.reason, "goref received SIGTERM");
    assert_eq!(result.winner, None);
    assert_eq!(result.end, End::Void);
    assert!(!referee.clock(Black).is_running());
    assert!(actions(&mut referee).contains(&game_over("Void")));
    referee.without_operator(t + secs(2), Some("again".into()));
    assert!(results(&events(&mut referee)).is_empty());
}

#[test]
fn the_referee_validates_operator_commands_and_tells_each_it_accepts() {
    let t = crate::test_support::epoch();
    let mut referee = disputed_cgf_game(t);
    referee.handle_operator(t, OperatorCommand::ToggleDead(pt("E5")));
    referee.handle_operator(
        t,
        OperatorCommand::Adjudicate {
            result: "Black".into(),
            reason: "typo".into(),
        },
    );
    let evs = events(&mut referee);
    let refused = errors(&evs);
    assert_eq!(refused.len(), 2, "{evs:#?}");
    assert!(refused[0].2.contains("point is empty"));
    assert!(refused[1].2.contains("SGF form"));
    assert!(results(&evs).is_empty());

    referee.handle_operator(t, OperatorCommand::ToggleDead(pt("A3")));
    referee.handle_operator(
        t,
        OperatorCommand::ScoreNow {
            reason: "the judge counts".into(),
        },
    );
    let evs = events(&mut referee);
    let told: Vec<String> = evs
        .iter()
        .filter_map(|e| match e {
            GameEvent::Operator { command, .. } => Some(command.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(told, ["dead A3", "score"]);
    assert_eq!(the_result(&evs).end, End::ScoredByJudge);
}

#[test]
fn each_player_is_named_when_ready_and_the_start_carries_the_rules_in_numbers() {
    let t = crate::test_support::epoch();
    let mut config = config(9, Preset::Cgf);
    config.rules.time = parse_duration("90s")
        .map(|main| TimeSystem::Fischer {
            main,
            increment: secs(2),
        })
        .unwrap();
    let mut referee = Referee::new(config).unwrap();
    referee.handle_player(t, Black, PlayerEvent::Ready(info("black-bot", true)));
    let evs = events(&mut referee);
    assert!(
        matches!(&evs[..], [GameEvent::Player { color: Black, info }] if info.name == "black-bot")
    );
    referee.handle_player(t, White, PlayerEvent::Ready(info("white-bot", true)));
    let evs = events(&mut referee);
    assert!(matches!(&evs[0], GameEvent::Player { color: White, .. }));
    let GameEvent::GameStart(start) = &evs[1] else {
        panic!("{evs:#?}");
    };
    assert_eq!(start.time_settings.kind, "fischer");
    assert_eq!(start.time_settings.main_ms, 90_000);
    assert_eq!(start.time_settings.increment_ms, Some(2_000));
    assert!(!start.time_settings.cpu);
    assert_eq!(start.limits.time_loss_before, Some(300));
    assert_eq!(start.limits.stop_at, Some(400));
    assert_eq!(start.ko, Some(crate::game::board::KoRule::Simple));
    assert!(!start.suicide_allowed);
}

#[test]
fn every_forfeit_names_its_end() {
    let t = crate::test_support::epoch();
    for (failure, end) in [
        (
            Failure::other("the line cannot be read".into()),
            End::ForfeitFailure,
        ),
        (
            Failure::hang("no answer within 30s".into()),
            End::ForfeitHang,
        ),
        (Failure::garbage("not GTP".into()), End::ForfeitGarbage),
    ] {
        let mut referee = started(config(9, Preset::Kgs), t, true, true);
        referee.handle_player(t, Black, PlayerEvent::Failed(failure));
        let evs = events(&mut referee);
        let result = the_result(&evs);
        assert_eq!(result.end, end);
        assert_eq!(result.result, "W+F");
        assert!(result.end.is_decided());
    }

    let mut referee = started(config(9, Preset::Kgs), t, true, true);
    referee.handle_player(t, Black, PlayerEvent::Thinking);
    let timeout = referee.poll_timeout().unwrap();
    referee.handle_timeout(timeout);
    let evs = events(&mut referee);
    assert_eq!(the_result(&evs).end, End::ForfeitHang, "the move timeout");
}

// ------------------------------------------------- the operator's clock and resignation

#[test]
fn paused_clocks_charge_nothing_and_flag_nobody_until_resumed() {
    let t = crate::test_support::epoch();
    let mut referee = started(timed(9, absolute(secs(10))), t, false, false);
    referee.handle_player(t, Black, PlayerEvent::Thinking);
    let pause = OperatorCommand::PauseClocks {
        reason: "the judge reads the rules".into(),
    };
    referee.handle_operator(t + secs(4), pause.clone());
    assert_eq!(
        referee.poll_timeout(),
        None,
        "no flag can fall while paused"
    );
    let reading = referee.clock(Black).reading(t + secs(60));
    assert!(!reading.running);
    assert_eq!(
        reading.main_left_ms, 6_000,
        "the 4 s before the pause count"
    );
    referee.handle_operator(t + secs(5), pause);
    let mut told = events(&mut referee);
    let refused = errors(&told);
    assert!(
        refused.iter().any(|(_, _, m)| m.contains("already paused")),
        "{refused:?}"
    );
    referee.handle_operator(t + secs(100), OperatorCommand::ResumeClocks);
    assert_eq!(
        referee.poll_timeout(),
        Some(t + secs(106) + ns(1)),
        "the 6 s left run from the resumption"
    );
    referee.handle_player(t + secs(101), Black, PlayerEvent::Moved(mv("E5")));
    told.extend(events(&mut referee));
    assert!(results(&told).is_empty(), "nobody flagged: {told:?}");
    let operator: Vec<String> = told
        .iter()
        .filter_map(|e| match e {
            GameEvent::Operator { command, .. } => Some(command.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(operator, ["pause", "resume"]);
    assert_eq!(
        referee.clock(Black).reading(t + secs(101)).main_left_ms,
        5_000
    );
}

fn pause(referee: &mut Referee, at: Instant) {
    let reason = "the judge reads the rules".to_string();
    referee.handle_operator(at, OperatorCommand::PauseClocks { reason });
}

/// The position of the first event among `events` that `is` picks.
fn position(events: &[GameEvent], is: impl Fn(&GameEvent) -> bool) -> usize {
    events
        .iter()
        .position(is)
        .unwrap_or_else(|| panic!("not in {events:#?}"))
}

fn is_resume(event: &GameEvent) -> bool {
    matches!(event, GameEvent::Operator { command, .. } if command == "resume")
}

#[test]
fn a_pause_holds_a_move_that_comes_during_it_until_the_resumption() {
    let t = crate::test_support::epoch();
    let mut referee = started(timed(9, absolute(secs(60))), t, false, false);
    referee.handle_player(t, Black, PlayerEvent::Thinking);
    pause(&mut referee, t + secs(4));
    events(&mut referee);
    referee.handle_player(t + secs(5), Black, PlayerEvent::Moved(mv("E5")));
    let during = events(&mut referee);
    assert!(moves(&during).is_empty(), "nothing is played: {during:#?}");
    assert_eq!(referee.moves_played(), 0);
    assert!(
        actions(&mut referee).is_empty(),
        "nothing is relayed or asked for while paused"
    );
    assert!(
        during.iter().any(|e| matches!(e,
            GameEvent::Notice { color: Some(Black), message }
                if message.contains("E5") && message.contains("held"))),
        "the operator is told the move is held: {during:#?}"
    );

    referee.handle_operator(t + secs(30), OperatorCommand::ResumeClocks);
    let after = events(&mut referee);
    assert_eq!(
        moves(&after),
        [(1, Black, "E5".to_string(), 4_000)],
        "played at the resumption, charged the 4 s before the pause"
    );
    assert!(
        position(&after, is_resume) < position(&after, |e| matches!(e, GameEvent::Move { .. }))
    );
    assert_eq!(
        actions(&mut referee),
        [
            Action::TellMove {
                to: White,
                color: Black,
                mv: mv("E5")
            },
            timed_request(White, 60)
        ],
        "relayed, then the next move is asked for"
    );
    assert_eq!(
        referee.clock(Black).reading(t + secs(30)).main_left_ms,
        56_000
    );
}

#[test]
fn a_turn_the_pause_interrupts_is_charged_the_time_before_and_after_it() {
    let t = crate::test_support::epoch();
    let mut referee = started(timed(9, absolute(secs(60))), t, false, false);
    referee.handle_player(t, Black, PlayerEvent::Thinking);
    pause(&mut referee, t + secs(4));
    referee.handle_operator(t + secs(10), OperatorCommand::ResumeClocks);
    referee.handle_player(t + secs(13), Black, PlayerEvent::Moved(mv("E5")));
    let told = events(&mut referee);
    assert_eq!(
        moves(&told),
        [(1, Black, "E5".to_string(), 7_000)],
        "4 s before the pause and 3 s after it; the 6 s paused are nobody's"
    );
    let clock = move_clock(&told);
    assert_eq!((clock.main_left_ms, clock.last_move_ms), (53_000, 7_000));
}

#[test]
fn a_program_started_again_during_a_pause_is_asked_for_its_move_at_the_resumption() {
    let t = crate::test_support::epoch();
    let mut referee = started(timed(9, absolute(secs(600))), t, true, true);
    play_after(&mut referee, t, Black, mv("E5"), secs(10));
    referee.handle_player(t + secs(10), White, PlayerEvent::Thinking);
    actions(&mut referee);
    pause(&mut referee, t + secs(20));
    referee.restarting(White, "White exited (status 3)", 1);
    referee.handle_player(
        t + secs(40),
        White,
        PlayerEvent::Ready(info("white-bot", true)),
    );
    assert!(
        actions(&mut referee).is_empty(),
        "no move is asked for while paused"
    );
    referee.handle_operator(t + secs(100), OperatorCommand::ResumeClocks);
    assert_eq!(
        actions(&mut referee),
        [timed_request(White, 590)],
        "asked at the resumption, the 10 s before the pause charged"
    );
}

#[test]
fn a_usenix_move_held_by_a_pause_is_charged_the_cpu_time_reported_with_it() {
    let t = crate::test_support::epoch();
    let mut referee = usenix_referee(t, "cpu:60s,10s");
    referee.handle_player(t, Black, PlayerEvent::Thinking);
    pause(&mut referee, t + secs(1));
    referee.handle_player(t + secs(2), Black, PlayerEvent::CpuTime(ms(700)));
    referee.handle_player(t + secs(2), Black, PlayerEvent::Moved(mv("C3")));
    assert!(moves(&events(&mut referee)).is_empty());
    referee.handle_operator(t + secs(50), OperatorCommand::ResumeClocks);
    assert_eq!(
        moves(&events(&mut referee)),
        [(1, Black, "C3".to_string(), 700)]
    );
}

#[test]
fn a_typed_move_held_by_a_pause_is_checked_at_the_resumption() {
    let t = crate::test_support::epoch();
    let mut referee = started(timed(9, absolute(secs(60))), t, false, false);
    play_line(&mut referee, t, "E5");
    referee.handle_player(t, White, PlayerEvent::Thinking);
    pause(&mut referee, t + secs(2));
    referee.handle_player(t + secs(3), White, PlayerEvent::Typed(mv("E5")));
    events(&mut referee);
    referee.handle_operator(t + secs(10), OperatorCommand::ResumeClocks);
    let after = events(&mut referee);
    assert!(moves(&after).is_empty(), "{after:#?}");
    assert!(
        after.iter().any(|e| matches!(e,
            GameEvent::Notice { color: Some(White), message } if message.contains("not legal"))),
        "{after:#?}"
    );
    referee.handle_player(t + secs(15), White, PlayerEvent::Typed(mv("C3")));
    assert_eq!(
        moves(&events(&mut referee)),
        [(2, White, "C3".to_string(), 7_000)],
        "2 s before the pause, 5 s from the resumption"
    );
}

/// A 9x9 game under `absolute:10m` after "E5 C3", Black thinking since
/// `t`, paused at `t + 5s`: its journal's resume point.
fn paused_journal(t: Instant) -> (GameConfig, crate::referee::ResumePoint) {
    let mut config = config(9, Preset::Kgs);
    config.rules.time = "absolute:10m".parse().unwrap();
    let mut original = Referee::new(config.clone()).unwrap();
    start(&mut original, t, true, true);
    play_line(&mut original, t, "E5 C3");
    original.handle_player(t, Black, PlayerEvent::Thinking);
    pause(&mut original, t + secs(5));
    let written = journal(&events(&mut original));
    let point = crate::referee::ResumePoint::from_events(&written, 9).unwrap();
    assert_eq!(point.paused.as_deref(), Some("the judge reads the rules"));
    (config, point)
}

#[test]
fn a_game_taken_back_while_paused_comes_back_paused() {
    let t = crate::test_support::epoch();
    let (config, point) = paused_journal(t);
    let later = t + secs(3600);
    let mut resumed = Referee::resume(config, &point).unwrap();
    start(&mut resumed, later, true, true);
    let told = events(&mut resumed);
    assert!(
        told.iter().any(|e| matches!(e,
            GameEvent::Notice { color: None, message }
                if message.contains("paused") && message.contains("the judge reads the rules"))),
        "the operator is told: {told:#?}"
    );
    assert!(actions(&mut resumed).is_empty(), "no move asked for");
    assert_eq!(resumed.poll_timeout(), None);
    resumed.handle_operator(later + secs(20), OperatorCommand::ResumeClocks);
    assert_eq!(
        actions(&mut resumed),
        [timed_request(Black, 595)],
        "asked at the resumption, on the clock of the pause"
    );
}

#[test]
fn when_the_operator_leaves_a_pause_nobody_can_end_the_game_goes_on() {
    let t = crate::test_support::epoch();
    let mut referee = started(timed(9, absolute(secs(60))), t, false, false);
    referee.handle_player(t, Black, PlayerEvent::Thinking);
    pause(&mut referee, t + secs(4));
    referee.handle_player(t + secs(5), Black, PlayerEvent::Moved(mv("E5")));
    events(&mut referee);
    referee.operator_left(t + secs(9));
    assert!(!referee.is_paused());
    let told = events(&mut referee);
    let resume = &told[position(&told, is_resume)];
    assert!(
        matches!(resume, GameEvent::Operator { reason, paused_ms: Some(5_000), .. }
            if reason.contains("input closed") && reason.contains("Black's E5")),
        "{resume:#?}"
    );
    assert_eq!(moves(&told), [(1, Black, "E5".to_string(), 4_000)]);
    assert_eq!(requests(&actions(&mut referee)), [(White, false)]);
}

#[test]
fn a_game_taken_back_paused_with_no_operator_goes_on_and_says_why() {
    let t = crate::test_support::epoch();
    let (config, point) = paused_journal(t);
    let mut resumed = Referee::resume(config, &point).unwrap();
    resumed.operator_left(t + secs(3600));
    start(&mut resumed, t + secs(3600), true, true);
    let told = events(&mut resumed);
    let resume = &told[position(&told, is_resume)];
    assert!(
        matches!(resume, GameEvent::Operator { reason, .. }
            if reason.contains("paused when goref stopped") && reason.contains("no operator")),
        "{resume:#?}"
    );
    assert_eq!(actions(&mut resumed), [timed_request(Black, 595)]);
}

#[test]
fn the_judge_adjusts_a_clock_and_the_deadline_moves_with_it() {
    let t = crate::test_support::epoch();
    let mut referee = started(timed(9, absolute(secs(10))), t, false, false);
    referee.handle_player(t, Black, PlayerEvent::Thinking);
    referee.handle_operator(
        t + secs(2),
        OperatorCommand::AdjustClock {
            color: Black,
            delta_ms: 30_000,
            reason: "the line was down for 30 s".into(),
        },
    );
    assert_eq!(referee.poll_timeout(), Some(t + secs(40) + ns(1)));
    referee.handle_operator(
        t + secs(3),
        OperatorCommand::AdjustClock {
            color: White,
            delta_ms: -60_000,
            reason: "a penalty".into(),
        },
    );
    assert_eq!(referee.clock(White).reading(t + secs(3)).main_left_ms, 0);
    let events = events(&mut referee);
    let clocks: Vec<(Color, u64)> = events
        .iter()
        .filter_map(|e| match e {
            GameEvent::Clock { color, clock } => Some((*color, clock.main_left_ms)),
            _ => None,
        })
        .collect();
    assert_eq!(
        clocks,
        [(Black, 10_000), (Black, 38_000), (White, 0)],
        "the turn's start, then each change"
    );
}

#[test]
fn a_side_resigns_through_its_operator() {
    let t = crate::test_support::epoch();
    let mut referee = started(config(9, Preset::Cgf), t, false, false);
    play(&mut referee, t, Black, mv("E5"));
    referee.handle_operator(
        t + secs(1),
        OperatorCommand::Resign {
            color: White,
            reason: "the program is lost".into(),
        },
    );
    let events = events(&mut referee);
    let result = the_result(&events);
    assert_eq!(result.result, "B+R");
    assert_eq!(result.end, End::Resign);
    assert!(
        result.reason.contains("the program is lost"),
        "{}",
        result.reason
    );
}

// ---------------------------------------------------------------- resuming

/// Every event of `referee` so far, stamped as a journal holds them.
fn journal(all: &[GameEvent]) -> Vec<crate::referee::StampedEvent> {
    all.iter()
        .enumerate()
        .map(|(i, event)| crate::referee::StampedEvent {
            seq: i as u64 + 1,
            t_ms: i as u64,
            after_result: false,
            event: event.clone(),
        })
        .collect()
}

#[test]
fn a_resumed_game_goes_on_from_the_journal_with_its_clocks_and_no_second_start() {
    let t = crate::test_support::epoch();
    let mut config = config(9, Preset::Kgs);
    config.rules.time = "absolute:10m".parse().unwrap();
    let mut original = Referee::new(config.clone()).unwrap();
    start(&mut original, t, true, true);
    play_after(&mut original, t, Black, mv("E5"), secs(30));
    play_after(&mut original, t + secs(30), White, mv("C3"), secs(70));
    play_after(&mut original, t + secs(100), Black, mv("pass"), secs(5));
    original.handle_player(t + secs(105), White, PlayerEvent::Thinking);
    let written = journal(&events(&mut original));

    let point = crate::referee::ResumePoint::from_events(&written, 9).unwrap();
    let later = t + secs(3600);
    let mut resumed = Referee::resume(config, &point).unwrap();
    assert_eq!(resumed.moves_played(), 3);
    assert_eq!(resumed.board().to_move(), White);
    start(&mut resumed, later, true, true);
    let told = events(&mut resumed);
    assert!(!told.iter().any(|e| matches!(e, GameEvent::GameStart(_))));
    assert!(phase_reason(&told, Phase::Play).contains("resumed after move 3"));
    assert_eq!(actions(&mut resumed), vec![timed_request(White, 530)]);
    assert_eq!(resumed.clock(Black).reading(later).main_left_ms, 565_000);
    play_after(&mut resumed, later, White, mv("pass"), secs(10));
    let told = events(&mut resumed);
    assert!(phases(&told).contains(&Phase::DeadStones), "{told:#?}");
    assert_eq!(resumed.clock(White).reading(later).main_left_ms, 520_000);
}

#[test]
fn a_game_resumed_while_the_judge_was_awaited_awaits_the_judge_again() {
    let t = crate::test_support::epoch();
    let mut config = config(9, Preset::Kgs);
    config.rules.limits.stop_at = Some(2);
    let mut original = started(config.clone(), t, true, true);
    play_line(&mut original, t, "E5 C3");
    let mut written = vec![GameEvent::GameStart(Box::new(
        crate::test_support::game_start(9, &[], Black),
    ))];
    written.extend(events(&mut original));
    let point = crate::referee::ResumePoint::from_events(&journal(&written), 9).unwrap();
    assert_eq!(point.phase, Some(Phase::Adjudication));
    let mut resumed = Referee::resume(config, &point).unwrap();
    start(&mut resumed, t, true, true);
    let told = events(&mut resumed);
    assert!(phase_reason(&told, Phase::Adjudication).contains("stopped at move 2"));
    assert!(actions(&mut resumed).is_empty());
    assert_eq!(resumed.judge_reason(), Some("the game stopped at move 2"));
}

#[test]
fn a_restarted_program_is_asked_again_on_the_clock_that_kept_running() {
    let t = crate::test_support::epoch();
    let mut config = config(9, Preset::Kgs);
    config.rules.time = "absolute:10m".parse().unwrap();
    let mut referee = started(config, t, true, true);
    play_after(&mut referee, t, Black, mv("E5"), secs(10));
    referee.handle_player(t + secs(10), White, PlayerEvent::Thinking);
    events(&mut referee);
    actions(&mut referee);
    assert!(referee.can_restart(White));
    referee.restarting(White, "White exited (status 3)", 1);
    let told = events(&mut referee);
    assert!(matches!(
        &told[..],
        [GameEvent::Session { color: Some(White), message, .. }]
            if message.contains("restart 1") && message.contains("the 1 moves")
    ));
    assert_eq!(referee.moves(), &[(Black, mv("E5"))]);
    referee.handle_player(
        t + secs(40),
        White,
        PlayerEvent::Ready(info("white-bot", true)),
    );
    assert_eq!(
        actions(&mut referee),
        vec![timed_request(White, 570)],
        "the 30 s of the crash and the restart are White's"
    );
    referee.handle_player(t + secs(40), White, PlayerEvent::Thinking);
    referee.handle_player(t + secs(45), White, PlayerEvent::Moved(mv("C3")));
    let clock = move_clock(&events(&mut referee));
    assert_eq!(clock.main_left_ms, 565_000);
}

#[test]
fn a_program_that_lost_the_position_calls_the_judge_with_the_clocks_stopped() {
    let t = crate::test_support::epoch();
    let mut referee = started(config(9, Preset::Cgf), t, false, false);
    play_line(&mut referee, t, "C3 D3");
    events(&mut referee);
    actions(&mut referee);
    referee.handle_player(t, Black, PlayerEvent::Thinking);
    let lost = "Black's program on /dev/pts/3: it sent NEWGAME".to_string();
    referee.handle_player(t, Black, PlayerEvent::LostPosition(lost));
    let evs = events(&mut referee);
    assert!(results(&evs).is_empty(), "{evs:#?}");
    assert_eq!(phases(&evs), vec![Phase::Adjudication]);
    assert!(phase_reason(&evs, Phase::Adjudication).contains("the judge decides"));
    assert!(evs.iter().any(|e| matches!(e,
        GameEvent::Error { color: Some(Black), message, fatal: false } if message.contains("NEWGAME"))));
    assert_eq!(referee.poll_timeout(), None, "the clocks are stopped");
    referee.handle_player(t, Black, PlayerEvent::Moved(mv("E5")));
    assert_eq!(referee.moves_played(), 2, "its moves no longer count");
}

#[test]
fn a_resumed_game_whose_player_fails_to_come_back_is_left_undecided() {
    let t = crate::test_support::epoch();
    let config = config(9, Preset::Cgf);
    let resumed_config = config.clone();
    let mut original = started(config.clone(), t, false, false);
    play_line(&mut original, t, "E5 C3");
    let mut written = vec![GameEvent::GameStart(Box::new(
        crate::test_support::game_start(9, &[], Black),
    ))];
    written.extend(events(&mut original));
    let point = crate::referee::ResumePoint::from_events(&journal(&written), 9).unwrap();
    let mut resumed = Referee::resume(config, &point).unwrap();
    resumed.handle_player(t, Black, PlayerEvent::Ready(info("black-bot", false)));
    let gone = Failure::other("White: cannot open /dev/ttyUSB1".into());
    resumed.handle_player(t, White, PlayerEvent::Failed(gone));
    let told = events(&mut resumed);
    assert!(results(&told).is_empty(), "nothing decided: {told:#?}");
    assert!(resumed.is_over());
    assert_eq!(
        resumed.not_taken_back(),
        Some("White: cannot open /dev/ttyUSB1")
    );
    assert!(phase_reason(&told, Phase::Over).contains("not taken back"));

    let mut fresh = Referee::new(resumed_config).unwrap();
    fresh.handle_player(
        t,
        White,
        PlayerEvent::Failed(Failure::other("no engine".into())),
    );
    assert_eq!(
        the_result(&events(&mut fresh)).result,
        "Void",
        "a new game is void"
    );
    assert_eq!(fresh.not_taken_back(), None);
}

// ------------------------------------------------------ CPU time (Usenix)

fn usenix_referee(t: Instant, time: &str) -> Referee {
    let mut config = config(9, Preset::Usenix);
    config.rules.time = time.parse().unwrap();
    started(config, t, false, false)
}

/// `color` thinks and answers `mv`, having used `cpu` of CPU time.
fn play_cpu(referee: &mut Referee, t: Instant, color: Color, mv: Move, cpu: Duration) {
    referee.handle_player(t, color, PlayerEvent::Thinking);
    referee.handle_player(t, color, PlayerEvent::CpuTime(cpu));
    referee.handle_player(t, color, PlayerEvent::Moved(mv));
}

fn main_time_told(actions: &[Action]) -> Vec<(usize, Color)> {
    actions
        .iter()
        .enumerate()
        .filter_map(|(i, a)| match a {
            Action::MainTimeUsed { color } => Some((i, *color)),
            _ => None,
        })
        .collect()
}

#[test]
fn byo_romi_is_told_once_just_before_the_next_move_relayed_after_main_time_runs_out() {
    let t = crate::test_support::epoch();
    let mut referee = usenix_referee(t, "cpu:1s,2s");
    play_cpu(&mut referee, t, Black, mv("C3"), ms(600));
    play_cpu(&mut referee, t, White, mv("D4"), ms(10));
    let before = actions(&mut referee);
    assert!(main_time_told(&before).is_empty(), "{before:?}");
    play_cpu(&mut referee, t, Black, mv("E5"), ms(600));
    actions(&mut referee);
    play_cpu(&mut referee, t, White, mv("F6"), ms(10));
    let relay = actions(&mut referee);
    assert_eq!(main_time_told(&relay), [(0, Black)], "{relay:?}");
    assert!(matches!(
        relay[1],
        Action::TellMove {
            to: Black,
            color: White,
            ..
        }
    ));
    play_cpu(&mut referee, t, Black, mv("G7"), ms(600));
    play_cpu(&mut referee, t, White, mv("C7"), ms(10));
    let later = actions(&mut referee);
    assert!(main_time_told(&later).is_empty(), "told once: {later:?}");
}

#[test]
fn cpu_time_past_the_allowance_loses_at_once_while_the_program_still_thinks() {
    let t = crate::test_support::epoch();
    let mut referee = usenix_referee(t, "cpu:1s,2s");
    referee.handle_player(t, Black, PlayerEvent::Thinking);
    referee.handle_player(t + secs(1), Black, PlayerEvent::CpuSoFar(ms(2900)));
    assert!(results(&events(&mut referee)).is_empty(), "3 s are allowed");
    referee.handle_player(t + secs(2), Black, PlayerEvent::CpuSoFar(ms(3001)));
    let events = events(&mut referee);
    let results = results(&events);
    assert_eq!(results.len(), 1, "{events:?}");
    assert_eq!(results[0].result, "W+T");
    assert_eq!(results[0].end, End::Time);
}

#[test]
fn cpu_time_so_far_from_a_side_not_to_move_or_on_a_wall_clock_counts_for_nothing() {
    let t = crate::test_support::epoch();
    let mut referee = usenix_referee(t, "cpu:1s,2s");
    referee.handle_player(t, Black, PlayerEvent::Thinking);
    referee.handle_player(t, White, PlayerEvent::CpuSoFar(secs(60)));
    assert!(results(&events(&mut referee)).is_empty());
    let mut config = config(9, Preset::Usenix);
    config.rules.time = "absolute:1s".parse().unwrap();
    let mut referee = started(config, t, false, false);
    referee.handle_player(t, Black, PlayerEvent::Thinking);
    referee.handle_player(t, Black, PlayerEvent::CpuSoFar(secs(60)));
    assert!(results(&events(&mut referee)).is_empty());
}

#[test]
fn under_the_lax_ko_rule_an_immediate_recapture_is_played_and_noted() {
    let t = crate::test_support::epoch();
    let mut config = config(9, Preset::Usenix);
    config.rules.ko = crate::game::board::KoRule::Lax;
    let mut referee = started(config, t, false, false);
    play_line(&mut referee, t, TRIPLE_KO_SETUP);
    play(&mut referee, t, Black, mv("C1"));
    events(&mut referee);
    play(&mut referee, t, White, mv("B1"));
    let evs = events(&mut referee);
    assert!(results(&evs).is_empty(), "{evs:#?}");
    assert_eq!(moves(&evs).len(), 1);
    let notes = errors(&evs);
    assert!(
        notes
            .iter()
            .any(|(fatal, _, e)| !fatal && e.contains("ko violation") && e.contains("B1")),
        "{notes:?}"
    );
    play(&mut referee, t, Black, mv("C1"));
    assert_eq!(moves(&events(&mut referee)).len(), 1, "and back again");
}

/// A timed game whose Black is seated (`seat:alpha`), started at `t`.
fn seated(t: Instant, main: Duration) -> Referee {
    let mut referee = Referee::new(timed(9, absolute(main))).unwrap();
    let seat = PlayerInfo {
        spec: "seat:alpha".into(),
        ..info("alpha", false)
    };
    referee.handle_player(t, Black, PlayerEvent::Ready(seat));
    referee.handle_player(t, White, PlayerEvent::Ready(info("white-bot", false)));
    events(&mut referee);
    actions(&mut referee);
    referee
}

fn notices(events: &[GameEvent]) -> Vec<&str> {
    events
        .iter()
        .filter_map(|e| match e {
            GameEvent::Notice { message, .. } => Some(message.as_str()),
            _ => None,
        })
        .collect()
}

fn net_ms(events: &[GameEvent]) -> Vec<Option<u64>> {
    events
        .iter()
        .filter_map(|e| match e {
            GameEvent::Move { net_ms, .. } => Some(*net_ms),
            _ => None,
        })
        .collect()
}

#[test]
fn a_seated_program_is_charged_its_own_thinking_within_the_lag_allowance() {
    let t = crate::test_support::epoch();
    let mut referee = seated(t, secs(60));
    referee.handle_player(t, Black, PlayerEvent::Thinking);
    referee.handle_player(t + ms(1400), Black, PlayerEvent::SeatTime(ms(1000)));
    referee.handle_player(t + ms(1400), Black, PlayerEvent::Moved(mv("E5")));
    let after = events(&mut referee);
    assert_eq!(moves(&after), [(1, Black, "E5".to_string(), 1000)]);
    assert_eq!(net_ms(&after), [Some(400)]);

    let t2 = t + secs(2);
    play_after(&mut referee, t2, White, mv("C3"), ms(300));
    let t3 = t2 + secs(1);
    referee.handle_player(t3, Black, PlayerEvent::Thinking);
    referee.handle_player(t3 + ms(3000), Black, PlayerEvent::SeatTime(ms(100)));
    referee.handle_player(t3 + ms(3000), Black, PlayerEvent::Moved(mv("G5")));
    let after = events(&mut referee);
    let charged: Vec<u64> = moves(&after).iter().map(|m| m.3).collect();
    assert_eq!(
        charged,
        [300, 2000],
        "a seat that claims 100 ms is charged 3 s less 1 s"
    );
    assert_eq!(
        net_ms(&after),
        [None, Some(1000)],
        "net_ms is the uncharged share: 3 s measured, 2 s charged"
    );
}

#[test]
fn a_seat_told_the_game_again_is_charged_its_absence_and_its_thinking_not_the_telling() {
    let t = crate::test_support::epoch();
    let mut referee = seated(t, secs(60));
    referee.handle_player(t, Black, PlayerEvent::Thinking);
    referee.handle_player(t + secs(3), Black, PlayerEvent::TellingAgain(true));
    let held = events(&mut referee);
    assert!(
        notices(&held).iter().any(|n| n.contains("held")),
        "{held:#?}"
    );
    assert_eq!(
        referee.poll_timeout(),
        Some(t + secs(600)),
        "a held clock cannot flag: only the move timeout is left"
    );
    referee.handle_timeout(t + secs(70));
    assert!(
        results(&events(&mut referee)).is_empty(),
        "no flag while held"
    );
    let asked_again = t + secs(90);
    referee.handle_player(asked_again, Black, PlayerEvent::Thinking);
    referee.handle_player(asked_again + ms(400), Black, PlayerEvent::SeatTime(ms(150)));
    referee.handle_player(asked_again + ms(400), Black, PlayerEvent::Moved(mv("E5")));
    let after = events(&mut referee);
    assert_eq!(
        moves(&after),
        [(1, Black, "E5".to_string(), 3150)],
        "3 s absent and 150 ms thinking; the 87 s telling is nobody's"
    );
    assert_eq!(net_ms(&after), [Some(250)]);
}

#[test]
fn a_seat_lost_again_while_it_is_told_has_its_held_turn_run_again() {
    let t = crate::test_support::epoch();
    let mut referee = seated(t, secs(60));
    referee.handle_player(t, Black, PlayerEvent::Thinking);
    referee.handle_player(t + secs(2), Black, PlayerEvent::TellingAgain(true));
    referee.handle_player(t + secs(5), Black, PlayerEvent::TellingAgain(false));
    referee.handle_player(t + secs(9), Black, PlayerEvent::TellingAgain(true));
    referee.handle_player(t + secs(20), Black, PlayerEvent::Thinking);
    referee.handle_player(t + ms(20_100), Black, PlayerEvent::SeatTime(ms(100)));
    referee.handle_player(t + ms(20_100), Black, PlayerEvent::Moved(mv("E5")));
    let after = events(&mut referee);
    assert_eq!(
        moves(&after),
        [(1, Black, "E5".to_string(), 6100)],
        "2 s and 4 s absent, 100 ms thinking"
    );

    let mut idle = seated(t, secs(60));
    idle.handle_player(t, White, PlayerEvent::TellingAgain(true));
    idle.handle_player(t + secs(1), White, PlayerEvent::TellingAgain(false));
    assert!(
        notices(&events(&mut idle)).is_empty(),
        "a side not on move has no turn to hold"
    );
}

#[test]
fn a_seated_programs_clock_flags_only_once_the_allowance_is_spent_too() {
    let t = crate::test_support::epoch();
    let mut referee = seated(t, secs(10));
    referee.handle_player(t, Black, PlayerEvent::Thinking);
    assert_eq!(
        referee.poll_timeout(),
        Some(t + secs(11) + ns(1)),
        "ten seconds and the one-second allowance"
    );
    referee.handle_timeout(t + ms(10_500));
    assert!(
        results(&events(&mut referee)).is_empty(),
        "not flagged at 10.5 s"
    );
    referee.handle_player(t + ms(10_600), Black, PlayerEvent::SeatTime(ms(9_900)));
    referee.handle_player(t + ms(10_600), Black, PlayerEvent::Moved(mv("E5")));
    let after = events(&mut referee);
    assert_eq!(moves(&after), [(1, Black, "E5".to_string(), 9_900)]);
    assert!(results(&after).is_empty());

    let mut late = seated(t, secs(10));
    late.handle_player(t, Black, PlayerEvent::Thinking);
    late.handle_timeout(t + secs(11) + ms(1));
    let flagged = events(&mut late);
    assert_eq!(the_result(&flagged).result, "W+T");
}

#[test]
fn a_late_seat_has_its_lateness_taken_off_its_clock_and_past_its_time_it_loses() {
    let t = crate::test_support::epoch();
    let mut referee = seated(t, secs(60));
    referee.handle_player(t, Black, PlayerEvent::Late(secs(20) + ns(73_253_527)));
    let after = events(&mut referee);
    assert_eq!(
        notices(&after),
        ["Black came 20s late: the time comes off its clock"],
        "in tenths of a second, not nanoseconds"
    );
    referee.handle_player(t, Black, PlayerEvent::Thinking);
    referee.handle_player(t + secs(1), Black, PlayerEvent::Moved(mv("E5")));
    let after = events(&mut referee);
    assert_eq!(moves(&after), [(1, Black, "E5".to_string(), 21_073)]);
    assert_eq!(move_clock(&after).main_left_ms, 38_926);
    referee.handle_player(t + secs(2), Black, PlayerEvent::Late(secs(20)));
    assert!(
        !events(&mut referee)
            .iter()
            .any(|e| matches!(e, GameEvent::Notice { .. })),
        "only before its first move"
    );

    let mut gone = seated(t, secs(60));
    gone.handle_player(t, Black, PlayerEvent::Late(secs(61) + ms(2)));
    let lost = events(&mut gone);
    assert_eq!(the_result(&lost).result, "W+T");
    assert!(
        notices(&lost)
            .iter()
            .any(|n| n.contains("did not come within its time (1m1s)")),
        "a seat that never came did not come late: {lost:#?}"
    );
}

#[test]
fn an_absent_seats_clock_is_shown_running_down_before_the_game_starts() {
    let t = crate::test_support::epoch();
    let mut referee = Referee::new(timed(9, absolute(secs(60)))).unwrap();
    referee.handle_player(t, White, PlayerEvent::Ready(info("white-bot", false)));
    events(&mut referee);
    let absent = PlayerEvent::Seat {
        what: SessionChange::SeatAbsent,
        message: "alpha's seat is not connected".into(),
    };
    referee.handle_player(t + secs(1), Black, absent);
    let shown = events(&mut referee);
    let clock = shown
        .iter()
        .find_map(|e| match e {
            GameEvent::Clock {
                color: Black,
                clock,
            } => Some(clock.clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("{shown:#?}"));
    assert!(clock.running, "running down while the seat is away");
    assert_eq!(clock.main_left_ms, 60_000);
}

#[test]
fn an_absent_seat_whose_whole_time_passed_loses_on_time_before_the_game_starts() {
    let t = crate::test_support::epoch();
    let mut referee = Referee::new(timed(9, absolute(secs(60)))).unwrap();
    referee.handle_player(t, White, PlayerEvent::Ready(info("white-bot", false)));
    let absent = PlayerEvent::Seat {
        what: SessionChange::SeatAbsent,
        message: "alpha's seat is not connected".into(),
    };
    referee.handle_player(t, Black, absent);
    assert!(results(&events(&mut referee)).is_empty());
    referee.handle_player(t + secs(61), Black, PlayerEvent::Late(secs(61)));
    let after = events(&mut referee);
    let result = the_result(&after);
    assert_eq!((result.result.as_str(), result.end), ("W+T", End::Time));
    let start = after.iter().find_map(|e| match e {
        GameEvent::GameStart(start) => Some(start),
        _ => None,
    });
    assert_eq!(
        start.map(|s| (s.black.name.as_str(), s.white.name.as_str())),
        Some(("absent", "white-bot")),
        "the game exists, lost by the side that never came"
    );
    assert!(
        actions(&mut referee)
            .iter()
            .any(|a| matches!(a, Action::GameOver { .. })),
        "the players are told the game is over"
    );
}

#[test]
fn the_time_the_venue_was_away_is_charged_to_nobody() {
    let t = crate::test_support::epoch();
    let mut referee = seated(t, secs(60));
    referee.handle_player(t, Black, PlayerEvent::Thinking);
    let away = t + secs(2);
    referee.handle_player(
        away,
        Black,
        PlayerEvent::VenueAway("runner went away".into()),
    );
    assert_eq!(referee.poll_timeout(), None, "no clock runs meanwhile");
    let back = away + secs(100);
    referee.handle_player(back, Black, PlayerEvent::VenueBack("seat is back".into()));
    let after = events(&mut referee);
    assert!(after.iter().any(|e| matches!(
        e,
        GameEvent::Session {
            what: SessionChange::VenueAway,
            color: Some(Black),
            ..
        }
    )));
    referee.handle_player(back + secs(1), Black, PlayerEvent::Moved(mv("E5")));
    let after = events(&mut referee);
    assert_eq!(
        moves(&after),
        [(1, Black, "E5".to_string(), 3_000)],
        "2 s before the venue went, 1 s after it came back; not the 100 s between"
    );
    assert!(results(&after).is_empty());
}

#[test]
fn a_move_that_comes_while_the_venue_is_away_waits_for_its_seats() {
    let t = crate::test_support::epoch();
    let mut referee = seated(t, secs(60));
    referee.handle_player(t, Black, PlayerEvent::Thinking);
    referee.handle_player(t + secs(1), Black, PlayerEvent::Moved(mv("E5")));
    events(&mut referee);
    actions(&mut referee);
    referee.handle_player(t + secs(2), Black, PlayerEvent::VenueAway("gone".into()));
    referee.handle_player(t + secs(3), White, PlayerEvent::Moved(mv("C3")));
    assert!(moves(&events(&mut referee)).is_empty(), "held");
    referee.handle_player(t + secs(9), Black, PlayerEvent::VenueBack("back".into()));
    let after = events(&mut referee);
    assert_eq!(
        moves(&after).len(),
        1,
        "taken once the venue's seats are back"
    );
}

#[test]
fn an_opening_is_played_for_both_players_before_the_first_request() {
    let t = crate::test_support::epoch();
    let opening = GameConfig {
        opening: pts("E5 C3 G7"),
        ..config(9, Preset::Kgs)
    };
    let mut referee = Referee::new(opening).unwrap();
    assert_eq!(
        referee.opening(),
        [(Black, mv("E5")), (White, mv("C3")), (Black, mv("G7"))],
        "the position the players are told"
    );
    start(&mut referee, t, false, false);
    let after = events(&mut referee);
    let openings: Vec<(u32, Color, String, u64, bool)> = after
        .iter()
        .filter_map(|e| match e {
            GameEvent::Move {
                n,
                color,
                vertex,
                ms,
                opening,
                ..
            } => Some((*n, *color, vertex.clone(), *ms, *opening)),
            _ => None,
        })
        .collect();
    assert_eq!(
        openings,
        [
            (1, Black, "E5".to_string(), 0, true),
            (2, White, "C3".to_string(), 0, true),
            (3, Black, "G7".to_string(), 0, true),
        ]
    );
    let start_at = after
        .iter()
        .position(|e| matches!(e, GameEvent::GameStart(_)))
        .unwrap();
    assert!(
        start_at
            < after
                .iter()
                .position(|e| matches!(e, GameEvent::Move { .. }))
                .unwrap()
    );
    let asked: Vec<Color> = actions(&mut referee)
        .iter()
        .filter_map(|a| match a {
            Action::RequestMove { color, .. } => Some(*color),
            _ => None,
        })
        .collect();
    assert_eq!(asked, [White], "the fourth move is White's to think of");
    play(&mut referee, t, White, mv("C7"));
    let moved = events(&mut referee);
    assert!(moved.iter().any(|e| matches!(
        e,
        GameEvent::Move {
            n: 4,
            opening: false,
            ..
        }
    )));
}

#[test]
fn an_illegal_opening_is_refused_with_its_move_named() {
    let taken_twice = GameConfig {
        opening: pts("E5 E5"),
        ..config(9, Preset::Kgs)
    };
    let refused = Referee::new(taken_twice).err().unwrap().to_string();
    assert!(refused.contains("move 2 (E5)"), "{refused}");
}

mod analysis;
