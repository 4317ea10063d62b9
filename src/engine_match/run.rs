//! `goref match DIR`: the pairs played, `boards` games at once, each its
//! own goref process in its own folder (as an event's boards), until the
//! stop rule says so; the figures after each finished game. Everything is
//! decided from the folders, so that a run killed and started again plays
//! no game twice: a finished game keeps its result, a game under way is
//! resumed, a void or crashed game is played again in a folder of its own.
//! A hangup (a dropped SSH session) is ignored; Ctrl-C or SIGTERM stops the
//! match and leaves its games playing, each in its own goref.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use crate::boards::{self, BoardNews, BoardRun, FolderState};
use crate::check::plural;
use crate::console;
use goref_core::game::Color;

use crate::hall::desk::{Desk, Terminal};
use crate::match_play::desk::Heeded;
pub(crate) use crate::match_play::desk::{MatchError, MatchOptions};
use crate::match_play::file::{self, MatchFile};
use crate::match_play::picture::{picture, GameInPlay, MatchPicture};
use crate::match_play::plan::{load_openings, GameSlot, Plan};
use crate::match_play::tally::{self, count, Counted, FolderResult, MatchFigures, Tally};

/// How often the runner looks again when nothing happens.
const TICK: Duration = Duration::from_millis(250);
/// The match's file of the games whose line a runner has said, a folder's
/// name a line.
pub(crate) const TOLD: &str = "told.txt";
/// How many times a game whose goref died is resumed before it is played
/// again from its start.
const MAX_RESUMES: u32 = 3;
/// How often at most the report is written while the match plays.
const REPORT_EVERY: Duration = Duration::from_secs(10);
/// How many times one game is played before the match stops, saying why:
/// an engine that cannot play at all would be started for ever.
const MAX_ATTEMPTS: u32 = 4;

/// Where one game stands.
#[derive(Debug, Clone, PartialEq)]
enum SlotState {
    /// Counted, or (with its reason) waiting to be played again.
    Done(Counted),
    /// A goref plays it in `attempt`'s folder: one this run started, or
    /// (`adopted`) one that was playing it when this run began.
    Running {
        attempt: u32,
        resumes: u32,
        adopted: bool,
    },
    /// To start in `attempt`'s folder: anew, or resumed.
    Waiting { attempt: u32, resume: bool },
    /// Played [`MAX_ATTEMPTS`] times with no result the match can count.
    Failed(String),
}

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
    let begun = std::fs::read_dir(dir.join(crate::match_play::plan::GAMES_FOLDER))
        .is_ok_and(|mut games| games.next().is_some());
    if !begun {
        desk.say("goref: checking the engines before the first game".into());
        let stop_asked = || desk.stop_asked();
        let say = |line| desk.say(line);
        super::precheck::check_engines(dir, &file, &exe, &stop_asked, &say)?;
    }
    let plan = Plan::new(&file, openings);
    let (news_tx, news) = mpsc::channel();
    let mut runner = Runner {
        dir: dir.to_path_buf(),
        tally: Tally::from_folders(dir, &file),
        file,
        plan,
        exe,
        slots: BTreeMap::new(),
        resumes: BTreeMap::new(),
        unheard: Vec::new(),
        news_tx,
        news,
        options: options.clone(),
        desk,
    };
    runner.take_back();
    runner.go()
}

struct Runner {
    dir: PathBuf,
    file: MatchFile,
    plan: Plan,
    /// Every game ended, counted as it ended.
    tally: Tally,
    exe: PathBuf,
    slots: BTreeMap<GameSlot, SlotState>,
    /// How often each game was resumed by this run.
    resumes: BTreeMap<GameSlot, u32>,
    /// Games that ended while no runner followed the match, not yet told.
    unheard: Vec<(GameSlot, u32)>,
    news_tx: mpsc::Sender<BoardNews>,
    news: mpsc::Receiver<BoardNews>,
    options: MatchOptions,
    desk: Box<dyn Desk<MatchPicture>>,
}

impl Runner {
    /// Where every game already begun stands, from its folders.
    fn take_back(&mut self) {
        let games = self.dir.join(crate::match_play::plan::GAMES_FOLDER);
        let mut latest: BTreeMap<GameSlot, u32> = BTreeMap::new();
        for entry in std::fs::read_dir(&games).into_iter().flatten().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if let Some((slot, attempt)) = tally::parse_folder_name(&name) {
                let best = latest.entry(slot).or_insert(attempt);
                *best = (*best).max(attempt);
            }
        }
        let told = std::fs::read_to_string(self.dir.join(TOLD)).unwrap_or_default();
        let told: BTreeSet<&str> = told.lines().collect();
        let pairs: Vec<u64> = latest.keys().map(|slot| slot.pair).collect();
        for pair in pairs {
            for slot in GameSlot::of_pair(pair) {
                let attempt = latest.get(&slot).copied().unwrap_or(1);
                let result = tally::folder_result(&self.dir.join(slot.dir(attempt)));
                let state = self.look(&slot, attempt, 0, result);
                if matches!(state, SlotState::Done(Counted::Game { .. }))
                    && !told.contains(slot.folder(attempt).as_str())
                {
                    self.unheard.push((slot.clone(), attempt));
                }
                self.slots.insert(slot, state);
            }
        }
    }

    /// What `slot`'s folder of `attempt` says it needs, given the result
    /// its journal ends with.
    fn look(
        &self,
        slot: &GameSlot,
        attempt: u32,
        resumes: u32,
        result: Option<FolderResult>,
    ) -> SlotState {
        let dir = self.dir.join(slot.dir(attempt));
        let state = match result {
            Some((result, end, reason)) if !boards::is_live(&dir) => FolderState::Finished {
                result,
                end,
                reason,
            },
            _ => boards::folder_state(&dir),
        };
        match state {
            FolderState::Empty => SlotState::Waiting {
                attempt,
                resume: false,
            },
            FolderState::Live => SlotState::Running {
                attempt,
                resumes,
                adopted: true,
            },
            FolderState::Unfinished if resumes < MAX_RESUMES => SlotState::Waiting {
                attempt,
                resume: true,
            },
            FolderState::Unfinished | FolderState::Unreadable(_) if attempt >= MAX_ATTEMPTS => {
                SlotState::Failed(format!(
                    "{}: its goref ended {attempt} times before its game did",
                    slot.name()
                ))
            }
            FolderState::Unfinished | FolderState::Unreadable(_) => SlotState::Waiting {
                attempt: attempt + 1,
                resume: false,
            },
            FolderState::Finished {
                result,
                end,
                reason,
            } => match count(&result, &end, &reason, slot.candidate) {
                Counted::Replay(why) if attempt >= MAX_ATTEMPTS => SlotState::Failed(format!(
                    "{} was played {attempt} times with no result to count; the last: {why}",
                    slot.name()
                )),
                Counted::Replay(_) => SlotState::Waiting {
                    attempt: attempt + 1,
                    resume: false,
                },
                counted => SlotState::Done(counted),
            },
        }
    }

    fn go(&mut self) -> Result<MatchFigures, String> {
        let mut figures = self.tally.figures(&self.file);
        self.desk.say(format!(
            "goref: match {}: {} against {}, {} at once, {}; {} so far",
            self.file.name,
            self.file.engines[0].name,
            figures.opponents.join(", "),
            plural(self.file.boards as usize, "board", "boards"),
            plural(self.plan.openings.len(), "opening", "openings"),
            plural(figures.games as usize, "game", "games")
        ));
        for (slot, attempt) in std::mem::take(&mut self.unheard) {
            self.tell(&slot, attempt, &figures);
        }
        let mut failed = None;
        let mut last_report = std::time::Instant::now();
        let mut shown: Option<(Vec<(GameSlot, u32)>, u64)> = None;
        loop {
            failed = failed.or_else(|| {
                self.slots.values().find_map(|s| match s {
                    SlotState::Failed(why) => Some(why.clone()),
                    _ => None,
                })
            });
            if let Some(why) = self.desk.stop_asked() {
                let playing = self
                    .slots
                    .values()
                    .filter(|s| matches!(s, SlotState::Running { .. }))
                    .count();
                return Err(format!(
                    "{why}: the match stops; {playing} game(s) play on in their own gorefs, and \
                     `goref match {}` follows them again",
                    self.dir.display()
                ));
            }
            if failed.is_none() {
                self.start_games()?;
            }
            if self.desk.wants_pictures() {
                let now_shown = (self.running(), figures.games + figures.replayed);
                if shown.as_ref() != Some(&now_shown) {
                    self.desk.show(picture(
                        &self.file,
                        &self.plan,
                        &self.tally,
                        &self
                            .running()
                            .into_iter()
                            .map(|(slot, attempt)| GameInPlay::here(slot, attempt))
                            .collect::<Vec<_>>(),
                        &figures,
                        false,
                    ));
                    shown = Some(now_shown);
                }
            }
            if !self
                .slots
                .values()
                .any(|s| matches!(s, SlotState::Running { .. }))
            {
                break;
            }
            match self.news.recv_timeout(TICK) {
                Ok(BoardNews::Exited { round, board, .. }) => {
                    let slot = GameSlot {
                        pair: u64::from(round) - 1,
                        candidate: if board == 1 {
                            Color::Black
                        } else {
                            Color::White
                        },
                    };
                    if let Some(attempt) = self.game_ended(&slot) {
                        figures = self.tally.figures(&self.file);
                        self.tell(&slot, attempt, &figures);
                        if last_report.elapsed() >= REPORT_EVERY {
                            self.report(&figures);
                            last_report = std::time::Instant::now();
                        }
                    }
                }
                Ok(BoardNews::Line { .. }) => {}
                Err(_) => {
                    for (slot, attempt) in self.look_at_adopted() {
                        figures = self.tally.figures(&self.file);
                        self.tell(&slot, attempt, &figures);
                    }
                }
            }
        }
        let figures = self.tally.figures(&self.file);
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
            Some(why) => Err(format!("the match stopped: {why}")),
            None => Ok(figures),
        }
    }

    /// Starts what waits, then new pairs while boards are free and the
    /// stop rule lets them begin.
    fn start_games(&mut self) -> Result<(), String> {
        loop {
            let running = self
                .slots
                .values()
                .filter(|s| matches!(s, SlotState::Running { .. }))
                .count();
            if running >= self.file.boards as usize {
                return Ok(());
            }
            let waiting = self.slots.iter().find_map(|(slot, state)| match state {
                SlotState::Waiting { attempt, resume } => Some((slot.clone(), *attempt, *resume)),
                _ => None,
            });
            match waiting {
                Some((slot, attempt, resume)) => self.start(&slot, attempt, resume)?,
                None => {
                    let pair = self.slots.keys().map(|s| s.pair + 1).max().unwrap_or(0);
                    if !self.tally.ledger().may_begin(pair) {
                        return Ok(());
                    }
                    for slot in GameSlot::of_pair(pair) {
                        self.slots.insert(
                            slot,
                            SlotState::Waiting {
                                attempt: 1,
                                resume: false,
                            },
                        );
                    }
                }
            }
        }
    }

    fn start(&mut self, slot: &GameSlot, attempt: u32, resume: bool) -> Result<(), String> {
        let dir = self.dir.join(slot.dir(attempt));
        let config = dir.with_extension("toml");
        if !resume {
            let text = self.plan.game_file(&self.file, slot);
            std::fs::create_dir_all(dir.parent().expect("games/NAME has a parent"))
                .and_then(|()| crate::files::write_atomically(&config, &text))
                .map_err(|e| format!("cannot write {}: {e}", config.display()))?;
        }
        let run = BoardRun {
            round: (slot.pair + 1) as u32,
            board: u32::from(slot.game()),
            dir,
            config,
            resume,
            seat_relay: None,
        };
        boards::start(&self.exe, &run, false, self.news_tx.clone())
            .map_err(|e| format!("cannot start goref for {}: {e}", slot.name()))?;
        let resumes = self.resumes.get(slot).copied().unwrap_or(0) + u32::from(resume);
        self.resumes.insert(slot.clone(), resumes);
        let running = SlotState::Running {
            attempt,
            resumes,
            adopted: false,
        };
        self.slots.insert(slot.clone(), running);
        Ok(())
    }

    /// A game's goref ended: whether its game counts now.
    fn game_ended(&mut self, slot: &GameSlot) -> Option<u32> {
        let Some(SlotState::Running {
            attempt, resumes, ..
        }) = self.slots.get(slot).cloned()
        else {
            return None;
        };
        self.settle(slot, attempt, resumes).then_some(attempt)
    }

    /// Reads the result of `slot`'s folder of `attempt` once: the slot's
    /// new state, and whether its game counts now.
    fn settle(&mut self, slot: &GameSlot, attempt: u32, resumes: u32) -> bool {
        let result = tally::folder_result(&self.dir.join(slot.dir(attempt)));
        let state = self.look(slot, attempt, resumes, result.clone());
        let counted = result.is_some_and(|result| self.count_ended(slot, attempt, result));
        self.slots.insert(slot.clone(), state);
        counted
    }

    /// Takes the result of `slot`'s folder of `attempt` into the tally:
    /// whether it counts.
    fn count_ended(&mut self, slot: &GameSlot, attempt: u32, ended: FolderResult) -> bool {
        let (result, end, reason) = ended;
        let counted = count(&result, &end, &reason, slot.candidate);
        self.tally.add(slot, slot.folder(attempt), result, counted)
    }

    /// Games another goref was playing when this run began: looked at
    /// again once their folders are free.
    fn look_at_adopted(&mut self) -> Vec<(GameSlot, u32)> {
        let freed: Vec<(GameSlot, u32, u32)> = self
            .slots
            .iter()
            .filter_map(|(slot, state)| match state {
                SlotState::Running {
                    attempt,
                    resumes,
                    adopted: true,
                } => Some((slot.clone(), *attempt, *resumes)),
                _ => None,
            })
            .filter(|(slot, attempt, _)| !boards::is_live(&self.dir.join(slot.dir(*attempt))))
            .collect();
        let mut counted = Vec::new();
        for (slot, attempt, resumes) in freed {
            if self.settle(&slot, attempt, resumes) {
                counted.push((slot, attempt));
            }
        }
        counted
    }

    /// The games in play, each with its try.
    fn running(&self) -> Vec<(GameSlot, u32)> {
        self.slots
            .iter()
            .filter_map(|(slot, state)| match state {
                SlotState::Running { attempt, .. } => Some((slot.clone(), *attempt)),
                _ => None,
            })
            .collect()
    }

    fn report(&self, figures: &MatchFigures) {
        if let Err(why) =
            super::report::write(&self.dir, (&self.file, &self.plan), figures, &self.tally)
        {
            self.desk.say(format!("goref: the report: {why}"));
        }
    }

    /// The line of a finished game (its folder that of `attempt`), and
    /// the figures; the folder is noted in [`TOLD`], so that a game that
    /// ends while no runner follows the match gets its line from the next.
    fn tell(&self, slot: &GameSlot, attempt: u32, figures: &MatchFigures) {
        if self.options.json {
            if let Ok(line) = serde_json::to_string(figures) {
                console::out(line);
            }
        }
        let Some(SlotState::Done(Counted::Game { outcome, end })) = self.slots.get(slot) else {
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
