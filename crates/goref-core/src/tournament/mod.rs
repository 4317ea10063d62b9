//! The tournament's pure core: an event's games, its standings with the
//! rules' tie-breaks, and the crosstable they print as.
//!
//! - [`games`]: the list of games (`round,black,white,result`) and the SGF
//!   results it holds.
//! - [`standings`]: score, SOS, SOSOS, SODOS, trimmed SODOS, head-to-head
//!   and the pairing number, ranked by a chain of them.
//! - [`crosstable`]: the standings as a table fitted to a width, CSV and
//!   JSON.
//! - [`round_robin`]: the Berger tables.
//! - [`swiss`]: the next round of a Swiss from the standings so far.
//! - [`knockout`]: a single-elimination bracket from seeds and games.
//! - [`hall`]: the event as the hall screen and its spectators see it.
//! - [`game_name`]: the name of each game, as its record and its seats read it.

pub mod crosstable;
pub mod game_name;
pub mod games;
pub mod hall;
pub mod knockout;
pub mod round_robin;
pub mod standings;
pub mod swiss;

#[cfg(test)]
mod tests;
