//! The code shared by the two Usenix test players, `usenix_strict` and
//! `usenix_sloppy`: each includes this file as a module and passes in only
//! how it spells its moves.
//!
//! A player speaks the 1987 Usenix computer-Go referee protocol on stdin and
//! stdout, one line a message. The first line it reads is its colour,
//! `black` or `white`; Black answers at once with its first move. After
//! that every line read is the opponent's move (`Q16`, `pass`), which is
//! played on the player's own board and answered with a move of its own. A
//! `byo-romi` line, which may come before an opponent move, says the
//! player's hour of CPU time is used up: it is noted on stderr and skipped.
//! On end of input the player exits 0.
//!
//! The player picks a random legal point that is not eye-like for itself,
//! and passes when there is none. Flags make it misbehave at chosen moves so
//! that the referee's handling of faulty programs can be tested.

use std::hint::black_box;
use std::io::{self, BufRead, Write};
use std::process::{self, ExitCode};
use std::thread;
use std::time::Duration;

use clap::Parser;
use goref_core::game::board::{Board, BoardRules, KoRule};
use goref_core::game::coord::{Color, Move, Point};

/// The player's flags; both programs take the same ones.
#[derive(Parser, Debug)]
#[command(about = "A random Go player speaking the 1987 Usenix referee protocol")]
pub(crate) struct Args {
    /// The seed of the move choice.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The board size (the referee does not tell it).
    #[arg(long, default_value_t = 19)]
    size: u8,
    /// Pass when the opponent passed and this many own moves were made.
    #[arg(long, value_name = "N", default_value_t = 400)]
    max_moves: u32,
    /// On the Nth own move (1-based), spin the CPU forever instead of answering.
    #[arg(long, value_name = "N")]
    burn_from: Option<u32>,
    /// Before each own move, use this many milliseconds of user CPU time.
    #[arg(long, value_name = "MS", default_value_t = 0)]
    burn_each_ms: u64,
    /// On the Nth own move, sleep forever instead of answering.
    #[arg(long, value_name = "N")]
    sleep_from: Option<u32>,
    /// At start, leave a child process `sleep 60` running.
    #[arg(long)]
    fork: bool,
    /// As the Nth own move, play on an occupied point.
    #[arg(long, value_name = "N")]
    illegal_at: Option<u32>,
    /// As the Nth own move, write `resign`.
    #[arg(long, value_name = "N")]
    resign_at: Option<u32>,
    /// Write a `# thinking about move N` line before every move.
    #[arg(long)]
    garbage: bool,
}

/// How a program writes its lines.
pub(crate) struct Style {
    /// All the bytes written for a move, line ending(s) included, given the
    /// move and the player's own move number (1-based).
    pub format_move: fn(Move, u32) -> String,
    /// The ending of the player's other lines (the `--garbage` ones).
    pub eol: &'static str,
}

/// Parses the flags and plays one game; the exit status of the program.
pub(crate) fn run(style: Style) -> ExitCode {
    let args = Args::parse();
    // The child is deliberately left running (and never reaped): the referee
    // must cope with a player that leaves a process behind.
    let _child = args.fork.then(spawn_sleeper);
    match play_game(args, style) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("usenix player: {e}");
            ExitCode::FAILURE
        }
    }
}

fn spawn_sleeper() -> Option<process::Child> {
    match process::Command::new("sleep").arg("60").spawn() {
        Ok(child) => Some(child),
        Err(e) => {
            eprintln!("usenix player: cannot start sleep 60: {e}");
            None
        }
    }
}

/// Reads the colour, then answers every opponent move until end of input.
fn play_game(args: Args, style: Style) -> io::Result<ExitCode> {
    let mut input = io::stdin().lock();
    let mut out = io::stdout().lock();
    let Some(first) = read_line(&mut input)? else {
        return Ok(ExitCode::SUCCESS);
    };
    let me = match first.as_str() {
        "black" => Color::Black,
        "white" => Color::White,
        other => {
            eprintln!("usenix player: expected black or white, got {other:?}");
            return Ok(ExitCode::from(2));
        }
    };
    let rules = BoardRules {
        ko: KoRule::Simple,
        suicide_allowed: false,
    };
    let board = match Board::new(args.size, rules) {
        Ok(board) => board,
        Err(e) => {
            eprintln!("usenix player: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    let mut player = Player {
        rng: XorShift::new(args.seed),
        args,
        style,
        board,
        me,
        moves_made: 0,
    };
    if me == Color::Black {
        player.answer(Heard::Nothing, &mut out)?;
    }
    while let Some(line) = read_line(&mut input)? {
        if line == "byo-romi" {
            eprintln!("got byo-romi");
            continue;
        }
        let heard = player.take_opponent_move(&line);
        player.answer(heard, &mut out)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The next non-empty line without its line ending; `None` at end of input.
fn read_line(input: &mut impl BufRead) -> io::Result<Option<String>> {
    let mut raw = Vec::new();
    loop {
        raw.clear();
        if input.read_until(b'\n', &mut raw)? == 0 {
            return Ok(None);
        }
        let line = String::from_utf8_lossy(&raw);
        let line = line.trim();
        if !line.is_empty() {
            return Ok(Some(line.to_string()));
        }
    }
}

/// What the opponent's last line was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Heard {
    /// Nothing yet: Black's first move.
    Nothing,
    Played,
    Passed,
    /// A line that could not be played on this board; answered by a pass.
    Unplayable,
}

struct Player {
    args: Args,
    style: Style,
    board: Board,
    me: Color,
    rng: XorShift,
    /// Own moves written (or started) so far.
    moves_made: u32,
}

impl Player {
    /// Plays the opponent's move on the board. A move that cannot be played
    /// is reported on stderr and counted as a pass, so the turns stay in step.
    fn take_opponent_move(&mut self, line: &str) -> Heard {
        let opponent = self.me.opponent();
        let size = self.board.size();
        let played = match Move::parse_gtp(line, size) {
            Ok(Move::Play(p)) => self.board.play(opponent, p).map_err(|e| e.to_string()),
            Ok(Move::Pass) => {
                self.pass(opponent);
                return Heard::Passed;
            }
            Ok(Move::Resign) => Err("a resignation".to_string()),
            Err(e) => Err(e.to_string()),
        };
        match played {
            Ok(_) => Heard::Played,
            Err(why) => {
                eprintln!("usenix player: cannot play the opponent's {line:?}: {why}");
                self.pass(opponent);
                Heard::Unplayable
            }
        }
    }

    /// Chooses, records and writes the next own move, or misbehaves as the
    /// flags ask.
    fn answer(&mut self, heard: Heard, out: &mut impl Write) -> io::Result<()> {
        self.moves_made += 1;
        let n = Some(self.moves_made);
        if self.args.burn_from == n {
            burn_forever();
        }
        if self.args.sleep_from == n {
            sleep_forever();
        }
        burn_for(Duration::from_millis(self.args.burn_each_ms));
        let mv = if self.args.resign_at == n {
            Move::Resign
        } else if self.args.illegal_at == n {
            Move::Play(self.occupied_point())
        } else if heard == Heard::Unplayable {
            Move::Pass
        } else {
            self.choose(heard == Heard::Passed)
        };
        self.record(mv);
        if self.args.garbage {
            write!(
                out,
                "# thinking about move {}{}",
                self.moves_made, self.style.eol
            )?;
        }
        out.write_all((self.style.format_move)(mv, self.moves_made).as_bytes())?;
        out.flush()
    }

    /// A random legal point that is not eye-like for the player, or a pass.
    fn choose(&mut self, opponent_passed: bool) -> Move {
        let made_before = self.moves_made - 1;
        if opponent_passed && made_before >= self.args.max_moves {
            return Move::Pass;
        }
        let candidates: Vec<Point> = self
            .board
            .legal_points(self.me)
            .into_iter()
            .filter(|&p| !self.board.is_eye_like(self.me, p))
            .collect();
        if candidates.is_empty() {
            Move::Pass
        } else {
            Move::Play(candidates[self.rng.below(candidates.len())])
        }
    }

    /// The first occupied point; on an empty board, a point just above it.
    fn occupied_point(&self) -> Point {
        match self.board.stones().next() {
            Some((p, _)) => p,
            None => Point::new(0, self.board.size()),
        }
    }

    /// Puts the own move on the board. A move the board refuses (the
    /// deliberate illegal one) or a resignation counts as a pass there.
    fn record(&mut self, mv: Move) {
        let placed = match mv {
            Move::Play(p) => self.board.play(self.me, p).is_ok(),
            Move::Pass | Move::Resign => false,
        };
        if !placed {
            self.pass(self.me);
        }
    }

    fn pass(&mut self, color: Color) {
        self.board
            .pass(color)
            .expect("every line read is answered, so the turns stay in step");
    }
}

/// Spins the CPU in user mode forever.
fn burn_forever() -> ! {
    let mut x: u64 = 1;
    loop {
        x = black_box(x)
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1);
    }
}

/// Spins the CPU in user mode until the process has used `amount` more of
/// CPU time.
fn burn_for(amount: Duration) {
    if amount.is_zero() {
        return;
    }
    let cpu = || {
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
        Duration::from_micros(
            usage.ru_utime.tv_sec as u64 * 1_000_000 + usage.ru_utime.tv_usec as u64,
        )
    };
    let until = cpu() + amount;
    let mut x: u64 = 1;
    while cpu() < until {
        for _ in 0..100_000 {
            x = black_box(x)
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
        }
    }
}

/// Sleeps forever without using the CPU.
fn sleep_forever() -> ! {
    loop {
        thread::sleep(Duration::from_secs(3600));
    }
}

/// A xorshift64 generator: enough randomness for picking moves.
struct XorShift(u64);

impl XorShift {
    fn new(seed: u64) -> XorShift {
        // Spread the seed and make it odd, so it is never the stuck state 0.
        XorShift(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// A number in `0..n`; `n` must not be 0.
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}
