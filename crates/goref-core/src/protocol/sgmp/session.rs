//! The referee's side of one program's serial line: the handshake, then the
//! moves in both directions (`reference/sgmp.md` §9–§10), without IO.
//!
//! The referee sits between two programs and plays the opposite colour on
//! each line (§10.2). With the program Black, the session acts White: it
//! waits for NEWGAME, asks QUERY 11 (colour) and QUERY 8 (handicap) (and, in
//! full GMP, QUERY 9, board size, and QUERY 7, rules), then sends the OK that
//! hands Black the move. With the program White, the session acts Black: it
//! sends NEWGAME at once and answers every QUERY from the configuration until
//! the program's OK arrives; until then it sends nothing but ANSWERs, as
//! CgfGoBan gives up otherwise.
//!
//! An answer that contradicts the game (the program says it is White, or
//! names another handicap, board size or rule set) stops the set-up before
//! any move: the session reports [`SessionEvent::Mismatch`], naming both
//! values, and from then on sends nothing. So does, in SGMP, a NEWGAME from
//! a White program, as only Black sends NEWGAME there (§10.1). An ANSWER of
//! 0 means "unknown" (§7) and contradicts nothing.
//!
//! During play every MOVE of the program is OKed at once (the
//! [`SessionEvent::Move`] comes after the OK is queued); a MOVE with the
//! wrong colour bit or off the board is denied and raised as an
//! [`SessionEvent::Alarm`], never delivered. `Session::relay_move` sends
//! the opponent's move. After `Session::game_over` any MOVE (GNU Go sends
//! one extra pass) is OKed and ignored. UNDO and EXTENDED are denied with an
//! alarm (§5.2); a DENY is OKed with an alarm; a repeated NEWGAME is OKed,
//! as CgfGoBan does.
//!
//! Choices where the reference leaves room:
//!
//! * The handshake ends, when acting Black, with the program's explicit OK
//!   of our last ANSWER (in full GMP also of our NEWGAME, when the program
//!   asks nothing, as GoGui does); a MOVE from the program before that OK
//!   also ends it (noted in the trace).
//! * Bytes are handled one packet at a time: the session's reply to a packet
//!   is sent before the next packet in the same read is looked at.
//! * `gives_turn` is set on the first transmission of a relayed MOVE and of
//!   the handshake OK when the program is Black in an even game (with a
//!   handicap of 2 or more, White moves first). Resends never set it: the
//!   clock started at the first write.
//! * Queries are answered at any time, not only during the handshake.
//! * A handicap of 0 or 1 is an even game, answered and expected as 1.
//! * An ANSWER of 0 (unknown) is noted in the trace; in SGMP, where the
//!   fixed handshake expects definite answers, an unknown colour or handicap
//!   also raises an alarm. Play goes on: the program may still ask us.
//! * A command of the program that acknowledges our relayed MOVE is reported
//!   as [`SessionEvent::Delivered`] before its own effect, except a DENY,
//!   which refuses the move: that raises an alarm instead.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::link::{Direction, Link, LinkConfig, LinkEvent, LinkState, TraceEntry, TraceFlag};
use super::packet::{decode_move, describe, encode_move, Command, Packet, Query};
use crate::game::coord::{Color, Point};

/// Which handshake the program speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Profile {
    /// The CGF simplified protocol (§10): colour and handicap only.
    Sgmp,
    /// Full GMP (§9): the board size is asked too.
    Gmp,
}

impl Profile {
    /// The profile's resend timing: 20 s for the CGF rule, 3 s for full GMP.
    pub fn link_config(self) -> LinkConfig {
        match self {
            Profile::Sgmp => LinkConfig::sgmp(),
            Profile::Gmp => LinkConfig::gmp(),
        }
    }
}

/// The game on this line, as the tournament configured it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SessionConfig {
    pub profile: Profile,
    /// The colour of the program on this line; the session plays the other.
    pub program_color: Color,
    pub size: u8,
    /// Handicap stones; 0 (or 1) is an even game.
    pub handicap: u8,
    /// The rules as QUERY 7 names them: `Some(true)` Chinese, `Some(false)`
    /// Japanese, `None` unknown (answered 0, and any answer accepted).
    pub chinese_rules: Option<bool>,
    pub link: LinkConfig,
}

impl SessionConfig {
    /// The QUERY 8 value for this game: 1 for even, else the stones.
    fn handicap_answer(&self) -> u16 {
        if self.handicap >= 2 {
            u16::from(self.handicap)
        } else {
            1
        }
    }

    /// The colour the session plays on the line.
    fn our_color(&self) -> Color {
        self.program_color.opponent()
    }

    /// The QUERY 7 value for this game: 1 Japanese, 2 Chinese, 0 unknown.
    fn rules_answer(&self) -> u16 {
        match self.chinese_rules {
            Some(true) => 2,
            Some(false) => 1,
            None => 0,
        }
    }
}

/// A handicap answer in words: `an even game`, `handicap 3`.
fn handicap_words(answer: u16) -> String {
    match answer {
        0 | 1 => "an even game".to_string(),
        n => format!("handicap {n}"),
    }
}

/// A rules answer in words: `Japanese rules`, `Chinese rules`.
fn rules_words(answer: u16) -> String {
    match answer {
        1 => "Japanese rules".to_string(),
        2 => "Chinese rules".to_string(),
        n => format!("rule set {n}, which GMP does not define"),
    }
}

/// What the handshake is waiting for, while it is not complete.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SetupWait {
    /// Program Black: its NEWGAME.
    NewGame,
    /// Program Black: its ANSWER to our QUERY.
    Answer(Query),
    /// Program White: anything at all in reply to our NEWGAME.
    NewGameReply,
    /// Program White: it has spoken, but not sent the OK that ends the
    /// handshake.
    HandshakeOk,
}

/// What the line and the passing of time amount to.
#[derive(Debug, Clone, PartialEq)]
pub enum SessionEvent {
    /// Write these bytes to the line. `gives_turn`: once they are fully
    /// written the program has the move, so its clock starts.
    Transmit {
        bytes: Vec<u8>,
        gives_turn: bool,
        resend: bool,
    },
    Trace(TraceEntry),
    /// The handshake is complete; play can start.
    Ready,
    /// The program's move (`None` = pass), of the right colour and on the
    /// board, already OKed.
    Move(Option<Point>),
    /// The program acknowledged the move we relayed.
    Delivered,
    /// A command of ours, sent once, was acknowledged `round_trip` after it
    /// was sent: the line carried it there and an answer back in that time
    /// (how a line shows itself faster than its baud rate). Before the
    /// acknowledgement's own effects.
    Answered {
        round_trip: Duration,
    },
    /// Something needs the operator's attention.
    Alarm(String),
    /// The program was started again in the middle of the game (it sent
    /// NEWGAME): it has lost the position. The session has stopped.
    Restarted(String),
    /// The program's answer contradicts the game (colour, handicap, board
    /// size or rules); the text names both values. The set-up has stopped:
    /// the session sends nothing more, and no move may be played.
    Mismatch(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Program Black, we act White: waiting for its NEWGAME.
    AwaitNewGame,
    /// We asked the colour.
    AskColor,
    /// We asked the handicap.
    AskHandicap,
    /// We asked the board size (full GMP).
    AskSize,
    /// We asked the rules (full GMP).
    AskRules,
    /// Program White, we act Black: answering its queries until its OK.
    Answering,
    /// The handshake is over.
    Playing,
    /// The handshake found a mismatch: nothing more is done.
    Stopped,
}

/// What the journal's trace of one line says about its session, for a
/// game taken back ([`Session::resumed`]): the link's state, and the MOVEs
/// that crossed the line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LineMemory {
    pub link: LinkState,
    /// The MOVEs we sent, first sendings only.
    pub moves_sent: usize,
    /// The values of the program's MOVEs the link accepted, denied ones
    /// (of the wrong colour, off the board) included.
    pub moves_received: Vec<u16>,
}

impl LineMemory {
    /// Takes in one trace entry of the line, in order.
    pub(crate) fn observe(&mut self, entry: &TraceEntry) {
        self.link.observe(entry);
        let Some(packet) = entry.packet().filter(|p| p.command == Command::Move) else {
            return;
        };
        let flagged = |flag| entry.flags.contains(&flag);
        match entry.direction {
            Direction::Out if !flagged(TraceFlag::Resend) => self.moves_sent += 1,
            Direction::In if !flagged(TraceFlag::Duplicate) && !flagged(TraceFlag::Ignored) => {
                self.moves_received.push(packet.value)
            }
            _ => {}
        }
    }
}

/// The referee's side of one line. See the module documentation.
#[derive(Debug)]
pub struct Session {
    config: SessionConfig,
    link: Link,
    phase: Phase,
    game_over: bool,
    events: VecDeque<SessionEvent>,
    /// The next OK we transmit hands the program the move.
    ok_gives_turn: bool,
    /// Index in `events` of the trace of the last packet read, to attach
    /// notes to; only valid within one call.
    last_in_trace: Option<usize>,
    /// That packet acknowledged our outstanding command implicitly.
    last_in_implicit: bool,
    /// An implicit acknowledgement, held until the command that carried it
    /// (which the link reports next) is seen.
    held_delivery: Option<(Command, u16)>,
    /// The program has sent at least one command.
    heard: bool,
    /// The session goes on from a journal: see [`Session::resumed`].
    resumed: bool,
    /// The program has played a move on this line.
    program_moved: bool,
    /// The first sending of the outstanding MOVE on resuming hands the
    /// program the move.
    resend_gives_turn: bool,
    /// Why the session stopped, for the trace of what comes after.
    stopped_for: &'static str,
}

impl Session {
    /// A session at the start of the game. With the program White we act
    /// Black and send NEWGAME at once; with the program Black we wait for
    /// its NEWGAME.
    pub fn new(config: SessionConfig, now: Instant) -> Session {
        let mut session = Session::with_link(config, Link::new(config.link, config.size));
        if config.program_color == Color::White {
            session.phase = Phase::Answering;
            session.send(now, Command::NewGame, 0);
        }
        session
    }

    fn with_link(config: SessionConfig, link: Link) -> Session {
        Session {
            config,
            link,
            phase: Phase::AwaitNewGame,
            game_over: false,
            events: VecDeque::new(),
            ok_gives_turn: false,
            last_in_trace: None,
            last_in_implicit: false,
            held_delivery: None,
            heard: false,
            resumed: false,
            program_moved: false,
            resend_gives_turn: false,
            stopped_for: "",
        }
    }

    /// A session that goes on in the middle of a game, from the link's
    /// state as the journal's trace shows it: the handshake is over and
    /// [`SessionEvent::Ready`] comes at once, then our outstanding command
    /// is sent again, the identical packet. A relayed MOVE sent again this
    /// way hands the program the move: the time the referee was down is
    /// nobody's. From then on a NEWGAME from the program means it was
    /// started again: see [`SessionEvent::Restarted`].
    pub fn resumed(config: SessionConfig, state: LinkState, now: Instant) -> Session {
        let link = Link::resumed(config.link, config.size, state, now);
        let mut session = Session {
            heard: true,
            resumed: true,
            resend_gives_turn: matches!(state.outstanding, Some((Command::Move, _))),
            ..Session::with_link(config, link)
        };
        session.ready();
        session.pump(now);
        session
    }

    /// Takes bytes read from the line.
    pub fn handle_bytes(&mut self, now: Instant, bytes: &[u8]) {
        let mut rest = bytes;
        while !rest.is_empty() {
            self.last_in_trace = None;
            let taken = self.link.handle_some_bytes(now, rest);
            self.pump(now);
            rest = &rest[taken..];
        }
    }

    /// Resends what is due.
    pub fn handle_timeout(&mut self, now: Instant) {
        self.last_in_trace = None;
        self.link.handle_timeout(now);
        self.pump(now);
    }

    /// When [`handle_timeout`](Self::handle_timeout) should next be called.
    pub fn poll_timeout(&self) -> Option<Instant> {
        self.link.poll_timeout()
    }

    pub fn poll_event(&mut self) -> Option<SessionEvent> {
        self.events.pop_front()
    }

    /// Sends the opponent's move (`None` = pass) with the opponent's colour.
    /// Call it only once the session has finished its handshake: in SGMP
    /// a White program gives up on anything but ANSWERs before its OK. A
    /// stopped session sends nothing.
    pub fn relay_move(&mut self, now: Instant, point: Option<Point>) {
        if self.phase == Phase::Stopped {
            return;
        }
        self.last_in_trace = None;
        let value = encode_move(self.config.our_color(), point, self.config.size);
        self.send(now, Command::Move, value);
    }

    /// Sends our last acknowledged command again, identical: a duplicate,
    /// for `goref check` to see the program OK it or ignore it. See
    /// [`Link::repeat_delivered`].
    pub fn repeat_delivered(&mut self, now: Instant) -> bool {
        self.last_in_trace = None;
        let sent = self.link.repeat_delivered();
        self.pump(now);
        sent
    }

    /// Traces what the link holds back (noise, see
    /// [`noise`](super::noise)) at once, before the line is dropped.
    pub fn flush_trace(&mut self, now: Instant) {
        self.last_in_trace = None;
        self.link.flush_trace(now);
        self.pump(now);
    }

    /// The game has ended: from now on every MOVE is OKed and ignored.
    pub fn game_over(&mut self) {
        self.game_over = true;
    }

    /// Nothing of ours waits for the program's acknowledgement, and nothing
    /// is queued behind it: a line can be closed without losing a packet.
    pub fn is_settled(&self) -> bool {
        self.link.is_idle()
    }

    /// The handshake is complete.
    #[cfg(test)]
    pub(crate) fn is_ready(&self) -> bool {
        self.phase == Phase::Playing
    }

    /// What the handshake waits for; `None` once it is complete, or once a
    /// mismatch has stopped it.
    pub fn setup_wait(&self) -> Option<SetupWait> {
        match self.phase {
            Phase::AwaitNewGame => Some(SetupWait::NewGame),
            Phase::AskColor => Some(SetupWait::Answer(Query::Color)),
            Phase::AskHandicap => Some(SetupWait::Answer(Query::Handicap)),
            Phase::AskSize => Some(SetupWait::Answer(Query::BoardSize)),
            Phase::AskRules => Some(SetupWait::Answer(Query::Rules)),
            Phase::Answering if self.heard => Some(SetupWait::HandshakeOk),
            Phase::Answering => Some(SetupWait::NewGameReply),
            Phase::Playing | Phase::Stopped => None,
        }
    }

    fn send(&mut self, now: Instant, command: Command, value: u16) {
        self.link.send(now, command, value);
        self.pump(now);
    }

    fn ok(&mut self, now: Instant) {
        self.link.send_ok(now);
        self.pump(now);
    }

    /// Moves everything the link has to say into the session. The batch is
    /// taken whole first, so that what the session sends in reply comes out
    /// right after the packet that caused it.
    fn pump(&mut self, now: Instant) {
        let batch: Vec<LinkEvent> = std::iter::from_fn(|| self.link.poll_event()).collect();
        for event in batch {
            self.link_event(now, event);
        }
    }

    fn link_event(&mut self, now: Instant, event: LinkEvent) {
        match event {
            LinkEvent::Transmit { bytes, resend } => {
                let command = <[u8; 4]>::try_from(bytes.as_slice())
                    .ok()
                    .and_then(|b| Packet::decode(b).ok())
                    .map(|p| p.command);
                let gives_turn = match command {
                    Some(Command::Move) if resend => std::mem::take(&mut self.resend_gives_turn),
                    Some(Command::Move) => true,
                    Some(Command::Ok) if !resend => std::mem::take(&mut self.ok_gives_turn),
                    _ => false,
                };
                self.events.push_back(SessionEvent::Transmit {
                    bytes,
                    gives_turn,
                    resend,
                });
            }
            LinkEvent::Trace(entry) => {
                let restarted = entry.direction == Direction::In && self.is_restart(&entry);
                if entry.direction == Direction::In {
                    self.last_in_trace = Some(self.events.len());
                    self.last_in_implicit = entry.flags.contains(&TraceFlag::ImplicitAck);
                }
                self.events.push_back(SessionEvent::Trace(entry));
                if restarted {
                    self.restarted();
                }
            }
            LinkEvent::Alarm { resends, pending } => {
                self.alarm(format!(
                    "no acknowledgement after {resends} resends of {pending}; still resending"
                ));
            }
            LinkEvent::Delivered {
                command,
                value,
                round_trip,
            } => {
                self.heard = true;
                if let Some(round_trip) = round_trip {
                    self.events.push_back(SessionEvent::Answered { round_trip });
                }
                if self.last_in_implicit {
                    self.held_delivery = Some((command, value));
                } else {
                    self.delivered(command, true);
                }
            }
            LinkEvent::Received { command, value } => {
                let mut refused = false;
                if let Some((held, held_value)) = self.held_delivery.take() {
                    if command == Command::Deny {
                        refused = true;
                        let what = self.describe(held, held_value);
                        self.alarm(format!("the {} program denied our {what}", self.program()));
                    } else {
                        self.delivered(held, false);
                    }
                }
                self.received(now, command, value, refused);
            }
        }
    }

    /// A NEWGAME from the program once the game is under way, repeated or
    /// not: the program was started again.
    fn is_restart(&self, entry: &TraceEntry) -> bool {
        self.phase == Phase::Playing
            && !self.game_over
            && (self.resumed || self.program_moved)
            && entry
                .packet()
                .is_some_and(|packet| packet.command == Command::NewGame)
    }

    /// The program was started again: it has lost the position, and GMP
    /// cannot give it back. The session stops, sending nothing more.
    fn restarted(&mut self) {
        self.phase = Phase::Stopped;
        self.stopped_for = "the program was started again";
        self.link.stop();
        self.note("the program was started again: the session stops");
        self.events.push_back(SessionEvent::Restarted(format!(
            "the {} program sent NEWGAME in the middle of the game: it was started again, has \
             lost the position, and GMP cannot give a program the position",
            self.program()
        )));
    }

    fn delivered(&mut self, command: Command, explicit: bool) {
        match command {
            Command::Move => self.events.push_back(SessionEvent::Delivered),
            Command::Answer if explicit && self.phase == Phase::Answering => self.ready(),
            Command::NewGame
                if explicit
                    && self.phase == Phase::Answering
                    && self.config.profile == Profile::Gmp =>
            {
                self.ready()
            }
            _ => {}
        }
    }

    /// A new command from the program. `refused`: it is a DENY that
    /// refused our outstanding command, already raised as an alarm.
    fn received(&mut self, now: Instant, command: Command, value: u16, refused: bool) {
        self.heard = true;
        if self.phase == Phase::Stopped {
            self.note(&format!("{}: ignored", self.stopped_for));
            return;
        }
        match command {
            Command::Ok => {}
            Command::Deny => {
                self.ok(now);
                self.note("DENY: OKed");
                if !refused {
                    self.alarm(format!("the {} program sent DENY", self.program()));
                }
            }
            Command::NewGame => {
                if self.phase == Phase::AwaitNewGame {
                    self.send(now, Command::Query, Query::Color.number());
                    self.phase = Phase::AskColor;
                } else if self.phase == Phase::Answering && self.config.profile == Profile::Sgmp {
                    self.note("NEWGAME from the White program: set-up stopped");
                    self.mismatch(
                        "colour mismatch: the program sent NEWGAME, which in SGMP only Black \
                         sends, so it is set to play Black; the game has it play White"
                            .to_string(),
                    );
                } else {
                    self.note("repeated NEWGAME: OKed");
                    self.ok(now);
                }
            }
            Command::Query => self.answer(now, value),
            Command::Answer => self.handshake_answer(now, value),
            Command::Move => self.program_move(now, value),
            Command::Undo | Command::Extended => {
                self.note("denied");
                self.send(now, Command::Deny, 0);
                let what = self.describe(command, value);
                self.alarm(format!(
                    "the {} program sent {what}, which a tournament game does not allow: denied",
                    self.program()
                ));
            }
        }
    }

    /// Answers a QUERY from the configuration; the answer describes us.
    fn answer(&mut self, now: Instant, value: u16) {
        let config = self.config;
        let answer = match Query::from_number(value) {
            Some(Query::Color) => match config.our_color() {
                Color::White => 1,
                Color::Black => 2,
            },
            Some(Query::Handicap) => config.handicap_answer(),
            Some(Query::Rules) => config.rules_answer(),
            Some(Query::BoardSize) => u16::from(config.size),
            _ => 0,
        };
        self.send(now, Command::Answer, answer);
    }

    /// An ANSWER to one of our handshake queries, when acting White. An
    /// answer that contradicts the game stops the set-up; 0 (unknown) does
    /// not.
    fn handshake_answer(&mut self, now: Instant, value: u16) {
        let sgmp = self.config.profile == Profile::Sgmp;
        match self.phase {
            Phase::AskColor => {
                match value {
                    2 => {}
                    0 => {
                        self.unknown("its colour", sgmp);
                    }
                    v => {
                        let claim = match v {
                            1 => "it is White".to_string(),
                            v => format!("colour {v}, which is neither Black (2) nor White (1)"),
                        };
                        return self.mismatch(format!(
                            "colour mismatch: the program says {claim} (ANSWER {v} to QUERY 11); \
                             the game has it play Black"
                        ));
                    }
                }
                self.send(now, Command::Query, Query::Handicap.number());
                self.phase = Phase::AskHandicap;
            }
            Phase::AskHandicap => {
                let expected = self.config.handicap_answer();
                if value == 0 {
                    self.unknown("the handicap", sgmp);
                } else if value != expected {
                    return self.mismatch(format!(
                        "handicap mismatch: the program says {} (ANSWER {value} to QUERY 8); \
                         the game has {}",
                        handicap_words(value),
                        handicap_words(expected)
                    ));
                }
                if sgmp {
                    self.finish_handshake(now);
                } else {
                    self.send(now, Command::Query, Query::BoardSize.number());
                    self.phase = Phase::AskSize;
                }
            }
            Phase::AskSize => {
                let size = self.config.size;
                if value == 0 {
                    self.unknown("the board size", false);
                } else if value != u16::from(size) {
                    return self.mismatch(format!(
                        "board size mismatch: the program says {value}x{value} (ANSWER {value} \
                         to QUERY 9); the game is {size}x{size}"
                    ));
                }
                self.send(now, Command::Query, Query::Rules.number());
                self.phase = Phase::AskRules;
            }
            Phase::AskRules => {
                let expected = self.config.rules_answer();
                if value == 0 {
                    self.unknown("the rules", false);
                } else if expected != 0 && value != expected {
                    return self.mismatch(format!(
                        "rules mismatch: the program says {} (ANSWER {value} to QUERY 7); the \
                         game is played under {}",
                        rules_words(value),
                        rules_words(expected)
                    ));
                }
                self.finish_handshake(now);
            }
            _ => {
                self.note("ANSWER to nothing we asked: OKed");
                self.ok(now);
            }
        }
    }

    /// The program answered 0 to a handshake query: it does not know
    /// `what`. Noted; raised as an alarm where the handshake expects a
    /// definite answer.
    fn unknown(&mut self, what: &str, alarm: bool) {
        self.note(&format!("the program does not know {what} (ANSWER 0)"));
        if alarm {
            self.alarm(format!(
                "the {} program answers that it does not know {what} (ANSWER 0)",
                self.program()
            ));
        }
    }

    /// Stops the set-up: the program's settings contradict the game.
    fn mismatch(&mut self, text: String) {
        self.phase = Phase::Stopped;
        self.stopped_for = "set-up stopped on a mismatch";
        self.link.stop();
        self.events.push_back(SessionEvent::Mismatch(text));
    }

    /// Acting White: the OK that ends the handshake.
    fn finish_handshake(&mut self, now: Instant) {
        self.ok_gives_turn = self.config.handicap < 2;
        self.ok(now);
        self.ok_gives_turn = false;
        self.ready();
    }

    fn ready(&mut self) {
        self.phase = Phase::Playing;
        self.events.push_back(SessionEvent::Ready);
    }

    fn program_move(&mut self, now: Instant, value: u16) {
        if self.game_over {
            self.note("after the end of the game: OKed and ignored");
            self.ok(now);
            return;
        }
        match self.phase {
            Phase::Playing => {}
            Phase::Answering => {
                self.note("MOVE before the handshake OK: taken as the end of the handshake");
                self.ready();
            }
            _ => {
                self.note("denied");
                self.send(now, Command::Deny, 0);
                let what = self.describe(Command::Move, value);
                self.alarm(format!(
                    "the {} program sent {what} before the handshake finished: denied",
                    self.program()
                ));
                return;
            }
        }
        let size = self.config.size;
        let program = self.program();
        match decode_move(value, size) {
            Ok((color, point)) if color == self.config.program_color => {
                self.program_moved = true;
                self.ok(now);
                self.events.push_back(SessionEvent::Move(point));
            }
            Ok((color, _)) => {
                self.note("denied: wrong colour");
                self.send(now, Command::Deny, 0);
                let what = self.describe(Command::Move, value);
                self.alarm(format!(
                    "the {program} program sent {what}, a {} stone: denied",
                    color.name()
                ));
            }
            Err(_) => {
                self.note("denied: off the board");
                self.send(now, Command::Deny, 0);
                self.alarm(format!(
                    "the {program} program sent MOVE position {}, off the {size}x{size} board: \
                     denied",
                    value & 0x1FF
                ));
            }
        }
    }

    /// `black` or `white`: the program on this line.
    fn program(&self) -> &'static str {
        self.config.program_color.name()
    }

    fn describe(&self, command: Command, value: u16) -> String {
        describe(&Packet::new(false, false, command, value), self.config.size)
    }

    fn alarm(&mut self, text: String) {
        self.events.push_back(SessionEvent::Alarm(text));
    }

    /// Adds a note to the trace of the packet just read.
    fn note(&mut self, text: &str) {
        let entry = self.last_in_trace.and_then(|i| self.events.get_mut(i));
        if let Some(SessionEvent::Trace(entry)) = entry {
            entry.note = Some(match entry.note.take() {
                Some(old) => format!("{old}; {text}"),
                None => text.to_string(),
            });
        }
    }
}

#[cfg(test)]
mod tests;
