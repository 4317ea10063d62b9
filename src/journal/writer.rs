//! The journal on disk: whole lines appended, synced at the points that
//! matter.
//!
//! The game loop appends each event's line to a buffer, writes the buffer
//! once per turn of the loop ([`Journal::flush`]), and makes it durable
//! with `fdatasync` (`Journal::commit`) before a move is relayed and
//! before a result is announced. A kill loses nothing that was written; a
//! power cut loses nothing that was committed. A game may ask for the sync
//! before its result only ([`JournalSync::AtResult`]): its moves are then
//! written, not synced, before they are relayed.
//!
//! A write that fails (a full disk) never leaves half a line behind: the
//! file is cut back to its last whole line, the lines are kept, and every
//! later flush tries again. The failure and the recovery are reported once
//! each (`Journal::poll_status`).

use std::fs::{File, OpenOptions};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The most the journal keeps in memory while the disk refuses it; lines
/// beyond are lost, and the journal says it is incomplete.
const MAX_PENDING: usize = 64 << 20;

/// How often a refused journal is tried again, however often it is flushed:
/// each try writes everything kept so far.
const RETRY_EVERY: Duration = Duration::from_secs(1);

/// When the journal waits for the disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum JournalSync {
    /// Before each move is relayed and before the result: a power cut
    /// loses no move anyone heard of.
    #[default]
    EveryMove,
    /// Before the result only; each move is still written before it is
    /// relayed, so a kill loses nothing, but a power cut may take the last
    /// moves of a game in play (a match's game, resumed from what is left).
    AtResult,
}

impl std::str::FromStr for JournalSync {
    type Err = String;

    fn from_str(text: &str) -> Result<JournalSync, String> {
        match text {
            "move" => Ok(JournalSync::EveryMove),
            "result" => Ok(JournalSync::AtResult),
            other => Err(format!(
                "journal_sync {other}: move (the journal synced before each move is relayed) \
                 or result (only before the result)"
            )),
        }
    }
}

impl std::fmt::Display for JournalSync {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            JournalSync::EveryMove => "move",
            JournalSync::AtResult => "result",
        })
    }
}

/// A change in whether the journal reaches the disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JournalStatus {
    Failing(String),
    Recovered,
}

#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    file: File,
    /// Bytes on file, all of them whole lines.
    written: u64,
    pending: Vec<u8>,
    /// Written since the last sync.
    unsynced: bool,
    failing: Option<String>,
    /// When a refused write was last tried.
    tried: Option<Instant>,
    /// Lines dropped because the disk refused them for too long.
    lost: u64,
    status: Vec<JournalStatus>,
}

impl Journal {
    /// Opens `path` to append to, creating it if needed. A last line cut
    /// short (a power cut) is cut off, so the journal goes on from its last
    /// whole line.
    pub fn open(path: &Path) -> std::io::Result<Journal> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)?;
        let whole = whole_lines_length(path)?;
        if file.metadata()?.len() != whole {
            file.set_len(whole)?;
            file.sync_data()?;
        }
        Ok(Journal {
            path: path.to_path_buf(),
            file,
            written: whole,
            pending: Vec::new(),
            unsynced: false,
            failing: None,
            tried: None,
            lost: 0,
            status: Vec::new(),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Adds one line (without its newline) to what the next flush writes.
    pub fn append(&mut self, line: &str) {
        if self.pending.len() + line.len() >= MAX_PENDING {
            self.lost += 1;
            return;
        }
        self.pending.extend_from_slice(line.as_bytes());
        self.pending.push(b'\n');
    }

    /// Writes what was appended, without waiting for the disk. While the
    /// disk refuses it, at most once every `RETRY_EVERY`.
    pub fn flush(&mut self) {
        let resting =
            self.failing.is_some() && self.tried.is_some_and(|at| at.elapsed() < RETRY_EVERY);
        if !resting {
            self.write_now();
        }
    }

    fn write_now(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        let written = self.write_pending();
        self.tried = written.is_err().then(Instant::now);
        self.note(written);
    }

    /// Writes what was appended and waits until it is on the disk.
    pub(crate) fn commit(&mut self) {
        self.flush();
        if !self.unsynced || self.failing.is_some() {
            return;
        }
        let synced = self.file.sync_data();
        if synced.is_ok() {
            self.unsynced = false;
        }
        self.note(synced);
    }

    /// The next change of status, if there is one.
    pub(crate) fn poll_status(&mut self) -> Option<JournalStatus> {
        (!self.status.is_empty()).then(|| self.status.remove(0))
    }

    /// Commits the rest and says whether the journal holds every line.
    pub fn finish(&mut self) -> Result<(), String> {
        self.write_now();
        self.commit();
        if let Some(error) = &self.failing {
            return Err(error.clone());
        }
        if self.lost > 0 {
            return Err(format!(
                "{} lines were lost while the disk refused them",
                self.lost
            ));
        }
        Ok(())
    }

    fn write_pending(&mut self) -> std::io::Result<()> {
        let outcome = self.file.write_all_at(&self.pending, self.written);
        match outcome {
            Ok(()) => {
                self.written += self.pending.len() as u64;
                self.pending.clear();
                self.unsynced = true;
                Ok(())
            }
            Err(error) => {
                let _ = self.file.set_len(self.written);
                let _ = self.file.sync_data();
                Err(error)
            }
        }
    }

    fn note(&mut self, outcome: std::io::Result<()>) {
        match (outcome, &self.failing) {
            (Ok(()), Some(_)) => {
                self.failing = None;
                self.status.push(JournalStatus::Recovered);
            }
            (Err(error), None) => {
                let error = error.to_string();
                tracing::error!("cannot write the journal {}: {error}", self.path.display());
                self.failing = Some(error.clone());
                self.status.push(JournalStatus::Failing(error));
            }
            _ => {}
        }
    }
}

/// The length of the file's whole lines: up to and including its last
/// newline.
fn whole_lines_length(path: &Path) -> std::io::Result<u64> {
    let bytes = std::fs::read(path)?;
    Ok(bytes
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |at| at as u64 + 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn lines_are_written_at_a_flush_and_a_cut_last_line_is_dropped_on_open() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let mut journal = Journal::open(&path).unwrap();
        journal.append("one");
        assert_eq!(fs::read_to_string(&path).unwrap(), "");
        journal.flush();
        journal.append("two");
        journal.commit();
        assert_eq!(fs::read_to_string(&path).unwrap(), "one\ntwo\n");
        drop(journal);
        fs::write(&path, "one\ntwo\nthr").unwrap();
        let mut journal = Journal::open(&path).unwrap();
        journal.append("three");
        assert_eq!(journal.finish(), Ok(()));
        assert_eq!(fs::read_to_string(&path).unwrap(), "one\ntwo\nthree\n");
    }

    #[test]
    fn a_refused_write_leaves_whole_lines_and_is_tried_again() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let mut journal = Journal::open(&path).unwrap();
        journal.append("kept");
        journal.commit();
        let read_only = OpenOptions::new().read(true).open(&path).unwrap();
        let writable = std::mem::replace(&mut journal.file, read_only);
        journal.append("waiting");
        journal.flush();
        assert!(matches!(
            journal.poll_status(),
            Some(JournalStatus::Failing(_))
        ));
        journal.append("more");
        journal.flush();
        assert_eq!(journal.poll_status(), None);
        assert_eq!(fs::read_to_string(&path).unwrap(), "kept\n");
        journal.file = writable;
        journal.commit();
        assert_eq!(journal.poll_status(), None, "tried again a second later");
        journal.tried = journal.tried.map(|at| at - RETRY_EVERY);
        journal.commit();
        assert_eq!(journal.poll_status(), Some(JournalStatus::Recovered));
        assert_eq!(journal.finish(), Ok(()));
        assert_eq!(fs::read_to_string(&path).unwrap(), "kept\nwaiting\nmore\n");
    }
}
