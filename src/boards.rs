//! One board of a round: its own goref process (`goref play`, or `goref
//! resume` for a game that was under way), so that a crash, a hang, a panic
//! or a `kill -9` of one board touches no other, and what it tells.
//!
//! Each board runs in a process group of its own: Ctrl-C or a hangup at the
//! director's terminal reaches the event, never a board's game. Two threads
//! per board read what it says and pass on what the event shows: for
//! `--json`, its stream on stdout, every line tagged with the round and the
//! board; otherwise its progress lines on stderr but the moves (it runs
//! without `--json` then, so that a move costs the board one line written,
//! not one per event). At the end they say how the process ended.
//!
//! A finished board's result is read from its folder's journal, the
//! game's own truth, never from the stream.

use std::io::{BufRead, BufReader, Read};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc::Sender;

use crate::journal::folder::{JOURNAL, SOCKET};
use crate::mirror::wire::{RefereeMessage, SpectatorMessage, VERSION};
use goref_core::referee::GameEvent;

/// What the event asks of a board's goref.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BoardRun {
    pub round: u32,
    pub board: u32,
    /// The game's folder.
    pub dir: PathBuf,
    /// The board's game file, for a new game.
    pub config: PathBuf,
    /// Go on with the game in `dir` rather than start one.
    pub resume: bool,
    /// The runner's socket for seated players, when the event has any.
    pub seat_relay: Option<PathBuf>,
}

/// What a board tells the event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum BoardNews {
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

/// How many of a board's last stderr lines are kept to say why it failed.
const STDERR_KEPT: usize = 6;

/// Starts the board's goref; returns its process id.
pub(crate) fn start(
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
    if let Some(socket) = &run.seat_relay {
        command.arg("--seat-relay").arg(socket);
    }
    command
        .arg("--headless")
        .args(every_line.then_some("--json"))
        .stdin(Stdio::null())
        .stdout(match every_line {
            true => Stdio::piped(),
            false => Stdio::null(),
        })
        .stderr(Stdio::piped())
        .process_group(0);
    let mut child = command.spawn()?;
    let pid = child.id();
    let stdout = child.stdout.take();
    let stderr = child.stderr.take().expect("stderr is piped");
    let (round, board) = (run.round, run.board);
    let progress = (!every_line).then(|| news.clone());
    std::thread::Builder::new()
        .name(format!("board-{round}-{board}"))
        .spawn(move || {
            let tell = move |text: &str| {
                if let Some(news) = &progress {
                    let text = text.to_string();
                    let _ = news.send(BoardNews::Line { round, board, text });
                }
            };
            let tail = std::thread::spawn(move || last_lines(stderr, tell));
            for line in stdout
                .into_iter()
                .flat_map(|out| BufReader::new(out).lines())
            {
                let Ok(line) = line else { break };
                let text = tagged(&line, round, board);
                let _ = news.send(BoardNews::Line { round, board, text });
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

/// Reads a board's stderr to its end: its progress lines are told but the
/// moves' and the result's (the event tells the result it reads from the
/// folder) and a line's raw packets, and the last few are kept to say why
/// it failed.
fn last_lines(stderr: impl Read, tell: impl Fn(&str)) -> Vec<String> {
    let mut kept: Vec<String> = Vec::new();
    for line in BufReader::new(stderr).lines() {
        let Ok(line) = line else { break };
        if !is_move_line(&line) && !is_packet_line(&line) && !line.starts_with("result ") {
            tell(&line);
        }
        if kept.len() == STDERR_KEPT {
            kept.remove(0);
        }
        kept.push(line.chars().take(300).collect());
    }
    kept
}

/// A game's progress line for a move (`  12 W D4      1.250s`), which the
/// event does not repeat: the boards' moves are in their folders.
fn is_move_line(line: &str) -> bool {
    let mut words = line.split_whitespace();
    matches!(
        (words.next(), words.next()),
        (Some(n), Some("B" | "W")) if n.parse::<u32>().is_ok()
    )
}

/// A game's progress line for a GMP or SGMP packet (`     W --> 0x8a00
/// ...`): the trace's business, not news.
fn is_packet_line(line: &str) -> bool {
    let mut words = line.split_whitespace();
    matches!(
        (words.next(), words.next()),
        (Some("B" | "W"), Some("-->" | "<--"))
    )
}

/// What a game folder says of its game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum FolderState {
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

/// How long [`void_game`] waits for the board's goref to say its game is
/// over.
pub(crate) const VOID_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// Ends the game a goref plays in `dir` void, through the folder's attach
/// socket, as an operator at `goref attach` would: `why` is the reason its
/// journal and record give. Returns once the game's stream carries its
/// result, or why it could not be ended.
pub(crate) fn void_game(dir: &Path, why: &str) -> Result<(), String> {
    use std::io::Write;
    let socket = dir.join(SOCKET);
    let mut stream = crate::files::SocketPath::of(&socket)
        .and_then(|reach| std::os::unix::net::UnixStream::connect(reach.path()))
        .map_err(|e| format!("cannot reach its goref at {}: {e}", socket.display()))?;
    let failed = |e: std::io::Error| format!("its goref at {}: {e}", socket.display());
    stream.set_write_timeout(Some(VOID_WAIT)).map_err(failed)?;
    stream.set_read_timeout(Some(VOID_WAIT)).map_err(failed)?;
    let hello = SpectatorMessage::Hello {
        version: VERSION,
        token: None,
        stream: None,
        since_seq: None,
    };
    let command = SpectatorMessage::Command {
        line: format!("void {}", why.replace(['\n', '\r'], " ")),
    };
    stream
        .write_all((hello.line() + &command.line()).as_bytes())
        .map_err(failed)?;
    let deadline = std::time::Instant::now() + VOID_WAIT;
    let mut lines = BufReader::new(stream).lines();
    while std::time::Instant::now() < deadline {
        match lines.next() {
            None => return Ok(()),
            Some(Err(e)) => return Err(failed(e)),
            Some(Ok(line)) => match RefereeMessage::parse(&line) {
                Ok(RefereeMessage::Event { event, .. })
                    if event.get().contains("\"type\":\"result\"") =>
                {
                    return Ok(())
                }
                Ok(RefereeMessage::Bye { .. }) => return Ok(()),
                _ => {}
            },
        }
    }
    Err(format!(
        "its goref at {} did not end the game within {}s",
        socket.display(),
        VOID_WAIT.as_secs()
    ))
}

/// The process id of the goref that holds the game in `dir`, if one does.
pub(crate) fn holder(dir: &Path) -> Option<u32> {
    if !dir.join(JOURNAL).is_file() {
        return None;
    }
    match crate::files::FileLock::acquire(&dir.join(JOURNAL)) {
        Err(crate::files::FileError::Locked { holder, .. }) => holder.parse().ok(),
        _ => None,
    }
}

/// Sends `signal` to the goref of the game in `dir`: the process this
/// event started (`started`), else the one that holds the folder's lock.
pub(crate) fn signal(dir: &Path, started: Option<u32>, signal: libc::c_int) {
    if let Some(pid) = started.or_else(|| holder(dir)) {
        // SAFETY: kill(2) on the goref that holds the board's journal.
        unsafe {
            libc::kill(pid as libc::pid_t, signal);
        }
    }
}

/// Whether a goref holds the game in `dir` now.
pub(crate) fn is_live(dir: &Path) -> bool {
    dir.join(JOURNAL).is_file() && crate::files::FileLock::acquire(&dir.join(JOURNAL)).is_err()
}

/// Looks at a board's folder: whether a goref holds it, and its result.
pub(crate) fn folder_state(dir: &Path) -> FolderState {
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

/// Why the game in `dir` may be started again though its goref plays it:
/// it waits, before its first move, for a side's absent seat.
pub(crate) fn waits_for_absent_seat(dir: &Path) -> Option<String> {
    let contents = crate::journal::reader::read(&dir.join(JOURNAL)).ok()?;
    let mut view = goref_core::referee::GameView::new();
    for stamped in &contents.events {
        view.apply_stamped(stamped);
    }
    let side = view.waits_for_absent_seat()?;
    Some(format!("its game has not started: {side}'s seat is absent"))
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
    fn the_moves_and_packets_progress_lines_are_not_told_and_the_others_are() {
        assert!(is_move_line("   1 B A1        0.000s"));
        assert!(is_move_line(" 212 W pass     12.500s"));
        assert!(!is_move_line("phase play: both players are ready"));
        assert!(!is_move_line("White: goref-bot 0.1.0 (gtp) is ready"));
        assert!(!is_move_line(
            "9x9 game, kgs rules, komi 7.5, time none: Black B vs White W"
        ));
        let told = std::cell::RefCell::new(Vec::new());
        let text = "   1 B A1   0.000s\nphase play: ready\n     B <-- 01:a1:a0:80 NEWGAME\n\
                    \x20    B --> 03:be:b0:8b QUERY 11 (colour)\n   2 W B2   0.001s\n\
                    result B+R: White resigned\n";
        let kept = last_lines(text.as_bytes(), |line| {
            told.borrow_mut().push(line.to_string())
        });
        assert_eq!(
            told.into_inner(),
            ["phase play: ready"],
            "no packet is news"
        );
        assert_eq!(kept.len(), 6);
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
