//! One board followed by the hall: a task that attaches to the board's
//! goref through its folder's socket, as `goref attach` does (or, for a
//! game played on another machine, follows it on the broker), folds its
//! stream into the board's view, hands the hall a copy of the view when it
//! changed (at most every 30 ms, so that a burst of events is one
//! copy), and carries the director's commands to the board.
//!
//! When the hall is served to spectators, the follower also hands the
//! mirror every event of the board's stream and, whenever it starts the
//! board afresh, the board's whole view.
//!
//! While the hall follows a board, the board's goref counts the hall as an
//! attached screen: when its game calls the judge, it waits for the
//! director instead of ending without a result.
//!
//! A board whose goref stops being heard without its link closing (a
//! worker killed on its own machine, followed through the broker, which
//! never closes) is looked at every few seconds and its tile told it is
//! stale, until it is heard again. So is a board followed on the broker
//! whose goref was never heard at all (a worker killed just after it took
//! the game): its runner says it is in play, and nothing has spoken for it.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio::time::Instant;

use crate::mirror::client::{Link, Spectator, Update, STALE_AFTER};
use crate::mirror::follow::{Follow, FollowEvent, Target};
use crate::mirror::hall_hub::HallItem;
use crate::mirror::server::HallFeed;
use crate::shell_time::now;
use goref_core::referee::GameView;

/// The least time between two copies of a board's view.
const COALESCE: Duration = Duration::from_millis(30);
/// How often a board that may have gone quiet is looked at.
const STALE_LOOK: Duration = Duration::from_secs(4);

/// What a followed board tells the hall.
#[derive(Debug)]
pub(crate) enum BoardNote {
    /// Its view changed: the view, its stream time at a local instant,
    /// why the hall cannot follow it now, if it cannot, and whether that is
    /// because its goref has gone quiet ([`is_stale`]).
    View {
        view: Arc<GameView>,
        clock: Option<(std::time::Instant, f64)>,
        trouble: Option<String>,
        stale: bool,
    },
    /// A command was not sent: why.
    Refused(String),
    /// The hall follows it no more: its game is over, or its goref went.
    Gone(String),
}

/// A board the hall follows: the task, and where its commands go.
pub(crate) struct Follower {
    pub round: u32,
    pub target: Target,
    commands: mpsc::UnboundedSender<String>,
    task: JoinHandle<()>,
}

impl Follower {
    /// The target of the board whose game is played in `dir`: its socket.
    pub(crate) fn in_folder(dir: &Path) -> Target {
        Target::Unix(dir.join(crate::journal::folder::SOCKET))
    }

    /// Starts following the board whose game `target` serves; its sides
    /// are shown by the names the hall knows them by (`names`: an event's
    /// entrants, a match's engines), not by their programs' own.
    pub(crate) fn start(
        (round, board): (u32, u32),
        names: [String; 2],
        target: Target,
        notes: mpsc::UnboundedSender<(u32, BoardNote)>,
        relay: Option<HallFeed>,
    ) -> Follower {
        let (commands, commands_rx) = mpsc::unbounded_channel();
        let task = tokio::spawn(follow(
            (board, names),
            target.clone(),
            notes,
            commands_rx,
            relay,
        ));
        Follower {
            round,
            target,
            commands,
            task,
        }
    }

    /// Sends an operator's line to the board's goref; false once the hall
    /// follows it no more.
    pub(crate) fn command(&self, line: String) -> bool {
        self.commands.send(line).is_ok()
    }
}

impl Drop for Follower {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn follow(
    (board, names): (u32, [String; 2]),
    target: Target,
    notes: mpsc::UnboundedSender<(u32, BoardNote)>,
    mut commands: mpsc::UnboundedReceiver<String>,
    relay: Option<HallFeed>,
) {
    let spectator = Spectator::new(None, false, now());
    let mut follow = Follow::new(target, spectator, true).waiting();
    let mut due: Option<Instant> = None;
    let tell = |note| notes.send((board, note)).is_ok();
    let mut stale_look = tokio::time::interval(STALE_LOOK);
    let mut told_stale = false;
    loop {
        let wake = due.unwrap_or_else(|| Instant::now() + Duration::from_secs(3600));
        tokio::select! {
            event = follow.next() => match event {
                FollowEvent::Update(update) => {
                    if let Some(feed) = &relay {
                        pass_on(board, &update, &follow, feed);
                    }
                    if update.changed && due.is_none() {
                        due = Some(Instant::now() + COALESCE);
                    }
                }
                FollowEvent::Link | FollowEvent::Dropped => {
                    due.get_or_insert_with(|| Instant::now() + COALESCE);
                }
                FollowEvent::Failed(why) | FollowEvent::Finished(why) => {
                    tell(view_note(&follow, &names));
                    tell(BoardNote::Gone(why));
                    return;
                }
            },
            line = commands.recv() => match line {
                Some(line) => {
                    if let Some(why) = follow.command(&line) {
                        tell(BoardNote::Refused(format!("'{line}' was not sent: {why}")));
                    }
                }
                None => {
                    follow.leave();
                    return;
                }
            },
            _ = stale_look.tick() => {
                let stale = is_stale(&follow, now());
                if stale || told_stale {
                    told_stale = stale;
                    due.get_or_insert_with(|| Instant::now() + COALESCE);
                }
            }
            _ = tokio::time::sleep_until(wake), if due.is_some() => {
                due = None;
                if !tell(view_note(&follow, &names)) {
                    follow.leave();
                    return;
                }
            }
        }
    }
}

/// Hands the mirror what a line from the board brought: its events, or,
/// when the board's stream starts afresh (a snapshot, a new stream), its
/// whole view.
fn pass_on(board: u32, update: &Update, follow: &Follow, feed: &HallFeed) {
    if update.afresh {
        let view = Arc::new(follow.spectator.view.clone());
        let _ = feed.send(HallItem::Snapshot { board, view });
        return;
    }
    for json in &update.print {
        let json = json.clone();
        let _ = feed.send(HallItem::Event { board, json });
    }
}

/// Whether the board's goref, still linked, has not been heard for long
/// though its game is not over, or was never heard for long.
fn is_stale(follow: &Follow, at: std::time::Instant) -> bool {
    let spectator = &follow.spectator;
    let live = matches!(spectator.link(), Link::Live { .. });
    (live && !spectator.finished() && spectator.status(at).trouble)
        || never_heard(follow, at).is_some()
}

/// How long a board followed on the broker has gone without a word from
/// its goref, when it never had one and that is long: a goref publishes
/// as it starts, so its runner's word that the game is in play and a
/// stream still empty mean the goref is gone.
fn never_heard(follow: &Follow, at: std::time::Instant) -> Option<Duration> {
    let spectator = &follow.spectator;
    let silent = spectator.silent_for(at);
    let waited = follow.on_broker() && !spectator.ever_live();
    (waited && silent >= STALE_AFTER).then_some(silent)
}

/// What a board's tile says before its goref has ever answered: the
/// socket's path and the tries are for the log, not the director.
const NOT_STARTED: &str = "waiting for its goref to start";

/// Why the hall cannot follow the board at `at`, if it cannot.
fn trouble(follow: &Follow, at: std::time::Instant) -> Option<String> {
    let status = follow.spectator.status(at);
    match (follow.spectator.ever_live(), never_heard(follow, at)) {
        (true, _) => status.trouble.then_some(status.text),
        (false, Some(silent)) => Some(format!("stale: nothing heard for {}s", silent.as_secs())),
        (false, None) => status.trouble.then(|| NOT_STARTED.to_string()),
    }
}

/// A copy of the board's view as it stands.
fn view_note(follow: &Follow, names: &[String; 2]) -> BoardNote {
    let spectator = &follow.spectator;
    let at = now();
    let mut view = spectator.view.clone();
    for (player, name) in view.players.iter_mut().zip(names) {
        if !name.is_empty() && player.name != *name {
            player.name = name.clone();
            player.version.clear();
        }
    }
    BoardNote::View {
        view: Arc::new(view),
        clock: spectator.host_ms(at).map(|ms| (at, ms)),
        trouble: trouble(follow, at),
        stale: is_stale(follow, at),
    }
}

#[cfg(test)]
mod tests;
