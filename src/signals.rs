//! The signals goref answers: Ctrl-C (SIGINT), SIGTERM and SIGQUIT end a
//! game; SIGHUP (the terminal went away, an SSH session dropped) does not.
//!
//! A signal that ends the game makes it `Void` with the signal named, and
//! the record, the trace and the event stream are finished as after any
//! other end. A second one while the players are being shut down cuts their
//! grace short. After SIGHUP the game goes on without a screen, as if
//! `--headless`; its folder's journal says so, and `goref attach` brings a
//! screen back.
//!
//! Every goref process answers signals through this room, in one of two
//! ways. A game, a screen or an async loop installs [`Signals`] and waits
//! for them among its other inputs. A runner that plays on threads (the
//! event's, a match's, a worker's) calls [`catch_stop_signals`]: Ctrl-C and
//! SIGTERM then ask it to stop at its next look ([`stop_asked`]), its boards
//! playing on in their own gorefs, and SIGHUP is ignored. A venue's seat
//! only ignores SIGHUP ([`ignore_hangup`]): Ctrl-C and SIGTERM end it.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

use tokio::signal::unix::{signal, SignalKind};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

/// The signals, caught from [`Signals::install`] on. One task waits for
/// them all and hands each on, so that a loop that waits for a signal among
/// other things polls one channel, not four signal streams, at every turn.
pub(crate) struct Signals {
    received: mpsc::UnboundedReceiver<Received>,
    catcher: JoinHandle<()>,
}

/// A signal goref received.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Received {
    /// The terminal went away: the game goes on.
    Hangup,
    /// A request to stop: the game ends, void. Its name.
    Stop(&'static str),
}

impl Signals {
    /// Catches the signals from now on; within a tokio runtime.
    pub(crate) fn install() -> std::io::Result<Signals> {
        let mut interrupt = signal(SignalKind::interrupt())?;
        let mut terminate = signal(SignalKind::terminate())?;
        let mut hangup = signal(SignalKind::hangup())?;
        let mut quit = signal(SignalKind::quit())?;
        let (tx, received) = mpsc::unbounded_channel();
        let catcher = tokio::spawn(async move {
            loop {
                let caught = tokio::select! {
                    _ = interrupt.recv() => Received::Stop("SIGINT (Ctrl-C)"),
                    _ = terminate.recv() => Received::Stop("SIGTERM"),
                    _ = hangup.recv() => Received::Hangup,
                    _ = quit.recv() => Received::Stop("SIGQUIT"),
                };
                if tx.send(caught).is_err() {
                    return;
                }
            }
        });
        Ok(Signals { received, catcher })
    }

    /// Waits for the next signal.
    pub(crate) async fn next(&mut self) -> Received {
        match self.received.recv().await {
            Some(caught) => caught,
            None => std::future::pending().await,
        }
    }

    /// Waits for the next signal that asks goref to stop.
    pub(crate) async fn next_stop(&mut self) -> &'static str {
        loop {
            if let Received::Stop(name) = self.next().await {
                return name;
            }
        }
    }
}

impl Drop for Signals {
    fn drop(&mut self) {
        self.catcher.abort();
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
    ignore_hangup();
    // SAFETY: the handler only stores to atomics, which is async-signal-safe.
    unsafe {
        libc::signal(libc::SIGINT, handler);
        libc::signal(libc::SIGTERM, handler);
    }
}

/// SIGHUP is ignored from here on: a runner or a seat plays on when its
/// terminal goes away (an SSH session dropped). A seat's program, started
/// in a process group of its own, never gets the terminal's SIGHUP either.
pub(crate) fn ignore_hangup() {
    // SAFETY: ignoring a signal installs no handler; it is always sound.
    unsafe {
        libc::signal(libc::SIGHUP, libc::SIG_IGN);
    }
}

/// The signal a stop was asked with (0: the director), once one was.
pub(crate) fn stop_asked() -> Option<libc::c_int> {
    STOP.load(Ordering::Relaxed)
        .then(|| STOP_SIGNAL.load(Ordering::Relaxed))
}
