//! The game file (TOML) merged with the command-line flags.
//!
//! Precedence, lowest first: the rules preset, the game file, the flags.
//! Unknown keys in the game file are errors, so a typo never passes silently.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use crate::cli::PlayArgs;
use crate::driver::{DriverConfig, DEFAULT_ANALYSIS_INTERVAL, MIN_ANALYSIS_INTERVAL};
use crate::journal::folder::default_name;
use crate::journal::FolderPlace;
use crate::journal::JournalSync;
use crate::players::PlayerSpec;
use crate::toml_errors::locate;
use crate::transport::line::LineTarget;
use goref_core::game::board::KoRule;
use goref_core::game::clock::{parse_duration, TimeSystem};
use goref_core::game::rules::{ForkRule, Preset, Rules};
use goref_core::game::sgf::Date;
use goref_core::game::{Point, MAX_SIZE, MIN_SIZE};
use goref_core::referee::{GameConfig, Handicap, RecordInfo, Referee};

/// Where the default game folders go, under the current folder.
pub(crate) const DEFAULT_GAMES: &str = "games";

/// The default deadline for commands other than move requests.
pub(crate) const DEFAULT_COMMAND_TIMEOUT: Duration = Duration::from_secs(30);

/// The largest komi, either way, that a game may have. Real komi are a few
/// points; the bound only keeps typos and overflow out of the score.
pub(crate) const MAX_KOMI: f64 = 1000.0;

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read the game file {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("the game file {path} is not valid: {message}")]
    Parse { path: PathBuf, message: String },
    #[error("{0}")]
    Invalid(String),
}

/// The game file. Every key is optional.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameFile {
    pub black: Option<String>,
    pub white: Option<String>,
    pub rules: Option<String>,
    pub size: Option<u8>,
    pub komi: Option<f64>,
    pub handicap: Option<u8>,
    pub handicap_stones: Option<String>,
    /// The game's first moves, played for both players: `E5,C3,G7`.
    pub opening: Option<String>,
    pub time: Option<String>,
    pub ko: Option<String>,
    pub allow_suicide: Option<bool>,
    pub move_timeout: Option<String>,
    pub command_timeout: Option<String>,
    pub time_loss_before: Option<u32>,
    pub stop_at: Option<u32>,
    pub count_passes: Option<bool>,
    pub restart_crashed: Option<u32>,
    pub lag_allowance: Option<String>,
    pub idle_limit: Option<String>,
    pub forks: Option<String>,
    pub sgf: Option<PathBuf>,
    pub trace: Option<PathBuf>,
    pub event: Option<String>,
    pub round: Option<String>,
    pub place: Option<String>,
    /// The game's name for the record (SGF GN); an event names its boards
    /// with it: `round 1 board 2: alpha (B) - beta (W)`.
    pub game_name: Option<String>,
    /// The game's date for the record, `YYYY-MM-DD` (default: today).
    pub date: Option<String>,
    /// When the journal is synced: `move` (default) or `result`.
    pub journal_sync: Option<String>,
    /// Ask engines that can for their analysis with each move (default true).
    pub analysis: Option<bool>,
    /// How often they send an analysis line while thinking (default `1s`).
    pub analysis_interval: Option<String>,
}

impl GameFile {
    pub fn load(path: &Path) -> Result<GameFile, ConfigError> {
        let text = crate::files::read_text(path, crate::files::SETTINGS_MAX).map_err(|source| {
            ConfigError::Read {
                path: path.to_path_buf(),
                source,
            }
        })?;
        toml::from_str(&text).map_err(|e| ConfigError::Parse {
            path: path.to_path_buf(),
            message: locate(&text, &e),
        })
    }
}

/// Builds the driver's configuration from the flags and the optional game file.
pub fn resolve(
    args: &PlayArgs,
    self_exe: PathBuf,
    today: Date,
) -> Result<DriverConfig, ConfigError> {
    let file = match &args.game.config {
        Some(path) => GameFile::load(path)?,
        None => GameFile::default(),
    };
    resolve_file(args, file, self_exe, today)
}

/// Builds the driver's configuration from the flags and a game file
/// already read (an event's `[game]` table, checked before its first
/// round).
pub(crate) fn resolve_file(
    args: &PlayArgs,
    file: GameFile,
    self_exe: PathBuf,
    today: Date,
) -> Result<DriverConfig, ConfigError> {
    let invalid = |message: String| ConfigError::Invalid(message);
    let pick = |flag: &Option<String>, key: &Option<String>| flag.clone().or_else(|| key.clone());

    let preset: Preset = pick(&args.game.rules, &file.rules)
        .unwrap_or_else(|| "kgs".into())
        .parse()
        .map_err(invalid)?;
    let mut rules = Rules::preset(preset);
    if let Some(komi) = args.game.komi.or(file.komi) {
        if !komi.is_finite() || komi.abs() > MAX_KOMI {
            return Err(invalid(format!(
                "--komi {komi}: komi must be a finite number from -{MAX_KOMI} to {MAX_KOMI}"
            )));
        }
        rules.komi = komi;
    }
    if let Some(time) = pick(&args.game.time, &file.time) {
        rules.time = time
            .parse::<TimeSystem>()
            .map_err(|e| invalid(format!("--time {time}: {e}")))?;
    }
    if let Some(ko) = pick(&args.game.ko, &file.ko) {
        rules.ko = parse_ko(&ko)?;
    }
    if args.game.allow_suicide || file.allow_suicide == Some(true) {
        rules.suicide_allowed = true;
    }
    if let Some(timeout) = pick(&args.game.move_timeout, &file.move_timeout) {
        rules.move_timeout = duration_setting("move-timeout", &timeout, "10m")?;
    }
    if let Some(n) = args.game.time_loss_before.or(file.time_loss_before) {
        rules.limits.time_loss_before = (n > 0).then_some(n);
    }
    if let Some(n) = args.game.stop_at.or(file.stop_at) {
        rules.limits.stop_at = (n > 0).then_some(n);
    }
    if let Some(count) = args.game.count_passes.or(file.count_passes) {
        rules.limits.count_passes = count;
    }
    if let Some(n) = args.game.restart_crashed.or(file.restart_crashed) {
        rules.restart_crashed = n;
    }
    if let Some(lag) = pick(&args.game.lag_allowance, &file.lag_allowance) {
        rules.lag_allowance = parse_duration(lag.trim())
            .map_err(|e| ConfigError::Invalid(format!("--lag-allowance {lag}: {e}")))?;
    }
    if let Some(limit) = pick(&args.game.idle_limit, &file.idle_limit) {
        rules.idle_limit = match limit.trim() {
            "off" | "0" => None,
            text => Some(duration_setting("idle-limit", text, "10m")?),
        };
    }
    if let Some(forks) = pick(&args.game.forks, &file.forks) {
        rules.forks = match forks.trim() {
            "forfeit" => ForkRule::Forfeit,
            "report" => ForkRule::Report,
            other => {
                return Err(invalid(format!(
                    "--forks {other}: expected forfeit or report"
                )))
            }
        };
    }
    let command_timeout = match pick(&args.game.command_timeout, &file.command_timeout) {
        Some(timeout) => duration_setting("command-timeout", &timeout, "30s")?,
        None => DEFAULT_COMMAND_TIMEOUT,
    };

    let size = args.game.size.or(file.size).unwrap_or(19);
    if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
        return Err(invalid(format!(
            "--size {size}: the board size must be from {MIN_SIZE} to {MAX_SIZE}"
        )));
    }
    let handicap = match (
        args.game.handicap.or(file.handicap),
        pick(&args.game.handicap_stones, &file.handicap_stones),
    ) {
        (_, Some(stones)) => Handicap::Free(parse_points(&stones, size)?),
        (Some(0) | None, None) => Handicap::None,
        (Some(n), None) => Handicap::Fixed(n),
    };
    let opening = match pick(&args.game.opening, &file.opening) {
        Some(moves) => parse_points(&moves, size)?,
        None => Vec::new(),
    };
    let game = GameConfig {
        size,
        rules,
        handicap,
        opening,
    };
    game.handicap_stones()
        .map_err(|e| invalid(format!("handicap: {e}")))?;
    Referee::new(game.clone()).map_err(|e| invalid(format!("opening: {e}")))?;

    let black = player(pick(&args.black, &file.black), "--black")?;
    let white = player(pick(&args.white, &file.white), "--white")?;
    if let Some(line) = shared_line(&black, &white) {
        return Err(invalid(format!(
            "--black and --white are on the same line, {line}: each player needs a line of its own"
        )));
    }
    let journal_sync = match pick(&args.game.journal_sync, &file.journal_sync) {
        Some(when) => when.parse().map_err(invalid)?,
        None => JournalSync::default(),
    };
    let analysis_on = !args.game.no_analysis && file.analysis.unwrap_or(true);
    let analysis = match pick(&args.game.analysis_interval, &file.analysis_interval) {
        Some(text) => {
            let interval = parse_duration(&text)
                .map_err(|e| invalid(format!("analysis_interval {text}: {e}")))?;
            if interval < MIN_ANALYSIS_INTERVAL {
                return Err(invalid(format!(
                    "analysis_interval {text}: at least 10ms (engines count it in hundredths of a second)"
                )));
            }
            interval
        }
        None => DEFAULT_ANALYSIS_INTERVAL,
    };
    let analysis = analysis_on.then_some(analysis);
    let date = match &file.date {
        Some(date) => date.parse().map_err(invalid)?,
        None => today,
    };
    let folder = match &args.output.game_dir {
        Some(dir) => FolderPlace::Exactly(dir.clone()),
        None => FolderPlace::Named {
            parent: args
                .output
                .games
                .clone()
                .or_else(|| std::env::var_os("GOREF_GAMES").map(PathBuf::from))
                .unwrap_or_else(|| PathBuf::from(DEFAULT_GAMES)),
            name: default_name(
                &date.to_string(),
                pick(&args.round, &file.round).as_deref(),
                &black.short_name(),
                &white.short_name(),
            ),
        },
    };
    let record = RecordInfo {
        date,
        event: pick(&args.event, &file.event),
        place: pick(&args.place, &file.place),
        round: pick(&args.round, &file.round),
        game_name: file.game_name.clone(),
        main_time: game.rules.time.sgf_main_time(),
        overtime: game.rules.time.sgf_overtime(),
    };
    Ok(DriverConfig {
        game,
        black,
        white,
        sgf: args.output.sgf.clone().or(file.sgf),
        trace: args.output.trace.clone().or(file.trace),
        json: args.output.json,
        progress: !args.output.json,
        engine_stderr: args.output.engine_stderr,
        record,
        command_timeout,
        self_exe,
        operator_stdin: true,
        subscribers: Vec::new(),
        folder: Some(folder),
        published: None,
        seats: Default::default(),
        journal_sync,
        analysis,
    })
}

fn player(spec: Option<String>, flag: &str) -> Result<PlayerSpec, ConfigError> {
    let spec = spec.ok_or_else(|| {
        ConfigError::Invalid(format!("{flag} is missing: say who plays, e.g. {flag} bot"))
    })?;
    spec.parse()
        .map_err(|e| ConfigError::Invalid(format!("{flag}: {e}")))
}

/// The line both players would be on, if they are: the same serial device
/// (compared after resolving symlinks, when the path exists) or the same
/// terminal-server port. Two programs cannot share one line, and finding out
/// at the handshake would cost a forfeit.
fn shared_line(black: &PlayerSpec, white: &PlayerSpec) -> Option<String> {
    let target = |spec: &PlayerSpec| match spec {
        PlayerSpec::Line { line, .. } => Some(line.target.clone()),
        _ => None,
    };
    match (target(black)?, target(white)?) {
        (LineTarget::Device { path: b, .. }, LineTarget::Device { path: w, .. }) => {
            let real = |path: &Path| std::fs::canonicalize(path).unwrap_or_else(|_| path.into());
            let device = real(&b);
            if device != real(&w) {
                None
            } else if b == w {
                Some(b.display().to_string())
            } else {
                Some(format!(
                    "{} (--black names it {}, --white {})",
                    device.display(),
                    b.display(),
                    w.display()
                ))
            }
        }
        (LineTarget::Tcp { host: bh, port: bp }, LineTarget::Tcp { host: wh, port: wp }) => {
            let same = bh.eq_ignore_ascii_case(&wh) && bp == wp;
            let host = if bh.contains(':') {
                format!("[{bh}]")
            } else {
                bh
            };
            same.then(|| format!("{host}:{bp}"))
        }
        _ => None,
    }
}

fn parse_ko(text: &str) -> Result<KoRule, ConfigError> {
    match text.to_ascii_lowercase().as_str() {
        "simple" => Ok(KoRule::Simple),
        "positional" | "psk" => Ok(KoRule::PositionalSuperko),
        "situational" | "ssk" => Ok(KoRule::SituationalSuperko),
        "lax" => Ok(KoRule::Lax),
        _ => Err(ConfigError::Invalid(format!(
            "--ko {text}: expected simple, positional, situational or lax"
        ))),
    }
}

/// A timeout: a duration more than zero, since a zero deadline would fail
/// every command before any player could answer.
fn duration_setting(name: &str, text: &str, example: &str) -> Result<Duration, ConfigError> {
    let invalid = |why: String| ConfigError::Invalid(format!("--{name} {text}: {why}"));
    match parse_duration(text) {
        Ok(duration) if duration.is_zero() => Err(invalid(format!(
            "needs a non-zero duration (e.g. {example})"
        ))),
        Ok(duration) => Ok(duration),
        Err(e) => Err(invalid(e.to_string())),
    }
}

fn parse_points(text: &str, size: u8) -> Result<Vec<Point>, ConfigError> {
    text.split([',', ' '])
        .filter(|word| !word.is_empty())
        .map(|word| {
            Point::parse_gtp(word, size)
                .map_err(|e| ConfigError::Invalid(format!("--handicap-stones: {e}")))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::GameArgs;

    fn args(black: &str, white: &str) -> PlayArgs {
        PlayArgs {
            black: Some(black.into()),
            white: Some(white.into()),
            ..PlayArgs::default()
        }
    }

    fn today() -> Date {
        Date::from_unix_seconds(0)
    }

    #[test]
    fn flags_override_the_preset() {
        let mut play = args("bot", "gtp:gnugo --mode gtp");
        play.game.rules = Some("cgf".into());
        play.game.komi = Some(6.5);
        play.game.size = Some(9);
        play.game.time = Some("byoyomi:5m,30s,3".into());
        let config = resolve(&play, PathBuf::from("goref"), today()).unwrap();
        assert_eq!(config.game.rules.preset, Preset::Cgf);
        assert_eq!(config.game.rules.komi, 6.5);
        assert_eq!(config.game.rules.ko, KoRule::Simple);
        assert_eq!(config.game.size, 9);
        assert_eq!(config.game.rules.time.to_string(), "byoyomi:5m,30s,3");
        assert_eq!(config.record.main_time, Some(300));
        assert_eq!(
            config.white,
            PlayerSpec::Gtp {
                command: "gnugo --mode gtp".into()
            }
        );
    }

    #[test]
    fn the_journal_syncs_each_move_unless_told_the_result_only() {
        let mut play = args("bot", "bot");
        let config = resolve(&play, PathBuf::from("goref"), today()).unwrap();
        assert_eq!(config.journal_sync, JournalSync::EveryMove);
        play.game.journal_sync = Some("result".into());
        let config = resolve(&play, PathBuf::from("goref"), today()).unwrap();
        assert_eq!(config.journal_sync, JournalSync::AtResult);
        let text = crate::driver::game_file::game_file_text(&config);
        assert!(text.contains("journal_sync = \"result\""), "{text}");
        let file: GameFile = toml::from_str(&text).unwrap();
        assert_eq!(file.journal_sync.as_deref(), Some("result"));
        play.game.journal_sync = Some("sometimes".into());
        let refused = resolve(&play, PathBuf::from("goref"), today()).unwrap_err();
        assert!(
            refused.to_string().contains("move (the journal synced"),
            "{refused}"
        );
    }

    #[test]
    fn analysis_is_asked_each_second_unless_turned_off_and_survives_the_folder() {
        let mut play = args("bot", "bot");
        let config = resolve(&play, PathBuf::from("goref"), today()).unwrap();
        assert_eq!(config.analysis, Some(Duration::from_secs(1)));
        let text = crate::driver::game_file::game_file_text(&config);
        assert!(
            !text.contains("analysis"),
            "the default is not written: {text}"
        );
        play.game.analysis_interval = Some("250ms".into());
        let config = resolve(&play, PathBuf::from("goref"), today()).unwrap();
        assert_eq!(config.analysis, Some(Duration::from_millis(250)));
        let text = crate::driver::game_file::game_file_text(&config);
        let file: GameFile = toml::from_str(&text).unwrap();
        let written = file
            .analysis_interval
            .expect("written when not the default");
        assert_eq!(
            parse_duration(&written),
            Ok(Duration::from_millis(250)),
            "{text}"
        );
        play.game.no_analysis = true;
        let config = resolve(&play, PathBuf::from("goref"), today()).unwrap();
        assert_eq!(config.analysis, None);
        let text = crate::driver::game_file::game_file_text(&config);
        let file: GameFile = toml::from_str(&text).unwrap();
        assert_eq!(file.analysis, Some(false), "{text}");
        play.game.no_analysis = false;
        play.game.analysis_interval = Some("1ms".into());
        let refused = resolve(&play, PathBuf::from("goref"), today()).unwrap_err();
        assert!(refused.to_string().contains("at least 10ms"), "{refused}");
    }

    #[test]
    fn the_game_file_fills_in_what_flags_leave_out() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game.toml");
        std::fs::write(
            &path,
            "black = \"bot:7\"\nwhite = \"bot\"\nsize = 13\nkomi = 0.5\nhandicap = 4\n",
        )
        .unwrap();
        let play = PlayArgs {
            game: GameArgs {
                config: Some(path),
                size: Some(19),
                ..GameArgs::default()
            },
            ..PlayArgs::default()
        };
        let config = resolve(&play, PathBuf::from("goref"), today()).unwrap();
        assert_eq!(config.game.size, 19);
        assert_eq!(config.game.rules.komi, 0.5);
        assert_eq!(config.game.handicap, Handicap::Fixed(4));
        assert_eq!(
            config.black,
            PlayerSpec::Bot {
                seed: Some(7),
                settings: Default::default()
            }
        );
    }

    #[test]
    fn values_that_make_no_sense_are_refused() {
        let refused = |play: &PlayArgs| {
            resolve(play, PathBuf::from("goref"), today())
                .unwrap_err()
                .to_string()
        };
        for komi in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 1000.5, -2000.0] {
            let play = PlayArgs {
                game: GameArgs {
                    komi: Some(komi),
                    ..GameArgs::default()
                },
                ..args("bot", "bot")
            };
            let error = refused(&play);
            assert!(error.contains("--komi"), "{komi}: {error}");
            assert!(error.contains("from -1000 to 1000"), "{komi}: {error}");
        }
        for komi in [-1000.0, 0.0, 1000.0] {
            let play = PlayArgs {
                game: GameArgs {
                    komi: Some(komi),
                    ..GameArgs::default()
                },
                ..args("bot", "bot")
            };
            assert!(resolve(&play, PathBuf::from("goref"), today()).is_ok());
        }
        for (flag, value) in [
            ("time", "absolute:0s"),
            ("time", "fischer:0s,0s"),
            ("move-timeout", "0"),
            ("move-timeout", "0s"),
            ("command-timeout", "0"),
            ("command-timeout", "0ms"),
        ] {
            let mut play = args("bot", "bot");
            match flag {
                "time" => play.game.time = Some(value.into()),
                "move-timeout" => play.game.move_timeout = Some(value.into()),
                _ => play.game.command_timeout = Some(value.into()),
            }
            let error = refused(&play);
            assert!(error.starts_with(&format!("--{flag} {value}: ")), "{error}");
            assert!(error.contains("non-zero"), "{error}");
            assert!(!error.contains('\n'), "{error}");
        }
    }

    #[test]
    fn the_game_file_gets_the_same_checks_as_the_flags() {
        let dir = tempfile::tempdir().unwrap();
        for (line, expected) in [
            ("komi = nan", "--komi NaN"),
            ("komi = inf", "--komi inf"),
            ("komi = -inf", "--komi -inf"),
            ("time = \"absolute:0s\"", "--time absolute:0s"),
            ("move_timeout = \"0s\"", "--move-timeout 0s"),
            ("command_timeout = \"0\"", "--command-timeout 0"),
        ] {
            let path = dir.path().join("game.toml");
            std::fs::write(&path, format!("{line}\n")).unwrap();
            let play = PlayArgs {
                game: GameArgs {
                    config: Some(path),
                    ..GameArgs::default()
                },
                ..args("bot", "bot")
            };
            let error = resolve(&play, PathBuf::from("goref"), today())
                .unwrap_err()
                .to_string();
            assert!(error.starts_with(expected), "{line}: {error}");
        }
    }

    /// The message for a game file holding `text`, and the file's path.
    fn game_file_error(text: &str) -> (String, String) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.toml");
        std::fs::write(&path, text).unwrap();
        let play = PlayArgs {
            game: GameArgs {
                config: Some(path.clone()),
                ..GameArgs::default()
            },
            ..args("bot", "bot")
        };
        let error = resolve(&play, PathBuf::from("goref"), today()).unwrap_err();
        (error.to_string(), path.display().to_string())
    }

    #[test]
    fn a_wrong_type_in_the_game_file_names_the_line_column_and_key() {
        let (error, path) = game_file_error("black = \"bot\"\nwhite = \"bot\"\nsize = \"nine\"\n");
        assert_eq!(
            error,
            format!(
                "the game file {path} is not valid: line 3, column 8, key size: \
                 invalid type: string \"nine\", expected u8"
            )
        );
    }

    #[test]
    fn an_unknown_key_in_the_game_file_names_its_line_and_column() {
        let (error, path) = game_file_error("size = 9\n\n  blak = \"bot\"\n");
        assert!(
            error.starts_with(&format!(
                "the game file {path} is not valid: line 3, column 3, key blak: unknown field `blak`"
            )),
            "{error}"
        );
        assert!(!error.contains('\n'), "{error}");
    }

    #[test]
    fn a_syntax_error_in_the_game_file_names_its_line_and_column_on_one_line() {
        let (error, path) = game_file_error("size = 9\nkomi = \n");
        assert!(
            error.starts_with(&format!(
                "the game file {path} is not valid: line 2, column 8, key komi: "
            )),
            "{error}"
        );
        assert!(!error.contains('\n'), "{error}");

        let (error, _) = game_file_error("size = 9\n\"black\" = \"bot\"\nwhite \"bot\"\n");
        assert!(error.contains(": line 3, column 7: "), "{error}");
        assert!(!error.contains('\n'), "{error}");

        let (error, _) = game_file_error("size = 9\n[white]\nseed = 2\n");
        assert!(error.contains(": line 2, column 1, key white: "), "{error}");
    }

    #[test]
    fn one_line_for_both_players_is_refused_naming_it() {
        let refused = |black: &str, white: &str| {
            resolve(&args(black, white), PathBuf::from("goref"), today())
                .unwrap_err()
                .to_string()
        };
        let error = refused("sgmp:/dev/pts/3", "gmp:/dev/pts/3,baud=9600");
        assert_eq!(
            error,
            "--black and --white are on the same line, /dev/pts/3: \
             each player needs a line of its own"
        );

        let dir = tempfile::tempdir().unwrap();
        let device = dir.path().join("ttyS0");
        std::fs::write(&device, "").unwrap();
        let link = dir.path().join("go-line");
        std::os::unix::fs::symlink(&device, &link).unwrap();
        let error = refused(
            &format!("sgmp:{}", link.display()),
            &format!("sgmp:{}", device.display()),
        );
        let real = std::fs::canonicalize(&device).unwrap();
        assert!(error.contains(&real.display().to_string()), "{error}");
        assert!(error.contains(&link.display().to_string()), "{error}");
        assert!(!error.contains('\n'), "{error}");

        let error = refused("sgmp-tcp:Term.local:4001", "gmp-tcp:term.local:4001");
        assert!(error.contains("same line, Term.local:4001"), "{error}");

        for (black, white) in [
            ("sgmp:/dev/ttyS0", "sgmp:/dev/ttyS1"),
            ("sgmp-tcp:10.0.0.5:4001", "sgmp-tcp:10.0.0.5:4002"),
            ("bot-sgmp", "bot-sgmp"),
        ] {
            let config = resolve(&args(black, white), PathBuf::from("goref"), today());
            assert!(config.is_ok(), "{black} {white}");
        }
    }

    #[test]
    fn bad_settings_say_what_is_wrong() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game.toml");
        std::fs::write(&path, "blak = \"bot\"\n").unwrap();
        let play = PlayArgs {
            game: GameArgs {
                config: Some(path),
                ..GameArgs::default()
            },
            ..args("bot", "bot")
        };
        let error = resolve(&play, PathBuf::from("goref"), today()).unwrap_err();
        assert!(error.to_string().contains("blak"), "{error}");

        let missing = PlayArgs {
            game: GameArgs {
                config: Some(dir.path().join("absent.toml")),
                ..GameArgs::default()
            },
            ..args("bot", "bot")
        };
        let error = resolve(&missing, PathBuf::from("goref"), today()).unwrap_err();
        assert!(error.to_string().contains("cannot read"), "{error}");

        for (field, value, expected) in [
            ("size", "30", "from 2 to 25"),
            ("time", "byoyomi:5m", "byoyomi"),
            ("rules", "aga", "kgs, cgf or usenix"),
            ("black", "telnet:x", "not a player"),
            ("handicap", "12", "handicap"),
        ] {
            let mut play = args("bot", "bot");
            match field {
                "size" => play.game.size = Some(value.parse().unwrap()),
                "time" => play.game.time = Some(value.into()),
                "rules" => play.game.rules = Some(value.into()),
                "black" => play.black = Some(value.into()),
                _ => play.game.handicap = Some(value.parse().unwrap()),
            }
            let error = resolve(&play, PathBuf::from("goref"), today()).unwrap_err();
            assert!(error.to_string().contains(expected), "{field}: {error}");
        }
        let error = resolve(&args("bot", ""), PathBuf::from("goref"), today());
        assert!(error.is_err());
    }
}
