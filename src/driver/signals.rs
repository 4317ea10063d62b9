//! The signals that end a game: Ctrl-C (SIGINT), SIGTERM, SIGHUP (the
//! terminal went away) and SIGQUIT.
//!
//! Each ends the game as `Void` with the signal named, and the record, the
//! trace and the event stream are finished as after any other end. A second
//! signal while the players are being shut down cuts their grace short.

use tokio::signal::unix::{signal, Signal, SignalKind};

/// The game-ending signals, caught from [`Signals::install`] on.
pub struct Signals {
    interrupt: Signal,
    terminate: Signal,
    hangup: Signal,
    quit: Signal,
}

impl Signals {
    pub fn install() -> std::io::Result<Signals> {
        Ok(Signals {
            interrupt: signal(SignalKind::interrupt())?,
            terminate: signal(SignalKind::terminate())?,
            hangup: signal(SignalKind::hangup())?,
            quit: signal(SignalKind::quit())?,
        })
    }

    /// Waits for the next signal and names it.
    pub async fn next(&mut self) -> &'static str {
        tokio::select! {
            _ = self.interrupt.recv() => "SIGINT (Ctrl-C)",
            _ = self.terminate.recv() => "SIGTERM",
            _ = self.hangup.recv() => "SIGHUP (the terminal went away)",
            _ = self.quit.recv() => "SIGQUIT",
        }
    }
}
