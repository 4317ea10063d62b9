//! A match's play, shared by `goref match` (on this machine or through
//! workers) and `goref worker`, neither of which imports the other:
//!
//! - [`file`](mod@file): `DIR/match.toml`, read and checked, and its template.
//! - [`plan`]: which games, in which folders under `DIR/games/`, with which
//!   game files.
//! - [`games`]: `DIR/games/` itself: the one place that names, lists and
//!   reads the games' folders.
//! - [`kept`]: the programs kept across games, served to the games as
//!   seats of the runner's own.
//! - [`tally`]: the figures from the folders.
//! - [`picture`]: the match as a screen draws it: tiles and a panel.
//! - [`desk`]: what a match needs beside its desk (`crate::hall::desk`):
//!   its options, its stop heeded, its error.
//! - [`screen`]: the tiles of games in play on a terminal, for a match's
//!   runner or a worker's slots (the state `crate::hall::screen`'s loop
//!   draws).

pub mod desk;
pub mod file;
pub mod games;
pub mod kept;
pub mod picture;
pub mod plan;
pub mod screen;
pub mod tally;
