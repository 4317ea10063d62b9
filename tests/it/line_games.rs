//! Fifty games over a faulty line: the built-in engine on one end of a pty
//! line (`goref bot --sgmp`), the referee on the other, and the fault relay
//! between them dropping, duplicating, corrupting, splitting and delaying
//! bytes. Every game must end normally with every move recorded exactly
//! once: the engine's own record equals the referee's.
//!
//! Run with `--nocapture` to see packets and resends per game for each
//! fault profile.

use crate::common;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{goref, run_goref, sgf_file_moves, Run};

const GAMES_PER_PROFILE: u64 = 10;
const LIMIT: Duration = Duration::from_secs(120);

/// Starts the relay with two new virtual lines; returns once it is ready.
fn start_relay(dir: &Path, seed: u64, faults: &[&str]) -> Child {
    let ends = [dir.join("referee-end"), dir.join("bot-end")];
    let mut args: Vec<std::ffi::OsString> = vec!["--create-a".into(), ends[0].clone().into()];
    args.extend(["--create-b".into(), ends[1].clone().into()]);
    args.extend(["--seed".into(), seed.to_string().into()]);
    args.extend(faults.iter().map(Into::into));
    common::start_relay(args)
}

fn one_game(dir: &Path, seed: u64, faults: &[&str]) -> Run {
    let mut relay = start_relay(dir, seed, faults);
    let bot_record = dir.join(format!("bot-{seed}.sgf"));
    let referee_record = dir.join(format!("referee-{seed}.sgf"));
    let mut bot = Command::new(goref())
        .args([
            "bot",
            "--size",
            "9",
            "--seed",
            &seed.to_string(),
            "--color",
            "white",
        ])
        .arg("--sgmp")
        .arg(format!(
            "{},resend=300ms,retries=20",
            dir.join("bot-end").display()
        ))
        .arg("--record")
        .arg(&bot_record)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let white = format!(
        "sgmp:{},resend=300ms,retries=20",
        dir.join("referee-end").display()
    );
    let black = format!("bot:{}", seed + 1000);
    let run = run_goref(
        &[
            "play",
            "--json",
            "--rules",
            "cgf",
            "--size",
            "9",
            "--black",
            &black,
            "--white",
            &white,
            "--sgf",
            referee_record.to_str().unwrap(),
        ],
        LIMIT,
    );
    let started = Instant::now();
    while bot.try_wait().unwrap().is_none() && started.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = bot.kill();
    let _ = relay.kill();
    let _ = relay.wait();
    run.assert_status_matches_result();
    let result = run.result();
    let verdict = result["result"].as_str().unwrap();
    assert!(!verdict.ends_with("+F"), "seed {seed} {faults:?}: {result}");
    let refereed = sgf_file_moves(&referee_record, 9);
    assert!(refereed.len() > 20, "seed {seed}: {refereed:?}");
    assert_eq!(
        refereed,
        sgf_file_moves(&bot_record, 9),
        "seed {seed} {faults:?}"
    );
    run
}

fn profile(name: &str, faults: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let (mut packets, mut resends, mut moves) = (0, 0, 0);
    let started = Instant::now();
    for game in 0..GAMES_PER_PROFILE {
        let run = one_game(dir.path(), game + 1, faults);
        let trace = run.of_type("packet");
        packets += trace.len();
        resends += trace
            .iter()
            .filter(|p| p["flags"].as_array().unwrap().iter().any(|f| f == "resend"))
            .count();
        moves += run.moves().len();
    }
    let games = GAMES_PER_PROFILE as f64;
    eprintln!(
        "{name:<22} {games} games: {:.1} moves, {:.1} packets and {:.1} resends a game, {:.1} s a game",
        moves as f64 / games,
        packets as f64 / games,
        resends as f64 / games,
        started.elapsed().as_secs_f64() / games
    );
}

#[test]
fn games_over_a_line_that_drops_bytes() {
    profile("drop 3%", &["--drop", "0.03"]);
}

#[test]
fn games_over_a_line_that_duplicates_bytes() {
    profile("duplicate 5%", &["--duplicate", "0.05"]);
}

#[test]
fn games_over_a_line_that_corrupts_bytes() {
    profile("corrupt 3%", &["--corrupt", "0.03"]);
}

#[test]
fn games_over_a_line_that_splits_bytes() {
    profile("split 20%", &["--split", "0.2"]);
}

#[test]
fn games_over_a_line_that_delays_bytes() {
    profile(
        "delay 10% up to 100ms",
        &["--delay-rate", "0.1", "--delay-ms", "100"],
    );
}

/// A line whose far end never answers: the operator is alarmed after the
/// set number of resends, the referee keeps trying, and the operator can
/// void the game. Prints the time from the first packet to the alarm.
#[test]
fn a_dead_line_raises_the_alarm_and_the_operator_can_void_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let mut relay = start_relay(dir.path(), 1, &["--drop", "1"]);
    let white = format!(
        "sgmp:{},resend=250ms,retries=4",
        dir.path().join("referee-end").display()
    );
    let run = common::run_goref_answering(
        &[
            "play", "--json", "--size", "9", "--black", "bot", "--white", &white,
        ],
        "no acknowledgement after",
        "void the line to White is dead\n",
        LIMIT,
    );
    let _ = relay.kill();
    let _ = relay.wait();
    assert_eq!(run.status, 2, "no game was played: {}", run.stderr);
    let events = run.events();
    let first_packet = events.iter().find(|e| e["type"] == "packet").unwrap();
    assert_eq!(first_packet["meaning"], "NEWGAME");
    let alarm = events
        .iter()
        .find(|e| {
            e["type"] == "error"
                && e["message"]
                    .as_str()
                    .unwrap()
                    .contains("no acknowledgement after 4 resends")
        })
        .expect("an alarm");
    let resends = events
        .iter()
        .filter(|e| e["type"] == "packet" && e["flags"].to_string().contains("resend"))
        .count();
    assert!(resends >= 4, "{resends}");
    let waited = alarm["t_ms"].as_u64().unwrap() - first_packet["t_ms"].as_u64().unwrap();
    eprintln!("dead line: alarm {waited} ms after the first NEWGAME (resend 250 ms, 4 resends)");
    assert!((900..2500).contains(&waited), "{waited} ms");
    assert_eq!(run.result()["result"], "Void");
}
