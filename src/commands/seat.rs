//! `goref seat`: this machine's program, seated at a venue.

use std::io::IsTerminal;
use std::path::PathBuf;

use super::game_runtime;
use super::Outcome;
use crate::app::screen_options;
use crate::cli::SeatArgs;
use crate::console;
use crate::players::PlayerSpec;

/// `goref seat`: this machine's program, seated at a venue.
pub(super) fn seat(mut args: SeatArgs) -> Result<Outcome, String> {
    if args.token.is_some() {
        return Err(
            "--token would show the token to every user of this machine (ps): run \
                    GOREF_TOKEN=TOKEN goref seat ..., as the venue's line gives it, or keep \
                    the token in a file of mode 600 and give --token-file FILE"
                .into(),
        );
    }
    let token = crate::seats::token::seat_token(
        std::env::var(crate::transport::process::SECRET_VARIABLE).ok(),
        args.token_file.as_deref(),
    )?;
    if let Some(engine) = &args.engine {
        let spec: PlayerSpec = engine
            .parse()
            .map_err(|e: crate::players::SpecError| e.to_string())?;
        let self_exe = super::self_exe();
        args.program = crate::players::gtp_command_line(&spec, &self_exe).ok_or_else(|| {
            format!("--engine {engine}: a seat runs a GTP program: gtp:CMDLINE or bot[:SEED]")
        })?;
    }
    let options = crate::seats::client::SeatOptions {
        log: args
            .program_log
            .unwrap_or_else(|| PathBuf::from(format!("seat-{}.log", args.entrant))),
        address: args.address,
        entrant: args.entrant,
        token,
        pin: args.pin,
        program: args.program,
    };
    let runtime = game_runtime()?;
    let goodbye = if args.headless || !std::io::stdout().is_terminal() {
        runtime.block_on(crate::seats::client::run(options, None))?
    } else {
        let screen = screen_options(&args.screen)?;
        runtime.block_on(crate::app::seat_screen::run(options, screen))?
    };
    if !goodbye.is_empty() {
        console::say(format!("goref seat: {goodbye}"));
    }
    Ok(Outcome::Done)
}
