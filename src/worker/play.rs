//! One job played on this worker: its two games one after the other, each
//! by a local goref in a folder of its own (played again, as the match
//! would, when it ends with nothing to count), the finished folders put in
//! the match's object store, the manifest last, and the result made of
//! them. The gorefs die with the worker: a worker killed mid-game leaves no
//! game playing that nobody will report. A game's kept programs are the
//! slot's (`kept`), made ready before each game and played as its seats.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;

use async_nats::jetstream::object_store::ObjectStore;
use tokio::sync::{watch, Mutex};

use super::kept::{KeptFor, SlotKeep, BOARD};
use crate::broker::work;
use crate::journal::folder::MANIFEST;
use crate::journal::manifest::{manifest_files, sha256_hex};
use crate::match_play::file::Engine;
use crate::match_play::kept;
use crate::match_play::plan::{self, GameSlot};
use crate::match_play::tally::{self, count, folder_result, Counted};
use goref_core::matches::jobs::{GameReport, Job};
use goref_core::matches::worker::Played;

/// How many times one game is played before the job is given back.
const MAX_ATTEMPTS: u32 = 3;

/// A job this worker plays, with what it needs from its own file.
pub(super) struct JobRun {
    pub job: Job,
    pub match_id: String,
    /// The try's own name: `WORKER-DELIVERY-UNIXMS`.
    pub try_id: String,
    /// The candidate and its opponent, from the worker's file.
    pub engines: [Engine; 2],
    pub game_table: toml::Table,
    /// The try's folder: `WORKDIR/MATCH/pair-KKKK-try-T`.
    pub dir: PathBuf,
    pub exe: PathBuf,
    /// `nats://HOST:PORT` to publish each game to, live.
    pub publish: String,
    /// The broker's credentials, handed to each game's goref in its
    /// environment, never on its command line.
    pub publish_env: Vec<(&'static str, String)>,
    /// The programs kept by the slot playing the job.
    pub keep: Arc<Mutex<SlotKeep>>,
    /// Where they keep their logs and socket: `WORKDIR/MATCH/programs-slot-K`.
    pub programs_dir: PathBuf,
}

/// A game's goref, begun.
pub(super) struct GameBegun {
    pub slot: GameSlot,
    /// Its folder, where its socket is.
    pub dir: PathBuf,
    /// Its name on the broker.
    pub live: String,
}

impl JobRun {
    /// The two games, then their folders in `store`; `say` tells of each,
    /// and `begun` hears of each goref started.
    pub(super) async fn play(
        &self,
        store: &ObjectStore,
        mut stop: watch::Receiver<bool>,
        say: &(dyn Fn(String) + Sync),
        begun: &(dyn Fn(GameBegun) + Sync),
    ) -> Played {
        let mut reports = Vec::new();
        let mut keep = self.keep.lock().await;
        for slot in GameSlot::of_pair(self.job.pair) {
            let game = slot.game();
            let dir = match self
                .play_game(&slot, &mut keep, &mut stop, say, begun)
                .await
            {
                Ok(Some(dir)) => dir,
                Ok(None) => return Played::Stopped,
                Err(why) => return Played::Failed(why),
            };
            let restarts = keep.take_restarts();
            match self.put(store, game, &dir, restarts).await {
                Ok(report) => reports.push(report),
                Err(not_put) => return not_put,
            }
        }
        Played::Done(reports)
    }

    /// Plays `slot` until it ends with a result to count; its folder, or
    /// none when the worker stops.
    async fn play_game(
        &self,
        slot: &GameSlot,
        keep: &mut SlotKeep,
        stop: &mut watch::Receiver<bool>,
        say: &(dyn Fn(String) + Sync),
        begun: &(dyn Fn(GameBegun) + Sync),
    ) -> Result<Option<PathBuf>, String> {
        let mut last = String::new();
        for attempt in 1..=MAX_ATTEMPTS {
            let dir = self.dir.join(slot.folder(attempt));
            let config = dir.with_extension("toml");
            let kept_for = KeptFor {
                match_id: self.match_id.clone(),
                engines: self.engines.clone(),
                game_table: self.game_table.clone(),
            };
            let relay = keep.ready(&kept_for, &self.programs_dir, &self.exe).await?;
            let engines = self
                .engines
                .each_ref()
                .map(|engine| match keep.keeps(&engine.name) {
                    true => kept::seated(engine, BOARD),
                    false => engine.clone(),
                });
            let text = plan::game_file(
                &self.game_table,
                &self.job.match_name,
                slot,
                [&engines[0], &engines[1]],
                &self.job.opening,
                "from the job",
                "goref worker from the match's job",
            );
            std::fs::create_dir_all(&self.dir)
                .and_then(|()| crate::files::write_atomically(&config, &text))
                .map_err(|e| format!("cannot write {}: {e}", config.display()))?;
            let names = self.engines.each_ref().map(|e| e.name.as_str());
            keep.playing(&names, &dir);
            begun(GameBegun {
                slot: slot.clone(),
                dir: dir.clone(),
                live: self.live_name(&dir),
            });
            let ran = self
                .run_goref(slot, &dir, &config, relay.as_deref(), stop)
                .await;
            let (black, white) = slot.colours(&self.engines[0], &self.engines[1]);
            keep.game_over(tally::failed_program(&dir, &black.name, &white.name));
            let Some(how) = ran? else {
                return Ok(None);
            };
            let Some((result, end, reason)) = folder_result(&dir) else {
                let said =
                    std::fs::read_to_string(dir.with_extension("stderr")).unwrap_or_default();
                let last_line = said.lines().last().unwrap_or("").chars().take(200);
                last = format!(
                    "its goref ended ({how}) with no result: {}",
                    last_line.collect::<String>()
                );
                say(format!("{}: {last}; played again", self.title(slot)));
                continue;
            };
            match count(&result, &end, &reason, slot.candidate) {
                Counted::Replay(why) => {
                    last = why;
                    say(format!("{}: {last}; played again", self.title(slot)));
                }
                Counted::Game { .. } => {
                    say(format!("{}: {result} ({end})", self.title(slot)));
                    return Ok(Some(dir));
                }
            }
        }
        Err(format!(
            "{} was played {MAX_ATTEMPTS} times with no result to count; the last: {last}",
            slot.name()
        ))
    }

    /// `nightly pair 8`, as the match numbers its pairs.
    pub(super) fn name(&self) -> String {
        format!("{} pair {}", self.match_id, self.job.pair + 1)
    }

    /// The name a game in `dir` is published under, the same on no other
    /// try: `MATCH-pair-KKKK-a[-N]-TRY`.
    pub(super) fn live_name(&self, dir: &Path) -> String {
        let folder = dir.file_name().map(|n| n.to_string_lossy().into_owned());
        crate::broker::address::subject_token(&format!(
            "{}-{}-{}",
            self.match_id,
            folder.unwrap_or_default(),
            self.try_id
        ))
    }

    /// `nightly pair 8 game 1`.
    pub(super) fn title(&self, slot: &GameSlot) -> String {
        let game = slot.game();
        format!("{} pair {} game {game}", self.match_id, slot.pair + 1)
    }

    /// Runs one game's goref to its end; how it ended, or none when the
    /// worker stops (the goref is then killed).
    async fn run_goref(
        &self,
        slot: &GameSlot,
        dir: &Path,
        config: &Path,
        relay: Option<&Path>,
        stop: &mut watch::Receiver<bool>,
    ) -> Result<Option<String>, String> {
        let stderr = std::fs::File::create(dir.with_extension("stderr"))
            .map_err(|e| format!("cannot write in {}: {e}", self.dir.display()))?;
        let mut command = tokio::process::Command::new(&self.exe);
        command
            .arg("play")
            .arg("--config")
            .arg(config)
            .arg("--game-dir")
            .arg(dir)
            .arg("--headless")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(stderr)
            .kill_on_drop(true);
        command
            .arg("--publish")
            .arg(format!("{}/{}", self.publish, self.live_name(dir)))
            .envs(self.publish_env.iter().cloned());
        if let Some(socket) = relay {
            command.arg("--seat-relay").arg(socket);
        }
        crate::transport::process::dies_with_its_starter(command.as_std_mut(), libc::SIGKILL);
        let mut child = command
            .spawn()
            .map_err(|e| format!("cannot start goref for {}: {e}", slot.name()))?;
        tokio::select! {
            ended = child.wait() => Ok(Some(match ended {
                Ok(status) => status.to_string(),
                Err(e) => e.to_string(),
            })),
            _ = async { let _ = stop.wait_for(|stop| *stop).await; } => {
                let _ = child.kill().await;
                Ok(None)
            }
        }
    }

    /// Puts a finished game's folder in the object store, the manifest
    /// last; the game's report (with the engines whose kept program was
    /// started again for it), or why not: a folder that cannot be read
    /// fails the job here, a broker that does not take it does not.
    async fn put(
        &self,
        store: &ObjectStore,
        game: u8,
        dir: &Path,
        restarts: Vec<String>,
    ) -> Result<GameReport, Played> {
        if !dir.join(MANIFEST).is_file() {
            crate::journal::manifest::write(dir).map_err(|e| {
                Played::Failed(format!("cannot write {}'s manifest: {e}", dir.display()))
            })?;
        }
        let manifest = std::fs::read(dir.join(MANIFEST)).map_err(|e| {
            Played::Failed(format!("cannot read {}'s manifest: {e}", dir.display()))
        })?;
        let mut files = manifest_files(&String::from_utf8_lossy(&manifest));
        files.push(MANIFEST.to_string());
        for file in files {
            let name = work::object_name(self.job.pair, game, &self.try_id, &file);
            let mut data = tokio::fs::File::open(dir.join(&file)).await.map_err(|e| {
                Played::Failed(format!("cannot read {file} of {}: {e}", dir.display()))
            })?;
            store.put(name.as_str(), &mut data).await.map_err(|e| {
                Played::BrokerAway(format!("cannot put {name} in the object store: {e}"))
            })?;
        }
        let (result, _, _) = folder_result(dir).unwrap_or_default();
        Ok(GameReport {
            game,
            result,
            manifest_sha256: sha256_hex(&manifest),
            restarts,
        })
    }
}
