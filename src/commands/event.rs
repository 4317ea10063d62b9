//! `goref event ...`: a tournament in one folder, on the hall or headless,
//! and the director's commands from the shell.

use std::io::IsTerminal;

use super::game_runtime;
use super::spectators::serve;
use super::Outcome;
use crate::app::screen_options;
use crate::cli::EventAction;
use crate::cli::EventArgs;
use crate::console;
use crate::event::file::PublishSettings;

/// `goref event ...`: a tournament in one folder.
pub(super) fn event(args: EventArgs) -> Result<Outcome, String> {
    let needs_dir = |command: &str| {
        args.dir.clone().ok_or_else(|| {
            format!("{command}: give the event's folder (goref event init DIR writes one)")
        })
    };
    match args.action {
        Some(EventAction::Init { dir }) => crate::event::init(&dir).map(|path| {
            console::out(format!(
                "wrote {}: fill in the event and its entrants",
                path.display()
            ));
            Outcome::Done
        }),
        Some(EventAction::Result {
            round,
            black,
            white,
            result,
            reason,
            over_ride,
        }) => {
            let dir = needs_dir("goref event DIR result")?;
            let asked = crate::event::DirectorResult {
                round,
                black,
                white,
                result,
                reason,
                replace: over_ride,
            };
            for line in crate::event::set_result(&dir, &asked)? {
                console::out(line);
            }
            Ok(Outcome::Done)
        }
        Some(EventAction::Seats) => {
            let dir = needs_dir("goref event DIR seats")?;
            for line in crate::event::seat_lines(&dir)? {
                console::out(line);
            }
            Ok(Outcome::Done)
        }
        Some(EventAction::Retry {
            round,
            board,
            reason,
        }) => {
            let dir = needs_dir("goref event DIR retry")?;
            console::out(crate::event::retry_board(&dir, round, board, &reason)?);
            Ok(Outcome::Done)
        }
        None => {
            let dir = needs_dir("goref event DIR")?;
            let options = crate::event::run::EventOptions {
                yes: args.yes,
                json: args.json,
            };
            let mut hall = !args.headless && !args.json;
            if hall && !std::io::stdout().is_terminal() {
                console::say("goref: stdout is not a terminal, so no hall: progress lines instead");
                hall = false;
            }
            let screen = match hall {
                true => Some(screen_options(&args.screen)?),
                false => None,
            };
            let (name, settings) = match &args.spectators.publish {
                Some(_) => {
                    let file = crate::event::file::load(&dir).map_err(|e| e.to_string())?;
                    (file.name, file.publish)
                }
                None => (String::new(), PublishSettings::default()),
            };
            let queue = crate::mirror::hall_hub::HALL_QUEUE;
            let mirror = serve(&args.spectators, queue, &name, &settings)?;
            let end = match (screen, &mirror) {
                (Some(screen), mirror) => {
                    let runtime = game_runtime()?;
                    let hall = crate::event::hall::run(&dir, &options, screen, mirror.as_ref());
                    runtime.block_on(hall)?
                }
                (None, Some(mirror)) => {
                    let runtime = game_runtime()?;
                    runtime.block_on(crate::event::hall::serve_headless(&dir, &options, mirror))?
                }
                (None, None) => crate::event::run::run(&dir, &options)?,
            };
            match end {
                crate::event::run::EventEnd::Finished { standings_html } => {
                    if hall {
                        console::say(format!(
                            "goref: the event is over: the standings are in {}",
                            standings_html.display()
                        ));
                    }
                    Ok(Outcome::Done)
                }
                crate::event::run::EventEnd::Stopped(why) => {
                    console::say(format!("goref: {why}"));
                    Ok(Outcome::Undecided)
                }
            }
        }
    }
}
