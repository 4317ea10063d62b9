//! The event's runner as a sans-IO state machine: every rule of `goref
//! event DIR` that decides what happens next. It does no I/O: it reads no
//! clock, no file, no process and no environment, and the shell
//! (`event::run`) does all of that for it.
//!
//! The shell hands it what happened: the journal's new lines
//! ([`EventRunner::handle_journal`]), what a board's folder says
//! ([`EventRunner::handle_folder`]), a board's goref started
//! ([`EventRunner::handle_spawned`]), a board's news (a line, its goref
//! ended: [`EventRunner::handle_board_news`]), the director's answer
//! ([`EventRunner::handle_answer`]), the seats as the relay keeps them, a
//! stop asked, and the time ([`EventRunner::handle_timeout`], read by the
//! shell). It carries out what [`EventRunner::poll_action`] returns, in
//! order; an action that asks (a line recorded, a folder looked at, a
//! board started, a game voided, programs checked, the director asked) is
//! answered by its `handle_*` before the next action is polled. When no
//! action is left, [`EventRunner::poll_timeout`] says when to call
//! [`EventRunner::handle_timeout`], and [`EventRunner::listens`] whether
//! board news may come first.
//!
//! Here: what the runner is told and asks, the order its work is done in,
//! and its end. The event's loop between rounds (reconcile the folders,
//! play the current round or close it with its standings, finish, or have
//! the next pairing confirmed) is `between`'s; a round played, turn by
//! turn, and its boards are `round`'s; what the desk is told and shown,
//! and the seats, are `desk`'s.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::file::EventFile;
use super::log::{EventLine, Logged};
use super::pairing::Proposal;
use super::progress::progress;
use super::state::{Board, EventState, Round};
use super::{html, picture, prompt};
use crate::boards::{BoardNews, FolderState};
use crate::hall::desk::Asked;
use goref_core::tournament::hall::{EventPicture, SeatPicture, Stage};

mod between;
mod desk;
mod round;
#[cfg(test)]
mod tests;

/// How many times a board whose goref died without a result is resumed
/// before the director is asked for its result.
pub(crate) const MAX_RESUMES: u32 = 3;

/// How many times a game voided by a crash is played again before the
/// crash's forfeit stands.
pub(crate) const MAX_REPLAYS: usize = 2;

/// How often the event looks at the journal for results set beside it and
/// at the folders of boards another goref plays, and at a stop asked while
/// it rests or waits for the seats' checks.
pub(crate) const TICK: Duration = Duration::from_millis(500);

/// How long an event that is over waits for the checks of its seats
/// before it says goodbye to them.
const CHECKS_WAIT: Duration = Duration::from_secs(120);

/// What the runner is told once.
#[derive(Debug, Clone)]
pub(crate) struct Settings {
    /// The event's folder, as named in what the director is told.
    pub dir: PathBuf,
    /// Confirm each pairing without asking.
    pub yes: bool,
    /// Every line of the event's stream on stdout, and no progress lines.
    pub json: bool,
    /// The desk draws the event's picture.
    pub wants_pictures: bool,
    /// A relay serves seated entrants: the runner tells it who plays
    /// where, and waits for the seats' checks before it says goodbye.
    pub seats: bool,
    /// This goref's process id: the boards' lines saying it attached a
    /// screen are not repeated.
    pub pid: u32,
}

/// The clocks as the shell read them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Now {
    pub at: Instant,
    /// Milliseconds since the Unix epoch, as the journal stamps its lines.
    pub unix_ms: u64,
}

/// What the shell does next.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Action {
    /// Say the line at the desk.
    Say(String),
    /// Print the line on stdout (`--json`).
    Print(String),
    /// Show the standings at the desk.
    Standings(Vec<String>),
    /// Show the desk the event's picture.
    Show(Box<EventPicture>),
    /// Append the line to the journal (synced); print its text on stdout
    /// with `print`; say `progress`; then read the journal's new lines,
    /// this one and any written beside it: answer with `handle_journal`.
    Record {
        line: EventLine,
        print: bool,
        progress: Option<String>,
    },
    /// Read the journal's new lines: answer with `handle_journal`.
    ReadJournal,
    /// Look at the folder `dir` (relative to the event's) of the board:
    /// answer with `handle_folder`.
    Look { round: u32, board: u32, dir: String },
    /// Say what keeps each of these players from starting here, if
    /// anything: answer with `handle_programs`, one answer each.
    CheckPrograms(Vec<String>),
    /// Write the board's game file beside its folder `dir` (none when its
    /// game is resumed), tell the relay that its entrants play there, and
    /// start its goref: answer with `handle_spawned`.
    Spawn {
        round: u32,
        board: u32,
        dir: String,
        game_file: Option<String>,
        resume: bool,
        entrants: [String; 2],
    },
    /// End the game played in `dir` void, for `why`, through its socket:
    /// answer with `handle_voided`.
    Void { dir: String, why: String },
    /// Send `signal` to the goref of the board in `dir` (started by this
    /// run as `pid`, or the folder's holder).
    Signal {
        dir: String,
        pid: Option<u32>,
        signal: i32,
    },
    /// Tell the relay where each seated entrant plays now: its board's
    /// folder, relative to the event's.
    Playing(HashMap<String, String>),
    /// Write the standings page, this text.
    WritePage(String),
    /// Ask the director about the pairing shown: answer with
    /// `handle_answer`.
    Ask(Vec<String>),
    /// Say goodbye to the seats.
    Farewell(String),
    /// Every round is played.
    Finished { standings_html: PathBuf },
    /// The director or a signal stopped the event; its boards play on.
    Stopped(String),
    /// The event cannot go on.
    Failed(String),
}

/// Something the runner will do in turn: an action, a request, or a step
/// of its loop.
#[derive(Debug, Clone)]
enum Work {
    Do(Action),
    Record(EventLine),
    ReadJournal,
    Look {
        round: u32,
        board: u32,
        dir: String,
        then: Looked,
    },
    CheckEntrants,
    CheckAddition(EventLine),
    /// One of a turn's waiting boards: started while boards are free.
    StartWaiting {
        round: u32,
        board: Board,
    },
    Spawn {
        round: u32,
        board: Board,
        game_file: Option<String>,
        resume: bool,
    },
    Void {
        round: u32,
        board: u32,
        dir: String,
        why: String,
        decided: &'static str,
        pid: Option<u32>,
    },
    Ask(Vec<String>),
    Step(Step),
}

/// What a look at a board's folder is for.
#[derive(Debug, Clone)]
enum Looked {
    /// A board whose end the journal lacks: its folder's result recorded.
    Reconcile,
    /// A board of a round over: whether a goref still plays it.
    LiveCheck,
    /// A board of the round played: followed if a goref plays it.
    Adopt,
    /// A board another goref plays: whether it has ended.
    Follow,
    /// A board to start in the folder looked at.
    Start(Board),
    /// A board whose goref ended, how, and its last words.
    Exited { how: String, stderr: Vec<String> },
}

/// The steps of the event's loop.
#[derive(Debug, Clone)]
enum Step {
    Intro,
    /// The loop's top: a stop, then the folders' ends reconciled.
    Decide,
    /// The current round played, or closed.
    Choose,
    /// The current round is over unless a goref still plays it.
    Chosen,
    /// The standings after `played`, then the end or the next pairing.
    Close {
        played: u32,
        finished: bool,
    },
    Page,
    Finish {
        played: u32,
        finished: bool,
    },
    Finished,
    Confirm(u32),
    Play(u32),
    Rested(u32),
    Turn(u32, Turn),
}

/// The stages of a turn of a round played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Turn {
    Begin,
    Decided,
    Starts,
    Tell,
    Follow,
    Read,
    End,
}

/// The request in hand, answered by a `handle_*`.
#[derive(Debug)]
enum Awaiting {
    Journal {
        recorded: bool,
    },
    Folder {
        round: u32,
        board: u32,
        then: Looked,
    },
    Programs(Checked),
    Spawned {
        round: u32,
        board: Board,
        resume: bool,
    },
    Voided {
        round: u32,
        board: u32,
        dir: String,
        decided: &'static str,
        pid: Option<u32>,
    },
    Answer,
}

/// What programs are checked for.
#[derive(Debug)]
enum Checked {
    /// The entrants at the start, by name.
    Entrants(Vec<String>),
    /// A late entrant the director adds.
    Addition(EventLine),
}

/// The pairing the director is asked about.
#[derive(Debug, Clone)]
struct Confirming {
    proposal: Proposal,
    /// Its notes as proposed, before the absent seats'.
    proposed_notes: Vec<String>,
    absent: Vec<String>,
}

/// Where the runner is.
#[derive(Debug, Clone)]
enum Phase {
    /// Doing its work, or waiting for an answer.
    Working,
    /// Resting before `round` until `until` (none: not read yet).
    Resting {
        round: u32,
        until: Option<Instant>,
    },
    /// A turn of `round` waits for board news or the tick.
    Listening {
        round: u32,
    },
    /// The director is asked.
    Confirming(Box<Confirming>),
    /// The event is over; the seats' checks are waited for until `until`.
    Checking {
        until: Option<Instant>,
        said: bool,
    },
    Over,
}

/// How the runner ends.
enum End {
    Stopped(String),
    Failed(String),
}

/// The event runner's state machine.
pub(crate) struct EventRunner {
    settings: Settings,
    file: EventFile,
    lines: Vec<Logged>,
    now: Now,
    actions: VecDeque<Action>,
    agenda: VecDeque<Work>,
    /// What the work in hand produced, to come before the rest.
    batch: Vec<Work>,
    awaiting: Option<Awaiting>,
    phase: Phase,
    stop: Option<i32>,
    /// The seats as the relay keeps them.
    seats: Vec<SeatPicture>,
    /// The boards playing now, by (round, board): the pid of the goref
    /// this run started, or none for one another goref plays, followed by
    /// looking at its folder.
    running: BTreeMap<(u32, u32), Option<u32>>,
    resumes: HashMap<(u32, u32), u32>,
    /// The boards this run has started.
    tried: HashSet<(u32, u32)>,
    /// The boards whose goref this run asked to end its game because the
    /// director decided it, and when.
    voided: HashMap<(u32, u32), Instant>,
    /// What the director was told a board of the round waits for it for.
    waiting_said: HashSet<(u32, u32, String)>,
    /// The standings are on the director's screen since the last round.
    standings_shown: bool,
    stage: Stage,
    shown_round: u32,
    /// The picture the desk was last shown.
    shown: Option<EventPicture>,
    seats_said: HashMap<String, bool>,
    cards_said: HashMap<String, Option<String>>,
    /// The round a turn plays, as it stood when the turn began.
    turn: Option<Round>,
    /// A goref plays a board of the round the loop found over.
    live_found: bool,
    /// The standings page once every round is played.
    finished: Option<PathBuf>,
}

impl EventRunner {
    /// A runner of the event `file` whose journal holds `lines`, begun at
    /// `now`.
    pub(crate) fn new(settings: Settings, file: EventFile, lines: Vec<Logged>, now: Now) -> Self {
        let mut runner = EventRunner {
            settings,
            file,
            lines,
            now,
            actions: VecDeque::new(),
            agenda: VecDeque::new(),
            batch: Vec::new(),
            awaiting: None,
            phase: Phase::Working,
            stop: None,
            seats: Vec::new(),
            running: BTreeMap::new(),
            resumes: HashMap::new(),
            tried: HashSet::new(),
            voided: HashMap::new(),
            waiting_said: HashSet::new(),
            standings_shown: false,
            stage: Stage::Starting,
            shown_round: 0,
            shown: None,
            seats_said: HashMap::new(),
            cards_said: HashMap::new(),
            turn: None,
            live_found: false,
            finished: None,
        };
        runner.agenda.push_back(Work::Step(Step::Intro));
        runner.run();
        runner
    }

    /// The next thing to do.
    pub(crate) fn poll_action(&mut self) -> Option<Action> {
        self.actions.pop_front()
    }

    /// When to call [`EventRunner::handle_timeout`] once no action is
    /// left: none while an answer is awaited or once the runner is over.
    pub(crate) fn poll_timeout(&self) -> Option<Instant> {
        if self.awaiting.is_some() {
            return None;
        }
        match &self.phase {
            Phase::Listening { .. } | Phase::Checking { until: Some(_), .. } => {
                Some(self.now.at + TICK)
            }
            Phase::Resting { until: None, .. } | Phase::Checking { until: None, .. } => {
                Some(self.now.at)
            }
            Phase::Resting {
                until: Some(until), ..
            } => Some((self.now.at + TICK).min(*until)),
            Phase::Working | Phase::Confirming(_) | Phase::Over => None,
        }
    }

    /// Whether board news may come before the timeout.
    pub(crate) fn listens(&self) -> bool {
        matches!(self.phase, Phase::Listening { .. })
    }

    /// The seats as the relay keeps them now.
    pub(crate) fn handle_seats(&mut self, seats: Vec<SeatPicture>) {
        self.seats = seats;
    }

    /// A stop was asked, by `signal` (0: the director left the hall): the
    /// event stops at its next look, and its boards play on.
    pub(crate) fn handle_stop_asked(&mut self, signal: i32) {
        self.stop = Some(signal);
    }

    /// The time came that [`EventRunner::poll_timeout`] named, or board
    /// news did not.
    pub(crate) fn handle_timeout(&mut self, now: Now) {
        self.now = now;
        match self.phase.clone() {
            Phase::Listening { round } => {
                self.phase = Phase::Working;
                self.batch.push(Work::Step(Step::Turn(round, Turn::Follow)));
            }
            Phase::Resting { round, until } => self.rest(round, until),
            Phase::Checking { until, said } => self.check_seats(until, said),
            Phase::Working | Phase::Confirming(_) | Phase::Over => {}
        }
        self.run();
    }

    /// A board's news, heard while the runner listens: a line of its
    /// stream, or its goref ended.
    pub(crate) fn handle_board_news(&mut self, news: BoardNews, now: Now) {
        self.now = now;
        let Phase::Listening { round } = self.phase else {
            return;
        };
        self.phase = Phase::Working;
        self.hear(news);
        self.batch.push(Work::Step(Step::Turn(round, Turn::Follow)));
        self.run();
    }

    /// The journal's lines read since the last, after a line recorded or
    /// a read asked.
    pub(crate) fn handle_journal(&mut self, new: Vec<Logged>) {
        let Some(Awaiting::Journal { recorded }) = self.awaiting.take() else {
            return;
        };
        self.lines.extend(new);
        if recorded {
            self.show();
        }
        self.run();
    }

    /// What the folder of `board` of `round` looked at says.
    pub(crate) fn handle_folder(&mut self, round: u32, board: u32, folder: FolderState) {
        let then = match self.awaiting.take() {
            Some(Awaiting::Folder {
                round: r,
                board: b,
                then,
            }) if (r, b) == (round, board) => then,
            other => {
                self.awaiting = other;
                return;
            }
        };
        self.looked(round, board, folder, then);
        self.run();
    }

    /// What keeps each program checked from starting, in the order asked.
    pub(crate) fn handle_programs(&mut self, problems: Vec<Option<String>>) {
        let Some(Awaiting::Programs(checked)) = self.awaiting.take() else {
            return;
        };
        match checked {
            Checked::Entrants(names) => {
                for (name, why) in names.iter().zip(problems) {
                    if let Some(why) = why {
                        self.say(format!(
                            "note: entrant {name}: {why}: its boards will not start until \
                             event.toml is put right"
                        ));
                    }
                }
            }
            Checked::Addition(line) => match (problems.into_iter().next().flatten(), &line) {
                (Some(why), EventLine::Add { name, .. }) => {
                    self.tell(format!("goref: {name} is not added: {why}"));
                }
                _ => self.batch.push(Work::Record(line)),
            },
        }
        self.run();
    }

    /// The goref of `board` of `round` started, as `pid`.
    pub(crate) fn handle_spawned(&mut self, round: u32, board: u32, pid: u32) {
        let (board, resume) = match self.awaiting.take() {
            Some(Awaiting::Spawned {
                round: r,
                board: b,
                resume,
            }) if (r, b.pair.board) == (round, board) => (b, resume),
            other => {
                self.awaiting = other;
                return;
            }
        };
        self.running.insert((round, board.pair.board), Some(pid));
        self.batch.push(Work::Record(EventLine::BoardStart {
            round,
            board: board.pair.board,
            black: board.pair.black.clone(),
            white: board.pair.white.clone(),
            dir: board.folder(round),
            resumed: resume,
        }));
        self.run();
    }

    /// Whether the void asked reached the board's goref, or why not.
    pub(crate) fn handle_voided(&mut self, voided: Result<(), String>) {
        let Some(Awaiting::Voided {
            round,
            board,
            dir,
            decided,
            pid,
        }) = self.awaiting.take()
        else {
            return;
        };
        if let Err(trouble) = voided {
            self.say(format!(
                "round {round} board {board}: the director {decided} but {trouble}; stopping it \
                 with SIGTERM"
            ));
            self.batch.push(Work::Do(Action::Signal {
                dir,
                pid,
                signal: libc::SIGTERM,
            }));
        }
        self.run();
    }

    /// The director's answer to the pairing asked about.
    pub(crate) fn handle_answer(&mut self, asked: Asked) {
        if !matches!(self.awaiting, Some(Awaiting::Answer)) {
            return;
        }
        self.awaiting = None;
        let Phase::Confirming(mut confirming) = self.phase.clone() else {
            return;
        };
        let round = confirming.proposal.round;
        match asked {
            Asked::Quit => self.end(End::Stopped(self.unconfirmed(round))),
            Asked::NotYet => {
                let absent = self.absent_seats(&confirming.proposal);
                if absent != confirming.absent {
                    confirming.proposal.notes = confirming.proposed_notes.clone();
                    confirming.proposal.notes.extend(absent.iter().cloned());
                    confirming.absent = absent;
                    self.stage = picture::pairing(&confirming.proposal);
                }
                self.show();
                let shown = prompt::show(&confirming.proposal);
                self.phase = Phase::Confirming(confirming);
                self.batch.push(Work::Ask(shown));
            }
            Asked::Answer(answer) => {
                self.phase = Phase::Working;
                self.decide(&answer, confirming.proposal);
            }
        }
        self.run();
    }

    /// The shell could not carry out an action, for `why`: the event
    /// cannot go on.
    pub(crate) fn handle_failed(&mut self, why: String) {
        self.awaiting = None;
        self.end(End::Failed(why));
        self.run();
    }

    /// Does the work in turn until an answer is awaited or none is left.
    fn run(&mut self) {
        loop {
            for work in std::mem::take(&mut self.batch).into_iter().rev() {
                self.agenda.push_front(work);
            }
            if self.awaiting.is_some() {
                return;
            }
            let Some(work) = self.agenda.pop_front() else {
                return;
            };
            self.work(work);
        }
    }

    /// Asks the shell `action`, whose answer is awaited.
    fn ask(&mut self, action: Action, awaiting: Awaiting) {
        self.actions.push_back(action);
        self.awaiting = Some(awaiting);
    }

    /// Does `work`: an action queued, a request asked, or a step taken.
    fn work(&mut self, work: Work) {
        match work {
            Work::Do(action) => self.actions.push_back(action),
            Work::Record(line) => {
                let print = self.settings.json;
                let progress = match print {
                    true => None,
                    false => progress(&line, &self.settings.dir),
                };
                let action = Action::Record {
                    line,
                    print,
                    progress,
                };
                self.ask(action, Awaiting::Journal { recorded: true });
            }
            Work::ReadJournal => {
                self.ask(Action::ReadJournal, Awaiting::Journal { recorded: false })
            }
            Work::Look {
                round,
                board,
                dir,
                then,
            } => self.ask(
                Action::Look { round, board, dir },
                Awaiting::Folder { round, board, then },
            ),
            Work::CheckEntrants => {
                let entrants = self.state().entrants;
                let names = entrants.iter().map(|e| e.name.clone()).collect();
                let players = entrants.into_iter().map(|e| e.player).collect();
                self.ask(
                    Action::CheckPrograms(players),
                    Awaiting::Programs(Checked::Entrants(names)),
                );
            }
            Work::CheckAddition(line) => {
                let EventLine::Add { player, .. } = &line else {
                    return;
                };
                let players = vec![player.clone()];
                self.ask(
                    Action::CheckPrograms(players),
                    Awaiting::Programs(Checked::Addition(line)),
                );
            }
            Work::StartWaiting { round, board } => self.start_waiting(round, board),
            Work::Spawn {
                round,
                board,
                game_file,
                resume,
            } => self.ask(
                Action::Spawn {
                    round,
                    board: board.pair.board,
                    dir: board.folder(round),
                    game_file,
                    resume,
                    entrants: [board.pair.black.clone(), board.pair.white.clone()],
                },
                Awaiting::Spawned {
                    round,
                    board,
                    resume,
                },
            ),
            Work::Void {
                round,
                board,
                dir,
                why,
                decided,
                pid,
            } => self.ask(
                Action::Void {
                    dir: dir.clone(),
                    why,
                },
                Awaiting::Voided {
                    round,
                    board,
                    dir,
                    decided,
                    pid,
                },
            ),
            Work::Ask(shown) => self.ask(Action::Ask(shown), Awaiting::Answer),
            Work::Step(step) => self.step(step),
        }
    }

    fn step(&mut self, step: Step) {
        match step {
            Step::Intro => self.intro(),
            Step::Decide => self.decide_next(),
            Step::Choose => self.choose(),
            Step::Chosen => self.chosen(),
            Step::Close { played, finished } => self.close_round(played, finished),
            Step::Page => match html::page(&self.file, &self.state()) {
                Ok(page) => self.batch.push(Work::Do(Action::WritePage(page))),
                Err(why) => self.end(End::Failed(why)),
            },
            Step::Finish { played, finished } => self.finish_or_confirm(played, finished),
            Step::Finished => self.finished(),
            Step::Confirm(round) => self.confirm(round),
            Step::Play(round) => self.play(round),
            Step::Rested(round) => self.rested(round),
            Step::Turn(round, turn) => self.turn(round, turn),
        }
    }

    /// The event as the file and the journal read so far say it stands.
    fn state(&self) -> EventState {
        EventState::fold(&self.file, self.lines.iter().map(|l| &l.line))
    }

    /// Why the event stops, if a stop was asked.
    fn stopped(&self) -> Option<String> {
        self.stop.map(|signal| {
            let why = match signal {
                libc::SIGTERM => "goref received SIGTERM",
                libc::SIGINT => "goref received SIGINT (Ctrl-C)",
                libc::SIGHUP => "the director's terminal went away",
                _ => "the director left the hall",
            };
            format!(
                "{why}: the event stops; {} board(s) play on in their own gorefs, and `goref \
                 event {}` follows them again",
                self.running.len(),
                self.settings.dir.display()
            )
        })
    }

    /// The runner ends: its work left undone, the desk shown why.
    fn end(&mut self, end: End) {
        self.agenda.clear();
        self.phase = Phase::Over;
        let (why, action) = match end {
            End::Stopped(why) => (why.clone(), Action::Stopped(why)),
            End::Failed(why) => (why.clone(), Action::Failed(why)),
        };
        self.stage = Stage::Stopped { why };
        self.show();
        self.batch.push(Work::Do(action));
    }
}

/// The reason a board's game ends void with when the director set its
/// result while it played.
pub(crate) fn director_void_reason(board: &Board) -> String {
    format!(
        "the director set the result {} ({} - {}): {}",
        board.set.as_deref().unwrap_or("?"),
        board.pair.black,
        board.pair.white,
        board.set_reason.as_deref().unwrap_or("no reason given")
    )
}
