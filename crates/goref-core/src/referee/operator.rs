//! The operator's typed commands: the judge's decisions as text lines.
//!
//! ```text
//! score                      score now, with the stones marked dead
//! dead D4                    mark the chain at D4 dead (again: alive)
//! adjudicate B+3.5 [reason]  end the game with this result
//! void [reason]              end the game with no result
//! resign b|w [reason]        a side resigns, as its operator says
//! pause [reason]             hold the game: no clock, no move asked or relayed
//! resume                     the game goes on, a move held meanwhile taken
//! clock b|w +30s [reason]    add time to a clock (-1m takes time away)
//! ```

use std::time::Duration;

use crate::game::clock::{format_duration, parse_duration};
use crate::game::{Color, Point};

/// Decisions the operator (the tournament judge) can make at any time.
#[derive(Debug, Clone, PartialEq)]
pub enum OperatorCommand {
    /// End the game with this result (`B+3.5`, `W+`, `Void`, ...).
    Adjudicate { result: String, reason: String },
    /// Score the position now, with the stones currently marked dead.
    ScoreNow { reason: String },
    /// Mark the chain at this point dead, or alive again.
    ToggleDead(Point),
    /// A side resigns, as its operator tells the judge.
    Resign { color: Color, reason: String },
    /// A side's program is started again (KGS lets its operator do so),
    /// told the position, its clock running on. The driver carries it out.
    Restart { color: Color, reason: String },
    /// Hold the game: the judge deliberates. No clock runs, no move is asked
    /// for or relayed, and a move that comes meanwhile is held.
    PauseClocks { reason: String },
    /// The game goes on: a held move is taken, or the side to move's clock
    /// starts again.
    ResumeClocks,
    /// Add time to a clock (`delta_ms` above zero) or take it away.
    AdjustClock {
        color: Color,
        delta_ms: i64,
        reason: String,
    },
}

impl std::fmt::Display for OperatorCommand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OperatorCommand::Adjudicate { result, .. } if result == "Void" => f.write_str("void"),
            OperatorCommand::Adjudicate { result, .. } => write!(f, "adjudicate {result}"),
            OperatorCommand::ScoreNow { .. } => f.write_str("score"),
            OperatorCommand::ToggleDead(point) => write!(f, "dead {point}"),
            OperatorCommand::Resign { color, .. } => write!(f, "resign {}", color.letter()),
            OperatorCommand::Restart { color, .. } => write!(f, "restart {}", color.letter()),
            OperatorCommand::PauseClocks { .. } => f.write_str("pause"),
            OperatorCommand::ResumeClocks => f.write_str("resume"),
            OperatorCommand::AdjustClock {
                color, delta_ms, ..
            } => {
                let sign = if *delta_ms < 0 { '-' } else { '+' };
                let ms = delta_ms.unsigned_abs();
                let amount = format_duration(Duration::from_millis(ms));
                write!(f, "clock {} {sign}{amount}", color.letter())
            }
        }
    }
}

impl OperatorCommand {
    /// The command as the operator would type it, its reason included:
    /// how an attached screen sends it to the referee, which parses it back.
    pub fn as_line(&self) -> String {
        match self {
            OperatorCommand::Adjudicate { reason, .. }
            | OperatorCommand::Resign { reason, .. }
            | OperatorCommand::Restart { reason, .. }
            | OperatorCommand::PauseClocks { reason }
            | OperatorCommand::AdjustClock { reason, .. }
            | OperatorCommand::ScoreNow { reason } => format!("{self} {reason}"),
            OperatorCommand::ToggleDead(_) | OperatorCommand::ResumeClocks => self.to_string(),
        }
    }

    /// Why the command was given, or what it does.
    pub(super) fn reason(&self) -> String {
        match self {
            OperatorCommand::Adjudicate { reason, .. } => reason.clone(),
            OperatorCommand::ScoreNow { reason } => reason.clone(),
            OperatorCommand::ToggleDead(point) => {
                format!("mark the chain at {point} dead, or alive again")
            }
            OperatorCommand::Resign { reason, .. }
            | OperatorCommand::Restart { reason, .. }
            | OperatorCommand::PauseClocks { reason }
            | OperatorCommand::AdjustClock { reason, .. } => reason.clone(),
            OperatorCommand::ResumeClocks => "the game goes on".into(),
        }
    }
}

/// One thing the operator entered.
#[derive(Debug, Clone, PartialEq)]
pub enum OperatorInput {
    /// A judge's command, for the referee.
    Command(OperatorCommand),
    /// A line that is not a command: a typed player's move, or, when no
    /// player's moves are typed, a mistake to tell the operator about.
    Line { text: String, not_a_command: String },
}

impl OperatorInput {
    /// Reads one typed line; `None` for an empty one.
    pub fn from_line(line: &str, size: u8) -> Option<OperatorInput> {
        match parse_operator_line(line, size) {
            Ok(Some(command)) => Some(OperatorInput::Command(command)),
            Ok(None) => None,
            Err(not_a_command) => Some(OperatorInput::Line {
                text: line.to_string(),
                not_a_command,
            }),
        }
    }
}

/// What the operator can type, for the help line.
pub const OPERATOR_HELP: &str = "score | dead VERTEX | adjudicate RESULT [reason] | void [reason] \
     | resign b|w [reason] | pause [reason] | resume | clock b|w +30s|-1m [reason] \
     | restart b|w [reason]";

/// Why the judge scored the game, when nothing was said.
pub const SCORED_BY_DEFAULT: &str = "counted with the stones marked dead";

/// Parses one line. Empty lines are `Ok(None)`.
pub(crate) fn parse_operator_line(line: &str, size: u8) -> Result<Option<OperatorCommand>, String> {
    let mut words = line.split_whitespace();
    let Some(verb) = words.next() else {
        return Ok(None);
    };
    let rest: Vec<&str> = words.collect();
    let reason = |words: &[&str], default: &str| {
        if words.is_empty() {
            default.to_string()
        } else {
            words.join(" ")
        }
    };
    let command = match verb.to_ascii_lowercase().as_str() {
        "score" => OperatorCommand::ScoreNow {
            reason: reason(&rest, SCORED_BY_DEFAULT),
        },
        "dead" | "alive" => {
            let [vertex] = rest[..] else {
                return Err(format!("'{verb}' takes one vertex, e.g. {verb} D4"));
            };
            let point = Point::parse_gtp(vertex, size).map_err(|e| e.to_string())?;
            OperatorCommand::ToggleDead(point)
        }
        "adjudicate" => {
            let Some((result, why)) = rest.split_first() else {
                return Err("'adjudicate' needs a result, e.g. adjudicate B+3.5".into());
            };
            OperatorCommand::Adjudicate {
                result: result.to_string(),
                reason: reason(why, "by the judge"),
            }
        }
        "void" => OperatorCommand::Adjudicate {
            result: "Void".into(),
            reason: reason(&rest, "no result, by the judge"),
        },
        "resign" => {
            let Some((side, why)) = rest.split_first() else {
                return Err("'resign' needs a side: resign b, or resign w".into());
            };
            OperatorCommand::Resign {
                color: parse_side(side)?,
                reason: reason(why, "by its operator"),
            }
        }
        "restart" => {
            let Some((side, why)) = rest.split_first() else {
                return Err("'restart' needs a side: restart b, or restart w".into());
            };
            OperatorCommand::Restart {
                color: parse_side(side)?,
                reason: reason(why, "its operator starts it again"),
            }
        }
        "pause" => OperatorCommand::PauseClocks {
            reason: reason(&rest, "the judge deliberates"),
        },
        "resume" => OperatorCommand::ResumeClocks,
        "clock" => {
            let [side, amount, why @ ..] = &rest[..] else {
                return Err("'clock' needs a side and an amount, e.g. clock w +30s".into());
            };
            OperatorCommand::AdjustClock {
                color: parse_side(side)?,
                delta_ms: parse_adjustment(amount)?,
                reason: reason(why, "adjusted by the judge"),
            }
        }
        _ => return Err(format!("unknown command '{verb}': {OPERATOR_HELP}")),
    };
    Ok(Some(command))
}

fn parse_side(word: &str) -> Result<Color, String> {
    word.parse()
        .map_err(|_| format!("'{word}' is not a side: write b or w"))
}

/// A clock adjustment: `+30s` adds, `-1m` takes away, `45s` adds.
pub fn parse_adjustment(text: &str) -> Result<i64, String> {
    let (sign, amount) = match text.as_bytes().first() {
        Some(b'-') => (-1, &text[1..]),
        Some(b'+') => (1, &text[1..]),
        _ => (1, text),
    };
    let duration = parse_duration(amount)
        .map_err(|e| format!("'{text}' is not an amount of time ({e}): write e.g. +30s or -1m"))?;
    let ms = i64::try_from(duration.as_millis()).map_err(|_| format!("'{text}' is too long"))?;
    if ms == 0 {
        return Err("an adjustment of no time changes nothing".into());
    }
    Ok(sign * ms)
}

/// Whether `text` is a result in SGF `RE` grammar.
pub fn is_sgf_result(text: &str) -> bool {
    match text {
        "0" | "Draw" | "Void" | "?" => return true,
        _ => {}
    }
    let Some(rest) = text.strip_prefix("B+").or_else(|| text.strip_prefix("W+")) else {
        return false;
    };
    matches!(rest, "" | "R" | "Resign" | "T" | "Time" | "F" | "Forfeit")
        || rest.parse::<f64>().is_ok_and(|x| x.is_finite() && x > 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_parse_with_their_arguments() {
        assert_eq!(
            parse_operator_line("score", 9),
            Ok(Some(OperatorCommand::ScoreNow {
                reason: SCORED_BY_DEFAULT.into()
            }))
        );
        assert_eq!(
            parse_operator_line("score seki in the corner counted by hand", 9),
            Ok(Some(OperatorCommand::ScoreNow {
                reason: "seki in the corner counted by hand".into()
            }))
        );
        assert_eq!(
            parse_operator_line("  dead e5 ", 9),
            Ok(Some(OperatorCommand::ToggleDead(Point::new(4, 4))))
        );
        assert_eq!(
            parse_operator_line("adjudicate W+2.5 seki counted by hand", 9),
            Ok(Some(OperatorCommand::Adjudicate {
                result: "W+2.5".into(),
                reason: "seki counted by hand".into()
            }))
        );
        assert_eq!(
            parse_operator_line("void", 9),
            Ok(Some(OperatorCommand::Adjudicate {
                result: "Void".into(),
                reason: "no result, by the judge".into()
            }))
        );
        assert_eq!(parse_operator_line("   ", 9), Ok(None));
    }

    #[test]
    fn clock_and_resignation_commands_parse() {
        assert_eq!(
            parse_operator_line("resign W the program is lost", 9),
            Ok(Some(OperatorCommand::Resign {
                color: Color::White,
                reason: "the program is lost".into()
            }))
        );
        assert_eq!(
            parse_operator_line("pause", 9),
            Ok(Some(OperatorCommand::PauseClocks {
                reason: "the judge deliberates".into()
            }))
        );
        assert_eq!(
            parse_operator_line("resume", 9),
            Ok(Some(OperatorCommand::ResumeClocks))
        );
        assert_eq!(
            parse_operator_line("clock b -1m30s penalty", 9),
            Ok(Some(OperatorCommand::AdjustClock {
                color: Color::Black,
                delta_ms: -90_000,
                reason: "penalty".into()
            }))
        );
        assert_eq!(parse_adjustment("45s"), Ok(45_000));
        assert!(parse_adjustment("+0s").unwrap_err().contains("no time"));
        assert!(parse_adjustment("soon").unwrap_err().contains("+30s"));
        assert!(parse_operator_line("resign", 9)
            .unwrap_err()
            .contains("a side"));
        assert!(parse_operator_line("resign x", 9)
            .unwrap_err()
            .contains("b or w"));
        assert!(parse_operator_line("clock w", 9)
            .unwrap_err()
            .contains("an amount"));
    }

    #[test]
    fn mistakes_are_explained() {
        assert!(parse_operator_line("dead", 9)
            .unwrap_err()
            .contains("one vertex"));
        assert!(parse_operator_line("dead Z9", 9).is_err());
        assert!(parse_operator_line("adjudicate", 9)
            .unwrap_err()
            .contains("needs a result"));
        assert!(parse_operator_line("undo", 9)
            .unwrap_err()
            .contains(OPERATOR_HELP));
    }

    #[test]
    fn sgf_results_follow_the_re_grammar() {
        for ok in [
            "B+3.5", "W+64", "B+R", "W+Resign", "B+T", "W+F", "B+", "0", "Void", "?",
        ] {
            assert!(is_sgf_result(ok), "{ok}");
        }
        for bad in ["B+-3", "X+1", "B3.5", "W+R2", "", "B+nan"] {
            assert!(!is_sgf_result(bad), "{bad}");
        }
    }

    #[test]
    fn every_command_typed_back_from_its_line_is_the_same_command() {
        use crate::game::Color;
        let commands = [
            OperatorCommand::ScoreNow {
                reason: "the judge counted the seki".into(),
            },
            OperatorCommand::ToggleDead(Point::parse_gtp("C3", 9).unwrap()),
            OperatorCommand::Adjudicate {
                result: "B+3.5".into(),
                reason: "the judge counted".into(),
            },
            OperatorCommand::Adjudicate {
                result: "Void".into(),
                reason: "a power cut".into(),
            },
            OperatorCommand::Resign {
                color: Color::White,
                reason: "its operator gave up".into(),
            },
            OperatorCommand::PauseClocks {
                reason: "a dispute".into(),
            },
            OperatorCommand::Restart {
                color: Color::Black,
                reason: "it stopped answering".into(),
            },
            OperatorCommand::ResumeClocks,
            OperatorCommand::AdjustClock {
                color: Color::Black,
                delta_ms: -30_000,
                reason: "a penalty".into(),
            },
        ];
        for command in commands {
            let line = command.as_line();
            assert_eq!(parse_operator_line(&line, 9), Ok(Some(command)), "{line}");
        }
    }
}
