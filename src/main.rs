//! The goref binary: parse the command line, set up logging, and hand the
//! command to [`goref::commands`], whose exit status it ends with.

use std::process::ExitCode;

use clap::Parser;

use goref::cli::Cli;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let _log_guard = match cli.log.as_deref().map(install_logging).transpose() {
        Ok(guard) => guard,
        Err(message) => {
            goref::console::say(format!("goref: {message}"));
            return ExitCode::from(2);
        }
    };
    goref::commands::run(cli)
}

fn install_logging(
    path: &std::path::Path,
) -> Result<tracing_appender::non_blocking::WorkerGuard, String> {
    let target = goref::files::resolve_output(path, goref::files::Holds::Log)
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
