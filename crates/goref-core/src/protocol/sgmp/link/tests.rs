//! Tests of the link: the rules of §8 one packet at a time, then two links
//! joined by a simulated line that drops, repeats, corrupts, splits and
//! delays what crosses it.

use std::collections::VecDeque;

use proptest::prelude::*;

use super::*;
use crate::protocol::sgmp::packet::parse_hex;
use crate::protocol::sgmp::sim::{arb_fault, Fault, Wire};

const SECOND: Duration = Duration::from_secs(1);

fn bytes(text: &str) -> Vec<u8> {
    parse_hex(text).unwrap()
}

fn config() -> LinkConfig {
    LinkConfig {
        resend_after: SECOND,
        alarm_after: 3,
    }
}

fn drain(link: &mut Link) -> Vec<LinkEvent> {
    std::iter::from_fn(|| link.poll_event()).collect()
}

fn transmits(events: &[LinkEvent]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            LinkEvent::Transmit { bytes, .. } => Some(hex(bytes)),
            _ => None,
        })
        .collect()
}

fn traces(events: &[LinkEvent]) -> Vec<TraceEntry> {
    events
        .iter()
        .filter_map(|e| match e {
            LinkEvent::Trace(t) => Some(t.clone()),
            _ => None,
        })
        .collect()
}

fn non_trace(events: Vec<LinkEvent>) -> Vec<LinkEvent> {
    events
        .into_iter()
        .filter(|e| !matches!(e, LinkEvent::Trace(_)))
        .collect()
}

#[test]
fn configs_follow_the_cgf_rule_and_full_gmp() {
    assert_eq!(LinkConfig::sgmp().resend_after, 20 * SECOND);
    assert_eq!(LinkConfig::sgmp().alarm_after, 9);
    assert_eq!(LinkConfig::gmp().resend_after, 3 * SECOND);
    assert_eq!(LinkConfig::gmp().alarm_after, 20);
}

#[test]
fn a_command_toggles_the_sequence_bit_and_an_ok_does_not() {
    let t0 = crate::test_support::epoch();
    let mut link = Link::new(config(), 19);
    link.send(t0, Command::NewGame, 0);
    let events = drain(&mut link);
    assert_eq!(transmits(&events), ["01:a1:a0:80"]);
    let out = &traces(&events)[0];
    assert_eq!(out.direction, Direction::Out);
    assert_eq!(out.meaning, "NEWGAME");
    assert!(!link.is_idle());
    assert_eq!(link.outstanding(), Some((Command::NewGame, 0)));
    // QUERY 11 with A = 1 acknowledges the NEWGAME implicitly.
    link.handle_bytes(t0, &bytes("03:be:b0:8b"));
    let events = drain(&mut link);
    let implicit = &traces(&events)[0];
    assert_eq!(implicit.flags, vec![TraceFlag::ImplicitAck]);
    assert_eq!(
        non_trace(events),
        vec![
            LinkEvent::Delivered {
                command: Command::NewGame,
                value: 0,
                round_trip: None,
            },
            LinkEvent::Received {
                command: Command::Query,
                value: 11
            },
        ]
    );
    assert!(link.is_idle());
    link.send_ok(t0);
    assert_eq!(transmits(&drain(&mut link)), ["03:89:87:ff"]);
    assert_eq!(link.poll_timeout(), None);
}

#[test]
fn commands_queue_behind_the_outstanding_one() {
    let t0 = crate::test_support::epoch();
    let mut link = Link::new(config(), 19);
    link.send(t0, Command::Move, 307);
    link.send(t0, Command::Move, 0);
    link.send(t0, Command::Deny, 0);
    assert_eq!(transmits(&drain(&mut link)), ["01:86:d2:b3"]);
    // The peer's OK: S = 0 (its seq), A = 1.
    link.handle_bytes(t0, &bytes("02:88:87:ff"));
    let events = drain(&mut link);
    assert_eq!(transmits(&events), ["00:d0:d0:80"]);
    assert!(events.contains(&LinkEvent::Delivered {
        command: Command::Move,
        value: 307,
        round_trip: None,
    }));
    link.handle_bytes(t0, &bytes("00:86:87:ff"));
    assert_eq!(transmits(&drain(&mut link)), ["01:91:90:80"]);
    link.handle_bytes(t0, &bytes("02:88:87:ff"));
    drain(&mut link);
    assert!(link.is_idle());
}

#[test]
fn an_answer_to_a_command_sent_once_says_how_long_it_took() {
    let t0 = crate::test_support::epoch();
    let ms = |ms: u64| Duration::from_millis(ms);
    let round_trip = |events: Vec<LinkEvent>| {
        events.into_iter().find_map(|e| match e {
            LinkEvent::Delivered { round_trip, .. } => Some(round_trip),
            _ => None,
        })
    };
    let mut link = Link::new(config(), 19);
    link.send(t0, Command::Move, 307);
    link.send(t0, Command::Move, 0);
    drain(&mut link);
    // The OK of the first MOVE, 3 ms later; the second goes out then.
    link.handle_bytes(t0 + ms(3), &bytes("02:88:87:ff"));
    assert_eq!(round_trip(drain(&mut link)), Some(Some(ms(3))));
    // The second, answered 40 ms after it went out, by the peer's MOVE.
    link.handle_bytes(t0 + ms(43), &bytes("01:92:d4:bd"));
    assert_eq!(round_trip(drain(&mut link)), Some(Some(ms(40))));

    // Sent again: the answer may be to either sending, so no round trip.
    link.send(t0 + ms(100), Command::Move, 1);
    drain(&mut link);
    link.handle_timeout(t0 + ms(100) + SECOND);
    drain(&mut link);
    link.handle_bytes(t0 + ms(100) + SECOND + ms(2), &bytes("03:89:87:ff"));
    assert_eq!(round_trip(drain(&mut link)), Some(None));

    // A command taken back on resuming was sent by a referee that died.
    let state = LinkState {
        my_seq: true,
        his_seq: false,
        outstanding: Some((Command::Move, 307)),
    };
    let mut resumed = Link::resumed(config(), 19, state, t0);
    drain(&mut resumed);
    resumed.handle_bytes(t0 + ms(1), &bytes("02:88:87:ff"));
    assert_eq!(round_trip(drain(&mut resumed)), Some(None));

    // An OK read at the instant the command was sent came in the read that
    // made it be sent: it was on the line first, and answers another.
    let mut stale = Link::new(config(), 19);
    stale.send(t0, Command::Move, 307);
    drain(&mut stale);
    stale.handle_bytes(t0, &bytes("02:88:87:ff"));
    assert_eq!(round_trip(drain(&mut stale)), Some(None));
}

#[test]
fn an_ok_that_acknowledges_nothing_is_ignored() {
    let t0 = crate::test_support::epoch();
    let mut link = Link::new(config(), 19);
    link.handle_bytes(t0, &bytes("00:86:87:ff"));
    let events = drain(&mut link);
    assert_eq!(traces(&events)[0].flags, vec![TraceFlag::Ignored]);
    assert!(non_trace(events).is_empty());
    // Waiting, but the ack bit is for another command.
    link.send(t0, Command::Move, 1);
    drain(&mut link);
    link.handle_bytes(t0, &bytes("00:86:87:ff"));
    let events = drain(&mut link);
    assert_eq!(traces(&events)[0].flags, vec![TraceFlag::Ignored]);
    assert!(non_trace(events).is_empty());
    assert_eq!(link.outstanding(), Some((Command::Move, 1)));
    // An OK of any value acknowledges (GoGui sends value 0).
    link.handle_bytes(t0, &bytes("02:82:80:80"));
    assert_eq!(
        non_trace(drain(&mut link)),
        vec![LinkEvent::Delivered {
            command: Command::Move,
            value: 1,
            round_trip: None,
        }]
    );
}

#[test]
fn a_duplicate_is_re_oked_and_not_delivered_again() {
    let t0 = crate::test_support::epoch();
    let mut link = Link::new(config(), 19);
    let newgame = bytes("01:a1:a0:80");
    link.handle_bytes(t0, &newgame);
    assert_eq!(
        non_trace(drain(&mut link)),
        vec![LinkEvent::Received {
            command: Command::NewGame,
            value: 0
        }]
    );
    // Idle: the repeat is OKed by the link itself.
    link.handle_bytes(t0, &newgame);
    let events = drain(&mut link);
    assert_eq!(traces(&events)[0].flags, vec![TraceFlag::Duplicate]);
    assert_eq!(transmits(&events), ["02:88:87:ff"]);
    assert!(!events
        .iter()
        .any(|e| matches!(e, LinkEvent::Received { .. })));
    // Waiting for our QUERY: the repeat is still OKed, with the current bits.
    link.send(t0, Command::Query, 11);
    assert_eq!(transmits(&drain(&mut link)), ["03:be:b0:8b"]);
    link.handle_bytes(t0, &newgame);
    let events = drain(&mut link);
    assert_eq!(transmits(&events), ["03:89:87:ff"]);
    assert!(!events
        .iter()
        .any(|e| matches!(e, LinkEvent::Received { .. } | LinkEvent::Delivered { .. })));
    assert_eq!(link.outstanding(), Some((Command::Query, 11)));
}

#[test]
fn a_new_command_with_a_stale_ack_is_ignored_when_idle() {
    let t0 = crate::test_support::epoch();
    let mut link = Link::new(config(), 19);
    // seq 1 (new), ack 1 although we never sent anything.
    link.handle_bytes(t0, &bytes("03:be:b0:8b"));
    let events = drain(&mut link);
    assert_eq!(traces(&events)[0].flags, vec![TraceFlag::Ignored]);
    assert!(non_trace(events).is_empty());
}

#[test]
fn resends_repeat_the_identical_bytes_and_alarm_without_giving_up() {
    let t0 = crate::test_support::epoch();
    let mut link = Link::new(config(), 19);
    link.send(t0, Command::Move, 307);
    let first = transmits(&drain(&mut link));
    assert_eq!(link.poll_timeout(), Some(t0 + SECOND));
    link.handle_timeout(t0 + SECOND / 2);
    assert!(drain(&mut link).is_empty(), "not yet due");
    let mut alarms = Vec::new();
    for n in 1..=7u32 {
        let now = t0 + SECOND * n;
        link.handle_timeout(now);
        let events = drain(&mut link);
        assert_eq!(transmits(&events), first);
        assert!(events.contains(&LinkEvent::Transmit {
            bytes: bytes(&first[0]),
            resend: true
        }));
        assert_eq!(traces(&events)[0].flags, vec![TraceFlag::Resend]);
        alarms.extend(events.into_iter().filter_map(|e| match e {
            LinkEvent::Alarm { resends, pending } => Some((resends, pending)),
            _ => None,
        }));
        assert_eq!(link.poll_timeout(), Some(now + SECOND));
    }
    assert_eq!(
        alarms,
        vec![
            (3, "MOVE B C17 (pos 307) (01:86:d2:b3)".to_string()),
            (6, "MOVE B C17 (pos 307) (01:86:d2:b3)".to_string()),
        ]
    );
}

/// Each kind of frame that is not a packet, arriving on its own, is one
/// entry that says what it is.
#[test]
fn frames_that_are_not_packets_are_traced_and_flagged() {
    let t0 = crate::test_support::epoch();
    let mut link = Link::new(config(), 19);
    let pieces = [
        (b"hello".to_vec(), TraceFlag::Talk, "talk \"hello\""),
        (bytes("99"), TraceFlag::Stray, "stray bytes"),
        (bytes("02:e4:d0:93"), TraceFlag::BadChecksum, "bad checksum"),
        (
            bytes("00:88:88:80"),
            TraceFlag::Reserved,
            "reserved bit set",
        ),
    ];
    for (i, (piece, flag, meaning)) in pieces.into_iter().enumerate() {
        let now = t0 + SECOND * i as u32;
        link.handle_bytes(now, &piece);
        let traces = traces(&drain(&mut link));
        assert_eq!(traces.len(), 1, "{traces:?}");
        assert_eq!(traces[0].flags, [flag]);
        assert_eq!(traces[0].meaning, meaning);
        assert_eq!(traces[0].hex, hex(&piece));
        assert!(traces[0].is_noise());
    }
    link.handle_bytes(t0 + 5 * SECOND, &bytes("01:a1 01:a1:a0:80"));
    let events = drain(&mut link);
    let traces = traces(&events);
    assert_eq!(traces[0].flags, [TraceFlag::Cut]);
    assert_eq!(traces[0].meaning, "partial packet cut by a new start byte");
    assert_eq!(traces[1].meaning, "NEWGAME");
    assert!(!traces[1].is_noise());
    assert_eq!(
        non_trace(events),
        vec![LinkEvent::Received {
            command: Command::NewGame,
            value: 0
        }]
    );
}

/// Noise with no packet between its pieces is one entry: its hex keeps the
/// first 16 bytes, its meaning counts them all and names every kind.
#[test]
fn consecutive_noise_coalesces_into_one_entry() {
    let t0 = crate::test_support::epoch();
    let mut link = Link::new(config(), 19);
    let mut stream = b"hello".to_vec();
    stream.extend(bytes("99 02:e4:d0:93 00:88:88:80 01:a1"));
    stream.extend(bytes("01:a1:a0:80"));
    link.handle_bytes(t0, &stream);
    let events = drain(&mut link);
    let traces = traces(&events);
    assert_eq!(traces.len(), 2, "{traces:?}");
    assert_eq!(
        traces[0].meaning,
        "noise: 16 bytes (talk, stray, bad checksum, reserved bit, cut)"
    );
    assert_eq!(
        traces[0].flags,
        [
            TraceFlag::Talk,
            TraceFlag::Stray,
            TraceFlag::BadChecksum,
            TraceFlag::Reserved,
            TraceFlag::Cut
        ]
    );
    assert_eq!(traces[0].hex, hex(&stream[..16]));
    assert_eq!(traces[0].note.as_deref(), Some("5 pieces over 0.00 s"));
    assert_eq!(traces[1].meaning, "NEWGAME");

    // One long run of stray bytes, and a long talk.
    let run: Vec<u8> = (0x80..=0xa7).collect();
    link.handle_bytes(t0 + SECOND, &run);
    let entry = &traces_of(&mut link)[0];
    assert_eq!(entry.meaning, "stray bytes (40 bytes, first 16 shown)");
    assert_eq!(entry.hex, hex(&run[..16]));
    let talk = "GNU Go is thinking about the lower left corner, where White is weak.";
    link.handle_bytes(t0 + 2 * SECOND, talk.as_bytes());
    let entry = &traces_of(&mut link)[0];
    assert_eq!(
        entry.meaning,
        format!(
            "talk {:?}... ({} bytes, first 16 shown)",
            &talk[..64],
            talk.len()
        )
    );
}

fn traces_of(link: &mut Link) -> Vec<TraceEntry> {
    traces(&drain(link))
}

/// Noise that comes faster than four entries a second is held, gathers
/// what follows, and goes out when its time comes, or before the next
/// packet, whichever is first.
#[test]
fn noise_is_held_to_four_entries_a_second_and_never_overtakes_a_packet() {
    let t0 = crate::test_support::epoch();
    let ms = |n: u64| t0 + Duration::from_millis(n);
    let mut link = Link::new(config(), 19);
    link.handle_bytes(t0, &bytes("85"));
    assert_eq!(traces_of(&mut link)[0].meaning, "stray bytes");
    assert_eq!(link.poll_timeout(), None);

    link.handle_bytes(ms(10), &bytes("86 87"));
    link.handle_bytes(ms(100), b"hi");
    assert!(traces_of(&mut link).is_empty(), "held");
    assert_eq!(link.poll_timeout(), Some(ms(250)));
    link.handle_timeout(ms(249));
    assert!(traces_of(&mut link).is_empty());
    link.handle_timeout(ms(250));
    let held = traces_of(&mut link);
    assert_eq!(held.len(), 1);
    assert_eq!(held[0].meaning, "noise: 4 bytes (stray, talk)");
    assert_eq!(held[0].hex, "86:87:68:69");
    assert_eq!(held[0].note.as_deref(), Some("2 pieces over 0.24 s"));
    assert_eq!(link.poll_timeout(), None);

    // Held again, then a packet: the noise comes first, at once.
    link.handle_bytes(ms(300), &bytes("88"));
    assert!(traces_of(&mut link).is_empty());
    link.handle_bytes(ms(310), &bytes("01:a1:a0:80"));
    let traces = traces_of(&mut link);
    let meanings: Vec<&str> = traces.iter().map(|t| t.meaning.as_str()).collect();
    assert_eq!(meanings, ["stray bytes", "NEWGAME"]);
    assert_eq!(link.poll_timeout(), None);
}

/// The number of bytes a noise entry stands for, read back from its
/// meaning; the bytes of its hex when it says nothing more.
fn noise_bytes(entry: &TraceEntry) -> u64 {
    let number_before = |text: &str, marker: &str| -> Option<u64> {
        let end = text.rfind(marker)?;
        let start = text[..end]
            .rfind(|c: char| !c.is_ascii_digit())
            .map_or(0, |i| i + 1);
        text[start..end].parse().ok()
    };
    if let Some(rest) = entry.meaning.strip_prefix("noise: ") {
        return number_before(rest, " bytes (").unwrap();
    }
    number_before(&entry.meaning, " bytes, first 16 shown)")
        .unwrap_or_else(|| parse_hex(&entry.hex).unwrap().len() as u64)
}

/// A megabyte of random bytes, the trace of a line at the wrong speed or
/// with nothing on it: a bounded number of entries that still account for
/// every byte.
#[test]
fn a_megabyte_of_random_bytes_yields_a_bounded_trace() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let mut noise = vec![0u8; 1 << 20];
    rng.fill(noise.as_mut_slice());
    let t0 = crate::test_support::epoch();

    // All of it in one read.
    let mut link = Link::new(config(), 19);
    link.handle_bytes(t0, &noise);
    let mut traces = traces_of(&mut link);
    if let Some(due) = link.poll_timeout() {
        link.handle_timeout(due);
        traces.extend(traces_of(&mut link));
    }
    let packets = traces.iter().filter(|t| !t.is_noise()).count();
    let entries = traces.iter().filter(|t| t.is_noise()).count();
    assert!(
        entries <= packets + 2,
        "{entries} entries, {packets} packets"
    );
    eprintln!("1 MB in one read: {entries} noise entries, {packets} packets");

    // The same, in reads of 256 bytes every 10 ms: 41 s of noise.
    let mut link = Link::new(config(), 19);
    let mut traces = Vec::new();
    let mut now = t0;
    for chunk in noise.chunks(256) {
        link.handle_timeout(now);
        link.handle_bytes(now, chunk);
        traces.extend(traces_of(&mut link));
        now += Duration::from_millis(10);
    }
    while let Some(due) = link.poll_timeout().filter(|_| link.is_idle()) {
        link.handle_timeout(due);
        traces.extend(traces_of(&mut link));
    }
    let noise_entries: Vec<&TraceEntry> = traces.iter().filter(|t| t.is_noise()).collect();
    let packets = traces.len() - noise_entries.len();
    let seconds = (now - t0).as_secs() + 1;
    assert!(
        noise_entries.len() as u64 <= 4 * seconds + packets as u64,
        "{} noise entries in {seconds} s, {packets} packets",
        noise_entries.len()
    );
    assert!(noise_entries.iter().all(|t| t.hex.len() <= 16 * 3));
    let written: usize = traces.iter().map(|t| t.hex.len() + t.meaning.len()).sum();
    assert!(written < 100_000, "{written} bytes of trace");
    eprintln!(
        "1 MB over {seconds} s: {} noise entries, {packets} packets, {written} bytes of trace",
        noise_entries.len()
    );
    let packet_bytes: u64 = traces
        .iter()
        .filter(|t| !t.is_noise() && t.direction == Direction::In)
        .map(|t| parse_hex(&t.hex).unwrap().len() as u64)
        .sum();
    let counted: u64 = noise_entries.iter().map(|t| noise_bytes(t)).sum();
    // Every byte is either in a packet, in a noise entry's count, or the
    // start of a packet still waiting for its last bytes.
    let total = noise.len() as u64;
    assert!(
        (total - 3..=total).contains(&(counted + packet_bytes)),
        "{counted} + {packet_bytes} of {total}"
    );
}

#[test]
fn a_conflict_keeps_both_commands_and_rebuilds_the_ack_bit() {
    let t0 = crate::test_support::epoch();
    let mut link = Link::new(config(), 19);
    link.send(t0, Command::Move, 307);
    assert_eq!(transmits(&drain(&mut link)), ["01:86:d2:b3"]);
    // The peer's MOVE, sent before it saw ours: seq 1, ack 0.
    link.handle_bytes(t0, &bytes("01:92:d4:bd"));
    let events = drain(&mut link);
    assert_eq!(traces(&events)[0].flags, vec![TraceFlag::Conflict]);
    assert_eq!(
        non_trace(events),
        vec![LinkEvent::Received {
            command: Command::Move,
            value: 0x23D
        }]
    );
    assert_eq!(link.outstanding(), Some((Command::Move, 307)));
    // The resend carries the same S and the new A.
    link.handle_timeout(t0 + SECOND);
    assert_eq!(transmits(&drain(&mut link)), ["03:88:d2:b3"]);
}

#[test]
fn two_links_settle_a_conflict() {
    let t0 = crate::test_support::epoch();
    let mut a = Link::new(config(), 19);
    let mut b = Link::new(config(), 19);
    a.send(t0, Command::Move, 307);
    b.send(t0, Command::Move, 0x23D);
    let from_a = transmits(&drain(&mut a));
    let from_b = transmits(&drain(&mut b));
    a.handle_bytes(t0, &bytes(&from_b[0]));
    b.handle_bytes(t0, &bytes(&from_a[0]));
    let mut received = [Vec::new(), Vec::new()];
    let mut delivered = [Vec::new(), Vec::new()];
    let mut now = t0;
    for _ in 0..10 {
        let mut wire = [Vec::new(), Vec::new()];
        for (i, link) in [&mut a, &mut b].into_iter().enumerate() {
            for event in drain(link) {
                match event {
                    LinkEvent::Transmit { bytes, .. } => wire[i].extend(bytes),
                    LinkEvent::Received { command, value } => {
                        received[i].push((command, value));
                        link.send_ok(now);
                    }
                    LinkEvent::Delivered { command, value, .. } => {
                        delivered[i].push((command, value))
                    }
                    _ => {}
                }
            }
        }
        // Whatever the links said in reply to the drain is sent next round.
        a.handle_bytes(now, &wire[1]);
        b.handle_bytes(now, &wire[0]);
        now += SECOND;
        a.handle_timeout(now);
        b.handle_timeout(now);
    }
    assert_eq!(received[0], vec![(Command::Move, 0x23D)]);
    assert_eq!(received[1], vec![(Command::Move, 307)]);
    assert_eq!(delivered[0], vec![(Command::Move, 307)]);
    assert_eq!(delivered[1], vec![(Command::Move, 0x23D)]);
    assert!(a.is_idle() && b.is_idle());
}

/// One end of the simulated line: a link and an application that OKs
/// every command it receives and issues its own on a schedule.
struct End {
    link: Link,
    faults: VecDeque<Fault>,
    schedule: VecDeque<(Duration, Command, u16)>,
    sent: Vec<(Command, u16)>,
    received: Vec<(Command, u16)>,
    delivered: Vec<(Command, u16)>,
    /// The link's state as its trace tells it.
    traced: LinkState,
}

impl End {
    fn new(faults: Vec<Fault>, schedule: Vec<(Duration, Command, u16)>) -> End {
        End {
            link: Link::new(config(), 19),
            faults: faults.into(),
            schedule: schedule.into(),
            sent: Vec::new(),
            received: Vec::new(),
            delivered: Vec::new(),
            traced: LinkState::default(),
        }
    }

    fn step(&mut self, now: Instant, t0: Instant, wire: &mut Wire) {
        while let Some(&(at, command, value)) = self.schedule.front() {
            if t0 + at > now {
                break;
            }
            self.schedule.pop_front();
            self.sent.push((command, value));
            self.link.send(now, command, value);
        }
        while let Some(event) = self.link.poll_event() {
            match event {
                LinkEvent::Transmit { bytes, .. } => {
                    wire.transmit(now, bytes, self.faults.pop_front())
                }
                LinkEvent::Received { command, value } => {
                    self.received.push((command, value));
                    self.link.send_ok(now);
                }
                LinkEvent::Delivered { command, value, .. } => {
                    self.delivered.push((command, value))
                }
                LinkEvent::Trace(entry) => self.traced.observe(&entry),
                LinkEvent::Alarm { .. } => {}
            }
        }
        assert_eq!(
            self.traced,
            self.link.state(),
            "the trace tells the link's state"
        );
    }

    fn next_at(&self, t0: Instant) -> Option<Instant> {
        let scheduled = self.schedule.front().map(|(at, _, _)| t0 + *at);
        [scheduled, self.link.poll_timeout()]
            .into_iter()
            .flatten()
            .min()
    }
}

fn arb_schedule() -> impl Strategy<Value = Vec<(Duration, Command, u16)>> {
    proptest::collection::vec((0u64..30_000, 1u8..8, 0u16..=0x3FF), 0..12).prop_map(|mut v| {
        v.sort_by_key(|(ms, _, _)| *ms);
        v.into_iter()
            .map(|(ms, c, value)| (Duration::from_millis(ms), Command::from_number(c), value))
            .collect()
    })
}

/// Runs both ends until nothing is left to happen; panics if that takes
/// implausibly long.
fn run(a: &mut End, b: &mut End) {
    run_with_restart(a, b, None);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn every_command_arrives_once_in_order_whatever_the_faults(
        faults_a in proptest::collection::vec(arb_fault(), 0..30),
        faults_b in proptest::collection::vec(arb_fault(), 0..30),
        schedule_a in arb_schedule(),
        schedule_b in arb_schedule(),
    ) {
        let mut a = End::new(faults_a, schedule_a);
        let mut b = End::new(faults_b, schedule_b);
        run(&mut a, &mut b);
        prop_assert_eq!(&b.received, &a.sent);
        prop_assert_eq!(&a.received, &b.sent);
        prop_assert_eq!(&a.delivered, &a.sent);
        prop_assert_eq!(&b.delivered, &b.sent);
        prop_assert!(a.link.is_idle() && b.link.is_idle());
    }
}

/// Runs both ends until nothing is left to happen. With `cut`, `a` dies
/// after that many rounds (at the first round after it with nothing
/// queued): what was on its way to `a` is lost, and a link resumed from
/// `a`'s trace takes over.
fn run_with_restart(a: &mut End, b: &mut End, cut: Option<usize>) {
    let t0 = crate::test_support::epoch();
    let mut now = t0;
    let mut a_to_b = Wire::default();
    let mut b_to_a = Wire::default();
    let mut restarted = cut.is_none();
    for round in 0..20_000 {
        if !restarted && round >= cut.unwrap_or(0) && a.link.queue.is_empty() {
            restarted = true;
            b_to_a = Wire::default();
            a.link = Link::resumed(config(), 19, a.traced, now);
            now += Duration::from_secs(7);
            a.step(now, t0, &mut a_to_b);
        }
        let for_b = a_to_b.take_due(now);
        if !for_b.is_empty() {
            b.link.handle_bytes(now, &for_b);
        }
        let for_a = b_to_a.take_due(now);
        if !for_a.is_empty() {
            a.link.handle_bytes(now, &for_a);
        }
        a.link.handle_timeout(now);
        b.link.handle_timeout(now);
        a.step(now, t0, &mut a_to_b);
        b.step(now, t0, &mut b_to_a);
        let next = [
            a.next_at(t0),
            b.next_at(t0),
            a_to_b.next_at(),
            b_to_a.next_at(),
        ]
        .into_iter()
        .flatten()
        .min();
        match next {
            Some(at) => now = now.max(at),
            None if restarted => return,
            None => now += Duration::from_secs(1),
        }
    }
    panic!("the line never settled");
}

#[test]
fn a_resumed_link_resends_its_outstanding_packet_identically() {
    let now = crate::test_support::epoch();
    let mut link = Link::new(config(), 19);
    link.handle_bytes(now, &bytes("01:a1:a0:80"));
    link.send(now, Command::Move, 307);
    let mut traced = LinkState::default();
    for entry in traces(&drain(&mut link)) {
        traced.observe(&entry);
    }
    assert_eq!(traced, link.state());
    assert_eq!(traced.outstanding, Some((Command::Move, 307)));
    let sent = transmits(&drain(&mut Link::new(config(), 19)));
    assert!(sent.is_empty());
    let mut resumed = Link::resumed(config(), 19, traced, now);
    let events = drain(&mut resumed);
    let resent = traces(&events);
    assert_eq!(resent.len(), 1);
    assert_eq!(resent[0].flags, vec![TraceFlag::Resend]);
    let original = {
        let mut again = Link::new(config(), 19);
        again.handle_bytes(now, &bytes("01:a1:a0:80"));
        drain(&mut again);
        again.send(now, Command::Move, 307);
        transmits(&drain(&mut again))
    };
    assert_eq!(transmits(&events), original);
    assert_eq!(resumed.state(), traced);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn a_link_resumed_from_its_trace_loses_and_repeats_nothing(
        faults_a in proptest::collection::vec(arb_fault(), 0..20),
        faults_b in proptest::collection::vec(arb_fault(), 0..20),
        schedule_a in arb_schedule(),
        schedule_b in arb_schedule(),
        cut in 0usize..40,
    ) {
        let mut a = End::new(faults_a, schedule_a);
        let mut b = End::new(faults_b, schedule_b);
        run_with_restart(&mut a, &mut b, Some(cut));
        prop_assert_eq!(&b.received, &a.sent);
        prop_assert_eq!(&a.received, &b.sent);
        prop_assert!(a.link.is_idle() && b.link.is_idle());
    }
}

#[test]
fn a_delivered_command_repeated_on_purpose_is_identical_and_a_peer_takes_it_as_a_duplicate() {
    let t = crate::test_support::epoch();
    let mut ours = Link::new(config(), 19);
    let mut theirs = Link::new(config(), 19);
    assert!(!ours.repeat_delivered(), "nothing was acknowledged yet");
    ours.send(t, Command::Move, 0x123);
    let first = transmits(&drain(&mut ours));
    assert!(!ours.repeat_delivered(), "the MOVE is still outstanding");
    theirs.handle_bytes(t, &bytes(&first[0]));
    let accepted = non_trace(drain(&mut theirs));
    assert!(matches!(
        accepted[..],
        [LinkEvent::Received {
            command: Command::Move,
            value: 0x123
        }]
    ));
    theirs.send_ok(t);
    let ok = transmits(&drain(&mut theirs));
    ours.handle_bytes(t, &bytes(&ok[0]));
    drain(&mut ours);
    assert!(ours.is_idle());
    assert!(ours.repeat_delivered());
    let events = drain(&mut ours);
    assert_eq!(transmits(&events), first, "the identical packet");
    assert!(traces(&events)[0].flags.contains(&TraceFlag::Resend));
    assert!(ours.is_idle(), "a repeat waits for nothing");
    theirs.handle_bytes(t, &bytes(&first[0]));
    let events = drain(&mut theirs);
    assert!(traces(&events)[0].flags.contains(&TraceFlag::Duplicate));
    assert_eq!(transmits(&events), ok, "OKed again, not taken as new");
    assert!(non_trace(events)
        .iter()
        .all(|e| !matches!(e, LinkEvent::Received { .. })));
}
