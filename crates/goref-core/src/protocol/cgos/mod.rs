//! The CGOS protocol: the plain-text wire of the Computer Go Server, which
//! cgos-client-python, cgosGtp.tcl and CGF Goban speak
//! (`docs/seat.md`, "The CGOS dialect").
//!
//! [`wire`] holds its lines; [`CgosDoor`] is one CGOS client's connection
//! at the venue, which plays the client as a seat: the board asks it in
//! GTP, the door tells the client in CGOS.

mod door;
pub mod wire;

pub use door::{
    cgos_result, usable_ms, CgosDoor, DoorEvent, DoorSettings, Ended, Sides, ASSEMBLY_QUIET,
};
pub use wire::{Named, ServerLine, Setup};
