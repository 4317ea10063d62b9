//! The trace pane: every GMP packet, GTP line and stderr line, newest last.
//!
//! ```text
//!    0:41.2 W ← = Q16
//!    0:41.2 B → 02:85:d6:ad  MOVE W Q16 (pos 301)  16.7ms
//! ▸✗ 1:01.2 B → 02:85:d6:ad  MOVE W Q16 (pos 301)  RESEND  16.7ms  resend 1
//!    1:01.2 B ← 01:87:87:ff  OK  16.7ms
//!  ✗ 1:04.0 B ← 00:f8:d0:a9  bad checksum  BAD CHECKSUM  16.7ms
//!    1:04.1 W → genmove w
//!    1:04.9 W ! W thinks: D16 48%
//! ▼ 3 new · paused · all
//! ```
//!
//! One row an entry: the stream time, the side whose line it is, `→` for
//! what the referee sent, `←` for what it received, `!` for a program's
//! stderr (`>`, `<`, `!` in ASCII), then a packet's bytes, meaning, flags,
//! wire time and note, or a GTP line as it was. A row that shows a fault (a
//! resend, a duplicate, a bad checksum, a GTP error reply) is marked `✗`
//! (`*`) besides its colour; the selected row is marked `▸` (`>`). The last
//! line says whether the pane follows the newest rows, how many came after
//! the bottom one, whether it is paused, and the filter. With the detail
//! open, the lower rows spell the selected row out (`detail.rs`); what
//! the keys do to the state is in `navigate.rs`.
//!
//! The rows are the view's two lists merged by `seq` each frame; only the
//! rows on screen are formatted. Scrolling, the selection and the pause are
//! kept as `seq`s in [`TraceState`], so the rows stay put as new ones come.

mod detail;
mod navigate;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use goref_core::game::Color;
use goref_core::protocol::sgmp::link::{Direction, TraceFlag};
use goref_core::referee::event::LineDirection;
use goref_core::referee::view::{AudienceLine, PacketLine, TraceLine};
use goref_core::referee::GameView;

use super::{cut, Theme};

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
    /// The pane's height as the screen last laid it out, so that moving the
    /// selection up can scroll just enough to keep it in view. 0 when not
    /// known: then the selected row is brought to the bottom at each move.
    pub pane_rows: u16,
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
            pane_rows: 0,
        }
    }
}

/// One row of the trace, borrowed from the view.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum TraceRow<'a> {
    /// A GTP line either way, or a line of a program's stderr.
    Line(&'a TraceLine),
    /// A GMP packet, or noise on a GMP line.
    Packet(&'a PacketLine),
    /// Spectators joined or left.
    Audience(&'a AudienceLine),
}

impl TraceRow<'_> {
    pub(crate) fn seq(self) -> u64 {
        match self {
            TraceRow::Line(line) => line.seq,
            TraceRow::Packet(packet) => packet.seq,
            TraceRow::Audience(line) => line.seq,
        }
    }

    pub(crate) fn t_ms(self) -> u64 {
        match self {
            TraceRow::Line(line) => line.t_ms,
            TraceRow::Packet(packet) => packet.t_ms,
            TraceRow::Audience(line) => line.t_ms,
        }
    }

    /// The side whose line it is; none for spectators.
    pub(crate) fn color(self) -> Option<Color> {
        match self {
            TraceRow::Line(line) => Some(line.color),
            TraceRow::Packet(packet) => Some(packet.color),
            TraceRow::Audience(_) => None,
        }
    }

    /// The row shows a fault: a packet resent, repeated, cut, garbled or
    /// clashing, a GTP error reply (`? ...`), or a line with a note (a
    /// Usenix line ignored or one a 1987 referee would have misread).
    pub(crate) fn is_problem(self) -> bool {
        match self {
            TraceRow::Line(line) => {
                (line.direction == LineDirection::Received && line.line.starts_with('?'))
                    || line.note.is_some()
            }
            TraceRow::Packet(packet) => packet.entry.flags.iter().any(|&f| is_problem_flag(f)),
            TraceRow::Audience(_) => false,
        }
    }

    /// Whether the filter lets the row through; `needle` is its text in
    /// lower case.
    fn passes(self, filter: &TraceFilter, needle: &str) -> bool {
        if filter.side.is_some_and(|side| Some(side) != self.color()) {
            return false;
        }
        let kind = match self {
            TraceRow::Packet(_) => filter.packets,
            TraceRow::Line(line) if line.cgos => filter.packets,
            TraceRow::Line(line) if line.direction == LineDirection::Stderr => filter.stderr,
            TraceRow::Line(_) => filter.gtp,
            TraceRow::Audience(_) => true,
        };
        if !kind {
            return false;
        }
        if needle.is_empty() {
            return true;
        }
        let has = |text: &str| text.to_lowercase().contains(needle);
        match self {
            TraceRow::Line(line) => has(&line.line) || line.note.as_deref().is_some_and(has),
            TraceRow::Audience(line) => has(&line.text),
            TraceRow::Packet(packet) => {
                let entry = &packet.entry;
                has(&entry.meaning) || has(&entry.hex) || entry.note.as_deref().is_some_and(has)
            }
        }
    }
}

fn is_problem_flag(flag: TraceFlag) -> bool {
    matches!(
        flag,
        TraceFlag::BadChecksum
            | TraceFlag::Duplicate
            | TraceFlag::Resend
            | TraceFlag::Cut
            | TraceFlag::Reserved
            | TraceFlag::Conflict
            | TraceFlag::Stray
    )
}

/// A flag in capitals, as the trace writes it.
fn flag_word(flag: TraceFlag) -> &'static str {
    match flag {
        TraceFlag::BadChecksum => "BAD CHECKSUM",
        TraceFlag::Duplicate => "DUP",
        TraceFlag::Resend => "RESEND",
        TraceFlag::Stray => "STRAY",
        TraceFlag::Talk => "TALK",
        TraceFlag::Reserved => "RESERVED",
        TraceFlag::Cut => "CUT",
        TraceFlag::Ignored => "IGNORED",
        TraceFlag::Conflict => "CONFLICT",
        TraceFlag::ImplicitAck => "IMPLICIT ACK",
    }
}

/// The rows the pane shows, oldest first: the view's GTP and stderr lines,
/// its packets and its lines about spectators merged by `seq`, those the
/// filter lets through, none after the pause.
pub(crate) fn rows<'a>(view: &'a GameView, state: &TraceState) -> Vec<TraceRow<'a>> {
    let mut rows = filtered(view, &state.filter);
    if let Some(at) = state.paused_at {
        rows.retain(|row| row.seq() <= at);
    }
    rows
}

/// The rows the filter lets through, the pause aside.
fn filtered<'a>(view: &'a GameView, filter: &TraceFilter) -> Vec<TraceRow<'a>> {
    let needle = filter.text.to_lowercase();
    let mut rows: Vec<TraceRow> = view
        .trace
        .iter()
        .map(TraceRow::Line)
        .chain(view.packets.iter().map(TraceRow::Packet))
        .chain(view.audience.iter().map(TraceRow::Audience))
        .filter(|row| row.passes(filter, &needle))
        .collect();
    rows.sort_by_key(|row| row.seq());
    rows
}

/// The index of the row shown at the bottom: the newest when following,
/// else the last one at or before the anchor (the first when none is).
fn bottom_index(rows: &[TraceRow], state: &TraceState) -> Option<usize> {
    let last = rows.len().checked_sub(1)?;
    match (state.follow, state.anchor) {
        (false, Some(anchor)) => Some(rows.iter().rposition(|r| r.seq() <= anchor).unwrap_or(0)),
        _ => Some(last),
    }
}

/// The rows of the list shown in `height` rows: the bottom one last, or,
/// when it is near the top, as many from the first as fit.
fn window(rows: &[TraceRow], state: &TraceState, height: usize) -> std::ops::Range<usize> {
    match bottom_index(rows, state) {
        Some(bottom) if height > 0 => {
            let end = (bottom + 1).max(height.min(rows.len()));
            end - height.min(end)..end
        }
        _ => 0..0,
    }
}

/// How the pane's rows are shared: the list, the detail under it, the
/// status line last.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Layout {
    list: u16,
    detail: u16,
    footer: u16,
}

/// The rows the detail takes when there is room.
const DETAIL_ROWS: u16 = 6;

impl Layout {
    fn of(height: u16, detail: bool) -> Layout {
        let footer = u16::from(height >= 2);
        let rest = height - footer;
        let detail = if detail { DETAIL_ROWS.min(rest / 2) } else { 0 };
        Layout {
            list: rest - detail,
            detail,
            footer,
        }
    }
}

/// The trace of a [`GameView`] as a [`TraceState`] scrolls and filters it,
/// as a ratatui widget.
pub(crate) struct TracePane<'a> {
    pub view: &'a GameView,
    pub state: &'a TraceState,
    pub theme: &'a Theme,
}

impl Widget for TracePane<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if area.width == 0 || area.height == 0 {
            return;
        }
        let state = self.state;
        let all = filtered(self.view, &state.filter);
        let rows = match state.paused_at {
            Some(at) => all.iter().copied().filter(|r| r.seq() <= at).collect(),
            None => all.clone(),
        };
        let selected = state
            .selected
            .and_then(|s| rows.iter().copied().find(|r| r.seq() == s));
        let layout = Layout::of(area.height, state.detail && selected.is_some());
        let shown = window(&rows, state, usize::from(layout.list));

        for (y, row) in (area.y..).zip(&rows[shown.clone()]) {
            let is_selected = state.selected == Some(row.seq());
            let line = self.row_line(*row, is_selected, usize::from(area.width));
            if is_selected {
                buf.set_style(Rect::new(area.x, y, area.width, 1), self.theme.selected);
            }
            buf.set_line(area.x, y, &line, area.width);
        }
        if let Some(row) = selected.filter(|_| layout.detail > 0) {
            let at = Rect::new(area.x, area.y + layout.list, area.width, layout.detail);
            let lines = detail::lines(row, self.view.size, at.width, at.height, self.theme);
            for (y, line) in (at.y..).zip(&lines) {
                buf.set_line(at.x, y, line, at.width);
            }
        }
        if layout.footer > 0 {
            let newest_shown = match shown.end {
                0 => state.paused_at,
                end => Some(rows[end - 1].seq()),
            };
            let new = all
                .iter()
                .filter(|r| newest_shown.is_none_or(|s| r.seq() > s))
                .count();
            let y = area.y + area.height - 1;
            buf.set_line(area.x, y, &self.footer(new), area.width);
        }
    }
}

impl TracePane<'_> {
    /// One row of the list, fitted to `width` columns.
    fn row_line(&self, row: TraceRow, selected: bool, width: usize) -> Line<'static> {
        let theme = self.theme;
        let problem = row.is_problem();
        let (glyph, style) = match row {
            TraceRow::Packet(p) if p.entry.direction == Direction::Out => ('→', theme.packet_out),
            TraceRow::Packet(_) => ('←', theme.packet_in),
            TraceRow::Line(l) if l.cgos => match l.direction {
                LineDirection::Received => ('⇐', theme.packet_in),
                _ => ('⇒', theme.packet_out),
            },
            TraceRow::Line(l) => match l.direction {
                LineDirection::Sent => ('→', theme.gtp_sent),
                LineDirection::Received => ('←', theme.gtp_received),
                LineDirection::Stderr => ('!', theme.stderr),
            },
            TraceRow::Audience(_) => ('◎', theme.text),
        };
        let (style, time_style) = if problem {
            (theme.problem, theme.problem)
        } else {
            (style, theme.dim)
        };
        let marks = format!(
            "{}{}",
            if selected { self.glyph('▸') } else { ' ' },
            if problem { self.glyph('✗') } else { ' ' },
        );
        let room = width.saturating_sub(2 + 7 + 5);
        let body = match row {
            TraceRow::Line(TraceLine {
                line,
                note: Some(note),
                ..
            }) => cut(&format!("{line}  ({note})"), room),
            TraceRow::Line(line) => cut(&line.line, room),
            TraceRow::Packet(packet) => packet_text(packet, room),
            TraceRow::Audience(line) => cut(&format!("spectators: {}", line.text), room),
        };
        let side = row.color().map_or('-', Color::letter);
        let rest = format!(" {side} {} {body}", self.glyph(glyph));
        let spans = [
            (marks, style),
            (format!("{:>7}", clock(row.t_ms())), time_style),
            (rest, style),
        ];
        let patch = |s: Style| if selected { s.patch(theme.selected) } else { s };
        Line::from(
            spans
                .into_iter()
                .map(|(text, s)| Span::styled(text, patch(s)))
                .collect::<Vec<_>>(),
        )
    }

    /// The glyph in the theme's character set.
    fn glyph(&self, glyph: char) -> char {
        if self.theme.unicode {
            return glyph;
        }
        match glyph {
            '→' | '▸' => '>',
            '←' => '<',
            '⇒' => '}',
            '⇐' => '{',
            '✗' => '*',
            '▼' => 'v',
            '·' => '|',
            '◎' => 'o',
            '…' => '~',
            other => other,
        }
    }

    /// The last line: following or how many rows came after the bottom
    /// one, the pause, the filter.
    fn footer(&self, new: usize) -> Line<'static> {
        let state = self.state;
        let paused = state.paused_at.is_some();
        let mut parts = Vec::new();
        if !state.follow || (paused && new > 0) {
            parts.push((format!("{} {new} new", self.glyph('▼')), self.theme.text));
        }
        if paused {
            parts.push(("paused".to_string(), self.theme.text));
        }
        if state.follow && !paused {
            parts.push(("following".to_string(), self.theme.dim));
        }
        parts.push((state.describe_filter(), self.theme.dim));
        let separator = format!(" {} ", self.glyph('·'));
        let mut spans = Vec::new();
        for (i, (text, style)) in parts.into_iter().enumerate() {
            if i > 0 {
                spans.push(Span::styled(separator.clone(), self.theme.dim));
            }
            spans.push(Span::styled(text, style));
        }
        Line::from(spans)
    }
}

/// A packet's row after the direction, in `room` columns: hex, meaning,
/// flags, wire time, note. What does not fit goes in the order that keeps
/// what matters: the note first, then the hex; then the meaning is cut, and
/// the flags and the wire time stay.
fn packet_text(packet: &PacketLine, room: usize) -> String {
    let entry = &packet.entry;
    let mut tail = String::new();
    for &flag in &entry.flags {
        tail.push_str("  ");
        tail.push_str(flag_word(flag));
    }
    if let Some(ms) = packet.wire_ms {
        tail.push_str(&format!("  {}", wire(ms)));
    }
    let meaning = &entry.meaning;
    let hex = format!("{:<11}  ", entry.hex);
    let note = entry
        .note
        .as_ref()
        .map(|n| format!("  {n}"))
        .unwrap_or_default();
    for text in [
        format!("{hex}{meaning}{tail}{note}"),
        format!("{hex}{meaning}{tail}"),
        format!("{meaning}{tail}"),
    ] {
        if text.chars().count() <= room {
            return text;
        }
    }
    match room.checked_sub(tail.chars().count()) {
        Some(kept) if kept >= 8 => format!("{}{tail}", cut(meaning, kept)),
        _ => cut(&format!("{meaning}{tail}"), room),
    }
}

/// A wire time: `16.7ms`.
fn wire(ms: f64) -> String {
    format!("{ms:.1}ms")
}

/// Stream time as `m:ss.t`.
fn clock(t_ms: u64) -> String {
    format!(
        "{}:{:02}.{}",
        t_ms / 60_000,
        t_ms / 1000 % 60,
        t_ms / 100 % 10
    )
}

#[cfg(test)]
mod tests;
