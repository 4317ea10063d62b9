//! The built-in engine with a playout budget against its own random policy:
//! plays GAMES games in one process, alternating colours, and prints each
//! result, the score and the time per Monte-Carlo move.
//!
//! ```text
//! cargo run --release --example engine_match -- [PLAYOUTS] [GAMES] [SIZE]
//! ```

use std::time::Instant;

use goref::bot::arena::play_game;
use goref::bot::Engine;
use goref_core::game::Color;

fn main() -> Result<(), String> {
    let arg = |n: usize, default: u64| -> Result<u64, String> {
        std::env::args().nth(n).map_or(Ok(default), |a| {
            a.parse().map_err(|_| format!("not a number: {a}"))
        })
    };
    let playouts = arg(1, 64)? as u32;
    let games = arg(2, 20)?;
    let size = arg(3, 9)? as u8;
    let started = Instant::now();
    let (mut mc_wins, mut mc_moves) = (0, 0);
    for game in 0..games {
        let mc_color = if game % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let mut mc = Engine::new(size, 100 + game)
            .map_err(|e| e.to_string())?
            .with_playouts(playouts);
        let mut random = Engine::new(size, 200 + game).map_err(|e| e.to_string())?;
        let played = match mc_color {
            Color::Black => play_game(&mut mc, &mut random, size, 7.5),
            Color::White => play_game(&mut random, &mut mc, size, 7.5),
        };
        mc_moves += played.moves.iter().filter(|(c, _)| *c == mc_color).count();
        let won = played.winner() == Some(mc_color);
        mc_wins += u32::from(won);
        println!(
            "game {}: MC as {mc_color} (first move {}), {} moves{}, B {} W {}: {}",
            game + 1,
            played
                .moves
                .iter()
                .find(|(c, _)| *c == mc_color)
                .map_or("none".to_string(), |(_, mv)| mv.to_string()),
            played.moves.len(),
            if played.finished { "" } else { " (capped)" },
            played.score.black,
            played.score.white,
            if won { "MC wins" } else { "random wins" },
        );
    }
    let elapsed = started.elapsed();
    println!(
        "MC {mc_wins} - {} random ({playouts} playouts a move, {size}x{size}, komi 7.5) in {:.1} s; {:.1} ms per MC move",
        games as u32 - mc_wins,
        elapsed.as_secs_f64(),
        elapsed.as_secs_f64() * 1000.0 / mc_moves.max(1) as f64,
    );
    Ok(())
}
