//! The operator's keyboard in headless mode: lines from stdin.
//!
//! A plain thread reads stdin (a blocked read must not hold up the async
//! runtime when the game ends) and hands each line to the game loop. The
//! channel closes when stdin does, which tells the loop no operator is there.

use std::io::BufRead;

use tokio::sync::mpsc;

/// Starts reading stdin; lines arrive on the returned receiver.
pub fn spawn_stdin_reader() -> mpsc::UnboundedReceiver<String> {
    let (tx, rx) = mpsc::unbounded_channel();
    let spawned = std::thread::Builder::new()
        .name("operator".into())
        .spawn(move || {
            for line in std::io::stdin().lock().lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
    if let Err(e) = spawned {
        tracing::error!("cannot read the operator's input: {e}");
    }
    rx
}
