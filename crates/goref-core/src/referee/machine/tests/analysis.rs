//! The programs' analysis of their moves: told as the move it is of, with
//! Black's side worked out, and dropped when it is of no move played.

use super::*;
use crate::protocol::gtp::analysis::MoveAnalysis;

fn analysis(winrate: f64, lead: Option<f64>) -> PlayerEvent {
    PlayerEvent::Analysis(MoveAnalysis {
        winrate,
        score_lead: lead,
        visits: 120,
        pv: strings("E5 C3 G7"),
    })
}

fn analyses(events: &[GameEvent]) -> Vec<(u32, Color, f64, f64, Option<f64>)> {
    events
        .iter()
        .filter_map(|e| match e {
            GameEvent::Analysis {
                n,
                color,
                winrate,
                black_winrate,
                score_lead,
                ..
            } => Some((*n, *color, *winrate, *black_winrate, *score_lead)),
            _ => None,
        })
        .collect()
}

#[test]
fn each_programs_analysis_is_of_its_own_move_and_black_is_worked_out() {
    let t = crate::test_support::epoch();
    let mut referee = started(config(9, Preset::Kgs), t, false, false);
    play(&mut referee, t, Black, mv("E5"));
    referee.handle_player(t, Black, analysis(0.6, Some(2.5)));
    play(&mut referee, t, White, mv("C3"));
    referee.handle_player(t, White, analysis(0.25, None));
    let told = events(&mut referee);
    assert_eq!(
        analyses(&told),
        [
            (1, Black, 0.6, 0.6, Some(2.5)),
            (2, White, 0.25, 0.75, None)
        ]
    );
    let json = serde_json::to_string(&told[told.len() - 1]).unwrap();
    assert!(
        json.starts_with("{\"type\":\"analysis\",\"n\":2,"),
        "{json}"
    );
    assert!(json.contains("\"pv\":[\"E5\",\"C3\",\"G7\"]"), "{json}");
}

#[test]
fn an_analysis_of_no_move_played_or_of_no_number_is_dropped() {
    let t = crate::test_support::epoch();
    let mut referee = started(config(9, Preset::Kgs), t, false, false);
    referee.handle_player(t, Black, analysis(0.5, None));
    play(&mut referee, t, Black, mv("E5"));
    referee.handle_player(t, White, analysis(0.5, None));
    referee.handle_player(t, Black, analysis(f64::NAN, None));
    referee.handle_player(t, Black, analysis(1.5, Some(f64::INFINITY)));
    let told = events(&mut referee);
    assert_eq!(analyses(&told), [(1, Black, 1.0, 1.0, None)]);
}

#[test]
fn an_analysis_held_by_a_pause_stays_with_its_move() {
    let t = crate::test_support::epoch();
    let mut referee = started(config(9, Preset::Kgs), t, false, false);
    play(&mut referee, t, Black, mv("E5"));
    referee.handle_player(t, White, PlayerEvent::Thinking);
    let pause = OperatorCommand::PauseClocks {
        reason: "a power cut".into(),
    };
    referee.handle_operator(t + secs(1), pause);
    referee.handle_player(t + secs(2), White, PlayerEvent::Moved(mv("C3")));
    referee.handle_player(t + secs(2), White, analysis(0.4, None));
    assert!(analyses(&events(&mut referee)).is_empty());
    referee.handle_operator(t + secs(3), OperatorCommand::ResumeClocks);
    assert_eq!(
        analyses(&events(&mut referee)),
        [(2, White, 0.4, 0.6, None)]
    );
}
