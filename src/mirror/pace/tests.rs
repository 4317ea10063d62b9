//! The pace: a burst after a quiet time, then one read each `every`.

use super::*;

const EVERY: Duration = Duration::from_millis(50);

fn ms(start: Instant, n: u64) -> Instant {
    start + Duration::from_millis(n)
}

/// A move each 100 ms, in two bursts (most moves are one since the game
/// hands a move's events on together).
#[test]
fn a_slow_game_is_never_held_back() {
    let start = Instant::now();
    let mut pace = Pace::new(EVERY, 3);
    for mv in 0..100 {
        let at = ms(start, mv * 100);
        for burst in 0..2 {
            assert_eq!(pace.read(at + Duration::from_millis(burst)), None);
        }
    }
}

#[test]
fn a_fast_game_is_read_once_each_every_after_its_burst() {
    let start = Instant::now();
    let mut pace = Pace::new(EVERY, 3);
    assert_eq!(pace.read(start), None);
    assert_eq!(pace.read(ms(start, 1)), None);
    assert_eq!(pace.read(ms(start, 2)), None);
    assert_eq!(pace.read(ms(start, 3)), Some(ms(start, 50)));
    assert_eq!(pace.read(ms(start, 50)), Some(ms(start, 100)));
    assert_eq!(pace.read(ms(start, 100)), Some(ms(start, 150)));
}

#[test]
fn a_quiet_time_gives_the_burst_back() {
    let start = Instant::now();
    let mut pace = Pace::new(EVERY, 2);
    pace.read(start);
    pace.read(ms(start, 1));
    assert_eq!(pace.read(ms(start, 2)), Some(ms(start, 50)));
    assert_eq!(pace.read(ms(start, 500)), None);
    assert_eq!(pace.read(ms(start, 501)), None);
    assert_eq!(pace.read(ms(start, 502)), Some(ms(start, 550)));
}

#[test]
fn reads_at_the_pace_never_fall_behind() {
    let start = Instant::now();
    let mut pace = Pace::new(EVERY, 1);
    assert_eq!(pace.read(start), None);
    let mut at = start;
    for _ in 0..1000 {
        let next = pace.read(at).expect("one read each every");
        assert_eq!(next, at + EVERY);
        at = next;
    }
}
