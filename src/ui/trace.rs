//! The trace pane: every GMP packet, GTP line and stderr line, newest last.
//!
//! (Being written: the state below is the contract the app loop uses.)

use crate::game::Color;

/// Which rows the trace shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceFilter {
    /// One side only, or both.
    pub side: Option<Color>,
    pub packets: bool,
    pub gtp: bool,
    pub stderr: bool,
    /// Only rows whose text contains this (any case); empty for all.
    pub text: String,
}

impl Default for TraceFilter {
    fn default() -> TraceFilter {
        TraceFilter {
            side: None,
            packets: true,
            gtp: true,
            stderr: true,
            text: String::new(),
        }
    }
}

/// What the operator did to the trace pane: scrolling, the filter, pause,
/// the selected row. Local to each screen; the game never sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceState {
    /// Show the newest rows as they come (the default). Scrolling up stops
    /// it; `follow_tail` starts it again.
    pub follow: bool,
    /// While not following: the `seq` of the row shown at the bottom.
    pub anchor: Option<u64>,
    /// The `seq` of the selected row, whose detail is shown.
    pub selected: Option<u64>,
    pub filter: TraceFilter,
    /// The detail of the selected row is open.
    pub detail: bool,
    /// Paused: rows after this `seq` are not shown until resumed.
    pub paused_at: Option<u64>,
}

impl Default for TraceState {
    fn default() -> TraceState {
        TraceState {
            follow: true,
            anchor: None,
            selected: None,
            filter: TraceFilter::default(),
            detail: false,
            paused_at: None,
        }
    }
}

/// Placeholder until the pane is written: the newest lines.
pub struct TracePane<'a> {
    pub view: &'a crate::referee::GameView,
    pub state: &'a TraceState,
    pub theme: &'a super::Theme,
}

impl ratatui::widgets::Widget for TracePane<'_> {
    fn render(self, area: ratatui::layout::Rect, buf: &mut ratatui::buffer::Buffer) {
        let lines = self.view.trace.iter().rev().take(usize::from(area.height));
        let lines: Vec<_> = lines
            .map(|l| (format!("{} {}", l.color.letter(), l.line), self.theme.text))
            .collect();
        super::draw_lines(area, buf, lines.into_iter().rev());
    }
}
