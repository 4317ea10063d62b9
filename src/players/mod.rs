//! Player adapters: each pairs a protocol machine with a transport and runs as
//! one task, turning the referee's [`Action`]s into protocol traffic and the
//! player's answers into timestamped [`PlayerEvent`]s.

pub mod gtp;
pub mod human;
pub mod sgmp;

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::{Duration, Instant};

use tokio::sync::mpsc;

use crate::game::rules::Rules;
use crate::game::{Color, Point};
use crate::protocol::sgmp::session::Profile;
use crate::referee::{Action, PlayerEvent};
use crate::transport::line::LineSpec;

/// How a player is reached, as written on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlayerSpec {
    /// `gtp:CMDLINE`: a GTP engine started as a child process.
    Gtp { command: String },
    /// `bot` or `bot:SEED`: the built-in engine, as a GTP child process.
    Bot { seed: Option<u64> },
    /// `bot-sgmp[:SEED]` or `bot-gmp[:SEED]`: the built-in engine on a
    /// virtual serial line (a pty pair), as a child process.
    BotOnLine { profile: Profile, seed: Option<u64> },
    /// `human` or `human:NAME`: the operator types the program's moves.
    Human { name: Option<String> },
    /// `sgmp:DEVICE[,..]`, `gmp:DEVICE[,..]`, `sgmp-tcp:HOST:PORT`,
    /// `gmp-tcp:HOST:PORT`: a program on a GMP line.
    Line {
        profile: Profile,
        line: LineSpec,
        text: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{spec}' is not a player: {why}")]
pub struct SpecError {
    pub spec: String,
    pub why: String,
}

impl FromStr for PlayerSpec {
    type Err = SpecError;

    fn from_str(spec: &str) -> Result<Self, Self::Err> {
        let error = |why: &str| SpecError {
            spec: spec.to_string(),
            why: why.to_string(),
        };
        let (kind, rest) = spec.split_once(':').unwrap_or((spec, ""));
        match kind {
            "gtp" if rest.trim().is_empty() => Err(error("gtp: needs a command line")),
            "gtp" => Ok(PlayerSpec::Gtp {
                command: rest.trim().to_string(),
            }),
            "bot" if rest.is_empty() => Ok(PlayerSpec::Bot { seed: None }),
            "bot" => rest
                .parse()
                .map(|seed| PlayerSpec::Bot { seed: Some(seed) })
                .map_err(|_| error("bot:SEED needs a whole number")),
            "bot-sgmp" | "bot-gmp" => {
                let profile = if kind == "bot-sgmp" {
                    Profile::Sgmp
                } else {
                    Profile::Gmp
                };
                let seed = match rest {
                    "" => None,
                    seed => Some(
                        seed.parse()
                            .map_err(|_| error("bot-sgmp:SEED needs a whole number"))?,
                    ),
                };
                Ok(PlayerSpec::BotOnLine { profile, seed })
            }
            "human" if rest.is_empty() => Ok(PlayerSpec::Human { name: None }),
            "human" => Ok(PlayerSpec::Human {
                name: Some(rest.to_string()),
            }),
            "sgmp" | "gmp" | "sgmp-tcp" | "gmp-tcp" => {
                let profile = if kind.starts_with("sgmp") {
                    Profile::Sgmp
                } else {
                    Profile::Gmp
                };
                let line = if kind.ends_with("-tcp") {
                    LineSpec::parse_tcp(rest)
                } else {
                    LineSpec::parse_device(rest)
                };
                let line = line.map_err(|e| error(&e.to_string()))?;
                Ok(PlayerSpec::Line {
                    profile,
                    line,
                    text: spec.to_string(),
                })
            }
            "usenix" => Err(error(
                "this kind of player is not available in this version of goref",
            )),
            _ => Err(error(
                "expected gtp:CMDLINE, sgmp:DEVICE, gmp:DEVICE, sgmp-tcp:HOST:PORT, \
                 gmp-tcp:HOST:PORT, bot, bot-sgmp or human",
            )),
        }
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Gtp { command } => write!(f, "gtp:{command}"),
            PlayerSpec::Bot { seed: None } => f.write_str("bot"),
            PlayerSpec::Bot { seed: Some(seed) } => write!(f, "bot:{seed}"),
            PlayerSpec::Human { name: None } => f.write_str("human"),
            PlayerSpec::Human { name: Some(name) } => write!(f, "human:{name}"),
            PlayerSpec::Line { text, .. } => f.write_str(text),
            PlayerSpec::BotOnLine { profile, seed } => {
                let kind = match profile {
                    Profile::Sgmp => "bot-sgmp",
                    Profile::Gmp => "bot-gmp",
                };
                match seed {
                    Some(seed) => write!(f, "{kind}:{seed}"),
                    None => f.write_str(kind),
                }
            }
        }
    }
}

/// Everything a player adapter needs to set its player up for the game.
#[derive(Debug, Clone)]
pub struct PlayerSetup {
    pub color: Color,
    pub size: u8,
    pub rules: Rules,
    pub handicap: Vec<Point>,
    /// The deadline for any command other than a move request.
    pub command_timeout: Duration,
    /// The goref binary, for `bot` players.
    pub self_exe: PathBuf,
}

/// A player event with the instant it happened and who it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    pub color: Color,
    pub at: Instant,
    pub event: PlayerEvent,
}

/// Sends reports to the driver, stamped with the shell's clock.
#[derive(Debug, Clone)]
pub struct Reporter {
    color: Color,
    tx: mpsc::UnboundedSender<Report>,
}

impl Reporter {
    pub fn new(color: Color, tx: mpsc::UnboundedSender<Report>) -> Self {
        Reporter { color, tx }
    }

    pub fn send(&self, event: PlayerEvent) {
        self.send_at(crate::shell_time::now(), event);
    }

    /// Sends an event that happened at `at`, e.g. the moment a packet that
    /// handed the program its turn was written.
    pub fn send_at(&self, at: Instant, event: PlayerEvent) {
        let _ = self.tx.send(Report {
            color: self.color,
            at,
            event,
        });
    }
}

/// A running player adapter.
pub struct PlayerHandle {
    pub color: Color,
    pub actions: mpsc::UnboundedSender<Action>,
    /// Typed lines, for a player whose moves the operator types.
    pub lines: Option<mpsc::UnboundedSender<String>>,
    pub task: tokio::task::JoinHandle<()>,
}

/// Starts the adapter for `spec` as a task. It reads actions from the
/// handle's sender and reports through `reports`.
pub fn spawn(
    spec: &PlayerSpec,
    setup: PlayerSetup,
    reports: mpsc::UnboundedSender<Report>,
) -> PlayerHandle {
    let (actions, rx) = mpsc::unbounded_channel();
    let color = setup.color;
    let reporter = Reporter::new(color, reports);
    let default_seed = color.index() as u64 + 1;
    let mut lines = None;
    let task = match spec {
        PlayerSpec::Gtp { command } => {
            let command = command.clone();
            tokio::spawn(gtp::run(command, spec.to_string(), setup, rx, reporter))
        }
        PlayerSpec::Bot { seed } => {
            let seed = seed.unwrap_or(default_seed);
            let exe = setup.self_exe.to_string_lossy();
            let command = format!("'{exe}' bot --gtp --seed {seed}");
            tokio::spawn(gtp::run(command, spec.to_string(), setup, rx, reporter))
        }
        PlayerSpec::Line {
            profile,
            line,
            text,
        } => {
            let (line, text) = (line.clone(), text.clone());
            tokio::spawn(sgmp::run(line, *profile, text, setup, rx, reporter))
        }
        PlayerSpec::BotOnLine { profile, seed } => {
            let seed = seed.unwrap_or(default_seed);
            let text = spec.to_string();
            tokio::spawn(sgmp::run_builtin(*profile, seed, text, setup, rx, reporter))
        }
        PlayerSpec::Human { name } => {
            let (tx, lines_rx) = mpsc::unbounded_channel();
            lines = Some(tx);
            let name = name.clone().unwrap_or_default();
            tokio::spawn(human::run(name, setup, rx, lines_rx, reporter))
        }
    };
    PlayerHandle {
        color,
        actions,
        lines,
        task,
    }
}
