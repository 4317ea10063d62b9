//! Reading a journal back, for `goref resume`: every whole event, checked.
//!
//! The journal is read up to its last newline; a last line cut short (a
//! power cut) is left out and named. Every line goes through the stream
//! [`Validator`], so a journal with a gap, a repeat or a move the rules
//! forbid is refused with its line number rather than resumed wrongly.

use std::path::Path;

use goref_core::referee::replay::{Line, Validator};
use goref_core::referee::{StampedEvent, StreamHeader};

/// What a journal holds.
#[derive(Debug, Clone, PartialEq)]
pub struct JournalContents {
    pub header: StreamHeader,
    pub events: Vec<StampedEvent>,
    /// The bytes after the last newline, left out: a line being written
    /// when goref stopped.
    pub cut_bytes: usize,
}

impl JournalContents {
    /// The `seq` of the last event read, 0 if none.
    pub fn last_seq(&self) -> u64 {
        self.events.last().map_or(0, |e| e.seq)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("cannot read the journal {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("the journal {path}, line {line}: {why}")]
    Inconsistent {
        path: String,
        line: usize,
        why: String,
    },
    #[error("the journal {0} is empty: the game never started")]
    Empty(String),
}

/// Reads every whole event of the journal at `path`.
pub fn read(path: &Path) -> Result<JournalContents, ReadError> {
    let shown = path.display().to_string();
    let bytes = crate::files::read_bytes(path, crate::files::JOURNAL_MAX).map_err(|source| {
        ReadError::Io {
            path: shown.clone(),
            source,
        }
    })?;
    let whole = bytes
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |at| at + 1);
    let text = String::from_utf8_lossy(&bytes[..whole]);
    let mut validator = Validator::new();
    let mut header = None;
    let mut events = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let inconsistent = |why: String| ReadError::Inconsistent {
            path: shown.clone(),
            line: index + 1,
            why,
        };
        match validator.line(index + 1, line) {
            Ok(Line::Header(h)) => header = Some(h),
            Ok(Line::Event(event)) => events.push(*event),
            Ok(Line::Unknown { .. }) => {}
            Err(why) => return Err(inconsistent(why.to_string())),
        }
    }
    let header = header.ok_or(ReadError::Empty(shown))?;
    Ok(JournalContents {
        header,
        events,
        cut_bytes: bytes.len() - whole,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use goref_core::referee::GameEvent;

    fn line(seq: u64) -> String {
        let event = StampedEvent {
            seq,
            t_ms: seq * 10,
            after_result: false,
            event: GameEvent::Notice {
                color: None,
                message: format!("note {seq}"),
            },
        };
        serde_json::to_string(&event).unwrap()
    }

    #[test]
    fn a_line_cut_short_is_left_out_and_counted() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let header = serde_json::to_string(&StreamHeader::current()).unwrap();
        let full = format!("{header}\n{}\n{}\n", line(1), line(2));
        let torn = &line(3)[..20];
        std::fs::write(&path, format!("{full}{torn}")).unwrap();
        let read = read(&path).unwrap();
        assert_eq!(read.events.len(), 2);
        assert_eq!(read.last_seq(), 2);
        assert_eq!(read.cut_bytes, 20);
    }

    #[test]
    fn a_gap_is_refused_with_its_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let header = serde_json::to_string(&StreamHeader::current()).unwrap();
        std::fs::write(&path, format!("{header}\n{}\n{}\n", line(1), line(3))).unwrap();
        let error = read(&path).unwrap_err().to_string();
        assert!(error.contains("line 3") && error.contains("seq"), "{error}");
        std::fs::write(&path, "").unwrap();
        assert!(read(&path).unwrap_err().to_string().contains("empty"));
    }
}
