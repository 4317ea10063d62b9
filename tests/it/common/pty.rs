//! A program on the far end of a pty that socat creates: GNU Go speaking
//! GMP or SGMP, or any shell command, as on a serial line.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use goref_core::game::sgf;

use super::{gnugo, sgf_moves};

/// GNU Go speaking GMP on a pty that socat creates at `link`.
pub(crate) struct LineProgram {
    socat: Child,
    pub link: PathBuf,
    record: PathBuf,
}

impl LineProgram {
    pub(crate) fn start(dir: &Path, name: &str, mode: &str, color: &str, seed: u32) -> LineProgram {
        LineProgram::gnugo_with(dir, name, mode, color, seed, "")
    }

    /// GNU Go with `extra` flags on its command line.
    pub(crate) fn gnugo_with(
        dir: &Path,
        name: &str,
        mode: &str,
        color: &str,
        seed: u32,
        extra: &str,
    ) -> LineProgram {
        let record = dir.join(format!("{name}.sgf"));
        let program = format!(
            "exec {} --mode {mode} --color {color} --boardsize 9 --level 0 --seed {seed} {extra} \
             -o {} 2>{}",
            gnugo(),
            record.display(),
            dir.join(format!("{name}.err")).display()
        );
        LineProgram::program(dir, name, &program)
    }

    /// Any shell command on the far end of a pty at `dir/name`, started
    /// once the pty is opened.
    pub(crate) fn program(dir: &Path, name: &str, program: &str) -> LineProgram {
        LineProgram::on_pty(dir, name, program, "")
    }

    /// GNU Go on a line that stays up when the referee's end is closed, as
    /// a serial cable does: the program keeps running.
    pub(crate) fn gnugo_lasting(dir: &Path, name: &str, color: &str, seed: u32) -> LineProgram {
        let program = format!(
            "exec {} --mode sgmp --color {color} --boardsize 9 --level 0 --seed {seed} -o {} 2>{}",
            gnugo(),
            dir.join(format!("{name}.sgf")).display(),
            dir.join(format!("{name}.err")).display()
        );
        LineProgram::on_pty(dir, name, &program, ",ignoreeof")
    }

    pub(crate) fn on_pty(dir: &Path, name: &str, program: &str, options: &str) -> LineProgram {
        let link = dir.join(name);
        let record = dir.join(format!("{name}.sgf"));
        let socat = Command::new("socat")
            .arg("-d")
            .arg(format!(
                "pty,rawer,wait-slave{options},link={}",
                link.display()
            ))
            .arg(format!("SYSTEM:{program}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("socat is installed by tests/run.sh");
        let started = Instant::now();
        while !link.exists() {
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "no pty from socat"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        LineProgram {
            socat,
            link,
            record,
        }
    }

    pub(crate) fn spec(&self, kind: &str) -> String {
        format!("{kind}:{}", self.link.display())
    }

    /// GNU Go's own record of the game, once it has written it.
    pub(crate) fn moves(&self) -> Vec<(String, String)> {
        let started = Instant::now();
        loop {
            if let Ok(text) = std::fs::read_to_string(&self.record) {
                if let Ok(nodes) = sgf::parse(&text) {
                    return sgf_moves(&nodes, 9);
                }
            }
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "GNU Go wrote no record at {}",
                self.record.display()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for LineProgram {
    fn drop(&mut self) {
        let _ = self.socat.kill();
        let _ = self.socat.wait();
        // A killed socat leaves its link to a pty that is gone: a program
        // started again on the same link must not find the old one there.
        let _ = std::fs::remove_file(&self.link);
    }
}
