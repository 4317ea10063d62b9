//! Tests of the SGF record folded from the referee's events: a whole-record
//! snapshot, and records read back with the SGF reader.

use std::time::{Duration, Instant};

use super::{RecordInfo, Recorder};
use crate::game::clock::TimeSystem;
use crate::game::rules::{Preset, Rules};
use crate::game::sgf::{self, Date, Node, SgfMove};
use crate::game::{Color, Move, Point, MAX_SIZE};
use crate::referee::event::{GameEvent, PlayerInfo};
use crate::referee::OperatorCommand;
use crate::referee::{GameConfig, Handicap, PlayerEvent, Referee};

use Color::{Black, White};

// ---------------------------------------------------------------- harness

fn pt(vertex: &str) -> Point {
    Point::parse_gtp(vertex, MAX_SIZE).unwrap()
}

/// A referee game driven by hand; every event it emits is kept in order.
struct Game {
    referee: Referee,
    now: Instant,
    events: Vec<GameEvent>,
    /// How long each side thinks per move.
    think: [Duration; 2],
}

impl Game {
    fn new(config: GameConfig) -> Game {
        let mut referee = Referee::new(config).unwrap();
        let now = crate::test_support::epoch();
        for (color, name, version) in [(Black, "Alpha", "1.2"), (White, "Beta", "")] {
            let info = PlayerInfo {
                protocol: "gtp".into(),
                spec: format!("./{}", name.to_lowercase()),
                name: name.into(),
                version: version.into(),
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
            think: [Duration::from_millis(100); 2],
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

    /// Each move of `line` by the side to move.
    fn play(&mut self, line: &str) -> &mut Game {
        for word in line.split_whitespace() {
            let color = self.referee.board().to_move();
            let mv = Move::parse_gtp(word, MAX_SIZE).unwrap();
            self.referee
                .handle_player(self.now, color, PlayerEvent::Thinking);
            self.now += self.think[color.index()];
            self.referee
                .handle_player(self.now, color, PlayerEvent::Moved(mv));
            self.drain();
        }
        self
    }

    fn claim(&mut self, color: Color, vertices: &str) -> &mut Game {
        let stones = vertices.split_whitespace().map(pt).collect();
        self.referee
            .handle_player(self.now, color, PlayerEvent::DeadStones(stones));
        self.drain();
        self
    }

    /// The record of the events so far.
    fn record(&self) -> Recorder {
        let time = self.referee.config().rules.time;
        let mut recorder = Recorder::new(RecordInfo {
            date: Date {
                year: 2025,
                month: 6,
                day: 1,
            },
            event: Some("Test Cup".into()),
            place: None,
            round: Some("3 (Swiss)".into()),
            game_name: Some("TC-R3-T1".into()),
            main_time: time.sgf_main_time(),
            overtime: time.sgf_overtime(),
        });
        for event in &self.events {
            recorder.apply(event);
        }
        recorder
    }

    fn sgf(&self) -> String {
        self.record().to_sgf()
    }

    /// The moves of the move events (resignations excluded), as the SGF reader gives them.
    fn moves(&self) -> Vec<SgfMove> {
        self.events
            .iter()
            .filter_map(|e| match e {
                GameEvent::Move { color, vertex, .. } if vertex != "resign" => Some(SgfMove {
                    color: *color,
                    point: Move::parse_gtp(vertex, MAX_SIZE).unwrap().point(),
                }),
                _ => None,
            })
            .collect()
    }

    fn result(&self) -> String {
        self.referee.result().unwrap().result.clone()
    }
}

fn config(size: u8, time: TimeSystem) -> GameConfig {
    let mut rules = Rules::preset(Preset::Kgs);
    rules.time = time;
    GameConfig {
        size,
        rules,
        handicap: Handicap::None,
        opening: Vec::new(),
    }
}

fn parse(text: &str) -> Vec<Node> {
    sgf::parse(text).unwrap_or_else(|e| panic!("{e}:\n{text}"))
}

/// The `C` of the last node.
fn final_comment(nodes: &[Node]) -> String {
    nodes.last().unwrap().get("C").unwrap_or("").to_string()
}

/// 9x9: Black's wall on column E, White's on F, then White's stone B5 in
/// Black's area, which both call dead.
const WALLS: &str = "E1 F1 E2 F2 E3 F3 E4 F4 E5 F5 E6 F6 E7 F7 E8 F8 E9 F9";

fn byo_yomi() -> TimeSystem {
    TimeSystem::ByoYomi {
        main: Duration::from_secs(10),
        period: Duration::from_secs(5),
        periods: 3,
    }
}

/// The snapshot game: Black thinks 1.5s a move and reaches byo-yomi at
/// move 13, White 0.5s.
fn agreed_game() -> Game {
    let mut game = Game::new(config(9, byo_yomi()));
    game.think = [Duration::from_millis(1500), Duration::from_millis(500)];
    game.play(WALLS).play("pass B5 pass pass");
    game.claim(Black, "B5").claim(White, "B5");
    game
}

// ---------------------------------------------------------------- the whole record

#[test]
fn a_byo_yomi_game_with_agreed_dead_stones() {
    let game = agreed_game();
    // Black: E1-E9 and A1-D9 (B5 removed) = 45; White: F1-F9 and G1-J9 =
    // 36 + 7.5 = 43.5.
    assert_eq!(game.result(), "B+1.5");
    let mut recorder = game.record();
    recorder.comment("goref test game: kgs rules, byoyomi:10s,5s,3".into());
    let sgf = recorder
        .to_sgf()
        .replace(env!("CARGO_PKG_VERSION"), "VERSION");
    insta::assert_snapshot!("byo_yomi_game_with_agreed_dead_stones", sgf);
}

// ---------------------------------------------------------------- read back

#[test]
fn the_record_reads_back_as_the_moves_played() {
    let game = agreed_game();
    let text = game.sgf();
    let nodes = parse(&text);
    assert_eq!(nodes[0].get("SZ"), Some("9"));
    let moves = sgf::main_line_moves(&nodes, 9).unwrap();
    assert_eq!(moves.len(), 22);
    assert_eq!(moves, game.moves());
    assert_eq!(game.record().move_count(), 22);

    let root = &nodes[0];
    assert_eq!(root.get("RE"), Some(game.result().as_str()));
    assert_eq!(root.get("SZ"), Some("9"));
    assert_eq!(root.get("KM"), Some("7.5"));
    assert_eq!(root.get("RU"), Some("Chinese"));
    assert_eq!(root.get("PB"), Some("Alpha 1.2"));
    assert_eq!(root.get("PW"), Some("Beta"));
    assert_eq!(root.get("DT"), Some("2025-06-01"));
    assert_eq!(root.get("TM"), Some("10"));
    assert_eq!(root.get("OT"), Some("3x5 byo-yomi"));
    assert_eq!(root.get("HA"), None);
    assert_eq!(root.get("AB"), None);

    // Passes are written B[] and W[].
    assert_eq!(nodes[19].get("B"), Some(""));
    assert_eq!(nodes[22].get("W"), Some(""));
    assert!(text.contains(";B[]"), "{text}");
    assert!(text.contains(";W[]"), "{text}");
}

#[test]
fn every_move_node_has_the_movers_time_left() {
    let game = agreed_game();
    let nodes = parse(&game.sgf());
    let left: Vec<(&str, &str)> = nodes[1..]
        .iter()
        .map(|node| {
            node.get("BL")
                .map(|l| ("B", l))
                .or(node.get("WL").map(|l| ("W", l)))
                .unwrap()
        })
        .collect();
    // Black: 10s main, 1.5s a move; from its seventh move on it is in a 5s
    // period, which each move resets. White: 0.5s a move.
    let black: Vec<&str> = left
        .iter()
        .filter(|(c, _)| *c == "B")
        .map(|l| l.1)
        .collect();
    assert_eq!(
        black,
        vec!["8.5", "7.0", "5.5", "4.0", "2.5", "1.0", "5.0", "5.0", "5.0", "5.0", "5.0"]
    );
    let white: Vec<&str> = left
        .iter()
        .filter(|(c, _)| *c == "W")
        .map(|l| l.1)
        .collect();
    assert_eq!(
        white,
        vec!["9.5", "9.0", "8.5", "8.0", "7.5", "7.0", "6.5", "6.0", "5.5", "5.0", "4.5"]
    );
    assert!(
        nodes
            .iter()
            .all(|n| n.get("OB").is_none() && n.get("OW").is_none()),
        "byo-yomi has no stone count"
    );
}

#[test]
fn canadian_overtime_records_the_stones_left() {
    let mut game = Game::new(config(
        9,
        TimeSystem::Canadian {
            main: Duration::from_secs(1),
            period: Duration::from_secs(60),
            stones: 5,
        },
    ));
    game.think = [Duration::from_millis(600), Duration::from_millis(100)];
    game.play("E5 F5 E4 F4");
    let nodes = parse(&game.sgf());
    assert_eq!(nodes[0].get("OT"), Some("5/60 Canadian"));
    assert_eq!(nodes[1].get("BL"), Some("0.4"));
    assert_eq!(nodes[1].get("OB"), None, "still in main time");
    assert_eq!(nodes[3].get("BL"), Some("59.8"));
    assert_eq!(nodes[3].get("OB"), Some("4"));
    assert_eq!(nodes[4].get("WL"), Some("0.8"));
}

#[test]
fn an_untimed_game_records_no_times() {
    let mut game = Game::new(config(9, TimeSystem::None));
    game.play("E5 F5 resign");
    let text = game.sgf();
    let nodes = parse(&text);
    for id in ["TM", "OT", "BL", "WL"] {
        assert!(nodes.iter().all(|n| n.get(id).is_none()), "{id} in {text}");
    }
}

#[test]
fn a_resignation_adds_no_move_but_sets_the_result() {
    let mut game = Game::new(config(9, byo_yomi()));
    game.play("E5 F5 D4 resign");
    let text = game.sgf();
    let nodes = parse(&text);
    assert_eq!(nodes.len(), 4, "the root and three moves: {text}");
    let moves = sgf::main_line_moves(&nodes, 9).unwrap();
    assert_eq!(moves, game.moves());
    assert_eq!(moves.len(), 3);
    assert_eq!(nodes[0].get("RE"), Some("B+R"));
    assert!(final_comment(&nodes).contains("White resigned"), "{text}");
    assert_eq!(nodes.last().unwrap().get("B"), Some("df"), "D4");
}

#[test]
fn a_handicap_game_has_ha_ab_and_white_to_play() {
    let mut config = config(9, TimeSystem::None);
    config.handicap = Handicap::Fixed(2);
    let mut game = Game::new(config);
    game.play("E5 D4 pass pass");
    game.claim(Black, "").claim(White, "");
    let text = game.sgf();
    let nodes = parse(&text);
    let root = &nodes[0];
    assert_eq!(root.get("HA"), Some("2"));
    // C3 and G7 on 9x9.
    assert_eq!(
        root.values("AB"),
        Some(&["cg".to_string(), "gc".to_string()][..])
    );
    assert_eq!(root.get("PL"), Some("W"));
    let moves = sgf::main_line_moves(&nodes, 9).unwrap();
    assert_eq!(moves, game.moves());
    assert_eq!(moves[0].color, White);
    assert_eq!(root.get("RE"), Some(game.result().as_str()));
}

#[test]
fn an_illegal_move_is_named_in_the_final_comment() {
    let mut game = Game::new(config(9, TimeSystem::None));
    game.play("D4 E5 E5");
    let text = game.sgf();
    let nodes = parse(&text);
    assert_eq!(nodes[0].get("RE"), Some("W+F"));
    assert_eq!(
        sgf::main_line_moves(&nodes, 9).unwrap().len(),
        2,
        "the illegal move is not in the record"
    );
    let comment = final_comment(&nodes);
    assert!(
        comment.contains("Move 3: Black played E5, which is illegal (the point is occupied)."),
        "{comment}"
    );
    assert!(comment.contains("Result W+F"), "{comment}");
    assert_eq!(
        nodes.last().unwrap().get("W"),
        Some("ee"),
        "E5 on the last node"
    );
}

#[test]
fn a_dispute_and_the_cleanup_are_told_in_the_final_comment() {
    let mut game = Game::new(config(9, TimeSystem::None));
    game.play(WALLS).play("pass B5 pass pass");
    game.claim(Black, "B5").claim(White, "");
    game.play("pass pass");
    let text = game.sgf();
    let nodes = parse(&text);
    let comment = final_comment(&nodes);
    assert!(
        comment.contains("only Black claims [B5], only White claims []"),
        "{comment}"
    );
    assert!(!comment.contains("Dead stones removed"), "{comment}");
    // B5 lives: A-D touch both colours. Black 9; White 9 + 1 + 27 + 7.5 = 44.5.
    assert_eq!(nodes[0].get("RE"), Some("W+35.5"));
    assert_eq!(nodes.last().unwrap().get("TB"), None);
    assert_eq!(nodes.last().unwrap().values("TW").map(<[_]>::len), Some(27));
    assert_eq!(sgf::main_line_moves(&nodes, 9).unwrap(), game.moves());
}

#[test]
fn a_game_without_moves_still_records_its_result() {
    let mut game = Game::new(config(9, TimeSystem::None));
    game.play("resign");
    let text = game.sgf();
    let nodes = parse(&text);
    assert_eq!(nodes[0].get("RE"), Some("W+R"));
    assert!(sgf::main_line_moves(&nodes, 9).unwrap().is_empty());
    assert!(final_comment(&nodes).contains("Black resigned"), "{text}");
}

#[test]
fn the_reason_a_game_went_to_the_judge_is_recorded() {
    let mut rules = Rules::preset(Preset::Cgf);
    rules.limits.stop_at = Some(2);
    let mut game = Game::new(GameConfig {
        size: 9,
        rules,
        handicap: Handicap::None,
        opening: Vec::new(),
    });
    game.play("C3 D3");
    game.referee.handle_operator(
        game.now,
        OperatorCommand::Adjudicate {
            result: "B+".into(),
            reason: "Black is ahead".into(),
        },
    );
    game.drain();
    let comment = final_comment(&parse(&game.sgf()));
    assert!(
        comment.contains("went to the judge: the game stopped at move 2"),
        "{comment}"
    );
    assert!(comment.contains("adjudicated: Black is ahead"), "{comment}");
}

#[test]
fn a_set_up_that_never_became_a_game_has_its_plan_and_no_result() {
    use super::PlannedGame;
    use crate::referee::event::GameResult;
    let mut recorder = Recorder::new(RecordInfo {
        date: Date::from_unix_seconds(0),
        event: None,
        place: None,
        round: None,
        game_name: None,
        main_time: None,
        overtime: None,
    });
    recorder.plan(PlannedGame {
        size: 9,
        komi: 6.5,
        ruleset: "Japanese".into(),
        black: "sgmp:/dev/ttyS0".into(),
        white: "bot".into(),
    });
    recorder.apply(&GameEvent::Error {
        color: Some(Black),
        message: "cannot open /dev/ttyS0".into(),
        fatal: true,
    });
    recorder.apply(&GameEvent::Result(GameResult::new(
        "Void".into(),
        "Black: cannot open /dev/ttyS0".into(),
        None,
        crate::referee::End::NoGame,
    )));
    let nodes = sgf::parse(&recorder.to_sgf()).unwrap();
    assert_eq!(nodes.len(), 1, "no move, no empty node");
    let root = &nodes[0];
    assert_eq!(root.get("RE"), None);
    assert_eq!(root.get("SZ"), Some("9"));
    assert_eq!(root.get("KM"), Some("6.5"));
    assert_eq!(root.get("PB"), Some("sgmp:/dev/ttyS0"));
    assert!(root
        .get("C")
        .unwrap()
        .contains("No game was played: Black: cannot open /dev/ttyS0."));
}

#[test]
fn each_operator_command_is_a_comment_on_the_move_it_followed() {
    let mut game = Game::new(GameConfig {
        size: 9,
        rules: Rules::preset(Preset::Cgf),
        handicap: Handicap::None,
        opening: Vec::new(),
    });
    game.play("C3 D3");
    game.referee.handle_operator(
        game.now,
        OperatorCommand::PauseClocks {
            reason: "a dispute about the line".into(),
        },
    );
    game.referee
        .handle_operator(game.now, OperatorCommand::ResumeClocks);
    game.play("E5");
    game.referee.handle_operator(
        game.now,
        OperatorCommand::Adjudicate {
            result: "Void".into(),
            reason: "the hall lost power".into(),
        },
    );
    game.drain();
    let nodes = parse(&game.sgf());
    let second = &nodes[2];
    assert_eq!(second.get("W"), Some("dg"), "D3 on 9x9");
    assert_eq!(
        second.get("C"),
        Some("Operator: pause (a dispute about the line).\nOperator: resume (the game goes on).")
    );
    assert_eq!(
        second.values("C").map(<[String]>::len),
        Some(1),
        "one C value"
    );
    let last = nodes.last().unwrap();
    let comment = last.get("C").unwrap();
    assert!(
        comment.starts_with("Operator: void (the hall lost power).\n"),
        "{comment}"
    );
    assert_eq!(
        last.values("C").map(<[String]>::len),
        Some(1),
        "one C value"
    );
}

#[test]
fn a_pause_and_its_resumption_are_comments_on_the_node_where_they_happened() {
    let mut game = Game::new(GameConfig {
        size: 9,
        rules: Rules::preset(Preset::Cgf),
        handicap: Handicap::None,
        opening: Vec::new(),
    });
    let pause = |reason: &str| OperatorCommand::PauseClocks {
        reason: reason.into(),
    };
    game.referee
        .handle_operator(game.now, pause("the lines are checked"));
    game.now += Duration::from_secs(1);
    game.referee
        .handle_operator(game.now, OperatorCommand::ResumeClocks);
    game.play("C3");
    game.referee
        .handle_player(game.now, White, PlayerEvent::Thinking);
    game.referee
        .handle_operator(game.now, pause("a dispute about the clock"));
    let d3 = Move::parse_gtp("D3", 9).unwrap();
    game.referee
        .handle_player(game.now, White, PlayerEvent::Moved(d3));
    game.now += Duration::from_secs(2);
    game.referee
        .handle_operator(game.now, OperatorCommand::ResumeClocks);
    game.play("E5");
    game.referee.handle_operator(
        game.now,
        OperatorCommand::Adjudicate {
            result: "Void".into(),
            reason: "the hall lost power".into(),
        },
    );
    game.drain();
    let nodes = parse(&game.sgf());
    let root = nodes[0].get("C").unwrap();
    assert!(
        root.ends_with(
            "Operator: pause (the lines are checked).\nOperator: resume (the game goes on after \
             1s paused)."
        ),
        "before the first move, on the root: {root}"
    );
    assert_eq!(nodes[1].get("B"), Some("cg"), "C3 on 9x9");
    assert_eq!(
        nodes[1].get("C"),
        Some(
            "Operator: pause (a dispute about the clock).\nOperator: resume (the game goes on \
             after 2s paused; White's D3, held since it came during the pause, is taken now)."
        )
    );
    assert_eq!(nodes[2].get("W"), Some("dg"), "the held move comes next");
    assert_eq!(nodes[2].get("C"), None);
    let last = nodes.last().unwrap().get("C").unwrap();
    assert!(!last.contains("pause"), "{last}");
}

#[test]
fn analysis_is_a_comment_on_its_move_and_sabakis_winrate_on_the_position_before() {
    let mut game = Game::new(config(9, TimeSystem::None));
    let analysis = |winrate, lead| {
        PlayerEvent::Analysis(crate::protocol::gtp::analysis::MoveAnalysis {
            winrate,
            score_lead: lead,
            visits: 300,
            pv: vec!["C3".into(), "D3".into()],
        })
    };
    game.play("C3");
    game.referee
        .handle_player(game.now, Black, analysis(0.625, Some(1.5)));
    game.drain();
    game.play("D3");
    game.referee
        .handle_player(game.now, White, analysis(0.25, Some(-4.0)));
    game.drain();
    let text = game.sgf();
    let nodes = sgf::parse(&text).unwrap();
    let prop = |node: &Node, id: &str| node.get(id).map(str::to_string);
    assert_eq!(prop(&nodes[0], "SBKV").as_deref(), Some("62.50"), "{text}");
    assert_eq!(prop(&nodes[0], "SBKS").as_deref(), Some("1.50"));
    assert_eq!(prop(&nodes[1], "SBKV").as_deref(), Some("75.00"));
    assert_eq!(prop(&nodes[1], "SBKS").as_deref(), Some("4.00"));
    let comment = prop(&nodes[2], "C").unwrap();
    assert!(
        comment.contains("White's program: 25.0% to win (300 visits, lead -4.0); expects C3 D3."),
        "{comment}"
    );
}
