//! A worker's finished game, from the match's object store into
//! `DIR/games/`, checked: the manifest must be the one the result names,
//! every file it lists must be there with its SHA-256, and no name may
//! leave the folder. Both games of a pair are written aside and only then
//! renamed into place ([`Incoming::place`]), so that `games/` holds only
//! whole pairs, which `goref standings`, `goref replay` and `sha256sum -c
//! MANIFEST.sha256` read as a local match's.
//!
//! A result that does not check out is refused ([`NotFetched::Refused`]);
//! a copy this machine or the broker cannot make now (a full disk, a link
//! that stalls) is no fault of the result, and is tried again later
//! ([`NotFetched::Later`]).
//!
//! [`NotFetched::Refused`]: goref_core::matches::supervisor::NotFetched::Refused
//! [`NotFetched::Later`]: goref_core::matches::supervisor::NotFetched::Later

use std::path::{Path, PathBuf};

use async_nats::jetstream::object_store::ObjectStore;
use tokio::io::AsyncReadExt;

use crate::broker::work::object_name;
use crate::journal::folder::MANIFEST;
use crate::journal::manifest::{manifest_entries, sha256_hex};
use crate::match_play::games::GamesFolder;
use crate::match_play::plan::GameSlot;
use goref_core::matches::jobs::{is_plain_name, GameReport};
use goref_core::matches::supervisor::NotFetched;

/// The largest manifest taken.
const MANIFEST_LIMIT: u64 = 64 * 1024;
/// The largest file of a game taken.
const FILE_LIMIT: u64 = 256 * 1024 * 1024;
/// Where a game is written before it is renamed into place.
const INCOMING: &str = ".incoming";

/// A copy this machine cannot make now, for `what`: tried again.
fn later(what: String) -> impl FnOnce(std::io::Error) -> NotFetched {
    move |e| NotFetched::Later(format!("{what}: {e}"))
}

/// A game copied aside, checked, not yet in `games/`.
#[derive(Debug)]
pub(crate) struct Incoming {
    slot: GameSlot,
    dir: PathBuf,
}

impl Incoming {
    /// Where the copy is.
    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    /// Renames the games into `games/`, under the first names free: the
    /// folders' names. The pair's games are placed together or not at all.
    pub(crate) fn place(
        games: &GamesFolder,
        pair: Vec<Incoming>,
    ) -> Result<Vec<String>, NotFetched> {
        let mut names = Vec::new();
        let mut placed = Vec::new();
        for incoming in &pair {
            let (name, into) = games.first_free(&incoming.slot);
            if let Err(e) = std::fs::rename(&incoming.dir, &into) {
                for (back, from) in placed {
                    let _ = std::fs::rename(back, from);
                }
                let why = format!("cannot move a game into {}: {e}", into.display());
                Incoming::discard(pair);
                return Err(NotFetched::Later(why));
            }
            placed.push((into, incoming.dir.clone()));
            names.push(name);
        }
        Ok(names)
    }

    /// Removes copies that will not be placed.
    pub(crate) fn discard(pair: Vec<Incoming>) {
        for incoming in pair {
            let _ = std::fs::remove_dir_all(&incoming.dir);
        }
    }
}

/// Copies game `report` of pair `slot.pair`'s try `try_id` aside in
/// `games`, checked.
pub(crate) async fn fetch_game(
    store: &ObjectStore,
    games: &GamesFolder,
    slot: &GameSlot,
    report: &GameReport,
    try_id: &str,
) -> Result<Incoming, NotFetched> {
    let object = |file: &str| object_name(slot.pair, report.game, try_id, file);
    let manifest = read_object(store, &object(MANIFEST), MANIFEST_LIMIT).await?;
    if sha256_hex(&manifest) != report.manifest_sha256 {
        return Err(NotFetched::Refused(format!(
            "game {}'s manifest is not the one its result names",
            report.game
        )));
    }
    let listed = manifest_entries(&String::from_utf8_lossy(&manifest));
    if listed.is_empty() {
        return Err(NotFetched::Refused(format!(
            "game {}'s manifest lists no files",
            report.game
        )));
    }
    let incoming = Incoming {
        slot: slot.clone(),
        dir: games
            .path()
            .join(INCOMING)
            .join(format!("{}-{try_id}", slot.name())),
    };
    let _ = std::fs::remove_dir_all(&incoming.dir);
    let copied = copy(store, &incoming.dir, &listed, &manifest, report, &object).await;
    match copied {
        Ok(()) => Ok(incoming),
        Err(why) => {
            Incoming::discard(vec![incoming]);
            Err(why)
        }
    }
}

/// Copies the files `listed` by `manifest` into `into`, each checked.
async fn copy(
    store: &ObjectStore,
    into: &Path,
    listed: &[(String, String)],
    manifest: &[u8],
    report: &GameReport,
    object: &dyn Fn(&str) -> String,
) -> Result<(), NotFetched> {
    let cannot_write = || later(format!("cannot write {}", into.display()));
    std::fs::create_dir_all(into).map_err(cannot_write())?;
    for (sum, name) in listed {
        if !is_plain_name(name) || name.starts_with('.') {
            return Err(NotFetched::Refused(format!(
                "game {}'s manifest names {name:?}",
                report.game
            )));
        }
        let bytes = read_object(store, &object(name), FILE_LIMIT).await?;
        if sha256_hex(&bytes) != *sum {
            return Err(NotFetched::Refused(format!(
                "game {}'s {name} is not the file its manifest lists",
                report.game
            )));
        }
        std::fs::write(into.join(name), bytes).map_err(cannot_write())?;
    }
    std::fs::write(into.join(MANIFEST), manifest).map_err(cannot_write())
}

/// An object's bytes: one missing or too big is refused, one the broker
/// cannot hand over now is tried again.
async fn read_object(store: &ObjectStore, name: &str, limit: u64) -> Result<Vec<u8>, NotFetched> {
    use async_nats::jetstream::object_store::GetErrorKind;
    let object = store.get(name).await.map_err(|e| match e.kind() {
        GetErrorKind::NotFound | GetErrorKind::InvalidName | GetErrorKind::BucketLink => {
            NotFetched::Refused(format!("{name} is not in the object store: {e}"))
        }
        _ => NotFetched::Later(format!("cannot read {name} from the object store: {e}")),
    })?;
    let mut bytes = Vec::new();
    object
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .await
        .map_err(|e| NotFetched::Later(format!("cannot read {name} from the object store: {e}")))?;
    match bytes.len() as u64 > limit {
        true => Err(NotFetched::Refused(format!("{name} is over {limit} bytes"))),
        false => Ok(bytes),
    }
}
