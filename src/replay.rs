//! `goref replay FILE`: reads a `--trace` file (or saved `--json` output)
//! back through the validator and the reducer.
//!
//! This is the shell around [`goref_core::referee::replay::Validator`]: it reads
//! the file line by line with a bound on each line (never the whole file),
//! prints the stream back as a viewer sees it (`--headless --json`) or a
//! short summary, and turns the first inconsistency into
//! `goref: FILE line N: <what>` and exit status 2. The valid prefix is still
//! printed. A last line cut short (no newline, not JSON: a power cut while
//! the trace was written) is reported and ignored: exit status 0 when every
//! line before it was consistent.

use crate::shell_time::Threads;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use std::io::IsTerminal;

use crate::app::replay::Recording;
use crate::app::screen_options;
use crate::cli::ReplayArgs;
use crate::console;
use goref_core::referee::replay::{Inconsistency, Line, Validator};
use goref_core::referee::{GameView, StampedEvent};

/// The longest line read; a longer one is refused without being read whole.
pub(crate) const MAX_LINE: usize = 1 << 20;

/// Why a stream cannot be replayed, as `goref:` prints it.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ReplayError {
    #[error("cannot read {path}: {error}")]
    Read { path: String, error: std::io::Error },
    #[error("{path} line {line}: {what}")]
    Inconsistent {
        path: String,
        line: usize,
        what: Inconsistency,
    },
    #[error("{path} line {line}: longer than {MAX_LINE} bytes; refused (is this a goref trace?)")]
    TooLong { path: String, line: usize },
    #[error("{path} line {line}: not UTF-8 text")]
    NotUtf8 { path: String, line: usize },
    #[error("{message}")]
    Screen { message: String },
}

/// What reading the stream found.
#[derive(Default)]
struct Reading {
    view: GameView,
    events: usize,
    /// The events, kept for the screen.
    kept: Vec<StampedEvent>,
    keep: bool,
    /// The line of a last line cut short, ignored.
    cut: Option<usize>,
}

/// Replays `args.file`: on the screen, stepping through it; or prints it
/// back or summarises it. Err on the first inconsistency, after showing
/// what came before it.
pub(crate) fn run(args: &ReplayArgs) -> Result<(), ReplayError> {
    let path = args.file.display().to_string();
    let json = args.headless && args.json;
    let options =
        screen_options(&args.screen).map_err(|message| ReplayError::Screen { message })?;
    let mut screen = None;
    if !args.headless {
        if std::io::stdout().is_terminal() {
            screen = Some(options);
        } else {
            console::say("goref: stdout is not a terminal, so no full screen: a summary instead");
        }
    }
    let mut validator = Validator::new();
    let mut reading = Reading {
        keep: screen.is_some(),
        ..Reading::default()
    };
    let outcome = read(&args.file, &path, json, &mut validator, &mut reading);
    if let Err(ReplayError::Read { .. }) = outcome {
        return outcome;
    }
    let skipped = validator.skipped();
    if !skipped.is_empty() {
        let count: usize = skipped.iter().map(|(_, n)| n).sum();
        let kinds: Vec<&str> = skipped.iter().map(|(k, _)| k.as_str()).collect();
        console::say(format!(
            "goref: {path}: skipped {count} event{} of types this goref does not know ({})",
            if count == 1 { "" } else { "s" },
            kinds.join(", ")
        ));
    }
    let mut notes = Vec::new();
    if let Some(line) = reading.cut {
        notes.push(format!(
            "{path} line {line}: the file ends in the middle of a line (a write cut short); \
             that line is ignored"
        ));
    }
    if outcome.is_ok() && validator.has_header() && validator.result_line().is_none() {
        notes.push(format!("{path}: the stream ends before the game's result"));
    }
    for note in &notes {
        console::say(format!("goref: {note}"));
    }
    if let Some(options) = screen {
        let problem = outcome.as_ref().err().map(ToString::to_string);
        let recording = Recording::new(std::mem::take(&mut reading.kept));
        let runtime =
            crate::shell_time::runtime(Threads::PerCore).map_err(|e| ReplayError::Screen {
                message: format!("cannot start: {e}"),
            })?;
        runtime
            .block_on(crate::app::replay::run(recording, options, problem))
            .map_err(|message| ReplayError::Screen { message })?;
        return outcome;
    }
    if !json {
        summarise(&reading, &outcome, &notes);
    }
    outcome
}

fn read(
    file: &Path,
    path: &str,
    json: bool,
    validator: &mut Validator,
    reading: &mut Reading,
) -> Result<(), ReplayError> {
    let read_error = |error| ReplayError::Read {
        path: path.to_string(),
        error,
    };
    let mut reader = BufReader::new(File::open(file).map_err(read_error)?);
    let mut buffer = Vec::new();
    let mut number = 0;
    loop {
        buffer.clear();
        let read = (&mut reader)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buffer)
            .map_err(read_error)?;
        if read == 0 {
            break;
        }
        number += 1;
        let terminated = buffer.last() == Some(&b'\n');
        if terminated {
            buffer.pop();
            if buffer.last() == Some(&b'\r') {
                buffer.pop();
            }
        }
        if buffer.len() > MAX_LINE {
            return Err(ReplayError::TooLong {
                path: path.into(),
                line: number,
            });
        }
        let text = match std::str::from_utf8(&buffer) {
            Ok(text) => text,
            Err(_) if !terminated => {
                reading.cut = Some(number);
                break;
            }
            Err(_) => {
                return Err(ReplayError::NotUtf8 {
                    path: path.into(),
                    line: number,
                })
            }
        };
        match validator.line(number, text) {
            Ok(Line::Header(header)) => {
                if json {
                    console::out(serde_json::to_string(&header).expect("headers serialise"));
                }
            }
            Ok(Line::Event(event)) => {
                reading.view.apply(&event.event);
                reading.events += 1;
                if reading.keep {
                    reading.kept.push((*event).clone());
                }
                if json {
                    console::out(serde_json::to_string(&event).expect("events serialise"));
                }
            }
            Ok(Line::Unknown { .. }) => {}
            Err(Inconsistency::NotJson(_)) if !terminated && validator.has_header() => {
                reading.cut = Some(number);
                break;
            }
            Err(what) => {
                return Err(ReplayError::Inconsistent {
                    path: path.into(),
                    line: number,
                    what,
                })
            }
        }
    }
    if number == 0 || !validator.has_header() {
        return Err(ReplayError::Inconsistent {
            path: path.into(),
            line: 1,
            what: Inconsistency::Empty,
        });
    }
    Ok(())
}

/// The short summary on stdout: players, result, counts and problems.
fn summarise(reading: &Reading, outcome: &Result<(), ReplayError>, notes: &[String]) {
    let view = &reading.view;
    let name = |i: usize| match view.players[i].full_name() {
        name if name.is_empty() => "?".to_string(),
        name => name,
    };
    console::out(format!("Black: {}", name(0)));
    console::out(format!("White: {}", name(1)));
    match &view.result {
        Some(result) => console::out(format!(
            "result: {} (end {}): {}",
            result.result,
            result.end.code(),
            result.reason
        )),
        None => console::out("result: none"),
    };
    console::out(format!(
        "events: {}, moves: {}",
        reading.events,
        view.moves.len()
    ));
    let mut problems: Vec<String> = notes.to_vec();
    if let Err(error) = outcome {
        problems.insert(0, error.to_string());
    }
    if problems.is_empty() {
        console::out("problems: none");
    } else {
        for problem in problems {
            console::out(format!("problem: {problem}"));
        }
    }
}
