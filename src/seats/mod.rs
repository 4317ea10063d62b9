//! Seats: programs that run on their owners' machines, played from the
//! venue over TLS (`docs/seat.md`). [`keys`] keeps the venue's certificate
//! and the entrants' tokens; [`venue`] listens for seats and hands each
//! entrant's connection to the player that plays it, as a [`link::SeatLink`];
//! [`client`] is `goref seat`, the entrant's side, which runs the program
//! and relays, with its entrant's token from [`token`]. In an event, [`relay`] joins the runner's seats to the
//! boards' processes, and [`keeper`] keeps each seat between rounds and has
//! it checked when it first connects. `local` is a program of the
//! runner's own kept as a seat across games. [`cgos`] is the CGOS door: a
//! plain-TCP listener that plays an entrant's CGOS client as its seat, and
//! `slots` what both listeners fill. The protocols themselves are the pure
//! machines in [`goref_core::protocol::seat`] and
//! [`goref_core::protocol::cgos`].

mod board_news;
pub mod cgos;
pub mod client;
pub mod keeper;
pub mod keys;
pub mod link;
pub(crate) mod local;
pub mod relay;
mod slots;
pub mod token;
pub mod venue;
