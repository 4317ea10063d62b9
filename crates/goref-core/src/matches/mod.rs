//! The statistics of an engine-testing match, as fastchess, cutechess and
//! fishtest keep them: games are played in colour-swapped pairs (one
//! opening, each engine Black once), and every figure is the candidate's.
//!
//! - [`stats`]: the trinomial and pentanomial tallies and their figures:
//!   score, Elo ± its 95 % error, normalized Elo, likelihood of
//!   superiority.
//! - [`sprt`]: the sequential probability ratio test: settings, bounds,
//!   and the log-likelihood ratio under the logistic or normalized model.
//! - [`schedule`]: which opening, and in a gauntlet which opponent, each
//!   pair plays, reproducibly from a seed.
//! - [`openings`]: the openings themselves, from SGF or a seeded generator.
//! - [`ledger`]: the games counted as they end, whole pairs, and the stop
//!   rule: the pairs asked for, or the SPRT's first decision.
//! - [`jobs`]: a match played by workers elsewhere: the job and result
//!   messages and the book that counts each pair once.
//! - [`local_runner`]: a match played here, `boards` games at once, as a
//!   state machine: which game starts when and in which folder, from the
//!   folders read back and the gorefs' ends, until the stop rule says so.
//! - [`supervisor`]: the rules of a match played by workers, without the
//!   broker: what to publish, withdraw, count or give up, as actions.
//! - [`worker`]: the rules of a worker, without the broker: which job a
//!   slot takes or hands back, when a job held says it lives, and what
//!   follows its games.

pub mod jobs;
pub mod ledger;
pub mod local_runner;
pub mod openings;
pub mod schedule;
pub mod sprt;
pub mod stats;
pub mod supervisor;
pub mod worker;

pub use ledger::{Decision, Ledger, Recorded, Step, StopRule};
pub use schedule::{gauntlet_opponent, OpeningOrder, Openings};
pub use sprt::{Sprt, SprtError, SprtModel, SprtSettings, SprtState};
pub use stats::{Figures, Outcome, Pentanomial, Trinomial};

#[cfg(test)]
mod tests;
