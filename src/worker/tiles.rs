//! The worker's slots as a screen draws them: a tile a slot, numbered from
//! 1, showing the game its goref plays, followed through the game folder's
//! socket as the hall follows a board; the title counts the pairs done.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;

use crate::hall::follower::Follower;
use crate::match_play::picture::MatchPicture;
use crate::mirror::follow::Target;
use goref_core::tournament::hall::{BoardPicture, EventPicture, Stage};

use super::play::{GameBegun, JobRun};

/// The slots' tiles, shared by the jobs in play.
#[derive(Default)]
pub(super) struct Tiles {
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    /// The tiles a job holds.
    held: BTreeSet<u32>,
    /// The game each tile shows, and where it is followed.
    playing: BTreeMap<u32, (BoardPicture, Target)>,
    /// The pairs reported.
    done: u64,
    /// While the worker has no broker to take jobs from: what it waits for.
    waiting: Option<String>,
}

impl Tiles {
    /// The lowest tile no job holds, now held.
    pub(super) fn take(&self) -> u32 {
        let mut state = self.lock();
        let tile = (1..)
            .find(|n| !state.held.contains(n))
            .expect("a free tile");
        state.held.insert(tile);
        tile
    }

    /// Tile `tile` shows the game just begun.
    pub(super) fn begun(&self, tile: u32, run: &JobRun, begun: &GameBegun) {
        let [candidate, opponent] = &run.job.engines;
        let (black, white) = begun.slot.colours(candidate, opponent);
        let game = begun.slot.game();
        let picture = BoardPicture {
            board: tile,
            black: black.clone(),
            white: white.clone(),
            dir: None,
            playing: true,
            result: None,
            reason: None,
            needs_director: None,
            label: Some(format!(
                "{} pair {} game {game}",
                run.match_id,
                run.job.pair + 1
            )),
        };
        let target = Follower::in_folder(&begun.dir);
        self.lock().playing.insert(tile, (picture, target));
    }

    /// What the worker waits for while it has no broker (`waiting for the
    /// broker at nats://...`); none once the broker answers.
    pub(super) fn waiting(&self, why: Option<String>) {
        self.lock().waiting = why;
    }

    /// The job on tile `tile` ended: reported, or not.
    pub(super) fn free(&self, tile: u32, reported: bool) {
        let mut state = self.lock();
        state.held.remove(&tile);
        state.playing.remove(&tile);
        state.done += u64::from(reported);
    }

    /// The tiles as a screen draws them, under `title`.
    pub(super) fn picture(&self, title: &str) -> MatchPicture {
        let state = self.lock();
        let (name, stage) = match &state.waiting {
            Some(why) => (format!("{title} | {why}"), Stage::Starting),
            None => (
                format!("{title} | pairs done {}", state.done),
                Stage::Playing,
            ),
        };
        let boards = EventPicture {
            name,
            stage,
            boards: state.playing.values().map(|(b, _)| b.clone()).collect(),
            ..EventPicture::default()
        };
        MatchPicture {
            boards,
            sources: state
                .playing
                .iter()
                .map(|(&tile, (_, target))| (tile, target.clone()))
                .collect(),
            panel: None,
            over: false,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_freed_tile_is_the_next_taken_and_a_reported_pair_is_counted() {
        let tiles = Tiles::default();
        assert_eq!((tiles.take(), tiles.take(), tiles.take()), (1, 2, 3));
        tiles.free(2, true);
        tiles.free(3, false);
        assert_eq!(tiles.take(), 2);
        let picture = tiles.picture("worker w1");
        assert_eq!(picture.boards.name, "worker w1 | pairs done 1");
        assert!(picture.boards.boards.is_empty() && picture.panel.is_none());
        tiles.waiting(Some("waiting for the broker at nats://b:4222".into()));
        let waiting = tiles.picture("worker w1");
        assert_eq!(
            waiting.boards.name,
            "worker w1 | waiting for the broker at nats://b:4222"
        );
        assert_eq!(waiting.boards.stage, Stage::Starting, "not playing");
        tiles.waiting(None);
        assert_eq!(tiles.picture("worker w1").boards.stage, Stage::Playing);
    }
}
