//! `goref check SPEC`: one program's conformance card.

use super::game_runtime;
use super::today;
use super::Outcome;
use crate::cli::CheckArgs;
use crate::cli::PlayArgs;
use crate::config;
use crate::console;
use crate::signals::Signals;
use goref_core::game::Color;

/// `goref check SPEC`: the program's conformance card, on stdout.
pub(super) fn check(args: &CheckArgs) -> Result<Outcome, String> {
    let color: Color = args
        .color
        .parse()
        .map_err(|_| format!("--color {}: expected black or white", args.color))?;
    let (black, white) = match color {
        Color::Black => (args.spec.clone(), "bot".to_string()),
        Color::White => ("bot".to_string(), args.spec.clone()),
    };
    let play_args = PlayArgs {
        black: Some(black),
        white: Some(white),
        game: args.game.clone(),
        ..PlayArgs::default()
    };
    let self_exe = super::self_exe();
    let resolved =
        config::resolve(&play_args, self_exe.clone(), today()).map_err(|e| e.to_string())?;
    let spec = match color {
        Color::Black => resolved.black,
        Color::White => resolved.white,
    };
    let check = crate::check::CheckConfig {
        spec,
        color,
        game: resolved.game,
        command_timeout: resolved.command_timeout,
        self_exe,
        moves: args.moves.max(1),
        seats: Default::default(),
    };
    console::say(format!(
        "goref: checking {} as {}",
        check.spec,
        check.describe()
    ));
    let runtime = game_runtime()?;
    let card = runtime.block_on(async {
        let mut signals = Signals::install().map_err(|e| format!("cannot catch signals: {e}"))?;
        tokio::select! {
            card = crate::check::run(&check) => card.map_err(|e| e.to_string()),
            name = signals.next_stop() => Err(format!(
                "the check stopped on {name}: no card"
            )),
        }
    });
    drop(runtime);
    let card = card?;
    if args.json {
        console::out(card.to_json());
    } else {
        for line in card.render(crate::check::CARD_WIDTH) {
            console::out(line);
        }
    }
    if console::stdout_closed() {
        return Ok(Outcome::Incomplete(vec![
            "stdout closed before the whole card was printed".into(),
        ]));
    }
    Ok(match card.ready() {
        true => Outcome::Done,
        false => Outcome::Undecided,
    })
}
