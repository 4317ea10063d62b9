//! A player's absence: a seat that comes late (its lateness charged to its
//! clock), an absent seat's clock shown running down, and the venue's seats
//! away and back, which hold the game as a pause does.

use std::time::{Duration, Instant};

use crate::game::clock::{format_duration, Clock, TimeSystem};
use crate::game::Color;
use crate::referee::event::{GameEvent, Phase, PlayerInfo, SessionChange};

use super::{Referee, Waiting};

impl Referee {
    /// `color` came `late`: charged to its clock before its first move, as
    /// tardy time comes off the playing time; past its time, it has lost.
    pub(super) fn on_late(&mut self, now: Instant, color: Color, late: Duration) {
        if self.result.is_some() || self.moves.iter().any(|(c, _)| *c == color) {
            return;
        }
        let flagged = self.clocks[color.index()].charge_late(late);
        let tenths =
            Duration::from_millis(u64::try_from(late.as_millis() / 100 * 100).unwrap_or(u64::MAX));
        let message = match flagged {
            true => format!(
                "{color} did not come within its time ({}): its clock ran out",
                format_duration(tenths)
            ),
            false => format!(
                "{color} came {} late: the time comes off its clock",
                format_duration(tenths)
            ),
        };
        self.events.push_back(GameEvent::Notice {
            color: Some(color),
            message,
        });
        let clock = self.clocks[color.index()].reading(now);
        self.events.push_back(GameEvent::Clock { color, clock });
        if flagged && self.phase == Phase::Setup && self.resuming.is_none() {
            let [black, white] = self.players.clone().map(|info| {
                info.unwrap_or_else(|| PlayerInfo {
                    name: "absent".into(),
                    ..PlayerInfo::default()
                })
            });
            self.start_game(now, black, white, "a player never came");
        }
        if flagged && self.phase == Phase::Play {
            self.waiting = Waiting::Nothing;
            self.time_out(now, color);
        }
    }

    /// An absent seat's clock, before the game starts: all its time, shown
    /// running down, since its lateness will come off it.
    pub(super) fn show_absent_clock(&mut self, color: Color) {
        let system = self.clocks[color.index()].system();
        if system == TimeSystem::None {
            return;
        }
        let mut clock = Clock::at_start(system);
        clock.running = true;
        self.events.push_back(GameEvent::Clock { color, clock });
    }

    /// The venue lost its seats (its runner stopped): the game is held, as
    /// a game `goref resume` takes back charges nobody for the time goref
    /// was away.
    pub(super) fn on_venue_away(&mut self, now: Instant, color: Color, message: String) {
        self.events.push_back(GameEvent::Session {
            what: SessionChange::VenueAway,
            color: Some(color),
            message,
            down_ms: None,
        });
        self.venue_away[color.index()] = true;
        let playing = matches!(self.phase, Phase::Play | Phase::Cleanup);
        if playing && self.pause.is_none() {
            self.pause_play(now);
            if let Some(pause) = &mut self.pause {
                pause.by_venue = true;
            }
        }
    }

    pub(super) fn on_venue_back(&mut self, now: Instant, color: Color, message: String) {
        self.events.push_back(GameEvent::Session {
            what: SessionChange::SeatBack,
            color: Some(color),
            message,
            down_ms: None,
        });
        self.venue_away[color.index()] = false;
        let venue_paused = self.pause.as_ref().is_some_and(|pause| pause.by_venue);
        if venue_paused && !self.venue_away.contains(&true) {
            self.resume_play(now, Some("the venue's seats are back".into()));
        }
    }
}
