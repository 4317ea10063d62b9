//! The built-in engine with a playout budget against its own random policy:
//! twenty 9x9 games in one process, colours alternating, each counted by
//! area with komi 7.5. The Monte-Carlo engine must win at least eighteen.

use std::time::Instant;

use goref::bot::arena::play_game;
use goref::bot::Engine;
use goref_core::game::Color;

/// Playouts per move: enough to win nearly every game, few enough that the
/// twenty games take well under a minute in release.
const PLAYOUTS: u32 = 256;
const GAMES: u64 = 20;

#[test]
fn monte_carlo_beats_random_play_in_nearly_every_game() {
    let started = Instant::now();
    let mut wins = 0;
    for game in 0..GAMES {
        let mc_color = if game % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let mut mc = Engine::new(9, 100 + game).unwrap().with_playouts(PLAYOUTS);
        let mut random = Engine::new(9, 200 + game).unwrap();
        let played = match mc_color {
            Color::Black => play_game(&mut mc, &mut random, 9, 7.5),
            Color::White => play_game(&mut random, &mut mc, 9, 7.5),
        };
        assert!(played.finished, "game {} hit the move cap", game + 1);
        if played.winner() == Some(mc_color) {
            wins += 1;
        }
    }
    println!(
        "MC {wins} - {} random ({PLAYOUTS} playouts a move, 9x9, komi 7.5) in {:.1} s",
        GAMES - wins,
        started.elapsed().as_secs_f64()
    );
    assert!(wins >= 18, "MC won only {wins} of {GAMES}");
}
