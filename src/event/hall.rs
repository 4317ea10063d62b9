//! `goref event DIR` on a terminal: the hall. The async shell around the
//! event runner and the hall's screen ([`crate::ui::hall`]).
//!
//! The runner plays the rounds on a thread of its own, as it does headless,
//! and tells the hall through its desk (the loop is `crate::hall::screen`'s;
//! this room is the state it draws): each picture of the event, each line
//! it would print, and the pairing it asks the director about (the hall
//! answers with the prompt's own words). Each board of the round is
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
use std::sync::Arc;

use crate::app::hall_screen::{Action, HallScreen};
use crate::app::ScreenOptions;
use crate::event::run::{run_at, EventEnd, EventOptions};
use crate::hall::desk::{Desk, Terminal};
use crate::hall::follower::{BoardNote, Follower};
use crate::hall::frame::{keep_line, send_to_board, show_board};
use crate::hall::screen::{self, BoardNotes, Hangup, Leaving, ScreenState, Shown, Told};
use crate::journal::folder::JOURNAL;
use crate::mirror::hall_hub::HallItem;
use crate::mirror::server::{HallFeed, HallNews, MirrorServer};
use crate::ui::hall::keys::HallEffect;
use crate::ui::hall::{BoardGame, HallView};
use crate::ui::keys::Key;
use crate::ui::Role;
use goref_core::referee::GameView;
use goref_core::tournament::hall::EventPicture;

/// What the event's runner ended with.
type Ended = Result<EventEnd, String>;

/// Runs the event in `dir` on a thread of its own at the desk `screen::run`
/// makes, with `signals` (see `run_at`).
fn runner(
    dir: &Path,
    options: &EventOptions,
    signals: bool,
) -> impl FnOnce(Box<dyn Desk<EventPicture>>) -> Ended + Send + 'static {
    let (dir, options) = (dir.to_path_buf(), options.clone());
    move |desk| run_at(&dir, &options, desk, signals)
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
    let (relay, mirror_news) = mirror.attach_hall();
    let mut hall = Hall {
        dir: dir.to_path_buf(),
        view: HallView::default(),
        screen: HallScreen::new(Role::Operator, Default::default()),
        followers: HashMap::new(),
        relay: Some(relay),
        headless: true,
    };
    let runner = runner(dir, options, true);
    screen::run(
        &mut hall,
        Shown::Headless,
        "event",
        Some(mirror_news),
        runner,
    )
    .await?
}

/// Runs the event in `dir` with the hall on the terminal until the event
/// is over and the director leaves, or the director stops it.
pub async fn run(
    dir: &Path,
    options: &EventOptions,
    screen_options: ScreenOptions,
    mirror: Option<&MirrorServer>,
) -> Result<EventEnd, String> {
    let (relay, mirror_news) = match mirror.map(MirrorServer::attach_hall) {
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
        followers: HashMap::new(),
        relay,
        headless: false,
    };
    let shown = Shown::OnTerminal {
        theme: Box::new(screen_options.theme),
        hangup: Hangup::Stops,
    };
    let runner = runner(dir, options, false);
    screen::run(&mut hall, shown, "event", mirror_news, runner).await?
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

/// The director's hall: the view, the screen and the boards followed.
struct Hall {
    dir: PathBuf,
    view: HallView,
    screen: HallScreen,
    followers: HashMap<u32, Follower>,
    /// Where the hall is served to spectators, with `--serve`.
    relay: Option<HallFeed>,
    /// Served only, drawn on no terminal: the runner's lines and prompt
    /// are the terminal's.
    headless: bool,
}

impl ScreenState for Hall {
    type Picture = EventPicture;
    type End = Ended;

    fn drawn(&mut self) -> (&mut HallScreen, &HallView) {
        (&mut self.screen, &self.view)
    }

    fn said(&mut self, line: String) {
        keep_line(&mut self.view, line);
    }

    /// A new picture of the event: the boards of a new round are
    /// followed, those of a round gone are dropped.
    fn picture(&mut self, picture: EventPicture, notes: &BoardNotes) {
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
                ..BoardGame::default()
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
                stale,
            } => {
                let game = BoardGame {
                    view,
                    clock,
                    trouble,
                    stale,
                };
                show_board(&mut self.view, &mut self.screen, board, game);
            }
            BoardNote::Refused(why) => self.screen.tell_board(board, why),
            BoardNote::Gone(why) => {
                self.followers.remove(&board);
                if let Some(game) = self.view.games.get_mut(&board) {
                    if game.view.result.is_none() {
                        game.trouble = Some(why);
                        game.stale = false;
                    }
                }
            }
        }
    }

    fn key(&mut self, key: Key) -> Vec<Told> {
        let mut told = Vec::new();
        for action in self.screen.key(&self.view, key) {
            match action {
                Action::Hall(HallEffect::Quit) => told.push(Told::Leave),
                Action::Hall(HallEffect::Answer(line)) => told.push(Told::Answer(line)),
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
        told
    }

    fn hall_news(&mut self, news: HallNews) {
        match news {
            HallNews::Said(news) if self.headless => {
                Desk::<EventPicture>::say(&Terminal, format!("goref: {news}"));
            }
            HallNews::Said(news) => self.said(news),
            HallNews::Audience(count) => self.view.watching = Some(count),
        }
    }

    /// The director leaves (or the terminal went): the runner stops, the
    /// boards play on.
    fn leave(&mut self, why: Leaving) {
        crate::signals::stop(why.signal());
        self.followers.clear();
    }

    fn ended(&mut self, end: &Ended) {
        if let (Err(why), false) = (end, self.headless) {
            self.said(format!("goref: {why}"));
        }
    }

    fn closes_on(&self, end: &Ended) -> bool {
        self.headless || !matches!(end, Ok(EventEnd::Finished { .. }))
    }

    fn went_away(&self) -> Ended {
        Err("the event's runner went away".into())
    }
}

impl Hall {
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
}
