//! The operator's input on stdin: typed [`OperatorInput`]s on a channel.
//!
//! Whatever the operator uses (the console on stdin in headless mode, the
//! full-screen view's input box, later a remote operator) feeds the same
//! channel with commands already parsed, and lines meant for a typed
//! player. The referee validates each command (a result's form, a marked
//! point); the sources only read what was typed. The channel closes when
//! the source does, which tells the loop no operator is there.

use std::io::BufRead;

use tokio::sync::mpsc;

use goref_core::referee::operator::OperatorInput;

/// Starts the console: a plain thread reads stdin (a blocked read must not
/// hold up the async runtime when the game ends) and sends each line, read.
pub(crate) fn spawn_stdin_reader(size: u8) -> mpsc::UnboundedReceiver<OperatorInput> {
    let (tx, rx) = mpsc::unbounded_channel();
    let spawned = std::thread::Builder::new()
        .name("operator".into())
        .spawn(move || read_lines(std::io::stdin().lock(), size, &tx));
    if let Err(e) = spawned {
        tracing::error!("cannot read the operator's input: {e}");
    }
    rx
}

/// Sends each line of `input`, read, until its end: end of file, or a read
/// that fails (EIO from a terminal that went away), never read again. A
/// line that is not UTF-8 is still a line, its bad bytes replaced.
fn read_lines(mut input: impl BufRead, size: u8, tx: &mpsc::UnboundedSender<OperatorInput>) {
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        match input.read_until(b'\n', &mut bytes) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let line = String::from_utf8_lossy(&bytes);
        let line = line.strip_suffix('\n').unwrap_or(&line);
        let line = line.strip_suffix('\r').unwrap_or(line);
        let Some(input) = OperatorInput::from_line(line, size) else {
            continue;
        };
        if tx.send(input).is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use goref_core::game::Point;
    use goref_core::referee::OperatorCommand;

    /// What the console sends for `typed`, until its end.
    fn sent(typed: &[u8]) -> Vec<OperatorInput> {
        let (tx, mut rx) = mpsc::unbounded_channel();
        read_lines(typed, 9, &tx);
        drop(tx);
        std::iter::from_fn(|| rx.try_recv().ok()).collect()
    }

    /// A terminal in Latin-1, or a stray byte, is a typo: the operator is
    /// told, and the next line is read.
    #[test]
    fn a_line_that_is_not_utf8_is_a_line_not_the_end_of_the_input() {
        let sent = sent(b"caf\xe9\r\nD4\n");
        let texts: Vec<&str> = sent
            .iter()
            .map(|input| match input {
                OperatorInput::Line { text, .. } => text.as_str(),
                OperatorInput::Command(_) => "a command",
            })
            .collect();
        assert_eq!(texts, ["caf\u{fffd}", "D4"]);
    }

    #[test]
    fn lines_become_commands_or_lines_for_a_typed_player() {
        assert_eq!(
            OperatorInput::from_line("dead c3", 9),
            Some(OperatorInput::Command(OperatorCommand::ToggleDead(
                Point::new(2, 2)
            )))
        );
        assert_eq!(OperatorInput::from_line("  ", 9), None);
        let Some(OperatorInput::Line {
            text,
            not_a_command,
        }) = OperatorInput::from_line("D4", 9)
        else {
            panic!("a move is no command");
        };
        assert_eq!(text, "D4");
        assert!(not_a_command.contains("unknown command"), "{not_a_command}");
    }
}
