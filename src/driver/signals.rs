//! The signals goref answers: Ctrl-C (SIGINT), SIGTERM and SIGQUIT end a
//! game; SIGHUP (the terminal went away, an SSH session dropped) does not.
//!
//! A signal that ends the game makes it `Void` with the signal named, and
//! the record, the trace and the event stream are finished as after any
//! other end. A second one while the players are being shut down cuts their
//! grace short. After SIGHUP the game goes on without a screen, as if
//! `--headless`; its folder's journal says so, and `goref attach` brings a
//! screen back.

use tokio::signal::unix::{signal, Signal, SignalKind};

/// The signals, caught from [`Signals::install`] on.
pub struct Signals {
    interrupt: Signal,
    terminate: Signal,
    hangup: Signal,
    quit: Signal,
}

/// A signal goref received.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Received {
    /// The terminal went away: the game goes on.
    Hangup,
    /// A request to stop: the game ends, void. Its name.
    Stop(&'static str),
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

    /// Waits for the next signal.
    pub async fn next(&mut self) -> Received {
        tokio::select! {
            _ = self.interrupt.recv() => Received::Stop("SIGINT (Ctrl-C)"),
            _ = self.terminate.recv() => Received::Stop("SIGTERM"),
            _ = self.hangup.recv() => Received::Hangup,
            _ = self.quit.recv() => Received::Stop("SIGQUIT"),
        }
    }

    /// Waits for the next signal that asks goref to stop.
    pub async fn next_stop(&mut self) -> &'static str {
        loop {
            if let Received::Stop(name) = self.next().await {
                return name;
            }
        }
    }
}
