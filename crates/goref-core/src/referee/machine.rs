//! The referee: one game's state machine, pure and driven with `now` passed in.
//!
//! [`Referee`] offers the shell its inputs (`handle_player` with a
//! [`PlayerEvent`], `handle_operator` with an
//! [`OperatorCommand`](crate::referee::OperatorCommand), `handle_timeout`)
//! and its outputs to poll ([`GameEvent`]s, what happened, and [`Action`]s,
//! what the shell must tell a player). A move is validated before any
//! [`Action::TellMove`] is queued, so an illegal move never reaches the
//! opponent.
//!
//! This file holds the game's state and its course from the players'
//! readiness through the moves; `machine/pause.rs` holds the operator's
//! commands and the pause, which holds the game whatever the players'
//! protocols (a move that comes meanwhile is taken at the resumption);
//! `machine/absence.rs` holds a player's absence: a late seat, an absent
//! seat's clock, the venue's seats away and back; `machine/ending.rs` holds
//! the end of the game, by the KGS protocol (`reference/gtp-kgs.md` §8),
//! time, forfeit or the judge, and the result.

use std::collections::{BTreeSet, VecDeque};
use std::time::{Duration, Instant};

use crate::game::board::{first_to_move, Board, KoRule};
use crate::game::clock::{format_duration, Clock, TimeSystem};
use crate::game::{Color, Move, Point};
use crate::protocol::gtp::analysis::MoveAnalysis;
use crate::protocol::seat::charged;

use super::event::{End, GameEvent, GameResult, GameStart, Phase, PlayerInfo, SessionChange};
use super::game_config::{GameConfig, SetupError};
use super::report::{Action, Failure, PlayerEvent, TimeLeft};
use super::resume::ResumePoint;

#[derive(Debug, Clone, Copy, PartialEq)]
enum Waiting {
    Nothing,
    Move { color: Color, since: Instant },
    DeadStones,
}

/// The opening's points as moves in turn from `board`'s side to move,
/// each checked legal on a board of its own.
fn opening_moves(board: &Board, opening: &[Point]) -> Result<Vec<(Color, Move)>, SetupError> {
    let mut scratch = board.clone();
    opening
        .iter()
        .enumerate()
        .map(|(i, &point)| {
            let color = scratch.to_move();
            scratch
                .play(color, point)
                .map_err(|why| SetupError::Opening {
                    n: i + 1,
                    vertex: point.to_gtp(),
                    why,
                })?;
            Ok((color, Move::Play(point)))
        })
        .collect()
}

/// One game, from the players' readiness to the result.
pub struct Referee {
    config: GameConfig,
    board: Board,
    clocks: [Clock; 2],
    players: [Option<PlayerInfo>; 2],
    phase: Phase,
    waiting: Waiting,
    moves_played: u32,
    stones_played: u32,
    consecutive_passes: u32,
    claims: [Option<BTreeSet<Point>>; 2],
    marked_dead: BTreeSet<Point>,
    cpu_time: [Option<Duration>; 2],
    /// A seated program's own stamp of its thinking for the move to come.
    seat_time: [Option<Duration>; 2],
    /// The players told that their main CPU time is used up (`byo-romi`).
    main_time_told: [bool; 2],
    /// Why a player failed after play had stopped, if it did.
    failed: [Option<Failure>; 2],
    /// Under the judge's end of game: why a side could not claim dead stones.
    no_claim: [Option<String>; 2],
    /// Why the game awaits the judge, while it does.
    judge_reason: Option<String>,
    /// The move limit the game stopped at, while the judge is awaited for it.
    stopped_at: Option<u32>,
    /// The operator holds the game, until `resume`.
    pause: Option<Pause>,
    /// The operator's input has closed: nobody is left to end a pause.
    unattended: bool,
    /// A game taken back from its journal, waiting for its players: the
    /// phase to go back to once both are ready.
    resuming: Option<ResumePoint>,
    /// Why a game taken back from its journal could not go on: a player
    /// failed before both were ready. Nothing is decided then.
    not_taken_back: Option<String>,
    /// Every move played, in order: the position a restarted program is told.
    moves: Vec<(Color, Move)>,
    /// The players whose programs are being started again after a crash.
    restarting: [bool; 2],
    /// The seated players the venue lost touch with when it went away.
    venue_away: [bool; 2],
    /// The seated players whose running turn is held while their program
    /// is told the game again.
    told_again: [bool; 2],
    /// The opening's moves, checked, played once the game starts.
    opening: Vec<(Color, Move)>,
    result: Option<GameResult>,
    events: VecDeque<GameEvent>,
    actions: VecDeque<Action>,
}

impl Referee {
    pub fn new(config: GameConfig) -> Result<Referee, SetupError> {
        let mut board = Board::new(config.size, config.rules.board_rules())?;
        let stones = config.handicap_stones()?;
        if !stones.is_empty() {
            board
                .place_setup(Color::Black, &stones)
                .map_err(SetupError::Handicap)?;
        }
        board.set_to_move(first_to_move(&stones));
        let opening = opening_moves(&board, &config.opening)?;
        let clock = Clock::new(config.rules.time);
        Ok(Referee {
            config,
            board,
            clocks: [clock.clone(), clock],
            players: [None, None],
            phase: Phase::Setup,
            waiting: Waiting::Nothing,
            moves_played: 0,
            stones_played: 0,
            consecutive_passes: 0,
            claims: [None, None],
            marked_dead: BTreeSet::new(),
            cpu_time: [None, None],
            seat_time: [None, None],
            main_time_told: [false; 2],
            failed: [None, None],
            no_claim: [None, None],
            judge_reason: None,
            stopped_at: None,
            pause: None,
            unattended: false,
            resuming: None,
            not_taken_back: None,
            moves: Vec::new(),
            restarting: [false, false],
            venue_away: [false, false],
            told_again: [false, false],
            opening,
            result: None,
            events: VecDeque::new(),
            actions: VecDeque::new(),
        })
    }

    /// The referee of a game taken back from its journal: the moves are
    /// replayed on the board and the clocks set as the journal last showed
    /// them, stopped. Once both players are ready again the game goes back
    /// to its phase without a second `game_start`; a game that had not
    /// started starts as new.
    pub fn resume(config: GameConfig, point: &ResumePoint) -> Result<Referee, SetupError> {
        let mut referee = Referee::new(config)?;
        for (n, (color, mv)) in point.moves.iter().enumerate() {
            let n = n as u32 + 1;
            let bad = |reason: String| SetupError::Journal(format!("move {n} ({mv}): {reason}"));
            if referee.board.to_move() != *color {
                return Err(bad(format!("{color} played out of turn")));
            }
            match mv {
                Move::Play(point) => {
                    referee
                        .board
                        .play(*color, *point)
                        .map_err(|e| bad(e.to_string()))?;
                    referee.stones_played += 1;
                    referee.consecutive_passes = 0;
                }
                Move::Pass => {
                    referee.board.pass(*color).map_err(|e| bad(e.to_string()))?;
                    referee.consecutive_passes += 1;
                }
                Move::Resign => return Err(bad("a resignation ends the game".into())),
            }
            referee.moves_played = n;
            referee.moves.push((*color, *mv));
        }
        for color in Color::BOTH {
            if let Some(reading) = &point.clocks[color.index()] {
                referee.clocks[color.index()] = Clock::restore(referee.config.rules.time, reading);
            }
        }
        if point.started {
            referee.resuming = Some(point.clone());
        }
        Ok(referee)
    }

    /// How many moves have been played, passes included.
    #[cfg(test)]
    pub(crate) fn moves_played(&self) -> u32 {
        self.moves_played
    }

    /// Every move played, in order.
    pub fn moves(&self) -> &[(Color, Move)] {
        &self.moves
    }

    /// Whether `color`'s program may be started again after it crashed:
    /// play goes on (a crash after play has stopped changes nothing the
    /// restart could mend).
    pub fn can_restart(&self, color: Color) -> bool {
        matches!(self.phase, Phase::Play | Phase::Cleanup)
            && self.players[color.index()].is_some()
            && self.result.is_none()
    }

    /// `color`'s program crashed and is being started again: its clock
    /// runs on, and once it is ready it is asked again for whatever it was
    /// asked before.
    pub fn restarting(&mut self, color: Color, why: &str, attempt: u32) {
        self.restarting[color.index()] = true;
        let moves = self.moves_played;
        self.events.push_back(GameEvent::Session {
            what: SessionChange::Restarted,
            color: Some(color),
            message: format!(
                "{why}; goref starts it again (restart {attempt}) and tells it the {moves} \
                 moves so far; its clock runs on"
            ),
            down_ms: None,
        });
    }

    pub fn config(&self) -> &GameConfig {
        &self.config
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn result(&self) -> Option<&GameResult> {
        self.result.as_ref()
    }

    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// Why the game awaits the judge, while it does.
    pub fn judge_reason(&self) -> Option<&str> {
        self.judge_reason.as_deref()
    }

    pub fn clock(&self, color: Color) -> &Clock {
        &self.clocks[color.index()]
    }

    pub fn poll_event(&mut self) -> Option<GameEvent> {
        self.events.pop_front()
    }

    pub fn poll_action(&mut self) -> Option<Action> {
        self.actions.pop_front()
    }

    /// The next instant at which [`Referee::handle_timeout`] must be called:
    /// the first instant the mover's clock is past its allowance or, when no
    /// clock can flag, its move timeout.
    pub fn poll_timeout(&self) -> Option<Instant> {
        let Waiting::Move { color, since } = self.waiting else {
            return None;
        };
        if self.pause.is_some() {
            return None;
        }
        match self.flag_deadline(color) {
            Some(deadline) => deadline.checked_add(Duration::from_nanos(1)),
            None => since.checked_add(self.config.rules.move_timeout),
        }
    }

    /// When `color`'s clock flags: for a seated program, only once the lag
    /// allowance is spent too, since its own stamp may be charged.
    fn flag_deadline(&self, color: Color) -> Option<Instant> {
        let deadline = self.clocks[color.index()].deadline()?;
        let seated = self.players[color.index()]
            .as_ref()
            .is_some_and(|info| info.spec.starts_with("seat:"));
        match seated {
            true => deadline.checked_add(self.config.rules.lag_allowance),
            false => Some(deadline),
        }
    }

    pub fn handle_timeout(&mut self, now: Instant) {
        let Waiting::Move { color, since } = self.waiting else {
            return;
        };
        if self.pause.is_some() {
            return;
        }
        match self.flag_deadline(color) {
            Some(deadline) if now > deadline => {
                self.clocks[color.index()].stop(now);
                self.time_out(now, color);
            }
            Some(_) => {}
            None => {
                let idle = since.checked_add(self.config.rules.move_timeout);
                if idle.is_some_and(|idle| now >= idle) {
                    self.clocks[color.index()].stop(now);
                    let limit = format_duration(self.config.rules.move_timeout);
                    let why = format!("{color} gave no move within {limit}");
                    self.forfeit(now, color, Failure::hang(why));
                }
            }
        }
    }

    pub fn handle_player(&mut self, now: Instant, color: Color, event: PlayerEvent) {
        let changes_the_game = matches!(
            event,
            PlayerEvent::Moved(_)
                | PlayerEvent::Typed(_)
                | PlayerEvent::CpuTime(_)
                | PlayerEvent::Analysis(_)
        );
        if changes_the_game && self.pause.is_some() && self.phase != Phase::Over {
            return self.hold(color, event);
        }
        match event {
            PlayerEvent::Line { direction, line } => self.events.push_back(GameEvent::Gtp {
                color,
                direction,
                line,
            }),
            PlayerEvent::UsenixLine {
                direction,
                line,
                note,
            } => self.events.push_back(GameEvent::Usenix {
                color,
                direction,
                line,
                note,
            }),
            PlayerEvent::Packet { entry, wire_ms } => self.events.push_back(GameEvent::Packet {
                color,
                wire_ms,
                entry,
            }),
            PlayerEvent::Notice(message) => self.events.push_back(GameEvent::Error {
                color: Some(color),
                message,
                fatal: false,
            }),
            PlayerEvent::Seat { what, message } => {
                self.events.push_back(GameEvent::Session {
                    what,
                    color: Some(color),
                    message,
                    down_ms: None,
                });
                let fresh = self.phase == Phase::Setup && self.resuming.is_none();
                if what == SessionChange::SeatAbsent && fresh {
                    self.show_absent_clock(color);
                }
            }
            PlayerEvent::Info(message) => self.events.push_back(GameEvent::Notice {
                color: Some(color),
                message,
            }),
            PlayerEvent::Prompt(message) => self.events.push_back(GameEvent::Prompt {
                color: Some(color),
                message,
            }),
            PlayerEvent::Analysis(analysis) => self.on_analysis(color, analysis),
            _ if self.phase == Phase::Over => {}
            PlayerEvent::Ready(info) => self.on_ready(now, color, info),
            PlayerEvent::Thinking => self.on_thinking(now, color),
            PlayerEvent::CpuTime(used) => self.cpu_time[color.index()] = Some(used),
            PlayerEvent::SeatTime(think) => self.seat_time[color.index()] = Some(think),
            PlayerEvent::TellingAgain(telling) => self.on_telling_again(now, color, telling),
            PlayerEvent::Late(late) => self.on_late(now, color, late),
            PlayerEvent::VenueAway(message) => self.on_venue_away(now, color, message),
            PlayerEvent::VenueBack(message) => self.on_venue_back(now, color, message),
            PlayerEvent::CpuSoFar(used) => self.on_cpu_so_far(now, color, used),
            PlayerEvent::Moved(mv) => self.on_move(now, color, mv),
            PlayerEvent::Typed(mv) => self.on_typed(now, color, mv),
            PlayerEvent::DeadStones(stones) => self.on_claim(now, color, stones, None),
            PlayerEvent::DeadStonesUnavailable(message) => {
                self.on_no_claim(now, color, format!("final_status_list failed ({message})"))
            }
            PlayerEvent::RejectedMove { mv, message } => {
                let mover = color.opponent();
                let why = format!(
                    "{color} refused {mover}'s move {mv} ('{message}'), which the rules allow"
                );
                self.fatal(color, &why);
                let result = self.defeat(color, "F", why, End::ForfeitRefusedRelay);
                self.finish(now, result);
            }
            PlayerEvent::Failed(failure) => self.on_failure(now, color, failure),
            PlayerEvent::LostPosition(message) => self.on_lost_position(now, color, message),
        }
    }

    /// The analysis of `color`'s move, told when that move is the last one
    /// played; of any other (a move refused, a resignation) it is dropped.
    fn on_analysis(&mut self, color: Color, analysis: MoveAnalysis) {
        if self.moves.last().map(|(mover, _)| *mover) != Some(color) {
            return;
        }
        let valid = |x: f64| x.is_finite().then_some(x);
        let Some(winrate) = valid(analysis.winrate).map(|w| w.clamp(0.0, 1.0)) else {
            return;
        };
        let analysis = MoveAnalysis {
            winrate,
            score_lead: analysis.score_lead.and_then(valid),
            ..analysis
        };
        self.events.push_back(GameEvent::Analysis {
            n: self.moves_played,
            color,
            winrate,
            black_winrate: analysis.black_winrate(color),
            score_lead: analysis.score_lead,
            visits: analysis.visits,
            pv: analysis.pv,
        });
    }

    fn on_ready(&mut self, now: Instant, color: Color, info: PlayerInfo) {
        if std::mem::take(&mut self.restarting[color.index()]) {
            return self.on_restarted(now, color, info);
        }
        if self.phase != Phase::Setup {
            return;
        }
        self.events.push_back(GameEvent::Player {
            color,
            info: info.clone(),
        });
        self.players[color.index()] = Some(info);
        let [Some(black), Some(white)] = self.players.clone() else {
            return;
        };
        if let Some(point) = self.resuming.take() {
            return self.go_back_to(now, point);
        }
        self.start_game(now, black, white, "both players are ready");
        self.request_move(now);
    }

    /// The game begins: `game_start`, and play.
    fn start_game(&mut self, now: Instant, black: PlayerInfo, white: PlayerInfo, why: &str) {
        let start = GameStart {
            size: self.config.size,
            komi: self.config.rules.komi,
            rules: self.config.rules.preset.to_string(),
            ruleset: self.config.rules.sgf_name().to_string(),
            time: self.config.rules.time.to_string(),
            handicap: self
                .board
                .stones()
                .map(|(point, _)| point.to_gtp())
                .collect(),
            black,
            white,
            first_to_move: self.board.to_move(),
            time_settings: self.config.rules.time.into(),
            limits: self.config.rules.limits,
            ko: Some(self.config.rules.ko),
            suicide_allowed: self.config.rules.suicide_allowed,
            folder: None,
            published: None,
        };
        self.events.push_back(GameEvent::GameStart(Box::new(start)));
        if self.moves.is_empty() {
            self.play_opening(now);
        }
        self.set_phase(Phase::Play, why.into());
    }

    /// The opening's moves, played for the players (who were told them as
    /// the game's position) before the first is asked for a move.
    fn play_opening(&mut self, now: Instant) {
        for (color, mv) in self.opening.clone() {
            let Move::Play(point) = mv else { continue };
            let Ok(captured) = self.board.play(color, point) else {
                return;
            };
            self.moves_played += 1;
            self.stones_played += 1;
            self.moves.push((color, mv));
            let clock = self.clocks[color.index()].reading(now);
            self.events.push_back(GameEvent::Move {
                n: self.moves_played,
                color,
                vertex: mv.to_gtp(),
                ms: 0,
                captures: captured.iter().map(|p| p.to_gtp()).collect(),
                clock,
                referee_us: None,
                net_ms: None,
                opening: true,
            });
        }
    }

    /// The opening's moves with their colours: the position the players
    /// are told before the game starts.
    pub fn opening(&self) -> &[(Color, Move)] {
        &self.opening
    }

    /// Both players of a resumed game are ready: the game goes on where
    /// the journal left it. Dead stones are asked again; a game that
    /// awaited the judge awaits the judge again.
    fn go_back_to(&mut self, now: Instant, point: ResumePoint) {
        let moves = self.moves_played;
        let to_move = self.board.to_move();
        match point.phase {
            Some(Phase::Cleanup) => {
                self.set_phase(
                    Phase::Cleanup,
                    format!("resumed after move {moves}: the cleanup goes on, {to_move} to move"),
                );
                self.go_back_to_play(now, point.paused);
            }
            Some(Phase::DeadStones) => {
                self.phase = Phase::Play;
                self.on_double_pass(now);
            }
            Some(Phase::Adjudication) => {
                if let Some(stop_at) = self.config.rules.limits.stop_at {
                    if self.counted_moves() >= stop_at {
                        self.stopped_at = Some(stop_at);
                    }
                }
                let reason = point
                    .judge_reason
                    .unwrap_or_else(|| "the game awaited the judge".into());
                self.await_judge(now, reason);
            }
            _ => {
                self.set_phase(
                    Phase::Play,
                    format!("resumed after move {moves}: {to_move} to move"),
                );
                self.go_back_to_play(now, point.paused);
            }
        }
    }

    /// Play goes on in a resumed game. One the operator had paused stays
    /// paused, the operator told, until `resume`; with nobody left to give
    /// it, it goes on at once, and says why.
    fn go_back_to_play(&mut self, now: Instant, paused: Option<String>) {
        let Some(reason) = paused else {
            return self.request_move(now);
        };
        self.pause = Some(Pause::new(now));
        self.request_move(now);
        let stopped = format!("the game was paused when goref stopped ({reason})");
        if self.unattended {
            let why = format!("{stopped}, and no operator is attached to resume it");
            return self.resume_play(now, Some(why));
        }
        self.notice(format!(
            "{stopped}: it stays paused, and no move is asked for until the operator resumes it"
        ));
    }

    /// A restarted program is ready, told the position: if it was to move,
    /// it is asked again, on the clock that kept running.
    fn on_restarted(&mut self, now: Instant, color: Color, info: PlayerInfo) {
        self.events.push_back(GameEvent::Player {
            color,
            info: info.clone(),
        });
        self.players[color.index()] = Some(info);
        if matches!(self.waiting, Waiting::Move { color: c, .. } if c == color) {
            self.request_move(now);
        }
    }

    /// Queues `color`'s move for its opponent, after the opponent's
    /// `byo-romi` when its main CPU time ran out since the last relay.
    fn relay(&mut self, color: Color, mv: Move) {
        let to = color.opponent();
        let clock = &self.clocks[to.index()];
        let out_of_main_time = clock.counts_cpu() && clock.main_time_used_up();
        if out_of_main_time && !self.main_time_told[to.index()] {
            self.main_time_told[to.index()] = true;
            self.actions.push_back(Action::MainTimeUsed { color: to });
        }
        self.actions.push_back(Action::TellMove { to, color, mv });
    }

    /// The CPU time `color` has used on the move it is thinking about: past
    /// what its clock allows, it has lost on time at once, without waiting
    /// for the move.
    fn on_cpu_so_far(&mut self, now: Instant, color: Color, used: Duration) {
        let to_move = matches!(self.waiting, Waiting::Move { color: c, .. } if c == color);
        let clock = &mut self.clocks[color.index()];
        if !to_move || self.pause.is_some() || !clock.counts_cpu() {
            return;
        }
        if clock.would_flag(used) {
            self.waiting = Waiting::Nothing;
            clock.charge_turn(now, used);
            self.time_out(now, color);
        }
    }

    fn on_thinking(&mut self, now: Instant, color: Color) {
        if self.pause.is_some() {
            return;
        }
        if matches!(self.waiting, Waiting::Move { color: c, .. } if c == color) {
            self.told_again[color.index()] = false;
            let clock = &mut self.clocks[color.index()];
            clock.start(now);
            let reading = clock.reading(now);
            self.events.push_back(GameEvent::Clock {
                color,
                clock: reading,
            });
        }
    }

    /// A typed move: played when the rules allow it, else told and awaited again.
    fn on_typed(&mut self, now: Instant, color: Color, mv: Move) {
        let to_move = matches!(self.waiting, Waiting::Move { color: c, .. } if c == color);
        let refusal = match mv {
            _ if !to_move => Some(format!("'{mv}' ignored: {color} is not asked to move now")),
            Move::Play(point) => self.board.check(color, point).err().map(|reason| {
                format!("{mv} is not legal for {color} here ({reason}); {color} to move again")
            }),
            Move::Pass | Move::Resign => None,
        };
        match refusal {
            Some(message) => self.events.push_back(GameEvent::Notice {
                color: Some(color),
                message,
            }),
            None => self.on_move(now, color, mv),
        }
    }

    fn on_move(&mut self, now: Instant, color: Color, mv: Move) {
        let Waiting::Move {
            color: expected, ..
        } = self.waiting
        else {
            return self.unexpected(color, mv);
        };
        if expected != color {
            return self.unexpected(color, mv);
        }
        self.waiting = Waiting::Nothing;
        let clock = &mut self.clocks[color.index()];
        if !clock.is_running() {
            clock.start(now);
        }
        let cpu_time = self.cpu_time[color.index()].take();
        let seat_time = self.seat_time[color.index()].take();
        let allowance = self.config.rules.lag_allowance;
        let mut net = None;
        let turn = match (clock.system(), cpu_time, seat_time) {
            (TimeSystem::Cpu { .. }, Some(used), _) => clock.charge_turn(now, used),
            (_, _, Some(think)) => clock.stop_charging(now, |measured| {
                let charge = charged(think, measured, allowance);
                net = Some(measured.saturating_sub(charge));
                charge
            }),
            _ => clock.stop(now),
        };
        if turn.flagged {
            return self.time_out(now, color);
        }
        let n = self.moves_played + 1;
        let retakes_ko = match mv {
            Move::Play(point) if self.config.rules.ko == KoRule::Lax => {
                self.board.recaptures_ko(color, point)
            }
            _ => false,
        };
        let captures = match mv {
            Move::Resign => {
                self.push_move(now, n, color, mv, (turn.used, net), Vec::new());
                let why = format!("{color} resigned");
                let result = self.defeat(color, "R", why, End::Resign);
                return self.finish(now, result);
            }
            Move::Pass => {
                self.board
                    .pass(color)
                    .expect("the referee only asks the side to move");
                self.consecutive_passes += 1;
                Vec::new()
            }
            Move::Play(point) => match self.board.play(color, point) {
                Ok(captures) => {
                    self.consecutive_passes = 0;
                    self.stones_played += 1;
                    if retakes_ko {
                        self.events.push_back(GameEvent::Error {
                            color: Some(color),
                            message: format!(
                                "ko violation: {color} retook the ko at {mv} as move {n}; played \
                                 anyway (--ko lax, as the 1987 Usenix referee did)"
                            ),
                            fatal: false,
                        });
                    }
                    captures
                }
                Err(reason) => {
                    self.events.push_back(GameEvent::Illegal {
                        n,
                        color,
                        vertex: mv.to_gtp(),
                        reason,
                    });
                    let why = format!("{color} played {mv} as move {n}: {reason}");
                    self.fatal(color, &why);
                    let mut result = self.defeat(color, "F", why, End::ForfeitIllegalMove);
                    result.illegal = Some(reason);
                    return self.finish(now, result);
                }
            },
        };
        self.moves_played = n;
        self.moves.push((color, mv));
        self.push_move(now, n, color, mv, (turn.used, net), captures);
        self.relay(color, mv);
        if self.consecutive_passes >= 2 {
            return self.on_double_pass(now);
        }
        let limits = self.config.rules.limits;
        if let Some(stop_at) = limits.stop_at {
            if self.counted_moves() >= stop_at {
                self.await_judge(now, format!("the game stopped at move {stop_at}"));
                self.stopped_at = Some(stop_at);
                return;
            }
        }
        self.request_move(now);
    }

    /// A player that can no longer play forfeits while the game is played.
    /// Once play has stopped the position stands: a failure while the dead
    /// stones are asked counts as claiming none, and one while the judge
    /// decides is only told.
    fn on_failure(&mut self, now: Instant, color: Color, failure: Failure) {
        match self.phase {
            Phase::DeadStones => {
                self.failed[color.index()] = Some(failure.clone());
                self.on_no_claim(now, color, failure.reason);
            }
            Phase::Adjudication => {
                self.events.push_back(GameEvent::Error {
                    color: Some(color),
                    message: failure.reason.clone(),
                    fatal: false,
                });
                self.failed[color.index()] = Some(failure);
            }
            _ => self.forfeit(now, color, failure),
        }
    }

    /// A program that lost the position cannot play on: while play goes
    /// on, the judge is called, the clocks stopped.
    fn on_lost_position(&mut self, now: Instant, color: Color, message: String) {
        self.events.push_back(GameEvent::Error {
            color: Some(color),
            message: message.clone(),
            fatal: false,
        });
        if matches!(self.phase, Phase::Play | Phase::Cleanup) {
            self.await_judge(now, format!("{message}; the judge decides"));
        }
    }

    /// A move nobody asked for. A pass once play has stopped is ordinary (GNU
    /// Go on a GMP line passes once more after the game) and stays in the
    /// trace; anything else is told.
    fn unexpected(&mut self, color: Color, mv: Move) {
        let play_stopped = !matches!(self.phase, Phase::Play | Phase::Cleanup);
        if mv == Move::Pass && play_stopped {
            return;
        }
        self.events.push_back(GameEvent::Error {
            color: Some(color),
            message: format!("{color} sent the move {mv} unasked; ignored"),
            fatal: false,
        });
    }

    fn push_move(
        &mut self,
        now: Instant,
        n: u32,
        color: Color,
        mv: Move,
        (used, net): (Duration, Option<Duration>),
        captures: Vec<Point>,
    ) {
        let clock = self.clocks[color.index()].reading(now);
        self.events.push_back(GameEvent::Move {
            n,
            color,
            vertex: mv.to_gtp(),
            ms: used.as_millis() as u64,
            captures: captures.iter().map(|p| p.to_gtp()).collect(),
            clock,
            referee_us: None,
            net_ms: net.map(|net| net.as_millis() as u64),
            opening: false,
        });
    }

    fn counted_moves(&self) -> u32 {
        if self.config.rules.limits.count_passes {
            self.moves_played
        } else {
            self.stones_played
        }
    }

    fn request_move(&mut self, now: Instant) {
        let color = self.board.to_move();
        if let Some(failure) = self.failed[color.index()].clone() {
            return self.forfeit(now, color, failure);
        }
        self.waiting = Waiting::Move { color, since: now };
        if let Some(pause) = &mut self.pause {
            pause.request_due = true;
            return;
        }
        let time_left = TimeLeft::on(&self.clocks[color.index()], now);
        self.actions.push_back(Action::RequestMove {
            color,
            cleanup: self.phase == Phase::Cleanup,
            time_left,
        });
    }

    /// Tells the screens how `color`'s clock stands.
    fn tell_clock(&mut self, now: Instant, color: Color) {
        let clock = self.clocks[color.index()].reading(now);
        self.events.push_back(GameEvent::Clock { color, clock });
    }

    fn set_phase(&mut self, phase: Phase, reason: String) {
        self.phase = phase;
        self.events.push_back(GameEvent::Phase { phase, reason });
    }
}

mod absence;
mod ending;
mod pause;

use pause::Pause;

#[cfg(test)]
mod tests;
