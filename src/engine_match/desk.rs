//! Where a match, local or played by workers, says how it goes and hears
//! that it must stop ([`MatchDesk`]), the terminal's desk of `--headless`
//! ([`Headless`]), and how it is shown ([`MatchOptions`]).

use crate::console;

use super::picture::MatchPicture;

/// How the match is shown.
#[derive(Debug, Clone, Default)]
pub struct MatchOptions {
    /// The figures as a JSON line after each finished game, on stdout.
    pub json: bool,
    /// The games played by `goref worker`s through this broker, not here.
    pub workers: Option<super::queue::BrokerLink>,
    /// With `workers`: the match's own worker plays this many games at
    /// once here too.
    pub slots: Option<usize>,
}

/// Where the runner tells how the match goes, and hears that it must stop.
pub trait MatchDesk: Send + Sync {
    /// A progress line.
    fn say(&self, line: String);
    /// Whether the desk draws pictures: the runner makes none otherwise.
    fn wants_pictures(&self) -> bool {
        false
    }
    /// The games in play and the figures, after each change.
    fn show(&self, _picture: MatchPicture) {}
    /// Why the match must stop now, if it must.
    fn stop_asked(&self) -> Option<String>;
}

/// The terminal's desk: progress lines on stderr; Ctrl-C and SIGTERM stop
/// the match, a hangup does not.
pub struct Headless;

impl MatchDesk for Headless {
    fn say(&self, line: String) {
        console::say(line);
    }

    fn stop_asked(&self) -> Option<String> {
        crate::event::desk::stop_asked().map(|signal| match signal {
            libc::SIGTERM => "goref received SIGTERM".to_string(),
            _ => "goref received SIGINT (Ctrl-C)".to_string(),
        })
    }
}
