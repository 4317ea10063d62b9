//! Every connection goref makes to a NATS broker: the publisher's
//! (`--publish`), a watcher's (`--watch nats://…`), a match's and a
//! worker's. One set of options: a bound on how long a connect may take,
//! the broker's credentials and CA ([`BrokerAuth`]), and the link's
//! changes handed to the caller as they happen (the client connects again
//! by itself after a drop, trying at least every [`REDIAL_WITHIN`]).

use std::time::Duration;

use super::auth::BrokerAuth;

/// The longest the client waits between two tries to connect again (the
/// client's own default grows to 4 s): after a broker returns, every
/// worker is back within about this, so a worker that takes a job handed
/// out again can wait to hear whether another still plays it.
pub(crate) const REDIAL_WITHIN: Duration = Duration::from_secs(1);

/// What the caller wants of the connection besides its address.
#[derive(Debug, Clone)]
pub(crate) struct Dial<'a> {
    /// The client's name, as the broker lists its connections.
    pub(crate) name: &'a str,
    /// How long one connect may take.
    pub(crate) within: Duration,
    /// How often the client asks whether the link still carries; the
    /// client's own default (minutes) when none.
    pub(crate) ping_every: Option<Duration>,
}

/// Why no connection was made.
#[derive(Debug)]
pub(crate) enum NotConnected {
    /// The credentials or the CA could not be read: no try will mend it.
    Auth(String),
    /// The broker was not reached, or refused.
    Connect(async_nats::ConnectError),
}

/// Connects to `server` (`HOST:PORT`) with `auth`; `on_link` hears `true`
/// each time the link is up and `false` each time it drops.
pub(crate) async fn connect(
    server: &str,
    auth: &BrokerAuth,
    dial: Dial<'_>,
    on_link: impl Fn(bool) + Send + Sync + 'static,
) -> Result<async_nats::Client, NotConnected> {
    let mut options = async_nats::ConnectOptions::new()
        .name(dial.name)
        .connection_timeout(dial.within)
        .reconnect_delay_callback(redial_delay)
        .event_callback(move |event| {
            let up = match event {
                async_nats::Event::Connected => Some(true),
                async_nats::Event::Disconnected => Some(false),
                _ => None,
            };
            if let Some(up) = up {
                on_link(up);
            }
            async {}
        });
    if let Some(every) = dial.ping_every {
        options = options.ping_interval(every);
    }
    auth.apply(options)
        .await
        .map_err(NotConnected::Auth)?
        .connect(server)
        .await
        .map_err(NotConnected::Connect)
}

/// The wait before the `attempts`-th try to connect again: none for the
/// first, then doubling from 2 ms up to [`REDIAL_WITHIN`].
fn redial_delay(attempts: usize) -> Duration {
    match attempts {
        0 | 1 => Duration::ZERO,
        n => {
            let doubled = 2u64.saturating_pow(u32::try_from(n - 1).unwrap_or(u32::MAX));
            Duration::from_millis(doubled).min(REDIAL_WITHIN)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redials_come_at_once_then_double_up_to_the_bound() {
        assert_eq!(redial_delay(1), Duration::ZERO);
        assert_eq!(redial_delay(2), Duration::from_millis(2));
        assert_eq!(redial_delay(5), Duration::from_millis(16));
        assert_eq!(redial_delay(11), REDIAL_WITHIN);
        assert_eq!(redial_delay(usize::MAX), REDIAL_WITHIN);
    }
}
