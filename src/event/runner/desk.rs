//! What the desk is told and shown: the lines said (none under `--json`
//! but those that always are), the event's picture each time it changes,
//! the seats that came or went and their check cards, the absent seats of
//! a pairing proposed, and the wait for the seats' checks before the
//! venue's goodbye.

use std::path::Path;

use super::*;

impl EventRunner {
    /// Before the venue says goodbye, waits up to [`CHECKS_WAIT`] for the
    /// check of every connected seat that has no card yet: a seat that came
    /// after its game started is checked once it is over, and a bye's
    /// while the round plays, so that a short event would cut them.
    pub(super) fn check_seats(&mut self, until: Option<Instant>, said: bool) {
        let until = until.unwrap_or(self.now.at + CHECKS_WAIT);
        let unchecked: Vec<String> = self
            .seats
            .iter()
            .filter(|seat| seat.connected && (seat.checking || seat.card.is_none()))
            .map(|seat| seat.entrant.clone())
            .collect();
        if unchecked.is_empty() {
            return self.say_goodbye();
        }
        if self.now.at >= until || self.stop.is_some() {
            self.say(format!(
                "the check of {} did not finish: the seats are let go without it",
                unchecked.join(", ")
            ));
            return self.say_goodbye();
        }
        if !said {
            self.say(format!(
                "the event is over; the check of {} finishes before the seats are let go",
                unchecked.join(", ")
            ));
        }
        self.show();
        self.phase = Phase::Checking {
            until: Some(until),
            said: true,
        };
    }

    /// The venue says goodbye to the seats, the desk is shown the event
    /// over, and the runner finishes.
    pub(super) fn say_goodbye(&mut self) {
        let standings_html = self.finished.clone().unwrap_or_default();
        if self.settings.seats {
            self.batch.push(Work::Do(Action::Farewell(format!(
                "{} is over: thank you for playing",
                self.file.name
            ))));
        }
        self.agenda.clear();
        self.phase = Phase::Over;
        self.stage = Stage::Over {
            standings_html: standings_html.display().to_string(),
        };
        self.show();
        self.batch
            .push(Work::Do(Action::Finished { standings_html }));
    }

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

    /// The seated entrants' seats, in the entrants' order.
    pub(super) fn seat_pictures(&self) -> Vec<SeatPicture> {
        self.file
            .entrants
            .iter()
            .filter_map(|e| self.seats.iter().find(|s| s.entrant == e.name).cloned())
            .collect()
    }

    /// Says `line` at the desk, unless the event speaks JSON on stdout.
    pub(super) fn say(&mut self, line: String) {
        if !self.settings.json {
            self.tell(line);
        }
    }

    /// Says `line` at the desk.
    pub(super) fn tell(&mut self, line: String) {
        self.batch.push(Work::Do(Action::Say(line)));
    }

    /// Shows the desk the event as it stands, when it wants pictures and
    /// something changed; says the seats that came or went, and each new
    /// check card.
    pub(super) fn show(&mut self) {
        let seats = self.seat_pictures();
        for seat in &seats {
            if self.seats_said.insert(seat.entrant.clone(), seat.connected) != Some(seat.connected)
                && (seat.connected || seat.since.is_some())
            {
                let how = match seat.connected {
                    true => "connected",
                    false => "lost",
                };
                let since = seat.since.as_deref().unwrap_or("");
                self.tell(format!("seat of {}: {how} at {since}", seat.entrant));
            }
            let said = self
                .cards_said
                .insert(seat.entrant.clone(), seat.card.clone());
            if let (Some(card), false) = (&seat.card, said == Some(seat.card.clone())) {
                let path = Path::new(crate::event::file::SEATS_FOLDER)
                    .join(crate::seats::keeper::CARDS_FOLDER)
                    .join(format!("{}.txt", seat.entrant));
                let kept = match seat.checking {
                    true => String::new(),
                    false => format!(" ({})", path.display()),
                };
                self.tell(format!(
                    "seat of {}: check card: {card}{kept}",
                    seat.entrant
                ));
            }
        }
        if !self.settings.wants_pictures {
            return;
        }
        let round = self.shown_round;
        let running = &self.running;
        let drawn = picture::draw(
            &self.file,
            &self.state(),
            round,
            self.stage.clone(),
            |board| running.contains_key(&(round, board)),
        );
        match drawn.map(|picture| EventPicture { seats, ..picture }) {
            Ok(picture) if self.shown.as_ref() != Some(&picture) => {
                self.shown = Some(picture.clone());
                self.batch.push(Work::Do(Action::Show(Box::new(picture))));
            }
            Ok(_) => {}
            Err(why) => self.tell(format!("goref: the standings: {why}")),
        }
    }
}
