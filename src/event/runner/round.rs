//! A round played, turn by turn: the rest before it, the boards a goref
//! plays that the runner follows, the games the director decided ended
//! through their sockets (and their gorefs stopped if they do not
//! answer), the boards that may start started (or resumed, or played
//! again in a new folder), what the director is told the round waits for,
//! and what follows a board's end: its result, a resume up to
//! [`MAX_RESUMES`], a game voided by a crash played again up to
//! [`MAX_REPLAYS`], or trouble that waits for the director.

use super::*;
use crate::event::file::OnCrash;
use crate::event::log::Pair;
use crate::event::state::NO_GAME;
use goref_core::tournament::game_name::GameName;

/// Why a game the director started again ended: it had waited for an
/// absent seat, and is played afresh in a new folder.
const RETRY_VOID_REASON: &str =
    "the director started the board again: its game waited for an absent seat";

impl EventRunner {
    /// Round `number` begins to be played: after the rest between games,
    /// if any is left of it.
    pub(super) fn play(&mut self, number: u32) {
        self.waiting_said.clear();
        self.shown_round = number;
        self.stage = Stage::Playing;
        self.show();
        match self.rest_ends_after(number).is_some() {
            true => {
                self.phase = Phase::Resting {
                    round: number,
                    until: None,
                }
            }
            false => self.batch.push(Work::Step(Step::Rested(number))),
        }
    }

    /// When the rest before round `number`'s first board ends (ms since
    /// the Unix epoch), counted from when the round before ended (its
    /// standings line), so that a run started again in the middle of the
    /// rest waits only what is left of it; none once a board of it began.
    fn rest_ends_after(&self, number: u32) -> Option<u64> {
        let rest = self.file.rest?;
        let started = self
            .lines
            .iter()
            .any(|l| matches!(l.line, EventLine::BoardStart { round, .. } if round == number));
        let ended_ms = self.lines.iter().find_map(|l| match l.line {
            EventLine::Standings { round, .. } if round + 1 == number => Some(l.at_ms),
            _ => None,
        })?;
        (!started).then_some(ended_ms + rest.as_millis() as u64)
    }

    /// The rest before round `number`, until `until` once it is known.
    pub(super) fn rest(&mut self, number: u32, until: Option<Instant>) {
        let until = match until {
            Some(until) => until,
            None => {
                let until_ms = self.rest_ends_after(number).unwrap_or(0);
                let now_ms = self.now.unix_ms;
                if now_ms >= until_ms {
                    self.phase = Phase::Working;
                    return self.batch.push(Work::Step(Step::Rested(number)));
                }
                self.say(format!(
                    "round {number} starts in {}s: the rest between games",
                    (until_ms - now_ms).div_ceil(1000)
                ));
                self.now.at + Duration::from_millis(until_ms - now_ms)
            }
        };
        if self.now.at >= until {
            self.phase = Phase::Working;
            return self.batch.push(Work::Step(Step::Rested(number)));
        }
        if let Some(why) = self.stopped() {
            return self.end(End::Stopped(why));
        }
        self.phase = Phase::Resting {
            round: number,
            until: Some(until),
        };
    }

    /// The rest is over: the line entrants' notes, then the first turn.
    pub(super) fn rested(&mut self, number: u32) {
        let state = self.state();
        if let Some(round) = state.round(number) {
            let pairs: Vec<Pair> = round
                .boards
                .iter()
                .filter(|b| b.dirs.is_empty())
                .map(|b| b.pair.clone())
                .collect();
            for note in crate::event::pairing::line_notes(&state, &pairs) {
                self.say(format!("round {number} {note}"));
            }
        }
        self.batch.push(Work::Step(Step::Turn(number, Turn::Begin)));
    }

    /// A stage of a turn of round `number`: the boards a goref plays
    /// followed, the director's decisions carried to their boards, the
    /// waiting boards started, what waits said; then, once news or the
    /// tick came, the adopted boards looked at, the journal read, the
    /// relay told and the picture shown.
    pub(super) fn turn(&mut self, number: u32, turn: Turn) {
        match turn {
            Turn::Begin => {
                if let Some(why) = self.stopped() {
                    return self.end(End::Stopped(why));
                }
                let state = self.state();
                let round = state.round(number).expect("the round is confirmed").clone();
                for (board, dir) in self.unfollowed(&round) {
                    self.batch.push(Work::Look {
                        round: number,
                        board,
                        dir,
                        then: Looked::Adopt,
                    });
                }
                self.turn = Some(round);
                self.batch
                    .push(Work::Step(Step::Turn(number, Turn::Decided)));
            }
            Turn::Decided => {
                self.stop_boards_the_director_decided();
                self.batch
                    .push(Work::Step(Step::Turn(number, Turn::Starts)));
            }
            Turn::Starts => self.start_waiting_boards(number),
            Turn::Tell => {
                self.tell_what_waits();
                self.phase = Phase::Listening { round: number };
            }
            Turn::Follow => {
                let state = self.state();
                let adopted: Vec<(u32, u32)> = self
                    .running
                    .iter()
                    .filter(|(_, pid)| pid.is_none())
                    .map(|(&key, _)| key)
                    .collect();
                for (round, board) in adopted {
                    if let Some(found) = state.board(round, board) {
                        self.batch.push(Work::Look {
                            round,
                            board,
                            dir: found.folder(round),
                            then: Looked::Follow,
                        });
                    }
                }
                self.batch.push(Work::Step(Step::Turn(number, Turn::Read)));
            }
            Turn::Read => {
                self.batch.push(Work::ReadJournal);
                self.batch.push(Work::Step(Step::Turn(number, Turn::End)));
            }
            Turn::End => {
                self.tell_relay_who_plays();
                self.show();
                self.batch.push(Work::Step(Step::Turn(number, Turn::Begin)));
            }
        }
    }

    /// The boards of `round` no goref of this run plays or is followed
    /// on that have no result from play: a goref may still play them (the
    /// event was run again while it played, and the director set its
    /// result meanwhile). Each with its folder.
    pub(super) fn unfollowed(&self, round: &Round) -> Vec<(u32, String)> {
        round
            .boards
            .iter()
            .filter(|b| b.played.is_none())
            .filter(|b| !self.running.contains_key(&(round.number, b.pair.board)))
            .map(|b| (b.pair.board, b.folder(round.number)))
            .collect()
    }

    /// Ends the game of every board still played whose result the director
    /// set, or that the director asked to be started again (its game
    /// waited for an absent seat): through its folder's socket, so that
    /// its journal and record end void with the director's reason,
    /// whether this run started its goref or found it playing. A goref
    /// that does not answer is sent SIGTERM, and SIGKILL once it has had
    /// as long again.
    fn stop_boards_the_director_decided(&mut self) {
        let Some(round) = self.turn.clone() else {
            return;
        };
        let now = self.now.at;
        for b in &round.boards {
            let (why, decided) = match (&b.set, b.retry) {
                (Some(_), _) => (director_void_reason(b), "set its result"),
                (None, true) => (RETRY_VOID_REASON.to_string(), "started it again"),
                (None, false) => continue,
            };
            let key = (round.number, b.pair.board);
            let Some(pid) = self.running.get(&key).copied() else {
                continue;
            };
            let dir = b.folder(round.number);
            match self.voided.get(&key) {
                None => {
                    self.voided.insert(key, now);
                    self.batch.push(Work::Void {
                        round: round.number,
                        board: b.pair.board,
                        dir,
                        why,
                        decided,
                        pid,
                    });
                }
                Some(asked) if now.duration_since(*asked) > 2 * crate::boards::VOID_WAIT => {
                    self.say(format!(
                        "round {} board {}: its goref is still alive {}s after the director \
                         {decided}: killing it",
                        round.number,
                        b.pair.board,
                        now.duration_since(*asked).as_secs()
                    ));
                    self.batch.push(Work::Do(Action::Signal {
                        dir,
                        pid,
                        signal: libc::SIGKILL,
                    }));
                    self.voided.insert(key, now);
                }
                Some(_) => {}
            }
        }
    }

    /// The round ends once every board has a result and no goref of it
    /// plays; else its boards that may start do, while boards are free.
    fn start_waiting_boards(&mut self, number: u32) {
        let Some(round) = self.turn.clone() else {
            return;
        };
        if round.is_over() && !self.running.keys().any(|&(r, _)| r == number) {
            self.turn = None;
            return self.batch.push(Work::Step(Step::Decide));
        }
        let waiting: Vec<Board> = round
            .boards
            .iter()
            .filter(|b| b.result().is_none() && self.may_start(number, b))
            .filter(|b| !self.running.contains_key(&(number, b.pair.board)))
            .filter(|b| !self.seat_being_checked(&b.pair))
            .cloned()
            .collect();
        for board in waiting {
            self.batch.push(Work::StartWaiting {
                round: number,
                board,
            });
        }
        self.batch.push(Work::Step(Step::Turn(number, Turn::Tell)));
    }

    /// Starts `board`, one the turn found waiting, unless every board the
    /// event may play at once plays; a game that never started is played
    /// in a new folder.
    pub(super) fn start_waiting(&mut self, number: u32, board: Board) {
        let limit = self.file.boards.map_or(usize::MAX, |n| n as usize);
        if self.running.len() >= limit {
            return;
        }
        self.tried.insert((number, board.pair.board));
        let board = match board.played.as_ref().is_some_and(|p| p.end == NO_GAME) {
            true => played_again(number, &board),
            false => board,
        };
        self.start_board(number, board);
    }

    /// Starts `board` once its folder is looked at.
    fn start_board(&mut self, number: u32, board: Board) {
        self.batch.push(Work::Look {
            round: number,
            board: board.pair.board,
            dir: board.folder(number),
            then: Looked::Start(board),
        });
    }

    /// Whether the event may start (or resume) a board without a result: one
    /// that needs nobody, or, once a run, one that waits for the director
    /// because its goref failed or its game never started, since what
    /// failed it (a full disk, a missing program) may have been put right
    /// before the event was run again. One waiting for the judge is the
    /// director's alone. One the director asked to be started again is.
    fn may_start(&self, number: u32, board: &Board) -> bool {
        let waits_for_the_judge = board.played.as_ref().is_some_and(|p| p.result == "?");
        match board.needs_director() {
            None => true,
            Some(_) if waits_for_the_judge => false,
            Some(_) => board.retry || !self.tried.contains(&(number, board.pair.board)),
        }
    }

    /// Whether a seated entrant of `pair` is being checked through its
    /// seat: its board starts once the check is over.
    fn seat_being_checked(&self, pair: &Pair) -> bool {
        self.seats
            .iter()
            .any(|seat| seat.checking && (seat.entrant == pair.black || seat.entrant == pair.white))
    }

    /// What the folder of `board_number` of `number` says, looked at for
    /// `then`.
    pub(super) fn looked(
        &mut self,
        number: u32,
        board_number: u32,
        folder: FolderState,
        then: Looked,
    ) {
        let key = (number, board_number);
        match then {
            Looked::Reconcile => {
                let state = self.state();
                if let (
                    Some(board),
                    FolderState::Finished {
                        result,
                        end,
                        reason,
                    },
                ) = (state.board(number, board_number), folder)
                {
                    self.batch
                        .push(Work::Record(board_end(number, board, result, end, reason)));
                }
            }
            Looked::LiveCheck => self.live_found |= folder == FolderState::Live,
            Looked::Adopt => {
                if folder == FolderState::Live {
                    self.running.insert(key, None);
                }
            }
            Looked::Follow => {
                if folder != FolderState::Live {
                    self.running.remove(&key);
                    self.board_exited(number, board_number, "its goref ended", &[], folder);
                }
            }
            Looked::Start(board) => self.start_in(number, board, folder),
            Looked::Exited { how, stderr } => {
                self.board_exited(number, board_number, &how, &stderr, folder)
            }
        }
    }

    /// Starts `board` in its folder, which says `folder`: a result there
    /// is recorded, a goref playing it followed, a game under way resumed,
    /// a new one begun.
    fn start_in(&mut self, number: u32, board: Board, folder: FolderState) {
        let relative = board.folder(number);
        let resume = match folder {
            FolderState::Finished { result, .. } if board.retry && result == "Void" => {
                return self.start_board(number, played_again(number, &board));
            }
            FolderState::Finished {
                result,
                end,
                reason,
            } => {
                let line = board_end(number, &board, result, end, reason);
                return self.batch.push(Work::Record(line));
            }
            FolderState::Live => {
                self.say(format!(
                    "round {number} board {}: a goref still plays it; the event follows its folder",
                    board.pair.board
                ));
                self.running.insert((number, board.pair.board), None);
                return;
            }
            FolderState::Unreadable(why) => {
                return self.batch.push(Work::Record(EventLine::BoardTrouble {
                    round: number,
                    board: board.pair.board,
                    dir: relative,
                    what: why,
                }));
            }
            FolderState::Unfinished => true,
            FolderState::Empty => false,
        };
        let game_file = match resume {
            true => None,
            false => match self.game_file(number, &board) {
                Ok(text) => Some(text),
                Err(why) => return self.end(End::Failed(why)),
            },
        };
        self.batch.push(Work::Spawn {
            round: number,
            board,
            game_file,
            resume,
        });
    }

    /// The board's game file: the event's `[game]` table with the
    /// entrants' players and the record's event, round and place.
    pub(super) fn game_file(&self, number: u32, board: &Board) -> Result<String, String> {
        let state = self.state();
        let player = |name: &str| {
            state
                .entrants
                .iter()
                .find(|e| e.name == name)
                .map(|e| e.player.clone())
                .ok_or_else(|| format!("{name} is not an entrant"))
        };
        let mut table = self.file.game_table.clone();
        table.insert("black".into(), player(&board.pair.black)?.into());
        table.insert("white".into(), player(&board.pair.white)?.into());
        table.insert("event".into(), self.file.name.clone().into());
        table.insert("round".into(), number.to_string().into());
        table.insert(
            "game_name".into(),
            GameName {
                round: number,
                board: board.pair.board,
                black: board.pair.black.clone(),
                white: board.pair.white.clone(),
            }
            .to_string()
            .into(),
        );
        if let Some(place) = &self.file.place {
            table.insert("place".into(), place.clone().into());
        }
        let header = format!(
            "# Board {} of round {number} of {}: {} (Black) against {} (White),\n\
             # written by goref event from the [game] table of event.toml.\n",
            board.pair.board, self.file.name, board.pair.black, board.pair.white
        );
        Ok(header + &toml::to_string(&table).expect("a TOML table serializes"))
    }

    /// A board's news: its line said (or printed), or its goref ended and
    /// its folder is looked at.
    pub(super) fn hear(&mut self, news: BoardNews) {
        match news {
            BoardNews::Line { round, board, text } => {
                if crate::mirror::server::is_screen_of(&text, self.settings.pid) {
                    return;
                }
                match self.settings.json {
                    true => self.batch.push(Work::Do(Action::Print(text))),
                    false => self.tell(format!("round {round} board {board}: {text}")),
                }
            }
            BoardNews::Exited {
                round,
                board,
                how,
                stderr,
            } => {
                self.running.remove(&(round, board));
                if let Some(found) = self.state().board(round, board) {
                    self.batch.push(Work::Look {
                        round,
                        board,
                        dir: found.folder(round),
                        then: Looked::Exited { how, stderr },
                    });
                }
            }
        }
    }

    /// The goref of `board_number` ended (`how`, its last lines on stderr
    /// `stderr`), its folder saying `folder`: what follows.
    fn board_exited(
        &mut self,
        number: u32,
        board_number: u32,
        how: &str,
        stderr: &[String],
        folder: FolderState,
    ) {
        let state = self.state();
        let Some(board) = state.board(number, board_number) else {
            return;
        };
        let relative = board.folder(number);
        let trouble = |what: String| {
            Work::Record(EventLine::BoardTrouble {
                round: number,
                board: board_number,
                dir: relative.clone(),
                what,
            })
        };
        let last_words = stderr.last().cloned().unwrap_or_default();
        if board.retry && board.set.is_none() && ended_for_the_retry(&folder) {
            self.voided.remove(&(number, board_number));
            self.say(format!(
                "round {number} board {board_number}: its game ended void; it starts again in a \
                 new folder, as the director asked"
            ));
            return self.start_board(number, played_again(number, board));
        }
        match folder {
            FolderState::Finished {
                result,
                end,
                reason,
            } => {
                let replay = self.file.on_crash == OnCrash::VoidAndReplay
                    && end == "forfeit_crash"
                    && board.dirs.len() <= MAX_REPLAYS
                    && board.set.is_none();
                let (result, reason) = match replay {
                    true => (
                        "Void".into(),
                        format!("{reason}; void under on_crash = \"void-and-replay\""),
                    ),
                    false => (result, reason),
                };
                self.batch
                    .push(Work::Record(board_end(number, board, result, end, reason)));
                if replay {
                    self.start_board(number, played_again(number, board));
                }
            }
            FolderState::Unfinished if board.set.is_some() => {
                self.say(format!(
                    "round {number} board {board_number}: its goref ended ({how}) before its \
                     game did; the director's result stands"
                ));
            }
            FolderState::Unfinished => {
                let tries = self.resumes.entry((number, board_number)).or_insert(0);
                *tries += 1;
                if *tries > MAX_RESUMES {
                    let what = format!(
                        "its goref ended ({how}) without a result {MAX_RESUMES} times: {last_words}"
                    );
                    return self.batch.push(trouble(what));
                }
                self.say(format!(
                    "round {number} board {board_number}: its goref ended ({how}) before a \
                     result; resuming it: {last_words}"
                ));
            }
            FolderState::Empty => {
                let what = format!("its game could not start ({how}): {last_words}");
                self.batch.push(trouble(what));
            }
            FolderState::Live => {
                self.running.insert((number, board_number), None);
            }
            FolderState::Unreadable(why) => self.batch.push(trouble(why)),
        }
    }

    /// Says once a round that it waits for the director, and why, once
    /// every other board of the turn's round has a result.
    fn tell_what_waits(&mut self) {
        let Some(round) = self.turn.clone() else {
            return;
        };
        let stuck: Vec<(&Board, String)> = round
            .boards
            .iter()
            .filter_map(|b| b.needs_director().map(|why| (b, why)))
            .collect();
        let all_else_done = round.boards.len()
            == stuck.len() + round.boards.iter().filter(|b| b.result().is_some()).count();
        if stuck.is_empty() || !all_else_done {
            return;
        }
        let dir = self.settings.dir.display().to_string();
        for (board, why) in stuck {
            let said = (round.number, board.pair.board, why.clone());
            if !self.waiting_said.insert(said) {
                continue;
            }
            let judged = board.played.as_ref().is_some_and(|p| p.result == "?");
            let retry = match judged {
                true => String::new(),
                false => format!(
                    ", or once what failed is put right start it again with `goref event {dir} \
                     retry {} {}` (t on the hall)",
                    round.number, board.pair.board
                ),
            };
            self.say(format!(
                "round {} waits for the director: board {} ({} against {}): {why}; set its result \
                 with `goref event {dir} result {} {} {} RESULT --reason TEXT`{retry}",
                round.number,
                board.pair.board,
                board.pair.black,
                board.pair.white,
                round.number,
                board.pair.black,
                board.pair.white
            ));
        }
    }

    /// Tells the relay which folder each seated entrant plays in now: those
    /// of the boards this run started or follows, so that a goref of an
    /// earlier run's board, voided or started again since, is refused the
    /// entrant's seat.
    fn tell_relay_who_plays(&mut self) {
        if !self.settings.seats {
            return;
        }
        let state = self.state();
        let mut now = HashMap::new();
        for &(round, board) in self.running.keys() {
            let Some(found) = state.board(round, board) else {
                continue;
            };
            let folder = found.folder(round);
            for entrant in [&found.pair.black, &found.pair.white] {
                now.insert(entrant.clone(), folder.clone());
            }
        }
        self.batch.push(Work::Do(Action::Playing(now)));
    }
}

/// The journal's line of `board`'s game ended in its folder.
fn board_end(number: u32, board: &Board, result: String, end: String, reason: String) -> EventLine {
    EventLine::BoardEnd {
        round: number,
        board: board.pair.board,
        black: board.pair.black.clone(),
        white: board.pair.white.clone(),
        dir: board.folder(number),
        result,
        end,
        reason,
    }
}

/// Whether a board the director asked to be started again ended as
/// that asks (void, or stopped before a result) rather than with a
/// result of its own that came first.
fn ended_for_the_retry(folder: &FolderState) -> bool {
    match folder {
        FolderState::Finished { result, .. } => result == "Void",
        FolderState::Unfinished | FolderState::Empty => true,
        FolderState::Live | FolderState::Unreadable(_) => false,
    }
}

/// The board with a new folder for its game played again:
/// `round-N/board-B-2`, `-3`, ...
fn played_again(number: u32, board: &Board) -> Board {
    let mut again = board.clone();
    again.dirs.push(format!(
        "round-{number}/board-{}-{}",
        board.pair.board,
        board.dirs.len() + 1
    ));
    again
}
