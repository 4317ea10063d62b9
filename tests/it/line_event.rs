//! A line entrant in an event, as CGF'99 was played: GNU Go in `--mode
//! sgmp` on a socat pty against the built-in engine over GTP, in a real
//! headless `goref event` answered on its stdin. The prompt names the
//! colour the program must be set to and says its line is not there yet;
//! the board then waits for the director; the director connects the
//! program, set to that colour, and starts the board again with `goref
//! event DIR retry`; the game is played in a new folder, the referee's
//! record equal to GNU Go's own, move for move, and waits for the judge (a
//! GMP line cannot claim dead stones), whose count the director enters. No
//! raw packet reaches the event's progress lines.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use common::pty::LineProgram;
use common::{event_lines, goref, sgf_file_moves};

const LIMIT: Duration = Duration::from_secs(120);

/// Waits for a line of `lines` that `wanted` takes, keeping every line
/// read in `seen`.
fn wait_for_line(
    lines: &mpsc::Receiver<String>,
    seen: &mut Vec<String>,
    what: &str,
    wanted: impl Fn(&str) -> bool,
) -> String {
    let deadline = Instant::now() + LIMIT;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match lines.recv_timeout(left) {
            Ok(line) => {
                seen.push(line.clone());
                if wanted(&line) {
                    return line;
                }
            }
            Err(_) => panic!("no line for {what}; the event said:\n{}", seen.join("\n")),
        }
    }
}

#[test]
fn a_line_entrant_is_told_its_colour_waits_for_its_line_and_plays_once_retried() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("cup");
    std::fs::create_dir_all(&dir).unwrap();
    let link = root.path().join("gnugo-line");
    let text = format!(
        "name = \"line cup\"\nsystem = \"swiss\"\nrounds = 1\n\n[game]\nrules = \"cgf\"\n\
         size = 9\n\n[[entrant]]\nname = \"gnugo-line\"\nplayer = \"sgmp:{}\"\n\n\
         [[entrant]]\nname = \"bot\"\nplayer = \"gtp:{} bot --seed 4 --think-ms 20\"\n",
        link.display(),
        goref().display()
    );
    std::fs::write(dir.join("event.toml"), text).unwrap();
    let mut event = Command::new(goref())
        .arg("event")
        .arg(&dir)
        .arg("--headless")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (tx, lines) = mpsc::channel();
    let stderr = event.stderr.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let mut seen = Vec::new();
    let note = wait_for_line(&lines, &mut seen, "the line's note", |l| {
        l.contains("gnugo-line plays")
    });
    let colour = match note.contains("plays Black") {
        true => "Black",
        false => "White",
    };
    assert!(
        note.contains(&format!(
            "note: board 1: gnugo-line plays {colour} on {}: set it to {colour}; but {}: no \
             such device",
            link.display(),
            link.display()
        )),
        "{note}"
    );
    let mut stdin = event.stdin.take().unwrap();
    stdin.write_all(b"y\n").unwrap();
    stdin.flush().unwrap();
    wait_for_line(
        &lines,
        &mut seen,
        "the line's check at the round's start",
        |l| l.starts_with("round 1 board 1: gnugo-line plays"),
    );
    wait_for_line(
        &lines,
        &mut seen,
        "the board to wait for the director",
        |l| l.contains("waits for the director") && l.contains("board 1"),
    );

    let early = Command::new(goref())
        .arg("event")
        .arg(&dir)
        .args(["retry", "1", "2"])
        .output()
        .unwrap();
    assert_eq!(early.status.code(), Some(2), "{early:?}");
    assert!(String::from_utf8_lossy(&early.stderr).contains("round 1 has no board 2"));

    let program = LineProgram::start(root.path(), "gnugo-line", "sgmp", &colour.to_lowercase(), 7);
    let retried = Command::new(goref())
        .arg("event")
        .arg(&dir)
        .args(["retry", "1", "1", "--reason", "the cable is plugged in"])
        .output()
        .unwrap();
    assert!(retried.status.success(), "{retried:?}");
    assert!(
        String::from_utf8_lossy(&retried.stdout).contains("the running event starts it again"),
        "{retried:?}"
    );
    wait_for_line(&lines, &mut seen, "the game to wait for the judge", |l| {
        l.contains("waits for the director") && l.contains("the game waits for the judge")
    });
    let judged = Command::new(goref())
        .arg("event")
        .arg(&dir)
        .args(["result", "1", "bot", "gnugo-line", "W+12.5"])
        .args(["--reason", "the judge counted the board"])
        .output()
        .unwrap();
    assert!(judged.status.success(), "{judged:?}");
    wait_for_line(&lines, &mut seen, "the event's end", |l| {
        l.contains("line cup is over")
    });
    drop(stdin);
    let status = event.wait().unwrap();
    assert!(status.success(), "{}", seen.join("\n"));

    let journal = event_lines(&dir);
    assert!(journal
        .iter()
        .any(|l| l["type"] == "board_retry" && l["reason"] == "the cable is plugged in"));
    let ends: Vec<_> = journal
        .iter()
        .filter(|l| l["type"] == "board_end")
        .collect();
    assert_eq!(ends.len(), 2, "the game that never started, then the game");
    assert_eq!(ends[0]["end"], "no_game");
    assert_eq!(ends[1]["dir"], "round-1/board-1-2");
    assert_eq!(
        ends[1]["result"], "?",
        "a GMP line cannot claim dead stones"
    );
    let record = sgf_file_moves(&dir.join("round-1/board-1-2/game.sgf"), 9);
    let gnugo = program.moves();
    assert!(record.len() > 10, "a real game: {record:?}");
    assert_eq!(&record[..gnugo.len()], gnugo, "the records differ");
    assert!(record.len() - gnugo.len() <= 1, "{record:?}\n{gnugo:?}");
    assert!(
        !seen.iter().any(|l| l.contains("-->") || l.contains("<--")),
        "no raw packet among the event's lines:\n{}",
        seen.join("\n")
    );
}
