//! The goref binary: parse the command line, set up logging, and hand the
//! command to [`goref::commands`], whose exit status it ends with.

use std::process::ExitCode;

use clap::Parser;

use goref::cli::Cli;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let _log_guard = match cli
        .log
        .as_deref()
        .map(goref::commands::install_logging)
        .transpose()
    {
        Ok(guard) => guard,
        Err(message) => {
            goref::console::say(format!("goref: {message}"));
            return ExitCode::from(2);
        }
    };
    goref::commands::run(cli)
}
