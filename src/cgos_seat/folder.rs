//! One CGOS game's folder under `--dir`: its journal (every event, the
//! CGOS and GTP lines among them, synced before each move the seat sends
//! and before the result), its SGF record, and its manifest once the
//! server gave its verdict. `goref replay` and `goref check` read it as
//! any game's folder.
//!
//! A game the server tells again to a seat started afresh (the seat was
//! killed mid-game) is written whole to its own name, and the folder the
//! killed seat left unfinished there is set aside as `….abandoned-PID`.

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::files::write_atomically;
use crate::journal::folder::{set_aside, FolderPlace, GameFolder, JOURNAL, MANIFEST, RECORD};
use crate::journal::manifest;
use crate::journal::writer::{Journal, JournalStatus};
use goref_core::referee::{GameEvent, RecordInfo, Recorder, StampedEvent, StreamHeader};

/// A game's folder while the seat writes it.
pub(crate) struct CgosGameFolder {
    pub(crate) game: u64,
    folder: GameFolder,
    journal: Journal,
    recorder: Recorder,
    opened: Instant,
    seq: u64,
    decided: bool,
}

impl CgosGameFolder {
    /// Makes `DIR/DATE-cgos-GAME` (or the first free name after it) for
    /// game `game` of `server`. A game told `again` (its moves so far in
    /// its set-up) takes the name from a folder an earlier run of the
    /// seat left unfinished, which is set aside: where to, if one was.
    pub(crate) fn create(
        dir: &Path,
        game: u64,
        (title, again): (&str, bool),
        server: &str,
        now: Instant,
    ) -> Result<(CgosGameFolder, Option<PathBuf>), String> {
        let today = crate::shell_time::today();
        let name = format!("{today}-cgos-{game}");
        let aside = again
            .then(|| set_aside_unfinished(&dir.join(&name)))
            .flatten();
        let place = FolderPlace::Named {
            parent: dir.to_path_buf(),
            name,
        };
        let folder = GameFolder::create(&place).map_err(|e| e.to_string())?;
        let path = folder.file(JOURNAL);
        let mut journal =
            Journal::open(&path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        let header = serde_json::to_string(&StreamHeader::current()).map_err(|e| e.to_string())?;
        journal.append(&header);
        journal.flush();
        let recorder = Recorder::new(RecordInfo {
            date: today,
            event: Some(format!("CGOS at {server}")),
            place: None,
            round: None,
            game_name: Some(title.to_string()),
            main_time: None,
            overtime: None,
        });
        let folder = CgosGameFolder {
            game,
            folder,
            journal,
            recorder,
            opened: now,
            seq: 0,
            decided: false,
        };
        Ok((folder, aside))
    }

    pub(crate) fn path(&self) -> &Path {
        self.folder.path()
    }

    /// Writes one event; its JSON line, for the screen. A move or a
    /// result is on the disk before this returns, and the record with it.
    pub(crate) fn write(&mut self, now: Instant, event: GameEvent) -> Option<String> {
        self.seq += 1;
        let lasting = matches!(event, GameEvent::Move { .. } | GameEvent::Result(_));
        self.decided |= matches!(event, GameEvent::Result(_));
        self.recorder.apply(&event);
        let stamped = StampedEvent {
            seq: self.seq,
            t_ms: now.saturating_duration_since(self.opened).as_millis() as u64,
            after_result: false,
            event,
        };
        let line = serde_json::to_string(&stamped).ok()?;
        self.journal.append(&line);
        match lasting {
            true => {
                self.journal.commit();
                let _ = write_atomically(&self.folder.file(RECORD), &self.recorder.to_sgf());
            }
            false => self.journal.flush(),
        }
        Some(line)
    }

    /// A change in whether the journal reaches the disk, in words.
    pub(crate) fn journal_news(&mut self) -> Option<String> {
        let path = self.journal.path().display().to_string();
        self.journal.poll_status().map(|status| match status {
            JournalStatus::Failing(why) => {
                format!("{path} cannot be written ({why}); its lines are kept and tried again")
            }
            JournalStatus::Recovered => format!("{path} is written again"),
        })
    }

    /// Closes the folder: the journal synced, the record written, and
    /// the manifest when the game has its result. What could not be.
    pub(crate) fn finish(mut self) -> Vec<String> {
        let mut trouble = Vec::new();
        if let Err(e) = self.journal.finish() {
            trouble.push(format!("the journal is incomplete: {e}"));
        }
        let record = self.folder.file(RECORD);
        if let Err(e) = write_atomically(&record, &self.recorder.to_sgf()) {
            trouble.push(format!("cannot write {}: {e}", record.display()));
        }
        if self.decided {
            if let Err(e) = manifest::write(self.folder.path()) {
                trouble.push(format!("cannot write the manifest: {e}"));
            }
        }
        trouble
    }
}

/// Renames `path`, a game's folder left with a journal, no manifest and
/// nobody writing it, to `….abandoned-PID`: where to, if it was.
fn set_aside_unfinished(path: &Path) -> Option<PathBuf> {
    if !path.join(JOURNAL).exists() || path.join(MANIFEST).exists() {
        return None;
    }
    drop(GameFolder::open(path).ok()?);
    set_aside(path)
}

#[cfg(test)]
mod tests;
