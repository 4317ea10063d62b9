//! `goref match init DIR` and `goref match DIR`: an engine author's match.

use std::io::IsTerminal;

use super::game_runtime;
use super::Outcome;
use crate::app::screen_options;
use crate::cli::MatchAction;
use crate::cli::MatchArgs;
use crate::console;

/// `goref match init DIR` and `goref match DIR`.
pub(super) fn engine_match(args: MatchArgs) -> Result<Outcome, String> {
    match (args.action, args.dir) {
        (Some(MatchAction::Init { dir }), _) => crate::engine_match::init(&dir).map(|path| {
            console::out(format!(
                "wrote {}: name the engines, the openings and the stop rule",
                path.display()
            ));
            Outcome::Done
        }),
        (None, Some(dir)) => {
            let workers = args
                .workers
                .as_deref()
                .map(|url| {
                    crate::broker::work::BrokerLink::parse(
                        url,
                        args.broker.creds.clone(),
                        args.broker.tls_ca.clone(),
                    )
                    .map(|link| link.with_env())
                })
                .transpose()?;
            if args.slots == Some(0) {
                return Err("--slots: at least 1".into());
            }
            let options = crate::engine_match::run::MatchOptions {
                json: args.json,
                workers,
                slots: args.slots,
            };
            let mut on_screen = !args.headless && !args.json;
            if on_screen && !std::io::stdout().is_terminal() {
                console::say(
                    "goref: stdout is not a terminal, so no screen: progress lines instead",
                );
                on_screen = false;
            }
            let ended = match on_screen {
                true => {
                    let screen = screen_options(&args.screen)?;
                    let shown = crate::engine_match::screen::run(&dir, &options, screen);
                    game_runtime()?.block_on(shown).inspect(|figures| {
                        for line in figures.lines() {
                            console::say(line);
                        }
                    })
                }
                false => crate::engine_match::run::run(&dir, &options),
            };
            use crate::engine_match::run::MatchError;
            match ended {
                Ok(_) => Ok(Outcome::Done),
                Err(MatchError::Stopped(why)) => {
                    console::say(format!("goref: {why}"));
                    Ok(Outcome::Undecided)
                }
                Err(MatchError::Failed(why)) => Err(why),
            }
        }
        (None, None) => {
            Err("goref match DIR: give the match's folder (goref match init DIR writes one)".into())
        }
    }
}
