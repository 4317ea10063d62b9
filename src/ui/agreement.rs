//! The agreement pane: where the end of the game stands.
//!
//! ```text
//! phase: awaiting the judge (the dead-stone claims differ)
//! Black claims: A3 A4
//! White claims: none (final_status_list failed: claims no dead stones)
//! only Black:   A3 A4
//! only White:   none
//! marked:       none
//! next: the operator (dead VERTEX, score, adjudicate, void)
//! ```
//!
//! Lines the game has not reached yet are left out.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

use crate::referee::{GameView, Phase};

use super::Theme;

/// The dead-stone agreement of a [`GameView`], as a ratatui widget.
pub struct AgreementPane<'a> {
    pub view: &'a GameView,
    pub theme: &'a Theme,
}

impl AgreementPane<'_> {
    /// The pane's lines.
    pub fn lines(view: &GameView) -> Vec<String> {
        let list = |stones: &[String]| {
            if stones.is_empty() {
                "none".to_string()
            } else {
                stones.join(" ")
            }
        };
        let agreement = &view.agreement;
        let phase = match view.phase {
            Phase::Setup => "set-up",
            Phase::Play => "play",
            Phase::DeadStones => "asking for dead stones",
            Phase::Cleanup => "cleanup: play on until the dead stones are captured",
            Phase::Adjudication => "awaiting the judge",
            Phase::Over => "over",
        };
        let mut lines = vec![match view.phase_reason.as_str() {
            "" => format!("phase: {phase}"),
            reason => format!("phase: {phase} ({reason})"),
        }];
        for (i, side) in ["Black", "White"].into_iter().enumerate() {
            if let Some(claim) = &agreement.claims[i] {
                let note = agreement.notes[i]
                    .as_ref()
                    .map(|n| format!(" ({n})"))
                    .unwrap_or_default();
                lines.push(format!("{side} claims: {}{note}", list(claim)));
            }
        }
        if let Some(agreed) = &agreement.agreed {
            lines.push(format!("agreed:       {}", list(agreed)));
        }
        if !agreement.black_only.is_empty() || !agreement.white_only.is_empty() {
            lines.push(format!("only Black:   {}", list(&agreement.black_only)));
            lines.push(format!("only White:   {}", list(&agreement.white_only)));
        }
        if view.phase == Phase::Adjudication || !agreement.marked.is_empty() {
            lines.push(format!("marked:       {}", list(&agreement.marked)));
        }
        let next = match (&view.result, view.phase) {
            (Some(result), _) => format!("result: {} ({})", result.result, result.end.code()),
            (None, Phase::Adjudication) => {
                "next: the operator (dead VERTEX, score, adjudicate, void)".to_string()
            }
            (None, Phase::DeadStones) => "next: the programs' claims".to_string(),
            (None, _) => match view.to_move {
                Some(color) => format!("next: {color} to move"),
                None => "next: -".to_string(),
            },
        };
        lines.push(next);
        lines
    }
}

impl Widget for AgreementPane<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let lines = Self::lines(self.view).into_iter().map(|line| {
            let style = if line.starts_with("only ") {
                self.theme.disputed
            } else {
                Style::new()
            };
            (line, style)
        });
        super::draw_lines(area, buf, lines);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::event::{AgreementEvent, GameEvent};

    #[test]
    fn a_dispute_shows_each_claim_the_difference_and_who_acts_next() {
        let mut view = GameView::new();
        view.apply(&GameEvent::Phase {
            phase: Phase::DeadStones,
            reason: "two consecutive passes".into(),
        });
        assert_eq!(
            AgreementPane::lines(&view).last().unwrap(),
            "next: the programs' claims"
        );
        view.apply(&GameEvent::Agreement(AgreementEvent::Claim {
            color: crate::game::Color::Black,
            stones: vec!["A3".into(), "A4".into()],
            note: None,
        }));
        view.apply(&GameEvent::Agreement(AgreementEvent::Claim {
            color: crate::game::Color::White,
            stones: vec![],
            note: Some("final_status_list failed: claims no dead stones".into()),
        }));
        view.apply(&GameEvent::Agreement(AgreementEvent::Disputed {
            black_only: vec!["A3".into(), "A4".into()],
            white_only: vec![],
        }));
        view.apply(&GameEvent::Phase {
            phase: Phase::Adjudication,
            reason: "the dead-stone claims differ".into(),
        });
        assert_eq!(
            AgreementPane::lines(&view),
            [
                "phase: awaiting the judge (the dead-stone claims differ)",
                "Black claims: A3 A4",
                "White claims: none (final_status_list failed: claims no dead stones)",
                "only Black:   A3 A4",
                "only White:   none",
                "marked:       none",
                "next: the operator (dead VERTEX, score, adjudicate, void)",
            ]
        );
    }
}
