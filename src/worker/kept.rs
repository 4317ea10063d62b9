//! A slot's programs kept across the jobs of one match (`restart =
//! "crash"`, as a local match keeps its boards'): started when the slot
//! takes a job, made ready before each of its games, kept while the next
//! job is of the same match with the same engines and game, started
//! afresh for any other, and let go when the worker ends. They are a
//! one-board `match_play::kept::KeptPrograms` in
//! `WORKDIR/MATCH/programs-slot-K/`, and die with the worker, even killed
//! with -9 (a parent-death signal). A program not ready twice fails its
//! job, naming the engine, and the slot's next job starts its programs
//! afresh. Each start again is named with the game it was made for, so
//! that the match counts it.

use std::path::{Path, PathBuf};

use crate::match_play::file::Engine;
use crate::match_play::kept::{self, KeptPrograms, NotReady};

/// The board a slot's programs are kept for: a slot plays one game at a
/// time.
pub(super) const BOARD: u32 = 1;

/// What a slot's programs were started for: the match, both engines as
/// the worker's file gives them, and the job's game table.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct KeptFor {
    pub match_id: String,
    pub engines: [Engine; 2],
    pub game_table: toml::Table,
}

/// A slot's kept programs, if any.
#[derive(Default)]
pub(super) struct SlotKeep {
    held: Option<Held>,
}

struct Held {
    kept_for: KeptFor,
    programs: KeptPrograms,
    socket: PathBuf,
}

impl SlotKeep {
    /// Makes the slot's programs ready for a game of `kept_for`, started
    /// first when the slot keeps none for it (the ones kept for another
    /// match or other engines let go); the relay's socket the game's goref
    /// reaches them at, or none when no engine of the game is kept.
    pub(super) async fn ready(
        &mut self,
        kept_for: &KeptFor,
        folder: &Path,
        exe: &Path,
    ) -> Result<Option<PathBuf>, String> {
        if self.held.as_ref().is_some_and(|h| &h.kept_for != kept_for) {
            self.let_go().await;
        }
        let held = match self.held.take() {
            Some(held) => held,
            None => match start(kept_for, folder, exe).await? {
                Some(held) => held,
                None => return Ok(None),
            },
        };
        let names: Vec<String> = kept_for.engines.iter().map(|e| e.name.clone()).collect();
        let (held, made_ready) = tokio::task::spawn_blocking(move || {
            let mut held = held;
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            let made_ready = held.programs.ready(BOARD, &names);
            (held, made_ready)
        })
        .await
        .map_err(|e| format!("the programs' check stopped: {e}"))?;
        match made_ready {
            Ok(()) => {
                let socket = held.socket.clone();
                self.held = Some(held);
                Ok(Some(socket))
            }
            Err(NotReady { engine, why }) => {
                self.held = Some(held);
                self.let_go().await;
                Err(format!("engine {engine} is {why}"))
            }
        }
    }

    /// The game in `dir` plays the slot's programs of `engines` now: only
    /// its goref may take them.
    pub(super) fn playing(&self, engines: &[&str], dir: &Path) {
        if let Some(held) = &self.held {
            held.programs.playing(BOARD, engines, dir);
        }
    }

    /// The slot's game is over; `failed` names the engine whose program
    /// crashed or hung in it, started again before the next.
    pub(super) fn game_over(&mut self, failed: Option<&str>) {
        if let Some(held) = &mut self.held {
            held.programs.game_over(BOARD, failed.as_slice());
        }
    }

    /// The engines whose program was started again since the last ask,
    /// a name a start.
    pub(super) fn take_restarts(&mut self) -> Vec<String> {
        self.held
            .as_mut()
            .map_or_else(Vec::new, |held| held.programs.take_restarts())
    }

    /// Whether `engine`'s program is kept by this slot.
    pub(super) fn keeps(&self, engine: &str) -> bool {
        self.held
            .as_ref()
            .is_some_and(|held| held.programs.keeps(engine))
    }

    /// Lets the slot's programs go (stdin closed, then killed within 2 s),
    /// off the worker's runtime, which their own may not be dropped on.
    pub(super) async fn let_go(&mut self) {
        if let Some(held) = self.held.take() {
            let _ = tokio::task::spawn_blocking(move || drop(held)).await;
        }
    }
}

/// Starts `kept_for`'s kept programs for one board, served at their
/// relay's socket in `folder`; none when no engine is kept.
async fn start(kept_for: &KeptFor, folder: &Path, exe: &Path) -> Result<Option<Held>, String> {
    let (kept_for, folder, exe) = (kept_for.clone(), folder.to_path_buf(), exe.to_path_buf());
    tokio::task::spawn_blocking(move || {
        let time = kept_for.game_table.get("time").and_then(|t| t.as_str());
        let engines = kept::kept_of(&kept_for.engines, time);
        let Some(mut programs) = KeptPrograms::start_engines(&folder, &engines, BOARD, &exe)?
        else {
            return Ok(None);
        };
        let socket = programs.serve()?;
        Ok(Some(Held {
            kept_for,
            programs,
            socket,
        }))
    })
    .await
    .map_err(|e| format!("the programs' start stopped: {e}"))?
}
