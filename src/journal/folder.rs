//! The game folder: where one game keeps everything that happened in it.
//!
//! A folder is made for every game, named by the date, the round and the
//! players unless `--game-dir` names it, and claimed for as long as a goref
//! writes to it: a second goref (a `resume` while the game still runs, two
//! games given one folder) is told the holder's PID.

use std::fs;
use std::path::{Path, PathBuf};

use crate::files::{FileError, FileLock};
use goref_core::game::Color;

/// Every event, the stream header first: append-only, synced before a
/// move is relayed and before a result is announced.
pub const JOURNAL: &str = "journal.jsonl";
/// The SGF record, derived from the events, replaced after every move.
pub(crate) const RECORD: &str = "game.sgf";
/// The resolved configuration, as a game file: `goref play --config` plays
/// the same setup, and `goref resume` restarts the same players.
pub const CONFIG: &str = "config.toml";
/// The SHA-256 of every other file, written when the game is over, in the
/// form `sha256sum -c` checks.
pub const MANIFEST: &str = "MANIFEST.sha256";
/// The socket `goref attach` connects to while the game runs.
pub const SOCKET: &str = "attach.sock";

/// The file of a player's stderr lines.
pub(crate) fn stderr_log(color: Color) -> String {
    format!("{}.stderr.log", color.to_string().to_ascii_lowercase())
}

/// Folders tried for one default name before giving up: `NAME`, `NAME-2`, ...
const MAX_SUFFIX: u32 = 1000;

#[derive(Debug, thiserror::Error)]
pub enum FolderError {
    #[error("cannot make the game folder {path}: {source}")]
    Create {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot open the game folder {path}: {source}")]
    Open {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("the game folder {0} is not a folder")]
    NotAFolder(PathBuf),
    #[error(
        "{0} already holds a game ({JOURNAL}): `goref resume {0}` continues it; give a new \
         folder for a new game"
    )]
    HoldsAGame(PathBuf),
    #[error(
        "{0} already holds a finished game (its record is {0}/game.sgf): give a new folder for \
         a new game"
    )]
    HoldsAFinishedGame(PathBuf),
    #[error("the game folder {0} is not empty: give a new or empty folder for a new game")]
    NotEmpty(PathBuf),
    #[error("{0} holds no game: there is no {JOURNAL} in it")]
    NoGame(PathBuf),
    #[error("no free folder name under {parent} for {name}")]
    NoFreeName { parent: PathBuf, name: String },
    #[error("the game in {folder} {why}")]
    Claimed { folder: PathBuf, why: String },
    #[error(transparent)]
    File(#[from] FileError),
}

/// The refusal of a folder that holds a game: `goref resume` is suggested
/// only for a game that is not over (one that is has its manifest).
fn holds_a_game(path: &Path) -> FolderError {
    match path.join(MANIFEST).exists() {
        true => FolderError::HoldsAFinishedGame(path.to_path_buf()),
        false => FolderError::HoldsAGame(path.to_path_buf()),
    }
}

/// Where a new game's folder goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FolderPlace {
    /// `--game-dir DIR`: exactly there; it must be new or empty.
    Exactly(PathBuf),
    /// The first free `PARENT/NAME`, `PARENT/NAME-2`, ...
    Named { parent: PathBuf, name: String },
}

/// A game folder claimed by this goref.
#[derive(Debug)]
pub struct GameFolder {
    path: PathBuf,
    /// This goref made the folder (it did not exist, or was not given).
    made: bool,
    claim: FileLock,
}

impl GameFolder {
    /// Makes and claims the folder of a new game.
    pub fn create(place: &FolderPlace) -> Result<GameFolder, FolderError> {
        let (path, made) = match place {
            FolderPlace::Exactly(path) => (path.clone(), make_or_reuse_empty(path)?),
            FolderPlace::Named { parent, name } => (make_free(parent, name)?, true),
        };
        let claim = claim(&path)?;
        if path.join(JOURNAL).exists() {
            return Err(holds_a_game(&path));
        }
        Ok(GameFolder { path, made, claim })
    }

    /// Claims the folder of a game that was started before, to go on
    /// writing it: it must hold a journal.
    pub fn open(path: &Path) -> Result<GameFolder, FolderError> {
        match fs::metadata(path) {
            Ok(meta) if meta.is_dir() => {}
            Ok(_) => return Err(FolderError::NotAFolder(path.to_path_buf())),
            Err(source) => {
                return Err(FolderError::Open {
                    path: path.to_path_buf(),
                    source,
                })
            }
        }
        if !path.join(JOURNAL).is_file() {
            return Err(FolderError::NoGame(path.to_path_buf()));
        }
        let claim = claim(path)?;
        Ok(GameFolder {
            path: path.to_path_buf(),
            made: false,
            claim,
        })
    }

    /// Takes back a new game's folder whose set-up failed, so that it
    /// neither holds a game that never was nor blocks the next try: the
    /// files goref wrote go, and the folder too if goref made it.
    pub(crate) fn discard(self) {
        for name in [JOURNAL, RECORD, CONFIG, SOCKET] {
            let _ = fs::remove_file(self.path.join(name));
        }
        let GameFolder { path, made, claim } = self;
        drop(claim);
        if made {
            let _ = fs::remove_dir(path);
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The path of one of the folder's files.
    pub fn file(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }
}

/// Renames the folder at `path`, left by an earlier run, out of the way
/// to `….abandoned-PID`: where to, if it was there to rename.
pub(crate) fn set_aside(path: &Path) -> Option<PathBuf> {
    let aside = path.with_extension(format!("abandoned-{}", std::process::id()));
    fs::rename(path, &aside).ok().map(|()| aside)
}

/// Claims the folder through a lock beside its journal.
fn claim(folder: &Path) -> Result<FileLock, FolderError> {
    FileLock::acquire(&folder.join(JOURNAL)).map_err(|error| match error {
        FileError::Locked { holder, .. } => FolderError::Claimed {
            folder: folder.to_path_buf(),
            why: format!("is being refereed by another goref (PID {holder})"),
        },
        other => FolderError::File(other),
    })
}

/// Makes the folder or takes an empty one; whether it made it.
fn make_or_reuse_empty(path: &Path) -> Result<bool, FolderError> {
    let existed = path.exists();
    match fs::create_dir_all(path) {
        Ok(()) => {}
        Err(_) if path.exists() && !path.is_dir() => {
            return Err(FolderError::NotAFolder(path.to_path_buf()))
        }
        Err(source) => {
            return Err(FolderError::Create {
                path: path.to_path_buf(),
                source,
            })
        }
    }
    let create = |source| FolderError::Create {
        path: path.to_path_buf(),
        source,
    };
    let mut entries = fs::read_dir(path).map_err(create)?;
    if path.join(JOURNAL).exists() {
        return Err(holds_a_game(path));
    }
    match entries.next() {
        None => Ok(!existed),
        Some(_) => Err(FolderError::NotEmpty(path.to_path_buf())),
    }
}

fn make_free(parent: &Path, name: &str) -> Result<PathBuf, FolderError> {
    fs::create_dir_all(parent).map_err(|source| FolderError::Create {
        path: parent.to_path_buf(),
        source,
    })?;
    for n in 1..=MAX_SUFFIX {
        let path = match n {
            1 => parent.join(name),
            n => parent.join(format!("{name}-{n}")),
        };
        match fs::create_dir(&path) {
            Ok(()) => return Ok(path),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(source) => return Err(FolderError::Create { path, source }),
        }
    }
    Err(FolderError::NoFreeName {
        parent: parent.to_path_buf(),
        name: name.to_string(),
    })
}

/// A folder name for a game: `2026-11-22-r3-gnugo-vs-leela`, from the
/// date, the round when there is one, and a short name for each player.
pub(crate) fn default_name(date: &str, round: Option<&str>, black: &str, white: &str) -> String {
    let mut name = slug(date);
    if let Some(round) = round.map(slug).filter(|r| !r.is_empty()) {
        name.push('-');
        if round.starts_with(|c: char| c.is_ascii_digit()) {
            name.push('r');
        }
        name.push_str(&round);
    }
    name.push('-');
    name.push_str(&slug(black));
    name.push_str("-vs-");
    name.push_str(&slug(white));
    name
}

/// Letters, digits, `.` and `_` kept, anything else one `-`, at most 32
/// characters: a name safe in any folder.
fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() || c == '.' || c == '_' {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
        if out.len() >= 32 {
            break;
        }
    }
    let out = out.trim_matches(['-', '.']).to_string();
    if out.is_empty() {
        "player".into()
    } else {
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_names_are_short_safe_and_say_whose_game_it_is() {
        assert_eq!(
            default_name("2026-11-22", Some("3"), "gnugo", "leela"),
            "2026-11-22-r3-gnugo-vs-leela"
        );
        assert_eq!(
            default_name("2026-11-22", Some("Round 3"), "a/b c", "../x"),
            "2026-11-22-Round-3-a-b-c-vs-x"
        );
        assert_eq!(
            default_name("2026-11-22", None, "", "ttyUSB0"),
            "2026-11-22-player-vs-ttyUSB0"
        );
        let long = "x".repeat(100);
        assert!(default_name("d", None, &long, "y").len() < 50);
    }

    #[test]
    fn named_folders_never_reuse_an_existing_one() {
        let dir = tempfile::tempdir().unwrap();
        let place = FolderPlace::Named {
            parent: dir.path().join("games"),
            name: "g".into(),
        };
        let first = GameFolder::create(&place).unwrap();
        let second = GameFolder::create(&place).unwrap();
        assert_eq!(first.path(), dir.path().join("games/g"));
        assert_eq!(second.path(), dir.path().join("games/g-2"));
    }

    #[test]
    fn an_explicit_folder_must_be_new_or_empty_and_is_claimed_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r1");
        let folder = GameFolder::create(&FolderPlace::Exactly(path.clone())).unwrap();
        fs::write(folder.file(JOURNAL), "{}\n").unwrap();
        let again = GameFolder::open(&path).unwrap_err();
        assert!(again.to_string().contains("another goref (PID"), "{again}");
        drop(folder);
        let error = GameFolder::create(&FolderPlace::Exactly(path.clone())).unwrap_err();
        assert!(error.to_string().contains("goref resume"), "{error}");
        let _resumed = GameFolder::open(&path).unwrap();

        let busy = dir.path().join("busy");
        fs::create_dir(&busy).unwrap();
        fs::write(busy.join("notes.txt"), "x").unwrap();
        let error = GameFolder::create(&FolderPlace::Exactly(busy)).unwrap_err();
        assert!(error.to_string().contains("not empty"), "{error}");

        let file = dir.path().join("plain");
        fs::write(&file, "x").unwrap();
        let error = GameFolder::create(&FolderPlace::Exactly(file.clone())).unwrap_err();
        assert!(error.to_string().contains("not a folder"), "{error}");
        let error = GameFolder::open(&dir.path().join("none")).unwrap_err();
        assert!(error.to_string().contains("none"), "{error}");
        let empty = dir.path().join("empty");
        fs::create_dir(&empty).unwrap();
        let error = GameFolder::open(&empty).unwrap_err();
        assert!(error.to_string().contains("holds no game"), "{error}");
    }

    #[test]
    fn a_discarded_folder_leaves_nothing_of_goref_and_a_given_empty_one_stays() {
        let dir = tempfile::tempdir().unwrap();
        let made = dir.path().join("made");
        let folder = GameFolder::create(&FolderPlace::Exactly(made.clone())).unwrap();
        fs::write(folder.file(JOURNAL), "").unwrap();
        fs::write(folder.file(CONFIG), "size = 9").unwrap();
        folder.discard();
        assert!(!made.exists());
        let given = dir.path().join("given");
        fs::create_dir(&given).unwrap();
        let folder = GameFolder::create(&FolderPlace::Exactly(given.clone())).unwrap();
        fs::write(folder.file(JOURNAL), "").unwrap();
        folder.discard();
        assert_eq!(fs::read_dir(&given).unwrap().count(), 0);
        let _again = GameFolder::create(&FolderPlace::Exactly(given)).unwrap();
    }
}
