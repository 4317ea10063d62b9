//! The shell's clock, and the waits its `select!` loops are made of. The
//! async shell reads time from tokio, so tests can pause it, and hands it to
//! the pure cores as `std::time::Instant`: this is the one place that does
//! both. A wait on something that is not there (no deadline, a channel
//! gone) waits forever, so that its `select!` branch stays quiet. Every
//! runtime the shell's loops run on is built here ([`runtime`]).

use std::time::Instant;

use tokio::sync::mpsc;

/// Now, as the pure cores take it.
pub fn now() -> Instant {
    tokio::time::Instant::now().into_std()
}

/// The earlier of two optional deadlines.
pub(crate) fn earliest(a: Option<Instant>, b: Option<Instant>) -> Option<Instant> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Sleeps until `deadline`, or forever when there is none.
pub async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(deadline) => tokio::time::sleep_until(tokio::time::Instant::from_std(deadline)).await,
        None => std::future::pending().await,
    }
}

/// A timer for a deadline that seldom moves, kept across the turns of a
/// loop: [`set`](Timer::set) re-arms it only when the deadline changes,
/// rather than a new one being made for each turn.
pub(crate) struct Timer {
    due: Option<Instant>,
    sleep: std::pin::Pin<Box<tokio::time::Sleep>>,
}

impl Default for Timer {
    fn default() -> Self {
        Timer {
            due: None,
            sleep: Box::pin(tokio::time::sleep_until(tokio::time::Instant::now())),
        }
    }
}

impl Timer {
    /// Waits for `due` from now on; none waits forever.
    pub(crate) fn set(&mut self, due: Option<Instant>) {
        if due != self.due {
            self.due = due;
            if let Some(due) = due {
                let due = tokio::time::Instant::from_std(due);
                self.sleep.as_mut().reset(due);
            }
        }
    }

    /// Completes once the deadline has come, which is then cleared; never
    /// while there is none. Dropped unfinished, it changes nothing.
    pub(crate) async fn fired(&mut self) {
        if self.due.is_none() {
            return std::future::pending().await;
        }
        self.sleep.as_mut().await;
        self.due = None;
    }
}

/// The next message of a channel, or never once the channel is gone
/// (`None`): a `select!` branch that stays quiet without its input.
pub(crate) async fn next_from<T>(input: &mut Option<mpsc::UnboundedReceiver<T>>) -> Option<T> {
    match input {
        Some(rx) => rx.recv().await,
        None => std::future::pending().await,
    }
}

/// The threads a runtime runs its tasks on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Threads {
    /// The thread that blocks on it, alone: a game's loop, the mirror's
    /// thread, a relay's, a check.
    Caller,
    /// This many threads of its own: a runner that waits on a broker
    /// while its games' followers run.
    Workers(usize),
    /// One thread a core: a screen that follows others' games.
    PerCore,
}

/// A runtime with time and I/O on `threads`.
pub fn runtime(threads: Threads) -> std::io::Result<tokio::runtime::Runtime> {
    let mut builder = match threads {
        Threads::Caller => tokio::runtime::Builder::new_current_thread(),
        Threads::Workers(count) => {
            let mut builder = tokio::runtime::Builder::new_multi_thread();
            builder.worker_threads(count);
            builder
        }
        Threads::PerCore => tokio::runtime::Builder::new_multi_thread(),
    };
    builder.enable_all().build()
}

/// Today's date, UTC (`2026-11-30` as text).
pub(crate) fn today() -> goref_core::game::sgf::Date {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_secs() as i64);
    goref_core::game::sgf::Date::from_unix_seconds(seconds)
}
