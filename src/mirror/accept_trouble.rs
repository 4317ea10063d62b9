//! A listener that cannot accept: how long to wait before trying again, and
//! what to tell, once when the trouble starts and once when it ends.
//!
//! `accept` fails for reasons that last (no file descriptors left, no
//! memory for a socket) as well as for one connection that was reset
//! before it was taken. Trying again at once would spin; logging every
//! try would fill the log. So the wait doubles from `FIRST_WAIT` to
//! `LONGEST_WAIT`, the first failure of a run is told, and the first
//! connection taken after it is told with the count of failures between.

use std::time::Duration;

/// The wait after the first failure of a run.
pub(crate) const FIRST_WAIT: Duration = Duration::from_millis(100);
/// The longest wait between two tries.
pub(crate) const LONGEST_WAIT: Duration = Duration::from_secs(2);

/// The failures of `accept` since the last connection it took.
#[derive(Debug, Default)]
pub(crate) struct AcceptTrouble {
    failures: u32,
    wait: Duration,
}

/// What one failure means: the wait before the next try, and a message
/// for the operator when this failure starts a run.
#[derive(Debug, PartialEq, Eq)]
pub struct Failed {
    pub wait: Duration,
    pub tell: Option<String>,
}

impl AcceptTrouble {
    /// `accept` failed with `error`.
    pub(crate) fn failed(&mut self, error: &str) -> Failed {
        self.failures = self.failures.saturating_add(1);
        self.wait = if self.failures == 1 {
            FIRST_WAIT
        } else {
            (self.wait * 2).min(LONGEST_WAIT)
        };
        let tell = (self.failures == 1).then(|| {
            format!(
                "spectators cannot connect: the mirror cannot accept ({error}); it keeps trying"
            )
        });
        Failed {
            wait: self.wait,
            tell,
        }
    }

    /// `accept` took a connection: a message when that ends a run of
    /// failures.
    pub(crate) fn accepted(&mut self) -> Option<String> {
        let failures = std::mem::take(&mut self.failures);
        self.wait = Duration::ZERO;
        (failures > 0).then(|| {
            let tries = if failures == 1 { "try" } else { "tries" };
            format!("spectators can connect again, after {failures} failed {tries} to accept")
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lasting_failure_is_told_once_and_its_tries_slow_down_to_the_longest_wait() {
        let mut trouble = AcceptTrouble::default();
        let first = trouble.failed("Too many open files");
        assert_eq!(first.wait, FIRST_WAIT);
        assert!(first
            .tell
            .as_deref()
            .is_some_and(|t| t.contains("Too many open files")));
        let waits: Vec<Duration> = (0..10)
            .map(|_| {
                let next = trouble.failed("Too many open files");
                assert_eq!(next.tell, None, "told only once");
                next.wait
            })
            .collect();
        assert!(waits.windows(2).all(|w| w[0] <= w[1]), "{waits:?}");
        assert_eq!(waits.last(), Some(&LONGEST_WAIT));
    }

    #[test]
    fn the_end_of_a_run_is_told_with_its_count_and_a_new_run_starts_over() {
        let mut trouble = AcceptTrouble::default();
        assert_eq!(trouble.accepted(), None, "no trouble, nothing to tell");
        for _ in 0..3 {
            trouble.failed("reset");
        }
        let told = trouble.accepted().expect("the end of the run is told");
        assert!(told.contains("3 failed tries"), "{told}");
        let again = trouble.failed("reset");
        assert_eq!(again.wait, FIRST_WAIT);
        assert!(again.tell.is_some());
    }
}
