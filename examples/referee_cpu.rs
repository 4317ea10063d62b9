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
//! Two floors are printed beside it. The machine's: a process that sleeps
//! a move's time, then appends and syncs one journal line. And a bare
//! referee's (`referee_cpu bare`), game by game interleaved with goref's on
//! the same seeds: it drives the same engines over blocking pipes, reading
//! each answer as GNU Go writes it (in three or four pieces, each a wake),
//! and appends and syncs one journal line a move, with no rules, clock,
//! record or events. That is the least any durable referee pays with these
//! engines, and goref is printed as a multiple of it.
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
//! With `GOREF_CPU_RINGMASTER` set to a command that runs gomill's
//! `ringmaster` (e.g. `python2.7 /path/to/ringmaster`), the same games are
//! also played by ringmaster, all of a size in one run with its records on,
//! and its own CPU is measured the same way, for comparison.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

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

fn getrusage(who: libc::c_int) -> Cpu {
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(who, &mut usage) };
    Cpu::of(&usage)
}

/// Runs `command` and waits for it, returning its CPU (the children it
/// waited for included) and whether it exited with status 0.
fn run_measured(command: &mut Command) -> Result<(Cpu, bool), String> {
    let child = command
        .spawn()
        .map_err(|e| format!("cannot start {command:?}: {e}"))?;
    let mut status = 0;
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    if waited != pid {
        return Err(format!("wait4: {}", std::io::Error::last_os_error()));
    }
    let exited_well = libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0;
    Ok((Cpu::of(&usage), exited_well))
}

/// `referee_cpu wrap REPORT CMD ARGS...`: runs the engine and writes the
/// CPU of this wrapper and everything it waited for to REPORT.
fn wrap(args: &[String]) -> Result<(), String> {
    let [report, program, rest @ ..] = args else {
        return Err("wrap REPORT CMD ARGS...".into());
    };
    let status = Command::new(program)
        .args(rest)
        .status()
        .map_err(|e| format!("cannot start {program}: {e}"))?;
    let cpu = getrusage(libc::RUSAGE_SELF).plus(getrusage(libc::RUSAGE_CHILDREN));
    let mut file = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(report)
        .map_err(|e| e.to_string())?;
    file.write_all(format!("{} {} {}\n", cpu.user, cpu.system, cpu.wakes).as_bytes())
        .map_err(|e| e.to_string())?;
    std::process::exit(status.code().unwrap_or(1));
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

/// One GTP engine as the bare referee drives it: blocking pipes, ids.
struct BareEngine {
    child: std::process::Child,
    input: std::process::ChildStdin,
    output: std::io::BufReader<std::process::ChildStdout>,
    next_id: u32,
}

impl BareEngine {
    fn start(me: &Path, report: &Path, seed: u64) -> Result<BareEngine, String> {
        let mut child = Command::new(me)
            .arg("wrap")
            .arg(report)
            .args([
                GNUGO,
                "--mode",
                "gtp",
                "--level",
                "0",
                "--seed",
                &seed.to_string(),
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start {GNUGO}: {e}"))?;
        let input = child.stdin.take().ok_or("no stdin")?;
        let output = std::io::BufReader::new(child.stdout.take().ok_or("no stdout")?);
        Ok(BareEngine {
            child,
            input,
            output,
            next_id: 1,
        })
    }

    /// Sends one command and reads its answer to the blank line that ends
    /// it, each piece as the engine writes it.
    fn ask(&mut self, command: &str) -> Result<String, String> {
        use std::io::BufRead;
        let id = self.next_id;
        self.next_id += 1;
        self.input
            .write_all(format!("{id} {command}\n").as_bytes())
            .map_err(|e| e.to_string())?;
        let mut answer = String::new();
        loop {
            let mut line = String::new();
            if self
                .output
                .read_line(&mut line)
                .map_err(|e| e.to_string())?
                == 0
            {
                return Err(format!("the engine closed its output after '{command}'"));
            }
            if line.trim().is_empty() && !answer.is_empty() {
                break;
            }
            answer.push_str(&line);
        }
        match answer.strip_prefix(&format!("={id}")) {
            Some(rest) => Ok(rest.trim().to_string()),
            None => Err(format!("'{command}' answered '{}'", answer.trim())),
        }
    }

    fn quit(mut self) -> Result<(), String> {
        self.ask("quit")?;
        self.child.wait().map_err(|e| e.to_string())?;
        Ok(())
    }
}

/// `referee_cpu bare DIR SIZE SEED`: the least a durable referee does with
/// GNU Go for the game `play` runs with the same seeds. It sets the engines
/// up, and for each move asks the mover `genmove`, appends a journal line of
/// the move and syncs it (`fdatasync`), and tells the other engine `play`,
/// until two passes or a resignation. No rules, no clock, no record, no
/// events: only the engines' answers, read as they come, and the sync.
fn bare(args: &[String]) -> Result<(), String> {
    let [dir, size, seed] = args else {
        return Err("bare DIR SIZE SEED".into());
    };
    let dir = Path::new(dir);
    let seed: u64 = seed.parse().map_err(|_| format!("not a number: {seed}"))?;
    let me = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut engines = [
        BareEngine::start(&me, &dir.join("black.cpu"), seed)?,
        BareEngine::start(&me, &dir.join("white.cpu"), seed + 1000)?,
    ];
    for engine in &mut engines {
        engine.ask(&format!("boardsize {size}"))?;
        engine.ask("clear_board")?;
        engine.ask("komi 7.5")?;
    }
    let mut journal = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join("bare.jsonl"))
        .map_err(|e| e.to_string())?;
    let (mut moves, mut passes) = (0usize, 0);
    let colours = ["black", "white"];
    while passes < 2 && moves < 1000 {
        let mover = moves % 2;
        let vertex = engines[mover].ask(&format!("genmove {}", colours[mover]))?;
        moves += 1;
        journal
            .write_all(
                format!(
                    "{{\"seq\":{moves},\"type\":\"move\",\"colour\":\"{}\",\"vertex\":\"{vertex}\"}}\n",
                    colours[mover]
                )
                .as_bytes(),
            )
            .map_err(|e| e.to_string())?;
        journal.sync_data().map_err(|e| e.to_string())?;
        if vertex.eq_ignore_ascii_case("resign") {
            break;
        }
        passes = if vertex.eq_ignore_ascii_case("pass") {
            passes + 1
        } else {
            0
        };
        engines[1 - mover].ask(&format!("play {} {vertex}", colours[mover]))?;
    }
    for engine in engines {
        engine.quit()?;
    }
    fs::write(dir.join("bare.moves"), moves.to_string()).map_err(|e| e.to_string())
}

/// The bare referee's game of `size` with `seed`: its own CPU and moves.
fn play_bare(me: &Path, dir: &Path, size: u8, seed: u64) -> Result<Game, String> {
    fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    let started = Instant::now();
    let (total, exited_well) = run_measured(
        Command::new(me)
            .arg("bare")
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
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut sum = Cpu::default();
    for line in text.lines() {
        let mut parts = line.split_whitespace().map(str::parse::<i64>);
        match (parts.next(), parts.next(), parts.next()) {
            (Some(Ok(user)), Some(Ok(system)), Some(Ok(wakes))) => {
                sum = sum.plus(Cpu {
                    user,
                    system,
                    wakes,
                })
            }
            _ => return Err(format!("{}: not a report: {text}", path.display())),
        }
    }
    Ok(sum)
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

fn play(
    goref: &Path,
    me: &Path,
    dir: &Path,
    size: u8,
    seed: u64,
    extra: &[String],
) -> Result<Game, String> {
    fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    let engine = |color: &str, seed: u64| {
        format!(
            "gtp:{} wrap {} {GNUGO} --mode gtp --level 0 --seed {seed}",
            me.display(),
            dir.join(format!("{color}.cpu")).display()
        )
    };
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

/// gomill's ringmaster playing `n` games of GNU Go against itself on
/// `size`, in one run with its records on: its own CPU per move.
fn ringmaster(command: &str, me: &Path, dir: &Path, size: u8, n: u64) -> Result<Game, String> {
    fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    let engine = |color: &str, seed: u64| {
        format!(
            "Player('{} wrap {} {GNUGO} --mode gtp --level 0 --seed {seed}')",
            me.display(),
            dir.join(format!("{color}.cpu")).display()
        )
    };
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
        Some("wrap") => return wrap(&args[1..]),
        Some("floor") => return floor(&args[1..]),
        Some("bare") => return bare(&args[1..]),
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
    let goref = me
        .parent()
        .and_then(Path::parent)
        .map(|release| release.join("goref"))
        .filter(|p| p.exists())
        .ok_or("no goref binary beside this example: run `cargo build --release` first")?;
    if !Path::new(GNUGO).exists() {
        return Err(format!("{GNUGO} is missing: apt-get install gnugo"));
    }
    let root = std::env::temp_dir().join(format!("referee_cpu.{}", std::process::id()));
    let floor = {
        let (cpu, _) = run_measured(Command::new(&goref).arg("--version").stdout(Stdio::null()))?;
        cpu
    };
    println!(
        "goref {} {}; start-up floor (`goref --version`): {:.2} ms CPU",
        goref.display(),
        extra.join(" "),
        floor.total() as f64 / 1000.0
    );
    for (size, n) in games {
        if n == 0 {
            continue;
        }
        let mut per_move = Vec::new();
        let mut points = Vec::new();
        let (mut moves, mut own, mut wall) = (0, Cpu::default(), 0.0);
        let (mut bare_moves, mut bare_own, mut bare_points) = (0, Cpu::default(), Vec::new());
        for game in 0..n {
            let dir = root.join(format!("bare-{size}x{size}-{game}"));
            let played = play_bare(&me, &dir, size, 1 + game)?;
            bare_points.push((played.moves as f64, played.own.total() as f64 / 1000.0));
            bare_moves += played.moves;
            bare_own = bare_own.plus(played.own);
            let dir: PathBuf = root.join(format!("{size}x{size}-{game}"));
            let played = play(&goref, &me, &dir, size, 1 + game, extra)?;
            per_move.push(played.own.total() as f64 / played.moves.max(1) as f64 / 1000.0);
            points.push((played.moves as f64, played.own.total() as f64 / 1000.0));
            moves += played.moves;
            own = own.plus(played.own);
            wall += played.wall_s;
        }
        let ms = |us: i64| us as f64 / moves.max(1) as f64 / 1000.0;
        println!(
            "{size}x{size}: {n} games, {moves} moves, {wall:.1} s: goref's own CPU {:.3} ms/move \
             (user {:.3}, system {:.3}; median game {:.3}); {:.1} wakes a move",
            ms(own.total()),
            ms(own.user),
            ms(own.system),
            median(&mut per_move),
            own.wakes as f64 / moves.max(1) as f64,
        );
        let pace = Duration::from_secs_f64(wall / moves.max(1) as f64);
        let (wake, append) = machine_floor(&me, &root.join(format!("floor-{size}")), pace)?;
        println!(
            "{size}x{size}: this machine at one move every {:.1} ms: a wake costs {wake:.3} ms, \
             a journal line appended and synced {append:.3} ms; floor {:.3} ms a move, \
             goref {:.3} above it",
            pace.as_secs_f64() * 1000.0,
            wake + append,
            ms(own.total()) - wake - append,
        );
        let fitted = (points.len() >= MIN_GAMES_TO_FIT).then(|| fit_line(&points));
        if let Some(Some((per_game, per_move))) = fitted {
            println!(
                "{size}x{size}: fitted over the games, {per_game:.2} ms a game to start and stop \
                 and {per_move:.3} ms a move"
            );
        }
        let bare_ms = |us: i64| us as f64 / bare_moves.max(1) as f64 / 1000.0;
        println!(
            "{size}x{size}: the bare referee on the same seeds, {bare_moves} moves: {:.3} ms/move \
             (user {:.3}, system {:.3}); {:.1} wakes a move; goref {:.2}x it",
            bare_ms(bare_own.total()),
            bare_ms(bare_own.user),
            bare_ms(bare_own.system),
            bare_own.wakes as f64 / bare_moves.max(1) as f64,
            ms(own.total()) / bare_ms(bare_own.total()),
        );
        let bare_fitted = (bare_points.len() >= MIN_GAMES_TO_FIT).then(|| fit_line(&bare_points));
        if let (Some(Some((_, goref_move))), Some(Some((bare_game, bare_move)))) =
            (fitted, bare_fitted)
        {
            println!(
                "{size}x{size}: the bare referee fitted, {bare_game:.2} ms a game and {bare_move:.3} \
                 ms a move; goref {:.2}x it a move",
                goref_move / bare_move
            );
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
