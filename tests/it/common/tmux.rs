//! The real binary in a real terminal: a tmux session of a given size, on a
//! tmux server of its own, with keys sent and the screen captured.

use std::process::Command;
use std::time::{Duration, Instant};

/// A tmux session running one command, on a tmux server of its own (so
/// tests in parallel, and a session killed while another starts, never share
/// one), killed when dropped.
pub(crate) struct Tmux {
    pub name: String,
}

impl Tmux {
    /// Starts `command` in a new session of `width` x `height`, in a shell
    /// that prints the exit status and the terminal's modes once it ends.
    pub(crate) fn start(name: &str, width: u16, height: u16, command: &str) -> Option<Tmux> {
        if Command::new("tmux").arg("-V").output().is_err() {
            eprintln!("tmux is not installed: skipping (tests/run.sh installs it)");
            return None;
        }
        let name = format!("{name}-{}", std::process::id());
        let script = format!(
            "LANG=C.UTF-8 {command}; echo EXIT=$?; stty -a | tr ' ' '\\n' | grep -x -- '-*icanon'; sleep 600"
        );
        let status = tmux_on(&name)
            .args(["new-session", "-d", "-s", &name, "-x"])
            .arg(width.to_string())
            .arg("-y")
            .arg(height.to_string())
            .arg(script)
            .status()
            .expect("tmux runs");
        assert!(status.success(), "tmux new-session");
        Some(Tmux { name })
    }

    pub(crate) fn command(&self) -> Command {
        tmux_on(&self.name)
    }

    pub(crate) fn screen(&self) -> String {
        let out = self
            .command()
            .args(["capture-pane", "-p", "-t", &self.name])
            .output()
            .expect("tmux capture-pane");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    pub(crate) fn keys(&self, keys: &[&str]) {
        for key in keys {
            let status = self
                .command()
                .args(["send-keys", "-t", &self.name, key])
                .status()
                .expect("tmux send-keys");
            assert!(status.success());
            std::thread::sleep(Duration::from_millis(150));
        }
    }

    pub(crate) fn resize(&self, width: u16, height: u16) {
        let status = self
            .command()
            .args(["resize-window", "-t", &self.name, "-x"])
            .arg(width.to_string())
            .arg("-y")
            .arg(height.to_string())
            .status()
            .expect("tmux resize-window");
        assert!(status.success());
    }

    /// Waits for the move box of `color`, which a typed player's turn opens
    /// on the hint bar; a box of the other colour (the last move has not
    /// reached the screen yet) is waited out, and a box the operator closed
    /// is opened again with `m`.
    pub(crate) fn open_move_box(&self, color: &str) {
        let title = format!("{color}'s move:");
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if screen.contains(&title) {
                return;
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "no box for {title}:\n{screen}"
            );
            let closed = |s: &str| {
                s.lines()
                    .rfind(|l| !l.trim().is_empty())
                    .is_some_and(|l| l.contains("m type a move"))
            };
            if closed(&screen) {
                std::thread::sleep(Duration::from_millis(500));
                if closed(&self.screen()) {
                    self.keys(&["m"]);
                }
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Waits until the screen satisfies `test` in two captures in a row, and
    /// returns the second: one capture can catch a frame half drawn (a
    /// resize redraws the whole screen), which passes a test on its top
    /// lines while its bottom lines are still blank.
    pub(crate) fn wait_for(
        &self,
        what: &str,
        limit: Duration,
        test: impl Fn(&str) -> bool,
    ) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if test(&screen) {
                std::thread::sleep(Duration::from_millis(60));
                let again = self.screen();
                if test(&again) {
                    return again;
                }
            }
            assert!(
                start.elapsed() < limit,
                "waited {limit:?} for {what}; the screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

impl Drop for Tmux {
    /// Ends what runs in the session with SIGTERM before the session: a
    /// goref whose terminal merely went away goes on detached, as designed,
    /// and would outlive the test.
    fn drop(&mut self) {
        let panes = self
            .command()
            .args(["list-panes", "-s", "-t", &self.name, "-F", "#{pane_pid}"])
            .output();
        if let Ok(panes) = panes {
            for pid in String::from_utf8_lossy(&panes.stdout).split_whitespace() {
                let _ = Command::new("kill")
                    .args(["-TERM", "--", &format!("-{pid}")])
                    .status();
            }
        }
        let _ = self.command().arg("kill-server").status();
        let _ = std::fs::remove_file(tmux_socket(&self.name));
    }
}

/// tmux, on the server of the session `name`, with no configuration read.
/// A screen's last line with something on it: the hint bar.
pub(crate) fn last_line(screen: &str) -> &str {
    screen
        .lines()
        .rfind(|l| !l.trim().is_empty())
        .unwrap_or_default()
}

pub(crate) fn tmux_on(name: &str) -> Command {
    let mut tmux = Command::new("tmux");
    tmux.arg("-S")
        .arg(tmux_socket(name))
        .args(["-f", "/dev/null"]);
    tmux
}

pub(crate) fn tmux_socket(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("tmux-{name}"))
}
