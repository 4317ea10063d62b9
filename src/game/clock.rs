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

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

/// How much time a player has, as `--time` spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TimeSystem {
    /// No time limit.
    None,
    /// Sudden death: `main` for the whole game.
    Absolute { main: Duration },
    /// Japanese byo-yomi: after `main`, `periods` periods of `period`; a move
    /// played within a period resets it, a period overrun uses it up.
    ByoYomi {
        main: Duration,
        period: Duration,
        periods: u32,
    },
    /// Canadian overtime: after `main`, `stones` moves in each `period`.
    Canadian {
        main: Duration,
        period: Duration,
        stones: u32,
    },
    /// `main`, plus `increment` after every completed move.
    Fischer { main: Duration, increment: Duration },
    /// Usenix: `main` of accumulated CPU time, then at most `per_move` per move.
    Cpu { main: Duration, per_move: Duration },
}

/// Why a `--time` spec was not understood.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TimeSpecError {
    #[error(
        "unknown time system '{0}': expected none, absolute:MAIN, byoyomi:MAIN,PERIOD,PERIODS, \
         canadian:MAIN,PERIOD,STONES, fischer:MAIN,INCREMENT or cpu:MAIN,PER_MOVE"
    )]
    UnknownSystem(String),
    #[error("{kind} needs {expected} (e.g. {example})")]
    Arguments {
        kind: &'static str,
        expected: &'static str,
        example: &'static str,
    },
    #[error(
        "'{0}' is not a duration: expected seconds (90) or numbers with units h, m, s, ms \
         in that order (1h30m, 30s, 2.5s)"
    )]
    BadDuration(String),
    #[error("'{text}' is not a number of {what}: expected a whole number")]
    BadCount { text: String, what: &'static str },
    #[error("{kind} needs a non-zero {what} (e.g. {example})")]
    Zero {
        kind: &'static str,
        what: &'static str,
        example: &'static str,
    },
}

struct Shape {
    kind: &'static str,
    expected: &'static str,
    example: &'static str,
    arity: usize,
}

const SHAPES: [Shape; 6] = [
    Shape {
        kind: "none",
        expected: "no arguments",
        example: "none",
        arity: 0,
    },
    Shape {
        kind: "absolute",
        expected: "main",
        example: "absolute:50m",
        arity: 1,
    },
    Shape {
        kind: "byoyomi",
        expected: "main,period,periods",
        example: "byoyomi:5m,30s,3",
        arity: 3,
    },
    Shape {
        kind: "canadian",
        expected: "main,period,stones",
        example: "canadian:10m,5m,25",
        arity: 3,
    },
    Shape {
        kind: "fischer",
        expected: "main,increment",
        example: "fischer:5m,2s",
        arity: 2,
    },
    Shape {
        kind: "cpu",
        expected: "main,per_move",
        example: "cpu:60m,10s",
        arity: 2,
    },
];

impl FromStr for TimeSystem {
    type Err = TimeSpecError;

    /// Parses `none`, `absolute:50m`, `byoyomi:5m,30s,3`, `canadian:10m,5m,25`,
    /// `fischer:5m,2s` or `cpu:60m,10s`. The kind is case-insensitive;
    /// `japanese` and `byo-yomi` are accepted for `byoyomi`, `usenix` for `cpu`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let text = s.trim();
        let (kind, rest) = match text.split_once(':') {
            Some((kind, rest)) => (kind.trim(), Some(rest)),
            None => (text, None),
        };
        let canonical = match kind.to_ascii_lowercase().as_str() {
            "none" => "none",
            "absolute" => "absolute",
            "byoyomi" | "byo-yomi" | "japanese" => "byoyomi",
            "canadian" => "canadian",
            "fischer" => "fischer",
            "cpu" | "usenix" => "cpu",
            _ => return Err(TimeSpecError::UnknownSystem(text.to_string())),
        };
        let shape = SHAPES
            .iter()
            .find(|shape| shape.kind == canonical)
            .ok_or_else(|| TimeSpecError::UnknownSystem(text.to_string()))?;
        let args: Vec<&str> = match rest {
            Some(rest) => rest.split(',').map(str::trim).collect(),
            None => Vec::new(),
        };
        if args.len() != shape.arity {
            return Err(TimeSpecError::Arguments {
                kind: shape.kind,
                expected: shape.expected,
                example: shape.example,
            });
        }
        let zero = |what| TimeSpecError::Zero {
            kind: shape.kind,
            what,
            example: shape.example,
        };
        let durations = |count: usize| -> Result<Vec<Duration>, TimeSpecError> {
            args[..count]
                .iter()
                .map(|arg| parse_duration(arg))
                .collect()
        };
        let system = match canonical {
            "none" => TimeSystem::None,
            "absolute" => TimeSystem::Absolute {
                main: parse_duration(args[0])?,
            },
            "byoyomi" => {
                let d = durations(2)?;
                let periods = parse_count(args[2], "periods")?;
                if d[1].is_zero() {
                    return Err(zero("period"));
                }
                if periods == 0 {
                    return Err(zero("number of periods"));
                }
                TimeSystem::ByoYomi {
                    main: d[0],
                    period: d[1],
                    periods,
                }
            }
            "canadian" => {
                let d = durations(2)?;
                let stones = parse_count(args[2], "stones")?;
                if d[1].is_zero() {
                    return Err(zero("period"));
                }
                if stones == 0 {
                    return Err(zero("number of stones"));
                }
                TimeSystem::Canadian {
                    main: d[0],
                    period: d[1],
                    stones,
                }
            }
            "fischer" => {
                let d = durations(2)?;
                TimeSystem::Fischer {
                    main: d[0],
                    increment: d[1],
                }
            }
            _ => {
                let d = durations(2)?;
                if d[1].is_zero() {
                    return Err(zero("per-move limit"));
                }
                TimeSystem::Cpu {
                    main: d[0],
                    per_move: d[1],
                }
            }
        };
        Ok(system)
    }
}

impl fmt::Display for TimeSystem {
    /// The canonical `--time` spelling, which parses back to the same system.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = format_duration;
        match *self {
            TimeSystem::None => f.write_str("none"),
            TimeSystem::Absolute { main } => write!(f, "absolute:{}", d(main)),
            TimeSystem::ByoYomi {
                main,
                period,
                periods,
            } => write!(f, "byoyomi:{},{},{periods}", d(main), d(period)),
            TimeSystem::Canadian {
                main,
                period,
                stones,
            } => write!(f, "canadian:{},{},{stones}", d(main), d(period)),
            TimeSystem::Fischer { main, increment } => {
                write!(f, "fischer:{},{}", d(main), d(increment))
            }
            TimeSystem::Cpu { main, per_move } => {
                write!(f, "cpu:{},{}", d(main), d(per_move))
            }
        }
    }
}

const NANOS_PER_SEC: u128 = 1_000_000_000;

/// `1h30m`, `30s`, `2.5s`: a duration as the `--time` specs write it.
pub fn format_duration(d: Duration) -> String {
    let secs = d.as_secs();
    let nanos = d.subsec_nanos();
    let (h, m, s) = (secs / 3600, secs % 3600 / 60, secs % 60);
    let mut out = String::new();
    if h > 0 {
        out.push_str(&format!("{h}h"));
    }
    if m > 0 {
        out.push_str(&format!("{m}m"));
    }
    if s > 0 || nanos > 0 || out.is_empty() {
        out.push_str(&format!("{s}{}s", fraction(nanos)));
    }
    out
}

/// `.5` for 500 ms, empty for a whole number of seconds.
fn fraction(nanos: u32) -> String {
    if nanos == 0 {
        return String::new();
    }
    let digits = format!("{nanos:09}");
    format!(".{}", digits.trim_end_matches('0'))
}

/// Seconds with up to nine decimals and no trailing zeros: `30`, `2.5`.
fn seconds_text(d: Duration) -> String {
    format!("{}{}", d.as_secs(), fraction(d.subsec_nanos()))
}

/// Parses `90`, `30s`, `5m`, `1h30m`, `2.5s`, `500ms`.
pub fn parse_duration(text: &str) -> Result<Duration, TimeSpecError> {
    let bad = || TimeSpecError::BadDuration(text.to_string());
    let t = text.trim().to_ascii_lowercase();
    if t.is_empty() {
        return Err(bad());
    }
    let is_number = |c: char| c.is_ascii_digit() || c == '.';
    if t.chars().all(is_number) {
        return nanos_to_duration(number_nanos(&t, NANOS_PER_SEC).ok_or_else(bad)?).ok_or_else(bad);
    }
    const UNITS: [(&str, u128); 4] = [
        ("h", 3600 * NANOS_PER_SEC),
        ("m", 60 * NANOS_PER_SEC),
        ("s", NANOS_PER_SEC),
        ("ms", 1_000_000),
    ];
    let mut rest = t.as_str();
    let mut total: u128 = 0;
    let mut next_unit = 0;
    while !rest.is_empty() {
        let split = rest.find(|c: char| !is_number(c)).ok_or_else(bad)?;
        let (number, tail) = rest.split_at(split);
        let unit_len = tail.find(is_number).unwrap_or(tail.len());
        let (unit, tail) = tail.split_at(unit_len);
        let index = UNITS
            .iter()
            .position(|&(name, _)| name == unit)
            .ok_or_else(bad)?;
        if index < next_unit {
            return Err(bad());
        }
        next_unit = index + 1;
        let nanos = number_nanos(number, UNITS[index].1).ok_or_else(bad)?;
        total = total.checked_add(nanos).ok_or_else(bad)?;
        rest = tail;
    }
    nanos_to_duration(total).ok_or_else(bad)
}

/// A decimal number times `unit` nanoseconds, truncated to whole nanoseconds.
fn number_nanos(number: &str, unit: u128) -> Option<u128> {
    let (int, frac) = number.split_once('.').unwrap_or((number, ""));
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    if !int.bytes().all(|b| b.is_ascii_digit()) || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let int_value: u128 = if int.is_empty() {
        0
    } else {
        int.parse::<u64>().ok()?.into()
    };
    let frac = &frac[..frac.len().min(9)];
    let frac_value: u128 = if frac.is_empty() {
        0
    } else {
        frac.parse().ok()?
    };
    let scale = 10u128.pow(frac.len() as u32);
    int_value
        .checked_mul(unit)?
        .checked_add(frac_value * unit / scale)
}

fn nanos_to_duration(nanos: u128) -> Option<Duration> {
    let secs = u64::try_from(nanos / NANOS_PER_SEC).ok()?;
    Some(Duration::new(secs, (nanos % NANOS_PER_SEC) as u32))
}

fn parse_count(text: &str, what: &'static str) -> Result<u32, TimeSpecError> {
    let t = text.trim();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(TimeSpecError::BadCount {
            text: text.to_string(),
            what,
        });
    }
    t.parse().map_err(|_| TimeSpecError::BadCount {
        text: text.to_string(),
        what,
    })
}

impl TimeSystem {
    /// The SGF `TM` value: main time in whole seconds (rounded down); `None`
    /// for an untimed game.
    pub fn sgf_main_time(&self) -> Option<u64> {
        match *self {
            TimeSystem::None => None,
            TimeSystem::Absolute { main }
            | TimeSystem::ByoYomi { main, .. }
            | TimeSystem::Canadian { main, .. }
            | TimeSystem::Fischer { main, .. }
            | TimeSystem::Cpu { main, .. } => Some(main.as_secs()),
        }
    }

    /// The SGF `OT` text, e.g. `3x30 byo-yomi`, `25/300 Canadian`,
    /// `2 s Fischer increment`, `10 s/move after main (CPU time)`; `None` for
    /// sudden death and untimed games.
    pub fn sgf_overtime(&self) -> Option<String> {
        match *self {
            TimeSystem::None | TimeSystem::Absolute { .. } => None,
            TimeSystem::ByoYomi {
                period, periods, ..
            } => Some(format!("{periods}x{} byo-yomi", seconds_text(period))),
            TimeSystem::Canadian { period, stones, .. } => {
                Some(format!("{stones}/{} Canadian", seconds_text(period)))
            }
            TimeSystem::Fischer { increment, .. } => {
                Some(format!("{} s Fischer increment", seconds_text(increment)))
            }
            TimeSystem::Cpu { per_move, .. } => Some(format!(
                "{} s/move after main (CPU time)",
                seconds_text(per_move)
            )),
        }
    }

    /// Arguments for the standard `time_settings main byo_yomi_time byo_yomi_stones`,
    /// in whole seconds rounded down.
    ///
    /// Standard GTP knows only Canadian overtime, so: untimed is `(0, 1, 0)`;
    /// absolute is `(main, 0, 0)`; Japanese byo-yomi is approximated as Canadian
    /// with one stone per period, `(main, period, 1)`, which hides the spare
    /// periods; CPU time is `(main, per_move, 1)`; Fischer is announced as
    /// absolute `(main, 0, 0)`, so an engine never plans on an increment it has
    /// not been credited yet, and learns of credited increments from `time_left`.
    pub fn gtp_time_settings(&self) -> (u64, u64, u64) {
        match *self {
            TimeSystem::None => (0, 1, 0),
            TimeSystem::Absolute { main } | TimeSystem::Fischer { main, .. } => {
                (main.as_secs(), 0, 0)
            }
            TimeSystem::ByoYomi { main, period, .. } => (main.as_secs(), period.as_secs(), 1),
            TimeSystem::Canadian {
                main,
                period,
                stones,
            } => (main.as_secs(), period.as_secs(), stones.into()),
            TimeSystem::Cpu { main, per_move } => (main.as_secs(), per_move.as_secs(), 1),
        }
    }

    /// Arguments for `kgs-time_settings`, in whole seconds rounded down:
    /// `none`, `absolute 3000`, `byoyomi 300 30 3`, `canadian 600 300 25`.
    /// `None` for Fischer and CPU time, which KGS cannot express.
    pub fn kgs_time_settings(&self) -> Option<String> {
        match *self {
            TimeSystem::None => Some("none".to_string()),
            TimeSystem::Absolute { main } => Some(format!("absolute {}", main.as_secs())),
            TimeSystem::ByoYomi {
                main,
                period,
                periods,
            } => Some(format!(
                "byoyomi {} {} {periods}",
                main.as_secs(),
                period.as_secs()
            )),
            TimeSystem::Canadian {
                main,
                period,
                stones,
            } => Some(format!(
                "canadian {} {} {stones}",
                main.as_secs(),
                period.as_secs()
            )),
            TimeSystem::Fischer { .. } | TimeSystem::Cpu { .. } => None,
        }
    }

    fn has_overtime(&self) -> bool {
        matches!(
            self,
            TimeSystem::ByoYomi { .. } | TimeSystem::Canadian { .. } | TimeSystem::Cpu { .. }
        )
    }
}

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
        }
    }

    pub fn system(&self) -> TimeSystem {
        self.system
    }

    /// The request reached the player: the turn starts. Does nothing while the
    /// clock is already running, so the turn keeps its first start.
    pub fn start(&mut self, now: Instant) {
        if self.started.is_none() {
            self.started = Some(now);
        }
    }

    /// The answer arrived: charges `now - start` as one completed turn. A stop
    /// while the clock is not running charges nothing and counts no move.
    pub fn stop(&mut self, now: Instant) -> TurnOutcome {
        match self.started.take() {
            Some(start) => self.complete(now.saturating_duration_since(start)),
            None => TurnOutcome {
                used: Duration::ZERO,
                flagged: self.state.flagged,
            },
        }
    }

    /// Charges an externally measured duration (CPU time) as one completed
    /// turn. If the clock was running, the wall-clock turn is discarded and the
    /// clock stops: the shell may `start` for the display and `charge` the CPU
    /// time when the answer arrives.
    pub fn charge(&mut self, used: Duration) -> TurnOutcome {
        self.started = None;
        self.complete(used)
    }

    /// Stops the clock without a completed move, e.g. when a request is
    /// interrupted and will be asked again. The time counts (and may flag), but
    /// the turn goes on when the clock starts again: no byo-yomi or per-move
    /// period is reset, no Canadian stone is counted, no Fischer increment is
    /// added, and `last_move_ms` keeps the last completed turn.
    pub fn cancel(&mut self, now: Instant) {
        if let Some(start) = self.started.take() {
            let used = now.saturating_duration_since(start);
            self.state = self.project(used);
            self.used = self.used.saturating_add(used);
        }
    }

    pub fn is_running(&self) -> bool {
        self.started.is_some()
    }

    /// While running, the instant at which the player flags: the turn is in
    /// time up to and including it, and late from the next nanosecond on.
    /// `None` when stopped, untimed, already flagged, or too far away to be an
    /// `Instant`.
    pub fn deadline(&self) -> Option<Instant> {
        let start = self.started?;
        if self.state.flagged {
            return None;
        }
        start.checked_add(self.allowance()?)
    }

    /// Whether the player has run out of time, counting the running turn up to `now`.
    pub fn is_flagged(&self, now: Instant) -> bool {
        self.live(now).flagged
    }

    pub fn reading(&self, now: Instant) -> ClockReading {
        let s = self.live(now);
        let ms = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        let elapsed = self.elapsed(now);
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
            used_ms: ms(self.used.saturating_add(elapsed)),
            last_move_ms: ms(self.last_move),
        }
    }

    /// Arguments for the standard `time_left color time stones`, in whole
    /// seconds rounded down: in main time the main time left and 0 stones; in
    /// Canadian overtime the period left and the stones left; in byo-yomi and
    /// CPU overtime the period left and 1 stone, matching
    /// [`TimeSystem::gtp_time_settings`]. Untimed clocks read `(0, 0)`; GTP has
    /// nothing to say about them, so the caller should not send `time_left`.
    pub fn gtp_time_left(&self, now: Instant) -> (u64, u64) {
        let s = self.live(now);
        match self.system {
            TimeSystem::None => (0, 0),
            _ if !self.system.has_overtime() || !s.main_left.is_zero() => {
                (s.main_left.as_secs(), 0)
            }
            TimeSystem::Canadian { .. } => (s.period_left.as_secs(), s.stones_left.into()),
            _ => (s.period_left.as_secs(), 1),
        }
    }

    /// Like [`Clock::gtp_time_left`], for engines set up with
    /// `kgs-time_settings`: in byo-yomi the stones field carries the periods left.
    pub fn kgs_time_left(&self, now: Instant) -> (u64, u64) {
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
    fn live(&self, now: Instant) -> State {
        match self.started {
            Some(start) => self.project(now.saturating_duration_since(start)),
            None => self.state,
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Tests need some instant to count from; only offsets from it matter.
    fn t0() -> Instant {
        Instant::now()
    }

    fn s(secs: u64) -> Duration {
        Duration::from_secs(secs)
    }

    fn ms(millis: u64) -> Duration {
        Duration::from_millis(millis)
    }

    fn turn(clock: &mut Clock, at: Instant, used: Duration) -> TurnOutcome {
        clock.start(at);
        clock.stop(at + used)
    }

    fn parse(text: &str) -> TimeSystem {
        text.parse().unwrap()
    }

    #[test]
    fn parses_every_documented_spec() {
        assert_eq!(parse("none"), TimeSystem::None);
        assert_eq!(
            parse("absolute:50m"),
            TimeSystem::Absolute { main: s(3000) }
        );
        assert_eq!(
            parse("byoyomi:5m,30s,3"),
            TimeSystem::ByoYomi {
                main: s(300),
                period: s(30),
                periods: 3
            }
        );
        assert_eq!(
            parse("canadian:10m,5m,25"),
            TimeSystem::Canadian {
                main: s(600),
                period: s(300),
                stones: 25
            }
        );
        assert_eq!(
            parse("fischer:5m,2s"),
            TimeSystem::Fischer {
                main: s(300),
                increment: s(2)
            }
        );
        assert_eq!(
            parse("cpu:60m,10s"),
            TimeSystem::Cpu {
                main: s(3600),
                per_move: s(10)
            }
        );
        assert_eq!(parse(" Japanese:0,30s,5 "), parse("byoyomi:0s,30s,5"));
        assert_eq!(parse("usenix:60m,10s"), parse("cpu:1h,10s"));
    }

    #[test]
    fn parses_durations_with_and_without_units() {
        let cases = [
            ("90", s(90)),
            ("30s", s(30)),
            ("5m", s(300)),
            ("1h", s(3600)),
            ("1h30m", s(5400)),
            ("1m30s", s(90)),
            ("2.5s", ms(2500)),
            ("1.5", ms(1500)),
            ("0.5m", s(30)),
            ("500ms", ms(500)),
            ("1s250ms", ms(1250)),
            ("1H2M3S", s(3723)),
            ("0", Duration::ZERO),
        ];
        for (text, expected) in cases {
            assert_eq!(parse_duration(text), Ok(expected), "{text}");
        }
        for bad in ["", "s", "5x", "30s1h", "1m1m", "1..5s", "-5s", "5 m", "1e3"] {
            assert!(
                matches!(parse_duration(bad), Err(TimeSpecError::BadDuration(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn errors_say_what_was_expected() {
        let err = |text: &str| text.parse::<TimeSystem>().unwrap_err().to_string();
        assert_eq!(
            err("byoyomi:5m,30s"),
            "byoyomi needs main,period,periods (e.g. byoyomi:5m,30s,3)"
        );
        assert_eq!(err("absolute"), "absolute needs main (e.g. absolute:50m)");
        assert_eq!(err("none:5m"), "none needs no arguments (e.g. none)");
        assert_eq!(
            err("canadian:10m,5m,0"),
            "canadian needs a non-zero number of stones (e.g. canadian:10m,5m,25)"
        );
        assert_eq!(
            err("byoyomi:5m,0,3"),
            "byoyomi needs a non-zero period (e.g. byoyomi:5m,30s,3)"
        );
        assert_eq!(
            err("cpu:60m,0s"),
            "cpu needs a non-zero per-move limit (e.g. cpu:60m,10s)"
        );
        assert_eq!(
            err("byoyomi:5m,30s,x"),
            "'x' is not a number of periods: expected a whole number"
        );
        assert!(err("absolute:5x").starts_with("'5x' is not a duration"));
        assert!(err("blitz:5m").starts_with("unknown time system 'blitz:5m'"));
    }

    #[test]
    fn display_is_canonical() {
        assert_eq!(parse("absolute:90m").to_string(), "absolute:1h30m");
        assert_eq!(parse("byoyomi:300,30,3").to_string(), "byoyomi:5m,30s,3");
        assert_eq!(parse("fischer:0,2.5s").to_string(), "fischer:0s,2.5s");
        assert_eq!(parse("cpu:60m,10s").to_string(), "cpu:1h,10s");
        assert_eq!(
            parse("canadian:10m,5m,25").to_string(),
            "canadian:10m,5m,25"
        );
        assert_eq!(parse("none").to_string(), "none");
    }

    #[test]
    fn serializes_with_a_kind_tag() {
        let system = parse("byoyomi:5m,30s,3");
        let json = serde_json::to_value(system).unwrap();
        assert_eq!(json["kind"], "byo_yomi");
        assert_eq!(json["periods"], 3);
        assert_eq!(serde_json::from_value::<TimeSystem>(json).unwrap(), system);
        let none = serde_json::to_string(&TimeSystem::None).unwrap();
        assert_eq!(none, r#"{"kind":"none"}"#);
    }

    #[test]
    fn describes_itself_for_sgf_and_gtp() {
        let table = [
            ("none", None, None, (0, 1, 0), Some("none")),
            (
                "absolute:50m",
                Some(3000),
                None,
                (3000, 0, 0),
                Some("absolute 3000"),
            ),
            (
                "byoyomi:5m,30s,3",
                Some(300),
                Some("3x30 byo-yomi"),
                (300, 30, 1),
                Some("byoyomi 300 30 3"),
            ),
            (
                "canadian:10m,5m,25",
                Some(600),
                Some("25/300 Canadian"),
                (600, 300, 25),
                Some("canadian 600 300 25"),
            ),
            (
                "fischer:5m,2s",
                Some(300),
                Some("2 s Fischer increment"),
                (300, 0, 0),
                None,
            ),
            (
                "cpu:60m,10s",
                Some(3600),
                Some("10 s/move after main (CPU time)"),
                (3600, 10, 1),
                None,
            ),
        ];
        for (spec, tm, ot, gtp, kgs) in table {
            let system = parse(spec);
            assert_eq!(system.sgf_main_time(), tm, "{spec}");
            assert_eq!(system.sgf_overtime().as_deref(), ot, "{spec}");
            assert_eq!(system.gtp_time_settings(), gtp, "{spec}");
            assert_eq!(system.kgs_time_settings().as_deref(), kgs, "{spec}");
        }
        assert_eq!(
            parse("fischer:90.9,2.5s").sgf_overtime().as_deref(),
            Some("2.5 s Fischer increment")
        );
        assert_eq!(parse("fischer:90.9,2.5s").sgf_main_time(), Some(90));
    }

    #[test]
    fn an_untimed_clock_never_flags() {
        let start = t0();
        let mut clock = Clock::new(TimeSystem::None);
        clock.start(start);
        assert!(clock.is_running());
        assert_eq!(clock.deadline(), None);
        assert!(!clock.is_flagged(start + s(1_000_000)));
        let outcome = clock.stop(start + s(1_000_000));
        assert_eq!(
            outcome,
            TurnOutcome {
                used: s(1_000_000),
                flagged: false
            }
        );
        let reading = clock.reading(start);
        assert_eq!(reading.used_ms, 1_000_000_000);
        assert_eq!(reading.period_left_ms, None);
        assert!(!reading.in_overtime);
    }

    #[test]
    fn absolute_flags_only_when_used_strictly_exceeds_main() {
        let start = t0();
        let mut clock = Clock::new(parse("absolute:10s"));
        assert!(!turn(&mut clock, start, s(4)).flagged);
        assert_eq!(clock.reading(start).main_left_ms, 6000);
        clock.start(start);
        assert_eq!(clock.deadline(), Some(start + s(6)));
        assert!(!clock.is_flagged(start + s(6)));
        assert!(clock.is_flagged(start + s(6) + Duration::from_nanos(1)));
        let outcome = clock.stop(start + s(6));
        assert!(!outcome.flagged);
        assert_eq!(clock.reading(start).main_left_ms, 0);
        assert!(turn(&mut clock, start, ms(1)).flagged);
        let reading = clock.reading(start);
        assert!(reading.flagged);
        assert_eq!(reading.used_ms, 10_001);
        assert_eq!(reading.last_move_ms, 1);
    }

    #[test]
    fn a_flag_is_permanent() {
        let start = t0();
        let mut clock = Clock::new(parse("fischer:1s,10s"));
        assert!(turn(&mut clock, start, s(2)).flagged);
        assert!(clock.is_flagged(start));
        assert!(turn(&mut clock, start, Duration::ZERO).flagged);
        clock.start(start);
        assert_eq!(clock.deadline(), None);
        assert_eq!(clock.reading(start).main_left_ms, 0);
    }

    #[test]
    fn byoyomi_main_time_carries_into_the_first_period() {
        let start = t0();
        let mut clock = Clock::new(parse("byoyomi:10s,30s,3"));
        clock.start(start);
        assert_eq!(clock.deadline(), Some(start + s(100)));
        let reading = clock.reading(start + s(25));
        assert!(reading.in_overtime);
        assert_eq!(reading.main_left_ms, 0);
        assert_eq!(reading.period_left_ms, Some(15_000));
        assert_eq!(reading.periods_left, Some(3));
        assert!(!clock.stop(start + s(40)).flagged);
        let reading = clock.reading(start);
        assert_eq!(reading.period_left_ms, Some(30_000));
        assert_eq!(reading.periods_left, Some(3));
        assert!(reading.in_overtime);
    }

    #[test]
    fn byoyomi_move_within_a_period_resets_it() {
        let start = t0();
        let mut clock = Clock::new(parse("byoyomi:0s,30s,2"));
        for _ in 0..5 {
            assert!(!turn(&mut clock, start, s(29)).flagged);
            assert_eq!(clock.reading(start).period_left_ms, Some(30_000));
            assert_eq!(clock.reading(start).periods_left, Some(2));
        }
        assert!(!turn(&mut clock, start, s(30)).flagged);
        assert_eq!(clock.reading(start).periods_left, Some(2));
    }

    #[test]
    fn byoyomi_overrun_uses_up_whole_periods() {
        let start = t0();
        let mut clock = Clock::new(parse("byoyomi:0s,30s,5"));
        clock.start(start);
        let during = clock.reading(start + s(31));
        assert_eq!(during.periods_left, Some(4));
        assert_eq!(during.period_left_ms, Some(29_000));
        assert_eq!(clock.reading(start + s(60)).periods_left, Some(4));
        assert_eq!(clock.reading(start + s(60)).period_left_ms, Some(0));
        assert!(!clock.stop(start + s(31)).flagged);
        assert_eq!(clock.reading(start).periods_left, Some(4));
        assert_eq!(clock.reading(start).period_left_ms, Some(30_000));
        assert!(!turn(&mut clock, start, s(61)).flagged);
        assert_eq!(clock.reading(start).periods_left, Some(2));
    }

    #[test]
    fn byoyomi_flags_when_all_periods_are_used() {
        let start = t0();
        let mut clock = Clock::new(parse("byoyomi:1m,30s,3"));
        assert!(!turn(&mut clock, start, s(60 + 90)).flagged);
        assert_eq!(clock.reading(start).periods_left, Some(1));
        assert!(!turn(&mut clock, start, s(30)).flagged);
        clock.start(start);
        assert_eq!(clock.deadline(), Some(start + s(30)));
        assert!(clock.stop(start + s(30) + ms(1)).flagged);
        let reading = clock.reading(start);
        assert_eq!(reading.periods_left, Some(0));
        assert_eq!(reading.period_left_ms, Some(0));
        assert!(reading.flagged);
    }

    #[test]
    fn canadian_stones_count_down_and_reset_with_the_period() {
        let start = t0();
        let mut clock = Clock::new(parse("canadian:0s,60s,3"));
        assert!(!turn(&mut clock, start, s(10)).flagged);
        assert!(!turn(&mut clock, start, s(20)).flagged);
        let reading = clock.reading(start);
        assert_eq!(reading.stones_left, Some(1));
        assert_eq!(reading.period_left_ms, Some(30_000));
        clock.start(start);
        assert_eq!(clock.deadline(), Some(start + s(30)));
        assert!(!clock.stop(start + s(30)).flagged);
        let reading = clock.reading(start);
        assert_eq!(reading.stones_left, Some(3));
        assert_eq!(reading.period_left_ms, Some(60_000));
    }

    #[test]
    fn canadian_main_time_moves_count_no_stones_but_an_overrun_does() {
        let start = t0();
        let mut clock = Clock::new(parse("canadian:10s,60s,5"));
        assert!(!turn(&mut clock, start, s(4)).flagged);
        let reading = clock.reading(start);
        assert_eq!(reading.stones_left, Some(5));
        assert!(!reading.in_overtime);
        assert_eq!(clock.gtp_time_left(start), (6, 0));
        clock.start(start);
        assert_eq!(clock.deadline(), Some(start + s(66)));
        assert!(!clock.stop(start + s(16)).flagged);
        let reading = clock.reading(start);
        assert!(reading.in_overtime);
        assert_eq!(reading.stones_left, Some(4));
        assert_eq!(reading.period_left_ms, Some(50_000));
        assert_eq!(clock.gtp_time_left(start), (50, 4));
        assert_eq!(clock.kgs_time_left(start), (50, 4));
    }

    #[test]
    fn canadian_flags_when_the_period_runs_out_before_the_stones() {
        let start = t0();
        let mut clock = Clock::new(parse("canadian:0s,60s,3"));
        assert!(!turn(&mut clock, start, s(30)).flagged);
        assert!(!turn(&mut clock, start, s(29)).flagged);
        assert!(turn(&mut clock, start, s(2)).flagged);
        assert!(clock.reading(start).flagged);
        assert_eq!(clock.gtp_time_left(start), (0, 1));
    }

    #[test]
    fn fischer_adds_the_increment_after_every_completed_move() {
        let start = t0();
        let mut clock = Clock::new(parse("fischer:10s,2s"));
        assert!(!turn(&mut clock, start, s(1)).flagged);
        assert_eq!(clock.reading(start).main_left_ms, 11_000);
        assert!(!turn(&mut clock, start, s(11)).flagged);
        assert_eq!(clock.reading(start).main_left_ms, 2_000);
        assert_eq!(clock.gtp_time_left(start), (2, 0));
        clock.start(start);
        assert_eq!(clock.deadline(), Some(start + s(2)));
        assert!(!clock.is_flagged(start + s(2)));
        assert!(clock.is_flagged(start + s(2) + ms(1)));
        assert!(clock.stop(start + s(3)).flagged);
        assert_eq!(clock.reading(start).main_left_ms, 0);
        assert_eq!(clock.reading(start).period_left_ms, None);
    }

    #[test]
    fn cpu_time_allows_main_then_a_per_move_limit() {
        let start = t0();
        let mut clock = Clock::new(parse("cpu:60m,10s"));
        for _ in 0..59 {
            assert!(!clock.charge(s(60)).flagged);
        }
        let reading = clock.reading(start);
        assert_eq!(reading.main_left_ms, 60_000);
        assert!(!reading.in_overtime);
        assert_eq!(reading.period_left_ms, Some(10_000));
        assert!(!clock.charge(s(65)).flagged);
        assert!(clock.reading(start).in_overtime);
        assert_eq!(clock.gtp_time_left(start), (10, 1));
        assert!(!clock.charge(s(10)).flagged);
        assert!(!clock.charge(s(9)).flagged);
        assert_eq!(clock.reading(start).used_ms, 3_600_000 + 5_000 + 19_000);
        assert!(clock.charge(s(10) + ms(1)).flagged);
    }

    #[test]
    fn cpu_charge_replaces_a_running_wall_clock_turn() {
        let start = t0();
        let mut clock = Clock::new(parse("cpu:1m,10s"));
        clock.start(start);
        assert_eq!(clock.deadline(), Some(start + s(70)));
        let outcome = clock.charge(s(3));
        assert_eq!(
            outcome,
            TurnOutcome {
                used: s(3),
                flagged: false
            }
        );
        assert!(!clock.is_running());
        assert_eq!(clock.reading(start + s(500)).used_ms, 3000);
    }

    #[test]
    fn cancel_charges_the_time_but_completes_no_move() {
        let start = t0();
        let mut fischer = Clock::new(parse("fischer:10s,5s"));
        assert!(!turn(&mut fischer, start, s(1)).flagged);
        fischer.start(start);
        fischer.cancel(start + s(3));
        let reading = fischer.reading(start);
        assert!(!reading.running);
        assert_eq!(reading.main_left_ms, 11_000);
        assert_eq!(reading.used_ms, 4000);
        assert_eq!(reading.last_move_ms, 1000);

        let mut byoyomi = Clock::new(parse("byoyomi:0s,30s,2"));
        byoyomi.start(start);
        byoyomi.cancel(start + s(20));
        assert_eq!(byoyomi.reading(start).period_left_ms, Some(10_000));
        byoyomi.start(start);
        assert_eq!(byoyomi.deadline(), Some(start + s(40)));

        let mut canadian = Clock::new(parse("canadian:0s,60s,3"));
        canadian.start(start);
        canadian.cancel(start + s(20));
        let reading = canadian.reading(start);
        assert_eq!(reading.stones_left, Some(3));
        assert_eq!(reading.period_left_ms, Some(40_000));

        let mut absolute = Clock::new(parse("absolute:1s"));
        absolute.start(start);
        absolute.cancel(start + s(2));
        assert!(absolute.is_flagged(start));
        absolute.cancel(start + s(9));
        assert_eq!(absolute.reading(start).used_ms, 2000);
    }

    #[test]
    fn start_is_idempotent_and_a_stop_without_start_is_ignored() {
        let start = t0();
        let mut clock = Clock::new(parse("absolute:10s"));
        assert_eq!(
            clock.stop(start),
            TurnOutcome {
                used: Duration::ZERO,
                flagged: false
            }
        );
        assert_eq!(clock.deadline(), None);
        clock.start(start);
        clock.start(start + s(5));
        assert_eq!(clock.deadline(), Some(start + s(10)));
        assert_eq!(clock.reading(start + s(2)).used_ms, 2000);
        assert!(clock.reading(start + s(2)).running);
        assert_eq!(clock.stop(start + s(7)).used, s(7));
        assert_eq!(clock.deadline(), None);
        assert_eq!(clock.reading(start + s(100)).used_ms, 7000);
    }

    #[test]
    fn time_left_rounds_down_and_never_goes_negative() {
        let start = t0();
        let mut clock = Clock::new(parse("byoyomi:10s,30s,3"));
        clock.start(start);
        assert_eq!(clock.gtp_time_left(start + ms(500)), (9, 0));
        assert_eq!(clock.kgs_time_left(start + ms(500)), (9, 0));
        assert_eq!(clock.gtp_time_left(start + ms(10_500)), (29, 1));
        assert_eq!(clock.kgs_time_left(start + ms(10_500)), (29, 3));
        assert_eq!(clock.kgs_time_left(start + ms(40_500)), (29, 2));
        assert_eq!(clock.gtp_time_left(start + s(1000)), (0, 1));
        assert_eq!(clock.kgs_time_left(start + s(1000)), (0, 0));
        assert!(clock.stop(start + s(1000)).flagged);
        assert_eq!(Clock::new(TimeSystem::None).gtp_time_left(start), (0, 0));
    }

    #[test]
    fn extreme_values_do_not_panic() {
        let start = t0();
        let systems = [
            TimeSystem::ByoYomi {
                main: Duration::MAX,
                period: Duration::MAX,
                periods: u32::MAX,
            },
            TimeSystem::ByoYomi {
                main: Duration::ZERO,
                period: Duration::ZERO,
                periods: 0,
            },
            TimeSystem::Canadian {
                main: Duration::MAX,
                period: Duration::MAX,
                stones: u32::MAX,
            },
            TimeSystem::Canadian {
                main: s(1),
                period: Duration::ZERO,
                stones: 0,
            },
            TimeSystem::Fischer {
                main: Duration::MAX,
                increment: Duration::MAX,
            },
            TimeSystem::Cpu {
                main: Duration::MAX,
                per_move: Duration::MAX,
            },
        ];
        for system in systems {
            let mut clock = Clock::new(system);
            clock.start(start);
            let _ = clock.deadline();
            let _ = clock.reading(start + s(u32::MAX.into()));
            clock.charge(Duration::MAX);
            clock.charge(Duration::MAX);
            let _ = clock.reading(start);
            let _ = clock.gtp_time_left(start);
            let _ = clock.kgs_time_left(start);
            let parsed = system.to_string().parse::<TimeSystem>();
            assert!(
                parsed == Ok(system) || matches!(parsed, Err(TimeSpecError::Zero { .. })),
                "{system}"
            );
        }
    }

    fn arb_duration() -> impl Strategy<Value = Duration> {
        (any::<u64>(), 0u32..1_000_000_000).prop_map(|(secs, nanos)| Duration::new(secs, nanos))
    }

    fn arb_system(
        duration: BoxedStrategy<Duration>,
        counts: BoxedStrategy<u32>,
    ) -> BoxedStrategy<TimeSystem> {
        let d = || duration.clone();
        prop_oneof![
            Just(TimeSystem::None),
            d().prop_map(|main| TimeSystem::Absolute { main }),
            (d(), d(), counts.clone()).prop_map(|(main, period, periods)| TimeSystem::ByoYomi {
                main,
                period,
                periods
            }),
            (d(), d(), counts.clone()).prop_map(|(main, period, stones)| TimeSystem::Canadian {
                main,
                period,
                stones
            }),
            (d(), d()).prop_map(|(main, increment)| TimeSystem::Fischer { main, increment }),
            (d(), d()).prop_map(|(main, per_move)| TimeSystem::Cpu { main, per_move }),
        ]
        .boxed()
    }

    /// Small systems in whole milliseconds, including the degenerate ones
    /// (zero periods or stones) that only direct construction can make.
    fn arb_small_system() -> BoxedStrategy<TimeSystem> {
        arb_system(
            (0u64..20_000).prop_map(Duration::from_millis).boxed(),
            (0u32..4).boxed(),
        )
    }

    #[derive(Debug, Clone, Copy)]
    enum Op {
        Turn(u64),
        Charge(u64),
        Cancel(u64),
    }

    fn arb_ops() -> impl Strategy<Value = Vec<Op>> {
        prop::collection::vec(
            prop_oneof![
                4 => (0u64..15_000).prop_map(Op::Turn),
                1 => (0u64..15_000).prop_map(Op::Charge),
                1 => (0u64..15_000).prop_map(Op::Cancel),
            ],
            0..30,
        )
    }

    fn apply(clock: &mut Clock, at: Instant, op: Op) -> Duration {
        match op {
            Op::Turn(used) => turn(clock, at, ms(used)).used,
            Op::Charge(used) => clock.charge(ms(used)).used,
            Op::Cancel(used) => {
                clock.start(at);
                clock.cancel(at + ms(used));
                ms(used)
            }
        }
    }

    fn limits(system: TimeSystem) -> (Duration, Duration, u32, u32) {
        match system {
            TimeSystem::None => (Duration::ZERO, Duration::ZERO, 0, 0),
            TimeSystem::Absolute { main } => (main, Duration::ZERO, 0, 0),
            TimeSystem::ByoYomi {
                main,
                period,
                periods,
            } => (main, period, periods, 0),
            TimeSystem::Canadian {
                main,
                period,
                stones,
            } => (main, period, 0, stones),
            TimeSystem::Fischer { main, .. } => (main, Duration::ZERO, 0, 0),
            TimeSystem::Cpu { main, per_move } => (main, per_move, 0, 0),
        }
    }

    proptest! {
        #[test]
        fn display_round_trips_through_from_str(
            system in arb_system(arb_duration().boxed(), (1u32..=u32::MAX).boxed())
        ) {
            let system = match system {
                TimeSystem::ByoYomi { main, period, periods } if period.is_zero() => {
                    TimeSystem::ByoYomi { main, period: s(1), periods }
                }
                TimeSystem::Canadian { main, period, stones } if period.is_zero() => {
                    TimeSystem::Canadian { main, period: s(1), stones }
                }
                TimeSystem::Cpu { main, per_move } if per_move.is_zero() => {
                    TimeSystem::Cpu { main, per_move: s(1) }
                }
                other => other,
            };
            prop_assert_eq!(system.to_string().parse::<TimeSystem>(), Ok(system));
        }

        #[test]
        fn from_str_never_panics(text in ".{0,40}") {
            let _ = text.parse::<TimeSystem>();
        }

        #[test]
        fn readings_stay_within_the_system(system in arb_small_system(), ops in arb_ops(), probe in 0u64..40_000) {
            let start = t0();
            let (main, period, periods, stones) = limits(system);
            let mut clock = Clock::new(system);
            for op in ops {
                apply(&mut clock, start, op);
                clock.start(start);
                for reading in [clock.reading(start), clock.reading(start + ms(probe))] {
                    if !matches!(system, TimeSystem::Fischer { .. } | TimeSystem::None) {
                        prop_assert!(reading.main_left_ms <= main.as_millis() as u64);
                    }
                    if let Some(left) = reading.period_left_ms {
                        prop_assert!(left <= period.as_millis() as u64);
                    }
                    prop_assert!(reading.periods_left.unwrap_or(0) <= periods);
                    prop_assert!(reading.stones_left.unwrap_or(0) <= stones);
                    if reading.flagged {
                        prop_assert_eq!(reading.main_left_ms, 0);
                    }
                }
                clock.cancel(start);
            }
        }

        #[test]
        fn deadline_agrees_with_is_flagged(system in arb_small_system(), ops in arb_ops()) {
            let start = t0();
            let mut clock = Clock::new(system);
            for op in ops {
                apply(&mut clock, start, op);
            }
            clock.start(start);
            match clock.deadline() {
                Some(deadline) => {
                    prop_assert!(!clock.is_flagged(deadline));
                    if deadline >= start + ms(1) {
                        prop_assert!(!clock.is_flagged(deadline - ms(1)));
                    }
                    prop_assert!(clock.is_flagged(deadline + Duration::from_nanos(1)));
                    prop_assert!(clock.is_flagged(deadline + ms(1)));
                    prop_assert!(!clock.clone().stop(deadline).flagged);
                    prop_assert!(clock.clone().stop(deadline + ms(1)).flagged);
                }
                None => {
                    let flagged = clock.is_flagged(start);
                    prop_assert!(flagged || system == TimeSystem::None);
                    prop_assert_eq!(clock.is_flagged(start + s(1_000_000)), flagged);
                }
            }
        }

        #[test]
        fn total_used_is_the_sum_of_the_turns(system in arb_small_system(), ops in arb_ops()) {
            let start = t0();
            let mut clock = Clock::new(system);
            let mut total = Duration::ZERO;
            let mut last = Duration::ZERO;
            for op in ops {
                let used = apply(&mut clock, start, op);
                total += used;
                if !matches!(op, Op::Cancel(_)) {
                    last = used;
                }
            }
            let reading = clock.reading(start);
            prop_assert_eq!(reading.used_ms as u128, total.as_millis());
            prop_assert_eq!(reading.last_move_ms as u128, last.as_millis());
            prop_assert!(!reading.running);
        }
    }
}
