//! What a GTP program says besides its answers' status: its stderr (kept
//! as the tail a failure quotes, and traced), and the analysis that comes
//! with a move (`*-genmove_analyze`).

use crate::transport::process::StderrItem;
use goref_core::game::Move;
use goref_core::protocol::gtp::analysis;
use goref_core::referee::{LineDirection, PlayerEvent};

use super::{GtpPlayer, STDERR_TAIL};

impl GtpPlayer {
    /// Passes on what the engine wrote to stderr before it exited: until its
    /// stderr closes or is quiet for a moment, and for a second at most.
    pub(super) async fn drain_stderr(&mut self) {
        for item in super::super::drain_stderr(&mut self.stderr).await {
            self.forward_stderr(item);
        }
    }

    /// The stderr lines a seat has already passed on: a seat's program
    /// lives on after the game, so its stderr never closes and a wait for
    /// it to fall quiet would only hold the game's end.
    pub(super) fn take_stderr_queued(&mut self) {
        while let Ok(item) = self.stderr.try_recv() {
            self.forward_stderr(item);
        }
    }

    /// A failure's reason with the last lines the engine wrote to stderr.
    pub(super) fn with_stderr_tail(&self, failure: String) -> String {
        if self.stderr_tail.is_empty() {
            return failure;
        }
        let lines: Vec<&str> = self.stderr_tail.iter().map(String::as_str).collect();
        format!("{failure}; its last stderr lines: {}", lines.join(" | "))
    }

    /// Stderr lines go to the trace; only a flood is an alert, and once.
    pub(super) fn forward_stderr(&mut self, item: StderrItem) {
        match item {
            StderrItem::Line(line) => {
                if self.stderr_tail.len() == STDERR_TAIL {
                    self.stderr_tail.pop_front();
                }
                self.stderr_tail.push_back(line.clone());
                self.trace(LineDirection::Stderr, line);
            }
            StderrItem::FloodStarted => self.notice(super::super::stderr_flood_notice()),
            StderrItem::Suppressed { lines, bytes } => self.trace(
                LineDirection::Stderr,
                super::super::stderr_left_out(lines, bytes),
            ),
        }
    }

    /// What the engine thought of `mv`, from the last analysis line of its
    /// answer: told to the referee, or, unreadable, noted in the trace.
    pub(super) fn tell_analysis(&mut self, mv: &Move) {
        let (Some(command), Some(line)) = (self.analysis, self.last_analysis.take()) else {
            return;
        };
        let read = analysis::parse_line(&line, command)
            .map(|candidates| analysis::of_move(&candidates, &mv.to_gtp()));
        match read {
            Ok(Some(analysis)) => self.reporter.send(PlayerEvent::Analysis(analysis)),
            Ok(None) => {}
            Err(why) if !self.analysis_unread_told => {
                self.analysis_unread_told = true;
                self.notice(format!(
                    "its analysis of {mv} was not read ({why}); the move counts, and analysis \
                     lines it cannot be read from are left in the trace from now on"
                ));
            }
            Err(_) => {}
        }
    }
}

/// The move of an answer to `*-genmove_analyze`: its `play` line, or a
/// lone vertex from an engine that answers as to `genmove`.
pub(super) fn played_vertex(text: &str) -> Option<&str> {
    let play = text
        .lines()
        .rev()
        .find_map(|line| line.trim().strip_prefix("play "));
    match play {
        Some(vertex) => Some(vertex.trim()),
        None => Some(text.trim()).filter(|t| !t.is_empty() && !t.contains(char::is_whitespace)),
    }
}
