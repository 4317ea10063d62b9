//! The one loop of every screen of followed boards (the event's hall, a
//! match's screen, a worker's): the runner on a thread of its own with the
//! screen as its desk, and the loop that waits on the runner's notes, the
//! boards' notes from their followers, the hall's news from the mirror,
//! the keys, the signals and the next frame, drawing with the [`Pacer`].
//!
//! What differs between the screens is their state ([`ScreenState`]):
//! what a picture, a line, a board's note or a key does, what leaving and
//! a lost terminal do, and whether the runner's end closes the screen at
//! once or waits for its player to leave. What a hangup does is the
//! screen's [`Hangup`]. Headless ([`Shown::Headless`]), the loop draws
//! nothing and reads no key: the runner says and asks on the terminal, and
//! its pictures come here for the spectators alone.

use std::sync::{mpsc as std_mpsc, Arc, Mutex};
use std::time::Duration;

use tokio::sync::mpsc;

use crate::app::hall_screen::HallScreen;
use crate::app::input::spawn_reader;
use crate::app::terminal::Screen;
use crate::mirror::server::HallNews;
use crate::shell_time::next_from;
use crate::signals::{Received, Signals};
use crate::ui::hall::HallView;
use crate::ui::keys::Key;
use crate::ui::Theme;

use super::desk::{Asked, Desk, Terminal};
use super::follower::BoardNote;
use super::frame::{terminal_key, Pacer};

/// Where the followers of a screen's boards send their notes.
pub(crate) type BoardNotes = mpsc::UnboundedSender<(u32, BoardNote)>;

/// What a runner does when its terminal goes away.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Hangup {
    /// It stops, as on `q`.
    Stops,
    /// It goes on without a screen until Ctrl-C or SIGTERM.
    PlaysOn,
}

/// How the screen is shown.
pub(crate) enum Shown {
    /// On the terminal, drawn in `theme`, its keys read and the signals
    /// caught; `hangup` says what a terminal that goes away does.
    OnTerminal { theme: Box<Theme>, hangup: Hangup },
    /// On no terminal: the runner's desk is the terminal's, its pictures
    /// shown here too.
    Headless,
}

/// Why the screen's player leaves, stopping the runner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Leaving {
    /// `q`.
    Quit,
    /// Ctrl-C, or SIGQUIT.
    Interrupted,
    /// SIGTERM.
    Terminated,
    /// SIGHUP.
    HungUp,
    /// The terminal could not be drawn on any more.
    TerminalLost,
}

impl Leaving {
    /// The reason the runner's desk gives it.
    pub(crate) fn reason(self) -> &'static str {
        match self {
            Leaving::Quit => "the screen was left with q",
            Leaving::Interrupted => "goref received SIGINT (Ctrl-C)",
            Leaving::Terminated => "goref received SIGTERM",
            Leaving::HungUp => "the terminal hung up",
            Leaving::TerminalLost => "the terminal went away",
        }
    }

    /// The signal it stands for (0: the player left).
    pub(crate) fn signal(self) -> libc::c_int {
        match self {
            Leaving::Quit => 0,
            Leaving::Interrupted => libc::SIGINT,
            Leaving::Terminated => libc::SIGTERM,
            Leaving::HungUp | Leaving::TerminalLost => libc::SIGHUP,
        }
    }
}

/// What the screen does on a signal, or on a lost terminal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Turn {
    Leave(Leaving),
    /// The runner plays on without a screen.
    Detach,
}

/// What the screen does on `received`.
fn on_signal(received: Received, hangup: Hangup) -> Turn {
    match received {
        Received::Stop("SIGTERM") => Turn::Leave(Leaving::Terminated),
        Received::Stop(_) => Turn::Leave(Leaving::Interrupted),
        Received::Hangup => on_hangup(hangup, Leaving::HungUp),
    }
}

/// What the screen does when its terminal goes away (`why`).
fn on_hangup(hangup: Hangup, why: Leaving) -> Turn {
    match hangup {
        Hangup::Stops => Turn::Leave(why),
        Hangup::PlaysOn => Turn::Detach,
    }
}

/// What a key told the runner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Told {
    /// The answer to the runner's question.
    Answer(String),
    /// The player leaves.
    Leave,
}

/// A screen's own state.
pub(crate) trait ScreenState {
    /// The runner's picture.
    type Picture: Send + 'static;
    /// How the runner ends.
    type End: Send + 'static;
    /// What is drawn: the screen and its view.
    fn drawn(&mut self) -> (&mut HallScreen, &HallView);
    /// A line of the runner's.
    fn said(&mut self, line: String);
    /// A new picture of the runner's; boards followed send to `boards`.
    fn picture(&mut self, picture: Self::Picture, boards: &BoardNotes);
    /// A followed board's note.
    fn board_note(&mut self, board: u32, note: BoardNote);
    /// A key: what it tells the runner, if anything.
    fn key(&mut self, key: Key) -> Vec<Told>;
    /// The mirror's news of the hall it serves.
    fn hall_news(&mut self, _news: HallNews) {}
    /// The player leaves: the runner is told to stop.
    fn leave(&mut self, why: Leaving);
    /// The terminal went away and the runner plays on.
    fn detach(&mut self) {}
    /// The runner ended with `end`.
    fn ended(&mut self, end: &Self::End);
    /// Whether the screen closes at once on `end`, its player not waited
    /// for.
    fn closes_on(&self, end: &Self::End) -> bool;
    /// The end of a runner that went away without one.
    fn went_away(&self) -> Self::End;
}

/// What the runner tells the screen.
enum RunnerNote<P, End> {
    Said(String),
    Picture(Box<P>),
    Ended(End),
}

/// The screen as the runner's desk: lines and pictures go to the screen;
/// the answers to its questions and the reason to stop come back.
struct ScreenDesk<P, End> {
    notes: mpsc::UnboundedSender<RunnerNote<P, End>>,
    answers: Mutex<std_mpsc::Receiver<String>>,
    stop: Arc<Mutex<Option<String>>>,
}

impl<P: Send, End: Send> Desk<P> for ScreenDesk<P, End> {
    fn say(&self, line: String) {
        let _ = self.notes.send(RunnerNote::Said(line));
    }

    fn standings(&self, _lines: Vec<String>) {}

    fn wants_pictures(&self) -> bool {
        true
    }

    fn show(&self, picture: P) {
        let _ = self.notes.send(RunnerNote::Picture(Box::new(picture)));
    }

    fn stop_asked(&self) -> Option<String> {
        self.stop.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    fn ask(&self, _shown: Vec<String>) -> Option<String> {
        let answers = self.answers.lock().unwrap_or_else(|e| e.into_inner());
        answers.recv().ok()
    }

    fn ask_within(&self, _shown: Vec<String>, wait: Duration) -> Asked {
        let answers = self.answers.lock().unwrap_or_else(|e| e.into_inner());
        match answers.recv_timeout(wait) {
            Ok(answer) => Asked::Answer(answer),
            Err(std_mpsc::RecvTimeoutError::Timeout) => Asked::NotYet,
            Err(std_mpsc::RecvTimeoutError::Disconnected) => Asked::Quit,
        }
    }
}

/// The headless runner's desk when its screen is served: the terminal's
/// lines, prompt and signals, and the pictures for the screen.
struct ServedDesk<P, End> {
    notes: mpsc::UnboundedSender<RunnerNote<P, End>>,
}

impl<P: Send, End: Send> Desk<P> for ServedDesk<P, End> {
    fn say(&self, line: String) {
        Desk::<P>::say(&Terminal, line);
    }

    fn wants_pictures(&self) -> bool {
        true
    }

    fn show(&self, picture: P) {
        let _ = self.notes.send(RunnerNote::Picture(Box::new(picture)));
    }

    fn stop_asked(&self) -> Option<String> {
        Desk::<P>::stop_asked(&Terminal)
    }

    fn ask(&self, shown: Vec<String>) -> Option<String> {
        Desk::<P>::ask(&Terminal, shown)
    }
}

/// The screen's side of the runner's desk.
struct Counter {
    answers: Option<std_mpsc::Sender<String>>,
    stop: Arc<Mutex<Option<String>>>,
    /// The player left: the runner is stopping.
    leaving: bool,
}

impl Counter {
    fn answer(&self, line: String) {
        if let Some(answers) = &self.answers {
            let _ = answers.send(line);
        }
    }

    /// The runner is told to stop, and asked nothing more.
    fn leave(&mut self, why: Leaving) {
        self.leaving = true;
        *self.stop.lock().unwrap_or_else(|e| e.into_inner()) = Some(why.reason().to_string());
        self.answers = None;
    }
}

/// Runs `runner` on a thread named `name` with the screen as its desk, and
/// the screen of `state` until the runner ends and the player leaves (or
/// the end closes the screen), or the player stops the runner; the
/// runner's end. `news` is the mirror's, when the screen is served.
pub(crate) async fn run<S: ScreenState>(
    state: &mut S,
    shown: Shown,
    name: &str,
    mut news: Option<mpsc::UnboundedReceiver<HallNews>>,
    runner: impl FnOnce(Box<dyn Desk<S::Picture>>) -> S::End + Send + 'static,
) -> Result<S::End, String> {
    let (notes_tx, mut notes) = mpsc::unbounded_channel();
    let (answers_tx, answers) = std_mpsc::channel();
    let stop = Arc::new(Mutex::new(None));
    let desk: Box<dyn Desk<S::Picture>> = match shown {
        Shown::OnTerminal { .. } => Box::new(ScreenDesk {
            notes: notes_tx.clone(),
            answers: Mutex::new(answers),
            stop: Arc::clone(&stop),
        }),
        Shown::Headless => Box::new(ServedDesk {
            notes: notes_tx.clone(),
        }),
    };
    std::thread::Builder::new()
        .name(name.into())
        .spawn(move || {
            let end = runner(desk);
            let _ = notes_tx.send(RunnerNote::Ended(end));
        })
        .map_err(|e| format!("cannot start the {name}: {e}"))?;
    let (theme, hangup, mut signals, mut screen, mut keys) = match shown {
        Shown::OnTerminal { theme, hangup } => {
            let signals = Signals::install().map_err(|e| format!("cannot catch signals: {e}"))?;
            let screen = Screen::enter().map_err(|e| format!("cannot take the terminal: {e}"))?;
            let keys = spawn_reader();
            (*theme, hangup, Some(signals), Some(screen), Some(keys))
        }
        Shown::Headless => (Theme::default(), Hangup::Stops, None, None, None),
    };
    let mut counter = Counter {
        answers: Some(answers_tx),
        stop,
        leaving: false,
    };
    let (board_tx, mut board_notes) = mpsc::unbounded_channel();
    let mut pacer = Pacer::new();
    let mut runner_gone = false;
    let mut ended: Option<S::End> = None;
    loop {
        if let Some(terminal) = screen.as_mut() {
            let (hall, view) = state.drawn();
            pacer.draw(hall, terminal, view, &theme);
            if terminal.is_lost() && !counter.leaving {
                match on_hangup(hangup, Leaving::TerminalLost) {
                    Turn::Leave(why) => leave(state, &mut counter, why),
                    Turn::Detach => detach(state, &mut screen, &mut keys),
                }
            }
        }
        if let Some(end) = &ended {
            if counter.leaving || state.closes_on(end) {
                break;
            }
        }
        let wake = match screen {
            Some(_) => {
                let (hall, view) = state.drawn();
                pacer.wake(hall, view)
            }
            None => tokio::time::Instant::now() + Duration::from_secs(3600),
        };
        tokio::select! {
            note = notes.recv(), if !runner_gone => match note {
                Some(RunnerNote::Said(line)) => state.said(line),
                Some(RunnerNote::Picture(picture)) => state.picture(*picture, &board_tx),
                Some(RunnerNote::Ended(end)) => {
                    state.ended(&end);
                    ended = Some(end);
                }
                None => {
                    runner_gone = true;
                    if ended.is_none() {
                        ended = Some(state.went_away());
                    }
                }
            },
            Some((board, note)) = board_notes.recv() => state.board_note(board, note),
            Some(news) = next_from(&mut news) => state.hall_news(news),
            input = next_from(&mut keys) => {
                let key = match screen.as_mut() {
                    Some(terminal) => terminal_key(input, terminal, &mut keys),
                    None => None,
                };
                for told in key.map(|key| state.key(key)).unwrap_or_default() {
                    match told {
                        Told::Answer(line) => counter.answer(line),
                        Told::Leave => leave(state, &mut counter, Leaving::Quit),
                    }
                }
            }
            signal = next_signal(&mut signals) => match on_signal(signal, hangup) {
                Turn::Leave(why) => leave(state, &mut counter, why),
                Turn::Detach => detach(state, &mut screen, &mut keys),
            },
            _ = tokio::time::sleep_until(wake) => {}
        }
        pacer.touch();
    }
    drop(screen);
    Ok(ended.unwrap_or_else(|| state.went_away()))
}

/// The player leaves: the runner is told why, and the state leaves.
fn leave<S: ScreenState>(state: &mut S, counter: &mut Counter, why: Leaving) {
    counter.leave(why);
    state.leave(why);
}

/// The terminal went away and the runner plays on: nothing is drawn or
/// read any more.
fn detach<S: ScreenState, K>(state: &mut S, screen: &mut Option<Screen>, keys: &mut Option<K>) {
    if screen.take().is_some() {
        tracing::warn!("the terminal went away: playing on without a screen until SIGTERM");
    }
    *keys = None;
    state.detach();
}

/// The next signal, when the screen catches them; else never.
async fn next_signal(signals: &mut Option<Signals>) -> Received {
    match signals {
        Some(signals) => signals.next().await,
        None => std::future::pending().await,
    }
}

#[cfg(test)]
mod tests;
