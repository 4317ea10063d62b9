//! `goref seat`: this machine's program, seated at a venue or playing on a
//! CGOS server (`cgos://HOST:PORT`).

use std::io::IsTerminal;
use std::path::PathBuf;

use super::game_runtime;
use super::Outcome;
use crate::app::screen_options;
use crate::cli::SeatArgs;
use crate::console;
use crate::players::PlayerSpec;
use crate::transport::process::{CGOS_PASSWORD_VARIABLE, SECRET_VARIABLE};

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
    if args.password.is_some() {
        return Err(
            "--password would show the password to every user of this machine (ps): run \
             GOREF_CGOS_PASSWORD=PASSWORD goref seat cgos://..., or keep the password in a \
             file of mode 600 and give --password-file FILE"
                .into(),
        );
    }
    if let Some(engine) = &args.engine {
        let spec: PlayerSpec = engine
            .parse()
            .map_err(|e: crate::players::SpecError| e.to_string())?;
        let self_exe = super::self_exe();
        args.program = crate::players::gtp_command_line(&spec, &self_exe).ok_or_else(|| {
            format!("--engine {engine}: a seat runs a GTP program: gtp:CMDLINE or bot[:SEED]")
        })?;
    }
    if let Some(server) = args.address.strip_prefix("cgos://") {
        let server = server.trim_end_matches('/').to_string();
        return cgos_seat(server, args);
    }
    let (Some(entrant), Some(pin)) = (args.entrant.clone(), args.pin.clone()) else {
        return Err(
            "a venue's seat needs --entrant NAME and --pin sha256:HEX, as the venue's line \
             gives them (a CGOS server is cgos://HOST:PORT)"
                .into(),
        );
    };
    if args.user.is_some() || args.password_file.is_some() || args.games.is_some() {
        return Err("--user, --password-file and --games are for a CGOS server (cgos://)".into());
    }
    let token = crate::seats::token::seat_token(
        std::env::var(SECRET_VARIABLE).ok(),
        args.token_file.as_deref(),
    )?;
    let options = crate::seats::client::SeatOptions {
        log: args
            .program_log
            .unwrap_or_else(|| PathBuf::from(format!("seat-{entrant}.log"))),
        address: args.address,
        entrant,
        token,
        pin,
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

/// `goref seat cgos://HOST:PORT --user NAME`: the program on a CGOS server.
fn cgos_seat(server: String, args: SeatArgs) -> Result<Outcome, String> {
    if args.entrant.is_some() || args.pin.is_some() || args.token_file.is_some() {
        return Err(
            "--entrant, --pin and --token-file are for a venue's seat; a CGOS server takes \
             --user NAME and its password"
                .into(),
        );
    }
    if !server.contains(':') {
        return Err(format!(
            "cgos://{server}: give the server as cgos://HOST:PORT"
        ));
    }
    let user = args
        .user
        .ok_or("a CGOS server needs --user NAME: the name to log in as")?;
    let password = crate::seats::token::cgos_password(
        std::env::var(CGOS_PASSWORD_VARIABLE).ok(),
        args.password_file.as_deref(),
    )?;
    if args.games == Some(0) {
        return Err("--games 0: give at least one game, or leave --games out to play on".into());
    }
    let dir = args.dir.unwrap_or_else(|| PathBuf::from("cgos-games"));
    let options = crate::cgos_seat::CgosOptions {
        log: args
            .program_log
            .unwrap_or_else(|| dir.join(format!("{user}-program.log"))),
        address: server,
        user,
        password,
        program: args.program,
        dir,
        games: args.games,
    };
    let runtime = game_runtime()?;
    let ended = if args.headless || !std::io::stdout().is_terminal() {
        runtime.block_on(crate::cgos_seat::run(options, None))?
    } else {
        let screen = screen_options(&args.screen)?;
        runtime.block_on(crate::app::seat_screen::run_cgos(options, screen))?
    };
    if !ended.is_empty() {
        console::say(format!("goref seat: {ended}"));
    }
    Ok(Outcome::Done)
}
