//! A scripted fake GTP engine for fault tests.
//!
//! It keeps no board unless told to (`--board`): `genmove` answers come from
//! `--moves`, and flags make
//! it crash, hang, send garbage, flood stderr, answer slowly or refuse
//! commands at chosen points, so the referee's handling of misbehaving
//! engines can be tested against a real process.
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
use goref::game::board::{Board, BoardRules, KoRule};
use goref::game::coord::{Color, Move, MAX_SIZE, MIN_SIZE};
use goref::protocol::gtp::codec::{format_response, parse_command_line, Command};

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
    /// Sleep this long before every genmove answer.
    #[arg(long, value_name = "MS")]
    delay_ms: Option<u64>,
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
            "protocol_version" => ok("2"),
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
        if let Some(ms) = self.args.delay_ms {
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
