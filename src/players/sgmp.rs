//! The line player: a program on a GMP/SGMP line (serial port, pty or TCP).
//!
//! The sans-IO [`Session`] speaks the protocol; this task moves bytes
//! between it and the line and turns its events into player events. The
//! program's clock starts when the bytes that hand it the move (the
//! handshake OK, or the relayed MOVE) are on its side of the line, and stops
//! when its MOVE started arriving; [`LineTiming`] works both out from the
//! instants read here and the line's baud rate, so that wire time is never
//! thinking time, and each packet event carries its wire time apart. A line
//! that answers sooner than its rate allows (a pty) is charged the time
//! measured, and the operator is told once.

use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::mpsc;

use crate::shell_time::{earliest, now, sleep_until};
use crate::transport::line::{
    self, bytes_per_second, BoxedLine, LineSpec, LineTarget, DEFAULT_SETUP,
};
use crate::transport::paced::PacedLine;
use crate::transport::pty::virtual_line;
use crate::transport::serial::SerialLine;
use goref_core::game::clock::format_duration;
use goref_core::game::score::Scoring;
use goref_core::game::Color;
use goref_core::game::Move;
use goref_core::protocol::sgmp::continued::Continued;
use goref_core::protocol::sgmp::link::TraceEntry;
use goref_core::protocol::sgmp::link::{LinkConfig, LinkState};
use goref_core::protocol::sgmp::packet::Query;
use goref_core::protocol::sgmp::packet::{decode_move, describe, Command, Packet};
use goref_core::protocol::sgmp::session::{
    LineMemory, Profile, Session, SessionConfig, SessionEvent, SetupWait,
};
use goref_core::protocol::sgmp::timing::LineTiming;
use goref_core::referee::{Action, Failure, PlayerEvent, PlayerInfo};
use tokio_serial::SerialPort;

use super::{PlayerSetup, Reporter};

/// How long the line is still served after the game at most, while a
/// packet of ours (the opponent's last pass) waits for its acknowledgement.
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
    /// The line's nominal rate, for lines that have one.
    baud: Option<u32>,
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
        baud: match &spec.target {
            LineTarget::Device { baud, .. } => Some(*baud),
            LineTarget::Tcp { .. } => None,
        },
        profile,
        spec_text,
    };
    serve(line, game, setup, actions, reporter).await;
}

/// The built-in engine as a line player starts it.
#[derive(Debug, Clone)]
pub(crate) struct Builtin {
    pub profile: Profile,
    pub seed: u64,
    /// More `goref bot` arguments: `--playouts N`, `--think-ms MS`.
    pub args: Vec<String>,
    /// The virtual line runs at this rate, as a real line would.
    pub baud: Option<u32>,
}

/// Runs the built-in engine on a virtual line: a pty pair, with
/// `goref bot --sgmp` on the far end as a child process.
pub(crate) async fn run_builtin(
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
    let continued = setup.line.as_ref().map(|memory| {
        let taken_back = TakenBack::new(memory, &setup);
        let link = LinkState {
            my_seq: memory.link.his_seq,
            his_seq: memory.link.my_seq ^ memory.link.outstanding.is_some(),
            outstanding: None,
        };
        Continued {
            moves: taken_back.seen,
            link,
        }
    });
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
        .args(continued.iter().flat_map(Continued::args))
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
    let game = LineGame {
        name: format!("goref-bot {}", env!("CARGO_PKG_VERSION")),
        place: path.clone(),
        setup: DEFAULT_SETUP,
        link: profile.link_config(),
        baud,
        profile,
        spec_text,
    };
    let line: BoxedLine = match baud {
        Some(baud) => Box::new(PacedLine::new(
            SerialLine::from(near),
            bytes_per_second(baud),
        )),
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
    // what hands a White program the move: no packet of ours does. A line
    // taken back has no handshake: where its turn stands is worked out below.
    let moves_when_ready =
        setup.line.is_none() && color == Color::White && setup.handicap.len() >= 2;
    let LineGame {
        name,
        place,
        setup: setup_time,
        link,
        baud,
        profile,
        spec_text,
    } = game;
    let mut timing = LineTiming::new(baud);
    let (mut reader, mut writer) = tokio::io::split(line);
    let config = SessionConfig {
        profile,
        program_color: color,
        size: setup.size,
        handicap: setup.handicap.len() as u8,
        chinese_rules: Some(setup.rules.scoring == Scoring::Area),
        link,
    };
    let mut turn_given_at: Option<Instant> = None;
    let mut early_move: Option<(Instant, Move)> = None;
    let (mut session, mut setup_deadline) = match &setup.line {
        Some(memory) => {
            let taken_back = TakenBack::new(memory, &setup);
            reporter.send(PlayerEvent::Info(taken_back.notice(&place)));
            let mut session = Session::resumed(config, memory.link, now());
            if let Some(mv) = taken_back.unrecorded {
                turn_given_at = Some(now());
                early_move = Some((now(), mv));
            } else if taken_back.holds_turn {
                turn_given_at = Some(now());
            }
            for mv in taken_back.unrelayed {
                session.relay_move(now(), mv.point());
            }
            (session, None)
        }
        None => {
            let session = Session::new(config, now());
            if let Some(wait) = session.setup_wait() {
                reporter.send(PlayerEvent::Info(setup_notice(wait, &place, setup_time)));
            }
            (session, Some(now() + setup_time))
        }
    };
    let mut asked_to_move = false;
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
    // When the bytes in hand were read: a MOVE among them came whole then,
    // however long the OK the session writes first takes.
    let mut read_at = now();
    loop {
        while let Some(event) = session.poll_event() {
            match event {
                SessionEvent::Transmit {
                    bytes, gives_turn, ..
                } => {
                    let started = now();
                    if let Err(e) = write(&mut writer, &bytes).await {
                        report_held_trace(&mut session, &reporter, &timing);
                        if game_over_at.is_none() {
                            let why = format!("{color}: cannot write to the line {place}: {e}");
                            reporter.send(PlayerEvent::Failed(Failure::crash(why, None)));
                        }
                        return;
                    }
                    if gives_turn {
                        let at = timing.handed_over(started, now(), bytes.len());
                        if asked_to_move {
                            asked_to_move = false;
                            reporter.send_at(at, PlayerEvent::Thinking);
                        } else {
                            turn_given_at = Some(at);
                        }
                    }
                }
                SessionEvent::Trace(entry) => reporter.send(packet_event(entry, &timing)),
                SessionEvent::Ready => {
                    setup_deadline = None;
                    if moves_when_ready {
                        turn_given_at = Some(now());
                    }
                    reporter.send(PlayerEvent::Ready(info.clone()));
                }
                SessionEvent::Move(point) => {
                    let mv = point.map(Move::Play).unwrap_or(Move::Pass);
                    let sent_at = timing.move_began(read_at);
                    if turn_given_at.is_some() {
                        early_move = Some((sent_at, mv));
                    } else {
                        reporter.send_at(sent_at, PlayerEvent::Moved(mv));
                    }
                }
                SessionEvent::Delivered => {}
                SessionEvent::Answered { round_trip } => {
                    if timing.answered(round_trip) {
                        reporter.send(PlayerEvent::Info(faster_notice(&timing, color, &place)));
                    }
                }
                SessionEvent::Alarm(message) => reporter.send(PlayerEvent::Notice(message)),
                SessionEvent::Restarted(message) => reporter.send(PlayerEvent::LostPosition(
                    format!("{color}'s program on {place}: {message}"),
                )),
                SessionEvent::Mismatch(message) => {
                    report_held_trace(&mut session, &reporter, &timing);
                    return reporter.send(PlayerEvent::Failed(Failure::other(format!(
                        "{color}'s program on {place} is set up for another game, so the \
                         set-up stopped before any move: {message}"
                    ))));
                }
            }
        }
        if game_over_at.is_some() && session.is_settled() {
            return report_held_trace(&mut session, &reporter, &timing);
        }
        let linger = game_over_at.map(|at| at + LINGER);
        let sleep = wake_for(&session, earliest(linger, setup_deadline));
        tokio::select! {
            read = reader.read(&mut buf) => match read {
                Ok(n) if n > 0 => {
                    read_at = now();
                    session.handle_bytes(read_at, &buf[..n]);
                }
                _ => {
                    report_held_trace(&mut session, &reporter, &timing);
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
                Some(Action::MainTimeUsed { .. }) => {}
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
                    return report_held_trace(&mut session, &reporter, &timing);
                }
                if setup_deadline.is_some_and(|at| now >= at) {
                    if let Some(wait) = session.setup_wait() {
                        report_held_trace(&mut session, &reporter, &timing);
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

/// Where a line of a resumed game stands, from the journal's trace of it
/// and the moves the journal records.
struct TakenBack {
    /// The opponent's moves the program was never sent.
    unrelayed: Vec<Move>,
    /// A move of the program the line accepted that the journal does not
    /// record: the referee died before it could.
    unrecorded: Option<Move>,
    /// The program has the move: it was handed it before the referee died,
    /// and nothing needs to be sent to it again.
    holds_turn: bool,
    /// What the link last waited for, in words, if anything.
    outstanding: Option<String>,
    /// The moves the program has seen, in order.
    seen: Vec<(Color, Move)>,
}

impl TakenBack {
    fn new(memory: &LineMemory, setup: &PlayerSetup) -> TakenBack {
        let color = setup.color;
        let of = |who: Color| -> Vec<Move> {
            let moves = setup.position.iter().filter(|(c, _)| *c == who);
            moves.map(|(_, mv)| *mv).collect()
        };
        let (own, theirs) = (of(color), of(color.opponent()));
        let received: Vec<Move> = memory
            .moves_received
            .iter()
            .filter_map(|value| decode_move(*value, setup.size).ok())
            .filter(|(c, _)| *c == color)
            .map(|(_, point)| point.map(Move::Play).unwrap_or(Move::Pass))
            .collect();
        let unrecorded = (received.len() > own.len())
            .then(|| received.last().copied())
            .flatten();
        let to_move = match setup.position.last() {
            Some((last, _)) => last.opponent(),
            None if setup.handicap.len() >= 2 => Color::White,
            None => Color::Black,
        };
        let relaying_move = matches!(memory.link.outstanding, Some((Command::Move, _)));
        let delivered = memory.moves_sent - usize::from(relaying_move && memory.moves_sent > 0);
        let mut seen: Vec<(Color, Move)> = setup
            .position
            .iter()
            .scan(0, |theirs_seen, &(mover, mv)| {
                if mover != color {
                    *theirs_seen += 1;
                }
                Some((*theirs_seen <= delivered || mover == color).then_some((mover, mv)))
            })
            .map_while(|m| m)
            .collect();
        seen.extend(unrecorded.map(|mv| (color, mv)));
        let unrelayed = theirs.get(memory.moves_sent..).unwrap_or_default().to_vec();
        TakenBack {
            seen,
            holds_turn: to_move == color && !relaying_move && unrelayed.is_empty(),
            unrelayed,
            unrecorded,
            outstanding: memory.link.outstanding.map(|(command, value)| {
                describe(&Packet::new(false, false, command, value), setup.size)
            }),
        }
    }

    /// What the operator is told when the line is taken back.
    fn notice(&self, place: &str) -> String {
        let resent = match &self.outstanding {
            Some(what) => format!("goref sends its {what} again, unacknowledged when it stopped"),
            None => "nothing was waiting for an acknowledgement".to_string(),
        };
        let relayed = match self.unrelayed.len() {
            0 => String::new(),
            _ => format!(
                "; the opponent's {} is sent now, the program never had it",
                self.unrelayed
                    .iter()
                    .map(Move::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        let unrecorded = match self.unrecorded {
            Some(mv) => {
                format!("; the program's {mv}, read from the line but not recorded, is played")
            }
            None => String::new(),
        };
        format!(
            "the line on {place} is taken back where its link left off ({resent}{relayed}{unrecorded}). \
             A program that still runs goes on; one that was started again has lost the position, \
             which GMP cannot give it: its NEWGAME calls the judge"
        )
    }
}

/// A trace entry as a player event. Noise may be summarised, its hex
/// showing only its first bytes: only packets carry their wire time.
fn packet_event(entry: TraceEntry, timing: &LineTiming) -> PlayerEvent {
    let wire_ms = match entry.is_noise() {
        true => None,
        false => timing.packet_wire_ms(entry.hex.split(':').count()),
    };
    PlayerEvent::Packet { entry, wire_ms }
}

/// What the operator is told when the line first shows itself faster than
/// its baud rate.
fn faster_notice(timing: &LineTiming, color: Color, place: &str) -> String {
    let round_trip = timing.shown_faster().unwrap_or_default();
    let baud = timing.baud().unwrap_or_default();
    format!(
        "the line {place} is faster than {baud} baud: an answer came back in {:.1} ms, where two \
         packets take {:.1} ms at {baud} baud (a pty?); from now on {color}'s clock is charged \
         the time measured, with no wire time taken off",
        round_trip.as_secs_f64() * 1e3,
        timing.nominal(8).as_secs_f64() * 1e3
    )
}

/// Reports the trace the session still holds back (noise), before the
/// line is dropped; the other events no longer matter.
fn report_held_trace(session: &mut Session, reporter: &Reporter, timing: &LineTiming) {
    session.flush_trace(now());
    while let Some(event) = session.poll_event() {
        if let SessionEvent::Trace(entry) = event {
            reporter.send(packet_event(entry, timing));
        }
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
    profile
        .link_config()
        .with_overrides(spec.resend_after, spec.alarm_after)
}

/// Sleeps until the session's next timer or `other` (the end of the
/// linger after the game, the set-up deadline), whichever comes first;
/// forever when there is neither.
async fn wake_for(session: &Session, other: Option<Instant>) {
    sleep_until(earliest(session.poll_timeout(), other)).await
}

async fn write(
    writer: &mut (impl tokio::io::AsyncWrite + Unpin),
    bytes: &[u8],
) -> std::io::Result<()> {
    writer.write_all(bytes).await?;
    writer.flush().await
}

#[cfg(test)]
mod tests {
    use super::*;
    use goref_core::game::rules::Rules;
    use goref_core::game::Point;
    use goref_core::protocol::sgmp::packet::encode_move;

    fn setup(color: Color, moves: &[(Color, &str)]) -> PlayerSetup {
        PlayerSetup {
            color,
            size: 9,
            rules: Rules::preset(goref_core::game::rules::Preset::Cgf),
            handicap: Vec::new(),
            command_timeout: Duration::from_secs(5),
            self_exe: "goref".into(),
            position: moves
                .iter()
                .map(|(c, v)| (*c, Move::parse_gtp(v, 9).unwrap()))
                .collect(),
            line: None,
            seats: Default::default(),
            analysis: None,
        }
    }

    fn value(color: Color, vertex: &str) -> u16 {
        encode_move(color, Some(Point::parse_gtp(vertex, 9).unwrap()), 9)
    }

    const GAME: [(Color, &str); 3] = [
        (Color::Black, "E5"),
        (Color::White, "C3"),
        (Color::Black, "G7"),
    ];

    #[test]
    fn a_program_that_had_every_move_holds_the_turn() {
        let white = setup(Color::White, &GAME[..2]);
        let memory = LineMemory {
            moves_sent: 1,
            moves_received: vec![value(Color::White, "C3")],
            ..LineMemory::default()
        };
        let back = TakenBack::new(&memory, &white);
        assert!(back.unrelayed.is_empty() && back.unrecorded.is_none());
        assert!(!back.holds_turn, "Black is to move");
        let black = setup(Color::Black, &GAME[..2]);
        let memory = LineMemory {
            moves_sent: 1,
            moves_received: vec![value(Color::Black, "E5")],
            ..LineMemory::default()
        };
        let back = TakenBack::new(&memory, &black);
        assert!(back.holds_turn);
        assert_eq!(back.seen.len(), 2);
    }

    #[test]
    fn a_move_the_program_never_had_is_sent_and_not_counted_as_seen() {
        let white = setup(Color::White, &GAME);
        let memory = LineMemory {
            moves_sent: 1,
            moves_received: vec![value(Color::White, "C3")],
            ..LineMemory::default()
        };
        let back = TakenBack::new(&memory, &white);
        assert_eq!(back.unrelayed, vec![Move::parse_gtp("G7", 9).unwrap()]);
        assert!(!back.holds_turn, "the relayed move hands it the turn");
        assert_eq!(back.seen.len(), 2);
        assert!(back.notice("/dev/pts/3").contains("G7"));
    }

    #[test]
    fn an_unacknowledged_move_is_not_seen_and_a_move_read_but_not_recorded_is_played() {
        let white = setup(Color::White, &GAME);
        let mut memory = LineMemory {
            moves_sent: 2,
            moves_received: vec![value(Color::White, "C3")],
            ..LineMemory::default()
        };
        memory.link.outstanding = Some((Command::Move, value(Color::Black, "G7")));
        let back = TakenBack::new(&memory, &white);
        assert!(back.unrelayed.is_empty() && !back.holds_turn);
        assert_eq!(back.seen.len(), 2, "G7 is sent again, not yet seen");
        assert!(back.notice("/dev/pts/3").contains("MOVE"));

        memory.link.outstanding = None;
        memory.moves_received.push(value(Color::White, "D4"));
        memory.moves_received.push(value(Color::Black, "A1"));
        let back = TakenBack::new(&memory, &white);
        assert_eq!(back.unrecorded, Some(Move::parse_gtp("D4", 9).unwrap()));
        assert_eq!(back.seen.len(), 4);
    }
}
