//! The built-in engine on a GMP line: `goref bot --sgmp DEVICE --color C`.
//!
//! It plays the program's side of the protocol: as Black it sends NEWGAME
//! and answers the queries, as White it waits for NEWGAME and asks them. The
//! same sans-IO [`Session`] the referee uses does the talking, seen from the
//! other end of the line.
//!
//! Given the moves so far and its link's sequence bits (`--moves`,
//! `--link-bits`), it goes on in the middle of a game instead, as a program
//! that kept running while its referee was restarted: `goref resume` starts
//! it so.

use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::shell_time::{earliest, now, sleep_until};
use crate::transport::line::{self, LineSpec};
use goref_core::game::board::fixed_handicap;
use goref_core::game::sgf::{self, Node};
use goref_core::game::{Color, Move};
use goref_core::protocol::sgmp::continued::Continued;
use goref_core::protocol::sgmp::session::{Profile, Session, SessionConfig, SessionEvent};

use super::{Engine, Settings};

/// How long the line is still served after the game, to deliver the last pass.
const LINGER: Duration = Duration::from_secs(2);

/// The game the engine expects on the line.
#[derive(Debug, Clone, Copy)]
pub struct LineGame {
    pub color: Color,
    pub size: u8,
    /// Stones on the standard points; 0 or 1 is an even game.
    pub handicap: u8,
    pub seed: u64,
    pub settings: Settings,
}

/// Plays one game on the line, then returns the moves played.
pub async fn play_on_line(
    spec: LineSpec,
    profile: Profile,
    game: LineGame,
    continued: Option<Continued>,
) -> Result<Vec<(Color, Move)>, String> {
    let LineGame {
        color,
        size,
        handicap,
        seed,
        settings,
    } = game;
    let line = line::open(&spec).await.map_err(|e| e.to_string())?;
    let (mut reader, mut writer) = tokio::io::split(line);
    let link = profile
        .link_config()
        .with_overrides(spec.resend_after, spec.alarm_after);
    let config = SessionConfig {
        profile,
        program_color: color.opponent(),
        size,
        handicap,
        // The engine plays under whatever rules the referee keeps: it says
        // it does not know them (ANSWER 0) and takes any answer.
        chinese_rules: None,
        link,
    };
    let mut session = match &continued {
        Some(continued) => Session::resumed(config, continued.link, now()),
        None => Session::new(config, now()),
    };
    let mut engine = Engine::new(size, seed)
        .map_err(|e| e.to_string())?
        .with_playouts(settings.playouts);
    if handicap >= 2 {
        let stones = fixed_handicap(size, handicap).map_err(|e| e.to_string())?;
        engine
            .place(Color::Black, &stones)
            .map_err(|e| e.to_string())?;
    }
    let first = if handicap >= 2 {
        Color::White
    } else {
        Color::Black
    };
    let mut passes = 0;
    let mut moves = Vec::new();
    for &(mover, mv) in continued.iter().flat_map(|c| &c.moves) {
        engine
            .play(mover, mv)
            .map_err(|e| format!("--moves: {mv} by {mover}: {e}"))?;
        moves.push((mover, mv));
        passes = if mv == Move::Pass { passes + 1 } else { 0 };
    }
    let to_move = moves.last().map(|(c, _)| c.opponent()).unwrap_or(first);
    let mut finished_at: Option<Instant> = None;
    // The engine's move, held back until the think time has passed.
    let mut due: Option<(Instant, Move)> = None;
    let mut buf = vec![0u8; 1024];
    loop {
        while let Some(event) = session.poll_event() {
            let reply = match event {
                SessionEvent::Transmit { bytes, .. } => {
                    writer
                        .write_all(&bytes)
                        .await
                        .map_err(|e| format!("cannot write to {spec}: {e}"))?;
                    writer.flush().await.map_err(|e| e.to_string())?;
                    false
                }
                SessionEvent::Ready => color == to_move,
                SessionEvent::Move(point) => {
                    let mv = point.map(Move::Play).unwrap_or(Move::Pass);
                    if engine.play(color.opponent(), mv).is_err() {
                        crate::console::say(format!(
                            "goref bot: the opponent's move {mv} is illegal here"
                        ));
                    }
                    moves.push((color.opponent(), mv));
                    passes = if mv == Move::Pass { passes + 1 } else { 0 };
                    passes < 2
                }
                SessionEvent::Alarm(message) => {
                    crate::console::say(format!("goref bot: {message}"));
                    false
                }
                SessionEvent::Restarted(message) => {
                    return Err(format!(
                        "the referee on {spec} started a new game: {message}"
                    ))
                }
                SessionEvent::Mismatch(message) => {
                    return Err(format!("the game on {spec} is not this one: {message}"))
                }
                SessionEvent::Trace(_)
                | SessionEvent::Delivered
                | SessionEvent::Answered { .. } => false,
            };
            if reply && finished_at.is_none() && due.is_none() {
                // Asked now: compute, then hold the move until the think
                // time has passed, still serving the line meanwhile.
                let asked = now();
                due = Some((asked + settings.think, engine.genmove(color)));
            }
        }
        if let Some((_, mv)) = due.filter(|&(at, _)| now() >= at) {
            due = None;
            session.relay_move(now(), mv.point());
            moves.push((color, mv));
            passes = if mv == Move::Pass { passes + 1 } else { 0 };
            // What the move puts on the line goes out before any waiting.
            continue;
        }
        if passes >= 2 && finished_at.is_none() {
            session.game_over();
            finished_at = Some(now());
            continue;
        }
        let linger = finished_at.map(|at| at + LINGER);
        let sleep = sleep_until(earliest(
            session.poll_timeout(),
            linger.or(due.map(|(at, _)| at)),
        ));
        tokio::select! {
            read = reader.read(&mut buf) => match read {
                Ok(n) if n > 0 => session.handle_bytes(now(), &buf[..n]),
                _ => return Ok(moves),
            },
            _ = sleep => {
                if linger.is_some_and(|at| now() >= at) {
                    return Ok(moves);
                }
                session.handle_timeout(now());
            }
        }
    }
}

/// The engine's own record of a game: an SGF with just the moves.
pub fn moves_to_sgf(size: u8, moves: &[(Color, Move)]) -> String {
    let mut root = Node::default();
    root.push("GM", "1");
    root.push("FF", "4");
    root.push("SZ", size.to_string());
    let mut nodes = vec![root];
    for (color, mv) in moves {
        let mut node = Node::default();
        let point = mv.point().map(|p| p.to_sgf(size)).unwrap_or_default();
        node.push(&color.letter().to_string(), point);
        nodes.push(node);
    }
    sgf::write(&nodes)
}
