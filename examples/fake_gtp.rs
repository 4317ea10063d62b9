//! A scripted fake GTP engine for fault tests.
//!
//! It keeps no board unless told to (`--board`): `genmove` answers come from
//! `--moves`, and flags make
//! it crash, hang, send garbage, flood stderr, answer slowly or refuse
//! commands at chosen points, so the referee's handling of misbehaving
//! engines can be tested against a real process.
//!
//! With `--analyze kata|lz|cgos` it also knows that engine's
//! `*-genmove_analyze` and answers it as that engine does: the header, its
//! analysis lines (`--analysis-lines`, spread over `--think-ms`, with the
//! mover's `--winrate`), then `play X` and the empty line; with
//! `--analysis-broken` one of the ways an engine gets it wrong.
//!
//! ```text
//! cargo run --example fake_gtp -- --moves D4,E5,pass --dead "C3 D4" --crash-at 3
//! ```

use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::process;
use std::str::FromStr;
use std::thread;
use std::time::Duration;

use clap::{ArgAction, Parser};
use goref_core::game::board::{Board, BoardRules, KoRule};
use goref_core::game::coord::{Color, Move, MAX_SIZE, MIN_SIZE};
use goref_core::protocol::gtp::codec::{format_response, parse_command_line, Command};

#[derive(Parser, Debug)]
#[command(about = "A scripted fake GTP engine for fault tests")]
struct Args {
    /// The answer to `name`.
    #[arg(long, default_value = "Fake")]
    name: String,
    /// Successive genmove answers, comma separated; `pass` once exhausted.
    #[arg(long, value_delimiter = ',')]
    moves: Vec<String>,
    /// Answers for kgs-genmove_cleanup only (default: continue with --moves).
    #[arg(long, value_delimiter = ',')]
    cleanup_moves: Option<Vec<String>>,
    /// The answer to `final_status_list dead`.
    #[arg(long, default_value = "")]
    dead: String,
    /// Exit with status 3 on the Nth genmove (1-based) without answering.
    #[arg(long, value_name = "N")]
    crash_at: Option<u32>,
    /// Never answer the Nth genmove, but stay alive.
    #[arg(long, value_name = "N")]
    hang_at: Option<u32>,
    /// Write a non-GTP line instead of answering the Nth genmove.
    #[arg(long, value_name = "N")]
    garbage_at: Option<u32>,
    /// Write this many bytes to stderr before every genmove answer.
    #[arg(long, value_name = "BYTES")]
    stderr_flood: Option<usize>,
    /// Write this many ordinary log lines to stderr before every genmove
    /// answer, as a chatty engine (Leela Zero) does.
    #[arg(long, value_name = "N")]
    stderr_lines: Option<usize>,
    /// Write a few lines to stderr and abort (SIGABRT) before reading any
    /// command, as an engine that cannot load its weights does.
    #[arg(long)]
    abort_at_start: bool,
    /// Ignore SIGHUP, SIGINT and SIGTERM, and never answer `quit`.
    #[arg(long)]
    stubborn: bool,
    /// Sleep this long before reading the first command, as an engine that
    /// loads a large network does.
    #[arg(long, value_name = "MS")]
    start_delay_ms: Option<u64>,
    /// Think this long (sleep) before every genmove answer; with
    /// `--analyze`, the analysis lines come spread over it.
    #[arg(long, value_name = "MS")]
    think_ms: Option<u64>,
    /// Answer `? illegal move` to every `play`.
    #[arg(long)]
    reject_play: bool,
    /// Append every command line received to this file.
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,
    /// Answer `? failed` to this command (may be repeated).
    #[arg(long, value_name = "NAME")]
    fail_command: Vec<String>,
    /// Echo command ids in responses.
    #[arg(long, default_value_t = true, action = ArgAction::Set, value_name = "BOOL")]
    id_echo: bool,
    /// Do not implement final_status_list and kgs-genmove_cleanup.
    #[arg(long)]
    no_kgs: bool,
    /// Keep a board: refuse illegal `play`s, and answer `genmove` with the
    /// next of --moves that is legal, else the first legal point, else pass.
    #[arg(long)]
    board: bool,
    /// Answer `=` to commands it does not know, as GTP forbids.
    #[arg(long)]
    accept_unknown: bool,
    /// Know this engine's genmove with analysis: kata (KataGo's info lines,
    /// with scoreLead), lz (Leela Zero's) or cgos (CGOS's JSON line).
    #[arg(long, value_name = "ENGINE")]
    analyze: Option<String>,
    /// The mover's chance to win that its analysis gives, 0 to 1.
    #[arg(long, default_value_t = 0.55)]
    winrate: f64,
    /// How many analysis lines before each move.
    #[arg(long, default_value_t = 1, value_name = "N")]
    analysis_lines: u32,
    /// Get the analysis wrong: no-play (no play line), illegal-pv (the
    /// variation plays on an occupied point), garbage (unreadable lines).
    #[arg(long, value_name = "HOW")]
    analysis_broken: Option<String>,
    /// Append a line to this file as it starts, to count its starts.
    #[arg(long, value_name = "FILE")]
    starts: Option<PathBuf>,
    /// Never answer `protocol_version` while this file exists, but stay
    /// alive (a program that hangs between games, when a test says so).
    #[arg(long, value_name = "FILE")]
    version_hang_file: Option<PathBuf>,
    /// With --version-hang-file: remove the file as it hangs, so that the
    /// program started next answers.
    #[arg(long)]
    version_hang_once: bool,
}

const BASE_COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "list_commands",
    "known_command",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "time_settings",
    "time_left",
    "quit",
];
const KGS_COMMANDS: &[&str] = &["final_status_list", "kgs-genmove_cleanup"];
const ANALYZE_COMMANDS: &[&str] = &[
    "kata-genmove_analyze",
    "lz-genmove_analyze",
    "cgos-genmove_analyze",
];

/// What to do with a command, besides answering it.
enum Outcome {
    Answer(Result<String, String>),
    Quit,
    Silent,
}

struct Engine {
    args: Args,
    size: u8,
    genmoves: u32,
    next_move: usize,
    next_cleanup_move: usize,
    log: Option<File>,
    /// The board it keeps with --board.
    board: Option<Board>,
}

/// The rules of the board it keeps: as permissive as a referee may be.
const RULES: BoardRules = BoardRules {
    ko: KoRule::Simple,
    suicide_allowed: false,
};

impl Engine {
    fn commands(&self) -> Vec<&'static str> {
        let mut commands = BASE_COMMANDS.to_vec();
        if !self.args.no_kgs {
            commands.extend_from_slice(KGS_COMMANDS);
        }
        let analyze = self
            .args
            .analyze
            .as_deref()
            .map(|engine| format!("{engine}-"));
        commands.extend(
            ANALYZE_COMMANDS
                .iter()
                .filter(|name| analyze.as_deref().is_some_and(|a| name.starts_with(a))),
        );
        commands
    }

    fn log_line(&mut self, line: &str) -> io::Result<()> {
        if let Some(file) = &mut self.log {
            writeln!(file, "{line}")?;
            file.flush()?;
        }
        Ok(())
    }

    fn run(&mut self, command: &Command, out: &mut impl Write) -> io::Result<Outcome> {
        let ok = |text: &str| Ok(Outcome::Answer(Ok(text.to_string())));
        let fail = |text: &str| Ok(Outcome::Answer(Err(text.to_string())));
        let name = command.name.as_str();
        if self.args.fail_command.iter().any(|f| f == name) {
            return fail("failed");
        }
        if !self.commands().contains(&name) {
            return match self.args.accept_unknown {
                true => ok(""),
                false => fail("unknown command"),
            };
        }
        let arg = |i: usize| command.args.get(i).map(String::as_str).unwrap_or("");
        match name {
            "protocol_version" => {
                if let Some(file) = self.args.version_hang_file.as_ref().filter(|f| f.exists()) {
                    if self.args.version_hang_once {
                        std::fs::remove_file(file)?;
                    }
                    loop {
                        thread::sleep(Duration::from_secs(3600));
                    }
                }
                ok("2")
            }
            "name" => ok(&self.args.name.clone()),
            "version" => ok("1.0"),
            "list_commands" => ok(&self.commands().join("\n")),
            "known_command" => ok(&self.commands().contains(&arg(0)).to_string()),
            "boardsize" => match arg(0).parse::<u8>() {
                Ok(size) if (MIN_SIZE..=MAX_SIZE).contains(&size) => {
                    self.size = size;
                    self.clear_board();
                    ok("")
                }
                _ => fail("unacceptable size"),
            },
            "komi" => match arg(0).parse::<f32>() {
                Ok(_) => ok(""),
                Err(_) => fail("syntax error"),
            },
            "clear_board" => {
                self.clear_board();
                ok("")
            }
            "play" => {
                let color = Color::from_str(arg(0));
                let mv = Move::parse_gtp(arg(1), self.size);
                let (Ok(color), Ok(mv), 2) = (color, mv, command.args.len()) else {
                    return fail("invalid color or coordinate");
                };
                if mv == Move::Resign {
                    fail("invalid color or coordinate")
                } else if self.args.reject_play || !self.play_on_board(color, mv) {
                    fail("illegal move")
                } else {
                    ok("")
                }
            }
            "genmove" | "kgs-genmove_cleanup" => {
                let Ok(color) = Color::from_str(arg(0)) else {
                    return fail("invalid color");
                };
                self.genmove(color, name == "kgs-genmove_cleanup", out)
            }
            "kata-genmove_analyze" | "lz-genmove_analyze" | "cgos-genmove_analyze" => {
                let Ok(color) = Color::from_str(arg(0)) else {
                    return fail("invalid color");
                };
                let id = command.id.filter(|_| self.args.id_echo);
                self.analyze(color, id, out)
            }
            "final_status_list" => match arg(0) {
                "dead" => ok(self.args.dead.clone().trim()),
                "alive" | "seki" => ok(""),
                _ => fail("invalid status"),
            },
            "quit" if self.args.stubborn => Ok(Outcome::Silent),
            "quit" => Ok(Outcome::Quit),
            _ => ok(""),
        }
    }

    fn clear_board(&mut self) {
        if self.args.board {
            self.board = Board::new(self.size, RULES).ok();
        }
    }

    /// Plays `mv` on the board it keeps, if it keeps one; false when that
    /// board does not allow it.
    fn play_on_board(&mut self, color: Color, mv: Move) -> bool {
        let Some(board) = &mut self.board else {
            return true;
        };
        board.set_to_move(color);
        match mv {
            Move::Play(point) => board.play(color, point).is_ok(),
            _ => board.pass(color).is_ok(),
        }
    }

    /// With a board, `scripted` when it is legal, else the first legal
    /// point, else a pass.
    fn legal_choice(&mut self, color: Color, scripted: String) -> String {
        let Some(board) = &mut self.board else {
            return scripted;
        };
        board.set_to_move(color);
        let wanted = Move::parse_gtp(&scripted, self.size).ok();
        let chosen = match wanted {
            Some(Move::Play(p)) if board.check(color, p).is_ok() => Move::Play(p),
            Some(Move::Pass) => Move::Pass,
            _ => board
                .legal_points(color)
                .into_iter()
                .find(|p| !board.is_eye_like(color, *p))
                .map_or(Move::Pass, Move::Play),
        };
        self.play_on_board(color, chosen);
        chosen.to_gtp()
    }

    fn genmove(
        &mut self,
        color: Color,
        cleanup: bool,
        out: &mut impl Write,
    ) -> io::Result<Outcome> {
        self.genmoves += 1;
        let n = Some(self.genmoves);
        if let Some(bytes) = self.args.stderr_flood {
            flood_stderr(bytes)?;
        }
        if let Some(lines) = self.args.stderr_lines {
            let mut err = io::stderr().lock();
            for i in 0..lines {
                writeln!(err, "move {}: playout {i}, winrate 51.{i}%", self.genmoves)?;
            }
            err.flush()?;
        }
        if self.args.crash_at == n {
            process::exit(3);
        }
        if self.args.hang_at == n {
            loop {
                thread::sleep(Duration::from_secs(3600));
            }
        }
        if let Some(ms) = self.args.think_ms {
            thread::sleep(Duration::from_millis(ms));
        }
        if self.args.garbage_at == n {
            out.write_all(b"this is not gtp\n\n")?;
            return Ok(Outcome::Silent);
        }
        let answer = match (&self.args.cleanup_moves, cleanup) {
            (Some(moves), true) => next_of(moves, &mut self.next_cleanup_move),
            _ => next_of(&self.args.moves, &mut self.next_move),
        };
        let answer = self.legal_choice(color, answer);
        Ok(Outcome::Answer(Ok(answer)))
    }
}

impl Engine {
    /// A move with its analysis: the header at once, the move chosen as
    /// `genmove` chooses it, the analysis lines spread over the delay, then
    /// the play line.
    fn analyze(
        &mut self,
        color: Color,
        id: Option<u32>,
        out: &mut impl Write,
    ) -> io::Result<Outcome> {
        let header = id.map_or("=\n".to_string(), |id| format!("={id}\n"));
        out.write_all(header.as_bytes())?;
        out.flush()?;
        let delay = self.args.think_ms.take();
        let answer = self.genmove(color, false, out);
        self.args.think_ms = delay;
        let vertex = match answer? {
            Outcome::Answer(Ok(vertex)) => vertex,
            other => return Ok(other),
        };
        let lines = self.args.analysis_lines.max(1);
        let pause = Duration::from_millis(delay.unwrap_or(0) / u64::from(lines));
        let broken = self.args.analysis_broken.clone().unwrap_or_default();
        let pv_next = match broken.as_str() {
            "illegal-pv" => vertex.clone(),
            _ => self
                .args
                .moves
                .get(self.next_move)
                .cloned()
                .unwrap_or("pass".into()),
        };
        for visits in 1..=lines {
            thread::sleep(pause);
            let line = match broken.as_str() {
                "garbage" => format!("info move {vertex} visits many winrate high pv"),
                _ => self.analysis_line(&vertex, &pv_next, u64::from(visits) * 10),
            };
            out.write_all(format!("{line}\n").as_bytes())?;
            out.flush()?;
        }
        if broken != "no-play" {
            out.write_all(format!("play {vertex}\n").as_bytes())?;
        }
        out.write_all(b"\n")?;
        Ok(Outcome::Silent)
    }

    /// One analysis line in the engine's own format: the move played and
    /// one other candidate.
    fn analysis_line(&self, vertex: &str, next: &str, visits: u64) -> String {
        let w = self.args.winrate.clamp(0.0, 1.0);
        let lead = (w - 0.5) * 20.0;
        match self.args.analyze.as_deref() {
            Some("lz") => format!(
                "info move {vertex} visits {visits} winrate {} prior 2700 lcb {} order 0 pv \
                 {vertex} {next} info move pass visits 1 winrate 100 prior 1 lcb 0 order 1 pv pass",
                (w * 10_000.0) as u32,
                (w * 9_000.0) as u32
            ),
            Some("cgos") => format!(
                "{{\"winrate\":{w},\"score\":{lead:.2},\"visits\":{visits},\"moves\":[\
                 {{\"move\":\"{vertex}\",\"winrate\":{w},\"score\":{lead:.2},\"visits\":{visits},\
                 \"pv\":\"{next}\"}}]}}"
            ),
            _ => format!(
                "info move {vertex} visits {visits} edgeVisits {visits} utility 0.1 winrate {w:.6} \
                 scoreMean {lead:.2} scoreStdev 20.5 scoreLead {lead:.2} scoreSelfplay {lead:.2} \
                 prior 0.2 lcb {w:.6} utilityLcb 0.1 weight {visits}.0 order 0 pv {vertex} {next} \
                 info move pass visits 1 edgeVisits 1 utility -1 winrate 0.01 scoreMean -30 \
                 scoreStdev 1 scoreLead -30 scoreSelfplay -30 prior 0.001 lcb 0 utilityLcb -1 \
                 weight 1.0 order 1 pv pass"
            ),
        }
    }
}

fn next_of(moves: &[String], next: &mut usize) -> String {
    let answer = moves.get(*next).cloned().unwrap_or_else(|| "pass".into());
    *next += 1;
    answer
}

fn flood_stderr(bytes: usize) -> io::Result<()> {
    let mut line = "fake engine is thinking very hard ".repeat(3);
    line.truncate(99);
    line.push('\n');
    let mut err = io::stderr().lock();
    let mut left = bytes;
    while left > 0 {
        let n = left.min(line.len());
        err.write_all(&line.as_bytes()[..n])?;
        left -= n;
    }
    err.flush()
}

fn main() -> io::Result<()> {
    let args = Args::parse();
    if let Some(path) = &args.starts {
        let mut starts = OpenOptions::new().create(true).append(true).open(path)?;
        writeln!(starts, "started")?;
    }
    if args.abort_at_start {
        eprintln!("fake: loading the network weights.bin");
        eprintln!("fake: cannot open weights.bin: No such file or directory");
        process::abort();
    }
    if let Some(ms) = args.start_delay_ms {
        thread::sleep(Duration::from_millis(ms));
    }
    if args.stubborn {
        for signal in [libc::SIGHUP, libc::SIGINT, libc::SIGTERM] {
            // SAFETY: setting a signal's disposition to "ignore" runs no handler.
            unsafe {
                libc::signal(signal, libc::SIG_IGN);
            }
        }
    }
    let log = match &args.log {
        Some(path) => Some(OpenOptions::new().create(true).append(true).open(path)?),
        None => None,
    };
    let mut engine = Engine {
        args,
        size: 19,
        genmoves: 0,
        next_move: 0,
        next_cleanup_move: 0,
        log,
        board: None,
    };
    engine.clear_board();
    let mut input = io::stdin().lock();
    let mut out = io::stdout().lock();
    let mut raw = Vec::new();
    loop {
        raw.clear();
        if input.read_until(b'\n', &mut raw)? == 0 {
            return Ok(());
        }
        let line = String::from_utf8_lossy(&raw);
        let Some(command) = parse_command_line(&line) else {
            continue;
        };
        engine.log_line(line.trim_end_matches(['\r', '\n']))?;
        let id = command.id.filter(|_| engine.args.id_echo);
        match engine.run(&command, &mut out)? {
            Outcome::Answer(result) => {
                let result = result.as_deref().map_err(String::as_str);
                out.write_all(format_response(id, result).as_bytes())?;
            }
            Outcome::Quit => {
                out.write_all(format_response(id, Ok("")).as_bytes())?;
                out.flush()?;
                return Ok(());
            }
            Outcome::Silent => {}
        }
        out.flush()?;
    }
}
