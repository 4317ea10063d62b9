//! Whole games between real processes: the built-in engine and GNU Go over GTP.
//!
//! Each game's events, record and result are checked independently of the
//! referee: moves are replayed on a fresh board, the SGF is read back, and
//! the area score is recounted here by a flood fill of its own.

use crate::common;

use std::collections::{BTreeSet, HashSet};
use std::time::Duration;

use common::{gnugo, run_goref, sgf_moves, Run};
use goref_core::game::board::{Board, BoardRules, KoRule};
use goref_core::game::sgf;
use goref_core::game::{Color, Point};

const GAME_LIMIT: Duration = Duration::from_secs(120);

fn gnugo_spec(seed: u32) -> String {
    format!(
        "gtp:{} --mode gtp --level 0 --max-level 0 --seed {seed}",
        gnugo()
    )
}

/// Replays the move events on a board with the game's rules and returns the
/// final position; panics on any move the rules forbid.
fn replay(run: &Run, size: u8, ko: KoRule) -> Board {
    let mut board = Board::new(
        size,
        BoardRules {
            ko,
            suicide_allowed: false,
        },
    )
    .unwrap();
    for (n, (color, vertex)) in run.moves().iter().enumerate() {
        let color: Color = color.parse().unwrap();
        assert_eq!(color, board.to_move(), "move {} is out of turn", n + 1);
        match vertex.as_str() {
            "pass" => board.pass(color).unwrap(),
            "resign" => {}
            v => {
                let point = Point::parse_gtp(v, size).unwrap();
                board
                    .play(color, point)
                    .unwrap_or_else(|e| panic!("move {} {v} is illegal: {e}", n + 1));
            }
        }
    }
    board
}

/// The SGF on disk holds exactly the moves of the event stream, in order.
fn assert_record_matches(run: &Run, path: &std::path::Path, size: u8) -> Vec<sgf::Node> {
    let text = std::fs::read_to_string(path).unwrap();
    let nodes = sgf::parse(&text).unwrap();
    let root = &nodes[0];
    assert_eq!(root.get("FF"), Some("4"));
    assert_eq!(root.get("GM"), Some("1"));
    assert_eq!(root.get("CA"), Some("UTF-8"));
    assert_eq!(root.get("SZ"), Some(size.to_string().as_str()));
    let result = run.result();
    assert_eq!(root.get("RE"), result["result"].as_str());
    let recorded = sgf_moves(&nodes, size);
    let played: Vec<(String, String)> = run
        .moves()
        .into_iter()
        .filter(|(_, v)| v != "resign")
        .collect();
    assert_eq!(recorded, played);
    nodes
}

/// Area score recounted here: stones plus empty regions touching one colour.
fn recount_area(board: &Board, dead: &BTreeSet<Point>, komi: f64) -> f64 {
    let size = board.size();
    let owner = |p: Point| board.get(p).filter(|_| !dead.contains(&p));
    let mut black = 0.0;
    let mut white = komi;
    let mut seen = HashSet::new();
    for start in board.points() {
        if let Some(color) = owner(start) {
            if color == Color::Black {
                black += 1.0;
            } else {
                white += 1.0;
            }
            continue;
        }
        if !seen.insert(start) {
            continue;
        }
        let mut region = vec![start];
        let mut stack = vec![start];
        let mut borders = HashSet::new();
        while let Some(p) = stack.pop() {
            for n in board.neighbors(p) {
                match owner(n) {
                    Some(color) => {
                        borders.insert(color);
                    }
                    None if seen.insert(n) => {
                        region.push(n);
                        stack.push(n);
                    }
                    None => {}
                }
            }
        }
        if borders.len() == 1 {
            let points = region.len() as f64;
            if borders.contains(&Color::Black) {
                black += points;
            } else {
                white += points;
            }
        }
    }
    let _ = size;
    black - white
}

fn expected_result(margin: f64) -> String {
    if margin > 0.0 {
        format!("B+{margin}")
    } else if margin < 0.0 {
        format!("W+{}", -margin)
    } else {
        "0".into()
    }
}

fn dead_stones(run: &Run, size: u8) -> BTreeSet<Point> {
    let agreed = run
        .of_type("agreement")
        .into_iter()
        .find(|a| a["kind"] == "agreed");
    match agreed {
        Some(agreed) => agreed["stones"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| Point::parse_gtp(v.as_str().unwrap(), size).unwrap())
            .collect(),
        None => BTreeSet::new(),
    }
}

#[test]
fn builtin_against_builtin_plays_a_whole_recorded_game() {
    let dir = tempfile::tempdir().unwrap();
    let sgf_path = dir.path().join("game.sgf");
    let run = run_goref(
        &[
            "play",
            "--headless",
            "--json",
            "--size",
            "9",
            "--black",
            "bot:3",
            "--white",
            "bot:4",
            "--sgf",
            sgf_path.to_str().unwrap(),
        ],
        GAME_LIMIT,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let start = &run.of_type("game_start")[0];
    assert_eq!(start["black"]["name"], "goref-bot");
    assert_eq!(start["rules"], "kgs");
    assert!(run.moves().len() > 20, "a real game: {:?}", run.moves());
    let board = replay(&run, 9, KoRule::PositionalSuperko);
    assert_record_matches(&run, &sgf_path, 9);
    let result = run.result();
    let margin = recount_area(&board, &dead_stones(&run, 9), 7.5);
    assert_eq!(result["result"], expected_result(margin), "{result}");
}

#[test]
fn builtin_games_are_deterministic_for_a_seed() {
    let game = |seed: &str| {
        let run = run_goref(
            &[
                "play", "--json", "--size", "9", "--black", seed, "--white", "bot:9",
            ],
            GAME_LIMIT,
        );
        assert_eq!(run.status, 0, "{}", run.stderr);
        run.moves()
    };
    assert_eq!(game("bot:8"), game("bot:8"));
}

#[test]
fn gnugo_against_gnugo_ends_with_the_kgs_protocol_and_a_recounted_score() {
    let dir = tempfile::tempdir().unwrap();
    let sgf_path = dir.path().join("game.sgf");
    let black = gnugo_spec(1);
    let white = gnugo_spec(2);
    let run = run_goref(
        &[
            "play",
            "--headless",
            "--json",
            "--rules",
            "kgs",
            "--size",
            "9",
            "--black",
            &black,
            "--white",
            &white,
            "--time",
            "byoyomi:5m,30s,3",
            "--sgf",
            sgf_path.to_str().unwrap(),
        ],
        GAME_LIMIT,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let start = &run.of_type("game_start")[0];
    assert_eq!(start["black"]["name"], "GNU Go");
    assert_eq!(start["black"]["kgs_end_protocol"], true);

    let claims: Vec<_> = run
        .of_type("agreement")
        .into_iter()
        .filter(|a| a["kind"] == "claim")
        .collect();
    assert!(claims.len() >= 2, "both engines were asked for dead stones");
    let gtp_sent: Vec<String> = run
        .of_type("gtp")
        .iter()
        .filter(|g| g["direction"] == "sent")
        .map(|g| g["line"].as_str().unwrap().to_string())
        .collect();
    assert!(gtp_sent
        .iter()
        .any(|l| l.ends_with("final_status_list dead")));
    assert!(gtp_sent
        .iter()
        .any(|l| l.contains("time_settings 300 30 1")));
    assert!(gtp_sent.iter().any(|l| l.contains("time_left black")));

    let board = replay(&run, 9, KoRule::PositionalSuperko);
    let nodes = assert_record_matches(&run, &sgf_path, 9);
    assert_eq!(nodes[0].get("PB"), Some("GNU Go 3.8"));
    assert_eq!(nodes[0].get("TM"), Some("300"));
    assert!(nodes[1].get("BL").is_some(), "time left on every move");

    let result = run.result();
    let moves = run.moves();
    let n = moves.len();
    assert_eq!(moves[n - 1].1, "pass");
    assert_eq!(moves[n - 2].1, "pass");
    let cleanup = run.of_type("phase").iter().any(|p| p["phase"] == "cleanup");
    let dead = if cleanup {
        BTreeSet::new()
    } else {
        dead_stones(&run, 9)
    };
    let margin = recount_area(&board, &dead, 7.5);
    assert_eq!(result["result"], expected_result(margin), "{result}");
}

#[test]
fn gnugo_against_the_builtin_engine() {
    let white = gnugo_spec(3);
    let run = run_goref(
        &[
            "play", "--json", "--size", "9", "--black", "bot:5", "--white", &white,
        ],
        GAME_LIMIT,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let start = &run.of_type("game_start")[0];
    assert_eq!(start["white"]["name"], "GNU Go");
    assert_eq!(start["black"]["name"], "goref-bot");
    replay(&run, 9, KoRule::PositionalSuperko);
    let result = run.result();
    assert!(
        result["result"].as_str().unwrap().starts_with(['B', 'W']),
        "{result}"
    );
}

#[test]
fn the_demo_plays_the_builtin_engine_on_a_virtual_line_against_itself_over_gtp() {
    let fast = ["demo", "--json", "--think", "0s", "--playouts", "0"];
    let run = run_goref(&fast, GAME_LIMIT);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let start = &run.of_type("game_start")[0];
    assert_eq!(start["black"]["protocol"], "sgmp");
    assert_eq!(start["white"]["protocol"], "gtp");
    assert_eq!(start["size"], 9);
    assert!(run.of_type("packet").len() > 2 * run.moves().len());
    replay(&run, 9, KoRule::PositionalSuperko);
    assert!(run.result()["result"]
        .as_str()
        .unwrap()
        .starts_with(['B', 'W']));
}
