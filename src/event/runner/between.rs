//! Between the rounds: the event's loop says what the event is, writes
//! the results its folders hold that the journal lacks, plays the current
//! round or closes it with its standings, finishes the event, or has the
//! next round's pairing confirmed, by `--yes` or by the director.

use super::*;
use crate::event::file::System;
use crate::event::pairing::{propose, Proposal};

impl EventRunner {
    /// What the event is and its file's notes; then each entrant whose
    /// program cannot start here is named.
    pub(super) fn intro(&mut self) {
        let plural = |n: usize, one: &str| match n {
            1 => format!("1 {one}"),
            n => format!("{n} {one}s"),
        };
        self.say(format!(
            "{}: {}, {}; its folder is {}",
            self.file.name,
            plural(self.file.entrants.len(), "entrant"),
            plural(self.file.rounds as usize, "round"),
            self.settings.dir.display()
        ));
        for note in self.file.notes.clone() {
            self.say(format!("note: {note}"));
        }
        self.batch.push(Work::CheckEntrants);
        self.batch.push(Work::Step(Step::Decide));
    }

    /// The loop's top: a stop asked ends it; the results of boards that
    /// ended while no event was watching are written from their folders.
    pub(super) fn decide_next(&mut self) {
        if let Some(why) = self.stopped() {
            return self.end(End::Stopped(why));
        }
        let state = self.state();
        for round in &state.rounds {
            for board in round.boards.iter().filter(|b| b.played.is_none()) {
                if let Some(folder) = board.dirs.last() {
                    self.batch.push(Work::Look {
                        round: round.number,
                        board: board.pair.board,
                        dir: folder.clone(),
                        then: Looked::Reconcile,
                    });
                }
            }
        }
        self.batch.push(Work::Step(Step::Choose));
    }

    /// The current round is played while it is not over or a goref of
    /// this run plays it; once over, its boards are looked at for a goref
    /// still playing one; with no round yet, the first is paired.
    pub(super) fn choose(&mut self) {
        let state = self.state();
        match state.current() {
            Some(round)
                if !round.is_over() || self.running.keys().any(|&(r, _)| r == round.number) =>
            {
                self.batch.push(Work::Step(Step::Play(round.number)));
            }
            Some(round) => {
                self.live_found = false;
                for (board, dir) in self.unfollowed(round) {
                    self.batch.push(Work::Look {
                        round: round.number,
                        board,
                        dir,
                        then: Looked::LiveCheck,
                    });
                }
                self.batch.push(Work::Step(Step::Chosen));
            }
            None => {
                let finished = state.is_finished(&self.file, 0);
                self.batch.push(Work::Step(Step::Finish {
                    played: 0,
                    finished,
                }));
            }
        }
    }

    /// The round found over is played on while a goref plays a board of
    /// it, else closed.
    pub(super) fn chosen(&mut self) {
        let state = self.state();
        let Some(round) = state.current() else {
            return;
        };
        let played = round.number;
        match self.live_found {
            true => self.batch.push(Work::Step(Step::Play(played))),
            false => {
                let finished = state.is_finished(&self.file, played);
                self.batch
                    .push(Work::Step(Step::Close { played, finished }));
            }
        }
    }

    /// The standings after `round`, in the journal once and on the page.
    pub(super) fn close_round(&mut self, round: u32, finished: bool) {
        let next = Work::Step(Step::Finish {
            played: round,
            finished,
        });
        let told = self
            .lines
            .iter()
            .any(|l| matches!(l.line, EventLine::Standings { round: r, .. } if r == round));
        if told {
            return self.batch.push(next);
        }
        let state = self.state();
        let divisions = match state.division_standings(&self.file) {
            Ok(divisions) => divisions,
            Err(why) => return self.end(End::Failed(why)),
        };
        if !self.settings.json {
            let mut lines = vec![format!("standings after round {round}:")];
            match crate::event::event_text(&self.file, &state, 80) {
                Ok(text) => lines.extend(text),
                Err(why) => return self.end(End::Failed(why)),
            }
            self.batch.push(Work::Do(Action::Standings(lines)));
            self.standings_shown = true;
        }
        self.batch.push(Work::Record(EventLine::Standings {
            round,
            standings: crate::event::standings_json(&divisions),
        }));
        self.batch.push(Work::Step(Step::Page));
        self.batch.push(next);
    }

    /// After round `played`: the event ends when it is `finished`, else
    /// the next round is paired.
    pub(super) fn finish_or_confirm(&mut self, played: u32, finished: bool) {
        if !finished {
            return self.batch.push(Work::Step(Step::Confirm(played + 1)));
        }
        self.batch.push(Work::Step(Step::Page));
        self.batch.push(Work::Step(Step::Finished));
    }

    /// Every round is played: said, then the seats' checks waited for
    /// before the goodbye.
    pub(super) fn finished(&mut self) {
        let standings_html = self.settings.dir.join(html::STANDINGS_PAGE);
        self.say(format!(
            "{} is over: the standings are in {}",
            self.file.name,
            standings_html.display()
        ));
        self.finished = Some(standings_html);
        match self.settings.seats {
            true => {
                self.phase = Phase::Checking {
                    until: None,
                    said: false,
                }
            }
            false => self.say_goodbye(),
        }
    }

    /// The next round's pairing, proposed and confirmed by `--yes`, or
    /// shown to the director, who is asked.
    pub(super) fn confirm(&mut self, round: u32) {
        let state = self.state();
        let mut proposal = propose(&self.file, &state, round);
        if proposal.boards.is_empty() {
            return self.end(End::Failed(format!(
                "round {round} has no game to play: fewer than two entrants are left"
            )));
        }
        if self.settings.yes {
            self.batch
                .push(Work::Record(pairing_line(proposal, "--yes")));
            self.batch.push(Work::Step(Step::Decide));
            return;
        }
        if !std::mem::replace(&mut self.standings_shown, true) {
            match crate::event::event_text(&self.file, &state, 80) {
                Ok(text) => self.batch.push(Work::Do(Action::Standings(text))),
                Err(why) => return self.end(End::Failed(why)),
            }
        }
        self.shown_round = round - 1;
        let proposed_notes = proposal.notes.clone();
        let absent = self.absent_seats(&proposal);
        proposal.notes.extend(absent.iter().cloned());
        self.stage = picture::pairing(&proposal);
        self.show();
        self.batch.push(Work::Ask(prompt::show(&proposal)));
        self.phase = Phase::Confirming(Box::new(Confirming {
            proposal,
            proposed_notes,
            absent,
        }));
    }

    /// What the director's `answer` to `proposal` does.
    pub(super) fn decide(&mut self, answer: &str, proposal: Proposal) {
        let round = proposal.round;
        let again = Work::Step(Step::Confirm(round));
        match prompt::decide(answer, &proposal, &self.state()) {
            Ok(prompt::Decision::Confirm) => {
                self.standings_shown = false;
                self.batch
                    .push(Work::Record(pairing_line(proposal, "director")));
                self.batch.push(Work::Step(Step::Decide));
                return;
            }
            Ok(prompt::Decision::Quit) => return self.end(End::Stopped(self.unconfirmed(round))),
            Ok(prompt::Decision::Record(EventLine::Add { .. }))
                if self.file.system != System::Swiss =>
            {
                self.tell(
                    "goref: a round robin's or a knockout's field is its event file's: add is \
                     for a Swiss"
                        .into(),
                );
            }
            Ok(prompt::Decision::Record(EventLine::Withdraw { name, .. }))
                if self.file.knockout.is_some() =>
            {
                self.tell(format!(
                    "goref: a knockout's bracket is fixed: {name}'s next game is decided by its \
                     result (result BLACK WHITE W+F REASON)"
                ));
            }
            Ok(prompt::Decision::Record(line @ EventLine::Add { .. })) => {
                self.batch.push(Work::CheckAddition(line))
            }
            Ok(prompt::Decision::Record(line)) => self.batch.push(Work::Record(line)),
            Ok(prompt::Decision::Again) => {}
            Err(why) => self.tell(format!("goref: {why}")),
        }
        self.batch.push(again);
    }

    /// Why the event stops when the director quits at round `round`'s
    /// pairing.
    pub(super) fn unconfirmed(&self, round: u32) -> String {
        format!(
            "the event stops before round {round} is confirmed; `goref event {}` proposes it \
             again",
            self.settings.dir.display()
        )
    }
}

/// The journal's line of a pairing confirmed by `by`.
fn pairing_line(proposal: Proposal, by: &str) -> EventLine {
    EventLine::Pairing {
        round: proposal.round,
        boards: proposal.boards,
        byes: proposal.byes,
        confirmed_by: by.into(),
    }
}
