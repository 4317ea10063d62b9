//! A game whose terminal is gone costs nothing while it waits.
//!
//! The real binary in tmux; the session is killed as a dropped SSH
//! connection would end it. The game goes on detached (a `session` event
//! says so), and goref's own CPU time, read from `/proc/PID/stat`, stays
//! as low as it is with a screen: waiting on a human who types nothing,
//! and between the moves of two engines that think. Each test ends the
//! game with SIGTERM and waits for goref to finish it. Each skips with a
//! message when tmux is missing (tests/run.sh installs it).

use crate::common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::tmux::Tmux;
use common::{goref, journal, journal_moves, wait_until};

/// How long goref's CPU time is measured for.
const MEASURED: Duration = Duration::from_secs(5);

/// A game started in tmux with `--game-dir`, and goref's PID once the
/// folder is claimed. Dropping it stops goref if a failed test left it
/// running.
struct DetachedGame {
    folder: PathBuf,
    pid: i32,
}

impl DetachedGame {
    /// Starts `goref play ARGS --game-dir DIR` at 80x24, waits for the
    /// screen to show `shown`, and kills the session.
    fn start(name: &str, args: &str, folder: &Path, shown: &str) -> Option<DetachedGame> {
        let command = format!(
            "'{}' play {args} --game-dir '{}'",
            goref().display(),
            folder.display()
        );
        let tmux = Tmux::start(name, 80, 24, &command)?;
        tmux.wait_for("the game on screen", Duration::from_secs(30), |s| {
            s.contains(shown)
        });
        let lock = folder.join("journal.jsonl.lock");
        let pid = std::fs::read_to_string(&lock)
            .unwrap_or_else(|e| panic!("{}: {e}", lock.display()))
            .trim()
            .parse()
            .expect("the lock holds goref's PID");
        let game = DetachedGame {
            folder: folder.to_path_buf(),
            pid,
        };
        let status = tmux
            .command()
            .args(["kill-session", "-t", &tmux.name])
            .status()
            .unwrap();
        assert!(status.success(), "tmux kill-session");
        let detached = || {
            journal(folder)
                .iter()
                .any(|e| e["type"] == "session" && e["what"] == "detached")
        };
        let journal_text = || {
            let text = std::fs::read_to_string(folder.join("journal.jsonl"));
            format!(
                "the detached event; the journal:\n{}",
                text.unwrap_or_default()
            )
        };
        wait_until(Duration::from_secs(10), journal_text, detached);
        // The tmux server goes with the session; nothing of it is needed.
        drop(tmux);
        Some(game)
    }

    fn running(&self) -> bool {
        process_state(self.pid).is_some_and(|state| state != 'Z')
    }

    /// goref's CPU time (user and system, in clock ticks) and the page
    /// faults of the children it has waited for: a program goref starts
    /// and reaps, however short-lived, adds hundreds.
    fn usage(&self) -> (u64, u64) {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.pid))
            .unwrap_or_else(|e| panic!("goref {} is gone: {e}", self.pid));
        let fields: Vec<u64> = stat[stat.rfind(')').unwrap() + 2..]
            .split_whitespace()
            .skip(1)
            .map(|field| field.parse().unwrap_or(0))
            .collect();
        // From the 4th field of proc(5) on: cminflt is the 11th, utime and
        // stime the 14th and 15th.
        (fields[10] + fields[11], fields[7])
    }

    /// What goref spent over [`MEASURED`], after a second to settle.
    fn measure(&self) -> Spent {
        std::thread::sleep(Duration::from_secs(1));
        let (ticks_before, faults_before) = self.usage();
        let started = Instant::now();
        std::thread::sleep(MEASURED);
        let (ticks, faults) = self.usage();
        let ticks = ticks - ticks_before;
        let seconds = ticks as f64 / ticks_per_second();
        Spent {
            share: seconds / started.elapsed().as_secs_f64(),
            ticks,
            children_faults: faults - faults_before,
        }
    }

    /// Ends the game with SIGTERM and waits for goref to finish it.
    fn terminate(&self) {
        // SAFETY: kill sends a signal; it touches no memory.
        assert_eq!(unsafe { libc::kill(self.pid, libc::SIGTERM) }, 0);
        let ended = || format!("goref {} to end after SIGTERM", self.pid);
        wait_until(Duration::from_secs(20), ended, || !self.running());
        let result = journal(&self.folder)
            .into_iter()
            .find(|e| e["type"] == "result")
            .expect("a result");
        assert_eq!(result["result"], "Void", "{result}");
        assert!(self.folder.join("MANIFEST.sha256").exists());
    }
}

impl Drop for DetachedGame {
    fn drop(&mut self) {
        if self.running() {
            // SAFETY: as in terminate.
            unsafe { libc::kill(self.pid, libc::SIGKILL) };
        }
    }
}

/// goref's CPU over a measure: its share of one core, in clock ticks, and
/// the page faults of the programs it started and reaped meanwhile.
struct Spent {
    share: f64,
    ticks: u64,
    children_faults: u64,
}

/// A process's state letter, `None` once it is gone.
fn process_state(pid: i32) -> Option<char> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat[stat.rfind(')')? + 2..].chars().next()
}

fn ticks_per_second() -> f64 {
    // SAFETY: sysconf reads a constant of the system.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    assert!(ticks > 0, "sysconf(_SC_CLK_TCK)");
    ticks as f64
}

#[test]
fn a_detached_game_that_waits_on_a_human_costs_under_one_percent_of_a_core() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("game");
    let args = "--black human --white bot --size 19 --time absolute:50m";
    let Some(game) = DetachedGame::start("goref-detached-human", args, &folder, "Black's move:")
    else {
        return;
    };
    assert!(game.running(), "the game goes on without its terminal");
    let Spent {
        share,
        ticks,
        children_faults,
    } = game.measure();
    eprintln!(
        "waiting on a human: {ticks} ticks in {MEASURED:?}, {:.2} %, {children_faults} page \
         faults of programs started",
        share * 100.0
    );
    assert!(game.running(), "the game goes on without its terminal");
    assert!(
        share < 0.01,
        "goref took {:.1} % of a core ({ticks} ticks in {MEASURED:?}) waiting on a human \
         with no terminal",
        share * 100.0
    );
    assert_eq!(
        children_faults, 0,
        "goref started programs while it waited with no terminal (tput, for its size)"
    );
    game.terminate();
}

#[test]
fn a_detached_game_between_thinking_engines_stays_idle_between_moves() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("game");
    let args = "--black 'bot:1,think=1s' --white 'bot:2,think=1s' --size 19";
    let Some(game) = DetachedGame::start("goref-detached-bots", args, &folder, "goref-bot") else {
        return;
    };
    let moves_before = journal_moves(&folder).len();
    let Spent { share, ticks, .. } = game.measure();
    let moves = journal_moves(&folder).len() - moves_before;
    eprintln!(
        "between thinking engines: {ticks} ticks in {MEASURED:?}, {:.2} %, {moves} moves",
        share * 100.0
    );
    assert!(
        moves >= 3,
        "the engines play on detached: {moves} moves while measured"
    );
    assert!(
        share < 0.05,
        "goref took {:.1} % of a core ({ticks} ticks in {MEASURED:?}, {moves} moves) between \
         the moves of engines that think, with no terminal",
        share * 100.0
    );
    game.terminate();
}
