//! The desk: where every runner of boards (the event's, a match's, local
//! or through workers, a worker's) says what happens, shows its picture,
//! asks its director and hears that it must stop ([`Desk`], generic over
//! the picture), and the terminal's desk of `--headless` ([`Terminal`]:
//! lines on stderr, the prompt on stdin, Ctrl-C and SIGTERM as the reason
//! to stop). A screen's desk is [`super::screen`]'s.

use std::io::BufRead;
use std::time::Duration;

use crate::console;
use crate::signals::catch_stop_signals;

/// Where a runner tells what happens, shows a picture `P` of it, asks what
/// to do and hears that it must stop.
pub(crate) trait Desk<P>: Send + Sync {
    /// A progress line.
    fn say(&self, line: String);
    /// The standings between rounds, as lines of text.
    fn standings(&self, lines: Vec<String>) {
        for line in lines {
            self.say(line);
        }
    }
    /// Whether the desk draws pictures: the runner makes none otherwise.
    fn wants_pictures(&self) -> bool {
        false
    }
    /// The runner as it stands now, after each change.
    fn show(&self, _picture: P) {}
    /// Why the runner must stop now, if it must.
    fn stop_asked(&self) -> Option<String>;
    /// The director's answer to a question whose lines are `shown`; none
    /// to stop. A desk with no one to ask answers none.
    fn ask(&self, _shown: Vec<String>) -> Option<String> {
        None
    }
    /// Like [`Desk::ask`], but a desk that shows the runner live may come
    /// back after `wait` with no answer yet, for the runner to show what
    /// changed meanwhile and ask again.
    fn ask_within(&self, shown: Vec<String>, _wait: Duration) -> Asked {
        match self.ask(shown) {
            Some(answer) => Asked::Answer(answer),
            None => Asked::Quit,
        }
    }
}

/// What [`Desk::ask_within`] heard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Asked {
    Answer(String),
    /// The director stops the runner.
    Quit,
    /// Nothing yet: ask again.
    NotYet,
}

/// The terminal's desk: progress lines on stderr, questions on stdin (the
/// stop signals ending goref at once while it reads, as a read would not be
/// woken by a caught one), and Ctrl-C or SIGTERM caught by
/// [`catch_stop_signals`] as the reason to stop; a hangup is not one.
pub(crate) struct Terminal;

impl<P> Desk<P> for Terminal {
    fn say(&self, line: String) {
        console::say(line);
    }

    fn stop_asked(&self) -> Option<String> {
        crate::signals::stop_asked().map(|signal| stop_reason(signal).to_string())
    }

    fn ask(&self, shown: Vec<String>) -> Option<String> {
        for line in shown {
            console::say(line);
        }
        catch_stop_signals(false);
        let answer = read_answer();
        catch_stop_signals(true);
        answer
    }
}

/// Why a runner at the terminal stops, for the stop `signal` caught.
fn stop_reason(signal: libc::c_int) -> &'static str {
    match signal {
        libc::SIGTERM => "goref received SIGTERM",
        _ => "goref received SIGINT (Ctrl-C)",
    }
}

/// One line of the director's answer; none at the end of input.
fn read_answer() -> Option<String> {
    let mut line = String::new();
    match std::io::stdin().lock().read_line(&mut line) {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(line.trim().to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A desk that only says, and was asked to stop.
    struct Stopped;

    impl Desk<u32> for Stopped {
        fn say(&self, _line: String) {}

        fn stop_asked(&self) -> Option<String> {
            Some("stop".into())
        }
    }

    #[test]
    fn a_desk_with_no_one_to_ask_stops_the_asker() {
        let shown = vec!["round 2?".to_string()];
        assert_eq!(Stopped.ask(shown.clone()), None);
        assert_eq!(
            Stopped.ask_within(shown, Duration::from_millis(1)),
            Asked::Quit
        );
        assert!(!Stopped.wants_pictures());
    }

    #[test]
    fn the_terminal_names_the_signal_that_stops_its_runner() {
        assert_eq!(stop_reason(libc::SIGTERM), "goref received SIGTERM");
        assert_eq!(stop_reason(libc::SIGINT), "goref received SIGINT (Ctrl-C)");
    }
}
