//! Tests of `GameView`, the fold of the event stream that every screen draws:
//! board, captures, ko, clocks and thinking time, bounded trace and errors,
//! agreement, a game start that keeps the set-up, and the
//! spectator guarantee (a view rebuilt from JSON events is equal).

use std::time::{Duration, Instant};

use super::{GameView, MoveLine, TraceLine, ERROR_CAPACITY, TRACE_CAPACITY};
use crate::game::board::Illegal;
use crate::game::clock::{ClockReading, TimeSystem};
use crate::game::rules::{Preset, Rules};
use crate::game::{Color, Move, Point, MAX_SIZE};
use crate::referee::event::{GameEvent, LineDirection, Phase, PlayerInfo, SessionChange};
use crate::referee::OperatorCommand;
use crate::referee::{Failure, GameConfig, Handicap, PlayerEvent, Referee};

use Color::{Black, White};

// ---------------------------------------------------------------- harness

fn pt(vertex: &str) -> Point {
    Point::parse_gtp(vertex, MAX_SIZE).unwrap()
}

fn strings(vertices: &str) -> Vec<String> {
    vertices.split_whitespace().map(String::from).collect()
}

/// A referee game driven by hand; every event it emits is kept in order.
struct Game {
    referee: Referee,
    now: Instant,
    events: Vec<GameEvent>,
}

impl Game {
    fn new(config: GameConfig) -> Game {
        let mut referee = Referee::new(config).unwrap();
        let now = crate::test_support::epoch();
        for (color, name) in [(Black, "black-bot"), (White, "white-bot")] {
            let info = PlayerInfo {
                protocol: "gtp".into(),
                spec: format!("./{name}"),
                name: name.into(),
                version: "2.0".into(),
                kgs_end_protocol: true,
                claims_dead_stones: true,
                stops_at_double_pass: false,
            };
            referee.handle_player(now, color, PlayerEvent::Ready(info));
        }
        let mut game = Game {
            referee,
            now,
            events: Vec::new(),
        };
        game.drain();
        game
    }

    fn drain(&mut self) {
        while let Some(event) = self.referee.poll_event() {
            self.events.push(event);
        }
        while self.referee.poll_action().is_some() {}
    }

    /// Each move of `line` by the side to move, 300 ms after it starts thinking.
    fn play(&mut self, line: &str) -> &mut Game {
        for word in line.split_whitespace() {
            let color = self.referee.board().to_move();
            let mv = Move::parse_gtp(word, MAX_SIZE).unwrap();
            self.player(color, PlayerEvent::Thinking);
            self.now += Duration::from_millis(300);
            self.player(color, PlayerEvent::Moved(mv));
            self.now += Duration::from_millis(700);
        }
        self
    }

    fn player(&mut self, color: Color, event: PlayerEvent) -> &mut Game {
        self.referee.handle_player(self.now, color, event);
        self.drain();
        self
    }

    fn claim(&mut self, color: Color, vertices: &str) -> &mut Game {
        let stones = vertices.split_whitespace().map(pt).collect();
        self.player(color, PlayerEvent::DeadStones(stones))
    }

    fn operator(&mut self, command: OperatorCommand) -> &mut Game {
        self.referee.handle_operator(self.now, command);
        self.drain();
        self
    }

    fn view(&self) -> GameView {
        view_of(&self.events)
    }
}

fn config(size: u8, preset: Preset, time: TimeSystem) -> GameConfig {
    let mut rules = Rules::preset(preset);
    rules.time = time;
    GameConfig {
        size,
        rules,
        handicap: Handicap::None,
        opening: Vec::new(),
    }
}

fn kgs_5x5() -> GameConfig {
    config(
        5,
        Preset::Kgs,
        TimeSystem::Absolute {
            main: Duration::from_secs(60),
        },
    )
}

fn view_of(events: &[GameEvent]) -> GameView {
    let mut view = GameView::new();
    for event in events {
        view.apply(event);
    }
    view
}

/// The view a spectator builds: each event through its JSON line and back.
fn spectator_view_of(events: &[GameEvent]) -> GameView {
    let mut view = GameView::new();
    for event in events {
        let line = serde_json::to_string(event).unwrap();
        let back: GameEvent = serde_json::from_str(&line).unwrap();
        assert_eq!(&back, event, "{line}");
        view.apply(&back);
    }
    view
}

/// Black captures A1 at move 3, White captures E1 at move 6.
const TWO_CAPTURES: &str = "B1 A1 A2 E2 E1 D1";

/// 5x5: Black's wall on column C, White's on D, White's dead chain A3-A4;
/// ends with a double pass.
const WALLS_AND_INVADER: &str = "C1 D1 C2 D2 C3 D3 C4 D4 C5 D5 pass A3 pass A4 pass pass";

// ---------------------------------------------------------------- board

#[test]
fn a_fresh_view_is_an_empty_19x19_board_in_setup() {
    let view = GameView::new();
    assert_eq!(view.size, 19);
    assert_eq!(view.board.len(), 361);
    assert!(view.board.iter().all(Option::is_none));
    assert_eq!(view.phase, Phase::Setup);
    assert_eq!(view.to_move, None);
}

#[test]
fn the_game_start_sets_the_board_players_and_first_mover() {
    let game = Game::new(kgs_5x5());
    let view = game.view();
    assert_eq!(view.size, 5);
    assert_eq!(view.board.len(), 25);
    assert_eq!(view.komi, 7.5);
    assert_eq!(view.rules, "kgs");
    assert_eq!(view.ruleset, "Chinese");
    assert_eq!(view.time, "absolute:1m");
    assert_eq!(view.players[0].name, "black-bot");
    assert_eq!(view.players[1].name, "white-bot");
    assert_eq!(view.to_move, Some(Black));
    assert_eq!(view.phase, Phase::Play);
    assert!(view.board.iter().all(Option::is_none));
}

#[test]
fn stones_are_placed_and_captured_stones_removed() {
    let mut game = Game::new(kgs_5x5());
    game.play("B1 A1");
    let view = game.view();
    assert_eq!(view.stone(pt("B1")), Some(Black));
    assert_eq!(view.stone(pt("A1")), Some(White));
    assert_eq!(view.to_move, Some(Black));

    game.play("A2");
    let view = game.view();
    assert_eq!(view.stone(pt("A2")), Some(Black));
    assert_eq!(view.stone(pt("A1")), None, "captured");
    assert_eq!(view.captures, [1, 0]);
    assert_eq!(view.to_move, Some(White));
    assert_eq!(
        view.last_move,
        Some(MoveLine {
            n: 3,
            color: Black,
            vertex: "A2".into(),
            ms: 300,
            wire_ms: 0.0,
            resends: 0,
            referee_ms: 0.0,
            net_ms: 0,
            black_winrate: None,
        })
    );

    game.play("E2 E1 D1");
    let view = game.view();
    assert_eq!(view.stone(pt("E1")), None, "captured");
    assert_eq!(view.stone(pt("D1")), Some(White));
    assert_eq!(view.captures, [1, 1]);
    assert_eq!(view.moves.len(), 6);
    assert_eq!(
        view.moves.iter().map(|m| m.n).collect::<Vec<_>>(),
        vec![1, 2, 3, 4, 5, 6]
    );
    let stones: Vec<(Point, Color)> = game.referee.board().stones().collect();
    let shown: Vec<(Point, Color)> = (0..25)
        .filter_map(|k| {
            let p = Point::from_index(k, 5);
            view.stone(p).map(|c| (p, c))
        })
        .collect();
    assert_eq!(shown, stones, "the view shows the referee's board");
}

#[test]
fn passes_and_resignations_leave_the_board_alone() {
    let mut game = Game::new(kgs_5x5());
    game.play("C3 pass");
    let view = game.view();
    assert_eq!(view.board.iter().flatten().count(), 1);
    assert_eq!(view.last_move.as_ref().unwrap().vertex, "pass");
    assert_eq!(view.to_move, Some(Black));
    game.play("resign");
    let view = game.view();
    assert_eq!(view.board.iter().flatten().count(), 1);
    assert_eq!(view.last_move.as_ref().unwrap().vertex, "resign");
    assert_eq!(view.to_move, None, "nobody moves after the result");
    assert_eq!(view.result.as_ref().unwrap().result, "W+R");
    assert_eq!(view.phase, Phase::Over);
}

#[test]
fn handicap_stones_come_from_the_game_start() {
    let mut config = kgs_5x5();
    config.size = 9;
    config.handicap = Handicap::Fixed(3);
    let game = Game::new(config);
    let view = game.view();
    let black: Vec<Point> = game.referee.board().stones().map(|(p, _)| p).collect();
    assert_eq!(black.len(), 3);
    for p in black {
        assert_eq!(view.stone(p), Some(Black), "{p}");
    }
    assert_eq!(view.board.iter().flatten().count(), 3);
    assert_eq!(view.to_move, Some(White));
}

#[test]
fn a_new_game_start_clears_the_game_but_keeps_the_set_up() {
    let mut game = Game::new(kgs_5x5());
    game.player(
        Black,
        PlayerEvent::Line {
            direction: LineDirection::Sent,
            line: "boardsize 5".into(),
        },
    );
    game.player(Black, PlayerEvent::Info("slow to start".into()));
    game.player(White, PlayerEvent::Notice("an odd answer".into()));
    game.play("C3");
    let mut view = game.view();
    assert_eq!(view.time_used_ms, [300, 0]);
    let restart = game
        .events
        .iter()
        .find(|e| matches!(e, GameEvent::GameStart(_)))
        .unwrap()
        .clone();
    view.apply(&restart);
    assert!(view.board.iter().all(Option::is_none));
    assert_eq!(view.to_move, Some(Black));
    assert!(view.moves.is_empty() && view.last_move.is_none());
    assert_eq!(view.captures, [0, 0]);
    assert_eq!(view.time_used_ms, [0, 0]);
    let fresh = view
        .clocks
        .clone()
        .map(|c| c.expect("each side's clock from the start"));
    assert!(
        fresh.iter().all(|c| c.used_ms == 0 && !c.running),
        "{fresh:?}"
    );
    assert_eq!(view.phase, Phase::Setup);
    assert_eq!(view.trace.len(), 1, "the set-up trace is kept");
    assert_eq!(view.trace[0].line, "boardsize 5");
    assert_eq!(view.notices.len(), 1, "{:?}", view.notices);
    assert_eq!(view.errors.len(), 1, "{:?}", view.errors);
    assert_eq!(view.players[0].name, "black-bot");
}

#[test]
fn a_game_start_keeps_the_players_named_before_it_when_it_names_none() {
    let mut view = GameView::new();
    let game = Game::new(kgs_5x5());
    for event in &game.events {
        if let GameEvent::GameStart(start) = event {
            let mut start = start.clone();
            start.white = PlayerInfo::default();
            view.apply(&GameEvent::GameStart(start));
        } else {
            view.apply(event);
        }
    }
    assert_eq!(view.players[0].name, "black-bot");
    assert_eq!(view.players[1].name, "white-bot", "from its player event");
}

#[test]
fn the_ko_point_is_shown_until_the_next_move() {
    // Black A1 B2, White B1 C2 D1; Black C1 takes B1 and stands in atari.
    let mut game = Game::new(kgs_5x5());
    game.play("A1 B1 B2 C2 E5 D1");
    assert_eq!(game.view().ko, None);
    game.play("C1");
    let view = game.view();
    assert_eq!(view.stone(pt("B1")), None, "captured");
    assert_eq!(view.ko.as_deref(), Some("B1"));
    game.play("E4");
    assert_eq!(game.view().ko, None, "the ko lasts one move");
}

#[test]
fn a_capture_that_leaves_liberties_is_no_ko() {
    let mut game = Game::new(kgs_5x5());
    game.play("B1 A1 A2");
    let view = game.view();
    assert_eq!(view.captures, [1, 0]);
    assert_eq!(view.ko, None);
}

#[test]
fn each_sides_thinking_time_is_summed() {
    let mut game = Game::new(kgs_5x5());
    game.play("C3 D4 C4");
    let view = game.view();
    assert_eq!(view.time_used_ms, [600, 300]);
    assert!(view.moves.iter().all(|m| m.ms == 300));
}

#[test]
fn nobody_is_to_move_while_the_dead_stones_are_settled() {
    let mut game = Game::new(kgs_5x5());
    game.play(WALLS_AND_INVADER);
    assert_eq!(game.view().phase, Phase::DeadStones);
    assert_eq!(game.view().to_move, None);
    game.claim(Black, "A3").claim(White, "");
    let view = game.view();
    assert_eq!(view.phase, Phase::Cleanup);
    assert_eq!(
        view.to_move,
        Some(Black),
        "the cleanup follows the last pass"
    );
}

// ---------------------------------------------------------------- bounded lists

#[test]
fn the_trace_keeps_only_the_newest_lines() {
    let mut view = GameView::new();
    let extra = 5;
    for k in 0..TRACE_CAPACITY + extra {
        view.apply(&GameEvent::Gtp {
            color: if k % 2 == 0 { Black } else { White },
            direction: LineDirection::Received,
            line: format!("= {k}"),
        });
    }
    assert_eq!(view.trace.len(), TRACE_CAPACITY);
    assert_eq!(
        view.trace.front(),
        Some(&TraceLine {
            seq: 0,
            t_ms: 0,
            color: White,
            direction: LineDirection::Received,
            line: format!("= {extra}"),
            note: None,
            cgos: false,
        }),
        "the oldest lines are dropped"
    );
    assert_eq!(
        view.trace.back().unwrap().line,
        format!("= {}", TRACE_CAPACITY + extra - 1)
    );
}

#[test]
fn the_error_list_keeps_only_the_newest_messages() {
    let mut view = GameView::new();
    view.apply(&GameEvent::Illegal {
        n: 7,
        color: White,
        vertex: "D4".into(),
        reason: Illegal::Occupied,
    });
    assert_eq!(
        view.errors.back().unwrap(),
        "move 7: White D4 is illegal (the point is occupied)"
    );
    view.apply(&GameEvent::Error {
        color: None,
        message: "the trace file is full".into(),
        fatal: false,
    });
    assert_eq!(view.errors.back().unwrap(), "the trace file is full");

    for k in 0..ERROR_CAPACITY {
        view.apply(&GameEvent::Error {
            color: Some(Black),
            message: format!("problem {k}"),
            fatal: k % 2 == 0,
        });
    }
    assert_eq!(view.errors.len(), ERROR_CAPACITY);
    assert_eq!(view.errors.front().unwrap(), "Black: problem 0");
    assert_eq!(
        view.errors.back().unwrap(),
        &format!("Black: problem {}", ERROR_CAPACITY - 1)
    );
}

// ---------------------------------------------------------------- agreement

#[test]
fn the_agreement_shows_claims_and_their_agreement() {
    let mut game = Game::new(kgs_5x5());
    game.play(WALLS_AND_INVADER);
    assert_eq!(game.view().phase, Phase::DeadStones);
    game.claim(Black, "A3");
    let view = game.view();
    assert_eq!(view.agreement.claims, [Some(strings("A3 A4")), None]);
    assert_eq!(view.agreement.agreed, None);

    game.claim(White, "A4");
    let view = game.view();
    assert_eq!(
        view.agreement.claims,
        [Some(strings("A3 A4")), Some(strings("A3 A4"))]
    );
    assert_eq!(view.agreement.notes, [None, None]);
    assert_eq!(view.agreement.agreed, Some(strings("A3 A4")));
    assert_eq!(view.result.as_ref().unwrap().result, "W+2.5");
}

#[test]
fn the_agreement_shows_a_dispute_and_the_judges_marks() {
    let mut game = Game::new(config(
        5,
        Preset::Cgf,
        TimeSystem::Absolute {
            main: Duration::from_secs(60),
        },
    ));
    game.play(WALLS_AND_INVADER);
    game.player(Black, PlayerEvent::DeadStones(Vec::new()));
    game.claim(White, "A3");
    let view = game.view();
    assert_eq!(
        view.agreement.claims,
        [Some(vec![]), Some(strings("A3 A4"))]
    );
    assert_eq!(view.agreement.notes, [None, None]);
    assert!(view.agreement.black_only.is_empty());
    assert_eq!(view.agreement.white_only, strings("A3 A4"));
    assert_eq!(view.agreement.agreed, None);
    assert_eq!(view.phase, Phase::Adjudication);
    assert_eq!(view.result, None);

    game.operator(OperatorCommand::ToggleDead(pt("A4")));
    assert_eq!(game.view().agreement.marked, strings("A3 A4"));
    game.operator(OperatorCommand::ToggleDead(pt("A3")));
    assert!(game.view().agreement.marked.is_empty());
}

// ---------------------------------------------------------------- clocks and the result

#[test]
fn the_clocks_follow_the_clock_and_move_events() {
    let mut game = Game::new(kgs_5x5());
    game.player(Black, PlayerEvent::Thinking);
    let view = game.view();
    let clock = view.clocks[0].as_ref().unwrap();
    assert!(clock.running);
    assert_eq!(clock.main_left_ms, 60_000);
    let waiting = view.clocks[1]
        .as_ref()
        .expect("White's clock before its turn");
    assert_eq!(
        (waiting.main_left_ms, waiting.running, waiting.used_ms),
        (60_000, false, 0),
        "the side not to move shows its whole time from the start"
    );

    game.now += Duration::from_millis(1500);
    game.player(Black, PlayerEvent::Moved(Move::Play(pt("C3"))));
    let view = game.view();
    let clock = view.clocks[0].as_ref().unwrap();
    assert!(!clock.running);
    assert_eq!(clock.main_left_ms, 58_500);
    assert_eq!(clock.last_move_ms, 1500);
}

#[test]
fn the_result_stops_the_clocks() {
    let mut game = Game::new(kgs_5x5());
    game.play("C3");
    game.player(White, PlayerEvent::Thinking);
    let view = game.view();
    assert!(view.clocks[1].as_ref().unwrap().running);
    assert!(!view.clocks[0].as_ref().unwrap().running);

    game.player(
        White,
        PlayerEvent::Failed(Failure::crash("the program exited".into(), None)),
    );
    let view = game.view();
    assert_eq!(view.result.as_ref().unwrap().result, "B+F");
    assert!(view.clocks.iter().flatten().all(|c| !c.running));
    assert_eq!(view.to_move, None);
    assert_eq!(view.phase, Phase::Over);
    assert!(view
        .errors
        .back()
        .unwrap()
        .contains("White: the program exited"));
}

#[test]
fn the_phase_and_its_reason_are_shown() {
    let mut game = Game::new(kgs_5x5());
    game.play(WALLS_AND_INVADER);
    game.claim(Black, "A3").claim(White, "");
    let view = game.view();
    assert_eq!(view.phase, Phase::Cleanup);
    assert!(
        view.phase_reason.contains("differ"),
        "{}",
        view.phase_reason
    );
    assert_eq!(view.agreement.black_only, strings("A3 A4"));
    assert_eq!(view.to_move, Some(Black));
}

// ---------------------------------------------------------------- spectators

/// Event streams that between them use every kind of event.
fn sample_games() -> Vec<Vec<GameEvent>> {
    let mut captures = Game::new(kgs_5x5());
    captures.play(TWO_CAPTURES);
    captures.player(
        White,
        PlayerEvent::Line {
            direction: LineDirection::Sent,
            line: "genmove w".into(),
        },
    );
    captures.player(Black, PlayerEvent::Notice("slow".into()));
    captures.play("pass pass");
    captures.claim(Black, "").claim(White, "");

    let mut cleanup = Game::new(kgs_5x5());
    cleanup.play(WALLS_AND_INVADER);
    cleanup.claim(Black, "A4").claim(White, "");
    cleanup.play("pass E1 pass pass");

    let mut judged = Game::new(config(
        5,
        Preset::Cgf,
        TimeSystem::ByoYomi {
            main: Duration::from_secs(2),
            period: Duration::from_secs(5),
            periods: 2,
        },
    ));
    judged.play(WALLS_AND_INVADER);
    judged.claim(Black, "A3").claim(White, "");
    judged.operator(OperatorCommand::ToggleDead(pt("A3")));
    judged.operator(OperatorCommand::ScoreNow {
        reason: "the judge counts".into(),
    });

    let mut illegal = Game::new(kgs_5x5());
    illegal.play("C3 D4 C3");

    let mut handicap = kgs_5x5();
    handicap.size = 9;
    handicap.handicap = Handicap::Fixed(4);
    let mut adjudicated = Game::new(handicap);
    adjudicated.play("E5 F5");
    adjudicated.operator(OperatorCommand::Adjudicate {
        result: "Void".into(),
        reason: "the operator interrupted the game".into(),
    });

    vec![
        captures.events,
        cleanup.events,
        judged.events,
        illegal.events,
        adjudicated.events,
    ]
}

#[test]
fn the_samples_use_every_kind_of_event() {
    let mut kinds: Vec<&str> = sample_games().iter().flatten().map(|e| e.kind()).collect();
    kinds.sort_unstable();
    kinds.dedup();
    assert_eq!(
        kinds,
        vec![
            "agreement",
            "clock",
            "error",
            "game_start",
            "gtp",
            "illegal",
            "move",
            "operator",
            "phase",
            "player",
            "result"
        ]
    );
}

#[test]
fn a_spectator_rebuilds_the_same_view_from_json_events() {
    for events in sample_games() {
        let host = view_of(&events);
        let spectator = spectator_view_of(&events);
        assert_eq!(spectator, host);
        assert!(host.result.is_some());
        // And at every step, not only at the end.
        for k in 0..events.len() {
            assert_eq!(spectator_view_of(&events[..k]), view_of(&events[..k]));
        }
    }
}

#[test]
fn the_view_itself_survives_a_json_round_trip() {
    for events in sample_games() {
        let view = view_of(&events);
        let json = serde_json::to_string(&view).unwrap();
        let back: GameView = serde_json::from_str(&json).unwrap();
        assert_eq!(back, view);
    }
}

#[test]
fn each_move_carries_its_lines_wire_time_and_resends_and_rows_their_stamps() {
    use crate::protocol::sgmp::link::{Direction, TraceEntry, TraceFlag};
    use crate::referee::event::StampedEvent;
    use crate::test_support::{clock_reading, game_start};
    let packet = |wire_ms: f64, flags: Vec<TraceFlag>| GameEvent::Packet {
        color: Black,
        wire_ms: Some(wire_ms),
        entry: TraceEntry {
            direction: Direction::In,
            hex: "01 02 03 04".into(),
            meaning: "move".into(),
            flags,
            note: None,
        },
    };
    let mv = |n: u32, color: Color, vertex: &str| GameEvent::Move {
        n,
        color,
        vertex: vertex.into(),
        ms: 500,
        captures: vec![],
        clock: ClockReading {
            running: false,
            ..clock_reading(60_000)
        },
        referee_us: None,
        net_ms: None,
        opening: false,
    };
    let mut start = game_start(9, &[], Black);
    start.time_settings = TimeSystem::ByoYomi {
        main: Duration::from_secs(60),
        period: Duration::from_secs(10),
        periods: 3,
    }
    .into();
    let events = [
        GameEvent::GameStart(Box::new(start)),
        packet(16.7, vec![]),
        packet(16.7, vec![TraceFlag::Resend]),
        mv(1, Black, "E5"),
        mv(2, White, "C3"),
        packet(16.7, vec![]),
        mv(3, Black, "D4"),
    ];
    let mut view = GameView::new();
    for (i, event) in events.iter().enumerate() {
        view.apply_stamped(&StampedEvent {
            seq: i as u64 + 1,
            t_ms: 1000 * (i as u64 + 1),
            after_result: false,
            event: event.clone(),
        });
    }
    let lines: Vec<(f64, u32)> = view.moves.iter().map(|m| (m.wire_ms, m.resends)).collect();
    assert_eq!(lines, [(33.4, 1), (0.0, 0), (16.7, 0)]);
    assert_eq!(view.pending_wire_ms, [0.0, 0.0]);
    let stamps: Vec<(u64, u64)> = view.packets.iter().map(|p| (p.seq, p.t_ms)).collect();
    assert_eq!(stamps, [(2, 2000), (3, 3000), (6, 6000)]);
    assert_eq!(
        view.clock_t_ms,
        [7000, 5000],
        "each clock knows when it was read"
    );
    assert_eq!(
        view.time_settings.system(),
        Some(TimeSystem::ByoYomi {
            main: Duration::from_secs(60),
            period: Duration::from_secs(10),
            periods: 3,
        }),
        "a viewer can tick the clocks with the settings it was given"
    );
}

#[test]
fn errors_illegal_moves_flags_and_the_judge_raise_numbered_alerts() {
    use crate::test_support::{clock_reading, game_start};
    let flagged = ClockReading {
        flagged: true,
        ..clock_reading(0)
    };
    let events = [
        GameEvent::GameStart(Box::new(game_start(9, &[], Black))),
        GameEvent::Illegal {
            n: 1,
            color: Black,
            vertex: "E5".into(),
            reason: Illegal::Occupied,
        },
        GameEvent::Error {
            color: Some(White),
            message: "the engine crashed".into(),
            fatal: true,
        },
        GameEvent::Clock {
            color: White,
            clock: flagged.clone(),
        },
        GameEvent::Clock {
            color: White,
            clock: flagged,
        },
        GameEvent::Phase {
            phase: Phase::Adjudication,
            reason: "the claims differ".into(),
        },
        GameEvent::Notice {
            color: None,
            message: "a notice is no alert".into(),
        },
    ];
    let view = view_of(&events);
    let alerts: Vec<(u64, &str)> = view
        .alerts
        .iter()
        .map(|a| (a.n, a.message.as_str()))
        .collect();
    assert_eq!(
        alerts,
        [
            (1, "move 1: Black E5 is illegal (the point is occupied)"),
            (2, "White: the engine crashed"),
            (3, "White's flag fell"),
            (4, "the judge is called: the claims differ"),
        ]
    );
}

// ---------------------------------------------------------------- analysis

fn analysis(winrate: f64, lead: Option<f64>, pv: &str) -> PlayerEvent {
    PlayerEvent::Analysis(crate::protocol::gtp::analysis::MoveAnalysis {
        winrate,
        score_lead: lead,
        visits: 42,
        pv: strings(pv),
    })
}

#[test]
fn each_moves_analysis_gives_blacks_chance_and_each_side_its_newest_variation() {
    let mut game = Game::new(kgs_5x5());
    game.play("C3")
        .player(Black, analysis(0.7, Some(3.0), "C3 D3 C4"));
    game.play("D3").player(White, analysis(0.2, None, "D3 C4"));
    game.play("C4");
    let view = game.view();
    let winrates: Vec<Option<f32>> = view.moves.iter().map(|m| m.black_winrate).collect();
    assert_eq!(winrates, [Some(0.7), Some(0.8), None]);
    let black = view.analysis[0].as_ref().unwrap();
    assert_eq!(
        (black.n, black.score_lead, black.visits),
        (1, Some(3.0), 42)
    );
    assert_eq!(black.pv, strings("C3 D3 C4"));
    assert_eq!(view.analysis[1].as_ref().unwrap().pv, strings("D3 C4"));
    assert_eq!(spectator_view_of(&game.events), view);
}

#[test]
fn an_analysis_out_of_range_from_a_peer_is_rejected() {
    let mut view = GameView::new();
    let mut game = Game::new(kgs_5x5());
    game.play("C3");
    for event in &game.events {
        view.apply(event);
    }
    let before = view.clone();
    view.apply(&GameEvent::Analysis {
        n: 1,
        color: Black,
        winrate: 1.5,
        black_winrate: 1.5,
        score_lead: None,
        visits: 1,
        pv: Vec::new(),
    });
    assert_eq!(view.rejected, before.rejected + 1);
    assert_eq!(view.analysis, before.analysis);
    let long_pv: Vec<String> = (0..40)
        .map(|n| {
            if n % 2 == 0 {
                "C3".repeat(20)
            } else {
                "D4".into()
            }
        })
        .collect();
    view.apply(&GameEvent::Analysis {
        n: 1,
        color: Black,
        winrate: 0.5,
        black_winrate: 0.5,
        score_lead: Some(f64::NAN),
        visits: 1,
        pv: long_pv,
    });
    let kept = view.analysis[0].as_ref().unwrap();
    assert_eq!((kept.pv.len(), kept.score_lead), (12, None));
    assert!(kept.pv.iter().all(|v| v == "D4"), "{:?}", kept.pv);
}

#[test]
fn an_analysis_line_is_kept_short_in_the_trace_and_other_lines_whole() {
    let mut view = GameView::new();
    let long = format!(
        "info move D4 visits 10 winrate 5000 {}",
        "pv D4 ".repeat(80)
    );
    for (direction, line) in [
        (LineDirection::Received, long.clone()),
        (LineDirection::Received, format!("= {}", "D4 ".repeat(60))),
        (LineDirection::Stderr, long.clone()),
    ] {
        view.apply(&GameEvent::Gtp {
            color: Black,
            direction,
            line,
        });
    }
    let lengths: Vec<usize> = view.trace.iter().map(|t| t.line.len()).collect();
    assert!(lengths[0] < 96 + 30, "{lengths:?}");
    assert!(view.trace[0]
        .line
        .starts_with("info move D4 visits 10 winrate 5000"));
    assert!(lengths[1] > 150 && lengths[2] > 150, "{lengths:?}");
}

#[test]
fn a_view_made_from_the_settings_draws_their_board_before_the_game_starts() {
    let mut config = kgs_5x5();
    config.size = 9;
    config.rules.komi = 6.5;
    let nine = GameView::before_start(&config);
    assert_eq!((nine.size, nine.board.len(), nine.komi), (9, 81, 6.5));
    assert!(nine.is_well_shaped());
    config.size = MAX_SIZE + 1;
    let wild = GameView::before_start(&config);
    assert_eq!((wild.size, wild.board.len()), (19, 361));
}

#[test]
fn a_game_waits_for_an_absent_seat_only_before_its_first_move() {
    let session = |what, color| GameEvent::Session {
        what,
        color: Some(color),
        message: String::new(),
        down_ms: None,
    };
    let mut view = GameView::new();
    assert_eq!(view.waits_for_absent_seat(), None);
    view.apply(&session(SessionChange::SeatAbsent, White));
    assert_eq!(view.waits_for_absent_seat(), Some(White));
    view.apply(&session(SessionChange::SeatIn, White));
    assert_eq!(view.waits_for_absent_seat(), None);
    view.apply(&session(SessionChange::SeatLost, Black));
    assert_eq!(view.waits_for_absent_seat(), Some(Black));
    view.moves.push(MoveLine {
        n: 1,
        color: Black,
        vertex: "D4".into(),
        ms: 0,
        wire_ms: 0.0,
        resends: 0,
        referee_ms: 0.0,
        net_ms: 0,
        black_winrate: None,
    });
    assert_eq!(
        view.waits_for_absent_seat(),
        None,
        "a game under way is not started again for a seat lost in it"
    );
}
