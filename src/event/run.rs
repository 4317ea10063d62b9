//! `goref event DIR`: the rounds, one after another. Each round is
//! proposed, confirmed (by the director, or by `--yes`), written to the
//! event's journal, and played with every board in its own goref; the next
//! round is paired only when every board of this one has a result.
//!
//! Run again after a kill or a reboot, it picks up where the journal and
//! the folders say the event stands: finished boards keep their results,
//! boards still played by a goref are followed, boards whose goref died
//! are resumed, and the confirmed pairing stands, so no game is played
//! twice. Ctrl-C or SIGTERM stops the event, never a board: the boards play
//! on in their own gorefs, and the next `goref event DIR` follows them.
//! SIGHUP (the director's SSH session dropped) is ignored.
//!
//! What the event says and asks goes through a desk (`crate::hall::desk`):
//! the terminal's lines and prompt ([`run`]), or the hall screen, which is
//! also shown the event's [`EventPicture`] each time it changes (`run_at`).
//!
//! - `boards`: each board's goref started, followed, ended, and what
//!   follows its end.
//! - `seats`: the seated entrants: absent seats, checks, who plays where.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use super::file::{self, EventFile, OnCrash};
use super::log::{EventLine, EventLog, Logged, Pair, EVENT_LOG};
use super::pairing::{self, propose, Proposal};
use super::progress::progress;
use super::state::{Board, EventState, NO_GAME};
use super::{html, picture, prompt};
use crate::boards::{BoardNews, BoardRun, FolderState};
use crate::console;
use crate::files::FileLock;
use crate::hall::desk::{Asked, Desk, Terminal};
use crate::signals::{catch_stop_signals, stop_asked};
use goref_core::tournament::hall::{EventPicture, Stage};

mod boards;
mod seats;

pub use crate::signals::stop;

/// How `goref event DIR` runs.
#[derive(Debug, Clone, Default)]
pub struct EventOptions {
    /// Confirm each pairing without asking.
    pub yes: bool,
    /// Every line of the event's stream, the boards' tagged, on stdout.
    pub json: bool,
}

/// How the event run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EventEnd {
    /// Every round is played.
    Finished { standings_html: PathBuf },
    /// The director or a signal stopped it; the boards play on.
    Stopped(String),
}

/// How many times a board whose goref died without a result is resumed
/// before the director is asked for its result.
const MAX_RESUMES: u32 = 3;

/// How many times a game voided by a crash is played again before the
/// crash's forfeit stands.
const MAX_REPLAYS: usize = 2;

/// How often the event looks at the journal for results set beside it and
/// at the folders of boards another goref plays.
const TICK: Duration = Duration::from_millis(500);
/// How often the pairing on the hall is drawn again while the director
/// thinks: seats that come or go show at once.
const ASK_REFRESH: Duration = Duration::from_millis(500);

/// Runs the event in `dir` until it is over or stopped, at the terminal:
/// Ctrl-C and SIGTERM stop it, SIGHUP is ignored.
pub fn run(dir: &Path, options: &EventOptions) -> Result<EventEnd, String> {
    run_at(dir, options, Box::new(Terminal), true)
}

/// Runs the event in `dir` at `desk` until it is over or stopped; with
/// `signals`, Ctrl-C and SIGTERM stop it (else [`stop`] does).
pub(crate) fn run_at(
    dir: &Path,
    options: &EventOptions,
    desk: Box<dyn Desk<EventPicture>>,
    signals: bool,
) -> Result<EventEnd, String> {
    let file = file::load(dir).map_err(|e| e.to_string())?;
    let log_path = dir.join(EVENT_LOG);
    let _claim = FileLock::acquire(&log_path).map_err(|e| match e {
        crate::files::FileError::Locked { holder, .. } => format!(
            "the event in {} is being run by another goref (PID {holder})",
            dir.display()
        ),
        other => other.to_string(),
    })?;
    let exe = std::env::current_exe().map_err(|e| format!("cannot find goref itself: {e}"))?;
    check_game(dir, &file, &exe)?;
    crate::files::resolve_output(&dir.join(html::STANDINGS_PAGE), crate::files::Holds::Page)
        .map_err(|e| e.to_string())?;
    let (log, lines) = EventLog::open(&log_path).map_err(|e| e.to_string())?;
    super::check_names(dir, &EventState::fold(&file, lines.iter().map(|l| &l.line)))?;
    if signals {
        catch_stop_signals(true);
    }
    let seats = match (super::seated(&file).is_empty(), &file.seats.listen) {
        (false, Some(listen)) => {
            let keys = super::seat_keys(dir, &file)?;
            let cards = crate::seats::keeper::Cards {
                checker: super::seat_check::seat_checker(&file, &exe)?,
                folder: keys.folder.clone(),
            };
            let settings = crate::seats::relay::RelaySettings {
                listen: listen.clone(),
                name: file.name.clone(),
                asks_stderr: file.seats.stderr,
                cards: Some(cards),
            };
            let server = crate::seats::relay::RelayServer::start(keys, settings)?;
            tracing::info!(address = %server.address, "listening for seats");
            Some(server)
        }
        _ => None,
    };
    let (news_tx, news) = mpsc::channel();
    let mut runner = Runner {
        dir: dir.to_path_buf(),
        file,
        log,
        lines,
        options: options.clone(),
        exe,
        news_tx,
        news,
        running: HashMap::new(),
        resumes: HashMap::new(),
        tried: std::collections::HashSet::new(),
        voided: HashMap::new(),
        waiting_said: HashSet::new(),
        standings_shown: false,
        desk,
        stage: Stage::Starting,
        shown_round: 0,
        shown: None,
        seat_relay: seats.as_ref().map(|server| server.socket.clone()),
        seat_board: seats.as_ref().map(|server| server.seats.clone()),
        seat_playing: seats.as_ref().map(|server| server.playing.clone()),
        seats_said: HashMap::new(),
        cards_said: HashMap::new(),
    };
    let end = runner.go();
    if let (Ok(EventEnd::Finished { .. }), Some(_)) = (&end, &seats) {
        runner.wait_for_checks();
    }
    if let (Ok(EventEnd::Finished { .. }), Some(server)) = (&end, &seats) {
        server.farewell(&format!(
            "{} is over: thank you for playing",
            runner.file.name
        ));
    }
    runner.stage = match &end {
        Ok(EventEnd::Finished { standings_html }) => Stage::Over {
            standings_html: standings_html.display().to_string(),
        },
        Ok(EventEnd::Stopped(why)) | Err(why) => Stage::Stopped { why: why.clone() },
    };
    runner.show();
    end
}

/// Checks the `[game]` table as a game would take it (with the built-in
/// engine on both sides), so that a wrong value stops the event before its
/// first board rather than on every board.
fn check_game(dir: &Path, event: &EventFile, exe: &Path) -> Result<(), String> {
    let mut game = event.game.clone();
    game.black = Some("bot".into());
    game.white = Some("bot".into());
    let today = goref_core::game::sgf::Date::from_unix_seconds(0);
    crate::config::resolve_file(&Default::default(), game, exe.to_path_buf(), today)
        .map(|_| ())
        .map_err(|e| format!("{}: [game]: {e}", dir.join(file::EVENT_FILE).display()))
}

struct Runner {
    dir: PathBuf,
    file: EventFile,
    log: EventLog,
    lines: Vec<Logged>,
    options: EventOptions,
    exe: PathBuf,
    news_tx: mpsc::Sender<BoardNews>,
    news: mpsc::Receiver<BoardNews>,
    /// The boards playing now, by (round, board): the pid of the goref
    /// this event started, or none for one another goref plays (found live
    /// in its folder after a restart), followed by looking at its folder.
    running: HashMap<(u32, u32), Option<u32>>,
    resumes: HashMap<(u32, u32), u32>,
    /// The boards this run has started, by (round, board).
    tried: HashSet<(u32, u32)>,
    /// The boards whose goref this run asked to end its game because the
    /// director set its result, and when.
    voided: HashMap<(u32, u32), std::time::Instant>,
    /// What the director was told a board of the round waits for it for.
    waiting_said: HashSet<(u32, u32, String)>,
    /// The standings are on the director's screen since the last round.
    standings_shown: bool,
    desk: Box<dyn Desk<EventPicture>>,
    /// What the event is doing, and the round whose boards it shows.
    stage: Stage,
    shown_round: u32,
    /// The picture the desk was last shown.
    shown: Option<EventPicture>,
    /// The socket through which the boards reach the seated entrants.
    seat_relay: Option<PathBuf>,
    /// The seats as the relay keeps them, and whether each was last said
    /// to be connected.
    seat_board: Option<crate::seats::relay::SeatBoard>,
    /// Where each seated entrant plays now, for the relay.
    seat_playing: Option<crate::seats::relay::PlayingBoards>,
    seats_said: HashMap<String, bool>,
    /// Each seat's card summary as last said.
    cards_said: HashMap<String, Option<String>>,
}

impl Runner {
    fn go(&mut self) -> Result<EventEnd, String> {
        let plural = |n: usize, one: &str| match n {
            1 => format!("1 {one}"),
            n => format!("{n} {one}s"),
        };
        self.say(format!(
            "{}: {}, {}; its folder is {}",
            self.file.name,
            plural(self.file.entrants.len(), "entrant"),
            plural(self.file.rounds as usize, "round"),
            self.dir.display()
        ));
        for note in self.file.notes.clone() {
            self.say(format!("note: {note}"));
        }
        for entrant in self.state().entrants {
            if let Some(why) = entrant_problem(&entrant.player) {
                self.say(format!(
                    "note: entrant {}: {why}: its boards will not start until event.toml is put \
                     right",
                    entrant.name
                ));
            }
        }
        loop {
            if let Some(end) = self.stopped() {
                return Ok(end);
            }
            self.reconcile()?;
            let state = self.state();
            match state.current() {
                Some(round) if !round.is_over() || self.has_live_boards(round) => {
                    let number = round.number;
                    if let Some(end) = self.play_round(number)? {
                        return Ok(end);
                    }
                }
                done => {
                    let played = done.map_or(0, |r| r.number);
                    if played > 0 {
                        self.close_round(played)?;
                    }
                    if state.is_finished(&self.file, played) {
                        let standings_html = html::write(&self.dir, &self.file, &self.state())?;
                        self.say(format!(
                            "{} is over: the standings are in {}",
                            self.file.name,
                            standings_html.display()
                        ));
                        return Ok(EventEnd::Finished { standings_html });
                    }
                    match self.confirm(played + 1)? {
                        Some(proposal) => self.record(EventLine::Pairing {
                            round: proposal.round,
                            boards: proposal.boards,
                            byes: proposal.byes,
                            confirmed_by: match self.options.yes {
                                true => "--yes".into(),
                                false => "director".into(),
                            },
                        })?,
                        None => {
                            return Ok(EventEnd::Stopped(format!(
                                "the event stops before round {} is confirmed; `goref event {}` \
                                 proposes it again",
                                played + 1,
                                self.dir.display()
                            )))
                        }
                    }
                }
            }
        }
    }

    fn state(&self) -> EventState {
        EventState::fold(&self.file, self.lines.iter().map(|l| &l.line))
    }

    fn stopped(&self) -> Option<EventEnd> {
        stop_asked().map(|signal| {
            let why = match signal {
                libc::SIGTERM => "goref received SIGTERM",
                libc::SIGINT => "goref received SIGINT (Ctrl-C)",
                libc::SIGHUP => "the director's terminal went away",
                _ => "the director left the hall",
            };
            let playing = self.running.len();
            EventEnd::Stopped(format!(
                "{why}: the event stops; {playing} board(s) play on in their own gorefs, and \
                 `goref event {}` follows them again",
                self.dir.display()
            ))
        })
    }

    /// Writes `line` to the journal (synced), shows it, and takes in every
    /// line written since, its own and others'.
    fn record(&mut self, line: EventLine) -> Result<(), String> {
        let text = self.log.append(&line).map_err(|e| e.to_string())?;
        if self.options.json {
            console::out(&text);
        } else if let Some(progress) = progress(&line, &self.dir) {
            self.say(progress);
        }
        self.take_new()?;
        self.show();
        Ok(())
    }

    fn take_new(&mut self) -> Result<(), String> {
        let new = self.log.read_new().map_err(|e| e.to_string())?;
        self.lines.extend(new);
        Ok(())
    }

    fn say(&self, line: String) {
        if !self.options.json {
            self.desk.say(line);
        }
    }

    /// Shows the desk the event as it stands, when it wants pictures and
    /// something changed.
    fn show(&mut self) {
        let seats = self.seat_pictures();
        for seat in &seats {
            if self.seats_said.insert(seat.entrant.clone(), seat.connected) != Some(seat.connected)
                && (seat.connected || seat.since.is_some())
            {
                let how = match seat.connected {
                    true => "connected",
                    false => "lost",
                };
                let since = seat.since.as_deref().unwrap_or("");
                self.desk
                    .say(format!("seat of {}: {how} at {since}", seat.entrant));
            }
            let said = self
                .cards_said
                .insert(seat.entrant.clone(), seat.card.clone());
            if let (Some(card), false) = (&seat.card, said == Some(seat.card.clone())) {
                let path = Path::new(crate::event::file::SEATS_FOLDER)
                    .join(crate::seats::keeper::CARDS_FOLDER)
                    .join(format!("{}.txt", seat.entrant));
                let kept = match seat.checking {
                    true => String::new(),
                    false => format!(" ({})", path.display()),
                };
                self.desk.say(format!(
                    "seat of {}: check card: {card}{kept}",
                    seat.entrant
                ));
            }
        }
        if !self.desk.wants_pictures() {
            return;
        }
        let running = &self.running;
        let round = self.shown_round;
        let drawn = picture::draw(
            &self.file,
            &self.state(),
            round,
            self.stage.clone(),
            |board| running.contains_key(&(round, board)),
        );
        let drawn = drawn.map(|picture| EventPicture { seats, ..picture });
        match drawn {
            Ok(picture) if self.shown.as_ref() != Some(&picture) => {
                self.desk.show(picture.clone());
                self.shown = Some(picture);
            }
            Ok(_) => {}
            Err(why) => self.desk.say(format!("goref: the standings: {why}")),
        }
    }

    /// Writes the results of boards that ended while no event was
    /// watching (it was killed) from their folders into the journal.
    fn reconcile(&mut self) -> Result<(), String> {
        for end in super::ends_in_folders(&self.dir, &self.state()) {
            self.record(end)?;
        }
        Ok(())
    }

    /// The standings after `round`, in the journal once and on the page.
    fn close_round(&mut self, round: u32) -> Result<(), String> {
        let told = self
            .lines
            .iter()
            .any(|l| matches!(l.line, EventLine::Standings { round: r, .. } if r == round));
        if told {
            return Ok(());
        }
        let divisions = self.state().division_standings(&self.file)?;
        if !self.options.json {
            let mut lines = vec![format!("standings after round {round}:")];
            lines.extend(super::event_text(&self.file, &self.state(), 80)?);
            self.desk.standings(lines);
            self.standings_shown = true;
        }
        self.record(EventLine::Standings {
            round,
            standings: super::standings_json(&divisions),
        })?;
        html::write(&self.dir, &self.file, &self.state())?;
        Ok(())
    }

    /// The next round's pairing, as the director leaves it; none when the
    /// director quits.
    fn confirm(&mut self, round: u32) -> Result<Option<Proposal>, String> {
        loop {
            let proposal = propose(&self.file, &self.state(), round);
            if proposal.boards.is_empty() {
                return Err(format!(
                    "round {round} has no game to play: fewer than two entrants are left"
                ));
            }
            if self.options.yes {
                return Ok(Some(proposal));
            }
            if !std::mem::replace(&mut self.standings_shown, true) {
                self.desk
                    .standings(super::event_text(&self.file, &self.state(), 80)?);
            }
            self.shown_round = round - 1;
            let mut proposal = proposal;
            let proposed_notes = proposal.notes.clone();
            let mut absent = self.absent_seats(&proposal);
            proposal.notes.extend(absent.iter().cloned());
            self.stage = picture::pairing(&proposal);
            self.show();
            let answer = loop {
                match self.desk.ask_within(prompt::show(&proposal), ASK_REFRESH) {
                    Asked::Answer(answer) => break answer,
                    Asked::Quit => return Ok(None),
                    Asked::NotYet => {
                        let now_absent = self.absent_seats(&proposal);
                        if now_absent != absent {
                            absent = now_absent;
                            proposal.notes = proposed_notes.clone();
                            proposal.notes.extend(absent.iter().cloned());
                            self.stage = picture::pairing(&proposal);
                        }
                        self.show();
                    }
                }
            };
            match prompt::decide(&answer, &proposal, &self.state()) {
                Ok(prompt::Decision::Confirm) => {
                    self.standings_shown = false;
                    return Ok(Some(proposal));
                }
                Ok(prompt::Decision::Quit) => return Ok(None),
                Ok(prompt::Decision::Record(EventLine::Add { .. }))
                    if self.file.system != super::file::System::Swiss =>
                {
                    self.desk.say(
                        "goref: a round robin's or a knockout's field is its event file's: add \
                         is for a Swiss"
                            .into(),
                    );
                }
                Ok(prompt::Decision::Record(EventLine::Withdraw { name, .. }))
                    if self.file.knockout.is_some() =>
                {
                    self.desk.say(format!(
                        "goref: a knockout's bracket is fixed: {name}'s next game is decided by \
                         its result (result BLACK WHITE W+F REASON)"
                    ));
                }
                Ok(prompt::Decision::Record(line)) => match refused_addition(&line) {
                    Some(why) => self.desk.say(format!("goref: {why}")),
                    None => self.record(line)?,
                },
                Ok(prompt::Decision::Again) => {}
                Err(why) => self.desk.say(format!("goref: {why}")),
            }
        }
    }

    /// Plays round `number` until every board has a result; an end when
    /// the event stops first.
    fn play_round(&mut self, number: u32) -> Result<Option<EventEnd>, String> {
        self.waiting_said.clear();
        self.shown_round = number;
        self.stage = Stage::Playing;
        self.show();
        if let Some(end) = self.rest_before(number) {
            return Ok(Some(end));
        }
        let state = self.state();
        if let Some(round) = state.round(number) {
            let pairs: Vec<Pair> = round
                .boards
                .iter()
                .filter(|b| b.dirs.is_empty())
                .map(|b| b.pair.clone())
                .collect();
            for note in pairing::line_notes(&state, &pairs) {
                self.say(format!("round {number} {note}"));
            }
        }
        loop {
            if let Some(end) = self.stopped() {
                return Ok(Some(end));
            }
            let state = self.state();
            let round = state.round(number).expect("the round is confirmed");
            self.adopt_live_boards(round);
            self.stop_boards_the_director_decided(round);
            if round.is_over() && !self.running.keys().any(|&(r, _)| r == number) {
                return Ok(None);
            }
            let limit = self.file.boards.map_or(usize::MAX, |n| n as usize);
            let waiting: Vec<Board> = round
                .boards
                .iter()
                .filter(|b| b.result().is_none() && self.may_start(number, b))
                .filter(|b| !self.running.contains_key(&(number, b.pair.board)))
                .filter(|b| !self.seat_being_checked(&b.pair))
                .cloned()
                .collect();
            for mut board in waiting {
                if self.running.len() >= limit {
                    break;
                }
                self.tried.insert((number, board.pair.board));
                if board.played.as_ref().is_some_and(|p| p.end == NO_GAME) {
                    board = Self::played_again(number, &board);
                }
                self.start_board(number, &board)?;
            }
            self.tell_what_waits(round);
            match self.news.recv_timeout(TICK) {
                Ok(news) => self.hear(news)?,
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    unreachable!("the event holds a sender")
                }
            }
            self.follow_adopted()?;
            self.take_new()?;
            self.tell_relay_who_plays();
            self.show();
        }
    }

    /// Waits out the event's rest between games before round `number`'s
    /// first board starts, counted from when the round before ended (its
    /// standings line), so that a run started again in the middle of the
    /// rest waits only what is left of it. An end if the event is stopped
    /// meanwhile.
    fn rest_before(&mut self, number: u32) -> Option<EventEnd> {
        let rest = self.file.rest?;
        let started = self
            .lines
            .iter()
            .any(|l| matches!(l.line, EventLine::BoardStart { round, .. } if round == number));
        let ended_ms = self.lines.iter().find_map(|l| match l.line {
            EventLine::Standings { round, .. } if round + 1 == number => Some(l.at_ms),
            _ => None,
        })?;
        if started {
            return None;
        }
        let now_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        let until_ms = ended_ms + rest.as_millis() as u64;
        if now_ms >= until_ms {
            return None;
        }
        self.say(format!(
            "round {number} starts in {}s: the rest between games",
            (until_ms - now_ms).div_ceil(1000)
        ));
        let until = std::time::Instant::now() + Duration::from_millis(until_ms - now_ms);
        while std::time::Instant::now() < until {
            if let Some(end) = self.stopped() {
                return Some(end);
            }
            std::thread::sleep(TICK.min(until - std::time::Instant::now()));
        }
        None
    }

    /// Says once a round that it waits for the director, and why.
    fn tell_what_waits(&mut self, round: &super::state::Round) {
        let stuck: Vec<(&Board, String)> = round
            .boards
            .iter()
            .filter_map(|b| b.needs_director().map(|why| (b, why)))
            .collect();
        let all_else_done = round.boards.len()
            == stuck.len() + round.boards.iter().filter(|b| b.result().is_some()).count();
        if stuck.is_empty() || !all_else_done {
            return;
        }
        for (board, why) in stuck {
            let said = (round.number, board.pair.board, why.clone());
            if !self.waiting_said.insert(said) {
                continue;
            }
            let judged = board.played.as_ref().is_some_and(|p| p.result == "?");
            let retry = match judged {
                true => String::new(),
                false => format!(
                    ", or once what failed is put right start it again with `goref event {} \
                     retry {} {}` (t on the hall)",
                    self.dir.display(),
                    round.number,
                    board.pair.board
                ),
            };
            self.say(format!(
                "round {} waits for the director: board {} ({} against {}): {why}; set its result \
                 with `goref event {} result {} {} {} RESULT --reason TEXT`{retry}",
                round.number,
                board.pair.board,
                board.pair.black,
                board.pair.white,
                self.dir.display(),
                round.number,
                board.pair.black,
                board.pair.white
            ));
        }
    }
}

/// Why a late entrant is not added: its program cannot start here.
fn refused_addition(line: &EventLine) -> Option<String> {
    let EventLine::Add { name, player, .. } = line else {
        return None;
    };
    entrant_problem(player).map(|why| format!("{name} is not added: {why}"))
}

/// Why an entrant's player cannot start here, when that can be told now.
fn entrant_problem(player: &str) -> Option<String> {
    let spec = player.parse::<crate::players::PlayerSpec>().ok()?;
    crate::players::program_problem(&spec)
}

/// The reason a board's game ends void with when the director set its
/// result while it played.
/// Why a game the director started again ended: it had waited for an
/// absent seat, and is played afresh in a new folder.
const RETRY_VOID_REASON: &str =
    "the director started the board again: its game waited for an absent seat";

pub(super) fn director_void_reason(board: &Board) -> String {
    format!(
        "the director set the result {} ({} - {}): {}",
        board.set.as_deref().unwrap_or("?"),
        board.pair.black,
        board.pair.white,
        board.set_reason.as_deref().unwrap_or("no reason given")
    )
}
