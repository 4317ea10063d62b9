//! Test support shared by the tests of the core and of the shell: a game's
//! start and a clock reading to build on, and the plainest event. The
//! starting instant comes from `goref-epoch`, so that the core never reads
//! the clock, not even in tests.

/// A starting instant for a test (from `goref-epoch`, so that this crate
/// never reads the clock itself).
#[cfg(test)]
pub use goref_epoch::epoch;

use crate::game::board::KoRule;
use crate::game::clock::ClockReading;
use crate::game::Color;
use crate::referee::event::{GameStart, PlayerInfo};

/// A stopped clock reading with `main_left_ms` left and nothing else used.
pub fn clock_reading(main_left_ms: u64) -> ClockReading {
    ClockReading {
        main_left_ms,
        period_left_ms: None,
        periods_left: None,
        stones_left: None,
        in_overtime: false,
        running: false,
        flagged: false,
        used_ms: 0,
        last_move_ms: 0,
        wall_ms: None,
    }
}

/// An untimed KGS game start on `size` with these handicap stones and komi
/// 6.5; tests override the fields they care about.
pub fn game_start(size: u8, handicap: &[&str], first_to_move: Color) -> GameStart {
    GameStart {
        size,
        komi: 6.5,
        rules: "kgs".into(),
        ruleset: "Chinese".into(),
        time: "none".into(),
        handicap: handicap.iter().map(|v| v.to_string()).collect(),
        black: PlayerInfo::default(),
        white: PlayerInfo::default(),
        first_to_move,
        time_settings: Default::default(),
        limits: Default::default(),
        ko: Some(KoRule::Simple),
        suicide_allowed: false,
        folder: None,
        published: None,
    }
}

/// A notice, the plainest event, at `seq` (stamped `seq * 10` ms).
pub fn notice(seq: u64, text: &str) -> crate::referee::StampedEvent {
    crate::referee::StampedEvent {
        seq,
        t_ms: seq * 10,
        after_result: false,
        event: crate::referee::GameEvent::Notice {
            color: None,
            message: text.into(),
        },
    }
}

/// A worker's result for both games of `pair`, as the match expects it:
/// named by `worker` and its `delivery`, tried as `try_id`.
pub fn job_result(
    pair: u64,
    worker: &str,
    delivery: u64,
    try_id: &str,
) -> crate::matches::jobs::JobResult {
    use crate::matches::jobs::{GameReport, JobResult, MESSAGE_VERSION};
    JobResult {
        version: MESSAGE_VERSION,
        match_name: "nightly".into(),
        pair,
        worker: worker.into(),
        delivery,
        try_id: try_id.into(),
        games: [1, 2]
            .map(|game| GameReport {
                game,
                result: "B+2.5".into(),
                manifest_sha256: "ab".repeat(32),
                restarts: Vec::new(),
            })
            .to_vec(),
    }
}
