//! The line player: a program on a GMP/SGMP line (serial port, pty or TCP).
//!
//! The sans-IO [`Session`] speaks the protocol; this task moves bytes
//! between it and the line and turns its events into player events. The
//! program's clock starts when the bytes that hand it the move (the
//! handshake OK, or the relayed MOVE) are on the wire: the instant the write
//! completed plus their transmission time at the line's baud rate. It stops
//! when the program's MOVE started arriving: the read instant less the
//! packet's own transmission time. Wire time is thus never thinking time,
//! and each packet event carries its wire time apart.

use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::mpsc;

use crate::game::clock::format_duration;
use crate::game::score::Scoring;
use crate::game::Color;
use crate::game::Move;
use crate::protocol::sgmp::link::LinkConfig;
use crate::protocol::sgmp::link::TraceEntry;
use crate::protocol::sgmp::packet::Query;
use crate::protocol::sgmp::session::{Profile, Session, SessionConfig, SessionEvent, SetupWait};
use crate::referee::{Action, Failure, PlayerEvent, PlayerInfo};
use crate::shell_time::{now, sleep_until};
use crate::transport::line::{
    self, bytes_per_second, BoxedLine, LineSpec, LineTarget, DEFAULT_SETUP,
};
use crate::transport::paced::PacedLine;
use crate::transport::pty::virtual_line;
use crate::transport::serial::SerialLine;
use tokio_serial::SerialPort;

use super::{PlayerSetup, Reporter};

/// How long the line is still served after the game, to OK a last pass.
const LINGER: Duration = Duration::from_secs(2);

/// How a line player's line is set up, once it is open.
struct LineGame {
    /// The program's name for the record and the screen.
    name: String,
    /// Where the line goes, for messages: `/dev/pts/4`.
    place: String,
    /// How long the handshake may take from the moment the line is open.
    setup: Duration,
    link: LinkConfig,
    /// Bytes a second on the wire, for lines that have a baud rate.
    wire: Option<f64>,
    profile: Profile,
    spec_text: String,
}

/// Runs one program on a line for the whole game.
pub async fn run(
    spec: LineSpec,
    profile: Profile,
    spec_text: String,
    setup: PlayerSetup,
    actions: mpsc::UnboundedReceiver<Action>,
    reporter: Reporter,
) {
    let line = match line::open(&spec).await {
        Ok(line) => line,
        Err(e) => {
            let color = setup.color;
            return reporter.send(PlayerEvent::Failed(Failure::other(format!("{color}: {e}"))));
        }
    };
    let game = LineGame {
        name: spec.player_name(),
        place: spec.target.place(),
        setup: spec.setup_deadline(),
        link: link_config(profile, &spec),
        wire: match &spec.target {
            LineTarget::Device { baud, .. } => Some(bytes_per_second(*baud)),
            LineTarget::Tcp { .. } => None,
        },
        profile,
        spec_text,
    };
    serve(line, game, setup, actions, reporter).await;
}

/// The built-in engine as a line player starts it.
#[derive(Debug, Clone)]
pub struct Builtin {
    pub profile: Profile,
    pub seed: u64,
    /// More `goref bot` arguments: `--playouts N`, `--think-ms MS`.
    pub args: Vec<String>,
    /// The virtual line runs at this rate, as a real line would.
    pub baud: Option<u32>,
}

/// Runs the built-in engine on a virtual line: a pty pair, with
/// `goref bot --sgmp` on the far end as a child process.
pub async fn run_builtin(
    builtin: Builtin,
    spec_text: String,
    setup: PlayerSetup,
    actions: mpsc::UnboundedReceiver<Action>,
    reporter: Reporter,
) {
    let Builtin {
        profile,
        seed,
        args,
        baud,
    } = builtin;
    let color = setup.color;
    let (near, far) = match virtual_line() {
        Ok(pair) => pair,
        Err(e) => {
            return reporter.send(PlayerEvent::Failed(Failure::other(format!("{color}: {e}"))))
        }
    };
    let Some(path) = far.name() else {
        return reporter.send(PlayerEvent::Failed(Failure::other(format!(
            "{color}: the virtual line has no device path"
        ))));
    };
    let flag = match profile {
        Profile::Sgmp => "--sgmp",
        Profile::Gmp => "--gmp",
    };
    let engine = tokio::process::Command::new(&setup.self_exe)
        .args(["bot", flag, &path, "--color", color.name()])
        .args([
            "--size",
            &setup.size.to_string(),
            "--seed",
            &seed.to_string(),
            "--handicap",
            &setup.handicap.len().to_string(),
        ])
        .args(&args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .process_group(0)
        .kill_on_drop(true)
        .spawn();
    let mut engine = match engine {
        Ok(engine) => engine,
        Err(e) => {
            return reporter.send(PlayerEvent::Failed(Failure::other(format!(
                "{color}: cannot start the built-in engine on {path}: {e}"
            ))))
        }
    };
    let wire = baud.map(bytes_per_second);
    let game = LineGame {
        name: format!("goref-bot {}", env!("CARGO_PKG_VERSION")),
        place: path.clone(),
        setup: DEFAULT_SETUP,
        link: profile.link_config(),
        wire,
        profile,
        spec_text,
    };
    let line: BoxedLine = match wire {
        Some(rate) => Box::new(PacedLine::new(SerialLine::from(near), rate)),
        None => Box::new(SerialLine::from(near)),
    };
    serve(line, game, setup, actions, reporter).await;
    let _ = tokio::time::timeout(LINGER, engine.wait()).await;
    drop(far);
}

/// Plays the game on an open line.
async fn serve(
    line: BoxedLine,
    game: LineGame,
    setup: PlayerSetup,
    mut actions: mpsc::UnboundedReceiver<Action>,
    reporter: Reporter,
) {
    let color = setup.color;
    // In a handicap game White moves first, and the end of the handshake is
    // what hands a White program the move: no packet of ours does.
    let moves_when_ready = color == Color::White && setup.handicap.len() >= 2;
    let LineGame {
        name,
        place,
        setup: setup_time,
        link,
        wire,
        profile,
        spec_text,
    } = game;
    let (mut reader, mut writer) = tokio::io::split(line);
    let config = SessionConfig {
        profile,
        program_color: color,
        size: setup.size,
        handicap: setup.handicap.len() as u8,
        chinese_rules: Some(setup.rules.scoring == Scoring::Area),
        link,
    };
    let mut session = Session::new(config, now());
    let mut setup_deadline = Some(now() + setup_time);
    if let Some(wait) = session.setup_wait() {
        reporter.send(PlayerEvent::Info(setup_notice(wait, &place, setup_time)));
    }
    let mut turn_given_at: Option<Instant> = None;
    let mut asked_to_move = false;
    let mut early_move: Option<(Instant, Move)> = None;
    let mut game_over_at: Option<Instant> = None;
    let info = PlayerInfo {
        protocol: match profile {
            Profile::Sgmp => "sgmp".into(),
            Profile::Gmp => "gmp".into(),
        },
        spec: spec_text,
        name,
        version: String::new(),
        kgs_end_protocol: false,
        claims_dead_stones: false,
        stops_at_double_pass: true,
    };
    let mut buf = vec![0u8; 1024];
    loop {
        while let Some(event) = session.poll_event() {
            match event {
                SessionEvent::Transmit {
                    bytes,
                    gives_turn,
                    resend,
                } => {
                    if resend && gives_turn {
                        reporter.send(PlayerEvent::Notice(format!(
                            "{color} had not acknowledged its move; sent again. Its clock has \
                             run since the first sending"
                        )));
                    }
                    if let Err(e) = write(&mut writer, &bytes).await {
                        report_held_trace(&mut session, &reporter, wire);
                        if game_over_at.is_none() {
                            let why = format!("{color}: cannot write to the line {place}: {e}");
                            reporter.send(PlayerEvent::Failed(Failure::crash(why, None)));
                        }
                        return;
                    }
                    if gives_turn {
                        let at = now() + on_wire(wire, bytes.len());
                        if asked_to_move {
                            asked_to_move = false;
                            reporter.send_at(at, PlayerEvent::Thinking);
                        } else {
                            turn_given_at = Some(at);
                        }
                    }
                }
                SessionEvent::Trace(entry) => reporter.send(packet_event(entry, wire)),
                SessionEvent::Ready => {
                    setup_deadline = None;
                    if moves_when_ready {
                        turn_given_at = Some(now());
                    }
                    reporter.send(PlayerEvent::Ready(info.clone()));
                }
                SessionEvent::Move(point) => {
                    let mv = point.map(Move::Play).unwrap_or(Move::Pass);
                    let arrived = now();
                    let sent_at = arrived
                        .checked_sub(on_wire(wire, PACKET_BYTES))
                        .unwrap_or(arrived);
                    if turn_given_at.is_some() {
                        early_move = Some((sent_at, mv));
                    } else {
                        reporter.send_at(sent_at, PlayerEvent::Moved(mv));
                    }
                }
                SessionEvent::Delivered => {}
                SessionEvent::Alarm(message) => reporter.send(PlayerEvent::Notice(message)),
                SessionEvent::Mismatch(message) => {
                    report_held_trace(&mut session, &reporter, wire);
                    return reporter.send(PlayerEvent::Failed(Failure::other(format!(
                        "{color}'s program on {place} is set up for another game, so the \
                         set-up stopped before any move: {message}"
                    ))));
                }
            }
        }
        let linger = game_over_at.map(|at| at + LINGER);
        let sleep = wake_for(&session, earliest(linger, setup_deadline));
        tokio::select! {
            read = reader.read(&mut buf) => match read {
                Ok(n) if n > 0 => session.handle_bytes(now(), &buf[..n]),
                _ => {
                    report_held_trace(&mut session, &reporter, wire);
                    if game_over_at.is_none() {
                        let message = match session.setup_wait() {
                            Some(wait) => format!(
                                "{color}'s program on {place} closed the line during set-up, \
                                 while goref waited for {}",
                                awaited(wait)
                            ),
                            None => format!("{color}: the line {place} closed"),
                        };
                        reporter.send(PlayerEvent::Failed(Failure::crash(message, None)));
                    }
                    return;
                }
            },
            action = actions.recv(), if game_over_at.is_none() => match action {
                Some(Action::RequestMove { .. }) => match turn_given_at.take() {
                    Some(at) => {
                        reporter.send_at(at, PlayerEvent::Thinking);
                        if let Some((arrived, mv)) = early_move.take() {
                            reporter.send_at(arrived, PlayerEvent::Moved(mv));
                        }
                    }
                    None => asked_to_move = true,
                },
                Some(Action::TellMove { mv, .. }) => session.relay_move(now(), mv.point()),
                Some(Action::RequestDeadStones { .. }) => reporter.send(
                    PlayerEvent::DeadStonesUnavailable("a GMP line has no dead-stone question".into()),
                ),
                Some(Action::GameOver { .. }) | None => {
                    session.game_over();
                    game_over_at = Some(now());
                    setup_deadline = None;
                }
            },
            _ = sleep => {
                let now = now();
                if linger.is_some_and(|at| now >= at) {
                    return report_held_trace(&mut session, &reporter, wire);
                }
                if setup_deadline.is_some_and(|at| now >= at) {
                    if let Some(wait) = session.setup_wait() {
                        report_held_trace(&mut session, &reporter, wire);
                        let why = setup_failure(wait, color, &place, setup_time);
                        return reporter.send(PlayerEvent::Failed(Failure::hang(why)));
                    }
                    setup_deadline = None;
                }
                session.handle_timeout(now);
            }
        }
    }
}

/// A trace entry as a player event. Noise may be summarised, its hex
/// showing only its first bytes: only packets carry their wire time.
fn packet_event(entry: TraceEntry, wire: Option<f64>) -> PlayerEvent {
    let wire_ms = wire
        .filter(|_| !entry.is_noise())
        .map(|rate| entry.hex.split(':').count() as f64 / rate * 1e3);
    PlayerEvent::Packet { entry, wire_ms }
}

/// Reports the trace the session still holds back (noise), before the
/// line is dropped; the other events no longer matter.
fn report_held_trace(session: &mut Session, reporter: &Reporter, wire: Option<f64>) {
    session.flush_trace(now());
    while let Some(event) = session.poll_event() {
        if let SessionEvent::Trace(entry) = event {
            reporter.send(packet_event(entry, wire));
        }
    }
}

/// The earlier of two optional instants.
fn earliest(a: Option<Instant>, b: Option<Instant>) -> Option<Instant> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// What the operator is told once, when set-up starts.
fn setup_notice(wait: SetupWait, place: &str, setup: Duration) -> String {
    let deadline = format_duration(setup);
    match wait {
        SetupWait::NewGame => format!(
            "waiting for the program on {place} to send NEWGAME (set-up deadline {deadline})"
        ),
        _ => format!(
            "sent NEWGAME to the program on {place}; waiting for its answer (set-up deadline \
             {deadline})"
        ),
    }
}

/// Why the player fails when set-up has not finished by its deadline.
fn setup_failure(wait: SetupWait, color: Color, place: &str, setup: Duration) -> String {
    let within = format_duration(setup);
    let check = format!("is it set to play {color}, and is the line right?");
    match wait {
        SetupWait::NewGame => {
            format!("{color}'s program on {place} sent no NEWGAME within {within}: {check}")
        }
        SetupWait::NewGameReply => format!(
            "{color}'s program on {place} did not answer our NEWGAME within {within}: {check}"
        ),
        SetupWait::Answer(_) | SetupWait::HandshakeOk => format!(
            "{color}'s program on {place} did not finish the handshake within {within}: goref \
             waited for {}",
            awaited(wait)
        ),
    }
}

/// What set-up waits for, in words: `its ANSWER to QUERY 8 (handicap)`.
fn awaited(wait: SetupWait) -> String {
    match wait {
        SetupWait::NewGame => "its NEWGAME".to_string(),
        SetupWait::Answer(query) => answer_to(query),
        SetupWait::NewGameReply => "its answer to our NEWGAME".to_string(),
        SetupWait::HandshakeOk => "the OK that ends the handshake".to_string(),
    }
}

fn answer_to(query: Query) -> String {
    format!("its ANSWER to QUERY {} ({})", query.number(), query.name())
}

/// The link settings of a profile, with the line spec's overrides.
pub(crate) fn link_config(profile: Profile, spec: &LineSpec) -> LinkConfig {
    let mut link = profile.link_config();
    if let Some(resend) = spec.resend_after {
        link.resend_after = resend;
    }
    if let Some(alarm) = spec.alarm_after {
        link.alarm_after = alarm;
    }
    link
}

/// Sleeps until the session's next timer or `other` (the end of the
/// linger after the game, the set-up deadline), whichever comes first;
/// forever when there is neither.
pub(crate) async fn wake_for(session: &Session, other: Option<Instant>) {
    sleep_until(earliest(session.poll_timeout(), other)).await
}

/// The bytes of one GMP packet.
const PACKET_BYTES: usize = 4;

/// How long `bytes` take on a line of `rate` bytes a second; nothing on a
/// line with no baud rate.
fn on_wire(rate: Option<f64>, bytes: usize) -> Duration {
    rate.map(|rate| Duration::from_secs_f64(bytes as f64 / rate))
        .unwrap_or_default()
}

async fn write(
    writer: &mut (impl tokio::io::AsyncWrite + Unpin),
    bytes: &[u8],
) -> std::io::Result<()> {
    writer.write_all(bytes).await?;
    writer.flush().await
}
