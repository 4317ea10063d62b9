//! Snapshots of the board pane: a 19x19 game in an 80x24 corner, a 9x9 game
//! in scoring with a disagreement, the ASCII board of the mono theme, and a
//! pane too small for its board.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use super::BoardPane;
use crate::test_support::{buffer_lines, clock_reading, game_start};
use crate::ui::Theme;
use goref_core::game::Color;
use goref_core::referee::event::{AgreementEvent, GameEvent, GameStart};
use goref_core::referee::GameView;

fn start(size: u8) -> GameEvent {
    GameEvent::GameStart(Box::new(GameStart {
        komi: 7.5,
        ko: None,
        ..game_start(size, &[], Color::Black)
    }))
}

fn view(size: u8, moves: &str) -> GameView {
    let mut view = GameView::new();
    view.apply(&start(size));
    for (i, vertex) in moves.split_whitespace().enumerate() {
        let color = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        view.apply(&GameEvent::Move {
            n: i as u32 + 1,
            color,
            vertex: vertex.into(),
            ms: 0,
            captures: Vec::new(),
            clock: clock_reading(0),
            referee_us: None,
            net_ms: None,
            opening: false,
        });
    }
    view
}

/// The pane drawn into a buffer of `width` x `height`, as lines of text.
fn draw(view: &GameView, theme: &Theme, width: u16, height: u16) -> String {
    draw_with(view, theme, width, height, false)
}

fn draw_with(view: &GameView, theme: &Theme, width: u16, height: u16, variation: bool) -> String {
    let area = Rect::new(0, 0, width, height);
    let mut buf = Buffer::empty(area);
    BoardPane {
        view,
        theme,
        cursor: None,
        variation,
    }
    .render(area, &mut buf);
    buffer_lines(&buf).join("\n")
}

#[test]
fn a_19x19_game_fits_beside_the_clocks_in_80x24() {
    let view = view(19, "Q16 D4 Q3 D16 R5 C14 T19 A1 K10");
    let (width, height) = BoardPane::size_needed(19);
    assert!(width <= 48 && height <= 22, "{width}x{height}");
    insta::assert_snapshot!(draw(&view, &Theme::default(), 80, 24));
}

#[test]
fn scoring_shows_dead_stones_and_what_only_one_side_claims() {
    let mut view = view(9, "C3 G7 C4 G6 D4 F6 E5 F5 G3 H3");
    view.apply(&GameEvent::Agreement(AgreementEvent::Disputed {
        black_only: vec!["H3".into()],
        white_only: vec!["G3".into()],
    }));
    view.apply(&GameEvent::Agreement(AgreementEvent::Marked {
        stones: vec!["E5".into()],
    }));
    insta::assert_snapshot!(draw(&view, &Theme::mono(), 30, 12));
}

#[test]
fn the_mono_theme_draws_an_ascii_board_with_the_last_move_bracketed() {
    let view = view(9, "E5 C3 A1");
    let text = draw(&view, &Theme::mono(), 30, 12);
    assert!(text.contains("(X)"), "{text}");
    assert!(!text.contains('●'), "{text}");
    insta::assert_snapshot!(text);
}

#[test]
fn a_pane_too_small_says_what_the_board_needs() {
    let view = view(19, "");
    let text = draw(&view, &Theme::default(), 30, 10);
    assert_eq!(text.lines().next(), Some("the board needs 44x21"));
}

#[test]
fn the_variation_numbers_the_expected_moves_on_empty_points_only() {
    let mut view = view(9, "E5 C3 D4");
    view.apply(&GameEvent::Analysis {
        n: 3,
        color: Color::Black,
        winrate: 0.6,
        black_winrate: 0.6,
        score_lead: None,
        visits: 50,
        pv: ["D4", "C4", "E5", "F4", "C3", "J9", "Z99"]
            .map(String::from)
            .to_vec(),
    });
    let shown = draw_with(&view, &Theme::mono(), 30, 12, true);
    let row = |n: u8| shown.lines().nth(usize::from(10 - n)).unwrap().to_string();
    let mut long = view.clone();
    if let Some(analysis) = long.analysis[0].as_mut() {
        analysis.pv = [
            "D4", "A1", "B1", "C1", "D1", "E1", "F1", "G1", "H1", "J1", "A2", "B2",
        ]
        .map(String::from)
        .to_vec();
    }
    let long_drawn = draw_with(&long, &Theme::mono(), 30, 12, true);
    let long_row = |n: u8| {
        long_drawn
            .lines()
            .nth(usize::from(10 - n))
            .unwrap()
            .to_string()
    };
    assert_eq!(&long_row(1)[4..22], "1 2 3 4 5 6 7 8 9 ", "{long_drawn}");
    assert!(
        !long_row(2)[4..22].contains(|c: char| c.is_ascii_digit()),
        "no two-digit number beside a point: {long_drawn}"
    );
    assert_eq!(&row(4)[4..22], ". . 1(X). 3 . . . ", "{shown}");
    assert_eq!(&row(9)[4..22], ". . . . . . . . 5 ", "{shown}");
    for taken in [5, 3] {
        let grid = &row(taken)[4..22];
        assert!(
            !grid.contains(|c: char| c.is_ascii_digit()),
            "{grid}: {shown}"
        );
    }
    let mut later = view.clone();
    later.apply(&GameEvent::Move {
        n: 4,
        color: Color::White,
        vertex: "G7".into(),
        ms: 0,
        captures: Vec::new(),
        clock: clock_reading(0),
        referee_us: None,
        net_ms: None,
        opening: false,
    });
    let stale = draw_with(&later, &Theme::mono(), 30, 12, true);
    assert_eq!(
        stale,
        draw(&later, &Theme::mono(), 30, 12),
        "only the last move's"
    );
}
