//! `goref event DIR` on a terminal: the hall. The async shell around the
//! event runner and the hall's screen ([`crate::ui::hall`]).
//!
//! The runner plays the rounds on a thread of its own, as it does headless,
//! and tells the hall through its [`Desk`]: each picture of the event, each
//! line it would print, and the pairing it asks the director about (the
//! hall answers with the prompt's own words). Each board of the round is
//! followed through its folder's socket ([`follower`]), so the tiles draw
//! from the board's own view and a board opened on the whole screen takes
//! the operator's keys of `goref attach`. `q` leaves the hall and stops
//! the runner; the boards play on, and the next `goref event DIR` follows
//! them again. A terminal that goes away does the same.

pub mod follower;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{mpsc as std_mpsc, Mutex};
use std::time::Duration;

use ratatui::layout::Rect;
use tokio::sync::mpsc;
use tokio::time::Instant;

use crate::app::input::{spawn_reader, TerminalEvent};
use crate::app::terminal::Screen;
use crate::app::{ScreenOptions, FRAME_GAP};
use crate::driver::signals::{Received, Signals};
use crate::event::run::{run_at, Desk, EventEnd, EventOptions};
use crate::shell_time::next_from;
use crate::tournament::hall::EventPicture;
use crate::ui::clocks::next_change_ms;
use crate::ui::control::{follow_game, handle_key, Effect};
use crate::ui::hall::keys::{self, HallEffect};
use crate::ui::hall::{BoardGame, HallState, HallView, Laid, Mode};
use crate::ui::keys::Key;
use crate::ui::layout::areas;
use crate::ui::{PaneId, Role, UiState};

use follower::{BoardNote, Follower};

/// How many of the event's lines the hall keeps.
const NEWS_KEPT: usize = 50;

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
        let _ = self
            .notes
            .send(RunnerNote::Picture(Box::new(picture.clone())));
    }

    fn ask(&self, _shown: Vec<String>) -> Option<String> {
        let answers = self.answers.lock().unwrap_or_else(|e| e.into_inner());
        answers.recv().ok()
    }
}

/// Runs the event in `dir` with the hall on the terminal until the event
/// is over and the director leaves, or the director stops it.
pub async fn run(
    dir: &Path,
    options: &EventOptions,
    screen_options: ScreenOptions,
) -> Result<EventEnd, String> {
    let (notes_tx, mut notes) = mpsc::unbounded_channel();
    let (answers_tx, answers) = std_mpsc::channel();
    let desk = HallDesk {
        notes: notes_tx.clone(),
        answers: Mutex::new(answers),
    };
    let runner_dir = dir.to_path_buf();
    let runner_options = options.clone();
    std::thread::Builder::new()
        .name("event".into())
        .spawn(move || {
            let end = run_at(&runner_dir, &runner_options, Box::new(desk), false);
            let _ = notes_tx.send(RunnerNote::Ended(end));
        })
        .map_err(|e| format!("cannot start the event: {e}"))?;
    let mut signals = Signals::install().map_err(|e| format!("cannot catch signals: {e}"))?;
    let mut screen = Screen::enter().map_err(|e| format!("cannot take the terminal: {e}"))?;
    let mut hall = Hall {
        dir: dir.to_path_buf(),
        view: HallView {
            folder: dir.display().to_string(),
            ..HallView::default()
        },
        state: HallState::new(true),
        screens: HashMap::new(),
        followers: HashMap::new(),
        answers: Some(answers_tx),
        options: screen_options,
        laid: Laid { columns: 1 },
        board_panes: (Vec::new(), 10),
        leaving: false,
    };
    let (board_tx, mut board_notes) = mpsc::unbounded_channel();
    let mut keys = Some(spawn_reader());
    let mut dirty = true;
    let mut last_frame = Instant::now() - FRAME_GAP;
    let mut ended: Option<Result<EventEnd, String>> = None;
    loop {
        if dirty && Instant::now() >= last_frame + FRAME_GAP {
            hall.draw(&mut screen);
            last_frame = Instant::now();
            dirty = false;
        }
        if screen.is_lost() && !hall.leaving {
            hall.leave(libc::SIGHUP);
        }
        if let Some(end) = &ended {
            if hall.leaving || !matches!(end, Ok(EventEnd::Finished { .. })) {
                break;
            }
        }
        let wake = match dirty {
            true => last_frame + FRAME_GAP,
            false => hall.next_tick(),
        };
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
            input = next_from(&mut keys) => match input {
                Some(TerminalEvent::Key(key)) => hall.key(key),
                Some(TerminalEvent::Resize) => {}
                Some(TerminalEvent::Lost(why)) => {
                    screen.lose(&why);
                    keys = None;
                }
                None => keys = None,
            },
            signal = signals.next() => match signal {
                Received::Stop("SIGTERM") => hall.leave(libc::SIGTERM),
                Received::Stop(_) => hall.leave(libc::SIGINT),
                Received::Hangup => hall.leave(libc::SIGHUP),
            },
            _ = tokio::time::sleep_until(wake) => {}
        }
        dirty = true;
    }
    drop(screen);
    ended.unwrap_or_else(|| Err("the event's runner went away".into()))
}

/// The hall's shell state: the view, the screen's own state, the boards
/// followed and where the director's answers go.
struct Hall {
    dir: PathBuf,
    view: HallView,
    state: HallState,
    /// Each board's full screen, kept while the round lasts.
    screens: HashMap<u32, UiState>,
    followers: HashMap<u32, Follower>,
    answers: Option<std_mpsc::Sender<String>>,
    options: ScreenOptions,
    laid: Laid,
    /// The panes of the board screen drawn last, and its page.
    board_panes: (Vec<PaneId>, usize),
    /// The director left: the runner is stopping.
    leaving: bool,
}

impl Hall {
    fn said(&mut self, line: String) {
        if self.view.news.len() == NEWS_KEPT {
            self.view.news.remove(0);
        }
        self.view.news.push(line);
    }

    /// A new picture of the event: the boards of a new round are
    /// followed, those of a round gone are dropped.
    fn picture(&mut self, picture: EventPicture, notes: &mpsc::UnboundedSender<(u32, BoardNote)>) {
        if picture.round != self.view.picture.round {
            self.followers.clear();
            self.view.games.clear();
            self.screens.clear();
            self.state.seen.clear();
            if let Mode::Board(_) = self.state.mode {
                self.state.mode = Mode::Boards;
            }
        }
        for board in &picture.boards {
            let Some(dir) = &board.dir else { continue };
            let dir = self.dir.join(dir);
            let followed = self.followers.get(&board.board);
            let same = followed.is_some_and(|f| f.dir == dir && f.round == picture.round);
            if board.playing && !same {
                let follower =
                    Follower::start(picture.round, board.board, dir.clone(), notes.clone());
                self.followers.insert(board.board, follower);
            }
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
                self.view.games.insert(
                    board,
                    BoardGame {
                        view,
                        clock,
                        trouble,
                    },
                );
                if self.state.mode == Mode::Board(board) {
                    self.see(board);
                }
            }
            BoardNote::Refused(why) => {
                if let Some(screen) = self.screens.get_mut(&board) {
                    screen.message = Some(why);
                }
            }
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

    /// Marks board `board`'s alerts seen: the director has it on screen.
    fn see(&mut self, board: u32) {
        if let Some(game) = self.view.games.get(&board) {
            let last = game.view.alerts.back().map_or(0, |a| a.n);
            self.state.seen.insert(board, last);
        }
    }

    fn key(&mut self, key: Key) {
        if let Mode::Board(board) = self.state.mode {
            return self.board_key(board, key);
        }
        for effect in keys::handle(key, &self.view, &mut self.state, self.laid.columns) {
            match effect {
                HallEffect::Open(board) => self.open(board),
                HallEffect::Quit => self.leave(0),
                HallEffect::Answer(line) => {
                    if let Some(answers) = &self.answers {
                        let _ = answers.send(line);
                    }
                }
                HallEffect::SetResult {
                    board,
                    result,
                    reason,
                } => self.set_result(board, &result, &reason),
            }
        }
    }

    fn open(&mut self, board: u32) {
        let Some(game) = self.view.games.get(&board) else {
            let state = self
                .view
                .picture
                .board(board)
                .map(|b| crate::ui::hall::board_state(b, None))
                .unwrap_or_default();
            self.state.message = Some(format!("board {board} has no game to show: {state}"));
            return;
        };
        let last_alert = game.view.alerts.back().map_or(0, |a| a.n);
        let screen = self.screens.entry(board).or_insert_with(|| {
            let mut screen = UiState::new(Role::Operator);
            screen.detaches = true;
            screen.keys = self.options.keys.clone();
            screen
        });
        screen.alerts_acknowledged = screen.alerts_acknowledged.max(last_alert);
        self.state.mode = Mode::Board(board);
        self.see(board);
    }

    /// A key on a board's full screen: `esc` with nothing open, or `q`,
    /// goes back to the hall; the rest are the board screen's keys, its
    /// commands sent to the board's goref.
    fn board_key(&mut self, board: u32, key: Key) {
        let (Some(game), Some(screen)) =
            (self.view.games.get(&board), self.screens.get_mut(&board))
        else {
            self.state.mode = Mode::Boards;
            return;
        };
        let idle = screen.input.is_none()
            && screen.confirm.is_none()
            && screen.help.is_none()
            && screen.zoom.is_none()
            && screen.pending.is_empty();
        if key == Key::Esc && idle {
            self.state.mode = Mode::Boards;
            return;
        }
        let (panes, page) = &self.board_panes;
        for effect in handle_key(key, &game.view, screen, panes, *page) {
            let line = match effect {
                Effect::Quit | Effect::Interrupt => {
                    self.state.mode = Mode::Boards;
                    return;
                }
                Effect::Operator(command) => command.as_line(),
                Effect::TypedLine(text) => text,
                Effect::NextGame | Effect::Step(_) => continue,
            };
            let sent = self
                .followers
                .get(&board)
                .is_some_and(|f| f.command(line.clone()));
            if !sent {
                screen.message = Some(format!(
                    "'{line}' was not sent: the hall follows board {board} no more"
                ));
            }
        }
    }

    fn set_result(&mut self, board: u32, result: &str, reason: &str) {
        let picture = &self.view.picture;
        let Some(pair) = picture.board(board) else {
            return;
        };
        let set = crate::event::set_result(
            &self.dir,
            picture.round,
            &pair.black,
            &pair.white,
            result,
            reason,
        );
        self.state.message = Some(match set {
            Ok(_) => format!("board {board}: {result} set by the director"),
            Err(why) => format!("board {board}: {why}"),
        });
    }

    /// The director leaves (or the terminal went): the runner stops, the
    /// boards play on.
    fn leave(&mut self, signal: libc::c_int) {
        self.leaving = true;
        crate::event::run::stop(signal);
        self.answers = None;
        self.followers.clear();
    }

    /// When a clock on screen shows another second next.
    fn next_tick(&self) -> Instant {
        let now = std::time::Instant::now();
        let soonest = self
            .view
            .games
            .iter()
            .filter(|(_, g)| g.view.result.is_none() && !g.view.clocks_paused)
            .filter_map(|(&board, g)| next_change_ms(&g.view, self.view.now_t_ms(board, now)?))
            .min()
            .unwrap_or(60_000);
        Instant::now() + Duration::from_millis(soonest)
    }

    fn draw(&mut self, screen: &mut Screen) {
        if screen.is_lost() {
            return;
        }
        let (width, height) = screen.size();
        let area = Rect::new(0, 0, width, height);
        let now = std::time::Instant::now();
        let theme = &self.options.theme;
        if let Mode::Board(board) = self.state.mode {
            let line = self.hall_line(board, width);
            let (Some(game), Some(ui)) =
                (self.view.games.get(&board), self.screens.get_mut(&board))
            else {
                self.state.mode = Mode::Boards;
                return self.draw(screen);
            };
            ui.now_t_ms = self
                .view
                .now_t_ms(board, now)
                .unwrap_or(game.view.last_t_ms);
            ui.link = game.trouble.clone().map(|text| crate::ui::LinkStatus {
                text,
                trouble: true,
            });
            follow_game(&game.view, ui);
            let board_area = Rect::new(0, 0, width, height.saturating_sub(1));
            let laid = areas(board_area, &game.view, ui);
            let page = laid
                .pane(PaneId::Trace)
                .map_or(10, |t| usize::from(t.height.saturating_sub(3).max(1)));
            if let Some(trace) = laid.pane(PaneId::Trace) {
                ui.trace.pane_rows = trace.height.saturating_sub(2);
            }
            self.board_panes = (laid.panes.iter().map(|(p, _)| *p).collect(), page);
            screen.draw(|frame| {
                crate::ui::render(board_area, frame.buffer_mut(), &game.view, ui, theme);
                let y = height.saturating_sub(1);
                frame
                    .buffer_mut()
                    .set_stringn(0, y, &line.0, usize::from(width), line.1);
            });
            return;
        }
        let mut laid = Laid { columns: 1 };
        let (view, state) = (&self.view, &mut self.state);
        screen.draw(|frame| {
            laid = crate::ui::hall::draw(area, frame.buffer_mut(), view, state, theme, now);
        });
        self.laid = laid;
    }

    /// The line under a board's screen: the hall's word on the other
    /// boards, and the way back.
    fn hall_line(&self, shown: u32, width: u16) -> (String, ratatui::style::Style) {
        let theme = &self.options.theme;
        let other = self.view.order(&self.state).into_iter().find_map(|n| {
            let board = self.view.picture.board(n).filter(|_| n != shown)?;
            self.view.needs(board, &self.state).map(|why| (n, why))
        });
        let (text, style) = match other {
            Some((n, why)) => (format!("! board {n} needs you: {why}"), theme.alert),
            None => {
                let pair = self
                    .view
                    .picture
                    .board(shown)
                    .map(|b| format!(": {} (B) - {} (W)", b.black, b.white))
                    .unwrap_or_default();
                let round = self.view.picture.round;
                (format!("round {round} board {shown}{pair}"), theme.status)
            }
        };
        let text = format!("{text}  |  esc: the hall");
        (crate::ui::cut(&text, usize::from(width)), style)
    }
}
