//! `GameView`: the pure fold of the event stream that every screen draws.
//!
//! The host's screen and each spectator's apply the same events to the same
//! reducer, so their views are equal by construction. A spectator's snapshot
//! and events come from a peer goref does not trust, so the fold is total
//! and bounded:
//!
//! - [`GameView::apply`] never panics. What does not fit the board (a vertex
//!   off it or unparsable, a size outside `MIN_SIZE..=MAX_SIZE`, a capture of
//!   a point that holds no opponent stone) is not applied and is counted in
//!   `rejected`. A snapshot whose shape is wrong (a board of the wrong length,
//!   a size out of range, lists over their capacity) is repaired first; a
//!   spectator calls `GameView::repair` once on a snapshot it receives to
//!   bound its texts too.
//! - [`GameView::apply_stamped`] also checks the stream's `seq`: a duplicate
//!   or out-of-order event is rejected, a gap is applied and counted.
//! - Every list keeps only its newest entries and every text is stored cut
//!   to a fixed number of bytes, its control characters replaced, so a whole
//!   view serialises to well under 1 MiB however long the game and its trace.
//! - A `game_start` resets the game (board, moves, clocks, agreement, result)
//!   but keeps the set-up before it: the trace, packets, errors, notices.
//!
//! For the panes the view also keeps the ko point, the captures and each
//! side's total thinking time.
//!
//! This file holds the fold; `view/lines.rs` the lines the view keeps for
//! its panes; `view/bounds.rs` the capacities and limits and the repair.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use crate::game::clock::{Clock, ClockReading};
use crate::game::{Color, Move, Point, MAX_SIZE, MIN_SIZE};
use crate::protocol::sgmp::link::TraceFlag;

use super::event::{
    attributed, AgreementEvent, GameEvent, GameResult, GameStart, LineDirection, Phase, PlayerInfo,
    SessionChange, StampedEvent, TimeSettings,
};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameView {
    pub size: u8,
    pub komi: f64,
    pub rules: String,
    pub ruleset: String,
    pub time: String,
    /// The time system in numbers, to tick the clocks between readings.
    #[serde(default)]
    pub time_settings: TimeSettings,
    pub players: [PlayerInfo; 2],
    /// Row-major from A1, indexed by `Point::index`; `size * size` long.
    pub board: Vec<Option<Color>>,
    pub last_move: Option<MoveLine>,
    pub first_to_move: Option<Color>,
    /// Who is asked to move; `None` while nobody is.
    pub to_move: Option<Color>,
    /// The newest `MOVE_CAPACITY` moves.
    pub moves: Vec<MoveLine>,
    /// Stones captured by Black and by White.
    pub captures: [u32; 2],
    /// The point the side to move may not retake at once: the last move
    /// took one stone with one stone that is left in atari.
    #[serde(default)]
    pub ko: Option<String>,
    /// Thinking time charged to Black and to White, summed over their moves.
    #[serde(default)]
    pub time_used_ms: [u64; 2],
    pub clocks: [Option<ClockReading>; 2],
    /// The operator has stopped the clocks (`pause`, until `resume`).
    #[serde(default)]
    pub clocks_paused: bool,
    /// The stream time (`t_ms`) at which each clock was read.
    #[serde(default)]
    pub clock_t_ms: [u64; 2],
    /// Wire time and resends on each side's line since its last move, for
    /// its next move's line in the time chart.
    #[serde(default)]
    pub pending_wire_ms: [f64; 2],
    #[serde(default)]
    pub pending_resends: [u32; 2],
    pub phase: Phase,
    pub phase_reason: String,
    pub agreement: AgreementView,
    pub trace: VecDeque<TraceLine>,
    pub packets: VecDeque<PacketLine>,
    /// Spectators joining and leaving, newest last.
    #[serde(default)]
    pub audience: VecDeque<AudienceLine>,
    /// How many spectators watch through `--serve`; `None` before the
    /// stream has said.
    #[serde(default)]
    pub spectators: Option<u32>,
    pub errors: VecDeque<String>,
    /// The newest alerts, oldest first.
    #[serde(default)]
    pub alerts: VecDeque<Alert>,
    /// The stream time (`t_ms`) of the newest notice; `None` before the
    /// first one and from the game's start on, which ends the set-up's.
    #[serde(default)]
    pub notice_t_ms: Option<u64>,
    /// Notices for the operator that are not faults, newest last.
    #[serde(default)]
    pub notices: VecDeque<String>,
    /// What goref is asking the operator for, while it asks.
    #[serde(default)]
    pub prompt: Option<String>,
    pub result: Option<GameResult>,
    /// Which sides' seats are absent (never connected yet, or lost), from
    /// the `session` events: the game waits for them, their clocks running.
    #[serde(default)]
    pub seat_absent: [bool; 2],
    /// The game's folder, as `game_start` names it.
    #[serde(default)]
    pub folder: Option<String>,
    /// Each side's program's newest analysis of its own move.
    #[serde(default, skip_serializing_if = "no_analysis")]
    pub analysis: [Option<AnalysisLine>; 2],
    /// Events, or parts of events, that did not fit and were not applied,
    /// plus one for each snapshot that had to be repaired.
    #[serde(default)]
    pub rejected: u64,
    /// The `seq` of the newest event [`GameView::apply_stamped`] applied.
    #[serde(default)]
    pub last_seq: u64,
    /// The `t_ms` of the newest event [`GameView::apply_stamped`] applied.
    #[serde(default)]
    pub last_t_ms: u64,
    /// How many times the stream skipped numbers: events were lost.
    #[serde(default)]
    pub seq_gaps: u64,
}

impl Default for GameView {
    fn default() -> Self {
        GameView {
            size: 19,
            komi: 0.0,
            rules: String::new(),
            ruleset: String::new(),
            time: String::new(),
            time_settings: TimeSettings::default(),
            players: Default::default(),
            board: vec![None; 19 * 19],
            last_move: None,
            first_to_move: None,
            to_move: None,
            moves: Vec::new(),
            captures: [0, 0],
            ko: None,
            time_used_ms: [0, 0],
            clocks: [None, None],
            clocks_paused: false,
            clock_t_ms: [0, 0],
            pending_wire_ms: [0.0, 0.0],
            pending_resends: [0, 0],
            phase: Phase::Setup,
            phase_reason: String::new(),
            agreement: AgreementView::default(),
            trace: VecDeque::new(),
            packets: VecDeque::new(),
            audience: VecDeque::new(),
            spectators: None,
            errors: VecDeque::new(),
            alerts: VecDeque::new(),
            notice_t_ms: None,
            notices: VecDeque::new(),
            prompt: None,
            result: None,
            seat_absent: [false, false],
            folder: None,
            analysis: [None, None],
            rejected: 0,
            last_seq: 0,
            last_t_ms: 0,
            seq_gaps: 0,
        }
    }
}

impl GameView {
    pub fn new() -> Self {
        Self::default()
    }

    /// The empty board and the komi of a game's settings, for a screen
    /// drawn before the game's start says them (a size out of bounds is
    /// left at 19).
    pub fn before_start(config: &super::GameConfig) -> Self {
        let mut view = Self {
            komi: config.rules.komi,
            ..Self::default()
        };
        let size = config.size;
        if (MIN_SIZE..=MAX_SIZE).contains(&size) {
            view.size = size;
            view.board = vec![None; usize::from(size) * usize::from(size)];
        }
        view
    }

    /// Whether either program has given any analysis (a winrate, a
    /// variation) to draw.
    pub fn has_analysis(&self) -> bool {
        self.analysis.iter().any(Option::is_some)
    }

    /// The side whose absent seat the game waits for before its first
    /// move, if it does: the director may start such a game again.
    pub fn waits_for_absent_seat(&self) -> Option<Color> {
        if self.result.is_some() || !self.moves.is_empty() {
            return None;
        }
        [Color::Black, Color::White]
            .into_iter()
            .find(|color| self.seat_absent[color.index()])
    }

    pub fn stone(&self, point: Point) -> Option<Color> {
        if !point.is_on(self.size) {
            return None;
        }
        self.board.get(point.index(self.size)).copied().flatten()
    }

    /// Applies an event of the stream after checking its number: one whose
    /// `seq` is not above `last_seq` (a duplicate, or out of order) is
    /// rejected; one that skips numbers is applied and counted in `seq_gaps`.
    pub fn apply_stamped(&mut self, stamped: &StampedEvent) {
        self.ensure_shape();
        if stamped.seq <= self.last_seq {
            self.reject(1);
            return;
        }
        if stamped.seq - self.last_seq > 1 {
            self.seq_gaps = self.seq_gaps.saturating_add(1);
        }
        self.last_seq = stamped.seq;
        self.last_t_ms = stamped.t_ms;
        self.apply(&stamped.event);
    }

    /// Takes the number of an event this goref cannot read (a newer
    /// producer's type) without applying it, as [`GameView::apply_stamped`]
    /// would take its number.
    pub fn pass_over(&mut self, seq: u64, t_ms: u64) {
        if seq <= self.last_seq {
            return self.reject(1);
        }
        if seq - self.last_seq > 1 {
            self.seq_gaps = self.seq_gaps.saturating_add(1);
        }
        self.last_seq = seq;
        self.last_t_ms = t_ms;
    }

    /// Folds one event into the view. Never panics: what does not fit is
    /// counted in `rejected` and left out.
    pub fn apply(&mut self, event: &GameEvent) {
        self.ensure_shape();
        match event {
            GameEvent::Player { color, info } => self.players[color.index()] = bounded_player(info),
            GameEvent::Prompt { message, .. } => {
                self.prompt = Some(bounded_text(message, TEXT_LIMIT));
            }
            GameEvent::Operator {
                command, reason, ..
            } => {
                self.notice_t_ms = Some(self.last_t_ms);
                match command.as_str() {
                    "pause" => self.clocks_paused = true,
                    "resume" => self.clocks_paused = false,
                    _ => {}
                }
                push_bounded(
                    &mut self.notices,
                    bounded_text(&format!("operator: {command} ({reason})"), TEXT_LIMIT),
                    NOTICE_CAPACITY,
                )
            }
            GameEvent::GameStart(start) => self.start_game(start),
            GameEvent::Move {
                n,
                color,
                vertex,
                ms,
                captures,
                clock,
                referee_us,
                net_ms,
                ..
            } => {
                self.play(*n, *color, vertex, *ms, captures, clock);
                let referee_ms = referee_us.map_or(0.0, |us| us as f64 / 1000.0);
                if let Some(line) = self.moves.last_mut().filter(|m| m.n == *n) {
                    line.referee_ms = referee_ms;
                    line.net_ms = net_ms.unwrap_or(0);
                    self.last_move = Some(line.clone());
                }
            }
            GameEvent::Analysis {
                n,
                color,
                winrate,
                black_winrate,
                score_lead,
                visits,
                pv,
            } => {
                let fraction = |x: f64| (x.is_finite() && (0.0..=1.0).contains(&x)).then_some(x);
                let (Some(winrate), Some(black)) = (fraction(*winrate), fraction(*black_winrate))
                else {
                    return self.reject(1);
                };
                if let Some(line) = self.moves.iter_mut().rev().take(2).find(|m| m.n == *n) {
                    line.black_winrate = Some(black as f32);
                }
                if let Some(last) = self.last_move.as_mut().filter(|m| m.n == *n) {
                    last.black_winrate = Some(black as f32);
                }
                let pv: Vec<String> = pv
                    .iter()
                    .filter(|v| is_vertex_like(v))
                    .take(PV_LIMIT)
                    .cloned()
                    .collect();
                self.analysis[color.index()] = Some(AnalysisLine {
                    n: *n,
                    winrate,
                    score_lead: score_lead.filter(|lead| lead.is_finite()),
                    visits: *visits,
                    pv,
                });
            }
            GameEvent::Clock { color, clock } => self.set_clock(*color, clock),
            GameEvent::Packet {
                color,
                wire_ms,
                entry,
            } => {
                let wire_ms = match wire_ms {
                    Some(ms) if !ms.is_finite() || *ms < 0.0 => {
                        self.reject(1);
                        None
                    }
                    _ => *wire_ms,
                };
                let side = color.index();
                self.pending_wire_ms[side] += wire_ms.unwrap_or(0.0);
                if entry.flags.contains(&TraceFlag::Resend) {
                    self.pending_resends[side] = self.pending_resends[side].saturating_add(1);
                }
                push_bounded(
                    &mut self.packets,
                    PacketLine {
                        seq: self.last_seq,
                        t_ms: self.last_t_ms,
                        color: *color,
                        wire_ms,
                        entry: bounded_entry(entry),
                    },
                    PACKET_CAPACITY,
                );
            }
            GameEvent::Gtp {
                color,
                direction,
                line,
            } => self.push_trace(*color, *direction, line, None, false),
            GameEvent::Usenix {
                color,
                direction,
                line,
                note,
            } => {
                let shown = line.replace('\r', "\u{240d}");
                self.push_trace(*color, *direction, &shown, note.as_deref(), false);
            }
            GameEvent::Cgos {
                color,
                direction,
                line,
            } => self.push_trace(*color, *direction, line, None, true),
            GameEvent::Agreement(agreement) => self.apply_agreement(agreement),
            GameEvent::Phase { phase, reason } => {
                if *phase == Phase::Adjudication && self.phase != Phase::Adjudication {
                    self.alert(format!("the judge is called: {reason}"));
                }
                self.phase = *phase;
                self.phase_reason = bounded_text(reason, TEXT_LIMIT);
                self.to_move = match phase {
                    Phase::Play | Phase::Cleanup => self.next_to_move(),
                    _ => None,
                };
            }
            GameEvent::Illegal {
                n,
                color,
                vertex,
                reason,
            } => {
                let text = format!("move {n}: {color} {vertex} is illegal ({reason})");
                push_bounded(
                    &mut self.errors,
                    bounded_text(&text, TEXT_LIMIT),
                    ERROR_CAPACITY,
                );
                self.alert(text);
            }
            GameEvent::Result(result) => {
                let (result, bad) = bounded_result(result);
                self.reject(bad);
                self.result = Some(result);
                self.to_move = None;
                self.prompt = None;
                self.clocks_paused = false;
                for clock in self.clocks.iter_mut().flatten() {
                    clock.running = false;
                }
            }
            GameEvent::Error { color, message, .. } => {
                let text = attributed(*color, message);
                push_bounded(
                    &mut self.errors,
                    bounded_text(&text, TEXT_LIMIT),
                    ERROR_CAPACITY,
                );
                self.alert(text);
            }
            GameEvent::Spectators { count, .. } => {
                self.spectators = Some(*count);
                let text = event.audience_text().unwrap_or_default();
                push_bounded(
                    &mut self.audience,
                    AudienceLine {
                        seq: self.last_seq,
                        t_ms: self.last_t_ms,
                        text: bounded_text(&text, TEXT_LIMIT),
                    },
                    AUDIENCE_CAPACITY,
                );
            }
            GameEvent::Notice { color, message } | GameEvent::Session { color, message, .. } => {
                if let (GameEvent::Session { what, .. }, Some(color)) = (event, color) {
                    self.seat_absent[color.index()] = match what {
                        SessionChange::SeatAbsent
                        | SessionChange::SeatLost
                        | SessionChange::VenueAway => true,
                        SessionChange::SeatIn | SessionChange::SeatBack => false,
                        _ => self.seat_absent[color.index()],
                    };
                }
                if let GameEvent::Session {
                    what: SessionChange::Restarted | SessionChange::SeatLost,
                    ..
                } = event
                {
                    self.alert(attributed(*color, message));
                }
                self.notice_t_ms = Some(self.last_t_ms);
                push_bounded(
                    &mut self.notices,
                    bounded_text(&attributed(*color, message), TEXT_LIMIT),
                    NOTICE_CAPACITY,
                );
            }
        }
    }

    /// A new game: the game's state starts afresh, the set-up before it (the
    /// trace, packets, errors, notices, the prompt, the players named so far)
    /// and the stream's counters are kept. A size the view cannot draw
    /// rejects the whole event.
    fn start_game(&mut self, start: &GameStart) {
        if !(MIN_SIZE..=MAX_SIZE).contains(&start.size) {
            self.reject(1);
            return;
        }
        let komi = if start.komi.is_finite() {
            start.komi
        } else {
            self.reject(1);
            0.0
        };
        let player = |info: &PlayerInfo, known: &PlayerInfo| {
            if *info == PlayerInfo::default() {
                known.clone()
            } else {
                bounded_player(info)
            }
        };
        let size = start.size;
        *self = GameView {
            size,
            komi,
            rules: bounded_text(&start.rules, TEXT_LIMIT),
            ruleset: bounded_text(&start.ruleset, TEXT_LIMIT),
            time: bounded_text(&start.time, TEXT_LIMIT),
            time_settings: start.time_settings.clone(),
            players: [
                player(&start.black, &self.players[0]),
                player(&start.white, &self.players[1]),
            ],
            board: vec![None; size as usize * size as usize],
            clocks: [0, 1].map(|_| start.time_settings.system().map(Clock::at_start)),
            folder: start.folder.as_deref().map(|f| bounded_text(f, TEXT_LIMIT)),
            first_to_move: Some(start.first_to_move),
            to_move: Some(start.first_to_move),
            trace: std::mem::take(&mut self.trace),
            packets: std::mem::take(&mut self.packets),
            audience: std::mem::take(&mut self.audience),
            spectators: self.spectators,
            errors: std::mem::take(&mut self.errors),
            alerts: std::mem::take(&mut self.alerts),
            notices: std::mem::take(&mut self.notices),
            prompt: self.prompt.take(),
            seat_absent: self.seat_absent,
            rejected: self.rejected,
            last_seq: self.last_seq,
            last_t_ms: self.last_t_ms,
            seq_gaps: self.seq_gaps,
            ..GameView::default()
        };
        for vertex in &start.handicap {
            match Point::parse_gtp(vertex, size) {
                Ok(point) => self.set(point, Some(Color::Black)),
                Err(_) => self.reject(1),
            }
        }
    }

    /// A move: the stone, its captures, the ko point, the move list and the
    /// clock. A vertex that is not `pass`, `resign` or an empty point of the
    /// board rejects the whole move; a capture that is not an opponent stone
    /// is left out.
    fn play(
        &mut self,
        n: u32,
        color: Color,
        vertex: &str,
        ms: u64,
        captures: &[String],
        clock: &ClockReading,
    ) {
        let mv = match Move::parse_gtp(vertex, self.size) {
            Ok(Move::Play(point)) if self.stone(point).is_some() => None,
            Ok(mv) => Some(mv),
            Err(_) => None,
        };
        let Some(mv) = mv else {
            self.reject(1);
            return;
        };
        self.ko = None;
        if let Move::Play(point) = mv {
            self.set(point, Some(color));
            let mut taken = Vec::new();
            for vertex in captures {
                match Point::parse_gtp(vertex, self.size) {
                    Ok(q) if self.stone(q) == Some(color.opponent()) => {
                        self.set(q, None);
                        taken.push(q);
                    }
                    _ => self.reject(1),
                }
            }
            let taken_count = u32::try_from(taken.len()).unwrap_or(u32::MAX);
            self.captures[color.index()] = self.captures[color.index()].saturating_add(taken_count);
            if let [q] = taken[..] {
                self.ko = self.ko_after(point, color, q).map(Point::to_gtp);
            }
        } else if !captures.is_empty() {
            self.reject(captures.len() as u64);
        }
        let side = color.index();
        self.set_clock(color, clock);
        let used = &mut self.time_used_ms[side];
        *used = used.saturating_add(ms);
        let line = MoveLine {
            n,
            color,
            vertex: mv.to_gtp(),
            ms,
            wire_ms: std::mem::take(&mut self.pending_wire_ms[side]),
            resends: std::mem::take(&mut self.pending_resends[side]),
            referee_ms: 0.0,
            net_ms: 0,
            black_winrate: None,
        };
        if self.moves.len() >= MOVE_CAPACITY {
            let excess = self.moves.len() + 1 - MOVE_CAPACITY;
            self.moves.drain(..excess);
        }
        self.moves.push(line.clone());
        self.last_move = Some(line);
        self.prompt = None;
        self.to_move = Some(color.opponent());
    }

    /// The ko point after `color` played at `p` and took the single stone
    /// at `q`: `q`, when `p` is a lone stone whose only liberty is `q`.
    fn ko_after(&self, p: Point, color: Color, q: Point) -> Option<Point> {
        let mut liberties = 0;
        for neighbor in neighbors(p, self.size) {
            match self.stone(neighbor) {
                Some(c) if c == color => return None,
                Some(_) => {}
                None if neighbor == q => liberties += 1,
                None => return None,
            }
        }
        (liberties == 1).then_some(q)
    }

    /// Who moves next when play goes on: the opponent of the last mover.
    fn next_to_move(&self) -> Option<Color> {
        match &self.last_move {
            Some(last) => Some(last.color.opponent()),
            None => self.first_to_move,
        }
    }

    /// A protocol line for the trace pane, cut to its limit, with its note.
    fn push_trace(
        &mut self,
        color: Color,
        direction: LineDirection,
        line: &str,
        note: Option<&str>,
        cgos: bool,
    ) {
        let analysis = direction == LineDirection::Received
            && (line.starts_with("info ") || line.starts_with('{'));
        let limit = if analysis {
            ANALYSIS_TEXT_LIMIT
        } else {
            TEXT_LIMIT
        };
        push_bounded(
            &mut self.trace,
            TraceLine {
                seq: self.last_seq,
                t_ms: self.last_t_ms,
                color,
                direction,
                line: bounded_text(line, limit),
                note: note.map(|n| bounded_text(n, TEXT_LIMIT)),
                cgos,
            },
            TRACE_CAPACITY,
        );
    }

    fn apply_agreement(&mut self, event: &AgreementEvent) {
        match event {
            AgreementEvent::Claim {
                color,
                stones,
                note,
            } => {
                let stones = self.board_vertices(stones);
                self.agreement.claims[color.index()] = Some(stones);
                self.agreement.notes[color.index()] =
                    note.as_deref().map(|n| bounded_text(n, TEXT_LIMIT));
            }
            AgreementEvent::Agreed { stones } => {
                self.agreement.agreed = Some(self.board_vertices(stones));
            }
            AgreementEvent::Disputed {
                black_only,
                white_only,
            } => {
                self.agreement.black_only = self.board_vertices(black_only);
                self.agreement.white_only = self.board_vertices(white_only);
            }
            AgreementEvent::Marked { stones } => {
                self.agreement.marked = self.board_vertices(stones);
            }
        }
    }

    /// The vertices of `list` that are on the board, spelt as GTP spells
    /// them, at most one per point; the others are rejected.
    fn board_vertices(&mut self, list: &[String]) -> Vec<String> {
        let (kept, bad) = board_vertices(list, self.size);
        self.reject(bad);
        kept
    }

    fn set(&mut self, point: Point, stone: Option<Color>) {
        if !point.is_on(self.size) {
            return;
        }
        if let Some(cell) = self.board.get_mut(point.index(self.size)) {
            *cell = stone;
        }
    }

    /// A new reading of `color`'s clock; a flag that falls is an alert.
    fn set_clock(&mut self, color: Color, clock: &ClockReading) {
        let side = color.index();
        let was_flagged = self.clocks[side].as_ref().is_some_and(|c| c.flagged);
        self.clocks[side] = Some(clock.clone());
        self.clock_t_ms[side] = self.last_t_ms;
        if clock.flagged && !was_flagged {
            self.alert(format!("{color}'s flag fell"));
        }
    }

    /// Raises an alert for the operator to acknowledge.
    fn alert(&mut self, message: String) {
        let n = self.alerts.back().map_or(0, |a| a.n).saturating_add(1);
        let message = bounded_text(&message, TEXT_LIMIT);
        push_bounded(&mut self.alerts, Alert { n, message }, ALERT_CAPACITY);
    }

    fn reject(&mut self, count: u64) {
        self.rejected = self.rejected.saturating_add(count);
    }
}

/// The four neighbours of `p` on a `size` board.
fn neighbors(p: Point, size: u8) -> impl Iterator<Item = Point> {
    let (col, row) = (p.col, p.row);
    [
        (col.checked_sub(1), Some(row)),
        (col.checked_add(1), Some(row)),
        (Some(col), row.checked_sub(1)),
        (Some(col), row.checked_add(1)),
    ]
    .into_iter()
    .filter_map(move |(c, r)| Some(Point::new(c?, r?)))
    .filter(move |q| q.is_on(size))
}

mod bounds;
mod lines;

pub(crate) use bounds::bounded_text;
use bounds::{
    board_vertices, bounded_entry, bounded_player, bounded_result, push_bounded,
    ANALYSIS_TEXT_LIMIT, VERTEX_LIMIT,
};
pub(crate) use bounds::{
    ALERT_CAPACITY, AUDIENCE_CAPACITY, ERROR_CAPACITY, MOVE_CAPACITY, NOTICE_CAPACITY,
    PACKET_CAPACITY, TEXT_LIMIT, TRACE_CAPACITY,
};
pub use lines::{
    AgreementView, Alert, AnalysisLine, AudienceLine, MoveLine, PacketLine, TraceLine,
};

/// How many moves of a principal variation a view keeps.
const PV_LIMIT: usize = crate::protocol::gtp::analysis::PV_KEPT;

/// A word short and clean enough to be a vertex; a variation keeps no other.
fn is_vertex_like(word: &str) -> bool {
    word.len() <= VERTEX_LIMIT && word.chars().all(|c| c.is_ascii_alphanumeric())
}

fn no_analysis(analysis: &[Option<AnalysisLine>; 2]) -> bool {
    analysis.iter().all(Option::is_none)
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod untrusted_tests;
