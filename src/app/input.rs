//! The terminal's keys and resizes, on a channel.
//!
//! A plain thread (a blocked read must not hold the async runtime) reads the
//! terminal's bytes with `poll` and `read`, from the descriptor raw mode is
//! set on (stdin when it is a terminal, else `/dev/tty`), and the
//! `KeyDecoder` turns them into the screen's own [`Key`]s; SIGWINCH,
//! caught by tokio, and ctrl-l are `TerminalEvent::Repaint`. Everything after this file
//! is free of the terminal's bytes.
//!
//! A terminal that went away (a killed session, a dropped SSH connection)
//! reads as end of file or EIO for ever: that is the end of its input,
//! `TerminalEvent::Lost`, sent once, and the thread ends. crossterm's own
//! reader cannot be used: it reads such a terminal again and again inside
//! one call, a core burnt for as long as a detached game lasts. While
//! nothing is typed the thread sleeps in `poll` with no timeout; only an
//! escape sequence begun makes it wait `ESC_WAIT` for the rest.

use std::fs::File;
use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd};
use std::time::Duration;

use tokio::signal::unix::{signal, SignalKind};
use tokio::sync::mpsc;

use super::key_decoder::KeyDecoder;
use crate::ui::keys::Key;

/// How long a lone ESC waits for the rest of a sequence before it is the
/// Esc key: a terminal sends a sequence's bytes together, a person cannot
/// type a second key this fast.
pub(crate) const ESC_WAIT: Duration = Duration::from_millis(30);

/// What the terminal reports.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum TerminalEvent {
    Key(Key),
    /// The screen must be drawn anew, whole: the terminal was resized, or
    /// the user pressed ctrl-l because something scribbled on it.
    Repaint,
    /// The terminal cannot be read any more (it went away).
    Lost(String),
}

/// Starts reading the terminal. Called within the tokio runtime, which
/// catches the resizes.
pub(crate) fn spawn_reader() -> mpsc::UnboundedReceiver<TerminalEvent> {
    let (tx, rx) = mpsc::unbounded_channel();
    forward_resizes(tx.clone());
    let terminal = match Terminal::open() {
        Ok(terminal) => terminal,
        Err(e) => {
            let _ = tx.send(TerminalEvent::Lost(format!(
                "cannot open the terminal: {e}"
            )));
            return rx;
        }
    };
    let spawned = std::thread::Builder::new()
        .name("terminal".into())
        .spawn(move || read_keys(terminal.as_fd(), &tx));
    if let Err(e) = spawned {
        tracing::error!("cannot read the terminal: {e}");
    }
    rx
}

/// The terminal's input: stdin when it is a terminal, else the
/// controlling terminal, opened (and closed on drop).
enum Terminal {
    Stdin(io::Stdin),
    Opened(File),
}

impl Terminal {
    fn open() -> io::Result<Terminal> {
        let stdin = io::stdin();
        if io::IsTerminal::is_terminal(&stdin) {
            return Ok(Terminal::Stdin(stdin));
        }
        File::open("/dev/tty").map(Terminal::Opened)
    }

    fn as_fd(&self) -> BorrowedFd<'_> {
        match self {
            Terminal::Stdin(stdin) => stdin.as_fd(),
            Terminal::Opened(file) => file.as_fd(),
        }
    }
}

/// Reads `input` until its end, sending its keys, then
/// [`TerminalEvent::Lost`] once; returns at once when nobody listens.
fn read_keys(input: BorrowedFd<'_>, tx: &mpsc::UnboundedSender<TerminalEvent>) {
    let mut decoder = KeyDecoder::new();
    let mut buffer = [0u8; 1024];
    let why = loop {
        let wait = match decoder.is_mid_sequence() {
            true => ESC_WAIT.as_millis() as libc::c_int,
            false => -1,
        };
        let keys = match next_bytes(input, wait, &mut buffer) {
            Read::Bytes(n) => decoder.feed(&buffer[..n]),
            Read::Quiet => decoder.no_more_bytes().into_iter().collect(),
            Read::Again => continue,
            Read::Ended(why) => break why,
        };
        for key in keys {
            let event = match key {
                Key::Ctrl('l') => TerminalEvent::Repaint,
                key => TerminalEvent::Key(key),
            };
            if tx.send(event).is_err() {
                return;
            }
        }
    };
    tracing::info!("the terminal's input ended: {why}");
    let _ = tx.send(TerminalEvent::Lost(why));
}

/// What one wait on the terminal gave.
enum Read {
    Bytes(usize),
    /// Nothing came within the wait.
    Quiet,
    /// Interrupted, or nothing after all: wait again.
    Again,
    /// The input is over, and why.
    Ended(String),
}

/// Waits up to `wait_ms` (-1: for ever) for bytes and reads them.
fn next_bytes(input: BorrowedFd<'_>, wait_ms: libc::c_int, buffer: &mut [u8]) -> Read {
    let mut polled = libc::pollfd {
        fd: input.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one pollfd, valid for the call.
    let ready = unsafe { libc::poll(&mut polled, 1, wait_ms) };
    if ready < 0 {
        let error = io::Error::last_os_error();
        return match error.kind() {
            io::ErrorKind::Interrupted | io::ErrorKind::WouldBlock => Read::Again,
            _ => Read::Ended(format!("cannot wait for the terminal: {error}")),
        };
    }
    if ready == 0 {
        return Read::Quiet;
    }
    if polled.revents & libc::POLLIN == 0 {
        let why = match polled.revents {
            r if r & libc::POLLNVAL != 0 => "the terminal is not open",
            r if r & libc::POLLERR != 0 => "the terminal failed",
            _ => "the terminal hung up",
        };
        return Read::Ended(why.into());
    }
    // SAFETY: reads at most buffer.len() bytes into the buffer.
    let read = unsafe { libc::read(input.as_raw_fd(), buffer.as_mut_ptr().cast(), buffer.len()) };
    match read {
        0 => Read::Ended("end of the terminal's input".into()),
        n if n > 0 => Read::Bytes(n as usize),
        _ => {
            let error = io::Error::last_os_error();
            match error.kind() {
                io::ErrorKind::Interrupted | io::ErrorKind::WouldBlock => Read::Again,
                _ => Read::Ended(format!("cannot read the terminal: {error}")),
            }
        }
    }
}

/// Sends a [`TerminalEvent::Repaint`] on each SIGWINCH until the channel
/// closes.
fn forward_resizes(tx: mpsc::UnboundedSender<TerminalEvent>) {
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        return tracing::warn!("no runtime to catch the terminal's resizes");
    };
    let _entered = runtime.enter();
    let mut resized = match signal(SignalKind::window_change()) {
        Ok(resized) => resized,
        Err(e) => return tracing::warn!("cannot catch the terminal's resizes: {e}"),
    };
    runtime.spawn(async move {
        loop {
            tokio::select! {
                caught = resized.recv() => {
                    if caught.is_none() || tx.send(TerminalEvent::Repaint).is_err() {
                        return;
                    }
                }
                () = tx.closed() => return,
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    use std::io::Write;
    use std::os::fd::{FromRawFd, OwnedFd};
    use std::time::Instant;

    /// A pseudo-terminal: the far end (what a terminal emulator holds)
    /// and the near end, as goref reads it.
    fn pty_pair() -> (File, OwnedFd) {
        // SAFETY: each call is checked; the descriptors are owned at once.
        unsafe {
            let far = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY);
            assert!(far >= 0, "posix_openpt");
            let far = File::from_raw_fd(far);
            assert_eq!(libc::grantpt(far.as_raw_fd()), 0);
            assert_eq!(libc::unlockpt(far.as_raw_fd()), 0);
            let mut name = [0 as libc::c_char; 64];
            assert_eq!(
                libc::ptsname_r(far.as_raw_fd(), name.as_mut_ptr(), name.len()),
                0
            );
            let near = libc::open(name.as_ptr(), libc::O_RDWR | libc::O_NOCTTY);
            assert!(near >= 0, "open the pty");
            let mut raw: libc::termios = std::mem::zeroed();
            assert_eq!(libc::tcgetattr(near, &mut raw), 0);
            libc::cfmakeraw(&mut raw);
            assert_eq!(libc::tcsetattr(near, libc::TCSANOW, &raw), 0);
            (far, OwnedFd::from_raw_fd(near))
        }
    }

    fn next(rx: &mut mpsc::UnboundedReceiver<TerminalEvent>) -> Option<TerminalEvent> {
        let until = Instant::now() + Duration::from_secs(5);
        loop {
            match rx.try_recv() {
                Ok(event) => return Some(event),
                Err(mpsc::error::TryRecvError::Disconnected) => return None,
                Err(mpsc::error::TryRecvError::Empty) => {
                    assert!(Instant::now() < until, "no terminal event within 5 s");
                    std::thread::sleep(Duration::from_millis(5));
                }
            }
        }
    }

    fn spawn_on(
        near: OwnedFd,
    ) -> (
        std::thread::JoinHandle<()>,
        mpsc::UnboundedReceiver<TerminalEvent>,
    ) {
        let (tx, rx) = mpsc::unbounded_channel();
        let reader = std::thread::spawn(move || read_keys(near.as_fd(), &tx));
        (reader, rx)
    }

    #[test]
    fn keys_typed_arrive_and_a_lone_esc_after_a_moment() {
        let (mut far, near) = pty_pair();
        let (_reader, mut rx) = spawn_on(near);
        far.write_all(b"q\x1b[A\x03\x1b").unwrap();
        for want in [Key::Char('q'), Key::Up, Key::Ctrl('c'), Key::Esc] {
            assert_eq!(next(&mut rx), Some(TerminalEvent::Key(want)));
        }
    }

    /// A killed tmux session or a dropped SSH connection: the far end
    /// closes, and the terminal reads as end of file for ever.
    #[test]
    fn a_terminal_that_goes_away_is_lost_once_and_never_read_again() {
        let (mut far, near) = pty_pair();
        let (reader, mut rx) = spawn_on(near);
        far.write_all(b"x").unwrap();
        assert_eq!(next(&mut rx), Some(TerminalEvent::Key(Key::Char('x'))));
        drop(far);
        let lost = next(&mut rx);
        assert!(
            matches!(&lost, Some(TerminalEvent::Lost(why))
                if why == "end of the terminal's input" || why == "the terminal hung up"),
            "the end of file, or the hangup that may come first: {lost:?}"
        );
        assert_eq!(next(&mut rx), None, "one Lost, then the thread is gone");
        reader.join().unwrap();
    }

    /// A read that fails with EIO (as a terminal's does for a process
    /// group it orphaned) is not tried again; `/proc/self/mem` at 0 fails so.
    #[test]
    fn a_read_that_fails_with_eio_ends_the_input() {
        let memory = File::open("/proc/self/mem").unwrap();
        let (reader, mut rx) = spawn_on(OwnedFd::from(memory));
        let lost = next(&mut rx);
        let Some(TerminalEvent::Lost(why)) = &lost else {
            panic!("{lost:?}");
        };
        assert!(why.contains("os error 5"), "{why}");
        assert_eq!(next(&mut rx), None);
        reader.join().unwrap();
    }

    /// A hang-up with nothing left to read (a pty's other side closed, a
    /// pipe's writer gone) ends the input without a read.
    #[test]
    fn a_hang_up_without_data_ends_the_input() {
        let (master, slave) = pty_pair();
        let mut ends = [0; 2];
        // SAFETY: pipe fills two descriptors, owned at once.
        assert_eq!(unsafe { libc::pipe(ends.as_mut_ptr()) }, 0);
        let (pipe, writer) =
            unsafe { (OwnedFd::from_raw_fd(ends[0]), OwnedFd::from_raw_fd(ends[1])) };
        for (input, other_end) in [(OwnedFd::from(master), slave), (pipe, writer)] {
            let (reader, mut rx) = spawn_on(input);
            drop(other_end);
            assert_eq!(
                next(&mut rx),
                Some(TerminalEvent::Lost("the terminal hung up".into()))
            );
            assert_eq!(next(&mut rx), None);
            reader.join().unwrap();
        }
    }

    #[test]
    fn the_reader_stops_when_nobody_listens() {
        let (mut far, near) = pty_pair();
        let (reader, rx) = spawn_on(near);
        drop(rx);
        far.write_all(b"q").unwrap();
        let until = Instant::now() + Duration::from_secs(5);
        while !reader.is_finished() {
            assert!(Instant::now() < until, "the reader kept reading");
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}
