//! The referee's own CPU per move in real games, measured from outside
//! (DESIGN.md §6: below 0.3 ms, record and journal on).
//!
//! GNU Go at level 0 plays itself through the real `goref` binary, one game
//! per process, headless, with its game folder (journal and record) on disk. Each engine runs under
//! this example as a wrapper that reports the CPU of everything under it
//! (its own and the engine's, `getrusage` in microseconds). goref's total
//! comes from `wait4` on it, which counts every child it reaped: its own
//! CPU is that total minus the wrappers' reports.
//!
//! Three floors are printed beside it. The machine's: a process that sleeps
//! a move's time, then appends and syncs one journal line. And two bare
//! referees' (`bare.rs`), game by game interleaved with goref's on the same
//! seeds: they drive the same engines, reading each answer as GNU Go writes
//! it (in three or four pieces, each a wake), and append and sync one
//! journal line a move, with no rules, clock, record or events. One reads
//! over blocking pipes: the least any durable referee pays with these
//! engines. The other reads over tokio's pipes on a current-thread runtime,
//! as goref's shell does: the least an async referee pays. goref is printed
//! as a multiple of each.
//!
//! ```text
//! cargo build --release && \
//! cargo run --release --example referee_cpu -- [GAMES_9x9] [GAMES_19x19] [-- GOREF_ARGS...]
//! ```
//!
//! With 8 games or more of a size it also fits a line through the games'
//! (moves, CPU): what a game costs to start and stop, and what each move
//! adds.
//!
//! The games run in a temporary folder under `$TMPDIR` (or `/tmp`); put it
//! on the disk you mean to measure. Extra goref arguments after `--` are
//! added to every game (e.g. `--json`).
//!
//! With `GOREF_CPU_BINARY` set to goref binaries (a list like `PATH`), each
//! of them plays every game, game by game interleaved, in place of the one
//! beside the example: builds compared on the same games and the same
//! drift of the machine.
//!
//! With `GOREF_CPU_RINGMASTER` set to a command that runs gomill's
//! `ringmaster` (e.g. `python2.7 /path/to/ringmaster`), the same games are
//! also played by ringmaster, all of a size in one run with its records on,
//! and its own CPU is measured the same way, for comparison.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod bare;
#[path = "../support/mod.rs"]
mod support;

const GNUGO: &str = "/usr/games/gnugo";

/// CPU time in microseconds, user and system, and the times the process
/// went to sleep and was woken (voluntary context switches).
#[derive(Debug, Default, Clone, Copy)]
struct Cpu {
    user: i64,
    system: i64,
    wakes: i64,
}

impl Cpu {
    fn of(usage: &libc::rusage) -> Cpu {
        let us = |t: libc::timeval| t.tv_sec * 1_000_000 + t.tv_usec;
        Cpu {
            user: us(usage.ru_utime),
            system: us(usage.ru_stime),
            wakes: usage.ru_nvcsw,
        }
    }

    fn total(self) -> i64 {
        self.user + self.system
    }

    fn plus(self, other: Cpu) -> Cpu {
        Cpu {
            user: self.user + other.user,
            system: self.system + other.system,
            wakes: self.wakes + other.wakes,
        }
    }

    fn minus(self, other: Cpu) -> Cpu {
        Cpu {
            user: self.user - other.user,
            system: self.system - other.system,
            wakes: self.wakes - other.wakes,
        }
    }
}

/// Runs `command` and waits for it, returning its CPU (the children it
/// waited for included) and whether it exited with status 0.
fn run_measured(command: &mut Command) -> Result<(Cpu, bool), String> {
    let (usage, well) = support::run_and_reap(command)?;
    Ok((Cpu::of(&usage), well))
}

/// `referee_cpu floor FILE PACE_US ROUNDS wait|sync`: a process that does
/// the least a durable referee must do for a move. ROUNDS times it sleeps
/// PACE_US (the engines thinking), and with `sync` it then appends a line
/// the size of a journal event to FILE and syncs it (`fdatasync`).
fn floor(args: &[String]) -> Result<(), String> {
    let [file, pace, rounds, mode] = args else {
        return Err("floor FILE PACE_US ROUNDS wait|sync".into());
    };
    let number = |a: &String| a.parse::<u64>().map_err(|_| format!("not a number: {a}"));
    let pace = Duration::from_micros(number(pace)?);
    let mut journal = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(file)
        .map_err(|e| format!("{file}: {e}"))?;
    let line = format!(
        "{{\"seq\":1,\"type\":\"move\",\"pad\":\"{}\"}}\n",
        "x".repeat(340)
    );
    for _ in 0..number(rounds)? {
        std::thread::sleep(pace);
        if mode == "sync" {
            journal
                .write_all(line.as_bytes())
                .map_err(|e| e.to_string())?;
            journal.sync_data().map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

/// A bare referee's game of `size` with `seed` (`kind` is `bare` or
/// `bare-tokio`): its own CPU and moves.
fn play_bare(me: &Path, kind: &str, dir: &Path, size: u8, seed: u64) -> Result<Game, String> {
    fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    let started = Instant::now();
    let (total, exited_well) = run_measured(
        Command::new(me)
            .arg(kind)
            .arg(dir)
            .args([size.to_string(), seed.to_string()])
            .stdin(Stdio::null()),
    )?;
    if !exited_well {
        return Err(format!("the bare referee failed in {}", dir.display()));
    }
    let engines = engines_cpu(dir)?;
    let moves = fs::read_to_string(dir.join("bare.moves"))
        .map_err(|e| e.to_string())?
        .parse()
        .map_err(|_| "bare.moves is not a number".to_string())?;
    Ok(Game {
        moves,
        own: total.minus(engines),
        wall_s: started.elapsed().as_secs_f64(),
    })
}

/// What this machine charges, in ms of CPU, for a wake after `pace` asleep
/// and for a journal line appended and synced: the floor under any referee
/// that keeps a durable journal, at the pace of these games.
fn machine_floor(me: &Path, dir: &Path, pace: Duration) -> Result<(f64, f64), String> {
    const ROUNDS: u64 = 100;
    fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    let run = |rounds: u64, mode: &str| {
        run_measured(
            Command::new(me)
                .arg("floor")
                .arg(dir.join("floor.jsonl"))
                .args([pace.as_micros().to_string(), rounds.to_string()])
                .arg(mode),
        )
        .map(|(cpu, _)| cpu)
    };
    let start = run(0, "wait")?;
    let waking = run(ROUNDS, "wait")?;
    let syncing = run(ROUNDS, "sync")?;
    let per_round = |cpu: Cpu| cpu.total() as f64 / ROUNDS as f64 / 1000.0;
    Ok((
        per_round(waking.minus(start)),
        per_round(syncing.minus(waking)),
    ))
}

/// The sum of a report's lines, one for each engine run that wrote to it.
fn read_report(path: &Path) -> Result<Cpu, String> {
    if !path.exists() {
        return Err(format!("{}: no engine reported", path.display()));
    }
    let reported = support::engine_cpu::read_reports(path)?;
    Ok(Cpu {
        user: reported.user,
        system: reported.system,
        wakes: reported.wakes,
    })
}

/// What both engines of the game in `dir` used, from their wrappers'
/// reports.
fn engines_cpu(dir: &Path) -> Result<Cpu, String> {
    Ok(read_report(&dir.join("black.cpu"))?.plus(read_report(&dir.join("white.cpu"))?))
}

/// The moves in an SGF record.
fn moves_in(sgf: &str) -> usize {
    sgf.matches(";B[").count() + sgf.matches(";W[").count()
}

struct Game {
    moves: usize,
    own: Cpu,
    wall_s: f64,
}

/// One referee's games of a size, summed.
#[derive(Default)]
struct Tally {
    moves: usize,
    own: Cpu,
    /// Each game's own CPU a move, in ms.
    per_move: Vec<f64>,
    /// Each game's (moves, own CPU in ms), to fit a line through.
    points: Vec<(f64, f64)>,
}

impl Tally {
    fn add(&mut self, game: &Game) {
        let ms = game.own.total() as f64 / 1000.0;
        self.moves += game.moves;
        self.own = self.own.plus(game.own);
        self.per_move.push(ms / game.moves.max(1) as f64);
        self.points.push((game.moves as f64, ms));
    }

    /// `us` microseconds as ms a move.
    fn ms(&self, us: i64) -> f64 {
        us as f64 / self.moves.max(1) as f64 / 1000.0
    }

    fn wakes(&self) -> f64 {
        self.own.wakes as f64 / self.moves.max(1) as f64
    }

    /// (ms a game, ms a move) through the games, with enough of them.
    fn fitted(&self) -> Option<(f64, f64)> {
        (self.points.len() >= MIN_GAMES_TO_FIT)
            .then(|| fit_line(&self.points))
            .flatten()
    }
}

fn play(
    goref: &Path,
    me: &Path,
    dir: &Path,
    size: u8,
    seed: u64,
    extra: &[String],
) -> Result<Game, String> {
    fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    let engine =
        |color: &str, seed: u64| format!("gtp:{}", wrapped_gnugo_line(me, dir, color, seed));
    let folder = dir.join("game");
    let started = Instant::now();
    let (total, exited_well) = run_measured(
        Command::new(goref)
            .args(["play", "--headless", "--rules", "kgs", "--time", "none"])
            .args(["--size", &size.to_string()])
            .args(["--black", &engine("black", seed)])
            .args(["--white", &engine("white", seed + 1000)])
            .arg("--game-dir")
            .arg(&folder)
            .args(extra)
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null()),
    )?;
    let wall_s = started.elapsed().as_secs_f64();
    if !exited_well {
        return Err(format!("goref failed in {}", dir.display()));
    }
    let engines = engines_cpu(dir)?;
    let record = fs::read_to_string(folder.join("game.sgf")).map_err(|e| e.to_string())?;
    Ok(Game {
        moves: moves_in(&record),
        own: total.minus(engines),
        wall_s,
    })
}

/// GNU Go as every referee here runs it, seeded, under this example's
/// wrapper that reports its CPU to `report`: the arguments after this
/// example's own path. The bare referees and goref play the same games
/// only while they all take it from here.
fn wrapped_gnugo(report: &Path, seed: u64) -> Vec<String> {
    let mut args = vec!["wrap".to_string(), report.display().to_string()];
    args.extend([GNUGO, "--mode", "gtp", "--level", "0", "--seed"].map(String::from));
    args.push(seed.to_string());
    args
}

/// [`wrapped_gnugo`] for `color`, reporting to `DIR/COLOR.cpu`, as one
/// command line.
fn wrapped_gnugo_line(me: &Path, dir: &Path, color: &str, seed: u64) -> String {
    let report = dir.join(format!("{color}.cpu"));
    format!(
        "{} {}",
        me.display(),
        wrapped_gnugo(&report, seed).join(" ")
    )
}

/// gomill's ringmaster playing `n` games of GNU Go against itself on
/// `size`, in one run with its records on: its own CPU per move.
fn ringmaster(command: &str, me: &Path, dir: &Path, size: u8, n: u64) -> Result<Game, String> {
    fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    let engine =
        |color: &str, seed: u64| format!("Player('{}')", wrapped_gnugo_line(me, dir, color, seed));
    let control = format!(
        "competition_type = 'playoff'\nboard_size = {size}\nkomi = 7.5\nrecord_games = True\n\
         players = {{'b': {}, 'w': {}}}\n\
         matchups = [Matchup('b', 'w', alternating=False, number_of_games={n})]\n",
        engine("black", 1),
        engine("white", 1001)
    );
    let ctl = dir.join("cpu.ctl");
    fs::write(&ctl, control).map_err(|e| e.to_string())?;
    let mut words = command.split_whitespace();
    let program = words.next().ok_or("GOREF_CPU_RINGMASTER is empty")?;
    let started = Instant::now();
    let (total, exited_well) = run_measured(
        Command::new(program)
            .args(words)
            .arg(&ctl)
            .args(["run", "--quiet"])
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null()),
    )?;
    if !exited_well {
        return Err(format!("ringmaster failed in {}", dir.display()));
    }
    let engines = engines_cpu(dir)?;
    let games = dir.join("cpu.games");
    let mut moves = 0;
    for entry in fs::read_dir(&games).map_err(|e| format!("{}: {e}", games.display()))? {
        let path = entry.map_err(|e| e.to_string())?.path();
        moves += moves_in(&fs::read_to_string(path).map_err(|e| e.to_string())?);
    }
    Ok(Game {
        moves,
        own: total.minus(engines),
        wall_s: started.elapsed().as_secs_f64(),
    })
}

/// The fewest games whose lengths say apart what a game and a move cost.
const MIN_GAMES_TO_FIT: usize = 8;

/// The least-squares line through `(moves, ms)` points: its intercept (the
/// CPU of a game before and after its moves) and its slope (the CPU of a
/// move). `None` when the games do not differ in length.
fn fit_line(points: &[(f64, f64)]) -> Option<(f64, f64)> {
    let n = points.len() as f64;
    let mean_x = points.iter().map(|p| p.0).sum::<f64>() / n;
    let mean_y = points.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = points.iter().map(|p| (p.0 - mean_x).powi(2)).sum();
    let sxy: f64 = points.iter().map(|p| (p.0 - mean_x) * (p.1 - mean_y)).sum();
    (sxx > 0.0).then(|| {
        let slope = sxy / sxx;
        (mean_y - slope * mean_x, slope)
    })
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("wrap") => return support::engine_cpu::wrap(&args[1..]),
        Some("floor") => return floor(&args[1..]),
        Some("bare") => return bare::blocking(&args[1..]),
        Some("bare-tokio") => return bare::on_tokio(&args[1..]),
        _ => {}
    }
    let (counts, extra) = match args.iter().position(|a| a == "--") {
        Some(at) => (&args[..at], &args[at + 1..]),
        None => (&args[..], &[][..]),
    };
    let count = |n: usize, default: u64| -> Result<u64, String> {
        counts.get(n).map_or(Ok(default), |a| {
            a.parse().map_err(|_| format!("not a number: {a}"))
        })
    };
    let games = [(9u8, count(0, 10)?), (19u8, count(1, 4)?)];
    let me = std::env::current_exe().map_err(|e| e.to_string())?;
    let gorefs: Vec<PathBuf> = match std::env::var_os("GOREF_CPU_BINARY") {
        Some(list) => std::env::split_paths(&list)
            .map(|p| {
                p.canonicalize()
                    .map_err(|e| format!("{}: {e}", p.display()))
            })
            .collect::<Result<_, _>>()?,
        None => vec![support::goref_beside()?],
    };
    if !Path::new(GNUGO).exists() {
        return Err(format!("{GNUGO} is missing: apt-get install gnugo"));
    }
    let root = std::env::temp_dir().join(format!("referee_cpu.{}", std::process::id()));
    for goref in &gorefs {
        let (floor, _) = run_measured(Command::new(goref).arg("--version").stdout(Stdio::null()))?;
        println!(
            "goref {} {}; start-up floor (`goref --version`): {:.2} ms CPU",
            goref.display(),
            extra.join(" "),
            floor.total() as f64 / 1000.0
        );
    }
    for (size, n) in games {
        if n == 0 {
            continue;
        }
        let mut runs: Vec<(Tally, f64)> = gorefs.iter().map(|_| (Tally::default(), 0.0)).collect();
        let mut bares = [("bare", Tally::default()), ("bare-tokio", Tally::default())];
        for game in 0..n {
            for (kind, tally) in &mut bares {
                let dir = root.join(format!("{kind}-{size}x{size}-{game}"));
                tally.add(&play_bare(&me, kind, &dir, size, 1 + game)?);
            }
            for (which, (goref, (tally, wall))) in gorefs.iter().zip(&mut runs).enumerate() {
                let dir: PathBuf = root.join(format!("{size}x{size}-{game}-{which}"));
                let played = play(goref, &me, &dir, size, 1 + game, extra)?;
                tally.add(&played);
                *wall += played.wall_s;
            }
        }
        let pace = Duration::from_secs_f64(runs[0].1 / runs[0].0.moves.max(1) as f64);
        let (wake, append) = machine_floor(&me, &root.join(format!("floor-{size}")), pace)?;
        println!(
            "{size}x{size}: this machine at one move every {:.1} ms: a wake costs {wake:.3} ms, \
             a journal line appended and synced {append:.3} ms; floor {:.3} ms a move",
            pace.as_secs_f64() * 1000.0,
            wake + append,
        );
        for (kind, bare) in &bares {
            let name = match *kind {
                "bare" => "the bare referee (blocking pipes)",
                _ => "the bare referee on tokio",
            };
            println!(
                "{size}x{size}: {name} on the same seeds, {} moves: {:.3} ms/move \
                 (user {:.3}, system {:.3}); {:.1} wakes a move{}",
                bare.moves,
                bare.ms(bare.own.total()),
                bare.ms(bare.own.user),
                bare.ms(bare.own.system),
                bare.wakes(),
                bare.fitted()
                    .map_or(String::new(), |(per_game, per_move)| format!(
                        "; fitted {per_game:.2} ms a game and {per_move:.3} ms a move"
                    )),
            );
        }
        for (goref, (mut tally, wall)) in gorefs.iter().zip(runs) {
            let label = if gorefs.len() > 1 {
                format!(" ({})", goref.display())
            } else {
                String::new()
            };
            let per_move = tally.ms(tally.own.total());
            println!(
                "{size}x{size}: {n} games, {} moves, {wall:.1} s: goref's own CPU{label} {per_move:.3} \
                 ms/move (user {:.3}, system {:.3}; median game {:.3}); {:.1} wakes a move; \
                 {:.3} above the floor",
                tally.moves,
                tally.ms(tally.own.user),
                tally.ms(tally.own.system),
                median(&mut tally.per_move),
                tally.wakes(),
                per_move - wake - append,
            );
            let fitted = tally.fitted();
            if let Some((per_game, per_move)) = fitted {
                println!(
                    "{size}x{size}: goref{label} fitted over the games, {per_game:.2} ms a game \
                     to start and stop and {per_move:.3} ms a move"
                );
            }
            for (kind, bare) in &bares {
                let fitted_ratio = match (fitted, bare.fitted()) {
                    (Some((_, goref_move)), Some((_, bare_move))) => {
                        format!(", {:.2}x by the fitted lines", goref_move / bare_move)
                    }
                    _ => String::new(),
                };
                println!(
                    "{size}x{size}: goref{label} {:.2}x {kind} by the totals{fitted_ratio}",
                    per_move / bare.ms(bare.own.total()),
                );
            }
        }
        if let Ok(command) = std::env::var("GOREF_CPU_RINGMASTER") {
            let dir = root.join(format!("ringmaster-{size}x{size}"));
            let game = ringmaster(&command, &me, &dir, size, n)?;
            let ms = |us: i64| us as f64 / game.moves.max(1) as f64 / 1000.0;
            println!(
                "{size}x{size}: ringmaster, {n} games in one run, {} moves, {:.1} s: its own CPU \
                 {:.3} ms/move (user {:.3}, system {:.3})",
                game.moves,
                game.wall_s,
                ms(game.own.total()),
                ms(game.own.user),
                ms(game.own.system),
            );
        }
    }
    let _ = fs::remove_dir_all(&root);
    Ok(())
}
