//! A line that runs at a baud rate: bytes take the time they would take on
//! a real serial line, in both directions.
//!
//! A virtual line (a pty pair) carries bytes at once; the demo's line should
//! feel like the CGF's 2400-baud cables, so that the packet trace shows
//! what a tournament hall sees, and the program on the far end gets what it
//! would get from a cable. So bytes are on the far side only once they have
//! crossed: a write of `n` bytes waits `n / bytes_per_second`, then hands
//! them on (the write ends when the far end has them). Bytes the far end
//! writes are held as long before a read gives them, one chunk after
//! another as on a wire, so a packet is read when it would have come whole.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::{sleep, sleep_until, Instant, Sleep};

/// The most bytes one write hands on, or one read takes, at a time: a GMP
/// packet.
const CHUNK: usize = 4;

/// Wraps a line so that it runs at `bytes_per_second`.
pub(crate) struct PacedLine<T> {
    inner: T,
    bytes_per_second: f64,
    /// The chunk being written: its length, and the wait while it crosses.
    crossing: Option<(usize, Pin<Box<Sleep>>)>,
    /// Bytes read from the far end that are still on the wire, and the wait
    /// until they have come.
    arriving: Vec<u8>,
    arrived: Option<Pin<Box<Sleep>>>,
    /// When the wire from the far end is free: the next chunk comes after.
    incoming_free_at: Option<Instant>,
}

impl<T> PacedLine<T> {
    pub(crate) fn new(inner: T, bytes_per_second: f64) -> PacedLine<T> {
        PacedLine {
            inner,
            bytes_per_second,
            crossing: None,
            arriving: Vec::new(),
            arrived: None,
            incoming_free_at: None,
        }
    }

    fn wire_time(&self, bytes: usize) -> Duration {
        Duration::from_secs_f64(bytes as f64 / self.bytes_per_second.max(1.0))
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for PacedLine<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        if buf.is_empty() {
            return Poll::Ready(Ok(0));
        }
        if self.crossing.is_none() {
            let chunk = buf.len().min(CHUNK);
            let wait = self.wire_time(chunk);
            self.crossing = Some((chunk, Box::pin(sleep(wait))));
        }
        let this = &mut *self;
        let (chunk, crossed) = this.crossing.as_mut().expect("set above");
        std::task::ready!(crossed.as_mut().poll(cx));
        let chunk = (*chunk).min(buf.len());
        let written = std::task::ready!(Pin::new(&mut this.inner).poll_write(cx, &buf[..chunk]))?;
        this.crossing = None;
        Poll::Ready(Ok(written))
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
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
        let this = &mut *self;
        if this.arriving.is_empty() {
            let mut chunk = [0u8; CHUNK];
            let mut read = ReadBuf::new(&mut chunk);
            std::task::ready!(Pin::new(&mut this.inner).poll_read(cx, &mut read))?;
            let bytes = read.filled();
            if bytes.is_empty() {
                return Poll::Ready(Ok(()));
            }
            let now = Instant::now();
            let starts = this.incoming_free_at.map_or(now, |free| free.max(now));
            let comes = starts + this.wire_time(bytes.len());
            this.incoming_free_at = Some(comes);
            this.arriving = bytes.to_vec();
            this.arrived = Some(Box::pin(sleep_until(comes)));
        }
        if let Some(arrived) = this.arrived.as_mut() {
            std::task::ready!(arrived.as_mut().poll(cx));
            this.arrived = None;
        }
        let given = this.arriving.len().min(buf.remaining());
        buf.put_slice(&this.arriving[..given]);
        this.arriving.drain(..given);
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

    #[tokio::test(start_paused = true)]
    async fn the_far_end_has_the_bytes_once_they_have_crossed_and_so_has_this_one() {
        let wire = Duration::from_secs_f64(4.0 / 240.0);
        let (near, mut far) = tokio::io::duplex(64);
        let mut line = PacedLine::new(near, 240.0);
        let start = tokio::time::Instant::now();
        let written = async {
            line.write_all(&[1, 2, 3, 4]).await.unwrap();
            line.flush().await.unwrap();
            start.elapsed()
        };
        let received = async {
            let mut got = [0u8; 4];
            far.read_exact(&mut got).await.unwrap();
            start.elapsed()
        };
        let (written, received) = tokio::join!(written, received);
        assert!(received >= wire, "the far end had them after {received:?}");
        assert!(written >= wire && written < wire * 2, "{written:?}");

        tokio::time::advance(Duration::from_secs(1)).await;
        let sent = tokio::time::Instant::now();
        far.write_all(&[5; 4]).await.unwrap();
        let mut back = [0u8; 4];
        line.read_exact(&mut back).await.unwrap();
        assert_eq!(back, [5; 4]);
        let crossed = sent.elapsed();
        assert!(
            crossed >= wire && crossed < wire * 2,
            "read after {crossed:?}"
        );
    }
}
