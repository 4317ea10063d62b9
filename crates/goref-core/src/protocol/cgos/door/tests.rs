//! The CGOS door's tests: logins, games told from the board's GTP, moves
//! charged, and what a client may not do.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use super::*;

const SECOND: Duration = Duration::from_secs(1);

fn passwords() -> Tokens {
    Tokens::new(BTreeMap::from([
        ("alpha".to_string(), "pw-alpha".to_string()),
        ("beta".to_string(), "pw-beta".to_string()),
    ]))
}

fn lines(events: &[DoorEvent]) -> Vec<String> {
    events
        .iter()
        .filter_map(|event| match event {
            DoorEvent::Send(line) => Some(line.to_string()),
            _ => None,
        })
        .collect()
}

fn answers(events: &[DoorEvent]) -> Vec<String> {
    events
        .iter()
        .filter_map(|event| match event {
            DoorEvent::Answer { text, .. } => Some(text.clone()),
            _ => None,
        })
        .collect()
}

/// A door with `entrant` logged in as `e1 HELLO`.
fn logged_in(t0: Instant, entrant: &str, hello: &str) -> CgosDoor {
    let (mut door, first) = CgosDoor::new(t0, DoorSettings::default());
    assert_eq!(lines(&first), ["protocol genmove_analyze"]);
    let pw = format!("pw-{entrant}");
    assert_eq!(
        lines(&door.handle_line(t0, hello.as_bytes(), &passwords())),
        ["username"]
    );
    assert_eq!(
        lines(&door.handle_line(t0, entrant.as_bytes(), &passwords())),
        ["password"]
    );
    let admitted = door.handle_line(t0, pw.as_bytes(), &passwords());
    assert!(
        matches!(&admitted[..], [DoorEvent::Admitted { entrant: e, .. }] if e == entrant),
        "{admitted:?}"
    );
    door
}

/// The board's preamble for a 9x9 game, 300 s each, as a GTP player sends it.
fn tell_preamble(door: &mut CgosDoor, at: Instant) {
    for line in [
        "1 protocol_version",
        "2 name",
        "3 version",
        "4 known_command time_left",
        "5 boardsize 9",
        "6 clear_board",
        "7 komi 7",
        "8 time_settings 300 0 0",
    ] {
        let events = door.command(at, line);
        assert_eq!(answers(&events).len(), 1, "{line} is answered at once");
        assert!(
            lines(&events).is_empty(),
            "{line} says nothing to the client"
        );
    }
}

fn reading(
    main_left_ms: u64,
    period_left_ms: Option<u64>,
    stones_left: Option<u32>,
) -> ClockReading {
    ClockReading {
        main_left_ms,
        period_left_ms,
        periods_left: None,
        stones_left,
        in_overtime: main_left_ms == 0,
        running: false,
        flagged: false,
        used_ms: 0,
        last_move_ms: 0,
        wall_ms: None,
    }
}

fn sides(game: u64) -> Sides {
    let named = |name: &str| Named {
        name: name.into(),
        rating: "?".into(),
    };
    Sides {
        game,
        black: named("alpha"),
        white: named("beta"),
    }
}

#[test]
fn a_client_with_its_password_is_let_in_and_no_other() {
    let t0 = crate::test_support::epoch();
    let door = logged_in(t0, "alpha", "e1 cgosPython 1.0.0 genmove_analyze");
    assert_eq!(door.entrant(), Some("alpha"));

    let refused = |said: [&str; 3]| {
        let (mut door, _) = CgosDoor::new(t0, DoorSettings::default());
        let mut events = Vec::new();
        for line in said {
            events = door.handle_line(t0, line.as_bytes(), &passwords());
        }
        events
    };
    let wrong = refused(["e1 cgosGtp 0.98", "alpha", "pw-beta"]);
    assert!(
        matches!(&wrong[..], [DoorEvent::Refuse { reason, .. }] if reason.contains("password doesn't match")),
        "{wrong:?}"
    );
    let unknown = refused(["e1 cgosGtp 0.98", "gamma", "anything"]);
    assert!(
        matches!(&unknown[..], [DoorEvent::Refuse { reason, .. }] if reason.contains("gamma")),
        "a name is never registered by logging in: {unknown:?}"
    );
    let (mut viewer, _) = CgosDoor::new(t0, DoorSettings::default());
    let events = viewer.handle_line(t0, b"v1 viewer", &passwords());
    assert!(
        matches!(&events[..], [DoorEvent::Refuse { reason, .. }] if reason.contains("--watch")),
        "{events:?}"
    );
    let (mut stranger, _) = CgosDoor::new(t0, DoorSettings::default());
    let events = stranger.handle_line(t0, b"GET / HTTP/1.1", &passwords());
    assert!(
        matches!(&events[..], [DoorEvent::Refuse { .. }]),
        "{events:?}"
    );
}

#[test]
fn a_client_that_never_logs_in_is_told_why_and_closed() {
    let t0 = crate::test_support::epoch();
    let (mut door, _) = CgosDoor::new(t0, DoorSettings::default());
    door.handle_line(t0, b"e1 silent", &passwords());
    let due = door.poll_timeout().unwrap();
    assert_eq!(due, t0 + Duration::from_secs(30));
    assert!(door.handle_timeout(due - SECOND).is_empty());
    let events = door.handle_timeout(due);
    assert_eq!(lines(&events), ["Error: no login within 30 s"]);
    assert!(matches!(events.last(), Some(DoorEvent::Lost { .. })));
    assert_eq!(door.poll_timeout(), None);
}

#[test]
fn black_gets_the_setup_when_the_board_is_quiet_and_its_genmove_at_the_request() {
    let t0 = crate::test_support::epoch();
    let mut door = logged_in(t0, "alpha", "e1 cgosGtp 0.98");
    tell_preamble(&mut door, t0);
    assert!(
        door.handle_sides(t0, sides(203)).is_empty(),
        "not yet quiet"
    );
    let quiet = door.poll_timeout().unwrap();
    assert_eq!(quiet, t0 + ASSEMBLY_QUIET);
    assert_eq!(
        lines(&door.handle_timeout(quiet)),
        ["setup 203 9 7.0 300000 beta(?) alpha(?)"],
        "White first, as the servers send it"
    );
    assert_eq!(door.poll_timeout(), None);
    let asked = quiet + SECOND;
    assert_eq!(
        lines(&door.command(asked, "9 genmove b")),
        ["genmove b 300000"]
    );
    door.handle_round_trip(Duration::from_millis(40));
    let moved = door.handle_line(asked + Duration::from_millis(1500), b"d4", &passwords());
    assert_eq!(
        moved,
        [DoorEvent::Answer {
            text: "=9 D4\n\n".into(),
            think: Duration::from_millis(1500 - 250),
            venue_measure: Duration::from_millis(1500),
        }],
        "a trip shorter than the gift: charged the measure less the gift"
    );
    let again = asked + 2 * SECOND;
    door.command(again, "10 genmove b");
    door.handle_round_trip(Duration::from_millis(400));
    let slow = door.handle_line(again + Duration::from_millis(1500), b"e5", &passwords());
    assert!(
        matches!(
            &slow[..],
            [DoorEvent::Answer { think, .. }] if *think == Duration::from_millis(1500 - 400)
        ),
        "a trip longer than the gift is taken off instead, never both: {slow:?}"
    );
}

#[test]
fn white_is_set_up_and_told_the_opponents_moves_with_their_time() {
    let t0 = crate::test_support::epoch();
    let mut door = logged_in(t0, "beta", "e1 cgosPython 1.0.0");
    tell_preamble(&mut door, t0);
    door.handle_sides(t0, sides(7));
    let setup = door.handle_timeout(t0 + ASSEMBLY_QUIET);
    assert_eq!(lines(&setup), ["setup 7 9 7.0 300000 beta(?) alpha(?)"]);
    door.handle_clock(Color::Black, &reading(297_500, None, None));
    let told = door.command(t0 + 5 * SECOND, "10 play black D4");
    assert_eq!(lines(&told), ["play b D4 297500"]);
    assert_eq!(answers(&told), ["=10 \n\n"]);
    assert!(
        lines(&door.command(t0 + 6 * SECOND, "11 play black resign")).is_empty(),
        "a resignation is never sent as a play"
    );
}

#[test]
fn a_client_back_in_a_game_gets_every_move_and_its_genmove_at_once() {
    let t0 = crate::test_support::epoch();
    let mut door = logged_in(t0, "alpha", "e1 cgosGtp 0.98");
    tell_preamble(&mut door, t0);
    door.handle_sides(t0, sides(9));
    for line in [
        "20 play black E5",
        "21 play white C3",
        "22 time_left black 250 0",
    ] {
        door.command(t0, line);
    }
    let events = door.command(t0 + Duration::from_millis(10), "23 genmove black");
    assert_eq!(
        lines(&events),
        [
            "setup 9 9 7.0 300000 beta(?) alpha(?) E5 250000 C3 300000",
            "genmove b 250000"
        ],
        "a game under way is told whole, then asked"
    );
}

#[test]
fn a_door_without_the_sides_sets_up_at_the_first_move_request() {
    let t0 = crate::test_support::epoch();
    let mut door = logged_in(t0, "alpha", "e1 cgosGtp 0.98");
    tell_preamble(&mut door, t0);
    assert!(door.handle_timeout(t0 + ASSEMBLY_QUIET).is_empty());
    let events = door.command(t0 + SECOND, "9 genmove b");
    assert_eq!(
        lines(&events),
        [
            "setup 0 9 7.0 300000 opponent(?) alpha(?)",
            "genmove b 300000"
        ]
    );
}

#[test]
fn a_move_with_its_analysis_answers_the_analysis_command() {
    let t0 = crate::test_support::epoch();
    let mut door = logged_in(t0, "alpha", "e1 cgosPython 1.0.0 genmove_analyze");
    let listed = answers(&door.command(t0, "1 list_commands")).concat();
    assert!(listed.contains("cgos-genmove_analyze"), "{listed}");
    tell_preamble(&mut door, t0);
    door.handle_sides(t0, sides(1));
    door.command(t0, "9 play black E5");
    let asked = door.command(t0 + SECOND, "10 cgos-genmove_analyze w 100");
    assert_eq!(lines(&asked).last().unwrap(), "genmove w 300000");
    let json =
        r#"{"winrate":0.42,"moves":[{"move":"C3","winrate":0.42,"visits":10,"pv":"C3 D4"}]}"#;
    let reply = format!("c3 {json}");
    let events = door.handle_line(t0 + 2 * SECOND, reply.as_bytes(), &passwords());
    assert_eq!(answers(&events), [format!("=10 {json}\nplay C3\n\n")]);

    let plain = logged_in(t0, "beta", "e1 cgosGtp 0.98");
    assert!(!plain.knows("cgos-genmove_analyze"));
}

#[test]
fn the_game_over_is_told_once_and_its_ready_is_taken() {
    let t0 = crate::test_support::epoch();
    let mut door = logged_in(t0, "alpha", "e1 cgosGtp 0.98");
    tell_preamble(&mut door, t0);
    door.handle_sides(t0, sides(4));
    door.handle_timeout(t0 + ASSEMBLY_QUIET);
    let ended = Ended {
        result: "W+R".into(),
        reason: "Black resigned".into(),
        illegal: false,
    };
    assert_eq!(
        lines(&door.handle_result("2026-11-30", &ended)),
        ["gameover 2026-11-30 W+Resign Black resigned"]
    );
    assert!(door.handle_result("2026-11-30", &ended).is_empty(), "once");
    assert!(door
        .handle_line(t0 + SECOND, b"ready", &passwords())
        .is_empty());
    let again = door.handle_line(t0 + 2 * SECOND, b"ready", &passwords());
    assert!(matches!(&again[..], [DoorEvent::Note(_)]), "{again:?}");
}

#[test]
fn lines_out_of_turn_are_noted_and_a_flood_or_an_overlong_line_closes() {
    let t0 = crate::test_support::epoch();
    let mut door = logged_in(t0, "alpha", "e1 cgosGtp 0.98");
    let stray = door.handle_line(t0, b"d4", &passwords());
    assert!(
        matches!(&stray[..], [DoorEvent::Note(note)] if note.contains("no move asked")),
        "{stray:?}"
    );
    assert!(door.handle_line(t0, b"", &passwords()).is_empty());
    let t1 = t0 + 5 * SECOND;
    let mut last = Vec::new();
    for _ in 0..=100 {
        last = door.handle_line(t1, b"junk", &passwords());
    }
    assert!(lines(&last)[0].starts_with("Error: more than 100 lines"));
    assert!(matches!(last.last(), Some(DoorEvent::Lost { .. })));
    assert!(
        door.handle_line(t1, b"d4", &passwords()).is_empty(),
        "closed"
    );

    let mut long = logged_in(t0, "beta", "e1 cgosGtp 0.98");
    let events = long.handle_line(t0, &vec![b'x'; 70_000], &passwords());
    assert!(lines(&events)[0].starts_with("Error: a line of 70000 bytes"));
}

#[test]
fn a_newer_login_sends_the_older_away_with_an_info() {
    let t0 = crate::test_support::epoch();
    let mut door = logged_in(t0, "alpha", "e1 cgosGtp 0.98");
    let events = door.replaced("10.0.0.2:5000");
    assert_eq!(
        lines(&events),
        ["info another login is being attempted using this user name, from 10.0.0.2:5000"]
    );
    assert!(matches!(events.last(), Some(DoorEvent::Lost { .. })));
}

#[test]
fn results_read_as_the_servers_write_them() {
    let ended = |result: &str, illegal| Ended {
        result: result.into(),
        reason: String::new(),
        illegal,
    };
    assert_eq!(cgos_result(&ended("B+R", false)), "B+Resign");
    assert_eq!(cgos_result(&ended("W+T", false)), "W+Time");
    assert_eq!(cgos_result(&ended("W+F", true)), "W+Illegal");
    assert_eq!(cgos_result(&ended("B+F", false)), "B+Forfeit");
    assert_eq!(cgos_result(&ended("W+6.5", false)), "W+6.5");
    assert_eq!(cgos_result(&ended("0", false)), "Draw");
}

#[test]
fn the_time_sent_is_what_the_program_may_use_for_its_move() {
    assert_eq!(
        usable_ms(&reading(60_000, None, None)),
        60_000,
        "absolute and Fischer"
    );
    assert_eq!(
        usable_ms(&reading(60_000, Some(30_000), None)),
        90_000,
        "byo-yomi's main time and its first period"
    );
    assert_eq!(
        usable_ms(&reading(0, Some(30_000), None)),
        30_000,
        "a period"
    );
    assert_eq!(
        usable_ms(&reading(0, Some(300_000), Some(10))),
        30_000,
        "a Canadian period shared by its stones"
    );
}
