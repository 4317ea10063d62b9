//! An event's hall as the mirror serves it (`goref event DIR --serve`): the
//! event's picture and each board's game, folded from what the hall hears
//! from the boards, so that a spectator who joins late is sent the whole
//! hall at once. Pure, like `super::hub::Hub`: the server's shell feeds
//! it and asks it what a joining spectator is sent.
//!
//! Each line is serialised once, here, and each board's snapshot once for
//! every change of that board, however many spectators join meanwhile. A
//! spectator of the hall is always sent the whole hall when it joins or
//! falls behind: a hall's history is many streams, and its snapshot is
//! small beside it.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

use goref_core::referee::{GameView, StampedEvent};
use goref_core::tournament::hall::EventPicture;

use super::hub::{CatchUp, Join, Line};
use super::wire::{RefereeMessage, VERSION};

/// How many lines a spectator of a hall may fall behind before it is sent
/// the whole hall again: a game's queue for each of eight boards, so that
/// it holds as long a time of a busy round as a game's does of one game.
pub const HALL_QUEUE: usize = 8 * 1024;

/// What the hall hands the mirror.
#[derive(Debug, Clone)]
pub(crate) enum HallItem {
    /// The event as it stands.
    Picture(Box<EventPicture>),
    /// Board `board`'s game, whole: the hall joined it, or joined it again.
    Snapshot { board: u32, view: Arc<GameView> },
    /// One event of board `board`'s game, as `--json` prints it.
    Event { board: u32, json: String },
}

/// The hall as served.
#[derive(Debug)]
pub(crate) struct HallHub {
    stream: String,
    producer: String,
    origin: Instant,
    picture: Option<(u32, Line)>,
    /// Each board's game, and its snapshot line once made for this view.
    boards: BTreeMap<u32, (GameView, Option<Line>)>,
    /// Lines sent, for the heartbeat's `seq`.
    sent: u64,
}

impl HallHub {
    pub(crate) fn new(stream: String, now: Instant) -> HallHub {
        HallHub {
            stream,
            producer: format!("goref {}", env!("CARGO_PKG_VERSION")),
            origin: now,
            picture: None,
            boards: BTreeMap::new(),
            sent: 0,
        }
    }

    /// Folds one item, handed on at `now`; the line every spectator is
    /// sent, if any (an event of a board not followed, or one already
    /// folded, sends none). A board's event carries the hall's time it was
    /// sent at (`at`), for a spectator to tell how far behind it is.
    pub(crate) fn publish(&mut self, item: &HallItem, now: Instant) -> Option<Line> {
        let line: Line = match item {
            HallItem::Picture(picture) => {
                if self
                    .picture
                    .as_ref()
                    .is_some_and(|(r, _)| *r != picture.round)
                {
                    self.boards.clear();
                }
                let line: Line = RefereeMessage::Hall {
                    picture: picture.clone(),
                }
                .line()
                .into();
                self.picture = Some((picture.round, line.clone()));
                line
            }
            HallItem::Snapshot { board, view } => {
                self.boards.insert(*board, ((**view).clone(), None));
                self.board_snapshot(*board)?
            }
            HallItem::Event { board, json } => {
                let (view, snapshot) = self.boards.get_mut(board)?;
                let stamped: StampedEvent = serde_json::from_str(json).ok()?;
                if stamped.seq <= view.last_seq {
                    return None;
                }
                view.apply_stamped(&stamped);
                *snapshot = None;
                RefereeMessage::board_event_line(*board, self.host_t_ms(now), json).into()
            }
        };
        self.sent += 1;
        Some(line)
    }

    /// Board `board`'s snapshot line, made once for each change.
    pub(crate) fn board_snapshot(&mut self, board: u32) -> Option<Line> {
        let stream = &self.stream;
        let (view, snapshot) = self.boards.get_mut(&board)?;
        let line = snapshot.get_or_insert_with(|| {
            RefereeMessage::snapshot_line(stream, view.last_seq, view, Some(board)).into()
        });
        Some(line.clone())
    }

    /// The whole hall, line by line: the picture, then every board's game.
    fn whole(&mut self) -> Vec<Line> {
        let mut lines: Vec<Line> = self.picture().into_iter().collect();
        lines.extend(
            self.boards()
                .into_iter()
                .filter_map(|b| self.board_snapshot(b)),
        );
        lines
    }

    /// The whole hall as one text, for a spectator that fell behind.
    pub(crate) fn snapshot(&mut self) -> Line {
        self.whole().concat().into()
    }

    /// What a spectator that said hello at `now` is sent: the welcome and
    /// the whole hall, its lines shared with every spectator joining before
    /// they change.
    pub(crate) fn join(&mut self, now: Instant) -> Join {
        Join {
            welcome: self.welcome(now),
            catch_up: CatchUp::Events(self.whole()),
        }
    }

    /// The `welcome` line at `now`.
    pub(crate) fn welcome(&self, now: Instant) -> String {
        RefereeMessage::Welcome {
            version: VERSION,
            producer: self.producer.clone(),
            stream: self.stream.clone(),
            seq: self.sent,
            host_t_ms: self.host_t_ms(now),
            resume: false,
            hall: true,
        }
        .line()
    }

    /// The picture's line, once there is a picture.
    pub(crate) fn picture(&self) -> Option<Line> {
        self.picture.as_ref().map(|(_, line)| line.clone())
    }

    /// The boards followed.
    pub(crate) fn boards(&self) -> Vec<u32> {
        self.boards.keys().copied().collect()
    }

    /// The hall's time at `now`, in ms.
    pub(crate) fn host_t_ms(&self, now: Instant) -> u64 {
        now.saturating_duration_since(self.origin).as_millis() as u64
    }

    /// A `heartbeat` line at `now`.
    pub(crate) fn heartbeat(&self, now: Instant) -> Line {
        RefereeMessage::Heartbeat {
            seq: self.sent,
            host_t_ms: self.host_t_ms(now),
        }
        .line()
        .into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mirror::client::Spectator;
    use goref_core::tournament::hall::{BoardPicture, Stage};

    fn picture(round: u32, boards: &[u32]) -> Box<EventPicture> {
        Box::new(EventPicture {
            name: "cup".into(),
            rounds: 2,
            round,
            stage: Stage::Playing,
            boards: boards
                .iter()
                .map(|&board| BoardPicture {
                    board,
                    black: format!("b{board}"),
                    white: format!("w{board}"),
                    dir: None,
                    playing: true,
                    result: None,
                    reason: None,
                    needs_director: None,
                    label: None,
                })
                .collect(),
            ..EventPicture::default()
        })
    }

    fn notice(seq: u64, text: &str) -> String {
        serde_json::to_string(&crate::test_support::notice(seq, text)).unwrap()
    }

    fn board(view_seq: u64) -> Arc<GameView> {
        let mut view = GameView::new();
        view.last_seq = view_seq;
        Arc::new(view)
    }

    /// A spectator that took every line of `lines`, at `now`.
    fn spectator_of(lines: &[&str], now: Instant) -> Spectator {
        let mut spectator = Spectator::new(None, true, now);
        for text in lines {
            for line in text.lines() {
                spectator.receive(line, now).unwrap();
            }
        }
        spectator
    }

    #[test]
    fn a_late_joiner_gets_the_picture_and_every_board_and_folds_the_rest_tagged() {
        let now = Instant::now();
        let mut hub = HallHub::new("s".into(), now);
        hub.publish(&HallItem::Picture(picture(1, &[1, 2])), now)
            .unwrap();
        for n in [1, 2] {
            let item = HallItem::Snapshot {
                board: n,
                view: board(0),
            };
            hub.publish(&item, now).unwrap();
        }
        let first = HallItem::Event {
            board: 2,
            json: notice(1, "first"),
        };
        let line = hub.publish(&first, now).unwrap();
        assert!(
            line.starts_with(r#"{"type":"event","board":2,"at":0,"event":{"seq":1"#),
            "{line}"
        );
        assert!(hub.publish(&first, now).is_none(), "an event folded once");
        let stray = HallItem::Event {
            board: 9,
            json: notice(1, "stray"),
        };
        assert!(hub.publish(&stray, now).is_none(), "a board not followed");

        let join = hub.join(now);
        assert!(join.welcome.contains(r#""hall":true"#), "{}", join.welcome);
        let CatchUp::Events(all) = &join.catch_up else {
            panic!("a hall is joined from the whole hall")
        };
        let CatchUp::Events(again) = hub.join(now).catch_up else {
            panic!("the whole hall")
        };
        assert!(
            all.iter().zip(&again).all(|(a, b)| Arc::ptr_eq(a, b)),
            "a second joiner shares the lines made for the first"
        );
        let all = all.concat();
        let mut spectator = spectator_of(&[&join.welcome, &all], now);
        let hall = spectator.hall.as_ref().expect("the welcome says hall");
        assert_eq!(hall.picture.boards.len(), 2);
        assert_eq!(hall.games[&2].view.last_seq, 1);
        assert_eq!(hall.games[&2].view.notices.back().unwrap(), "first");

        let second = hub
            .publish(
                &HallItem::Event {
                    board: 2,
                    json: notice(2, "second"),
                },
                now,
            )
            .unwrap();
        let update = spectator.receive(&second, now).unwrap();
        assert_eq!(update.print.len(), 1);
        assert!(
            update.print[0].starts_with(r#"{"board":2,"seq":2"#),
            "{:?}",
            update.print
        );
        let hall = spectator.hall.as_ref().unwrap();
        assert_eq!(hall.games[&2].view.notices.back().unwrap(), "second");
        assert_eq!(hall.games[&1].view.last_seq, 0, "board 1 untouched");
    }

    #[test]
    fn a_new_round_drops_the_boards_of_the_last() {
        let now = Instant::now();
        let mut hub = HallHub::new("s".into(), now);
        hub.publish(&HallItem::Picture(picture(1, &[1])), now)
            .unwrap();
        let snapshot = HallItem::Snapshot {
            board: 1,
            view: board(5),
        };
        hub.publish(&snapshot, now);
        let old = hub.join(now);
        let next = hub
            .publish(&HallItem::Picture(picture(2, &[1])), now)
            .unwrap();
        let CatchUp::Events(all) = hub.join(now).catch_up else {
            panic!("the whole hall")
        };
        assert_eq!(all.len(), 1, "only the picture: {all:?}");
        assert_eq!(hub.snapshot().lines().count(), 1);
        let CatchUp::Events(before) = &old.catch_up else {
            panic!("the whole hall")
        };
        let before = before.concat();
        let mut spectator = spectator_of(&[&old.welcome, &before], now);
        assert_eq!(spectator.hall.as_ref().unwrap().games.len(), 1);
        spectator.receive(&next, now).unwrap();
        let hall = spectator.hall.as_ref().unwrap();
        assert_eq!(hall.picture.round, 2);
        assert!(hall.games.is_empty(), "the spectator drops them too");
    }
}
