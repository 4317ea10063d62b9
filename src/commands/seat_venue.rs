//! A game's seated players: the venue that listens for their `goref seat`s,
//! or the event runner's relay that carries them.

use std::path::Path;
use std::path::PathBuf;

use crate::console;
use crate::driver::DriverConfig;
use crate::players::PlayerSpec;

/// Where a game's seated players are reached.
pub(super) enum SeatSource {
    /// The game listens itself (`--seats`), with its keys in `keys`;
    /// `asks_stderr` with `--seat-stderr`.
    Listen {
        listen: String,
        keys: PathBuf,
        asks_stderr: bool,
    },
    /// Through an event's runner, at its socket (`--seat-relay`).
    Relay(PathBuf),
}

/// The venue for the game's seated players, listening, with each seated
/// side's `goref seat` line printed and kept in the keys folder's
/// `commands.txt` (readable by its owner only: the lines hold the tokens),
/// and the line that tells the screen's operator where; none when no side
/// is seated or the seats are reached through an event's runner.
pub(super) async fn seat_venue(
    config: &mut DriverConfig,
    seats: Option<SeatSource>,
    folder: Option<&Path>,
) -> Result<(Option<crate::seats::venue::Venue>, Option<String>), String> {
    let entrants: Vec<String> = [&config.black, &config.white]
        .into_iter()
        .filter_map(|spec| match spec {
            PlayerSpec::Seat { entrant } => Some(entrant.clone()),
            _ => None,
        })
        .collect();
    if entrants.is_empty() {
        return Ok((None, None));
    }
    let (listen, folder, asks_stderr) = match seats {
        Some(SeatSource::Listen {
            listen,
            keys,
            asks_stderr,
        }) => (listen, keys, asks_stderr),
        Some(SeatSource::Relay(socket)) => {
            let links: Vec<_> = entrants
                .iter()
                .map(|entrant| crate::seats::relay::attach(&socket, entrant, folder))
                .collect();
            let feed = crate::seats::link::stream_to_seats(&seat_infos(config, &links));
            config.subscribers.push(feed);
            for link in links {
                config.seats.put(link);
            }
            return Ok((None, None));
        }
        None => {
            return Err(format!(
                "seat:{} plays through a seat: give --seats HOST:PORT to listen for it",
                entrants[0]
            ))
        }
    };
    let host = listen
        .rsplit_once(':')
        .map_or("localhost", |(host, _)| host);
    let names = vec![host.to_string(), "localhost".to_string()];
    let keys = crate::seats::keys::SeatKeys::load_or_make(&folder, &entrants, &names)
        .map_err(|e| e.to_string())?;
    let mut venue =
        crate::seats::venue::Venue::start(&listen, &keys, "goref play", asks_stderr).await?;
    let address = format!("{host}:{}", venue.address.port());
    let mut links = Vec::new();
    let mut commands = String::new();
    for entrant in &entrants {
        if let Some(line) = keys.command_line(&address, entrant) {
            console::say(format!(
                "goref: waiting for {entrant}'s seat: {line} PROGRAM..."
            ));
            commands.push_str(&format!("{line} PROGRAM...\n"));
        }
        links.extend(venue.take_link(entrant));
    }
    let kept = folder.join(SEAT_COMMANDS);
    crate::transport::tls::write_private(&kept, &commands)
        .map_err(|e| format!("cannot write {}: {e}", kept.display()))?;
    let message = format!("seats' commands in {}", kept.display());
    let feed = crate::seats::link::stream_to_seats(&seat_infos(config, &links));
    config.subscribers.push(feed);
    for link in links {
        config.seats.put(link);
    }
    Ok((Some(venue), Some(message)))
}

/// The file in the keys folder that keeps the seats' command lines.
pub(super) const SEAT_COMMANDS: &str = "commands.txt";

/// Each seated entrant's link with what its screen is told of the game:
/// the game's name when it has one (an event's board says its round, its
/// board and both entrants), else its colour and its opponent.
pub(super) fn seat_infos<'a>(
    config: &DriverConfig,
    links: &'a [crate::seats::link::SeatLink],
) -> Vec<(&'a crate::seats::link::SeatLink, String)> {
    let opponent = |spec: &PlayerSpec| spec.short_name();
    links
        .iter()
        .map(|link| {
            let seated = |spec: &PlayerSpec| {
                matches!(spec, PlayerSpec::Seat { entrant } if *entrant == link.entrant)
            };
            let info = match (&config.record.game_name, seated(&config.black)) {
                (Some(name), _) => name.clone(),
                (None, true) => format!("Black against {}", opponent(&config.white)),
                (None, false) => format!("White against {}", opponent(&config.black)),
            };
            (link, info)
        })
        .collect()
}
