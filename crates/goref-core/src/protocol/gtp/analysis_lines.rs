//! The analysis lines of a response to `*-genmove_analyze`, kept out of
//! its text: the `info` lines of Leela Zero and KataGo and CGOS's JSON
//! line, which come before the `play` line that is the answer proper.
//!
//! A bounded queue of the lines handed out (later ones only counted), the
//! response's last line (the engine's final view of its move), and the
//! pacing that contains a flood of them: at most [`ANALYSIS_LINES_PER_SECOND`]
//! lines and [`ANALYSIS_BYTES_PER_SECOND`] bytes a second are handed out
//! (the player reads them, and traces those it cannot read), the rest
//! counted.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// Lines held for the trace between two reads of the engine's output.
const QUEUED: usize = 64;
/// At most this many analysis lines a second go to the trace.
pub(super) const ANALYSIS_LINES_PER_SECOND: u32 = 20;
/// At most this many bytes of analysis lines a second go to the trace.
pub(super) const ANALYSIS_BYTES_PER_SECOND: usize = 64 * 1024;

/// Whether a line of an analysis response is analysis, not the answer.
pub(crate) fn is_analysis_line(line: &str) -> bool {
    line == "info" || line.starts_with("info ") || line.starts_with('{')
}

/// Whether raw bytes starting a line would make an analysis line.
pub(crate) fn starts_analysis(bytes: &[u8]) -> bool {
    bytes.starts_with(b"info ") || bytes.starts_with(b"{")
}

/// The analysis lines read so far. See the module documentation.
#[derive(Debug, Default)]
pub(crate) struct AnalysisLines {
    queue: VecDeque<String>,
    /// Lines not queued: the queue was full, or the line was too long.
    dropped: u64,
    last: Option<String>,
}

impl AnalysisLines {
    pub(crate) fn push(&mut self, line: &str) {
        if self.queue.len() < QUEUED {
            self.queue.push_back(line.to_string());
        } else {
            self.dropped += 1;
        }
        self.last = Some(line.to_string());
    }

    /// A line too long to be read: counted, never the last.
    pub(crate) fn drop_one(&mut self) {
        self.dropped += 1;
    }

    /// The lines queued for the trace and how many were dropped since the
    /// last call.
    pub(crate) fn take_queued(&mut self) -> (Vec<String>, u64) {
        (
            self.queue.drain(..).collect(),
            std::mem::take(&mut self.dropped),
        )
    }

    /// The last analysis line of the response just completed.
    pub(crate) fn take_last(&mut self) -> Option<String> {
        self.last.take()
    }
}

/// Lets at most [`ANALYSIS_LINES_PER_SECOND`] lines and [`ANALYSIS_BYTES_PER_SECOND`]
/// bytes through in any one-second window.
#[derive(Debug, Default)]
pub(crate) struct AnalysisLinePace {
    window: Option<Instant>,
    lines: u32,
    bytes: usize,
    /// Lines kept out since the last [`AnalysisLinePace::take_left_out`].
    left_out: u64,
}

impl AnalysisLinePace {
    /// Whether `line` may go to the trace now.
    pub(crate) fn admit(&mut self, now: Instant, line: &str) -> bool {
        let fresh = self
            .window
            .is_none_or(|start| now.saturating_duration_since(start) >= Duration::from_secs(1));
        if fresh {
            self.window = Some(now);
            self.lines = 0;
            self.bytes = 0;
        }
        if self.lines >= ANALYSIS_LINES_PER_SECOND
            || self.bytes + line.len() > ANALYSIS_BYTES_PER_SECOND
        {
            self.left_out += 1;
            return false;
        }
        self.lines += 1;
        self.bytes += line.len();
        true
    }

    pub(crate) fn leave_out(&mut self, lines: u64) {
        self.left_out += lines;
    }

    pub(crate) fn take_left_out(&mut self) -> u64 {
        std::mem::take(&mut self.left_out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::gtp::{Controller, ControllerEvent};

    const SECOND: Duration = Duration::from_secs(1);

    /// The reply's text and last analysis line, and the trace's lines.
    fn reply_of(events: &[ControllerEvent]) -> (String, Option<String>, Vec<String>, u64) {
        let mut traced = Vec::new();
        let mut left_out = 0;
        for event in events {
            match event {
                ControllerEvent::Analysis { line } => traced.push(line.clone()),
                ControllerEvent::AnalysisLeftOut { lines } => left_out += lines,
                ControllerEvent::Reply {
                    response, analysis, ..
                } => return (response.text.clone(), analysis.clone(), traced, left_out),
                other => panic!("unexpected {other:?}"),
            }
        }
        panic!("no reply in {events:?}")
    }

    #[test]
    fn leela_zeros_answer_is_its_play_line_and_its_info_lines_go_apart() {
        let t0 = crate::test_support::epoch();
        let mut c = Controller::new();
        c.send(t0, "lz-genmove_analyze", &["b", "100"], SECOND)
            .unwrap();
        let events = c.handle_stdout(
            t0,
            b"=1\ninfo move G10 visits 9 winrate 4999 prior 27 lcb 4894 order 0 pv G10 J10\n\
info move G10 visits 20 winrate 5012 prior 27 lcb 4894 order 0 pv G10 J10 N10\nplay G10\n\n",
        );
        let (text, last, traced, left_out) = reply_of(&events);
        assert_eq!(text, "play G10");
        assert!(last.unwrap().contains("visits 20"));
        assert_eq!((traced.len(), left_out), (2, 0));
        c.send(t0, "play", &["w", "D4"], SECOND).unwrap();
        let events = c.handle_stdout(t0, b"=2 \n\n");
        assert!(matches!(
            &events[..],
            [ControllerEvent::Reply { analysis: None, .. }]
        ));
    }

    #[test]
    fn the_move_counts_at_its_play_line_and_pondering_after_it_is_dropped() {
        let t0 = crate::test_support::epoch();
        let mut c = Controller::new();
        c.send(t0, "lz-genmove_analyze", &["w", "50"], SECOND)
            .unwrap();
        let events = c.handle_stdout(
            t0,
            b"=1\ninfo move D4 visits 2 winrate 6000 pv D4\nplay D4\n",
        );
        assert_eq!(reply_of(&events).0, "play D4");
        let pondering = c.handle_stdout(t0, b"info move Q16 visits 90 winrate 3000 pv Q16\n");
        assert_eq!(pondering, vec![]);
        c.send(t0, "play", &["b", "Q16"], SECOND).unwrap();
        let events = c.handle_stdout(
            t0,
            b"info move Q16 visits 95 winrate 3000 pv Q16\n\n=2 \n\n",
        );
        assert!(
            matches!(&events[..], [ControllerEvent::Reply { response, .. }] if response.id == Some(2))
        );
    }

    #[test]
    fn katago_and_cgos_lines_are_analysis_and_a_header_may_carry_one() {
        let t0 = crate::test_support::epoch();
        let mut c = Controller::new();
        c.send(t0, "kata-genmove_analyze", &["b", "10"], SECOND)
            .unwrap();
        let events = c.handle_stdout(
            t0,
            b"= info move E4 visits 487 winrate 0.48 scoreLead -0.61 pv E4 E3\nplay E4\n\n",
        );
        let (text, last, ..) = reply_of(&events);
        assert_eq!(text, "play E4");
        assert!(last.unwrap().starts_with("info move E4"));
        c.send(t0, "cgos-genmove_analyze", &["w"], SECOND).unwrap();
        let events = c.handle_stdout(t0, b"=2\n{\"winrate\":0.5,\"moves\":[]}\nplay pass\n\n");
        let (text, last, ..) = reply_of(&events);
        assert_eq!(
            (text.as_str(), last.as_deref()),
            ("play pass", Some("{\"winrate\":0.5,\"moves\":[]}"))
        );
    }

    #[test]
    fn an_answer_without_a_play_line_is_read_whole() {
        let t0 = crate::test_support::epoch();
        let mut c = Controller::new();
        c.send(t0, "lz-genmove_analyze", &["b", "10"], SECOND)
            .unwrap();
        let events = c.handle_stdout(t0, b"=1\ninfo move D4 visits 1 winrate 5000 pv D4\n\n");
        let (text, last, ..) = reply_of(&events);
        assert_eq!(text, "");
        assert!(last.is_some());
    }

    #[test]
    fn a_flood_of_info_lines_is_paced_counted_and_never_breaks_the_answer() {
        let t0 = crate::test_support::epoch();
        let mut c = Controller::new();
        c.send(t0, "kata-genmove_analyze", &["b", "1"], SECOND)
            .unwrap();
        let mut bytes = b"=1\n".to_vec();
        for n in 0..10_000 {
            bytes.extend(format!("info move C3 visits {n} winrate 0.5 pv C3 D4\n").as_bytes());
        }
        bytes.extend(b"info ".iter().chain([b'9'; 70_000].iter()));
        bytes.extend(b"\nplay C3\n\n");
        let mut events = Vec::new();
        for chunk in bytes.chunks(4096) {
            events.extend(c.handle_stdout(t0, chunk));
        }
        let (text, last, traced, left_out) = reply_of(&events);
        assert_eq!(text, "play C3");
        assert!(last.unwrap().contains("visits 9999"), "the last line read");
        assert_eq!(traced.len(), ANALYSIS_LINES_PER_SECOND as usize);
        assert_eq!(traced.len() as u64 + left_out, 10_001);
    }

    #[test]
    fn info_lines_of_a_plain_genmove_are_its_text() {
        let t0 = crate::test_support::epoch();
        let mut c = Controller::new();
        c.send(t0, "genmove", &["b"], SECOND).unwrap();
        let events = c.handle_stdout(t0, b"=1 info move\nD4\n\n");
        assert!(
            matches!(&events[..], [ControllerEvent::Reply { response, analysis: None, .. }] if response.text == "info move\nD4")
        );
    }

    #[test]
    fn analysis_lines_are_info_lines_and_json_lines() {
        assert!(is_analysis_line("info move D4 visits 3 winrate 5000 pv D4"));
        assert!(is_analysis_line("{\"winrate\":0.5,\"moves\":[]}"));
        assert!(!is_analysis_line("play D4"));
        assert!(!is_analysis_line("information"));
    }

    #[test]
    fn the_queue_is_bounded_and_the_last_line_is_kept_anyway() {
        let mut lines = AnalysisLines::default();
        for n in 0..100 {
            lines.push(&format!("info move D4 visits {n}"));
        }
        let (queued, dropped) = lines.take_queued();
        assert_eq!((queued.len(), dropped), (QUEUED, 100 - QUEUED as u64));
        assert_eq!(lines.take_last().as_deref(), Some("info move D4 visits 99"));
        assert_eq!(lines.take_last(), None);
        assert_eq!(lines.take_queued(), (Vec::new(), 0));
    }

    #[test]
    fn the_pace_admits_twenty_lines_a_second_and_counts_the_rest() {
        let t0 = crate::test_support::epoch();
        let mut pace = AnalysisLinePace::default();
        let admitted = (0..50).filter(|_| pace.admit(t0, "info move D4")).count();
        assert_eq!(admitted, ANALYSIS_LINES_PER_SECOND as usize);
        assert_eq!(pace.take_left_out(), 30);
        assert!(!pace.admit(t0 + Duration::from_millis(999), "info"));
        assert!(pace.admit(t0 + Duration::from_secs(1), "info"));
        assert_eq!(pace.take_left_out(), 1);
    }

    #[test]
    fn the_pace_bounds_the_bytes_too() {
        let t0 = crate::test_support::epoch();
        let mut pace = AnalysisLinePace::default();
        let long = "x".repeat(40 * 1024);
        assert!(pace.admit(t0, &long));
        assert!(!pace.admit(t0, &long));
        assert!(pace.admit(t0, "info short"));
    }
}
