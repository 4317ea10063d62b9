//! The `--trace` file: every event as a JSON line, appended by a writer
//! thread so that the game loop never waits for the disk.
//!
//! The loop hands each line over and moves on; nothing is ever left out.
//! The first write that fails (a full disk) is reported back once, and the
//! trace is not written to again, so it never holds a torn line in the
//! middle: it stops there, and [`TraceFile::finish`] says it is incomplete.

use std::fs;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread::JoinHandle;

use crate::files::{resolve_output, FileError, FileLock, Holds};

pub(crate) struct TraceFile {
    pub path: PathBuf,
    tx: Option<mpsc::Sender<String>>,
    thread: Option<JoinHandle<Result<(), String>>>,
    failure: mpsc::Receiver<String>,
    outcome: Option<Result<(), String>>,
    _lock: FileLock,
}

impl TraceFile {
    /// Checks and claims `path`, creates the file, and starts the writer.
    pub(super) fn create(path: &Path) -> Result<TraceFile, FileError> {
        let target = resolve_output(path, Holds::JsonLines)?;
        let lock = FileLock::acquire(&target)?;
        let io = |source| FileError::Io {
            path: path.to_path_buf(),
            source,
        };
        let file = fs::File::create(&target).map_err(io)?;
        let (tx, rx) = mpsc::channel::<String>();
        let (failure_tx, failure) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("trace".into())
            .spawn(move || write_all(file, &rx, &failure_tx))
            .map_err(io)?;
        Ok(TraceFile {
            path: path.to_path_buf(),
            tx: Some(tx),
            thread: Some(thread),
            failure,
            outcome: None,
            _lock: lock,
        })
    }

    pub(super) fn append(&self, line: String) {
        if let Some(tx) = &self.tx {
            let _ = tx.send(line);
        }
    }

    /// Why the trace stopped, the first time it is asked after it did.
    pub(crate) fn poll_failure(&self) -> Option<String> {
        self.failure.try_recv().ok()
    }

    /// Waits until every line handed over is written and synced, and says
    /// whether the trace is complete.
    pub(super) fn finish(&mut self) -> Result<(), String> {
        self.tx.take();
        if let Some(thread) = self.thread.take() {
            let outcome = thread
                .join()
                .unwrap_or_else(|_| Err("the trace's writer stopped".into()));
            self.outcome = Some(outcome);
        }
        self.outcome.clone().unwrap_or(Ok(()))
    }
}

impl Drop for TraceFile {
    fn drop(&mut self) {
        let _ = self.finish();
    }
}

/// The writer thread: every line, in order, until the first failure.
fn write_all(
    file: fs::File,
    lines: &mpsc::Receiver<String>,
    failure: &mpsc::Sender<String>,
) -> Result<(), String> {
    let mut out = BufWriter::new(file);
    let batch = |out: &mut BufWriter<fs::File>, first: String| -> std::io::Result<()> {
        writeln!(out, "{first}")?;
        while let Ok(line) = lines.try_recv() {
            writeln!(out, "{line}")?;
        }
        out.flush()
    };
    while let Ok(line) = lines.recv() {
        if let Err(e) = batch(&mut out, line) {
            let _ = failure.send(e.to_string());
            return Err(e.to_string());
        }
    }
    out.get_ref().sync_data().map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_handed_over_is_written_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game.jsonl");
        let mut trace = TraceFile::create(&path).unwrap();
        for n in 0..1000 {
            trace.append(format!("{{\"seq\":{n}}}"));
        }
        assert_eq!(trace.finish(), Ok(()));
        let text = fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 1000);
        assert_eq!(lines[999], "{\"seq\":999}");
        assert_eq!(trace.poll_failure(), None);
    }
}
