//! A mirror connection over TCP (`--serve`, `--watch`) or a Unix socket
//! (the game folder's `attach.sock`, `goref attach`): the same protocol on
//! either, split into a reading and a writing half.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{tcp, unix, TcpStream, UnixStream};

/// An open connection.
pub enum Conn {
    Tcp(TcpStream),
    Unix(UnixStream),
}

/// The reading half of a [`Conn`].
pub enum ConnRead {
    Tcp(tcp::OwnedReadHalf),
    Unix(unix::OwnedReadHalf),
}

/// The writing half of a [`Conn`].
pub enum ConnWrite {
    Tcp(tcp::OwnedWriteHalf),
    Unix(unix::OwnedWriteHalf),
}

impl Conn {
    /// Splits the connection; lines are batched already, so Nagle would
    /// only hold a small one back.
    pub fn into_split(self) -> (ConnRead, ConnWrite) {
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
        }
    }

    /// Reads what is there without waiting, into `buf`.
    pub(crate) fn try_read(&self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Conn::Tcp(stream) => stream.try_read(buf),
            Conn::Unix(stream) => stream.try_read(buf),
        }
    }

    /// Writes what the socket takes without waiting.
    pub(crate) fn try_write(&self, bytes: &[u8]) -> io::Result<usize> {
        match self {
            Conn::Tcp(stream) => stream.try_write(bytes),
            Conn::Unix(stream) => stream.try_write(bytes),
        }
    }
}

impl ConnWrite {
    /// Writes what the socket takes without waiting.
    pub(crate) fn try_write(&self, bytes: &[u8]) -> io::Result<usize> {
        match self {
            ConnWrite::Tcp(write) => write.try_write(bytes),
            ConnWrite::Unix(write) => write.try_write(bytes),
        }
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
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            ConnWrite::Tcp(write) => Pin::new(write).poll_flush(cx),
            ConnWrite::Unix(write) => Pin::new(write).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            ConnWrite::Tcp(write) => Pin::new(write).poll_shutdown(cx),
            ConnWrite::Unix(write) => Pin::new(write).poll_shutdown(cx),
        }
    }
}
