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
