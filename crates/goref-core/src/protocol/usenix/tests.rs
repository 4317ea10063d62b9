//! Tests of the Usenix lines: what the referee writes, how lenient reading
//! and GREF's reading differ and are flagged, and the line splitter.

use proptest::prelude::*;

use super::*;

fn reading(line: &str) -> Reading {
    read_line(line).reading
}

fn note(line: &str) -> String {
    read_line(line).note.unwrap_or_default()
}

fn play(vertex: &str) -> Reading {
    Reading::Move(Move::parse_gtp(vertex, 19).unwrap())
}

#[test]
fn the_referee_writes_the_1987_lines() {
    assert_eq!(colour_line(Color::Black), "black");
    assert_eq!(colour_line(Color::White), "white");
    assert_eq!(move_line(Move::Play(Point::new(6, 6))), "G7");
    assert_eq!(move_line(Move::Play(Point::new(18, 18))), "T19");
    assert_eq!(move_line(Move::Pass), "pass");
    assert_eq!(BYO_ROMI, "byo-romi");
}

#[test]
fn strict_lines_read_the_same_as_in_1987_and_carry_no_note() {
    for line in ["G7", "Q16", "A1", "T19", "pass", "K10"] {
        let read = read_line(line);
        assert!(matches!(read.reading, Reading::Move(_)), "{line}");
        assert_eq!(read.note, None, "{line}");
    }
    assert_eq!(reading("G7"), play("G7"));
    assert_eq!(reading("pass"), Reading::Move(Move::Pass));
}

#[test]
fn sloppy_lines_are_read_leniently_and_flagged_where_1987_misread_them() {
    assert_eq!(reading("g7"), play("G7"));
    assert!(
        note("g7").contains("would have read it as B8"),
        "{}",
        note("g7")
    );
    assert_eq!(reading("pass\r"), Reading::Move(Move::Pass));
    assert!(note("pass\r").contains("as B1"), "{}", note("pass\r"));
    assert_eq!(reading("Pass"), Reading::Move(Move::Pass));
    assert!(note("Pass").contains("ignored it"), "{}", note("Pass"));
    assert_eq!(reading(" G 7 \r"), play("G7"));
    assert_eq!(
        note(" G 7 \r"),
        "",
        "GREF removed spaces and atoi stops at CR"
    );
    assert_eq!(reading("q16"), play("Q16"));
}

#[test]
fn empty_lines_are_skipped_without_a_word() {
    for line in ["", "  \t "] {
        assert_eq!(
            read_line(line),
            ReadLine {
                reading: Reading::Empty,
                note: None
            }
        );
    }
    assert_eq!(reading("\r"), Reading::Empty);
    assert!(
        note("\r").contains("as B1"),
        "GREF looked CR up as a column"
    );
}

#[test]
fn garbage_is_ignored_and_said_to_be_so() {
    for line in [
        "# thinking",
        "thinking about G7",
        "I7",
        "G",
        "Good move!",
        "G0",
        "G123",
        "=D4",
    ] {
        assert_eq!(reading(line), Reading::Garbage, "{line}");
        assert!(
            note(line).contains("ignored, as rule (i) says"),
            "{line}: {}",
            note(line)
        );
    }
    assert!(
        note("thinking").contains("would have read it as B1"),
        "{}",
        note("thinking")
    );
    assert!(
        note("I7").contains("would have read it as B8"),
        "{}",
        note("I7")
    );
    assert!(
        !note("Good move!").contains("1987"),
        "GREF read G0 and ignored it too"
    );
}

#[test]
fn resign_is_an_extension_and_said_to_be_one() {
    assert_eq!(reading("resign"), Reading::Resign);
    assert_eq!(reading("RESIGN\r"), Reading::Resign);
    assert!(note("resign").contains("extension"));
}

#[test]
fn points_off_the_board_are_moves_the_referee_rules_on() {
    assert_eq!(reading("T5"), Reading::Move(Move::Play(Point::new(18, 4))));
    assert_eq!(
        reading("Z25"),
        Reading::Move(Move::Play(Point::new(24, 24)))
    );
    assert_eq!(reading("A99"), Reading::Move(Move::Play(Point::new(0, 98))));
    assert!(note("A20").contains("ignored it"), "GREF knew only 19 rows");
}

#[test]
fn text_after_the_row_is_dropped_as_gref_dropped_it() {
    assert_eq!(reading("G7 (atari)"), play("G7"));
    assert_eq!(note("G7 (atari)"), "");
}

#[test]
fn the_splitter_keeps_partial_lines_and_cuts_long_ones() {
    let mut splitter = LineSplitter::default();
    assert!(splitter.push(b"G").is_empty());
    assert_eq!(splitter.push(b"7\npa"), ["G7"]);
    assert_eq!(splitter.push(b"ss\r\n\n"), ["pass\r", ""]);
    let long = vec![b'x'; MAX_LINE + 10];
    assert!(splitter.push(&long).is_empty());
    let lines = splitter.push(b"\nD4\n");
    assert_eq!(lines[0].len(), MAX_LINE);
    assert_eq!(lines[1], "D4");
    assert_eq!(splitter.dropped, 10);
    assert_eq!(splitter.push(b"E5"), Vec::<String>::new());
    assert_eq!(splitter.finish().as_deref(), Some("E5"));
    assert_eq!(splitter.finish(), None);
}

proptest! {
    #[test]
    fn every_move_the_referee_writes_reads_back_the_same(col in 0u8..19, row in 0u8..19, pass in any::<bool>()) {
        let mv = if pass { Move::Pass } else { Move::Play(Point::new(col, row)) };
        let read = read_line(&move_line(mv));
        prop_assert_eq!(read.reading, Reading::Move(mv));
        prop_assert_eq!(read.note, None);
    }

    #[test]
    fn any_line_reads_without_panicking_and_flags_every_difference_from_1987(line in ".{0,40}") {
        let read = read_line(&line);
        let gref = gref_reading(&line);
        let agrees = match (read.reading, gref) {
            (Reading::Move(Move::Pass), GrefReading::Pass) => true,
            (Reading::Move(Move::Play(p)), GrefReading::Point { col, row }) => {
                p.col == col && u32::from(p.row) + 1 == row
            }
            (Reading::Move(_), _) | (_, GrefReading::Pass | GrefReading::Point { .. }) => false,
            _ => true,
        };
        let flagged = read.note.as_deref().unwrap_or("").contains("1987 referee would have");
        prop_assert_eq!(flagged, !agrees, "{:?}: {:?} vs {:?}", line, read, gref);
    }

    #[test]
    fn lines_split_the_same_however_the_bytes_arrive(
        text in "[a-zA-Z0-9 \r\n]{0,80}",
        cuts in proptest::collection::vec(0usize..80, 0..6),
    ) {
        let bytes = text.as_bytes();
        let mut whole = LineSplitter::default();
        let expected = whole.push(bytes);
        let mut pieces = LineSplitter::default();
        let mut got = Vec::new();
        let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c.min(bytes.len())).collect();
        cuts.sort_unstable();
        let mut from = 0;
        for cut in cuts.into_iter().chain([bytes.len()]) {
            got.extend(pieces.push(&bytes[from..cut]));
            from = cut;
        }
        prop_assert_eq!(got, expected);
    }
}
