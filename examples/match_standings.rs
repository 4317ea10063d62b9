//! `goref standings DIR` of a 10,000-game match: its figures from the
//! folders, timed. Writes a match folder of GAMES game folders (each with a
//! journal of a 60-move game ending in its result, as a game's goref
//! writes it) into a temporary folder, then times the figures, cold and
//! warm. Budget: under 200 ms.
//!
//! ```text
//! cargo run --release --example match_standings -- [GAMES]
//! ```

use std::io::Write;
use std::time::Instant;

use goref::match_play::{file, tally};

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(10_000);
    let root = tempfile::tempdir().expect("a temporary folder");
    let dir = root.path();
    std::fs::write(dir.join(file::MATCH_FILE), file::TEMPLATE).expect("match.toml");
    let made = Instant::now();
    for game in 0..games {
        let pair = game / 2 + 1;
        let leg = if game % 2 == 0 { 'a' } else { 'b' };
        let folder = dir.join(format!("games/pair-{pair:04}-{leg}"));
        std::fs::create_dir_all(&folder).expect("a game folder");
        let mut journal = std::fs::File::create(folder.join("journal.jsonl")).expect("a journal");
        writeln!(
            journal,
            r#"{{"type":"stream","schema":1,"producer":"goref"}}"#
        )
        .unwrap();
        for n in 1..=60 {
            let color = if n % 2 == 1 { "B" } else { "W" };
            writeln!(
                journal,
                r#"{{"seq":{n},"t_ms":{},"type":"move","n":{n},"color":"{color}","vertex":"E5","ms":120,"captures":[],"clock":{{"main_left_ms":290000,"period_left_ms":null,"periods_left":null,"stones_left":null,"in_overtime":false,"running":false,"flagged":false,"used_ms":10000,"last_move_ms":120}}}}"#,
                n * 130
            )
            .unwrap();
        }
        let result = if game % 3 == 0 { "W+R" } else { "B+3.5" };
        writeln!(
            journal,
            r#"{{"seq":61,"t_ms":8000,"type":"result","result":"{result}","reason":"r","end":"resign"}}"#
        )
        .unwrap();
        writeln!(
            journal,
            r#"{{"seq":62,"t_ms":8001,"after_result":true,"type":"gtp","color":"B","direction":"out","line":"quit"}}"#
        )
        .unwrap();
    }
    println!(
        "{games} game folders written in {:.1} s",
        made.elapsed().as_secs_f64()
    );
    let match_file = file::load(dir).expect("the template is a match");
    for run in ["first", "second", "third"] {
        let started = Instant::now();
        let figures = tally::figures(dir, &match_file);
        let took = started.elapsed();
        println!(
            "{run} run: {} games, {} pairs, Elo {:.1}: {:.1} ms (budget 200)",
            figures.games,
            figures.pairs,
            figures.elo.unwrap_or(f64::NAN),
            took.as_secs_f64() * 1000.0
        );
    }
}
