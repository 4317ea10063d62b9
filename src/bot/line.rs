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

use crate::game::board::fixed_handicap;
use crate::game::sgf::{self, Node};
use crate::game::{Color, Move};
use crate::players::sgmp::{link_config, wake_for};
use crate::protocol::sgmp::link::LinkState;
use crate::protocol::sgmp::session::{Profile, Session, SessionConfig, SessionEvent};
use crate::shell_time::now;
use crate::transport::line::{self, LineSpec};

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

/// A game the engine goes on with: the moves it has seen, and its link as
/// it stood.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Continued {
    pub moves: Vec<(Color, Move)>,
    pub link: LinkState,
}

impl Continued {
    /// `--moves B:D4,W:PASS` and `--link-bits 1,0` (its own bit first).
    pub fn parse(moves: &str, bits: &str, size: u8) -> Result<Continued, String> {
        let moves = moves
            .split(',')
            .filter(|m| !m.trim().is_empty())
            .map(|text| {
                let (color, vertex) = text
                    .trim()
                    .split_once(':')
                    .ok_or_else(|| format!("--moves: '{text}' is not COLOR:VERTEX, e.g. B:D4"))?;
                let color = match color {
                    "B" | "b" => Color::Black,
                    "W" | "w" => Color::White,
                    other => return Err(format!("--moves: '{other}' is not B or W")),
                };
                let mv = Move::parse_gtp(vertex, size).map_err(|e| format!("--moves: {e}"))?;
                Ok((color, mv))
            })
            .collect::<Result<Vec<_>, String>>()?;
        let bit = |text: &str| match text.trim() {
            "0" => Ok(false),
            "1" => Ok(true),
            other => Err(format!("--link-bits: '{other}' is not 0 or 1")),
        };
        let (mine, his) = bits
            .split_once(',')
            .ok_or_else(|| format!("--link-bits: '{bits}' is not MY,HIS, e.g. 1,0"))?;
        let link = LinkState {
            my_seq: bit(mine)?,
            his_seq: bit(his)?,
            outstanding: None,
        };
        Ok(Continued { moves, link })
    }

    /// The flags that give it to `goref bot`.
    pub fn args(&self) -> [String; 4] {
        let moves: Vec<String> = self
            .moves
            .iter()
            .map(|(color, mv)| format!("{}:{mv}", color.letter()))
            .collect();
        let bit = |b: bool| if b { "1" } else { "0" };
        [
            "--moves".into(),
            moves.join(","),
            "--link-bits".into(),
            format!("{},{}", bit(self.link.my_seq), bit(self.link.his_seq)),
        ]
    }
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
    let link = link_config(profile, &spec);
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
        let sleep = wake_for(&session, linger.or(due.map(|(at, _)| at)));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_continued_game_reads_back_the_flags_it_gives() {
        let continued = Continued::parse("B:E5,W:pass, B:C3", "1,0", 9).unwrap();
        assert_eq!(continued.moves.len(), 3);
        assert_eq!(continued.moves[1], (Color::White, Move::Pass));
        assert!(continued.link.my_seq && !continued.link.his_seq);
        let args = continued.args();
        assert_eq!(Continued::parse(&args[1], &args[3], 9).unwrap(), continued);
        for (moves, bits) in [
            ("E5", "1,0"),
            ("X:E5", "1,0"),
            ("B:Z9", "1,0"),
            ("", "2,0"),
            ("", "1"),
        ] {
            assert!(Continued::parse(moves, bits, 9).is_err(), "{moves} {bits}");
        }
    }
}
