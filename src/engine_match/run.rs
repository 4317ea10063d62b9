//! `goref match DIR`: the pairs played, `boards` games at once, each its
//! own goref process in its own folder (as an event's boards), until the
//! stop rule says so; the figures after each finished game. Everything is
//! decided from the folders, so that a run killed and started again plays
//! no game twice: a finished game keeps its result, a game under way is
//! resumed, a void or crashed game is played again in a folder of its own.
//! A hangup (a dropped SSH session) is ignored; Ctrl-C or SIGTERM stops the
//! match and leaves its games playing, each in its own goref.
//!
//! The decisions are the core's (`goref_core::matches::local_runner`):
//! this shell reads the folders back, starts the gorefs, counts the games
//! into the tally, and says and shows what the core asks.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::boards::{self, BoardNews, BoardRun, FolderState};
use crate::check::plural;
use crate::console;
use goref_core::game::Color;
use goref_core::matches::local_runner::{
    Action, Failure, FolderLook, FolderRead, GameEnd, LocalRunner, PairGame,
};

use crate::hall::desk::{Desk, Terminal};
use crate::match_play::desk::Heeded;
pub(crate) use crate::match_play::desk::{MatchError, MatchOptions};
use crate::match_play::file::{self, MatchFile};
use crate::match_play::games::GamesFolder;
use crate::match_play::kept::{self, KeptPrograms, NotReady};
use crate::match_play::picture::{picture, GameInPlay, MatchPicture};
use crate::match_play::plan::{load_openings, GameSlot, Plan};
use crate::match_play::tally::{self, count, Counted, FolderResult, MatchFigures, Tally};

/// How often the runner looks again when nothing happens.
const TICK: Duration = Duration::from_millis(250);
/// The match's file of the games whose line a runner has said, a folder's
/// name a line.
pub(crate) const TOLD: &str = "told.txt";

/// Plays the match in `dir` headless until its stop rule is met; its
/// figures.
pub(crate) fn run(dir: &Path, options: &MatchOptions) -> Result<MatchFigures, MatchError> {
    crate::signals::catch_stop_signals(true);
    run_at(dir, options, Box::new(Terminal))
}

/// Plays the match in `dir` at `desk`.
pub(crate) fn run_at(
    dir: &Path,
    options: &MatchOptions,
    desk: Box<dyn Desk<MatchPicture>>,
) -> Result<MatchFigures, MatchError> {
    let (desk, told) = Heeded::new(desk);
    let end = play_at(dir, options, Box::new(desk));
    Heeded::ended(&told, end)
}

fn play_at(
    dir: &Path,
    options: &MatchOptions,
    desk: Box<dyn Desk<MatchPicture>>,
) -> Result<MatchFigures, String> {
    if let Some(link) = &options.workers {
        return super::remote::run_at(dir, options, desk, link);
    }
    let file = file::load(dir).map_err(|e| e.to_string())?;
    let _claim = file::claim(dir)?;
    let openings = load_openings(&file)?;
    let exe = std::env::current_exe().map_err(|e| format!("cannot find goref itself: {e}"))?;
    let games = GamesFolder::of(dir);
    let mut kept = KeptPrograms::start(dir, &file, &exe)?;
    if !games.begun() {
        desk.say("goref: checking the engines before the first game".into());
        let stop_asked = || desk.stop_asked();
        let say = |line| desk.say(line);
        super::precheck::check_engines(dir, &file, &exe, kept.as_ref(), &stop_asked, &say)?;
    }
    let relay = kept.as_mut().map(KeptPrograms::serve).transpose()?;
    let plan = Plan::new(&file, openings);
    let (news_tx, news) = mpsc::channel();
    let tally = Tally::from_folders(dir, &file);
    let mut runner = Runner {
        dir: dir.to_path_buf(),
        games,
        figures: tally.figures(&file),
        tally,
        core: LocalRunner::new(file.boards as usize, Instant::now()),
        file,
        plan,
        exe,
        news_tx,
        news,
        options: options.clone(),
        desk,
        kept,
        relay,
        board_of: BTreeMap::new(),
    };
    runner.take_back();
    runner.go()
}

struct Runner {
    dir: PathBuf,
    games: GamesFolder,
    file: MatchFile,
    plan: Plan,
    /// Every game ended, counted as it ended.
    tally: Tally,
    /// The figures as of the last game told.
    figures: MatchFigures,
    core: LocalRunner,
    exe: PathBuf,
    news_tx: mpsc::Sender<BoardNews>,
    news: mpsc::Receiver<BoardNews>,
    options: MatchOptions,
    desk: Box<dyn Desk<MatchPicture>>,
    /// The programs kept across games, and the socket they are played on.
    kept: Option<KeptPrograms>,
    relay: Option<PathBuf>,
    /// The board each game in play is on (whose kept programs it plays).
    board_of: BTreeMap<PairGame, u32>,
}

/// The shell's name of the core's game.
fn slot_of(game: PairGame) -> GameSlot {
    GameSlot {
        pair: game.pair,
        candidate: game.candidate,
    }
}

/// Why the match could not go on, in words.
fn failure_text(failure: &Failure) -> String {
    match failure {
        Failure::Crashed { game, attempts } => format!(
            "{}: its goref ended {attempts} times before its game did",
            slot_of(*game).name()
        ),
        Failure::NoResult {
            game,
            attempts,
            last,
        } => format!(
            "{} was played {attempts} times with no result to count; the last: {last}",
            slot_of(*game).name()
        ),
        Failure::NotReady { engine, why } => format!("engine {engine} is {why}"),
    }
}

impl Runner {
    /// Where every game already begun stands, from its folders.
    fn take_back(&mut self) {
        let latest = self.games.latest_attempts();
        let told = std::fs::read_to_string(self.dir.join(TOLD)).unwrap_or_default();
        let told: BTreeSet<&str> = told.lines().collect();
        let pairs: BTreeSet<u64> = latest.keys().map(|slot| slot.pair).collect();
        let mut reads = Vec::new();
        for pair in pairs {
            for game in PairGame::of_pair(pair) {
                let slot = slot_of(game);
                let attempt = latest.get(&slot).copied().unwrap_or(1);
                let result = tally::folder_result(&self.games.game(&slot, attempt));
                reads.push(FolderRead {
                    game,
                    attempt,
                    look: self.look(&slot, attempt, result),
                    told: told.contains(slot.folder(attempt).as_str()),
                });
            }
        }
        self.core.handle_folder_states(reads);
        for (game, attempt) in self.core.running() {
            let slot = slot_of(game);
            let dir = self.games.game(&slot, attempt);
            let text = std::fs::read_to_string(dir.with_extension("toml")).unwrap_or_default();
            let board = kept::board_of_game_file(&text)
                .filter(|board| !self.board_of.values().any(|b| b == board))
                .unwrap_or_else(|| self.free_board());
            self.board_of.insert(game, board);
            self.mark_playing(&slot, board, &dir);
        }
    }

    /// The figures of the games counted, with the kept programs' restarts.
    fn figures(&self) -> MatchFigures {
        let mut figures = self.tally.figures(&self.file);
        figures.restarts = kept::restarts(&self.dir);
        figures
    }

    /// The lowest board no game plays on.
    fn free_board(&self) -> u32 {
        (1..)
            .find(|board| !self.board_of.values().any(|b| b == board))
            .expect("a board is free")
    }

    /// The programs kept for `board` play `slot`'s game in `dir` now.
    fn mark_playing(&self, slot: &GameSlot, board: u32, dir: &Path) {
        if let Some(kept) = &self.kept {
            let engines = self.plan.engines(&self.file, slot).map(|e| e.name.as_str());
            kept.playing(board, &engines, dir);
        }
    }

    /// `game`'s goref has ended: its board is free, and a kept program
    /// that crashed or hung in it is started again before its next game.
    fn board_free(&mut self, game: PairGame, attempt: u32) {
        let Some(board) = self.board_of.remove(&game) else {
            return;
        };
        let Some(kept) = &mut self.kept else { return };
        let slot = slot_of(game);
        let [candidate, opponent] = self.plan.engines(&self.file, &slot);
        let (black, white) = slot.colours(candidate, opponent);
        let folder = self.games.game(&slot, attempt);
        let failed = tally::failed_program(&folder, &black.name, &white.name);
        kept.game_over(board, failed.as_slice());
    }

    /// What `slot`'s folder of `attempt` says, given the result its
    /// journal ends with.
    fn look(&self, slot: &GameSlot, attempt: u32, result: Option<FolderResult>) -> FolderLook {
        let dir = self.games.game(slot, attempt);
        let state = match result {
            Some((result, end, reason)) if !boards::is_live(&dir) => FolderState::Finished {
                result,
                end,
                reason,
            },
            _ => boards::folder_state(&dir),
        };
        match state {
            FolderState::Empty => FolderLook::Empty,
            FolderState::Live => FolderLook::Live,
            FolderState::Unfinished => FolderLook::Unfinished,
            FolderState::Unreadable(_) => FolderLook::Unreadable,
            FolderState::Finished {
                result,
                end,
                reason,
            } => match count(&result, &end, &reason, slot.candidate) {
                Counted::Game { outcome, end } => FolderLook::Counts(GameEnd { outcome, end }),
                Counted::Replay(why) => FolderLook::Replay(why),
            },
        }
    }

    fn go(&mut self) -> Result<MatchFigures, String> {
        self.desk.say(format!(
            "goref: match {}: {} against {}, {} at once, {}; {} so far",
            self.file.name,
            self.file.engines[0].name,
            self.figures.opponents.join(", "),
            plural(self.file.boards as usize, "board", "boards"),
            plural(self.plan.openings.len(), "opening", "openings"),
            plural(self.figures.games as usize, "game", "games")
        ));
        loop {
            if let Some(end) = self.carry_out()? {
                return Ok(end);
            }
            if let Some(why) = self.desk.stop_asked() {
                self.core.handle_stop_asked(why);
            }
            self.core.handle_turn(self.tally.ledger());
            if let Some(end) = self.carry_out()? {
                return Ok(end);
            }
            match self.news.recv_timeout(TICK) {
                Ok(BoardNews::Exited { round, board, .. }) => {
                    let game = PairGame {
                        pair: u64::from(round) - 1,
                        candidate: if board == 1 {
                            Color::Black
                        } else {
                            Color::White
                        },
                    };
                    if let Some(attempt) = self.core.in_play(game) {
                        let (look, counted) = self.settle(game, attempt);
                        self.board_free(game, attempt);
                        self.core
                            .handle_board_ended(game, look, counted, Instant::now());
                    }
                }
                Ok(BoardNews::Line { .. }) => {}
                Err(_) => self.core.handle_tick(),
            }
        }
    }

    /// Does what the core asks, until it asks nothing more: the match's
    /// figures once it has finished.
    fn carry_out(&mut self) -> Result<Option<MatchFigures>, String> {
        while let Some(action) = self.core.poll_action() {
            match action {
                Action::Spawn {
                    game,
                    attempt,
                    resume,
                } => self.start(game, attempt, resume)?,
                Action::Tell { game, attempt, end } => {
                    self.figures = self.figures();
                    self.tell(&slot_of(game), attempt, end.as_ref());
                }
                Action::Report => self.report(&self.figures),
                Action::Show(in_play) => {
                    if self.desk.wants_pictures() {
                        let in_play: Vec<GameInPlay> = in_play
                            .into_iter()
                            .map(|(game, attempt)| GameInPlay::here(slot_of(game), attempt))
                            .collect();
                        self.desk.show(picture(
                            &self.file,
                            &self.plan,
                            &self.tally,
                            &in_play,
                            &self.figures,
                            false,
                        ));
                    }
                }
                Action::LookAgain { game, attempt } => {
                    let dir = self.games.game(&slot_of(game), attempt);
                    if !boards::is_live(&dir) {
                        let (look, counted) = self.settle(game, attempt);
                        self.board_free(game, attempt);
                        self.core.handle_adopted_ended(game, look, counted);
                    }
                }
                Action::Finished { failed } => return self.finish(failed).map(Some),
                Action::Stopped { why, playing } if self.kept.is_some() && playing > 0 => {
                    return Err(format!(
                        "{why}: the match stops; {playing} game(s) wait in their own gorefs, \
                         held with their time stopped, for `goref match {}`, which starts \
                         their kept programs again",
                        self.dir.display()
                    ))
                }
                Action::Stopped { why, playing } => {
                    return Err(format!(
                        "{why}: the match stops; {playing} game(s) play on in their own gorefs, \
                         and `goref match {}` follows them again",
                        self.dir.display()
                    ))
                }
            }
        }
        Ok(None)
    }

    /// No game plays: the figures, the last picture, the report.
    fn finish(&mut self, failed: Option<Failure>) -> Result<MatchFigures, String> {
        let figures = self.figures();
        for line in figures.lines() {
            self.desk.say(line);
        }
        if self.desk.wants_pictures() {
            self.desk.show(picture(
                &self.file,
                &self.plan,
                &self.tally,
                &[],
                &figures,
                true,
            ));
        }
        self.report(&figures);
        match failed {
            Some(failure) => Err(format!("the match stopped: {}", failure_text(&failure))),
            None => Ok(figures),
        }
    }

    /// Writes `game`'s file for try `attempt`, unless it is resumed, on a
    /// free board whose kept programs are made ready first, and starts its
    /// goref. A program not ready twice leaves the game unbegun and stops
    /// the match once the games in play end.
    fn start(&mut self, game: PairGame, attempt: u32, resume: bool) -> Result<(), String> {
        let slot = slot_of(game);
        let dir = self.games.game(&slot, attempt);
        let config = dir.with_extension("toml");
        let written = std::fs::read_to_string(&config).ok();
        let board = written
            .as_deref()
            .filter(|_| resume)
            .and_then(kept::board_of_game_file)
            .filter(|board| !self.board_of.values().any(|b| b == board))
            .unwrap_or_else(|| self.free_board());
        let engines = self.plan.engines(&self.file, &slot).map(|e| e.name.clone());
        if !resume {
            if let Some(kept) = &mut self.kept {
                let names = engines.each_ref().map(String::as_str);
                if let Err(not_ready) = kept.ready(board, &names) {
                    let NotReady { engine, why } = not_ready;
                    self.desk.say(format!(
                        "goref: engine {engine} is {why}; the games in play finish, then the \
                         match stops"
                    ));
                    self.core
                        .handle_not_started(game, Failure::NotReady { engine, why });
                    return Ok(());
                }
            }
            let kept = self.kept.as_ref();
            let text = self.plan.game_file_with(&self.file, &slot, |engine| {
                match kept.is_some_and(|kept| kept.keeps(&engine.name)) {
                    true => kept::seated(engine, board),
                    false => engine.clone(),
                }
            });
            std::fs::create_dir_all(dir.parent().expect("games/NAME has a parent"))
                .and_then(|()| crate::files::write_atomically(&config, &text))
                .map_err(|e| format!("cannot write {}: {e}", config.display()))?;
        }
        self.board_of.insert(game, board);
        self.mark_playing(&slot, board, &dir);
        let seated = self
            .kept
            .as_ref()
            .is_some_and(|kept| engines.iter().any(|name| kept.keeps(name)));
        let run = BoardRun {
            round: (slot.pair + 1) as u32,
            board: u32::from(slot.game()),
            dir,
            config,
            resume,
            seat_relay: self.relay.clone().filter(|_| seated),
        };
        boards::start(&self.exe, &run, false, self.news_tx.clone())
            .map_err(|e| format!("cannot start goref for {}: {e}", slot.name()))?;
        Ok(())
    }

    /// Reads the result of `game`'s folder of `attempt` once: what the
    /// folder says, and whether its game counts now.
    fn settle(&mut self, game: PairGame, attempt: u32) -> (FolderLook, bool) {
        let slot = slot_of(game);
        let result = tally::folder_result(&self.games.game(&slot, attempt));
        let look = self.look(&slot, attempt, result.clone());
        let counted = result.is_some_and(|result| self.count_ended(&slot, attempt, result));
        (look, counted)
    }

    /// Takes the result of `slot`'s folder of `attempt` into the tally:
    /// whether it counts.
    fn count_ended(&mut self, slot: &GameSlot, attempt: u32, ended: FolderResult) -> bool {
        let (result, end, reason) = ended;
        let counted = count(&result, &end, &reason, slot.candidate);
        self.tally.add(slot, slot.folder(attempt), result, counted)
    }

    fn report(&self, figures: &MatchFigures) {
        if let Err(why) =
            super::report::write(&self.dir, (&self.file, &self.plan), figures, &self.tally)
        {
            self.desk.say(format!("goref: the report: {why}"));
        }
    }

    /// The figures as JSON if asked, and the line of a finished game (its
    /// folder that of `attempt`, its `end` as counted); the folder is noted
    /// in [`TOLD`], so that a game that ends while no runner follows the
    /// match gets its line from the next.
    fn tell(&self, slot: &GameSlot, attempt: u32, end: Option<&GameEnd>) {
        let figures = &self.figures;
        if self.options.json {
            if let Ok(line) = serde_json::to_string(figures) {
                console::out(line);
            }
        }
        let Some(GameEnd { outcome, end }) = end else {
            return;
        };
        let told = self.dir.join(TOLD);
        let noted = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&told)
            .and_then(|mut file| {
                let line = format!("{}\n", slot.folder(attempt));
                std::io::Write::write_all(&mut file, line.as_bytes())
            });
        if let Err(e) = noted {
            tracing::warn!("cannot note a game told in {}: {e}", told.display());
        }
        let said = match outcome {
            goref_core::matches::Outcome::Win => "wins",
            goref_core::matches::Outcome::Loss => "loses",
            goref_core::matches::Outcome::Draw => "draws",
        };
        let colour = match slot.candidate {
            Color::Black => "Black",
            Color::White => "White",
        };
        let llr = figures
            .llr_text()
            .map_or(String::new(), |t| format!(", {t}"));
        let elo = figures
            .elo_text(0)
            .map_or(String::new(), |t| format!(", {t}"));
        self.desk.say(format!(
            "{}: {} {said} as {colour} ({end}) | games {}: +{} -{} ={}{elo}{llr}",
            slot.name(),
            self.file.engines[0].name,
            figures.games,
            figures.wins,
            figures.losses,
            figures.draws
        ));
    }
}
