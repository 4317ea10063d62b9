//! The size of a spectator's snapshot: folds a trace (`--trace FILE` or
//! `--json` output) into a `GameView` and prints how large the view is as
//! JSON, the snapshot a spectator receives when it joins (budget: 1 MiB).
//!
//! ```text
//! goref play --headless --size 19 --black ... --white ... --trace game.jsonl
//! cargo run --release --example snapshot_size -- game.jsonl [--parts]
//! ```
//!
//! With `--parts`, the eight largest parts of the view and their sizes.

use std::io::BufRead;

use goref_core::referee::{GameView, StampedEvent};

fn main() -> Result<(), String> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: snapshot_size TRACE_FILE")?;
    let file = std::fs::File::open(&path).map_err(|e| format!("{path}: {e}"))?;
    let mut view = GameView::new();
    let mut events = 0;
    for line in std::io::BufReader::new(file).lines() {
        let line = line.map_err(|e| format!("{path}: {e}"))?;
        if let Ok(event) = serde_json::from_str::<StampedEvent>(&line) {
            view.apply_stamped(&event);
            events += 1;
        }
    }
    let snapshot = serde_json::to_vec(&view).map_err(|e| e.to_string())?;
    let summary = format!(
        "{events} events, {} moves on {}x{}: snapshot {} bytes ({:.1} % of 1 MiB), {} rejected",
        view.moves.len(),
        view.size,
        view.size,
        snapshot.len(),
        snapshot.len() as f64 / (1 << 20) as f64 * 100.0,
        view.rejected
    );
    goref::console::out(summary);
    if std::env::args().any(|a| a == "--parts") {
        let value = serde_json::to_value(&view).map_err(|e| e.to_string())?;
        let mut parts: Vec<(usize, String)> = value
            .as_object()
            .into_iter()
            .flatten()
            .map(|(key, part)| (part.to_string().len(), key.clone()))
            .collect();
        parts.sort_unstable_by(|a, b| b.cmp(a));
        for (bytes, key) in parts.iter().take(8) {
            goref::console::out(format!("  {key}: {bytes} bytes"));
        }
    }
    Ok(())
}
