//! The referees' CPU per move per board when every board of a round plays
//! at once (issue budget: eight boards within 1.2x of one board alone),
//! and how long `goref standings` takes for a 64-entrant, 12-round event
//! (budget: under 50 ms).
//!
//! One round of `goref event DIR --headless --yes` is played with one
//! board, then with BOARDS boards, of GNU Go (`--level 0`) on SIZE. Every
//! engine runs under `referee_cpu wrap`, which reports the CPU of
//! everything under it; the event's total comes from `wait4` on it (the
//! event and every board's goref, which reaped their children): the
//! referees' own CPU is that total minus the engines' reports.
//!
//! ```text
//! cargo build --release --examples && \
//! cargo run --release --example event_cpu -- [BOARDS] [SIZE] [ROUNDS]
//! ```
//!
//! Defaults: 8 boards, 19x19, 1 round a run. The folders go under
//! `$TMPDIR` (or `/tmp`).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use goref::event::log::{EventLine, EventLog, EVENT_LOG};
use goref::event::pairing::propose;
use goref::event::state::EventState;

mod support;

const GNUGO: &str = "/usr/games/gnugo";

/// CPU in microseconds of a process and the children it reaped.
fn run_measured(command: &mut Command) -> Result<(i64, bool), String> {
    let (usage, well) = support::run_and_reap(command)?;
    let us = |t: libc::timeval| t.tv_sec * 1_000_000 + t.tv_usec;
    Ok((us(usage.ru_utime) + us(usage.ru_stime), well))
}

struct Round {
    boards: usize,
    moves: usize,
    referees_us: i64,
    engines_us: i64,
    wall_s: f64,
    time_losses: usize,
}

fn play_round(
    goref: &Path,
    wrapper: &Path,
    root: &Path,
    boards: usize,
    size: u8,
    rounds: u32,
) -> Result<Round, String> {
    let dir = root.join(format!("{boards}-boards"));
    let cpu = dir.join("cpu");
    fs::create_dir_all(&cpu).map_err(|e| e.to_string())?;
    let mut text = format!(
        "name = \"event_cpu\"\nsystem = \"swiss\"\nrounds = {rounds}\ncolours = \"balanced\"\n\
         [game]\nrules = \"kgs\"\nsize = {size}\ntime = \"absolute:60m\"\n"
    );
    for n in 0..2 * boards {
        text.push_str(&format!(
            "[[entrant]]\nname = \"gnugo-{n}\"\nplayer = \"gtp:{} wrap {} {GNUGO} --mode gtp \
             --level 0 --seed {}\"\n",
            wrapper.display(),
            cpu.join(format!("{n}.cpu")).display(),
            n + 1
        ));
    }
    fs::write(dir.join("event.toml"), text).map_err(|e| e.to_string())?;
    let started = Instant::now();
    let (total, well) = run_measured(
        Command::new(goref)
            .arg("event")
            .arg(&dir)
            .args(["--headless", "--yes"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null()),
    )?;
    let wall_s = started.elapsed().as_secs_f64();
    if !well {
        return Err(format!("the event in {} did not finish", dir.display()));
    }
    let engines_us = support::engine_cpu::read_reports(&cpu)?.total();
    let mut moves = 0;
    let mut time_losses = 0;
    let log = fs::read_to_string(dir.join(EVENT_LOG)).map_err(|e| e.to_string())?;
    for line in log.lines() {
        let line: serde_json::Value = serde_json::from_str(line).map_err(|e| e.to_string())?;
        if line["type"] != "board_end" {
            continue;
        }
        if line["end"] == "time" {
            time_losses += 1;
        }
        let record = dir
            .join(line["dir"].as_str().unwrap_or_default())
            .join("game.sgf");
        let sgf = fs::read_to_string(&record).map_err(|e| format!("{}: {e}", record.display()))?;
        moves += sgf.matches(";B[").count() + sgf.matches(";W[").count();
    }
    Ok(Round {
        boards,
        moves,
        referees_us: total - engines_us,
        engines_us,
        wall_s,
        time_losses,
    })
}

/// Builds a 64-entrant, 12-round Swiss in a folder, every game decided by
/// a director's result line, and times `goref standings DIR`.
fn standings_speed(goref: &Path, root: &Path) -> Result<(), String> {
    let dir = root.join("standings-64x12");
    fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let mut text = "name = \"big\"\nsystem = \"swiss\"\nrounds = 12\n".to_string();
    for n in 0..64 {
        text.push_str(&format!("[[entrant]]\nname = \"p{n}\"\nplayer = \"bot\"\n"));
    }
    fs::write(dir.join("event.toml"), &text).map_err(|e| e.to_string())?;
    let file = goref::event::file::load(&dir).map_err(|e| e.to_string())?;
    let (mut log, _) = EventLog::open(&dir.join(EVENT_LOG)).map_err(|e| e.to_string())?;
    let mut lines: Vec<EventLine> = Vec::new();
    let paired = Instant::now();
    for round in 1..=12 {
        let proposal = propose(&file, &EventState::fold(&file, &lines), round);
        let mut new = vec![EventLine::Pairing {
            round,
            boards: proposal.boards.clone(),
            byes: proposal.byes.clone(),
            confirmed_by: "--yes".into(),
        }];
        for (at, pair) in proposal.boards.iter().enumerate() {
            let result = ["B+R", "W+3.5", "0", "W+T"][(at + round as usize) % 4];
            new.push(EventLine::Result {
                round,
                black: pair.black.clone(),
                white: pair.white.clone(),
                result: result.into(),
                reason: "event_cpu".into(),
                replaces: None,
            });
        }
        for line in new {
            log.append(&line).map_err(|e| e.to_string())?;
            lines.push(line);
        }
    }
    let pairing_ms = paired.elapsed().as_secs_f64() * 1000.0;
    let mut times = Vec::new();
    for _ in 0..5 {
        let started = Instant::now();
        let out = Command::new(goref)
            .arg("standings")
            .arg(&dir)
            .output()
            .map_err(|e| e.to_string())?;
        times.push(started.elapsed().as_secs_f64() * 1000.0);
        if !out.status.success() || out.stdout.is_empty() {
            return Err(format!("goref standings failed: {out:?}"));
        }
    }
    times.sort_by(f64::total_cmp);
    let in_process = Instant::now();
    let (file, state) = goref::event::standings(&dir)?;
    let table = state.standings(&file)?;
    let in_process_ms = in_process.elapsed().as_secs_f64() * 1000.0;
    println!(
        "standings of 64 entrants x 12 rounds ({} rows): `goref standings DIR` {:.1} ms \
         (median of 5, process start included), {:.2} ms in process; the 12 pairings took \
         {pairing_ms:.0} ms in all; budget 50 ms",
        table.rows.len(),
        times[2],
        in_process_ms
    );
    Ok(())
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |n: usize, default: u64| -> Result<u64, String> {
        args.get(n).map_or(Ok(default), |a| {
            a.parse().map_err(|_| format!("not a number: {a}"))
        })
    };
    let boards = number(0, 8)? as usize;
    let size = number(1, 19)? as u8;
    let rounds = number(2, 1)? as u32;
    let me = std::env::current_exe().map_err(|e| e.to_string())?;
    let examples = me.parent().ok_or("no examples folder")?;
    let wrapper = examples.join("referee_cpu");
    let goref: PathBuf = examples
        .parent()
        .map(|release| release.join("goref"))
        .filter(|p| p.exists())
        .ok_or("no goref binary beside this example: run `cargo build --release` first")?;
    if !wrapper.exists() {
        return Err("no referee_cpu example: run `cargo build --release --examples`".into());
    }
    if !Path::new(GNUGO).exists() {
        return Err(format!("{GNUGO} is missing: apt-get install gnugo"));
    }
    let root = std::env::temp_dir().join(format!("event_cpu.{}", std::process::id()));
    standings_speed(&goref, &root)?;
    let mut alone = None;
    for n in [1, boards] {
        let round = play_round(&goref, &wrapper, &root, n, size, rounds)?;
        let per_move = round.referees_us as f64 / round.moves.max(1) as f64 / 1000.0;
        let ratio = alone.map(|one: f64| per_move / one);
        alone.get_or_insert(per_move);
        println!(
            "{} board(s) of GNU Go level 0 on {size}x{size}, {rounds} round(s): {} moves in \
             {:.0} s; referees' CPU {:.3} ms a move a board{}; engines {:.1} ms a move; \
             {} time losses",
            round.boards,
            round.moves,
            round.wall_s,
            per_move,
            ratio.map_or(String::new(), |r| format!(
                " ({r:.2}x one board alone; budget 1.2x)"
            )),
            round.engines_us as f64 / round.moves.max(1) as f64 / 1000.0,
            round.time_losses,
        );
    }
    let _ = fs::remove_dir_all(&root);
    Ok(())
}
