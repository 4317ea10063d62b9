//! `goref match DIR --workers URL --slots N`: the match plays some of its
//! pairs here as well, through a `goref worker` of its own, a child
//! process that takes this match's jobs (`--only`) from the same queue as
//! any other worker. Its
//! file, `DIR/worker.toml`, names the match's own engines with the match
//! file's command lines; its games go under `DIR/worker/`, its lines to
//! `DIR/worker.log`. It gets the broker's credentials in its environment,
//! and SIGTERM when the match ends or dies, on which it hands back the
//! jobs it holds.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::broker::work::BrokerLink;
use crate::match_play::file::MatchFile;

/// How long the worker has to hand its jobs back once told to stop.
const STOP_WITHIN: Duration = Duration::from_secs(10);

/// The match's own worker, stopped when dropped.
pub(crate) struct LocalWorker {
    child: Child,
}

impl LocalWorker {
    /// Starts the worker for `file`'s engines with `slots` slots; its name
    /// in the match.
    pub(crate) fn start(
        dir: &Path,
        file: &MatchFile,
        link: &BrokerLink,
        match_id: &str,
        slots: usize,
    ) -> Result<(LocalWorker, String), String> {
        let config = dir.join("worker.toml");
        let text: String = file
            .engines
            .iter()
            .map(|engine| {
                format!(
                    "[[engine]]\nname = {}\nplayer = {}\n",
                    toml::Value::String(engine.name.clone()),
                    toml::Value::String(engine.player.clone())
                )
            })
            .collect();
        let header = "# The engines of match.toml, for the match's own worker (--slots);\n\
                      # written by goref match on each start.\n";
        crate::files::write_atomically(&config, &format!("{header}{text}"))
            .map_err(|e| format!("cannot write {}: {e}", config.display()))?;
        let log_path = dir.join("worker.log");
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&log_path)
            .map_err(|e| format!("cannot write {}: {e}", log_path.display()))?;
        let name: String = format!("match-{match_id}").chars().take(64).collect();
        let exe = std::env::current_exe().map_err(|e| format!("cannot find goref itself: {e}"))?;
        let mut command = Command::new(exe);
        command
            .arg("worker")
            .arg(link.shown())
            .arg("--config")
            .arg(&config)
            .arg("--slots")
            .arg(slots.to_string())
            .arg("--name")
            .arg(&name)
            .arg("--dir")
            .arg(dir.join("worker"))
            .arg("--only")
            .arg(match_id)
            .arg("--headless")
            .envs(link.auth.env_pairs())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log);
        crate::transport::process::dies_with_its_starter(&mut command, libc::SIGTERM);
        let child = command
            .spawn()
            .map_err(|e| format!("cannot start the match's own worker: {e}"))?;
        Ok((LocalWorker { child }, name))
    }

    /// Why the worker is gone, if it is.
    pub(crate) fn gone(&mut self) -> Option<String> {
        match self.child.try_wait() {
            Ok(Some(status)) => Some(status.to_string()),
            Ok(None) => None,
            Err(e) => Some(e.to_string()),
        }
    }
}

impl Drop for LocalWorker {
    fn drop(&mut self) {
        if self.gone().is_some() {
            return;
        }
        // SAFETY: kill sends a signal to our own child, which we have not
        // waited for, so its pid is still ours.
        unsafe {
            libc::kill(self.child.id() as libc::pid_t, libc::SIGTERM);
        }
        let deadline = Instant::now() + STOP_WITHIN;
        while self.gone().is_none() {
            if Instant::now() >= deadline {
                let _ = self.child.kill();
                let _ = self.child.wait();
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}
