//! The time chart: bars in proportion on one scale, wire time as its own
//! segment, the resend, pass and resign marks, the newest moves when not
//! all fit, small areas, and snapshots in the default and mono themes.

use crate::test_support::buffer_lines;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use super::{Pen, TimeChartPane};
use crate::ui::Theme;
use goref_core::game::Color;
use goref_core::referee::view::MoveLine;
use goref_core::referee::GameView;

/// A view whose moves are `(vertex, think ms, wire ms, resends)`, Black
/// first and alternating.
fn view(moves: &[(&str, u64, f64, u32)]) -> GameView {
    let mut view = GameView::new();
    for (i, &(vertex, ms, wire_ms, resends)) in moves.iter().enumerate() {
        let color = Color::BOTH[i % 2];
        view.moves.push(MoveLine {
            n: i as u32 + 1,
            color,
            vertex: vertex.into(),
            ms,
            wire_ms,
            resends,
            referee_ms: 0.0,
            net_ms: 0,
            black_winrate: None,
        });
    }
    view
}

/// The pane drawn at `area` of a larger buffer, as its lines of text.
fn draw_at(view: &GameView, theme: &Theme, area: Rect) -> Vec<String> {
    let mut buf = Buffer::empty(Rect::new(0, 0, area.right() + 2, area.bottom() + 2));
    TimeChartPane { view, theme }.render(area, &mut buf);
    buffer_lines(&buf)
}

fn draw(view: &GameView, theme: &Theme, width: u16, height: u16) -> Vec<String> {
    let mut lines = draw_at(view, theme, Rect::new(0, 0, width, height));
    lines.truncate(usize::from(height));
    lines
}

/// How many cells of column `x` between rows `from..to` hold `glyph`.
fn count(lines: &[String], x: usize, rows: std::ops::Range<usize>, glyph: char) -> usize {
    lines[rows]
        .iter()
        .filter(|line| line.chars().nth(x) == Some(glyph))
        .count()
}

#[test]
fn bars_are_in_proportion_on_one_scale_for_both_sides() {
    // 21 rows: the legend, then 10 a side: totals, marks and 8 rows of bars.
    let view = view(&[
        ("D4", 1_000, 0.0, 0),
        ("Q16", 3_000, 0.0, 0),
        ("D16", 2_000, 0.0, 0),
        ("Q4", 500, 0.0, 0),
        ("C3", 4_000, 0.0, 0),
    ]);
    let lines = draw(&view, &Theme::default(), 10, 21);
    assert_eq!(lines[0], "max 4.0s");
    let black = 3..11;
    let white = 13..21;
    let cells: Vec<usize> = (7..10)
        .map(|x| count(&lines, x, black.clone(), '█'))
        .collect();
    assert_eq!(cells, [2, 4, 8], "{lines:#?}");
    let cells: Vec<usize> = (8..10)
        .map(|x| count(&lines, x, white.clone(), '█'))
        .collect();
    assert_eq!(cells, [6, 1], "{lines:#?}");
    let wide = draw(&view, &Theme::default(), 40, 21);
    assert_eq!(wide[1], "B  think 7.0s  avg 2.3s  wire 0.0s");
    assert_eq!(wide[11], "W  think 3.5s  avg 1.8s  wire 0.0s");
}

#[test]
fn wire_time_is_a_segment_of_its_own_above_the_thinking() {
    let view = view(&[("D4", 2_000, 2_000.0, 0), ("Q16", 4_000, 0.0, 0)]);
    let lines = draw(&view, &Theme::default(), 4, 21);
    assert_eq!(count(&lines, 3, 3..11, '█'), 4, "{lines:#?}");
    assert_eq!(count(&lines, 3, 3..11, '▒'), 4, "{lines:#?}");
    assert_eq!(
        lines[10].chars().nth(3),
        Some('█'),
        "thinking at the bottom"
    );
    assert_eq!(lines[6].chars().nth(3), Some('▒'), "wire above it");
    let ascii = draw(&view, &Theme::mono(), 4, 21);
    assert_eq!(count(&ascii, 3, 3..11, '#'), 4, "{ascii:#?}");
    assert_eq!(count(&ascii, 3, 3..11, '='), 4, "{ascii:#?}");
    assert!(draw(&view, &Theme::mono(), 60, 21)[0].contains("# think  = wire"));
}

#[test]
fn resends_passes_and_resignations_are_marked_above_their_bars() {
    let view = view(&[
        ("D4", 1_000, 300.0, 2),
        ("pass", 1_000, 0.0, 0),
        ("pass", 500, 0.0, 1),
        ("resign", 0, 0.0, 0),
    ]);
    let lines = draw(&view, &Theme::mono(), 50, 9);
    assert_eq!(lines[2], format!("{}RR", " ".repeat(48)), "{lines:#?}");
    assert_eq!(lines[6], format!("{}pr", " ".repeat(48)), "{lines:#?}");
    assert!(lines[1].ends_with("3 resends"), "{}", lines[1]);
}

#[test]
fn the_newest_moves_are_kept_when_not_all_fit() {
    let mut moves: Vec<(&str, u64, f64, u32)> = (1..=60).map(|n| ("D4", n * 100, 0.0, 0)).collect();
    moves[0].0 = "pass";
    moves[58].3 = 1;
    let view = view(&moves);
    let lines = draw(&view, &Theme::mono(), 10, 21);
    assert!(lines[0].starts_with("max 6.0s"), "{lines:#?}");
    assert_eq!(
        lines[2], "         R",
        "the newest Black move is on the right"
    );
    assert!(!lines.iter().any(|line| line.contains('p')), "{lines:#?}");
    let newest_white = count(&lines, 9, 13..21, '#');
    let oldest_white_shown = count(&lines, 0, 13..21, '#');
    assert_eq!((oldest_white_shown, newest_white), (6, 8), "{lines:#?}");
}

#[test]
fn small_areas_keep_the_totals_and_never_panic() {
    let view = view(&[
        ("D4", 1_500, 100.0, 1),
        ("pass", 0, 0.0, 0),
        ("resign", 0, 0.0, 0),
    ]);
    for width in 0..50 {
        for height in 0..12 {
            for theme in [Theme::default(), Theme::mono()] {
                draw_at(&view, &theme, Rect::new(3, 2, width, height));
            }
        }
    }
    let one = draw(&view, &Theme::mono(), 90, 1);
    assert_eq!(
        one,
        ["B  think 1.5s  avg 0.8s  wire 0.1s  1 resend   W  think 0.0s  avg 0.0s  wire 0.0s"]
    );
    let two = draw(&view, &Theme::mono(), 80, 2);
    assert!(
        two[0].starts_with("B  think") && two[1].starts_with("W  think"),
        "{two:#?}"
    );
    let three = draw(&view, &Theme::mono(), 80, 3);
    assert!(
        three[0].starts_with("max 1.6s") && three[2].starts_with("W  think"),
        "{three:#?}"
    );
    let five = draw(&view, &Theme::mono(), 10, 5);
    assert_eq!(five[2], "        #", "one row of bars, no marks: {five:#?}");
    let offset = draw_at(&view, &Theme::mono(), Rect::new(3, 2, 10, 5));
    assert_eq!(
        offset[4], "           #",
        "drawn inside its area: {offset:#?}"
    );
    assert_eq!(
        draw(&GameView::new(), &Theme::mono(), 40, 7)[1],
        "B  think 0.0s  avg -  wire 0.0s"
    );
}

#[test]
fn the_referees_share_has_a_segment_ready_for_it() {
    let (view, theme) = (GameView::new(), Theme::default());
    let pane = TimeChartPane {
        view: &view,
        theme: &theme,
    };
    let area = Rect::new(0, 0, 1, 6);
    let mut buf = Buffer::empty(area);
    let mut pen = Pen {
        area,
        buf: &mut buf,
    };
    pane.bar(&mut pen, 0, 5, 6, [2.0, 2.0, 2.0]);
    let column: String = (0..6).map(|y| buf[(0, y)].symbol().to_string()).collect();
    assert_eq!(column, "░░▒▒██");
    assert_eq!(buf[(0, 0)].style().fg, theme.chart_referee.fg);
}

fn game() -> GameView {
    view(&[
        ("D4", 2_100, 0.0, 0),
        ("Q16", 1_200, 0.0, 0),
        ("D16", 4_800, 1_300.0, 2),
        ("Q4", 900, 0.0, 0),
        ("C14", 3_000, 200.0, 0),
        ("R6", 2_600, 0.0, 0),
        ("F3", 1_500, 0.0, 0),
        ("pass", 400, 0.0, 0),
        ("pass", 700, 0.0, 0),
    ])
}

#[test]
fn a_game_in_the_default_theme() {
    insta::assert_snapshot!(draw(&game(), &Theme::default(), 56, 15).join("\n"));
}

#[test]
fn a_game_in_the_mono_theme() {
    insta::assert_snapshot!(draw(&game(), &Theme::mono(), 56, 15).join("\n"));
}

#[test]
fn a_legend_entry_that_does_not_fit_whole_is_left_out_not_cut() {
    let view = view(&[("D4", 4_200, 33.4, 0), ("Q16", 1_000, 33.4, 0)]);
    let theme = Theme::default();
    for width in 10..60 {
        let legend = &draw(&view, &theme, width, 12)[0];
        let legend = legend.trim_end();
        for word in ["think", "wire", "resend", "pass", "resign"] {
            let cut = (1..word.len()).any(|n| legend.ends_with(&format!(" {}", &word[..n])));
            assert!(!cut, "'{word}' cut at {width} columns: '{legend}'");
        }
        assert!(legend.chars().count() <= usize::from(width), "{legend}");
    }
    let wide = &draw(&view, &theme, 60, 12)[0];
    assert!(
        ["think", "wire", "resend", "pass", "resign"]
            .iter()
            .all(|word| wide.contains(word)),
        "{wide}"
    );
}
