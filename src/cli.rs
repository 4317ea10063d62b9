//! The command line (DESIGN.md §3), declared with clap.
//!
//! The doc comments here are the `--help` text, written for a terminal:
//! their brackets are the flags' syntax (`gtp:CMD[,opts]`), not links.
#![allow(rustdoc::broken_intra_doc_links)]

use std::path::PathBuf;

use clap::builder::{PossibleValue, StringValueParser, TypedValueParser};
use clap::{Args, Parser, Subcommand};

mod seat;
pub use seat::SeatArgs;

#[derive(Debug, Parser)]
#[command(
    name = "goref",
    version,
    about = "A terminal referee for computer Go tournaments",
    long_about = "goref drives a game between two Go programs, enforces the rules and the \
                  clocks, runs the end-of-game agreement and writes the SGF record after \
                  every move. With no command it plays the demo game."
)]
pub struct Cli {
    /// Write a log (tracing) to this file.
    #[arg(long, global = true, value_name = "FILE")]
    pub log: Option<PathBuf>,

    /// Watch a game or an event another goref serves with --serve, or
    /// publishes with --publish (nats://HOST:PORT/EVENT[/BOARD]): the same
    /// screen, live and read-only, drawn at this terminal's size.
    #[arg(long, value_name = "HOST:PORT|nats://HOST:PORT/EVENT")]
    pub watch: Option<String>,

    #[command(flatten)]
    pub watching: WatchArgs,

    #[command(subcommand)]
    pub command: Option<Command>,
}

/// How `--watch` shows the game.
#[derive(Debug, Args, Default, Clone)]
pub struct WatchArgs {
    /// With --watch: the token the referee asks for (or set GOREF_TOKEN).
    #[arg(
        long = "token",
        id = "watch_token",
        value_name = "T",
        requires = "watch"
    )]
    pub token: Option<String>,
    /// With --watch: no full screen; progress lines on stderr.
    #[arg(long = "headless", id = "watch_headless", requires = "watch")]
    pub headless: bool,
    /// With --watch --headless: the game's events as JSON lines on stdout,
    /// each once, as `goref play --json` prints them.
    #[arg(long = "json", id = "watch_json", requires = "watch_headless")]
    pub json: bool,
    /// With --watch: the screen's colours (default, light, high-contrast,
    /// mono, or a TOML theme file).
    #[arg(
        long = "theme",
        id = "watch_theme",
        value_name = "NAME|PATH",
        requires = "watch",
        value_parser = Suggest(crate::ui::theme::BUILTIN_NAMES),
        hide_possible_values = true
    )]
    pub theme: Option<String>,
    /// With --watch: a TOML file of keys in place of the defaults.
    #[arg(
        long = "keys",
        id = "watch_keys",
        value_name = "FILE",
        requires = "watch"
    )]
    pub keys: Option<PathBuf>,
    /// With --watch of an event's hall: open board N at once (esc: the
    /// hall).
    #[arg(
        long = "board",
        id = "watch_board",
        value_name = "N",
        requires = "watch"
    )]
    pub board: Option<u32>,
}

impl WatchArgs {
    /// The screen's look, as the other commands take it.
    pub fn screen(&self) -> ScreenArgs {
        ScreenArgs {
            theme: self.theme.clone(),
            keys: self.keys.clone(),
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// The demo game: the built-in engine against itself.
    Demo(DemoArgs),
    /// Referee one game between two players.
    Play(Box<PlayArgs>),
    /// Run the built-in engine.
    Bot(BotArgs),
    /// Decode a raw GMP byte capture, a goref trace or a hex packet log.
    Decode(DecodeArgs),
    /// Check a --trace file and print it back, or a summary.
    ///
    /// Reads a --trace file (or saved --json output) back: with --headless
    /// --json it prints the stream again as a viewer reads it, otherwise a
    /// summary. The first inconsistent line is named, with exit status 2.
    Replay(ReplayArgs),
    /// Continue a game whose referee stopped (killed, a power cut), from
    /// the journal in its folder.
    ///
    /// The board, the move number, the phase and the clocks come back as
    /// the journal last showed them; the time goref was down is charged to
    /// nobody. GTP engines are started again with the same command lines
    /// and told every move before they are asked to play.
    Resume(Box<ResumeArgs>),
    /// Bring back the full screen of a game goref is refereeing, with the
    /// operator's commands, through its folder's socket (after an SSH drop).
    ///
    /// Quitting the attached screen leaves the game playing. Several
    /// screens may be attached at once; the socket's file permissions
    /// (this user only) are the access control.
    Attach(AttachArgs),
    /// Check one program before a round: does it answer everything a game
    /// under these rules will send, and does its line come up right.
    ///
    /// Prints a card: each check pass, warn or fail with a one-line reason.
    /// A GTP engine is set up and asked for moves by the referee's own GTP
    /// player; a GMP or SGMP line runs the referee's own session in the
    /// role the colour implies; the built-in engine plays the other side.
    /// Exit status 0 when nothing fails, 1 when something does.
    Check(Box<CheckArgs>),
    /// Rank an event's games: the crosstable with the tie-breaks.
    ///
    /// Ranks an event's folder (goref standings DIR), or reads a plain list of games, `round,black,white,result` (results as
    /// SGF writes them: B+R, W+3.5, B+T, W+F, B+, 0 for jigo, Void; BYE as
    /// the white player of a bye), and prints the crosstable fitted to the
    /// terminal: rank (`3=` when shared), number, name, a cell per round
    /// (`2w+R`: against number 2, as White, won by resignation), the
    /// score and each tie-break.
    #[command(override_usage = "goref standings DIR [--json|--csv]\n       \
                                goref standings --games FILE.csv [--tie-breaks cgf|kgs|LIST] \
                                [--bye-score N] [--json|--csv]")]
    Standings(StandingsArgs),
    /// A tournament in one folder: the rounds, every board its own goref.
    ///
    /// Before each round it shows the standings and the proposed pairing
    /// and waits for the director's answer (y, swap N, repair, withdraw,
    /// add, result, q), or confirms it with --yes; then every board of the
    /// round plays at once, each in its own game folder under
    /// DIR/round-N/. Every decision and every board's start and end go to
    /// DIR/event.jsonl; run it again after a kill and it goes on where the
    /// event stands. The standings are in DIR/standings.html after each
    /// round, and goref standings DIR prints them.
    ///
    /// --serve, --web and --publish serve the event: its hall and every
    /// board, live, to goref --watch, to browsers and through a NATS
    /// broker; the hall's title says where it serves and how many watch.
    #[command(override_usage = "goref event init DIR\n       \
                                goref event DIR [--headless] [--yes] [--json] \
                                [--serve ADDR] [--web ADDR] [--publish nats://HOST:PORT[/NAME]]\n       \
                                goref event DIR result ROUND BLACK WHITE RESULT --reason TEXT\n       \
                                goref event DIR retry ROUND BOARD\n       \
                                goref event DIR seats")]
    Event(EventArgs),
    /// An engine author's match in one folder: the candidate against one
    /// opponent (or several, a gauntlet) in colour-swapped pairs of games,
    /// each opening twice, until the pairs asked for are played or the
    /// SPRT decides.
    ///
    /// Every game is its own goref process in its own folder under
    /// DIR/games/; run it again after a kill and it goes on: finished games
    /// keep their results, games under way are resumed, none is played
    /// twice. goref standings DIR prints the figures.
    ///
    /// Each engine's program is started once for each board and kept from
    /// one game to the next (restart = "crash" under its [[engine]], the
    /// default); between games it must answer within ready_timeout
    /// (default "60s"), and one that crashed, hung or was not ready is
    /// started again. restart = "game" starts it afresh for every game.
    ///
    /// With --workers nats://HOST:PORT the match plays no game itself: it
    /// publishes its pairs as jobs on the broker's work queue, goref
    /// workers on any machines play them, and it copies each finished game
    /// into DIR/games/, checked against its manifest, and counts it once.
    ///
    /// Exit status 0 when the match reached its stop, 1 when it was
    /// stopped before (q, Ctrl-C, SIGTERM), 2 when it could not go on.
    #[command(override_usage = "goref match init DIR\n       \
                                goref match DIR [--headless] [--json]\n       \
                                goref match DIR --workers nats://HOST:PORT [--headless] [--json]")]
    Match(MatchArgs),
    /// Play matches' games handed out by a NATS JetStream broker, for
    /// goref match DIR --workers on another machine.
    ///
    /// Takes one job (an opening pair: two games) per free slot, maps its
    /// engine names through the worker file (a job never carries a
    /// command), plays each game in its own local goref under --dir,
    /// puts the finished folders in the broker's object store, publishes
    /// the result and only then acknowledges the job. A job naming an
    /// engine this worker lacks is handed back at once for another worker.
    /// Each slot keeps its programs across the jobs of one match (restart =
    /// "crash" under the file's [[engine]], the default; ready_timeout
    /// bounds their answer between games) and starts them afresh for
    /// another match's job. Ctrl-C or SIGTERM hands back the jobs held.
    #[command(
        override_usage = "goref worker nats://HOST:PORT [--config worker.toml] \
                                [--slots N] [--headless]"
    )]
    Worker(WorkerArgs),
    /// Connect a program on this machine to a venue's referee, as one
    /// entrant's seat.
    ///
    /// Starts the program (the command line after --), dials the venue over
    /// TLS, refuses any venue whose certificate is not the one pinned, and
    /// from then on hands the venue's GTP commands to the program and its
    /// answers back, with how long it thought, for every game the entrant
    /// plays. It dials again by itself when the link drops. The program's
    /// stderr stays here, in the log. The venue prints the whole line to
    /// run (goref event DIR seats, or goref play --seats), the token in
    /// GOREF_TOKEN before it: a token is never taken from the command
    /// line, which every user of the machine reads in ps.
    #[command(
        override_usage = "GOREF_TOKEN=TOKEN goref seat HOST:PORT --entrant NAME \
                                --pin sha256:HEX -- PROGRAM [ARGS...]\n       \
                                goref seat HOST:PORT --entrant NAME --token-file FILE \
                                --pin sha256:HEX --engine SPEC"
    )]
    Seat(SeatArgs),
    /// Print the completion script for a shell, generated from these very
    /// flags: `goref completions bash > /etc/bash_completion.d/goref`.
    Completions(CompletionsArgs),
    /// Print the manual page (roff), generated from these very flags:
    /// `goref man | man -l -`.
    Man,
}

/// `goref match`.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// The match's folder, with its match.toml (goref match init writes one).
    pub dir: Option<PathBuf>,
    /// Progress lines on stderr, a line per finished game, and the figures.
    #[arg(long)]
    pub headless: bool,
    /// The figures as a JSON line on stdout after each finished game.
    #[arg(long)]
    pub json: bool,
    /// Have goref workers play the games, through this NATS JetStream
    /// broker: nats://[USER:PASS@]HOST[:PORT].
    #[arg(long, value_name = "nats://HOST:PORT")]
    pub workers: Option<String>,
    /// With --workers: play this many games at once here too, as a worker
    /// of the match's own.
    #[arg(long, value_name = "N", requires = "workers")]
    pub slots: Option<usize>,
    #[command(flatten)]
    pub broker: BrokerArgs,
    #[command(flatten)]
    pub screen: ScreenArgs,
    #[command(subcommand)]
    pub action: Option<MatchAction>,
}

/// The broker's own authentication and TLS, for --workers and goref worker.
#[derive(Debug, Args)]
pub struct BrokerArgs {
    /// A NATS credentials file (a user JWT and its nkey seed).
    #[arg(long, value_name = "FILE")]
    pub creds: Option<PathBuf>,
    /// The CA certificate (PEM) that signed the broker's: TLS is then
    /// required.
    #[arg(long, value_name = "FILE")]
    pub tls_ca: Option<PathBuf>,
}

/// `goref worker`.
#[derive(Debug, Args)]
pub struct WorkerArgs {
    /// The broker: nats://[USER:PASS@]HOST[:PORT].
    pub broker_url: String,
    /// The worker file: the engines by name and their command lines.
    #[arg(long, value_name = "FILE", default_value = "worker.toml")]
    pub config: PathBuf,
    /// Jobs played at once [default: the file's slots, or the cores].
    #[arg(long, value_name = "N")]
    pub slots: Option<usize>,
    /// The worker's name in the match [default: the file's, or HOST-PID].
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// Where the games' folders go, one folder a match.
    #[arg(long, value_name = "DIR", default_value = "goref-worker")]
    pub dir: PathBuf,
    /// Take the jobs of this match only (its name as the match says it);
    /// others are left for other workers.
    #[arg(long, value_name = "MATCH")]
    pub only: Option<String>,
    /// A line per game on stderr, with no screen.
    #[arg(long)]
    pub headless: bool,
    #[command(flatten)]
    pub broker: BrokerArgs,
    #[command(flatten)]
    pub screen: ScreenArgs,
}

#[derive(Debug, Subcommand)]
pub enum MatchAction {
    /// Write DIR/match.toml, commented: the engines, the game settings,
    /// the openings and the stop rule.
    Init {
        /// The match's folder (created if missing).
        dir: PathBuf,
    },
}

/// `goref completions SHELL`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, elvish or powershell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// What a player's spec starts with, as a shell completes it.
const PLAYER_KINDS: &[&str] = &[
    "gtp:",
    "usenix:",
    "sgmp:",
    "gmp:",
    "sgmp-tcp:",
    "gmp-tcp:",
    "human",
    "seat:",
    "bot",
    "bot-sgmp",
    "bot-gmp",
];

/// The rules presets, as a shell completes them.
const RULES_PRESETS: &[&str] = &["kgs", "cgf", "usenix"];

/// Takes any text, as the flag's own checks come later with a message of
/// their own, but names the values a shell completes (a player's kinds,
/// the themes, the rules presets).
#[derive(Debug, Clone, Copy)]
struct Suggest(&'static [&'static str]);

impl TypedValueParser for Suggest {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(self.0.iter().map(PossibleValue::new)))
    }
}

/// `goref event DIR [--headless] [--yes] [--json]`, `goref event init DIR`,
/// `goref event DIR result ROUND BLACK WHITE RESULT --reason TEXT`.
#[derive(Debug, Args)]
pub struct EventArgs {
    /// The event's folder, with its event.toml (goref event init writes one).
    pub dir: Option<PathBuf>,
    /// No hall: progress lines on stderr, the pairing asked on stdin.
    #[arg(long)]
    pub headless: bool,
    /// Confirm each round's pairing without asking.
    #[arg(long)]
    pub yes: bool,
    /// The event's stream on stdout as JSON lines: its own lines (pairing,
    /// board_start, board_end, standings, ...) and every board's events,
    /// each tagged with its round and board.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub screen: ScreenArgs,
    #[command(flatten)]
    pub spectators: SpectatorArgs,
    #[command(subcommand)]
    pub action: Option<EventAction>,
}

#[derive(Debug, Subcommand)]
pub enum EventAction {
    /// Write DIR/event.toml, commented, for the director to fill in: the
    /// event, its system and tie-breaks, the game settings and the entrants.
    Init {
        /// The event's folder (created if missing).
        dir: PathBuf,
    },
    /// Set a game's result by hand (goref event DIR result ...): a board
    /// that cannot finish, or a game played without goref. A running event
    /// takes it in at once.
    #[command(
        override_usage = "goref event DIR result ROUND BLACK WHITE RESULT --reason TEXT [--override]"
    )]
    Result {
        /// The round, from 1.
        round: u32,
        /// Black's entrant name.
        black: String,
        /// White's entrant name.
        white: String,
        /// As SGF writes it: B+R, W+3.5, B+T, W+F, 0 for jigo, Void.
        result: String,
        /// Why: it is kept in the event's journal.
        #[arg(long, value_name = "TEXT")]
        reason: String,
        /// Replace the result the game already has (from play, or set
        /// before); the journal keeps both.
        #[arg(long = "override")]
        over_ride: bool,
    },
    /// Start a board of the round in play again, in a new folder, when it
    /// waits for the director because its game never started (a GMP or
    /// SGMP line that was not connected, a program that was missing) or
    /// its goref failed. A running event starts it at once.
    #[command(override_usage = "goref event DIR retry ROUND BOARD [--reason TEXT]")]
    Retry {
        /// The round, from 1.
        round: u32,
        /// The board, from 1.
        board: u32,
        /// Why: it is kept in the event's journal.
        #[arg(
            long,
            value_name = "TEXT",
            default_value = "the director started it again"
        )]
        reason: String,
    },
    /// Make the event's certificate and its seated entrants' tokens, if the
    /// folder has none yet, and print for each seated entrant the command
    /// its operator runs, to which the program's command line is appended.
    #[command(override_usage = "goref event DIR seats")]
    Seats,
}

#[derive(Debug, Args, Default)]
pub struct StandingsArgs {
    /// An event's folder: its standings from its journal and its games'
    /// folders, ranked by its event file's tie-breaks.
    #[arg(required_unless_present = "games", conflicts_with_all = ["games", "tie_breaks", "bye_score"])]
    pub dir: Option<PathBuf>,
    /// The list of games, as CSV: round,black,white,result.
    #[arg(long, value_name = "FILE.csv")]
    pub games: Option<PathBuf>,
    /// With --games: the tie-breaks after the score: cgf (SOS, SODOS,
    /// trimmed SODOS, head-to-head, pairing number), kgs (SOS, SODOS), or
    /// a list of wins, sos, sosos, sodos, trimmed_sodos, head_to_head,
    /// pairing_number.
    #[arg(long, value_name = "cgf|kgs|LIST", default_value = "kgs")]
    pub tie_breaks: String,
    /// With --games: what a bye scores for its taker, in points (a
    /// multiple of 0.5).
    #[arg(long, value_name = "N", default_value_t = 1.0)]
    pub bye_score: f64,
    /// Print the standings as JSON.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Print the standings as CSV.
    #[arg(long)]
    pub csv: bool,
}

#[derive(Debug, Args, Default)]
pub struct CheckArgs {
    /// The program: gtp:CMDLINE, usenix:CMDLINE, sgmp:DEVICE[,opts],
    /// gmp:DEVICE[,opts], sgmp-tcp:HOST:PORT, gmp-tcp:HOST:PORT or bot.
    #[arg(value_parser = Suggest(PLAYER_KINDS), hide_possible_values = true)]
    pub spec: String,
    /// The colour it plays in the round: black or white.
    #[arg(long, value_name = "COLOR", default_value = "black")]
    pub color: String,
    /// How many moves it is asked for: the first on the empty board, the
    /// rest in the middle of a game.
    #[arg(long, value_name = "N", default_value_t = crate::check::DEFAULT_MOVES)]
    pub moves: u32,
    /// The card as JSON on stdout.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub game: GameArgs,
}

#[derive(Debug, Args, Default)]
pub struct AttachArgs {
    /// The game's folder.
    pub dir: PathBuf,
    #[command(flatten)]
    pub screen: ScreenArgs,
}

#[derive(Debug, Args, Default)]
pub struct ResumeArgs {
    /// The game's folder, as `goref play` made it.
    pub dir: PathBuf,
    /// Reach the seats of seat:NAME players through an event's runner, at
    /// its socket (goref event passes it to its boards).
    #[arg(long, value_name = "SOCKET")]
    pub seat_relay: Option<PathBuf>,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub spectators: SpectatorArgs,
}

/// How long the demo's engines think per move.
pub(crate) const DEMO_THINK: &str = "500ms";
/// The demo engines' playouts per move: recognisable Go within the think time.
pub(crate) const DEMO_PLAYOUTS: u32 = 2000;
/// The demo's clock: the clocks tick, and byo-yomi comes near the end.
pub(crate) const DEMO_TIME: &str = "byoyomi:20s,5s,3";

impl DemoArgs {
    /// `goref` with no command: the demo as `goref demo` plays it.
    pub fn standard() -> DemoArgs {
        DemoArgs {
            size: 9,
            think: DEMO_THINK.into(),
            playouts: DEMO_PLAYOUTS,
            time: DEMO_TIME.into(),
            ..DemoArgs::default()
        }
    }
}

#[derive(Debug, Args, Default)]
pub struct ReplayArgs {
    /// The trace (JSON lines) to read.
    pub file: PathBuf,
    /// No full-screen view (with --json: print the stream back).
    #[arg(long)]
    pub headless: bool,
    /// With --headless: print the stream back as JSON lines, as a viewer
    /// reads it; without, a summary is printed.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub screen: ScreenArgs,
}

#[derive(Debug, Args, Default)]
pub struct DecodeArgs {
    /// The file to decode.
    pub file: PathBuf,
    /// Board size for decoding move positions in a capture or a hex log (a
    /// goref trace names its own, in its game_start).
    #[arg(long, default_value_t = 19)]
    pub size: u8,
}

#[derive(Debug, Args, Default)]
pub struct DemoArgs {
    /// Board size.
    #[arg(long, default_value_t = 9)]
    pub size: u8,
    /// How long the built-in engines think per move, so that a person can
    /// follow the game (0 plays at once).
    #[arg(long, value_name = "DURATION", default_value = DEMO_THINK)]
    pub think: String,
    /// Random playouts per move for the built-in engines (0: random moves).
    #[arg(long, value_name = "N", default_value_t = DEMO_PLAYOUTS)]
    pub playouts: u32,
    /// The demo's clock.
    #[arg(long, value_name = "SPEC", default_value = DEMO_TIME)]
    pub time: String,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub spectators: SpectatorArgs,
}

/// Serving the game to spectators.
#[derive(Debug, Args, Clone)]
pub struct SpectatorArgs {
    /// Serve the game (or the event: its hall and every board) to
    /// read-only spectators on this address, e.g. 0.0.0.0:7777 (port 0
    /// picks one); they run goref --watch HOST:PORT.
    #[arg(long, value_name = "ADDR")]
    pub serve: Option<String>,
    /// The token spectators must give, with --serve and --web (or set
    /// GOREF_TOKEN, kept out of ps); browsers open /?token=T.
    #[arg(long, value_name = "T")]
    pub token: Option<String>,
    /// Publish the stream to a NATS JetStream broker too, for watchers
    /// anywhere: nats://HOST:PORT[/NAME] (NAME: the game folder's or the
    /// event's name); they run goref --watch nats://HOST:PORT/NAME.
    #[arg(long, value_name = "nats://HOST:PORT[/NAME]")]
    pub publish: Option<String>,
    /// Serve a page for browsers on this address, e.g. 0.0.0.0:8080: the
    /// game (or the event's hall) live, read-only; /?projector cycles
    /// through a hall's boards in large type.
    #[arg(long, value_name = "ADDR")]
    pub web: Option<String>,
    /// The most spectators at once.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub max_spectators: usize,
    /// Connects a second let in from one address, after a burst of twice
    /// as many.
    #[arg(long, value_name = "N", default_value_t = 10.0)]
    pub connect_rate: f64,
}

impl Default for SpectatorArgs {
    fn default() -> SpectatorArgs {
        SpectatorArgs {
            serve: None,
            token: None,
            publish: None,
            web: None,
            max_spectators: 1000,
            connect_rate: 10.0,
        }
    }
}

#[derive(Debug, Args, Default, Clone)]
pub struct OutputArgs {
    /// No full-screen view: progress lines on stderr.
    #[arg(long)]
    pub headless: bool,
    /// Print one JSON object per game event on stdout.
    #[arg(long)]
    pub json: bool,
    /// Write the SGF record here, rewritten after every move.
    #[arg(long, value_name = "PATH")]
    pub sgf: Option<PathBuf>,
    /// Write every event, every protocol line included, as JSON lines here.
    #[arg(long, value_name = "PATH")]
    pub trace: Option<PathBuf>,
    /// The game's folder (journal, record, configuration, engine logs):
    /// exactly this one, new or empty. By default a new folder named by
    /// the date, the round and the players goes under --games.
    #[arg(long, value_name = "DIR")]
    pub game_dir: Option<PathBuf>,
    /// Where the default game folders go [default: $GOREF_GAMES, or ./games].
    #[arg(long, value_name = "DIR", conflicts_with = "game_dir")]
    pub games: Option<PathBuf>,
    /// Show the engines' stderr lines among the progress lines (they are
    /// always in the trace and in the --json stream).
    #[arg(long)]
    pub engine_stderr: bool,
    #[command(flatten)]
    pub screen: ScreenArgs,
}

/// How the full screen looks and which keys it takes.
#[derive(Debug, Args, Default, Clone)]
pub struct ScreenArgs {
    /// The screen's colours: default, light, high-contrast, mono, or a TOML
    /// theme file (NO_COLOR selects mono unless this is given).
    #[arg(long, value_name = "NAME|PATH", value_parser = Suggest(crate::ui::theme::BUILTIN_NAMES), hide_possible_values = true)]
    pub theme: Option<String>,
    /// A TOML file of keys ([keys] quit = ["q"]) in place of the defaults.
    #[arg(long, value_name = "FILE")]
    pub keys: Option<PathBuf>,
}

#[derive(Debug, Args, Default)]
pub struct PlayArgs {
    /// Black: gtp:CMDLINE, usenix:CMDLINE, sgmp:DEVICE[,opts], gmp:DEVICE[,opts],
    /// sgmp-tcp:HOST:PORT, gmp-tcp:HOST:PORT, human[:NAME], bot[:SEED],
    /// bot-sgmp[:SEED] or bot-gmp[:SEED].
    #[arg(long, value_name = "SPEC", value_parser = Suggest(PLAYER_KINDS), hide_possible_values = true)]
    pub black: Option<String>,
    /// White: gtp:CMDLINE, usenix:CMDLINE, sgmp:DEVICE[,opts], gmp:DEVICE[,opts],
    /// sgmp-tcp:HOST:PORT, gmp-tcp:HOST:PORT, human[:NAME], bot[:SEED],
    /// bot-sgmp[:SEED] or bot-gmp[:SEED].
    #[arg(long, value_name = "SPEC", value_parser = Suggest(PLAYER_KINDS), hide_possible_values = true)]
    pub white: Option<String>,
    #[command(flatten)]
    pub game: GameArgs,
    /// Tournament name for the record (SGF EV).
    #[arg(long, value_name = "TEXT")]
    pub event: Option<String>,
    /// Round for the record (SGF RO).
    #[arg(long, value_name = "TEXT")]
    pub round: Option<String>,
    /// Place for the record (SGF PC).
    #[arg(long, value_name = "TEXT")]
    pub place: Option<String>,
    /// Listen on ADDR (HOST:PORT) for the seats of seat:NAME players: each
    /// seated side's `goref seat` line is printed when the game starts, and
    /// the game waits for it to connect.
    #[arg(long, value_name = "ADDR")]
    pub seats: Option<String>,
    /// The folder of the seats' certificate and tokens, made when missing
    /// [default: goref-seats].
    #[arg(long, value_name = "DIR", requires = "seats")]
    pub seat_keys: Option<PathBuf>,
    /// Ask the seats for their programs' stderr, for the trace; without
    /// it, it stays on the seats' machines.
    #[arg(long, requires = "seats")]
    pub seat_stderr: bool,
    /// Reach the seats of seat:NAME players through an event's runner, at
    /// its socket (goref event passes it to its boards).
    #[arg(long, value_name = "SOCKET", conflicts_with = "seats")]
    pub seat_relay: Option<PathBuf>,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub spectators: SpectatorArgs,
}

/// The game's settings, as `play` takes them and `check` checks a program
/// for: the rules, the board, the clock, the deadlines, a game file.
#[derive(Debug, Args, Default, Clone)]
pub struct GameArgs {
    /// Rules preset: kgs, cgf or usenix.
    #[arg(long, value_name = "PRESET", value_parser = Suggest(RULES_PRESETS), hide_possible_values = true)]
    pub rules: Option<String>,
    /// Board size, 2 to 25.
    #[arg(long, value_name = "N")]
    pub size: Option<u8>,
    /// Komi, from -1000 to 1000 (overrides the preset).
    #[arg(long, value_name = "K", allow_negative_numbers = true)]
    pub komi: Option<f64>,
    /// Fixed handicap stones on the standard points.
    #[arg(long, value_name = "N")]
    pub handicap: Option<u8>,
    /// Free handicap placement: the stones' points, e.g. D4,Q16,K10.
    #[arg(long, value_name = "POINTS", conflicts_with = "handicap")]
    pub handicap_stones: Option<String>,
    /// The game's first moves, played for both players before the first is
    /// asked for a move (a match's opening): E5,C3,G7.
    #[arg(long, value_name = "POINTS")]
    pub opening: Option<String>,
    /// When the journal waits for the disk: move (before each move is
    /// relayed, the default) or result (before the result only; a power cut
    /// may take a game's last moves, a kill takes none).
    #[arg(long, value_name = "WHEN")]
    pub journal_sync: Option<String>,
    /// Never ask engines for their analysis (winrates, variations); by
    /// default an engine that lists kata-, lz- or cgos-genmove_analyze is
    /// asked its moves with it.
    #[arg(long)]
    pub no_analysis: bool,
    /// How often an engine asked for its analysis sends a line while it
    /// thinks (default 1s).
    #[arg(long, value_name = "DURATION")]
    pub analysis_interval: Option<String>,
    /// Time system: none, absolute:50m, byoyomi:5m,30s,3, canadian:10m,5m,25, fischer:5m,2s, cpu:60m,10s.
    #[arg(long, value_name = "SPEC")]
    pub time: Option<String>,
    /// Ko rule: simple, positional, situational, or lax (a ko recapture is
    /// played and noted, as the 1987 Usenix referee did; overrides the preset).
    #[arg(long, value_name = "RULE")]
    pub ko: Option<String>,
    /// Allow suicide (overrides the preset).
    #[arg(long)]
    pub allow_suicide: bool,
    /// The longest one move may take, whatever the clock says, e.g. 10m.
    #[arg(long, value_name = "DURATION")]
    pub move_timeout: Option<String>,
    /// The deadline for every command other than a move request, e.g. 30s.
    #[arg(long, value_name = "DURATION")]
    pub command_timeout: Option<String>,
    /// A time-out before this move number loses on time; from it on, the judge decides (0: never).
    #[arg(long, value_name = "N")]
    pub time_loss_before: Option<u32>,
    /// Stop the game for the judge once this many moves are played (0: never).
    #[arg(long, value_name = "N")]
    pub stop_at: Option<u32>,
    /// Whether passes count as moves for the two limits above.
    #[arg(long, value_name = "BOOL")]
    pub count_passes: Option<bool>,
    /// How many times a GTP engine that crashes during play is started
    /// again, told the position, its clock running throughout, before its
    /// crash forfeits [default by --rules: kgs 1, cgf 0, usenix 0].
    #[arg(long, value_name = "N")]
    pub restart_crashed: Option<u32>,
    /// For a seated program (seat:NAME): how much less than the venue's own
    /// measure of a move its clock may be charged, on the seat's word for
    /// its thinking, e.g. 1s; 0 charges the venue's measure [default: 1s].
    #[arg(long, value_name = "DURATION")]
    pub lag_allowance: Option<String>,
    /// A program (Usenix or GTP) whose CPU time does not grow for this long
    /// while it is to move is stuck and forfeits, e.g. 10m, or off [default
    /// by --rules: usenix 10m, others off].
    #[arg(long, value_name = "DURATION")]
    pub idle_limit: Option<String>,
    /// What a Usenix program that starts a child process gets: forfeit or
    /// report [default by --rules: usenix forfeit, others report].
    #[arg(long, value_name = "RULE")]
    pub forks: Option<String>,
    /// A game file (TOML); flags given here override it.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

#[derive(Debug, Args, Default)]
pub struct BotArgs {
    /// Speak GTP on stdin and stdout (the default).
    #[arg(long, conflicts_with_all = ["sgmp", "gmp"])]
    pub gtp: bool,
    /// Play on a line with the CGF simplified GMP: DEVICE[,baud=2400][,flow=..][,resend=20s].
    #[arg(
        long,
        value_name = "DEVICE",
        requires = "color",
        conflicts_with = "gmp"
    )]
    pub sgmp: Option<String>,
    /// Play on a line with full GMP.
    #[arg(long, value_name = "DEVICE", requires = "color")]
    pub gmp: Option<String>,
    /// The engine's colour on the line: black or white.
    #[arg(long, value_name = "COLOR")]
    pub color: Option<String>,
    /// After a game on a line, write the engine's own record of it here.
    #[arg(long, value_name = "PATH")]
    pub record: Option<PathBuf>,
    /// Board size it starts with (GTP `boardsize` changes it).
    #[arg(long, default_value_t = 19)]
    pub size: u8,
    /// Seed for its random choices: the same seed plays the same game.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// On a line: the handicap of the game, on the standard points (GTP
    /// engines are told theirs with `fixed_handicap`).
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub handicap: u8,
    /// Random playouts per move (Monte-Carlo play); 0 plays random moves.
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub playouts: u32,
    /// Answer a move request no sooner than this many milliseconds after it.
    #[arg(long, default_value_t = 0, value_name = "MS")]
    pub think_ms: u64,
    /// On a line: go on in the middle of a game with these moves played,
    /// e.g. B:D4,W:PASS (goref resume starts the engine so).
    #[arg(long, value_name = "MOVES", requires = "link_bits")]
    pub moves: Option<String>,
    /// With --moves: the engine's sequence bits on the link, its own first,
    /// e.g. 1,0.
    #[arg(long, value_name = "MY,HIS", requires = "moves")]
    pub link_bits: Option<String>,
}

#[cfg(test)]
mod tests;
