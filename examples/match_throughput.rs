//! Games per hour and the referee's own CPU a move: `goref match` beside
//! gogui-twogtp (`-threads N`) and gomill's ringmaster (`-j N`), on the same
//! engines and openings. Issue 45's budget, on this two-core machine, the
//! built-in engine answering at once, 9x9: goref's games per hour at 2 and 8
//! boards at once at least 1.5x the faster of the two, and its own CPU a
//! move at most 0.7x ringmaster's.
//!
//! Each tool plays GAMES games of `goref bot` against itself (empty board,
//! komi 7.5, no clock), N at once for each N of BOARDS, timed, its CPU taken
//! from `wait4` on it (everything it reaped, engines included). Every engine
//! runs under this example (`--wrap REPORT -- CMD...`), which appends its own
//! and the engine's CPU to REPORT: the referee's own CPU is the rest. Moves
//! are counted in the records: `move` events in goref's journals, `;B[` and
//! `;W[` nodes in the others' SGF. One more goref line plays `bot:1` against
//! `bot:2`, engines goref starts itself (`goref bot --gtp`, child processes,
//! not in-process) that no wrapper sits under: its whole CPU only.
//!
//! ```text
//! cargo build --profile quick-release && \
//! cargo run --profile quick-release --example match_throughput -- [GAMES] [BOARDS...]
//! ```
//!
//! Issue 59's budget: GNU Go level 0 against itself (as the issue measured
//! it), the candidate behind a wrapper that waits 3 s before it starts (a
//! network loading), GAMES games on 2 boards: wall time at most 1.15x the
//! same match with an instant start, and the candidate started at most
//! boards + 1 times, its programs kept across games; the same match with
//! `restart = "game"` beside them, for the cost of a start each game.
//! And Leela Zero with the tests' random network against GNU Go, 20 games
//! of 19x19 on 2 boards: Leela Zero started at most boards + 1 times.
//! Skipped without GNU Go (`GOREF_GNUGO`, default `/usr/games/gnugo`);
//! the Leela Zero part without `/usr/games/leelaz`.
//!
//! GAMES: 40 by default, even (goref plays pairs); BOARDS: `2 8` by default.
//! `GOREF_BINARY` overrides the goref built beside the example;
//! `GOREF_RINGMASTER` and `GOREF_TWOGTP` the tools' commands (default
//! `/tmp/tools/ringmaster` and `/tmp/tools/gogui-twogtp`; a tool missing or
//! set empty is skipped). Scratch: `$TMPDIR/match_throughput.PID`, removed
//! after a run that went well, kept after one that failed.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

#[path = "support/mod.rs"]
mod support;

const RINGMASTER: &str = "/tmp/tools/ringmaster";
const TWOGTP: &str = "/tmp/tools/gogui-twogtp";
/// The wrappers' reports in a run's folder: a line `USER_US SYSTEM_US` for
/// each engine that ended.
const REPORT: &str = "engines.cpu";
/// Issue 45's budget.
const MIN_SPEED_RATIO: f64 = 1.5;
const MAX_CPU_RATIO: f64 = 0.7;
/// Issue 59's Leela Zero budget: games of Leela Zero against GNU Go.
const LEELA_GAMES: u32 = 20;
/// Issue 59's budget: a slow start's wall time against an instant one's.
const MAX_SLOW_START_RATIO: f64 = 1.15;
/// The slow start, and the boards it is measured on.
const SLOW_START_MS: u64 = 3000;
const SLOW_START_BOARDS: u32 = 2;
const GNUGO: &str = "/usr/games/gnugo";

const GOREF: &str = "goref";
const GOREF_BOT: &str = "goref, bot:1 v bot:2";
const RING: &str = "ringmaster";
const TWO: &str = "gogui-twogtp";

/// One tool's games at one number of boards.
struct Run {
    tool: &'static str,
    boards: u32,
    games: u64,
    moves: u64,
    wall_s: f64,
    /// The CPU of the tool and all it reaped, engines included, in µs.
    tree_us: i64,
    /// The engines' share, from their wrappers; none when they ran bare.
    engines_us: Option<i64>,
}

impl Run {
    fn games_per_hour(&self) -> f64 {
        self.games as f64 * 3600.0 / self.wall_s.max(1e-9)
    }

    /// The referee's own CPU, in µs.
    fn referee_us(&self) -> Option<i64> {
        self.engines_us.map(|engines| self.tree_us - engines)
    }

    /// `us` as ms a move.
    fn per_move_ms(&self, us: i64) -> f64 {
        us as f64 / 1000.0 / self.moves.max(1) as f64
    }
}

fn micros(t: libc::timeval) -> i64 {
    t.tv_sec * 1_000_000 + t.tv_usec
}

fn read(path: &Path) -> Result<String, String> {
    fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The entries of the folder `dir`.
fn entries(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let list = fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    list.map(|entry| entry.map(|e| e.path()).map_err(|e| e.to_string()))
        .collect()
}

/// The `.sgf` files in `dir` whose names start with `prefix`: how many, and
/// their moves (passes included).
fn sgf_games(dir: &Path, prefix: &str) -> Result<(u64, u64), String> {
    let (mut files, mut moves) = (0, 0);
    for path in entries(dir)? {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        if name.starts_with(prefix) && name.ends_with(".sgf") {
            let nodes: String = read(&path)?.split_whitespace().collect();
            files += 1;
            moves += (nodes.matches(";B[").count() + nodes.matches(";W[").count()) as u64;
        }
    }
    Ok((files, moves))
}

/// What every run shares: the goref measured, this example (the engines'
/// wrapper), the scratch folder and the games a run.
struct Bench {
    goref: PathBuf,
    me: PathBuf,
    root: PathBuf,
    games: u64,
}

impl Bench {
    /// A new folder for `name`'s run at `boards`, and the engine every tool
    /// plays there: `goref bot` under this example, reporting to the folder.
    fn setup(&self, name: &str, boards: u32) -> Result<(PathBuf, String), String> {
        let dir = self.root.join(format!("{name}-{boards}"));
        fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let (me, report, goref) = (self.me.display(), dir.join(REPORT), self.goref.display());
        let engine = format!("{me} --wrap {} -- {goref} bot", report.display());
        Ok((dir, engine))
    }

    /// `goref match` at `boards`, its engines wrapped (`goref bot` as a GTP
    /// program) or not (`bot:1` against `bot:2`).
    fn goref(&self, boards: u32, wrapped: bool) -> Result<Run, String> {
        let (tool, name) = if wrapped {
            (GOREF, "goref")
        } else {
            (GOREF_BOT, "goref-bot")
        };
        let (dir, engine) = self.setup(name, boards)?;
        let player = |seed: u8| {
            let spec = if wrapped {
                format!("gtp:{engine}")
            } else {
                format!("bot:{seed}")
            };
            toml::Value::String(spec).to_string()
        };
        let folder = dir.join("match");
        fs::create_dir_all(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
        let text = format!(
            "name = \"throughput\"\nboards = {boards}\nseed = 1\n\n\
             [game]\nrules = \"kgs\"\nsize = 9\nkomi = 7.5\ntime = \"none\"\n\n\
             [[engine]]\nname = \"a\"\nplayer = {}\n\n\
             [[engine]]\nname = \"b\"\nplayer = {}\n\n\
             [openings]\nsource = \"random:0\"\n\n[stop]\npairs = {}\n",
            player(1),
            player(2),
            self.games / 2
        );
        write(&folder.join("match.toml"), &text)?;
        let mut command = Command::new(&self.goref);
        command.arg("match").arg(&folder).arg("--headless");
        self.play(tool, boards, &dir, &mut command, || {
            let (mut ended, mut moves, mut folders) = (0, 0, 0);
            for path in entries(&folder.join("games"))? {
                if path.is_dir() {
                    let journal = read(&path.join("journal.jsonl"))?;
                    folders += 1;
                    moves += journal.matches("\"type\":\"move\"").count() as u64;
                    let mut tail = journal.lines().rev().take(64);
                    ended += u64::from(tail.any(|l| l.contains("\"type\":\"result\"")));
                }
            }
            if folders > self.games {
                let again = folders - self.games;
                eprintln!("note: {tool} at {boards} boards: {again} games played again");
            }
            Ok((ended, moves, 2 * folders as usize))
        })
    }

    /// `goref match` on `boards` boards of GNU Go against itself, the
    /// candidate started behind a wait of `start_ms` (`--slow-start`) and
    /// restarted as `restart` says: the wall time, and how many times the
    /// candidate started.
    fn slow_start(
        &self,
        gnugo: &str,
        boards: u32,
        start_ms: u64,
        restart: &str,
    ) -> Result<(f64, usize), String> {
        let name = format!("start-{start_ms}-{restart}");
        let dir = self.root.join(format!("{name}-{boards}"));
        let starts = dir.join("starts");
        let me = self.me.display();
        let gnugo = format!("{gnugo} --mode gtp --level 0 --max-level 0");
        let candidate = format!(
            "gtp:{me} --slow-start {start_ms} {} -- {gnugo}",
            starts.display()
        );
        let game = "rules = \"kgs\"\nsize = 9\nkomi = 7.5\ntime = \"none\"";
        let engines = [(candidate, restart), (format!("gtp:{gnugo}"), "crash")];
        let pairs = u32::try_from(self.games / 2).map_err(|_| "too many games")?;
        let wall_s = self.kept_match(&dir, boards, game, engines, pairs)?;
        Ok((wall_s, read(&starts)?.lines().count()))
    }

    /// Issue 59's Leela Zero budget: `goref match` of Leela Zero (the
    /// tests' random network, a playout a move) against GNU Go level 0 on
    /// 19x19 with 6 s each, GAMES/2 games on `boards` boards: the wall time
    /// and how many times Leela Zero started.
    fn leela_zero(&self, gnugo: &str, boards: u32) -> Result<(f64, usize), String> {
        let dir = self.root.join(format!("leela-{boards}"));
        fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let network = dir.join("tiny.txt");
        support::leela_network::random_network(&network).map_err(|e| e.to_string())?;
        let starts = dir.join("starts");
        let leelaz = format!(
            "{} -w {} --gtp --noponder -p 1 -t 1 --seed 7 --cpu-only -r 0 -q",
            support::leela_network::LEELAZ,
            network.display()
        );
        let candidate = format!(
            "gtp:{} --slow-start 0 {} -- {leelaz}",
            self.me.display(),
            starts.display()
        );
        let opponent = format!("gtp:{gnugo} --mode gtp --level 0 --max-level 0");
        let game = "rules = \"kgs\"\nsize = 19\nkomi = 7.5\ntime = \"absolute:6s\"";
        let engines = [(candidate, "crash"), (opponent, "crash")];
        let wall_s = self.kept_match(&dir, boards, game, engines, LEELA_GAMES / 2)?;
        Ok((wall_s, read(&starts)?.lines().count()))
    }

    /// `goref match` in `dir/match` of `engines` (each a spec and its
    /// `restart`) on `boards` boards, its `[game]` table `game`, `pairs`
    /// pairs from the empty board: the wall time.
    fn kept_match(
        &self,
        dir: &Path,
        boards: u32,
        game: &str,
        engines: [(String, &str); 2],
        pairs: u32,
    ) -> Result<f64, String> {
        let folder = dir.join("match");
        fs::create_dir_all(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
        let quoted = |spec: &str| toml::Value::String(spec.to_string()).to_string();
        let [(candidate, restart_a), (opponent, restart_b)] = engines;
        let text = format!(
            "name = \"start\"\nboards = {boards}\nseed = 1\n\n[game]\n{game}\n\n\
             [[engine]]\nname = \"a\"\nplayer = {}\nrestart = \"{restart_a}\"\n\n\
             [[engine]]\nname = \"b\"\nplayer = {}\nrestart = \"{restart_b}\"\n\n\
             [openings]\nsource = \"random:0\"\n\n[stop]\npairs = {pairs}\n",
            quoted(&candidate),
            quoted(&opponent),
        );
        write(&folder.join("match.toml"), &text)?;
        let mut command = Command::new(&self.goref);
        command.arg("match").arg(&folder).arg("--headless");
        let file = |name: &str| {
            let path = dir.join(name);
            fs::File::create(&path).map_err(|e| format!("{}: {e}", path.display()))
        };
        command.stdin(Stdio::null());
        command.stdout(file("run.out")?).stderr(file("run.err")?);
        let started = Instant::now();
        let (_, exited_well) = support::run_and_reap(&mut command)?;
        let wall_s = started.elapsed().as_secs_f64();
        if !exited_well {
            return Err(format!(
                "the match in {} failed; see {}",
                folder.display(),
                dir.join("run.err").display()
            ));
        }
        Ok(wall_s)
    }

    /// gomill's ringmaster, `-j boards`, one playoff of the games.
    fn ringmaster(&self, cmd: &str, boards: u32) -> Result<Run, String> {
        let (dir, engine) = self.setup("ringmaster", boards)?;
        let player = format!(
            "Player('{}')",
            engine.replace('\\', "\\\\").replace('\'', "\\'")
        );
        let control = format!(
            "competition_type = 'playoff'\nboard_size = 9\nkomi = 7.5\nscorer = 'internal'\n\
             players = {{'a': {player}, 'b': {player}}}\n\
             matchups = [Matchup('a', 'b', number_of_games={})]\n",
            self.games
        );
        let ctl = dir.join("throughput.ctl");
        write(&ctl, &control)?;
        let mut words = cmd.split_whitespace();
        let mut command = Command::new(words.next().ok_or("GOREF_RINGMASTER is empty")?);
        command.args(words).arg(ctl);
        command.args(["run", "-j", &boards.to_string(), "-q"]);
        self.play(RING, boards, &dir, &mut command, || {
            let (records, moves) = sgf_games(&dir.join("throughput.games"), "")?;
            Ok((records, moves, 2 * self.games as usize))
        })
    }

    /// gogui-twogtp, `-threads boards`, the games.
    fn twogtp(&self, cmd: &str, boards: u32) -> Result<Run, String> {
        let (dir, engine) = self.setup("twogtp", boards)?;
        let mut words = cmd.split_whitespace();
        let mut command = Command::new(words.next().ok_or("GOREF_TWOGTP is empty")?);
        command.args(words);
        command.args([
            "-black", &engine, "-white", &engine, "-size", "9", "-komi", "7.5",
        ]);
        command.args(["-games", &self.games.to_string(), "-auto", "-sgffile"]);
        command.arg(dir.join("game"));
        command.args(["-threads", &boards.to_string(), "-force"]);
        self.play(TWO, boards, &dir, &mut command, || {
            let table = read(&dir.join("game.dat"))?;
            let rows = table
                .lines()
                .filter(|l| !l.trim().is_empty() && !l.starts_with('#'));
            let (records, moves) = sgf_games(&dir, "game-")?;
            let pairs = self.games.min(boards.into());
            Ok((records.min(rows.count() as u64), moves, 2 * pairs as usize))
        })
    }

    /// Runs `command` in `dir`, its output to `dir/run.out` and `run.err`,
    /// and times it; `records` then says from what it left how many games
    /// ended, their moves, and how many engine runs there were at least.
    fn play(
        &self,
        tool: &'static str,
        boards: u32,
        dir: &Path,
        command: &mut Command,
        records: impl FnOnce() -> Result<(u64, u64, usize), String>,
    ) -> Result<Run, String> {
        let file = |name: &str| {
            let path = dir.join(name);
            fs::File::create(&path).map_err(|e| format!("{}: {e}", path.display()))
        };
        command.current_dir(dir).stdin(Stdio::null());
        command.stdout(file("run.out")?).stderr(file("run.err")?);
        let started = Instant::now();
        let (usage, exited_well) = support::run_and_reap(command)?;
        let wall_s = started.elapsed().as_secs_f64();
        if !exited_well {
            return Err(format!(
                "{tool} failed; see {}",
                dir.join("run.err").display()
            ));
        }
        let (games, moves, engine_runs) = records()?;
        if games < self.games {
            let (want, dir) = (self.games, dir.display());
            return Err(format!("{tool}: {games} of {want} games recorded in {dir}"));
        }
        let engines_us = match tool {
            GOREF_BOT => None,
            _ => {
                let engines = support::engine_cpu::read_reports(&dir.join(REPORT))?;
                let (us, reported) = (engines.total(), engines.reports);
                if reported < engine_runs {
                    eprintln!(
                        "warning: {tool} at {boards} boards: {reported} of at least \
                         {engine_runs} engine runs reported their CPU: its own is overstated"
                    );
                }
                Some(us)
            }
        };
        let tree_us = micros(usage.ru_utime) + micros(usage.ru_stime);
        let games = self.games;
        Ok(Run {
            tool,
            boards,
            games,
            moves,
            wall_s,
            tree_us,
            engines_us,
        })
    }
}

/// The command that runs a tool: `$VAR` when it is set (empty: skip the
/// tool), else `default` when it is there.
fn tool(var: &str, default: &str) -> Option<String> {
    match std::env::var(var) {
        Ok(command) => (!command.trim().is_empty()).then_some(command),
        Err(_) => Path::new(default).exists().then(|| default.to_string()),
    }
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "--wrap") {
        return support::engine_cpu::wrap(&args[1..]);
    }
    if args.first().is_some_and(|a| a == "--slow-start") {
        return slow_start(&args[1..]);
    }
    let number = |a: &String| a.parse::<u32>().ok().filter(|&n| n > 0);
    let games = args
        .first()
        .map_or(Some(40), number)
        .filter(|n| n.is_multiple_of(2));
    let games = u64::from(games.ok_or("GAMES must be an even number above 0 (goref plays pairs)")?);
    let boards: Vec<u32> = match args.get(1..) {
        Some(list) if !list.is_empty() => list.iter().map(number).collect::<Option<_>>(),
        _ => Some(vec![2, 8]),
    }
    .ok_or("BOARDS must be numbers above 0")?;
    let goref = match std::env::var_os("GOREF_BINARY") {
        Some(path) => PathBuf::from(&path)
            .canonicalize()
            .map_err(|e| format!("GOREF_BINARY {}: {e}", Path::new(&path).display()))?,
        None => support::goref_beside()?,
    };
    let me = std::env::current_exe().map_err(|e| format!("cannot find this example: {e}"))?;
    let here = std::env::current_dir().map_err(|e| e.to_string())?;
    let root = here
        .join(std::env::temp_dir())
        .join(format!("match_throughput.{}", std::process::id()));
    println!(
        "goref {}, {games} games of 9x9 a run, in {}",
        goref.display(),
        root.display()
    );
    let bench = Bench {
        goref,
        me,
        root,
        games,
    };
    let ringmaster_command = tool("GOREF_RINGMASTER", RINGMASTER);
    let twogtp_command = tool("GOREF_TWOGTP", TWOGTP);
    if ringmaster_command.is_none() {
        println!("ringmaster: skipped (not at {RINGMASTER}; GOREF_RINGMASTER names its command)");
    }
    if twogtp_command.is_none() {
        println!("gogui-twogtp: skipped (not at {TWOGTP}; GOREF_TWOGTP names its command)");
    }
    let verdict = |ok: bool| if ok { "ok" } else { "over budget" };
    let mut runs = Vec::new();
    for &n in &boards {
        let mut done = |run: Run| {
            eprintln!(
                "{n} boards: {}: {} games in {:.1} s",
                run.tool, run.games, run.wall_s
            );
            runs.push(run);
        };
        done(bench.goref(n, true)?);
        done(bench.goref(n, false)?);
        if let Some(command) = &ringmaster_command {
            done(bench.ringmaster(command, n)?);
        }
        if let Some(command) = &twogtp_command {
            done(bench.twogtp(command, n)?);
        }
    }
    let [b, g, m, w, h] = ["boards", "games", "moves", "wall s", "games/h"];
    let [a, o, p] = ["all ms/move", "own ms/game", "own ms/move"];
    println!(
        "{:<22} {b:>6} {g:>5} {m:>6} {w:>8} {h:>9} {a:>12} {o:>12} {p:>12}",
        "tool"
    );
    for run in &runs {
        let own = run.referee_us();
        let shown = |value: Option<f64>| value.map_or("-".to_string(), |v| format!("{v:.3}"));
        println!(
            "{:<22} {:>6} {:>5} {:>6} {:>8.2} {:>9.0} {:>12.3} {:>12} {:>12}",
            run.tool,
            run.boards,
            run.games,
            run.moves,
            run.wall_s,
            run.games_per_hour(),
            run.per_move_ms(run.tree_us),
            shown(own.map(|us| us as f64 / 1000.0 / run.games as f64)),
            shown(own.map(|us| run.per_move_ms(us))),
        );
    }
    println!(
        "(all: the tool with its engines; own: the referee alone, its engines' CPU taken off)"
    );
    for &n in &boards {
        let find = |tool: &str| runs.iter().find(|r| r.tool == tool && r.boards == n);
        let Some(ours) = find(GOREF) else { continue };
        let faster = [find(RING), find(TWO)]
            .into_iter()
            .flatten()
            .max_by(|a, b| a.games_per_hour().total_cmp(&b.games_per_hour()));
        match faster {
            Some(other) => {
                let ratio = ours.games_per_hour() / other.games_per_hour();
                let (name, ok) = (other.tool, verdict(ratio >= MIN_SPEED_RATIO));
                println!(
                    "{n} boards: goref's games per hour {ratio:.2}x {name}'s, the faster \
                     (budget >= {MIN_SPEED_RATIO}): {ok}"
                );
            }
            None => println!("{n} boards: games per hour: no other tool ran"),
        }
        let per_move = |run: &Run| run.referee_us().map(|us| run.per_move_ms(us));
        match (per_move(ours), find(RING).and_then(per_move)) {
            (Some(own), Some(theirs)) if theirs > 0.0 => {
                let ratio = own / theirs;
                let ok = verdict(ratio <= MAX_CPU_RATIO);
                println!(
                    "{n} boards: goref's own CPU a move {ratio:.2}x ringmaster's \
                     (budget <= {MAX_CPU_RATIO}): {ok}"
                );
            }
            _ => println!("{n} boards: CPU a move: no ringmaster figure to compare with"),
        }
    }
    let gnugo = std::env::var("GOREF_GNUGO").unwrap_or_else(|_| GNUGO.into());
    if !Path::new(&gnugo).exists() {
        println!("a slow start: skipped (no GNU Go at {gnugo}; GOREF_GNUGO names it)");
        let _ = fs::remove_dir_all(&bench.root);
        return Ok(());
    }
    let n = SLOW_START_BOARDS;
    let (instant, _) = bench.slow_start(&gnugo, n, 0, "crash")?;
    let (slow, starts) = bench.slow_start(&gnugo, n, SLOW_START_MS, "crash")?;
    let (every_game, starts_every_game) = bench.slow_start(&gnugo, n, SLOW_START_MS, "game")?;
    println!(
        "{n} boards, {games} games, the candidate starting in {:.0} s: kept {slow:.1} s \
         ({starts} starts), instant start {instant:.1} s, started every game {every_game:.1} s \
         ({starts_every_game} starts)",
        SLOW_START_MS as f64 / 1000.0
    );
    let ratio = slow / instant;
    println!(
        "{n} boards: a slow start's wall time {ratio:.2}x an instant one's (budget <= \
         {MAX_SLOW_START_RATIO}): {}; the candidate started {starts} times (budget <= {}): {}",
        verdict(ratio <= MAX_SLOW_START_RATIO),
        n + 1,
        verdict(starts <= n as usize + 1)
    );
    if !Path::new(support::leela_network::LEELAZ).exists() {
        println!(
            "Leela Zero: skipped (not at {})",
            support::leela_network::LEELAZ
        );
    } else {
        let (wall_s, starts) = bench.leela_zero(&gnugo, n)?;
        println!(
            "{n} boards, {LEELA_GAMES} games of Leela Zero against GNU Go on 19x19: {wall_s:.1} s; \
             Leela Zero started {starts} times (budget <= {}): {}",
            n + 1,
            verdict(starts <= n as usize + 1)
        );
    }
    let _ = fs::remove_dir_all(&bench.root);
    Ok(())
}

/// `--slow-start MS FILE -- CMD...`: notes a start in FILE, waits MS
/// milliseconds, then becomes CMD (a program that loads a network).
fn slow_start(args: &[String]) -> Result<(), String> {
    use std::os::unix::process::CommandExt;
    let [ms, file, dashes, command @ ..] = args else {
        return Err("--slow-start MS FILE -- CMD...".into());
    };
    let ms: u64 = ms.parse().map_err(|_| format!("{ms}: not milliseconds"))?;
    if dashes != "--" || command.is_empty() {
        return Err("--slow-start MS FILE -- CMD...".into());
    }
    let mut starts = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(file)
        .map_err(|e| format!("{file}: {e}"))?;
    std::io::Write::write_all(&mut starts, b"started\n").map_err(|e| e.to_string())?;
    std::thread::sleep(std::time::Duration::from_millis(ms));
    let error = Command::new(&command[0]).args(&command[1..]).exec();
    Err(format!("{}: {error}", command[0]))
}
