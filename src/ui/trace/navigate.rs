//! What the keys do to the trace pane's [`TraceState`]: scrolling by rows,
//! following the newest, pausing, the filter, moving the selection.
//!
//! Every move is counted in the rows the pane shows (those the filter and
//! the pause let through) and stored as a `seq`, so that it stays put as
//! rows come and go. Scrolling up stops following (unless every row fits
//! the pane anyway); scrolling down to the newest row follows again.
//! Moving the selection stops following and scrolls just enough to keep
//! the selected row in view, knowing the pane's height from
//! [`TraceState::pane_rows`].

use goref_core::game::Color;
use goref_core::referee::GameView;

use super::{bottom_index, rows, Layout, TraceRow, TraceState};

impl TraceState {
    /// The rows of the list, when the pane's height is known.
    fn list_rows(&self) -> Option<usize> {
        let layout = Layout::of(self.pane_rows, self.detail && self.selected.is_some());
        (layout.list > 0).then_some(usize::from(layout.list))
    }

    /// Shows the row at `index` at the bottom; the newest one means
    /// following again.
    fn set_bottom(&mut self, rows: &[TraceRow], index: usize) {
        if index + 1 >= rows.len() {
            self.follow_tail();
        } else {
            self.follow = false;
            self.anchor = Some(rows[index].seq());
        }
    }

    /// Scrolls `n` rows towards the oldest and stops following, unless all
    /// the rows fit the pane already.
    pub(crate) fn scroll_up(&mut self, view: &GameView, n: usize) {
        let rows = rows(view, self);
        let Some(bottom) = bottom_index(&rows, self) else {
            return;
        };
        let lowest = self.list_rows().map_or(0, |h| h.min(rows.len()) - 1);
        self.set_bottom(&rows, bottom.saturating_sub(n).max(lowest));
    }

    /// Scrolls `n` rows towards the newest; reaching it follows again.
    pub(crate) fn scroll_down(&mut self, view: &GameView, n: usize) {
        let rows = rows(view, self);
        match bottom_index(&rows, self) {
            Some(bottom) => self.set_bottom(&rows, bottom.saturating_add(n)),
            None => self.follow_tail(),
        }
    }

    /// Shows the newest rows as they come.
    pub(crate) fn follow_tail(&mut self) {
        self.follow = true;
        self.anchor = None;
    }

    /// Pauses at the newest row of the view, or resumes.
    pub(crate) fn toggle_pause(&mut self, view: &GameView) {
        self.paused_at = match self.paused_at {
            Some(_) => None,
            None => {
                let lines = view.trace.iter().map(|l| l.seq);
                let packets = view.packets.iter().map(|p| p.seq);
                Some(lines.chain(packets).max().unwrap_or(0))
            }
        };
    }

    /// Both sides, then Black only, then White only.
    pub(crate) fn cycle_side(&mut self) {
        self.filter.side = match self.filter.side {
            None => Some(Color::Black),
            Some(Color::Black) => Some(Color::White),
            Some(Color::White) => None,
        };
    }

    pub(crate) fn toggle_packets(&mut self) {
        self.filter.packets = !self.filter.packets;
    }

    pub(crate) fn toggle_gtp(&mut self) {
        self.filter.gtp = !self.filter.gtp;
    }

    pub(crate) fn toggle_stderr(&mut self) {
        self.filter.stderr = !self.filter.stderr;
    }

    /// Shows only the rows that contain `text` in any case; empty for all.
    pub(crate) fn set_text(&mut self, text: String) {
        self.filter.text = text;
    }

    /// Selects the row above the selected one (the bottom row when none
    /// is), scrolling to keep it in view.
    pub(crate) fn select_up(&mut self, view: &GameView) {
        self.select_step(view, false);
    }

    /// Selects the row below the selected one (the bottom row when none
    /// is), scrolling to keep it in view.
    pub(crate) fn select_down(&mut self, view: &GameView) {
        self.select_step(view, true);
    }

    fn select_step(&mut self, view: &GameView, down: bool) {
        let rows = rows(view, self);
        let Some(bottom) = bottom_index(&rows, self) else {
            return;
        };
        let last = rows.len() - 1;
        // By seq, so that rows sharing one never trap the selection.
        let index = match self.selected {
            None => bottom,
            Some(s) if down => rows.iter().position(|r| r.seq() > s).unwrap_or(last),
            Some(s) => rows.iter().rposition(|r| r.seq() < s).unwrap_or(0),
        };
        self.selected = Some(rows[index].seq());
        let bottom = match self.list_rows() {
            Some(height) if index + height <= bottom => index + height - 1,
            Some(_) => bottom.max(index),
            None => index,
        };
        self.follow = false;
        self.anchor = Some(rows[bottom].seq());
    }

    /// Opens or closes the detail of the selected row.
    pub(crate) fn toggle_detail(&mut self) {
        self.detail = !self.detail;
    }

    /// The filter in a few words: `all`, or e.g.
    /// `B only, packets+gtp, "genmove"`.
    pub(crate) fn describe_filter(&self) -> String {
        let filter = &self.filter;
        let mut parts = Vec::new();
        if let Some(side) = filter.side {
            parts.push(format!("{} only", side.letter()));
        }
        let kinds: Vec<&str> = [
            (filter.packets, "packets"),
            (filter.gtp, "gtp"),
            (filter.stderr, "stderr"),
        ]
        .into_iter()
        .filter_map(|(on, name)| on.then_some(name))
        .collect();
        match kinds.len() {
            3 => {}
            0 => parts.push("no kinds".to_string()),
            _ => parts.push(kinds.join("+")),
        }
        if !filter.text.is_empty() {
            parts.push(format!("\"{}\"", filter.text));
        }
        if parts.is_empty() {
            "all".to_string()
        } else {
            parts.join(", ")
        }
    }
}
