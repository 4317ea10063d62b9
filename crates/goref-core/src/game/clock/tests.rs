//! Tests of the clocks and time systems: parsing, each system's arithmetic,
//! deadlines, and property tests.

use super::*;
use proptest::prelude::*;

/// Tests need some instant to count from; only offsets from it matter.
fn t0() -> Instant {
    crate::test_support::epoch()
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
fn every_time_system_gives_a_player_some_time() {
    let err = |text: &str| text.parse::<TimeSystem>().unwrap_err().to_string();
    assert_eq!(
        err("absolute:0s"),
        "absolute needs a non-zero main time (e.g. absolute:50m)"
    );
    assert_eq!(
        err("fischer:0s,0s"),
        "fischer needs a non-zero main time (e.g. fischer:5m,2s)"
    );
    assert_eq!(
        err("fischer:0,2s"),
        "fischer needs a non-zero main time (e.g. fischer:5m,2s)"
    );
    assert_eq!(
        err("byoyomi:5m,30s,0"),
        "byoyomi needs a non-zero number of periods (e.g. byoyomi:5m,30s,3)"
    );
    assert_eq!(
        err("canadian:10m,0s,25"),
        "canadian needs a non-zero period (e.g. canadian:10m,5m,25)"
    );
    assert!(err("cpu:0s,0s").starts_with("cpu needs a non-zero"));
    // No main time is fine where overtime follows it.
    for spec in [
        "absolute:1ms",
        "fischer:1s,0s",
        "byoyomi:0s,30s,1",
        "canadian:0s,5m,1",
        "cpu:0s,10s",
    ] {
        assert!(spec.parse::<TimeSystem>().is_ok(), "{spec}");
    }
}

#[test]
fn display_is_canonical() {
    assert_eq!(parse("absolute:90m").to_string(), "absolute:1h30m");
    assert_eq!(parse("byoyomi:300,30,3").to_string(), "byoyomi:5m,30s,3");
    assert_eq!(parse("fischer:90,2.5s").to_string(), "fischer:1m30s,2.5s");
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
fn time_left_never_says_0_while_main_time_remains() {
    let start = t0();
    for spec in [
        "byoyomi:1s,1s,2",
        "canadian:1s,5s,3",
        "absolute:1s",
        "fischer:1s,1s",
    ] {
        let mut clock = Clock::new(parse(spec));
        clock.start(start);
        for left in [987, 500, 1] {
            let now = start + ms(1000 - left);
            assert_eq!(clock.gtp_time_left(now), (1, 0), "{spec}, {left} ms left");
            assert_eq!(clock.kgs_time_left(now), (1, 0), "{spec}, {left} ms left");
        }
    }
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
    assert_eq!(
        clock.deadline(),
        None,
        "CPU time has no wall-clock deadline"
    );
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
fn a_turn_interrupted_by_a_pause_reports_the_time_before_and_after_it() {
    let start = t0();
    let mut byoyomi = Clock::new(parse("byoyomi:0s,30s,2"));
    byoyomi.start(start);
    byoyomi.cancel(start + s(20));
    byoyomi.start(start + s(100));
    let outcome = byoyomi.stop(start + s(105));
    assert_eq!(outcome.used, s(25), "20 s before the pause, 5 s after");
    let reading = byoyomi.reading(start + s(105));
    assert_eq!(reading.last_move_ms, 25_000);
    assert_eq!(reading.used_ms, 25_000);
    assert_eq!(reading.period_left_ms, Some(30_000), "the period is reset");
    assert_eq!(
        reading.periods_left,
        Some(2),
        "in time: 25 s of a 30 s period"
    );

    byoyomi.start(start + s(200));
    assert_eq!(
        byoyomi.stop(start + s(201)).used,
        s(1),
        "the next turn is its own"
    );
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
fn time_left_rounds_main_time_up_periods_down_and_never_goes_negative() {
    let start = t0();
    let mut clock = Clock::new(parse("byoyomi:10s,30s,3"));
    clock.start(start);
    assert_eq!(clock.gtp_time_left(start + ms(500)), (10, 0));
    assert_eq!(clock.kgs_time_left(start + ms(500)), (10, 0));
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
            match clock.system() {
                TimeSystem::Cpu { .. } => Duration::ZERO,
                _ => ms(used),
            }
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
            TimeSystem::Absolute { main } if main.is_zero() => TimeSystem::Absolute { main: s(1) },
            TimeSystem::Fischer { main, increment } if main.is_zero() => {
                TimeSystem::Fischer { main: s(1), increment }
            }
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
                let cpu = matches!(system, TimeSystem::Cpu { .. });
                prop_assert!(flagged || system == TimeSystem::None || cpu);
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
        let mut interrupted = Duration::ZERO;
        for op in ops {
            let used = apply(&mut clock, start, op);
            match op {
                Op::Cancel(_) => {
                    total += used;
                    interrupted += used;
                }
                Op::Turn(_) => {
                    prop_assert!(used >= interrupted, "a turn reports its interrupted part");
                    total += used - std::mem::take(&mut interrupted);
                    last = used;
                }
                Op::Charge(_) => {
                    interrupted = Duration::ZERO;
                    total += used;
                    last = used;
                }
            }
        }
        let reading = clock.reading(start);
        prop_assert_eq!(reading.used_ms as u128, total.as_millis());
        prop_assert_eq!(reading.last_move_ms as u128, last.as_millis());
        prop_assert!(!reading.running);
    }
}

#[test]
fn a_ticked_reading_agrees_with_the_clock_read_later() {
    let systems = [
        "absolute:1m",
        "byoyomi:10s,5s,3",
        "canadian:10s,20s,5",
        "fischer:10s,2s",
    ];
    for spec in systems {
        let system: TimeSystem = spec.parse().unwrap();
        let start = t0();
        let mut clock = Clock::new(system);
        clock.start(start);
        for (taken, later) in [(0, 3_000), (4_000, 9_000), (9_999, 2), (12_000, 7_000)] {
            let taken_at = start + Duration::from_millis(taken);
            let reading = clock.reading(taken_at);
            let ticked = reading.ticked(system, Duration::from_millis(later));
            let truth = clock.reading(taken_at + Duration::from_millis(later));
            assert_eq!(
                ticked, truth,
                "{spec}: taken at {taken} ms, {later} ms later"
            );
        }
    }
}

#[test]
fn stopped_clocks_do_not_tick_and_cpu_clocks_tick_only_their_wall_time() {
    let system: TimeSystem = "absolute:1m".parse().unwrap();
    let stopped = Clock::new(system).reading(t0());
    assert_eq!(stopped.ticked(system, Duration::from_secs(5)), stopped);
    let cpu: TimeSystem = "cpu:60m,10s".parse().unwrap();
    let mut clock = Clock::new(cpu);
    let start = t0();
    clock.start(start);
    let running = clock.reading(start);
    let later = running.ticked(cpu, Duration::from_secs(5));
    assert_eq!(later.wall_ms, Some(5000));
    assert_eq!(
        ClockReading {
            wall_ms: Some(0),
            ..later.clone()
        },
        running
    );
    assert_eq!(later, clock.reading(start + Duration::from_secs(5)));
    assert!(!clock.is_flagged(start + Duration::from_secs(3 * 3600)));
    assert_eq!(
        clock.deadline(),
        None,
        "a CPU-time clock has no wall deadline"
    );
}

#[test]
fn a_cpu_clock_charges_cpu_time_and_keeps_the_wall_time_beside_it() {
    let cpu: TimeSystem = "cpu:60m,10s".parse().unwrap();
    let mut clock = Clock::new(cpu);
    let start = t0();
    clock.start(start);
    clock.charge_turn(start + Duration::from_secs(30), Duration::from_secs(2));
    clock.start(start + Duration::from_secs(40));
    let reading = clock.reading(start + Duration::from_secs(45));
    assert_eq!(reading.used_ms, 2000, "CPU time, not the running wall time");
    assert_eq!(reading.main_left_ms, 3_598_000);
    assert_eq!(reading.wall_ms, Some(35_000));
    let restored = Clock::restore(cpu, &clock.reading(start + Duration::from_secs(40)));
    assert_eq!(restored.reading(start).wall_ms, Some(30_000));
}

proptest! {
    /// A clock restored from a stopped reading reads the same and runs on
    /// the same: the next turns flag, spend periods and stones as the
    /// original's do.
    #[test]
    fn a_restored_clock_goes_on_as_the_original(
        spec in prop::sample::select(vec![
            "none", "absolute:1m", "byoyomi:10s,5s,3", "canadian:10s,20s,5",
            "fischer:10s,2s", "cpu:1m,10s",
        ]),
        turns in prop::collection::vec(0u64..15_000, 1..12),
    ) {
        let system = parse(spec);
        let mut original = Clock::new(system);
        let mut at = t0();
        for (i, used) in turns.iter().enumerate() {
            turn(&mut original, at, ms(*used));
            at += ms(*used) + s(1);
            let mut restored = Clock::restore(system, &original.reading(at));
            prop_assert_eq!(restored.reading(at), original.reading(at));
            let mut copy = original.clone();
            let next = ms(turns[(i + 1) % turns.len()]);
            prop_assert_eq!(turn(&mut restored, at, next), turn(&mut copy, at, next));
            prop_assert_eq!(restored.reading(at + next), copy.reading(at + next));
        }
    }
}
