//! A line exposed by a terminal server: a TCP connection that carries the
//! bytes of a serial port.
//!
//! Packets are four bytes, so Nagle's algorithm is turned off: each packet
//! leaves at once. A connection attempt gives up after `CONNECT_TIMEOUT`.

use std::io;
use std::time::Duration;

use tokio::net::TcpStream;

use crate::transport::line_spec::LineError;

/// How long a connection attempt may take.
pub(crate) const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// Connects to `host:port` with TCP_NODELAY set.
pub async fn connect(host: &str, port: u16) -> Result<TcpStream, LineError> {
    let address = if host.contains(':') {
        format!("[{host}]:{port}")
    } else {
        format!("{host}:{port}")
    };
    let fail = |reason: String| LineError::Connect {
        address: address.clone(),
        reason,
    };
    let stream = match tokio::time::timeout(CONNECT_TIMEOUT, TcpStream::connect((host, port))).await
    {
        Err(_) => {
            return Err(fail(format!(
                "no answer within {} s",
                CONNECT_TIMEOUT.as_secs()
            )))
        }
        Ok(Err(e)) => return Err(fail(reason(&e))),
        Ok(Ok(stream)) => stream,
    };
    stream
        .set_nodelay(true)
        .map_err(|e| fail(format!("cannot turn off Nagle's algorithm: {e}")))?;
    Ok(stream)
}

fn reason(error: &io::Error) -> String {
    match error.kind() {
        io::ErrorKind::ConnectionRefused => {
            "connection refused (nothing is listening on that port)".to_string()
        }
        io::ErrorKind::TimedOut => "no answer (timed out)".to_string(),
        _ => error.to_string(),
    }
}

/// The kernel's smoothed round trip of the connection, when it has one.
pub(crate) fn round_trip(fd: std::os::fd::RawFd) -> Option<Duration> {
    let mut info: libc::tcp_info = unsafe { std::mem::zeroed() };
    let mut length = std::mem::size_of::<libc::tcp_info>() as libc::socklen_t;
    let done = unsafe {
        libc::getsockopt(
            fd,
            libc::IPPROTO_TCP,
            libc::TCP_INFO,
            (&mut info as *mut libc::tcp_info).cast(),
            &mut length,
        )
    };
    (done == 0 && info.tcpi_rtt > 0).then(|| Duration::from_micros(u64::from(info.tcpi_rtt)))
}

#[cfg(test)]
mod tests {
    use super::*;

    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpListener;

    use crate::transport::line::{open, LineSpec};

    #[tokio::test]
    async fn bytes_cross_a_connection_both_ways_without_delay() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let (client, accepted) = tokio::join!(connect("127.0.0.1", port), listener.accept());
        let mut client = client.unwrap();
        let (mut server, _) = accepted.unwrap();
        assert!(client.nodelay().unwrap());
        let bytes: Vec<u8> = (0..=255u8).collect();
        client.write_all(&bytes).await.unwrap();
        let mut got = vec![0u8; 256];
        server.read_exact(&mut got).await.unwrap();
        assert_eq!(got, bytes);
        server.write_all(b"\x00\x87\x80\x81").await.unwrap();
        let mut got = [0u8; 4];
        client.read_exact(&mut got).await.unwrap();
        assert_eq!(&got, b"\x00\x87\x80\x81");
    }

    #[tokio::test]
    async fn a_refused_connection_says_so() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        drop(listener);
        let error = connect("127.0.0.1", port).await.unwrap_err();
        assert_eq!(
            error.to_string(),
            format!(
                "cannot connect to 127.0.0.1:{port}: connection refused \
                 (nothing is listening on that port)"
            )
        );
    }

    #[tokio::test]
    async fn open_connects_a_tcp_spec() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let spec = LineSpec::parse_tcp(&format!("127.0.0.1:{port},resend=20s")).unwrap();
        let (line, accepted) = tokio::join!(open(&spec), listener.accept());
        let mut line = line.unwrap();
        let (mut server, _) = accepted.unwrap();
        line.write_all(b"\x01\x02\x03\x04").await.unwrap();
        line.flush().await.unwrap();
        let mut got = [0u8; 4];
        server.read_exact(&mut got).await.unwrap();
        assert_eq!(&got, b"\x01\x02\x03\x04");
    }
}
