//! Player adapters: each pairs a protocol machine with a transport and runs as
//! one task, turning the referee's [`Action`]s into protocol traffic and the
//! player's answers into timestamped [`PlayerEvent`]s.

pub mod gtp;
pub mod human;
pub mod sgmp;
pub mod usenix;

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::{Duration, Instant};

use tokio::sync::mpsc;

use crate::bot::Settings;
use crate::seats::link::SeatDesk;
use crate::transport::line::{LineSpec, LineTarget};
use crate::transport::process::{
    describe_exit, exit_text, split_command_line, Process, StderrItem,
    STDERR_FLOOD_BYTES_PER_SECOND,
};
use goref_core::game::clock::{format_duration, parse_duration};
use goref_core::game::rules::Rules;
use goref_core::game::{Color, Move, Point};
use goref_core::protocol::sgmp::session::{LineMemory, Profile};
use goref_core::referee::{Action, Failure, PlayerEvent};

/// How a player is reached, as written on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlayerSpec {
    /// `gtp:CMDLINE`: a GTP engine started as a child process.
    Gtp { command: String },
    /// `bot` or `bot:SEED[,playouts=N][,think=DURATION]`: the built-in
    /// engine, as a GTP child process.
    Bot {
        seed: Option<u64>,
        settings: Settings,
    },
    /// `bot-sgmp[:SEED][,..]` or `bot-gmp[:SEED][,..]`, with the options of
    /// `bot`: the built-in engine on a virtual serial line (a pty pair), as a
    /// child process.
    BotOnLine {
        profile: Profile,
        seed: Option<u64>,
        settings: Settings,
        /// `baud=N`: the virtual line runs at this rate, as a real line
        /// would; at once without it.
        baud: Option<u32>,
    },
    /// `usenix:CMDLINE`: a program speaking the 1987 Usenix referee's line
    /// protocol, started as a child process with the command line as given.
    Usenix { command: String },
    /// `human` or `human:NAME`: the operator types the program's moves.
    Human { name: Option<String> },
    /// `seat:ENTRANT`: a GTP program on its owner's machine, played through
    /// its `goref seat` over TLS.
    Seat { entrant: String },
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
            "bot" => {
                let (seed, settings, baud) = parse_bot(kind, rest).map_err(|why| error(&why))?;
                if baud.is_some() {
                    return Err(error(
                        "baud= is for bot-sgmp and bot-gmp, which are on a line",
                    ));
                }
                Ok(PlayerSpec::Bot { seed, settings })
            }
            "bot-sgmp" | "bot-gmp" => {
                let profile = if kind == "bot-sgmp" {
                    Profile::Sgmp
                } else {
                    Profile::Gmp
                };
                let (seed, settings, baud) = parse_bot(kind, rest).map_err(|why| error(&why))?;
                Ok(PlayerSpec::BotOnLine {
                    profile,
                    seed,
                    settings,
                    baud,
                })
            }
            "human" if rest.is_empty() => Ok(PlayerSpec::Human { name: None }),
            "seat" if rest.is_empty() => Err(error("seat: name the entrant, as seat:NAME")),
            "seat" if rest.chars().any(char::is_whitespace) => {
                Err(error("an entrant's name has no spaces"))
            }
            "seat" => Ok(PlayerSpec::Seat {
                entrant: rest.to_string(),
            }),
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
            "usenix" if rest.trim().is_empty() => Err(error("usenix: needs a command line")),
            "usenix" => Ok(PlayerSpec::Usenix {
                command: rest.trim().to_string(),
            }),
            _ => Err(error(
                "expected gtp:CMDLINE, usenix:CMDLINE, sgmp:DEVICE, gmp:DEVICE, \
                 sgmp-tcp:HOST:PORT, gmp-tcp:HOST:PORT, bot, bot-sgmp or human",
            )),
        }
    }
}

/// The part of a `bot` spec after the colon:
/// `[SEED][,playouts=N][,think=DURATION][,baud=N]`.
fn parse_bot(kind: &str, rest: &str) -> Result<(Option<u64>, Settings, Option<u32>), String> {
    let mut seed = None;
    let mut settings = Settings::default();
    let mut baud = None;
    if rest.is_empty() {
        return Ok((seed, settings, baud));
    }
    for (n, item) in rest.split(',').enumerate() {
        match item.split_once('=') {
            None if n == 0 && item.is_empty() => {}
            None if n == 0 => {
                seed = Some(
                    item.parse()
                        .map_err(|_| format!("{kind}:SEED needs a whole number"))?,
                )
            }
            None => return Err(format!("'{item}' is not an option: expected NAME=VALUE")),
            Some(("playouts", value)) => {
                settings.playouts = value
                    .parse()
                    .map_err(|_| "playouts= needs a whole number".to_string())?
            }
            Some(("think", value)) => {
                settings.think = parse_duration(value)
                    .map_err(|_| "think= needs a duration such as 500ms or 1.5s".to_string())?
            }
            Some(("baud", value)) => {
                baud = Some(
                    value
                        .parse()
                        .ok()
                        .filter(|&b: &u32| b >= 50)
                        .ok_or("baud= needs a rate of at least 50, e.g. baud=2400")?,
                )
            }
            Some((name, _)) => {
                return Err(format!(
                    "unknown option '{name}': {kind} takes playouts=N, think=DURATION \
                     and, on a line, baud=N"
                ))
            }
        }
    }
    Ok((seed, settings, baud))
}

impl PlayerSpec {
    /// A short name for a folder or a list: the program's file name, the
    /// line's device or port, `bot`, `human`.
    pub fn short_name(&self) -> String {
        let file_name = |path: &str| {
            std::path::Path::new(path)
                .file_name()
                .map_or_else(|| path.to_string(), |n| n.to_string_lossy().into_owned())
        };
        match self {
            PlayerSpec::Gtp { command } => {
                file_name(command.split_whitespace().next().unwrap_or("gtp"))
            }
            PlayerSpec::Usenix { command } => {
                file_name(command.split_whitespace().next().unwrap_or("usenix"))
            }
            PlayerSpec::Bot { .. } => "bot".into(),
            PlayerSpec::BotOnLine { .. } => "bot-line".into(),
            PlayerSpec::Human { name } => name.clone().unwrap_or_else(|| "human".into()),
            PlayerSpec::Seat { entrant } => entrant.clone(),
            PlayerSpec::Line { line, .. } => match (&line.name, &line.target) {
                (Some(name), _) => name.clone(),
                (None, LineTarget::Device { path, .. }) => file_name(&path.to_string_lossy()),
                (None, LineTarget::Tcp { host, port }) => format!("{host}-{port}"),
            },
        }
    }
}

/// `kind`, then `:SEED,playouts=N,think=D` with only the parts that are set.
fn write_bot(
    f: &mut fmt::Formatter<'_>,
    kind: &str,
    seed: Option<u64>,
    settings: &Settings,
    baud: Option<u32>,
) -> fmt::Result {
    let mut parts: Vec<String> = seed.iter().map(u64::to_string).collect();
    if settings.playouts > 0 {
        parts.push(format!("playouts={}", settings.playouts));
    }
    if !settings.think.is_zero() {
        parts.push(format!("think={}", format_duration(settings.think)));
    }
    if let Some(baud) = baud {
        parts.push(format!("baud={baud}"));
    }
    match parts.is_empty() {
        true => f.write_str(kind),
        false => write!(f, "{kind}:{}", parts.join(",")),
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Gtp { command } => write!(f, "gtp:{command}"),
            PlayerSpec::Usenix { command } => write!(f, "usenix:{command}"),
            PlayerSpec::Bot { seed, settings } => write_bot(f, "bot", *seed, settings, None),
            PlayerSpec::Human { name: None } => f.write_str("human"),
            PlayerSpec::Human { name: Some(name) } => write!(f, "human:{name}"),
            PlayerSpec::Seat { entrant } => write!(f, "seat:{entrant}"),
            PlayerSpec::Line { text, .. } => f.write_str(text),
            PlayerSpec::BotOnLine {
                profile,
                seed,
                settings,
                baud,
            } => {
                let kind = match profile {
                    Profile::Sgmp => "bot-sgmp",
                    Profile::Gmp => "bot-gmp",
                };
                write_bot(f, kind, *seed, settings, *baud)
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
    /// The moves played before this player joined the game (a resumed game,
    /// a restarted engine), which it is told before it is asked to play.
    pub position: Vec<(Color, Move)>,
    /// For a line player of a resumed game: what the journal's trace of its
    /// line says. The line goes on where its link left off.
    pub line: Option<LineMemory>,
    /// The seats of the entrants played through `goref seat`.
    pub seats: SeatDesk,
    /// Ask an engine that can for its analysis with each move, an `info`
    /// line this often; `None`: never.
    pub analysis: Option<Duration>,
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
    pub(crate) fn send_at(&self, at: Instant, event: PlayerEvent) {
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

/// A program's CPU time over one move request, read every second: the CPU
/// time a CPU-time clock has to charge so far, and the idle rule.
struct CpuWatch {
    at_start: Duration,
    seen: Duration,
    grew_at: Instant,
}

impl CpuWatch {
    fn at_start(&self) -> Duration {
        self.at_start
    }

    fn new(at_start: Duration, now: Instant) -> CpuWatch {
        CpuWatch {
            at_start,
            seen: at_start,
            grew_at: now,
        }
    }

    /// A reading of the CPU time at `now`: what the referee is to be told,
    /// if anything, or the idle rule's forfeit for `who`.
    fn observe(
        &mut self,
        cpu: Duration,
        now: Instant,
        rules: &Rules,
        who: &str,
    ) -> Result<Option<PlayerEvent>, Failure> {
        if cpu > self.seen {
            self.seen = cpu;
            self.grew_at = now;
        }
        if let Some(limit) = rules.idle_limit {
            if now.saturating_duration_since(self.grew_at) >= limit {
                return Err(Failure::hang(format!(
                    "{who} is stuck: its CPU time did not grow for {} while it was to move \
                     (the idle rule)",
                    format_duration(limit)
                )));
            }
        }
        let so_far = cpu.saturating_sub(self.at_start);
        Ok(rules
            .time
            .counts_cpu()
            .then_some(PlayerEvent::CpuSoFar(so_far)))
    }
}

/// Starts `color`'s program from its command line, with its stderr read
/// into the channel returned; a failure says why it could not start.
pub(crate) fn start_program(
    color: Color,
    command_line: &str,
) -> Result<(Process, mpsc::Receiver<StderrItem>), Failure> {
    let argv = match split_command_line(command_line) {
        Ok(argv) if !argv.is_empty() => argv,
        Ok(_) => return Err(Failure::other(format!("{color}: empty command"))),
        Err(e) => return Err(Failure::other(format!("{color}: {e}"))),
    };
    let (stderr_tx, stderr) = mpsc::channel(256);
    let process =
        Process::spawn(&argv, stderr_tx).map_err(|e| Failure::other(format!("{color}: {e}")))?;
    Ok((process, stderr))
}

/// How long a program whose pipes broke is given to exit, so that how it
/// ended can be told.
const EXIT_GRACE: Duration = Duration::from_millis(500);

/// The failure of a program that went away: `why` words it around how it
/// ended (`exited with status 3`, `was killed by signal 9 (SIGKILL)`).
async fn gone(process: &mut Process, why: impl FnOnce(String) -> String) -> Failure {
    let status = process.wait_exit(EXIT_GRACE).await;
    Failure::crash(why(describe_exit(status)), exit_text(status))
}

/// Writes `bytes`, the line `line`, to the program `who`; a failure says it
/// went away before the line could be sent.
async fn write_line(
    process: &mut Process,
    bytes: &[u8],
    who: &str,
    line: &str,
) -> Result<(), Failure> {
    match process.write(bytes).await {
        Ok(()) => Ok(()),
        Err(e) => Err(gone(process, |how| {
            format!("{who} {how} before '{line}' could be sent ({e})")
        })
        .await),
    }
}

/// What the operator is told, once, of a program that floods its stderr.
fn stderr_flood_notice() -> String {
    format!(
        "floods its stderr (beyond {} KiB a second): further lines are counted, not shown",
        STDERR_FLOOD_BYTES_PER_SECOND / 1024
    )
}

/// Whether `notice` is the one [`stderr_flood_notice`] words.
pub(crate) fn is_stderr_flood_notice(notice: &str) -> bool {
    notice == stderr_flood_notice()
}

/// The trace line that counts the stderr lines of a flood left out.
fn stderr_left_out(lines: u64, bytes: u64) -> String {
    format!("[goref: {lines} stderr lines ({bytes} bytes) not shown]")
}

/// The counts of a trace line [`stderr_left_out`] wrote, or `None` for any
/// other line.
pub(crate) fn read_stderr_left_out(line: &str) -> Option<(u64, u64)> {
    let rest = line.strip_prefix("[goref: ")?;
    let (lines, rest) = rest.split_once(" stderr lines (")?;
    let (bytes, _) = rest.split_once(" bytes")?;
    Some((lines.parse().ok()?, bytes.parse().ok()?))
}

/// What a program wrote to stderr before it exited: until its stderr closes
/// or is quiet for a moment, and for a second at most.
pub(crate) async fn drain_stderr(stderr: &mut mpsc::Receiver<StderrItem>) -> Vec<StderrItem> {
    let linger = Duration::from_millis(200);
    let give_up = crate::shell_time::now() + Duration::from_secs(1);
    let mut items = Vec::new();
    while crate::shell_time::now() < give_up {
        match tokio::time::timeout(linger, stderr.recv()).await {
            Ok(Some(item)) => items.push(item),
            _ => break,
        }
    }
    items
}

/// The `goref bot` arguments for `settings`: none for the defaults, so a
/// plain `bot` starts exactly as it always has.
fn bot_args(settings: &Settings) -> Vec<String> {
    let mut args = Vec::new();
    if settings.playouts > 0 {
        args.extend(["--playouts".to_string(), settings.playouts.to_string()]);
    }
    if !settings.think.is_zero() {
        args.extend([
            "--think-ms".to_string(),
            settings.think.as_millis().to_string(),
        ]);
    }
    args
}

/// The command line that starts the built-in engine over GTP.
pub(crate) fn bot_command(self_exe: &std::path::Path, seed: u64, settings: &Settings) -> String {
    let exe = self_exe.to_string_lossy();
    let mut command = format!("'{exe}' bot --gtp --seed {seed}");
    for arg in bot_args(settings) {
        command.push(' ');
        command.push_str(&arg);
    }
    command
}

/// Why the player `spec` names cannot be started on this machine, found
/// before any game: a program that is not there or not executable (looked
/// up on `PATH` when its name has no `/`), a serial device that does not
/// exist. None when nothing can be told before it starts.
pub(crate) fn program_problem(spec: &PlayerSpec) -> Option<String> {
    use std::os::unix::fs::PermissionsExt;
    let runnable = |path: &std::path::Path| {
        path.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    match spec {
        PlayerSpec::Gtp { command } | PlayerSpec::Usenix { command } => {
            let words = crate::transport::process::split_command_line(command).ok()?;
            let program = words.first()?;
            if program.contains('/') {
                let path = std::path::Path::new(program);
                return match (path.exists(), runnable(path)) {
                    (false, _) => Some(format!("{program}: no such program")),
                    (true, false) => Some(format!("{program}: not an executable file")),
                    (true, true) => None,
                };
            }
            let on_path = std::env::var_os("PATH").is_some_and(|dirs| {
                std::env::split_paths(&dirs).any(|d| runnable(&d.join(program)))
            });
            (!on_path).then(|| format!("{program}: no such program on PATH"))
        }
        PlayerSpec::Line { line, .. } => match &line.target {
            LineTarget::Device { path, .. } if !path.exists() => {
                Some(format!("{}: no such device", path.display()))
            }
            _ => None,
        },
        _ => None,
    }
}

/// The command line of a program that speaks GTP on its stdin and stdout,
/// as `spec` names it: a GTP engine's own, or the built-in engine's. None
/// for a player of another kind.
pub fn gtp_command_line(spec: &PlayerSpec, self_exe: &std::path::Path) -> Option<Vec<String>> {
    let line = match spec {
        PlayerSpec::Gtp { command } => command.clone(),
        PlayerSpec::Bot { seed, settings } => bot_command(self_exe, seed.unwrap_or(1), settings),
        _ => return None,
    };
    split_command_line(&line).ok()
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
        PlayerSpec::Bot { seed, settings } => {
            let command = bot_command(&setup.self_exe, seed.unwrap_or(default_seed), settings);
            tokio::spawn(gtp::run(command, spec.to_string(), setup, rx, reporter))
        }
        PlayerSpec::Usenix { command } => {
            let command = command.clone();
            tokio::spawn(usenix::run(command, spec.to_string(), setup, rx, reporter))
        }
        PlayerSpec::Line {
            profile,
            line,
            text,
        } => {
            let (line, text) = (line.clone(), text.clone());
            tokio::spawn(sgmp::run(line, *profile, text, setup, rx, reporter))
        }
        PlayerSpec::BotOnLine {
            profile,
            seed,
            settings,
            baud,
        } => {
            let engine = sgmp::Builtin {
                profile: *profile,
                seed: seed.unwrap_or(default_seed),
                args: bot_args(settings),
                baud: *baud,
            };
            let text = spec.to_string();
            tokio::spawn(sgmp::run_builtin(engine, text, setup, rx, reporter))
        }
        PlayerSpec::Seat { entrant } => {
            let entrant = entrant.clone();
            tokio::spawn(gtp::run_seated(
                entrant,
                spec.to_string(),
                setup,
                rx,
                reporter,
            ))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_that_is_not_there_or_cannot_run_is_found_before_a_game() {
        let problem = |spec: &str| program_problem(&spec.parse::<PlayerSpec>().unwrap());
        assert_eq!(
            problem("gtp:/nonexistent/engine --mode gtp").as_deref(),
            Some("/nonexistent/engine: no such program")
        );
        let plain = tempfile::NamedTempFile::new().unwrap();
        let plain = format!("gtp:{}", plain.path().display());
        assert!(problem(&plain).unwrap().contains("not an executable"));
        assert_eq!(problem("gtp:/bin/sh -c true"), None);
        assert_eq!(problem("gtp:sh -c true"), None);
        assert!(problem("usenix:no-such-program-here")
            .unwrap()
            .contains("on PATH"));
        assert!(problem("sgmp:/dev/no-such-line")
            .unwrap()
            .contains("no such device"));
        assert_eq!(problem("bot"), None);
    }

    fn parse(spec: &str) -> PlayerSpec {
        spec.parse().unwrap()
    }

    fn refused(spec: &str) -> String {
        spec.parse::<PlayerSpec>().unwrap_err().to_string()
    }

    #[test]
    fn plain_bot_specs_mean_what_they_always_meant() {
        let plain = Settings::default();
        assert_eq!(
            parse("bot"),
            PlayerSpec::Bot {
                seed: None,
                settings: plain
            }
        );
        assert_eq!(
            parse("bot:3"),
            PlayerSpec::Bot {
                seed: Some(3),
                settings: plain
            }
        );
        assert_eq!(
            parse("bot-sgmp:5"),
            PlayerSpec::BotOnLine {
                profile: Profile::Sgmp,
                seed: Some(5),
                settings: plain,
                baud: None,
            }
        );
        assert!(bot_args(&plain).is_empty());
        for text in ["bot", "bot:3", "bot-sgmp:5", "bot-gmp"] {
            assert_eq!(parse(text).to_string(), text);
        }
    }

    #[test]
    fn a_bot_on_a_line_may_run_at_a_baud_rate() {
        let spec = parse("bot-sgmp:1,think=500ms,baud=2400");
        let PlayerSpec::BotOnLine { baud, .. } = &spec else {
            panic!("{spec:?}");
        };
        assert_eq!(*baud, Some(2400));
        assert_eq!(spec.to_string(), "bot-sgmp:1,think=0.5s,baud=2400");
        assert!(refused("bot:1,baud=2400").contains("on a line"));
        assert!(refused("bot-gmp:1,baud=fast").contains("baud="));
        assert!(refused("bot-gmp:1,baud=10").contains("at least 50"));
    }

    #[test]
    fn a_bot_spec_carries_playouts_and_think_time() {
        let spec = parse("bot-sgmp:1,playouts=64,think=500ms");
        let settings = Settings {
            playouts: 64,
            think: Duration::from_millis(500),
        };
        assert_eq!(
            spec,
            PlayerSpec::BotOnLine {
                profile: Profile::Sgmp,
                seed: Some(1),
                settings,
                baud: None,
            }
        );
        assert_eq!(spec.to_string(), "bot-sgmp:1,playouts=64,think=0.5s");
        assert_eq!(parse(&spec.to_string()), spec);
        assert_eq!(
            bot_args(&settings),
            ["--playouts", "64", "--think-ms", "500"]
        );
        let seedless = parse("bot:,think=2s");
        assert_eq!(
            seedless,
            PlayerSpec::Bot {
                seed: None,
                settings: Settings {
                    playouts: 0,
                    think: Duration::from_secs(2)
                }
            }
        );
        assert_eq!(seedless.to_string(), "bot:think=2s");
        assert_eq!(parse(&seedless.to_string()), seedless);
        assert_eq!(
            parse("bot:playouts=8"),
            PlayerSpec::Bot {
                seed: None,
                settings: Settings {
                    playouts: 8,
                    think: Duration::ZERO
                }
            }
        );
    }

    #[test]
    fn a_cpu_watch_tells_the_cpu_time_so_far_and_calls_a_stall_past_the_idle_limit() {
        let t = crate::test_support::epoch();
        let mut rules = Rules::preset(goref_core::game::rules::Preset::Usenix);
        rules.idle_limit = Some(Duration::from_secs(10));
        let s = Duration::from_secs;
        let mut watch = CpuWatch::new(s(100), t);
        assert_eq!(
            watch.observe(s(103), t + s(5), &rules, "B"),
            Ok(Some(PlayerEvent::CpuSoFar(s(3))))
        );
        assert!(watch.observe(s(103), t + s(14), &rules, "B").is_ok());
        let stuck = watch.observe(s(103), t + s(15), &rules, "B").unwrap_err();
        assert!(stuck.reason.contains("idle rule"), "{stuck:?}");
        assert_eq!(stuck.kind, goref_core::referee::FailureKind::Hang);

        rules.time = goref_core::game::clock::TimeSystem::None;
        rules.idle_limit = None;
        let mut watch = CpuWatch::new(s(0), t);
        assert_eq!(watch.observe(s(0), t + s(3600), &rules, "B"), Ok(None));
    }

    #[test]
    fn a_left_out_count_is_read_back_and_a_flood_notice_known() {
        assert_eq!(
            read_stderr_left_out("[goref: 12 stderr lines (3400 bytes) not shown]"),
            Some((12, 3400))
        );
        assert_eq!(
            read_stderr_left_out(&stderr_left_out(7, 900)),
            Some((7, 900))
        );
        assert_eq!(read_stderr_left_out("ordinary stderr"), None);
        assert!(is_stderr_flood_notice(&stderr_flood_notice()));
        assert!(!is_stderr_flood_notice("floods"));
    }

    #[test]
    fn a_usenix_spec_keeps_its_command_line_as_given() {
        let spec = parse("usenix:./oldprog --level 2");
        assert_eq!(
            spec,
            PlayerSpec::Usenix {
                command: "./oldprog --level 2".into()
            }
        );
        assert_eq!(spec.to_string(), "usenix:./oldprog --level 2");
        assert_eq!(spec.short_name(), "oldprog");
        assert!(refused("usenix:").contains("needs a command line"));
        assert!(refused("nonsense:x").contains("usenix:CMDLINE"));
    }

    #[test]
    fn unknown_or_malformed_bot_options_are_refused_with_a_reason() {
        assert!(refused("bot:1,depth=3").contains("unknown option 'depth'"));
        assert!(refused("bot:1,playouts=many").contains("playouts= needs a whole number"));
        assert!(refused("bot-gmp:1,think=soon").contains("think= needs a duration"));
        assert!(refused("bot:x").contains("bot:SEED needs a whole number"));
        assert!(refused("bot:1,2").contains("'2' is not an option"));
    }
}
