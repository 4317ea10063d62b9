//! `goref event DIR` on a terminal: the hall. The async shell around the
//! event runner and the hall's screen ([`crate::ui::hall`]).
//!
//! The runner plays the rounds on a thread of its own, as it does headless,
//! and tells the hall through its [`Desk`]: each picture of the event, each
//! line it would print, and the pairing it asks the director about (the
//! hall answers with the prompt's own words). Each board of the round is
//! followed through its folder's socket (`crate::hall::follower`), so the tiles draw
//! from the board's own view and a board opened on the whole screen takes
//! the operator's keys of `goref attach`. `q` leaves the hall and stops
//! the runner; the boards play on, and the next `goref event DIR` follows
//! them again. A terminal that goes away does the same.
//!
//! With `--serve`, the hall is served to spectators as it is drawn: the
//! picture, and each board's stream as its follower hears it. A headless
//! event with `--serve` ([`serve_headless`]) follows its boards the same
//! way, for its spectators alone.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{mpsc as std_mpsc, Arc, Mutex};

use tokio::sync::mpsc;

use crate::app::hall_screen::{Action, HallScreen};
use crate::app::input::spawn_reader;
use crate::app::terminal::Screen;
use crate::app::ScreenOptions;
use crate::event::desk::{Asked, Terminal};
use crate::event::run::{run_at, Desk, EventEnd, EventOptions};
use crate::journal::folder::JOURNAL;
use crate::mirror::hall_hub::HallItem;
use crate::mirror::server::{HallFeed, HallNews, MirrorServer};
use crate::shell_time::next_from;
use crate::signals::{Received, Signals};
use crate::ui::hall::keys::HallEffect;
use crate::ui::hall::{BoardGame, HallView};
use crate::ui::keys::Key;
use crate::ui::{Role, Theme};
use goref_core::referee::GameView;
use goref_core::tournament::hall::EventPicture;

use crate::hall::follower::{BoardNote, Follower};
use crate::hall::frame::{keep_line, send_to_board, show_board, terminal_key, Pacer};

/// What the runner tells the hall.
enum RunnerNote {
    Said(String),
    Picture(Box<EventPicture>),
    Ended(Result<EventEnd, String>),
}

/// The hall as the runner's desk.
struct HallDesk {
    notes: mpsc::UnboundedSender<RunnerNote>,
    answers: Mutex<std_mpsc::Receiver<String>>,
}

impl Desk for HallDesk {
    fn say(&self, line: String) {
        let _ = self.notes.send(RunnerNote::Said(line));
    }

    fn standings(&self, _lines: Vec<String>) {}

    fn wants_pictures(&self) -> bool {
        true
    }

    fn show(&self, picture: &EventPicture) {
        show(&self.notes, picture);
    }

    fn ask(&self, _shown: Vec<String>) -> Option<String> {
        let answers = self.answers.lock().unwrap_or_else(|e| e.into_inner());
        answers.recv().ok()
    }

    fn ask_within(&self, _shown: Vec<String>, wait: std::time::Duration) -> Asked {
        let answers = self.answers.lock().unwrap_or_else(|e| e.into_inner());
        match answers.recv_timeout(wait) {
            Ok(answer) => Asked::Answer(answer),
            Err(std_mpsc::RecvTimeoutError::Timeout) => Asked::NotYet,
            Err(std_mpsc::RecvTimeoutError::Disconnected) => Asked::Quit,
        }
    }
}

/// Hands the hall a picture of the event.
fn show(notes: &mpsc::UnboundedSender<RunnerNote>, picture: &EventPicture) {
    let _ = notes.send(RunnerNote::Picture(Box::new(picture.clone())));
}

/// Runs the event on a thread of its own, at `desk`; its end comes to
/// `notes`.
fn start_runner(
    dir: &Path,
    options: &EventOptions,
    desk: Box<dyn Desk>,
    signals: bool,
    notes: mpsc::UnboundedSender<RunnerNote>,
) -> Result<(), String> {
    let (dir, options) = (dir.to_path_buf(), options.clone());
    std::thread::Builder::new()
        .name("event".into())
        .spawn(move || {
            let end = run_at(&dir, &options, desk, signals);
            let _ = notes.send(RunnerNote::Ended(end));
        })
        .map(drop)
        .map_err(|e| format!("cannot start the event: {e}"))
}

/// The headless event's desk when the hall is served: the terminal's lines
/// and prompt, and the pictures for the hall.
struct ServedDesk {
    notes: mpsc::UnboundedSender<RunnerNote>,
}

impl Desk for ServedDesk {
    fn say(&self, line: String) {
        Terminal.say(line);
    }

    fn wants_pictures(&self) -> bool {
        true
    }

    fn show(&self, picture: &EventPicture) {
        show(&self.notes, picture);
    }

    fn ask(&self, shown: Vec<String>) -> Option<String> {
        Terminal.ask(shown)
    }
}

/// Runs the event in `dir` headless, as `goref event DIR --headless` does
/// (progress lines, the pairing asked on stdin, Ctrl-C and SIGTERM stop
/// it), with its hall served to spectators by `mirror` as the screen would
/// show it.
pub async fn serve_headless(
    dir: &Path,
    options: &EventOptions,
    mirror: &MirrorServer,
) -> Result<EventEnd, String> {
    let (notes_tx, mut notes) = mpsc::unbounded_channel();
    let desk = ServedDesk {
        notes: notes_tx.clone(),
    };
    start_runner(dir, options, Box::new(desk), true, notes_tx)?;
    let (relay, mut mirror_news) = mirror.attach_hall();
    let mut hall = Hall {
        dir: dir.to_path_buf(),
        view: HallView::default(),
        screen: HallScreen::new(Role::Operator, Default::default()),
        theme: Theme::default(),
        followers: HashMap::new(),
        answers: None,
        leaving: false,
        relay: Some(relay),
    };
    let (board_tx, mut board_notes) = mpsc::unbounded_channel();
    loop {
        tokio::select! {
            note = notes.recv() => match note {
                Some(RunnerNote::Picture(picture)) => hall.picture(*picture, &board_tx),
                Some(RunnerNote::Said(_)) => {}
                Some(RunnerNote::Ended(end)) => return end,
                None => return Err("the event's runner went away".into()),
            },
            Some((board, note)) = board_notes.recv() => hall.board_note(board, note),
            Some(news) = mirror_news.recv() => match news {
                HallNews::Said(news) => Terminal.say(format!("goref: {news}")),
                HallNews::Audience(count) => hall.view.watching = Some(count),
            },
        }
    }
}

/// Runs the event in `dir` with the hall on the terminal until the event
/// is over and the director leaves, or the director stops it.
pub async fn run(
    dir: &Path,
    options: &EventOptions,
    screen_options: ScreenOptions,
    mirror: Option<&MirrorServer>,
) -> Result<EventEnd, String> {
    let (notes_tx, mut notes) = mpsc::unbounded_channel();
    let (answers_tx, answers) = std_mpsc::channel();
    let desk = HallDesk {
        notes: notes_tx.clone(),
        answers: Mutex::new(answers),
    };
    start_runner(dir, options, Box::new(desk), false, notes_tx)?;
    let mut signals = Signals::install().map_err(|e| format!("cannot catch signals: {e}"))?;
    let mut screen = Screen::enter().map_err(|e| format!("cannot take the terminal: {e}"))?;
    let (relay, mut mirror_news) = match mirror.map(MirrorServer::attach_hall) {
        Some((relay, news)) => (Some(relay), Some(news)),
        None => (None, None),
    };
    let mut hall = Hall {
        dir: dir.to_path_buf(),
        view: HallView {
            serving: mirror.and_then(MirrorServer::serving),
            ..HallView::default()
        },
        screen: HallScreen::new(Role::Operator, screen_options.keys.clone()),
        theme: screen_options.theme,
        followers: HashMap::new(),
        answers: Some(answers_tx),
        leaving: false,
        relay,
    };
    let (board_tx, mut board_notes) = mpsc::unbounded_channel();
    let mut keys = Some(spawn_reader());
    let mut pacer = Pacer::new();
    let mut ended: Option<Result<EventEnd, String>> = None;
    loop {
        pacer.draw(&mut hall.screen, &mut screen, &hall.view, &hall.theme);
        if screen.is_lost() && !hall.leaving {
            hall.leave(libc::SIGHUP);
        }
        if let Some(end) = &ended {
            if hall.leaving || !matches!(end, Ok(EventEnd::Finished { .. })) {
                break;
            }
        }
        let wake = pacer.wake(&hall.screen, &hall.view);
        tokio::select! {
            note = notes.recv() => match note {
                Some(RunnerNote::Said(line)) => hall.said(line),
                Some(RunnerNote::Picture(picture)) => hall.picture(*picture, &board_tx),
                Some(RunnerNote::Ended(end)) => {
                    if let Err(why) = &end {
                        hall.said(format!("goref: {why}"));
                    }
                    ended = Some(end);
                }
                None => ended = ended.or(Some(Err("the event's runner went away".into()))),
            },
            Some((board, note)) = board_notes.recv() => hall.board_note(board, note),
            Some(news) = next_from(&mut mirror_news) => match news {
                HallNews::Said(news) => hall.said(news),
                HallNews::Audience(count) => hall.view.watching = Some(count),
            },
            input = next_from(&mut keys) => {
                if let Some(key) = terminal_key(input, &mut screen, &mut keys) {
                    hall.key(key);
                }
            }
            signal = signals.next() => match signal {
                Received::Stop("SIGTERM") => hall.leave(libc::SIGTERM),
                Received::Stop(_) => hall.leave(libc::SIGINT),
                Received::Hangup => hall.leave(libc::SIGHUP),
            },
            _ = tokio::time::sleep_until(wake) => {}
        }
        pacer.touch();
    }
    drop(screen);
    ended.unwrap_or_else(|| Err("the event's runner went away".into()))
}

/// The game of a board that ended before the hall opened (the event run
/// again after a kill or a lost terminal), folded from its journal, so that
/// its tile shows the last position, the clocks and the result as the tile
/// of a board seen ending does. None while the journal has no result.
fn ended_game(dir: &Path) -> Option<GameView> {
    let journal = crate::journal::reader::read(&dir.join(JOURNAL)).ok()?;
    let mut view = GameView::new();
    for stamped in &journal.events {
        view.apply_stamped(stamped);
    }
    view.result.is_some().then_some(view)
}

/// The director's hall: the view, the screen, the boards followed and
/// where the director's answers go.
struct Hall {
    dir: PathBuf,
    view: HallView,
    screen: HallScreen,
    theme: Theme,
    followers: HashMap<u32, Follower>,
    answers: Option<std_mpsc::Sender<String>>,
    /// The director left: the runner is stopping.
    leaving: bool,
    /// Where the hall is served to spectators, with `--serve`.
    relay: Option<HallFeed>,
}

impl Hall {
    fn said(&mut self, line: String) {
        keep_line(&mut self.view, line);
    }

    /// A new picture of the event: the boards of a new round are
    /// followed, those of a round gone are dropped.
    fn picture(&mut self, picture: EventPicture, notes: &mpsc::UnboundedSender<(u32, BoardNote)>) {
        if picture.round != self.view.picture.round {
            self.followers.clear();
            self.view.games.clear();
            self.screen.new_round();
        }
        let mut ended_before = Vec::new();
        for board in &picture.boards {
            let Some(dir) = &board.dir else { continue };
            let dir = self.dir.join(dir);
            let followed = self.followers.get(&board.board);
            let target = Follower::in_folder(&dir);
            let same = followed.is_some_and(|f| f.target == target && f.round == picture.round);
            if board.playing && !same {
                let follower = Follower::start(
                    (picture.round, board.board),
                    [board.black.clone(), board.white.clone()],
                    target,
                    notes.clone(),
                    self.relay.clone(),
                );
                self.followers.insert(board.board, follower);
            } else if !board.playing && !self.view.games.contains_key(&board.board) {
                if let Some(view) = ended_game(&dir) {
                    ended_before.push((board.board, Arc::new(view)));
                }
            }
        }
        if let Some(relay) = &self.relay {
            let _ = relay.send(HallItem::Picture(Box::new(picture.clone())));
            for (board, view) in &ended_before {
                let view = Arc::clone(view);
                let _ = relay.send(HallItem::Snapshot {
                    board: *board,
                    view,
                });
            }
        }
        for (board, view) in ended_before {
            let game = BoardGame {
                view,
                clock: None,
                trouble: None,
            };
            self.view.games.insert(board, game);
        }
        self.view.picture = picture;
    }

    fn board_note(&mut self, board: u32, note: BoardNote) {
        match note {
            BoardNote::View {
                view,
                clock,
                trouble,
            } => {
                let game = BoardGame {
                    view,
                    clock,
                    trouble,
                };
                show_board(&mut self.view, &mut self.screen, board, game);
            }
            BoardNote::Refused(why) => self.screen.tell_board(board, why),
            BoardNote::Gone(why) => {
                self.followers.remove(&board);
                if let Some(game) = self.view.games.get_mut(&board) {
                    if game.view.result.is_none() {
                        game.trouble = Some(why);
                    }
                }
            }
        }
    }

    fn key(&mut self, key: Key) {
        for action in self.screen.key(&self.view, key) {
            match action {
                Action::Hall(HallEffect::Quit) => self.leave(0),
                Action::Hall(HallEffect::Answer(line)) => {
                    if let Some(answers) = &self.answers {
                        let _ = answers.send(line);
                    }
                }
                Action::Hall(HallEffect::SetResult {
                    board,
                    result,
                    reason,
                    replace,
                }) => self.set_result(board, result, reason, replace),
                Action::Hall(HallEffect::Retry(board)) => {
                    let round = self.view.picture.round;
                    let reason = "the director started it again from the hall";
                    self.screen.state.message = Some(
                        match crate::event::retry_board(&self.dir, round, board, reason) {
                            Ok(line) => line,
                            Err(why) => format!("board {board}: {why}"),
                        },
                    );
                }
                Action::Hall(HallEffect::Open(_)) => {}
                Action::Board { board, line } => {
                    let gone = format!("the hall follows board {board} no more");
                    send_to_board(&self.followers, &mut self.screen, board, line, &gone);
                }
            }
        }
    }

    fn set_result(&mut self, board: u32, result: String, reason: String, replace: bool) {
        let picture = &self.view.picture;
        let Some(pair) = picture.board(board) else {
            return;
        };
        let asked = crate::event::DirectorResult {
            round: picture.round,
            black: pair.black.clone(),
            white: pair.white.clone(),
            result,
            reason,
            replace,
        };
        self.screen.state.message = Some(match crate::event::set_result(&self.dir, &asked) {
            Ok(lines) => lines.join("; "),
            Err(why) => format!("board {board}: {why}"),
        });
    }

    /// The director leaves (or the terminal went): the runner stops, the
    /// boards play on.
    fn leave(&mut self, signal: libc::c_int) {
        self.leaving = true;
        crate::signals::stop(signal);
        self.answers = None;
        self.followers.clear();
    }
}
