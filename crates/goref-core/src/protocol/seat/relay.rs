//! The seat's side of its program: hands it the venue's command lines,
//! stamps when each was handed and when its response ended, and frames the
//! program's output into whole GTP responses.

use std::time::Instant;

use super::wire::SeatMessage;
use crate::protocol::gtp::MAX_RESPONSE;

/// Relays between the venue's commands and one local program. Sans-IO.
#[derive(Debug, Default)]
pub struct Relay {
    in_flight: Option<(u64, Instant)>,
    buffer: Vec<u8>,
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
    use std::time::Duration;

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
}
