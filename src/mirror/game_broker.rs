//! `play --publish`: one game published to the broker from the game's own
//! thread.
//!
//! The mirror's thread serves spectators and an event's hall; publishing a
//! single game there woke it for every move, and on a small machine a wake
//! costs more than the work it brings. Here the game's batches are folded
//! into a [`Hub`] (for the snapshots a late watcher starts from) and handed
//! to the broker's publisher on the game's own runtime, in the turn of its loop
//! that relayed the move: the game's thread wakes no other thread for it,
//! and only the broker's acknowledgement, asked for once a second, wakes
//! it on its own. The game still never waits: the outlet's queue is
//! bounded, and the publisher's work is only ever the next turn's.

use std::time::Duration;

use tokio::sync::mpsc;

use crate::referee::{EventBatch, GameEvent};
use crate::shell_time::now;

use super::broker::{PublishConfig, Publisher, PUBLISH_SETTLE};
use super::gate::Limits;
use super::hub::{HistoryLimits, Hub};
use super::server::{new_stream_name, Feed};

/// The hub keeps no history: nobody resumes from it, as watchers resume
/// from the broker's stream.
const NO_HISTORY: HistoryLimits = HistoryLimits {
    events: 0,
    bytes: 0,
};

/// Publishes the games played on this runtime, one after another, over
/// one connection to the broker.
pub struct GameBroker {
    publisher: Publisher,
    heartbeat: Duration,
    /// Where the publisher's notices go: the game being published.
    to_game: std::sync::Arc<std::sync::Mutex<Option<mpsc::UnboundedSender<GameEvent>>>>,
}

impl GameBroker {
    /// Connects and publishes on the current runtime, which must be the
    /// one the games are played on.
    pub fn start(config: PublishConfig) -> GameBroker {
        let (notices_tx, mut notices) = mpsc::unbounded_channel::<String>();
        let to_game = std::sync::Arc::new(std::sync::Mutex::new(None::<mpsc::UnboundedSender<_>>));
        let forward = to_game.clone();
        tokio::spawn(async move {
            while let Some(message) = notices.recv().await {
                let game = forward.lock().unwrap_or_else(|p| p.into_inner()).clone();
                if let Some(game) = game {
                    let _ = game.send(GameEvent::Notice {
                        color: None,
                        message,
                    });
                }
            }
        });
        GameBroker {
            publisher: Publisher::start(config, new_stream_name(), notices_tx),
            heartbeat: Limits::default().heartbeat,
            to_game,
        }
    }

    /// Publishes a new game: the feed to subscribe to its driver, and the
    /// notices (publishing stopped, caught up) for its stream.
    pub fn attach_game(&self) -> (Feed, mpsc::UnboundedReceiver<GameEvent>) {
        let (feed, batches) = mpsc::unbounded_channel();
        let (notes_tx, notes) = mpsc::unbounded_channel();
        *self.to_game.lock().unwrap_or_else(|p| p.into_inner()) = Some(notes_tx);
        let mut hub = Hub::new(new_stream_name(), NO_HISTORY);
        self.publisher.push_game_whole(&mut hub, now());
        tokio::spawn(follow_game(
            batches,
            hub,
            self.publisher.clone(),
            self.heartbeat,
        ));
        (feed, notes)
    }

    /// Waits, 5 s at most, until the broker has every line,
    /// and says on stderr what it could not publish.
    pub async fn finish(self) {
        self.publisher.settle(PUBLISH_SETTLE).await;
    }
}

/// Folds one game's batches and pushes them, with a heartbeat while the
/// game goes on, until its driver lets go of the feed.
async fn follow_game(
    mut batches: mpsc::UnboundedReceiver<EventBatch>,
    mut hub: Hub,
    publisher: Publisher,
    every: Duration,
) {
    let mut heartbeat = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
    heartbeat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            batch = batches.recv() => match batch {
                Some(batch) => {
                    for (at, stamped) in batch {
                        let line = hub.publish(at, &stamped);
                        publisher.push_game_event(&mut hub, line, at);
                    }
                }
                None => return,
            },
            _ = heartbeat.tick() => publisher.beat(hub.heartbeat(now())),
        }
    }
}

/// The notices of two sources for one game's stream, as one receiver.
pub fn merge_notes(
    a: Option<mpsc::UnboundedReceiver<GameEvent>>,
    b: Option<mpsc::UnboundedReceiver<GameEvent>>,
) -> Option<mpsc::UnboundedReceiver<GameEvent>> {
    match (a, b) {
        (Some(mut a), Some(mut b)) => {
            let (tx, merged) = mpsc::unbounded_channel();
            tokio::spawn(async move {
                loop {
                    let event = tokio::select! {
                        Some(event) = a.recv() => event,
                        Some(event) = b.recv() => event,
                        else => return,
                    };
                    if tx.send(event).is_err() {
                        return;
                    }
                }
            });
            Some(merged)
        }
        (a, b) => a.or(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn notice(message: &str) -> GameEvent {
        GameEvent::Notice {
            color: None,
            message: message.into(),
        }
    }

    #[tokio::test]
    async fn merged_notes_carry_both_sources_and_end_when_both_have() {
        let (a_tx, a) = mpsc::unbounded_channel();
        let (b_tx, b) = mpsc::unbounded_channel();
        let mut merged = merge_notes(Some(a), Some(b)).unwrap();
        a_tx.send(notice("from the mirror")).unwrap();
        b_tx.send(notice("from the broker")).unwrap();
        drop(a_tx);
        b_tx.send(notice("the broker again")).unwrap();
        drop(b_tx);
        let mut said = Vec::new();
        while let Some(GameEvent::Notice { message, .. }) = merged.recv().await {
            said.push(message);
        }
        said.sort();
        assert_eq!(
            said,
            ["from the broker", "from the mirror", "the broker again"]
        );
    }

    #[tokio::test]
    async fn one_source_is_handed_on_as_it_is() {
        let (tx, rx) = mpsc::unbounded_channel();
        let mut merged = merge_notes(None, Some(rx)).unwrap();
        tx.send(notice("only")).unwrap();
        assert!(matches!(
            merged.recv().await,
            Some(GameEvent::Notice { .. })
        ));
        assert!(merge_notes(None, None).is_none());
    }
}
