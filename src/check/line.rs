//! The card of a program on a GMP or SGMP line.
//!
//! The line is opened as a game opens it and the referee's own protocol
//! session runs on it, in the role the program's colour implies; the
//! built-in engine plays the other side for a few moves. This shell around
//! the session also times every read, so the card can tell the line's real
//! speed, and once sends one of its moves twice, as a line that lost the
//! program's OK would, to see the program take it as a duplicate.
//!
//! This file drives the run; `line/judge.rs` judges what it saw, and
//! `line/speed.rs` measures the line's speed.

use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt, ReadHalf, WriteHalf};

use crate::players::sgmp::link_config;
use crate::shell_time::{now, sleep_until};
use crate::transport::line::{self, BoxedLine, LineSpec, LineTarget};
use goref_core::game::board::first_to_move;
use goref_core::game::score::Scoring;
use goref_core::game::{Color, Move};
use goref_core::protocol::sgmp::link::TraceEntry;
use goref_core::protocol::sgmp::session::{Profile, Session, SessionConfig, SessionEvent};

use super::card::Section;
use super::script::{Opponent, TimedMove};
use super::{millis, CheckConfig};

mod judge;
mod speed;

use judge::{judge_acknowledgements, judge_handshake, judge_moves, judge_noise, judge_repeat};
use speed::{judge_speed, Speed};

/// Which of our relayed moves is sent twice.
const REPEATED_MOVE: usize = 2;
/// How long the line is watched after the repeat before the next move.
const AFTER_REPEAT: Duration = Duration::from_millis(1500);

/// Checks the program on `spec`, a line of `profile`.
pub(super) async fn check(
    config: &CheckConfig,
    profile: Profile,
    spec: &LineSpec,
    text: &str,
) -> Vec<Section> {
    let mut opened = Section::new("Line");
    let line = match line::open(spec).await {
        Ok(line) => line,
        Err(e) => {
            opened.fail("open", format!("cannot open {text}: {e}"));
            return vec![opened];
        }
    };
    let baud = match &spec.target {
        LineTarget::Device { baud, .. } => Some(*baud),
        LineTarget::Tcp { .. } => None,
    };
    opened.pass(
        "open",
        match baud {
            Some(baud) => format!("{} at {baud} baud", spec.target.place()),
            None => format!("{} over TCP", spec.target.place()),
        },
    );
    let setup = config.setup();
    let session = Session::new(
        SessionConfig {
            profile,
            program_color: config.color,
            size: setup.size,
            handicap: setup.handicap.len() as u8,
            chinese_rules: Some(setup.rules.scoring == Scoring::Area),
            link: link_config(profile, spec),
        },
        now(),
    );
    let (reader, writer) = tokio::io::split(line);
    let mut run = LineRun {
        session,
        reader,
        writer,
        trace: Vec::new(),
        speed: Speed::default(),
        turn_given: None,
        delivered: 0,
        repeated: None,
        repeat_taken_as_new: false,
        alarms: Vec::new(),
    };
    let mut handshake = Section::new(match profile {
        Profile::Sgmp => "Handshake (CGF simplified GMP)",
        Profile::Gmp => "Handshake (full GMP)",
    });
    let mut play = Section::new("Moves");
    crate::console::say(format!(
        "goref: waiting up to {} for the handshake on {} (the program {})",
        goref_core::game::clock::format_duration(spec.setup_deadline()),
        spec.target.place(),
        match config.color {
            Color::Black => "sends NEWGAME",
            Color::White => "answers goref's NEWGAME",
        }
    ));
    let ready = run.until(now() + spec.setup_deadline(), is_ready).await;
    let handshake_len = run.trace.len();
    judge_handshake(config, profile, &run.trace, &ready, &mut handshake);
    if matches!(ready, Drive::Got(_)) {
        run.exchange(config, &mut play).await;
    }
    run.session.game_over();
    run.session.flush_trace(now());
    run.pump().await;
    let _ = run.writer.shutdown().await;
    judge_acknowledgements(&run, handshake_len, &mut play);
    let mut quality = Section::new("Line quality");
    judge_speed(&run.speed, baud, &mut quality);
    judge_noise(&run.trace, &mut quality);
    vec![opened, handshake, play, quality]
}

/// How a drive of the line ended.
#[derive(Debug, Clone, PartialEq)]
enum Drive {
    Got(SessionEvent),
    /// The deadline came first.
    Late,
    /// The line closed, or could not be written.
    Closed(String),
    /// The program's answer contradicts the game.
    Mismatch(String),
}

fn is_ready(event: &SessionEvent) -> bool {
    matches!(event, SessionEvent::Ready)
}

/// The session on the open line, and what the check saw of it.
struct LineRun {
    session: Session,
    reader: ReadHalf<BoxedLine>,
    writer: WriteHalf<BoxedLine>,
    /// Every packet and every piece of noise, when it was handled.
    trace: Vec<(Instant, TraceEntry)>,
    /// The line's speed, from every read.
    speed: Speed,
    /// When the bytes that handed the program the move were written.
    turn_given: Option<Instant>,
    /// Our moves the program has acknowledged.
    delivered: usize,
    /// Where in the trace our repeated move went out, once it has.
    repeated: Option<usize>,
    /// The program answered the repeat with a move.
    repeat_taken_as_new: bool,
    alarms: Vec<String>,
}

impl LineRun {
    /// Writes and traces what the session has to say; the first event
    /// `wanted` picks is returned.
    async fn pump_for(&mut self, wanted: &mut dyn FnMut(&SessionEvent) -> bool) -> Option<Drive> {
        let mut found = None;
        while let Some(event) = self.session.poll_event() {
            match &event {
                SessionEvent::Transmit {
                    bytes, gives_turn, ..
                } => {
                    let written = async {
                        self.writer.write_all(bytes).await?;
                        self.writer.flush().await
                    };
                    if let Err(e) = written.await {
                        return Some(Drive::Closed(format!("cannot write to the line: {e}")));
                    }
                    if *gives_turn {
                        self.turn_given = Some(now());
                    }
                }
                SessionEvent::Trace(entry) => self.trace.push((now(), entry.clone())),
                SessionEvent::Delivered => self.delivered += 1,
                SessionEvent::Alarm(message) => self.alarms.push(message.clone()),
                SessionEvent::Mismatch(message) => {
                    return Some(Drive::Mismatch(message.clone()));
                }
                SessionEvent::Restarted(message) => {
                    return Some(Drive::Closed(format!(
                        "the program started over: {message}"
                    )))
                }
                SessionEvent::Ready | SessionEvent::Move(_) | SessionEvent::Answered { .. } => {}
            }
            if found.is_none() && wanted(&event) {
                found = Some(Drive::Got(event));
            }
        }
        found
    }

    async fn pump(&mut self) {
        self.pump_for(&mut |_| false).await;
    }

    /// Runs the line until an event `wanted` picks, or `deadline`.
    async fn until(
        &mut self,
        deadline: Instant,
        mut wanted: impl FnMut(&SessionEvent) -> bool,
    ) -> Drive {
        let mut buf = vec![0u8; 1024];
        loop {
            if let Some(drive) = self.pump_for(&mut wanted).await {
                return drive;
            }
            let due = self
                .session
                .poll_timeout()
                .map_or(deadline, |t| t.min(deadline));
            tokio::select! {
                read = self.reader.read(&mut buf) => match read {
                    Ok(n) if n > 0 => {
                        let at = now();
                        self.speed.read(at, &buf[..n]);
                        self.session.handle_bytes(at, &buf[..n]);
                    }
                    Ok(_) => return Drive::Closed("the line closed".into()),
                    Err(e) => return Drive::Closed(format!("the line failed: {e}")),
                },
                _ = sleep_until(Some(due)) => {
                    let at = now();
                    if at >= deadline {
                        return Drive::Late;
                    }
                    self.session.handle_timeout(at);
                }
            }
        }
    }

    /// A few moves each way; one of ours goes out twice.
    async fn exchange(&mut self, config: &CheckConfig, play: &mut Section) {
        let setup = config.setup();
        let color = config.color;
        let mut opponent = Opponent::new(&setup);
        let mut to_move = first_to_move(&setup.handicap);
        let mut moves: Vec<TimedMove> = Vec::new();
        let mut relayed = 0;
        let limit = config.move_limit();
        let mut stopped: Option<String> = None;
        if to_move == color && color == Color::White {
            self.turn_given = Some(now());
        }
        while moves.len() < config.moves as usize {
            if to_move != color {
                let mv = opponent.move_for(color.opponent());
                self.session.relay_move(now(), mv.point());
                relayed += 1;
                to_move = color;
                continue;
            }
            let drive = self
                .until(now() + limit, |event| {
                    matches!(event, SessionEvent::Move(_))
                })
                .await;
            let Drive::Got(SessionEvent::Move(point)) = drive else {
                stopped = Some(match drive {
                    Drive::Late => format!(
                        "no move within {} (its move {})",
                        millis(limit),
                        moves.len() + 1
                    ),
                    Drive::Closed(why) | Drive::Mismatch(why) => why,
                    Drive::Got(other) => format!("the line stopped at {other:?}"),
                });
                break;
            };
            let mv = point.map(Move::Play).unwrap_or(Move::Pass);
            let arrived = now();
            let took = self
                .turn_given
                .take()
                .map(|given| arrived.saturating_duration_since(given))
                .unwrap_or_default();
            moves.push(TimedMove { mv, took });
            if let Err(why) = opponent.record(color, mv) {
                stopped = Some(format!(
                    "played {mv}, which is illegal ({why}): it would forfeit"
                ));
                break;
            }
            to_move = color.opponent();
            if relayed == REPEATED_MOVE && self.repeated.is_none() {
                if let Some(why) = self.repeat_a_move().await {
                    stopped = Some(why);
                    break;
                }
            }
        }
        let tried = stopped.is_none() || self.repeated.is_some();
        judge_moves(config, &moves, stopped, play);
        if tried {
            judge_repeat(&self.trace, self.repeated, self.repeat_taken_as_new, play);
        }
    }

    /// Sends our last delivered move again and watches the line a moment:
    /// a move from the program then means it took the repeat for a new
    /// move of ours, and says why the exchange stops.
    async fn repeat_a_move(&mut self) -> Option<String> {
        if !self.session.repeat_delivered(now()) {
            return None;
        }
        self.repeated = Some(self.trace.len());
        let watched = self
            .until(now() + AFTER_REPEAT, |event| {
                matches!(event, SessionEvent::Move(_))
            })
            .await;
        match watched {
            Drive::Late => None,
            Drive::Got(_) => {
                self.repeat_taken_as_new = true;
                Some("it answered our repeated MOVE with a move of its own".into())
            }
            Drive::Closed(why) | Drive::Mismatch(why) => Some(why),
        }
    }
}

#[cfg(test)]
mod tests;
