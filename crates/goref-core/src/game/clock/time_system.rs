//! The time systems `--time` names (absolute, byo-yomi, Canadian, CPU
//! time, none): parsed from and written back to their text, with the SGF
//! `TM`/`OT` and GTP/KGS time settings each gives, and the duration text
//! (`1h30m`, `2.5s`) they are spelt in.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

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
    ///
    /// A system must give a player some time: absolute and Fischer need a
    /// main time, byo-yomi and Canadian a period (and at least one period or
    /// stone), CPU time a per-move limit. Main time may be zero where
    /// overtime follows it.
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
            "absolute" => {
                let main = parse_duration(args[0])?;
                if main.is_zero() {
                    return Err(zero("main time"));
                }
                TimeSystem::Absolute { main }
            }
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
                if d[0].is_zero() {
                    return Err(zero("main time"));
                }
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

pub(super) fn nanos_to_duration(nanos: u128) -> Option<Duration> {
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

    /// The clock is charged CPU time (Usenix), not wall time.
    pub fn counts_cpu(&self) -> bool {
        matches!(self, TimeSystem::Cpu { .. })
    }

    pub(super) fn has_overtime(&self) -> bool {
        matches!(
            self,
            TimeSystem::ByoYomi { .. } | TimeSystem::Canadian { .. } | TimeSystem::Cpu { .. }
        )
    }
}
