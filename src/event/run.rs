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
//! The decisions are the sans-IO core's (`event::runner`): this shell
//! opens the journal and the seats' relay, then carries out what the core
//! asks (records, folder looks, boards started, games voided, the
//! director asked, the desk told) and hands it what happened (board news,
//! the seats, a stop asked, the time).

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::file::{self, EventFile};
use super::html;
use super::log::{EventLog, EVENT_LOG};
use super::runner::{Action, EventRunner, Now, Settings};
use super::state::EventState;
use crate::boards::{BoardNews, BoardRun};
use crate::console;
use crate::files::FileLock;
use crate::hall::desk::{Desk, Terminal};
use crate::seats::relay::RelayServer;
use crate::signals::{catch_stop_signals, stop_asked};
use goref_core::tournament::hall::EventPicture;

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

/// Why an entrant's player cannot start here, when that can be told now.
fn entrant_problem(player: &str) -> Option<String> {
    let spec = player.parse::<crate::players::PlayerSpec>().ok()?;
    crate::players::program_problem(&spec)
}

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
    let goref_seats = !super::seated(&file).is_empty() && file.seats.listen.is_some();
    let cgos_seats = !super::cgos_entrants(&file).is_empty() && file.seats.cgos.is_some();
    let relay = match goref_seats || cgos_seats {
        true => {
            let keys = super::seat_keys(dir, &file)?;
            let cards = crate::seats::keeper::Cards {
                checker: super::seat_check::seat_checker(&file, &exe)?,
                folder: keys.folder.clone(),
            };
            let cgos = match (cgos_seats, &file.seats.cgos) {
                (true, Some(listen)) => Some(crate::seats::relay::CgosSettings {
                    listen: listen.clone(),
                    passwords: super::cgos_passwords(dir, &file)?,
                    door: file.seats.door(),
                }),
                _ => None,
            };
            let settings = crate::seats::relay::RelaySettings {
                listen: file.seats.listen.clone().filter(|_| goref_seats),
                cgos,
                name: file.name.clone(),
                asks_stderr: file.seats.stderr,
                cards: Some(cards),
            };
            let server = RelayServer::start(keys, settings)?;
            tracing::info!(address = ?server.address, cgos = ?server.cgos_address, "listening for seats");
            Some(server)
        }
        false => None,
    };
    let settings = Settings {
        dir: dir.to_path_buf(),
        yes: options.yes,
        json: options.json,
        wants_pictures: desk.wants_pictures(),
        seats: relay.is_some(),
        pid: std::process::id(),
    };
    let (news_tx, news) = mpsc::channel();
    let mut runner = Runner {
        dir: dir.to_path_buf(),
        log,
        json: options.json,
        exe,
        news_tx,
        news,
        desk,
        relay,
        core: EventRunner::new(settings, file, lines, now()),
    };
    runner.drive()
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

/// The clocks, read.
fn now() -> Now {
    Now {
        at: Instant::now(),
        unix_ms: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64),
    }
}

struct Runner {
    dir: PathBuf,
    log: EventLog,
    json: bool,
    exe: PathBuf,
    news_tx: mpsc::Sender<BoardNews>,
    news: mpsc::Receiver<BoardNews>,
    desk: Box<dyn Desk<EventPicture>>,
    /// The venue's relay of the seated entrants, if they have seats.
    relay: Option<RelayServer>,
    core: EventRunner,
}

impl Runner {
    /// Carries out what the core asks and hands it what happens, until it
    /// ends.
    fn drive(&mut self) -> Result<EventEnd, String> {
        loop {
            if let Some(end) = self.carry_out() {
                return end;
            }
            self.refresh();
            let started = Instant::now();
            let Some(due) = self.core.poll_timeout() else {
                unreachable!("the core always waits for something until it is over")
            };
            if due <= started {
                self.core.handle_timeout(now());
            } else if self.core.listens() {
                match self.news.recv_timeout(due - started) {
                    Ok(news) => self.core.handle_board_news(news, now()),
                    Err(mpsc::RecvTimeoutError::Timeout) => self.core.handle_timeout(now()),
                    Err(mpsc::RecvTimeoutError::Disconnected) => {
                        unreachable!("the event holds a sender")
                    }
                }
            } else {
                std::thread::sleep(due - started);
                self.core.handle_timeout(now());
            }
        }
    }

    /// Does what the core asks until it asks nothing more; how the event
    /// ended, once it has.
    fn carry_out(&mut self) -> Option<Result<EventEnd, String>> {
        while let Some(action) = self.core.poll_action() {
            match action {
                Action::Finished { standings_html } => {
                    return Some(Ok(EventEnd::Finished { standings_html }))
                }
                Action::Stopped(why) => return Some(Ok(EventEnd::Stopped(why))),
                Action::Failed(why) => return Some(Err(why)),
                action => {
                    if let Err(why) = self.carry_out_one(action) {
                        self.core.handle_failed(why);
                    }
                }
            }
        }
        None
    }

    fn carry_out_one(&mut self, action: Action) -> Result<(), String> {
        match action {
            Action::Say(line) => self.desk.say(line),
            Action::Print(line) => drop(console::out(line)),
            Action::Standings(lines) => self.desk.standings(lines),
            Action::Show(picture) => self.desk.show(*picture),
            Action::Record {
                line,
                print,
                progress,
            } => {
                let text = self.log.append(&line).map_err(|e| e.to_string())?;
                if print {
                    console::out(&text);
                }
                if let Some(progress) = progress {
                    self.desk.say(progress);
                }
                let new = self.log.read_new().map_err(|e| e.to_string())?;
                self.refresh();
                self.core.handle_journal(new);
            }
            Action::ReadJournal => {
                let new = self.log.read_new().map_err(|e| e.to_string())?;
                self.refresh();
                self.core.handle_journal(new);
            }
            Action::Look { round, board, dir } => {
                let folder = crate::boards::folder_state(&self.dir.join(dir));
                self.refresh();
                self.core.handle_folder(round, board, folder);
            }
            Action::CheckPrograms(players) => {
                let problems = players.iter().map(|p| entrant_problem(p)).collect();
                self.refresh();
                self.core.handle_programs(problems);
            }
            Action::Spawn {
                round,
                board,
                dir,
                game_file,
                resume,
                entrants,
            } => {
                let pid = self.spawn(round, board, &dir, game_file, resume, entrants)?;
                self.refresh();
                self.core.handle_spawned(round, board, pid);
            }
            Action::Void { dir, why } => {
                let voided = crate::boards::void_game(&self.dir.join(dir), &why);
                self.refresh();
                self.core.handle_voided(voided);
            }
            Action::Signal { dir, pid, signal } => {
                crate::boards::signal(&self.dir.join(dir), pid, signal)
            }
            Action::Playing(folders) => {
                if let Some(relay) = &self.relay {
                    *relay.playing.lock().expect("playing boards") = folders
                        .into_iter()
                        .map(|(entrant, folder)| (entrant, self.dir.join(folder)))
                        .collect();
                }
            }
            Action::WritePage(text) => {
                let path = self.dir.join(html::STANDINGS_PAGE);
                crate::files::write_output(&path, &text, crate::files::Holds::Page)
                    .map_err(|e| e.to_string())?;
            }
            Action::Ask(shown) => {
                let answer = self.desk.ask_within(shown, ASK_REFRESH);
                self.refresh();
                self.core.handle_answer(answer);
            }
            Action::Farewell(reason) => {
                if let Some(relay) = &self.relay {
                    relay.farewell(&reason);
                }
            }
            Action::Finished { .. } | Action::Stopped(_) | Action::Failed(_) => {}
        }
        Ok(())
    }

    /// Writes the board's game file (unless its game is resumed), tells
    /// the relay where its entrants play, and starts its goref: its pid.
    fn spawn(
        &mut self,
        round: u32,
        board: u32,
        relative: &str,
        game_file: Option<String>,
        resume: bool,
        entrants: [String; 2],
    ) -> Result<u32, String> {
        let dir = self.dir.join(relative);
        let config = dir.with_extension("toml");
        if let Some(text) = game_file {
            std::fs::create_dir_all(config.parent().expect("a board folder has a parent"))
                .and_then(|()| crate::files::write_atomically(&config, &text))
                .map_err(|e| format!("cannot write {}: {e}", config.display()))?;
        }
        let run = BoardRun {
            round,
            board,
            dir,
            config,
            resume,
            seat_relay: self.relay.as_ref().map(|relay| relay.socket.clone()),
        };
        if let Some(relay) = &self.relay {
            let mut playing = relay.playing.lock().expect("playing boards");
            for entrant in entrants {
                playing.insert(entrant, run.dir.clone());
            }
        }
        crate::boards::start(&self.exe, &run, self.json, self.news_tx.clone())
            .map_err(|e| format!("cannot start goref for board {board}: {e}"))
    }

    /// Hands the core what may have changed since it last heard: a stop
    /// asked, and the seats as the relay keeps them.
    fn refresh(&mut self) {
        if let Some(signal) = stop_asked() {
            self.core.handle_stop_asked(signal);
        }
        if let Some(relay) = &self.relay {
            let seats = relay
                .seats
                .lock()
                .expect("seat board")
                .values()
                .cloned()
                .collect();
            self.core.handle_seats(seats);
        }
    }
}
