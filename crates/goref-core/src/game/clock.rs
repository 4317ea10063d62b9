//! Time systems and the game clock of one player.
//!
//! A [`TimeSystem`] is what `--time` names (DESIGN.md §3) and what the SGF
//! `TM`/`OT` properties and the GTP time commands describe. A [`Clock`] charges
//! one player's thinking time against it.
//!
//! The clock never reads the time: the shell passes `Instant`s in, or, for CPU
//! time, the measured duration of a turn. A player is *flagged* when the time
//! used in a turn strictly exceeds what the turn allowed, so a turn that ends
//! exactly at [`Clock::deadline`] is still in time, and one that ends a
//! nanosecond later is not. Once flagged, a clock stays flagged.
//!
//! This file holds the [`Clock`] and its readings; `clock/time_system.rs`
//! the time systems and their text.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

/// What a screen or a JSON event shows of one clock. Milliseconds, rounded down.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClockReading {
    pub main_left_ms: u64,
    /// Time left in the current period (byo-yomi, Canadian) or of the per-move
    /// limit (CPU time); `None` for systems without overtime.
    pub period_left_ms: Option<u64>,
    /// Byo-yomi periods left, counting the current one.
    pub periods_left: Option<u32>,
    /// Canadian stones still to play in the current period.
    pub stones_left: Option<u32>,
    pub in_overtime: bool,
    pub running: bool,
    pub flagged: bool,
    /// Total thinking time charged so far, including the running turn.
    pub used_ms: u64,
    /// Time charged for the most recent completed turn.
    pub last_move_ms: u64,
    /// On a CPU-time clock: the real time the player's turns took, the
    /// running one included, shown beside the CPU time charged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wall_ms: Option<u64>,
}

/// What a completed turn cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TurnOutcome {
    pub used: Duration,
    pub flagged: bool,
}

/// The part of a clock that a turn changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct State {
    main_left: Duration,
    /// Byo-yomi and Canadian: the current period; CPU: the per-move budget.
    period_left: Duration,
    /// Byo-yomi: periods left, counting the current one.
    periods_left: u32,
    /// Canadian: stones left in the current period.
    stones_left: u32,
    flagged: bool,
}

/// One player's clock.
#[derive(Debug, Clone)]
pub struct Clock {
    system: TimeSystem,
    state: State,
    started: Option<Instant>,
    used: Duration,
    last_move: Duration,
    /// On a CPU-time clock, the real time of the completed turns.
    wall: Duration,
    /// The part of the turn under way charged before it was interrupted
    /// ([`Clock::cancel`], a pause): the turn, once completed, reports it.
    interrupted: Duration,
}

impl Clock {
    pub fn new(system: TimeSystem) -> Clock {
        let mut state = State {
            main_left: Duration::ZERO,
            period_left: Duration::ZERO,
            periods_left: 0,
            stones_left: 0,
            flagged: false,
        };
        match system {
            TimeSystem::None => {}
            TimeSystem::Absolute { main } | TimeSystem::Fischer { main, .. } => {
                state.main_left = main;
            }
            TimeSystem::ByoYomi {
                main,
                period,
                periods,
            } => {
                state.main_left = main;
                state.period_left = period;
                state.periods_left = periods;
            }
            TimeSystem::Canadian {
                main,
                period,
                stones,
            } => {
                state.main_left = main;
                state.period_left = period;
                state.stones_left = stones;
            }
            TimeSystem::Cpu { main, per_move } => {
                state.main_left = main;
                state.period_left = per_move;
            }
        }
        Clock {
            system,
            state,
            started: None,
            used: Duration::ZERO,
            last_move: Duration::ZERO,
            wall: Duration::ZERO,
            interrupted: Duration::ZERO,
        }
    }

    pub fn system(&self) -> TimeSystem {
        self.system
    }

    /// The clock a reading shows, stopped: how a referee that stopped
    /// takes its clocks back from the journal. The reading's milliseconds
    /// are the precision; what it does not show (periods of a system
    /// without them) comes from the time system.
    pub(crate) fn restore(system: TimeSystem, reading: &ClockReading) -> Clock {
        let mut clock = Clock::new(system);
        let ms = Duration::from_millis;
        clock.state.main_left = ms(reading.main_left_ms);
        if let Some(period) = reading.period_left_ms {
            clock.state.period_left = ms(period);
        }
        if let Some(periods) = reading.periods_left {
            clock.state.periods_left = periods;
        }
        if let Some(stones) = reading.stones_left {
            clock.state.stones_left = stones;
        }
        clock.state.flagged = reading.flagged;
        clock.used = ms(reading.used_ms);
        clock.last_move = ms(reading.last_move_ms);
        clock.wall = ms(reading.wall_ms.unwrap_or(0));
        clock
    }

    /// The request reached the player: the turn starts. Does nothing while the
    /// clock is already running, so the turn keeps its first start.
    pub fn start(&mut self, now: Instant) {
        if self.started.is_none() {
            self.started = Some(now);
        }
    }

    /// The answer arrived: charges `now - start` as one completed turn, which
    /// reports the time charged before an interruption too. A stop while the
    /// clock is not running charges nothing and counts no move.
    pub fn stop(&mut self, now: Instant) -> TurnOutcome {
        match self.started.take() {
            Some(start) => {
                let before = std::mem::take(&mut self.interrupted);
                let mut outcome = self.complete(now.saturating_duration_since(start));
                outcome.used = outcome.used.saturating_add(before);
                self.last_move = outcome.used;
                outcome
            }
            None => TurnOutcome {
                used: Duration::ZERO,
                flagged: self.state.flagged,
            },
        }
    }

    /// Like [`Clock::stop`], but charges what `charge` makes of the time
    /// measured (a seat's own stamp, within the lag allowance).
    pub(crate) fn stop_charging(
        &mut self,
        now: Instant,
        charge: impl FnOnce(Duration) -> Duration,
    ) -> TurnOutcome {
        match self.started.take() {
            Some(start) => {
                let before = std::mem::take(&mut self.interrupted);
                let used = charge(now.saturating_duration_since(start));
                let mut outcome = self.complete(used);
                outcome.used = outcome.used.saturating_add(before);
                self.last_move = outcome.used;
                outcome
            }
            None => self.stop(now),
        }
    }

    /// Charges an externally measured duration (CPU time) as one completed
    /// turn. If the clock was running, the wall-clock turn is discarded and the
    /// clock stops: the shell may `start` for the display and `charge` the CPU
    /// time when the answer arrives.
    pub(crate) fn charge(&mut self, used: Duration) -> TurnOutcome {
        self.started = None;
        self.interrupted = Duration::ZERO;
        self.complete(used)
    }

    /// Like [`Clock::charge`], at `now`: the real time the turn took since
    /// `start` is kept beside the CPU time, for the screen.
    pub(crate) fn charge_turn(&mut self, now: Instant, used: Duration) -> TurnOutcome {
        self.wall = self.wall.saturating_add(self.elapsed(now));
        self.charge(used)
    }

    /// Stops the clock without a completed move: the operator pauses the
    /// game. The time counts (and may flag), but the turn goes on when the
    /// clock starts again: no byo-yomi or per-move period is reset, no
    /// Canadian stone is counted, no Fischer increment is added, and
    /// `last_move_ms` keeps the last completed turn until this one completes,
    /// reporting the time before the interruption and after it.
    pub(crate) fn cancel(&mut self, now: Instant) {
        if self.counts_cpu() {
            self.wall = self.wall.saturating_add(self.elapsed(now));
            self.started = None;
            return;
        }
        if let Some(start) = self.started.take() {
            let used = now.saturating_duration_since(start);
            self.state = self.project(used);
            self.used = self.used.saturating_add(used);
            self.interrupted = self.interrupted.saturating_add(used);
        }
    }

    /// A player came `late` to its game (a seat connected after the game
    /// was to start): the time comes off its playing time, as the first
    /// turn's, before that turn starts (CGF §6(3)). Nothing on a CPU-time
    /// clock, which counts only the program's own time. Whether it flagged.
    pub(crate) fn charge_late(&mut self, late: Duration) -> bool {
        if self.counts_cpu() || self.started.is_some() {
            return self.state.flagged;
        }
        self.state = self.project(late);
        self.used = self.used.saturating_add(late);
        self.interrupted = self.interrupted.saturating_add(late);
        self.state.flagged
    }

    /// The operator adds time (`delta_ms` above zero) or takes it away:
    /// from main time while there is any, else from the current period.
    /// Never below zero, and a flagged clock stays flagged; a running turn
    /// keeps running against the new time.
    pub(crate) fn adjust(&mut self, delta_ms: i64) {
        if self.state.flagged {
            return;
        }
        let amount = Duration::from_millis(delta_ms.unsigned_abs());
        let s = &mut self.state;
        let in_overtime = self.system.has_overtime() && s.main_left.is_zero();
        let target = if in_overtime {
            &mut s.period_left
        } else {
            &mut s.main_left
        };
        *target = if delta_ms >= 0 {
            target.saturating_add(amount)
        } else {
            target.saturating_sub(amount)
        };
    }

    /// Whether a turn that used `used` would flag: what a CPU-time clock
    /// asks while the player is still thinking.
    pub(crate) fn would_flag(&self, used: Duration) -> bool {
        self.project(used).flagged
    }

    /// Whether the main time is gone and the player is in overtime (or
    /// flagged).
    pub(crate) fn main_time_used_up(&self) -> bool {
        self.state.main_left.is_zero()
    }

    pub(crate) fn is_running(&self) -> bool {
        self.started.is_some()
    }

    /// While running, the instant at which the player flags: the turn is in
    /// time up to and including it, and late from the next nanosecond on.
    /// `None` when stopped, untimed, already flagged, a CPU-time clock (it has
    /// no such instant: it is charged the CPU time reported with the move),
    /// or too far away to be an `Instant`.
    pub fn deadline(&self) -> Option<Instant> {
        let start = self.started?;
        if self.state.flagged || self.counts_cpu() {
            return None;
        }
        start.checked_add(self.allowance()?)
    }

    /// Whether the player has run out of time, counting the running turn up to `now`.
    #[cfg(test)]
    pub(crate) fn is_flagged(&self, now: Instant) -> bool {
        self.live(now).flagged
    }

    /// The reading of a clock of `system` before its first turn: all its
    /// time left, nothing used.
    pub(crate) fn at_start(system: TimeSystem) -> ClockReading {
        let clock = Clock::new(system);
        clock.reading_of(clock.state, Duration::ZERO)
    }

    pub fn reading(&self, now: Instant) -> ClockReading {
        self.reading_of(self.live(now), self.elapsed(now))
    }

    /// The reading of the state `s`, `elapsed` into the running turn.
    fn reading_of(&self, s: State, elapsed: Duration) -> ClockReading {
        let ms = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        let has_periods = self.system.has_overtime();
        ClockReading {
            main_left_ms: ms(s.main_left),
            period_left_ms: has_periods.then(|| ms(s.period_left)),
            periods_left: matches!(self.system, TimeSystem::ByoYomi { .. })
                .then_some(s.periods_left),
            stones_left: matches!(self.system, TimeSystem::Canadian { .. })
                .then_some(s.stones_left),
            in_overtime: has_periods && s.main_left.is_zero(),
            running: self.is_running(),
            flagged: s.flagged,
            used_ms: match self.counts_cpu() {
                true => ms(self.used),
                false => ms(self.used.saturating_add(elapsed)),
            },
            last_move_ms: ms(self.last_move),
            wall_ms: self
                .counts_cpu()
                .then(|| ms(self.wall.saturating_add(elapsed))),
        }
    }

    /// Arguments for the standard `time_left color time stones`: in main time
    /// the main time left, rounded up to whole seconds, and 0 stones; in
    /// Canadian overtime the period left (rounded down) and the stones left;
    /// in byo-yomi and CPU overtime the period left and 1 stone, matching
    /// [`TimeSystem::gtp_time_settings`]. While main time remains the seconds
    /// are never 0: engines read `0 0` as "overtime has begun". Untimed
    /// clocks read `(0, 0)`; GTP has nothing to say about them, so the caller
    /// should not send `time_left`.
    pub(crate) fn gtp_time_left(&self, now: Instant) -> (u64, u64) {
        let s = self.live(now);
        match self.system {
            TimeSystem::None => (0, 0),
            _ if !self.system.has_overtime() || !s.main_left.is_zero() => {
                (whole_seconds_up(s.main_left), 0)
            }
            TimeSystem::Canadian { .. } => (s.period_left.as_secs(), s.stones_left.into()),
            _ => (s.period_left.as_secs(), 1),
        }
    }

    /// Like [`Clock::gtp_time_left`], for engines set up with
    /// `kgs-time_settings`: in byo-yomi the stones field carries the periods left.
    pub(crate) fn kgs_time_left(&self, now: Instant) -> (u64, u64) {
        let s = self.live(now);
        match self.system {
            TimeSystem::ByoYomi { .. } if s.main_left.is_zero() => {
                (s.period_left.as_secs(), s.periods_left.into())
            }
            _ => self.gtp_time_left(now),
        }
    }

    fn elapsed(&self, now: Instant) -> Duration {
        self.started
            .map_or(Duration::ZERO, |start| now.saturating_duration_since(start))
    }

    /// The state as it would be if the running turn were interrupted at `now`.
    /// A CPU-time clock does not run by the wall clock: it is as it was.
    fn live(&self, now: Instant) -> State {
        match self.started {
            Some(start) if !self.counts_cpu() => self.project(now.saturating_duration_since(start)),
            _ => self.state,
        }
    }

    /// A CPU-time clock: charged the CPU time reported, not the wall time.
    pub(crate) fn counts_cpu(&self) -> bool {
        self.system.counts_cpu()
    }

    /// The most a turn starting now may use; `None` when unlimited.
    fn allowance(&self) -> Option<Duration> {
        let s = &self.state;
        match self.system {
            TimeSystem::None => None,
            TimeSystem::Absolute { .. } | TimeSystem::Fischer { .. } => Some(s.main_left),
            TimeSystem::ByoYomi { period, .. } => {
                if s.periods_left == 0 || period.is_zero() {
                    return Some(s.main_left);
                }
                let spare = period.checked_mul(s.periods_left - 1)?;
                s.main_left.checked_add(s.period_left)?.checked_add(spare)
            }
            TimeSystem::Canadian { .. } if s.stones_left == 0 => Some(s.main_left),
            TimeSystem::Canadian { .. } | TimeSystem::Cpu { .. } => {
                s.main_left.checked_add(s.period_left)
            }
        }
    }

    /// Charges `used` against the current state, without the effects of a
    /// completed move.
    fn project(&self, used: Duration) -> State {
        let mut s = self.state;
        if s.flagged {
            return s;
        }
        let over = used.saturating_sub(s.main_left);
        s.main_left = s.main_left.saturating_sub(used);
        let in_time = match self.system {
            TimeSystem::None => true,
            _ if over.is_zero() => true,
            TimeSystem::Absolute { .. } | TimeSystem::Fischer { .. } => false,
            TimeSystem::ByoYomi { period, .. } => {
                if s.periods_left == 0 || period.is_zero() {
                    false
                } else if over <= s.period_left {
                    s.period_left -= over;
                    true
                } else {
                    let beyond = (over - s.period_left).as_nanos();
                    let length = period.as_nanos();
                    let consumed = beyond.div_ceil(length);
                    if consumed >= u128::from(s.periods_left) {
                        false
                    } else {
                        s.periods_left -= consumed as u32;
                        let left = consumed * length - beyond;
                        s.period_left = nanos_to_duration(left).unwrap_or(period);
                        true
                    }
                }
            }
            TimeSystem::Canadian { .. } if s.stones_left == 0 => false,
            TimeSystem::Canadian { .. } | TimeSystem::Cpu { .. } => {
                if over <= s.period_left {
                    s.period_left -= over;
                    true
                } else {
                    false
                }
            }
        };
        if !in_time {
            s.flagged = true;
            s.main_left = Duration::ZERO;
            s.period_left = Duration::ZERO;
            s.periods_left = 0;
        }
        s
    }

    /// Charges one completed turn.
    fn complete(&mut self, used: Duration) -> TurnOutcome {
        let mut s = self.project(used);
        if !s.flagged {
            match self.system {
                TimeSystem::None | TimeSystem::Absolute { .. } => {}
                TimeSystem::ByoYomi { period, .. } => s.period_left = period,
                TimeSystem::Canadian { period, stones, .. } => {
                    if s.main_left.is_zero() && s.stones_left > 0 {
                        s.stones_left -= 1;
                        if s.stones_left == 0 {
                            s.stones_left = stones;
                            s.period_left = period;
                        }
                    }
                }
                TimeSystem::Fischer { increment, .. } => {
                    s.main_left = s.main_left.saturating_add(increment);
                }
                TimeSystem::Cpu { per_move, .. } => s.period_left = per_move,
            }
        }
        self.state = s;
        self.used = self.used.saturating_add(used);
        self.last_move = used;
        TurnOutcome {
            used,
            flagged: s.flagged,
        }
    }
}

impl ClockReading {
    /// The reading `elapsed` after it was taken, had the turn gone on: what
    /// a screen shows between the referee's readings. The same rules as the
    /// referee's clock apply (main time, then periods or stones, then the
    /// flag). A stopped reading does not change, and neither does a CPU-time
    /// clock, which the wall clock cannot tell.
    pub fn ticked(&self, system: TimeSystem, elapsed: Duration) -> ClockReading {
        if !self.running {
            return self.clone();
        }
        if system.counts_cpu() {
            let to_ms = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
            return ClockReading {
                wall_ms: self.wall_ms.map(|wall| wall.saturating_add(to_ms(elapsed))),
                ..self.clone()
            };
        }
        let ms = Duration::from_millis;
        let clock = Clock {
            system,
            state: State {
                main_left: ms(self.main_left_ms),
                period_left: ms(self.period_left_ms.unwrap_or(0)),
                periods_left: self.periods_left.unwrap_or(0),
                stones_left: self.stones_left.unwrap_or(0),
                flagged: self.flagged,
            },
            started: None,
            used: Duration::ZERO,
            last_move: Duration::ZERO,
            wall: Duration::ZERO,
            interrupted: Duration::ZERO,
        };
        let s = clock.project(elapsed);
        let to_ms = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        ClockReading {
            main_left_ms: to_ms(s.main_left),
            period_left_ms: self.period_left_ms.map(|_| to_ms(s.period_left)),
            periods_left: self.periods_left.map(|_| s.periods_left),
            stones_left: self.stones_left.map(|_| s.stones_left),
            in_overtime: system.has_overtime() && s.main_left.is_zero(),
            flagged: s.flagged,
            used_ms: self.used_ms.saturating_add(to_ms(elapsed)),
            ..self.clone()
        }
    }
}

/// Whole seconds, rounded up: 987 ms is 1 s, and only zero is 0.
fn whole_seconds_up(d: Duration) -> u64 {
    d.as_secs().saturating_add(u64::from(d.subsec_nanos() > 0))
}

mod time_system;

use time_system::nanos_to_duration;
pub use time_system::{format_duration, parse_duration};
pub use time_system::{TimeSpecError, TimeSystem};

#[cfg(test)]
mod tests;
