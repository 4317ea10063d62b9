//! The bare referees: the least a durable referee does with GNU Go, for the
//! games `referee_cpu` also has goref play on the same seeds.
//!
//! Each sets the engines up, and for each move asks the mover `genmove`,
//! appends a journal line of the move and syncs it (`fdatasync`), and tells
//! the other engine `play`, until two passes or a resignation. No rules, no
//! clock, no record, no events: only the engines' answers, read as they
//! come, and the sync.
//!
//! * `referee_cpu bare DIR SIZE SEED` reads over blocking pipes: one
//!   `read` a piece of an answer, the least any referee pays.
//! * `referee_cpu bare-tokio DIR SIZE SEED` does the same on tokio's pipes
//!   in one task on a current-thread runtime, as goref's shell does: the
//!   least an async referee pays, with a readiness wait before each read.

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::{wrapped_gnugo, GNUGO};

/// The wrapped, seeded GNU Go that goref's games use too.
fn engine_command(me: &Path, report: &Path, seed: u64) -> Command {
    let mut command = Command::new(me);
    command
        .args(wrapped_gnugo(report, seed))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped());
    command
}

/// Takes one line of an answer; true once the blank line that ends it came.
fn answer_ends(answer: &mut String, line: &str) -> bool {
    if line.trim().is_empty() && !answer.is_empty() {
        return true;
    }
    answer.push_str(line);
    false
}

/// The answer's text after `=ID`, or what went wrong.
fn answer_text(id: u32, command: &str, answer: &str) -> Result<String, String> {
    match answer.strip_prefix(&format!("={id}")) {
        Some(rest) => Ok(rest.trim().to_string()),
        None => Err(format!("'{command}' answered '{}'", answer.trim())),
    }
}

/// The commands that set an engine up for a game of `size`.
fn setup(size: &str) -> [String; 3] {
    [
        format!("boardsize {size}"),
        "clear_board".into(),
        "komi 7.5".into(),
    ]
}

/// A bare game's journal and its count of moves and passes.
struct BareGame {
    journal: fs::File,
    moves: usize,
    passes: u32,
    over: bool,
}

const COLOURS: [&str; 2] = ["black", "white"];

impl BareGame {
    fn open(dir: &Path) -> Result<BareGame, String> {
        let journal = fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(dir.join("bare.jsonl"))
            .map_err(|e| e.to_string())?;
        Ok(BareGame {
            journal,
            moves: 0,
            passes: 0,
            over: false,
        })
    }

    /// Who moves next and the `genmove` to ask, until the game is over.
    fn next(&self) -> Option<(usize, String)> {
        let mover = self.moves % 2;
        (!self.over && self.moves < 1000).then(|| (mover, format!("genmove {}", COLOURS[mover])))
    }

    /// Appends and syncs the move the mover answered; the `play` to tell
    /// the other engine, unless the game is over.
    fn record(&mut self, vertex: &str) -> Result<Option<String>, String> {
        let colour = COLOURS[self.moves % 2];
        self.moves += 1;
        self.journal
            .write_all(
                format!(
                    "{{\"seq\":{},\"type\":\"move\",\"colour\":\"{colour}\",\"vertex\":\"{vertex}\"}}\n",
                    self.moves
                )
                .as_bytes(),
            )
            .map_err(|e| e.to_string())?;
        self.journal.sync_data().map_err(|e| e.to_string())?;
        self.passes = if vertex.eq_ignore_ascii_case("pass") {
            self.passes + 1
        } else {
            0
        };
        self.over = self.passes >= 2 || vertex.eq_ignore_ascii_case("resign");
        Ok((!self.over).then(|| format!("play {colour} {vertex}")))
    }

    /// Leaves the count of moves in `DIR/bare.moves` for `referee_cpu`.
    fn finish(self, dir: &Path) -> Result<(), String> {
        fs::write(dir.join("bare.moves"), self.moves.to_string()).map_err(|e| e.to_string())
    }
}

fn parse_args(args: &[String]) -> Result<(&Path, &str, u64, std::path::PathBuf), String> {
    let [dir, size, seed] = args else {
        return Err("bare DIR SIZE SEED".into());
    };
    let seed = seed.parse().map_err(|_| format!("not a number: {seed}"))?;
    let me = std::env::current_exe().map_err(|e| e.to_string())?;
    Ok((Path::new(dir), size, seed, me))
}

/// One GTP engine over blocking pipes.
struct BlockingEngine {
    child: std::process::Child,
    input: std::process::ChildStdin,
    output: std::io::BufReader<std::process::ChildStdout>,
    next_id: u32,
}

impl BlockingEngine {
    fn start(me: &Path, report: &Path, seed: u64) -> Result<BlockingEngine, String> {
        let mut child = engine_command(me, report, seed)
            .spawn()
            .map_err(|e| format!("cannot start {GNUGO}: {e}"))?;
        let input = child.stdin.take().ok_or("no stdin")?;
        let output = std::io::BufReader::new(child.stdout.take().ok_or("no stdout")?);
        Ok(BlockingEngine {
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
            if answer_ends(&mut answer, &line) {
                return answer_text(id, command, &answer);
            }
        }
    }

    fn quit(mut self) -> Result<(), String> {
        self.ask("quit")?;
        self.child.wait().map_err(|e| e.to_string())?;
        Ok(())
    }
}

/// `referee_cpu bare DIR SIZE SEED`: the bare referee over blocking pipes.
pub(crate) fn blocking(args: &[String]) -> Result<(), String> {
    let (dir, size, seed, me) = parse_args(args)?;
    let mut engines = [
        BlockingEngine::start(&me, &dir.join("black.cpu"), seed)?,
        BlockingEngine::start(&me, &dir.join("white.cpu"), seed + 1000)?,
    ];
    for engine in &mut engines {
        for command in setup(size) {
            engine.ask(&command)?;
        }
    }
    let mut game = BareGame::open(dir)?;
    while let Some((mover, genmove)) = game.next() {
        let vertex = engines[mover].ask(&genmove)?;
        if let Some(play) = game.record(&vertex)? {
            engines[1 - mover].ask(&play)?;
        }
    }
    for engine in engines {
        engine.quit()?;
    }
    game.finish(dir)
}

/// One GTP engine over tokio's pipes.
struct TokioEngine {
    child: tokio::process::Child,
    input: tokio::process::ChildStdin,
    output: tokio::io::BufReader<tokio::process::ChildStdout>,
    next_id: u32,
}

impl TokioEngine {
    fn start(me: &Path, report: &Path, seed: u64) -> Result<TokioEngine, String> {
        let mut child = tokio::process::Command::from(engine_command(me, report, seed))
            .spawn()
            .map_err(|e| format!("cannot start {GNUGO}: {e}"))?;
        let input = child.stdin.take().ok_or("no stdin")?;
        let output = tokio::io::BufReader::new(child.stdout.take().ok_or("no stdout")?);
        Ok(TokioEngine {
            child,
            input,
            output,
            next_id: 1,
        })
    }

    async fn ask(&mut self, command: &str) -> Result<String, String> {
        use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
        let id = self.next_id;
        self.next_id += 1;
        self.input
            .write_all(format!("{id} {command}\n").as_bytes())
            .await
            .map_err(|e| e.to_string())?;
        let mut answer = String::new();
        loop {
            let mut line = String::new();
            if self
                .output
                .read_line(&mut line)
                .await
                .map_err(|e| e.to_string())?
                == 0
            {
                return Err(format!("the engine closed its output after '{command}'"));
            }
            if answer_ends(&mut answer, &line) {
                return answer_text(id, command, &answer);
            }
        }
    }

    async fn quit(mut self) -> Result<(), String> {
        self.ask("quit").await?;
        self.child.wait().await.map_err(|e| e.to_string())?;
        Ok(())
    }
}

/// `referee_cpu bare-tokio DIR SIZE SEED`: the bare referee on tokio.
pub(crate) fn on_tokio(args: &[String]) -> Result<(), String> {
    let (dir, size, seed, me) = parse_args(args)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(async {
        let mut engines = [
            TokioEngine::start(&me, &dir.join("black.cpu"), seed)?,
            TokioEngine::start(&me, &dir.join("white.cpu"), seed + 1000)?,
        ];
        for engine in &mut engines {
            for command in setup(size) {
                engine.ask(&command).await?;
            }
        }
        let mut game = BareGame::open(dir)?;
        while let Some((mover, genmove)) = game.next() {
            let vertex = engines[mover].ask(&genmove).await?;
            if let Some(play) = game.record(&vertex)? {
                engines[1 - mover].ask(&play).await?;
            }
        }
        for engine in engines {
            engine.quit().await?;
        }
        game.finish(dir)
    })
}
