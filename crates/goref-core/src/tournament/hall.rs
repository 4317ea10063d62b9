//! The event as the hall shows it: the round under way, each of its
//! boards with its pair, its folder and where it stands, the director's
//! stage (a pairing to confirm, a round playing, the event over) and the
//! standings.
//!
//! The event runner draws this picture from its journal whenever the event
//! changes; the hall screen draws tiles from it and from each board's own
//! game view, and a spectator of the hall is sent it as it is. Pure data:
//! nothing here reads a folder or a clock.

use serde::{Deserialize, Serialize};

use super::knockout::Bracket;
use super::standings::Standings;

/// The whole event, as the hall shows it now.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct EventPicture {
    pub name: String,
    /// How many rounds the event has.
    pub rounds: u32,
    /// The round the boards belong to: the one playing, or the one just
    /// played while the next is being paired; 0 before the first.
    pub round: u32,
    pub stage: Stage,
    /// The round's boards, by number.
    pub boards: Vec<BoardPicture>,
    /// Who sits the round out.
    pub byes: Vec<String>,
    /// The standings of each division (one, unnamed, for most events).
    pub standings: Vec<(Option<String>, Standings)>,
    /// A knockout's bracket as it stands.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bracket: Option<Bracket>,
    /// The seated entrants' seats, in the entrants' order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seats: Vec<SeatPicture>,
}

/// One seated entrant's seat, as the director sees it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatPicture {
    pub entrant: String,
    pub connected: bool,
    /// When it connected or was lost, as the venue's clock read (`04:21 UTC`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since: Option<String>,
    /// The last round trip measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rtt_ms: Option<u64>,
    /// The program's name and version as it answered them, and the seat's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub program: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client: Option<String>,
    /// Its check card's summary (`ready`, `1 failure`), once run through
    /// the seat when it first connected; `checking…` meanwhile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<String>,
    /// Its check is running: its boards start once it is over.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub checking: bool,
}

/// What the event is doing.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "stage", rename_all = "snake_case")]
pub enum Stage {
    /// Starting: the journal is being read.
    #[default]
    Starting,
    /// The boards of `round` are playing.
    Playing,
    /// The next round's pairing waits for the director: its boards (none
    /// started) and byes as proposed.
    Pairing {
        round: u32,
        boards: Vec<BoardPicture>,
        byes: Vec<String>,
        /// The boards whose entrants met before.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        rematches: Vec<u32>,
        /// What the director should know before confirming.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        notes: Vec<String>,
    },
    /// Every round is played: the standings page.
    Over { standings_html: String },
    /// The runner stopped: why.
    Stopped { why: String },
}

/// One board of the round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardPicture {
    pub board: u32,
    pub black: String,
    pub white: String,
    /// The folder its game is played in, relative to the event's; none
    /// before it starts.
    pub dir: Option<String>,
    /// A goref plays it now.
    pub playing: bool,
    /// The result that counts, with why, once there is one.
    pub result: Option<String>,
    pub reason: Option<String>,
    /// Why the board waits for the director, if it does.
    pub needs_director: Option<String>,
    /// What its tile is titled in place of `board N` (a match's
    /// `pair 7 a`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

impl EventPicture {
    /// The board numbered `board`, if the round has it.
    pub fn board(&self, board: u32) -> Option<&BoardPicture> {
        self.boards.iter().find(|b| b.board == board)
    }
}
