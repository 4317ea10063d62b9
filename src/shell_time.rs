//! The shell's clock. The async shell reads time from tokio, so tests can
//! pause it, and hands it to the pure cores as `std::time::Instant`: this is
//! the one place that does both.

use std::time::Instant;

/// Now, as the pure cores take it.
pub fn now() -> Instant {
    tokio::time::Instant::now().into_std()
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
pub struct Timer {
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
    pub fn set(&mut self, due: Option<Instant>) {
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
    pub async fn fired(&mut self) {
        if self.due.is_none() {
            return std::future::pending().await;
        }
        self.sleep.as_mut().await;
        self.due = None;
    }
}
