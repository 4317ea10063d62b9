//! The spectator mirror (DESIGN.md §5): the referee serves its game's
//! stream to read-only spectators, who fold it with the same reducer and
//! draw it with the same `ui::draw` at their own terminal size.
//!
//! - [`wire`]: the protocol, versioned JSON lines.
//! - [`hub`], [`gate`], [`audience`]: pure. The served stream with its
//!   history and snapshot; who may connect; who watches, coalesced into
//!   `spectators` events. [`hall_hub`]: pure, an event's hall served
//!   (`goref event DIR --serve`): its picture and every board's game.
//! - [`server`]: the async shell on a thread of its own, at a lower
//!   priority than the referee, which it never waits for and never slows.
//! - [`client`]: pure. A spectator's side: the view, the stream it follows,
//!   its delay behind the referee, reconnecting with back-off.
//! - [`follow`]: the async shell around [`client`]: connecting, pinging,
//!   reconnecting.
//! - [`accept_trouble`]: pure. A listener that cannot accept: its
//!   back-off, and the one message that tells the run of failures.
//! - [`lines`]: reading a peer's lines with a cap on their length.
//! - [`conn`]: a connection over TCP (`--serve`), the game folder's Unix
//!   socket (`goref attach`), where the operator's commands come in, or a
//!   browser's WebSocket.
//! - [`outlet`], [`publisher`], [`broker_watch`]: the stream published to a
//!   NATS JetStream broker (`--publish`), and followed from it (`--watch
//!   nats://…`): the pure queue and subjects, and the two async shells,
//!   which connect through [`crate::broker`].
//!   [`pace`]: pure. How often the events are read while only the broker
//!   watches.
//! - [`web`]: the page for browsers (`--web`), a spectator over a WebSocket.

pub mod accept_trouble;
pub mod audience;
pub mod broker_watch;
pub mod client;
pub mod conn;
pub mod follow;
pub mod gate;
pub mod hall_hub;
pub mod hub;
pub mod lines;
pub mod outlet;
pub mod pace;
pub mod publisher;
pub mod server;
pub mod web;
pub mod wire;
