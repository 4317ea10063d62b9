//! The runner's side of its seated entrants: which seats a proposed
//! round would start absent, which entrants are being checked, where each
//! plays now (for the relay), and the wait for the checks before the
//! venue's goodbye.

use std::collections::HashMap;
use std::time::Duration;

use super::{Runner, TICK};
use crate::event::log::Pair;
use crate::event::pairing::Proposal;

/// How long an event that is over waits for the checks of its seats
/// before it says goodbye to them.
const CHECKS_WAIT: Duration = Duration::from_secs(120);

impl Runner {
    /// The proposal's seated entrants whose seats are not connected, one
    /// note each: the director sees them before confirming the round.
    pub(super) fn absent_seats(&self, proposal: &Proposal) -> Vec<String> {
        let seats = self.seat_pictures();
        let mut notes = Vec::new();
        for pair in &proposal.boards {
            for name in [&pair.black, &pair.white] {
                let Some(seat) = seats.iter().find(|s| &s.entrant == name) else {
                    continue;
                };
                if seat.connected {
                    continue;
                }
                let since = match &seat.since {
                    Some(since) => format!("lost at {since}"),
                    None => "never connected".to_string(),
                };
                notes.push(format!(
                    "board {}: {name}'s seat is absent ({since}): its clock runs from the \
                     start until it comes",
                    pair.board
                ));
            }
        }
        notes
    }

    /// Before the venue says goodbye, waits up to [`CHECKS_WAIT`] for the
    /// check of every connected seat that has no card yet: a seat that came
    /// after its game started is checked once it is over, and a bye's
    /// while the round plays, so that a short event would cut them.
    pub(super) fn wait_for_checks(&mut self) {
        let Some(seats) = self.seat_board.clone() else {
            return;
        };
        let until = std::time::Instant::now() + CHECKS_WAIT;
        let mut said = false;
        loop {
            let unchecked: Vec<String> = seats
                .lock()
                .expect("seat board")
                .values()
                .filter(|seat| seat.connected && (seat.checking || seat.card.is_none()))
                .map(|seat| seat.entrant.clone())
                .collect();
            if unchecked.is_empty() {
                return;
            }
            if std::time::Instant::now() >= until || self.stopped().is_some() {
                self.say(format!(
                    "the check of {} did not finish: the seats are let go without it",
                    unchecked.join(", ")
                ));
                return;
            }
            if !std::mem::replace(&mut said, true) {
                self.say(format!(
                    "the event is over; the check of {} finishes before the seats are let go",
                    unchecked.join(", ")
                ));
            }
            self.show();
            std::thread::sleep(TICK);
        }
    }

    /// Tells the relay which folder each seated entrant plays in now: those
    /// of the boards this run started or follows, so that a goref of an
    /// earlier run's board, voided or started again since, is refused the
    /// entrant's seat.
    pub(super) fn tell_relay_who_plays(&self) {
        let Some(playing) = &self.seat_playing else {
            return;
        };
        let state = self.state();
        let mut now = HashMap::new();
        for &(round, board) in self.running.keys() {
            let Some(found) = state.board(round, board) else {
                continue;
            };
            let folder = self.dir.join(found.folder(round));
            for entrant in [&found.pair.black, &found.pair.white] {
                now.insert(entrant.clone(), folder.clone());
            }
        }
        *playing.lock().expect("playing boards") = now;
    }

    /// Whether a seated entrant of `pair` is being checked through its
    /// seat: its board starts once the check is over.
    pub(super) fn seat_being_checked(&self, pair: &Pair) -> bool {
        let Some(seats) = &self.seat_board else {
            return false;
        };
        let seats = seats.lock().expect("seat board");
        [&pair.black, &pair.white]
            .iter()
            .any(|name| seats.get(*name).is_some_and(|seat| seat.checking))
    }

    /// The seated entrants' seats, in the entrants' order.
    pub(super) fn seat_pictures(&self) -> Vec<goref_core::tournament::hall::SeatPicture> {
        let Some(board) = &self.seat_board else {
            return Vec::new();
        };
        let seats = board.lock().expect("seat board");
        self.file
            .entrants
            .iter()
            .filter_map(|e| seats.get(&e.name).cloned())
            .collect()
    }
}
