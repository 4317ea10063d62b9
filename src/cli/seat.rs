//! `goref seat`'s command line: a venue's seat or a CGOS server's client.

use std::path::PathBuf;

use clap::Args;

use super::ScreenArgs;

/// `goref seat`.
#[derive(Debug, Args)]
pub struct SeatArgs {
    /// The venue's HOST:PORT, or cgos://HOST:PORT for a CGOS server.
    pub address: String,
    /// The entrant this seat speaks for (a venue's seat).
    #[arg(long, value_name = "NAME")]
    pub entrant: Option<String>,
    /// A file holding the entrant's token, readable by its owner only
    /// (mode 600), instead of GOREF_TOKEN in the environment.
    #[arg(long, value_name = "FILE")]
    pub token_file: Option<PathBuf>,
    /// Refused: a token on the command line shows in ps.
    #[arg(long, hide = true)]
    pub token: Option<String>,
    /// The venue certificate's fingerprint, from the venue.
    #[arg(long, value_name = "sha256:HEX")]
    pub pin: Option<String>,
    /// The name to log in as on a CGOS server (cgos://).
    #[arg(long, value_name = "NAME")]
    pub user: Option<String>,
    /// A file holding the CGOS password, readable by its owner only
    /// (mode 600), instead of GOREF_CGOS_PASSWORD in the environment.
    #[arg(long, value_name = "FILE")]
    pub password_file: Option<PathBuf>,
    /// Refused: a password on the command line shows in ps.
    #[arg(long, hide = true)]
    pub password: Option<String>,
    /// On a CGOS server: stop after this many games, and exit 0.
    #[arg(long, value_name = "N")]
    pub games: Option<u32>,
    /// On a CGOS server: where each game's folder goes [default: cgos-games].
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// Where the program's stderr goes [default: seat-NAME.log] (--log is
    /// goref's own log, as for every command).
    #[arg(long, value_name = "FILE")]
    pub program_log: Option<PathBuf>,
    /// A progress line per event instead of the screen (for scripts and
    /// services; also when stdout is not a terminal).
    #[arg(long)]
    pub headless: bool,
    #[command(flatten)]
    pub screen: ScreenArgs,
    /// The program as a player spec goref takes (gtp:CMDLINE or bot[:SEED]),
    /// instead of the command line after --.
    #[arg(long, value_name = "SPEC", conflicts_with = "program")]
    pub engine: Option<String>,
    /// The program and its arguments.
    #[arg(
        last = true,
        required_unless_present = "engine",
        value_name = "PROGRAM"
    )]
    pub program: Vec<String>,
}
