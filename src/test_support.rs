//! Test support shared by the pure cores' tests: the one place their tests
//! take a starting instant, so that `game`, `referee` and `protocol` never
//! read the clock, not even in tests.

use std::time::Instant;

/// A starting instant for a test; every later instant is this plus a duration.
pub fn epoch() -> Instant {
    Instant::now()
}
