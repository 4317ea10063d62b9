//! What the event's runner and its boards' gorefs say of the seats, on
//! the runner's side of the relay: the news a board is told of its
//! entrant's seat, the director's picture of every seat, and the venue's
//! clock as the director reads it. The relay and the keepers both speak
//! it, so it stands on its own.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::link::SeatNews;
use goref_core::protocol::seat::{ProgramState, Right};
use goref_core::tournament::hall::SeatPicture;

/// What the runner tells a board of its entrant's seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(crate) enum ToBoard {
    Admitted {
        client: String,
    },
    Answer {
        text: String,
        think_ms: u64,
        venue_ms: u64,
    },
    Output {
        text: String,
    },
    Operator {
        right: Right,
    },
    Program {
        state: ProgramState,
        detail: String,
    },
    RoundTrip {
        ms: u64,
    },
    Lost {
        why: String,
        replaced: bool,
    },
    Stderr {
        line: String,
    },
}

impl From<SeatNews> for ToBoard {
    fn from(news: SeatNews) -> ToBoard {
        let ms = |d: Duration| d.as_millis() as u64;
        match news {
            SeatNews::Admitted { client } => ToBoard::Admitted { client },
            SeatNews::Answer {
                text,
                think,
                venue_measure,
            } => ToBoard::Answer {
                text,
                think_ms: ms(think),
                venue_ms: ms(venue_measure),
            },
            SeatNews::Output(text) => ToBoard::Output { text },
            SeatNews::Operator(right) => ToBoard::Operator { right },
            SeatNews::Program { state, detail } => ToBoard::Program { state, detail },
            SeatNews::RoundTrip(trip) => ToBoard::RoundTrip { ms: ms(trip) },
            SeatNews::Lost { why, replaced } => ToBoard::Lost { why, replaced },
            SeatNews::VenueAway(why) => ToBoard::Lost {
                why,
                replaced: false,
            },
            SeatNews::Stderr(line) => ToBoard::Stderr { line },
        }
    }
}

impl From<ToBoard> for SeatNews {
    fn from(news: ToBoard) -> SeatNews {
        let ms = Duration::from_millis;
        match news {
            ToBoard::Admitted { client } => SeatNews::Admitted { client },
            ToBoard::Answer {
                text,
                think_ms,
                venue_ms,
            } => SeatNews::Answer {
                text,
                think: ms(think_ms),
                venue_measure: ms(venue_ms),
            },
            ToBoard::Output { text } => SeatNews::Output(text),
            ToBoard::Operator { right } => SeatNews::Operator(right),
            ToBoard::Program { state, detail } => SeatNews::Program { state, detail },
            ToBoard::RoundTrip { ms: trip } => SeatNews::RoundTrip(ms(trip)),
            ToBoard::Lost { why, replaced } => SeatNews::Lost { why, replaced },
            ToBoard::Stderr { line } => SeatNews::Stderr(line),
        }
    }
}

/// Every seat as the director sees it, kept up to date by the relay.
pub type SeatBoard = Arc<Mutex<BTreeMap<String, SeatPicture>>>;

/// The runner's end of a board's socket.
pub(crate) type BoardWriter = tokio::net::unix::OwnedWriteHalf;

/// The venue's clock as the director reads it: `04:21 UTC`.
pub(crate) fn clock_text() -> String {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    format!("{:02}:{:02} UTC", seconds / 3600 % 24, seconds / 60 % 60)
}
