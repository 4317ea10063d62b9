//! A line that runs at a baud rate: bytes take the time they would take on
//! a real serial line, in both directions.
//!
//! A virtual line (a pty pair) carries bytes at once; the demo's line should
//! feel like the CGF's 2400-baud cables, so that the packet trace shows
//! what a tournament hall sees. After each write or read of `n` bytes the
//! next one in the same direction waits `n / bytes_per_second`.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::{sleep, Sleep};

/// The most bytes one write hands on at a time: a GMP packet.
const CHUNK: usize = 4;

/// Wraps a line so that it runs at `bytes_per_second`.
pub struct PacedLine<T> {
    inner: T,
    bytes_per_second: f64,
    write_ready: Option<Pin<Box<Sleep>>>,
    read_ready: Option<Pin<Box<Sleep>>>,
}

impl<T> PacedLine<T> {
    pub fn new(inner: T, bytes_per_second: f64) -> PacedLine<T> {
        PacedLine {
            inner,
            bytes_per_second,
            write_ready: None,
            read_ready: None,
        }
    }

    fn wire_time(&self, bytes: usize) -> Duration {
        Duration::from_secs_f64(bytes as f64 / self.bytes_per_second.max(1.0))
    }
}

/// Whether the direction's last bytes are still on the wire.
fn still_on_the_wire(ready: &mut Option<Pin<Box<Sleep>>>, cx: &mut Context<'_>) -> bool {
    if let Some(sleep) = ready {
        if sleep.as_mut().poll(cx).is_pending() {
            return true;
        }
        *ready = None;
    }
    false
}

impl<T: AsyncWrite + Unpin> AsyncWrite for PacedLine<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        if still_on_the_wire(&mut self.write_ready, cx) {
            return Poll::Pending;
        }
        let chunk = &buf[..buf.len().min(CHUNK)];
        let written = std::task::ready!(Pin::new(&mut self.inner).poll_write(cx, chunk))?;
        let wait = self.wire_time(written);
        self.write_ready = Some(Box::pin(sleep(wait)));
        Poll::Ready(Ok(written))
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        if still_on_the_wire(&mut self.write_ready, cx) {
            return Poll::Pending;
        }
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for PacedLine<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        if still_on_the_wire(&mut self.read_ready, cx) {
            return Poll::Pending;
        }
        let before = buf.filled().len();
        std::task::ready!(Pin::new(&mut self.inner).poll_read(cx, buf))?;
        let read = buf.filled().len() - before;
        if read > 0 {
            let wait = self.wire_time(read);
            self.read_ready = Some(Box::pin(sleep(wait)));
        }
        Poll::Ready(Ok(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    #[tokio::test(start_paused = true)]
    async fn bytes_take_their_time_on_the_wire_both_ways() {
        let (near, mut far) = tokio::io::duplex(64);
        let mut line = PacedLine::new(near, 240.0);
        let start = tokio::time::Instant::now();
        line.write_all(&[1, 2, 3, 4, 5, 6, 7, 8]).await.unwrap();
        line.flush().await.unwrap();
        let took = start.elapsed();
        assert!(
            (took.as_secs_f64() - 8.0 / 240.0).abs() < 0.002,
            "8 bytes at 240 bytes/s: {took:?}"
        );
        let mut got = [0u8; 8];
        far.read_exact(&mut got).await.unwrap();
        assert_eq!(got, [1, 2, 3, 4, 5, 6, 7, 8]);

        far.write_all(&[9; 4]).await.unwrap();
        far.write_all(&[10; 4]).await.unwrap();
        let start = tokio::time::Instant::now();
        let mut back = [0u8; 8];
        line.read_exact(&mut back).await.unwrap();
        let mut one = [0u8; 1];
        far.write_all(&[11]).await.unwrap();
        line.read_exact(&mut one).await.unwrap();
        assert!(
            start.elapsed() >= Duration::from_secs_f64(8.0 / 240.0),
            "the next read waits for the bytes before it: {:?}",
            start.elapsed()
        );
    }
}
