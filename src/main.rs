//! The goref binary: parse the command line, set up logging, dispatch.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::SystemTime;

use clap::Parser;

use goref::cli::{Cli, Command, DemoArgs, PlayArgs};
use goref::config;
use goref::driver::run_game;
use goref::game::sgf::Date;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let _log_guard = match cli.log.as_deref().map(install_logging).transpose() {
        Ok(guard) => guard,
        Err(message) => return fail(&message),
    };
    let outcome = match cli.command.unwrap_or(Command::Demo(DemoArgs {
        size: 9,
        ..DemoArgs::default()
    })) {
        Command::Bot(args) => {
            goref::bot::gtp::serve_stdio(args.size, args.seed).map_err(|e| format!("bot: {e}"))
        }
        Command::Play(args) => play(*args),
        Command::Demo(args) => play(demo_args(args)),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => fail(&message),
    }
}

fn fail(message: &str) -> ExitCode {
    eprintln!("goref: {message}");
    ExitCode::from(2)
}

/// The demo: the built-in engine against itself on a small board.
fn demo_args(args: DemoArgs) -> PlayArgs {
    PlayArgs {
        black: Some("bot:1".into()),
        white: Some("bot:2".into()),
        size: Some(args.size),
        output: args.output,
        ..PlayArgs::default()
    }
}

fn play(args: PlayArgs) -> Result<(), String> {
    let self_exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("goref"));
    let unix_seconds = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    let config = config::resolve(&args, self_exe, Date::from_unix_seconds(unix_seconds))
        .map_err(|e| e.to_string())?;
    if !args.output.headless && !args.output.json {
        eprintln!("goref: the full-screen view is not available yet; showing progress lines");
    }
    let runtime = tokio::runtime::Runtime::new().map_err(|e| format!("cannot start: {e}"))?;
    let result = runtime
        .block_on(run_game(config))
        .map_err(|e| e.to_string())?;
    tracing::info!(result = %result.result, reason = %result.reason, "game over");
    Ok(())
}

fn install_logging(
    path: &std::path::Path,
) -> Result<tracing_appender::non_blocking::WorkerGuard, String> {
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
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
