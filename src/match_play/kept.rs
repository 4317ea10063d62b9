//! A match's programs kept across games (`restart = "crash"`, the
//! default): each kept engine's program started once for each board, all
//! at once, on a runtime of their own (`seats::local`); checked before the
//! first game through the program kept for board 1; then served to the
//! games' gorefs through a relay's socket in `DIR/programs/`, each game's
//! side `seat:board-N-ENGINE`. Between games the runner asks a board's
//! programs to be ready: one whose game it crashed or hung is started
//! again first, one not ready is started again once, and every start
//! again is a line of `DIR/programs/restarts.jsonl`, for the figures.
//! The programs die with the runner (a parent-death signal); the games in
//! play then wait, their time charged to nobody, for the runner's next
//! run. A worker's slot keeps one board's the same way (`worker::kept`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::match_play::file::{Engine, MatchFile};
use crate::players::PlayerSpec;
use crate::seats::link::SeatDesk;
use crate::seats::local::KeptProgram;
use crate::seats::relay::RelayServer;
use crate::shell_time::Threads;

/// The folder of the kept programs' socket, logs and restarts.
pub(crate) const PROGRAMS_FOLDER: &str = "programs";
/// The relay's socket, in the programs' folder.
const SOCKET: &str = "relay.sock";
/// How long the programs are given to end with the runner.
const STOP_WITHIN: Duration = Duration::from_secs(2);
/// Every start again of a kept program, a JSON line each.
pub(crate) const RESTARTS_FILE: &str = "restarts.jsonl";

/// One start again of a kept program.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Restart {
    pub engine: String,
    pub board: u32,
    pub why: String,
}

/// Why a board's program could not be made ready, twice: the match stops.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NotReady {
    pub engine: String,
    pub why: String,
}

/// The kept programs of a match.
pub(crate) struct KeptPrograms {
    folder: PathBuf,
    programs: BTreeMap<(u32, String), KeptProgram>,
    ready_timeout: BTreeMap<String, Duration>,
    /// The links, until they are served (the check uses them first).
    desk: SeatDesk,
    relay: Option<RelayServer>,
    /// Programs whose last game ended with their crash or hang.
    due_restart: BTreeSet<(u32, String)>,
    /// The engines started again since [`KeptPrograms::take_restarts`].
    restarted: Vec<String>,
    runtime: tokio::runtime::Runtime,
}

/// The engines of `file` whose programs are kept.
pub(crate) fn kept_engines(file: &MatchFile) -> Vec<&Engine> {
    kept_of(&file.engines, file.game.time.as_deref())
}

/// Which of `engines` are kept under the game's `time`: `restart =
/// "crash"`, a program goref starts, and a clock that is not CPU time
/// (which only a program of the game's own goref can be measured by).
pub(crate) fn kept_of<'a>(engines: &'a [Engine], time: Option<&str>) -> Vec<&'a Engine> {
    let cpu_clock = time.is_some_and(|time| time.trim_start().starts_with("cpu"));
    match cpu_clock {
        true => Vec::new(),
        false => engines.iter().filter(|e| e.kept()).collect(),
    }
}

/// The seated name of `engine`'s program kept for `board`.
pub(crate) fn entrant(board: u32, engine: &str) -> String {
    let name: String = engine
        .chars()
        .map(|c| match c.is_ascii_alphanumeric() || "-_.".contains(c) {
            true => c,
            false => '_',
        })
        .collect();
    format!("board-{board}-{name}")
}

/// `engine` as a game on `board` plays its kept program: the program's
/// seat.
pub(crate) fn seated(engine: &Engine, board: u32) -> Engine {
    let mut seated = engine.clone();
    seated.player = format!("seat:{}", entrant(board, &engine.name));
    seated
}

/// The board whose kept programs a game file's `seat:board-N-…` sides
/// name, if any.
pub(crate) fn board_of_game_file(text: &str) -> Option<u32> {
    let table: toml::Table = text.parse().ok()?;
    ["black", "white"].iter().find_map(|side| {
        let spec = table.get(*side)?.as_str()?;
        let rest = spec.strip_prefix("seat:board-")?;
        rest.split('-').next()?.parse().ok()
    })
}

impl KeptPrograms {
    /// Starts every kept engine's program for each of `file`'s boards, all
    /// at once; none when no engine is kept.
    pub(crate) fn start(
        dir: &Path,
        file: &MatchFile,
        exe: &Path,
    ) -> Result<Option<KeptPrograms>, String> {
        let engines = kept_engines(file);
        Self::start_engines(&dir.join(PROGRAMS_FOLDER), &engines, file.boards, exe)
    }

    /// Starts the program of each of `engines` for boards 1 to `boards`,
    /// all at once, their logs, socket and restarts in `folder`; none when
    /// no engine is given.
    pub(crate) fn start_engines(
        folder: &Path,
        engines: &[&Engine],
        boards: u32,
        exe: &Path,
    ) -> Result<Option<KeptPrograms>, String> {
        if engines.is_empty() {
            return Ok(None);
        }
        std::fs::create_dir_all(folder)
            .map_err(|e| format!("cannot make {}: {e}", folder.display()))?;
        let runtime = crate::shell_time::runtime(Threads::Workers(1))
            .map_err(|e| format!("cannot start the programs' runtime: {e}"))?;
        let desk = SeatDesk::default();
        let mut programs = BTreeMap::new();
        let mut ready_timeout = BTreeMap::new();
        let _entered = runtime.enter();
        for engine in engines {
            let spec: PlayerSpec = engine.player.parse().map_err(|e| format!("{e}"))?;
            let argv = crate::players::gtp_command_line(&spec, exe)
                .ok_or_else(|| format!("engine {}: not a program goref starts", engine.name))?;
            ready_timeout.insert(engine.name.clone(), engine.ready_timeout());
            for board in 1..=boards {
                let name = entrant(board, &engine.name);
                let log = folder.join(format!("{name}.log"));
                let (kept, link) = KeptProgram::start(&name, argv.clone(), log);
                desk.put(link);
                programs.insert((board, engine.name.clone()), kept);
            }
        }
        drop(_entered);
        Ok(Some(KeptPrograms {
            folder: folder.to_path_buf(),
            programs,
            ready_timeout,
            desk,
            relay: None,
            due_restart: BTreeSet::new(),
            restarted: Vec::new(),
            runtime,
        }))
    }

    /// Whether `engine`'s program is kept.
    pub(crate) fn keeps(&self, engine: &str) -> bool {
        self.ready_timeout.contains_key(engine)
    }

    /// The links of the programs not yet served, for the check before the
    /// first game (which takes a link and puts it back).
    pub(crate) fn desk(&self) -> SeatDesk {
        self.desk.clone()
    }

    /// Serves the programs to the games' gorefs: the relay's socket.
    pub(crate) fn serve(&mut self) -> Result<PathBuf, String> {
        let socket = self.folder.join(SOCKET);
        if self.relay.is_none() {
            let links = self
                .programs
                .values()
                .filter_map(|kept| {
                    kept.announce();
                    self.desk.take(&kept.entrant)
                })
                .collect();
            self.relay = Some(RelayServer::start_kept(socket.clone(), links)?);
        }
        Ok(socket)
    }

    /// The game in `folder` plays `board`'s programs of these engines now:
    /// only its goref may take them.
    pub(crate) fn playing(&self, board: u32, engines: &[&str], folder: &Path) {
        let Some(relay) = &self.relay else { return };
        let mut playing = relay.playing.lock().expect("playing boards");
        for engine in engines.iter().filter(|e| self.keeps(e)) {
            playing.insert(entrant(board, engine), folder.to_path_buf());
        }
    }

    /// `board`'s game is over: its programs play nobody; `failed` names
    /// the engines whose program crashed or hung in it.
    pub(crate) fn game_over(&mut self, board: u32, failed: &[&str]) {
        if let Some(relay) = &self.relay {
            let mut playing = relay.playing.lock().expect("playing boards");
            playing.retain(|entrant_name, _| !entrant_name.starts_with(&entrant(board, "")));
        }
        for engine in failed {
            if self.keeps(engine) {
                self.due_restart.insert((board, engine.to_string()));
            }
        }
    }

    /// Makes `board`'s programs of `engines` ready for its next game, at
    /// once: started again first where their last game failed them, and
    /// once more where they are not ready; why not, naming the engine.
    pub(crate) fn ready(&mut self, board: u32, engines: &[&str]) -> Result<(), NotReady> {
        let kept: Vec<String> = engines
            .iter()
            .filter(|e| self.keeps(e))
            .map(|e| e.to_string())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let restart: Vec<bool> = kept
            .iter()
            .map(|engine| self.due_restart.remove(&(board, engine.clone())))
            .collect();
        for (engine, again) in kept.iter().zip(&restart) {
            if *again {
                self.note_restart(board, engine, "its last game ended with its crash or hang");
            }
        }
        let first = self.ask(board, &kept, &restart);
        let mut not_ready = Vec::new();
        for (engine, result) in kept.iter().zip(first) {
            if let Err(why) = result {
                self.note_restart(board, engine, &format!("not ready: {why}"));
                not_ready.push(engine.clone());
            }
        }
        if not_ready.is_empty() {
            return Ok(());
        }
        let again = vec![true; not_ready.len()];
        for (engine, result) in not_ready.iter().zip(self.ask(board, &not_ready, &again)) {
            if let Err(why) = result {
                return Err(NotReady {
                    engine: engine.clone(),
                    why: format!("not ready twice on board {board}: {why}"),
                });
            }
        }
        Ok(())
    }

    fn ask(&self, board: u32, engines: &[String], restart: &[bool]) -> Vec<Result<(), String>> {
        let asks: Vec<_> = engines
            .iter()
            .zip(restart)
            .map(|(engine, &restart)| {
                let kept = self.programs.get(&(board, engine.clone())).cloned();
                let within = self.ready_timeout[engine];
                async move {
                    match kept {
                        Some(kept) => kept.ready(restart, within).await,
                        None => Err(format!("no program is kept for board {board}")),
                    }
                }
            })
            .collect();
        self.runtime.block_on(async {
            let mut results = Vec::new();
            let handles: Vec<_> = asks.into_iter().map(tokio::spawn).collect();
            for handle in handles {
                results.push(handle.await.unwrap_or_else(|e| Err(e.to_string())));
            }
            results
        })
    }

    fn note_restart(&mut self, board: u32, engine: &str, why: &str) {
        let restart = Restart {
            engine: engine.to_string(),
            board,
            why: why.to_string(),
        };
        append_restarts(&self.folder, &[restart]);
        self.restarted.push(engine.to_string());
    }

    /// The engines whose program was started again since the last ask, a
    /// name a start (a worker reports them with its job's games).
    pub(crate) fn take_restarts(&mut self) -> Vec<String> {
        std::mem::take(&mut self.restarted)
    }
}

/// Appends `restarts` to the restarts' file in `folder`.
fn append_restarts(folder: &Path, restarts: &[Restart]) {
    let path = folder.join(RESTARTS_FILE);
    let lines: String = restarts
        .iter()
        .map(|r| serde_json::to_string(r).expect("a restart serializes") + "\n")
        .collect();
    let written = std::fs::create_dir_all(folder).and_then(|()| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .and_then(|mut file| std::io::Write::write_all(&mut file, lines.as_bytes()))
    });
    if let Err(e) = written {
        tracing::warn!("cannot note a restart in {}: {e}", path.display());
    }
}

/// Notes in match `dir`'s figures the starts again that `worker` made of
/// its kept programs for a pair counted (`engines`, a name a start); board
/// 0 stands for a worker's slot.
pub(crate) fn note_workers_restarts(dir: &Path, worker: &str, engines: &[String]) {
    let restarts: Vec<Restart> = engines
        .iter()
        .map(|engine| Restart {
            engine: engine.clone(),
            board: 0,
            why: format!("on worker {worker}"),
        })
        .collect();
    if !restarts.is_empty() {
        append_restarts(&dir.join(PROGRAMS_FOLDER), &restarts);
    }
}

impl Drop for KeptPrograms {
    /// The programs are let go as a game's goref lets its programs go:
    /// stdin closed, half a second to end, then killed.
    fn drop(&mut self) {
        let programs: Vec<KeptProgram> = self.programs.values().cloned().collect();
        self.runtime.block_on(async {
            let stops: Vec<_> = programs
                .into_iter()
                .map(|kept| tokio::spawn(async move { kept.stop().await }))
                .collect();
            let all = async {
                for stop in stops {
                    let _ = stop.await;
                }
            };
            let _ = tokio::time::timeout(STOP_WITHIN, all).await;
        });
    }
}

/// Each engine's restarts of kept programs, from `DIR/programs/`.
pub(crate) fn restarts(dir: &Path) -> BTreeMap<String, u32> {
    let path = dir.join(PROGRAMS_FOLDER).join(RESTARTS_FILE);
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut counts = BTreeMap::new();
    for restart in text
        .lines()
        .filter_map(|line| serde_json::from_str::<Restart>(line).ok())
    {
        *counts.entry(restart.engine).or_insert(0) += 1;
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_board_is_read_back_from_its_game_files_seats() {
        assert_eq!(entrant(2, "new"), "board-2-new");
        assert_eq!(entrant(10, "lz 40b"), "board-10-lz_40b");
        let kept = "black = \"seat:board-3-new\"\nwhite = \"gtp:gnugo --mode gtp\"\n";
        assert_eq!(board_of_game_file(kept), Some(3));
        let per_game = "black = \"gtp:a\"\nwhite = \"bot:2\"\n";
        assert_eq!(board_of_game_file(per_game), None);
    }

    #[test]
    fn programs_are_kept_unless_started_per_game_or_on_a_cpu_clock() {
        use crate::match_play::file::Restart;
        let kept = |name: &str, player: &str| {
            let mut engine = Engine::new(name, player);
            engine.restart = Restart::Crash;
            engine
        };
        let engines = [
            kept("new", "gtp:katago gtp"),
            Engine::new("old", "gtp:gnugo --mode gtp"),
            kept("bot", "bot:3"),
            kept("typed", "human"),
        ];
        let names =
            |kept: Vec<&Engine>| -> Vec<String> { kept.iter().map(|e| e.name.clone()).collect() };
        assert_eq!(names(kept_of(&engines, None)), ["new", "bot"]);
        assert_eq!(
            names(kept_of(&engines, Some("fischer:60s,1s"))),
            ["new", "bot"]
        );
        assert!(kept_of(&engines, Some("cpu:10m")).is_empty());
    }

    #[test]
    fn restarts_are_counted_per_engine_from_their_file() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join(PROGRAMS_FOLDER);
        std::fs::create_dir_all(&folder).unwrap();
        let line = |engine: &str, board| {
            serde_json::to_string(&Restart {
                engine: engine.into(),
                board,
                why: "crashed".into(),
            })
            .unwrap()
        };
        let text = format!(
            "{}\n{}\n{{torn\n{}\n",
            line("new", 1),
            line("new", 2),
            line("old", 1)
        );
        std::fs::write(folder.join(RESTARTS_FILE), text).unwrap();
        let counts = restarts(dir.path());
        assert_eq!(counts["new"], 2);
        assert_eq!(counts["old"], 1);
    }
}
