//! Who may watch: the caps on connections, the rate of connects from one
//! address, and the check of a spectator's hello. Pure, with time passed in.
//!
//! A connection is counted from its accept to its close, hello or not, so
//! that neither spectators nor half-open connections pass the cap. Each
//! address has a token bucket of connects: `burst` at once, then `rate` a
//! second. The buckets are few (one per address seen lately) and bounded.

use std::collections::HashMap;
use std::net::IpAddr;
use std::time::{Duration, Instant};

use super::wire::{TOKEN_NEEDED, VERSION, WRONG_TOKEN};

/// The mirror's caps and timings.
#[derive(Debug, Clone, PartialEq)]
pub struct Limits {
    /// Connections at once, spectators and those not yet through hello.
    pub max_spectators: usize,
    /// Connects a second from one address, after `connect_burst`.
    pub connect_rate: f64,
    pub connect_burst: f64,
    /// How long a connection may take to say hello.
    pub hello_within: Duration,
    /// How long a wrong token waits before it is told and closed.
    pub wrong_token_delay: Duration,
    /// A spectator silent this long (no ping) is closed.
    pub idle: Duration,
    /// How often the referee sends a heartbeat.
    pub heartbeat: Duration,
    /// A write to a spectator that takes longer closes it.
    pub send_timeout: Duration,
    /// Lines queued for each spectator before it is resynchronised.
    pub queue: usize,
    /// Resynchronisations within `lag_window` before a spectator is dropped.
    pub max_lags: usize,
    pub lag_window: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_spectators: 1000,
            connect_rate: 10.0,
            connect_burst: 20.0,
            hello_within: Duration::from_secs(5),
            wrong_token_delay: Duration::from_secs(1),
            idle: Duration::from_secs(30),
            heartbeat: Duration::from_secs(5),
            send_timeout: Duration::from_secs(10),
            queue: 1024,
            max_lags: 3,
            lag_window: Duration::from_secs(60),
        }
    }
}

/// Why a connection is turned away, as the spectator is told.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum Refusal {
    #[error("the referee serves {0} spectators already")]
    Full(usize),
    #[error("too many connects from {0}: wait a few seconds")]
    TooFast(IpAddr),
    #[error("{}", TOKEN_NEEDED)]
    TokenNeeded,
    #[error("{}", WRONG_TOKEN)]
    WrongToken,
    #[error("{}", version_refusal(*.0))]
    Version(u32),
}

fn version_refusal(spectator: u32) -> String {
    format!(
        "this referee speaks mirror protocol {VERSION} (goref {}) and the spectator {spectator}: \
         watch with the referee's version of goref",
        env!("CARGO_PKG_VERSION")
    )
}

impl Refusal {
    /// Whether connecting again later can succeed.
    pub(crate) fn retry(&self) -> bool {
        matches!(self, Refusal::Full(_) | Refusal::TooFast(_))
    }
}

/// How many addresses the gate remembers before it forgets the idle ones.
const BUCKETS: usize = 4096;

#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

/// The gate every connection passes.
#[derive(Debug)]
pub(crate) struct Gate {
    limits: Limits,
    token: Option<String>,
    buckets: HashMap<IpAddr, Bucket>,
    open: usize,
}

impl Gate {
    pub(crate) fn new(limits: Limits, token: Option<String>) -> Gate {
        Gate {
            limits,
            token,
            buckets: HashMap::new(),
            open: 0,
        }
    }

    /// Connections open now.
    pub(crate) fn open(&self) -> usize {
        self.open
    }

    /// A connection from `address` at `now`: counted when let in, until
    /// [`Gate::closed`].
    pub(crate) fn connect(&mut self, address: IpAddr, now: Instant) -> Result<(), Refusal> {
        if !self.take_token(address, now) {
            return Err(Refusal::TooFast(address));
        }
        if self.open >= self.limits.max_spectators {
            return Err(Refusal::Full(self.limits.max_spectators));
        }
        self.open += 1;
        Ok(())
    }

    /// A connection let in by [`Gate::connect`] is gone.
    pub(crate) fn closed(&mut self) {
        self.open = self.open.saturating_sub(1);
    }

    /// Checks a hello's version and token. A hello with no token (or an
    /// empty one) where one is needed is told so, apart from a wrong one.
    pub(crate) fn check_hello(&self, version: u32, token: Option<&str>) -> Result<(), Refusal> {
        if version != VERSION {
            return Err(Refusal::Version(version));
        }
        let Some(expected) = &self.token else {
            return Ok(());
        };
        match token.filter(|given| !given.is_empty()) {
            None => Err(Refusal::TokenNeeded),
            Some(given) if !same_secret(expected, given) => Err(Refusal::WrongToken),
            Some(_) => Ok(()),
        }
    }

    fn take_token(&mut self, address: IpAddr, now: Instant) -> bool {
        let (rate, burst) = (self.limits.connect_rate, self.limits.connect_burst);
        if self.buckets.len() >= BUCKETS && !self.buckets.contains_key(&address) {
            self.buckets
                .retain(|_, b| refilled(*b, now, rate, burst) < burst);
            if self.buckets.len() >= BUCKETS {
                return false;
            }
        }
        let bucket = self.buckets.entry(address).or_insert(Bucket {
            tokens: burst,
            at: now,
        });
        let tokens = refilled(*bucket, now, rate, burst);
        let allowed = tokens >= 1.0;
        *bucket = Bucket {
            tokens: if allowed { tokens - 1.0 } else { tokens },
            at: now,
        };
        allowed
    }
}

fn refilled(bucket: Bucket, now: Instant, rate: f64, burst: f64) -> f64 {
    let elapsed = now.saturating_duration_since(bucket.at).as_secs_f64();
    (bucket.tokens + elapsed * rate).min(burst)
}

/// Compares a secret in time that does not depend on where it differs.
fn same_secret(expected: &str, given: &str) -> bool {
    let (a, b) = (expected.as_bytes(), given.as_bytes());
    let mut differ = a.len() ^ b.len();
    for (i, x) in a.iter().enumerate() {
        differ |= usize::from(x ^ b.get(i).copied().unwrap_or(!x));
    }
    differ == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::epoch;

    fn local(last: u8) -> IpAddr {
        IpAddr::from([127, 0, 0, last])
    }

    #[test]
    fn connects_from_one_address_are_capped_by_a_bucket_that_refills() {
        let limits = Limits {
            connect_rate: 2.0,
            connect_burst: 3.0,
            ..Limits::default()
        };
        let mut gate = Gate::new(limits, None);
        let t0 = epoch();
        let tries: Vec<bool> = (0..5).map(|_| gate.connect(local(1), t0).is_ok()).collect();
        assert_eq!(tries, [true, true, true, false, false]);
        assert_eq!(gate.connect(local(2), t0), Ok(()), "another address");
        assert_eq!(
            gate.connect(local(1), t0 + Duration::from_millis(400)),
            Err(Refusal::TooFast(local(1)))
        );
        assert_eq!(
            gate.connect(local(1), t0 + Duration::from_millis(600)),
            Ok(())
        );
        assert_eq!(gate.open(), 5);
    }

    #[test]
    fn the_cap_counts_open_connections_and_frees_a_place_on_close() {
        let limits = Limits {
            max_spectators: 2,
            ..Limits::default()
        };
        let mut gate = Gate::new(limits, None);
        let t0 = epoch();
        assert!(gate.connect(local(1), t0).is_ok());
        assert!(gate.connect(local(2), t0).is_ok());
        let full = gate.connect(local(3), t0).unwrap_err();
        assert_eq!(full, Refusal::Full(2));
        assert!(full.retry());
        gate.closed();
        assert!(gate.connect(local(3), t0).is_ok());
    }

    #[test]
    fn a_hello_needs_the_version_and_the_token() {
        let gate = Gate::new(Limits::default(), Some("s3cret".into()));
        assert_eq!(gate.check_hello(VERSION, Some("s3cret")), Ok(()));
        for token in [Some("s3cre"), Some("s3cret!"), Some("S3CRET")] {
            assert_eq!(gate.check_hello(VERSION, token), Err(Refusal::WrongToken));
        }
        let version = gate.check_hello(VERSION + 1, Some("s3cret")).unwrap_err();
        assert!(!version.retry() && !Refusal::WrongToken.retry());
        assert!(
            version.to_string().contains("mirror protocol 1"),
            "{version}"
        );
        let open = Gate::new(Limits::default(), None);
        assert_eq!(open.check_hello(VERSION, Some("anything")), Ok(()));
    }

    #[test]
    fn a_hello_without_the_token_is_told_the_game_needs_one() {
        let gate = Gate::new(Limits::default(), Some("s3cret".into()));
        for token in [None, Some("")] {
            let refusal = gate.check_hello(VERSION, token).unwrap_err();
            assert_eq!(
                refusal.to_string(),
                "this game needs a token (give it with --token or GOREF_TOKEN)"
            );
            assert!(!refusal.retry());
        }
        let wrong = gate.check_hello(VERSION, Some("s3cre")).unwrap_err();
        assert_eq!(wrong.to_string(), "wrong token");
    }

    #[test]
    fn many_addresses_never_grow_the_buckets_past_their_bound() {
        let mut gate = Gate::new(
            Limits {
                max_spectators: usize::MAX,
                ..Limits::default()
            },
            None,
        );
        let t0 = epoch();
        for i in 0..(BUCKETS as u32 + 500) {
            let _ = gate.connect(IpAddr::from(i.to_be_bytes()), t0);
        }
        assert!(gate.buckets.len() <= BUCKETS);
        let later = t0 + Duration::from_secs(10);
        assert!(gate.connect(IpAddr::from([10, 9, 9, 9]), later).is_ok());
    }
}
