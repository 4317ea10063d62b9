//! `goref --watch` and `goref attach`: a game another goref referees,
//! followed as a spectator or taken back as its operator.

use crate::shell_time::Threads;
use std::io::IsTerminal;

use super::game_runtime;
use super::spectators::token_from_environment;
use crate::app::screen_options;
use crate::app::watch::Headless;
use crate::app::watch::WatchEnd;
use crate::broker::address::BrokerAddress;
use crate::cli::AttachArgs;
use crate::cli::WatchArgs;
use crate::console;
use crate::journal;
use crate::mirror::follow::Target;
use crate::ui::Role;

/// `goref --watch HOST:PORT` or `nats://HOST:PORT/EVENT[/BOARD]`: a
/// spectator's screen, or its lines.
pub(super) fn watch(address: &str, args: &WatchArgs) -> Result<WatchEnd, String> {
    let target = match address.starts_with("nats://") {
        true => {
            let broker = BrokerAddress::parse(address).map_err(|e| format!("--watch {e}"))?;
            if broker.event.is_none() {
                return Err(format!(
                    "--watch {address}: name the event or game, as the referee announced it: \
                     nats://HOST:PORT/EVENT[/BOARD]"
                ));
            }
            Target::Broker(broker)
        }
        false => {
            let port = address
                .rsplit_once(':')
                .map(|(_, port)| port.parse::<u16>());
            if !matches!(port, Some(Ok(_))) {
                return Err(format!(
                    "--watch {address}: give the referee's HOST:PORT, e.g. venue-host:7777, \
                     or a broker's nats://HOST:PORT/EVENT"
                ));
            }
            Target::Tcp(address.to_string())
        }
    };
    let options = screen_options(&args.screen())?;
    let token = args.token.clone().or_else(token_from_environment);
    let mut headless = match (args.headless, args.json) {
        (true, true) => Some(Headless::Json),
        (true, false) => Some(Headless::Progress),
        (false, _) => None,
    };
    if headless.is_none() && !std::io::stdout().is_terminal() {
        console::say("goref: stdout is not a terminal, so no full screen: progress lines instead");
        headless = Some(Headless::Progress);
    }
    let runtime =
        crate::shell_time::runtime(Threads::PerCore).map_err(|e| format!("cannot start: {e}"))?;
    runtime.block_on(crate::app::watch::run(
        target,
        token,
        headless,
        options,
        Role::Spectator,
        args.board,
    ))
}

/// `goref attach DIR`: the operator's screen of the game refereed in DIR.
pub(super) fn attach(args: &AttachArgs) -> Result<(), String> {
    let dir = args.dir.display();
    if args.dir.join(crate::event::file::EVENT_FILE).is_file() {
        return Err(format!(
            "{dir} is an event's folder: `goref event {dir}` runs it and shows its hall, and \
             `goref attach {dir}/round-N/board-B` one board's game"
        ));
    }
    if !args.dir.join(journal::folder::JOURNAL).is_file() {
        return Err(format!("{dir} holds no game (no journal.jsonl)"));
    }
    let socket = args.dir.join(journal::folder::SOCKET);
    if !socket.exists() {
        let over = args.dir.join(journal::folder::MANIFEST).exists();
        return Err(match over {
            true => format!("the game in {dir} is over: its record is {dir}/game.sgf"),
            false => format!(
                "no goref is refereeing the game in {dir} (no attach.sock): if goref died, \
                 `goref resume {dir}` continues the game"
            ),
        });
    }
    if !std::io::stdout().is_terminal() {
        return Err("goref attach draws the full screen: run it in a terminal".into());
    }
    let options = screen_options(&args.screen)?;
    let runtime = game_runtime()?;
    let target = Target::Unix(socket);
    let attached = crate::app::watch::run(target, None, None, options, Role::Operator, None);
    runtime
        .block_on(attached)
        .map(drop)
        .map_err(|e| format!("{e} (if goref died, `goref resume {dir}` continues the game)"))
}
