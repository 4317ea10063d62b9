//! `goref worker nats://HOST:PORT`: this machine plays matches' pairs.

use std::io::IsTerminal;

use super::game_runtime;
use super::Outcome;
use crate::app::screen_options;
use crate::cli::WorkerArgs;

/// `goref worker nats://HOST:PORT`.
pub(super) fn worker(args: WorkerArgs) -> Result<Outcome, String> {
    let link = crate::broker::work::BrokerLink::parse(
        &args.broker_url,
        args.broker.creds,
        args.broker.tls_ca,
    )?
    .with_env();
    let file = crate::worker::file::load(&args.config)?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let slots = args.slots.or(file.slots).unwrap_or(cores);
    if slots == 0 {
        return Err("--slots: at least 1".into());
    }
    let name = args
        .name
        .or_else(|| file.name.clone())
        .unwrap_or_else(crate::worker::file::default_name);
    if !goref_core::matches::jobs::is_plain_name(&name) {
        return Err(format!(
            "--name '{name}': a worker's name is letters, digits, '-', '_' and '.'"
        ));
    }
    let only = args.only.as_deref().map(crate::broker::work::match_id);
    crate::worker::file::prepare_games_folder(&args.dir)?;
    let options = crate::worker::WorkerOptions {
        link,
        file,
        name,
        slots,
        dir: args.dir,
        only,
    };
    let mut on_screen = !args.headless;
    if on_screen && !std::io::stdout().is_terminal() {
        on_screen = false;
    }
    if on_screen {
        let screen = screen_options(&args.screen)?;
        let dir = options.dir.clone();
        let over = "the worker stopped; q leaves";
        let plays_on = crate::hall::screen::Hangup::PlaysOn;
        let shown =
            crate::match_play::screen::run_on_screen(&dir, screen, over, plays_on, move |desk| {
                crate::worker::run_at(options, desk)
            });
        game_runtime()?.block_on(shown)?;
    } else {
        crate::worker::run(options)?;
    }
    Ok(Outcome::Done)
}
