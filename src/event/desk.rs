//! The director's desk: where the event runner says what happens and asks
//! for the pairing ([`Desk`]), the terminal's desk of `--headless`
//! (`Terminal`: progress lines on stderr, the prompt on stdin), and the
//! signals that stop a runner ([`stop`]).

use std::io::BufRead;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

use crate::console;
use crate::tournament::hall::EventPicture;

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

static STOP: AtomicBool = AtomicBool::new(false);
static STOP_SIGNAL: AtomicI32 = AtomicI32::new(0);

/// Asks a running event to stop at its next look, as Ctrl-C does: the
/// boards play on. `signal` names why (0: the director asked).
pub fn stop(signal: libc::c_int) {
    STOP_SIGNAL.store(signal, Ordering::Relaxed);
    STOP.store(true, Ordering::Relaxed);
}

extern "C" fn on_stop(signal: libc::c_int) {
    stop(signal);
}

/// While boards play, Ctrl-C and SIGTERM ask the event to stop at its next
/// look (`true`); at the director's prompt, where nothing plays, they end
/// it at once as they end any program (`false`), since a read of the
/// terminal would not be woken by a caught signal. SIGHUP is ignored
/// throughout.
pub(crate) fn catch_stop_signals(catch: bool) {
    let handler = match catch {
        true => on_stop as *const () as libc::sighandler_t,
        false => libc::SIG_DFL,
    };
    // SAFETY: the handler only stores to atomics, which is async-signal-safe.
    unsafe {
        libc::signal(libc::SIGHUP, libc::SIG_IGN);
        libc::signal(libc::SIGINT, handler);
        libc::signal(libc::SIGTERM, handler);
    }
}

/// The signal a stop was asked with (0: the director), once one was.
pub(crate) fn stop_asked() -> Option<libc::c_int> {
    STOP.load(Ordering::Relaxed)
        .then(|| STOP_SIGNAL.load(Ordering::Relaxed))
}

/// One line of the director's answer; none at the end of input.
fn read_answer() -> Option<String> {
    let mut line = String::new();
    match std::io::stdin().lock().read_line(&mut line) {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(line.trim().to_string()),
    }
}
