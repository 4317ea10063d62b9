//! GTP framing in both directions (`reference/gtp-kgs.md` §2–3).
//!
//! Controller side: [`ResponseReader`] turns the bytes an engine writes on
//! its stdout into [`Response`]s, whatever the chunking, with bounded buffers,
//! and recovers from garbage instead of giving up on the engine.
//!
//! Engine side: [`parse_command_line`] and [`format_response`] are what the
//! built-in bot and the fake test engine need to speak GTP themselves.
//!
//! Reply helpers: `parse_vertex_list`, `parse_bool` and
//! `parse_command_list` read the results of `final_status_list`,
//! `known_command` and `list_commands`.

use std::fmt;

use crate::game::coord::{CoordError, Point};

use super::analysis_lines::{is_analysis_line, starts_analysis, AnalysisLines};

/// The longest line a [`ResponseReader`] buffers before giving up on it.
pub const MAX_LINE: usize = 64 * 1024;
/// The longest response text a [`ResponseReader`] accumulates.
pub const MAX_RESPONSE: usize = 1024 * 1024;

/// One complete response from an engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// The id after `=` or `?`, if the engine wrote one.
    pub id: Option<u32>,
    /// `true` for `=`, `false` for `?`.
    pub success: bool,
    /// The result or error message: the response's lines joined with `\n`,
    /// each with its trailing whitespace removed.
    pub text: String,
}

impl Response {
    /// The text as `Ok` for a success and `Err` for a failure.
    pub fn result(&self) -> Result<&str, &str> {
        if self.success {
            Ok(&self.text)
        } else {
            Err(&self.text)
        }
    }
}

/// What can go wrong while reading an engine's stdout. None of these is
/// fatal to the [`ResponseReader`]: it skips the offending line and goes on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GtpError {
    /// A non-empty line outside a response that does not start with `=` or `?`.
    #[error("engine sent '{}' where a GTP response was expected", shorten(.line))]
    Garbage { line: String },
    /// A line outside a response started with byte 0x01.
    #[error("the program is speaking GMP, not GTP (its output starts with byte 0x01)")]
    SpeaksGmp,
    /// A line longer than `limit` bytes; it is skipped, and so is the rest of
    /// the response it belongs to.
    #[error("engine sent a line longer than {limit} bytes")]
    LineTooLong { limit: usize },
    /// A response longer than `limit` bytes; the rest of it is skipped.
    #[error("engine sent a response longer than {limit} bytes")]
    ResponseTooLong { limit: usize },
}

/// The first 80 characters of a line, for messages.
fn shorten(line: &str) -> String {
    const KEEP: usize = 80;
    match line.char_indices().nth(KEEP) {
        Some((cut, _)) => format!("{}...", &line[..cut]),
        None => line.to_string(),
    }
}

/// The response being read: its header is known, more lines may follow.
#[derive(Debug)]
struct Partial {
    id: Option<u32>,
    success: bool,
    text: String,
}

impl Partial {
    fn into_response(self) -> Response {
        Response {
            id: self.id,
            success: self.success,
            text: self.text.trim_end().to_string(),
        }
    }
}

/// Incremental reader of GTP responses (controller side).
///
/// Feed it bytes in chunks of any size with [`feed`](Self::feed), then call
/// [`next`](Self::next) until it returns `None`. The result does not depend
/// on how the stream was chunked. Each line is preprocessed as §3 of the
/// reference says: CR and the other control characters except HT are
/// dropped, HT becomes a space, invalid UTF-8 is replaced, and trailing
/// whitespace is trimmed. Empty lines outside a response are ignored.
///
/// An unterminated line is kept only up to [`MAX_LINE`] bytes and a response
/// only up to [`MAX_RESPONSE`]; past that the reader reports an error, skips
/// what is left of the line or response, and carries on. Bytes fed in one
/// call stay buffered until `next` has consumed them.
#[derive(Debug, Default)]
pub struct ResponseReader {
    buf: Vec<u8>,
    /// Index in `buf` of the first byte not yet consumed (a line start).
    start: usize,
    /// Bytes before this index have been searched for LF already.
    scanned: usize,
    /// Dropping bytes up to the next LF.
    skip_line: bool,
    /// Dropping lines up to the empty line that ends a broken response.
    discard_response: bool,
    partial: Option<Partial>,
    /// The response awaited answers `*-genmove_analyze`: its analysis
    /// lines are kept apart and its `play` line ends it.
    analysis_mode: bool,
    analysis: AnalysisLines,
    /// An analysis response ended at its `play` line: what the engine
    /// writes until its empty line (Leela Zero pondering) is dropped.
    after_play: bool,
}

impl ResponseReader {
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends bytes read from the engine.
    pub fn feed(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    /// Whether a response has started but not yet ended.
    pub(crate) fn in_response(&self) -> bool {
        self.partial.is_some() || self.discard_response || self.after_play
    }

    /// Whether the responses to come answer `*-genmove_analyze`.
    pub(crate) fn expect_analysis(&mut self, on: bool) {
        self.analysis_mode = on;
    }

    /// The analysis lines read since the last call, and how many more were
    /// dropped.
    pub(crate) fn take_analysis_lines(&mut self) -> (Vec<String>, u64) {
        self.analysis.take_queued()
    }

    /// The last analysis line of the response just returned.
    pub(crate) fn take_last_analysis(&mut self) -> Option<String> {
        self.analysis.take_last()
    }

    /// An overlong line of an analysis response that is analysis: dropped
    /// and counted, not an error.
    fn overlong_analysis(&mut self, line_start: usize) -> bool {
        let analysis = self.analysis_mode
            && self.partial.is_some()
            && starts_analysis(&self.buf[line_start..]);
        if analysis {
            self.analysis.drop_one();
        }
        analysis
    }

    /// The next complete response or error, or `None` when more bytes are needed.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<Result<Response, GtpError>> {
        loop {
            if !self.skip_line && !self.in_response() && self.buf.get(self.start) == Some(&0x01) {
                self.skip_line = true;
                return Some(Err(GtpError::SpeaksGmp));
            }
            let Some(offset) = self.buf[self.scanned..].iter().position(|&b| b == b'\n') else {
                return self.wait_for_more();
            };
            let (line_start, line_end) = (self.start, self.scanned + offset);
            self.start = line_end + 1;
            self.scanned = self.start;
            if self.skip_line {
                self.skip_line = false;
                continue;
            }
            if line_end - line_start > MAX_LINE {
                if self.overlong_analysis(line_start) {
                    continue;
                }
                return Some(Err(self.line_too_long(line_start)));
            }
            let line = preprocess(&self.buf[line_start..line_end]);
            if let Some(result) = self.take_line(line.trim_end()) {
                return Some(result);
            }
        }
    }

    /// Ends the stream at EOF and returns what the end completes.
    ///
    /// An unterminated last line counts as a line, and a response cut off by
    /// EOF before its empty line is returned as it stands: engines that exit
    /// right after answering `quit` sometimes omit the empty line. Drain
    /// [`next`](Self::next) before calling this, and again after it.
    pub fn finish(&mut self) -> Option<Result<Response, GtpError>> {
        if self.skip_line || self.buf.len() > self.start {
            self.buf.push(b'\n');
        }
        self.buf.push(b'\n');
        self.next()
    }

    /// No complete line is buffered: checks the line limit and compacts.
    fn wait_for_more(&mut self) -> Option<Result<Response, GtpError>> {
        self.scanned = self.buf.len();
        let error = if !self.skip_line && self.buf.len() - self.start > MAX_LINE {
            if self.overlong_analysis(self.start) {
                self.skip_line = true;
                self.buf.clear();
                self.start = 0;
                self.scanned = 0;
                return None;
            }
            let error = self.line_too_long(self.start);
            self.skip_line = true;
            Some(Err(error))
        } else {
            None
        };
        if self.skip_line {
            self.buf.clear();
        } else {
            self.buf.drain(..self.start);
        }
        self.start = 0;
        self.scanned = self.buf.len();
        error
    }

    /// Gives up on an overlong line starting at `line_start`, and on the
    /// response it belongs to or starts.
    fn line_too_long(&mut self, line_start: usize) -> GtpError {
        let starts_response = matches!(self.buf.get(line_start), Some(b'=' | b'?'));
        if self.in_response() || starts_response {
            self.partial = None;
            self.discard_response = true;
        }
        GtpError::LineTooLong { limit: MAX_LINE }
    }

    /// Handles one preprocessed, right-trimmed line.
    fn take_line(&mut self, line: &str) -> Option<Result<Response, GtpError>> {
        if self.discard_response {
            self.discard_response = !line.is_empty();
            return None;
        }
        if self.after_play {
            if line.is_empty() || !line.starts_with(['=', '?']) {
                self.after_play = !line.is_empty();
                return None;
            }
            self.after_play = false;
        }
        if self.analysis_mode && self.partial.is_some() {
            if is_analysis_line(line) {
                self.analysis.push(line);
                return None;
            }
            if line.starts_with("play ") {
                return self.end_at_play(line);
            }
        }
        if let Some(partial) = &mut self.partial {
            if line.is_empty() {
                return self.partial.take().map(|p| Ok(p.into_response()));
            }
            if partial.text.len() + 1 + line.len() > MAX_RESPONSE {
                self.partial = None;
                self.discard_response = true;
                return Some(Err(GtpError::ResponseTooLong {
                    limit: MAX_RESPONSE,
                }));
            }
            partial.text.push('\n');
            partial.text.push_str(line);
            return None;
        }
        if line.is_empty() {
            return None;
        }
        let garbage = || {
            Some(Err(GtpError::Garbage {
                line: line.to_string(),
            }))
        };
        let success = match line.as_bytes()[0] {
            b'=' => true,
            b'?' => false,
            _ => return garbage(),
        };
        let digits = line[1..].bytes().take_while(u8::is_ascii_digit).count();
        let id = if digits == 0 {
            None
        } else {
            match line[1..1 + digits].parse::<u32>() {
                Ok(id) => Some(id),
                Err(_) => return garbage(),
            }
        };
        let rest = &line[1 + digits..];
        let text = rest.strip_prefix(' ').unwrap_or(rest);
        let analysis = self.analysis_mode && success;
        self.partial = Some(Partial {
            id,
            success,
            text: String::new(),
        });
        if analysis && is_analysis_line(text) {
            self.analysis.push(text);
            return None;
        }
        if analysis && text.starts_with("play ") {
            return self.end_at_play(text);
        }
        if let Some(partial) = &mut self.partial {
            partial.text = text.to_string();
        }
        None
    }

    /// An analysis response's `play` line: the answer, complete at once,
    /// whatever the engine writes before its empty line.
    fn end_at_play(&mut self, line: &str) -> Option<Result<Response, GtpError>> {
        let mut partial = self.partial.take()?;
        if !partial.text.is_empty() {
            partial.text.push('\n');
        }
        partial.text.push_str(line);
        self.after_play = true;
        Some(Ok(partial.into_response()))
    }
}

/// Drops control characters except HT, turns HT into a space, decodes lossily.
fn preprocess(raw: &[u8]) -> String {
    let kept: Vec<u8> = raw
        .iter()
        .filter_map(|&b| match b {
            b'\t' => Some(b' '),
            0..=0x1f | 0x7f => None,
            _ => Some(b),
        })
        .collect();
    String::from_utf8_lossy(&kept).into_owned()
}

/// A GTP command, as the referee sends it or an engine receives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Command {
    pub id: Option<u32>,
    pub name: String,
    pub args: Vec<String>,
}

impl Command {
    pub fn new(name: &str, args: &[&str]) -> Self {
        Command {
            id: None,
            name: name.to_string(),
            args: args.iter().map(|a| a.to_string()).collect(),
        }
    }

    pub(crate) fn with_id(self, id: u32) -> Self {
        Command {
            id: Some(id),
            ..self
        }
    }

    /// The line to send, LF included: `12 genmove b\n`.
    pub fn encode(&self) -> String {
        format!("{self}\n")
    }
}

/// The command line without its LF, as it is sent.
impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(id) = self.id {
            write!(f, "{id} ")?;
        }
        f.write_str(&self.name)?;
        for arg in &self.args {
            write!(f, " {arg}")?;
        }
        Ok(())
    }
}

/// Parses one command line (engine side), after the spec's preprocessing:
/// control characters except HT dropped, HT turned into a space, everything
/// from `#` on removed. Returns `None` for a line that is then empty, which
/// must get no response.
///
/// A leading all-digit token that fits a `u32` is the id. A line holding only
/// an id gives a command with an empty name, which an engine should answer
/// with an error.
pub fn parse_command_line(line: &str) -> Option<Command> {
    let cleaned: String = line
        .chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_ascii_control() => None,
            c => Some(c),
        })
        .collect();
    let without_comment = cleaned.split('#').next().unwrap_or_default();
    let mut words = without_comment.split_whitespace();
    let first = words.next()?;
    let id = if first.bytes().all(|b| b.is_ascii_digit()) {
        first.parse::<u32>().ok()
    } else {
        None
    };
    let name = match id {
        Some(_) => words.next().unwrap_or_default(),
        None => first,
    };
    Some(Command {
        id,
        name: name.to_string(),
        args: words.map(str::to_string).collect(),
    })
}

/// Formats a response (engine side): `=12 D4\n\n`, `? illegal move\n\n`, or
/// `= \n\n` for an empty success, as GNU Go writes it. Empty lines inside the
/// text are dropped and trailing whitespace trimmed, since an empty line would
/// end the response early.
pub fn format_response(id: Option<u32>, result: Result<&str, &str>) -> String {
    let (mark, text) = match result {
        Ok(text) => ('=', text),
        Err(text) => ('?', text),
    };
    let mut out = String::with_capacity(text.len() + 16);
    out.push(mark);
    if let Some(id) = id {
        out.push_str(&id.to_string());
    }
    out.push(' ');
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty())
        .collect();
    out.push_str(&lines.join("\n"));
    out.push_str("\n\n");
    out
}

/// Parses a list of vertices separated by any whitespace, as
/// `final_status_list` answers. Empty text is an empty list; `pass` is an error.
pub fn parse_vertex_list(text: &str, size: u8) -> Result<Vec<Point>, CoordError> {
    text.split_whitespace()
        .map(|word| Point::parse_gtp(word, size))
        .collect()
}

/// Parses a `list_commands` answer: one name per line, blank lines skipped.
pub fn parse_command_list(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn read_all(bytes: &[u8]) -> Vec<Result<Response, GtpError>> {
        let mut reader = ResponseReader::new();
        reader.feed(bytes);
        drain(&mut reader)
    }

    fn drain(reader: &mut ResponseReader) -> Vec<Result<Response, GtpError>> {
        std::iter::from_fn(|| reader.next()).collect()
    }

    fn read_to_eof(chunks: &[&[u8]]) -> Vec<Result<Response, GtpError>> {
        let mut reader = ResponseReader::new();
        let mut out = Vec::new();
        for chunk in chunks {
            reader.feed(chunk);
            out.extend(drain(&mut reader));
        }
        out.extend(reader.finish());
        out.extend(drain(&mut reader));
        out
    }

    fn ok(id: Option<u32>, text: &str) -> Result<Response, GtpError> {
        Ok(Response {
            id,
            success: true,
            text: text.to_string(),
        })
    }

    fn err(id: Option<u32>, text: &str) -> Result<Response, GtpError> {
        Ok(Response {
            id,
            success: false,
            text: text.to_string(),
        })
    }

    /// GNU Go 3.8's output for the transcript in `reference/gtp-kgs.md` §3.
    const GNUGO_TRANSCRIPT: &[u8] =
        b"=1 2\n\n=2 GNU Go\n\n= 3.8\n\n= \n\n=4 \n\n?5 illegal move\n\n\
? invalid color or coordinate\n\n=6 \n\n=7 E4\n\n? unknown command\n\n=8 true\n\n=9 false\n\n\
?13 cannot undo\n\n=16 B+17.5\n\n=17 \n\n=21 C5\nE5\n\n? unacceptable size\n\n\
? komi not a float\n\n? invalid color\n\n? invalid status\n\n=22 \n\n";

    fn gnugo_responses() -> Vec<Result<Response, GtpError>> {
        vec![
            ok(Some(1), "2"),
            ok(Some(2), "GNU Go"),
            ok(None, "3.8"),
            ok(None, ""),
            ok(Some(4), ""),
            err(Some(5), "illegal move"),
            err(None, "invalid color or coordinate"),
            ok(Some(6), ""),
            ok(Some(7), "E4"),
            err(None, "unknown command"),
            ok(Some(8), "true"),
            ok(Some(9), "false"),
            err(Some(13), "cannot undo"),
            ok(Some(16), "B+17.5"),
            ok(Some(17), ""),
            ok(Some(21), "C5\nE5"),
            err(None, "unacceptable size"),
            err(None, "komi not a float"),
            err(None, "invalid color"),
            err(None, "invalid status"),
            ok(Some(22), ""),
        ]
    }

    #[test]
    fn the_gnugo_transcript_parses_exactly() {
        assert_eq!(read_all(GNUGO_TRANSCRIPT), gnugo_responses());
    }

    #[test]
    fn byte_at_a_time_gives_the_same_responses() {
        let chunks: Vec<&[u8]> = GNUGO_TRANSCRIPT.chunks(1).collect();
        assert_eq!(read_to_eof(&chunks), gnugo_responses());
    }

    #[test]
    fn crlf_tabs_and_control_characters_are_cleaned() {
        assert_eq!(
            read_all(b"=3\x07 C3\tD4  \r\n\r\n"),
            vec![ok(Some(3), "C3 D4")]
        );
        assert_eq!(read_all(b"=1 a\r\nb\r\n\r\n"), vec![ok(Some(1), "a\nb")]);
    }

    #[test]
    fn blank_lines_between_responses_are_ignored() {
        assert_eq!(
            read_all(b"\n  \n\r\n=1 x\n\n\n\n=2 y\n\n"),
            vec![ok(Some(1), "x"), ok(Some(2), "y")]
        );
    }

    #[test]
    fn a_whitespace_line_ends_a_response() {
        assert_eq!(read_all(b"=1 C5\n \t\n"), vec![ok(Some(1), "C5")]);
    }

    #[test]
    fn bare_marks_and_missing_spaces_are_accepted() {
        assert_eq!(read_all(b"=\n\n"), vec![ok(None, "")]);
        assert_eq!(read_all(b"?\n\n"), vec![err(None, "")]);
        assert_eq!(read_all(b"=D4\n\n"), vec![ok(None, "D4")]);
        assert_eq!(read_all(b"=  D4\n\n"), vec![ok(None, " D4")]);
    }

    #[test]
    fn invalid_utf8_is_replaced() {
        assert_eq!(
            read_all(b"=1 caf\xe9\n\n"),
            vec![ok(Some(1), "caf\u{fffd}")]
        );
    }

    #[test]
    fn garbage_is_reported_and_reading_resumes() {
        assert_eq!(
            read_all(b"this is not gtp\n\n=7 D4\n\n"),
            vec![
                Err(GtpError::Garbage {
                    line: "this is not gtp".into()
                }),
                ok(Some(7), "D4"),
            ]
        );
    }

    #[test]
    fn an_overflowing_id_is_garbage() {
        assert!(matches!(
            read_all(b"=99999999999 x\n\n=1 y\n\n").as_slice(),
            [Err(GtpError::Garbage { .. }), Ok(_)]
        ));
    }

    #[test]
    fn garbage_messages_are_truncated() {
        let line = "x".repeat(500);
        let message = GtpError::Garbage { line }.to_string();
        assert!(message.len() < 150, "{message}");
        assert!(message.starts_with("engine sent 'xxx"));
        assert!(message.ends_with("...' where a GTP response was expected"));
    }

    #[test]
    fn a_leading_0x01_means_gmp() {
        assert_eq!(
            read_all(b"\x01\x02\x03\x04"),
            vec![Err(GtpError::SpeaksGmp)]
        );
        assert_eq!(
            read_all(b"\x01\x00\x10\x7f\n=1 ok\n\n"),
            vec![Err(GtpError::SpeaksGmp), ok(Some(1), "ok")]
        );
    }

    #[test]
    fn an_overlong_line_is_skipped_and_reading_resumes() {
        let mut stream = b"garbage ".to_vec();
        stream.extend(std::iter::repeat_n(b'x', MAX_LINE + 10));
        stream.extend_from_slice(b"\n=1 ok\n\n");
        let expected = vec![
            Err(GtpError::LineTooLong { limit: MAX_LINE }),
            ok(Some(1), "ok"),
        ];
        assert_eq!(read_all(&stream), expected);
        let chunks: Vec<&[u8]> = stream.chunks(1000).collect();
        assert_eq!(read_to_eof(&chunks), expected);
    }

    #[test]
    fn an_overlong_line_inside_a_response_drops_the_whole_response() {
        let mut stream = b"=1 C3\n".to_vec();
        stream.extend(std::iter::repeat_n(b'D', MAX_LINE + 1));
        stream.extend_from_slice(b"\nE5\n\n=2 ok\n\n");
        let expected = vec![
            Err(GtpError::LineTooLong { limit: MAX_LINE }),
            ok(Some(2), "ok"),
        ];
        assert_eq!(read_all(&stream), expected);
        let chunks: Vec<&[u8]> = stream.chunks(7).collect();
        assert_eq!(read_to_eof(&chunks), expected);
    }

    #[test]
    fn a_line_of_exactly_the_limit_is_accepted() {
        let mut stream = b"= ".to_vec();
        stream.extend(std::iter::repeat_n(b'a', MAX_LINE - 2));
        stream.extend_from_slice(b"\n\n");
        let results = read_to_eof(&stream.chunks(4096).collect::<Vec<_>>());
        assert!(matches!(results.as_slice(), [Ok(r)] if r.text.len() == MAX_LINE - 2));
    }

    #[test]
    fn an_overlong_response_is_dropped_and_reading_resumes() {
        let line = "A1 ".repeat(1000);
        let mut stream = String::from("=1 start\n");
        for _ in 0..(MAX_RESPONSE / line.len() + 2) {
            stream.push_str(&line);
            stream.push('\n');
        }
        stream.push_str("\n=2 ok\n\n");
        assert_eq!(
            read_all(stream.as_bytes()),
            vec![
                Err(GtpError::ResponseTooLong {
                    limit: MAX_RESPONSE
                }),
                ok(Some(2), "ok"),
            ]
        );
    }

    #[test]
    fn eof_completes_a_response_missing_its_empty_line() {
        assert_eq!(read_to_eof(&[b"=22 \n"]), vec![ok(Some(22), "")]);
        assert_eq!(read_to_eof(&[b"=22"]), vec![ok(Some(22), "")]);
        assert_eq!(read_to_eof(&[b"=21 C5\nE5"]), vec![ok(Some(21), "C5\nE5")]);
        assert_eq!(read_to_eof(&[b"=1 a\n\n"]), vec![ok(Some(1), "a")]);
        assert_eq!(read_to_eof(&[b""]), vec![]);
        assert_eq!(
            read_to_eof(&[b"bye"]),
            vec![Err(GtpError::Garbage { line: "bye".into() })]
        );
    }

    #[test]
    fn commands_encode_with_and_without_ids() {
        assert_eq!(
            Command::new("genmove", &["b"]).with_id(12).encode(),
            "12 genmove b\n"
        );
        assert_eq!(Command::new("clear_board", &[]).encode(), "clear_board\n");
        assert_eq!(
            Command::new("play", &["white", "pass"]).to_string(),
            "play white pass"
        );
    }

    #[test]
    fn command_lines_are_preprocessed() {
        assert_eq!(
            parse_command_line("6 play w D4  # comment"),
            Some(Command::new("play", &["w", "D4"]).with_id(6))
        );
        assert_eq!(
            parse_command_line("\tplay\tb\tQ16\r\n"),
            Some(Command::new("play", &["b", "Q16"]))
        );
        assert_eq!(
            parse_command_line("gen\x07move\x00 b\x1b"),
            Some(Command::new("genmove", &["b"]))
        );
        assert_eq!(
            parse_command_line("  list_commands  "),
            Some(Command::new("list_commands", &[]))
        );
        assert_eq!(parse_command_line(""), None);
        assert_eq!(parse_command_line(" \t \r\n"), None);
        assert_eq!(parse_command_line("# just a comment"), None);
        assert_eq!(
            parse_command_line("12"),
            Some(Command::new("", &[]).with_id(12))
        );
        assert_eq!(
            parse_command_line("-3 name"),
            Some(Command::new("-3", &["name"]))
        );
    }

    #[test]
    fn responses_format_like_gnugo() {
        assert_eq!(format_response(Some(12), Ok("D4")), "=12 D4\n\n");
        assert_eq!(
            format_response(None, Err("illegal move")),
            "? illegal move\n\n"
        );
        assert_eq!(format_response(None, Ok("")), "= \n\n");
        assert_eq!(format_response(Some(17), Ok("")), "=17 \n\n");
        assert_eq!(format_response(Some(1), Ok("C5\n\nE5\n")), "=1 C5\nE5\n\n");
    }

    #[test]
    fn reply_helpers_parse_their_results() {
        let points = parse_vertex_list("C5 D5\nE5\n\n  A1", 9).unwrap();
        assert_eq!(
            points,
            vec![
                Point::new(2, 4),
                Point::new(3, 4),
                Point::new(4, 4),
                Point::new(0, 0)
            ]
        );
        assert_eq!(parse_vertex_list("", 19), Ok(vec![]));
        assert_eq!(parse_vertex_list(" \n ", 19), Ok(vec![]));
        assert!(parse_vertex_list("C5 pass", 19).is_err());
        assert!(parse_vertex_list("K5", 9).is_err());
        assert_eq!(
            parse_command_list("protocol_version\n name \n\nkgs-genmove_cleanup"),
            vec!["protocol_version", "name", "kgs-genmove_cleanup"]
        );
    }

    fn arb_response() -> impl Strategy<Value = Response> {
        let line = "[A-Za-z0-9+.][ A-Za-z0-9+.]{0,12}[A-Za-z0-9+.]";
        (
            proptest::option::of(0u32..100_000),
            any::<bool>(),
            proptest::collection::vec(line, 0..4),
        )
            .prop_map(|(id, success, lines)| Response {
                id,
                success,
                text: lines.join("\n"),
            })
    }

    fn encode_stream(responses: &[Response], crlf: bool, blank_lines: &[u8]) -> Vec<u8> {
        let mut stream = String::new();
        for (i, r) in responses.iter().enumerate() {
            for _ in 0..blank_lines.get(i).copied().unwrap_or(0) {
                stream.push_str("  \n");
            }
            stream.push_str(&format_response(r.id, r.result()));
        }
        if crlf {
            stream = stream.replace('\n', "\r\n");
        }
        stream.into_bytes()
    }

    fn split_at(bytes: &[u8], cuts: &[usize]) -> Vec<Vec<u8>> {
        let mut points: Vec<usize> = cuts.iter().map(|c| c % (bytes.len() + 1)).collect();
        points.sort_unstable();
        let mut chunks = Vec::new();
        let mut from = 0;
        for p in points.into_iter().chain([bytes.len()]) {
            chunks.push(bytes[from..p].to_vec());
            from = p;
        }
        chunks
    }

    proptest! {
        #[test]
        fn any_chunking_of_a_valid_stream_gives_the_same_responses(
            responses in proptest::collection::vec(arb_response(), 0..8),
            crlf in any::<bool>(),
            blank_lines in proptest::collection::vec(0u8..3, 0..8),
            cuts in proptest::collection::vec(any::<usize>(), 0..20),
        ) {
            let stream = encode_stream(&responses, crlf, &blank_lines);
            let chunks = split_at(&stream, &cuts);
            let chunk_refs: Vec<&[u8]> = chunks.iter().map(Vec::as_slice).collect();
            let expected: Vec<_> = responses.into_iter().map(Ok).collect();
            prop_assert_eq!(read_to_eof(&chunk_refs), expected.clone());
            prop_assert_eq!(read_all(&stream), expected);
        }

        #[test]
        fn arbitrary_bytes_never_panic_and_chunking_does_not_matter(
            bytes in proptest::collection::vec(
                prop_oneof![any::<u8>(), Just(b'\n'), Just(b'='), Just(b' '), Just(0x01u8)],
                0..400,
            ),
            cuts in proptest::collection::vec(any::<usize>(), 0..20),
        ) {
            let whole = read_to_eof(&[&bytes]);
            let chunks = split_at(&bytes, &cuts);
            let chunk_refs: Vec<&[u8]> = chunks.iter().map(Vec::as_slice).collect();
            prop_assert_eq!(read_to_eof(&chunk_refs), whole);
        }

        #[test]
        fn command_lines_round_trip(
            id in proptest::option::of(any::<u32>()),
            name in "[a-z][a-z_-]{0,15}",
            args in proptest::collection::vec("[A-Za-z0-9.+-]{1,6}", 0..4),
        ) {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let mut command = Command::new(&name, &args);
            if let Some(id) = id {
                command = command.with_id(id);
            }
            prop_assert_eq!(parse_command_line(&command.encode()), Some(command));
        }

        #[test]
        fn command_line_parsing_never_panics(line in "\\PC*|[\\x00-\\x7f]*") {
            let _ = parse_command_line(&line);
        }
    }
}
