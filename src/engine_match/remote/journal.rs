//! `DIR/match.jsonl`: what a match played by workers did and heard, a line
//! each: the pairs published and withdrawn, who took which, the results
//! counted and the ones not counted (a second result for a pair, a result
//! that did not check out), the refusals and failures. Read back when the
//! match is run again, so that nothing is published or counted twice.
//! The lines are the core's `matches::supervisor::Entry`, each with the
//! time it was written.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use goref_core::matches::supervisor::Entry;
use serde::{Deserialize, Serialize};

/// The journal's name in the match's folder.
pub(crate) const MATCH_JOURNAL: &str = "match.jsonl";

#[derive(Debug, Serialize, Deserialize)]
struct Line {
    /// Seconds since the Unix epoch.
    at: u64,
    #[serde(flatten)]
    entry: Entry,
}

/// The journal, open for appending.
pub(crate) struct MatchJournal {
    file: File,
}

impl MatchJournal {
    /// Opens `DIR/match.jsonl`, made if missing; what it holds already
    /// (lines it cannot read are passed over).
    pub(crate) fn open(dir: &Path) -> Result<(MatchJournal, Vec<Entry>), String> {
        let path = dir.join(MATCH_JOURNAL);
        let text = std::fs::read(&path).unwrap_or_default();
        let entries = BufReader::new(text.as_slice())
            .lines()
            .map_while(Result::ok)
            .filter_map(|line| serde_json::from_str::<Line>(&line).ok())
            .map(|line| line.entry)
            .collect();
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        if text.last().is_some_and(|&last| last != b'\n') {
            file.write_all(b"\n")
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
        Ok((MatchJournal { file }, entries))
    }

    /// Appends `entry`, synced: the match acts on it only after.
    pub(crate) fn write(&mut self, entry: Entry) -> Result<(), String> {
        let at = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let mut text = serde_json::to_string(&Line { at, entry }).expect("a line serialises");
        text.push('\n');
        self.file
            .write_all(text.as_bytes())
            .and_then(|()| self.file.sync_data())
            .map_err(|e| format!("cannot write {MATCH_JOURNAL}: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_journal_reads_back_what_it_wrote_and_passes_over_a_torn_line() {
        let dir = tempfile::tempdir().unwrap();
        let (mut journal, before) = MatchJournal::open(dir.path()).unwrap();
        assert!(before.is_empty());
        journal.write(Entry::Published { pair: 3 }).unwrap();
        let counted = Entry::Counted {
            pair: 3,
            worker: "box-1".into(),
            delivery: 2,
        };
        journal.write(counted.clone()).unwrap();
        drop(journal);
        let path = dir.path().join(MATCH_JOURNAL);
        let mut text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("\"what\":\"counted\""), "{text}");
        text.push_str("{\"at\":1,\"what\":\"publi");
        std::fs::write(&path, text).unwrap();
        let (mut journal, after) = MatchJournal::open(dir.path()).unwrap();
        assert_eq!(after, [Entry::Published { pair: 3 }, counted.clone()]);
        journal.write(Entry::Withdrawn { pair: 4 }).unwrap();
        let (_, last) = MatchJournal::open(dir.path()).unwrap();
        assert_eq!(last[2], Entry::Withdrawn { pair: 4 });
    }
}
