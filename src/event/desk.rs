//! The director's desk: where the event runner says what happens and asks
//! for the pairing ([`Desk`]), the terminal's desk of `--headless`
//! (`Terminal`: progress lines on stderr, the prompt on stdin).

use std::io::BufRead;

use crate::console;
use crate::signals::catch_stop_signals;
use goref_core::tournament::hall::EventPicture;

/// Where the event tells the director what happens and asks what to do.
pub trait Desk: Send {
    /// A line for the director.
    fn say(&self, line: String);
    /// The standings between rounds, as lines of text.
    fn standings(&self, lines: Vec<String>) {
        for line in lines {
            self.say(line);
        }
    }
    /// Whether this desk is shown the event's picture.
    fn wants_pictures(&self) -> bool {
        false
    }
    /// The event as it stands now, whenever it changed.
    fn show(&self, _picture: &EventPicture) {}
    /// The director's answer to the proposal, whose lines are `shown`
    /// (see [`super::prompt`]); none to stop the event.
    fn ask(&self, shown: Vec<String>) -> Option<String>;
    /// Like [`Desk::ask`], but a desk that shows the event live may come
    /// back after `wait` with no answer yet, for the runner to show what
    /// changed meanwhile (seats that came or went) and ask again.
    fn ask_within(&self, shown: Vec<String>, _wait: std::time::Duration) -> Asked {
        match self.ask(shown) {
            Some(answer) => Asked::Answer(answer),
            None => Asked::Quit,
        }
    }
}

/// What [`Desk::ask_within`] heard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Asked {
    Answer(String),
    /// The director stops the event.
    Quit,
    /// Nothing yet: ask again.
    NotYet,
}

/// The director at the terminal: progress lines on stderr, the prompt on
/// stdin.
pub(crate) struct Terminal;

impl Desk for Terminal {
    fn say(&self, line: String) {
        console::say(line);
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

/// One line of the director's answer; none at the end of input.
fn read_answer() -> Option<String> {
    let mut line = String::new();
    match std::io::stdin().lock().read_line(&mut line) {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(line.trim().to_string()),
    }
}
