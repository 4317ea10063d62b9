//! What the programs think: real processes asked their moves with their
//! analysis (`*-genmove_analyze`), through the real binary. The fake
//! engine speaks KataGo's, Leela Zero's and CGOS's formats and their
//! broken cases; the analysis reaches the stream, the journal and the SGF,
//! and never costs a move.

use crate::common;

use std::path::Path;
use std::time::Duration;

use common::{fake, journal, run_goref, Run};
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

/// The record's main line as sgfmill (the Python SGF library) reads it: a
/// JSON object a node, with its `SBKV`, `SBKS` and comment `C`.
fn sgfmill_nodes(path: &Path) -> Vec<Value> {
    const READ: &str = r#"
import json, sys
from sgfmill import sgf
game = sgf.Sgf_game.from_bytes(open(sys.argv[1], "rb").read())
for node in game.get_main_sequence():
    out = {}
    for prop in ("SBKV", "SBKS"):
        if node.has_property(prop):
            out[prop] = node.get_raw(prop).decode()
    if node.has_property("C"):
        out["C"] = node.get("C")
    print(json.dumps(out))
"#;
    let output = std::process::Command::new("python3")
        .args(["-c", READ])
        .arg(path)
        .output()
        .expect("python3 runs");
    assert!(
        output.status.success(),
        "sgfmill cannot read {} (is it installed? tests/run.sh installs it): {}",
        path.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
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
    assert_eq!(
        info_lines, 0,
        "readable info lines are the analysis events, not trace"
    );
    let folder = dir.path().join("game");
    let journaled = journal(&folder)
        .into_iter()
        .filter(|e| e["type"] == "analysis")
        .count();
    assert_eq!(journaled, analysed.len());
    let nodes = sgfmill_nodes(&folder.join("game.sgf"));
    assert_eq!(nodes[0]["SBKV"], "70.00", "Black's first move, on the root");
    assert_eq!(nodes[0]["SBKS"], "4.00");
    assert_eq!(nodes[1]["SBKV"], "40.00", "White's first move, on Black's");
    let comment = nodes[1]["C"].as_str().unwrap();
    assert!(
        comment.contains("Black's program: 70.0% to win"),
        "{comment}"
    );
    let commented = nodes
        .iter()
        .filter(|n| n["C"].as_str().is_some_and(|c| c.contains("program:")));
    assert_eq!(
        commented.count(),
        analysed.len(),
        "a comment on every analysed move"
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
            Some(text) => {
                assert_eq!(
                    notices.iter().filter(|n| n.contains(text)).count(),
                    1,
                    "{how}: told once: {notices:?}"
                );
                let kept = run.of_type("gtp").into_iter().filter(|l| {
                    l["line"]
                        .as_str()
                        .unwrap_or("")
                        .contains("visits many winrate high")
                });
                assert!(
                    kept.count() > 1,
                    "{how}: the unreadable lines are in the trace"
                );
            }
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
            .contains("analysis lines passed over")),
        "the trace says how many were passed over"
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

use common::leela_network::{random_network, LEELAZ};

/// Leela Zero (Black, `flags` after its network and `--gtp`) against GNU Go
/// level 0 on 19x19, stopped at move `stop_at`: the run and the folder.
fn leela_zero_game(dir: &Path, flags: &str, stop_at: u32) -> (Run, std::path::PathBuf) {
    if !Path::new(LEELAZ).exists() {
        panic!("Leela Zero is not installed: run the tests with tests/run.sh, which installs it");
    }
    let network = dir.join("tiny.txt");
    random_network(&network).unwrap();
    let black = format!(
        "gtp:{LEELAZ} -w {} --gtp {flags} -t 1 --seed 7 --cpu-only -r 0 -q",
        network.display()
    );
    let white = format!("gtp:{} --mode gtp --level 0", common::gnugo());
    let game = dir.join("game");
    let stop_at = stop_at.to_string();
    let run = run_goref(
        &[
            "play",
            "--headless",
            "--json",
            "--size",
            "19",
            "--black",
            &black,
            "--white",
            &white,
            "--stop-at",
            &stop_at,
            "--analysis-interval",
            "10ms",
            "--game-dir",
            game.to_str().unwrap(),
        ],
        Duration::from_secs(120),
    );
    (run, game)
}

#[test]
fn leela_zero_against_gnu_go_shows_each_of_its_moves_winrate_and_variation() {
    let dir = tempfile::tempdir().unwrap();
    let (run, game) = leela_zero_game(dir.path(), "--noponder -p 30", 24);
    let events = run.events();
    let black_moves = run
        .of_type("move")
        .iter()
        .filter(|m| m["color"] == "B")
        .count();
    assert!(black_moves >= 10, "{}", run.stderr);
    let analysed = analysed_moves(&events);
    assert!(
        analysed.len() + 2 >= black_moves,
        "{} of {black_moves} moves analysed\n{}",
        analysed.len(),
        run.stderr
    );
    for (analysis, played) in &analysed {
        assert_eq!(analysis["color"], "B", "GNU Go gives no analysis");
        assert_eq!(analysis["pv"][0], played["vertex"]);
        let winrate = analysis["winrate"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&winrate), "{analysis}");
        assert!(analysis["visits"].as_u64().unwrap() > 0, "{analysis}");
        assert!(analysis["score_lead"].is_null(), "{analysis}");
    }
    let nodes = sgfmill_nodes(&game.join("game.sgf"));
    assert!(nodes[0]["SBKV"].is_string(), "{nodes:?}");
    let valued = nodes.iter().filter(|n| n["SBKV"].is_string()).count();
    assert_eq!(valued, analysed.len(), "{nodes:?}");
}

#[test]
fn the_hosts_screen_at_80x24_shows_each_programs_winrate_graph_and_variation() {
    let dir = tempfile::tempdir().unwrap();
    let fake = common::fake_gtp().display().to_string();
    let moves = "--moves Q16,D4,Q4,D16,C3,R17,Q10,K10,C10,K4,K16,R3";
    let command = format!(
        "{} play --size 19 --game-dir {} \
         --black 'gtp:{fake} --board {moves} --analyze kata --winrate 0.7 --think-ms 250' \
         --white 'gtp:{fake} --board {moves} --analyze lz --winrate 0.6 --think-ms 250'",
        common::goref().display(),
        dir.path().join("game").display()
    );
    let Some(host) = common::tmux::Tmux::start("analysis-80x24", 80, 24, &command) else {
        return;
    };
    let screen = host.wait_for("a few analysed moves", LIMIT, |screen| {
        screen.contains(" 70%≠") && screen.contains(" 60%≠")
    });
    assert!(screen.contains("winrate"), "the winrate pane:\n{screen}");
    assert!(screen.contains("each thinks it wins"), "{screen}");
    assert!(screen.contains('●') && screen.contains("50┼"), "{screen}");
    host.keys(&["w"]);
    let numbered = host.wait_for("the variation", LIMIT, |screen| {
        screen
            .lines()
            .skip(2)
            .take(19)
            .any(|row| row.chars().skip(4).take(38).any(|c| c == '1'))
    });
    assert!(numbered.lines().count() <= 24);
    host.keys(&["q", "y"]);
}

#[test]
fn leela_zero_pondering_after_its_move_costs_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (run, _) = leela_zero_game(dir.path(), "-v 40", 16);
    let result = run.result();
    assert_eq!(result["end"], "move_limit", "{result}\n{}", run.stderr);
    let analysed = analysed_moves(&run.events());
    assert!(
        analysed.len() >= 7,
        "{} analysed\n{}",
        analysed.len(),
        run.stderr
    );
    let unexpected = run
        .of_type("error")
        .into_iter()
        .filter(|e| e["message"].as_str().unwrap_or("").contains("unexpected"))
        .count();
    assert_eq!(
        unexpected, 0,
        "its pondering lines are dropped, not taken for answers"
    );
}
