//! What the mirror serves, one game or an event's hall, and how what the
//! game or the hall hands on is folded into it and sent on: to every
//! spectator, and to the broker with `--publish`.

use std::time::Instant;

use tokio::sync::mpsc;

use crate::shell_time::now;
use goref_core::referee::EventBatch;

use super::{lock, Shared};
use crate::mirror::hall_hub::{HallHub, HallItem};
use crate::mirror::hub::{Hub, Join, Line};
use crate::mirror::outlet::Pushed;
use crate::mirror::publisher::Publisher;

/// What the mirror serves: one game, or an event's hall.
pub(super) enum Source {
    Game(Box<Hub>),
    Hall(HallHub),
}

impl Source {
    pub(super) fn snapshot(&mut self) -> Line {
        match self {
            Source::Game(hub) => hub.snapshot(),
            Source::Hall(hall) => hall.snapshot(),
        }
    }

    pub(super) fn join(
        &mut self,
        stream: Option<&str>,
        since_seq: Option<u64>,
        now: Instant,
    ) -> Join {
        match self {
            Source::Game(hub) => hub.join(stream, since_seq, now),
            Source::Hall(hall) => hall.join(now),
        }
    }

    pub(super) fn heartbeat(&self, now: Instant) -> Line {
        match self {
            Source::Game(hub) => hub.heartbeat(now),
            Source::Hall(hall) => hall.heartbeat(now),
        }
    }

    pub(super) fn host_t_ms(&self, now: Instant) -> u64 {
        match self {
            Source::Game(hub) => hub.host_t_ms(now),
            Source::Hall(hall) => hall.host_t_ms(now),
        }
    }

    /// The board size typed moves are read for.
    pub(super) fn size(&self) -> u8 {
        match self {
            Source::Game(hub) => hub.size(),
            Source::Hall(_) => goref_core::game::MAX_SIZE,
        }
    }

    /// Pushes the stream as it stands to `publisher`: its welcome, then the
    /// game whole, or the hall's picture and each board's game.
    pub(super) fn publish_whole(&mut self, publisher: &Publisher, now: Instant) {
        match self {
            Source::Game(hub) => game_whole(hub, publisher, now),
            Source::Hall(hall) => {
                let welcome = hall.welcome(now).into();
                let picture = hall.picture();
                let boards: Vec<(u32, Line)> = hall
                    .boards()
                    .into_iter()
                    .filter_map(|board| Some((board, hall.board_snapshot(board)?)))
                    .collect();
                publisher.with(|outlet| {
                    let mut pushed = outlet.push_welcome(welcome, now);
                    if let Some(picture) = picture {
                        pushed = outlet.push_hall(picture, now);
                    }
                    for (board, snapshot) in boards {
                        pushed = outlet.push_snapshot(Some(board), snapshot, now);
                    }
                    pushed
                });
            }
        }
    }
}

/// Folds the batch of events and those queued behind it into the hub and
/// sends each to every spectator; to the broker, each batch's events go
/// together.
pub(super) fn publish(
    shared: &Shared,
    first: EventBatch,
    mut feed: Option<&mut mpsc::UnboundedReceiver<EventBatch>>,
    publisher: Option<&Publisher>,
) {
    let mut source = lock(&shared.hub);
    let Source::Game(hub) = &mut *source else {
        return;
    };
    let mut next = Some(first);
    while let Some(batch) = next {
        for handed in batch {
            let at = handed.at;
            let line = hub.publish_handed(&handed);
            if let Some(publisher) = publisher {
                match publisher.with(|outlet| outlet.push_event(None, line.clone(), at)) {
                    Pushed::Queued => {}
                    Pushed::WantsSnapshot => {
                        let snapshot = hub.snapshot();
                        publisher.with(|outlet| outlet.push_snapshot(None, snapshot, at));
                    }
                    Pushed::WantsWhole => game_whole(hub, publisher, at),
                }
            }
            let _ = shared.events.send(line);
        }
        next = feed.as_mut().and_then(|feed| feed.try_recv().ok());
    }
}

/// The game as it stands, to the broker, after its queue overflowed.
fn game_whole(hub: &mut Hub, publisher: &Publisher, now: Instant) {
    let welcome = hub.welcome(now, false).into();
    let snapshot = hub.snapshot();
    publisher.with(|outlet| {
        outlet.push_welcome(welcome, now);
        outlet.push_snapshot(None, snapshot, now)
    });
}

/// Folds the hall's item and those queued behind it into the hall and
/// sends each line to every spectator, and to the broker.
pub(super) fn publish_hall(
    shared: &Shared,
    first: HallItem,
    mut feed: Option<&mut mpsc::UnboundedReceiver<HallItem>>,
    publisher: Option<&Publisher>,
) {
    let mut source = lock(&shared.hub);
    let at = now();
    let mut next = Some(first);
    while let Some(item) = next {
        let Source::Hall(hall) = &mut *source else {
            return;
        };
        if let Some(line) = hall.publish(&item, at) {
            let pushed = publisher.map(|publisher| {
                publisher.with(|outlet| match &item {
                    HallItem::Picture(_) => outlet.push_hall(line.clone(), at),
                    HallItem::Snapshot { board, .. } => {
                        outlet.push_snapshot(Some(*board), line.clone(), at)
                    }
                    HallItem::Event { board, .. } => {
                        outlet.push_event(Some(*board), line.clone(), at)
                    }
                })
            });
            match (pushed, publisher, &item) {
                (Some(Pushed::WantsSnapshot), Some(publisher), HallItem::Event { board, .. }) => {
                    if let Some(snapshot) = hall.board_snapshot(*board) {
                        publisher.with(|outlet| outlet.push_snapshot(Some(*board), snapshot, at));
                    }
                }
                (Some(Pushed::WantsWhole), Some(publisher), _) => {
                    source.publish_whole(publisher, at)
                }
                _ => {}
            }
            let _ = shared.events.send(line);
        }
        next = feed.as_mut().and_then(|feed| feed.try_recv().ok());
    }
}
