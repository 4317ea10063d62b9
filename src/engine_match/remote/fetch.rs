//! A worker's finished game, from the match's object store into
//! `DIR/games/`, checked: the manifest must be the one the result names,
//! every file it lists must be there with its SHA-256, and no name may
//! leave the folder. The folder is written aside and renamed into place,
//! so that `games/` holds only whole games, which `goref standings`,
//! `goref replay` and `sha256sum -c MANIFEST.sha256` read as a local
//! game's.

use std::path::{Path, PathBuf};

use async_nats::jetstream::object_store::ObjectStore;
use tokio::io::AsyncReadExt;

use crate::engine_match::plan::GameSlot;
use crate::engine_match::queue::object_name;
use crate::journal::folder::MANIFEST;
use crate::journal::manifest::{manifest_files, sha256_hex};
use crate::matches::jobs::{is_plain_name, GameReport};

/// The largest manifest taken.
const MANIFEST_LIMIT: u64 = 64 * 1024;
/// The largest file of a game taken.
const FILE_LIMIT: u64 = 256 * 1024 * 1024;
/// Where a game is written before it is renamed into place.
const INCOMING: &str = ".incoming";

/// Copies game `report` of pair `slot.pair`'s try `try_id` into `games`;
/// the folder's name there.
pub async fn fetch_game(
    store: &ObjectStore,
    games: &Path,
    slot: &GameSlot,
    report: &GameReport,
    try_id: &str,
) -> Result<String, String> {
    let object = |file: &str| object_name(slot.pair, report.game, try_id, file);
    let manifest = read_object(store, &object(MANIFEST), MANIFEST_LIMIT).await?;
    if sha256_hex(&manifest) != report.manifest_sha256 {
        return Err(format!(
            "game {}'s manifest is not the one its result names",
            report.game
        ));
    }
    let manifest_text = String::from_utf8_lossy(&manifest).into_owned();
    let listed: Vec<(String, String)> = manifest_text
        .lines()
        .filter_map(|line| line.split_once("  "))
        .map(|(sum, name)| (sum.to_string(), name.to_string()))
        .collect();
    if listed.is_empty() || listed.len() != manifest_files(&manifest_text).len() {
        return Err(format!("game {}'s manifest lists no files", report.game));
    }
    let incoming = games
        .join(INCOMING)
        .join(format!("{}-{try_id}", slot.name()));
    let _ = std::fs::remove_dir_all(&incoming);
    std::fs::create_dir_all(&incoming)
        .map_err(|e| format!("cannot make {}: {e}", incoming.display()))?;
    for (sum, name) in &listed {
        if !is_plain_name(name) || name.starts_with('.') {
            return Err(format!("game {}'s manifest names {name:?}", report.game));
        }
        let bytes = read_object(store, &object(name), FILE_LIMIT).await?;
        if sha256_hex(&bytes) != *sum {
            return Err(format!(
                "game {}'s {name} is not the file its manifest lists",
                report.game
            ));
        }
        std::fs::write(incoming.join(name), bytes)
            .map_err(|e| format!("cannot write {}: {e}", incoming.display()))?;
    }
    std::fs::write(incoming.join(MANIFEST), &manifest)
        .map_err(|e| format!("cannot write {}: {e}", incoming.display()))?;
    let (name, into) = free_folder(games, slot);
    std::fs::rename(&incoming, &into)
        .map_err(|e| format!("cannot move the game into {}: {e}", into.display()))?;
    Ok(name)
}

/// The first folder of `slot` not taken in `games`: its name and path.
fn free_folder(games: &Path, slot: &GameSlot) -> (String, PathBuf) {
    let match_dir = games.parent().unwrap_or(games);
    (1u32..)
        .map(|attempt| match_dir.join(slot.dir(attempt)))
        .find(|dir| !dir.exists())
        .map(|dir| {
            let name = dir
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            (name, dir)
        })
        .expect("some attempt is free")
}

async fn read_object(store: &ObjectStore, name: &str, limit: u64) -> Result<Vec<u8>, String> {
    let object = store
        .get(name)
        .await
        .map_err(|e| format!("{name} is not in the object store: {e}"))?;
    let mut bytes = Vec::new();
    object
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .await
        .map_err(|e| format!("cannot read {name} from the object store: {e}"))?;
    match bytes.len() as u64 > limit {
        true => Err(format!("{name} is over {limit} bytes")),
        false => Ok(bytes),
    }
}
