//! The referee's own CPU a move with the engines' analysis asked for,
//! against the same games with it off (issue 46's budget: under 0.05 ms
//! more a move, at one `info` line each 100 ms per engine).
//!
//! The scripted fake engine plays both sides on 9x9, KataGo's format, each
//! move thought for `THINK_MS` (100) with an `info` line each 100 ms, the
//! same scripted moves each game; goref asks with `--analysis-interval
//! 100ms`, or with `--no-analysis` plain `genmove`. Games alternate, on and
//! off. Each engine runs under `referee_cpu wrap`, which reports the CPU of
//! everything under it; goref's own CPU is `wait4`'s total less those.
//!
//! ```text
//! cargo build --profile quick-release --bin goref --examples && \
//! cargo run --profile quick-release --example analysis_cpu -- [GAMES] [THINK_MS]
//! ```
//!
//! Defaults: 4 games each way, 100 ms a move.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

mod support;

/// The budget: analysis on may cost at most this much more a move.
const BUDGET_MS: f64 = 0.05;

/// Scripted moves for one side: every point of `columns`, row by row.
fn moves(columns: &str) -> String {
    (1..=9)
        .flat_map(|row| columns.chars().map(move |c| format!("{c}{row}")))
        .collect::<Vec<_>>()
        .join(",")
}

/// One game: goref's own CPU in µs and the moves played.
fn play(
    goref: &Path,
    wrapper: &Path,
    fake: &Path,
    dir: &Path,
    think_ms: u64,
    analysis: bool,
) -> Result<(i64, usize), String> {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    let cpu = dir.join("cpu");
    std::fs::create_dir_all(&cpu).map_err(|e| e.to_string())?;
    let lines = (think_ms / 100).max(1);
    let engine = |color: &str, columns: &str| {
        format!(
            "gtp:{} wrap {} {} --board --moves {} --analyze kata --winrate 0.6 \
             --analysis-lines {lines} --think-ms {think_ms}",
            wrapper.display(),
            cpu.join(color).display(),
            fake.display(),
            moves(columns)
        )
    };
    let game = dir.join("game");
    let mut command = Command::new(goref);
    command
        .args(["play", "--headless", "--size", "9", "--game-dir"])
        .arg(&game)
        .args([
            "--black",
            &engine("black", "ABCD"),
            "--white",
            &engine("white", "JHGF"),
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    match analysis {
        true => command.args(["--analysis-interval", "100ms"]),
        false => command.arg("--no-analysis"),
    };
    let (usage, _) = support::run_and_reap(&mut command)?;
    let us = |t: libc::timeval| t.tv_sec * 1_000_000 + t.tv_usec;
    let total = us(usage.ru_utime) + us(usage.ru_stime);
    let engines = support::engine_cpu::read_reports(&cpu)?;
    let journal = std::fs::read_to_string(game.join("journal.jsonl")).map_err(|e| e.to_string())?;
    let moves = journal.matches("\"type\":\"move\"").count();
    let analysed = journal.matches("\"type\":\"analysis\"").count();
    if analysis && analysed * 2 < moves {
        return Err(format!(
            "only {analysed} of {moves} moves analysed in {}",
            dir.display()
        ));
    }
    Ok((total - engines.total(), moves))
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: usize = args
        .first()
        .map_or(Ok(4), |a| a.parse())
        .map_err(|_| "GAMES: a number")?;
    let think_ms: u64 = args
        .get(1)
        .map_or(Ok(100), |a| a.parse())
        .map_err(|_| "THINK_MS: a number")?;
    let goref = support::goref_beside()?;
    let examples: PathBuf = std::env::current_exe()
        .map_err(|e| e.to_string())?
        .parent()
        .ok_or("no examples folder")?
        .to_path_buf();
    let (wrapper, fake) = (examples.join("referee_cpu"), examples.join("fake_gtp"));
    if !wrapper.exists() || !fake.exists() {
        return Err("build the examples first: cargo build --examples".into());
    }
    let root = std::env::temp_dir().join(format!("analysis_cpu.{}", std::process::id()));
    let mut sums = [(0i64, 0usize); 2];
    for game in 0..games * 2 {
        let analysis = game % 2 == 0;
        let dir = root.join(format!("game-{game}"));
        let (us, moves) = play(&goref, &wrapper, &fake, &dir, think_ms, analysis)?;
        let sum = &mut sums[usize::from(analysis)];
        sum.0 += us;
        sum.1 += moves;
    }
    let per_move = |(us, moves): (i64, usize)| us as f64 / 1000.0 / moves.max(1) as f64;
    let (off, on) = (per_move(sums[0]), per_move(sums[1]));
    println!(
        "{games} games each way, {think_ms} ms a move, an info line each 100 ms: referee CPU \
         {off:.3} ms a move without analysis, {on:.3} ms with ({} moves each way)",
        sums[0].1
    );
    let more = on - off;
    let verdict = if more < BUDGET_MS { "ok" } else { "over" };
    println!("analysis costs {more:+.3} ms a move (budget < {BUDGET_MS} ms): {verdict}");
    let _ = std::fs::remove_dir_all(&root);
    Ok(())
}
