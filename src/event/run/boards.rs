//! The runner's boards: which may start, each started (or resumed, or
//! followed) in its folder, what its goref says, how it ended and what
//! follows (a result, a resume, a replay, a start again in a new folder),
//! and the games the director decided ended through their sockets.

use super::*;

impl Runner {
    /// Whether the event may start (or resume) a board without a result: one
    /// that needs nobody, or, once a run, one that waits for the director
    /// because its goref failed or its game never started, since what
    /// failed it (a full disk, a missing program) may have been put right
    /// before the event was run again. One waiting for the judge is the
    /// director's alone. One the director asked to be started again is.
    pub(super) fn may_start(&self, number: u32, board: &Board) -> bool {
        let waits_for_the_judge = board.played.as_ref().is_some_and(|p| p.result == "?");
        match board.needs_director() {
            None => true,
            Some(_) if waits_for_the_judge => false,
            Some(_) => board.retry || !self.tried.contains(&(number, board.pair.board)),
        }
    }

    /// Whether a board the director asked to be started again ended as
    /// that asks (void, or stopped before a result) rather than with a
    /// result of its own that came first.
    pub(super) fn ended_for_the_retry(folder: &FolderState) -> bool {
        match folder {
            FolderState::Finished { result, .. } => result == "Void",
            FolderState::Unfinished | FolderState::Empty => true,
            FolderState::Live | FolderState::Unreadable(_) => false,
        }
    }

    /// The board with a new folder for its game played again:
    /// `round-N/board-B-2`, `-3`, ...
    pub(super) fn played_again(number: u32, board: &Board) -> Board {
        let mut again = board.clone();
        again.dirs.push(format!(
            "round-{number}/board-{}-{}",
            board.pair.board,
            board.dirs.len() + 1
        ));
        again
    }

    pub(super) fn start_board(&mut self, number: u32, board: &Board) -> Result<(), String> {
        let relative = board.folder(number);
        let dir = self.dir.join(&relative);
        let key = (number, board.pair.board);
        let resume = match crate::boards::folder_state(&dir) {
            FolderState::Finished { result, .. } if board.retry && result == "Void" => {
                return self.start_board(number, &Self::played_again(number, board));
            }
            FolderState::Finished {
                result,
                end,
                reason,
            } => {
                return self.record(EventLine::BoardEnd {
                    round: number,
                    board: board.pair.board,
                    black: board.pair.black.clone(),
                    white: board.pair.white.clone(),
                    dir: relative,
                    result,
                    end,
                    reason,
                });
            }
            FolderState::Live => {
                self.say(format!(
                    "round {number} board {}: a goref still plays it; the event follows its folder",
                    board.pair.board
                ));
                self.running.insert(key, None);
                return Ok(());
            }
            FolderState::Unreadable(why) => {
                return self.record(EventLine::BoardTrouble {
                    round: number,
                    board: board.pair.board,
                    dir: relative,
                    what: why,
                })
            }
            FolderState::Unfinished => true,
            FolderState::Empty => false,
        };
        let config = dir.with_extension("toml");
        if !resume {
            let text = self.game_file(number, board)?;
            std::fs::create_dir_all(config.parent().expect("a board folder has a parent"))
                .and_then(|()| crate::files::write_atomically(&config, &text))
                .map_err(|e| format!("cannot write {}: {e}", config.display()))?;
        }
        let run = BoardRun {
            round: number,
            board: board.pair.board,
            dir,
            config,
            resume,
            seat_relay: self.seat_relay.clone(),
        };
        if let Some(playing) = &self.seat_playing {
            let mut playing = playing.lock().expect("playing boards");
            for entrant in [&board.pair.black, &board.pair.white] {
                playing.insert(entrant.clone(), run.dir.clone());
            }
        }
        let pid = crate::boards::start(&self.exe, &run, self.options.json, self.news_tx.clone())
            .map_err(|e| format!("cannot start goref for board {}: {e}", board.pair.board))?;
        self.running.insert(key, Some(pid));
        self.record(EventLine::BoardStart {
            round: number,
            board: board.pair.board,
            black: board.pair.black.clone(),
            white: board.pair.white.clone(),
            dir: relative,
            resumed: resume,
        })
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
            format!(
                "round {number} board {}: {} (B) - {} (W)",
                board.pair.board, board.pair.black, board.pair.white
            )
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

    pub(super) fn hear(&mut self, news: BoardNews) -> Result<(), String> {
        match news {
            BoardNews::Line { round, board, text } => {
                if crate::mirror::server::is_screen_of(&text, std::process::id()) {
                    return Ok(());
                }
                match self.options.json {
                    true => drop(console::out(text)),
                    false => self
                        .desk
                        .say(format!("round {round} board {board}: {text}")),
                }
                Ok(())
            }
            BoardNews::Exited {
                round,
                board,
                how,
                stderr,
            } => {
                self.running.remove(&(round, board));
                self.board_exited(round, board, &how, &stderr)
            }
        }
    }

    pub(super) fn board_exited(
        &mut self,
        number: u32,
        board_number: u32,
        how: &str,
        stderr: &[String],
    ) -> Result<(), String> {
        let state = self.state();
        let Some(board) = state.board(number, board_number) else {
            return Ok(());
        };
        let relative = board.folder(number);
        let trouble = |what: String| EventLine::BoardTrouble {
            round: number,
            board: board_number,
            dir: relative.clone(),
            what,
        };
        let last_words = stderr.last().cloned().unwrap_or_default();
        let folder = crate::boards::folder_state(&self.dir.join(&relative));
        if board.retry && board.set.is_none() && Self::ended_for_the_retry(&folder) {
            self.voided.remove(&(number, board_number));
            self.say(format!(
                "round {number} board {board_number}: its game ended void; it starts again in a \
                 new folder, as the director asked"
            ));
            return self.start_board(number, &Self::played_again(number, board));
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
                self.record(EventLine::BoardEnd {
                    round: number,
                    board: board_number,
                    black: board.pair.black.clone(),
                    white: board.pair.white.clone(),
                    dir: relative.clone(),
                    result: match replay {
                        true => "Void".into(),
                        false => result,
                    },
                    end: end.clone(),
                    reason: match replay {
                        true => format!("{reason}; void under on_crash = \"void-and-replay\""),
                        false => reason,
                    },
                })?;
                if replay {
                    self.start_board(number, &Self::played_again(number, board))?;
                }
                Ok(())
            }
            FolderState::Unfinished if board.set.is_some() => {
                self.say(format!(
                    "round {number} board {board_number}: its goref ended ({how}) before its \
                     game did; the director's result stands"
                ));
                Ok(())
            }
            FolderState::Unfinished => {
                let tries = self.resumes.entry((number, board_number)).or_insert(0);
                *tries += 1;
                if *tries > MAX_RESUMES {
                    return self.record(trouble(format!(
                        "its goref ended ({how}) without a result {MAX_RESUMES} times: {last_words}"
                    )));
                }
                self.say(format!(
                    "round {number} board {board_number}: its goref ended ({how}) before a \
                     result; resuming it: {last_words}"
                ));
                Ok(())
            }
            FolderState::Empty => self.record(trouble(format!(
                "its game could not start ({how}): {last_words}"
            ))),
            FolderState::Live => {
                self.running.insert((number, board_number), None);
                Ok(())
            }
            FolderState::Unreadable(why) => self.record(trouble(why)),
        }
    }

    /// Looks at the folders of boards another goref plays.
    pub(super) fn follow_adopted(&mut self) -> Result<(), String> {
        let adopted: Vec<(u32, u32)> = self
            .running
            .iter()
            .filter(|(_, pid)| pid.is_none())
            .map(|(&k, _)| k)
            .collect();
        let state = self.state();
        for (number, board_number) in adopted {
            let Some(board) = state.board(number, board_number) else {
                continue;
            };
            let dir = self.dir.join(board.folder(number));
            if crate::boards::folder_state(&dir) != FolderState::Live {
                self.running.remove(&(number, board_number));
                self.board_exited(number, board_number, "its goref ended", &[])?;
            }
        }
        Ok(())
    }

    /// Whether a goref still plays a board of `round`: one this run
    /// started or follows, or one it has not seen yet (the event was run
    /// again while it played, and the director set its result meanwhile).
    pub(super) fn has_live_boards(&self, round: &crate::event::state::Round) -> bool {
        self.running.keys().any(|&(r, _)| r == round.number)
            || !self.live_unfollowed(round).is_empty()
    }

    /// The boards of `round` a goref plays that this run neither started
    /// nor follows: those that had no reason to be started because the
    /// director had set their results.
    pub(super) fn live_unfollowed(&self, round: &crate::event::state::Round) -> Vec<(u32, u32)> {
        round
            .boards
            .iter()
            .filter(|b| b.played.is_none())
            .map(|b| ((round.number, b.pair.board), b.folder(round.number)))
            .filter(|(key, dir)| {
                !self.running.contains_key(key) && crate::boards::is_live(&self.dir.join(dir))
            })
            .map(|(key, _)| key)
            .collect()
    }

    /// Follows the boards [`Self::live_unfollowed`] finds.
    pub(super) fn adopt_live_boards(&mut self, round: &crate::event::state::Round) {
        for key in self.live_unfollowed(round) {
            self.running.insert(key, None);
        }
    }

    /// Ends the game of every board still played whose result the director
    /// set, or that the director asked to be started again (its game
    /// waited for an absent seat): through its folder's attach socket, so
    /// that its journal and record end void with the director's reason,
    /// whether this run started its goref or found it playing. A goref that
    /// does not answer is sent SIGTERM, and SIGKILL once it has had as long
    /// again.
    pub(super) fn stop_boards_the_director_decided(&mut self, round: &crate::event::state::Round) {
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
            let dir = self.dir.join(b.folder(round.number));
            let now = std::time::Instant::now();
            match self.voided.get(&key) {
                None => {
                    self.voided.insert(key, now);
                    if let Err(trouble) = crate::boards::void_game(&dir, &why) {
                        self.say(format!(
                            "round {} board {}: the director {decided} but {trouble}; \
                             stopping it with SIGTERM",
                            round.number, b.pair.board
                        ));
                        crate::boards::signal(&dir, pid, libc::SIGTERM);
                    }
                }
                Some(asked) if now.duration_since(*asked) > 2 * crate::boards::VOID_WAIT => {
                    self.say(format!(
                        "round {} board {}: its goref is still alive {}s after the director \
                         {decided}: killing it",
                        round.number,
                        b.pair.board,
                        now.duration_since(*asked).as_secs()
                    ));
                    crate::boards::signal(&dir, pid, libc::SIGKILL);
                    self.voided.insert(key, now);
                }
                Some(_) => {}
            }
        }
    }
}
