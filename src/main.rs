//! The goref binary: parse the command line, set up logging, dispatch, and
//! turn the outcome into an exit status.
//!
//! Exit status: 0 when a game reached a decided result (a winner or a draw)
//! with everything written; 1 when it ended without one (`?`, `Void`); 2 on
//! bad input or when no game could be played; 3 when a game was played but
//! its record or trace is incomplete (e.g. the disk filled up). `goref
//! --watch` ends 0, 2 when it cannot follow the game at all, and 3 when
//! its headless output could not take every line.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::SystemTime;

use clap::Parser;

use std::io::IsTerminal;

use goref::app::live::ScreenOptions;
use goref::app::watch::{Headless, WatchEnd};
use goref::app::{screen_options, Ending};
use goref::cli::{
    AttachArgs, BotArgs, CheckArgs, Cli, Command, DemoArgs, EventAction, EventArgs, GameArgs,
    MatchAction, MatchArgs, OutputArgs, PlayArgs, ResumeArgs, SeatArgs, SpectatorArgs,
    StandingsArgs, WatchArgs, WorkerArgs,
};
use goref::config;
use goref::console;
use goref::driver::signals::Signals;
use goref::driver::{run_game_with, DriverConfig, GameOutcome, Inputs, Resumption};
use goref::event::file::PublishSettings;
use goref::game::sgf::Date;
use goref::game::Color;
use goref::journal::{self, FolderPlace, GameFolder};
use goref::mirror::broker::{PublishConfig, StreamSettings};
use goref::mirror::follow::Target;
use goref::mirror::gate::Limits;
use goref::mirror::outlet::{subject_token, BrokerAddress, OutletLimits};
use goref::mirror::server::{MirrorServer, ServeConfig};
use goref::players::PlayerSpec;
use goref::protocol::sgmp::continued::Continued;
use goref::protocol::sgmp::session::Profile;
use goref::referee::ResumePoint;
use goref::transport::line::LineSpec;
use goref::ui::Role;

/// The exit status of a game that ended without a decided result.
const UNDECIDED: u8 = 1;
/// The exit status of a game whose record or trace is incomplete.
const INCOMPLETE: u8 = 3;

/// How a command ended.
enum Outcome {
    Done,
    /// A game ended as `?` or `Void`.
    Undecided,
    /// A game was played, but these files do not hold all of it.
    Incomplete(Vec<String>),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let _log_guard = match cli.log.as_deref().map(install_logging).transpose() {
        Ok(guard) => guard,
        Err(message) => return fail(&message),
    };
    if let Some(address) = &cli.watch {
        if cli.command.is_some() {
            return fail("--watch follows a game another goref serves and takes no command");
        }
        return match watch(address, &cli.watching) {
            Ok(WatchEnd::Done) => ExitCode::SUCCESS,
            Ok(WatchEnd::OutputCut) => {
                console::say(
                    "goref: the output could not take every line (closed, or the disk is full): \
                     the watch stopped there",
                );
                ExitCode::from(INCOMPLETE)
            }
            Err(message) => fail(&message),
        };
    }
    let outcome = match cli.command.unwrap_or(Command::Demo(DemoArgs::standard())) {
        Command::Bot(args) => bot(args).map(|()| Outcome::Done),
        Command::Decode(args) => goref::files::read_bytes(&args.file, goref::files::JOURNAL_MAX)
            .map(|bytes| {
                console::out(goref::decode::decode(&bytes, args.size).trim_end());
                Outcome::Done
            })
            .map_err(|e| format!("cannot read {}: {e}", args.file.display())),
        Command::Replay(args) => goref::replay::run(&args)
            .map(|()| Outcome::Done)
            .map_err(|e| e.to_string()),
        Command::Play(args) => play(*args, false),
        Command::Demo(args) => play(demo_args(args), true),
        Command::Resume(args) => resume(*args),
        Command::Attach(args) => attach(&args).map(|()| Outcome::Done),
        Command::Check(args) => check(&args),
        Command::Standings(args) => standings(&args),
        Command::Event(args) => event(args),
        Command::Match(args) => engine_match(args),
        Command::Seat(args) => seat(args),
        Command::Worker(args) => worker(args),
        Command::Completions(args) => print_bytes(&goref::manual::completions(args.shell)),
        Command::Man => print_bytes(&goref::manual::man_page()),
    };
    match outcome {
        Ok(Outcome::Done) => ExitCode::SUCCESS,
        Ok(Outcome::Undecided) => ExitCode::from(UNDECIDED),
        Ok(Outcome::Incomplete(files)) => {
            for file in files {
                console::say(format!("goref: {file}"));
            }
            ExitCode::from(INCOMPLETE)
        }
        Err(message) => fail(&message),
    }
}

/// `goref seat`: this machine's program, seated at a venue.
/// `goref worker nats://HOST:PORT`.
fn worker(args: WorkerArgs) -> Result<Outcome, String> {
    let link = goref::engine_match::queue::BrokerLink::parse(
        &args.broker_url,
        args.broker.creds,
        args.broker.tls_ca,
    )?
    .with_env();
    let file = goref::worker::file::load(&args.config)?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let slots = args.slots.or(file.slots).unwrap_or(cores);
    if slots == 0 {
        return Err("--slots: at least 1".into());
    }
    let name = args
        .name
        .or_else(|| file.name.clone())
        .unwrap_or_else(goref::worker::file::default_name);
    if !goref::matches::jobs::is_plain_name(&name) {
        return Err(format!(
            "--name '{name}': a worker's name is letters, digits, '-', '_' and '.'"
        ));
    }
    let only = args
        .only
        .as_deref()
        .map(goref::engine_match::queue::match_id);
    goref::worker::file::prepare_games_folder(&args.dir)?;
    let options = goref::worker::WorkerOptions {
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
        let plays_on = goref::engine_match::screen::Hangup::PlaysOn;
        let shown =
            goref::engine_match::screen::run_on_screen(&dir, screen, over, plays_on, move |desk| {
                goref::worker::run_at(options, desk)
            });
        game_runtime()?.block_on(shown)?;
    } else {
        goref::worker::run(options)?;
    }
    Ok(Outcome::Done)
}

fn seat(mut args: SeatArgs) -> Result<Outcome, String> {
    if args.token.is_some() {
        return Err(
            "--token would show the token to every user of this machine (ps): run \
                    GOREF_TOKEN=TOKEN goref seat ..., as the venue's line gives it, or keep \
                    the token in a file of mode 600 and give --token-file FILE"
                .into(),
        );
    }
    let token = goref::seats::token::seat_token(
        std::env::var(goref::transport::process::SECRET_VARIABLE).ok(),
        args.token_file.as_deref(),
    )?;
    if let Some(engine) = &args.engine {
        let spec: PlayerSpec = engine
            .parse()
            .map_err(|e: goref::players::SpecError| e.to_string())?;
        let self_exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("goref"));
        args.program = goref::players::gtp_command_line(&spec, &self_exe).ok_or_else(|| {
            format!("--engine {engine}: a seat runs a GTP program: gtp:CMDLINE or bot[:SEED]")
        })?;
    }
    let options = goref::seats::client::SeatOptions {
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
        runtime.block_on(goref::seats::client::run(options, None))?
    } else {
        let screen = screen_options(&args.screen)?;
        runtime.block_on(goref::app::seat_screen::run(options, screen))?
    };
    if !goodbye.is_empty() {
        console::say(format!("goref seat: {goodbye}"));
    }
    Ok(Outcome::Done)
}

/// `goref event ...`: a tournament in one folder.
fn event(args: EventArgs) -> Result<Outcome, String> {
    let needs_dir = |command: &str| {
        args.dir.clone().ok_or_else(|| {
            format!("{command}: give the event's folder (goref event init DIR writes one)")
        })
    };
    match args.action {
        Some(EventAction::Init { dir }) => goref::event::init(&dir).map(|path| {
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
            let asked = goref::event::DirectorResult {
                round,
                black,
                white,
                result,
                reason,
                replace: over_ride,
            };
            for line in goref::event::set_result(&dir, &asked)? {
                console::out(line);
            }
            Ok(Outcome::Done)
        }
        Some(EventAction::Seats) => {
            let dir = needs_dir("goref event DIR seats")?;
            for line in goref::event::seat_lines(&dir)? {
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
            console::out(goref::event::retry_board(&dir, round, board, &reason)?);
            Ok(Outcome::Done)
        }
        None => {
            let dir = needs_dir("goref event DIR")?;
            let options = goref::event::run::EventOptions {
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
                    let file = goref::event::file::load(&dir).map_err(|e| e.to_string())?;
                    (file.name, file.publish)
                }
                None => (String::new(), PublishSettings::default()),
            };
            let queue = goref::mirror::hall_hub::HALL_QUEUE;
            let mirror = serve(&args.spectators, queue, &name, &settings)?;
            let end = match (screen, &mirror) {
                (Some(screen), mirror) => {
                    let runtime = game_runtime()?;
                    let hall = goref::hall::run(&dir, &options, screen, mirror.as_ref());
                    runtime.block_on(hall)?
                }
                (None, Some(mirror)) => {
                    let runtime = game_runtime()?;
                    runtime.block_on(goref::hall::serve_headless(&dir, &options, mirror))?
                }
                (None, None) => goref::event::run::run(&dir, &options)?,
            };
            match end {
                goref::event::run::EventEnd::Finished { standings_html } => {
                    if hall {
                        console::say(format!(
                            "goref: the event is over: the standings are in {}",
                            standings_html.display()
                        ));
                    }
                    Ok(Outcome::Done)
                }
                goref::event::run::EventEnd::Stopped(why) => {
                    console::say(format!("goref: {why}"));
                    Ok(Outcome::Undecided)
                }
            }
        }
    }
}

/// `goref standings DIR` or `goref standings --games FILE`: the crosstable
/// of an event's folder or of a list of games.
/// `goref match init DIR` and `goref match DIR`.
fn engine_match(args: MatchArgs) -> Result<Outcome, String> {
    match (args.action, args.dir) {
        (Some(MatchAction::Init { dir }), _) => goref::engine_match::init(&dir).map(|path| {
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
                    goref::engine_match::queue::BrokerLink::parse(
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
            let options = goref::engine_match::run::MatchOptions {
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
                    let shown = goref::engine_match::screen::run(&dir, &options, screen);
                    game_runtime()?.block_on(shown).inspect(|figures| {
                        for line in figures.lines() {
                            console::say(line);
                        }
                    })
                }
                false => goref::engine_match::run::run(&dir, &options),
            };
            use goref::engine_match::run::MatchError;
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

/// `goref standings DIR` on a match's folder: its figures.
fn match_standings(dir: &std::path::Path, args: &StandingsArgs) -> Result<Outcome, String> {
    let file = goref::engine_match::file::load(dir).map_err(|e| e.to_string())?;
    let figures = goref::engine_match::tally::figures(dir, &file);
    if args.json {
        console::out(serde_json::to_string(&figures).map_err(|e| e.to_string())?);
    } else if args.csv {
        console::out(figures.csv().trim_end());
    } else {
        for line in figures.lines() {
            console::out(line);
        }
    }
    Ok(Outcome::Done)
}

fn standings(args: &StandingsArgs) -> Result<Outcome, String> {
    use goref::event::{event_text, standings_csv, standings_json, standings_text};
    if let Some(dir) = args
        .dir
        .as_ref()
        .filter(|dir| goref::engine_match::is_match(dir))
    {
        return match_standings(dir, args);
    }
    let event = match &args.dir {
        Some(dir) => Some(goref::event::standings(dir)?),
        None => None,
    };
    let divisions = match (&event, &args.games) {
        (Some((file, state)), None) => state.division_standings(file)?,
        (None, Some(games)) => vec![(None, standings_of_games(games, args)?)],
        _ => return Err("goref standings DIR, or goref standings --games FILE.csv".into()),
    };
    let bracket = event.as_ref().and_then(|(file, state)| state.bracket(file));
    if args.json {
        let mut json = standings_json(&divisions);
        if let Some(bracket) = &bracket {
            json["bracket"] = serde_json::to_value(bracket).map_err(|e| e.to_string())?;
            json["champion"] = bracket.champion().into();
        }
        console::out(json.to_string());
    } else if args.csv {
        console::out(standings_csv(&divisions).trim_end());
    } else {
        let width = match std::io::stdout().is_terminal() {
            true => crossterm::terminal::size().map_or(80, |(columns, _)| columns as usize),
            false => 80,
        };
        let lines = match &event {
            Some((file, state)) => event_text(file, state, width)?,
            None => standings_text(&divisions, width),
        };
        for line in lines {
            console::out(line);
        }
    }
    if console::stdout_closed() {
        return Ok(Outcome::Incomplete(vec![
            "stdout did not take the whole standings (closed, or the disk is full)".into(),
        ]));
    }
    Ok(Outcome::Done)
}

/// The standings of a plain list of games, `round,black,white,result`.
fn standings_of_games(
    path: &std::path::Path,
    args: &StandingsArgs,
) -> Result<goref::tournament::standings::Standings, String> {
    use goref::tournament::{games, standings};
    let shown = path.display();
    let text = goref::files::read_text(path, games::MAX_GAMES_FILE)
        .map_err(|e| format!("cannot read {shown}: {e}"))?;
    let played = games::parse_games(&text).map_err(|e| format!("{shown}, {e}"))?;
    if played.is_empty() {
        return Err(format!(
            "{shown} holds no game: round,black,white,result, one a line"
        ));
    }
    let chain = standings::TieBreak::parse_chain(&args.tie_breaks)
        .map_err(|e| format!("--tie-breaks: {e}"))?;
    let bye = standings::bye_halves(args.bye_score).map_err(|e| format!("--bye-score {e}"))?;
    let entrants = standings::entrants_in(&played);
    standings::standings(&entrants, &played, &chain, bye)
}

/// The built-in engine: GTP on stdin and stdout, or one game on a line.
fn bot(args: BotArgs) -> Result<(), String> {
    let settings = goref::bot::Settings {
        playouts: args.playouts,
        think: std::time::Duration::from_millis(args.think_ms),
    };
    let (profile, device) = match (&args.sgmp, &args.gmp) {
        (Some(device), _) => (Profile::Sgmp, device),
        (_, Some(device)) => (Profile::Gmp, device),
        _ => {
            return goref::bot::gtp::serve_stdio(args.size, args.seed, settings)
                .map_err(|e| format!("bot: {e}"))
        }
    };
    let spec = LineSpec::parse_device(device).map_err(|e| e.to_string())?;
    let color: Color = args
        .color
        .as_deref()
        .unwrap_or_default()
        .parse()
        .map_err(|_| "--color must be black or white".to_string())?;
    let runtime = tokio::runtime::Runtime::new().map_err(|e| format!("cannot start: {e}"))?;
    let game = goref::bot::line::LineGame {
        color,
        size: args.size,
        handicap: args.handicap,
        seed: args.seed,
        settings,
    };
    let continued = match (&args.moves, &args.link_bits) {
        (Some(moves), Some(bits)) => Some(Continued::parse(moves, bits, args.size)?),
        _ => None,
    };
    let moves = runtime.block_on(goref::bot::line::play_on_line(
        spec, profile, game, continued,
    ))?;
    if let Some(path) = &args.record {
        let text = goref::bot::line::moves_to_sgf(args.size, &moves);
        goref::files::write_output(path, &text, goref::files::Holds::SgfRecord)
            .map_err(|e| format!("--record: {e}"))?;
    }
    Ok(())
}

/// `goref --watch HOST:PORT` or `nats://HOST:PORT/EVENT[/BOARD]`: a
/// spectator's screen, or its lines.
fn watch(address: &str, args: &WatchArgs) -> Result<WatchEnd, String> {
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
    let runtime = tokio::runtime::Runtime::new().map_err(|e| format!("cannot start: {e}"))?;
    runtime.block_on(goref::app::watch::run(
        target,
        token,
        headless,
        options,
        Role::Spectator,
        args.board,
    ))
}

/// The token from `GOREF_TOKEN`, which keeps it out of `ps`.
fn token_from_environment() -> Option<String> {
    std::env::var("GOREF_TOKEN").ok().filter(|t| !t.is_empty())
}

/// `--serve` and `--publish`: the mirror, listening before the game starts
/// so that a busy port is a message, not a game without its spectators,
/// and publishing the stream as `name` (unless the address names it) into
/// the stream `settings` give.
fn serve(
    args: &SpectatorArgs,
    queue: usize,
    name: &str,
    settings: &PublishSettings,
) -> Result<Option<MirrorServer>, String> {
    if args.token.is_some() && args.serve.is_none() && args.web.is_none() {
        return Err("--token guards --serve and --web: give one of them (a NATS broker keeps its own users)".into());
    }
    if args.serve.is_none() && args.publish.is_none() && args.web.is_none() {
        return Ok(None);
    }
    if !(args.connect_rate.is_finite() && args.connect_rate > 0.0) {
        return Err("--connect-rate must be a number of connects a second above 0".into());
    }
    if args.max_spectators == 0 {
        return Err("--max-spectators must be at least 1".into());
    }
    let token = args.token.clone().or_else(token_from_environment);
    let publish = args
        .publish
        .as_deref()
        .map(|url| publish_config(url, name, settings))
        .transpose()?;
    let config = ServeConfig {
        address: args.serve.clone(),
        publish: publish.clone(),
        web: args.web.clone(),
        token: token.clone(),
        limits: Limits {
            queue,
            max_spectators: args.max_spectators,
            connect_rate: args.connect_rate,
            connect_burst: (2.0 * args.connect_rate).max(1.0),
            ..Limits::default()
        },
        ..ServeConfig::default()
    };
    let mirror = MirrorServer::start(config).map_err(|e| e.to_string())?;
    if let Some(address) = mirror.address() {
        let with_token = if token.is_some() { " --token …" } else { "" };
        console::say(format!(
            "goref: serving spectators on {address}: goref --watch HOST:{}{with_token}",
            address.port()
        ));
    }
    if let Some(address) = mirror.web_address() {
        let (first, then) = match token {
            Some(_) => ("?token=…", "&"),
            None => ("", "?"),
        };
        console::say(format!(
            "goref: the page for browsers is at http://{address}/{first} (projector: http://{address}/{first}{then}projector)"
        ));
    }
    if let Some(publish) = &publish {
        console::say(format!(
            "goref: publishing to nats://{} (JetStream stream {}): goref --watch {}",
            publish.server,
            publish.stream.name,
            publish.watch_address()
        ));
    }
    Ok(Some(mirror))
}

/// `--publish URL`: where, under which name, into which stream.
fn publish_config(
    url: &str,
    name: &str,
    settings: &PublishSettings,
) -> Result<PublishConfig, String> {
    let address = BrokerAddress::parse(url).map_err(|e| format!("--publish {e}"))?;
    if address.board.is_some() {
        return Err(format!(
            "--publish {url}: a board is named by the event, not given: nats://HOST:PORT[/NAME]"
        ));
    }
    Ok(PublishConfig {
        server: address.server,
        auth: address.auth,
        event: address.event.unwrap_or_else(|| subject_token(name)),
        stream: StreamSettings {
            name: settings.stream.clone(),
            max_age: settings.max_age,
            max_bytes: i64::try_from(settings.max_megabytes.saturating_mul(1 << 20))
                .unwrap_or(i64::MAX),
        },
        limits: OutletLimits {
            snapshot_every: settings.snapshot_every,
            ..OutletLimits::default()
        },
    })
}

fn fail(message: &str) -> ExitCode {
    console::say(format!("goref: {message}"));
    ExitCode::from(2)
}

/// The demo: the built-in engine on a virtual serial line at 2400 baud
/// (SGMP) against the built-in engine over GTP, on a small board, each
/// thinking `--think` a move with `--playouts` under a byo-yomi clock.
fn demo_args(args: DemoArgs) -> PlayArgs {
    let options = format!("playouts={},think={}", args.playouts, args.think);
    PlayArgs {
        black: Some(format!("bot-sgmp:1,{options},baud=2400")),
        white: Some(format!("bot:2,{options}")),
        game: GameArgs {
            size: Some(args.size),
            time: Some(args.time),
            ..GameArgs::default()
        },
        output: args.output,
        spectators: args.spectators,
        ..PlayArgs::default()
    }
}

fn play(args: PlayArgs, demo: bool) -> Result<Outcome, String> {
    let self_exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("goref"));
    let config = config::resolve(&args, self_exe, today()).map_err(|e| e.to_string())?;
    let can_start_next =
        demo && config.sgf.is_none() && config.trace.is_none() && args.output.game_dir.is_none();
    let options = screen_options(&args.output.screen)?
        .with_next_games(can_start_next)
        .as_demo(demo);
    let seats = match (&args.seats, &args.seat_relay) {
        (Some(listen), _) => Some(SeatSource::Listen {
            listen: listen.clone(),
            asks_stderr: args.seat_stderr,
            keys: args
                .seat_keys
                .clone()
                .unwrap_or_else(|| PathBuf::from("goref-seats")),
        }),
        (None, Some(socket)) => Some(SeatSource::Relay(socket.clone())),
        (None, None) => None,
    };
    referee(config, &args.output, &args.spectators, options, None, seats)
}

fn today() -> Date {
    let unix_seconds = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    Date::from_unix_seconds(unix_seconds)
}

/// `goref resume DIR`: the game's own configuration, its journal read back,
/// and the game played on.
fn resume(args: ResumeArgs) -> Result<Outcome, String> {
    if args.output.game_dir.is_some() || args.output.games.is_some() {
        return Err(format!(
            "goref resume writes to the game's own folder, {}; --game-dir and --games do not apply",
            args.dir.display()
        ));
    }
    let folder = GameFolder::open(&args.dir).map_err(|e| e.to_string())?;
    let play_args = PlayArgs {
        game: GameArgs {
            config: Some(folder.file(journal::folder::CONFIG)),
            ..GameArgs::default()
        },
        output: args.output.clone(),
        ..PlayArgs::default()
    };
    let self_exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("goref"));
    let mut config = config::resolve(&play_args, self_exe, today()).map_err(|e| e.to_string())?;
    config.folder = None;
    let journal_path = folder.file(journal::folder::JOURNAL);
    let contents = journal::reader::read(&journal_path).map_err(|e| e.to_string())?;
    let point = ResumePoint::from_events(&contents.events, config.game.size)
        .map_err(|e| format!("{}: {e}", args.dir.display()))?;
    let down = std::fs::metadata(&journal_path)
        .and_then(|meta| meta.modified())
        .ok()
        .and_then(|written| SystemTime::now().duration_since(written).ok());
    let resumption = Resumption {
        folder,
        history: contents.events,
        point,
        down,
        cut_bytes: contents.cut_bytes,
    };
    let options = screen_options(&args.output.screen)?;
    referee(
        config,
        &args.output,
        &args.spectators,
        options,
        Some(resumption),
        args.seat_relay.clone().map(SeatSource::Relay),
    )
}

/// `goref check SPEC`: the program's conformance card, on stdout.
fn check(args: &CheckArgs) -> Result<Outcome, String> {
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
    let self_exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("goref"));
    let resolved =
        config::resolve(&play_args, self_exe.clone(), today()).map_err(|e| e.to_string())?;
    let spec = match color {
        Color::Black => resolved.black,
        Color::White => resolved.white,
    };
    let check = goref::check::CheckConfig {
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
            card = goref::check::run(&check) => card.map_err(|e| e.to_string()),
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
        for line in card.render(goref::check::CARD_WIDTH) {
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

/// `goref attach DIR`: the operator's screen of the game refereed in DIR.
fn attach(args: &AttachArgs) -> Result<(), String> {
    let dir = args.dir.display();
    if args.dir.join(goref::event::file::EVENT_FILE).is_file() {
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
    let attached = goref::app::watch::run(target, None, None, options, Role::Operator, None);
    runtime
        .block_on(attached)
        .map(drop)
        .map_err(|e| format!("{e} (if goref died, `goref resume {dir}` continues the game)"))
}

/// Referees a game on the full screen, or headless, served to spectators
/// when asked, and says how it ended.
fn referee(
    mut config: DriverConfig,
    output: &OutputArgs,
    spectators: &SpectatorArgs,
    options: ScreenOptions,
    resume: Option<Resumption>,
    seats: Option<SeatSource>,
) -> Result<Outcome, String> {
    let name = game_name(&config, resume.as_ref());
    let mirror = serve(
        spectators,
        Limits::default().queue,
        &name,
        &PublishSettings::default(),
    )?;
    let mut screen = !output.headless && !output.json;
    if screen && !std::io::stdout().is_terminal() {
        console::say("goref: stdout is not a terminal, so no full screen: progress lines instead");
        screen = false;
    }
    if let Some(url) = &spectators.publish {
        config.published =
            Some(publish_config(url, &name, &PublishSettings::default())?.watch_address());
    }
    let runtime = game_runtime()?;
    let folder = exact_folder(&config, resume.as_ref());
    let seat_venue = seat_venue(&mut config, seats, folder.as_deref());
    let (_venue, seat_message) = runtime.block_on(seat_venue)?;
    let options = options.with_message(seat_message);
    let outcome = if screen {
        config.progress = false;
        config.engine_stderr = false;
        config.operator_stdin = false;
        let games = move |n: u32| reseeded(&config, n);
        let demo = options.demo;
        let live = goref::app::live::run(games, options, mirror.as_ref(), resume);
        match runtime.block_on(live)? {
            Ending::Played(outcome) => {
                let line = closing_line(&outcome);
                console::say(match demo {
                    true => {
                        format!("{line}; that was the demo: `goref play --help` starts a real game")
                    }
                    false => line,
                });
                *outcome
            }
            Ending::Failed(message) => return Err(message),
        }
    } else {
        let notes = mirror.as_ref().map(|mirror| {
            let (feed, notes) = mirror.attach_game();
            config.subscribers.push(feed);
            notes
        });
        let operator = config
            .operator_stdin
            .then(|| goref::driver::operator_stdin(config.game.size));
        let inputs = Inputs {
            operator,
            notes,
            resume,
        };
        // The game runs as a task, not as the runtime's main future: the
        // players' reports then wake it within the runtime, without a
        // write to the runtime's eventfd for each.
        let game = runtime.block_on(async { tokio::spawn(run_game_with(config, inputs)).await });
        game.map_err(|e| format!("the game stopped: {e}"))?
            .map_err(|e| e.to_string())?
    };
    drop(mirror);
    let result = &outcome.result;
    tracing::info!(result = %result.result, reason = %result.reason, "game over");
    Ok(match outcome.incomplete {
        files if !files.is_empty() => Outcome::Incomplete(files),
        _ if !result.end.is_decided() => Outcome::Undecided,
        _ => Outcome::Done,
    })
}

/// Where a game's seated players are reached.
enum SeatSource {
    /// The game listens itself (`--seats`), with its keys in `keys`;
    /// `asks_stderr` with `--seat-stderr`.
    Listen {
        listen: String,
        keys: PathBuf,
        asks_stderr: bool,
    },
    /// Through an event's runner, at its socket (`--seat-relay`).
    Relay(PathBuf),
}

/// The venue for the game's seated players, listening, with each seated
/// side's `goref seat` line printed and kept in the keys folder's
/// `commands.txt` (readable by its owner only: the lines hold the tokens),
/// and the line that tells the screen's operator where; none when no side
/// is seated or the seats are reached through an event's runner.
async fn seat_venue(
    config: &mut DriverConfig,
    seats: Option<SeatSource>,
    folder: Option<&Path>,
) -> Result<(Option<goref::seats::venue::Venue>, Option<String>), String> {
    let entrants: Vec<String> = [&config.black, &config.white]
        .into_iter()
        .filter_map(|spec| match spec {
            PlayerSpec::Seat { entrant } => Some(entrant.clone()),
            _ => None,
        })
        .collect();
    if entrants.is_empty() {
        return Ok((None, None));
    }
    let (listen, folder, asks_stderr) = match seats {
        Some(SeatSource::Listen {
            listen,
            keys,
            asks_stderr,
        }) => (listen, keys, asks_stderr),
        Some(SeatSource::Relay(socket)) => {
            let links: Vec<_> = entrants
                .iter()
                .map(|entrant| goref::seats::relay::attach(&socket, entrant, folder))
                .collect();
            let feed = goref::seats::link::stream_to_seats(&seat_infos(config, &links));
            config.subscribers.push(feed);
            for link in links {
                config.seats.put(link);
            }
            return Ok((None, None));
        }
        None => {
            return Err(format!(
                "seat:{} plays through a seat: give --seats HOST:PORT to listen for it",
                entrants[0]
            ))
        }
    };
    let host = listen
        .rsplit_once(':')
        .map_or("localhost", |(host, _)| host);
    let names = vec![host.to_string(), "localhost".to_string()];
    let keys = goref::seats::keys::SeatKeys::load_or_make(&folder, &entrants, &names)
        .map_err(|e| e.to_string())?;
    let mut venue =
        goref::seats::venue::Venue::start(&listen, &keys, "goref play", asks_stderr).await?;
    let address = format!("{host}:{}", venue.address.port());
    let mut links = Vec::new();
    let mut commands = String::new();
    for entrant in &entrants {
        if let Some(line) = keys.command_line(&address, entrant) {
            console::say(format!(
                "goref: waiting for {entrant}'s seat: {line} PROGRAM..."
            ));
            commands.push_str(&format!("{line} PROGRAM...\n"));
        }
        links.extend(venue.take_link(entrant));
    }
    let kept = folder.join(SEAT_COMMANDS);
    goref::transport::tls::write_private(&kept, &commands)
        .map_err(|e| format!("cannot write {}: {e}", kept.display()))?;
    let message = format!("seats' commands in {}", kept.display());
    let feed = goref::seats::link::stream_to_seats(&seat_infos(config, &links));
    config.subscribers.push(feed);
    for link in links {
        config.seats.put(link);
    }
    Ok((Some(venue), Some(message)))
}

/// The file in the keys folder that keeps the seats' command lines.
const SEAT_COMMANDS: &str = "commands.txt";

/// Each seated entrant's link with what its screen is told of the game:
/// the game's name when it has one (an event's board says its round, its
/// board and both entrants), else its colour and its opponent.
fn seat_infos<'a>(
    config: &DriverConfig,
    links: &'a [goref::seats::link::SeatLink],
) -> Vec<(&'a goref::seats::link::SeatLink, String)> {
    let opponent = |spec: &PlayerSpec| spec.short_name();
    links
        .iter()
        .map(|link| {
            let seated = |spec: &PlayerSpec| {
                matches!(spec, PlayerSpec::Seat { entrant } if *entrant == link.entrant)
            };
            let info = match (&config.record.game_name, seated(&config.black)) {
                (Some(name), _) => name.clone(),
                (None, true) => format!("Black against {}", opponent(&config.white)),
                (None, false) => format!("White against {}", opponent(&config.black)),
            };
            (link, info)
        })
        .collect()
}

/// The name a game is published under by default: its folder's.
/// The game's folder when it is known before the game starts: a resumed
/// game's, or the one `--game-dir` names.
fn exact_folder(config: &DriverConfig, resume: Option<&Resumption>) -> Option<PathBuf> {
    match (&config.folder, resume) {
        (_, Some(resumption)) => Some(resumption.folder.path().to_path_buf()),
        (Some(FolderPlace::Exactly(path)), None) => Some(path.clone()),
        _ => None,
    }
}

fn game_name(config: &DriverConfig, resume: Option<&Resumption>) -> String {
    let path = match (&config.folder, resume) {
        (_, Some(resumption)) => resumption.folder.path().to_path_buf(),
        (Some(FolderPlace::Exactly(path)), None) => path.clone(),
        (Some(FolderPlace::Named { name, .. }), None) => PathBuf::from(name),
        (None, None) => PathBuf::from("game"),
    };
    path.file_name()
        .map_or("game".into(), |name| name.to_string_lossy().into_owned())
}

/// The line printed when the screen closes: the result, how it ended, and
/// where the game is kept.
fn closing_line(outcome: &GameOutcome) -> String {
    let result = &outcome.result;
    let line = format!(
        "goref: {} ({}): {}",
        result.result,
        result.end.code(),
        result.reason
    );
    match &outcome.folder {
        Some(folder) => format!("{line}; the game is in {}", folder.display()),
        None => line,
    }
}

/// The runtime a game runs on: one thread. The players' reports, the
/// referee and the relays take turns on it, with no hand-offs between
/// threads; the disk writers, the mirror and the terminal's input have
/// threads of their own.
fn game_runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start: {e}"))
}

/// The `n`th game of a series: the built-in engines get new seeds, so that
/// each game differs.
fn reseeded(config: &DriverConfig, n: u32) -> DriverConfig {
    let mut config = config.clone();
    for (spec, base) in [(&mut config.black, 1), (&mut config.white, 2)] {
        if let PlayerSpec::Bot { seed, .. } | PlayerSpec::BotOnLine { seed, .. } = spec {
            *seed = Some(seed.unwrap_or(base) + 2 * u64::from(n));
        }
    }
    config
}

fn install_logging(
    path: &std::path::Path,
) -> Result<tracing_appender::non_blocking::WorkerGuard, String> {
    let target = goref::files::resolve_output(path, goref::files::Holds::Log)
        .map_err(|e| format!("--log: {e}"))?;
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&target)
        .map_err(|e| format!("cannot open the log {}: {e}", path.display()))?;
    let (writer, guard) = tracing_appender::non_blocking(file);
    tracing_subscriber::fmt()
        .with_writer(writer)
        .with_ansi(false)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("GOREF_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .init();
    Ok(guard)
}

/// Writes generated text (a man page, a completion script) to stdout; a
/// reader that closed the pipe early (`goref man | head`) is no error.
fn print_bytes(bytes: &[u8]) -> Result<Outcome, String> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => Ok(Outcome::Done),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(Outcome::Done),
        Err(e) => Err(format!("cannot write to stdout: {e}")),
    }
}
