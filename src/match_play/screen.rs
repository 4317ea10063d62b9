//! A match on a terminal, or a worker's slots: the hall's tiles for the games in
//! play, the figures and the plots of the LLR and of Elo under them
//! ([`crate::ui::hall::MatchPanel`]), the runner's newest line, and the
//! hall's keys: a game opened on the whole screen takes the operator's
//! keys of `goref attach`, `s` shows every figure.
//!
//! The runner plays the match on a thread of its own, as it does headless,
//! and hands this screen a picture after each change (the loop is
//! `crate::hall::screen`'s; this room is the state it draws). `q`, Ctrl-C,
//! SIGTERM or a terminal that goes away stop the runner and leave the
//! games playing, each in its own goref; the next `goref match DIR`
//! follows them again. Once the match is over its figures stay on the
//! screen until `q`.
//!
//! `goref match DIR` shows its match on it
//! (`crate::engine_match::screen`), and `goref worker` its slots.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use crate::app::hall_screen::{Action, HallScreen};
use crate::app::ScreenOptions;
use crate::hall::desk::Desk;
use crate::hall::follower::{BoardNote, Follower};
use crate::hall::frame::{keep_line, send_to_board, show_board};
use crate::hall::screen::{self, BoardNotes, Hangup, Leaving, ScreenState, Shown, Told};
use crate::mirror::follow::Target;
use crate::ui::hall::keys::HallEffect;
use crate::ui::hall::{BoardGame, HallKind, HallView};
use crate::ui::keys::Key;
use crate::ui::Role;
use goref_core::tournament::hall::BoardPicture;

use super::picture::MatchPicture;

/// Runs `runner` on a thread of its own with this screen as its desk, until
/// it ends and the player leaves (saying `over` when it ends well), or the
/// player stops it; folders' sockets in its pictures are relative to `dir`.
pub(crate) async fn run_on_screen<R, E>(
    dir: &Path,
    screen_options: ScreenOptions,
    over: &str,
    hangup: Hangup,
    runner: impl FnOnce(Box<dyn Desk<MatchPicture>>) -> Result<R, E> + Send + 'static,
) -> Result<R, E>
where
    R: Send + 'static,
    E: From<String> + Send + 'static,
{
    let mut shown = MatchScreen {
        dir: dir.to_path_buf(),
        view: HallView::default(),
        screen: HallScreen::new(Role::Operator, screen_options.keys.clone()),
        followers: HashMap::new(),
        reached: HashSet::new(),
        held: None,
        over: over.to_string(),
        detached: false,
        end: PhantomData,
    };
    shown.screen.state.director = false;
    let theme = Box::new(screen_options.theme);
    let on_terminal = Shown::OnTerminal { theme, hangup };
    screen::run(&mut shown, on_terminal, "runner", None, runner)
        .await
        .unwrap_or_else(|why| Err(E::from(why)))
}

/// An ended game kept open: its tile as it was, and the newest view of
/// the game that plays on its tile now, shown once the player leaves.
struct Held {
    board: u32,
    tile: Option<BoardPicture>,
    newer: Option<BoardGame>,
}

/// The screen's state: the view drawn and the games followed, for a
/// runner that ends with `Result<R, E>`.
struct MatchScreen<R, E> {
    dir: PathBuf,
    view: HallView,
    screen: HallScreen,
    followers: HashMap<u32, Follower>,
    /// The games whose goref the screen has reached: a game's trouble is
    /// shown once it has been, not while its goref is still starting,
    /// unless the game is stale (its goref never heard for long).
    reached: HashSet<u32>,
    /// A game opened on the whole screen that ended, kept on its result
    /// until the player leaves it.
    held: Option<Held>,
    /// What the screen says when the runner ends well.
    over: String,
    /// The terminal went away and the runner plays on.
    detached: bool,
    end: PhantomData<fn() -> Result<R, E>>,
}

impl<R, E> ScreenState for MatchScreen<R, E>
where
    R: Send + 'static,
    E: From<String> + Send + 'static,
{
    type Picture = MatchPicture;
    type End = Result<R, E>;

    fn drawn(&mut self) -> (&mut HallScreen, &HallView) {
        (&mut self.screen, &self.view)
    }

    fn said(&mut self, line: String) {
        if self.detached {
            tracing::info!("{line}");
        }
        keep_line(&mut self.view, line);
    }

    /// A new picture: games newly in play are followed, those ended are
    /// dropped with their tiles.
    fn picture(&mut self, picture: MatchPicture, notes: &BoardNotes) {
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
                stale,
            } => {
                if !self.followers.contains_key(&board) {
                    return;
                }
                if trouble.is_none() {
                    self.reached.insert(board);
                }
                let shown = self.reached.contains(&board) || stale;
                let game = BoardGame {
                    view,
                    clock,
                    trouble: trouble.filter(|_| shown),
                    stale,
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

    fn key(&mut self, key: Key) -> Vec<Told> {
        let mut told = Vec::new();
        for action in self.screen.key(&self.view, key) {
            match action {
                Action::Hall(HallEffect::Quit) => told.push(Told::Leave),
                Action::Board { board, line } => {
                    let gone = "the game is over";
                    send_to_board(&self.followers, &mut self.screen, board, line, gone);
                }
                Action::Hall(_) => {}
            }
        }
        self.release_held();
        told
    }

    /// The player leaves: the runner stops, the games play on.
    fn leave(&mut self, _why: Leaving) {
        self.followers.clear();
    }

    /// The terminal went away and the runner plays on: no game is followed
    /// any more.
    fn detach(&mut self) {
        self.followers.clear();
        self.detached = true;
    }

    fn ended(&mut self, end: &Result<R, E>) {
        if end.is_ok() {
            let over = self.over.clone();
            self.said(over);
        }
    }

    fn closes_on(&self, end: &Result<R, E>) -> bool {
        end.is_err()
    }

    fn went_away(&self) -> Result<R, E> {
        Err(E::from("the runner went away".to_string()))
    }
}

impl<R, E> MatchScreen<R, E> {
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
}
