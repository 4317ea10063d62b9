//! The hall drawn at 80x24 and 200x60, and its keys: every board of a
//! six-board round as a tile, a board that needs the director marked and
//! sorted first, at least eight boards' lines at 80x24 with the rest
//! scrolled, small boards when the tiles have room, and the pairing
//! answered only once confirmed.

use std::sync::Arc;
use std::time::Instant;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::keys::{handle, HallEffect};
use super::{draw, BoardGame, HallKind, HallState, HallView, Mode};
use crate::test_support::{buffer_lines, game_start};
use crate::ui::keys::Key;
use crate::ui::Theme;
use goref_core::game::clock::ClockReading;
use goref_core::game::Color::{Black, White};
use goref_core::referee::event::{GameEvent, SessionChange, StampedEvent};
use goref_core::referee::{GameView, Phase};
use goref_core::tournament::hall::{BoardPicture, EventPicture, Stage};

fn clock(main_left_ms: u64, running: bool) -> ClockReading {
    ClockReading {
        main_left_ms,
        period_left_ms: None,
        periods_left: None,
        stones_left: None,
        in_overtime: false,
        running,
        flagged: false,
        used_ms: 600_000 - main_left_ms,
        last_move_ms: 1_000,
        wall_ms: None,
    }
}

/// A 9x9 game of board `n`, `n + 2` moves in.
fn game(n: u32) -> GameView {
    let mut view = GameView::new();
    let mut start = game_start(9, &[], Black);
    start.time = "absolute:10m".into();
    let mut seq = 0;
    let mut apply = |view: &mut GameView, event: GameEvent| {
        seq += 1;
        view.apply_stamped(&StampedEvent {
            seq,
            t_ms: seq * 1000,
            after_result: false,
            event,
        });
    };
    apply(&mut view, GameEvent::GameStart(Box::new(start)));
    let play = GameEvent::Phase {
        phase: Phase::Play,
        reason: "both players are ready".into(),
    };
    apply(&mut view, play);
    let vertices = ["E5", "C3", "G7", "C7", "G3", "E3", "E7", "A1", "J9", "B2"];
    for (i, vertex) in vertices.iter().take(n as usize + 2).enumerate() {
        let color = if i % 2 == 0 { Black } else { White };
        let event = GameEvent::Move {
            n: i as u32 + 1,
            color,
            vertex: vertex.to_string(),
            ms: 1_000,
            captures: Vec::new(),
            clock: clock(590_000 - 1_000 * i as u64, false),
            referee_us: None,
            net_ms: None,
            opening: false,
        };
        apply(&mut view, event);
    }
    view
}

fn board(n: u32) -> BoardPicture {
    BoardPicture {
        board: n,
        black: format!("black{n}"),
        white: format!("white{n}"),
        dir: Some(format!("round-1/board-{n}")),
        playing: true,
        result: None,
        reason: None,
        needs_director: None,
        label: None,
    }
}

/// A round of `boards` boards, each followed.
fn hall(boards: u32) -> HallView {
    let mut hall = HallView {
        picture: EventPicture {
            name: "Cup".into(),
            rounds: 3,
            round: 1,
            stage: Stage::Playing,
            boards: (1..=boards).map(board).collect(),
            ..EventPicture::default()
        },
        ..HallView::default()
    };
    for n in 1..=boards {
        let game = BoardGame {
            view: Arc::new(game(n % 8)),
            ..BoardGame::default()
        };
        hall.games.insert(n, game);
    }
    hall
}

/// Board `n`'s program crashed: an alert.
fn crash(hall: &mut HallView, n: u32) {
    let error = GameEvent::Error {
        color: Some(White),
        message: "the engine exited with status 3".into(),
        fatal: false,
    };
    apply(hall, n, error);
}

/// The next event of board `n`'s stream.
fn apply(hall: &mut HallView, n: u32, event: GameEvent) {
    let game = hall.games.get_mut(&n).unwrap();
    let mut view = (*game.view).clone();
    let seq = view.last_seq + 1;
    view.apply_stamped(&StampedEvent {
        seq,
        t_ms: seq * 1000,
        after_result: false,
        event,
    });
    game.view = Arc::new(view);
}

fn drawn(hall: &HallView, state: &mut HallState, width: u16, height: u16) -> Vec<String> {
    let area = Rect::new(0, 0, width, height);
    let mut buf = Buffer::empty(area);
    draw(
        area,
        &mut buf,
        hall,
        state,
        &Theme::default(),
        Instant::now(),
    );
    buffer_lines(&buf)
}

#[test]
fn six_boards_are_six_tiles_at_80x24_with_names_clocks_and_moves() {
    let hall = hall(6);
    let lines = drawn(&hall, &mut HallState::new(true), 80, 24);
    let screen = lines.join("\n");
    assert!(
        lines[0].starts_with("Cup | round 1 of 3 | 6 boards: 6 playing"),
        "{screen}"
    );
    for n in 1..=6 {
        assert!(
            screen.contains(&format!("board {n} ")),
            "board {n}:\n{screen}"
        );
        assert!(screen.contains(&format!("● black{n}")), "{screen}");
        assert!(screen.contains(&format!("○ white{n}")), "{screen}");
    }
    assert!(screen.contains("move 3: B G7"), "{screen}");
    assert!(
        screen.contains("9:48"),
        "Black's clock after the third move:\n{screen}"
    );
    assert!(screen.contains("playing"), "{screen}");
    assert!(lines[23].contains("enter open"), "{screen}");
}

#[test]
fn a_board_that_needs_the_director_is_marked_sorted_first_and_named_on_the_hint_bar() {
    let mut hall = hall(6);
    crash(&mut hall, 4);
    let mut state = HallState::new(true);
    assert_eq!(hall.order(&state), [4, 1, 2, 3, 5, 6]);
    let lines = drawn(&hall, &mut state, 80, 24);
    let screen = lines.join("\n");
    assert!(lines[1].contains("! board 4"), "the first tile:\n{screen}");
    assert!(screen.contains("1 need you"), "{screen}");
    assert!(
        lines[23].starts_with("! board 4 needs you: White: the engine exited"),
        "{screen}"
    );
    state
        .seen
        .insert(4, hall.games[&4].view.alerts.back().unwrap().n);
    assert_eq!(
        hall.order(&state),
        [1, 2, 3, 4, 5, 6],
        "seen, it sorts back"
    );
    let seen = drawn(&hall, &mut state, 80, 24).join("\n");
    assert!(!seen.contains("! board 4"), "{seen}");
}

#[test]
fn at_80x24_at_least_eight_boards_show_and_the_rest_scroll_to_the_selection() {
    let hall = hall(12);
    let mut state = HallState::new(true);
    let lines = drawn(&hall, &mut state, 80, 24);
    let screen = lines.join("\n");
    let shown: Vec<u32> = (1..=12)
        .filter(|n| screen.contains(&format!("● black{n} ")))
        .collect();
    assert!(shown.len() >= 8, "{shown:?}\n{screen}");
    assert!(screen.contains("of 12 boards"), "{screen}");
    for _ in 0..11 {
        handle(Key::Down, &hall, &mut state, 1);
    }
    assert_eq!(state.selected, Some(12));
    let scrolled = drawn(&hall, &mut state, 80, 24).join("\n");
    assert!(scrolled.contains(">  12"), "{scrolled}");
    assert!(!scrolled.contains("● black1 "), "{scrolled}");
    for line in drawn(&hall, &mut state, 80, 24) {
        assert!(line.chars().count() <= 80, "{line}");
    }
}

#[test]
fn sixteen_boards_at_200x60_are_tiles_each_with_its_small_board() {
    let hall = hall(16);
    let mut state = HallState::new(true);
    let lines = drawn(&hall, &mut state, 200, 60);
    let screen = lines.join("\n");
    for n in 1..=16 {
        assert!(
            screen.contains(&format!("board {n} ")),
            "board {n}:\n{screen}"
        );
    }
    let small_boards = lines.iter().filter(|l| l.contains("·●·")).count()
        + lines.iter().filter(|l| l.contains("○")).count();
    assert!(small_boards > 0, "{screen}");
    let with_stones = lines.iter().filter(|l| l.matches('·').count() >= 8).count();
    assert!(with_stones >= 16, "rows of small boards:\n{screen}");
}

#[test]
fn a_board_number_then_enter_opens_it_and_an_unknown_one_says_so() {
    let hall = hall(6);
    let mut state = HallState::new(true);
    assert!(handle(Key::Char('4'), &hall, &mut state, 2).is_empty());
    assert_eq!(
        handle(Key::Enter, &hall, &mut state, 2),
        [HallEffect::Open(4)]
    );
    handle(Key::Char('9'), &hall, &mut state, 2);
    assert!(handle(Key::Enter, &hall, &mut state, 2).is_empty());
    assert_eq!(state.message.as_deref(), Some("round 1 has no board 9"));
    handle(Key::Char('s'), &hall, &mut state, 2);
    assert_eq!(state.mode, Mode::Standings);
    handle(Key::Esc, &hall, &mut state, 2);
    assert_eq!(state.mode, Mode::Boards);
    assert_eq!(
        handle(Key::Char('q'), &hall, &mut state, 2),
        [HallEffect::Quit]
    );
}

#[test]
fn a_pairing_change_is_sent_only_once_confirmed_and_y_starts_the_round() {
    let mut hall = hall(2);
    hall.picture.stage = Stage::Pairing {
        round: 2,
        boards: vec![board(1), board(2)],
        byes: Vec::new(),
        rematches: vec![2],
        notes: vec![
            "board 2: black2 and white2 met in round 1: a rematch".into(),
            "board 1: gnugo-line plays White on /dev/ttyS0: set it to White; but /dev/ttyS0: \
             no such device: connect it, then start the board again (t on the hall)"
                .into(),
        ],
    };
    let mut state = HallState::new(true);
    let screen = drawn(&hall, &mut state, 80, 24).join("\n");
    assert!(
        screen.contains("set it to White; but")
            && screen.contains("        /dev/ttyS0: no such device: connect it"),
        "a long note is wrapped, not cut: {screen}"
    );
    assert!(screen.contains("round 2 of 3, proposed:"), "{screen}");
    assert!(
        screen.contains("board  2  black2 (B) - white2 (W)  (rematch)"),
        "{screen}"
    );
    assert!(
        screen.contains("note: board 2: black2 and white2 met in round 1"),
        "{screen}"
    );
    assert!(screen.contains("y start  c swap"), "{screen}");
    handle(Key::Char('c'), &hall, &mut state, 1);
    for key in [Key::Char('2'), Key::Enter] {
        assert!(handle(key, &hall, &mut state, 1).is_empty());
    }
    assert_eq!(state.confirm.as_ref().unwrap().0, "swap 2?");
    assert!(handle(Key::Char('n'), &hall, &mut state, 1).is_empty());
    assert_eq!(state.message.as_deref(), Some("nothing changed"));
    handle(Key::Char('r'), &hall, &mut state, 1);
    assert_eq!(
        handle(Key::Char('y'), &hall, &mut state, 1),
        [HallEffect::Answer("repair".into())]
    );
    assert_eq!(
        handle(Key::Char('y'), &hall, &mut state, 1),
        [HallEffect::Answer("y".into())]
    );
}

#[test]
fn a_result_for_a_board_needs_a_valid_result_and_a_reason() {
    let hall = hall(3);
    let mut state = HallState::new(true);
    state.selected = Some(3);
    handle(Key::Char('R'), &hall, &mut state, 1);
    for c in "B+X".chars() {
        handle(Key::Char(c), &hall, &mut state, 1);
    }
    handle(Key::Enter, &hall, &mut state, 1);
    assert!(state.confirm.is_none());
    assert!(state.message.is_some(), "an unreadable result is refused");
    let input = state.input.as_mut().unwrap();
    input.text = "W+F".into();
    handle(Key::Enter, &hall, &mut state, 1);
    assert!(state.message.as_deref().unwrap().contains("say why"));
    state.input.as_mut().unwrap().text = "W+F black's program hangs".into();
    handle(Key::Enter, &hall, &mut state, 1);
    assert_eq!(
        handle(Key::Char('y'), &hall, &mut state, 1),
        [HallEffect::SetResult {
            board: 3,
            result: "W+F".into(),
            reason: "black's program hangs".into(),
            replace: false,
        }]
    );
}

#[test]
fn a_spectator_has_no_director_keys() {
    let mut hall = hall(2);
    hall.picture.stage = Stage::Pairing {
        round: 2,
        boards: vec![board(1)],
        byes: Vec::new(),
        rematches: Vec::new(),
        notes: Vec::new(),
    };
    let mut state = HallState::new(false);
    assert!(handle(Key::Char('y'), &hall, &mut state, 1).is_empty());
    assert!(handle(Key::Char('R'), &hall, &mut state, 1).is_empty());
    assert!(state.input.is_none());
}

#[test]
fn a_result_over_a_boards_own_says_what_it_overrides_and_asks_first() {
    let mut hall = hall(2);
    hall.picture.boards[1].result = Some("W+R".into());
    let mut state = HallState::new(true);
    state.selected = Some(2);
    handle(Key::Char('R'), &hall, &mut state, 1);
    assert!(state
        .input
        .as_ref()
        .unwrap()
        .label
        .contains("board 2 has W+R"));
    state.input.as_mut().unwrap().text = "B+R the judge found an illegal move".into();
    handle(Key::Enter, &hall, &mut state, 1);
    let question = &state.confirm.as_ref().unwrap().0;
    assert!(
        question.starts_with("override board 2's W+R with B+R"),
        "{question}"
    );
    assert_eq!(
        handle(Key::Char('y'), &hall, &mut state, 1),
        [HallEffect::SetResult {
            board: 2,
            result: "B+R".into(),
            reason: "the judge found an illegal move".into(),
            replace: true,
        }]
    );
}

#[test]
fn question_mark_shows_the_halls_keys_and_closes_them_again() {
    let hall = hall(2);
    let mut state = HallState::new(true);
    let boards = drawn(&hall, &mut state, 80, 24);
    assert!(boards.last().unwrap().contains("? help"), "{boards:#?}");
    handle(Key::Char('?'), &hall, &mut state, 1);
    assert_eq!(state.mode, Mode::Help);
    let help = drawn(&hall, &mut state, 80, 24).join("\n");
    assert!(help.contains("the hall's keys"), "{help}");
    assert!(help.contains("between rounds"), "{help}");
    assert!(help.contains("q or esc: the hall"), "{help}");
    assert!(help.lines().all(|l| l.chars().count() <= 80));
    handle(Key::Esc, &hall, &mut state, 1);
    assert_eq!(state.mode, Mode::Boards);
    let mut spectator = HallState::new(false);
    handle(Key::Char('?'), &hall, &mut spectator, 1);
    let theirs = drawn(&hall, &mut spectator, 80, 24).join("\n");
    assert!(
        theirs.contains("a result for the selected board (the director)"),
        "{theirs}"
    );
}

#[test]
fn a_matchs_and_a_workers_tiles_list_their_own_keys_not_the_directors() {
    for (kind, title) in [
        (HallKind::Match, "the match's keys"),
        (HallKind::Worker, "the worker's keys"),
    ] {
        let mut tiles = hall(2);
        tiles.kind = kind;
        let mut state = HallState::new(true);
        let boards = drawn(&tiles, &mut state, 80, 24);
        let hint = boards.last().unwrap();
        assert!(
            !hint.contains("R result") && !hint.contains("t retry"),
            "{hint}"
        );
        handle(Key::Char('?'), &tiles, &mut state, 1);
        let help = drawn(&tiles, &mut state, 80, 24).join("\n");
        assert!(help.contains(title), "{help}");
        for directors in [
            "between rounds",
            "a result for the selected board",
            "(its line failed)",
        ] {
            assert!(!help.contains(directors), "{kind:?}: {help}");
        }
        handle(Key::Esc, &tiles, &mut state, 1);
        if kind == HallKind::Worker {
            handle(Key::Char('s'), &tiles, &mut state, 1);
            assert_eq!(state.mode, Mode::Boards, "a worker has no standings");
        }
    }
}

#[test]
fn q_on_a_worker_with_games_in_play_asks_first_and_on_an_idle_one_quits() {
    let mut tiles = hall(2);
    tiles.kind = HallKind::Worker;
    let mut state = HallState::new(true);
    assert!(handle(Key::Char('q'), &tiles, &mut state, 1).is_empty());
    let hint = drawn(&tiles, &mut state, 80, 24).last().unwrap().clone();
    assert!(
        hint.contains("stop the worker? its 2 games in play stop"),
        "{hint}"
    );
    assert!(handle(Key::Char('n'), &tiles, &mut state, 1).is_empty());
    handle(Key::Char('q'), &tiles, &mut state, 1);
    assert_eq!(
        handle(Key::Char('y'), &tiles, &mut state, 1),
        vec![HallEffect::Quit]
    );
    tiles.picture.boards.clear();
    tiles.games.clear();
    assert_eq!(
        handle(Key::Char('q'), &tiles, &mut state, 1),
        vec![HallEffect::Quit],
        "nothing in play: q quits"
    );
}

#[test]
fn a_tile_draws_no_board_before_its_game_starts_and_its_own_size_after() {
    let mut tiles = hall(1);
    tiles.games.insert(1, BoardGame::default());
    let mut state = HallState::new(true);
    let waiting = drawn(&tiles, &mut state, 80, 24).join("\n");
    assert!(
        !waiting.contains('·'),
        "no 19x19 grid for a game not begun:\n{waiting}"
    );
    let started = hall(1);
    let playing = drawn(&started, &mut state, 80, 24);
    let grid_rows = playing.iter().filter(|l| l.contains('·')).count();
    assert_eq!(grid_rows, 9, "a 9x9 game's 9 rows:\n{}", playing.join("\n"));
}

#[test]
fn a_stale_game_is_marked_in_the_list_and_not_counted_playing() {
    let mut hall = hall(3);
    if let Some(game) = hall.games.get_mut(&2) {
        game.trouble = Some("stale: nothing heard for 16s".into());
        game.stale = true;
    }
    let mut state = HallState::new(true);
    let lines = drawn(&hall, &mut state, 80, 24);
    assert!(
        lines[0].contains("3 boards: 2 playing, 0 over, 1 stale"),
        "{}",
        lines.join("\n")
    );
    let marked: Vec<&String> = lines.iter().filter(|l| l.contains("? stale")).collect();
    assert_eq!(marked.len(), 1, "{}", lines.join("\n"));
}

#[test]
fn the_title_counts_one_board_and_fits_80_columns_keeping_its_end() {
    let mut hall = hall(1);
    let mut state = HallState::new(true);
    let title = drawn(&hall, &mut state, 80, 24)[0].clone();
    assert!(title.contains("| 1 board: 1 playing, 0 over |"), "{title}");
    hall.picture.name =
        "The 2026 Computer Go Championship of the Northern Hemisphere, day two".into();
    hall.picture.stage = Stage::Over {
        standings_html: "standings.html".into(),
    };
    let title = drawn(&hall, &mut state, 80, 24)[0].trim_end().to_string();
    assert!(title.chars().count() <= 80, "{title}");
    assert!(title.ends_with("| the event is over"), "{title}");
    assert!(title.starts_with("The 2026 Computer Go"), "{title}");
}

#[test]
fn the_directors_title_says_where_the_hall_is_served_and_how_many_watch() {
    let mut hall = hall(2);
    hall.serving = Some("serving :7777".into());
    hall.watching = Some(3);
    let mut state = HallState::new(true);
    let title = drawn(&hall, &mut state, 80, 24)[0].trim_end().to_string();
    assert_eq!(
        title,
        "Cup | round 1 of 3 | 2 playing, 0 over | serving :7777 | 3 watching | playing"
    );
    hall.serving = Some("serving :7777, web :8080, nats://broker.example.org:4222/cup".into());
    let title = drawn(&hall, &mut state, 80, 24)[0].trim_end().to_string();
    assert!(title.contains("| served | 3 watching | playing"), "{title}");
    let mut watcher = HallState::new(false);
    let theirs = drawn(&hall, &mut watcher, 80, 24)[0].clone();
    assert!(
        !theirs.contains("serv"),
        "a spectator's title does not: {theirs}"
    );
}

#[test]
fn the_standings_say_what_they_count() {
    let mut hall = hall(2);
    hall.picture.round = 0;
    hall.picture.boards.clear();
    let mut state = HallState::new(true);
    state.mode = Mode::Standings;
    let before = drawn(&hall, &mut state, 80, 24).join("\n");
    assert!(before.contains("standings before round 1"), "{before}");
    let mut hall = self::hall(2);
    hall.picture.round = 2;
    let during = drawn(&hall, &mut state, 80, 24).join("\n");
    assert!(
        during.contains("standings, round 2 in play: its finished games counted"),
        "{during}"
    );
    for board in &mut hall.picture.boards {
        board.result = Some("B+R".into());
    }
    let after = drawn(&hall, &mut state, 80, 24).join("\n");
    assert!(after.contains("standings after round 2"), "{after}");
}

#[test]
fn t_starts_again_a_board_whose_game_never_started_once_confirmed() {
    let mut hall = hall(2);
    hall.picture.boards[1].needs_director =
        Some("its game never started: White: cannot open /dev/ttyS0".into());
    let mut state = HallState::new(true);
    state.selected = Some(1);
    assert!(handle(Key::Char('t'), &hall, &mut state, 2).is_empty());
    assert!(
        state
            .message
            .as_deref()
            .unwrap()
            .contains("board 1 needs no retry"),
        "{:?}",
        state.message
    );
    state.selected = Some(2);
    assert!(handle(Key::Char('t'), &hall, &mut state, 2).is_empty());
    let (question, _) = state.confirm.clone().expect("asks first");
    assert!(
        question.starts_with("start board 2 again (its game never started"),
        "{question}"
    );
    assert_eq!(
        handle(Key::Char('y'), &hall, &mut state, 2),
        [HallEffect::Retry(2)]
    );
    let mut watcher = HallState::new(false);
    watcher.selected = Some(2);
    assert!(handle(Key::Char('t'), &hall, &mut watcher, 2).is_empty());
    assert!(watcher.confirm.is_none(), "a spectator cannot");
}

#[test]
fn t_starts_again_a_board_whose_game_waits_for_an_absent_seat() {
    let mut hall = hall(2);
    let mut waiting = GameView::new();
    waiting.apply(&GameEvent::Session {
        what: SessionChange::SeatAbsent,
        color: Some(White),
        message: "White's seat is absent".into(),
        down_ms: None,
    });
    hall.games.get_mut(&1).unwrap().view = Arc::new(waiting);
    let mut state = HallState::new(true);
    state.selected = Some(1);
    assert!(handle(Key::Char('t'), &hall, &mut state, 2).is_empty());
    let (question, _) = state.confirm.clone().expect("asks first");
    assert!(
        question.starts_with("start board 1 again (its game waits for White's absent seat"),
        "{question}"
    );
    assert_eq!(
        handle(Key::Char('y'), &hall, &mut state, 2),
        [HallEffect::Retry(1)]
    );
    state.selected = Some(2);
    assert!(handle(Key::Char('t'), &hall, &mut state, 2).is_empty());
    assert!(
        state.confirm.is_none(),
        "a game under way is not started again"
    );
}

#[test]
fn shift_s_shows_each_seat_connected_or_absent_with_its_round_trip_and_program() {
    use goref_core::tournament::hall::SeatPicture;
    let mut hall = hall(2);
    let mut state = HallState::new(true);
    handle(Key::Char('S'), &hall, &mut state, 2);
    assert_eq!(state.mode, Mode::Boards, "no seats, no seats view");
    hall.picture.seats = vec![
        SeatPicture {
            entrant: "alpha".into(),
            connected: true,
            since: Some("04:21 UTC".into()),
            rtt_ms: Some(38),
            program: Some("GNU Go 3.8".into()),
            client: Some("goref-seat 0.1.0".into()),
            card: Some("ready, 1 warning".into()),
            checking: false,
        },
        SeatPicture {
            entrant: "beta".into(),
            connected: false,
            since: Some("04:30 UTC".into()),
            ..SeatPicture::default()
        },
        SeatPicture {
            entrant: "gamma".into(),
            ..SeatPicture::default()
        },
    ];
    handle(Key::Char('S'), &hall, &mut state, 2);
    assert_eq!(state.mode, Mode::Seats);
    let lines = drawn(&hall, &mut state, 80, 24);
    let screen = lines.join("\n");
    assert!(screen.contains("seats: 1 of 3 connected"), "{screen}");
    let alpha = lines.iter().find(|l| l.starts_with("alpha")).unwrap();
    assert!(alpha.contains("connected since 04:21 UTC"), "{alpha}");
    assert!(alpha.contains("rtt 38 ms") && alpha.contains("GNU Go 3.8 (goref-seat 0.1.0)"));
    assert!(
        screen.contains("\n       card: ready, 1 warning\n"),
        "{screen}"
    );
    assert!(screen.contains("beta   ABSENT since 04:30 UTC"), "{screen}");
    assert!(
        screen.contains("gamma  absent: never connected"),
        "{screen}"
    );
    assert!(lines.iter().all(|l| l.chars().count() <= 80));
    handle(Key::Esc, &hall, &mut state, 2);
    assert_eq!(state.mode, Mode::Boards);
}

#[test]
fn a_tile_says_whose_seat_is_absent_until_it_comes() {
    let mut hall = hall(2);
    let session = |what: SessionChange| GameEvent::Session {
        what,
        color: Some(White),
        message: "white2's seat".into(),
        down_ms: None,
    };
    apply(&mut hall, 2, session(SessionChange::SeatLost));
    let screen = drawn(&hall, &mut HallState::new(true), 80, 24).join("\n");
    assert!(screen.contains("○ white2 absent"), "{screen}");
    assert!(!screen.contains("white1 absent"), "{screen}");
    apply(&mut hall, 2, session(SessionChange::SeatBack));
    let screen = drawn(&hall, &mut HallState::new(true), 80, 24).join("\n");
    assert!(!screen.contains("absent"), "{screen}");
}

#[test]
fn a_tile_shows_blacks_chance_as_its_programs_see_it() {
    let mut hall = hall(6);
    let analysed = |n: u32, color, winrate: f64, black: f64| GameEvent::Analysis {
        n,
        color,
        winrate,
        black_winrate: black,
        score_lead: None,
        visits: 100,
        pv: Vec::new(),
    };
    let moves = game(2).moves.len() as u32;
    apply(&mut hall, 2, analysed(moves - 1, Black, 0.7, 0.7));
    apply(&mut hall, 2, analysed(moves, White, 0.6, 0.4));
    let screen = drawn(&hall, &mut HallState::new(true), 80, 24).join("\n");
    let bars: Vec<&str> = screen.lines().filter(|l| l.contains("B █")).collect();
    assert_eq!(bars.len(), 1, "board 2 alone has analysis:\n{screen}");
    assert!(
        bars[0].contains(" 40%≠"),
        "Black's chance, and both think they win: {screen}"
    );
}
