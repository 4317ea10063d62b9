//! Sans-IO controller for one GTP engine: one command in flight at a time.
//!
//! The caller writes the bytes [`Controller::send`] returns to the engine's
//! stdin, hands everything read from its stdout to
//! `Controller::handle_stdout`, calls `Controller::handle_eof` when stdout
//! closes, and calls `Controller::handle_timeout` once the instant from
//! `Controller::poll_timeout` has come. The controller never reads the clock.
//!
//! Every command gets an id, counting up from 1. A reply carrying the id of
//! the command in flight, or carrying no id at all (some engines drop ids),
//! completes it; a reply with any other id, or one arriving while nothing is
//! in flight, is [`ControllerEvent::Unexpected`]. Once a command has timed
//! out it is abandoned, so its late reply is `Unexpected` too, unless the
//! engine dropped the id, in which case that late reply is taken for the
//! next command's: a GTP engine without ids cannot be told apart.
//!
//! A `*-genmove_analyze` command's analysis lines are not part of its
//! reply's text: each is an [`ControllerEvent::Analysis`], paced
//! (`analysis_lines`), and the last one comes with the reply.

use std::time::{Duration, Instant};

use super::analysis_lines::AnalysisLinePace;
use super::codec::{Command, GtpError, Response, ResponseReader};

/// What the engine's output and the passing of time amount to.
#[derive(Debug, Clone, PartialEq)]
pub enum ControllerEvent {
    /// The reply to the command in flight, which is now complete.
    Reply {
        command: Command,
        response: Response,
        /// From sending the command to the call that delivered the reply.
        elapsed: Duration,
        /// For `*-genmove_analyze`: the reply's last analysis line.
        analysis: Option<String>,
    },
    /// An analysis line of the reply being read.
    Analysis { line: String },
    /// Analysis lines passed over (a flood, or lines too long), counted
    /// since the last such event; told before the reply.
    AnalysisLeftOut { lines: u64 },
    /// The deadline passed with no reply; the command is abandoned.
    /// `limit` is the time it was given, however late the shell noticed.
    TimedOut { command: Command, limit: Duration },
    /// The engine's output broke the framing; the command in flight, if any,
    /// is still waiting for its reply.
    Protocol { error: GtpError },
    /// A response with no command in flight, or with another command's id.
    Unexpected { response: Response },
}

/// [`Controller::send`] was called while a command was still in flight.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{}' is still waiting for its reply", .in_flight)]
pub struct Busy {
    pub in_flight: Command,
}

#[derive(Debug)]
struct Pending {
    command: Command,
    sent: Instant,
    /// `None` when the timeout is too large to be represented.
    deadline: Option<Instant>,
}

/// Drives one engine over GTP. See the module documentation.
#[derive(Debug)]
pub struct Controller {
    reader: ResponseReader,
    next_id: u32,
    pending: Option<Pending>,
    pace: AnalysisLinePace,
}

impl Default for Controller {
    fn default() -> Self {
        Self::new()
    }
}

impl Controller {
    pub fn new() -> Self {
        Controller {
            reader: ResponseReader::new(),
            next_id: 1,
            pending: None,
            pace: AnalysisLinePace::default(),
        }
    }

    /// Whether a command is waiting for its reply.
    #[cfg(test)]
    pub(crate) fn is_busy(&self) -> bool {
        self.pending.is_some()
    }

    /// The command waiting for its reply, if any.
    pub fn in_flight(&self) -> Option<&Command> {
        self.pending.as_ref().map(|p| &p.command)
    }

    /// Starts a command and returns the bytes to write to the engine. The
    /// reply is due `timeout` after `now`.
    pub fn send(
        &mut self,
        now: Instant,
        name: &str,
        args: &[&str],
        timeout: Duration,
    ) -> Result<Vec<u8>, Busy> {
        if let Some(pending) = &self.pending {
            return Err(Busy {
                in_flight: pending.command.clone(),
            });
        }
        self.reader
            .expect_analysis(name.ends_with("genmove_analyze"));
        let command = Command::new(name, args).with_id(self.next_id);
        self.next_id = self.next_id.checked_add(1).unwrap_or(1);
        let bytes = command.encode().into_bytes();
        self.pending = Some(Pending {
            command,
            sent: now,
            deadline: now.checked_add(timeout),
        });
        Ok(bytes)
    }

    /// Takes bytes from the engine's stdout. Replies are matched by content
    /// alone: a reply read after the deadline but before `handle_timeout`
    /// was called still completes its command, with an `elapsed` that shows it.
    pub fn handle_stdout(&mut self, now: Instant, bytes: &[u8]) -> Vec<ControllerEvent> {
        self.reader.feed(bytes);
        let mut events = Vec::new();
        while let Some(item) = self.reader.next() {
            self.analysis_events(now, &mut events, item.is_ok());
            events.push(self.event(now, item));
        }
        self.analysis_events(now, &mut events, false);
        events
    }

    /// The analysis lines read so far, as paced events; with `reply_next`,
    /// how many were left out, before the reply.
    fn analysis_events(
        &mut self,
        now: Instant,
        events: &mut Vec<ControllerEvent>,
        reply_next: bool,
    ) {
        let (lines, dropped) = self.reader.take_analysis_lines();
        self.pace.leave_out(dropped);
        for line in lines {
            if self.pace.admit(now, &line) {
                events.push(ControllerEvent::Analysis { line });
            }
        }
        if reply_next {
            let lines = self.pace.take_left_out();
            if lines > 0 {
                events.push(ControllerEvent::AnalysisLeftOut { lines });
            }
        }
    }

    /// The engine closed its stdout: a response cut short by the end (missing
    /// its empty line) is delivered as it stands. A command still in flight
    /// afterwards stays in flight, for the caller to report.
    pub fn handle_eof(&mut self, now: Instant) -> Vec<ControllerEvent> {
        let mut events = Vec::new();
        while let Some(item) = self.reader.next() {
            events.push(self.event(now, item));
        }
        if let Some(item) = self.reader.finish() {
            events.push(self.event(now, item));
        }
        while let Some(item) = self.reader.next() {
            events.push(self.event(now, item));
        }
        events
    }

    /// Abandons the command in flight if its deadline has come.
    pub fn handle_timeout(&mut self, now: Instant) -> Option<ControllerEvent> {
        let deadline = self.pending.as_ref()?.deadline?;
        if now < deadline {
            return None;
        }
        let pending = self.pending.take()?;
        Some(ControllerEvent::TimedOut {
            command: pending.command,
            limit: deadline.saturating_duration_since(pending.sent),
        })
    }

    /// When [`handle_timeout`](Self::handle_timeout) should next be called.
    pub fn poll_timeout(&self) -> Option<Instant> {
        self.pending.as_ref()?.deadline
    }

    fn event(&mut self, now: Instant, item: Result<Response, GtpError>) -> ControllerEvent {
        let response = match item {
            Ok(response) => response,
            Err(error) => return ControllerEvent::Protocol { error },
        };
        let matches = match &self.pending {
            Some(p) => response.id.is_none() || response.id == p.command.id,
            None => false,
        };
        let analysis = self.reader.take_last_analysis();
        match self.pending.take_if(|_| matches) {
            Some(pending) => ControllerEvent::Reply {
                command: pending.command,
                response,
                elapsed: now.saturating_duration_since(pending.sent),
                analysis,
            },
            None => ControllerEvent::Unexpected { response },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECOND: Duration = Duration::from_secs(1);

    fn reply(id: Option<u32>, text: &str) -> Response {
        Response {
            id,
            success: true,
            text: text.to_string(),
        }
    }

    #[test]
    fn ids_count_up_and_replies_complete_their_command() {
        let t0 = crate::test_support::epoch();
        let mut c = Controller::new();
        assert!(!c.is_busy());
        let bytes = c.send(t0, "protocol_version", &[], SECOND).unwrap();
        assert_eq!(bytes, b"1 protocol_version\n");
        assert!(c.is_busy());
        assert_eq!(c.poll_timeout(), Some(t0 + SECOND));
        let events = c.handle_stdout(t0 + Duration::from_millis(5), b"=1 2\n\n");
        assert_eq!(
            events,
            vec![ControllerEvent::Reply {
                command: Command::new("protocol_version", &[]).with_id(1),
                response: reply(Some(1), "2"),
                elapsed: Duration::from_millis(5),
                analysis: None,
            }]
        );
        assert!(!c.is_busy());
        assert_eq!(c.poll_timeout(), None);
        let bytes = c.send(t0, "genmove", &["b"], SECOND).unwrap();
        assert_eq!(bytes, b"2 genmove b\n");
    }

    #[test]
    fn a_reply_split_across_reads_completes_once() {
        let t0 = crate::test_support::epoch();
        let mut c = Controller::new();
        c.send(t0, "genmove", &["w"], SECOND).unwrap();
        assert_eq!(c.handle_stdout(t0, b"=1 Q"), vec![]);
        assert_eq!(c.handle_stdout(t0, b"16\n"), vec![]);
        let events = c.handle_stdout(t0, b"\n");
        assert!(
            matches!(&events[..], [ControllerEvent::Reply { response, .. }] if response.text == "Q16")
        );
    }

    #[test]
    fn a_reply_without_id_completes_the_command_in_flight() {
        let t0 = crate::test_support::epoch();
        let mut c = Controller::new();
        c.send(t0, "name", &[], SECOND).unwrap();
        let events = c.handle_stdout(t0, b"= Fake\n\n");
        assert!(
            matches!(&events[..], [ControllerEvent::Reply { response, .. }] if response.id.is_none())
        );
        assert!(!c.is_busy());
    }

    #[test]
    fn a_reply_with_another_id_is_unexpected_and_leaves_the_command_pending() {
        let t0 = crate::test_support::epoch();
        let mut c = Controller::new();
        c.send(t0, "name", &[], SECOND).unwrap();
        let events = c.handle_stdout(t0, b"=7 what\n\n=1 Fake\n\n");
        assert_eq!(events.len(), 2);
        assert_eq!(
            events[0],
            ControllerEvent::Unexpected {
                response: reply(Some(7), "what")
            }
        );
        assert!(
            matches!(&events[1], ControllerEvent::Reply { response, .. } if response.text == "Fake")
        );
    }

    #[test]
    fn a_reply_with_nothing_in_flight_is_unexpected() {
        let mut c = Controller::new();
        assert_eq!(
            c.handle_stdout(crate::test_support::epoch(), b"= hello\n\n"),
            vec![ControllerEvent::Unexpected {
                response: reply(None, "hello")
            }]
        );
    }

    #[test]
    fn sending_while_busy_is_refused() {
        let t0 = crate::test_support::epoch();
        let mut c = Controller::new();
        c.send(t0, "genmove", &["b"], SECOND).unwrap();
        let busy = c.send(t0, "name", &[], SECOND).unwrap_err();
        assert_eq!(busy.in_flight, Command::new("genmove", &["b"]).with_id(1));
        assert_eq!(
            busy.to_string(),
            "'1 genmove b' is still waiting for its reply"
        );
        assert_eq!(c.in_flight(), Some(&busy.in_flight));
    }

    #[test]
    fn a_timeout_noticed_late_names_the_time_the_command_was_given() {
        let t0 = crate::test_support::epoch();
        let mut c = Controller::new();
        c.send(t0, "protocol_version", &[], 2 * SECOND).unwrap();
        let late = t0 + 2 * SECOND + Duration::from_micros(482_665);
        assert!(matches!(
            c.handle_timeout(late),
            Some(ControllerEvent::TimedOut { limit, .. }) if limit == 2 * SECOND
        ));
    }

    #[test]
    fn a_timeout_abandons_the_command_and_its_late_reply_is_unexpected() {
        let t0 = crate::test_support::epoch();
        let mut c = Controller::new();
        c.send(t0, "genmove", &["b"], SECOND).unwrap();
        assert_eq!(c.handle_timeout(t0 + Duration::from_millis(999)), None);
        assert!(c.is_busy());
        assert_eq!(
            c.handle_timeout(t0 + SECOND),
            Some(ControllerEvent::TimedOut {
                command: Command::new("genmove", &["b"]).with_id(1),
                limit: SECOND,
            })
        );
        assert!(!c.is_busy());
        assert_eq!(c.handle_timeout(t0 + 2 * SECOND), None);
        c.send(t0 + 2 * SECOND, "name", &[], SECOND).unwrap();
        let events = c.handle_stdout(t0 + 2 * SECOND, b"=1 D4\n\n=2 Fake\n\n");
        assert_eq!(
            events[0],
            ControllerEvent::Unexpected {
                response: reply(Some(1), "D4")
            }
        );
        assert!(
            matches!(&events[1], ControllerEvent::Reply { command, .. } if command.name == "name")
        );
    }

    #[test]
    fn garbage_is_a_protocol_event_and_the_command_stays_pending() {
        let t0 = crate::test_support::epoch();
        let mut c = Controller::new();
        c.send(t0, "genmove", &["b"], SECOND).unwrap();
        let events = c.handle_stdout(t0, b"this is not gtp\n\n");
        assert_eq!(
            events,
            vec![ControllerEvent::Protocol {
                error: GtpError::Garbage {
                    line: "this is not gtp".into()
                }
            }]
        );
        assert!(c.is_busy());
        let events = c.handle_stdout(t0, b"=1 pass\n\n");
        assert!(matches!(&events[..], [ControllerEvent::Reply { .. }]));
    }

    #[test]
    fn eof_flushes_a_partial_response() {
        let t0 = crate::test_support::epoch();
        let mut c = Controller::new();
        c.send(t0, "quit", &[], SECOND).unwrap();
        assert_eq!(c.handle_stdout(t0, b"=1 \n"), vec![]);
        let events = c.handle_eof(t0);
        assert!(
            matches!(&events[..], [ControllerEvent::Reply { command, .. }] if command.name == "quit")
        );
    }

    #[test]
    fn eof_without_a_reply_leaves_the_command_in_flight() {
        let t0 = crate::test_support::epoch();
        let mut c = Controller::new();
        c.send(t0, "genmove", &["b"], SECOND).unwrap();
        assert_eq!(c.handle_eof(t0), vec![]);
        assert_eq!(c.in_flight().map(|c| c.name.as_str()), Some("genmove"));
    }

    #[test]
    fn an_unrepresentable_timeout_never_fires() {
        let t0 = crate::test_support::epoch();
        let mut c = Controller::new();
        c.send(t0, "genmove", &["b"], Duration::MAX).unwrap();
        assert_eq!(c.poll_timeout(), None);
        assert_eq!(c.handle_timeout(t0 + 1000 * SECOND), None);
    }
}
