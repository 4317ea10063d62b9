//! The event file, `DIR/event.toml`: what a tournament director writes
//! once, read and checked before anything is played, and the commented
//! template `goref event init` starts from.
//!
//! Unknown keys are errors, and an error is one line naming its line,
//! column and key, as the game file's are. The `[game]` table takes every
//! key of a game file but the players, which the entrants give.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::config::GameFile;
use crate::players::PlayerSpec;
use crate::toml_errors::locate;
use goref_core::tournament::knockout::{stages_for, KnockoutRules, OnTie};
use goref_core::tournament::standings::{bye_halves, TieBreak};

/// The file's name in an event's folder.
pub const EVENT_FILE: &str = "event.toml";

/// How rounds are paired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum System {
    Swiss,
    RoundRobin,
    DoubleRoundRobin,
    /// A single-elimination bracket.
    Knockout,
}

/// A knockout's keys: how it is seeded and what decides a tie.
#[derive(Debug, Clone, PartialEq)]
pub struct Knockout {
    pub rules: KnockoutRules,
    /// The folder of the event whose standings seed this one, relative to
    /// this event's folder as written.
    pub seed_from: Option<PathBuf>,
    /// The entrants best seed first: the file's order, or the standings of
    /// `seed_from` (entrants it does not rank after, in the file's order).
    pub seeds: Vec<String>,
}

/// How colours are given.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Colours {
    /// Drawn for each game from the event's seed, and recorded.
    #[default]
    Nigiri,
    /// Balanced over the event, as the pairing gives them.
    Balanced,
}

/// What a program that crashes costs its game.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OnCrash {
    /// Restarted as the game's `restart_crashed` allows, then forfeited.
    #[default]
    RestartThenForfeit,
    /// The game is void and played again.
    VoidAndReplay,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entrant {
    pub name: String,
    /// A player spec, exactly as `--black` takes it.
    pub player: String,
    /// Who sits at the program's keyboard, for the record.
    pub operator: Option<String>,
    pub division: Option<String>,
    /// With `player = "cgos"`: the password its CGOS client logs in with;
    /// made once and kept in the seats folder when not given.
    pub password: Option<String>,
    /// The entrant plays with a CGOS client (`player = "cgos"`), through
    /// the event's CGOS door; its player is then its seat.
    #[serde(skip)]
    pub cgos: bool,
}

/// The `[publish]` table: the JetStream stream `--publish` stores the event
/// in, made if missing, and its limits.
#[derive(Debug, Clone, PartialEq)]
pub struct PublishSettings {
    pub stream: String,
    pub max_age: std::time::Duration,
    pub max_megabytes: u64,
    /// A game is published whole after this many of its events.
    pub snapshot_every: u32,
}

impl Default for PublishSettings {
    fn default() -> PublishSettings {
        PublishSettings {
            stream: "GOREF".into(),
            max_age: std::time::Duration::from_secs(7 * 24 * 3600),
            max_megabytes: 1024,
            snapshot_every: 500,
        }
    }
}

/// The `[seats]` table: where the event listens for its seated entrants'
/// seats (`player = "seat"`), and the address they dial.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatsSettings {
    /// `HOST:PORT` the event listens on, e.g. `0.0.0.0:6819`.
    pub listen: Option<String>,
    /// `HOST:PORT` the entrants dial; `listen` when not given.
    pub address: Option<String>,
    /// The seats send their programs' stderr lines to the boards' traces;
    /// by default they stay on the entrants' machines.
    #[serde(default)]
    pub stderr: bool,
    /// `HOST:PORT` the CGOS door listens on, plain TCP, for the entrants
    /// with `player = "cgos"`.
    pub cgos: Option<String>,
    /// `HOST:PORT` the CGOS clients dial; `cgos` when not given.
    pub cgos_address: Option<String>,
    /// Seconds taken off each CGOS move's measure, as the CGOS servers
    /// give them; 0.25 when not given.
    pub cgos_gift: Option<f64>,
}

impl SeatsSettings {
    /// The address a seat dials, as its operator's line gives it.
    pub fn dialled(&self) -> Option<String> {
        self.address.clone().or_else(|| self.listen.clone())
    }

    /// The address a CGOS client dials, as its settings give it.
    pub fn cgos_dialled(&self) -> Option<String> {
        self.cgos_address.clone().or_else(|| self.cgos.clone())
    }

    /// The CGOS door's settings: the servers' own but for the gift.
    pub fn door(&self) -> goref_core::protocol::cgos::DoorSettings {
        let mut door = goref_core::protocol::cgos::DoorSettings::default();
        if let Some(gift) = self.cgos_gift {
            door.gift = std::time::Duration::from_secs_f64(gift);
        }
        door
    }
}

/// The folder of an event's seat keys: its certificate and the tokens.
pub const SEATS_FOLDER: &str = "seats";

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPublish {
    stream: Option<String>,
    max_age: Option<String>,
    max_megabytes: Option<u64>,
    snapshot_every: Option<u32>,
}

impl RawPublish {
    fn check(self) -> Result<PublishSettings, String> {
        let default = PublishSettings::default();
        let stream = self.stream.unwrap_or(default.stream);
        let token_chars = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
        if stream.is_empty() || !stream.chars().all(token_chars) {
            return Err("publish.stream: a stream's name is letters, digits, '-' and '_'".into());
        }
        let max_age = match self.max_age.as_deref() {
            Some(text) => goref_core::game::clock::parse_duration(text)
                .map_err(|e| format!("publish.max_age: {e}"))?,
            None => default.max_age,
        };
        let snapshot_every = self.snapshot_every.unwrap_or(default.snapshot_every);
        if snapshot_every == 0 {
            return Err("publish.snapshot_every: at least 1".into());
        }
        Ok(PublishSettings {
            stream,
            max_age,
            max_megabytes: self.max_megabytes.unwrap_or(default.max_megabytes),
            snapshot_every,
        })
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEventFile {
    name: String,
    place: Option<String>,
    dates: Option<String>,
    system: System,
    rounds: Option<u32>,
    #[serde(default)]
    colours: Colours,
    seed: Option<u64>,
    bye_score: Option<f64>,
    filler: Option<String>,
    tie_breaks: Option<String>,
    boards: Option<u32>,
    rest: Option<String>,
    #[serde(default)]
    on_crash: OnCrash,
    #[serde(default)]
    game: GameFile,
    #[serde(default, rename = "entrant")]
    entrants: Vec<Entrant>,
    #[serde(default)]
    publish: RawPublish,
    #[serde(default)]
    seats: SeatsSettings,
    seed_from: Option<String>,
    third_place: Option<bool>,
    on_tie: Option<OnTie>,
    max_replays: Option<u32>,
}

/// An event file, read and checked.
#[derive(Debug)]
pub struct EventFile {
    pub name: String,
    pub place: Option<String>,
    pub dates: Option<String>,
    pub system: System,
    /// The rounds to play: as written for a Swiss, from the field for a
    /// round robin and a knockout (whose replays may add more).
    pub rounds: u32,
    pub colours: Colours,
    pub seed: u64,
    /// In half points.
    pub bye_score: u64,
    /// The entrant who fills an odd field instead of a bye: its games count
    /// for its opponents, and it is not ranked.
    pub filler: Option<String>,
    pub tie_breaks: Vec<TieBreak>,
    /// How many boards play at once; all of a round when not set.
    pub boards: Option<u32>,
    /// The rest between a round's end and the next one's first board.
    pub rest: Option<std::time::Duration>,
    pub on_crash: OnCrash,
    pub game: GameFile,
    /// The `[game]` table as written, for the boards' game files: every
    /// key a game file takes, passed on untouched.
    pub game_table: toml::Table,
    pub entrants: Vec<Entrant>,
    pub publish: PublishSettings,
    /// Where the seated entrants' seats connect.
    pub seats: SeatsSettings,
    /// A knockout's seeds and rules; none for another system.
    pub knockout: Option<Knockout>,
    /// What the director should know of the file that is not an error:
    /// a Swiss with more rounds than its field allows without a rematch,
    /// a key that a round robin ignores.
    pub notes: Vec<String>,
}

/// Where the keys whose errors name their place are written, read apart
/// from the file's meaning (serde ignores every other key here).
#[derive(Debug, Default, Deserialize)]
struct Places {
    rounds: Option<toml::Spanned<toml::Value>>,
    #[serde(default, rename = "entrant")]
    entrants: Vec<EntrantPlace>,
}

#[derive(Debug, Default, Deserialize)]
struct EntrantPlace {
    name: Option<toml::Spanned<toml::Value>>,
}

/// `line L, column C, key KEY: ` for a value written at `span`.
fn at(text: &str, span: std::ops::Range<usize>, key: &str) -> String {
    let (line, column) = crate::toml_errors::position(text, span.start);
    format!("line {line}, column {column}, key {key}: ")
}

/// A TOML error's line in the words of the key it is about: a number of
/// rounds or boards is a whole number, not a `u32`.
fn in_words(message: String) -> String {
    let words = [
        ("key rounds:", "a whole number of rounds"),
        ("key boards:", "a whole number of boards"),
        ("key seed:", "a whole number"),
    ];
    for (key, expected) in words {
        if message.contains(key) {
            return message
                .replace("expected u32", &format!("expected {expected}"))
                .replace("expected u64", &format!("expected {expected}"));
        }
    }
    message
}

#[derive(Debug, thiserror::Error)]
pub enum EventFileError {
    #[error("cannot read the event file {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("the event file {path} is not valid: {message}")]
    Invalid { path: PathBuf, message: String },
}

/// Reads and checks `DIR/event.toml`; a knockout seeded from another
/// event is seeded from that event's standings as they stand.
pub fn load(dir: &Path) -> Result<EventFile, EventFileError> {
    let mut file = load_unseeded(dir)?;
    let seed_from = file.knockout.as_ref().and_then(|k| k.seed_from.clone());
    if let Some(from) = seed_from {
        let invalid = |message: String| EventFileError::Invalid {
            path: dir.join(EVENT_FILE),
            message: format!("seed_from: {message}"),
        };
        let source = dir.join(&from);
        let source_file = load_unseeded(&source).map_err(|e| invalid(e.to_string()))?;
        let (source_file, state) = super::standings_with(&source, source_file).map_err(invalid)?;
        let ranked: Vec<String> = state
            .standings(&source_file)
            .map_err(invalid)?
            .rows
            .into_iter()
            .map(|r| r.name)
            .collect();
        let knockout = file.knockout.as_mut().expect("seed_from is a knockout's");
        knockout
            .seeds
            .sort_by_key(|name| ranked.iter().position(|r| r == name).unwrap_or(usize::MAX));
        file.notes.push(format!(
            "seeded from the standings of {}: {}",
            from.display(),
            knockout
                .seeds
                .iter()
                .enumerate()
                .map(|(i, name)| format!("{} {name}", i + 1))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    Ok(file)
}

/// Reads and checks `DIR/event.toml`, a knockout seeded in its file's order.
fn load_unseeded(dir: &Path) -> Result<EventFile, EventFileError> {
    let path = dir.join(EVENT_FILE);
    let text = crate::files::read_text(&path, crate::files::SETTINGS_MAX).map_err(|source| {
        EventFileError::Read {
            path: path.clone(),
            source,
        }
    })?;
    let file = parse(&text).map_err(|message| EventFileError::Invalid {
        path: path.clone(),
        message,
    })?;
    if file.entrants.iter().any(|e| e.password.is_some()) {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).map_or(0, |m| m.permissions().mode());
        if mode & 0o077 != 0 {
            return Err(EventFileError::Invalid {
                path: path.clone(),
                message: format!(
                    "it holds CGOS passwords and others may read it (mode {:o}): \
                     chmod 600 {}, or leave the passwords out and let goref make them",
                    mode & 0o777,
                    path.display()
                ),
            });
        }
    }
    Ok(file)
}

/// Whether `name` may name an entrant: not empty, no comma and no space
/// around it (the games list is CSV), and not BYE (which marks a bye there).
pub(crate) fn check_name(name: &str) -> Result<(), String> {
    if name.trim().is_empty() || name.trim() != name || name.contains(',') {
        return Err("a name is not empty, has no comma and no space around it".into());
    }
    if name.eq_ignore_ascii_case("bye") {
        return Err("BYE marks a bye in the games list".into());
    }
    Ok(())
}

/// A CGOS password as the CGOS servers take one: 3 to 16 letters, digits,
/// `_`, `.` or `-` (the clients send it as one word).
pub fn check_cgos_password(password: &str) -> Result<(), String> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-');
    if !(3..=16).contains(&password.len()) || !password.chars().all(allowed) {
        return Err("3 to 16 letters, digits, '_', '.' or '-', as CGOS takes one".into());
    }
    Ok(())
}

/// Reads and checks an event file's text.
pub fn parse(text: &str) -> Result<EventFile, String> {
    let raw: RawEventFile = toml::from_str(text).map_err(|e| in_words(locate(text, &e)))?;
    let places: Places = toml::from_str(text).unwrap_or_default();
    let game_table = match text.parse::<toml::Table>().map(|mut t| t.remove("game")) {
        Ok(Some(toml::Value::Table(table))) => table,
        _ => toml::Table::new(),
    };
    if raw.name.trim().is_empty() {
        return Err("name: the event needs a name".into());
    }
    if raw.game.black.is_some() || raw.game.white.is_some() {
        return Err("[game]: black and white are the entrants' to give, not the game's".into());
    }
    let mut raw = raw;
    for entrant in &mut raw.entrants {
        match entrant.player.trim() {
            "seat" => entrant.player = format!("seat:{}", entrant.name),
            "cgos" => {
                entrant.player = format!("seat:{}", entrant.name);
                entrant.cgos = true;
            }
            _ if entrant.password.is_some() => {
                return Err(format!(
                    "entrant {}: a password is for a CGOS client (player = \"cgos\")",
                    entrant.name
                ))
            }
            _ => {}
        }
        if let Some(password) = &entrant.password {
            check_cgos_password(password)
                .map_err(|why| format!("entrant {}: password: {why}", entrant.name))?;
        }
    }
    let seated = raw
        .entrants
        .iter()
        .any(|e| e.player.starts_with("seat:") && !e.cgos);
    if seated && raw.seats.listen.is_none() {
        return Err(
            "[seats]: listen = \"HOST:PORT\" is needed for the entrants whose player = \"seat\""
                .into(),
        );
    }
    let cgos = raw.entrants.iter().any(|e| e.cgos);
    if cgos && raw.seats.cgos.is_none() {
        return Err(
            "[seats]: cgos = \"HOST:PORT\" is needed for the entrants whose player = \"cgos\""
                .into(),
        );
    }
    if let Some(gift) = raw.seats.cgos_gift {
        if !(0.0..=10.0).contains(&gift) {
            return Err(format!("[seats]: cgos_gift = {gift}: seconds from 0 to 10"));
        }
    }
    let mut names = HashSet::new();
    for (index, entrant) in raw.entrants.iter().enumerate() {
        let at = format!("entrant {} ({})", index + 1, entrant.name);
        check_name(&entrant.name).map_err(|why| format!("{at}: {why}"))?;
        let name = entrant.name.as_str();
        if !names.insert(name.to_string()) {
            let place = places
                .entrants
                .get(index)
                .and_then(|e| e.name.as_ref())
                .map(|name| self::at(text, name.span(), "entrant.name"))
                .unwrap_or_default();
            return Err(format!(
                "{place}{at}: the name is taken by an earlier entrant"
            ));
        }
        entrant
            .player
            .parse::<PlayerSpec>()
            .map_err(|e| format!("{at}: player: {e}"))?;
    }
    if raw.entrants.len() < 2 {
        return Err("an event needs two [[entrant]] tables at least".into());
    }
    let knockout = knockout_keys(&raw)?;
    if let Some(filler) = &raw.filler {
        if !names.contains(filler) {
            return Err(format!("filler: {filler} is not an entrant"));
        }
    }
    let mut divisions: Vec<Option<&str>> = Vec::new();
    for entrant in &raw.entrants {
        if !divisions.contains(&entrant.division.as_deref()) {
            divisions.push(entrant.division.as_deref());
        }
    }
    let field = divisions
        .iter()
        .map(|&division| {
            let ranked = raw
                .entrants
                .iter()
                .filter(|e| e.division.as_deref() == division)
                .filter(|e| Some(&e.name) != raw.filler.as_ref())
                .count();
            ranked + ranked % 2
        })
        .max()
        .unwrap_or(2);
    for &division in &divisions {
        let members = raw
            .entrants
            .iter()
            .filter(|e| e.division.as_deref() == division)
            .count();
        if members < 2 {
            return Err(format!(
                "division {}: a division needs two entrants at least",
                division.unwrap_or("(none)")
            ));
        }
    }
    let rounds_at = places
        .rounds
        .as_ref()
        .map(|r| at(text, r.span(), "rounds"))
        .unwrap_or_default();
    let mut notes = Vec::new();
    let rounds = match (raw.system, raw.rounds) {
        (System::Swiss, None) => {
            return Err("rounds: a Swiss needs its number of rounds (rounds = 3)".into())
        }
        (System::Swiss, Some(0)) => {
            return Err(format!("{rounds_at}a Swiss plays 1 round at least"))
        }
        (System::Swiss, Some(rounds)) => rounds,
        (System::RoundRobin, _) => field as u32 - 1,
        (System::DoubleRoundRobin, _) => 2 * (field as u32 - 1),
        (System::Knockout, _) => stages_for(raw.entrants.len()),
    };
    if let (System::RoundRobin | System::DoubleRoundRobin, Some(written)) = (raw.system, raw.rounds)
    {
        notes.push(format!(
            "{rounds_at}a round robin counts its own rounds ({rounds} for this field): \
             rounds = {written} is ignored"
        ));
    }
    if let (System::Knockout, Some(written)) = (raw.system, raw.rounds) {
        notes.push(format!(
            "{rounds_at}a knockout counts its own rounds ({rounds} for {} entrants, and a round \
             more for each replay): rounds = {written} is ignored",
            raw.entrants.len()
        ));
    }
    if raw.system == System::Swiss && rounds > field as u32 - 1 {
        let players = raw
            .entrants
            .iter()
            .filter(|e| Some(&e.name) != raw.filler.as_ref())
            .count();
        let allowed = field as u32 - 1;
        notes.push(format!(
            "{players} entrants allow {allowed} round{} without a rematch; rounds = {rounds} \
             repeats pairings",
            if allowed == 1 { "" } else { "s" }
        ));
    }
    let bye_score =
        bye_halves(raw.bye_score.unwrap_or(1.0)).map_err(|e| format!("bye_score: {e}"))?;
    let tie_breaks = TieBreak::parse_chain(raw.tie_breaks.as_deref().unwrap_or("kgs"))
        .map_err(|e| format!("tie_breaks: {e}"))?;
    if raw.boards == Some(0) {
        return Err("boards: at least one board plays at a time".into());
    }
    Ok(EventFile {
        name: raw.name,
        place: raw.place,
        dates: raw.dates,
        system: raw.system,
        rounds,
        colours: raw.colours,
        seed: raw.seed.unwrap_or(1),
        bye_score,
        filler: raw.filler,
        tie_breaks,
        boards: raw.boards,
        rest: raw
            .rest
            .as_deref()
            .map(goref_core::game::clock::parse_duration)
            .transpose()
            .map_err(|e| format!("rest: {e}"))?,
        on_crash: raw.on_crash,
        game: raw.game,
        game_table,
        entrants: raw.entrants,
        publish: raw.publish.check()?,
        seats: raw.seats,
        knockout,
        notes,
    })
}

/// A knockout's keys, checked: refused for another system, and a knockout
/// takes no divisions and no filler.
fn knockout_keys(raw: &RawEventFile) -> Result<Option<Knockout>, String> {
    if raw.system != System::Knockout {
        let keys = [
            ("seed_from", raw.seed_from.is_some()),
            ("third_place", raw.third_place.is_some()),
            ("on_tie", raw.on_tie.is_some()),
            ("max_replays", raw.max_replays.is_some()),
        ];
        return match keys.iter().find(|(_, given)| *given) {
            Some((key, _)) => Err(format!("{key}: only a knockout takes it")),
            None => Ok(None),
        };
    }
    if raw.entrants.iter().any(|e| e.division.is_some()) {
        return Err("a knockout has no divisions: one bracket for every entrant".into());
    }
    if raw.filler.is_some() {
        return Err("filler: a knockout has byes, not a filler".into());
    }
    Ok(Some(Knockout {
        rules: KnockoutRules {
            third_place: raw.third_place.unwrap_or(false),
            on_tie: raw.on_tie.unwrap_or_default(),
            max_replays: raw.max_replays.unwrap_or(2),
        },
        seed_from: raw.seed_from.as_ref().map(PathBuf::from),
        seeds: raw.entrants.iter().map(|e| e.name.clone()).collect(),
    }))
}

/// The commented file `goref event init` writes: a 4-entrant Swiss of the
/// built-in engine and GNU Go that plays as it stands.
pub(crate) const TEMPLATE: &str = r#"# The event file of a goref tournament folder: the event, its system, its
# tie-breaks, the games' settings and the entrants. Every key is described
# here; an unknown key is an error.

name = "club championship"
# place = "the venue"
# dates = "2026-12-05"

# How rounds are paired: "swiss", "round-robin", "double-round-robin" or
# "knockout" (a single-elimination bracket).
system = "swiss"
# The rounds of a Swiss (a round robin and a knockout count their own).
rounds = 3

# A knockout only: seeded in the entrants' order below, or by the standings
# of another event's folder (a Swiss played the day before); byes go to the
# top seeds when the field is not a power of two. A jigo or a void game is
# replayed with the colours swapped ("replay", max_replays times, then the
# higher seed goes on) or the higher seed goes on at once ("higher-seed").
# seed_from = "../day1"
# third_place = false
# on_tie = "replay"
# max_replays = 2

# Colours: "nigiri" (drawn from the seed for each game, and recorded) or
# "balanced" (as the pairing gives them).
colours = "nigiri"
# The seed of the draw: the same folder and seed pair the same way.
seed = 1

# An odd field: a bye worth bye_score points (default 1), or a named filler
# entrant whose games count for its opponents and who is not ranked.
bye_score = 1
# filler = "gnugo-filler"

# The tie-breaks after the score: "kgs" (SOS, SODOS), "cgf" (SOS, SODOS,
# trimmed SODOS, head-to-head, pairing number), or a list of wins, sos,
# sosos, sodos, trimmed_sodos, head_to_head, pairing_number.
tie_breaks = "kgs"

# How many boards play at once (default: all of a round).
# boards = 4

# The rest between games: the next round's boards start this long after
# the last game of a round ended (CGF'99 gives 10 minutes).
# rest = "10m"

# A program that crashes: "restart-then-forfeit" (as the game's
# restart_crashed allows) or "void-and-replay".
on_crash = "restart-then-forfeit"

# With --publish nats://HOST:PORT: the JetStream stream the event is stored
# in (made if missing, with these limits; one that is there is used as it
# is), and how often each game is published whole for late watchers.
# [publish]
# stream = "GOREF"
# max_age = "168h"
# max_megabytes = 1024
# snapshot_every = 500

# Entrants whose programs run on their own machines (player = "seat"):
# where the event listens for their seats, and the address they dial (the
# listening one when not given). goref event DIR seats prints each seated
# entrant's command.
# [seats]
# listen = "0.0.0.0:6819"
# address = "venue.example.org:6819"
# stderr = true        # the programs' stderr in the boards' traces; by
#                      # default it stays on the entrants' machines

# Every game of the event: any key of a game file but black and white.
[game]
rules = "kgs"
size = 9
time = "absolute:10m"

# One table per entrant, in the order of the pairing table: a name, and a
# player exactly as --black takes it (or "seat": the program runs on its
# owner's machine, through goref seat); an operator and a division if wanted.
[[entrant]]
name = "alpha"
player = "bot"

[[entrant]]
name = "beta"
player = "bot:1"

[[entrant]]
name = "gamma"
player = "gtp:/usr/games/gnugo --mode gtp --level 0"

[[entrant]]
name = "delta"
player = "gtp:/usr/games/gnugo --mode gtp --level 1"
# operator = "the author"
# division = "open"
"#;

#[cfg(test)]
mod tests;
