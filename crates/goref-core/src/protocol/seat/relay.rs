//! The seat's side of its program: hands it the venue's command lines,
//! stamps when each was handed and when its response ended, frames the
//! program's output into whole GTP responses, and bounds the stderr lines
//! it sends when the venue asks for them.

use std::time::{Duration, Instant};

use super::wire::{SeatMessage, STDERR_LINES_PER_SECOND, STDERR_LINE_CHARS};
use crate::protocol::gtp::MAX_RESPONSE;

/// Relays between the venue's commands and one local program. Sans-IO.
#[derive(Debug, Default)]
pub struct Relay {
    in_flight: Option<(u64, Instant)>,
    buffer: Vec<u8>,
    /// This second's start, the stderr lines sent in it and those held back.
    stderr_window: Option<(Instant, u32, u64)>,
}

impl Relay {
    pub fn new() -> Relay {
        Relay::default()
    }

    /// Command `id` from the venue: the bytes to write to the program.
    pub fn command(&mut self, now: Instant, id: u64, line: &str) -> Vec<u8> {
        self.in_flight = Some((id, now));
        let mut bytes = line.trim_end_matches(['\r', '\n']).as_bytes().to_vec();
        bytes.push(b'\n');
        bytes
    }

    /// A line of the program's stderr, for a venue that asked for them:
    /// the messages to send. Past [`STDERR_LINES_PER_SECOND`] in a second
    /// the lines are held back, and the next second begins by saying how
    /// many; each line is cut to [`STDERR_LINE_CHARS`] characters.
    pub fn stderr_line(&mut self, now: Instant, line: &str) -> Vec<SeatMessage> {
        let mut messages = Vec::new();
        let (start, sent, held) = self.stderr_window.get_or_insert((now, 0, 0));
        if now.saturating_duration_since(*start) >= Duration::from_secs(1) {
            if *held > 0 {
                messages.push(SeatMessage::Stderr {
                    line: format!("[{held} stderr lines held back: more than {STDERR_LINES_PER_SECOND} a second]"),
                });
            }
            (*start, *sent, *held) = (now, 0, 0);
        }
        match *sent < STDERR_LINES_PER_SECOND {
            true => {
                *sent += 1;
                let line = match line.char_indices().nth(STDERR_LINE_CHARS) {
                    Some((at, _)) => &line[..at],
                    None => line,
                };
                messages.push(SeatMessage::Stderr {
                    line: line.to_string(),
                });
            }
            false => *held += 1,
        }
        messages
    }

    /// Whether a command waits for the program's response.
    pub fn is_waiting(&self) -> bool {
        self.in_flight.is_some()
    }

    /// What the program wrote: the messages for the venue, one for each
    /// response it completes.
    pub fn program_output(&mut self, now: Instant, bytes: &[u8]) -> Vec<SeatMessage> {
        self.buffer
            .extend(bytes.iter().copied().filter(|&b| b != b'\r'));
        let mut messages = Vec::new();
        loop {
            let start = self.buffer.iter().position(|&b| b != b'\n');
            let Some(start) = start else {
                self.buffer.clear();
                break;
            };
            self.buffer.drain(..start);
            let Some(end) = self.buffer.windows(2).position(|w| w == b"\n\n") else {
                break;
            };
            let response: Vec<u8> = self.buffer.drain(..end + 2).collect();
            messages.push(self.message(now, response));
        }
        if self.buffer.len() > MAX_RESPONSE {
            let overlong = std::mem::take(&mut self.buffer);
            messages.push(SeatMessage::Output {
                text: String::from_utf8_lossy(&overlong).into_owned(),
            });
        }
        messages
    }

    /// The program exited or is being started again: what it left half
    /// written goes as output, and no command waits any more.
    pub fn program_gone(&mut self) -> Option<SeatMessage> {
        self.in_flight = None;
        let rest = std::mem::take(&mut self.buffer);
        (!rest.is_empty()).then(|| SeatMessage::Output {
            text: String::from_utf8_lossy(&rest).into_owned(),
        })
    }

    fn message(&mut self, now: Instant, response: Vec<u8>) -> SeatMessage {
        let text = String::from_utf8_lossy(&response).into_owned();
        match self.in_flight.take() {
            Some((id, handed)) => SeatMessage::Answer {
                id,
                text,
                think_ms: now.saturating_duration_since(handed).as_millis() as u64,
            },
            None => SeatMessage::Output { text },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_response_is_stamped_from_the_command_to_its_last_byte() {
        let t = goref_epoch::epoch();
        let mut relay = Relay::new();
        assert_eq!(relay.command(t, 7, "genmove black\n"), b"genmove black\n");
        assert!(relay.is_waiting());
        assert!(relay
            .program_output(t + Duration::from_millis(300), b"= D")
            .is_empty());
        let messages = relay.program_output(t + Duration::from_millis(900), b"4\r\n\r\n");
        assert_eq!(
            messages,
            vec![SeatMessage::Answer {
                id: 7,
                text: "= D4\n\n".into(),
                think_ms: 900
            }]
        );
        assert!(!relay.is_waiting());
    }

    #[test]
    fn output_with_no_command_and_leftovers_go_as_output() {
        let t = goref_epoch::epoch();
        let mut relay = Relay::new();
        assert_eq!(
            relay.program_output(t, b"\n\n= stray\n\n"),
            vec![SeatMessage::Output {
                text: "= stray\n\n".into()
            }]
        );
        relay.command(t, 1, "name");
        relay.program_output(t, b"= half");
        assert_eq!(
            relay.program_gone(),
            Some(SeatMessage::Output {
                text: "= half".into()
            })
        );
        assert!(!relay.is_waiting());
    }

    #[test]
    fn a_response_without_end_is_not_held_beyond_the_bound() {
        let t = goref_epoch::epoch();
        let mut relay = Relay::new();
        relay.command(t, 1, "showboard");
        let flood = vec![b'x'; MAX_RESPONSE + 1];
        let messages = relay.program_output(t, &flood);
        assert!(
            matches!(&messages[..], [SeatMessage::Output { text }] if text.len() > MAX_RESPONSE)
        );
    }

    #[test]
    fn stderr_lines_are_bounded_a_second_and_the_held_back_counted() {
        let t = goref_epoch::epoch();
        let mut relay = Relay::new();
        let sent: usize = (0..150)
            .map(|n| relay.stderr_line(t, &format!("line {n}")).len())
            .sum();
        assert_eq!(sent, STDERR_LINES_PER_SECOND as usize);
        let next = relay.stderr_line(t + Duration::from_secs(1), "after");
        match &next[..] {
            [SeatMessage::Stderr { line: held }, SeatMessage::Stderr { line }] => {
                assert!(held.starts_with("[50 stderr lines held back"), "{held}");
                assert_eq!(line, "after");
            }
            other => panic!("{other:?}"),
        }
        let long = relay.stderr_line(t + Duration::from_secs(1), &"x".repeat(5000));
        assert!(
            matches!(&long[..], [SeatMessage::Stderr { line }] if line.len() == STDERR_LINE_CHARS)
        );
    }
}
