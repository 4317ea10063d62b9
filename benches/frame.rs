//! One full frame of the screen (DESIGN.md §6: under 1 ms at 200x60).
//!
//! A 19x19 game 240 moves in, with a full trace (600 GTP lines and 300 GMP
//! packets in the view) and a running clock, drawn whole into a 200x60
//! buffer, as the host and each spectator draw it; then the same frame with
//! ratatui's diff against the previous one, which is what a terminal
//! update costs on top.
//!
//! The hall (issue 28: a frame of 16 boards at 200x60 under 1 ms): sixteen
//! 9x9 games drawn as tiles each with its small board, and sixteen of the
//! 19x19 games above as tiles of text, each with a running clock.

use criterion::{criterion_group, criterion_main, Criterion};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use goref::bot::Engine;
use goref::ui::hall::{draw, BoardGame, HallState, HallView};
use goref::ui::{render, Role, Theme, UiState};
use goref_core::game::board::{Board, BoardRules, KoRule};
use goref_core::game::clock::{ClockReading, TimeSystem};
use goref_core::game::{Color, Move};
use goref_core::protocol::sgmp::link::{Direction, TraceEntry};
use goref_core::referee::event::{GameStart, LineDirection, Phase, PlayerInfo};
use goref_core::referee::{GameEvent, GameView, StampedEvent};
use goref_core::tournament::hall::{BoardPicture, EventPicture, Stage};
use std::sync::Arc;

fn clock(main_left_ms: u64, running: bool) -> ClockReading {
    ClockReading {
        main_left_ms,
        period_left_ms: Some(30_000),
        periods_left: Some(3),
        stones_left: None,
        in_overtime: false,
        running,
        flagged: false,
        used_ms: 0,
        last_move_ms: 1_500,
        wall_ms: None,
    }
}

/// A long game on a GMP line against a GTP engine: `moves` moves on
/// `size`x`size`.
fn busy_view(size: u8, moves: u32) -> GameView {
    let start = GameStart {
        size,
        komi: 7.5,
        rules: "kgs".into(),
        ruleset: "Chinese".into(),
        time: "byoyomi:30m,30s,3".into(),
        handicap: vec![],
        black: PlayerInfo {
            name: "Many Faces".into(),
            protocol: "sgmp".into(),
            ..PlayerInfo::default()
        },
        white: PlayerInfo {
            name: "GNU Go".into(),
            version: "3.8".into(),
            protocol: "gtp".into(),
            ..PlayerInfo::default()
        },
        first_to_move: Color::Black,
        time_settings: TimeSystem::ByoYomi {
            main: std::time::Duration::from_secs(1800),
            period: std::time::Duration::from_secs(30),
            periods: 3,
        }
        .into(),
        limits: Default::default(),
        ko: None,
        suicide_allowed: false,
        folder: None,
        published: None,
    };
    let mut events = vec![
        GameEvent::GameStart(Box::new(start)),
        GameEvent::Phase {
            phase: Phase::Play,
            reason: "both players are ready".into(),
        },
    ];
    let mut engine = Engine::new(size, 7).unwrap();
    let rules = BoardRules {
        ko: KoRule::PositionalSuperko,
        suicide_allowed: false,
    };
    let mut board = Board::new(size, rules).unwrap();
    for n in 1..=moves {
        let color = board.to_move();
        let mv = engine.genmove(color);
        let captures = match mv {
            Move::Play(point) => board.play(color, point).unwrap_or_default(),
            _ => {
                let _ = board.pass(color);
                Vec::new()
            }
        };
        for _ in 0..3 {
            events.push(GameEvent::Gtp {
                color: Color::White,
                direction: LineDirection::Received,
                line: format!("= {mv} and some engine chatter about the position"),
            });
            events.push(GameEvent::Packet {
                color: Color::Black,
                wire_ms: Some(16.7),
                entry: TraceEntry {
                    direction: Direction::In,
                    hex: "01:8d:d4:b8".into(),
                    meaning: format!("MOVE {} {mv}", color.letter()),
                    flags: vec![],
                    note: None,
                },
            });
        }
        events.push(GameEvent::Move {
            n,
            color,
            vertex: mv.to_string(),
            ms: 1_500,
            captures: captures.iter().map(|p| p.to_gtp()).collect(),
            clock: clock(1_000_000, false),
            referee_us: None,
            net_ms: None,
            opening: false,
        });
    }
    events.push(GameEvent::Clock {
        color: Color::Black,
        clock: clock(900_000, true),
    });
    let mut view = GameView::new();
    for (i, event) in events.into_iter().enumerate() {
        view.apply_stamped(&StampedEvent {
            seq: i as u64 + 1,
            t_ms: 100 * i as u64,
            after_result: false,
            event,
        });
    }
    view
}

fn frame(c: &mut Criterion) {
    let view = busy_view(19, 240);
    assert!(view.moves.len() >= 200, "{} moves", view.moves.len());
    let mut state = UiState::new(Role::Operator);
    state.now_t_ms = view.last_t_ms + 1_234;
    let theme = Theme::default();
    let area = Rect::new(0, 0, 200, 60);
    c.bench_function("frame 200x60, 19x19, full trace", |b| {
        b.iter(|| {
            let mut buf = Buffer::empty(area);
            render(area, &mut buf, &view, &state, &theme);
            buf
        })
    });
    let mut previous = Buffer::empty(area);
    render(area, &mut previous, &view, &state, &theme);
    c.bench_function("frame 200x60 and its diff (a clock second turned)", |b| {
        b.iter(|| {
            state.now_t_ms += 1_000;
            let mut buf = Buffer::empty(area);
            render(area, &mut buf, &view, &state, &theme);
            let changed = previous.diff(&buf).len();
            previous = buf;
            changed
        })
    });
}

/// A round of 16 boards, each `view`, every one followed.
fn hall_of(view: &GameView) -> HallView {
    let shared = Arc::new(view.clone());
    let boards = (1..=16)
        .map(|board| BoardPicture {
            board,
            black: format!("entrant {board}"),
            white: format!("entrant {}", board + 16),
            dir: Some(format!("round-3/board-{board}")),
            playing: true,
            result: None,
            reason: None,
            needs_director: None,
            label: None,
        })
        .collect();
    let mut hall = HallView {
        picture: EventPicture {
            name: "Cup".into(),
            rounds: 5,
            round: 3,
            stage: Stage::Playing,
            boards,
            ..EventPicture::default()
        },
        ..HallView::default()
    };
    let now = std::time::Instant::now();
    for board in 1..=16 {
        let game = BoardGame {
            view: shared.clone(),
            clock: Some((now, view.last_t_ms as f64)),
            ..BoardGame::default()
        };
        hall.games.insert(board, game);
    }
    hall
}

fn hall_frame(c: &mut Criterion) {
    let theme = Theme::default();
    let area = Rect::new(0, 0, 200, 60);
    for (name, view) in [
        (
            "hall 200x60, 16 boards of 9x9 with their small boards",
            busy_view(9, 50),
        ),
        ("hall 200x60, 16 boards of 19x19", busy_view(19, 240)),
    ] {
        let hall = hall_of(&view);
        let mut state = HallState::new(true);
        let now = std::time::Instant::now();
        c.bench_function(name, |b| {
            b.iter(|| {
                let mut buf = Buffer::empty(area);
                draw(area, &mut buf, &hall, &mut state, &theme, now);
                buf
            })
        });
    }
}

criterion_group!(benches, frame, hall_frame);
criterion_main!(benches);
