//! The local runner of a match (`goref match DIR` with no workers) as a
//! sans-IO state machine: where each game stands, which game starts when,
//! in which of its folders, and when the match ends. The shell reads the
//! game folders and carries out the actions; every decision is here.
//!
//! A game is played in its folder of try 1, 2, ...: a finished game keeps
//! its result and is never played again; a game under way whose goref
//! died is resumed in its folder ([`MAX_RESUMES`] times), then played
//! again from its start in a folder of its own, as is a void game; a game
//! that another goref plays when the runner begins is followed until its
//! folder is free. At most `boards` games play at once; games waiting in
//! pairs already begun start first, then new pairs while the ledger's stop
//! rule lets them begin, so that the pairs in play always finish. A stop
//! asked ends the runner at once and leaves its games playing.

use std::collections::{BTreeMap, VecDeque};
use std::time::{Duration, Instant};

use crate::game::Color;

use super::{Ledger, Outcome};

/// How many times a game whose goref died is resumed before it is played
/// again from its start.
pub const MAX_RESUMES: u32 = 3;

/// How many times one game is played before the match stops, saying why:
/// an engine that cannot play at all would be started for ever.
pub const MAX_ATTEMPTS: u32 = 4;

/// How often at most the report is written while the match plays.
pub const REPORT_EVERY: Duration = Duration::from_secs(10);

/// One game of the match: pair `pair` (from 0), the candidate Black in its
/// first game and White in its second.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PairGame {
    pub pair: u64,
    pub candidate: Color,
}

impl PairGame {
    /// The pair's two games, in order.
    pub fn of_pair(pair: u64) -> [PairGame; 2] {
        [Color::Black, Color::White].map(|candidate| PairGame { pair, candidate })
    }
}

/// What one folder of a game says, as the shell reads it back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FolderLook {
    /// No journal: its game never started.
    Empty,
    /// A goref holds its game now.
    Live,
    /// Its game started and has no result.
    Unfinished,
    /// Its journal cannot be read back.
    Unreadable,
    /// Its game ended with a result the match counts.
    Counts(GameEnd),
    /// Its game ended with no result the match can count, for this
    /// reason: it is played again.
    Replay(String),
}

/// How a counted game went for the candidate, and how it ended (`time`,
/// `forfeit_illegal_move`, ...).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameEnd {
    pub outcome: Outcome,
    pub end: String,
}

/// A game's newest folder, read back when the runner begins.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FolderRead {
    pub game: PairGame,
    pub attempt: u32,
    pub look: FolderLook,
    /// Whether a runner has said the line of its game already.
    pub told: bool,
}

/// Why the match cannot go on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The game's goref ended `attempts` times before its game did.
    Crashed { game: PairGame, attempts: u32 },
    /// The game was played `attempts` times with no result to count;
    /// `last` says why the last one was not.
    NoResult {
        game: PairGame,
        attempts: u32,
        last: String,
    },
    /// An engine's kept program was not ready for a game, twice.
    NotReady { engine: String, why: String },
}

/// What the shell does next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Play `game` in its folder of `attempt`: write its game file there
    /// and start its goref, or (`resume`) go on with the game there.
    Spawn {
        game: PairGame,
        attempt: u32,
        resume: bool,
    },
    /// A game counted: the figures, and (with how it ended) its line,
    /// noted as told in the match's folder.
    Tell {
        game: PairGame,
        attempt: u32,
        end: Option<GameEnd>,
    },
    /// Write the report.
    Report,
    /// Draw the match with these games in play, each with its try.
    Show(Vec<(PairGame, u32)>),
    /// See whether the goref that held `game`'s folder of `attempt` when
    /// the runner began still does; once it does not, read the folder.
    LookAgain { game: PairGame, attempt: u32 },
    /// No game plays: the figures, the last picture and the report; the
    /// match ends, with `failed` why it could not go on.
    Finished { failed: Option<Failure> },
    /// A stop was asked: the match ends now, and its `playing` games play
    /// on in their gorefs.
    Stopped { why: String, playing: usize },
}

/// Where one game stands.
#[derive(Debug, Clone, PartialEq, Eq)]
enum SlotState {
    /// Counted.
    Done(GameEnd),
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
    Failed(Failure),
}

/// The local runner's state machine.
#[derive(Debug)]
pub struct LocalRunner {
    boards: usize,
    slots: BTreeMap<PairGame, SlotState>,
    /// How often each game was resumed by this run.
    resumes: BTreeMap<PairGame, u32>,
    failed: Option<Failure>,
    actions: VecDeque<Action>,
    last_report: Instant,
    /// Games told since the runner began: the figures change with each.
    told: u64,
    shown: Option<(Vec<(PairGame, u32)>, u64)>,
    over: bool,
}

impl LocalRunner {
    /// A runner playing `boards` games at once, beginning at `now`.
    pub fn new(boards: usize, now: Instant) -> LocalRunner {
        LocalRunner {
            boards,
            slots: BTreeMap::new(),
            resumes: BTreeMap::new(),
            failed: None,
            actions: VecDeque::new(),
            last_report: now,
            told: 0,
            shown: None,
            over: false,
        }
    }

    /// Where every game already begun stands, from its newest folder; the
    /// games that ended while no runner followed the match are told.
    pub fn handle_folder_states(&mut self, folders: impl IntoIterator<Item = FolderRead>) {
        for read in folders {
            let state = look(read.game, read.attempt, 0, read.look);
            if let (SlotState::Done(end), false) = (&state, read.told) {
                self.actions.push_back(Action::Tell {
                    game: read.game,
                    attempt: read.attempt,
                    end: Some(end.clone()),
                });
            }
            self.slots.insert(read.game, state);
        }
    }

    /// The try of `game` a goref plays now, if one does.
    pub fn in_play(&self, game: PairGame) -> Option<u32> {
        match self.slots.get(&game) {
            Some(SlotState::Running { attempt, .. }) => Some(*attempt),
            _ => None,
        }
    }

    /// The goref this runner started for `game` ended, and its folder
    /// says `look`; `counted` whether the tally took its result as a new
    /// count. The report is due at most every [`REPORT_EVERY`].
    pub fn handle_board_ended(
        &mut self,
        game: PairGame,
        look: FolderLook,
        counted: bool,
        now: Instant,
    ) {
        if self.settle(game, look, counted) && now - self.last_report >= REPORT_EVERY {
            self.actions.push_back(Action::Report);
            self.last_report = now;
        }
    }

    /// The folder of a game another goref played when this runner began
    /// is free, and says `look`; `counted` as for
    /// [`LocalRunner::handle_board_ended`].
    pub fn handle_adopted_ended(&mut self, game: PairGame, look: FolderLook, counted: bool) {
        if let Some(SlotState::Running { adopted: true, .. }) = self.slots.get(&game) {
            self.settle(game, look, counted);
        }
    }

    /// `game`, just asked to start, could not: an engine's program was
    /// not ready (`failure`). It waits, unbegun, for the next run; no new
    /// game begins, and the games in play finish.
    pub fn handle_not_started(&mut self, game: PairGame, failure: Failure) {
        if let Some(SlotState::Running {
            attempt,
            adopted: false,
            ..
        }) = self.slots.get(&game).cloned()
        {
            let waiting = SlotState::Waiting {
                attempt,
                resume: false,
            };
            self.slots.insert(game, waiting);
            self.failed.get_or_insert(failure);
        }
    }

    /// A while went by with no news: the games adopted are looked at
    /// again.
    pub fn handle_tick(&mut self) {
        for (game, state) in &self.slots {
            if let SlotState::Running {
                attempt,
                adopted: true,
                ..
            } = state
            {
                self.actions.push_back(Action::LookAgain {
                    game: *game,
                    attempt: *attempt,
                });
            }
        }
    }

    /// The match must stop, for `why`: its games play on.
    pub fn handle_stop_asked(&mut self, why: String) {
        if self.over {
            return;
        }
        let playing = self.running().len();
        self.actions.push_back(Action::Stopped { why, playing });
        self.over = true;
    }

    /// A turn of the runner, once all that happened is handled, with the
    /// ledger as it stands: the games waiting start, then new pairs while
    /// boards are free and the stop rule lets them begin (none once a game
    /// failed); the picture when it changed; the end when no game plays.
    pub fn handle_turn(&mut self, ledger: &Ledger) {
        if self.over {
            return;
        }
        if self.failed.is_none() {
            self.failed = self.slots.values().find_map(|state| match state {
                SlotState::Failed(failure) => Some(failure.clone()),
                _ => None,
            });
        }
        if self.failed.is_none() {
            self.start_games(ledger);
        }
        let running = self.running();
        let now_shown = (running.clone(), self.told);
        if self.shown.as_ref() != Some(&now_shown) {
            self.actions.push_back(Action::Show(running.clone()));
            self.shown = Some(now_shown);
        }
        if running.is_empty() {
            self.actions.push_back(Action::Finished {
                failed: self.failed.clone(),
            });
            self.over = true;
        }
    }

    /// The next thing to do.
    pub fn poll_action(&mut self) -> Option<Action> {
        self.actions.pop_front()
    }

    /// Whether the runner has ended: finished, or stopped.
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// The games in play, each with its try.
    pub fn running(&self) -> Vec<(PairGame, u32)> {
        self.slots
            .iter()
            .filter_map(|(game, state)| match state {
                SlotState::Running { attempt, .. } => Some((*game, *attempt)),
                _ => None,
            })
            .collect()
    }

    /// `game`'s goref ended and its folder says `look`: its new state, and
    /// its line when it counted. Whether it did.
    fn settle(&mut self, game: PairGame, folder: FolderLook, counted: bool) -> bool {
        let Some(SlotState::Running {
            attempt, resumes, ..
        }) = self.slots.get(&game).cloned()
        else {
            return false;
        };
        let state = look(game, attempt, resumes, folder);
        let end = match &state {
            SlotState::Done(end) => Some(end.clone()),
            _ => None,
        };
        self.slots.insert(game, state);
        if counted {
            self.told += 1;
            self.actions.push_back(Action::Tell { game, attempt, end });
        }
        counted
    }

    fn start_games(&mut self, ledger: &Ledger) {
        loop {
            if self.running().len() >= self.boards {
                return;
            }
            let waiting = self.slots.iter().find_map(|(game, state)| match state {
                SlotState::Waiting { attempt, resume } => Some((*game, *attempt, *resume)),
                _ => None,
            });
            match waiting {
                Some((game, attempt, resume)) => {
                    let resumes = self.resumes.get(&game).copied().unwrap_or(0) + u32::from(resume);
                    self.resumes.insert(game, resumes);
                    let running = SlotState::Running {
                        attempt,
                        resumes,
                        adopted: false,
                    };
                    self.slots.insert(game, running);
                    self.actions.push_back(Action::Spawn {
                        game,
                        attempt,
                        resume,
                    });
                }
                None => {
                    let pair = self.slots.keys().map(|g| g.pair + 1).max().unwrap_or(0);
                    if !ledger.may_begin(pair) {
                        return;
                    }
                    for game in PairGame::of_pair(pair) {
                        let waiting = SlotState::Waiting {
                            attempt: 1,
                            resume: false,
                        };
                        self.slots.insert(game, waiting);
                    }
                }
            }
        }
    }
}

/// What `game` needs, its folder of `attempt` saying `folder` after
/// `resumes` resumes by this run.
fn look(game: PairGame, attempt: u32, resumes: u32, folder: FolderLook) -> SlotState {
    match folder {
        FolderLook::Empty => SlotState::Waiting {
            attempt,
            resume: false,
        },
        FolderLook::Live => SlotState::Running {
            attempt,
            resumes,
            adopted: true,
        },
        FolderLook::Unfinished if resumes < MAX_RESUMES => SlotState::Waiting {
            attempt,
            resume: true,
        },
        FolderLook::Unfinished | FolderLook::Unreadable if attempt >= MAX_ATTEMPTS => {
            SlotState::Failed(Failure::Crashed {
                game,
                attempts: attempt,
            })
        }
        FolderLook::Unfinished | FolderLook::Unreadable => SlotState::Waiting {
            attempt: attempt + 1,
            resume: false,
        },
        FolderLook::Replay(last) if attempt >= MAX_ATTEMPTS => {
            SlotState::Failed(Failure::NoResult {
                game,
                attempts: attempt,
                last,
            })
        }
        FolderLook::Replay(_) => SlotState::Waiting {
            attempt: attempt + 1,
            resume: false,
        },
        FolderLook::Counts(end) => SlotState::Done(end),
    }
}

#[cfg(test)]
mod tests;
