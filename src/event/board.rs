//! One board of a round: its own goref process (`goref play`, or `goref
//! resume` for a game that was under way), so that a crash, a hang, a panic
//! or a `kill -9` of one board touches no other, and what it tells.
//!
//! Each board runs in a process group of its own: Ctrl-C or a hangup at the
//! director's terminal reaches the event, never a board's game. Two threads
//! per board read its stream and its stderr; they pass on only what the
//! event shows (every line, tagged with the round and the board, for
//! `--json`; the phases, alerts and result otherwise) and, at the end, how
//! the process ended.
//!
//! A finished board's result is read from its folder's journal, the
//! game's own truth, never from the stream.

use std::io::{BufRead, BufReader, Read};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc::Sender;

use crate::driver::progress_line;
use crate::journal::folder::JOURNAL;
use crate::referee::{GameEvent, StampedEvent};

/// What the event asks of a board's goref.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardRun {
    pub round: u32,
    pub board: u32,
    /// The game's folder.
    pub dir: PathBuf,
    /// The board's game file, for a new game.
    pub config: PathBuf,
    /// Go on with the game in `dir` rather than start one.
    pub resume: bool,
}

/// What a board tells the event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoardNews {
    /// A line of its stream: as JSON, tagged, or as a progress line.
    Line {
        round: u32,
        board: u32,
        text: String,
    },
    /// Its goref ended: how, and its last lines on stderr.
    Exited {
        round: u32,
        board: u32,
        how: String,
        stderr: Vec<String>,
    },
}

/// The stream's event types a progress line is printed for (the result
/// is told by the event itself, once read from the folder).
const TOLD: [&str; 6] = [
    "game_start",
    "phase",
    "illegal",
    "error",
    "notice",
    "prompt",
];

/// How many of a board's last stderr lines are kept to say why it failed.
const STDERR_KEPT: usize = 6;

/// Starts the board's goref; returns its process id.
pub fn start(
    exe: &Path,
    run: &BoardRun,
    every_line: bool,
    news: Sender<BoardNews>,
) -> std::io::Result<u32> {
    let mut command = Command::new(exe);
    match run.resume {
        true => command.arg("resume").arg(&run.dir),
        false => command
            .arg("play")
            .arg("--config")
            .arg(&run.config)
            .arg("--game-dir")
            .arg(&run.dir),
    };
    command
        .args(["--headless", "--json"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let mut child = command.spawn()?;
    let pid = child.id();
    let stdout = child.stdout.take().expect("stdout is piped");
    let stderr = child.stderr.take().expect("stderr is piped");
    let (round, board) = (run.round, run.board);
    std::thread::Builder::new()
        .name(format!("board-{round}-{board}"))
        .spawn(move || {
            let tail = std::thread::spawn(move || last_lines(stderr));
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let text = match every_line {
                    true => Some(tagged(&line, round, board)),
                    false => told(&line),
                };
                if let Some(text) = text {
                    let _ = news.send(BoardNews::Line { round, board, text });
                }
            }
            let stderr = tail.join().unwrap_or_default();
            let how = match child.wait() {
                Ok(status) => match (status.code(), status.signal()) {
                    (Some(code), _) => format!("exit status {code}"),
                    (None, Some(signal)) => format!("signal {signal}"),
                    _ => "an unknown end".into(),
                },
                Err(e) => format!("no exit status ({e})"),
            };
            let _ = news.send(BoardNews::Exited {
                round,
                board,
                how,
                stderr,
            });
        })?;
    Ok(pid)
}

/// A stream line with the round and the board first:
/// `{"round":1,"board":2,"seq":...}`.
fn tagged(line: &str, round: u32, board: u32) -> String {
    match line.strip_prefix('{') {
        Some(rest) => format!("{{\"round\":{round},\"board\":{board},{rest}"),
        None => line.to_string(),
    }
}

/// The progress line of a stream line the event tells, if it is one.
fn told(line: &str) -> Option<String> {
    let kind = line.split("\"type\":\"").nth(1)?.split('"').next()?;
    if !TOLD.contains(&kind) {
        return None;
    }
    let event: StampedEvent = serde_json::from_str(line).ok()?;
    progress_line(&event.event)
}

fn last_lines(stderr: impl Read) -> Vec<String> {
    let mut kept: Vec<String> = Vec::new();
    for line in BufReader::new(stderr).lines() {
        let Ok(line) = line else { break };
        if kept.len() == STDERR_KEPT {
            kept.remove(0);
        }
        kept.push(line.chars().take(300).collect());
    }
    kept
}

/// What a game folder says of its game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FolderState {
    /// No journal: the game never started.
    Empty,
    /// Another goref referees it now.
    Live,
    /// Started, no result yet.
    Unfinished,
    Finished {
        result: String,
        end: String,
        reason: String,
    },
    /// The journal cannot be read back.
    Unreadable(String),
}

/// Looks at a board's folder: whether a goref holds it, and its result.
pub fn folder_state(dir: &Path) -> FolderState {
    let journal = dir.join(JOURNAL);
    if !journal.is_file() {
        return FolderState::Empty;
    }
    if crate::files::FileLock::acquire(&journal).is_err() {
        return FolderState::Live;
    }
    match crate::journal::reader::read(&journal) {
        Err(e) => FolderState::Unreadable(e.to_string()),
        Ok(contents) => contents
            .events
            .iter()
            .rev()
            .find_map(|e| match &e.event {
                GameEvent::Result(result) => Some(FolderState::Finished {
                    result: result.result.clone(),
                    end: result.end.code().to_string(),
                    reason: result.reason.clone(),
                }),
                _ => None,
            })
            .unwrap_or(FolderState::Unfinished),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_tagged_with_its_round_and_board_first() {
        let line = r#"{"seq":3,"t_ms":5,"type":"move"}"#;
        let text = tagged(line, 2, 7);
        assert_eq!(
            text,
            r#"{"round":2,"board":7,"seq":3,"t_ms":5,"type":"move"}"#
        );
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["board"], 7);
    }

    #[test]
    fn moves_protocol_lines_and_the_result_are_not_told_and_a_phase_is() {
        let mv = r#"{"seq":9,"t_ms":1,"type":"move","n":1,"color":"B","vertex":"D4","ms":3}"#;
        assert_eq!(told(mv), None);
        let gtp =
            r#"{"seq":1,"t_ms":0,"type":"gtp","color":"B","direction":"sent","line":"1 name"}"#;
        assert_eq!(told(gtp), None);
        let phase =
            r#"{"seq":98,"t_ms":9,"type":"phase","phase":"dead_stones","reason":"two passes"}"#;
        assert_eq!(told(phase).unwrap(), "phase dead_stones: two passes");
        let result = r#"{"seq":99,"t_ms":9,"type":"result","result":"W+R","reason":"Black resigned","winner":"W","score":null,"end":"resign"}"#;
        assert_eq!(
            told(result),
            None,
            "the event tells the result from the folder"
        );
    }

    #[test]
    fn a_folder_without_a_journal_is_empty_and_one_held_is_live() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(folder_state(dir.path()), FolderState::Empty);
        std::fs::write(dir.path().join(JOURNAL), "").unwrap();
        let _held = crate::files::FileLock::acquire(&dir.path().join(JOURNAL)).unwrap();
        assert_eq!(folder_state(dir.path()), FolderState::Live);
    }
}
