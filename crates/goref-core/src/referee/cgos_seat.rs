//! `goref seat cgos://`: one program playing on a CGOS server, as a
//! sans-IO machine. The server's lines and the program's GTP answers come
//! in with the time; out go the lines for the server, the GTP commands for
//! the program (one in flight at a time) and [`SeatNote`]s: each game as
//! goref's own events, for its folder and the seat's screen.
//!
//! The server referees; goref follows and checks. Each move is played on
//! goref's own board (area scoring, positional superko, as CGOS plays), so
//! that a move goref's rules refuse, a count that differs from the
//! server's, or a flag the clocks as told do not bear out is said in a
//! notice beside the server's verdict, which stays the result. The login
//! is never traced: the password goes nowhere but to the server.
//!
//! The program is told each game as the CGOS clients tell theirs:
//! `boardsize`, `komi`, `time_settings MAIN 0 0` (when it knows
//! `time_left` too), the opponent's name and rating (when it knows the
//! `cgos-opponent_*` commands), `clear_board` and the moves so far; then
//! `time_left` before each move it is asked for, and `cgos-gameover` at the
//! end when it knows it. It is asked with its own analysis command when it
//! lists one and the server takes analysis.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use crate::game::board::{Board, BoardRules, KoRule};
use crate::game::{Color, Move, MAX_SIZE, MIN_SIZE};
use crate::protocol::cgos::wire::{letter, ServerLine, Setup};
use crate::protocol::gtp::analysis::{of_move, parse_line, AnalysisCommand, Candidate};
use crate::protocol::seat::Right;

use super::event::{End, GameEvent, LineDirection, Phase, SessionChange};

mod game;
mod program;
mod verdict;

use game::{Asked, Game};
use program::{
    answer_of, cgos_json, first_line, normal_vertex, Answer, Command, MoveAsked, Program, Purpose,
};
pub use verdict::verdict;

/// How often a program asked with `kata-` or `lz-genmove_analyze` writes
/// its `info` line, in centiseconds.
const ANALYSIS_INTERVAL_CS: u32 = 50;
/// How many answers that are not moves a program may give for one move
/// before the seat resigns for it.
const MAX_BAD_ANSWERS: u32 = 3;

/// Who the seat logs in as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatLogin {
    pub user: String,
    pub password: String,
    /// The seat's free text after `e1`: `goref-seat VERSION`.
    pub client: String,
}

/// What the machine tells its shell.
#[derive(Debug, Clone, PartialEq)]
pub enum SeatNote {
    /// The login was sent; the server said nothing against it yet.
    LoggedIn,
    /// A game starts, or is told again after the link came back
    /// (`resumed`): the shell opens or goes on with its folder.
    GameBegins {
        game: u64,
        /// `game 12 on 9x9: beta(1800) (W) - alpha(1500?) (B)`.
        title: String,
        resumed: bool,
        /// The moves played before the server set the game up for this
        /// seat: a game begun before it (a seat started again mid-game).
        played: usize,
    },
    /// One of the game's events, in order.
    Event(GameEvent),
    /// The game is over; the shell closes its folder.
    GameEnds { game: u64, result: String },
    /// A line for the operator's log.
    Said(String),
    /// The server refused the seat (`Error: ...`); it closes the link.
    Refused(String),
}

/// One seat's life on a CGOS server. See the module documentation.
#[derive(Debug)]
pub struct CgosSeat {
    login: SeatLogin,
    /// The server takes a move's analysis (`protocol genmove_analyze`).
    analysis_offered: bool,
    program: Program,
    game: Option<Game>,
    /// The operator asked for a resignation with no move asked yet.
    resign_next: bool,
    to_server: VecDeque<String>,
    commands: VecDeque<Command>,
    in_flight: Option<Command>,
    notes: VecDeque<SeatNote>,
}

impl CgosSeat {
    /// A seat for `login`; the program is asked who it is first.
    pub fn new(login: SeatLogin) -> CgosSeat {
        let mut seat = CgosSeat {
            login,
            analysis_offered: false,
            program: Program::default(),
            game: None,
            resign_next: false,
            to_server: VecDeque::new(),
            commands: VecDeque::new(),
            in_flight: None,
            notes: VecDeque::new(),
        };
        seat.ask_who();
        seat
    }

    fn ask_who(&mut self) {
        for (line, purpose) in [
            ("name", Purpose::Name),
            ("version", Purpose::Version),
            ("list_commands", Purpose::ListCommands),
        ] {
            self.command(line.to_string(), purpose, false);
        }
    }

    fn command(&mut self, line: String, purpose: Purpose, traced: bool) {
        self.commands.push_back(Command {
            line,
            purpose,
            traced,
        });
    }

    fn event(&mut self, event: GameEvent) {
        self.notes.push_back(SeatNote::Event(event));
    }

    fn notice(&mut self, message: String) {
        self.event(GameEvent::Notice {
            color: None,
            message,
        });
    }

    fn said(&mut self, text: String) {
        self.notes.push_back(SeatNote::Said(text));
    }

    /// The next line for the server.
    pub fn poll_line(&mut self) -> Option<String> {
        self.to_server.pop_front()
    }

    /// The next command for the program, when none is in flight.
    pub fn poll_command(&mut self) -> Option<String> {
        if self.in_flight.is_some() {
            return None;
        }
        let command = self.commands.pop_front()?;
        if command.traced {
            if let Some(game) = &self.game {
                let color = game.ours;
                self.event(GameEvent::Gtp {
                    color,
                    direction: LineDirection::Sent,
                    line: command.line.clone(),
                });
            }
        }
        let line = command.line.clone();
        self.in_flight = Some(command);
        Some(line)
    }

    /// The next note for the shell.
    pub fn poll_note(&mut self) -> Option<SeatNote> {
        self.notes.pop_front()
    }

    /// Whether the game in play is over or none is in play: the seat may
    /// stop without losing one.
    pub fn between_games(&self) -> bool {
        self.game.as_ref().is_none_or(|game| game.over)
    }

    /// The link to the server is gone. A game in play goes on at the
    /// server, its clock running; the seat logs in again and is told it.
    pub fn handle_link_lost(&mut self, why: &str) {
        let Some(game) = &mut self.game else { return };
        if game.over {
            return;
        }
        let ours = game.ours;
        game.asked = None;
        self.event(GameEvent::Session {
            what: SessionChange::SeatLost,
            color: Some(ours),
            message: format!("the link to the server is lost ({why}); its clock runs there"),
            down_ms: None,
        });
    }

    /// A line from the server.
    pub fn handle_line(&mut self, now: Instant, line: &str) {
        let parsed = ServerLine::parse(line);
        let untraced = matches!(
            parsed,
            Some(
                ServerLine::Protocol { .. }
                    | ServerLine::Username
                    | ServerLine::Password
                    | ServerLine::Setup(_)
            )
        );
        if !untraced {
            self.trace(LineDirection::Received, line);
        }
        let Some(parsed) = parsed else {
            self.said(format!("the server said what CGOS does not: {line}"));
            return;
        };
        match parsed {
            ServerLine::Protocol { analyze } => {
                self.analysis_offered = analyze;
                let mut hello = format!("e1 {}", self.login.client);
                if analyze {
                    hello.push_str(" genmove_analyze");
                }
                self.to_server.push_back(hello);
            }
            ServerLine::Username => self.to_server.push_back(self.login.user.clone()),
            ServerLine::Password => {
                self.to_server.push_back(self.login.password.clone());
                self.notes.push_back(SeatNote::LoggedIn);
            }
            ServerLine::Setup(setup) => {
                self.setup(now, setup);
                self.trace_setup(line);
            }
            ServerLine::Genmove { colour, ms_left } => self.genmove(now, colour, ms_left),
            ServerLine::Play {
                colour,
                vertex,
                ms_left,
            } => self.play(now, colour, &vertex, ms_left),
            ServerLine::Gameover {
                date,
                result,
                reason,
            } => self.gameover(now, &date, &result, reason.as_deref()),
            ServerLine::Info(text) => self.said(format!("the server: {text}")),
            ServerLine::Error(text) => self.notes.push_back(SeatNote::Refused(text)),
        }
    }

    fn trace(&mut self, direction: LineDirection, line: &str) {
        let Some(game) = &self.game else { return };
        if game.over && direction == LineDirection::Received && !line.starts_with("gameover") {
            return;
        }
        let color = game.ours;
        self.event(GameEvent::Cgos {
            color,
            direction,
            line: line.to_string(),
        });
    }

    fn send(&mut self, line: String) {
        self.trace(LineDirection::Sent, &line);
        self.to_server.push_back(line);
    }

    fn setup(&mut self, now: Instant, setup: Setup) {
        let user = &self.login.user;
        let id = setup.game;
        let ours = match (&setup.white.name == user, &setup.black.name == user) {
            (true, _) => Color::White,
            (false, true) => Color::Black,
            (false, false) => {
                self.said(format!(
                    "the server's game {id} is not {user}'s ({} - {}); it is not played",
                    setup.white, setup.black
                ));
                return;
            }
        };
        let Some(size) = u8::try_from(setup.size)
            .ok()
            .filter(|s| (MIN_SIZE..=MAX_SIZE).contains(s))
        else {
            self.said(format!(
                "the server's game {id} is on a board of {}: not played",
                setup.size
            ));
            return;
        };
        let resumed = self
            .game
            .as_ref()
            .is_some_and(|game| game.id == id && !game.over);
        if resumed {
            self.resume(now, setup.moves);
        } else {
            self.start(now, setup, size, ours);
        }
        self.tell_program();
    }

    fn start(&mut self, now: Instant, setup: Setup, size: u8, ours: Color) {
        let rules = BoardRules {
            ko: KoRule::PositionalSuperko,
            suicide_allowed: false,
        };
        let Setup {
            game: id,
            komi,
            main_ms,
            white,
            black,
            moves,
            ..
        } = setup;
        let game = Game {
            id,
            size,
            komi,
            main_ms,
            ours,
            white,
            black,
            moves: Vec::new(),
            board: Board::new(size, rules).ok(),
            left_ms: [main_ms; 2],
            used_ms: [0; 2],
            turn_since: None,
            asked: None,
            over: false,
        };
        let title = game.title();
        let start = game.start_event(&self.login.user, &self.program);
        self.resign_next = false;
        self.game = Some(game);
        self.notes.push_back(SeatNote::GameBegins {
            game: id,
            title,
            resumed: false,
            played: moves.len(),
        });
        for color in [Color::Black, Color::White] {
            let info = match color {
                Color::Black => start.black.clone(),
                Color::White => start.white.clone(),
            };
            self.event(GameEvent::Player { color, info });
        }
        self.event(GameEvent::GameStart(Box::new(start)));
        self.event(GameEvent::Phase {
            phase: Phase::Play,
            reason: "the CGOS server started the game".into(),
        });
        for (vertex, ms_left) in moves {
            self.record_move(&vertex, ms_left, None);
        }
        self.turn_begins(now);
    }

    /// The `setup` line in the trace of the game it set up.
    fn trace_setup(&mut self, line: &str) {
        let told = self
            .game
            .as_ref()
            .is_some_and(|game| line.starts_with(&format!("setup {} ", game.id)));
        if told {
            self.trace(LineDirection::Received, line);
        }
    }

    fn resume(&mut self, now: Instant, moves: Vec<(String, u64)>) {
        let Some(game) = &mut self.game else { return };
        let known = game.moves.len();
        let ours = game.ours;
        let id = game.id;
        let same = moves.len() >= known
            && moves
                .iter()
                .zip(&game.moves)
                .all(|((a, _), (b, _))| a.eq_ignore_ascii_case(b));
        self.notes.push_back(SeatNote::GameBegins {
            game: id,
            title: self.game.as_ref().map(Game::title).unwrap_or_default(),
            resumed: true,
            played: moves.len(),
        });
        self.event(GameEvent::Session {
            what: SessionChange::SeatBack,
            color: Some(ours),
            message: format!(
                "logged in again: the server told the game again, {} moves",
                moves.len()
            ),
            down_ms: None,
        });
        if !same {
            self.notice(format!(
                "the server's game {id} differs from the moves goref had: goref follows the \
                 server's from move {}",
                known + 1
            ));
        }
        for (vertex, ms_left) in moves.into_iter().skip(known) {
            self.record_move(&vertex, ms_left, None);
        }
        self.turn_begins(now);
    }

    /// The game told to the program from its start, as the CGOS clients
    /// tell it.
    fn tell_program(&mut self) {
        let Some(game) = &self.game else { return };
        let opponent = game.named(game.ours.opponent()).clone();
        let mut lines = vec![
            format!("boardsize {}", game.size),
            format!("komi {}", game.komi),
        ];
        if self.program.tells_time() {
            lines.push(format!("time_settings {} 0 0", game.main_ms / 1000));
        }
        if self.program.lists("cgos-opponent_name") {
            lines.push(format!("cgos-opponent_name {}", opponent.name));
        }
        if self.program.lists("cgos-opponent_rating") {
            lines.push(format!("cgos-opponent_rating {}", opponent.rating));
        }
        lines.push("clear_board".into());
        for (n, (vertex, _)) in game.moves.iter().enumerate() {
            let colour = if n % 2 == 0 { 'b' } else { 'w' };
            lines.push(format!("play {colour} {}", vertex.to_ascii_lowercase()));
        }
        for line in lines {
            self.command(line, Purpose::Tell, true);
        }
    }

    /// The clock of the side to move starts, as goref follows it.
    fn turn_begins(&mut self, now: Instant) {
        let Some(game) = &mut self.game else { return };
        let color = game.to_move();
        game.turn_since = Some((color, now));
        let clock = game.reading(color, true);
        self.event(GameEvent::Clock { color, clock });
    }

    fn genmove(&mut self, now: Instant, color: Color, ms_left: u64) {
        let Some(game) = &mut self.game else {
            self.said(format!(
                "the server asked for a move with no game: genmove {}",
                letter(color)
            ));
            return;
        };
        if game.over || color != game.ours {
            let text = format!("the server asked for {color}'s move, which is not this seat's");
            self.notice(text);
            return;
        }
        game.left_ms[color.index()] = ms_left;
        if game.turn_since.is_none_or(|(c, _)| c != color) {
            game.turn_since = Some((color, now));
        }
        game.asked = Some(Asked {
            color,
            ms_left,
            at: now,
            bad_answers: 0,
            resigned: false,
        });
        let clock = game.reading(color, true);
        self.event(GameEvent::Clock { color, clock });
        if std::mem::take(&mut self.resign_next) {
            self.resign_now(now, "the operator resigned for the program");
            return;
        }
        self.ask_move();
    }

    fn ask_move(&mut self) {
        let Some(game) = &self.game else { return };
        let Some(asked) = &game.asked else { return };
        let (id, color, ms_left) = (game.id, asked.color, asked.ms_left);
        let colour = letter(color);
        if self.program.tells_time() {
            let line = format!("time_left {colour} {} 0", ms_left / 1000);
            self.command(line, Purpose::Tell, true);
        }
        let command = self.program.analysis(self.analysis_offered);
        let line = match command {
            Some(command) => {
                let (name, args) = command.request(color, ANALYSIS_INTERVAL_CS);
                format!("{name} {}", args.join(" "))
            }
            None => format!("genmove {colour}"),
        };
        let purpose = Purpose::Move(MoveAsked {
            game: id,
            color,
            command,
        });
        self.command(line, purpose, true);
    }

    /// A move told (the opponent's `play`, a resumed game's), played on
    /// goref's board and recorded.
    fn record_move(&mut self, vertex: &str, ms_left: u64, think: Option<u64>) {
        let Some(game) = &mut self.game else { return };
        let color = game.to_move();
        let n = game.moves.len() as u32 + 1;
        let side = color.index();
        let charged = game.left_ms[side].saturating_sub(ms_left);
        game.left_ms[side] = ms_left;
        game.used_ms[side] += think.unwrap_or(charged);
        game.moves.push((vertex.to_string(), ms_left));
        game.turn_since = None;
        let vertex = normal_vertex(vertex);
        let mut captures = Vec::new();
        let mut disagreement = None;
        if let Some(board) = &mut game.board {
            let played = match Move::parse_gtp(&vertex, game.size) {
                Ok(Move::Play(point)) => board.play(color, point).map(|taken| {
                    captures = taken.iter().map(|p| p.to_gtp()).collect();
                }),
                Ok(Move::Pass) => board.pass(color),
                Ok(Move::Resign) => Ok(()),
                Err(_) => Ok(()),
            };
            if let Err(why) = played {
                disagreement = Some(why);
                game.board = None;
            }
        }
        let mut clock = game.reading(color, false);
        clock.last_move_ms = think.unwrap_or(charged);
        self.event(GameEvent::Move {
            n,
            color,
            vertex: vertex.clone(),
            ms: think.unwrap_or(charged),
            captures,
            clock,
            referee_us: None,
            net_ms: None,
            opening: false,
        });
        if let Some(why) = disagreement {
            self.notice(format!(
                "goref's rules find move {n}, {color} {vertex}, illegal ({why}); the server \
                 took it: goref's board stops following the game"
            ));
        }
    }

    fn play(&mut self, now: Instant, color: Color, vertex: &str, ms_left: u64) {
        let colour = letter(color);
        let Some(game) = &self.game else {
            self.said(format!(
                "the server told a move with no game: {colour} {vertex}"
            ));
            return;
        };
        if game.over {
            return;
        }
        let expected = game.to_move();
        if color != expected {
            self.notice(format!(
                "the server told {color}'s move {vertex} when {expected} was to move"
            ));
            return;
        }
        self.record_move(vertex, ms_left, None);
        self.command(
            format!("play {colour} {}", vertex.to_ascii_lowercase()),
            Purpose::Tell,
            true,
        );
        self.turn_begins(now);
    }

    fn gameover(&mut self, now: Instant, date: &str, result: &str, reason: Option<&str>) {
        let Some(game) = &mut self.game else {
            self.to_server.push_back("ready".into());
            return;
        };
        if game.over {
            self.to_server.push_back("ready".into());
            return;
        }
        game.asked = None;
        let id = game.id;
        let mut verdict = verdict(result);
        let loser = game.to_move();
        let resigned = verdict.end == End::Resign && verdict.winner == Some(loser.opponent());
        if resigned && loser != game.ours {
            let left = game.left_ms[loser.index()];
            let thought = match game.turn_since {
                Some((color, at)) if color == loser => now.saturating_duration_since(at),
                _ => Duration::ZERO,
            };
            self.record_move("resign", left, Some(thought.as_millis() as u64));
        }
        let Some(game) = &mut self.game else { return };
        game.over = true;
        let checks = game.check_verdict(now, result);
        for check in checks {
            self.notice(check);
        }
        let words = match reason {
            Some(reason) => format!("{result} ({reason})"),
            None => result.to_string(),
        };
        verdict.reason = format!("the CGOS server's verdict on {date}: {words}");
        self.event(GameEvent::Result(verdict));
        if self.program.lists("cgos-gameover") {
            self.command(format!("cgos-gameover {result}"), Purpose::Tell, true);
        }
        self.send("ready".into());
        self.notes.push_back(SeatNote::GameEnds {
            game: id,
            result: result.to_string(),
        });
    }

    /// The program's answer to the command in flight: `success` for `=`,
    /// its text without the mark, and how long it took.
    pub fn handle_answer(&mut self, now: Instant, success: bool, text: &str, think: Duration) {
        let Some(command) = self.in_flight.take() else {
            return;
        };
        if command.traced {
            if let Some(game) = &self.game {
                let color = game.ours;
                let mark = if success { '=' } else { '?' };
                for (n, line) in text.lines().enumerate() {
                    let line = match n {
                        0 => format!("{mark} {line}"),
                        _ => line.to_string(),
                    };
                    self.event(GameEvent::Gtp {
                        color,
                        direction: LineDirection::Received,
                        line: line.trim_end().to_string(),
                    });
                }
            }
        }
        match command.purpose {
            Purpose::Name if success => self.program.name = first_line(text),
            Purpose::Version if success => self.program.version = first_line(text),
            Purpose::ListCommands => {
                self.program.listed = text.lines().map(|l| l.trim().to_string()).collect();
            }
            Purpose::Name | Purpose::Version => {}
            Purpose::Tell if success => {}
            Purpose::Tell => {
                let Some(game) = &self.game else { return };
                let color = game.ours;
                self.event(GameEvent::Error {
                    color: Some(color),
                    message: format!("the program refused '{}': {text}", command.line),
                    fatal: false,
                });
            }
            Purpose::Move(asked) => {
                let answer = Answer {
                    success,
                    text,
                    think,
                };
                self.answered(now, asked, answer)
            }
        }
    }

    fn answered(&mut self, now: Instant, move_asked: MoveAsked, answer: Answer) {
        let MoveAsked {
            game: id,
            color,
            command: analysis,
        } = move_asked;
        let Answer {
            success,
            text,
            think,
        } = answer;
        let Some(game) = &self.game else { return };
        let Some(asked) = game.asked.as_ref().filter(|_| game.id == id && !game.over) else {
            self.said(format!(
                "the program's answer came after its game or link moved on, and is dropped: {}",
                first_line(text)
            ));
            return;
        };
        if asked.resigned {
            return;
        }
        let (reply, lines) = answer_of(text, analysis.is_some());
        let Some(reply) = reply.filter(|_| success) else {
            let tries = asked.bad_answers + 1;
            if let Some(asked) = self.game.as_mut().and_then(|g| g.asked.as_mut()) {
                asked.bad_answers = tries;
            }
            self.event(GameEvent::Error {
                color: Some(color),
                message: format!("the program's answer is not a move: {}", first_line(text)),
                fatal: false,
            });
            match tries >= MAX_BAD_ANSWERS {
                true => self.resign_now(now, "the program gave no move in three answers"),
                false => self.ask_move(),
            }
            return;
        };
        let candidates: Vec<Candidate> = match analysis {
            Some(command) => lines
                .iter()
                .rev()
                .find_map(|line| parse_line(line, command).ok())
                .unwrap_or_default(),
            None => Vec::new(),
        };
        let json = match analysis {
            Some(AnalysisCommand::Cgos) => lines.iter().rev().find(|l| l.starts_with('{')).cloned(),
            Some(_) if !candidates.is_empty() => Some(cgos_json(&candidates)),
            _ => None,
        };
        self.our_move(now, color, &reply, think, json, &candidates);
    }

    fn our_move(
        &mut self,
        now: Instant,
        color: Color,
        vertex: &str,
        think: Duration,
        json: Option<String>,
        candidates: &[Candidate],
    ) {
        let Some(game) = &mut self.game else { return };
        let Some(asked) = game.asked.take() else {
            return;
        };
        let n = game.moves.len() as u32 + 1;
        let since = now.saturating_duration_since(asked.at).as_millis() as u64;
        let ms_left = asked.ms_left.saturating_sub(since);
        if let Some(found) = of_move(candidates, vertex) {
            let black_winrate = found.black_winrate(color);
            self.event(GameEvent::Analysis {
                n,
                color,
                winrate: found.winrate,
                black_winrate,
                score_lead: found.score_lead,
                visits: found.visits,
                pv: found.pv,
            });
        }
        let line = match &json {
            Some(json) => format!("{} {json}", vertex.to_ascii_lowercase()),
            None => vertex.to_ascii_lowercase(),
        };
        let think_ms = think.as_millis() as u64;
        self.record_move(vertex, ms_left, Some(think_ms));
        self.send(line);
        if vertex != "resign" {
            self.turn_begins(now);
        }
    }

    fn resign_now(&mut self, now: Instant, why: &str) {
        let Some(game) = &mut self.game else { return };
        let Some(asked) = &mut game.asked else { return };
        asked.resigned = true;
        let color = asked.color;
        self.event(GameEvent::Notice {
            color: Some(color),
            message: why.to_string(),
        });
        self.our_move(now, color, "resign", Duration::ZERO, None, &[]);
    }

    /// An operator's right: resign (now if a move is asked, else at the
    /// next one), or the program started again (the shell restarts it and
    /// then calls [`CgosSeat::handle_program_restarted`]).
    pub fn handle_right(&mut self, now: Instant, right: Right) {
        match right {
            Right::Resign => {
                let Some(game) = &self.game else { return };
                if game.over {
                    return;
                }
                match game.asked.is_some() {
                    true => self.resign_now(now, "the operator resigned for the program"),
                    false => {
                        self.resign_next = true;
                        self.notice("the operator resigns for the program at its next move".into());
                    }
                }
            }
            Right::Restart => {
                if let Some(game) = &self.game {
                    let color = game.ours;
                    self.event(GameEvent::Session {
                        what: SessionChange::Restarted,
                        color: Some(color),
                        message: "the operator started the program again".into(),
                        down_ms: None,
                    });
                }
            }
        }
    }

    /// A line of the program's stderr, for the game's trace.
    pub fn handle_stderr(&mut self, line: &str) {
        let Some(game) = &self.game else { return };
        let color = game.ours;
        self.event(GameEvent::Gtp {
            color,
            direction: LineDirection::Stderr,
            line: line.to_string(),
        });
    }

    /// The program was started again (it exited, or the operator asked):
    /// what was in flight is gone; it is asked who it is and told the game
    /// again, and the move asked for is asked again.
    pub fn handle_program_restarted(&mut self, detail: &str) {
        self.in_flight = None;
        self.commands.clear();
        if let Some(game) = &self.game {
            let color = game.ours;
            if !game.over {
                self.event(GameEvent::Notice {
                    color: Some(color),
                    message: format!(
                        "the program was started again ({detail}): it is told the game"
                    ),
                });
            }
        }
        self.ask_who();
        if self.game.as_ref().is_some_and(|game| !game.over) {
            self.tell_program();
            self.ask_move();
        }
    }
}

#[cfg(test)]
mod tests;
