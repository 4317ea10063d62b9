//! The record on disk: a writer thread that replaces the SGF file atomically.
//!
//! The game loop hands over each new text and moves on; the thread writes
//! the newest text it has (older ones still queued are skipped), to a
//! temporary file that is synced and renamed over the record. A reader never
//! sees half a record, and the game never waits for the disk.
//!
//! The path is checked and claimed before the game ([`crate::files`]): a
//! device or a directory is refused, a symlink is followed, and a second
//! goref on the same record is refused. A write that fails (a full disk)
//! never stops the game: the failure and the recovery are reported back once
//! each, goref keeps trying with every new text, and [`RecordFile::finish`]
//! says whether the last text reached the disk.

use std::path::Path;
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::files::{replace, resolve_output, write_atomically, FileError, FileLock, Holds};

/// When the record is made to survive a power cut.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Sync {
    /// Every text is synced before it replaces the last: the record is
    /// the only copy of the game.
    EveryWrite,
    /// Only the last text: a journal holds the game, and the record is
    /// derived from it. It is then written at most every [`DERIVED_GAP`],
    /// the newest text each time, and the last one always.
    AtTheEnd,
}

/// The least time between two writes of a record derived from a journal:
/// the file lags the game by no more, and a game of quick moves does not
/// rewrite it for each.
pub(crate) const DERIVED_GAP: Duration = Duration::from_millis(500);

/// A change in whether the record reaches the disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum RecordStatus {
    /// A write failed; the file on disk keeps its last complete text.
    Failing(String),
    /// A write succeeded again after failures.
    Recovered,
}

pub(crate) struct RecordFile {
    tx: Option<mpsc::Sender<String>>,
    thread: Option<JoinHandle<Result<(), String>>>,
    status: mpsc::Receiver<RecordStatus>,
    outcome: Option<Result<(), String>>,
    _lock: FileLock,
}

impl RecordFile {
    /// Checks and claims `path`, writes `first` to it now, so a bad path
    /// fails before the game, then starts the writer thread.
    pub(super) fn create(path: &Path, first: &str, sync: Sync) -> Result<RecordFile, FileError> {
        let target = resolve_output(path, Holds::SgfRecord)?;
        let lock = FileLock::acquire(&target)?;
        let io = |source| FileError::Io {
            path: path.to_path_buf(),
            source,
        };
        match sync {
            Sync::EveryWrite => write_atomically(&target, first),
            Sync::AtTheEnd => replace(&target, first, false),
        }
        .map_err(io)?;
        let (tx, rx) = mpsc::channel::<String>();
        let (status_tx, status) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("record".into())
            .spawn(move || write_all(&target, sync, &rx, &status_tx))
            .map_err(io)?;
        Ok(RecordFile {
            tx: Some(tx),
            thread: Some(thread),
            status,
            outcome: None,
            _lock: lock,
        })
    }

    pub(crate) fn save(&self, text: String) {
        if let Some(tx) = &self.tx {
            let _ = tx.send(text);
        }
    }

    /// The next change of status, if there is one.
    pub(crate) fn poll_status(&self) -> Option<RecordStatus> {
        self.status.try_recv().ok()
    }

    /// Waits until the last text handed over is written, and says whether
    /// it reached the disk.
    pub(super) fn finish(&mut self) -> Result<(), String> {
        self.tx.take();
        if let Some(thread) = self.thread.take() {
            let outcome = thread
                .join()
                .unwrap_or_else(|_| Err("the record's writer stopped".into()));
            self.outcome = Some(outcome);
        }
        self.outcome.clone().unwrap_or(Ok(()))
    }
}

impl Drop for RecordFile {
    fn drop(&mut self) {
        let _ = self.finish();
    }
}

/// The newest of `text` and those that come until `until` (or until the
/// game hands over no more).
fn newest_until(texts: &mpsc::Receiver<String>, mut text: String, until: Instant) -> String {
    loop {
        let left = until.saturating_duration_since(Instant::now());
        match texts.recv_timeout(left) {
            Ok(newer) => text = newer,
            Err(_) => return text,
        }
    }
}

/// The writer thread: the newest text each time, reporting changes of status.
fn write_all(
    target: &Path,
    sync: Sync,
    texts: &mpsc::Receiver<String>,
    status: &mpsc::Sender<RecordStatus>,
) -> Result<(), String> {
    let mut last: Result<(), String> = Ok(());
    let mut written_at: Option<Instant> = None;
    while let Ok(mut text) = texts.recv() {
        if let (Sync::AtTheEnd, Some(at)) = (sync, written_at) {
            text = newest_until(texts, text, at + DERIVED_GAP);
        }
        while let Ok(newer) = texts.try_recv() {
            text = newer;
        }
        written_at = Some(Instant::now());
        let written = replace(target, &text, sync == Sync::EveryWrite).map_err(|e| e.to_string());
        match (&last, &written) {
            (Ok(()), Err(e)) => {
                tracing::error!("cannot write the record {}: {e}", target.display());
                let _ = status.send(RecordStatus::Failing(e.clone()));
            }
            (Err(_), Ok(())) => {
                let _ = status.send(RecordStatus::Recovered);
            }
            _ => {}
        }
        last = written;
    }
    if sync == Sync::AtTheEnd && last.is_ok() {
        last = std::fs::File::open(target)
            .and_then(|file| file.sync_all())
            .map_err(|e| e.to_string());
    }
    last
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn the_last_text_handed_over_is_what_stays_on_disk() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game.sgf");
        let mut record = RecordFile::create(&path, "(;)", Sync::EveryWrite).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "(;)");
        for n in 0..50 {
            record.save(format!("(;C[{n}])"));
        }
        assert_eq!(record.finish(), Ok(()));
        assert_eq!(fs::read_to_string(&path).unwrap(), "(;C[49])");
        assert!(!dir.path().join("game.sgf.tmp").exists());
        assert_eq!(record.poll_status(), None);
    }

    #[test]
    fn an_unwritable_path_fails_at_once() {
        let error = RecordFile::create(
            Path::new("/nonexistent/dir/game.sgf"),
            "(;)",
            Sync::AtTheEnd,
        );
        assert!(error.is_err());
        let dir = tempfile::tempdir().unwrap();
        let error = RecordFile::create(dir.path(), "(;)", Sync::AtTheEnd)
            .err()
            .unwrap();
        assert!(error.to_string().contains("a directory"), "{error}");
    }

    #[test]
    fn failures_and_recovery_are_reported_once_each() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game.sgf");
        let mut record = RecordFile::create(&path, "(;)", Sync::EveryWrite).unwrap();
        let blocker = dir.path().join("game.sgf.tmp");
        let wait_status = |record: &RecordFile| {
            let start = Instant::now();
            while start.elapsed() < Duration::from_secs(10) {
                if let Some(status) = record.poll_status() {
                    return status;
                }
                std::thread::sleep(Duration::from_millis(2));
            }
            panic!("no status");
        };
        fs::create_dir(&blocker).unwrap();
        record.save("(;C[1])".into());
        assert!(matches!(wait_status(&record), RecordStatus::Failing(_)));
        assert_eq!(fs::read_to_string(&path).unwrap(), "(;)");
        fs::remove_dir(&blocker).unwrap();
        record.save("(;C[2])".into());
        assert_eq!(wait_status(&record), RecordStatus::Recovered);
        fs::create_dir(&blocker).unwrap();
        for n in 3..6 {
            record.save(format!("(;C[{n}])"));
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(record.finish().is_err());
        assert_eq!(fs::read_to_string(&path).unwrap(), "(;C[2])");
        assert!(matches!(
            record.poll_status(),
            Some(RecordStatus::Failing(_))
        ));
        assert_eq!(record.poll_status(), None, "one report for many failures");
    }

    #[test]
    fn a_derived_record_is_written_at_most_every_gap_and_its_last_text_always() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game.sgf");
        let mut record = RecordFile::create(&path, "(;)", Sync::AtTheEnd).unwrap();
        record.save("(;C[1])".into());
        let start = Instant::now();
        while fs::read_to_string(&path).unwrap() != "(;C[1])" {
            assert!(
                start.elapsed() < Duration::from_secs(5),
                "the first text at once"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        let seen = Instant::now();
        record.save("(;C[2])".into());
        std::thread::sleep(Duration::from_millis(20));
        let on_disk = fs::read_to_string(&path).unwrap();
        if seen.elapsed() < DERIVED_GAP / 2 {
            assert_eq!(on_disk, "(;C[1])", "within the gap");
        }
        record.save("(;C[3])".into());
        assert_eq!(record.finish(), Ok(()));
        assert_eq!(fs::read_to_string(&path).unwrap(), "(;C[3])");
    }
}
