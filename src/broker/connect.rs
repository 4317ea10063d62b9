//! Every connection goref makes to a NATS broker: the publisher's
//! (`--publish`), a watcher's (`--watch nats://…`), a match's and a
//! worker's. One set of options: a bound on how long a connect may take,
//! the broker's credentials and CA ([`BrokerAuth`]), and the link's
//! changes handed to the caller as they happen (the client connects again
//! by itself after a drop).

use std::time::Duration;

use super::auth::BrokerAuth;

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
