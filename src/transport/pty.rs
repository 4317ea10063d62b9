//! Virtual lines: a connected pty pair standing in for a null-modem cable,
//! for the demo and for tests.
//!
//! The first end is the pty master, the second the slave; the slave's device
//! path (`far.name()`, e.g. `/dev/pts/7`) can be opened by another program
//! while both ends stay open here. Both ends are raw: no echo, no CR/LF
//! translation, no XON/XOFF, 8N1.

use tokio_serial::{DataBits, Parity, SerialPort, SerialStream, StopBits};

use crate::transport::line_spec::LineError;

/// A connected pair of ptys: what is written to one end is read from the
/// other, raw. Returns `(master, slave)`. Must be called within a tokio runtime.
pub fn virtual_line() -> Result<(SerialStream, SerialStream), LineError> {
    let (mut master, mut slave) =
        SerialStream::pair().map_err(|e| LineError::Virtual(e.description))?;
    // tokio-serial applies cfmakeraw to the slave only; the master's own
    // settings (Linux starts them raw) matter for the bytes it reads, so both
    // are set explicitly.
    make_raw(&mut slave, "the slave pty")?;
    make_raw(&mut master, "the master pty")?;
    close_on_exec(&master)?;
    close_on_exec(&slave)?;
    Ok((master, slave))
}

/// The pair is opened without `O_CLOEXEC`: a program started on the far
/// end would otherwise keep the near end open too, never see the line
/// close, and outlive a referee that was killed.
fn close_on_exec(end: &SerialStream) -> Result<(), LineError> {
    use std::os::fd::AsRawFd;
    // SAFETY: F_SETFD on a descriptor this stream owns changes only its flags.
    let done = unsafe { libc::fcntl(end.as_raw_fd(), libc::F_SETFD, libc::FD_CLOEXEC) };
    if done == -1 {
        return Err(LineError::Virtual(format!(
            "cannot mark the pty close-on-exec: {}",
            std::io::Error::last_os_error()
        )));
    }
    Ok(())
}

fn make_raw(end: &mut SerialStream, which: &str) -> Result<(), LineError> {
    let fail = |what: &'static str| {
        move |e: tokio_serial::Error| LineError::Setup {
            path: which.to_string(),
            what,
            reason: e.description,
        }
    };
    end.set_data_bits(DataBits::Eight)
        .map_err(fail("8 data bits"))?;
    end.set_parity(Parity::None).map_err(fail("no parity"))?;
    end.set_stop_bits(StopBits::One)
        .map_err(fail("1 stop bit"))?;
    end.set_flow_control(tokio_serial::FlowControl::None)
        .map_err(fail("no flow control"))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    use std::time::Duration;

    use tokio::io::AsyncWriteExt;

    use crate::transport::line_spec::FlowControl;
    use crate::transport::serial::open_device;
    use crate::transport::serial::tests::{all_bytes, read_for, read_n};

    #[tokio::test]
    async fn every_byte_value_crosses_unchanged_both_ways() {
        let (mut near, mut far) = virtual_line().unwrap();
        near.write_all(&all_bytes()).await.unwrap();
        assert_eq!(read_n(&mut far, 256).await, all_bytes());
        let reversed: Vec<u8> = all_bytes().into_iter().rev().collect();
        far.write_all(&reversed).await.unwrap();
        assert_eq!(read_n(&mut near, 256).await, reversed);
        // No echo, and nothing held back (no CR/LF rewriting, no XON/XOFF).
        assert!(read_for(&mut near, Duration::from_millis(100))
            .await
            .is_empty());
        assert!(read_for(&mut far, Duration::from_millis(100))
            .await
            .is_empty());
    }

    #[tokio::test]
    async fn line_endings_and_flow_bytes_are_plain_data() {
        let (mut near, mut far) = virtual_line().unwrap();
        let tricky = b"\r\n\r\x11\x13\x03\x04\x1a\x7f\x80\xff\n";
        near.write_all(tricky).await.unwrap();
        assert_eq!(read_n(&mut far, tricky.len()).await, tricky);
        far.write_all(tricky).await.unwrap();
        assert_eq!(read_n(&mut near, tricky.len()).await, tricky);
    }

    /// The checks above can fail: the same pair in cooked mode echoes and
    /// turns CR into LF.
    #[tokio::test]
    async fn a_cooked_pty_would_be_caught() {
        let (mut near, mut far) = virtual_line().unwrap();
        let path = far.name().unwrap();
        let status = std::process::Command::new("stty")
            .args(["-F", &path, "sane"])
            .status()
            .unwrap();
        assert!(status.success());
        near.write_all(b"a\r").await.unwrap();
        assert_eq!(read_n(&mut far, 2).await, b"a\n");
        assert_eq!(read_n(&mut near, 3).await, b"a\r\n");
    }

    #[tokio::test]
    async fn a_burst_of_4_kib_arrives_complete() {
        let (mut near, mut far) = virtual_line().unwrap();
        let burst: Vec<u8> = (0..4096u32).map(|i| (i * 7 % 256) as u8).collect();
        let (_, got) = tokio::join!(
            async { near.write_all(&burst).await.unwrap() },
            read_n(&mut far, burst.len())
        );
        assert_eq!(got, burst);
        let (_, got) = tokio::join!(
            async { far.write_all(&burst).await.unwrap() },
            read_n(&mut near, burst.len())
        );
        assert_eq!(got, burst);
    }

    #[tokio::test]
    async fn the_far_end_can_be_opened_by_path() {
        let (mut near, far) = virtual_line().unwrap();
        let path = far.name().expect("the slave pty has a path");
        assert!(path.starts_with("/dev/pts/"), "{path}");
        let mut other = open_device(path.as_ref(), 2400, FlowControl::None).unwrap();
        near.write_all(b"\x00\x87\x80\x81").await.unwrap();
        assert_eq!(read_n(&mut other, 4).await, b"\x00\x87\x80\x81");
        other.write_all(&all_bytes()).await.unwrap();
        assert_eq!(read_n(&mut near, 256).await, all_bytes());
        drop(far);
    }
}
