//! The terminal goref was started from: lines on stderr and stdout that never
//! panic.
//!
//! `eprintln!` and `println!` panic when the pipe behind them is closed
//! (`goref ... | head`, a dropped SSH session), which would stop the game and
//! leave the record unfinished. Every line goref prints goes through here
//! instead: a write that fails is dropped, the stream is remembered as
//! closed, and the game goes on.
//!
//! While the full-screen view owns the terminal, a line written to stderr
//! would tear through it: [`say`] sends its lines to the log instead (the
//! screen shows the same things from the event stream).

use std::fmt::Display;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

static STDERR_CLOSED: AtomicBool = AtomicBool::new(false);
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);
static SCREEN_OWNS_THE_TERMINAL: AtomicBool = AtomicBool::new(false);

/// Writes one line to stderr, or to the log while the screen owns the
/// terminal. False when stderr is closed.
pub fn say(line: impl Display) -> bool {
    if SCREEN_OWNS_THE_TERMINAL.load(Ordering::Relaxed) {
        tracing::info!(target: "goref::console", "{line}");
        return true;
    }
    write_to(&STDERR_CLOSED, &mut std::io::stderr().lock(), line)
}

/// The full-screen view takes the terminal (`true`) or gives it back.
pub(crate) fn screen_owns_the_terminal(owns: bool) {
    SCREEN_OWNS_THE_TERMINAL.store(owns, Ordering::Relaxed);
}

/// Writes one line to stdout and flushes it. False when stdout is closed.
pub fn out(line: impl Display) -> bool {
    write_to(&STDOUT_CLOSED, &mut std::io::stdout().lock(), line)
}

/// Whether a write to stdout has failed.
pub fn stdout_closed() -> bool {
    STDOUT_CLOSED.load(Ordering::Relaxed)
}

fn write_to(closed: &AtomicBool, stream: &mut impl Write, line: impl Display) -> bool {
    if closed.load(Ordering::Relaxed) {
        return false;
    }
    let text = format!("{line}\n");
    let written = stream
        .write_all(text.as_bytes())
        .and_then(|()| stream.flush());
    if written.is_err() {
        closed.store(true, Ordering::Relaxed);
    }
    written.is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Closed;

    impl Write for Closed {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_closed_stream_is_remembered_and_never_panics() {
        let closed = AtomicBool::new(false);
        assert!(!write_to(&closed, &mut Closed, "one"));
        assert!(closed.load(Ordering::Relaxed));
        let mut open = Vec::new();
        assert!(!write_to(&closed, &mut open, "two"));
        assert!(open.is_empty());
        let fresh = AtomicBool::new(false);
        assert!(write_to(&fresh, &mut open, "three"));
        assert_eq!(open, b"three\n");
    }
}
