//! The agreement pane: where the end of the game stands.
//!
//! ```text
//! next: the judge: x marks dead, S scores, a adjudicates, v voids
//! marked:       none
//! phase: awaiting the judge (the dead-stone claims differ)
//! Black claims: A3 A4
//! White claims: none (final_status_list failed: claims no dead stones)
//! only Black:   A3 A4
//! only White:   none
//! ```
//!
//! Lines the game has not reached yet are left out. Who acts next comes
//! first, said with the keys of the screen it is drawn on; before the
//! judge, what the judge has marked follows it at once; once the game is
//! over, the result with its reason and the game's folder, whole. Long lines
//! wrap.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

use goref_core::referee::{GameView, Phase};

use super::Theme;

/// The dead-stone agreement of a [`GameView`], as a ratatui widget.
pub struct AgreementPane<'a> {
    pub view: &'a GameView,
    pub theme: &'a Theme,
    /// What the judge does next, in this screen's keys; `None` on a screen
    /// that has no judge's keys (a spectator's).
    pub judge_keys: Option<String>,
}

impl AgreementPane<'_> {
    /// The pane's lines, before they wrap.
    pub fn lines(view: &GameView, judge_keys: Option<&str>) -> Vec<String> {
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
        let marked = (view.phase == Phase::Adjudication || !agreement.marked.is_empty())
            .then(|| format!("marked:       {}", list(&agreement.marked)));
        let next = match (&view.result, view.phase) {
            (Some(result), _) => format!(
                "result: {} ({}): {}",
                result.result,
                result.end.code(),
                result.reason
            ),
            (None, Phase::Adjudication) => match judge_keys {
                Some(keys) => format!("next: the judge: {keys}"),
                None => "next: the judge, on the referee's screen".to_string(),
            },
            (None, Phase::DeadStones) => "next: the programs' claims".to_string(),
            (None, _) => match view.to_move {
                Some(color) => format!("next: {color} to move"),
                None => "next: -".to_string(),
            },
        };
        let mut first = vec![next];
        if view.result.is_none() {
            // What the judge has marked is what the judge acts on: it comes
            // before the claims, which can wrap over many lines.
            first.extend(marked);
            first.extend(lines);
            return first;
        }
        lines.extend(marked);
        let over = &mut first;
        if let Some(folder) = &view.folder {
            over.push(format!("folder: {folder}"));
        }
        over.extend(lines);
        first
    }
}

impl Widget for AgreementPane<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let width = usize::from(area.width);
        let lines = Self::lines(self.view, self.judge_keys.as_deref())
            .into_iter()
            .flat_map(|line| {
                let style = if line.starts_with("only ") {
                    self.theme.disputed
                } else {
                    Style::new()
                };
                super::wrap(&line, width, 2)
                    .into_iter()
                    .map(move |part| (part, style))
            });
        super::draw_lines(area, buf, lines);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use goref_core::referee::event::{AgreementEvent, GameEvent};

    #[test]
    fn a_dispute_shows_each_claim_the_difference_and_who_acts_next() {
        let mut view = GameView::new();
        view.apply(&GameEvent::Phase {
            phase: Phase::DeadStones,
            reason: "two consecutive passes".into(),
        });
        assert_eq!(
            AgreementPane::lines(&view, None)[0],
            "next: the programs' claims"
        );
        view.apply(&GameEvent::Agreement(AgreementEvent::Claim {
            color: goref_core::game::Color::Black,
            stones: vec!["A3".into(), "A4".into()],
            note: None,
        }));
        view.apply(&GameEvent::Agreement(AgreementEvent::Claim {
            color: goref_core::game::Color::White,
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
            AgreementPane::lines(&view, Some("x marks dead, S scores")),
            [
                "next: the judge: x marks dead, S scores",
                "marked:       none",
                "phase: awaiting the judge (the dead-stone claims differ)",
                "Black claims: A3 A4",
                "White claims: none (final_status_list failed: claims no dead stones)",
                "only Black:   A3 A4",
                "only White:   none",
            ]
        );
        assert_eq!(
            AgreementPane::lines(&view, None)[0],
            "next: the judge, on the referee's screen"
        );
        view.folder = Some("games/2026-11-25-gnugo-vs-bot".into());
        view.apply(&GameEvent::Result(goref_core::referee::GameResult::new(
            "B+3.5".into(),
            "scored by the judge".into(),
            Some(goref_core::game::Color::Black),
            goref_core::referee::End::ScoredByJudge,
        )));
        let lines = AgreementPane::lines(&view, None);
        assert_eq!(
            &lines[..2],
            [
                "result: B+3.5 (scored_by_judge): scored by the judge",
                "folder: games/2026-11-25-gnugo-vs-bot"
            ]
        );
    }
}
