//! A mirror connection over TCP (`--serve`, `--watch`), a Unix socket
//! (the game folder's `attach.sock`, `goref attach`) or the bridge of a
//! browser's WebSocket (`--web`): the same protocol on each, split into a
//! reading and a writing half.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, DuplexStream, ReadBuf, ReadHalf, WriteHalf};
use tokio::net::{tcp, unix, TcpStream, UnixStream};

/// An open connection.
pub(crate) enum Conn {
    Tcp(TcpStream),
    Unix(UnixStream),
    /// A browser's WebSocket, carried line by line by `web`.
    Duplex(DuplexStream),
}

/// The reading half of a [`Conn`].
pub(crate) enum ConnRead {
    Tcp(tcp::OwnedReadHalf),
    Unix(unix::OwnedReadHalf),
    Duplex(ReadHalf<DuplexStream>),
}

/// The writing half of a [`Conn`].
pub(crate) enum ConnWrite {
    Tcp(tcp::OwnedWriteHalf),
    Unix(unix::OwnedWriteHalf),
    Duplex(WriteHalf<DuplexStream>),
}

impl Conn {
    /// Splits the connection; lines are batched already, so Nagle would
    /// only hold a small one back.
    pub(crate) fn into_split(self) -> (ConnRead, ConnWrite) {
        match self {
            Conn::Tcp(stream) => {
                let _ = stream.set_nodelay(true);
                let (read, write) = stream.into_split();
                (ConnRead::Tcp(read), ConnWrite::Tcp(write))
            }
            Conn::Unix(stream) => {
                let (read, write) = stream.into_split();
                (ConnRead::Unix(read), ConnWrite::Unix(write))
            }
            Conn::Duplex(stream) => {
                let (read, write) = tokio::io::split(stream);
                (ConnRead::Duplex(read), ConnWrite::Duplex(write))
            }
        }
    }

    /// Reads what is there without waiting, into `buf`.
    pub(crate) fn try_read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Conn::Tcp(stream) => stream.try_read(buf),
            Conn::Unix(stream) => stream.try_read(buf),
            Conn::Duplex(stream) => now_or_never(Pin::new(stream), |s, cx| {
                let mut read = ReadBuf::new(buf);
                s.poll_read(cx, &mut read).map_ok(|()| read.filled().len())
            }),
        }
    }

    /// Writes what the socket takes without waiting.
    pub(crate) fn try_write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        match self {
            Conn::Tcp(stream) => stream.try_write(bytes),
            Conn::Unix(stream) => stream.try_write(bytes),
            Conn::Duplex(stream) => now_or_never(Pin::new(stream), |s, cx| s.poll_write(cx, bytes)),
        }
    }
}

impl ConnWrite {
    /// Writes what the socket takes without waiting.
    pub(crate) fn try_write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        match self {
            ConnWrite::Tcp(write) => write.try_write(bytes),
            ConnWrite::Unix(write) => write.try_write(bytes),
            ConnWrite::Duplex(write) => {
                now_or_never(Pin::new(write), |w, cx| w.poll_write(cx, bytes))
            }
        }
    }
}

/// Polls once with a waker that does nothing: what is ready now, or
/// `WouldBlock`.
fn now_or_never<S, T>(
    stream: Pin<&mut S>,
    poll: impl FnOnce(Pin<&mut S>, &mut Context<'_>) -> Poll<io::Result<T>>,
) -> io::Result<T>
where
    S: ?Sized,
{
    let mut cx = Context::from_waker(std::task::Waker::noop());
    match poll(stream, &mut cx) {
        Poll::Ready(result) => result,
        Poll::Pending => Err(io::ErrorKind::WouldBlock.into()),
    }
}

impl AsyncRead for ConnRead {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match self.get_mut() {
            ConnRead::Tcp(read) => Pin::new(read).poll_read(cx, buf),
            ConnRead::Unix(read) => Pin::new(read).poll_read(cx, buf),
            ConnRead::Duplex(read) => Pin::new(read).poll_read(cx, buf),
        }
    }
}

impl AsyncWrite for ConnWrite {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bytes: &[u8],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            ConnWrite::Tcp(write) => Pin::new(write).poll_write(cx, bytes),
            ConnWrite::Unix(write) => Pin::new(write).poll_write(cx, bytes),
            ConnWrite::Duplex(write) => Pin::new(write).poll_write(cx, bytes),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            ConnWrite::Tcp(write) => Pin::new(write).poll_flush(cx),
            ConnWrite::Unix(write) => Pin::new(write).poll_flush(cx),
            ConnWrite::Duplex(write) => Pin::new(write).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            ConnWrite::Tcp(write) => Pin::new(write).poll_shutdown(cx),
            ConnWrite::Unix(write) => Pin::new(write).poll_shutdown(cx),
            ConnWrite::Duplex(write) => Pin::new(write).poll_shutdown(cx),
        }
    }
}
