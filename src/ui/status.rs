//! The status line: who plays whom, under which rules, and where the game is.
//!
//! ```text
//! B GNU Go 3.8 (gtp) vs W goref-bot (sgmp, 2 resends) | move 42 | play | kgs, komi 7.5
//! ```
//!
//! A GMP line's resends (of the moves the view keeps) follow its protocol,
//! and, once it has carried nothing for ten seconds, how long it has been
//! quiet.
//!
//! After the result it gives the result and its end code instead of the phase.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use crate::referee::{GameView, Phase};

use super::Theme;

/// A GMP line that has carried nothing for this long is shown as quiet.
const QUIET_AFTER_MS: u64 = 10_000;

/// The most characters of a player's name the line shows: both names, the
/// rules and the move fit 80 columns.
const NAME_WIDTH: usize = 16;

/// The status line of a [`GameView`], as a ratatui widget.
pub struct StatusLine<'a> {
    pub view: &'a GameView,
    pub theme: &'a Theme,
    /// What the screen adds at the end: paused clocks, the replay's
    /// position, the spectators.
    pub extra: String,
    /// The stream time now, to tell how long a line has been quiet.
    pub now_t_ms: Option<u64>,
}

impl StatusLine<'_> {
    /// The line's text: the players, the move and the state first (what an
    /// 80-column line must keep), then `extra`, then the rules.
    pub fn text(view: &GameView, extra: &str, now_t_ms: Option<u64>) -> String {
        let player = |i: usize| {
            let info = &view.players[i];
            let name = match info.full_name() {
                name if name.is_empty() => "?".to_string(),
                name if name.chars().count() > NAME_WIDTH => {
                    let cut: String = name.chars().take(NAME_WIDTH - 1).collect();
                    format!("{cut}…")
                }
                name => name,
            };
            let resends: u32 = view
                .moves
                .iter()
                .filter(|m| m.color.index() == i)
                .map(|m| m.resends)
                .sum::<u32>()
                .saturating_add(view.pending_resends[i]);
            let mut link = match resends {
                0 => String::new(),
                1 => ", 1 resend".to_string(),
                n => format!(", {n} resends"),
            };
            if let Some(quiet) = quiet_seconds(view, i, now_t_ms) {
                link.push_str(&format!(", quiet {quiet}s"));
            }
            match info.protocol.as_str() {
                "" => name,
                protocol => format!("{name} ({protocol}{link})"),
            }
        };
        let moves = view.moves.last().map_or(0, |m| m.n);
        let state = match &view.result {
            Some(result) => format!("result {} ({})", result.result, result.end.code()),
            None => phase_name(view.phase).to_string(),
        };
        let rules = if view.rules.is_empty() {
            "rules ?"
        } else {
            &view.rules
        };
        let extra = match extra {
            "" => String::new(),
            extra => format!(" | {extra}"),
        };
        format!(
            "B {} vs W {} | move {moves} | {state}{extra} | {rules}, komi {}",
            player(0),
            player(1),
            view.komi
        )
    }
}

/// How long a GMP line has carried nothing, from [`QUIET_AFTER_MS`] on,
/// while the game is on: the operator sees a line go silent as it happens.
fn quiet_seconds(view: &GameView, side: usize, now_t_ms: Option<u64>) -> Option<u64> {
    let now = now_t_ms?;
    if view.result.is_some() || !matches!(view.players[side].protocol.as_str(), "sgmp" | "gmp") {
        return None;
    }
    let last = view
        .packets
        .iter()
        .rev()
        .find(|p| p.color.index() == side)
        .map_or(0, |p| p.t_ms);
    let quiet = now.saturating_sub(last);
    (quiet >= QUIET_AFTER_MS).then_some(quiet / 1000)
}

fn phase_name(phase: Phase) -> &'static str {
    match phase {
        Phase::Setup => "set-up",
        Phase::Play => "play",
        Phase::DeadStones => "dead stones",
        Phase::Cleanup => "cleanup",
        Phase::Adjudication => "awaiting the judge",
        Phase::Over => "over",
    }
}

impl Widget for StatusLine<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if area.height == 0 {
            return;
        }
        let style = self.theme.status;
        let blank = " ".repeat(usize::from(area.width));
        buf.set_string(area.x, area.y, blank, style);
        let text = Self::text(self.view, &self.extra, self.now_t_ms);
        buf.set_stringn(area.x, area.y, text, usize::from(area.width), style);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::{End, GameResult, PlayerInfo};

    #[test]
    fn the_line_names_the_players_the_rules_and_the_state() {
        let mut view = GameView::new();
        view.players[0] = PlayerInfo {
            name: "GNU Go".into(),
            version: "3.8".into(),
            protocol: "gtp".into(),
            ..PlayerInfo::default()
        };
        view.players[1] = PlayerInfo {
            name: "goref-bot".into(),
            protocol: "sgmp".into(),
            ..PlayerInfo::default()
        };
        view.rules = "kgs".into();
        view.komi = 7.5;
        view.phase = Phase::Play;
        assert_eq!(
            StatusLine::text(&view, "", None),
            "B GNU Go 3.8 (gtp) vs W goref-bot (sgmp) | move 0 | play | kgs, komi 7.5"
        );
        assert_eq!(
            StatusLine::text(&view, "replay 3/90", None),
            "B GNU Go 3.8 (gtp) vs W goref-bot (sgmp) | move 0 | play | replay 3/90 | kgs, komi 7.5"
        );
        view.result = Some(GameResult::new(
            "W+R".into(),
            "Black resigned".into(),
            None,
            End::Resign,
        ));
        assert!(StatusLine::text(&view, "", None).contains("| result W+R (resign) |"));
        view.pending_resends = [0, 2];
        assert!(StatusLine::text(&view, "", None).contains("W goref-bot (sgmp, 2 resends) |"));
        view.result = None;
        let quiet = StatusLine::text(&view, "", Some(12_500));
        assert!(
            quiet.contains("W goref-bot (sgmp, 2 resends, quiet 12s) |"),
            "{quiet}"
        );
        assert!(
            quiet.starts_with("B GNU Go 3.8 (gtp) vs"),
            "GTP has no line: {quiet}"
        );
        assert!(!StatusLine::text(&view, "", Some(9_000)).contains("quiet"));
    }
}
