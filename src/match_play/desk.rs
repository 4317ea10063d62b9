//! What a match's runner, local or played by workers, needs of its desk
//! (`crate::hall::desk`, shown [`MatchPicture`]s) beside it: how it is
//! shown ([`MatchOptions`]), whether its desk asked it to stop
//! (`Heeded`), and how it ended when it has no figures to give
//! ([`MatchError`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::hall::desk::Desk;

use super::picture::MatchPicture;

/// How the match is shown.
#[derive(Debug, Clone, Default)]
pub struct MatchOptions {
    /// The figures as a JSON line after each finished game, on stdout.
    pub json: bool,
    /// The games played by `goref worker`s through this broker, not here.
    pub workers: Option<crate::broker::work::BrokerLink>,
    /// With `workers`: the match's own worker plays this many games at
    /// once here too.
    pub slots: Option<usize>,
}

/// Why a match gave no figures.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MatchError {
    /// Its player stopped it (`q`, Ctrl-C, SIGTERM, the terminal gone): its
    /// games play on in their gorefs, or stay with the workers, for the
    /// next `goref match DIR`.
    #[error("{0}")]
    Stopped(String),
    /// It could not go on: its file, an engine's check, a game's failure.
    #[error("{0}")]
    Failed(String),
}

impl From<String> for MatchError {
    fn from(why: String) -> MatchError {
        MatchError::Failed(why)
    }
}

/// A desk that remembers whether it told its runner to stop, so that the
/// runner's error can be told from a failure.
pub(crate) struct Heeded {
    desk: Box<dyn Desk<MatchPicture>>,
    told: Arc<AtomicBool>,
}

impl Heeded {
    pub(crate) fn new(desk: Box<dyn Desk<MatchPicture>>) -> (Heeded, Arc<AtomicBool>) {
        let told = Arc::new(AtomicBool::new(false));
        let heeded = Heeded {
            desk,
            told: Arc::clone(&told),
        };
        (heeded, told)
    }

    /// The runner's `end`, its error a stop if the desk asked for one.
    pub(crate) fn ended<T>(told: &AtomicBool, end: Result<T, String>) -> Result<T, MatchError> {
        end.map_err(|why| match told.load(Ordering::SeqCst) {
            true => MatchError::Stopped(why),
            false => MatchError::Failed(why),
        })
    }
}

impl Desk<MatchPicture> for Heeded {
    fn say(&self, line: String) {
        self.desk.say(line);
    }

    fn wants_pictures(&self) -> bool {
        self.desk.wants_pictures()
    }

    fn show(&self, picture: MatchPicture) {
        self.desk.show(picture);
    }

    fn stop_asked(&self) -> Option<String> {
        let asked = self.desk.stop_asked();
        if asked.is_some() {
            self.told.store(true, Ordering::SeqCst);
        }
        asked
    }
}
