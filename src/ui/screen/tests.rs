//! Snapshots of the whole screen at 80x24 and 160x48: a 19x19 game in
//! play on a GMP line against a GTP engine, the judge's count with a
//! disagreement, the result, the help, the too-small screen and `mono`;
//! and the guarantee that the same view and state draw the same buffer.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::render;
use crate::test_support::{buffer_lines, game_start};
use crate::ui::{PaneId, Role, Theme, UiState};
use goref_core::game::clock::{ClockReading, TimeSystem};
use goref_core::game::Color::{self, Black, White};
use goref_core::protocol::sgmp::link::{Direction, TraceEntry, TraceFlag};
use goref_core::referee::event::{
    AgreementEvent, GameEvent, LineDirection, Phase, PlayerInfo, StampedEvent,
};
use goref_core::referee::{End, GameResult, GameView};

const OPENING: &str = "Q16 D4 Q4 D16 C14 R10 F17 C6 K4 O17 P15 O16 R17 E3";

fn stamped(seq: u64, t_ms: u64, event: GameEvent) -> StampedEvent {
    StampedEvent {
        seq,
        t_ms,
        after_result: false,
        event,
    }
}

fn player(name: &str, version: &str, protocol: &str) -> PlayerInfo {
    PlayerInfo {
        protocol: protocol.into(),
        name: name.into(),
        version: version.into(),
        ..PlayerInfo::default()
    }
}

fn clock(main_left_ms: u64, running: bool, last_move_ms: u64) -> ClockReading {
    ClockReading {
        main_left_ms,
        period_left_ms: Some(30_000),
        periods_left: Some(3),
        stones_left: None,
        in_overtime: false,
        running,
        flagged: false,
        used_ms: 600_000 - main_left_ms,
        last_move_ms,
        wall_ms: None,
    }
}

/// A 19x19 game between a program on an SGMP line (Black) and GNU Go over
/// GTP (White), fourteen moves in, White to move; every event stamped.
fn mid_game() -> GameView {
    let mut start = game_start(19, &[], Black);
    start.komi = 7.5;
    start.time = "byoyomi:10m,30s,3".into();
    start.time_settings = TimeSystem::ByoYomi {
        main: std::time::Duration::from_secs(600),
        period: std::time::Duration::from_secs(30),
        periods: 3,
    }
    .into();
    start.black = player("Many Faces", "9", "sgmp");
    start.white = player("GNU Go", "3.8", "gtp");
    let mut events = vec![
        GameEvent::GameStart(Box::new(start)),
        GameEvent::Phase {
            phase: Phase::Play,
            reason: "both players are ready".into(),
        },
    ];
    let mut left = [600_000u64, 600_000];
    for (i, vertex) in OPENING.split_whitespace().enumerate() {
        let color = if i % 2 == 0 { Black } else { White };
        let think = 1_000 + 700 * (i as u64 % 5);
        left[color.index()] -= think;
        if color == Black {
            let resend = i == 6;
            events.push(GameEvent::Packet {
                color: Black,
                wire_ms: Some(16.7),
                entry: TraceEntry {
                    direction: Direction::In,
                    hex: "01:8d:d4:b8".into(),
                    meaning: format!("MOVE B {vertex}"),
                    flags: if resend {
                        vec![TraceFlag::Duplicate]
                    } else {
                        vec![]
                    },
                    note: None,
                },
            });
        } else {
            events.push(GameEvent::Gtp {
                color: White,
                direction: LineDirection::Sent,
                line: "genmove white".into(),
            });
            events.push(GameEvent::Gtp {
                color: White,
                direction: LineDirection::Received,
                line: format!("= {vertex}"),
            });
        }
        events.push(GameEvent::Move {
            n: i as u32 + 1,
            color,
            vertex: vertex.into(),
            ms: think,
            captures: vec![],
            clock: clock(left[color.index()], false, think),
            referee_us: None,
            net_ms: None,
            opening: false,
        });
    }
    events.push(GameEvent::Packet {
        color: Black,
        wire_ms: Some(16.7),
        entry: TraceEntry {
            direction: Direction::Out,
            hex: "02:91:d4:bb".into(),
            meaning: "MOVE W E3".into(),
            flags: vec![TraceFlag::Resend],
            note: Some("resend 1".into()),
        },
    });
    events.push(GameEvent::Clock {
        color: Black,
        clock: clock(left[0], true, 2_400),
    });
    let mut view = GameView::new();
    for (i, event) in events.into_iter().enumerate() {
        view.apply_stamped(&stamped(i as u64 + 1, 1_000 * (i as u64 + 1), event));
    }
    view
}

fn apply(view: &mut GameView, event: GameEvent) {
    let seq = view.last_seq + 1;
    let t_ms = view.last_t_ms + 500;
    view.apply_stamped(&stamped(seq, t_ms, event));
}

/// The game gone to the judge: the programs' claims differ.
fn disputed() -> GameView {
    let mut view = mid_game();
    apply(
        &mut view,
        GameEvent::Phase {
            phase: Phase::Adjudication,
            reason: "the dead-stone claims differ".into(),
        },
    );
    for (color, stones) in [(Black, vec!["E3"]), (White, vec!["C14"])] {
        apply(
            &mut view,
            GameEvent::Agreement(AgreementEvent::Claim {
                color,
                stones: stones.into_iter().map(String::from).collect(),
                note: None,
            }),
        );
    }
    apply(
        &mut view,
        GameEvent::Agreement(AgreementEvent::Disputed {
            black_only: vec!["E3".into()],
            white_only: vec!["C14".into()],
        }),
    );
    view
}

fn over() -> GameView {
    let mut view = disputed();
    apply(
        &mut view,
        GameEvent::Result(GameResult::new(
            "W+R".into(),
            "Black resigned, as its operator told the judge (lost on the board)".into(),
            Some(White),
            End::Resign,
        )),
    );
    view
}

fn draw(view: &GameView, state: &UiState, theme: &Theme, width: u16, height: u16) -> String {
    let area = Rect::new(0, 0, width, height);
    let mut buf = Buffer::empty(area);
    render(area, &mut buf, view, state, theme);
    text(&buf)
}

fn text(buf: &Buffer) -> String {
    buffer_lines(buf).join("\n")
}

fn operator(now_t_ms: u64) -> UiState {
    let mut state = UiState::new(Role::Operator);
    state.now_t_ms = now_t_ms;
    state
}

#[test]
fn mid_game_on_a_gmp_line_at_80x24_and_160x48() {
    let view = mid_game();
    let state = operator(view.last_t_ms + 4_200);
    insta::assert_snapshot!(
        "mid_game_80x24",
        draw(&view, &state, &Theme::default(), 80, 24)
    );
    insta::assert_snapshot!(
        "mid_game_160x48",
        draw(&view, &state, &Theme::default(), 160, 48)
    );
}

#[test]
fn the_running_clock_ticks_between_readings() {
    let view = mid_game();
    let at = |ms| {
        draw(
            &view,
            &operator(view.last_t_ms + ms),
            &Theme::default(),
            80,
            24,
        )
    };
    let (now, later) = (at(0), at(61_000));
    let black_clock = |screen: &str| {
        screen
            .lines()
            .find(|l| l.contains("▶ B"))
            .map(|l| {
                l.split_whitespace()
                    .find(|w| w.contains(':'))
                    .unwrap_or("")
                    .to_string()
            })
            .unwrap()
    };
    assert_eq!(black_clock(&now), "9:44", "10 min less 15.4 s of thinking");
    assert_eq!(black_clock(&later), "8:43", "61 s later");
}

#[test]
fn scoring_with_a_disagreement_and_the_judges_cursor() {
    let view = disputed();
    let mut state = operator(view.last_t_ms);
    state.alerts_acknowledged = view.alerts.back().map_or(0, |a| a.n);
    state.cursor = Some(goref_core::game::Point::new(4, 2));
    insta::assert_snapshot!(
        "scoring_80x24",
        draw(&view, &state, &Theme::default(), 80, 24)
    );
    insta::assert_snapshot!(
        "scoring_160x48",
        draw(&view, &state, &Theme::default(), 160, 48)
    );
}

#[test]
fn after_the_result_with_an_alert_waiting() {
    let mut view = over();
    apply(
        &mut view,
        GameEvent::Error {
            color: Some(Black),
            message: "the line went silent".into(),
            fatal: false,
        },
    );
    let mut state = operator(view.last_t_ms);
    state.alerts_acknowledged = 1;
    insta::assert_snapshot!(
        "result_80x24",
        draw(&view, &state, &Theme::default(), 80, 24)
    );
}

#[test]
fn the_help_and_the_too_small_screen() {
    let view = mid_game();
    let mut state = operator(view.last_t_ms);
    state.help = Some(0);
    insta::assert_snapshot!("help_80x24", draw(&view, &state, &Theme::default(), 80, 24));
    state.help = None;
    insta::assert_snapshot!("too_small", draw(&view, &state, &Theme::default(), 40, 20));
}

#[test]
fn mono_draws_the_same_meaning_without_colour_or_unicode() {
    let view = disputed();
    let mut state = operator(view.last_t_ms);
    state.focus = PaneId::Trace;
    let screen = draw(&view, &state, &Theme::mono(), 80, 24);
    assert!(screen.is_ascii() || !screen.contains('●'), "ASCII stones");
    insta::assert_snapshot!("mono_80x24", screen);
}

#[test]
fn a_spectators_help_has_no_operator_commands() {
    let view = mid_game();
    let mut state = UiState::new(Role::Spectator);
    state.help = Some(0);
    let lines = crate::ui::overlays::help_lines(&view, &state, &Theme::default());
    let text: Vec<&str> = lines.iter().map(|(l, _)| l.as_str()).collect();
    assert!(!text
        .iter()
        .any(|l| l.contains("adjudicate") || l.contains("resigns")));
    assert!(text.iter().any(|l| l.contains("focus the next pane")));
}

#[test]
fn the_same_view_and_state_draw_the_same_buffer_at_any_size() {
    let view = disputed();
    let state = operator(view.last_t_ms);
    for (width, height) in [(80, 24), (120, 30), (200, 60), (60, 30), (1, 1), (0, 0)] {
        let area = Rect::new(0, 0, width, height);
        let mut one = Buffer::empty(area);
        let mut two = Buffer::empty(area);
        render(area, &mut one, &view, &state, &Theme::default());
        render(
            area,
            &mut two,
            &view.clone(),
            &state.clone(),
            &Theme::default(),
        );
        assert_eq!(one, two, "{width}x{height}");
    }
    let _ = Color::BOTH;
}

#[test]
fn the_hint_bar_tells_what_the_game_asks_and_fresh_notices() {
    let hint_bar = |view: &GameView, now: u64| {
        draw(view, &operator(now), &Theme::default(), 120, 40)
            .lines()
            .last()
            .unwrap()
            .to_string()
    };
    let mut setup = GameView::new();
    setup.apply_stamped(&stamped(
        1,
        100,
        GameEvent::Notice {
            color: Some(Black),
            message: "waiting for the program on /dev/ttyS0 to send NEWGAME".into(),
        },
    ));
    assert!(
        hint_bar(&setup, 60_000).starts_with("Black: waiting for the program on /dev/ttyS0"),
        "a set-up notice stays while the set-up lasts"
    );

    let mut view = mid_game();
    let t = view.last_t_ms;
    apply(
        &mut view,
        GameEvent::Notice {
            color: Some(White),
            message: "Z9 is not a move here; White to move again".into(),
        },
    );
    assert!(hint_bar(&view, t + 2_000).starts_with("White: Z9 is not a move here"));
    assert!(
        hint_bar(&view, t + 20_000).starts_with("? help"),
        "an old notice gives the bar back to the keys"
    );
    apply(
        &mut view,
        GameEvent::Prompt {
            color: Some(Black),
            message: "Black to move: type it".into(),
        },
    );
    assert!(hint_bar(&view, t + 60_000).starts_with("Black to move: type it"));
}

#[test]
fn the_game_start_ends_the_set_ups_notices_and_keys_stay_in_sight() {
    let mut view = GameView::new();
    view.apply_stamped(&stamped(
        1,
        100,
        GameEvent::Notice {
            color: Some(Black),
            message: "waiting for the program on /dev/ttyS0 to send NEWGAME".into(),
        },
    ));
    view.apply_stamped(&stamped(
        2,
        900,
        GameEvent::GameStart(Box::new(game_start(19, &[], Black))),
    ));
    let bar = |view: &GameView| {
        draw(view, &operator(1_000), &Theme::default(), 80, 24)
            .lines()
            .last()
            .unwrap()
            .to_string()
    };
    assert!(bar(&view).starts_with("? help"), "{}", bar(&view));
    view.apply_stamped(&stamped(
        3,
        950,
        GameEvent::Prompt {
            color: Some(Black),
            message: "Black to move: type its move (e.g. D4, pass, resign) and enter it".into(),
        },
    ));
    let with_prompt = bar(&view);
    assert!(
        with_prompt.starts_with("Black to move: type its move"),
        "{with_prompt}"
    );
    assert!(
        with_prompt.contains("? help"),
        "the keys stay in sight: {with_prompt}"
    );
}

#[test]
fn a_hint_is_whole_or_absent_and_the_prompt_keeps_the_move_to_relay() {
    let mut view = mid_game();
    apply(
        &mut view,
        GameEvent::Prompt {
            color: Some(Black),
            message: "Black to move: White played C16, enter it into Black's program, then \
                      type its reply (e.g. D4, pass, resign)"
                .into(),
        },
    );
    let t = view.last_t_ms;
    let words: Vec<&str> = crate::ui::commands::REGISTRY
        .iter()
        .map(|info| super::short_name(info.command))
        .collect();
    for width in 80..=200 {
        let screen = draw(&view, &operator(t), &Theme::default(), width, 24);
        let bar = screen.lines().last().unwrap().trim_end().to_string();
        assert!(
            bar.starts_with("Black to move: White played C16"),
            "{width}: {bar}"
        );
        for word in &words {
            let cut = (2..word.len())
                .map(|n| &word[..n])
                .filter(|part| !words.contains(part))
                .any(|part| bar.ends_with(&format!(" {part}")));
            assert!(!cut, "{width}: '{word}' cut: {bar}");
        }
    }
}
