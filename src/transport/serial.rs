//! RS-232 ports, and the pty devices (such as those socat makes) that stand in
//! for them, through tokio-serial.
//!
//! A port is opened exclusively, raw (no echo, no CR/LF translation, no
//! XON/XOFF unless asked for, VMIN=1), 8N1, at the given baud and flow
//! control. Its input is never flushed on open: a program such as GNU Go sends
//! NEWGAME as soon as it starts and never sends it again.

use std::io;
use std::path::Path;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio_serial::{DataBits, Parity, SerialPortBuilderExt, SerialStream, StopBits};

use crate::transport::line_spec::{FlowControl, LineError};

/// The flow control as tokio-serial spells it.
pub(crate) fn serial_flow(flow: FlowControl) -> tokio_serial::FlowControl {
    match flow {
        FlowControl::None => tokio_serial::FlowControl::None,
        FlowControl::RtsCts => tokio_serial::FlowControl::Hardware,
        FlowControl::XonXoff => tokio_serial::FlowControl::Software,
    }
}

/// Opens a serial device raw, 8N1, at `baud` with `flow`, exclusively (a
/// second opener is refused), without flushing its input. Must be called
/// within a tokio runtime.
pub fn open_device(path: &Path, baud: u32, flow: FlowControl) -> Result<SerialStream, LineError> {
    let name = path.to_str().ok_or_else(|| LineError::Open {
        path: path.to_path_buf(),
        reason: "the path is not valid UTF-8".to_string(),
    })?;
    // tokio-serial opens with O_NONBLOCK (no wait for carrier), applies
    // cfmakeraw with TCSANOW and, on Linux, never calls tcflush.
    tokio_serial::new(name, baud)
        .data_bits(DataBits::Eight)
        .parity(Parity::None)
        .stop_bits(StopBits::One)
        .flow_control(serial_flow(flow))
        .exclusive(true)
        .open_native_async()
        .map_err(|e| open_error(path, e))
}

fn open_error(path: &Path, error: tokio_serial::Error) -> LineError {
    let path = path.to_path_buf();
    match error.kind {
        tokio_serial::ErrorKind::NoDevice => LineError::InUse { path },
        // ENOTTY, as nix or libc words it.
        _ if matches!(
            error.description.as_str(),
            "Not a typewriter" | "Inappropriate ioctl for device"
        ) =>
        {
            LineError::Open {
                path,
                reason: "it is not a serial port or terminal".to_string(),
            }
        }
        _ => LineError::Open {
            path,
            reason: error.description,
        },
    }
}

/// An opened serial device as the referee uses it.
///
/// Flushing hands the bytes to the kernel and returns: tokio-serial's own
/// flush calls `tcdrain`, which blocks the calling thread until the bytes
/// have left the UART (17 ms a packet at 2400 baud) or, with RTS/CTS and a
/// silent peer, for ever. Reads and writes go straight to the port.
#[derive(Debug)]
pub(crate) struct SerialLine {
    stream: SerialStream,
}

impl SerialLine {
    pub(crate) fn new(stream: SerialStream) -> SerialLine {
        SerialLine { stream }
    }

    /// The port beneath, for its settings.
    #[cfg(test)]
    pub(crate) fn get_ref(&self) -> &SerialStream {
        &self.stream
    }
}

impl From<SerialStream> for SerialLine {
    fn from(stream: SerialStream) -> SerialLine {
        SerialLine::new(stream)
    }
}

impl AsyncRead for SerialLine {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for SerialLine {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    use std::path::PathBuf;
    use std::process::{Child, Command, Stdio};
    use std::time::{Duration, Instant};

    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio_serial::{ClearBuffer, SerialPort};

    /// Two ptys joined by socat, each reachable through a link in a temp dir.
    pub(crate) struct SocatPair {
        child: Child,
        _dir: tempfile::TempDir,
        pub x: PathBuf,
        pub y: PathBuf,
    }

    impl SocatPair {
        pub(crate) fn start() -> SocatPair {
            let dir = tempfile::tempdir().unwrap();
            let x = dir.path().join("x");
            let y = dir.path().join("y");
            let child = Command::new("socat")
                .arg("-d")
                .arg("-d")
                .arg(format!("pty,rawer,link={}", x.display()))
                .arg(format!("pty,rawer,link={}", y.display()))
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("socat is installed (tests/run.sh installs it)");
            let pair = SocatPair {
                child,
                _dir: dir,
                x,
                y,
            };
            let deadline = Instant::now() + Duration::from_secs(10);
            while !(pair.x.exists() && pair.y.exists()) {
                assert!(Instant::now() < deadline, "socat made no ptys in 10 s");
                std::thread::sleep(Duration::from_millis(10));
            }
            pair
        }
    }

    impl Drop for SocatPair {
        fn drop(&mut self) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }

    /// A child process killed when the test ends, passed or failed.
    struct KillOnDrop(Child);

    impl Drop for KillOnDrop {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }

    pub(crate) fn all_bytes() -> Vec<u8> {
        (0..=255u8).collect()
    }

    /// Reads exactly `n` bytes, failing after 5 s.
    pub(crate) async fn read_n(line: &mut (impl AsyncRead + Unpin), n: usize) -> Vec<u8> {
        let mut got = vec![0u8; n];
        tokio::time::timeout(Duration::from_secs(5), line.read_exact(&mut got))
            .await
            .unwrap_or_else(|_| panic!("{n} bytes did not arrive within 5 s"))
            .unwrap();
        got
    }

    /// Whatever arrives within `wait`.
    pub(crate) async fn read_for(line: &mut (impl AsyncRead + Unpin), wait: Duration) -> Vec<u8> {
        let mut got = Vec::new();
        let deadline = tokio::time::Instant::now() + wait;
        let mut buf = [0u8; 1024];
        while let Ok(Ok(n)) = tokio::time::timeout_at(deadline, line.read(&mut buf)).await {
            if n == 0 {
                break;
            }
            got.extend_from_slice(&buf[..n]);
        }
        got
    }

    #[tokio::test]
    async fn every_byte_value_crosses_a_socat_line_unchanged_both_ways() {
        let socat = SocatPair::start();
        let mut x = open_device(&socat.x, 2400, FlowControl::None).unwrap();
        let mut y = open_device(&socat.y, 2400, FlowControl::None).unwrap();
        x.write_all(&all_bytes()).await.unwrap();
        assert_eq!(read_n(&mut y, 256).await, all_bytes());
        let reversed: Vec<u8> = all_bytes().into_iter().rev().collect();
        y.write_all(&reversed).await.unwrap();
        assert_eq!(read_n(&mut x, 256).await, reversed);
        // No echo: nothing came back to the writers.
        assert!(read_for(&mut x, Duration::from_millis(100))
            .await
            .is_empty());
        assert!(read_for(&mut y, Duration::from_millis(100))
            .await
            .is_empty());
    }

    #[tokio::test]
    async fn input_waiting_before_the_open_is_kept() {
        let socat = SocatPair::start();
        let mut x = open_device(&socat.x, 2400, FlowControl::None).unwrap();
        // A NEWGAME sent before the referee opens its end.
        let newgame = [0x00, 0x87, 0x80, 0x81];
        x.write_all(&newgame).await.unwrap();
        tokio::time::sleep(Duration::from_millis(200)).await;
        let mut y = open_device(&socat.y, 2400, FlowControl::None).unwrap();
        assert_eq!(read_n(&mut y, 4).await, newgame);

        // The same bytes are lost if the input is flushed, so the test above
        // would see a flush on open.
        x.write_all(b"lost").await.unwrap();
        let waiting = std::time::Instant::now();
        while y.bytes_to_read().unwrap() < 4 {
            assert!(waiting.elapsed() < Duration::from_secs(10), "'lost' came");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        y.clear(ClearBuffer::Input).unwrap();
        x.write_all(b"kept").await.unwrap();
        assert_eq!(read_n(&mut y, 4).await, b"kept");
    }

    /// GNU Go as Black sends NEWGAME as soon as it starts and never again
    /// (reference/peers.md); without socat's `wait-slave` that is before the
    /// referee opens the pty.
    #[tokio::test]
    async fn a_newgame_gnu_go_sent_before_the_open_is_received() {
        let gnugo = ["/usr/games/gnugo", "/usr/bin/gnugo"]
            .into_iter()
            .find(|p| Path::new(p).exists())
            .expect("GNU Go is installed (tests/run.sh installs it)");
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("gnugo");
        let _socat = KillOnDrop(
            Command::new("socat")
                .arg(format!("pty,rawer,link={}", link.display()))
                .arg(format!(
                    "SYSTEM:exec {gnugo} --mode sgmp --color black --boardsize 9 --level 0 --seed 1"
                ))
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap(),
        );
        let deadline = Instant::now() + Duration::from_secs(10);
        while !link.exists() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        // Time for GNU Go to start and send.
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let mut line = open_device(&link, 2400, FlowControl::None).unwrap();
        let got = read_n(&mut line, 4).await;
        assert_eq!(got, [0x01, 0xa1, 0xa0, 0x80], "NEWGAME from GNU Go");
    }

    #[tokio::test]
    async fn the_port_is_8n1_at_the_baud_asked_for() {
        let socat = SocatPair::start();
        let x = open_device(&socat.x, 9600, FlowControl::RtsCts).unwrap();
        assert_eq!(x.data_bits().unwrap(), DataBits::Eight);
        assert_eq!(x.parity().unwrap(), Parity::None);
        assert_eq!(x.stop_bits().unwrap(), StopBits::One);
        assert_eq!(
            x.flow_control().unwrap(),
            tokio_serial::FlowControl::Hardware
        );
        assert_eq!(x.baud_rate().unwrap(), 9600);
        let y = open_device(&socat.y, 2400, FlowControl::XonXoff).unwrap();
        assert_eq!(
            y.flow_control().unwrap(),
            tokio_serial::FlowControl::Software
        );
        assert_eq!(y.baud_rate().unwrap(), 2400);
    }

    #[tokio::test]
    async fn a_port_in_use_is_refused() {
        let socat = SocatPair::start();
        let _first = open_device(&socat.x, 2400, FlowControl::None).unwrap();
        let error = open_device(&socat.x, 2400, FlowControl::None).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!(
                "cannot open {}: another program is using it",
                socat.x.display()
            )
        );
    }

    #[tokio::test]
    async fn a_missing_device_or_a_plain_file_is_named_in_the_error() {
        let error =
            open_device(Path::new("/dev/ttyS9-nonexistent"), 2400, FlowControl::None).unwrap_err();
        assert_eq!(
            error.to_string(),
            "cannot open /dev/ttyS9-nonexistent: No such file or directory"
        );
        let file = tempfile::NamedTempFile::new().unwrap();
        let error = open_device(file.path(), 2400, FlowControl::None).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!(
                "cannot open {}: it is not a serial port or terminal",
                file.path().display()
            )
        );
    }

    #[tokio::test]
    async fn a_serial_line_flushes_without_waiting_for_the_wire() {
        let socat = SocatPair::start();
        let mut x = SerialLine::new(open_device(&socat.x, 2400, FlowControl::None).unwrap());
        let mut y = SerialLine::from(open_device(&socat.y, 2400, FlowControl::None).unwrap());
        x.write_all(b"\r\n\x11\x13\xff").await.unwrap();
        tokio::time::timeout(Duration::from_secs(1), x.flush())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(read_n(&mut y, 5).await, b"\r\n\x11\x13\xff");
        assert_eq!(x.get_ref().baud_rate().unwrap(), 2400);
    }
}
