//! The tests of `state`.

use super::*;
use crate::event::file::parse;

fn file(extra: &str) -> EventFile {
    let entrants: String = ["a", "b", "c", "d"]
        .iter()
        .map(|n| format!("[[entrant]]\nname = \"{n}\"\nplayer = \"bot\"\n"))
        .collect();
    parse(&format!(
        "name = \"x\"\nsystem = \"swiss\"\nrounds = 3\n{extra}\n{entrants}"
    ))
    .unwrap()
}

fn pair(board: u32, black: &str, white: &str) -> Pair {
    Pair {
        board,
        black: black.into(),
        white: white.into(),
    }
}

fn round_one() -> Vec<EventLine> {
    vec![
        EventLine::Pairing {
            round: 1,
            boards: vec![pair(1, "a", "b"), pair(2, "c", "d")],
            byes: Vec::new(),
            confirmed_by: "--yes".into(),
        },
        EventLine::BoardEnd {
            round: 1,
            board: 1,
            black: "a".into(),
            white: "b".into(),
            dir: "round-1/board-1".into(),
            result: "B+R".into(),
            end: "resign".into(),
            reason: String::new(),
        },
    ]
}

#[test]
fn a_directors_result_is_placed_or_refused_with_the_game_it_would_clash_with() {
    let file = file("");
    let mut lines = round_one();
    lines.push(EventLine::Result {
        round: 2,
        black: "a".into(),
        white: "c".into(),
        result: "W+F".into(),
        reason: "elsewhere".into(),
        replaces: None,
    });
    let state = EventState::fold(&file, &lines);
    let placed = state.place_result(1, "c", "d", false).unwrap();
    assert_eq!(placed.board, Some(2));
    assert_eq!(placed.recorded, "round 1 board 2, c (B) - d (W)");
    assert_eq!(placed.replaces, None);
    let turned = state.place_result(1, "d", "c", false).unwrap_err();
    assert!(
        turned.contains("c (B) - d (W)") && turned.contains("order"),
        "{turned}"
    );
    let played = state.place_result(1, "a", "b", false).unwrap_err();
    assert!(
        played.contains("B+R from play") && played.contains("--override"),
        "{played}"
    );
    let over = state.place_result(1, "a", "b", true).unwrap();
    assert_eq!(over.replaces.as_deref(), Some("B+R from play"));
    let second = state.place_result(1, "a", "c", false).unwrap_err();
    assert!(
        second.contains("a already has a game in round 1: board 1"),
        "{second}"
    );
    let elsewhere = state.place_result(2, "d", "a", false).unwrap_err();
    assert!(elsewhere.contains("a (B) - c (W) W+F"), "{elsewhere}");
    let again = state.place_result(2, "a", "c", false).unwrap_err();
    assert!(again.contains("W+F set by the director"), "{again}");
    assert!(state.place_result(2, "a", "c", true).is_ok());
    let fresh = state.place_result(2, "b", "d", false).unwrap();
    assert_eq!((fresh.board, fresh.replaces), (None, None));
}

#[test]
fn a_round_is_over_when_every_board_has_a_result_its_own_or_the_directors() {
    let file = file("");
    let mut lines = round_one();
    let state = EventState::fold(&file, &lines);
    assert!(!state.current().unwrap().is_over());
    lines.push(EventLine::Result {
        round: 1,
        black: "d".into(),
        white: "c".into(),
        result: "B+F".into(),
        reason: "c did not come".into(),
        replaces: None,
    });
    let state = EventState::fold(&file, &lines);
    let round = state.current().unwrap();
    assert!(round.is_over());
    assert_eq!(
        round.boards[1].result(),
        Some("W+F"),
        "told from c's colour"
    );
    let table = state.standings(&file).unwrap();
    let top: Vec<&str> = table.rows[..2].iter().map(|r| r.name.as_str()).collect();
    assert_eq!(top, ["a", "d"]);
}

#[test]
fn a_game_waiting_for_the_judge_has_no_result() {
    let file = file("");
    let mut lines = round_one();
    lines.push(EventLine::BoardEnd {
        round: 1,
        board: 2,
        black: "c".into(),
        white: "d".into(),
        dir: "round-1/board-2".into(),
        result: "?".into(),
        end: "move_limit".into(),
        reason: String::new(),
    });
    assert!(!EventState::fold(&file, &lines).current().unwrap().is_over());
}

#[test]
fn records_count_scores_opponents_colours_and_byes() {
    let file = file("");
    let mut lines = round_one();
    lines[0] = EventLine::Pairing {
        round: 1,
        boards: vec![pair(1, "a", "b")],
        byes: vec!["c".into()],
        confirmed_by: "director".into(),
    };
    let records = EventState::fold(&file, &lines).records(&file);
    assert_eq!(records[0].score, 2);
    assert_eq!(records[0].met, [1]);
    assert_eq!(records[1].colours, [Color::White]);
    assert!(records[2].had_bye && records[2].score == 2);
    assert_eq!(records[3], Record::default());
}

#[test]
fn only_a_board_whose_game_never_started_may_be_started_again_and_a_start_clears_the_ask() {
    let file = file("");
    let mut lines = round_one();
    let refusal = |lines: &[EventLine], board| {
        EventState::fold(&file, lines)
            .retry_refusal(1, board, |_| false)
            .unwrap_or_default()
    };
    assert!(refusal(&lines, 1).contains("has its result, B+R"));
    assert!(refusal(&lines, 2).contains("needs no retry"));
    let waiting =
        EventState::fold(&file, &lines).retry_refusal(1, 2, |b| b.folder(1) == "round-1/board-2");
    assert_eq!(waiting, None, "a game waiting for an absent seat may");
    let decided = EventState::fold(&file, &lines).retry_refusal(1, 1, |_| true);
    assert!(decided.unwrap().contains("has its result"));
    assert!(refusal(&lines, 3).contains("round 1 has no board 3"));
    lines.push(EventLine::BoardStart {
        round: 1,
        board: 2,
        black: "c".into(),
        white: "d".into(),
        dir: "round-1/board-2".into(),
        resumed: false,
    });
    lines.push(EventLine::BoardEnd {
        round: 1,
        board: 2,
        black: "c".into(),
        white: "d".into(),
        dir: "round-1/board-2".into(),
        result: "Void".into(),
        end: NO_GAME.into(),
        reason: "White: cannot open /dev/ttyS0".into(),
    });
    assert_eq!(
        EventState::fold(&file, &lines).retry_refusal(1, 2, |_| false),
        None
    );
    lines.push(EventLine::BoardRetry {
        round: 1,
        board: 2,
        reason: "plugged in".into(),
    });
    let asked = EventState::fold(&file, &lines);
    assert!(asked.board(1, 2).unwrap().retry);
    lines.push(EventLine::BoardStart {
        round: 1,
        board: 2,
        black: "c".into(),
        white: "d".into(),
        dir: "round-1/board-2-2".into(),
        resumed: false,
    });
    let started = EventState::fold(&file, &lines);
    let board = started.board(1, 2).unwrap();
    assert!(!board.retry && board.played.is_none());
    assert_eq!(board.dirs, ["round-1/board-2", "round-1/board-2-2"]);
}

#[test]
fn a_late_entrant_withdrawn_before_it_plays_is_taken_back_whole() {
    let file = file("");
    let mut lines = vec![EventLine::Add {
        name: "e".into(),
        player: "bot:5".into(),
        from_round: 1,
    }];
    lines.push(EventLine::Withdraw {
        name: "e".into(),
        from_round: 1,
        reason: "added by mistake".into(),
    });
    let state = EventState::fold(&file, &lines);
    assert_eq!(state.entrants.len(), 4);
    assert!(state.withdrawn.is_empty());
    let mut played = round_one();
    played.push(EventLine::Withdraw {
        name: "a".into(),
        from_round: 2,
        reason: "left".into(),
    });
    let state = EventState::fold(&file, &played);
    assert_eq!(state.entrants.len(), 4, "a file's entrant stays, withdrawn");
    assert_eq!(state.withdrawn.get("a"), Some(&2));
}

#[test]
fn withdrawn_and_late_entrants_play_from_their_round() {
    let file = file("");
    let lines = vec![
        EventLine::Withdraw {
            name: "b".into(),
            from_round: 2,
            reason: "its author left".into(),
        },
        EventLine::Add {
            name: "e".into(),
            player: "bot:5".into(),
            from_round: 2,
        },
    ];
    let state = EventState::fold(&file, &lines);
    let names = |round| -> Vec<String> {
        state
            .active_in(round)
            .iter()
            .map(|e| e.name.clone())
            .collect()
    };
    assert_eq!(names(1), ["a", "b", "c", "d", "e"]);
    assert_eq!(names(2), ["a", "c", "d", "e"]);
}

#[test]
fn the_filler_is_not_ranked_but_its_games_count_for_its_opponents() {
    let file = file("filler = \"d\"");
    let lines = vec![
        EventLine::Pairing {
            round: 1,
            boards: vec![pair(1, "a", "b"), pair(2, "c", "d")],
            byes: Vec::new(),
            confirmed_by: "--yes".into(),
        },
        EventLine::Result {
            round: 1,
            black: "a".into(),
            white: "b".into(),
            result: "W+R".into(),
            reason: "set".into(),
            replaces: None,
        },
        EventLine::Result {
            round: 1,
            black: "c".into(),
            white: "d".into(),
            result: "B+3.5".into(),
            reason: "set".into(),
            replaces: None,
        },
    ];
    let table = EventState::fold(&file, &lines).standings(&file).unwrap();
    let ranked: Vec<(&str, usize, bool)> = table
        .rows
        .iter()
        .map(|r| (r.name.as_str(), r.rank, r.tied))
        .collect();
    assert_eq!(ranked, [("b", 1, true), ("c", 1, true), ("a", 3, false)]);
    let json = goref_core::tournament::crosstable::json(&table);
    assert_eq!(json["rows"][1]["games"][0]["opponent"], "d", "{json}");
}
