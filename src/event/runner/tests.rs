//! The event runner's rules, with its journal, folders, gorefs and
//! director played by hand: a board resumed up to the limit and then left
//! to the director, a crash's void played again up to the limit, the
//! director's result ending a game still played (and its goref killed if
//! it does not answer), a round closed only once every board has a result,
//! a restart finding boards finished, live and dead, the rest between
//! rounds, the director's answers, and a stop leaving the boards playing.

use std::collections::{HashMap, VecDeque};

use super::*;
use crate::event::file::parse;
use crate::event::log::Pair;
use crate::test_support::epoch;

const BOARD_1: &str = "round-1/board-1";

fn event_file(extra: &str, entrants: usize) -> EventFile {
    let entrants: String = ["a", "b", "c", "d", "e", "f"][..entrants]
        .iter()
        .map(|n| format!("[[entrant]]\nname = \"{n}\"\nplayer = \"bot\"\n"))
        .collect();
    parse(&format!(
        "name = \"cup\"\nsystem = \"swiss\"\n{extra}\n{entrants}"
    ))
    .unwrap()
}

fn pairing(round: u32, boards: &[(&str, &str)]) -> EventLine {
    EventLine::Pairing {
        round,
        boards: boards
            .iter()
            .enumerate()
            .map(|(at, (black, white))| Pair {
                board: at as u32 + 1,
                black: black.to_string(),
                white: white.to_string(),
            })
            .collect(),
        byes: Vec::new(),
        confirmed_by: "--yes".into(),
    }
}

fn finished(result: &str, end: &str) -> FolderState {
    FolderState::Finished {
        result: result.into(),
        end: end.into(),
        reason: format!("{end} in the game"),
    }
}

/// The world the runner runs in: its journal, folders, gorefs, director
/// and desk, each answering as the test sets it.
struct Hall {
    runner: EventRunner,
    now: Now,
    /// What each board folder says when looked at: empty unless set.
    folders: HashMap<String, FolderState>,
    /// The lines the runner recorded.
    journal: Vec<EventLine>,
    /// Lines written beside the runner (`goref event DIR result`), read
    /// with the next.
    beside: Vec<EventLine>,
    said: Vec<String>,
    /// Each goref started: (round, board, folder, resumed).
    spawned: Vec<(u32, u32, String, bool)>,
    voided: Vec<String>,
    void_answer: Result<(), String>,
    signals: Vec<(String, i32)>,
    answers: VecDeque<Asked>,
    asked: Vec<Vec<String>>,
    ended: Option<Action>,
    next_pid: u32,
}

impl Hall {
    /// The runner begun on `file` and `lines`, all it asked first done.
    fn new(file: EventFile, lines: Vec<EventLine>, yes: bool) -> Hall {
        let lines = lines.into_iter().map(|l| (l, 0)).collect();
        let mut hall = Hall::unstarted(file, lines, yes, 0);
        hall.carry_out();
        hall
    }

    /// The runner begun at `unix_ms` on `file` and `lines`, each stamped
    /// when written, nothing it asks done yet.
    fn unstarted(file: EventFile, lines: Vec<(EventLine, u64)>, yes: bool, unix_ms: u64) -> Hall {
        let now = Now {
            at: epoch(),
            unix_ms,
        };
        let settings = Settings {
            dir: PathBuf::from("/events/cup"),
            yes,
            json: false,
            wants_pictures: false,
            seats: false,
            pid: 1,
        };
        let lines = lines
            .into_iter()
            .map(|(line, at_ms)| Logged { line, at_ms })
            .collect();
        Hall {
            runner: EventRunner::new(settings, file, lines, now),
            now,
            folders: HashMap::new(),
            journal: Vec::new(),
            beside: Vec::new(),
            said: Vec::new(),
            spawned: Vec::new(),
            voided: Vec::new(),
            void_answer: Ok(()),
            signals: Vec::new(),
            answers: VecDeque::new(),
            asked: Vec::new(),
            ended: None,
            next_pid: 100,
        }
    }

    fn carry_out(&mut self) {
        while let Some(action) = self.runner.poll_action() {
            match action {
                Action::Say(line) => self.said.push(line),
                Action::Record { line, progress, .. } => {
                    self.said.extend(progress);
                    self.journal.push(line.clone());
                    let mut new = vec![line];
                    new.append(&mut self.beside);
                    let new = self.stamped(new);
                    self.runner.handle_journal(new);
                }
                Action::ReadJournal => {
                    let new = std::mem::take(&mut self.beside);
                    let new = self.stamped(new);
                    self.runner.handle_journal(new);
                }
                Action::Look { round, board, dir } => {
                    let folder = self.folders.get(&dir).cloned();
                    let folder = folder.unwrap_or(FolderState::Empty);
                    self.runner.handle_folder(round, board, folder);
                }
                Action::CheckPrograms(players) => {
                    self.runner.handle_programs(vec![None; players.len()])
                }
                Action::Spawn {
                    round,
                    board,
                    dir,
                    resume,
                    ..
                } => {
                    self.spawned.push((round, board, dir, resume));
                    self.next_pid += 1;
                    self.runner.handle_spawned(round, board, self.next_pid);
                }
                Action::Void { dir, .. } => {
                    self.voided.push(dir);
                    self.runner.handle_voided(self.void_answer.clone());
                }
                Action::Signal { dir, signal, .. } => self.signals.push((dir, signal)),
                Action::Ask(shown) => {
                    self.asked.push(shown);
                    let answer = self.answers.pop_front().unwrap_or(Asked::Quit);
                    self.runner.handle_answer(answer);
                }
                Action::Finished { .. } | Action::Stopped(_) | Action::Failed(_) => {
                    assert!(self.ended.is_none(), "the runner ends once: {action:?}");
                    self.ended = Some(action);
                }
                Action::Print(_)
                | Action::Standings(_)
                | Action::Show(_)
                | Action::Playing(_)
                | Action::WritePage(_)
                | Action::Farewell(_) => {}
            }
        }
    }

    fn stamped(&self, lines: Vec<EventLine>) -> Vec<Logged> {
        let at_ms = self.now.unix_ms;
        lines
            .into_iter()
            .map(|line| Logged { line, at_ms })
            .collect()
    }

    /// Time goes by until the runner's timeout, or `by` if it is later.
    fn tick(&mut self, by: Duration) {
        let due = self.runner.poll_timeout().expect("the runner waits");
        let at = due.max(self.now.at + by);
        self.now.unix_ms += (at - self.now.at).as_millis() as u64;
        self.now.at = at;
        self.runner.handle_timeout(self.now);
        self.carry_out();
    }

    /// The goref of `board` of round `round` ends; its folder says
    /// `folder`.
    fn ends(&mut self, round: u32, board: u32, dir: &str, folder: FolderState) {
        assert!(self.runner.listens(), "the runner listens to its boards");
        self.folders.insert(dir.into(), folder);
        let news = BoardNews::Exited {
            round,
            board,
            how: "exit status 1".into(),
            stderr: vec!["the disk is full".into()],
        };
        self.runner.handle_board_news(news, self.now);
        self.carry_out();
    }

    fn spawns_since(&self, from: usize) -> Vec<(u32, u32, String, bool)> {
        self.spawned[from..].to_vec()
    }

    fn said_with(&self, words: &str) -> Vec<&String> {
        self.said.iter().filter(|l| l.contains(words)).collect()
    }

    fn standings_recorded(&self) -> Vec<u32> {
        self.journal
            .iter()
            .filter_map(|line| match line {
                EventLine::Standings { round, .. } => Some(*round),
                _ => None,
            })
            .collect()
    }
}

fn spawn(dir: &str, board: u32, resume: bool) -> (u32, u32, String, bool) {
    (1, board, dir.to_string(), resume)
}

fn one_board() -> Hall {
    let hall = Hall::new(
        event_file("rounds = 1", 2),
        vec![pairing(1, &[("a", "b")])],
        true,
    );
    assert_eq!(hall.spawned, [spawn(BOARD_1, 1, false)]);
    hall
}

#[test]
fn a_board_whose_goref_dies_is_resumed_three_times_then_left_to_the_director() {
    let mut hall = one_board();
    for resume in 1..=MAX_RESUMES {
        let from = hall.spawned.len();
        hall.ends(1, 1, BOARD_1, FolderState::Unfinished);
        assert_eq!(
            hall.spawns_since(from),
            [spawn(BOARD_1, 1, true)],
            "resume {resume}: its game goes on in its folder"
        );
        assert_eq!(
            hall.said_with("resuming it: the disk is full").len(),
            resume as usize
        );
    }
    let from = hall.spawned.len();
    hall.ends(1, 1, BOARD_1, FolderState::Unfinished);
    assert_eq!(hall.spawns_since(from), [], "no fourth resume");
    assert!(matches!(
        hall.journal.last(),
        Some(EventLine::BoardTrouble { what, .. })
            if what == "its goref ended (exit status 1) without a result 3 times: the disk is full"
    ));
    assert_eq!(
        hall.said_with("round 1 waits for the director: board 1")
            .len(),
        1
    );
    hall.tick(TICK);
    hall.tick(TICK);
    assert_eq!(
        hall.spawns_since(from),
        [],
        "the board waits for the director"
    );
    assert_eq!(
        hall.said_with("waits for the director").len(),
        1,
        "said once"
    );
    assert!(hall.standings_recorded().is_empty());

    hall.beside.push(EventLine::Result {
        round: 1,
        black: "a".into(),
        white: "b".into(),
        result: "B+F".into(),
        reason: "its program cannot run".into(),
        replaces: None,
    });
    hall.tick(TICK);
    assert_eq!(hall.standings_recorded(), [1]);
    assert!(matches!(hall.ended, Some(Action::Finished { .. })));
}

#[test]
fn a_game_voided_by_a_crash_is_played_again_up_to_the_limit_then_its_forfeit_stands() {
    let mut hall = Hall::new(
        event_file("rounds = 1\non_crash = \"void-and-replay\"", 2),
        vec![pairing(1, &[("a", "b")])],
        true,
    );
    let folders = [BOARD_1, "round-1/board-1-2", "round-1/board-1-3"];
    for (replay, folder) in folders.iter().enumerate().take(MAX_REPLAYS) {
        let from = hall.spawned.len();
        hall.ends(1, 1, folder, finished("W+F", "forfeit_crash"));
        assert!(matches!(
            hall.journal.iter().rev().nth(1),
            Some(EventLine::BoardEnd { result, reason, dir, .. })
                if result == "Void" && dir == folder
                    && reason.ends_with("void under on_crash = \"void-and-replay\"")
        ));
        assert_eq!(
            hall.spawns_since(from),
            [spawn(folders[replay + 1], 1, false)],
            "replay {}: played again from its start in a new folder",
            replay + 1
        );
    }
    let from = hall.spawned.len();
    hall.ends(1, 1, folders[2], finished("W+F", "forfeit_crash"));
    assert_eq!(hall.spawns_since(from), []);
    assert!(hall.journal.iter().any(|line| matches!(
        line,
        EventLine::BoardEnd { result, dir, .. } if result == "W+F" && dir == folders[2]
    )));
    assert_eq!(hall.standings_recorded(), [1]);
    assert!(matches!(hall.ended, Some(Action::Finished { .. })));
}

#[test]
fn a_crash_is_a_forfeit_unless_the_event_voids_it() {
    let mut hall = one_board();
    hall.ends(1, 1, BOARD_1, finished("W+F", "forfeit_crash"));
    assert_eq!(hall.spawned.len(), 1);
    assert!(matches!(
        hall.journal.iter().find(|l| matches!(l, EventLine::BoardEnd { .. })),
        Some(EventLine::BoardEnd { result, .. }) if result == "W+F"
    ));
}

#[test]
fn the_directors_result_ends_a_game_still_played_and_its_goref_is_killed_if_it_does_not_answer() {
    let mut hall = one_board();
    hall.void_answer = Err("cannot reach its goref".into());
    hall.beside.push(EventLine::Result {
        round: 1,
        black: "a".into(),
        white: "b".into(),
        result: "W+F".into(),
        reason: "a missed round".into(),
        replaces: None,
    });
    hall.tick(TICK);
    assert_eq!(hall.voided, [BOARD_1]);
    assert_eq!(hall.signals, [(BOARD_1.to_string(), libc::SIGTERM)]);
    assert_eq!(
        hall.said_with("the director set its result but cannot reach its goref; stopping it")
            .len(),
        1
    );
    hall.tick(TICK);
    assert_eq!(hall.voided.len(), 1, "the void is asked once");
    assert_eq!(hall.signals.len(), 1, "the goref is given its time");
    assert!(hall.standings_recorded().is_empty(), "a goref still plays");

    hall.tick(2 * crate::boards::VOID_WAIT);
    assert_eq!(hall.signals.len(), 2);
    assert_eq!(hall.signals[1], (BOARD_1.to_string(), libc::SIGKILL));

    hall.ends(1, 1, BOARD_1, finished("Void", "void"));
    assert!(hall.journal.iter().any(|line| matches!(
        line,
        EventLine::BoardEnd { result, .. } if result == "Void"
    )));
    assert_eq!(
        hall.spawned.len(),
        1,
        "a game the director decided is not played again"
    );
    assert_eq!(hall.standings_recorded(), [1]);
    assert!(matches!(hall.ended, Some(Action::Finished { .. })));
}

#[test]
fn a_round_closes_and_the_next_is_paired_only_once_every_board_has_a_result() {
    let mut hall = Hall::new(
        event_file("rounds = 2", 4),
        vec![pairing(1, &[("a", "b"), ("c", "d")])],
        true,
    );
    assert_eq!(
        hall.spawned,
        [spawn(BOARD_1, 1, false), spawn("round-1/board-2", 2, false)]
    );
    hall.ends(1, 1, BOARD_1, finished("B+R", "resign"));
    hall.tick(TICK);
    assert!(hall.standings_recorded().is_empty());
    assert!(!hall
        .journal
        .iter()
        .any(|l| matches!(l, EventLine::Pairing { round: 2, .. })));

    hall.ends(1, 2, "round-1/board-2", finished("W+T", "time"));
    assert_eq!(hall.standings_recorded(), [1]);
    let paired = hall
        .journal
        .iter()
        .position(|l| matches!(l, EventLine::Pairing { round: 2, .. }))
        .expect("round 2 is paired");
    let closed = hall
        .journal
        .iter()
        .position(|l| matches!(l, EventLine::Standings { round: 1, .. }))
        .unwrap();
    assert!(
        closed < paired,
        "the standings come before the next pairing"
    );
    assert_eq!(hall.spawned.len(), 4, "round 2's boards start");
    assert!(hall.spawned[2..].iter().all(|(round, ..)| *round == 2));
}

#[test]
fn a_restart_records_finished_boards_follows_live_ones_and_resumes_dead_ones() {
    let boards = [("a", "b"), ("c", "d"), ("e", "f")];
    let mut lines = vec![pairing(1, &boards)];
    for (at, (black, white)) in boards.iter().enumerate() {
        lines.push(EventLine::BoardStart {
            round: 1,
            board: at as u32 + 1,
            black: black.to_string(),
            white: white.to_string(),
            dir: format!("round-1/board-{}", at + 1),
            resumed: false,
        });
    }
    let lines = lines.into_iter().map(|l| (l, 0)).collect();
    let mut hall = Hall::unstarted(event_file("rounds = 1", 6), lines, true, 0);
    hall.folders = HashMap::from([
        (BOARD_1.to_string(), finished("B+R", "resign")),
        ("round-1/board-2".to_string(), FolderState::Live),
        ("round-1/board-3".to_string(), FolderState::Unfinished),
    ]);
    hall.carry_out();

    assert!(matches!(
        hall.journal.first(),
        Some(EventLine::BoardEnd { board: 1, result, .. }) if result == "B+R"
    ));
    assert_eq!(
        hall.spawned,
        [spawn("round-1/board-3", 3, true)],
        "the finished board keeps its result, the live one is followed, the dead one resumed"
    );
    hall.tick(TICK);
    assert_eq!(hall.spawned.len(), 1, "the live board is still followed");

    hall.folders
        .insert("round-1/board-2".into(), finished("W+R", "resign"));
    hall.tick(TICK);
    assert!(hall.journal.iter().any(|line| matches!(
        line,
        EventLine::BoardEnd { board: 2, result, .. } if result == "W+R"
    )));
    assert!(hall.standings_recorded().is_empty(), "board 3 plays on");
    hall.ends(1, 3, "round-1/board-3", finished("B+2.5", "score"));
    assert_eq!(hall.standings_recorded(), [1]);
}

#[test]
fn a_stop_asked_ends_the_event_and_leaves_its_boards_playing() {
    let mut hall = Hall::new(
        event_file("rounds = 1", 4),
        vec![pairing(1, &[("a", "b"), ("c", "d")])],
        true,
    );
    assert_eq!(hall.spawned.len(), 2);
    hall.runner.handle_stop_asked(libc::SIGTERM);
    hall.tick(TICK);
    let Some(Action::Stopped(why)) = &hall.ended else {
        panic!("the event stops: {:?}", hall.ended);
    };
    assert!(
        why.starts_with("goref received SIGTERM: the event stops; 2 board(s) play on"),
        "{why}"
    );
    assert!(
        hall.signals.is_empty() && hall.voided.is_empty(),
        "no board is stopped"
    );
    assert_eq!(hall.runner.poll_timeout(), None, "the runner is over");
}

#[test]
fn the_rest_between_rounds_is_counted_from_the_end_of_the_last() {
    let ended_ms = 5_000_000;
    let mut lines = vec![(pairing(1, &[("a", "b")]), 0)];
    lines.push((
        EventLine::BoardEnd {
            round: 1,
            board: 1,
            black: "a".into(),
            white: "b".into(),
            dir: BOARD_1.into(),
            result: "B+R".into(),
            end: "resign".into(),
            reason: String::new(),
        },
        0,
    ));
    lines.push((
        EventLine::Standings {
            round: 1,
            standings: serde_json::Value::Null,
        },
        ended_ms,
    ));
    lines.push((pairing(2, &[("b", "a")]), ended_ms));
    let file = event_file("rounds = 2\nrest = \"1m\"", 2);
    let mut hall = Hall::unstarted(file, lines, true, ended_ms + 20_000);
    hall.carry_out();
    assert!(hall.spawned.is_empty());
    hall.tick(Duration::ZERO);
    assert_eq!(
        hall.said_with("round 2 starts in 40s: the rest between games")
            .len(),
        1
    );
    hall.tick(Duration::from_secs(39));
    assert!(hall.spawned.is_empty(), "the rest is not over");
    hall.tick(Duration::from_secs(1));
    assert_eq!(hall.spawned, [(2, 1, "round-2/board-1".to_string(), false)]);
}

#[test]
fn the_director_confirms_the_pairing_or_quits_before_it() {
    let mut hall = Hall::unstarted(event_file("rounds = 1", 2), Vec::new(), false, 0);
    hall.answers = VecDeque::from([
        Asked::NotYet,
        Asked::Answer("swap 7".into()),
        Asked::Answer("y".into()),
    ]);
    hall.carry_out();
    assert_eq!(
        hall.asked.len(),
        3,
        "asked again after no answer and a wrong one"
    );
    assert_eq!(hall.said_with("round 1 has no board 7").len(), 1);
    assert!(matches!(
        hall.journal.first(),
        Some(EventLine::Pairing { round: 1, confirmed_by, .. }) if confirmed_by == "director"
    ));
    assert_eq!(hall.spawned.len(), 1);

    let quits = Hall::new(event_file("rounds = 1", 2), Vec::new(), false);
    assert!(quits.journal.is_empty());
    assert!(matches!(
        &quits.ended,
        Some(Action::Stopped(why)) if why.starts_with("the event stops before round 1 is confirmed")
    ));
}
