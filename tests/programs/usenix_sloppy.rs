//! A random Go player that speaks the 1987 Usenix referee protocol
//! carelessly, for integration tests of the referee's leniency.
//!
//! It plays as `usenix_strict` does (same flags, same moves for the same
//! seed) and reads the referee's lines the same way, but writes its moves
//! like a careless program: lower-case columns (`g7`), with a space inside
//! on every second move (`g 7`), a pass as `Pass`, `\r\n` line endings and
//! a blank line after every move. See `usenix_player.rs` for the protocol
//! and the flags.
//!
//! ```text
//! cargo run --release --example usenix_sloppy -- --size 9 --seed 3
//! printf 'black\nD4\nE5\npass\n' | target/release/examples/usenix_sloppy --size 9 | od -c
//! ```

#[path = "usenix_player.rs"]
mod usenix_player;

use std::process::ExitCode;

use goref_core::game::coord::Move;
use usenix_player::Style;

/// The careless spelling: `g7` or `g 7` (even move numbers), `Pass`, or
/// `resign`, then `\r\n` and a blank `\r\n` line.
fn format_move(mv: Move, n: u32) -> String {
    let word = match mv {
        Move::Play(p) => {
            let vertex = p.to_gtp().to_ascii_lowercase();
            let (column, row) = vertex.split_at(1);
            let gap = if n.is_multiple_of(2) { " " } else { "" };
            format!("{column}{gap}{row}")
        }
        Move::Pass => "Pass".to_string(),
        Move::Resign => "resign".to_string(),
    };
    format!("{word}\r\n\r\n")
}

fn main() -> ExitCode {
    usenix_player::run(Style {
        format_move,
        eol: "\r\n",
    })
}
