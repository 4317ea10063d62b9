//! `goref replay FILE` on the screen: a recorded stream, stepped through
//! event by event or move by move, drawn exactly as the host drew it.
//!
//! The [`Recording`] holds the validated events; the view at any position is
//! the fold of the events before it, so stepping back gives the very view
//! the host had then. The clocks are drawn as they stood at the event shown.

use crate::ui::control::{handle_key, Effect, Step};
use crate::ui::{Role, UiState};
use goref_core::referee::{GameEvent, GameView, StampedEvent};

use super::input::{spawn_reader, TerminalEvent};
use super::terminal::Screen;
use super::{draw_frame, ScreenOptions};

/// A recorded stream and a position in it.
#[derive(Debug, Clone, Default)]
pub struct Recording {
    events: Vec<StampedEvent>,
    /// How many events are applied: 0 is before the first.
    position: usize,
    view: GameView,
}

impl Recording {
    /// A recording shown at its end.
    pub fn new(events: Vec<StampedEvent>) -> Recording {
        let mut recording = Recording {
            events,
            ..Recording::default()
        };
        recording.go_to(recording.events.len());
        recording
    }

    pub fn view(&self) -> &GameView {
        &self.view
    }

    /// `(events applied, events in all)`.
    pub fn position(&self) -> (usize, usize) {
        (self.position, self.events.len())
    }

    /// The stream time of the event shown last, for the clocks.
    pub fn t_ms(&self) -> u64 {
        self.position
            .checked_sub(1)
            .map_or(0, |i| self.events[i].t_ms)
    }

    /// Shows the view after the first `position` events.
    pub(crate) fn go_to(&mut self, position: usize) {
        let position = position.min(self.events.len());
        if position < self.position {
            self.view = GameView::new();
            self.position = 0;
        }
        for event in &self.events[self.position..position] {
            self.view.apply_stamped(event);
        }
        self.position = position;
    }

    /// One step; a move step lands just after the previous or next move.
    pub fn step(&mut self, step: Step) {
        let is_move = |e: &StampedEvent| matches!(e.event, GameEvent::Move { .. });
        let target = match step {
            Step::EventBack => self.position.saturating_sub(1),
            Step::EventForward => self.position + 1,
            Step::Start => 0,
            Step::End => self.events.len(),
            Step::MoveForward => self.events[self.position..]
                .iter()
                .position(is_move)
                .map_or(self.events.len(), |i| self.position + i + 1),
            Step::MoveBack => self.events[..self.position.saturating_sub(1)]
                .iter()
                .rposition(is_move)
                .map_or(0, |i| i + 1),
        };
        self.go_to(target);
    }
}

/// Shows `recording` until the viewer quits; `problem` (an inconsistency
/// after the valid part) is shown on the hint bar.
pub async fn run(
    mut recording: Recording,
    options: ScreenOptions,
    problem: Option<String>,
) -> Result<(), String> {
    let mut screen = Screen::enter().map_err(|e| format!("cannot take the terminal: {e}"))?;
    let mut keys = spawn_reader();
    let mut state = UiState::new(Role::Replay);
    state.keys = options.keys;
    state.message = problem.clone();
    loop {
        state.replay_position = Some(recording.position());
        state.now_t_ms = recording.t_ms();
        let drawn = draw_frame(&mut screen, recording.view(), &mut state, &options.theme);
        if screen.is_lost() {
            return Ok(());
        }
        match keys.recv().await {
            Some(TerminalEvent::Key(key)) => {
                for effect in
                    handle_key(key, recording.view(), &mut state, &drawn.panes, drawn.page)
                {
                    match effect {
                        Effect::Quit | Effect::Interrupt => return Ok(()),
                        Effect::Step(step) => recording.step(step),
                        _ => {}
                    }
                }
                if state.message.is_none() {
                    state.message = problem.clone();
                }
            }
            Some(TerminalEvent::Repaint) => screen.repaint(),
            Some(TerminalEvent::Lost(_)) | None => return Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{clock_reading, game_start};
    use goref_core::game::Color;

    fn recording(moves: &[&str]) -> Recording {
        let mut events = vec![GameEvent::GameStart(Box::new(game_start(
            9,
            &[],
            Color::Black,
        )))];
        for (i, vertex) in moves.iter().enumerate() {
            let color = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            events.push(GameEvent::Notice {
                color: Some(color),
                message: format!("thinking about {vertex}"),
            });
            events.push(GameEvent::Move {
                n: i as u32 + 1,
                color,
                vertex: vertex.to_string(),
                ms: 100,
                captures: vec![],
                clock: clock_reading(0),
                referee_us: None,
                net_ms: None,
                opening: false,
            });
        }
        let stamped = events
            .into_iter()
            .enumerate()
            .map(|(i, event)| StampedEvent {
                seq: i as u64 + 1,
                t_ms: 10 * i as u64,
                after_result: false,
                event,
            })
            .collect();
        Recording::new(stamped)
    }

    #[test]
    fn a_recording_opens_at_its_end_and_steps_move_by_move() {
        let mut r = recording(&["E5", "C3", "G7"]);
        assert_eq!(r.position(), (7, 7));
        assert_eq!(r.view().moves.len(), 3);
        r.step(Step::Start);
        assert_eq!(r.view().moves.len(), 0);
        r.step(Step::MoveForward);
        assert_eq!(r.position().0, 3, "just after the first move");
        assert_eq!(r.view().last_move.as_ref().unwrap().vertex, "E5");
        r.step(Step::MoveForward);
        r.step(Step::MoveBack);
        assert_eq!(r.view().last_move.as_ref().unwrap().vertex, "E5");
        r.step(Step::EventForward);
        assert_eq!(r.position().0, 4, "the notice before C3");
        assert_eq!(r.view().moves.len(), 1);
        r.step(Step::End);
        r.step(Step::MoveBack);
        assert_eq!(r.view().last_move.as_ref().unwrap().vertex, "C3");
        r.step(Step::EventBack);
        assert_eq!(r.t_ms(), 30, "the notice before C3, the fourth event");
    }

    #[test]
    fn stepping_back_gives_the_view_the_host_had_then() {
        let mut r = recording(&["E5", "C3", "G7", "D4"]);
        let events = r.events.clone();
        for position in 0..=events.len() {
            let mut host = GameView::new();
            for event in &events[..position] {
                host.apply_stamped(event);
            }
            r.go_to(position);
            assert_eq!(r.view(), &host, "at {position}");
        }
        let mut empty = Recording::new(Vec::new());
        for step in [
            Step::EventBack,
            Step::MoveForward,
            Step::MoveBack,
            Step::End,
        ] {
            empty.step(step);
            assert_eq!(empty.position(), (0, 0));
        }
    }
}
