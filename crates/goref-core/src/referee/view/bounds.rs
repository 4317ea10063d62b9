//! What a view taken from a peer it does not trust is held to: the
//! capacity of every list, the length of every text, and the repair that
//! brings a snapshot of the wrong shape back within them.

use std::collections::VecDeque;

use crate::game::score::Score;
use crate::game::{Point, MAX_SIZE, MIN_SIZE};
use crate::protocol::sgmp::link::TraceEntry;
use crate::referee::event::{GameResult, PlayerInfo};

use super::lines::{AgreementView, PacketLine};
use super::GameView;

/// How many trace lines (GTP and stderr) the view keeps: with the move
/// list, what keeps a late spectator's snapshot of a 300-move game with
/// the engines' analysis under 64 KB (`examples/snapshot_size`). The
/// journal keeps every line.
pub(crate) const TRACE_CAPACITY: usize = 300;
/// How many bytes of an engine's analysis line the trace pane keeps: the
/// best candidate's figures; the journal keeps the line whole.
pub(crate) const ANALYSIS_TEXT_LIMIT: usize = 96;
/// How many GMP packets the view keeps.
pub(crate) const PACKET_CAPACITY: usize = 300;
/// How many error lines the view keeps.
pub(crate) const ERROR_CAPACITY: usize = 100;
/// How many alerts the view keeps.
pub(crate) const ALERT_CAPACITY: usize = 50;
/// How many notices the view keeps.
pub(crate) const NOTICE_CAPACITY: usize = 100;
/// How many lines about spectators joining and leaving the view keeps.
pub(crate) const AUDIENCE_CAPACITY: usize = 100;
/// How many moves the move list keeps (the newest).
pub(crate) const MOVE_CAPACITY: usize = 1000;
/// How many bytes of a text (a line, an error, a reason, a name) are stored.
pub(crate) const TEXT_LIMIT: usize = 300;
/// How many bytes of a packet's meaning and note are stored.
pub(crate) const PACKET_TEXT_LIMIT: usize = 160;
/// How many bytes of a packet's hex are stored.
pub(crate) const HEX_LIMIT: usize = 48;
/// How many flags of a packet are stored.
pub(crate) const FLAG_LIMIT: usize = 8;
/// The most points a board has, so the most vertices a list can name.
pub(super) const MAX_POINTS: usize = MAX_SIZE as usize * MAX_SIZE as usize;
/// How many bytes a stored move's vertex may have (`resign` is the longest).
pub(super) const VERTEX_LIMIT: usize = 8;
/// The longest marker [`bounded_text`] appends: `… [cut, N bytes]`.
pub(super) const MARKER_MAX: usize = "… [cut,  bytes]".len() + 20;

impl GameView {
    /// Repairs the view when its shape is wrong; checking costs nothing.
    pub(super) fn ensure_shape(&mut self) {
        if !self.is_well_shaped() {
            self.repair();
        }
    }

    /// The cheap checks that keep `apply` from indexing out of bounds or
    /// growing a list past its capacity.
    pub(super) fn is_well_shaped(&self) -> bool {
        (MIN_SIZE..=MAX_SIZE).contains(&self.size)
            && self.board.len() == self.size as usize * self.size as usize
            && self.moves.len() <= MOVE_CAPACITY
            && self.trace.len() <= TRACE_CAPACITY
            && self.packets.len() <= PACKET_CAPACITY
            && self.errors.len() <= ERROR_CAPACITY
            && self.notices.len() <= NOTICE_CAPACITY
            && self.audience.len() <= AUDIENCE_CAPACITY
            && self.alerts.len() <= ALERT_CAPACITY
    }

    /// Whether the view is one that applying events could have built, as far
    /// as its bounds go: a size in range, a board of `size * size` points,
    /// lists within their capacities, texts within their limits, vertices on
    /// the board. Clones the view to find out.
    #[cfg(test)]
    pub(crate) fn is_consistent(&self) -> bool {
        !self.clone().repair_quietly()
    }

    /// Makes a snapshot fit: the size clamped to `MIN_SIZE..=MAX_SIZE`, the
    /// board resized to `size * size`, lists cut to their capacities (the
    /// newest kept), texts cut to their limits, vertices off the board
    /// dropped. Returns whether anything changed; a repair counts one in
    /// `rejected`. A view built by `apply` needs none.
    pub fn repair(&mut self) -> bool {
        let changed = self.repair_quietly();
        if changed {
            self.reject(1);
        }
        changed
    }

    fn repair_quietly(&mut self) -> bool {
        let mut changed = false;
        let mut mark = |fixed: bool| changed |= fixed;
        let size = self.size.clamp(MIN_SIZE, MAX_SIZE);
        mark(size != self.size);
        self.size = size;
        let points = size as usize * size as usize;
        mark(self.board.len() != points);
        self.board.resize(points, None);
        if !self.komi.is_finite() {
            self.komi = 0.0;
            mark(true);
        }
        for text in [&mut self.rules, &mut self.ruleset, &mut self.time] {
            mark(fix_text(text, TEXT_LIMIT));
        }
        for player in &mut self.players {
            mark(fix_player(player));
        }
        if self.moves.len() > MOVE_CAPACITY {
            let excess = self.moves.len() - MOVE_CAPACITY;
            self.moves.drain(..excess);
            mark(true);
        }
        for analysis in self.analysis.iter_mut() {
            let broken = analysis.as_ref().is_some_and(|a| {
                !(a.winrate.is_finite() && (0.0..=1.0).contains(&a.winrate))
                    || a.score_lead.is_some_and(|lead| !lead.is_finite())
                    || a.pv.len() > crate::protocol::gtp::analysis::PV_KEPT
            });
            if broken {
                *analysis = None;
            }
            mark(broken);
            if let Some(analysis) = analysis {
                let before = analysis.pv.len();
                analysis.pv.retain(|v| super::is_vertex_like(v));
                mark(analysis.pv.len() != before);
            }
        }
        for line in self.moves.iter_mut().chain(&mut self.last_move) {
            mark(fix_text(&mut line.vertex, VERTEX_LIMIT));
            let winrate = line.black_winrate;
            if winrate.is_some_and(|w| !(w.is_finite() && (0.0..=1.0).contains(&w))) {
                line.black_winrate = None;
                mark(true);
            }
            mark(fix_millis(&mut line.wire_ms));
            mark(fix_millis(&mut line.referee_ms));
        }
        for wire in &mut self.pending_wire_ms {
            mark(fix_millis(wire));
        }
        if let Some(ko) = &self.ko {
            if Point::parse_gtp(ko, size).is_err() {
                self.ko = None;
                mark(true);
            }
        }
        mark(fix_text(&mut self.phase_reason, TEXT_LIMIT));
        if let Some(prompt) = &mut self.prompt {
            mark(fix_text(prompt, TEXT_LIMIT));
        }
        mark(fix_agreement(&mut self.agreement, size));
        mark(trim_front(&mut self.trace, TRACE_CAPACITY));
        for line in &mut self.trace {
            mark(fix_text(&mut line.line, TEXT_LIMIT));
        }
        mark(trim_front(&mut self.packets, PACKET_CAPACITY));
        for packet in &mut self.packets {
            mark(fix_packet(packet));
        }
        mark(trim_front(&mut self.audience, AUDIENCE_CAPACITY));
        for line in &mut self.audience {
            mark(fix_text(&mut line.text, TEXT_LIMIT));
        }
        mark(trim_front(&mut self.errors, ERROR_CAPACITY));
        mark(trim_front(&mut self.notices, NOTICE_CAPACITY));
        mark(trim_front(&mut self.alerts, ALERT_CAPACITY));
        for alert in &mut self.alerts {
            mark(fix_text(&mut alert.message, TEXT_LIMIT));
        }
        for text in self.errors.iter_mut().chain(&mut self.notices) {
            mark(fix_text(text, TEXT_LIMIT));
        }
        if let Some(result) = &mut self.result {
            let (fixed, _) = bounded_result(result);
            if fixed != *result {
                *result = fixed;
                mark(true);
            }
        }
        changed
    }
}

/// `text` as the view stores it: control characters replaced (a tab by a
/// space, the others by `�`) so a terminal only ever draws text, and cut
/// after at most `limit` bytes with a marker `… [cut, N bytes]` that gives
/// the whole text's length.
pub(crate) fn bounded_text(text: &str, limit: usize) -> String {
    if text.len() <= limit && !text.chars().any(char::is_control) {
        return text.to_string();
    }
    let mut out = String::with_capacity(limit.min(text.len()) + MARKER_MAX);
    for c in text.chars() {
        let c = match c {
            '\t' => ' ',
            c if c.is_control() => char::REPLACEMENT_CHARACTER,
            c => c,
        };
        if out.len() + c.len_utf8() > limit {
            out.push_str(&format!("… [cut, {} bytes]", text.len()));
            return out;
        }
        out.push(c);
    }
    out
}

/// Cuts a stored text that is over its limit (with room for the marker) or
/// holds control characters; whether it did.
pub(super) fn fix_text(text: &mut String, limit: usize) -> bool {
    if text.len() <= limit + MARKER_MAX && !text.chars().any(char::is_control) {
        return false;
    }
    *text = bounded_text(text, limit);
    true
}

pub(super) fn bounded_player(info: &PlayerInfo) -> PlayerInfo {
    let mut info = info.clone();
    fix_player(&mut info);
    info
}

pub(super) fn fix_player(info: &mut PlayerInfo) -> bool {
    let mut changed = false;
    for text in [
        &mut info.protocol,
        &mut info.spec,
        &mut info.name,
        &mut info.version,
    ] {
        changed |= fix_text(text, TEXT_LIMIT);
    }
    changed
}

pub(super) fn bounded_entry(entry: &TraceEntry) -> TraceEntry {
    TraceEntry {
        direction: entry.direction,
        hex: bounded_text(&entry.hex, HEX_LIMIT),
        meaning: bounded_text(&entry.meaning, PACKET_TEXT_LIMIT),
        flags: entry.flags.iter().take(FLAG_LIMIT).copied().collect(),
        note: entry
            .note
            .as_deref()
            .map(|n| bounded_text(n, PACKET_TEXT_LIMIT)),
    }
}

/// A duration in milliseconds that is not a finite, non-negative number
/// becomes 0; whether it did.
pub(super) fn fix_millis(ms: &mut f64) -> bool {
    if ms.is_finite() && *ms >= 0.0 {
        return false;
    }
    *ms = 0.0;
    true
}

pub(super) fn fix_packet(packet: &mut PacketLine) -> bool {
    let mut changed = false;
    if packet.wire_ms.is_some_and(|ms| !ms.is_finite() || ms < 0.0) {
        packet.wire_ms = None;
        changed = true;
    }
    let entry = &mut packet.entry;
    changed |= fix_text(&mut entry.hex, HEX_LIMIT);
    changed |= fix_text(&mut entry.meaning, PACKET_TEXT_LIMIT);
    if let Some(note) = &mut entry.note {
        changed |= fix_text(note, PACKET_TEXT_LIMIT);
    }
    if entry.flags.len() > FLAG_LIMIT {
        entry.flags.truncate(FLAG_LIMIT);
        changed = true;
    }
    changed
}

/// The result as the view stores it, and how many of its parts did not fit:
/// texts cut, a score with a number that is not finite dropped, its lists
/// of points cut to a board's worth.
pub(super) fn bounded_result(result: &GameResult) -> (GameResult, u64) {
    let mut result = result.clone();
    let mut bad = 0;
    fix_text(&mut result.result, TEXT_LIMIT);
    fix_text(&mut result.reason, TEXT_LIMIT);
    if let Some(exit) = &mut result.exit {
        fix_text(exit, TEXT_LIMIT);
    }
    if let Some(score) = &mut result.score {
        if fix_score(score) {
            bad += 1;
        }
        if ![score.black, score.white, score.komi]
            .iter()
            .all(|x| x.is_finite())
        {
            result.score = None;
            bad += 1;
        }
    }
    (result, bad)
}

pub(super) fn fix_score(score: &mut Score) -> bool {
    let mut changed = false;
    for list in [
        &mut score.black_territory,
        &mut score.white_territory,
        &mut score.dead,
    ] {
        if list.len() > MAX_POINTS {
            list.truncate(MAX_POINTS);
            changed = true;
        }
    }
    changed
}

/// The vertices of `list` on a `size` board, spelt as GTP spells them, each
/// point once; and how many were left out.
pub(super) fn board_vertices(list: &[String], size: u8) -> (Vec<String>, u64) {
    let mut seen = vec![false; size as usize * size as usize];
    let mut kept = Vec::new();
    let mut bad = 0u64;
    for vertex in list {
        match Point::parse_gtp(vertex, size) {
            Ok(p) if !seen[p.index(size)] => {
                seen[p.index(size)] = true;
                kept.push(p.to_gtp());
            }
            _ => bad = bad.saturating_add(1),
        }
    }
    (kept, bad)
}

pub(super) fn fix_vertices(list: &mut Vec<String>, size: u8) -> bool {
    let (kept, bad) = board_vertices(list, size);
    let changed = bad > 0 || kept != *list;
    *list = kept;
    changed
}

pub(super) fn fix_agreement(agreement: &mut AgreementView, size: u8) -> bool {
    let mut changed = false;
    for list in agreement
        .claims
        .iter_mut()
        .chain([&mut agreement.agreed])
        .flatten()
        .chain([
            &mut agreement.black_only,
            &mut agreement.white_only,
            &mut agreement.marked,
        ])
    {
        changed |= fix_vertices(list, size);
    }
    for note in agreement.notes.iter_mut().flatten() {
        changed |= fix_text(note, TEXT_LIMIT);
    }
    changed
}

pub(super) fn push_bounded<T>(queue: &mut VecDeque<T>, item: T, capacity: usize) {
    while queue.len() >= capacity.max(1) {
        queue.pop_front();
    }
    queue.push_back(item);
}

/// Drops the oldest entries over `capacity`; whether it did.
pub(super) fn trim_front<T>(queue: &mut VecDeque<T>, capacity: usize) -> bool {
    let excess = queue.len().saturating_sub(capacity);
    queue.drain(..excess);
    excess > 0
}
