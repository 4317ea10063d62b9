//! goref: a terminal referee for computer Go tournaments.
//!
//! The pure core is a crate of its own, [`goref_core`]: Go's rules, clocks
//! and SGF, the protocol machines, a tournament's pairings, standings and
//! brackets, a match's statistics, and the referee's state machine and
//! reducer. It has no I/O, no clock and nothing async; the compiler holds it
//! beneath everything here, and the shell names it `goref_core::`, so that
//! the crate boundary shows at every use.
//!
//! The shell's rooms, their layers (a room imports only from the core and
//! from lower layers, so that no command imports another), what each owns
//! and the words used across them are in `ARCHITECTURE.md` at the
//! repository's root; `tests/it/architecture.rs` holds the code to it.

#[cfg(test)]
mod test_support;

pub mod app;
pub(crate) mod boards;
pub mod bot;
pub mod broker;
pub mod cgos_seat;
pub(crate) mod check;
pub mod cli;
pub mod commands;
pub mod config;
pub mod console;
pub(crate) mod decode;
pub mod driver;
pub(crate) mod engine_match;
pub mod event;
pub(crate) mod files;
pub(crate) mod hall;
pub mod journal;
pub(crate) mod manual;
pub mod match_play;
pub mod mirror;
pub mod players;
pub(crate) mod replay;
pub mod seats;
pub mod shell_time;
pub(crate) mod signals;
pub(crate) mod toml_errors;
pub mod transport;
pub mod ui;
pub(crate) mod worker;
