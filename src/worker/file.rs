//! `worker.toml`: the engines a worker can run, each a name a job may give
//! and the local command line it stands for; the worker's own name and its
//! slots. A job never carries a command: it names engines from this file,
//! and its `[game]` table may set only the keys that cannot reach a file or
//! a program on this machine.

use std::path::Path;

use serde::Deserialize;

use crate::match_play::file::{check_engines, Engine};
use crate::toml_errors::locate;
use goref_core::matches::jobs::is_plain_name as is_plain;

/// The `[game]` keys a job may set: none names a file, a program or the
/// players.
const GAME_KEYS: &[&str] = &[
    "rules",
    "size",
    "komi",
    "handicap",
    "handicap_stones",
    "time",
    "ko",
    "allow_suicide",
    "move_timeout",
    "command_timeout",
    "time_loss_before",
    "stop_at",
    "count_passes",
    "restart_crashed",
    "lag_allowance",
    "idle_limit",
    "round",
    "place",
    "date",
    "journal_sync",
    "analysis",
    "analysis_interval",
];

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawWorkerFile {
    name: Option<String>,
    slots: Option<usize>,
    #[serde(default, rename = "engine")]
    engines: Vec<Engine>,
}

/// A worker file, read and checked.
#[derive(Debug, Clone)]
pub(crate) struct WorkerFile {
    pub name: Option<String>,
    pub slots: Option<usize>,
    pub engines: Vec<Engine>,
}

impl WorkerFile {
    /// The engine a job names, if this worker has it.
    pub(crate) fn engine(&self, name: &str) -> Option<&Engine> {
        self.engines.iter().find(|e| e.name == name)
    }
}

/// Reads and checks a worker file.
pub(crate) fn load(path: &Path) -> Result<WorkerFile, String> {
    let text = crate::files::read_text(path, crate::files::SETTINGS_MAX)
        .map_err(|e| format!("cannot read the worker file {}: {e}", path.display()))?;
    parse(&text).map_err(|e| format!("the worker file {} is not valid: {e}", path.display()))
}

/// Checks a worker file's text; the error is one line naming its place.
pub(crate) fn parse(text: &str) -> Result<WorkerFile, String> {
    let raw: RawWorkerFile = toml::from_str(text).map_err(|e| locate(text, &e))?;
    if raw.engines.is_empty() {
        return Err("[[engine]]: a worker needs one engine or more".into());
    }
    check_engines(&raw.engines, |name| match is_plain(name) {
        true => None,
        false => Some(format!(
            "name '{name}' is not a plain name (letters, digits, '-', '_', '.')"
        )),
    })?;
    if let Some(name) = raw.name.as_deref().filter(|n| !is_plain(n)) {
        return Err(format!("name: '{name}' is not a plain name"));
    }
    if raw.slots == Some(0) {
        return Err("slots: at least 1".into());
    }
    Ok(WorkerFile {
        name: raw.name,
        slots: raw.slots,
        engines: raw.engines,
    })
}

/// A job's `[game]` table, read and held to the keys a job may set.
pub(crate) fn job_game_table(text: &str) -> Result<toml::Table, String> {
    let table: toml::Table = text
        .parse()
        .map_err(|e: toml::de::Error| format!("its [game] table: {}", e.message()))?;
    match table.keys().find(|key| !GAME_KEYS.contains(&key.as_str())) {
        Some(key) => Err(format!(
            "its [game] table sets '{}', which a worker does not take from a job",
            key.chars().take(40).collect::<String>()
        )),
        None => Ok(table),
    }
}

/// This machine's name as a plain name, with the process id: the worker's
/// name when its file gives none.
pub(crate) fn default_name() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default();
    let host: String = host
        .trim()
        .chars()
        .map(|c| match c.is_ascii_alphanumeric() || c == '-' {
            true => c,
            false => '-',
        })
        .take(40)
        .collect();
    let host = if host.is_empty() {
        "worker".into()
    } else {
        host
    };
    format!("{host}-{}", std::process::id())
}

/// Finds or makes the folder the worker's games go in, and checks that a
/// game's folder can be made there: before the worker takes a job, so that
/// a wrong `--dir` is said at once, not as every job's failure.
pub(crate) fn prepare_games_folder(dir: &Path) -> Result<(), String> {
    let said = |why: String| format!("--dir {}: {why}", dir.display());
    match std::fs::metadata(dir) {
        Ok(meta) if !meta.is_dir() => {
            let kind = crate::files::kind_of(meta.file_type());
            return Err(said(format!("{kind}, not a folder")));
        }
        Ok(_) => {}
        Err(_) => std::fs::create_dir_all(dir).map_err(|e| said(e.to_string()))?,
    }
    let probe = dir.join(format!(".probe-{}", std::process::id()));
    std::fs::create_dir(&probe)
        .and_then(|()| std::fs::remove_dir(&probe))
        .map_err(|e| said(format!("cannot make a game's folder in it: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_games_folder_is_made_or_refused_before_any_job() {
        let root = tempfile::tempdir().unwrap();
        let made = root.path().join("games/deep");
        prepare_games_folder(&made).unwrap();
        assert!(made.is_dir());
        assert_eq!(
            std::fs::read_dir(&made).unwrap().count(),
            0,
            "no probe left"
        );
        let error = prepare_games_folder(Path::new("/dev/null")).unwrap_err();
        assert_eq!(error, "--dir /dev/null: a character device, not a folder");
        let file = root.path().join("a-file");
        std::fs::write(&file, "").unwrap();
        let error = prepare_games_folder(&file.join("under")).unwrap_err();
        assert!(error.contains("Not a directory"), "{error}");
    }

    const SMALLEST: &str = r#"
[[engine]]
name = "new"
player = "gtp:/opt/engines/new/engine --gtp"
[[engine]]
name = "old"
player = "gtp:/opt/engines/old/engine --gtp"
"#;

    #[test]
    fn the_smallest_file_names_two_engines() {
        let file = parse(SMALLEST).unwrap();
        assert_eq!(file.engines.len(), 2);
        assert_eq!(
            file.engine("old").unwrap().player,
            "gtp:/opt/engines/old/engine --gtp"
        );
        assert!(file.engine("other").is_none());
        assert_eq!(file.slots, None);
    }

    #[test]
    fn a_wrong_worker_file_says_where() {
        let spaced = parse(&SMALLEST.replace("\"new\"", "\"new one\"")).unwrap_err();
        assert!(spaced.contains("not a plain name"), "{spaced}");
        let twice = parse(&SMALLEST.replace("\"old\"", "\"new\"")).unwrap_err();
        assert!(twice.contains("'new' twice"), "{twice}");
        let player = parse(&SMALLEST.replace("gtp:/opt/engines/old", "nope:/x")).unwrap_err();
        assert!(player.starts_with("[[engine]] 2 (old): player"), "{player}");
        assert!(parse("slots = 2")
            .unwrap_err()
            .contains("one engine or more"));
        assert!(parse(&format!("slots = 0\n{SMALLEST}")).is_err());
        assert!(parse(&format!("typo = 1\n{SMALLEST}")).is_err());
    }

    #[test]
    fn a_job_may_not_reach_a_file_or_a_program() {
        let table = job_game_table("size = 9\ntime = \"fischer:10s,0.1s\"\n").unwrap();
        assert_eq!(table["size"].as_integer(), Some(9));
        for hostile in [
            "sgf = \"/etc/passwd\"",
            "trace = \"/root/.ssh/authorized_keys\"",
            "black = \"gtp:/bin/sh -c reboot\"",
            "forks = \"x\"",
            "nonsense = 1",
        ] {
            let refused = job_game_table(hostile).unwrap_err();
            assert!(refused.contains("does not take"), "{hostile}: {refused}");
        }
        assert!(job_game_table("size = ").is_err());
    }

    #[test]
    fn the_default_name_is_plain() {
        assert!(is_plain(&default_name()), "{}", default_name());
    }
}
