//! Tests of the line card: the speed measured from bytes that come apart,
//! the judged repeat, and the answers told in words.

use super::judge::{answers, judge_repeat};
use super::*;
use crate::check::card::Verdict;
use goref_core::protocol::sgmp::link::Direction;
use goref_core::protocol::sgmp::packet::{Command, Packet};

fn reads(bytes_apart: &[(u64, &[u8])]) -> Speed {
    let t = crate::test_support::epoch();
    let mut speed = Speed::default();
    for (us, bytes) in bytes_apart {
        speed.read(t + Duration::from_micros(*us), bytes);
    }
    speed
}

fn verdict(section: &Section) -> (Verdict, String) {
    let check = &section.checks[0];
    (check.verdict, check.reason.clone())
}

#[test]
fn the_speed_is_measured_from_packets_that_come_a_byte_at_a_time() {
    let byte = 4167;
    let slow = reads(&[
        (0, &[0x01]),
        (byte, &[0xa1]),
        (2 * byte, &[0xa0]),
        (3 * byte, &[0x80]),
    ]);
    let mut section = Section::new("q");
    judge_speed(&slow, Some(2400), &mut section);
    let (first, reason) = verdict(&section);
    assert_eq!(first, Verdict::Pass);
    assert!(
        reason.starts_with("about 2400 baud measured, 2400 set"),
        "{reason}"
    );

    let mut section = Section::new("q");
    judge_speed(&slow, Some(9600), &mut section);
    assert_eq!(verdict_of(&section), Verdict::Warn);

    let mut section = Section::new("q");
    judge_speed(&Speed::default(), Some(2400), &mut section);
    assert!(section.checks.is_empty(), "nothing came: nothing to say");

    let whole = reads(&[
        (0, &[0x01, 0xa1, 0xa0, 0x80]),
        (10_000, &[0x02, 0x88, 0x87, 0xff]),
    ]);
    let mut section = Section::new("q");
    judge_speed(&whole, Some(2400), &mut section);
    assert!(verdict(&section).1.contains("in one read"));
}

fn verdict_of(section: &Section) -> Verdict {
    section.checks[0].verdict
}

#[test]
fn a_repeat_may_be_oked_again_or_ignored_but_never_taken_as_new() {
    let t = crate::test_support::epoch();
    let entry = |direction, hex: &str| {
        (
            t,
            TraceEntry {
                direction,
                hex: hex.to_string(),
                meaning: String::new(),
                flags: Vec::new(),
                note: None,
            },
        )
    };
    let repeat = entry(Direction::Out, "00:85:d2:b3");
    let verdict_after = |answer: Option<&str>, taken_as_new: bool| {
        let mut trace = vec![entry(Direction::In, "01:a1:a0:80"), repeat.clone()];
        trace.extend(answer.map(|hex| entry(Direction::In, hex)));
        let mut section = Section::new("moves");
        judge_repeat(&trace, Some(1), taken_as_new, &mut section);
        let check = section.checks.pop().unwrap();
        (check.verdict, check.reason)
    };
    let (verdict, reason) = verdict_after(Some("00:86:87:ff"), false);
    assert_eq!((verdict, reason.contains("OKed")), (Verdict::Pass, true));
    let (verdict, reason) = verdict_after(None, false);
    assert_eq!((verdict, reason.contains("ignored")), (Verdict::Pass, true));
    let deny = Packet::new(false, false, Command::Deny, 0).encode();
    let deny = goref_core::protocol::sgmp::packet::hex(&deny);
    assert_eq!(verdict_after(Some(&deny), false).0, Verdict::Fail);
    assert_eq!(verdict_after(None, true).0, Verdict::Fail);
    let mut section = Section::new("moves");
    judge_repeat(&[], None, false, &mut section);
    assert_eq!(section.checks[0].verdict, Verdict::Warn);
}

#[test]
fn answers_are_told_in_words_from_either_side() {
    let entry = |direction, hex: &str| TraceEntry {
        direction,
        hex: hex.to_string(),
        meaning: String::new(),
        flags: Vec::new(),
        note: None,
    };
    let black = [
        entry(Direction::In, "01:a1:a0:80"),
        entry(Direction::Out, "03:be:b0:8b"),
        entry(Direction::In, "02:c4:c0:82"),
        entry(Direction::Out, "00:b8:b0:88"),
        entry(Direction::In, "01:c1:c0:80"),
    ];
    let refs: Vec<&TraceEntry> = black.iter().collect();
    assert_eq!(
        answers(&refs),
        ["colour: 2 (I am Black)", "handicap: 0 (unknown)"]
    );
    let white = [
        entry(Direction::In, "03:bb:b0:88"),
        entry(Direction::Out, "02:c3:c0:81"),
        entry(Direction::In, "00:bb:b0:8b"),
        entry(Direction::Out, "01:c3:c0:82"),
    ];
    let refs: Vec<&TraceEntry> = white.iter().collect();
    assert_eq!(
        answers(&refs),
        [
            "it asked handicap, told 1 (an even game)",
            "it asked colour, told 2 (goref is Black)"
        ]
    );
}
