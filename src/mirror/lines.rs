//! Reading lines from a peer with a cap on their length, so that a line
//! that never ends costs at most the cap in memory, however long it is.
//! Cancel-safe: a read dropped in a `select!` loses nothing.

use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};

use super::wire::WireError;

/// Why no line could be read.
#[derive(Debug, thiserror::Error)]
pub enum LineError {
    #[error(transparent)]
    Wire(#[from] WireError),
    #[error("the connection ended in the middle of a line")]
    Cut,
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

pub struct LineReader<R> {
    reader: BufReader<R>,
    line: Vec<u8>,
    limit: usize,
}

impl<R: AsyncRead + Unpin> LineReader<R> {
    /// Lines of at most `limit` bytes, newline included.
    pub fn new(inner: R, limit: usize) -> LineReader<R> {
        LineReader {
            reader: BufReader::with_capacity(limit.clamp(256, 64 << 10), inner),
            line: Vec::new(),
            limit,
        }
    }

    /// The next line without its newline (and a CR before it); `None` at
    /// the end. A line over the limit is an error as soon as the limit is
    /// passed, as is one that is not UTF-8.
    pub async fn next_line(&mut self) -> Result<Option<String>, LineError> {
        loop {
            let available = self.reader.fill_buf().await?;
            if available.is_empty() {
                return match self.line.is_empty() {
                    true => Ok(None),
                    false => Err(LineError::Cut),
                };
            }
            let (taken, ends) = match available.iter().position(|&b| b == b'\n') {
                Some(at) => (at + 1, true),
                None => (available.len(), false),
            };
            if self.line.len() + taken > self.limit {
                self.line.clear();
                self.reader.consume(taken);
                return Err(WireError::TooLong { limit: self.limit }.into());
            }
            self.line.extend_from_slice(&available[..taken]);
            self.reader.consume(taken);
            if ends {
                let mut bytes = std::mem::take(&mut self.line);
                bytes.pop();
                if bytes.last() == Some(&b'\r') {
                    bytes.pop();
                }
                return String::from_utf8(bytes)
                    .map(Some)
                    .map_err(|_| WireError::Malformed("a line that is not UTF-8".into()).into());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn read_all(input: &[u8], limit: usize) -> Vec<Result<Option<String>, String>> {
        let mut reader = LineReader::new(input, limit);
        let mut out = Vec::new();
        loop {
            let next = reader.next_line().await.map_err(|e| e.to_string());
            let done = matches!(next, Ok(None) | Err(_));
            out.push(next);
            if done {
                return out;
            }
        }
    }

    #[tokio::test]
    async fn lines_come_without_their_ends() {
        let got = read_all(b"one\r\ntwo\n\nthree\n", 64).await;
        let want: Vec<Result<Option<String>, String>> = vec![
            Ok(Some("one".into())),
            Ok(Some("two".into())),
            Ok(Some(String::new())),
            Ok(Some("three".into())),
            Ok(None),
        ];
        assert_eq!(got, want);
    }

    #[tokio::test]
    async fn a_line_over_the_cap_is_refused_without_being_kept() {
        let huge = vec![b'x'; 8 << 20];
        let mut reader = LineReader::new(&huge[..], 4096);
        let error = reader.next_line().await.unwrap_err();
        assert_eq!(error.to_string(), "a line longer than 4096 bytes");
        assert!(reader.line.capacity() <= 4096 + (64 << 10));
    }

    #[tokio::test]
    async fn an_unfinished_line_or_bad_utf8_is_an_error() {
        assert_eq!(
            read_all(b"half", 64).await,
            vec![Err(
                "the connection ended in the middle of a line".to_string()
            )]
        );
        let got = read_all(b"\xff\xfe\n", 64).await;
        assert!(
            matches!(&got[0], Err(e) if e.contains("not UTF-8")),
            "{got:?}"
        );
    }
}
