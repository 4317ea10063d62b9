//! The status line: where the game is, then who plays whom, under which
//! rules, and where it is kept.
//!
//! ```text
//! play | move 42 | CLOCKS PAUSED | 1 watching | B GNU Go 3.8 (gtp) vs W goref-bot (sgmp, 2 resends) | kgs, komi 7.5 | folder games/...
//! ```
//!
//! State comes first, so that an 80-column line keeps it: the phase (after
//! the result, the result and its end code), the move, then what the screen
//! says first (paused clocks, a spectator's broken link, the spectators).
//! A GMP line's resends (of the moves the view keeps) follow its protocol,
//! and, once it has carried nothing for ten seconds, how long it has been
//! quiet. What the screen says last (the game's folder, where it is served)
//! ends the line; the folder is shown whole in the help and the end-of-game
//! pane.

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
    /// What the screen adds after the state: paused clocks, a broken link,
    /// the replay's position, the spectators.
    pub lead: Vec<String>,
    /// What the screen adds at the end: the folder, where it is served.
    pub tail: Vec<String>,
    /// The stream time now, to tell how long a line has been quiet.
    pub now_t_ms: Option<u64>,
}

impl StatusLine<'_> {
    /// The line's text: the state, the move and `lead` first (what an
    /// 80-column line must keep), then the players, the rules and `tail`.
    pub fn text(
        view: &GameView,
        lead: &[String],
        tail: &[String],
        now_t_ms: Option<u64>,
    ) -> String {
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
        let mut parts = vec![state, format!("move {moves}")];
        parts.extend(lead.iter().cloned());
        parts.push(format!("B {} vs W {}", player(0), player(1)));
        parts.push(format!("{rules}, komi {}", view.komi));
        parts.extend(tail.iter().cloned());
        parts.join(" | ")
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
        let text = Self::text(self.view, &self.lead, &self.tail, self.now_t_ms);
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
        let none: &[String] = &[];
        assert_eq!(
            StatusLine::text(&view, none, none, None),
            "play | move 0 | B GNU Go 3.8 (gtp) vs W goref-bot (sgmp) | kgs, komi 7.5"
        );
        assert_eq!(
            StatusLine::text(
                &view,
                &["replay 3/90".into()],
                &["folder games/g1".into()],
                None
            ),
            "play | move 0 | replay 3/90 | B GNU Go 3.8 (gtp) vs W goref-bot (sgmp) | kgs, komi 7.5 | folder games/g1"
        );
        view.result = Some(GameResult::new(
            "W+R".into(),
            "Black resigned".into(),
            None,
            End::Resign,
        ));
        assert!(
            StatusLine::text(&view, none, none, None).starts_with("result W+R (resign) | move 0 |")
        );
        view.pending_resends = [0, 2];
        assert!(
            StatusLine::text(&view, none, none, None).contains("W goref-bot (sgmp, 2 resends) |")
        );
        view.result = None;
        let quiet = StatusLine::text(&view, none, none, Some(12_500));
        assert!(
            quiet.contains("W goref-bot (sgmp, 2 resends, quiet 12s) |"),
            "{quiet}"
        );
        assert!(
            quiet.contains("| B GNU Go 3.8 (gtp) vs"),
            "GTP has no line: {quiet}"
        );
        assert!(!StatusLine::text(&view, none, none, Some(9_000)).contains("quiet"));
    }
}
