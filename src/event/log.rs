//! `DIR/event.jsonl`: the event's own journal, one JSON line per decision
//! and per board's start and end, appended and synced before anything acts
//! on it, so that every standing can be traced to what happened.
//!
//! The same lines are the event's stream (`goref event --json`). The file
//! is only appended to: a last line cut short (a power cut) is left out
//! when read and cut off before the next append.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The file's name in an event's folder.
pub const EVENT_LOG: &str = "event.jsonl";

/// One board of a confirmed pairing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pair {
    pub board: u32,
    pub black: String,
    pub white: String,
}

impl Pair {
    /// Whether the board's two entrants are `a` and `b`, either way round.
    pub(crate) fn is_between(&self, a: &str, b: &str) -> bool {
        (self.black == a && self.white == b) || (self.black == b && self.white == a)
    }
}

/// A line as the journal holds it: what happened, and when it was written
/// (milliseconds since the Unix epoch), so that every standing can be
/// traced in time too.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Logged {
    #[serde(flatten)]
    pub line: EventLine,
    #[serde(default)]
    pub at_ms: u64,
}

/// One line of the event's journal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EventLine {
    /// A round's pairing, as the director confirmed it (or `--yes` did).
    Pairing {
        round: u32,
        boards: Vec<Pair>,
        /// Who sits the round out: one per odd division.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        byes: Vec<String>,
        /// `director` or `--yes`.
        confirmed_by: String,
    },
    /// A board's goref started, on a new game or resuming one.
    BoardStart {
        round: u32,
        board: u32,
        black: String,
        white: String,
        /// The game's folder, relative to the event's.
        dir: String,
        resumed: bool,
    },
    /// A board's game has its result, read from its folder.
    BoardEnd {
        round: u32,
        board: u32,
        black: String,
        white: String,
        dir: String,
        /// As SGF writes it: `B+R`, `W+3.5`, `0`, `Void`.
        result: String,
        /// The end's code in the game's stream: `resign`, `time`, ...
        end: String,
        reason: String,
    },
    /// A board whose goref ended without a result, or could not start.
    BoardTrouble {
        round: u32,
        board: u32,
        dir: String,
        what: String,
    },
    /// A result the director set, for a board or a game played elsewhere.
    Result {
        round: u32,
        black: String,
        white: String,
        result: String,
        reason: String,
        /// The result it overrides (`W+R from play`), when it replaces one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        replaces: Option<String>,
    },
    /// The director asked for a board waiting for it (its line failed, its
    /// program was missing) to be started again, in a new folder.
    BoardRetry {
        round: u32,
        board: u32,
        reason: String,
    },
    /// The director swapped the colours of a board before confirming.
    SwapColours { round: u32, board: u32 },
    /// The director had the round paired again by the rules alone, the
    /// swaps asked for it dropped.
    Repair { round: u32 },
    /// An entrant leaves the event from this round on.
    Withdraw {
        name: String,
        from_round: u32,
        reason: String,
    },
    /// A late entrant joins from this round on.
    Add {
        name: String,
        player: String,
        from_round: u32,
    },
    /// The standings after a round, as computed then.
    Standings {
        round: u32,
        standings: serde_json::Value,
    },
}

#[derive(Debug, thiserror::Error)]
pub enum LogError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}, line {line}: {why}")]
    Invalid {
        path: PathBuf,
        line: usize,
        why: String,
    },
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    NotAFile(#[from] crate::files::FileError),
}

/// Reads every whole line of the log at `path`; no file is no lines.
pub fn read(path: &Path) -> Result<Vec<Logged>, LogError> {
    let text = match crate::files::read_bytes(path, crate::files::JOURNAL_MAX) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => {
            return Err(LogError::Read {
                path: path.to_path_buf(),
                source,
            })
        }
    };
    parse(&text).map_err(|(line, why)| LogError::Invalid {
        path: path.to_path_buf(),
        line,
        why,
    })
}

/// The whole lines of `bytes`, parsed; a last line without its newline is
/// left out.
fn parse(bytes: &[u8]) -> Result<Vec<Logged>, (usize, String)> {
    let whole = bytes
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |at| at + 1);
    let text = std::str::from_utf8(&bytes[..whole]).map_err(|e| (0, e.to_string()))?;
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(n, line)| serde_json::from_str(line).map_err(|e| (n + 1, e.to_string())))
        .collect()
}

/// The log open for appending: each line written whole and synced.
#[derive(Debug)]
pub struct EventLog {
    path: PathBuf,
    file: File,
    /// Bytes read so far, all of them whole lines.
    read_to: u64,
}

impl EventLog {
    /// Opens (or creates) the log, cuts a last line cut short, and returns
    /// it with the lines it holds.
    pub fn open(path: &Path) -> Result<(EventLog, Vec<Logged>), LogError> {
        let path = &crate::files::resolve_output(path, crate::files::Holds::JsonLines)?;
        let read_error = |source| LogError::Read {
            path: path.to_path_buf(),
            source,
        };
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .map_err(read_error)?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(read_error)?;
        let lines = parse(&bytes).map_err(|(line, why)| LogError::Invalid {
            path: path.to_path_buf(),
            line,
            why,
        })?;
        let whole = bytes
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |at| at + 1) as u64;
        if whole != bytes.len() as u64 {
            file.set_len(whole)
                .and_then(|()| file.sync_data())
                .map_err(|source| LogError::Write {
                    path: path.to_path_buf(),
                    source,
                })?;
        }
        let log = EventLog {
            path: path.to_path_buf(),
            file,
            read_to: whole,
        };
        Ok((log, lines))
    }

    /// Appends `line` and syncs it; returns the JSON text written.
    pub fn append(&mut self, line: &EventLine) -> Result<String, LogError> {
        let at_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        let logged = Logged {
            line: line.clone(),
            at_ms,
        };
        let text = serde_json::to_string(&logged).expect("event lines serialize");
        let write_error = |source| LogError::Write {
            path: self.path.clone(),
            source,
        };
        let mut bytes = text.clone().into_bytes();
        bytes.push(b'\n');
        self.file.write_all(&bytes).map_err(write_error)?;
        self.file.sync_data().map_err(write_error)?;
        Ok(text)
    }

    /// The lines others appended since the last look (`goref event DIR
    /// result` while the event runs), and this log's own since then.
    pub(crate) fn read_new(&mut self) -> Result<Vec<Logged>, LogError> {
        let read_error = |source| LogError::Read {
            path: self.path.clone(),
            source,
        };
        self.file
            .seek(SeekFrom::Start(self.read_to))
            .map_err(read_error)?;
        let mut bytes = Vec::new();
        self.file.read_to_end(&mut bytes).map_err(read_error)?;
        let whole = bytes
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |at| at + 1);
        self.read_to += whole as u64;
        parse(&bytes[..whole]).map_err(|(line, why)| LogError::Invalid {
            path: self.path.clone(),
            line,
            why,
        })
    }
}

/// Appends one line to the log at `path` and syncs it, for a command that
/// runs beside the event (`goref event DIR result`).
pub(crate) fn append_to(path: &Path, line: &EventLine) -> Result<String, LogError> {
    let (mut log, _) = EventLog::open(path)?;
    log.append(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairing() -> EventLine {
        EventLine::Pairing {
            round: 1,
            boards: vec![Pair {
                board: 1,
                black: "a".into(),
                white: "b".into(),
            }],
            byes: vec!["c".into()],
            confirmed_by: "--yes".into(),
        }
    }

    #[test]
    fn a_line_reads_back_as_written_and_names_its_type() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(EVENT_LOG);
        let (mut log, lines) = EventLog::open(&path).unwrap();
        assert!(lines.is_empty());
        let text = log.append(&pairing()).unwrap();
        assert!(
            text.starts_with("{\"type\":\"pairing\",\"round\":1"),
            "{text}"
        );
        assert_eq!(read(&path).unwrap()[0].line, pairing());
    }

    #[test]
    fn a_line_cut_short_is_left_out_and_cut_before_the_next() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(EVENT_LOG);
        let whole = serde_json::to_string(&pairing()).unwrap();
        std::fs::write(&path, format!("{whole}\n{{\"type\":\"swap_co")).unwrap();
        assert_eq!(read(&path).unwrap().len(), 1);
        let (mut log, lines) = EventLog::open(&path).unwrap();
        assert_eq!(lines.len(), 1);
        log.append(&EventLine::SwapColours { round: 2, board: 1 })
            .unwrap();
        let lines = read(&path).unwrap();
        assert_eq!(lines[1].line, EventLine::SwapColours { round: 2, board: 1 });
    }

    #[test]
    fn lines_another_command_appends_are_read_as_new() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(EVENT_LOG);
        let (mut log, _) = EventLog::open(&path).unwrap();
        log.append(&pairing()).unwrap();
        assert_eq!(log.read_new().unwrap()[0].line, pairing());
        let result = EventLine::Result {
            round: 1,
            black: "a".into(),
            white: "b".into(),
            result: "W+F".into(),
            reason: "alpha's operator went home".into(),
            replaces: None,
        };
        append_to(&path, &result).unwrap();
        assert_eq!(log.read_new().unwrap()[0].line, result);
        assert!(log.read_new().unwrap().is_empty());
    }

    #[test]
    fn a_wrong_line_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(EVENT_LOG);
        std::fs::write(&path, "{\"type\":\"pairing\"}\n").unwrap();
        let error = read(&path).unwrap_err().to_string();
        assert!(error.contains("line 1"), "{error}");
    }
}
