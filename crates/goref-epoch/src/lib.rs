//! The starting instant of a test, and the only clock reading the tests of
//! goref and goref-core take: every later instant is this plus a duration.
//! A crate of its own, a dev-dependency only, so that goref-core's sources
//! never read the clock, not even for its tests.

use std::time::Instant;

/// A starting instant for a test.
pub fn epoch() -> Instant {
    Instant::now()
}
