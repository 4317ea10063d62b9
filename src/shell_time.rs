//! The shell's clock, and the waits its `select!` loops are made of. The
//! async shell reads time from tokio, so tests can pause it, and hands it to
//! the pure cores as `std::time::Instant`: this is the one place that does
//! both. A wait on something that is not there (no deadline, a channel
//! gone) waits forever, so that its `select!` branch stays quiet.

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
