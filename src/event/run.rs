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
//! What the event says and asks goes through a [`Desk`]: the terminal's
//! lines and prompt ([`run`]), or the hall screen, which is also shown the
//! event's [`EventPicture`] each time it changes (`run_at`).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use std::sync::mpsc;
use std::time::Duration;

use super::board::{self, BoardNews, BoardRun, FolderState};
use super::desk::{catch_stop_signals, stop_asked, Asked, Terminal};
use super::file::{self, EventFile, OnCrash};
use super::log::{EventLine, EventLog, Logged, Pair, EVENT_LOG};
use super::pairing::{self, propose, Proposal};
use super::progress::progress;
use super::state::{Board, EventState, NO_GAME};
use super::{html, picture, prompt};
use crate::console;
use crate::files::FileLock;
use crate::tournament::hall::{EventPicture, Stage};

pub use super::desk::{stop, Desk};

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
/// How long an event that is over waits for the checks of its seats
/// before it says goodbye to them.
const CHECKS_WAIT: Duration = Duration::from_secs(120);

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
    desk: Box<dyn Desk>,
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
    let today = crate::game::sgf::Date::from_unix_seconds(0);
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
    desk: Box<dyn Desk>,
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
                self.desk.show(&picture);
                self.shown = Some(picture);
            }
            Ok(_) => {}
            Err(why) => self.desk.say(format!("goref: the standings: {why}")),
        }
    }

    /// The proposal's seated entrants whose seats are not connected, one
    /// note each: the director sees them before confirming the round.
    fn absent_seats(&self, proposal: &Proposal) -> Vec<String> {
        let seats = self.seat_pictures();
        let mut notes = Vec::new();
        for pair in &proposal.boards {
            for name in [&pair.black, &pair.white] {
                let Some(seat) = seats.iter().find(|s| &s.entrant == name) else {
                    continue;
                };
                if seat.connected {
                    continue;
                }
                let since = match &seat.since {
                    Some(since) => format!("lost at {since}"),
                    None => "never connected".to_string(),
                };
                notes.push(format!(
                    "board {}: {name}'s seat is absent ({since}): its clock runs from the \
                     start until it comes",
                    pair.board
                ));
            }
        }
        notes
    }

    /// Before the venue says goodbye, waits up to [`CHECKS_WAIT`] for the
    /// check of every connected seat that has no card yet: a seat that came
    /// after its game started is checked once it is over, and a bye's
    /// while the round plays, so that a short event would cut them.
    fn wait_for_checks(&mut self) {
        let Some(seats) = self.seat_board.clone() else {
            return;
        };
        let until = std::time::Instant::now() + CHECKS_WAIT;
        let mut said = false;
        loop {
            let unchecked: Vec<String> = seats
                .lock()
                .expect("seat board")
                .values()
                .filter(|seat| seat.connected && (seat.checking || seat.card.is_none()))
                .map(|seat| seat.entrant.clone())
                .collect();
            if unchecked.is_empty() {
                return;
            }
            if std::time::Instant::now() >= until || self.stopped().is_some() {
                self.say(format!(
                    "the check of {} did not finish: the seats are let go without it",
                    unchecked.join(", ")
                ));
                return;
            }
            if !std::mem::replace(&mut said, true) {
                self.say(format!(
                    "the event is over; the check of {} finishes before the seats are let go",
                    unchecked.join(", ")
                ));
            }
            self.show();
            std::thread::sleep(TICK);
        }
    }

    /// Tells the relay which folder each seated entrant plays in now: those
    /// of the boards this run started or follows, so that a goref of an
    /// earlier run's board, voided or started again since, is refused the
    /// entrant's seat.
    fn tell_relay_who_plays(&self) {
        let Some(playing) = &self.seat_playing else {
            return;
        };
        let state = self.state();
        let mut now = HashMap::new();
        for &(round, board) in self.running.keys() {
            let Some(found) = state.board(round, board) else {
                continue;
            };
            let folder = self.dir.join(found.folder(round));
            for entrant in [&found.pair.black, &found.pair.white] {
                now.insert(entrant.clone(), folder.clone());
            }
        }
        *playing.lock().expect("playing boards") = now;
    }

    /// Whether a seated entrant of `pair` is being checked through its
    /// seat: its board starts once the check is over.
    fn seat_being_checked(&self, pair: &Pair) -> bool {
        let Some(seats) = &self.seat_board else {
            return false;
        };
        let seats = seats.lock().expect("seat board");
        [&pair.black, &pair.white]
            .iter()
            .any(|name| seats.get(*name).is_some_and(|seat| seat.checking))
    }

    /// The seated entrants' seats, in the entrants' order.
    fn seat_pictures(&self) -> Vec<crate::tournament::hall::SeatPicture> {
        let Some(board) = &self.seat_board else {
            return Vec::new();
        };
        let seats = board.lock().expect("seat board");
        self.file
            .entrants
            .iter()
            .filter_map(|e| seats.get(&e.name).cloned())
            .collect()
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

    /// Whether the event may start (or resume) a board without a result: one
    /// that needs nobody, or, once a run, one that waits for the director
    /// because its goref failed or its game never started, since what
    /// failed it (a full disk, a missing program) may have been put right
    /// before the event was run again. One waiting for the judge is the
    /// director's alone. One the director asked to be started again is.
    fn may_start(&self, number: u32, board: &Board) -> bool {
        let waits_for_the_judge = board.played.as_ref().is_some_and(|p| p.result == "?");
        match board.needs_director() {
            None => true,
            Some(_) if waits_for_the_judge => false,
            Some(_) => board.retry || !self.tried.contains(&(number, board.pair.board)),
        }
    }

    /// Whether a board the director asked to be started again ended as
    /// that asks (void, or stopped before a result) rather than with a
    /// result of its own that came first.
    fn ended_for_the_retry(folder: &FolderState) -> bool {
        match folder {
            FolderState::Finished { result, .. } => result == "Void",
            FolderState::Unfinished | FolderState::Empty => true,
            FolderState::Live | FolderState::Unreadable(_) => false,
        }
    }

    /// The board with a new folder for its game played again:
    /// `round-N/board-B-2`, `-3`, ...
    fn played_again(number: u32, board: &Board) -> Board {
        let mut again = board.clone();
        again.dirs.push(format!(
            "round-{number}/board-{}-{}",
            board.pair.board,
            board.dirs.len() + 1
        ));
        again
    }

    fn start_board(&mut self, number: u32, board: &Board) -> Result<(), String> {
        let relative = board.folder(number);
        let dir = self.dir.join(&relative);
        let key = (number, board.pair.board);
        let resume = match board::folder_state(&dir) {
            FolderState::Finished { result, .. } if board.retry && result == "Void" => {
                return self.start_board(number, &Self::played_again(number, board));
            }
            FolderState::Finished {
                result,
                end,
                reason,
            } => {
                return self.record(EventLine::BoardEnd {
                    round: number,
                    board: board.pair.board,
                    black: board.pair.black.clone(),
                    white: board.pair.white.clone(),
                    dir: relative,
                    result,
                    end,
                    reason,
                });
            }
            FolderState::Live => {
                self.say(format!(
                    "round {number} board {}: a goref still plays it; the event follows its folder",
                    board.pair.board
                ));
                self.running.insert(key, None);
                return Ok(());
            }
            FolderState::Unreadable(why) => {
                return self.record(EventLine::BoardTrouble {
                    round: number,
                    board: board.pair.board,
                    dir: relative,
                    what: why,
                })
            }
            FolderState::Unfinished => true,
            FolderState::Empty => false,
        };
        let config = dir.with_extension("toml");
        if !resume {
            let text = self.game_file(number, board)?;
            std::fs::create_dir_all(config.parent().expect("a board folder has a parent"))
                .and_then(|()| crate::files::write_atomically(&config, &text))
                .map_err(|e| format!("cannot write {}: {e}", config.display()))?;
        }
        let run = BoardRun {
            round: number,
            board: board.pair.board,
            dir,
            config,
            resume,
            seat_relay: self.seat_relay.clone(),
        };
        if let Some(playing) = &self.seat_playing {
            let mut playing = playing.lock().expect("playing boards");
            for entrant in [&board.pair.black, &board.pair.white] {
                playing.insert(entrant.clone(), run.dir.clone());
            }
        }
        let pid = board::start(&self.exe, &run, self.options.json, self.news_tx.clone())
            .map_err(|e| format!("cannot start goref for board {}: {e}", board.pair.board))?;
        self.running.insert(key, Some(pid));
        self.record(EventLine::BoardStart {
            round: number,
            board: board.pair.board,
            black: board.pair.black.clone(),
            white: board.pair.white.clone(),
            dir: relative,
            resumed: resume,
        })
    }

    /// The board's game file: the event's `[game]` table with the
    /// entrants' players and the record's event, round and place.
    fn game_file(&self, number: u32, board: &Board) -> Result<String, String> {
        let state = self.state();
        let player = |name: &str| {
            state
                .entrants
                .iter()
                .find(|e| e.name == name)
                .map(|e| e.player.clone())
                .ok_or_else(|| format!("{name} is not an entrant"))
        };
        let mut table = self.file.game_table.clone();
        table.insert("black".into(), player(&board.pair.black)?.into());
        table.insert("white".into(), player(&board.pair.white)?.into());
        table.insert("event".into(), self.file.name.clone().into());
        table.insert("round".into(), number.to_string().into());
        table.insert(
            "game_name".into(),
            format!(
                "round {number} board {}: {} (B) - {} (W)",
                board.pair.board, board.pair.black, board.pair.white
            )
            .into(),
        );
        if let Some(place) = &self.file.place {
            table.insert("place".into(), place.clone().into());
        }
        let header = format!(
            "# Board {} of round {number} of {}: {} (Black) against {} (White),\n\
             # written by goref event from the [game] table of event.toml.\n",
            board.pair.board, self.file.name, board.pair.black, board.pair.white
        );
        Ok(header + &toml::to_string(&table).expect("a TOML table serializes"))
    }

    fn hear(&mut self, news: BoardNews) -> Result<(), String> {
        match news {
            BoardNews::Line { round, board, text } => {
                if crate::mirror::server::is_screen_of(&text, std::process::id()) {
                    return Ok(());
                }
                match self.options.json {
                    true => drop(console::out(text)),
                    false => self
                        .desk
                        .say(format!("round {round} board {board}: {text}")),
                }
                Ok(())
            }
            BoardNews::Exited {
                round,
                board,
                how,
                stderr,
            } => {
                self.running.remove(&(round, board));
                self.board_exited(round, board, &how, &stderr)
            }
        }
    }

    fn board_exited(
        &mut self,
        number: u32,
        board_number: u32,
        how: &str,
        stderr: &[String],
    ) -> Result<(), String> {
        let state = self.state();
        let Some(board) = state.board(number, board_number) else {
            return Ok(());
        };
        let relative = board.folder(number);
        let trouble = |what: String| EventLine::BoardTrouble {
            round: number,
            board: board_number,
            dir: relative.clone(),
            what,
        };
        let last_words = stderr.last().cloned().unwrap_or_default();
        let folder = board::folder_state(&self.dir.join(&relative));
        if board.retry && board.set.is_none() && Self::ended_for_the_retry(&folder) {
            self.voided.remove(&(number, board_number));
            self.say(format!(
                "round {number} board {board_number}: its game ended void; it starts again in a \
                 new folder, as the director asked"
            ));
            return self.start_board(number, &Self::played_again(number, board));
        }
        match folder {
            FolderState::Finished {
                result,
                end,
                reason,
            } => {
                let replay = self.file.on_crash == OnCrash::VoidAndReplay
                    && end == "forfeit_crash"
                    && board.dirs.len() <= MAX_REPLAYS
                    && board.set.is_none();
                self.record(EventLine::BoardEnd {
                    round: number,
                    board: board_number,
                    black: board.pair.black.clone(),
                    white: board.pair.white.clone(),
                    dir: relative.clone(),
                    result: match replay {
                        true => "Void".into(),
                        false => result,
                    },
                    end: end.clone(),
                    reason: match replay {
                        true => format!("{reason}; void under on_crash = \"void-and-replay\""),
                        false => reason,
                    },
                })?;
                if replay {
                    self.start_board(number, &Self::played_again(number, board))?;
                }
                Ok(())
            }
            FolderState::Unfinished if board.set.is_some() => {
                self.say(format!(
                    "round {number} board {board_number}: its goref ended ({how}) before its \
                     game did; the director's result stands"
                ));
                Ok(())
            }
            FolderState::Unfinished => {
                let tries = self.resumes.entry((number, board_number)).or_insert(0);
                *tries += 1;
                if *tries > MAX_RESUMES {
                    return self.record(trouble(format!(
                        "its goref ended ({how}) without a result {MAX_RESUMES} times: {last_words}"
                    )));
                }
                self.say(format!(
                    "round {number} board {board_number}: its goref ended ({how}) before a \
                     result; resuming it: {last_words}"
                ));
                Ok(())
            }
            FolderState::Empty => self.record(trouble(format!(
                "its game could not start ({how}): {last_words}"
            ))),
            FolderState::Live => {
                self.running.insert((number, board_number), None);
                Ok(())
            }
            FolderState::Unreadable(why) => self.record(trouble(why)),
        }
    }

    /// Looks at the folders of boards another goref plays.
    fn follow_adopted(&mut self) -> Result<(), String> {
        let adopted: Vec<(u32, u32)> = self
            .running
            .iter()
            .filter(|(_, pid)| pid.is_none())
            .map(|(&k, _)| k)
            .collect();
        let state = self.state();
        for (number, board_number) in adopted {
            let Some(board) = state.board(number, board_number) else {
                continue;
            };
            let dir = self.dir.join(board.folder(number));
            if board::folder_state(&dir) != FolderState::Live {
                self.running.remove(&(number, board_number));
                self.board_exited(number, board_number, "its goref ended", &[])?;
            }
        }
        Ok(())
    }

    /// Whether a goref still plays a board of `round`: one this run
    /// started or follows, or one it has not seen yet (the event was run
    /// again while it played, and the director set its result meanwhile).
    fn has_live_boards(&self, round: &super::state::Round) -> bool {
        self.running.keys().any(|&(r, _)| r == round.number)
            || !self.live_unfollowed(round).is_empty()
    }

    /// The boards of `round` a goref plays that this run neither started
    /// nor follows: those that had no reason to be started because the
    /// director had set their results.
    fn live_unfollowed(&self, round: &super::state::Round) -> Vec<(u32, u32)> {
        round
            .boards
            .iter()
            .filter(|b| b.played.is_none())
            .map(|b| ((round.number, b.pair.board), b.folder(round.number)))
            .filter(|(key, dir)| {
                !self.running.contains_key(key) && board::is_live(&self.dir.join(dir))
            })
            .map(|(key, _)| key)
            .collect()
    }

    /// Follows the boards [`Self::live_unfollowed`] finds.
    fn adopt_live_boards(&mut self, round: &super::state::Round) {
        for key in self.live_unfollowed(round) {
            self.running.insert(key, None);
        }
    }

    /// Ends the game of every board still played whose result the director
    /// set, or that the director asked to be started again (its game
    /// waited for an absent seat): through its folder's attach socket, so
    /// that its journal and record end void with the director's reason,
    /// whether this run started its goref or found it playing. A goref that
    /// does not answer is sent SIGTERM, and SIGKILL once it has had as long
    /// again.
    fn stop_boards_the_director_decided(&mut self, round: &super::state::Round) {
        for b in &round.boards {
            let (why, decided) = match (&b.set, b.retry) {
                (Some(_), _) => (director_void_reason(b), "set its result"),
                (None, true) => (RETRY_VOID_REASON.to_string(), "started it again"),
                (None, false) => continue,
            };
            let key = (round.number, b.pair.board);
            let Some(pid) = self.running.get(&key).copied() else {
                continue;
            };
            let dir = self.dir.join(b.folder(round.number));
            let now = std::time::Instant::now();
            match self.voided.get(&key) {
                None => {
                    self.voided.insert(key, now);
                    if let Err(trouble) = board::void_game(&dir, &why) {
                        self.say(format!(
                            "round {} board {}: the director {decided} but {trouble}; \
                             stopping it with SIGTERM",
                            round.number, b.pair.board
                        ));
                        board::signal(&dir, pid, libc::SIGTERM);
                    }
                }
                Some(asked) if now.duration_since(*asked) > 2 * board::VOID_WAIT => {
                    self.say(format!(
                        "round {} board {}: its goref is still alive {}s after the director \
                         {decided}: killing it",
                        round.number,
                        b.pair.board,
                        now.duration_since(*asked).as_secs()
                    ));
                    board::signal(&dir, pid, libc::SIGKILL);
                    self.voided.insert(key, now);
                }
                Some(_) => {}
            }
        }
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
