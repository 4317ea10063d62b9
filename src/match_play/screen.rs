//! A match on a terminal, or a worker's slots: the hall's tiles for the games in
//! play, the figures and the plots of the LLR and of Elo under them
//! ([`crate::ui::hall::MatchPanel`]), the runner's newest line, and the
//! hall's keys: a game opened on the whole screen takes the operator's
//! keys of `goref attach`, `s` shows every figure.
//!
//! The runner plays the match on a thread of its own, as it does headless,
//! and hands this screen a picture after each change. `q`, Ctrl-C,
//! SIGTERM or a terminal that goes away stop the runner and leave the
//! games playing, each in its own goref; the next `goref match DIR`
//! follows them again. Once the match is over its figures stay on the
//! screen until `q`.
//!
//! `goref match DIR` shows its match on it
//! (`crate::engine_match::screen`), and `goref worker` its slots.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use tokio::sync::{mpsc, oneshot};

use crate::app::hall_screen::{Action, HallScreen};
use crate::app::input::spawn_reader;
use crate::app::terminal::Screen;
use crate::app::ScreenOptions;
use crate::hall::follower::{BoardNote, Follower};
use crate::hall::frame::{keep_line, send_to_board, show_board, terminal_key, Pacer};
use crate::mirror::follow::Target;
use crate::shell_time::next_from;
use crate::signals::{Received, Signals};
use crate::ui::hall::keys::HallEffect;
use crate::ui::hall::{BoardGame, HallKind, HallView};
use crate::ui::keys::Key;
use crate::ui::Role;
use goref_core::tournament::hall::BoardPicture;

use super::desk::MatchDesk;
use super::picture::MatchPicture;

/// What the runner tells the screen.
enum RunnerNote {
    Said(String),
    Picture(Box<MatchPicture>),
}

/// The screen as the runner's desk: lines and pictures go to the screen,
/// and the screen's reason to stop comes back.
struct ScreenDesk {
    notes: mpsc::UnboundedSender<RunnerNote>,
    stop: Arc<Mutex<Option<String>>>,
}

impl MatchDesk for ScreenDesk {
    fn say(&self, line: String) {
        let _ = self.notes.send(RunnerNote::Said(line));
    }

    fn wants_pictures(&self) -> bool {
        true
    }

    fn show(&self, picture: MatchPicture) {
        let _ = self.notes.send(RunnerNote::Picture(Box::new(picture)));
    }

    fn stop_asked(&self) -> Option<String> {
        self.stop.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// What a runner does when its terminal goes away.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hangup {
    /// It stops, as on `q`.
    Stops,
    /// It goes on without a screen until Ctrl-C or SIGTERM.
    PlaysOn,
}

/// Runs `runner` on a thread of its own with this screen as its desk, until
/// it ends and the player leaves (saying `over` when it ends well), or the
/// player stops it; folders' sockets in its pictures are relative to `dir`.
pub async fn run_on_screen<R, E>(
    dir: &Path,
    screen_options: ScreenOptions,
    over: &str,
    hangup: Hangup,
    runner: impl FnOnce(Box<dyn MatchDesk>) -> Result<R, E> + Send + 'static,
) -> Result<R, E>
where
    R: Send + 'static,
    E: From<String> + Send + 'static,
{
    let went_away = || E::from("the runner went away".to_string());
    let (notes_tx, mut notes) = mpsc::unbounded_channel();
    let (end_tx, mut end_rx) = oneshot::channel();
    let stop = Arc::new(Mutex::new(None));
    let desk = ScreenDesk {
        notes: notes_tx,
        stop: Arc::clone(&stop),
    };
    std::thread::Builder::new()
        .name("runner".into())
        .spawn(move || {
            let _ = end_tx.send(runner(Box::new(desk)));
        })
        .map_err(|e| format!("cannot start the runner: {e}"))?;
    let mut signals = Signals::install().map_err(|e| format!("cannot catch signals: {e}"))?;
    let entered = Screen::enter().map_err(|e| format!("cannot take the terminal: {e}"))?;
    let mut screen = Some(entered);
    let mut shown = MatchScreen {
        dir: dir.to_path_buf(),
        view: HallView::default(),
        screen: HallScreen::new(Role::Operator, screen_options.keys.clone()),
        followers: HashMap::new(),
        reached: HashSet::new(),
        held: None,
        stop,
        leaving: false,
        detached: false,
    };
    shown.screen.state.director = false;
    let theme = screen_options.theme;
    let (board_tx, mut board_notes) = mpsc::unbounded_channel();
    let mut keys = Some(spawn_reader());
    let mut pacer = Pacer::new();
    let mut ended: Option<Result<R, E>> = None;
    loop {
        if let Some(terminal) = screen.as_mut() {
            pacer.draw(&mut shown.screen, terminal, &shown.view, &theme);
            if terminal.is_lost() && !shown.leaving {
                match hangup {
                    Hangup::Stops => shown.leave("the terminal went away"),
                    Hangup::PlaysOn => shown.detach(&mut screen, &mut keys),
                }
            }
        }
        if let Some(end) = &ended {
            if shown.leaving || end.is_err() {
                break;
            }
        }
        let wake = match screen {
            Some(_) => pacer.wake(&shown.screen, &shown.view),
            None => tokio::time::Instant::now() + std::time::Duration::from_secs(3600),
        };
        tokio::select! {
            Some(note) = notes.recv() => shown.note(note, &board_tx),
            end = &mut end_rx, if ended.is_none() => {
                let end = end.unwrap_or_else(|_| Err(went_away()));
                if end.is_ok() {
                    while let Ok(note) = notes.try_recv() {
                        shown.note(note, &board_tx);
                    }
                    shown.said(over.to_string());
                }
                ended = Some(end);
            }
            Some((board, note)) = board_notes.recv() => shown.board_note(board, note),
            input = next_from(&mut keys) => {
                let key = match screen.as_mut() {
                    Some(terminal) => terminal_key(input, terminal, &mut keys),
                    None => None,
                };
                if let Some(key) = key {
                    shown.key(key);
                }
            }
            signal = signals.next() => match signal {
                Received::Stop("SIGTERM") => shown.leave("goref received SIGTERM"),
                Received::Stop(_) => shown.leave("goref received SIGINT (Ctrl-C)"),
                Received::Hangup if hangup == Hangup::PlaysOn => {
                    shown.detach(&mut screen, &mut keys);
                }
                Received::Hangup => shown.leave("the terminal hung up"),
            },
            _ = tokio::time::sleep_until(wake) => {}
        }
        pacer.touch();
    }
    drop(screen);
    ended.unwrap_or_else(|| Err(went_away()))
}

/// An ended game kept open: its tile as it was, and the newest view of
/// the game that plays on its tile now, shown once the player leaves.
struct Held {
    board: u32,
    tile: Option<BoardPicture>,
    newer: Option<BoardGame>,
}

/// The screen's state: the view drawn, the games followed, and where the
/// reason to stop goes.
struct MatchScreen {
    dir: PathBuf,
    view: HallView,
    screen: HallScreen,
    followers: HashMap<u32, Follower>,
    /// The games whose goref the screen has reached: a game's trouble is
    /// shown once it has been, not while its goref is still starting.
    reached: HashSet<u32>,
    /// A game opened on the whole screen that ended, kept on its result
    /// until the player leaves it.
    held: Option<Held>,
    stop: Arc<Mutex<Option<String>>>,
    leaving: bool,
    /// The terminal went away and the runner plays on.
    detached: bool,
}

impl MatchScreen {
    fn note(&mut self, note: RunnerNote, boards: &mpsc::UnboundedSender<(u32, BoardNote)>) {
        match note {
            RunnerNote::Said(line) => self.said(line),
            RunnerNote::Picture(picture) => self.picture(*picture, boards),
        }
    }

    fn said(&mut self, line: String) {
        if self.detached {
            tracing::info!("{line}");
        }
        keep_line(&mut self.view, line);
    }

    /// A new picture: games newly in play are followed, those ended are
    /// dropped with their tiles.
    fn picture(&mut self, picture: MatchPicture, notes: &mpsc::UnboundedSender<(u32, BoardNote)>) {
        let boards = &picture.boards.boards;
        self.followers
            .retain(|board, _| boards.iter().any(|b| b.board == *board));
        self.reached
            .retain(|board| boards.iter().any(|b| b.board == *board));
        let held = self.held.as_ref().map(|held| held.board);
        self.view
            .games
            .retain(|board, _| held == Some(*board) || boards.iter().any(|b| b.board == *board));
        let followed = match self.detached {
            true => &BTreeMap::new(),
            false => &picture.sources,
        };
        for (&board, target) in followed {
            let target = match target {
                Target::Unix(socket) => Target::Unix(self.dir.join(socket)),
                target => target.clone(),
            };
            let same = self
                .followers
                .get(&board)
                .is_some_and(|f| f.target == target);
            if !same {
                if held != Some(board) && self.screen.opened() != Some(board) {
                    self.screen.forget(board);
                }
                let names = boards
                    .iter()
                    .find(|b| b.board == board)
                    .map_or_else(Default::default, |b| [b.black.clone(), b.white.clone()]);
                let follower = Follower::start((0, board), names, target, notes.clone(), None);
                self.followers.insert(board, follower);
            }
        }
        if let Some(opened) = self.screen.opened() {
            if held != Some(opened) && !boards.iter().any(|b| b.board == opened) {
                self.screen.new_round();
            }
        }
        self.view.picture = picture.boards;
        if let Some(Held {
            board,
            tile: Some(tile),
            ..
        }) = &self.held
        {
            self.view.picture.boards.retain(|b| b.board != *board);
            self.view.picture.boards.push(tile.clone());
            self.view.picture.boards.sort_by_key(|b| b.board);
        }
        self.view.kind = match picture.panel.is_some() {
            true => HallKind::Match,
            false => HallKind::Worker,
        };
        self.view.panel = picture.panel;
    }

    fn board_note(&mut self, board: u32, note: BoardNote) {
        match note {
            BoardNote::View {
                view,
                clock,
                trouble,
            } => {
                if !self.followers.contains_key(&board) {
                    return;
                }
                if trouble.is_none() {
                    self.reached.insert(board);
                }
                let game = BoardGame {
                    view,
                    clock,
                    trouble: trouble.filter(|_| self.reached.contains(&board)),
                };
                match &mut self.held {
                    Some(held) if held.board == board => held.newer = Some(game),
                    _ => {
                        let over = game.view.result.is_some();
                        show_board(&mut self.view, &mut self.screen, board, game);
                        if over && self.screen.opened() == Some(board) {
                            self.held = Some(Held {
                                board,
                                tile: self.view.picture.board(board).cloned(),
                                newer: None,
                            });
                        }
                    }
                }
            }
            BoardNote::Refused(why) => self.screen.tell_board(board, why),
            BoardNote::Gone(_) => {
                self.followers.remove(&board);
            }
        }
    }

    fn key(&mut self, key: Key) {
        for action in self.screen.key(&self.view, key) {
            match action {
                Action::Hall(HallEffect::Quit) => self.leave("the screen was left with q"),
                Action::Board { board, line } => {
                    let gone = "the game is over";
                    send_to_board(&self.followers, &mut self.screen, board, line, gone);
                }
                Action::Hall(_) => {}
            }
        }
        self.release_held();
    }

    /// Once the player has left an ended game, its tile shows what plays
    /// there now.
    fn release_held(&mut self) {
        let opened = self.screen.opened();
        let Some(Held { board, newer, .. }) = self.held.take_if(|held| opened != Some(held.board))
        else {
            return;
        };
        self.screen.forget(board);
        match newer {
            Some(game) => show_board(&mut self.view, &mut self.screen, board, game),
            None if !self.view.picture.boards.iter().any(|b| b.board == board) => {
                self.view.games.remove(&board);
            }
            None => {}
        }
    }

    /// The terminal went away and the runner plays on: nothing is drawn or
    /// read any more, and no game followed.
    fn detach<K>(&mut self, screen: &mut Option<Screen>, keys: &mut Option<K>) {
        if screen.take().is_some() {
            tracing::warn!("the terminal went away: playing on without a screen until SIGTERM");
        }
        *keys = None;
        self.followers.clear();
        self.detached = true;
    }

    /// The player leaves: the runner stops, the games play on.
    fn leave(&mut self, why: &str) {
        self.leaving = true;
        *self.stop.lock().unwrap_or_else(|e| e.into_inner()) = Some(why.to_string());
        self.followers.clear();
    }
}
