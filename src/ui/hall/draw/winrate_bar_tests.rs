//! The tests of `draw`.

use super::winrate_bar;
use goref_core::game::Color;
use goref_core::referee::view::{AnalysisLine, MoveLine};
use goref_core::referee::GameView;

fn view(black: Option<f32>, newest: [f64; 2]) -> GameView {
    let mut view = GameView::new();
    view.moves.push(MoveLine {
        n: 1,
        color: Color::Black,
        vertex: "D4".into(),
        ms: 0,
        wire_ms: 0.0,
        resends: 0,
        referee_ms: 0.0,
        net_ms: 0,
        black_winrate: black,
    });
    view.analysis = newest.map(|winrate| {
        Some(AnalysisLine {
            n: 1,
            winrate,
            score_lead: None,
            visits: 1,
            pv: Vec::new(),
        })
    });
    view
}

#[test]
fn the_bar_fills_with_blacks_chance_and_marks_a_disagreement() {
    let bar = winrate_bar(&view(Some(0.75), [0.75, 0.3]), 16, false).unwrap();
    assert_eq!(bar, "B ########-- 75%");
    let bar = winrate_bar(&view(Some(0.75), [0.75, 0.6]), 16, true).unwrap();
    assert_eq!(bar, "B ███████░░ 75%≠");
    assert_eq!(winrate_bar(&view(None, [0.5, 0.5]), 16, true), None);
    assert_eq!(winrate_bar(&view(Some(0.5), [0.5, 0.5]), 8, true), None);
}
