//! The subcommands' glue: each command's arguments checked and turned into
//! the options of the room that does the work, run on a runtime when it is
//! async, and its end turned into an outcome; [`run`] dispatches and
//! gives the exit status.
//!
//! Exit status: 0 when a game reached a decided result (a winner or a draw)
//! with everything written; 1 when it ended without one (`?`, `Void`); 2 on
//! bad input or when no game could be played; 3 when a game was played but
//! its record or trace is incomplete (e.g. the disk filled up). `goref
//! --watch` ends 0, 2 when it cannot follow the game at all, and 3 when
//! its headless output could not take every line.

mod bot;
mod check;
mod engine_match;
mod event;
mod play;
mod seat;
mod seat_venue;
mod spectators;
mod standings;
mod watch;
mod worker;

use crate::shell_time::Threads;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::app::watch::WatchEnd;
use crate::cli::{Cli, Command, DemoArgs};
use crate::console;

/// The exit status of a game that ended without a decided result.
const UNDECIDED: u8 = 1;

/// The exit status of a game whose record or trace is incomplete.
const INCOMPLETE: u8 = 3;

/// How a command ended.
enum Outcome {
    Done,
    /// A game ended as `?` or `Void`.
    Undecided,
    /// A game was played, but these files do not hold all of it.
    Incomplete(Vec<String>),
}

/// Runs the command `cli` names, logging to `--log` if given, and gives its
/// exit status.
pub fn run(cli: Cli) -> ExitCode {
    let _log_guard = match cli.log.as_deref().map(install_logging).transpose() {
        Ok(guard) => guard,
        Err(message) => return fail(&message),
    };
    if let Some(address) = &cli.watch {
        if cli.command.is_some() {
            return fail("--watch follows a game another goref serves and takes no command");
        }
        return match watch::watch(address, &cli.watching) {
            Ok(WatchEnd::Done) => ExitCode::SUCCESS,
            Ok(WatchEnd::OutputCut) => {
                console::say(
                    "goref: the output could not take every line (closed, or the disk is full): \
                     the watch stopped there",
                );
                ExitCode::from(INCOMPLETE)
            }
            Err(message) => fail(&message),
        };
    }
    let outcome = match cli.command.unwrap_or(Command::Demo(DemoArgs::standard())) {
        Command::Bot(args) => bot::bot(args).map(|()| Outcome::Done),
        Command::Decode(args) => crate::files::read_bytes(&args.file, crate::files::JOURNAL_MAX)
            .map(|bytes| {
                console::out(crate::decode::decode(&bytes, args.size).trim_end());
                Outcome::Done
            })
            .map_err(|e| format!("cannot read {}: {e}", args.file.display())),
        Command::Replay(args) => crate::replay::run(&args)
            .map(|()| Outcome::Done)
            .map_err(|e| e.to_string()),
        Command::Play(args) => play::play(*args, false),
        Command::Demo(args) => play::play(play::demo_args(args), true),
        Command::Resume(args) => play::resume(*args),
        Command::Attach(args) => watch::attach(&args).map(|()| Outcome::Done),
        Command::Check(args) => check::check(&args),
        Command::Standings(args) => standings::standings(&args),
        Command::Event(args) => event::event(args),
        Command::Match(args) => engine_match::engine_match(args),
        Command::Seat(args) => seat::seat(args),
        Command::Worker(args) => worker::worker(args),
        Command::Completions(args) => print_bytes(&crate::manual::completions(args.shell)),
        Command::Man => print_bytes(&crate::manual::man_page()),
    };
    match outcome {
        Ok(Outcome::Done) => ExitCode::SUCCESS,
        Ok(Outcome::Undecided) => ExitCode::from(UNDECIDED),
        Ok(Outcome::Incomplete(files)) => {
            for file in files {
                console::say(format!("goref: {file}"));
            }
            ExitCode::from(INCOMPLETE)
        }
        Err(message) => fail(&message),
    }
}

fn fail(message: &str) -> ExitCode {
    console::say(format!("goref: {message}"));
    ExitCode::from(2)
}

/// Writes generated text (a man page, a completion script) to stdout; a
/// reader that closed the pipe early (`goref man | head`) is no error.
fn print_bytes(bytes: &[u8]) -> Result<Outcome, String> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => Ok(Outcome::Done),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(Outcome::Done),
        Err(e) => Err(format!("cannot write to stdout: {e}")),
    }
}

/// The runtime a game runs on: one thread. The players' reports, the
/// referee and the relays take turns on it, with no hand-offs between
/// threads; the disk writers, the mirror and the terminal's input have
/// threads of their own.
pub(super) fn game_runtime() -> Result<tokio::runtime::Runtime, String> {
    crate::shell_time::runtime(Threads::Caller).map_err(|e| format!("cannot start: {e}"))
}

pub(super) use crate::shell_time::today;

/// This goref's own binary, which starts the built-in engine and boards.
fn self_exe() -> PathBuf {
    std::env::current_exe().unwrap_or_else(|_| PathBuf::from("goref"))
}

/// Sends `tracing` to the file `--log` names (never to the terminal the
/// screen owns), filtered by `GOREF_LOG`; the guard flushes it at the end.
fn install_logging(
    path: &std::path::Path,
) -> Result<tracing_appender::non_blocking::WorkerGuard, String> {
    let target = crate::files::resolve_output(path, crate::files::Holds::Log)
        .map_err(|e| format!("--log: {e}"))?;
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&target)
        .map_err(|e| format!("cannot open the log {}: {e}", path.display()))?;
    let (writer, guard) = tracing_appender::non_blocking(file);
    tracing_subscriber::fmt()
        .with_writer(writer)
        .with_ansi(false)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("GOREF_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .init();
    Ok(guard)
}
