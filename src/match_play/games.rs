//! A match's `DIR/games/`, the one place that names, lists and reads its
//! game folders: `pair-KKKK-a` (the candidate Black) and `pair-KKKK-b`,
//! with `-2`, `-3`, ... for a game played again. The match's runners, its
//! tally, its report and the games fetched from workers all go through
//! [`GamesFolder`]; nothing else spells the layout.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use goref_core::game::Color;

use super::plan::GameSlot;
use crate::journal::folder::JOURNAL;

/// The folder of a match's games, in the match's folder.
pub const GAMES_FOLDER: &str = "games";

/// How much of a journal's end is read for its result: a little first (the
/// result is among the last lines), more when it is not there.
const JOURNAL_TAILS: [u64; 2] = [8 * 1024, 256 * 1024];

/// A match's `games/`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GamesFolder {
    path: PathBuf,
}

/// One game's folder found in `games/`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameFolder {
    /// Its name: `pair-0007-a-2`.
    pub name: String,
    pub slot: GameSlot,
    /// Which try of its game it is, from 1.
    pub attempt: u32,
    pub path: PathBuf,
}

impl GamesFolder {
    /// The `games/` of the match in `match_dir`.
    pub fn of(match_dir: &Path) -> GamesFolder {
        GamesFolder {
            path: match_dir.join(GAMES_FOLDER),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The folder of `slot`'s try `attempt`.
    pub fn game(&self, slot: &GameSlot, attempt: u32) -> PathBuf {
        self.path.join(slot.folder(attempt))
    }

    /// The folder named `name`.
    pub fn named(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }

    /// The folder of `slot`'s try `attempt`, relative to the match's.
    pub fn relative(slot: &GameSlot, attempt: u32) -> PathBuf {
        Path::new(GAMES_FOLDER).join(slot.folder(attempt))
    }

    /// The link to a game's record from the match's folder.
    pub fn record_link(name: &str) -> String {
        format!("{GAMES_FOLDER}/{name}/game.sgf")
    }

    /// Whether any game has begun: `games/` holds anything.
    pub fn begun(&self) -> bool {
        std::fs::read_dir(&self.path).is_ok_and(|mut games| games.next().is_some())
    }

    /// Every game's folder, by name; anything else in `games/` is left out.
    pub fn games(&self) -> Vec<GameFolder> {
        let mut games: Vec<GameFolder> = std::fs::read_dir(&self.path)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|entry| {
                let name = entry.file_name().to_string_lossy().into_owned();
                let (slot, attempt) = GameFolder::parse_name(&name)?;
                Some(GameFolder {
                    name,
                    slot,
                    attempt,
                    path: entry.path(),
                })
            })
            .collect();
        games.sort_by(|a, b| a.name.cmp(&b.name));
        games
    }

    /// Each game begun, with its latest try.
    pub fn latest_attempts(&self) -> BTreeMap<GameSlot, u32> {
        let mut latest: BTreeMap<GameSlot, u32> = BTreeMap::new();
        for game in self.games() {
            let best = latest.entry(game.slot).or_insert(game.attempt);
            *best = (*best).max(game.attempt);
        }
        latest
    }

    /// The pairs whose both games have a folder that ended.
    pub fn pairs_ended(&self) -> BTreeSet<u64> {
        let mut legs: BTreeMap<u64, BTreeSet<Color>> = BTreeMap::new();
        for game in self.games() {
            if game.result().is_some() {
                legs.entry(game.slot.pair)
                    .or_default()
                    .insert(game.slot.candidate);
            }
        }
        legs.into_iter()
            .filter(|(_, colours)| colours.len() == 2)
            .map(|(pair, _)| pair)
            .collect()
    }

    /// The first folder of `slot` not taken: its name and path.
    pub fn first_free(&self, slot: &GameSlot) -> (String, PathBuf) {
        (1u32..)
            .map(|attempt| (slot.folder(attempt), self.game(slot, attempt)))
            .find(|(_, dir)| !dir.exists())
            .expect("some attempt is free")
    }
}

impl GameFolder {
    /// The slot and try a folder's name stands for, if it is a game's.
    pub fn parse_name(name: &str) -> Option<(GameSlot, u32)> {
        let rest = name.strip_prefix("pair-")?;
        let mut parts = rest.split('-');
        let pair: u64 = parts.next()?.parse().ok()?;
        let candidate = match parts.next()? {
            "a" => Color::Black,
            "b" => Color::White,
            _ => return None,
        };
        let attempt = match parts.next() {
            Some(n) => n.parse().ok()?,
            None => 1,
        };
        if parts.next().is_some() || pair == 0 {
            return None;
        }
        let slot = GameSlot {
            pair: pair - 1,
            candidate,
        };
        Some((slot, attempt))
    }

    /// The result its journal ends with, if it ended.
    pub fn result(&self) -> Option<FolderResult> {
        folder_result(&self.path)
    }

    /// When its journal was last written: when it ended, if it did.
    pub fn last_written(&self) -> SystemTime {
        std::fs::metadata(self.path.join(JOURNAL))
            .and_then(|m| m.modified())
            .unwrap_or(UNIX_EPOCH)
    }
}

/// A game's result as its journal ends: (result, end, reason).
pub type FolderResult = (String, String, String);

/// The result a game folder's journal ends with.
pub fn folder_result(dir: &Path) -> Option<FolderResult> {
    let mut journal = std::fs::File::open(dir.join(JOURNAL)).ok()?;
    let length = journal.metadata().ok()?.len();
    JOURNAL_TAILS.iter().find_map(|&tail| {
        journal
            .seek(SeekFrom::Start(length.saturating_sub(tail)))
            .ok()?;
        let mut text = Vec::new();
        (&mut journal).take(tail).read_to_end(&mut text).ok()?;
        result_line(&String::from_utf8_lossy(&text))
    })
}

/// The last `result` event among a journal's lines.
fn result_line(tail: &str) -> Option<FolderResult> {
    tail.lines().rev().find_map(|line| {
        if !line.contains("\"type\":\"result\"") {
            return None;
        }
        let value: serde_json::Value = serde_json::from_str(line).ok()?;
        let text = |key: &str| value[key].as_str().unwrap_or("").to_string();
        Some((text("result"), text("end"), text("reason")))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folder_names_read_back_as_their_slots() {
        let slot = GameSlot {
            pair: 6,
            candidate: Color::White,
        };
        assert_eq!(
            GameFolder::parse_name(&slot.name()),
            Some((slot.clone(), 1))
        );
        assert_eq!(GameFolder::parse_name("pair-0007-b-3"), Some((slot, 3)));
        for junk in [
            "pair-0000-a",
            "pair-7-c",
            "pair-0007-a-x",
            "notes",
            "pair-0001-a-2-1",
        ] {
            assert_eq!(GameFolder::parse_name(junk), None, "{junk}");
        }
    }

    #[test]
    fn the_folder_lists_games_by_name_with_their_latest_tries_and_the_first_free() {
        let root = tempfile::tempdir().unwrap();
        let games = GamesFolder::of(root.path());
        assert!(!games.begun());
        for name in [
            "pair-0002-a",
            "pair-0001-b-2",
            "pair-0001-b",
            "notes",
            "pair-0001-a",
        ] {
            std::fs::create_dir_all(games.named(name)).unwrap();
        }
        assert!(games.begun());
        let names: Vec<String> = games.games().into_iter().map(|g| g.name).collect();
        assert_eq!(
            names,
            ["pair-0001-a", "pair-0001-b", "pair-0001-b-2", "pair-0002-a"]
        );
        let [first, second] = GameSlot::of_pair(0);
        let latest = games.latest_attempts();
        assert_eq!((latest[&first], latest[&second]), (1, 2));
        assert_eq!(
            games.first_free(&second),
            (
                "pair-0001-b-3".into(),
                root.path().join("games/pair-0001-b-3")
            )
        );
        assert_eq!(
            GamesFolder::relative(&second, 2),
            Path::new("games/pair-0001-b-2")
        );
        assert!(games.pairs_ended().is_empty(), "no journal ended");
    }
}
