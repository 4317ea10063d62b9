//! A match under load (issue 45's budget): 32 boards at once of engines
//! that answer in 20-100 ms under a `fischer:10s,0.1s` clock on two cores:
//! no game lost on time for a reason of the referee's (every time loss in
//! the folders is the engine's own thinking), and each board's referee CPU
//! per move within 1.2x of one board alone.
//!
//! Two runs of `goref match DIR --headless` on 9x9 (kgs rules, the empty
//! board), the built-in engine as a GTP program on both sides: the
//! candidate `goref bot --think-ms 20`, its opponent `goref bot --think-ms
//! 100`. Run A plays PAIRS_ALONE pairs one board at a time; run B plays
//! PAIRS_LOADED pairs BOARDS at once. Every engine runs under `referee_cpu
//! wrap`, which reports the CPU of everything under it; the run's total
//! comes from `wait4` on `goref match` (the runner and every game's goref,
//! which reaped their children): the referees' CPU is that total minus the
//! engines' reports. It includes the match runner's own process (its
//! engine check before the first game, its figures after each game, the
//! report), as is: a one-off cost that weighs more on run A's fewer moves.
//!
//! From every game's journal: its moves, its result, and for each move the
//! time charged less the mover's think time, the referee's (and the
//! machine's) share of the charge. A time loss is the engine's own when its
//! think time alone overruns the clock it had.
//!
//! ```text
//! cargo build --profile quick-release --examples && \
//! cargo run --profile quick-release --example match_load -- [BOARDS] [PAIRS_ALONE] [PAIRS_LOADED]
//! ```
//!
//! It needs the `referee_cpu` example and goref built beside it (hence
//! `--examples`). Defaults: 32 boards, 2 pairs alone, 32 pairs loaded. The
//! folders go under `$TMPDIR` (or `/tmp`) and are kept when a game lacks
//! its result. It fails when a match fails or a game folder has no result.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use goref::journal::folder::JOURNAL;
use goref::match_play::file::MATCH_FILE;
use goref::match_play::games::GamesFolder;
use serde_json::Value;

mod support;

/// The clock: its main time and increment, and its spec.
const MAIN_MS: i64 = 10_000;
const INCREMENT_MS: i64 = 100;
const TIME: &str = "fischer:10s,0.1s";
/// The engines' think times: the candidate's and its opponent's.
const CANDIDATE_THINK_MS: u64 = 20;
const OPPONENT_THINK_MS: u64 = 100;
/// Loaded per-move referee CPU over alone, at most.
const BUDGET_RATIO: f64 = 1.2;

/// CPU in microseconds of a process and the children it reaped.
fn run_measured(command: &mut Command) -> Result<(i64, bool), String> {
    let (usage, well) = support::run_and_reap(command)?;
    let us = |t: libc::timeval| t.tv_sec * 1_000_000 + t.tv_usec;
    Ok((us(usage.ru_utime) + us(usage.ru_stime), well))
}

/// The think time in a player's spec: the number after `--think-ms`.
fn think_ms(spec: &str) -> Option<i64> {
    let words: Vec<&str> = spec.split_whitespace().collect();
    words
        .windows(2)
        .find(|w| w[0] == "--think-ms")
        .and_then(|w| w[1].parse().ok())
}

/// One run's figures, from its measure and its folders.
#[derive(Default)]
struct Run {
    games: usize,
    moves: usize,
    wall_s: f64,
    referees_us: i64,
    engines_us: i64,
    reports: usize,
    /// Each thought move's charge less the mover's think time, in ms.
    shares: Vec<i64>,
    /// Each move's `referee_us`, where the journal has it.
    referee_us: Vec<i64>,
    /// The games' `end` codes, counted.
    ends: BTreeMap<String, usize>,
    /// A line for each time loss, and whether the engine's thinking explains it.
    time_losses: Vec<(String, bool)>,
    /// Game folders with no result.
    missing: Vec<String>,
}

impl Run {
    /// Reads one game folder's journal into the figures.
    fn add_game(&mut self, dir: &Path) -> Result<(), String> {
        let name = dir
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned());
        let path = dir.join(JOURNAL);
        let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let events: Vec<Value> = text
            .lines()
            .filter(|line| line.ends_with('}'))
            .filter_map(|line| serde_json::from_str(line).ok())
            .collect();
        self.games += 1;
        let start = events.iter().find(|e| e["type"] == "game_start");
        let think_of = |colour: &str| {
            start
                .and_then(|s| s[colour]["spec"].as_str())
                .and_then(think_ms)
                .ok_or_else(|| format!("{name}: no --think-ms in the {colour} player's spec"))
        };
        let thinks = [("B", think_of("black")?), ("W", think_of("white")?)];
        // Per colour: moves thought, and the ms charged for them.
        let mut per_colour: BTreeMap<&str, (i64, i64)> = BTreeMap::new();
        for event in events.iter().filter(|e| e["type"] == "move") {
            self.moves += 1;
            if event["opening"] == true {
                continue;
            }
            let Some(&(colour, think)) = thinks.iter().find(|(c, _)| event["color"] == *c) else {
                return Err(format!("{name}: a move of no colour: {event}"));
            };
            let charged = event["ms"]
                .as_i64()
                .ok_or_else(|| format!("{name}: a move with no ms: {event}"))?;
            self.shares.push(charged - think);
            if let Some(us) = event["referee_us"].as_i64() {
                self.referee_us.push(us);
            }
            let tally = per_colour.entry(colour).or_default();
            tally.0 += 1;
            tally.1 += charged;
        }
        let Some(result) = events.iter().rev().find(|e| e["type"] == "result") else {
            self.missing.push(name);
            return Ok(());
        };
        let field = |key: &str| result[key].as_str().unwrap_or("").to_string();
        let (said, end, reason) = (field("result"), field("end"), field("reason"));
        *self.ends.entry(end.clone()).or_default() += 1;
        if end != "time" {
            return Ok(());
        }
        let loser = match said.chars().next() {
            Some('B') => "W",
            Some('W') => "B",
            _ => "?",
        };
        let think = thinks.iter().find(|(c, _)| *c == loser).map_or(0, |t| t.1);
        let (moves, charged) = per_colour.get(loser).copied().unwrap_or_default();
        // Its own thinking: every move it made and the one it flagged on;
        // what it had: the main time and an increment for each move made.
        let needed = (moves + 1) * think;
        let had = MAIN_MS + moves * INCREMENT_MS;
        let own = loser != "?" && needed > had;
        self.time_losses.push((
            format!(
                "{name}: {said} ({reason}); {loser} ({think} ms a move) made {moves} moves: \
                 its thinking {needed} ms of the {had} ms it had; charged {charged} ms, \
                 {} ms beyond its thinking: {}",
                charged - moves * think,
                if own {
                    "the engine's own"
                } else {
                    "NOT the engine's thinking"
                }
            ),
            own,
        ));
        Ok(())
    }

    fn per_move_ms(&self, us: i64) -> f64 {
        us as f64 / self.moves.max(1) as f64 / 1000.0
    }
}

/// The median, 99th percentile and maximum of `values`, as a phrase.
fn spread(values: &mut [i64], unit: &str) -> String {
    if values.is_empty() {
        return "no moves".into();
    }
    values.sort_unstable();
    let at = |q: f64| values[((values.len() - 1) as f64 * q).round() as usize];
    format!(
        "median {} {unit}, p99 {} {unit}, max {} {unit} over {} moves",
        at(0.5),
        at(0.99),
        at(1.0),
        values.len()
    )
}

/// Writes the match folder, plays it under `wait4` and reads its games.
fn play_match(
    goref: &Path,
    wrapper: &Path,
    run_dir: &Path,
    boards: u64,
    pairs: u64,
) -> Result<Run, String> {
    let (dir, cpu) = (run_dir.join("match"), run_dir.join("cpu"));
    fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    fs::create_dir_all(&cpu).map_err(|e| format!("{}: {e}", cpu.display()))?;
    let engine = |who: &str, think: u64| {
        format!(
            "[[engine]]\nname = \"think{think}\"\nplayer = \"gtp:{} wrap {} {} bot --think-ms {think}\"\n",
            wrapper.display(),
            cpu.join(format!("{who}.cpu")).display(),
            goref.display()
        )
    };
    let text = format!(
        "name = \"match_load {boards} boards\"\nboards = {boards}\nseed = 1\n\
         [game]\nrules = \"kgs\"\nsize = 9\nkomi = 7.5\ntime = \"{TIME}\"\n{}{}\
         [openings]\nsource = \"random:0\"\n[stop]\npairs = {pairs}\n",
        engine("candidate", CANDIDATE_THINK_MS),
        engine("opponent", OPPONENT_THINK_MS)
    );
    fs::write(dir.join(MATCH_FILE), text).map_err(|e| e.to_string())?;
    let log_path = run_dir.join("match.log");
    let log = fs::File::create(&log_path).map_err(|e| format!("{}: {e}", log_path.display()))?;
    let started = Instant::now();
    let (total, well) = run_measured(
        Command::new(goref)
            .arg("match")
            .arg(&dir)
            .arg("--headless")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log),
    )?;
    let wall_s = started.elapsed().as_secs_f64();
    if !well {
        let said = fs::read_to_string(&log_path).unwrap_or_default();
        let tail: Vec<&str> = said.lines().rev().take(5).collect();
        return Err(format!(
            "the match in {} failed (log {}): {}",
            dir.display(),
            log_path.display(),
            tail.into_iter().rev().collect::<Vec<_>>().join(" | ")
        ));
    }
    let engines = support::engine_cpu::read_reports(&cpu)?;
    let (engines_us, reports) = (engines.total(), engines.reports);
    let mut run = Run {
        wall_s,
        referees_us: total - engines_us,
        engines_us,
        reports,
        ..Run::default()
    };
    let games = GamesFolder::of(&dir).path().to_path_buf();
    let mut folders: Vec<PathBuf> = fs::read_dir(&games)
        .map_err(|e| format!("{}: {e}", games.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.is_dir())
        .collect();
    folders.sort();
    for folder in &folders {
        run.add_game(folder)?;
    }
    Ok(run)
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |n: usize, default: u64| -> Result<u64, String> {
        match args.get(n).map(|a| (a, a.parse::<u64>())) {
            None => Ok(default),
            Some((_, Ok(value))) if value > 0 => Ok(value),
            Some((a, _)) => Err(format!("not a number above 0: {a}")),
        }
    };
    let (boards, pairs_alone, pairs_loaded) = (number(0, 32)?, number(1, 2)?, number(2, 32)?);
    let goref = support::goref_beside()?;
    let me = std::env::current_exe().map_err(|e| e.to_string())?;
    let wrapper = me
        .parent()
        .map(|examples| examples.join("referee_cpu"))
        .filter(|p| p.exists())
        .ok_or("no referee_cpu example beside this one: build with --examples")?;
    let root = std::env::temp_dir().join(format!("match_load.{}", std::process::id()));
    let mut alone: Option<f64> = None;
    let mut missing = Vec::new();
    for (label, boards, pairs) in [
        ("A (alone)", 1, pairs_alone),
        ("B (loaded)", boards, pairs_loaded),
    ] {
        let run_dir = root.join(format!("{}-{boards}-boards", &label[..1]));
        let mut run = play_match(&goref, &wrapper, &run_dir, boards, pairs)?;
        let per_move = run.per_move_ms(run.referees_us);
        println!(
            "{label}: {boards} board(s), {pairs} pairs: {} games, {} moves in {:.1} s; \
             referees' CPU {per_move:.3} ms a move a board (goref match and every game's goref); \
             engines {:.3} ms a move ({} engine reports)",
            run.games,
            run.moves,
            run.wall_s,
            run.per_move_ms(run.engines_us),
            run.reports,
        );
        if let Some(one) = alone {
            let ratio = per_move / one;
            println!(
                "B/A: {ratio:.2}x one board alone (budget {BUDGET_RATIO}x): {}",
                if ratio <= BUDGET_RATIO { "ok" } else { "OVER" }
            );
        }
        alone.get_or_insert(per_move);
        let ends: Vec<String> = run
            .ends
            .iter()
            .map(|(end, n)| format!("{end} {n}"))
            .collect();
        println!("{label}: ends: {}", ends.join(", "));
        let not_own = run.time_losses.iter().filter(|(_, own)| !own).count();
        println!(
            "{label}: {} game(s) lost on time, {not_own} not by the engine's own thinking \
             (budget 0): {}",
            run.time_losses.len(),
            if not_own == 0 { "ok" } else { "OVER" }
        );
        for (line, _) in &run.time_losses {
            println!("  {line}");
        }
        println!(
            "{label}: charged less think time, a move: {}",
            spread(&mut run.shares, "ms")
        );
        if !run.referee_us.is_empty() {
            println!(
                "{label}: the referee's own share (referee_us), a move: {}",
                spread(&mut run.referee_us, "us")
            );
        }
        missing.extend(run.missing.iter().map(|name| format!("{label} {name}")));
    }
    if !missing.is_empty() {
        return Err(format!(
            "{} game folder(s) with no result, kept under {}: {}",
            missing.len(),
            root.display(),
            missing.join(", ")
        ));
    }
    let _ = fs::remove_dir_all(&root);
    Ok(())
}
