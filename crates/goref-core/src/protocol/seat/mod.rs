//! The seat's wire: how a program on its owner's machine is played from the
//! venue (`goref seat`, documented for other implementations in
//! `docs/seat.md`).
//!
//! A seat dials the venue over TLS and says who it is ([`SeatMessage::Hello`]);
//! the venue checks the entrant's token ([`Tokens`]) and from then on sends
//! GTP command lines ([`VenueMessage::Command`]), which the seat hands to its
//! program and answers with the program's response and how long the program
//! took ([`SeatMessage::Answer`]). Both sides are sans-IO machines here:
//! [`VenueSide`] for one connection at the venue (handshake, keepalive,
//! round-trip time, bounds), [`Relay`] for the seat's side of its program
//! (stamps and framing). [`charged`] is the rule that turns a seat's stamp
//! into the time its clock is charged.

mod relay;
mod tokens;
mod venue;
mod wire;

pub use relay::Relay;
pub use tokens::{Tokens, TokensError};
pub use venue::{VenueEvent, VenueSide, HELLO_WAIT, LOST_AFTER, PING_EVERY};
pub use wire::{
    charged, decode, encode, is_move_request, LineSplitter, ProgramState, Right, SeatMessage,
    VenueMessage, WireError, MAX_LINE, PROTOCOL_VERSION, STDERR_LINES_PER_SECOND,
    STDERR_LINE_CHARS,
};
