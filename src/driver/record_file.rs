//! The record on disk: a writer thread that replaces the SGF file atomically.
//!
//! The game loop hands over each new text and moves on; the thread writes
//! the newest text it has (older ones still queued are skipped), to a
//! temporary file that is synced and renamed over the record. A reader never
//! sees half a record, and the game never waits for the disk.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread::JoinHandle;

pub struct RecordFile {
    tx: Option<mpsc::Sender<String>>,
    thread: Option<JoinHandle<()>>,
}

impl RecordFile {
    /// Writes `first` to `path` now, so a bad path fails before the game,
    /// then starts the writer thread.
    pub fn create(path: PathBuf, first: &str) -> std::io::Result<RecordFile> {
        write_atomically(&path, first)?;
        let (tx, rx) = mpsc::channel::<String>();
        let thread = std::thread::Builder::new()
            .name("record".into())
            .spawn(move || {
                while let Ok(mut text) = rx.recv() {
                    while let Ok(newer) = rx.try_recv() {
                        text = newer;
                    }
                    if let Err(e) = write_atomically(&path, &text) {
                        tracing::error!("cannot write the record {}: {e}", path.display());
                        eprintln!("goref: cannot write the record {}: {e}", path.display());
                    }
                }
            })?;
        Ok(RecordFile {
            tx: Some(tx),
            thread: Some(thread),
        })
    }

    pub fn save(&self, text: String) {
        if let Some(tx) = &self.tx {
            let _ = tx.send(text);
        }
    }

    /// Waits until the last text handed over is on disk.
    pub fn finish(&mut self) {
        self.tx.take();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for RecordFile {
    fn drop(&mut self) {
        self.finish();
    }
}

/// Writes `text` to a temporary file beside `path`, syncs it, and renames
/// it over `path`.
pub fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    {
        let mut file = fs::File::create(&tmp)?;
        file.write_all(text.as_bytes())?;
        file.sync_data()?;
    }
    fs::rename(&tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_text_handed_over_is_what_stays_on_disk() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game.sgf");
        let mut record = RecordFile::create(path.clone(), "(;)").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "(;)");
        for n in 0..50 {
            record.save(format!("(;C[{n}])"));
        }
        record.finish();
        assert_eq!(fs::read_to_string(&path).unwrap(), "(;C[49])");
        assert!(!dir.path().join("game.sgf.tmp").exists());
    }

    #[test]
    fn an_unwritable_path_fails_at_once() {
        let error = RecordFile::create(PathBuf::from("/nonexistent/dir/game.sgf"), "(;)");
        assert!(error.is_err());
    }
}
