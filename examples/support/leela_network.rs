//! Leela Zero for the tests and the budgets: where Debian puts it, and a
//! random network small enough to load at once, in its text format
//! (docs/analysis-protocols.md §5). Shared by `tests/it` (as
//! `common::leela_network`) and `examples/match_throughput`.

use std::path::Path;

/// Leela Zero 0.17 as Debian ships it: no network comes with it, and it
/// needs `--cpu-only` without an OpenCL device.
pub(crate) const LEELAZ: &str = "/usr/games/leelaz";

/// Writes a random Leela Zero network of one residual block of eight
/// filters in its text format (docs/analysis-protocols.md §5): weights
/// drawn evenly around zero, biases and means zero, variances one.
pub(crate) fn random_network(path: &Path) -> std::io::Result<()> {
    enum Values {
        Weights(f64),
        Zeros,
        Ones,
    }
    use Values::{Ones, Weights, Zeros};
    let conv = |inputs: usize| {
        [
            (8 * inputs * 9, Weights(0.1)),
            (8, Zeros),
            (8, Zeros),
            (8, Ones),
        ]
    };
    let mut lines: Vec<(usize, Values)> = Vec::new();
    lines.extend(conv(18));
    lines.extend(conv(8));
    lines.extend(conv(8));
    lines.extend([
        (16, Weights(0.1)),
        (2, Zeros),
        (2, Zeros),
        (2, Ones),
        (362 * 722, Weights(0.01)),
        (362, Zeros),
        (8, Weights(0.1)),
        (1, Zeros),
        (1, Zeros),
        (1, Ones),
        (256 * 361, Weights(0.01)),
        (256, Zeros),
        (256, Weights(0.01)),
        (1, Zeros),
    ]);
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut uniform = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    let mut text = String::from("1\n");
    for (count, values) in lines {
        let line: Vec<String> = (0..count)
            .map(|_| match values {
                Weights(scale) => format!("{:.4}", uniform() * scale * 1.7),
                Zeros => "0".into(),
                Ones => "1".into(),
            })
            .collect();
        text.push_str(&line.join(" "));
        text.push('\n');
    }
    std::fs::write(path, text)
}
