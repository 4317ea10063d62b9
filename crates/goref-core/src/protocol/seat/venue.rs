//! One seat's connection as the venue sees it: the `hello` and its token,
//! keepalives that find a half-open link, the round-trip time, the command
//! in flight and its stamps, and the bounds on what a seat may send.

use std::time::{Duration, Instant};

use super::tokens::Tokens;
use super::wire::{
    decode, ProgramState, Right, SeatMessage, VenueMessage, PROTOCOL_VERSION, STDERR_LINE_CHARS,
};

/// How long a new connection has to say `hello`.
pub const HELLO_WAIT: Duration = Duration::from_secs(10);
/// How often the venue pings an idle or busy seat.
pub const PING_EVERY: Duration = Duration::from_secs(2);
/// Silence after which a seat's link is taken for lost.
pub const LOST_AFTER: Duration = Duration::from_secs(10);
/// How long a refused `hello` waits before it hears so, against guessing.
const REFUSAL_DELAY: Duration = Duration::from_secs(2);
/// Lines a seat may send in one second: far above any program's pace.
const MAX_LINES_PER_SECOND: u32 = 1000;

/// What one connection's traffic and the passing of time amount to.
#[derive(Debug, Clone, PartialEq)]
pub enum VenueEvent {
    /// A message to write to the seat.
    Send(VenueMessage),
    /// The seat is in: it speaks for `entrant`.
    Admitted {
        entrant: String,
        client: String,
    },
    /// The seat is not let in: tell it `reason` once `after` has passed,
    /// then close.
    Refuse {
        reason: String,
        after: Duration,
    },
    /// The program's response to command `id`: the seat's stamp of its
    /// thinking, and the venue's own measure from sending to this moment.
    Answer {
        id: u64,
        text: String,
        think: Duration,
        venue_measure: Duration,
    },
    /// Output the program wrote with no command in flight.
    Output(String),
    Operator(Right),
    Program {
        state: ProgramState,
        detail: String,
    },
    /// A line of the program's stderr, which the venue asked for.
    Stderr(String),
    /// A round trip measured by a ping.
    RoundTrip(Duration),
    /// The link is lost or broken: close it.
    Lost {
        why: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Stage {
    AwaitingHello,
    Open { entrant: String },
    Closed,
}

/// The venue's side of one seat connection. Sans-IO: lines and time in,
/// [`VenueEvent`]s out.
#[derive(Debug)]
pub struct VenueSide {
    venue: String,
    stage: Stage,
    opened: Instant,
    last_heard: Instant,
    next_ping: Instant,
    ping: u64,
    ping_sent: Option<(u64, Instant)>,
    round_trip: Option<Duration>,
    next_id: u64,
    in_flight: Option<(u64, Instant)>,
    /// Commands numbered below this were sent to a program that has since
    /// exited on its seat: what the seat says to them is dropped, as it
    /// can only come from the program started after it.
    sent_to_gone: u64,
    window: (Instant, u32),
    asks_stderr: bool,
}

impl VenueSide {
    pub fn new(now: Instant, venue: impl Into<String>) -> VenueSide {
        VenueSide {
            venue: venue.into(),
            stage: Stage::AwaitingHello,
            opened: now,
            last_heard: now,
            next_ping: now + PING_EVERY,
            ping: 0,
            ping_sent: None,
            round_trip: None,
            next_id: 1,
            in_flight: None,
            sent_to_gone: 0,
            window: (now, 0),
            asks_stderr: false,
        }
    }

    /// Asks the seat for its program's stderr lines in the `welcome`.
    pub fn asking_stderr(mut self, asks: bool) -> VenueSide {
        self.asks_stderr = asks;
        self
    }

    /// The entrant this seat speaks for, once admitted.
    pub fn entrant(&self) -> Option<&str> {
        match &self.stage {
            Stage::Open { entrant } => Some(entrant),
            _ => None,
        }
    }

    /// The last round trip measured.
    pub fn round_trip(&self) -> Option<Duration> {
        self.round_trip
    }

    /// One line from the seat, terminator removed.
    pub fn handle_line(&mut self, now: Instant, line: &[u8], tokens: &Tokens) -> Vec<VenueEvent> {
        if self.stage == Stage::Closed {
            return Vec::new();
        }
        self.last_heard = now;
        if now.saturating_duration_since(self.window.0) >= Duration::from_secs(1) {
            self.window = (now, 0);
        }
        self.window.1 += 1;
        if self.window.1 > MAX_LINES_PER_SECOND {
            return self.broken(format!(
                "more than {MAX_LINES_PER_SECOND} lines in a second"
            ));
        }
        let message = match decode::<SeatMessage>(line) {
            Ok(message) => message,
            Err(error) if self.stage == Stage::AwaitingHello => {
                return self.refuse(format!("not a seat: {error}"));
            }
            Err(error) => return self.broken(format!("broke the seat protocol: {error}")),
        };
        match (&self.stage, message) {
            (
                Stage::AwaitingHello,
                SeatMessage::Hello {
                    protocol,
                    entrant,
                    token,
                    client,
                },
            ) => {
                if protocol != PROTOCOL_VERSION {
                    return self.refuse(format!(
                        "seat protocol {protocol}; this venue speaks {PROTOCOL_VERSION}"
                    ));
                }
                if let Err(error) = tokens.check(&entrant, &token) {
                    return self.refuse(error.to_string());
                }
                self.stage = Stage::Open {
                    entrant: entrant.clone(),
                };
                let welcome = VenueMessage::Welcome {
                    protocol: PROTOCOL_VERSION,
                    entrant: entrant.clone(),
                    venue: self.venue.clone(),
                    stderr: self.asks_stderr,
                };
                vec![
                    VenueEvent::Send(welcome),
                    VenueEvent::Admitted { entrant, client },
                ]
            }
            (Stage::AwaitingHello, other) => {
                self.refuse(format!("said {} before hello", kind(&other)))
            }
            (_, SeatMessage::Hello { .. }) => self.broken("said hello twice".into()),
            (_, SeatMessage::Pong { n }) => match self.ping_sent {
                Some((sent_n, sent)) if sent_n == n => {
                    self.ping_sent = None;
                    let trip = now.saturating_duration_since(sent);
                    self.round_trip = Some(trip);
                    vec![VenueEvent::RoundTrip(trip)]
                }
                _ => Vec::new(),
            },
            (_, SeatMessage::Answer { id, .. }) if id < self.sent_to_gone => Vec::new(),
            (_, SeatMessage::Answer { id, text, think_ms }) => match self.in_flight {
                Some((in_flight, sent)) if in_flight == id => {
                    self.in_flight = None;
                    vec![VenueEvent::Answer {
                        id,
                        text,
                        think: Duration::from_millis(think_ms),
                        venue_measure: now.saturating_duration_since(sent),
                    }]
                }
                _ => vec![VenueEvent::Output(text)],
            },
            (_, SeatMessage::Output { text }) => vec![VenueEvent::Output(text)],
            (_, SeatMessage::Operator { right }) => vec![VenueEvent::Operator(right)],
            (_, SeatMessage::Program { state, detail }) => {
                if state == ProgramState::Exited {
                    self.in_flight = None;
                    self.sent_to_gone = self.next_id;
                }
                vec![VenueEvent::Program { state, detail }]
            }
            (_, SeatMessage::Stderr { line }) if self.asks_stderr => {
                vec![VenueEvent::Stderr(bounded_chars(line, STDERR_LINE_CHARS))]
            }
            (_, SeatMessage::Stderr { .. }) => Vec::new(),
        }
    }

    /// A command for the program; the message to send. One is in flight at
    /// a time: a new one replaces an abandoned one.
    pub fn command(&mut self, now: Instant, line: &str) -> (u64, VenueMessage) {
        let id = self.next_id;
        self.next_id += 1;
        self.in_flight = Some((id, now));
        let message = VenueMessage::Command {
            id,
            line: line.to_string(),
        };
        (id, message)
    }

    /// When [`VenueSide::handle_timeout`] is next due.
    pub fn poll_timeout(&self) -> Option<Instant> {
        match self.stage {
            Stage::AwaitingHello => Some(self.opened + HELLO_WAIT),
            Stage::Open { .. } => Some(self.next_ping.min(self.last_heard + LOST_AFTER)),
            Stage::Closed => None,
        }
    }

    pub fn handle_timeout(&mut self, now: Instant) -> Vec<VenueEvent> {
        match self.stage {
            Stage::AwaitingHello if now >= self.opened + HELLO_WAIT => {
                self.broken(format!("no hello within {} s", HELLO_WAIT.as_secs()))
            }
            Stage::Open { .. } if now >= self.last_heard + LOST_AFTER => self.lost(format!(
                "silent for {} s",
                now.saturating_duration_since(self.last_heard).as_secs()
            )),
            Stage::Open { .. } if now >= self.next_ping => {
                self.ping += 1;
                self.next_ping = now + PING_EVERY;
                if self.ping_sent.is_none() {
                    self.ping_sent = Some((self.ping, now));
                } else if let Some((_, sent)) = self.ping_sent {
                    self.ping_sent = Some((self.ping, sent.max(now)));
                }
                let rtt_ms = self.round_trip.map(|trip| trip.as_millis() as u64);
                vec![VenueEvent::Send(VenueMessage::Ping {
                    n: self.ping,
                    rtt_ms,
                })]
            }
            _ => Vec::new(),
        }
    }

    fn refuse(&mut self, reason: String) -> Vec<VenueEvent> {
        self.stage = Stage::Closed;
        vec![VenueEvent::Refuse {
            reason,
            after: REFUSAL_DELAY,
        }]
    }

    fn lost(&mut self, why: String) -> Vec<VenueEvent> {
        self.stage = Stage::Closed;
        vec![VenueEvent::Lost { why }]
    }

    /// The seat broke the rules: it is told why (`refused`), then closed.
    fn broken(&mut self, why: String) -> Vec<VenueEvent> {
        let refused = VenueMessage::Refused {
            reason: why.clone(),
        };
        let mut events = vec![VenueEvent::Send(refused)];
        events.extend(self.lost(why));
        events
    }
}

fn kind(message: &SeatMessage) -> &'static str {
    match message {
        SeatMessage::Hello { .. } => "hello",
        SeatMessage::Answer { .. } => "an answer",
        SeatMessage::Output { .. } => "output",
        SeatMessage::Pong { .. } => "pong",
        SeatMessage::Operator { .. } => "an operator's right",
        SeatMessage::Program { .. } => "program",
        SeatMessage::Stderr { .. } => "stderr",
    }
}

/// `text` cut to its first `chars` characters.
fn bounded_chars(text: String, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        Some((at, _)) => text[..at].to_string(),
        None => text,
    }
}

#[cfg(test)]
mod tests;
