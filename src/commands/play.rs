//! `goref play`, `goref demo` and `goref resume`: one game refereed on the
//! full screen or headless, its folder, and the line that says how it ended.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::SystemTime;

use super::game_runtime;
use super::seat_venue::seat_venue;
use super::seat_venue::SeatSource;
use super::spectators::publish_config;
use super::spectators::serve;
use super::today;
use super::Outcome;
use crate::app::live::ScreenOptions;
use crate::app::screen_options;
use crate::app::Ending;
use crate::cli::DemoArgs;
use crate::cli::GameArgs;
use crate::cli::OutputArgs;
use crate::cli::PlayArgs;
use crate::cli::ResumeArgs;
use crate::cli::SpectatorArgs;
use crate::config;
use crate::console;
use crate::driver::run_game_with;
use crate::driver::DriverConfig;
use crate::driver::GameOutcome;
use crate::driver::Inputs;
use crate::driver::Resumption;
use crate::event::file::PublishSettings;
use crate::journal;
use crate::journal::FolderPlace;
use crate::journal::GameFolder;
use crate::mirror::gate::Limits;
use crate::players::PlayerSpec;
use goref_core::referee::ResumePoint;

/// The demo: the built-in engine on a virtual serial line at 2400 baud
/// (SGMP) against the built-in engine over GTP, on a small board, each
/// thinking `--think` a move with `--playouts` under a byo-yomi clock.
pub(super) fn demo_args(args: DemoArgs) -> PlayArgs {
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

/// `goref play` and the demo: a game from the command line.
pub(super) fn play(args: PlayArgs, demo: bool) -> Result<Outcome, String> {
    let self_exe = super::self_exe();
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

/// `goref resume DIR`: the game's own configuration, its journal read back,
/// and the game played on.
pub(super) fn resume(args: ResumeArgs) -> Result<Outcome, String> {
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
    let self_exe = super::self_exe();
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

/// Referees a game on the full screen, or headless, served to spectators
/// when asked, and says how it ended.
pub(super) fn referee(
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
    let (venue, seat_message) = runtime.block_on(seat_venue)?;
    let options = options.with_message(seat_message);
    let outcome = if screen {
        config.progress = false;
        config.engine_stderr = false;
        config.operator_stdin = false;
        let games = move |n: u32| reseeded(&config, n);
        let demo = options.demo;
        let live = crate::app::live::run(games, options, mirror.as_ref(), resume);
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
            .then(|| crate::driver::operator_stdin(config.game.size));
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
    if let Some(venue) = venue.filter(|_| result.end.is_decided()) {
        let reason = format!("the game is over: {} ({})", result.result, result.reason);
        runtime.block_on(venue.farewell(&reason));
    }
    Ok(match outcome.incomplete {
        files if !files.is_empty() => Outcome::Incomplete(files),
        _ if !result.end.is_decided() => Outcome::Undecided,
        _ => Outcome::Done,
    })
}

/// The game's folder when it is known before the game starts: a resumed
/// game's, or the one `--game-dir` names.
pub(super) fn exact_folder(config: &DriverConfig, resume: Option<&Resumption>) -> Option<PathBuf> {
    match (&config.folder, resume) {
        (_, Some(resumption)) => Some(resumption.folder.path().to_path_buf()),
        (Some(FolderPlace::Exactly(path)), None) => Some(path.clone()),
        _ => None,
    }
}

/// The name a game is published under by default: its folder's.
pub(super) fn game_name(config: &DriverConfig, resume: Option<&Resumption>) -> String {
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
pub(super) fn closing_line(outcome: &GameOutcome) -> String {
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

/// The `n`th game of a series: the built-in engines get new seeds, so that
/// each game differs.
pub(super) fn reseeded(config: &DriverConfig, n: u32) -> DriverConfig {
    let mut config = config.clone();
    for (spec, base) in [(&mut config.black, 1), (&mut config.white, 2)] {
        if let PlayerSpec::Bot { seed, .. } | PlayerSpec::BotOnLine { seed, .. } = spec {
            *seed = Some(seed.unwrap_or(base) + 2 * u64::from(n));
        }
    }
    config
}
