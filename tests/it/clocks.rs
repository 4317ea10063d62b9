//! Clocks on real processes: what is charged, and when a player flags.

use crate::common;

use std::time::Duration;

use common::{fake, run_goref};

const LIMIT: Duration = Duration::from_secs(60);

fn game(time: &str, white: &str) -> common::Run {
    let black = fake("--moves C3,C4,C5,pass");
    let run = run_goref(
        &[
            "play", "--json", "--size", "9", "--time", time, "--black", &black, "--white", white,
        ],
        LIMIT,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    run
}

#[test]
fn a_cpu_clock_charges_cpu_time_not_the_wall_clock() {
    let slow_sleeper = fake("--moves G3,G4,G5,pass --think-ms 700");
    let run = game("cpu:1s,1s", &slow_sleeper);
    let result = run.result();
    assert_ne!(result["result"], "B+T", "{result}");
    assert_eq!(run.moves().len(), 8);
    let white_moves: Vec<_> = run
        .of_type("move")
        .into_iter()
        .filter(|m| m["color"] == "W")
        .collect();
    assert!(white_moves.iter().all(|m| m["ms"].as_u64().unwrap() < 300));
}

#[test]
fn the_same_sleeper_loses_on_a_wall_clock() {
    let slow_sleeper = fake("--moves G3,G4,G5,pass --think-ms 1200");
    let run = game("absolute:2s", &slow_sleeper);
    assert_eq!(run.result()["result"], "B+T");
    let white_moves: Vec<_> = run
        .of_type("move")
        .into_iter()
        .filter(|m| m["color"] == "W")
        .collect();
    assert_eq!(white_moves.len(), 1, "its second move takes it past 2 s");
    assert!(white_moves[0]["ms"].as_u64().unwrap() >= 1200);
}

#[test]
fn engines_are_told_their_time_before_each_move() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("white.log");
    let white = fake(&format!("--moves G3,G4,G5,pass --log {}", log.display()));
    game("canadian:10m,5m,25", &white);
    let lines = std::fs::read_to_string(&log).unwrap();
    assert!(lines.contains("time_settings 600 300 25"), "{lines}");
    let told: Vec<&str> = lines
        .lines()
        .filter(|l| l.split_whitespace().any(|w| w == "time_left") && !l.contains("known_command"))
        .collect();
    assert_eq!(told.len(), 4, "{lines}");
    for line in told {
        let words: Vec<&str> = line.split_whitespace().collect();
        let seconds: u64 = words[words.len() - 2].parse().unwrap();
        assert!((590..=600).contains(&seconds), "{line}");
        assert_eq!(words[words.len() - 1], "0", "no stones while in main time");
    }
}
