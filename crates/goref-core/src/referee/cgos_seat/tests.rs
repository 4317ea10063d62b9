//! The CGOS seat machine: the login, each game told to the program as the
//! CGOS clients tell theirs, the program kept, a game told again, analysis
//! sent as CGOS JSON, the operator's resignation, and goref's own check
//! of the server's verdict.

use std::time::{Duration, Instant};

use super::*;
use crate::protocol::gtp::analysis::{parse_line, AnalysisCommand};
use crate::referee::event::End;

fn seat() -> CgosSeat {
    CgosSeat::new(SeatLogin {
        user: "alpha".into(),
        password: "secret1".into(),
        client: "goref-seat 0.1.0".into(),
    })
}

/// A program that answers every command at once: `name`, `version` and
/// `list_commands` as given, a move request with `moves` in turn, any
/// other command with an empty success. Returns the commands it was sent.
fn answer_all(
    seat: &mut CgosSeat,
    at: Instant,
    listed: &str,
    moves: &mut Vec<&str>,
) -> Vec<String> {
    let mut sent = Vec::new();
    while let Some(line) = seat.poll_command() {
        let answer = match line.split_whitespace().next().unwrap_or("") {
            "name" => "GNU Go".to_string(),
            "version" => "3.8".to_string(),
            "list_commands" => listed.replace(' ', "\n"),
            word if word.ends_with("genmove") || word.ends_with("genmove_analyze") => {
                moves.remove(0).to_string()
            }
            _ => String::new(),
        };
        sent.push(line);
        seat.handle_answer(at, true, &answer, Duration::from_millis(120));
    }
    sent
}

fn lines(seat: &mut CgosSeat) -> Vec<String> {
    std::iter::from_fn(|| seat.poll_line()).collect()
}

fn notes(seat: &mut CgosSeat) -> Vec<SeatNote> {
    std::iter::from_fn(|| seat.poll_note()).collect()
}

fn events(notes: &[SeatNote]) -> Vec<&GameEvent> {
    notes
        .iter()
        .filter_map(|n| match n {
            SeatNote::Event(e) => Some(e),
            _ => None,
        })
        .collect()
}

fn moves_of(notes: &[SeatNote]) -> Vec<(u32, Color, String)> {
    events(notes)
        .into_iter()
        .filter_map(|e| match e {
            GameEvent::Move {
                n, color, vertex, ..
            } => Some((*n, *color, vertex.clone())),
            _ => None,
        })
        .collect()
}

const GNUGO: &str = "boardsize komi clear_board play genmove time_settings time_left cgos-gameover";

fn logged_in(seat: &mut CgosSeat, t: Instant) {
    for line in ["protocol genmove_analyze", "username", "password"] {
        seat.handle_line(t, line);
    }
}

#[test]
fn the_seat_logs_in_as_a_cgos_client_and_never_traces_its_password() {
    let t = goref_epoch::epoch();
    let mut seat = seat();
    logged_in(&mut seat, t);
    assert_eq!(
        lines(&mut seat),
        ["e1 goref-seat 0.1.0 genmove_analyze", "alpha", "secret1"]
    );
    let notes = notes(&mut seat);
    assert_eq!(notes, [SeatNote::LoggedIn]);
    let mut old = self::seat();
    old.handle_line(t, "protocol");
    assert_eq!(
        lines(&mut old),
        ["e1 goref-seat 0.1.0"],
        "no analysis offered"
    );
}

#[test]
fn a_game_as_black_is_told_to_the_program_as_the_cgos_clients_tell_it() {
    let t = goref_epoch::epoch();
    let mut seat = seat();
    let mut moves = vec!["E5", "D4", "pass"];
    answer_all(&mut seat, t, GNUGO, &mut moves);
    logged_in(&mut seat, t);
    lines(&mut seat);
    seat.handle_line(t, "setup 7 9 7.0 300000 beta(1800) alpha(1500?)");
    seat.handle_line(t, "genmove b 300000");
    let sent = answer_all(&mut seat, t + Duration::from_millis(200), GNUGO, &mut moves);
    assert_eq!(
        sent,
        [
            "boardsize 9",
            "komi 7",
            "time_settings 300 0 0",
            "clear_board",
            "time_left b 300 0",
            "genmove b"
        ]
    );
    assert_eq!(lines(&mut seat), ["e5"]);
    seat.handle_line(t + Duration::from_secs(2), "play w C5 298000");
    seat.handle_line(t + Duration::from_secs(2), "genmove b 299800");
    let sent = answer_all(&mut seat, t + Duration::from_secs(3), GNUGO, &mut moves);
    assert_eq!(sent, ["play w c5", "time_left b 299 0", "genmove b"]);
    assert_eq!(lines(&mut seat), ["d4"]);
    seat.handle_line(
        t + Duration::from_secs(4),
        "gameover 2026-11-30 B+Resign Resignation",
    );
    let sent = answer_all(&mut seat, t + Duration::from_secs(4), GNUGO, &mut moves);
    assert_eq!(sent, ["cgos-gameover B+Resign"]);
    assert_eq!(lines(&mut seat), ["ready"]);
    assert!(seat.between_games());
    let notes = notes(&mut seat);
    assert!(matches!(
        &notes[1],
        SeatNote::GameBegins { game: 7, title, resumed: false, played: 0 }
            if title == "game 7 on 9x9: beta(1800) (W) - alpha(1500?) (B)"
    ));
    assert_eq!(
        moves_of(&notes),
        [
            (1, Color::Black, "E5".into()),
            (2, Color::White, "C5".into()),
            (3, Color::Black, "D4".into()),
            (4, Color::White, "resign".into())
        ],
        "White's resignation, which the server tells only in its verdict, is a move"
    );
    let start = events(&notes)
        .into_iter()
        .find_map(|e| match e {
            GameEvent::GameStart(start) => Some(start.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(start.black.name, "alpha (GNU Go)");
    assert_eq!(start.white.name, "beta");
    assert_eq!(start.white.version, "(1800)");
    assert_eq!(start.time_settings.main_ms, 300_000);
    let result = events(&notes)
        .into_iter()
        .find_map(|e| match e {
            GameEvent::Result(r) => Some(r.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(result.result, "B+R");
    assert_eq!(result.end, End::Resign);
    assert!(
        result.reason.contains("B+Resign (Resignation)"),
        "{}",
        result.reason
    );
    let cgos: Vec<_> = events(&notes)
        .into_iter()
        .filter_map(|e| match e {
            GameEvent::Cgos {
                direction, line, ..
            } => Some((*direction, line.clone())),
            _ => None,
        })
        .collect();
    assert!(cgos.contains(&(LineDirection::Sent, "e5".into())));
    assert!(cgos.contains(&(LineDirection::Received, "play w C5 298000".into())));
    assert!(
        !cgos.iter().any(|(_, l)| l.contains("secret1")),
        "the password is never in the game's events"
    );
    let white_move = events(&notes)
        .into_iter()
        .find_map(|e| match e {
            GameEvent::Move {
                color: Color::White,
                ms,
                clock,
                ..
            } => Some((*ms, clock.main_left_ms)),
            _ => None,
        })
        .unwrap();
    assert_eq!(white_move, (2000, 298_000), "charged as the server told");
}

#[test]
fn the_program_is_kept_and_told_each_new_game_from_a_clear_board() {
    let t = goref_epoch::epoch();
    let mut seat = seat();
    let mut moves = vec!["E5", "C3"];
    answer_all(&mut seat, t, GNUGO, &mut moves);
    logged_in(&mut seat, t);
    seat.handle_line(t, "setup 1 9 7.0 60000 alpha(?) beta(?)");
    answer_all(&mut seat, t, GNUGO, &mut moves);
    seat.handle_line(t, "play b E5 59000");
    seat.handle_line(t, "gameover 2026-11-30 W+Time");
    answer_all(&mut seat, t, GNUGO, &mut moves);
    seat.handle_line(t, "setup 2 9 7.0 60000 beta(?) alpha(?)");
    seat.handle_line(t, "genmove b 60000");
    let sent = answer_all(&mut seat, t, GNUGO, &mut moves);
    assert_eq!(sent[0], "boardsize 9", "no name asked again: {sent:?}");
    assert!(sent.contains(&"clear_board".to_string()));
    let notes = notes(&mut seat);
    let begun: Vec<_> = notes
        .iter()
        .filter_map(|n| match n {
            SeatNote::GameBegins { game, resumed, .. } => Some((*game, *resumed)),
            _ => None,
        })
        .collect();
    assert_eq!(begun, [(1, false), (2, false)]);
}

#[test]
fn a_game_in_play_set_up_for_a_seat_started_afresh_says_how_many_moves_it_had() {
    let t = goref_epoch::epoch();
    let mut seat = seat();
    let mut moves = vec!["D4"];
    answer_all(&mut seat, t, GNUGO, &mut moves);
    logged_in(&mut seat, t);
    seat.handle_line(t, "setup 9 9 7.0 60000 beta(?) alpha(?) E5 59800 C5 57000");
    let begun: Vec<_> = notes(&mut seat)
        .into_iter()
        .filter_map(|note| match note {
            SeatNote::GameBegins {
                game,
                resumed,
                played,
                ..
            } => Some((game, resumed, played)),
            _ => None,
        })
        .collect();
    assert_eq!(begun, [(9, false, 2)]);
}

#[test]
fn a_game_told_again_after_a_lost_link_goes_on_with_the_moves_missed() {
    let t = goref_epoch::epoch();
    let mut seat = seat();
    let mut moves = vec!["E5", "D4"];
    answer_all(&mut seat, t, GNUGO, &mut moves);
    logged_in(&mut seat, t);
    seat.handle_line(t, "setup 9 9 7.0 60000 beta(?) alpha(?)");
    seat.handle_line(t, "genmove b 60000");
    answer_all(&mut seat, t, GNUGO, &mut moves);
    seat.handle_link_lost("the server closed the connection");
    notes(&mut seat);
    logged_in(&mut seat, t + Duration::from_secs(5));
    seat.handle_line(
        t + Duration::from_secs(5),
        "setup 9 9 7.0 60000 beta(?) alpha(?) E5 59800 C5 57000",
    );
    seat.handle_line(t + Duration::from_secs(5), "genmove b 56000");
    let sent = answer_all(&mut seat, t + Duration::from_secs(6), GNUGO, &mut moves);
    assert_eq!(
        sent,
        [
            "boardsize 9",
            "komi 7",
            "time_settings 60 0 0",
            "clear_board",
            "play b e5",
            "play w c5",
            "time_left b 56 0",
            "genmove b"
        ]
    );
    let notes = notes(&mut seat);
    assert!(notes.contains(&SeatNote::GameBegins {
        game: 9,
        title: "game 9 on 9x9: beta(?) (W) - alpha(?) (B)".into(),
        resumed: true,
        played: 2
    }));
    assert!(events(&notes).iter().any(|e| matches!(
        e,
        GameEvent::Session {
            what: SessionChange::SeatBack,
            ..
        }
    )));
    assert_eq!(
        moves_of(&notes),
        [
            (2, Color::White, "C5".into()),
            (3, Color::Black, "D4".into())
        ],
        "only the move missed is new"
    );
}

#[test]
fn an_analysing_program_sends_its_analysis_as_cgos_json_with_its_move() {
    let t = goref_epoch::epoch();
    let mut seat = seat();
    let listed = "boardsize komi clear_board play genmove kata-genmove_analyze";
    let answer = "\ninfo move D4 visits 30 winrate 0.6 scoreLead 2.5 pv D4 E5 info move E5 \
                  visits 10 winrate 0.4 scoreLead -1 pv E5\nplay D4";
    let mut moves = vec![answer];
    answer_all(&mut seat, t, listed, &mut moves);
    logged_in(&mut seat, t);
    lines(&mut seat);
    seat.handle_line(t, "setup 1 9 7.0 60000 beta(?) alpha(?)");
    seat.handle_line(t, "genmove b 60000");
    let sent = answer_all(&mut seat, t, listed, &mut moves);
    assert_eq!(sent.last().unwrap(), "kata-genmove_analyze b 50");
    let line = lines(&mut seat).remove(0);
    let (vertex, json) = line.split_once(' ').unwrap();
    assert_eq!(vertex, "d4");
    let candidates = parse_line(json, AnalysisCommand::Cgos).unwrap();
    assert_eq!(candidates[0].vertex, "D4");
    assert_eq!(candidates[0].pv, ["D4", "E5"]);
    assert_eq!(candidates[1].score_lead, Some(-1.0));
    let value: serde_json::Value = serde_json::from_str(json).unwrap();
    assert_eq!(value["visits"], 40);
    assert!((value["winrate"].as_f64().unwrap() - 0.55).abs() < 1e-9);
    let notes = notes(&mut seat);
    assert!(events(&notes).iter().any(|e| matches!(
        e,
        GameEvent::Analysis { n: 1, winrate, visits: 30, .. } if (*winrate - 0.6).abs() < 1e-9
    )));
}

#[test]
fn the_operator_resigns_at_once_and_the_programs_late_move_is_dropped() {
    let t = goref_epoch::epoch();
    let mut seat = seat();
    let mut moves = vec![];
    answer_all(&mut seat, t, GNUGO, &mut moves);
    logged_in(&mut seat, t);
    lines(&mut seat);
    seat.handle_line(t, "setup 1 9 7.0 60000 beta(?) alpha(?)");
    seat.handle_line(t, "genmove b 60000");
    let mut genmove = None;
    while let Some(line) = seat.poll_command() {
        if line.starts_with("genmove") {
            genmove = Some(line);
            break;
        }
        seat.handle_answer(t, true, "", Duration::ZERO);
    }
    assert_eq!(genmove.as_deref(), Some("genmove b"));
    seat.handle_right(t, Right::Resign);
    assert_eq!(lines(&mut seat), ["resign"]);
    seat.handle_answer(t, true, "E5", Duration::from_secs(1));
    assert!(
        lines(&mut seat).is_empty(),
        "the program's move is not sent"
    );
}

#[test]
fn a_program_that_never_answers_a_move_resigns_after_three_answers() {
    let t = goref_epoch::epoch();
    let mut seat = seat();
    let mut moves = vec!["hello", "Z99", "pas sss"];
    answer_all(&mut seat, t, GNUGO, &mut moves);
    logged_in(&mut seat, t);
    lines(&mut seat);
    seat.handle_line(t, "setup 1 9 7.0 60000 beta(?) alpha(?)");
    seat.handle_line(t, "genmove b 60000");
    answer_all(&mut seat, t, GNUGO, &mut moves);
    assert_eq!(lines(&mut seat), ["resign"]);
}

#[test]
fn goref_says_where_its_rules_and_clock_disagree_with_the_servers_verdict() {
    let t = goref_epoch::epoch();
    let mut seat = seat();
    let mut moves = vec!["pass"];
    answer_all(&mut seat, t, GNUGO, &mut moves);
    logged_in(&mut seat, t);
    seat.handle_line(t, "setup 1 9 7.0 60000 alpha(?) beta(?)");
    seat.handle_line(t, "play b E5 59000");
    seat.handle_line(t, "genmove w 60000");
    answer_all(&mut seat, t, GNUGO, &mut moves);
    seat.handle_line(t, "play b pass 58000");
    seat.handle_line(t, "gameover 2026-11-30 B+64.0");
    let first = notes(&mut seat);
    let said: Vec<String> = events(&first)
        .into_iter()
        .filter_map(|e| match e {
            GameEvent::Notice { message, .. } => Some(message.clone()),
            _ => None,
        })
        .collect();
    assert!(
        said.iter()
            .any(|m| m.contains("B+74") && m.contains("B+64.0")),
        "81 - 7 = B+74 by area: {said:?}"
    );
    let mut resigned = self::seat();
    let mut replies = vec!["D5"];
    answer_all(&mut resigned, t, GNUGO, &mut replies);
    logged_in(&mut resigned, t);
    resigned.handle_line(t, "setup 1 9 7.0 60000 alpha(?) beta(?)");
    resigned.handle_line(t, "play b E5 59000");
    resigned.handle_line(t, "genmove w 60000");
    answer_all(&mut resigned, t, GNUGO, &mut replies);
    resigned.handle_line(t + Duration::from_secs(3), "gameover 2026-11-30 W+Resign");
    let told = notes(&mut resigned);
    assert_eq!(
        moves_of(&told),
        [
            (1, Color::Black, "E5".into()),
            (2, Color::White, "D5".into()),
            (3, Color::Black, "resign".into())
        ],
        "the opponent's resignation is a move in the record, as the board's"
    );
    let mut agreed = self::seat();
    logged_in(&mut agreed, t);
    agreed.handle_line(t, "setup 1 9 7.0 60000 alpha(?) beta(?)");
    agreed.handle_line(t, "play b E5 1000");
    agreed.handle_line(t + Duration::from_secs(30), "gameover 2026-11-30 B+Time");
    let told = notes(&mut agreed);
    assert!(
        events(&told).iter().any(|e| matches!(
            e,
            GameEvent::Notice { message, .. } if message.contains("goref's clock disagrees")
        )),
        "White had a minute and its turn began 30 s before"
    );
    assert_eq!(verdict("W+15.0").result, "W+15");
    assert_eq!(verdict("B+0.5").end, End::DoublePassCleanup);
    assert_eq!(verdict("W+Time").result, "W+T");
    assert_eq!(verdict("B+Illegal").end, End::ForfeitIllegalMove);
    assert_eq!(verdict("Void").result, "?");
}

#[test]
fn a_servers_error_is_a_refusal_and_an_unknown_line_is_only_said() {
    let t = goref_epoch::epoch();
    let mut seat = seat();
    seat.handle_line(t, "Error: Sorry, password doesn't match");
    seat.handle_line(t, "whatever");
    let notes = notes(&mut seat);
    assert_eq!(
        notes[0],
        SeatNote::Refused("Sorry, password doesn't match".into())
    );
    assert!(matches!(&notes[1], SeatNote::Said(text) if text.contains("whatever")));
}
