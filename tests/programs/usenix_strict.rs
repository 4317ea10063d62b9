//! A random Go player that speaks the 1987 Usenix referee protocol exactly
//! as written, for integration tests of the referee.
//!
//! Every move it writes is an upper-case column letter and a row number
//! (`D4`, `Q16`) or `pass`, each on a line ending in a single `\n`, and
//! nothing else (unless a fault flag asks for more). See `usenix_player.rs`
//! for the protocol and the flags.
//!
//! ```text
//! cargo run --release --example usenix_strict -- --size 9 --seed 3
//! printf 'black\nD4\nE5\npass\n' | target/release/examples/usenix_strict --size 9
//! ```

#[path = "usenix_player.rs"]
mod usenix_player;

use std::process::ExitCode;

use goref_core::game::coord::Move;
use usenix_player::Style;

/// The 1987 spelling: `D4`, `pass`, one `\n`.
fn format_move(mv: Move, _n: u32) -> String {
    format!("{}\n", mv.to_gtp())
}

fn main() -> ExitCode {
    usenix_player::run(Style {
        format_move,
        eol: "\n",
    })
}
