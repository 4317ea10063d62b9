//! The Go Modem Protocol on a serial line, full GMP and the CGF simplified
//! variant SGMP (`reference/sgmp.md`).
//!
//! Three layers, each without IO: [`packet`] encodes the 4-byte packet and
//! finds packets among talk characters in the byte stream; [`link`] keeps one
//! line's sequence bits, acknowledgements and resends, and traces what is not
//! a packet through [`noise`], each line a [`trace`] entry; [`session`] plays the referee's side of the
//! handshake and relays moves on one line. [`timing`] says when a line
//! program's turn starts and ends, from the line's rate and what its
//! answers show of its speed.

pub mod continued;
pub mod link;
pub mod noise;
pub mod packet;
pub mod session;
#[cfg(test)]
mod sim;
pub mod timing;
pub mod trace;

pub use link::{Direction, Link, LinkConfig, LinkEvent, LinkState, TraceEntry, TraceFlag};
pub use packet::{
    describe, hex, Command, Deframer, Frame, Packet, PacketError, Query, MAX_VALUE, OK_VALUE,
};
pub use session::{LineMemory, Profile, Session, SessionConfig, SessionEvent, SetupWait};
