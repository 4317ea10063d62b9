//! The seat protocol's messages, one JSON object a line, and the rule that
//! charges a seated program's clock.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::protocol::gtp::parse_command_line;

/// The version a `hello` and a `welcome` carry; a venue refuses another.
pub const PROTOCOL_VERSION: u32 = 1;
/// The longest line either side accepts, terminator excluded: a GTP
/// response of up to 1 MiB, escaped, fits.
pub const MAX_LINE: usize = 3 * 1024 * 1024;

/// What the seat says to the venue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum SeatMessage {
    /// The first line: who the seat speaks for, and its secret.
    Hello {
        protocol: u32,
        entrant: String,
        token: String,
        /// The seat's own name and version, for the director.
        client: String,
    },
    /// The program's whole response to command `id`, as it wrote it
    /// (`= D4\n\n`), and the time from handing it the command to the
    /// response's last byte.
    Answer {
        id: u64,
        text: String,
        think_ms: u64,
    },
    /// Output the program wrote with no command in flight.
    Output { text: String },
    /// The answer to a `ping`.
    Pong { n: u64 },
    /// The operator used one of the two rights the rules give.
    Operator { right: Right },
    /// The program's state changed on the seat's machine.
    Program { state: ProgramState, detail: String },
    /// A line the program wrote to its stderr, sent only when the venue's
    /// `welcome` asked for them (`stderr`), at most [`STDERR_LINES_PER_SECOND`]
    /// a second and [`STDERR_LINE_CHARS`] characters a line.
    Stderr { line: String },
}

/// The most stderr lines a seat sends in a second; the rest are counted
/// and said in one line once the second is over.
pub const STDERR_LINES_PER_SECOND: u32 = 100;
/// The longest stderr line a seat sends, in characters; the rest is cut.
pub const STDERR_LINE_CHARS: usize = 1000;

/// What the venue says to the seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum VenueMessage {
    /// The seat is in: it speaks for `entrant` at `venue`.
    Welcome {
        protocol: u32,
        entrant: String,
        venue: String,
        /// The venue asks for the program's stderr lines; without it they
        /// stay on the seat's machine.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        stderr: bool,
    },
    /// The seat is not let in, or is sent away; the connection closes.
    Refused { reason: String },
    /// A GTP command line to hand to the program as it is.
    Command { id: u64, line: String },
    /// Keepalive; answered with `pong` and the same `n`. `rtt_ms`: the
    /// last round trip the venue measured, for the seat's screen.
    Ping {
        n: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rtt_ms: Option<u64>,
    },
    /// One line of the stream of the game the entrant plays, exactly as
    /// `--json` prints it, for the seat's screen.
    Stream { line: String },
    /// Start the program again with the same settings; the board then
    /// tells it the game so far.
    Restart,
    /// What the seat's screen shows: the round, the board, the colour and
    /// the opponent, free text for this version.
    Info { text: String },
    /// The venue has no more games for this seat (the event is over): the
    /// seat stops rather than dial again. The connection closes.
    Goodbye { reason: String },
}

/// The operator's rights during a game (KGS rules): to have the program
/// resign, and to start it again with the same settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Right {
    Resign,
    Restart,
}

/// The program on the seat's machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProgramState {
    Started,
    Exited,
}

/// A line that is not a message of this protocol.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WireError {
    #[error("a line of {0} bytes, longer than the protocol allows")]
    TooLong(usize),
    #[error("not a message: {0}")]
    Malformed(String),
}

/// One message as its line, terminator included.
pub fn encode<T: Serialize>(message: &T) -> Vec<u8> {
    let mut line = serde_json::to_vec(message).expect("messages always serialise");
    line.push(b'\n');
    line
}

/// One line, terminator excluded, as a message.
pub fn decode<T: for<'de> Deserialize<'de>>(line: &[u8]) -> Result<T, WireError> {
    if line.len() > MAX_LINE {
        return Err(WireError::TooLong(line.len()));
    }
    serde_json::from_slice(line).map_err(|e| {
        let shown: String = String::from_utf8_lossy(&line[..line.len().min(80)]).into();
        WireError::Malformed(format!("{e} in '{shown}'"))
    })
}

/// Cuts a byte stream into lines, refusing one longer than its bound
/// ([`MAX_LINE`] unless [`LineSplitter::bounded`]) without holding more
/// than that.
#[derive(Debug)]
pub struct LineSplitter {
    buffer: Vec<u8>,
    bound: usize,
}

impl Default for LineSplitter {
    fn default() -> Self {
        LineSplitter::bounded(MAX_LINE)
    }
}

impl LineSplitter {
    /// A splitter that refuses a line longer than `bound` bytes.
    pub fn bounded(bound: usize) -> LineSplitter {
        LineSplitter {
            buffer: Vec::new(),
            bound,
        }
    }

    /// The complete lines in what has arrived so far, terminators removed.
    pub fn feed(&mut self, bytes: &[u8]) -> Result<Vec<Vec<u8>>, WireError> {
        self.buffer.extend_from_slice(bytes);
        let mut lines = Vec::new();
        while let Some(end) = self.buffer.iter().position(|&b| b == b'\n') {
            let mut line: Vec<u8> = self.buffer.drain(..=end).collect();
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            if line.len() > self.bound {
                self.buffer.clear();
                return Err(WireError::TooLong(line.len()));
            }
            lines.push(line);
        }
        if self.buffer.len() > self.bound {
            return Err(WireError::TooLong(self.buffer.len()));
        }
        Ok(lines)
    }
}

/// Whether a GTP command line (with or without its id) asks for a move.
pub fn is_move_request(line: &str) -> bool {
    parse_command_line(line).is_some_and(|command| {
        let name = command.name.as_str();
        matches!(name, "genmove" | "kgs-genmove_cleanup" | "reg_genmove")
            || name.ends_with("genmove_analyze")
    })
}

/// The time a seated program's clock is charged for one command: what the
/// seat measured, but never less than the venue's own measure less
/// `lag_allowance` (so a dishonest seat gains at most the allowance) and
/// never more than the venue's measure.
pub fn charged(seat_think: Duration, venue_measure: Duration, lag_allowance: Duration) -> Duration {
    seat_think.clamp(venue_measure.saturating_sub(lag_allowance), venue_measure)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_read_back_as_written_and_name_their_type() {
        let hello = SeatMessage::Hello {
            protocol: 1,
            entrant: "alpha".into(),
            token: "s3cret".into(),
            client: "goref-seat 0.1.0".into(),
        };
        let line = encode(&hello);
        assert!(line.ends_with(b"\n"));
        assert!(String::from_utf8_lossy(&line).starts_with(r#"{"type":"hello""#));
        assert_eq!(
            decode::<SeatMessage>(&line[..line.len() - 1]).unwrap(),
            hello
        );
        let answer: SeatMessage =
            decode(br#"{"type":"answer","id":3,"text":"= D4\n\n","think_ms":1200}"#).unwrap();
        assert_eq!(
            answer,
            SeatMessage::Answer {
                id: 3,
                text: "= D4\n\n".into(),
                think_ms: 1200
            }
        );
        let restart: VenueMessage = decode(br#"{"type":"restart"}"#).unwrap();
        assert_eq!(restart, VenueMessage::Restart);
    }

    #[test]
    fn junk_is_a_clear_error_not_a_panic() {
        for junk in [
            &b"genmove b"[..],
            br#"{"type":"answer"}"#,
            br#"{"type":"launch","what":"rm -rf /"}"#,
            b"\xff\xfe",
        ] {
            assert!(matches!(
                decode::<SeatMessage>(junk),
                Err(WireError::Malformed(_))
            ));
        }
    }

    #[test]
    fn the_splitter_keeps_partial_lines_and_refuses_an_endless_one() {
        let mut splitter = LineSplitter::default();
        assert!(splitter.feed(b"{\"a\"").unwrap().is_empty());
        assert_eq!(
            splitter.feed(b":1}\r\n{}\nx").unwrap(),
            vec![b"{\"a\":1}".to_vec(), b"{}".to_vec()]
        );
        let mut flood = LineSplitter::default();
        let chunk = vec![b'x'; 1 << 20];
        let mut refused = false;
        for _ in 0..4 {
            if flood.feed(&chunk).is_err() {
                refused = true;
                break;
            }
        }
        assert!(refused);
        let mut bounded = LineSplitter::bounded(10);
        assert!(bounded.feed(b"0123456789").unwrap().is_empty());
        assert!(
            bounded.feed(b"x\n").is_err(),
            "a line over the bound is refused when its end comes in the same feed"
        );
        assert_eq!(
            LineSplitter::bounded(10).feed(b"0123456789\n").unwrap(),
            vec![b"0123456789".to_vec()]
        );
    }

    #[test]
    fn a_move_request_is_known_by_its_command_not_its_arguments() {
        assert!(is_move_request("genmove black"));
        assert!(is_move_request("15 genmove b"));
        assert!(is_move_request("7 kgs-genmove_cleanup white"));
        assert!(is_move_request("lz-genmove_analyze b 100"));
        assert!(!is_move_request("9 known_command kgs-genmove_cleanup"));
        assert!(!is_move_request("play black D4"));
        assert!(!is_move_request(""));
    }

    #[test]
    fn a_seat_is_charged_its_own_time_within_the_allowance() {
        let ms = Duration::from_millis;
        assert_eq!(charged(ms(1200), ms(1500), ms(1000)), ms(1200));
        assert_eq!(
            charged(ms(100), ms(1500), ms(1000)),
            ms(500),
            "a seat that lies"
        );
        assert_eq!(
            charged(ms(2000), ms(1500), ms(1000)),
            ms(1500),
            "never more"
        );
        assert_eq!(
            charged(ms(100), ms(1500), ms(0)),
            ms(1500),
            "UEC: the venue's measure"
        );
    }
}
