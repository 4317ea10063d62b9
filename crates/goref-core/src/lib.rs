//! goref's pure core: everything a referee decides, with no I/O, no clock
//! and nothing async. The shell (the `goref` package) moves bytes and time
//! in and carries the decisions out; time comes in as `std::time::Instant`
//! values, never read here.
//!
//! Module map, from the ground up (a module uses only those before it):
//!
//! 1. [`game`]: Go itself. Coordinates, the board with captures, ko and
//!    superko, scoring, clocks and time systems, rules presets, SGF.
//! 2. [`protocol`]: the protocol machines. GTP's line codec and engine
//!    controller; GMP/SGMP packets, the link (sequence bits, resends) and
//!    the session; the 1987 Usenix referee's lines.
//!    [`tournament`]: an event's games, standings with the rules'
//!    tie-breaks, crosstables, Swiss and round-robin pairings, knockout
//!    brackets, and the hall's picture of an event.
//!    [`matches`](mod@matches): an engine-testing match's statistics:
//!    trinomial and pentanomial tallies, Elo with its error, nElo, LOS, the
//!    SPRT, and the seeded plan of openings and opponents.
//! 3. [`referee`]: the game's state machine. It turns what players say into
//!    [`referee::GameEvent`]s and actions, runs the KGS end-of-game
//!    protocol, and folds events into a [`referee::GameView`], the one
//!    reducer every screen and spectator draws from.

pub mod game;
pub mod matches;
pub mod protocol;
pub mod referee;
pub mod tournament;

#[cfg(any(test, feature = "test-support"))]
pub mod test_support;
