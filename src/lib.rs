//! goref: a terminal referee for computer Go tournaments.
//!
//! The pure core is a crate of its own, `goref-core`: Go's rules, clocks
//! and SGF ([`game`]), the protocol machines ([`protocol`]), a tournament's
//! pairings, standings and brackets ([`tournament`]) and the referee's state
//! machine and reducer ([`referee`]), re-exported here under the same
//! names. It has no I/O, no clock and nothing async; the compiler holds it
//! beneath everything below.
//!
//! Module map of this crate, the shell, from the ground up. A module uses
//! only the core and modules of lower layers, never one of its own layer or
//! above: `tests/architecture.rs` holds the code to this list.
//!
//! Layers, lowest first:
//! 1. shell_time, console, files, toml_errors
//! 2. transport
//! 3. bot, seats
//! 4. journal, players, ui, decode
//! 5. mirror, check
//! 6. driver, cli
//! 7. config, manual
//! 8. app, event
//! 9. replay, hall
//! 10. engine_match
//! 11. worker
//!
//! 1. [`shell_time`]: the shell's clock and the waits its loops are made of;
//!    [`console`]: every line goref prints, never panicking on a closed
//!    pipe; [`files`]: every file goref writes, checked, claimed and replaced
//!    atomically; [`toml_errors`]: a TOML file's error as one line.
//! 2. [`transport`]: processes, serial lines, ptys and TCP, the async byte
//!    movers that know nothing of Go.
//! 3. [`bot`]: the built-in engine, spoken to over GTP or a line like any
//!    other program. [`seats`]: programs on their owners' machines, over
//!    TLS: the venue's listener and keys, and `goref seat`, the entrant's
//!    side.
//! 4. [`journal`]: the game folder: the durable journal of every event, read
//!    back by `goref resume`, and the manifest of a finished game.
//!    [`players`]: the player adapters, one per protocol. [`ui`]: the screen,
//!    as pure render functions of a [`referee::GameView`]; the host and its
//!    spectators draw with the same ones. [`decode`]: GMP captures and traces
//!    back into readable packet lines.
//! 5. [`mirror`]: the game served to read-only spectators (`--serve`) and
//!    followed by them (`--watch`): a pure hub, gate and spectator side, and
//!    their async shells. [`check`]: `goref check`, a program's conformance
//!    card, built from the player adapters and protocol sessions a game uses.
//! 6. [`driver`]: the loop that moves bytes and time into the referee and
//!    its events to the folder, the outputs and the mirror. [`cli`]: the
//!    command line.
//! 7. [`config`]: the game file merged with the command line, into a
//!    [`driver::DriverConfig`]. [`manual`]: the man page and the shells'
//!    completion scripts, generated from [`cli`].
//! 8. [`app`]: the async shell around [`ui`]: the terminal, keys, the live
//!    loop, a spectator's screen. [`event`]: a tournament in one folder,
//!    from its event file.
//! 9. [`replay`]: a trace read back through the stream validator
//!    ([`referee::replay`]) and the reducer, on the screen. [`hall`]: `goref
//!    event DIR` on a terminal, every board of the round on one screen.
//! 10. [`engine_match`]: `goref match`, an engine author's match of
//!     colour-swapped pairs, its games played as an event's boards are, or
//!     by workers on other machines through a broker.
//! 11. [`worker`]: `goref worker`, a machine that plays matches' pairs
//!     handed out through the broker.
//!
//! Dependency rules, checked by `tests/architecture.rs`:
//!
//! - The core (`game`, `protocol`, `tournament`, `referee`, `matches`) names no tokio,
//!   crossterm, ratatui, axum or async-nats in its manifest, and never reads
//!   the clock: time is passed in as `std::time::Instant`.
//! - `ui` never touches a transport.
//! - Only `app`, `players`, `transport`, `driver`, `mirror`, `check`,
//!   `hall`, `engine_match` (its broker) and `worker` are async;
//!   they read time through [`shell_time`], tokio's clock as std instants.

pub use goref_core::{game, matches, protocol, referee, tournament};
#[cfg(test)]
mod test_support;

pub mod app;
pub mod bot;
pub mod check;
pub mod cli;
pub mod config;
pub mod console;
pub mod decode;
pub mod driver;
pub mod engine_match;
pub mod event;
pub mod files;
pub mod hall;
pub mod journal;
pub mod manual;
pub mod mirror;
pub mod players;
pub mod replay;
pub mod seats;
pub mod shell_time;
pub mod toml_errors;
pub mod transport;
pub mod ui;
pub mod worker;
