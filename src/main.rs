//! The goref binary: parse the command line and hand it to
//! [`goref::commands`], which sets up logging, runs the command and gives
//! the exit status it ends with.

use std::process::ExitCode;

use clap::Parser;

use goref::cli::Cli;

fn main() -> ExitCode {
    goref::commands::run(Cli::parse())
}
