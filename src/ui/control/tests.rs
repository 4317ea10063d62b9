//! Tests of what keys do: chords, risky commands with their reason and
//! confirmation, typed moves checked as they are typed, the board cursor,
//! and a spectator whose keys never reach the game.

use super::*;
use crate::test_support::game_start;
use goref_core::referee::event::GameEvent;
use goref_core::referee::Phase;

fn view(phase: Phase) -> GameView {
    let mut view = GameView::new();
    view.apply(&GameEvent::GameStart(Box::new(game_start(
        9,
        &[],
        Color::Black,
    ))));
    view.apply(&GameEvent::Phase {
        phase,
        reason: "test".into(),
    });
    view
}

const PANES: &[PaneId] = &[PaneId::Board, PaneId::Clocks, PaneId::Trace, PaneId::Moves];

fn press(keys: &str, view: &GameView, state: &mut UiState) -> Vec<Effect> {
    let mut effects = Vec::new();
    for name in keys.split_whitespace() {
        let key = match name {
            "SPACE" => Key::Char(' '),
            name => name.parse().unwrap(),
        };
        effects.extend(handle_key(key, view, state, PANES, 10));
    }
    effects
}

fn type_text(text: &str, view: &GameView, state: &mut UiState) {
    for c in text.chars() {
        handle_key(Key::Char(c), view, state, PANES, 10);
    }
}

#[test]
fn resigning_for_a_side_asks_a_reason_then_a_confirmation() {
    let view = view(Phase::Play);
    let mut state = UiState::new(Role::Operator);
    assert!(press("r w", &view, &mut state).is_empty());
    assert!(matches!(
        state.input.as_ref().map(|i| &i.purpose),
        Some(InputPurpose::Reason(RiskyCommand::Resign(Color::White)))
    ));
    type_text("lost on board", &view, &mut state);
    assert!(press("enter", &view, &mut state).is_empty());
    assert!(state.confirm.is_some());
    assert_eq!(
        press("y", &view, &mut state),
        [Effect::Operator(OperatorCommand::Resign {
            color: Color::White,
            reason: "lost on board".into()
        })]
    );
    assert!(state.confirm.is_none() && state.input.is_none());
}

#[test]
fn any_key_but_y_cancels_a_risky_command() {
    let view = view(Phase::Play);
    let mut state = UiState::new(Role::Operator);
    press("v", &view, &mut state);
    type_text("power cut", &view, &mut state);
    press("enter", &view, &mut state);
    assert!(press("n", &view, &mut state).is_empty());
    assert_eq!(state.message.as_deref(), Some("cancelled"));
    assert!(state.confirm.is_none());
}

#[test]
fn an_adjudication_takes_a_result_in_sgf_form_then_a_reason() {
    let view = view(Phase::Adjudication);
    let mut state = UiState::new(Role::Operator);
    press("a", &view, &mut state);
    type_text("B+lots", &view, &mut state);
    assert!(
        state.input.as_ref().unwrap().problem.is_some(),
        "checked as typed"
    );
    press("enter", &view, &mut state);
    assert!(matches!(
        state.input.as_ref().map(|i| &i.purpose),
        Some(InputPurpose::Result)
    ));
    for _ in 0.."lots".len() {
        press("backspace", &view, &mut state);
    }
    type_text("3.5", &view, &mut state);
    assert_eq!(state.input.as_ref().unwrap().problem, None);
    press("enter", &view, &mut state);
    type_text("seki counted by hand", &view, &mut state);
    press("enter", &view, &mut state);
    assert_eq!(
        press("y", &view, &mut state),
        [Effect::Operator(OperatorCommand::Adjudicate {
            result: "B+3.5".into(),
            reason: "seki counted by hand".into()
        })]
    );
}

#[test]
fn a_clock_adjustment_is_read_then_confirmed() {
    let view = view(Phase::Play);
    let mut state = UiState::new(Role::Operator);
    press("c b", &view, &mut state);
    type_text("-1m", &view, &mut state);
    press("enter", &view, &mut state);
    type_text("penalty", &view, &mut state);
    press("enter", &view, &mut state);
    assert_eq!(
        press("y", &view, &mut state),
        [Effect::Operator(OperatorCommand::AdjustClock {
            color: Color::Black,
            delta_ms: -60_000,
            reason: "penalty".into()
        })]
    );
}

#[test]
fn a_typed_move_is_checked_against_the_board_before_it_is_sent() {
    let mut view = view(Phase::Play);
    view.players[0].protocol = "human".into();
    view.apply(&GameEvent::Move {
        n: 1,
        color: Color::White,
        vertex: "E5".into(),
        ms: 0,
        captures: vec![],
        clock: crate::test_support::clock_reading(0),
        referee_us: None,
        net_ms: None,
        opening: false,
    });
    let mut state = UiState::new(Role::Operator);
    follow_game(&view, &mut state);
    assert!(
        matches!(
            state.input.as_ref().map(|i| &i.purpose),
            Some(InputPurpose::Move(Color::Black))
        ),
        "the typed player's turn opens the move box"
    );
    type_text("e", &view, &mut state);
    assert_eq!(
        state.input.as_ref().unwrap().problem,
        None,
        "E on the way to E5 is no mistake"
    );
    type_text("5", &view, &mut state);
    assert_eq!(
        state.input.as_ref().unwrap().problem.as_deref(),
        Some("E5 is occupied")
    );
    press("backspace", &view, &mut state);
    type_text("4", &view, &mut state);
    assert_eq!(
        press("enter", &view, &mut state),
        [Effect::TypedLine("e4".into())]
    );
}

#[test]
fn the_operator_marks_a_group_with_the_cursor_while_judging() {
    let mut view = view(Phase::Play);
    view.apply(&GameEvent::Move {
        n: 1,
        color: Color::Black,
        vertex: "F6".into(),
        ms: 0,
        captures: vec![],
        clock: crate::test_support::clock_reading(0),
        referee_us: None,
        net_ms: None,
        opening: false,
    });
    view.apply(&GameEvent::Phase {
        phase: Phase::Adjudication,
        reason: "claims differ".into(),
    });
    let mut state = UiState::new(Role::Operator);
    assert_eq!(state.focus, PaneId::Board);
    assert!(press("up right", &view, &mut state).is_empty());
    assert_eq!(
        state.cursor,
        Some(Point::new(5, 5)),
        "from the centre E5 to F6"
    );
    assert_eq!(
        press("x", &view, &mut state),
        [Effect::Operator(OperatorCommand::ToggleDead(Point::new(
            5, 5
        )))]
    );
    press("left", &view, &mut state);
    assert!(press("SPACE", &view, &mut state).is_empty(), "E6 is empty");
    assert!(state.message.as_deref().unwrap().contains("empty"));
}

#[test]
fn quitting_a_game_that_is_on_voids_it_after_confirming() {
    let view = view(Phase::Play);
    let mut state = UiState::new(Role::Operator);
    assert!(press("q", &view, &mut state).is_empty());
    let effects = press("y", &view, &mut state);
    assert!(matches!(
        &effects[..],
        [Effect::Operator(OperatorCommand::Adjudicate { result, .. }), Effect::Quit] if result == "Void"
    ));
    let mut over = view.clone();
    over.result = Some(goref_core::referee::GameResult::new(
        "B+R".into(),
        "resigned".into(),
        Some(Color::Black),
        goref_core::referee::End::Resign,
    ));
    assert_eq!(press("q", &over, &mut state), [Effect::Quit]);
    assert_eq!(
        press("ctrl-c", &over, &mut state),
        [Effect::Interrupt],
        "no game to lose: ctrl-c leaves at once"
    );
}

#[test]
fn ctrl_c_on_a_game_that_is_on_asks_and_a_second_soon_after_confirms() {
    let view = view(Phase::Play);
    let mut state = UiState::new(Role::Operator);
    state.now_t_ms = 60_000;
    assert!(press("ctrl-c", &view, &mut state).is_empty(), "it asks");
    assert!(matches!(
        state.confirm,
        Some(Confirm {
            command: RiskyCommand::Interrupt,
            ..
        })
    ));
    state.now_t_ms += 1_000;
    assert_eq!(press("ctrl-c", &view, &mut state), [Effect::Interrupt]);

    assert!(press("ctrl-c", &view, &mut state).is_empty());
    assert!(
        press("x", &view, &mut state).is_empty(),
        "any other key cancels"
    );
    assert!(state.confirm.is_none());
    assert!(press("ctrl-c", &view, &mut state).is_empty());
    assert_eq!(
        press("y", &view, &mut state),
        [Effect::Interrupt],
        "y confirms"
    );

    assert!(press("ctrl-c", &view, &mut state).is_empty());
    state.now_t_ms += INTERRUPT_AGAIN_MS + 1;
    assert!(
        press("ctrl-c", &view, &mut state).is_empty(),
        "a second ctrl-c long after asks again"
    );
    assert!(state.confirm.is_some());

    let mut attached = UiState::new(Role::Operator);
    attached.detaches = true;
    assert_eq!(
        press("ctrl-c", &view, &mut attached),
        [Effect::Interrupt],
        "an attached screen leaves the game playing: nothing to ask"
    );
    let mut spectator = UiState::new(Role::Spectator);
    assert_eq!(press("ctrl-c", &view, &mut spectator), [Effect::Interrupt]);
}

#[test]
fn at_a_typed_players_turn_every_key_types_the_move_and_esc_gives_the_keys_back() {
    let mut view = view(Phase::Play);
    view.players[0].protocol = "human".into();
    let mut state = UiState::new(Role::Operator);
    assert!(
        press("q", &view, &mut state).is_empty(),
        "q is typed, not quit"
    );
    assert!(state.confirm.is_none());
    assert_eq!(state.input.as_ref().unwrap().text, "q");
    press("backspace", &view, &mut state);
    type_text("c3", &view, &mut state);
    assert_eq!(
        press("enter", &view, &mut state),
        [Effect::TypedLine("c3".into())]
    );
    press("esc", &view, &mut state);
    assert!(state.input.is_none());
    assert!(
        state
            .message
            .as_deref()
            .unwrap()
            .contains("m types the move"),
        "{:?}",
        state.message
    );
    follow_game(&view, &mut state);
    assert!(state.input.is_none(), "closed for this turn");
    assert!(press("q", &view, &mut state).is_empty());
    assert!(state.confirm.is_some(), "the keys are back: q asks to quit");
    press("n", &view, &mut state);
    press("m", &view, &mut state);
    assert!(state.input.is_some(), "m opens it again");
    press("esc", &view, &mut state);

    view.apply(&GameEvent::Move {
        n: 1,
        color: Color::Black,
        vertex: "C3".into(),
        ms: 0,
        captures: vec![],
        clock: crate::test_support::clock_reading(0),
        referee_us: None,
        net_ms: None,
        opening: false,
    });
    follow_game(&view, &mut state);
    assert!(state.input.is_none(), "White's turn: no box");
    view.to_move = Some(Color::Black);
    view.apply(&GameEvent::Move {
        n: 2,
        color: Color::White,
        vertex: "D4".into(),
        ms: 0,
        captures: vec![],
        clock: crate::test_support::clock_reading(0),
        referee_us: None,
        net_ms: None,
        opening: false,
    });
    follow_game(&view, &mut state);
    assert!(
        matches!(
            state.input.as_ref().map(|i| &i.purpose),
            Some(InputPurpose::Move(Color::Black))
        ),
        "Black's next turn opens it again: {:?}",
        view.to_move
    );
    let mut spectator = UiState::new(Role::Spectator);
    follow_game(&view, &mut spectator);
    assert!(spectator.input.is_none(), "a spectator types nothing");
}

#[test]
fn a_risky_command_without_a_reason_takes_its_default() {
    let view = view(Phase::Play);
    let mut state = UiState::new(Role::Operator);
    press("v", &view, &mut state);
    assert_eq!(press("enter", &view, &mut state), []);
    assert_eq!(
        state.confirm,
        Some(Confirm {
            command: RiskyCommand::Void,
            reason: "voided by the operator".into()
        })
    );
    assert!(matches!(
        &press("y", &view, &mut state)[..],
        [Effect::Operator(OperatorCommand::Adjudicate { result, reason })]
            if result == "Void" && reason == "voided by the operator"
    ));
}

#[test]
fn a_spectators_keys_change_only_its_own_screen() {
    let view = view(Phase::Adjudication);
    let mut state = UiState::new(Role::Spectator);
    for keys in [
        "v", "a", "r b", "c p", "x", "S", "m", "tab", "z", "?", "esc",
    ] {
        let effects = press(keys, &view, &mut state);
        assert!(effects.is_empty(), "{keys}: {effects:?}");
    }
    assert!(state.input.is_none() && state.confirm.is_none());
    assert_eq!(
        press("q", &view, &mut state),
        [Effect::Quit],
        "no game to void"
    );
}

#[test]
fn focus_zoom_help_and_alerts() {
    let mut view = view(Phase::Play);
    view.apply(&GameEvent::Error {
        color: Some(Color::White),
        message: "crashed".into(),
        fatal: true,
    });
    let mut state = UiState::new(Role::Operator);
    press("tab tab", &view, &mut state);
    assert_eq!(state.focus, PaneId::Trace);
    press("shift-tab", &view, &mut state);
    assert_eq!(state.focus, PaneId::Clocks);
    press("z", &view, &mut state);
    assert_eq!(state.zoom, Some(PaneId::Clocks));
    press("shift-tab shift-tab", &view, &mut state);
    assert_eq!(
        state.zoom,
        Some(PaneId::TimeChart),
        "zoomed, tab visits every pane, also those the layout has no room for"
    );
    press("tab tab", &view, &mut state);
    assert_eq!(state.zoom, Some(PaneId::Clocks));
    press("esc", &view, &mut state);
    assert_eq!(state.zoom, None);
    press("?", &view, &mut state);
    press("down down", &view, &mut state);
    assert_eq!(state.help, Some(2), "the help scrolls");
    press("?", &view, &mut state);
    assert_eq!(state.help, None);
    assert_eq!(state.alerts_acknowledged, 0);
    press("enter", &view, &mut state);
    assert_eq!(state.alerts_acknowledged, 1);
}

#[test]
fn scoring_keeps_the_reason_the_judge_types_and_its_line_carries_it() {
    let mut view = view(Phase::Play);
    view.apply(&GameEvent::Phase {
        phase: Phase::Adjudication,
        reason: "claims differ".into(),
    });
    let mut state = UiState::new(Role::Operator);
    assert!(press("S", &view, &mut state).is_empty());
    type_text("seki in the corner", &view, &mut state);
    assert!(press("enter", &view, &mut state).is_empty());
    let effects = press("y", &view, &mut state);
    let score = OperatorCommand::ScoreNow {
        reason: "seki in the corner".into(),
    };
    assert_eq!(effects, [Effect::Operator(score.clone())]);
    assert_eq!(score.as_line(), "score seki in the corner");
}
