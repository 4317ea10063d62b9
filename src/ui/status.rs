//! The status line: where the game is, then who plays whom, under which
//! rules, and where it is kept.
//!
//! ```text
//! play | move 42 | PAUSED | 1 watching | B GNU Go 3.8 (gtp) vs W goref-bot (sgmp, 2 resends) | kgs, komi 7.5 | folder games/...
//! ```
//!
//! State comes first, so that an 80-column line keeps it: the phase (after
//! the result, the result and its end code), the move, then what the screen
//! says first (a pause, a spectator's broken link, the spectators).
//! A GMP line's resends (of the moves the view keeps) follow its protocol,
//! and, once it has carried nothing for ten seconds, how long it has been
//! quiet. What the screen says last (the game's folder, where it is served)
//! ends the line; the folder is shown whole in the help and the end-of-game
//! pane. A line too wide for its screen keeps the state and the lead (cut
//! with `…` only if they alone are too wide), shortens the players with `…`
//! where a word ends, and leaves out a later part that does not fit whole:
//! a folder's path cut in the middle is a wrong path.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use goref_core::referee::{GameView, Phase};

use super::{cut, Theme};

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
    /// The whole line's text, as wide as it is.
    #[cfg(test)]
    fn text(view: &GameView, lead: &[String], tail: &[String], now_t_ms: Option<u64>) -> String {
        Self::fitted(view, lead, tail, now_t_ms, usize::MAX)
    }

    /// The line's text in at most `width` columns: the state, the move and
    /// `lead` first (what an 80-column line must keep), then the players,
    /// the rules and `tail` (see the module's header for what gives way).
    pub fn fitted(
        view: &GameView,
        lead: &[String],
        tail: &[String],
        now_t_ms: Option<u64>,
        width: usize,
    ) -> String {
        let mut line = String::new();
        let mut used = 0;
        for (part, fit) in Self::parts(view, lead, tail, now_t_ms) {
            let gap = if line.is_empty() { 0 } else { SEPARATOR.len() };
            let room = width.saturating_sub(used + gap);
            let text = match fit {
                _ if part.chars().count() <= room => part,
                Fit::Keep => cut(&part, room),
                Fit::Shorten if room >= MIN_SHORTENED => cut(&part, room),
                Fit::Shorten | Fit::Whole => continue,
            };
            if !text.is_empty() {
                if gap > 0 {
                    line.push_str(SEPARATOR);
                }
                line.push_str(&text);
                used += gap + text.chars().count();
            }
        }
        line
    }

    /// Each part of the line, with how it gives way to a narrow screen.
    fn parts(
        view: &GameView,
        lead: &[String],
        tail: &[String],
        now_t_ms: Option<u64>,
    ) -> Vec<(String, Fit)> {
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
        let mut parts = vec![(state, Fit::Keep), (format!("move {moves}"), Fit::Keep)];
        parts.extend(lead.iter().map(|part| (part.clone(), Fit::Keep)));
        parts.push((format!("B {} vs W {}", player(0), player(1)), Fit::Shorten));
        parts.push((format!("{rules}, komi {}", view.komi), Fit::Whole));
        parts.extend(tail.iter().map(|part| (part.clone(), Fit::Whole)));
        parts
    }
}

const SEPARATOR: &str = " | ";

/// The fewest columns worth showing of a part cut short.
const MIN_SHORTENED: usize = 12;

/// How a part of the line gives way to a narrow screen.
#[derive(Debug, Clone, Copy)]
enum Fit {
    /// Kept; cut only when it alone is wider than what is left.
    Keep,
    /// Cut short with `…` where a word ends, when enough is left to read.
    Shorten,
    /// Shown whole or not at all.
    Whole,
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
        let width = usize::from(area.width);
        let text = Self::fitted(self.view, &self.lead, &self.tail, self.now_t_ms, width);
        buf.set_stringn(area.x, area.y, text, width, style);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use goref_core::referee::{End, GameResult, PlayerInfo};

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

    #[test]
    fn at_80_columns_the_state_stays_and_a_path_is_whole_or_left_out() {
        let mut view = GameView::new();
        view.players[0] = PlayerInfo {
            name: "human".into(),
            protocol: "human".into(),
            ..PlayerInfo::default()
        };
        view.players[1] = PlayerInfo {
            name: "GNU Go".into(),
            version: "3.8".into(),
            protocol: "gtp".into(),
            ..PlayerInfo::default()
        };
        view.rules = "cgf".into();
        view.komi = 5.5;
        view.phase = Phase::Play;
        let lead = ["PAUSED".to_string(), "3 watching".to_string()];
        let tail = ["folder games/2026-11-26-r1-human-vs-gnu-go".to_string()];
        let line = StatusLine::fitted(&view, &lead, &tail, None, 80);
        assert_eq!(
            line,
            "play | move 0 | PAUSED | 3 watching | B human (human) vs W GNU Go 3.8 (gtp)"
        );
        let wide = StatusLine::fitted(&view, &lead, &tail, None, 200);
        assert_eq!(wide, StatusLine::text(&view, &lead, &tail, None));
        let narrow = StatusLine::fitted(&view, &lead, &tail, None, 60);
        assert!(
            narrow.starts_with("play | move 0 | PAUSED | 3 watching | B human")
                && narrow.ends_with('…'),
            "{narrow}"
        );
        for width in 0..200 {
            let line = StatusLine::fitted(&view, &lead, &tail, None, width);
            assert!(line.chars().count() <= width, "{width}: {line}");
            assert!(
                line.contains(&tail[0]) || !line.contains("folder"),
                "{width}: a path is whole or absent: {line}"
            );
        }
    }
}
