//! `DIR/match.toml`: the engines, the game settings, the openings, how many
//! boards at once and the stop rule; read and checked into a [`MatchFile`],
//! and its commented template for `goref match init DIR`.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::config::GameFile;
use crate::players::PlayerSpec;
use crate::toml_errors::locate;
use goref_core::matches::{SprtModel, SprtSettings};

/// The match file's name in its folder.
pub const MATCH_FILE: &str = "match.toml";

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMatchFile {
    name: String,
    boards: Option<u32>,
    seed: Option<u64>,
    #[serde(default)]
    game: GameFile,
    #[serde(default, rename = "engine")]
    engines: Vec<Engine>,
    openings: Option<RawOpenings>,
    #[serde(default)]
    stop: RawStop,
    #[serde(default)]
    workers: RawWorkers,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawWorkers {
    queued: Option<usize>,
    ack_wait: Option<String>,
    failures: Option<usize>,
}

/// How a match played by workers (`--workers`) hands out its pairs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkersSettings {
    /// Pairs on the queue or in play at once, not yet counted.
    pub queued: usize,
    /// How long a worker may go unheard of before its job is handed out
    /// again.
    pub ack_wait: std::time::Duration,
    /// Failures of one pair, on any workers, before the match stops.
    pub failures: usize,
}

impl Default for WorkersSettings {
    fn default() -> WorkersSettings {
        WorkersSettings {
            queued: 16,
            ack_wait: std::time::Duration::from_secs(60),
            failures: 5,
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOpenings {
    source: String,
    plies: Option<usize>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStop {
    pairs: Option<u64>,
    sprt: Option<RawSprt>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSprt {
    elo0: f64,
    elo1: f64,
    #[serde(default = "five_percent")]
    alpha: f64,
    #[serde(default = "five_percent")]
    beta: f64,
    #[serde(default)]
    model: SprtModel,
}

fn five_percent() -> f64 {
    0.05
}

/// One engine: its name in the figures, its player spec, and whether its
/// program is kept from one game to the next.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Engine {
    pub name: String,
    pub player: String,
    /// When its program is started again.
    #[serde(default)]
    pub restart: Restart,
    /// How long a kept program has, between games, to be ready.
    #[serde(default, rename = "ready_timeout")]
    ready_timeout_text: Option<String>,
}

/// When an engine's program is started again.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Restart {
    /// Started once for each board it plays on and kept across games;
    /// started again only when it died, hung or was not ready.
    #[default]
    Crash,
    /// Started afresh for every game (for programs that leak or carry
    /// something from one game to the next).
    Game,
}

/// How long a kept program has to be ready when none is given:
/// fastchess's limit for `isready`.
pub const READY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);

impl Engine {
    /// An engine started afresh for every game, as an event's are.
    pub fn new(name: &str, player: &str) -> Engine {
        Engine {
            name: name.to_string(),
            player: player.to_string(),
            restart: Restart::Game,
            ready_timeout_text: None,
        }
    }

    /// How long its kept program has, between games, to be ready.
    pub fn ready_timeout(&self) -> std::time::Duration {
        self.ready_timeout_text
            .as_deref()
            .and_then(|text| goref_core::game::clock::parse_duration(text).ok())
            .unwrap_or(READY_TIMEOUT)
    }

    /// Whether its program is kept across games: `restart = "crash"`, and
    /// a program goref starts (a GTP program or the built-in engine).
    pub fn kept(&self) -> bool {
        self.restart == Restart::Crash
            && matches!(
                self.player.parse::<PlayerSpec>(),
                Ok(PlayerSpec::Gtp { .. } | PlayerSpec::Bot { .. })
            )
    }
}

/// Where the openings come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpeningSource {
    /// `random:N`: N legal moves from the match's seed.
    Random { plies: usize },
    /// An SGF file, or a folder of them: the first `plies` moves of each game.
    Sgf { path: PathBuf, plies: usize },
}

/// A match file, read and checked.
#[derive(Debug)]
pub struct MatchFile {
    pub name: String,
    /// Boards at once.
    pub boards: u32,
    pub seed: u64,
    pub game: GameFile,
    /// The `[game]` table as written, for the games' files.
    pub game_table: toml::Table,
    /// The candidate first, then its opponent or opponents (a gauntlet).
    pub engines: Vec<Engine>,
    pub openings: OpeningSource,
    /// Stop after this many pairs.
    pub pairs: Option<u64>,
    pub sprt: Option<SprtSettings>,
    pub workers: WorkersSettings,
}

impl MatchFile {
    /// The games' board size.
    pub fn size(&self) -> u8 {
        self.game.size.unwrap_or(19)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum MatchFileError {
    #[error("cannot read the match file {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("the match file {path} is not valid: {message}")]
    Invalid { path: PathBuf, message: String },
}

/// Claims the match in `dir` for this goref, or says which goref runs it.
pub(crate) fn claim(dir: &Path) -> Result<crate::files::FileLock, String> {
    crate::files::FileLock::acquire(&dir.join(MATCH_FILE)).map_err(|e| match e {
        crate::files::FileError::Locked { holder, .. } => format!(
            "the match in {} is being run by another goref (PID {holder})",
            dir.display()
        ),
        other => other.to_string(),
    })
}

/// Reads and checks `DIR/match.toml`.
pub fn load(dir: &Path) -> Result<MatchFile, MatchFileError> {
    let path = dir.join(MATCH_FILE);
    let text = crate::files::read_text(&path, crate::files::SETTINGS_MAX).map_err(|source| {
        MatchFileError::Read {
            path: path.clone(),
            source,
        }
    })?;
    let mut file = parse(&text).map_err(|message| MatchFileError::Invalid {
        path: path.clone(),
        message,
    })?;
    if let OpeningSource::Sgf { path, .. } = &mut file.openings {
        if path.is_relative() {
            *path = dir.join(&*path);
        }
    }
    Ok(file)
}

/// Checks a match file's text; the error is one line naming its place.
pub fn parse(text: &str) -> Result<MatchFile, String> {
    let raw: RawMatchFile = toml::from_str(text).map_err(|e| locate(text, &e))?;
    let game_table = match text.parse::<toml::Table>().map(|mut t| t.remove("game")) {
        Ok(Some(toml::Value::Table(table))) => table,
        _ => toml::Table::new(),
    };
    if raw.name.trim().is_empty() {
        return Err("name: the match needs a name".into());
    }
    if raw.game.black.is_some() || raw.game.white.is_some() {
        return Err("[game]: black and white are the engines' to give, not the game's".into());
    }
    if raw.game.opening.is_some() {
        return Err("[game]: opening: the openings come from [openings]".into());
    }
    if raw.engines.len() < 2 {
        return Err(format!(
            "[[engine]]: a match needs two engines or more (the candidate first), not {}",
            raw.engines.len()
        ));
    }
    check_engines(&raw.engines, |name| match name.trim().is_empty() {
        true => Some("name is empty".into()),
        false => None,
    })?;
    let openings = match raw.openings {
        None => OpeningSource::Random { plies: 0 },
        Some(openings) => opening_source(&openings)?,
    };
    let sprt = raw
        .stop
        .sprt
        .map(|s| {
            let settings = SprtSettings {
                elo0: s.elo0,
                elo1: s.elo1,
                alpha: s.alpha,
                beta: s.beta,
                model: s.model,
            };
            settings.validate().map(|()| settings)
        })
        .transpose()
        .map_err(|e| format!("[stop] sprt: {e}"))?;
    if raw.stop.pairs.is_none() && sprt.is_none() {
        return Err("[stop]: give pairs = N, or sprt = { ... }, or both".into());
    }
    if raw.stop.pairs == Some(0) {
        return Err("[stop] pairs: at least 1".into());
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get() as u32);
    let boards = raw.boards.unwrap_or(cores);
    if boards == 0 {
        return Err("boards: at least 1".into());
    }
    let workers = workers_settings(&raw.workers)?;
    Ok(MatchFile {
        workers,
        name: raw.name,
        boards,
        seed: raw.seed.unwrap_or(1),
        game: raw.game,
        game_table,
        engines: raw.engines,
        openings,
        pairs: raw.stop.pairs,
        sprt,
    })
}

fn workers_settings(raw: &RawWorkers) -> Result<WorkersSettings, String> {
    let mut settings = WorkersSettings::default();
    if let Some(queued) = raw.queued {
        if queued == 0 {
            return Err("[workers] queued: at least 1".into());
        }
        settings.queued = queued;
    }
    if let Some(wait) = &raw.ack_wait {
        settings.ack_wait = goref_core::game::clock::parse_duration(wait)
            .ok()
            .filter(|d| *d >= std::time::Duration::from_secs(1))
            .ok_or_else(|| {
                format!("[workers] ack_wait: '{wait}' is not a duration of 1s or more")
            })?;
    }
    if let Some(failures) = raw.failures {
        if failures == 0 {
            return Err("[workers] failures: at least 1".into());
        }
        settings.failures = failures;
    }
    Ok(settings)
}

fn opening_source(openings: &RawOpenings) -> Result<OpeningSource, String> {
    if let Some(plies) = openings.source.strip_prefix("random:") {
        if openings.plies.is_some() {
            return Err("[openings] plies: random:N gives the plies itself".into());
        }
        let plies = plies.trim().parse().map_err(|_| {
            format!("[openings] source: random:N takes a number of moves, not '{plies}'")
        })?;
        return Ok(OpeningSource::Random { plies });
    }
    let plies = openings
        .plies
        .ok_or("[openings] plies: how many moves of each game make its opening")?;
    if plies == 0 {
        return Err("[openings] plies: at least 1".into());
    }
    Ok(OpeningSource::Sgf {
        path: PathBuf::from(&openings.source),
        plies,
    })
}

/// The commented file `goref match init DIR` writes.
pub const TEMPLATE: &str = r#"# A match between Go programs: goref plays them against each other in
# colour-swapped pairs (each opening twice, each engine Black once), and
# says whether the first engine, the candidate, is stronger.
# Run it with: goref match DIR      The figures: goref standings DIR

name = "new vs old"

# Games at once, each its own goref process (default: the machine's cores).
# boards = 2

# The seed of the openings' order (and of random openings).
# seed = 1

# Every game: any key of a game file but black, white and opening.
[game]
rules = "kgs"
size = 9
time = "fischer:30s,0.5s"

# The candidate first: the figures are its. More than one opponent makes a
# gauntlet, with figures against each and against the field. Under a clock
# GNU Go raises its own level when it has time to spare, so each level is
# pinned with --max-level: without it, level 5 and level 0 play alike.
#
# Each engine's program is started once for each board it plays on and kept
# from one game to the next (restart = "crash", the default): between games
# it is told the new game and must answer within ready_timeout (default
# 60s). restart = "game" starts it afresh for every game instead, for a
# program that leaks or carries something over; each kept program holds
# its memory while idle.
[[engine]]
name = "new"
player = "gtp:/usr/games/gnugo --mode gtp --level 5 --max-level 5"
# restart = "crash"
# ready_timeout = "60s"

[[engine]]
name = "old"
player = "gtp:/usr/games/gnugo --mode gtp --level 0 --max-level 0"

# The openings: random:N (N legal quiet moves from the seed), or an SGF
# file or folder, with plies = N (the first N moves of each game).
[openings]
source = "random:4"
# source = "openings.sgf"
# plies = 6

# When the match stops: after a number of pairs, when the sequential
# probability ratio test decides, or whichever comes first.
[stop]
pairs = 200
sprt = { elo0 = 0, elo1 = 20, alpha = 0.05, beta = 0.05, model = "logistic" }

# Only for goref match DIR --workers nats://HOST:PORT, the games played by
# goref workers on other machines: how many pairs wait on the queue or play
# at once, how long a silent worker keeps its pair, and how many failures
# of one pair stop the match.
# [workers]
# queued = 16
# ack_wait = "60s"
# failures = 5
"#;

/// Checks a list of `[[engine]]`s: each name once and allowed by
/// `bad_name` (which says why not), each player a spec goref takes; the
/// error names the engine's place.
pub fn check_engines(
    engines: &[Engine],
    bad_name: impl Fn(&str) -> Option<String>,
) -> Result<(), String> {
    for (i, engine) in engines.iter().enumerate() {
        if let Some(why) = bad_name(&engine.name) {
            return Err(format!("[[engine]] {}: {why}", i + 1));
        }
        if engines[..i].iter().any(|e| e.name == engine.name) {
            return Err(format!("[[engine]] {}: '{}' twice", i + 1, engine.name));
        }
        engine
            .player
            .parse::<PlayerSpec>()
            .map_err(|e| format!("[[engine]] {} ({}): player: {e}", i + 1, engine.name))?;
        if let Some(text) = &engine.ready_timeout_text {
            goref_core::game::clock::parse_duration(text)
                .ok()
                .filter(|d| *d >= std::time::Duration::from_millis(100))
                .ok_or_else(|| {
                    format!(
                        "[[engine]] {} ({}): ready_timeout: '{text}' is not a duration of 0.1s or more",
                        i + 1,
                        engine.name
                    )
                })?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_template_is_a_valid_match() {
        let file = parse(TEMPLATE).unwrap();
        assert_eq!(file.engines.len(), 2);
        assert_eq!(file.openings, OpeningSource::Random { plies: 4 });
        assert_eq!(file.pairs, Some(200));
        assert_eq!(file.sprt.unwrap().model, SprtModel::Logistic);
        assert_eq!(file.size(), 9);
        assert_eq!(file.game_table["time"].as_str(), Some("fischer:30s,0.5s"));
    }

    #[test]
    fn a_wrong_file_is_one_line_naming_its_place() {
        let typo = parse(&TEMPLATE.replace("pairs = 200", "pair = 200")).unwrap_err();
        assert!(typo.contains("pair") && typo.contains("line"), "{typo}");
        let alone = TEMPLATE.replace("[[engine]]\nname = \"old\"", "[[x]]\nname = \"old\"");
        assert!(parse(&alone).is_err());
        let sprt =
            parse(&TEMPLATE.replace("elo0 = 0, elo1 = 20", "elo0 = 20, elo1 = 0")).unwrap_err();
        assert!(
            sprt.starts_with("[stop] sprt: elo0 (20) must be less"),
            "{sprt}"
        );
        let player = parse(&TEMPLATE.replace(
            "gtp:/usr/games/gnugo --mode gtp --level 0 --max-level 0",
            "nope:x",
        ))
        .unwrap_err();
        assert!(
            player.starts_with("[[engine]] 2 (old): player:"),
            "{player}"
        );
        let sgf =
            parse(&TEMPLATE.replace("source = \"random:4\"", "source = \"book.sgf\"")).unwrap_err();
        assert!(sgf.starts_with("[openings] plies"), "{sgf}");
        let twice = parse(&TEMPLATE.replace("name = \"old\"", "name = \"new\"")).unwrap_err();
        assert!(twice.contains("'new' twice"), "{twice}");
    }

    #[test]
    fn programs_are_kept_unless_restarted_every_game_and_only_those_goref_starts() {
        let file = parse(TEMPLATE).unwrap();
        assert!(file.engines.iter().all(Engine::kept));
        assert_eq!(file.engines[0].ready_timeout(), READY_TIMEOUT);
        let per_game = TEMPLATE.replace(
            "# restart = \"crash\"\n# ready_timeout = \"60s\"",
            "restart = \"game\"\nready_timeout = \"5s\"",
        );
        let file = parse(&per_game).unwrap();
        assert_eq!(file.engines[0].restart, Restart::Game);
        assert!(!file.engines[0].kept());
        assert_eq!(
            file.engines[0].ready_timeout(),
            std::time::Duration::from_secs(5)
        );
        let bot = Engine {
            restart: Restart::Crash,
            ..Engine::new("bot", "bot:3")
        };
        assert!(bot.kept(), "the built-in engine is a program goref starts");
        let seat = Engine {
            restart: Restart::Crash,
            ..Engine::new("far", "seat:far")
        };
        assert!(!seat.kept(), "a seat keeps its own program");
        let wrong =
            parse(&TEMPLATE.replace("# restart = \"crash\"", "restart = \"never\"")).unwrap_err();
        assert!(wrong.contains("never"), "{wrong}");
        let soon = parse(&TEMPLATE.replace("# ready_timeout = \"60s\"", "ready_timeout = \"0s\""))
            .unwrap_err();
        assert!(
            soon.starts_with("[[engine]] 1 (new): ready_timeout: '0s'"),
            "{soon}"
        );
    }
}
