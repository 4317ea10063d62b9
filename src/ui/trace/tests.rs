//! The trace pane: the merge and the filters, pause, scrolling and the
//! selection, the marks on faulty rows, a packet taken apart byte by byte,
//! snapshots of an SGMP and a GTP trace, and areas of any size.

use crate::test_support::buffer_lines;
use proptest::prelude::*;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use super::{cut, detail, rows, TracePane, TraceRow, TraceState};
use crate::ui::Theme;
use goref_core::game::{Color, Point};
use goref_core::protocol::sgmp::link::{Direction, TraceEntry, TraceFlag};
use goref_core::protocol::sgmp::packet::{describe, encode_move, hex, Command, Packet, OK_VALUE};
use goref_core::referee::event::{GameEvent, LineDirection, StampedEvent};
use goref_core::referee::GameView;

/// Four bytes take 16.7 ms at 2400 baud.
const WIRE_MS: f64 = 40_000.0 / 2400.0;

/// Builds a view from a stamped stream, one `seq` an event.
#[derive(Default)]
struct Stream {
    view: GameView,
    seq: u64,
}

impl Stream {
    fn push(&mut self, t_ms: u64, event: GameEvent) -> &mut Self {
        self.seq += 1;
        self.view.apply_stamped(&StampedEvent {
            seq: self.seq,
            t_ms,
            after_result: false,
            event,
        });
        self
    }

    fn gtp(&mut self, t_ms: u64, color: Color, direction: LineDirection, line: &str) -> &mut Self {
        let line = line.to_string();
        self.push(
            t_ms,
            GameEvent::Gtp {
                color,
                direction,
                line,
            },
        )
    }

    fn entry(
        &mut self,
        t_ms: u64,
        color: Color,
        wire_ms: Option<f64>,
        entry: TraceEntry,
    ) -> &mut Self {
        self.push(
            t_ms,
            GameEvent::Packet {
                color,
                wire_ms,
                entry,
            },
        )
    }

    /// A packet as the link traces it: its bytes, described.
    fn packet(
        &mut self,
        t_ms: u64,
        color: Color,
        direction: Direction,
        packet: Packet,
        flags: Vec<TraceFlag>,
        note: Option<&str>,
    ) -> &mut Self {
        let entry = TraceEntry {
            direction,
            hex: hex(&packet.encode()),
            meaning: describe(&packet, 19),
            flags,
            note: note.map(str::to_string),
        };
        self.entry(t_ms, color, Some(WIRE_MS), entry)
    }
}

fn point(vertex: &str) -> Option<Point> {
    Some(Point::parse_gtp(vertex, 19).unwrap())
}

fn move_packet(seq: bool, ack: bool, color: Color, vertex: &str) -> Packet {
    Packet::new(
        seq,
        ack,
        Command::Move,
        encode_move(color, point(vertex), 19),
    )
}

fn ok(seq: bool, ack: bool) -> Packet {
    Packet::new(seq, ack, Command::Ok, OK_VALUE)
}

/// Mid-game on Black's SGMP line, White a GTP engine: the referee's MOVE
/// is resent once, and a packet with a bad checksum comes in before Black's
/// good answer.
fn sgmp_game() -> Stream {
    use Direction::{In, Out};
    let mut s = Stream::default();
    let (b, w) = (Color::Black, Color::White);
    s.gtp(40_100, w, LineDirection::Sent, "play b D4")
        .gtp(40_150, w, LineDirection::Received, "=")
        .gtp(40_160, w, LineDirection::Sent, "genmove w")
        .gtp(41_000, w, LineDirection::Stderr, "W thinks: Q16 52%")
        .gtp(41_200, w, LineDirection::Received, "= Q16")
        .packet(
            41_210,
            b,
            Out,
            move_packet(false, true, w, "Q16"),
            vec![],
            None,
        )
        .packet(
            61_210,
            b,
            Out,
            move_packet(false, true, w, "Q16"),
            vec![TraceFlag::Resend],
            Some("resend 1"),
        )
        .packet(61_240, b, In, ok(true, false), vec![], None);
    let mut garbled = move_packet(false, false, b, "C3").encode();
    garbled[1] ^= 0x01;
    s.entry(
        64_000,
        b,
        Some(WIRE_MS),
        TraceEntry {
            direction: In,
            hex: hex(&garbled),
            meaning: "bad checksum".into(),
            flags: vec![TraceFlag::BadChecksum],
            note: None,
        },
    )
    .packet(
        64_050,
        b,
        In,
        move_packet(false, false, b, "C3"),
        vec![],
        None,
    )
    .packet(64_060, b, Out, ok(false, false), vec![], None)
    .gtp(64_100, w, LineDirection::Sent, "play b C3")
    .gtp(64_130, w, LineDirection::Received, "=");
    s
}

/// `n` GTP exchanges with White, two lines each.
fn gtp_game(n: u64) -> Stream {
    let mut s = Stream::default();
    for i in 0..n {
        let t = 1_000 + i * 2_500;
        s.gtp(t, Color::White, LineDirection::Sent, "genmove w");
        s.gtp(
            t + 2_300,
            Color::White,
            LineDirection::Received,
            &format!("= Q{}", 1 + i % 19),
        );
    }
    s
}

/// The pane drawn into `width` x `height`, as lines of text.
fn draw(view: &GameView, state: &TraceState, theme: &Theme, width: u16, height: u16) -> String {
    let area = Rect::new(0, 0, width, height);
    let mut buf = Buffer::empty(area);
    TracePane { view, state, theme }.render(area, &mut buf);
    buffer_lines(&buf).join("\n")
}

fn seqs(rows: &[TraceRow]) -> Vec<u64> {
    rows.iter().map(|r| r.seq()).collect()
}

#[test]
fn lines_and_packets_merge_in_stream_order() {
    let s = sgmp_game();
    let rows = rows(&s.view, &TraceState::default());
    assert_eq!(seqs(&rows), (1..=13).collect::<Vec<_>>());
    assert!(matches!(rows[4], TraceRow::Line(l) if l.line == "= Q16"));
    assert!(matches!(rows[5], TraceRow::Packet(p) if p.entry.meaning == "MOVE W Q16 (pos 301)"));
    assert!(matches!(rows[11], TraceRow::Line(l) if l.line == "play b C3"));

    // Rows without a stream number keep their lists' order, lines first.
    let mut view = s.view.clone();
    for line in &mut view.trace {
        line.seq = 0;
    }
    for packet in &mut view.packets {
        packet.seq = 0;
    }
    let rows = super::rows(&view, &TraceState::default());
    assert_eq!(rows.len(), 13);
    assert!(rows[..7].iter().all(|r| matches!(r, TraceRow::Line(_))));
    assert_eq!(rows[7], TraceRow::Packet(&view.packets[0]));
}

#[test]
fn each_filter_keeps_only_its_rows() {
    let s = sgmp_game();
    let mut state = TraceState::default();
    let count = |state: &TraceState| rows(&s.view, state).len();
    assert_eq!(count(&state), 13);

    state.cycle_side();
    assert!(rows(&s.view, &state)
        .iter()
        .all(|r| r.color() == Some(Color::Black)));
    assert_eq!(count(&state), 6);
    assert_eq!(state.describe_filter(), "B only");
    state.cycle_side();
    assert_eq!(count(&state), 7);
    state.cycle_side();
    assert_eq!(state.filter.side, None);

    state.toggle_packets();
    assert_eq!(count(&state), 7);
    assert_eq!(state.describe_filter(), "gtp+stderr");
    state.toggle_stderr();
    assert_eq!(count(&state), 6);
    state.toggle_gtp();
    assert_eq!(count(&state), 0);
    assert_eq!(state.describe_filter(), "no kinds");
    state.toggle_packets();
    state.toggle_gtp();
    state.toggle_stderr();

    // The text, in any case, in a line, a meaning, the hex or a note.
    state.set_text("GENMOVE".into());
    assert_eq!(count(&state), 1);
    assert_eq!(state.describe_filter(), "\"GENMOVE\"");
    state.set_text("q16".into());
    assert_eq!(count(&state), 4, "the stderr line, the reply and two MOVEs");
    state.set_text("RESEND 1".into());
    assert_eq!(count(&state), 1);
    let garbled = &s.view.packets[3].entry.hex;
    state.set_text(garbled.to_uppercase());
    assert_eq!(seqs(&rows(&s.view, &state)), [9]);

    state.cycle_side();
    state.toggle_stderr();
    state.set_text("genmove".into());
    assert_eq!(state.describe_filter(), "B only, packets+gtp, \"genmove\"");
}

#[test]
fn pausing_hides_what_comes_later_until_resumed() {
    let mut s = gtp_game(3);
    let mut state = TraceState::default();
    state.toggle_pause(&s.view);
    assert_eq!(state.paused_at, Some(6));
    s.gtp(9_000, Color::Black, LineDirection::Sent, "genmove b");
    s.gtp(9_500, Color::Black, LineDirection::Received, "= D4");
    assert_eq!(seqs(&rows(&s.view, &state)), [1, 2, 3, 4, 5, 6]);
    let screen = draw(&s.view, &state, &Theme::mono(), 40, 10);
    assert!(!screen.contains("genmove b"), "{screen}");
    assert!(screen.ends_with("v 2 new | paused | all"), "{screen}");

    state.toggle_pause(&s.view);
    assert_eq!(rows(&s.view, &state).len(), 8);
    let screen = draw(&s.view, &state, &Theme::mono(), 40, 10);
    assert!(screen.contains("= D4"), "{screen}");
    assert!(screen.ends_with("following | all"), "{screen}");
}

#[test]
fn scrolling_up_stops_following_and_counts_the_rows_below() {
    let s = gtp_game(15);
    let mut state = TraceState {
        pane_rows: 8,
        ..TraceState::default()
    };
    state.scroll_up(&s.view, 3);
    assert!(!state.follow);
    assert_eq!(state.anchor, Some(27));
    let screen = draw(&s.view, &state, &Theme::mono(), 40, 8);
    let lines: Vec<&str> = screen.lines().collect();
    assert_eq!(
        lines[6], "   0:33.5 W > genmove w",
        "the anchor is at the bottom"
    );
    assert_eq!(lines[7], "v 3 new | all");

    // New rows are counted, not shown.
    let mut more = gtp_game(16);
    more.gtp(60_000, Color::White, LineDirection::Stderr, "bye");
    assert_eq!(draw(&more.view, &state, &Theme::mono(), 40, 8), {
        let mut expected = screen.clone();
        expected.replace_range(screen.rfind('v').unwrap().., "v 6 new | all");
        expected
    });

    state.scroll_down(&s.view, 2);
    assert!(!state.follow);
    state.scroll_down(&s.view, 5);
    assert!(state.follow, "reaching the newest row follows again");
    assert_eq!(state.anchor, None);

    // No further up than the top page.
    state.scroll_up(&s.view, 1000);
    let screen = draw(&s.view, &state, &Theme::mono(), 40, 8);
    assert!(
        screen.lines().next().unwrap().ends_with("> genmove w"),
        "{screen}"
    );
    assert!(screen.ends_with("v 23 new | all"), "{screen}");
    state.follow_tail();
    assert!(state.follow);
}

#[test]
fn scrolling_when_every_row_fits_keeps_following() {
    let s = gtp_game(2);
    let mut state = TraceState {
        pane_rows: 10,
        ..TraceState::default()
    };
    state.scroll_up(&s.view, 2);
    assert!(state.follow);
    // Not knowing the pane, it scrolls by rows all the same.
    state.pane_rows = 0;
    state.scroll_up(&s.view, 2);
    assert!(!state.follow);
    assert_eq!(state.anchor, Some(2));
}

#[test]
fn the_selection_stays_in_view_as_it_moves() {
    let s = gtp_game(20);
    let theme = Theme::mono();
    let height = 8;
    let mut state = TraceState {
        pane_rows: height,
        ..TraceState::default()
    };
    let selected_line = |state: &TraceState| {
        let screen = draw(&s.view, state, &theme, 40, height);
        let marked: Vec<usize> = screen
            .lines()
            .enumerate()
            .filter(|(_, l)| l.starts_with('>'))
            .map(|(i, _)| i)
            .collect();
        assert_eq!(marked.len(), 1, "one row is selected: {screen}");
        marked[0]
    };

    state.select_up(&s.view);
    assert_eq!(
        state.selected,
        Some(40),
        "the first press takes the bottom row"
    );
    assert!(!state.follow, "selecting stops following");
    assert_eq!(selected_line(&state), 6);
    for _ in 0..10 {
        state.select_up(&s.view);
    }
    assert_eq!(state.selected, Some(30));
    assert_eq!(selected_line(&state), 0, "the list scrolled with it");
    state.select_down(&s.view);
    assert_eq!(
        selected_line(&state),
        1,
        "the list stays put inside the page"
    );
    for _ in 0..100 {
        state.select_down(&s.view);
    }
    assert_eq!(state.selected, Some(40));
    assert_eq!(selected_line(&state), 6);

    // With the detail open the list is shorter, and still shows it.
    state.toggle_detail();
    for _ in 0..3 {
        state.select_up(&s.view);
        let screen = draw(&s.view, &state, &theme, 40, height);
        assert!(
            screen.lines().take(4).any(|l| l.starts_with('>')),
            "{screen}"
        );
    }

    // Not knowing the pane, it brings each selection to the bottom.
    state.pane_rows = 0;
    state.select_up(&s.view);
    assert_eq!(state.anchor, state.selected);
}

#[test]
fn faulty_rows_carry_a_mark_besides_their_colour() {
    let mut s = sgmp_game();
    s.gtp(
        70_000,
        Color::White,
        LineDirection::Received,
        "? illegal move",
    );
    let screen = draw(&s.view, &TraceState::default(), &Theme::mono(), 90, 20);
    let marked: Vec<&str> = screen.lines().filter(|l| l.starts_with(" *")).collect();
    assert_eq!(marked.len(), 3, "{screen}");
    assert!(marked[0].contains("RESEND"));
    assert!(marked[1].contains("BAD CHECKSUM"));
    assert!(marked[2].ends_with("? illegal move"));
    let screen = draw(&s.view, &TraceState::default(), &Theme::default(), 90, 20);
    assert_eq!(screen.matches(" ✗").count(), 3, "{screen}");
}

#[test]
fn a_packet_is_taken_apart_byte_by_byte() {
    let packet = move_packet(true, false, Color::White, "Q16");
    let bytes = packet.encode();
    let fields = detail::bytes(&hex(&bytes), 19);
    let text: Vec<&str> = fields.iter().map(|(t, _)| t.as_str()).collect();
    let value = packet.value;
    assert_eq!(value & 0x200, 0x200, "White's bit");
    assert_eq!(
        text[0],
        format!(
            "b0 {:02x}  start byte  S=1 (sender's sequence bit)  A=0 (ack: receiver's bit)",
            bytes[0]
        )
    );
    assert!(
        text[1].ends_with(&format!("= {:02x}: good", bytes[1])),
        "{}",
        text[1]
    );
    assert!(text[2].contains("command 5 MOVE"), "{}", text[2]);
    assert!(text[2].contains("reserved bit 3 = 0"), "{}", text[2]);
    assert!(
        text[2].ends_with(&format!("value bits 9-7 = {:03b}", value >> 7)),
        "{}",
        text[2]
    );
    assert!(
        text[3].ends_with(&format!(
            "value {value}: W, position {} (Q16)",
            value & 0x1FF
        )),
        "{}",
        text[3]
    );
    assert!(fields.iter().all(|(_, bad)| !bad));

    // Every command and value reads back as the codec decodes it.
    for command in Command::ALL {
        for value in [0, 1, 0x7F, 0x80, 0x2AA, 0x3FF] {
            let packet = Packet::new(value & 1 == 0, value & 2 == 0, command, value);
            let bytes = packet.encode();
            let fields = detail::bytes(&hex(&bytes), 19);
            let decoded = Packet::decode(bytes).unwrap();
            assert!(fields[0]
                .0
                .contains(&format!("S={}", u8::from(decoded.seq))));
            assert!(fields[0]
                .0
                .contains(&format!("A={}", u8::from(decoded.ack))));
            assert!(fields[1].0.ends_with(": good"));
            let named = format!("command {} {} ", command.number(), command.name());
            assert!(fields[2].0.contains(&named), "{}", fields[2].0);
            assert!(fields[3].0.contains(&format!("value {}", decoded.value)));
        }
    }

    // A wrong checksum shows what it should have been; a reserved bit is set.
    let mut garbled = bytes;
    garbled[1] ^= 0x04;
    let fields = detail::bytes(&hex(&garbled), 19);
    assert_eq!(
        fields[1],
        (
            format!(
                "b1 {:02x}  checksum 0x80 | (b0+b2+b3) & 0x7f = {:02x}: BAD, got {:02x}",
                garbled[1], bytes[1], garbled[1]
            ),
            true
        )
    );
    let mut reserved = bytes;
    reserved[2] |= 0x08;
    let fields = detail::bytes(&hex(&reserved), 19);
    assert!(fields[2].0.contains("reserved bit 3 = 1: SET") && fields[2].1);

    // What is not a packet is listed byte by byte.
    let noise = detail::bytes(&hex(b"GNU\x81\x02"), 19);
    assert_eq!(noise[0].0, "b0  47 'G'  4e 'N'  55 'U'  81 cont");
    assert_eq!(noise[1].0, "b4  02 start");
}

#[test]
fn the_detail_names_the_selected_packet_and_its_context() {
    let s = sgmp_game();
    let mut state = TraceState {
        pane_rows: 16,
        ..TraceState::default()
    };
    state.toggle_detail();
    while state.selected != Some(7) {
        state.select_up(&s.view);
    }
    let screen = draw(&s.view, &state, &Theme::default(), 90, 16);
    insta::assert_snapshot!(screen);
    let lines: Vec<&str> = screen.lines().collect();
    assert!(
        lines[9].starts_with("packet seq 7  1:01.2 (61210 ms)  Black  → out"),
        "{screen}"
    );
    assert!(
        lines[10].contains("flags RESEND  wire 16.7ms  note resend 1"),
        "{screen}"
    );

    // A GTP line is shown whole, wrapped.
    let mut s = gtp_game(1);
    let long = format!("= {}", "D4 ".repeat(30));
    s.gtp(
        9_000,
        Color::White,
        LineDirection::Received,
        long.trim_end(),
    );
    state.selected = Some(3);
    state.follow_tail();
    let screen = draw(&s.view, &state, &Theme::mono(), 40, 10);
    let lines: Vec<&str> = screen.lines().collect();
    assert_eq!(lines[5], "gtp seq 3  0:09.0 (9000 ms)  White  < re");
    let text = long.trim_end();
    assert_eq!(lines[6], &text[..40]);
    assert_eq!(lines[7], text[40..80].trim_end());
    assert_eq!(
        lines[8],
        text[80..].trim_end(),
        "the rest, on the detail's last row"
    );
}

#[test]
fn a_mid_game_sgmp_trace() {
    let s = sgmp_game();
    let state = TraceState::default();
    insta::assert_snapshot!(
        "sgmp_unicode",
        draw(&s.view, &state, &Theme::default(), 80, 12)
    );
    insta::assert_snapshot!("sgmp_ascii", draw(&s.view, &state, &Theme::mono(), 80, 12));
}

#[test]
fn a_gtp_trace_scrolled_up() {
    let mut s = gtp_game(12);
    s.gtp(
        40_000,
        Color::White,
        LineDirection::Stderr,
        "W: 12 moves, 3.1 s a move",
    );
    let mut state = TraceState {
        pane_rows: 10,
        ..TraceState::default()
    };
    state.scroll_up(&s.view, 6);
    state.cycle_side();
    state.cycle_side();
    insta::assert_snapshot!(draw(&s.view, &state, &Theme::default(), 60, 10));
}

#[test]
fn tiny_areas_draw_what_fits_and_never_panic() {
    let s = sgmp_game();
    let state = TraceState {
        selected: Some(8),
        detail: true,
        ..TraceState::default()
    };
    for (width, height) in [(1, 1), (0, 5), (5, 0), (0, 0), (1, 2), (80, 1), (3, 3)] {
        let area = Rect::new(2, 3, width, height);
        let mut buf = Buffer::empty(Rect::new(0, 0, 90, 20));
        TracePane {
            view: &s.view,
            state: &state,
            theme: &Theme::default(),
        }
        .render(area, &mut buf);
        let outside = (0..20u16)
            .flat_map(|y| (0..90u16).map(move |x| (x, y)))
            .filter(|&(x, y)| !area.contains((x, y).into()))
            .all(|(x, y)| buf[(x, y)].symbol() == " ");
        assert!(outside, "drawn outside {area:?}");
    }
    let one_row = draw(&s.view, &state, &Theme::mono(), 80, 1);
    assert!(
        one_row.ends_with("W < ="),
        "one row shows the newest entry: {one_row}"
    );
}

fn arb_entry() -> impl Strategy<Value = TraceEntry> {
    let flags = prop::sample::subsequence(
        vec![
            TraceFlag::BadChecksum,
            TraceFlag::Duplicate,
            TraceFlag::Resend,
            TraceFlag::Stray,
            TraceFlag::Talk,
            TraceFlag::Conflict,
        ],
        0..3,
    );
    (
        any::<bool>(),
        prop::collection::vec(any::<u8>(), 0..20),
        ".{0,30}",
        flags,
        prop::option::of(".{0,20}"),
    )
        .prop_map(|(out, bytes, meaning, flags, note)| TraceEntry {
            direction: if out { Direction::Out } else { Direction::In },
            hex: hex(&bytes),
            meaning,
            flags,
            note,
        })
}

fn arb_event() -> impl Strategy<Value = (u64, GameEvent)> {
    let color = prop_oneof![Just(Color::Black), Just(Color::White)];
    let direction = prop_oneof![
        Just(LineDirection::Sent),
        Just(LineDirection::Received),
        Just(LineDirection::Stderr)
    ];
    let line =
        (color.clone(), direction, "[ -~é✗\t]{0,90}").prop_map(|(color, direction, line)| {
            GameEvent::Gtp {
                color,
                direction,
                line,
            }
        });
    let packet = (color, prop::option::of(0.0..100.0f64), arb_entry()).prop_map(
        |(color, wire_ms, entry)| GameEvent::Packet {
            color,
            wire_ms,
            entry,
        },
    );
    (0u64..4_000_000, prop_oneof![line, packet])
}

proptest! {
    #[test]
    fn any_trace_draws_into_any_small_area(
        events in prop::collection::vec(arb_event(), 0..60),
        gaps in prop::collection::vec(1u64..4, 60),
        actions in prop::collection::vec(0u8..14, 0..20),
        steps in prop::collection::vec(0usize..30, 20),
        width in 0u16..50,
        height in 0u16..14,
        pane_rows in 0u16..20,
        unicode in any::<bool>(),
    ) {
        let mut view = GameView::new();
        let mut seq = 0;
        for ((t_ms, event), gap) in events.into_iter().zip(gaps) {
            seq += gap;
            view.apply_stamped(&StampedEvent { seq, t_ms, after_result: false, event });
        }
        let mut state = TraceState { pane_rows, ..TraceState::default() };
        let theme = if unicode { Theme::default() } else { Theme::mono() };
        for (action, n) in actions.into_iter().zip(steps) {
            match action {
                0 => state.scroll_up(&view, n),
                1 => state.scroll_down(&view, n),
                2 => state.follow_tail(),
                3 => state.toggle_pause(&view),
                4 => state.cycle_side(),
                5 => state.toggle_packets(),
                6 => state.toggle_gtp(),
                7 => state.toggle_stderr(),
                8 => state.set_text(["", "e", "Q", "ok"][n % 4].to_string()),
                9 | 10 => state.select_up(&view),
                11 | 12 => state.select_down(&view),
                _ => state.toggle_detail(),
            }
            let screen = draw(&view, &state, &theme, width, height);
            // Right after a move of the selection, in a pane of the height
            // the state knows, the selected row is in view.
            let selecting = matches!(action, 9..=12);
            if let (true, Some(selected)) = (selecting, state.selected) {
                let listed = rows(&view, &state).iter().any(|r| r.seq() == selected);
                if listed && pane_rows == height && height > 1 && width > 0 {
                    let glyph = if unicode { '▸' } else { '>' };
                    prop_assert!(screen.lines().any(|l| l.starts_with(glyph)), "{}", screen);
                }
            }
        }
    }
}

#[test]
fn a_usenix_line_shows_its_note_and_is_marked_when_it_has_one() {
    let mut s = Stream::default();
    let usenix = |direction, line: &str, note: Option<&str>| GameEvent::Usenix {
        color: Color::White,
        direction,
        line: line.to_string(),
        note: note.map(String::from),
    };
    s.push(1_000, usenix(LineDirection::Sent, "D4", None));
    s.push(1_200, usenix(LineDirection::Received, "G7", None));
    let misread = "a 1987 referee would have read it as B8";
    s.push(
        2_000,
        usenix(LineDirection::Received, "g7\r", Some(misread)),
    );
    let rows = rows(&s.view, &TraceState::default());
    assert_eq!(rows.len(), 3);
    assert!(!rows[1].is_problem());
    assert!(rows[2].is_problem());
    let text = draw(&s.view, &TraceState::default(), &Theme::mono(), 80, 6);
    assert!(text.contains("W < G7"), "{text}");
    assert!(
        text.contains("g7\u{240d}  (a 1987 referee would have read it as B8)"),
        "{text}"
    );
    let needle = TraceState {
        filter: super::TraceFilter {
            text: "would have".into(),
            ..super::TraceFilter::default()
        },
        ..TraceState::default()
    };
    assert_eq!(
        super::rows(&s.view, &needle).len(),
        1,
        "the note is searched too"
    );
}

#[test]
fn a_line_that_does_not_fit_ends_with_an_ellipsis_where_a_word_ends() {
    assert_eq!(
        cut("129 time_left black 16 0", 40),
        "129 time_left black 16 0"
    );
    assert_eq!(
        cut("129 time_left black 1600 0", 21),
        "129 time_left black…"
    );
    assert_eq!(cut("abcdefghijklmnopqrstuvwxyz", 10), "abcdefghi…");
    for width in 0..30 {
        assert!(
            cut("= 129 time_left black 16 0 and more", width)
                .chars()
                .count()
                <= width
        );
    }
}
