//! `--serve`, `--web` and `--publish`, shared by `goref play` and `goref
//! event`: the mirror started before the game, and where it publishes.

use crate::broker::address::subject_token;
use crate::broker::address::BrokerAddress;
use crate::cli::SpectatorArgs;
use crate::console;
use crate::event::file::PublishSettings;
use crate::mirror::gate::Limits;
use crate::mirror::outlet::OutletLimits;
use crate::mirror::publisher::PublishConfig;
use crate::mirror::publisher::StreamSettings;
use crate::mirror::server::MirrorServer;
use crate::mirror::server::ServeConfig;

/// The token from `GOREF_TOKEN`, which keeps it out of `ps`.
pub(super) fn token_from_environment() -> Option<String> {
    std::env::var("GOREF_TOKEN").ok().filter(|t| !t.is_empty())
}

/// `--serve` and `--publish`: the mirror, listening before the game starts
/// so that a busy port is a message, not a game without its spectators,
/// and publishing the stream as `name` (unless the address names it) into
/// the stream `settings` give.
pub(super) fn serve(
    args: &SpectatorArgs,
    queue: usize,
    name: &str,
    settings: &PublishSettings,
) -> Result<Option<MirrorServer>, String> {
    if args.token.is_some() && args.serve.is_none() && args.web.is_none() {
        return Err("--token guards --serve and --web: give one of them (a NATS broker keeps its own users)".into());
    }
    if args.serve.is_none() && args.publish.is_none() && args.web.is_none() {
        return Ok(None);
    }
    if !(args.connect_rate.is_finite() && args.connect_rate > 0.0) {
        return Err("--connect-rate must be a number of connects a second above 0".into());
    }
    if args.max_spectators == 0 {
        return Err("--max-spectators must be at least 1".into());
    }
    let token = args.token.clone().or_else(token_from_environment);
    let publish = args
        .publish
        .as_deref()
        .map(|url| publish_config(url, name, settings))
        .transpose()?;
    let config = ServeConfig {
        address: args.serve.clone(),
        publish: publish.clone(),
        web: args.web.clone(),
        token: token.clone(),
        limits: Limits {
            queue,
            max_spectators: args.max_spectators,
            connect_rate: args.connect_rate,
            connect_burst: (2.0 * args.connect_rate).max(1.0),
            ..Limits::default()
        },
        ..ServeConfig::default()
    };
    let mirror = MirrorServer::start(config).map_err(|e| e.to_string())?;
    if let Some(address) = mirror.address() {
        let with_token = if token.is_some() { " --token …" } else { "" };
        console::say(format!(
            "goref: serving spectators on {address}: goref --watch HOST:{}{with_token}",
            address.port()
        ));
    }
    if let Some(address) = mirror.web_address() {
        let (first, then) = match token {
            Some(_) => ("?token=…", "&"),
            None => ("", "?"),
        };
        console::say(format!(
            "goref: the page for browsers is at http://{address}/{first} (projector: http://{address}/{first}{then}projector)"
        ));
    }
    if let Some(publish) = &publish {
        console::say(format!(
            "goref: publishing to nats://{} (JetStream stream {}): goref --watch {}",
            publish.server,
            publish.stream.name,
            publish.watch_address()
        ));
    }
    Ok(Some(mirror))
}

/// `--publish URL`: where, under which name, into which stream.
pub(super) fn publish_config(
    url: &str,
    name: &str,
    settings: &PublishSettings,
) -> Result<PublishConfig, String> {
    let address = BrokerAddress::parse(url).map_err(|e| format!("--publish {e}"))?;
    if address.board.is_some() {
        return Err(format!(
            "--publish {url}: a board is named by the event, not given: nats://HOST:PORT[/NAME]"
        ));
    }
    Ok(PublishConfig {
        server: address.server,
        auth: address.auth,
        event: address.event.unwrap_or_else(|| subject_token(name)),
        stream: StreamSettings {
            name: settings.stream.clone(),
            max_age: settings.max_age,
            max_bytes: i64::try_from(settings.max_megabytes.saturating_mul(1 << 20))
                .unwrap_or(i64::MAX),
        },
        limits: OutletLimits {
            snapshot_every: settings.snapshot_every,
            ..OutletLimits::default()
        },
    })
}
