//! goref: a terminal referee for computer Go tournaments.
//!
//! Module map, in the direction data flows (see DESIGN.md §1):
//!
//! - [`game`]: pure Go. Coordinates, the board with captures, ko and superko,
//!   scoring, clocks and time systems, rules presets, SGF.
//! - [`protocol`]: pure protocol machines. GTP line codec and engine
//!   controller; GMP/SGMP packets, link (sequence bits, resends) and session.
//! - [`referee`]: the pure game state machine. It turns player events into
//!   [`referee::GameEvent`]s and actions, runs the KGS end-of-game protocol,
//!   and folds events into a [`referee::GameView`].
//! - [`bot`]: the built-in engine, spoken to over GTP like any other.
//! - [`transport`], [`players`], [`driver`]: the async shell. Processes, the
//!   player adapters, and the loop that moves bytes and time into the cores.
//! - [`check`]: `goref check`, a program's conformance card, built from the
//!   player adapters and protocol sessions a game uses.
//! - [`cli`], [`config`]: the command line and the game file; [`decode`]:
//!   GMP captures and traces back into readable packet lines; [`replay`]:
//!   a trace read back through the stream validator
//!   ([`referee::replay`]) and the reducer.
//! - [`ui`]: the screen, as pure render functions of a
//!   [`referee::GameView`]; the host and its spectators draw with the same ones.
//!   [`app`]: the async shell around it: the terminal, keys, the live loop,
//!   a spectator's screen.
//! - [`mirror`]: the game served to read-only spectators (`--serve`) and
//!   followed by them (`--watch`): a pure hub, gate and spectator side, and
//!   their async shells.
//! - [`journal`]: the game folder: the durable journal of every event, read
//!   back by `goref resume`, and the manifest of a finished game.
//! - [`files`]: every file goref writes is checked, claimed and replaced
//!   atomically there; [`console`]: every line goref prints, never panicking
//!   on a closed pipe.
//!
//! Dependency rules, checked by `tests/architecture.rs`:
//!
//! - `game`, `referee` and `protocol` use no tokio, crossterm or ratatui, and
//!   never read the clock: time is passed in as `std::time::Instant`.
//! - `ui` never touches a transport.
//! - Only `app`, `players`, `transport`, `driver`, `mirror` and `check` are
//!   async;
//!   they read time through [`shell_time`], tokio's clock as std instants.

pub mod app;
pub mod bot;
pub mod check;
pub mod cli;
pub mod config;
pub mod console;
pub mod decode;
pub mod driver;
pub mod files;
pub mod game;
pub mod journal;
pub mod mirror;
pub mod players;
pub mod protocol;
pub mod referee;
pub mod replay;
pub mod shell_time;
#[cfg(test)]
mod test_support;
pub mod transport;
pub mod ui;
