//! What the programs think: real processes asked their moves with their
//! analysis (`*-genmove_analyze`), through the real binary. The fake
//! engine speaks KataGo's, Leela Zero's and CGOS's formats and their
//! broken cases; the analysis reaches the stream, the journal and the SGF,
//! and never costs a move.

mod common;

use std::path::Path;
use std::time::Duration;

use common::{fake, journal, run_goref, Run};
use goref::game::sgf;
use serde_json::Value;

const LIMIT: Duration = Duration::from_secs(60);
const OPENING: &str = "--board --moves C3,G7,C7,G3,E5,D4,F6,E3";

fn play(dir: &Path, black: &str, white: &str, extra: &[&str]) -> Run {
    let game = dir.join("game");
    let (black, white) = (fake(black), fake(white));
    let mut args = vec![
        "play",
        "--headless",
        "--json",
        "--size",
        "9",
        "--black",
        &black,
        "--white",
        &white,
        "--game-dir",
        game.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    run_goref(&args, LIMIT)
}

/// The `analysis` events with the `move` event each is of.
fn analysed_moves(events: &[Value]) -> Vec<(Value, Value)> {
    events
        .iter()
        .filter(|e| e["type"] == "analysis")
        .map(|a| {
            let played = events
                .iter()
                .find(|m| m["type"] == "move" && m["n"] == a["n"])
                .unwrap_or_else(|| panic!("no move for {a}"));
            (a.clone(), played.clone())
        })
        .collect()
}

#[test]
fn each_move_of_a_katago_and_a_leela_zero_comes_with_what_it_thought() {
    let dir = tempfile::tempdir().unwrap();
    let black = format!("{OPENING} --analyze kata --winrate 0.7 --analysis-lines 3");
    let white = format!("{OPENING} --analyze lz --winrate 0.6");
    let run = play(dir.path(), &black, &white, &[]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let events = run.events();
    let analysed = analysed_moves(&events);
    let moves = run.of_type("move");
    let passes = moves.iter().filter(|m| m["vertex"] == "pass").count();
    assert!(analysed.len() >= moves.len() - passes - 1, "{analysed:?}");
    for (analysis, played) in &analysed {
        assert_eq!(analysis["color"], played["color"]);
        assert_eq!(analysis["pv"][0], played["vertex"], "{analysis}");
        let (winrate, black_winrate) = match played["color"].as_str() {
            Some("B") => (0.7, 0.7),
            _ => (0.6, 0.4),
        };
        assert_eq!(analysis["winrate"].as_f64(), Some(winrate), "{analysis}");
        let black = analysis["black_winrate"].as_f64().unwrap();
        assert!((black - black_winrate).abs() < 1e-9, "{analysis}");
        let lead = &analysis["score_lead"];
        match played["color"].as_str() {
            Some("B") => assert_eq!(lead.as_f64(), Some(4.0), "KataGo's scoreLead: {analysis}"),
            _ => assert!(lead.is_null(), "Leela Zero gives no lead: {analysis}"),
        }
    }
    let info_lines = run
        .of_type("gtp")
        .iter()
        .filter(|l| l["line"].as_str().unwrap_or("").starts_with("info move"))
        .count();
    assert!(
        info_lines >= 3 * analysed.len() / 2,
        "the trace keeps the info lines"
    );
    let folder = dir.path().join("game");
    let journaled = journal(&folder)
        .into_iter()
        .filter(|e| e["type"] == "analysis")
        .count();
    assert_eq!(journaled, analysed.len());
    let text = std::fs::read_to_string(folder.join("game.sgf")).unwrap();
    let nodes = sgf::parse(&text).unwrap();
    assert_eq!(
        nodes[0].get("SBKV"),
        Some("70.00"),
        "Black's first move, on the root"
    );
    assert_eq!(nodes[0].get("SBKS"), Some("4.00"));
    assert_eq!(
        nodes[1].get("SBKV"),
        Some("40.00"),
        "White's first move, on Black's"
    );
    assert!(
        nodes[1]
            .get("C")
            .unwrap()
            .contains("Black's program: 70.0% to win"),
        "{text}"
    );
}

#[test]
fn a_cgos_engine_is_read_and_no_analysis_asks_plain_genmove() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("commands.log");
    let black = format!(
        "{OPENING} --analyze cgos --winrate 0.8 --log {}",
        log.display()
    );
    let run = play(dir.path(), &black, OPENING, &[]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let analysed = analysed_moves(&run.events());
    assert!(!analysed.is_empty());
    assert!(analysed
        .iter()
        .all(|(a, _)| a["color"] == "B" && a["winrate"] == 0.8));
    let asked = std::fs::read_to_string(&log).unwrap();
    assert!(asked.contains("cgos-genmove_analyze b"), "{asked}");

    let quiet = tempfile::tempdir().unwrap();
    let log = quiet.path().join("commands.log");
    let black = format!("{OPENING} --analyze kata --log {}", log.display());
    let run = play(quiet.path(), &black, OPENING, &["--no-analysis"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(run.of_type("analysis").is_empty());
    let asked = std::fs::read_to_string(&log).unwrap();
    assert!(!asked.contains("genmove_analyze"), "{asked}");
    assert!(asked.contains("genmove b"), "{asked}");
    let config = std::fs::read_to_string(quiet.path().join("game/config.toml")).unwrap();
    assert!(config.contains("analysis = false"), "{config}");
}

#[test]
fn broken_analysis_is_ignored_and_the_game_goes_on() {
    for (how, noticed) in [("garbage", Some("was not read")), ("illegal-pv", None)] {
        let dir = tempfile::tempdir().unwrap();
        let black = format!("{OPENING} --analyze kata --analysis-broken {how}");
        let run = play(dir.path(), &black, OPENING, &[]);
        assert_eq!(run.status, 0, "{how}: {}", run.stderr);
        let result = run.result();
        assert_ne!(result["end"], "forfeit_garbage", "{how}: {result}");
        let notices: Vec<String> = run
            .of_type("error")
            .iter()
            .map(|e| e["message"].to_string())
            .collect();
        match noticed {
            Some(text) => assert_eq!(
                notices.iter().filter(|n| n.contains(text)).count(),
                1,
                "{how}: told once: {notices:?}"
            ),
            None => {
                let analysed = run.of_type("analysis");
                assert!(!analysed.is_empty(), "{how}");
                assert!(analysed.iter().all(|a| a["pv"][0] == a["pv"][1]), "{how}");
            }
        }
    }
}

#[test]
fn a_flood_of_info_lines_is_left_out_of_the_trace_and_costs_no_move() {
    let dir = tempfile::tempdir().unwrap();
    let black = format!("{OPENING} --analyze kata --analysis-lines 10000");
    let run = play(dir.path(), &black, OPENING, &[]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(!run.of_type("analysis").is_empty());
    let traced = run.of_type("gtp");
    let info = traced
        .iter()
        .filter(|l| l["line"].as_str().unwrap_or("").starts_with("info move"))
        .count();
    let black_moves = run
        .of_type("move")
        .iter()
        .filter(|m| m["color"] == "B")
        .count();
    assert!(
        info <= 20 * (black_moves + 2),
        "{info} info lines for {black_moves} moves"
    );
    assert!(
        traced.iter().any(|l| l["line"]
            .as_str()
            .unwrap_or("")
            .contains("analysis lines left out")),
        "the trace says how many were left out"
    );
}

#[test]
fn an_answer_without_a_play_line_forfeits_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let black = format!("{OPENING} --analyze kata --analysis-broken no-play");
    let run = play(dir.path(), &black, OPENING, &[]);
    let result = run.result();
    assert_eq!(result["result"], "W+F", "{result}");
    assert!(
        result["reason"].as_str().unwrap().contains("no play line"),
        "{result}"
    );
}
