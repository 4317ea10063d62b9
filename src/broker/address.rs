//! Where a broker is and what on it, as a spectator or a publisher names
//! it: `nats://[USER:PASS@]HOST:PORT[/EVENT[/BOARD]]`, and the one rule
//! that turns a name into a subject's token.

use super::auth::{server_of, split_user, BrokerAuth};

/// Where a broker is, and what on it: `nats://HOST:PORT[/EVENT[/BOARD]]`,
/// with how to reach it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrokerAddress {
    /// `HOST:PORT`.
    pub server: String,
    /// The broker's credentials and CA, from `USER:PASS@` and the
    /// environment.
    pub auth: BrokerAuth,
    /// The event's (or game's) subject token, when the address names one.
    pub event: Option<String>,
    /// One board of an event's hall.
    pub board: Option<u32>,
}

impl BrokerAddress {
    /// Reads `nats://[USER:PASS@]HOST:PORT[/EVENT[/BOARD]]`; the port
    /// defaults to 4222, and what the address leaves out of the broker's
    /// credentials is taken from the environment ([`BrokerAuth::from_env`]).
    pub fn parse(url: &str) -> Result<BrokerAddress, String> {
        let bad = |why: &str| format!("{url}: {why} (e.g. nats://broker:4222/NAME)");
        let rest = url
            .strip_prefix("nats://")
            .ok_or_else(|| bad("not a nats:// address"))?;
        let (user, rest) = split_user(rest).map_err(bad)?;
        let auth = BrokerAuth {
            user,
            ..BrokerAuth::default()
        }
        .or(BrokerAuth::from_env());
        let mut parts = rest.split('/').filter(|part| !part.is_empty());
        let server = server_of(parts.next().unwrap_or_default()).map_err(bad)?;
        let event = parts.next().map(str::to_string);
        if let Some(event) = &event {
            if subject_token(event) != *event {
                return Err(bad("an event's name is letters, digits, '-' and '_'"));
            }
        }
        let board = match parts.next() {
            Some(board) => Some(
                board
                    .parse::<u32>()
                    .map_err(|_| bad("a board is a number"))?,
            ),
            None => None,
        };
        if parts.next().is_some() {
            return Err(bad("too many parts"));
        }
        Ok(BrokerAddress {
            server,
            auth,
            event,
            board,
        })
    }

    /// The address of `event` (and a board) on this broker, as announced.
    pub fn naming(&self, event: &str, board: Option<u32>) -> String {
        match board {
            Some(board) => format!("nats://{}/{event}/{board}", self.server),
            None => format!("nats://{}/{event}", self.server),
        }
    }
}

/// `name` as one token of a subject: letters, digits, `-` and `_` kept,
/// anything else `_`.
pub fn subject_token(name: &str) -> String {
    let token: String = name
        .chars()
        .map(
            |c| match c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                true => c,
                false => '_',
            },
        )
        .collect();
    match token.is_empty() {
        true => "_".into(),
        false => token,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_name_a_server_an_event_and_a_board() {
        let full = BrokerAddress::parse("nats://venue:4333/cup-2026/3").unwrap();
        assert_eq!(full.server, "venue:4333");
        assert_eq!(full.event.as_deref(), Some("cup-2026"));
        assert_eq!(full.board, Some(3));
        let bare = BrokerAddress::parse("nats://venue").unwrap();
        assert_eq!(bare.server, "venue:4222");
        assert_eq!(bare.event, None);
        assert_eq!(bare.naming("cup", Some(2)), "nats://venue:4222/cup/2");
        for bad in [
            "venue:4222",
            "nats://",
            "nats://venue:x/cup",
            "nats://venue/cup.final",
            "nats://venue/cup/two",
            "nats://venue/cup/2/3",
        ] {
            assert!(BrokerAddress::parse(bad).is_err(), "{bad} was taken");
        }
    }
}
