//! The event as its file and journal say it stands: the field, each
//! round's pairing and boards, the results, folded from the lines of
//! `event.jsonl` every time rather than kept, so that nothing can drift.
//!
//! Pure: the results of boards whose journal line is missing (the event
//! was killed as a game ended) are handed in by the caller, read from
//! their folders.

use std::collections::HashMap;

use super::file::{Entrant, EventFile};
use super::log::{EventLine, Pair};
use goref_core::game::Color;
use goref_core::tournament::games::{parse_outcome, Game, Outcome};
use goref_core::tournament::knockout::{bracket, Bracket};
use goref_core::tournament::standings::{standings, Standings};
use goref_core::tournament::swiss::Record;

/// One board of a confirmed round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    pub pair: Pair,
    /// The game folders it was played in, relative to the event's: more
    /// than one when a void game was played again.
    pub dirs: Vec<String>,
    /// The result of its last game, as read from the folder.
    pub played: Option<BoardResult>,
    /// The director's result, which stands over the board's.
    pub set: Option<String>,
    /// Why the director set it.
    pub set_reason: Option<String>,
    /// What went wrong with its goref, if it ended without a result.
    pub trouble: Option<String>,
    /// The director asked for it to be started again, and it has not been
    /// yet.
    pub retry: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardResult {
    pub result: String,
    pub end: String,
    pub reason: String,
}

/// The end code of a game whose players could not be set up.
pub(crate) const NO_GAME: &str = "no_game";

impl Board {
    /// The result that counts: the director's, else a decided one of the
    /// board's. A game waiting for the judge (`?`) and one that never
    /// started (a program that cannot be run) wait for the director.
    pub fn result(&self) -> Option<&str> {
        self.set.as_deref().or_else(|| {
            self.played
                .as_ref()
                .filter(|p| p.result != "?" && p.end != NO_GAME)
                .map(|p| p.result.as_str())
        })
    }

    /// The folder the board plays in now, relative to the event's; it is
    /// of round `round`.
    pub fn folder(&self, round: u32) -> String {
        self.dirs
            .last()
            .cloned()
            .unwrap_or_else(|| format!("round-{round}/board-{}", self.pair.board))
    }

    /// Why the board waits for the director, if it does.
    pub fn needs_director(&self) -> Option<String> {
        if self.result().is_some() {
            return None;
        }
        match (&self.trouble, &self.played) {
            (Some(trouble), _) => Some(trouble.clone()),
            (None, Some(played)) if played.result == "?" => {
                Some("the game waits for the judge".into())
            }
            (None, Some(played)) => Some(format!("its game never started: {}", played.reason)),
            (None, None) => None,
        }
    }
}

/// A confirmed round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Round {
    pub number: u32,
    pub boards: Vec<Board>,
    pub byes: Vec<String>,
}

impl Round {
    pub(crate) fn is_over(&self) -> bool {
        self.boards.iter().all(|b| b.result().is_some())
    }
}

/// Where a director's result goes: [`EventState::place_result`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Placement {
    /// The board of the round it is for; none for a game played elsewhere.
    pub board: Option<u32>,
    /// The game as the confirmation repeats it: `round 1 board 1, a (B) -
    /// b (W)`.
    pub recorded: String,
    /// The result it replaces, when the director overrides one.
    pub replaces: Option<String>,
}

/// A result the director set for a game of no board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ElsewhereGame {
    pub round: u32,
    pub black: String,
    pub white: String,
    pub result: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct EventState {
    /// Everyone who entered, in pairing-table order: the file's entrants,
    /// then the late ones.
    pub entrants: Vec<Entrant>,
    /// The round each withdrawn entrant left from.
    pub withdrawn: HashMap<String, u32>,
    pub rounds: Vec<Round>,
    /// Colour swaps asked for a round not confirmed yet.
    pub swaps: Vec<(u32, u32)>,
    pub elsewhere: Vec<ElsewhereGame>,
    pub filler: Option<String>,
    /// How many of `entrants` the event file gives; the rest were added.
    from_file: usize,
}

impl EventState {
    /// Folds the file and the journal's lines.
    pub fn fold<'a>(
        file: &EventFile,
        lines: impl IntoIterator<Item = &'a EventLine>,
    ) -> EventState {
        let mut state = EventState {
            entrants: file.entrants.clone(),
            withdrawn: HashMap::new(),
            rounds: Vec::new(),
            swaps: Vec::new(),
            elsewhere: Vec::new(),
            filler: file.filler.clone(),
            from_file: file.entrants.len(),
        };
        for line in lines {
            state.apply(line);
        }
        state
    }

    fn apply(&mut self, line: &EventLine) {
        match line {
            EventLine::Pairing {
                round,
                boards,
                byes,
                ..
            } => {
                self.rounds.retain(|r| r.number != *round);
                self.rounds.push(Round {
                    number: *round,
                    boards: boards
                        .iter()
                        .map(|pair| Board {
                            pair: pair.clone(),
                            dirs: Vec::new(),
                            played: None,
                            set: None,
                            set_reason: None,
                            trouble: None,
                            retry: false,
                        })
                        .collect(),
                    byes: byes.clone(),
                });
                self.rounds.sort_by_key(|r| r.number);
            }
            EventLine::BoardStart {
                round, board, dir, ..
            } => {
                if let Some(board) = self.board_mut(*round, *board) {
                    if !board.dirs.contains(dir) {
                        board.dirs.push(dir.clone());
                        board.played = None;
                    }
                    board.trouble = None;
                    board.retry = false;
                }
            }
            EventLine::BoardEnd {
                round,
                board,
                result,
                end,
                reason,
                ..
            } => {
                if let Some(board) = self.board_mut(*round, *board) {
                    board.played = Some(BoardResult {
                        result: result.clone(),
                        end: end.clone(),
                        reason: reason.clone(),
                    });
                }
            }
            EventLine::BoardTrouble {
                round, board, what, ..
            } => {
                if let Some(board) = self.board_mut(*round, *board) {
                    board.trouble = Some(what.clone());
                }
            }
            EventLine::Result {
                round,
                black,
                white,
                result,
                reason,
                ..
            } => self.set_result(*round, black, white, result, reason),
            EventLine::BoardRetry { round, board, .. } => {
                if let Some(board) = self.board_mut(*round, *board) {
                    board.retry = true;
                }
            }
            EventLine::SwapColours { round, board } => self.swaps.push((*round, *board)),
            EventLine::Repair { round } => self.swaps.retain(|(r, _)| r != round),
            EventLine::Withdraw {
                name, from_round, ..
            } => {
                let added = self
                    .entrants
                    .iter()
                    .skip(self.from_file)
                    .position(|e| &e.name == name);
                match added {
                    Some(at) if !self.has_played(name) => {
                        self.entrants.remove(self.from_file + at);
                    }
                    _ => {
                        self.withdrawn.insert(name.clone(), *from_round);
                    }
                }
            }
            EventLine::Add { name, player, .. } => {
                if !self.entrants.iter().any(|e| &e.name == name) {
                    self.entrants.push(Entrant {
                        name: name.clone(),
                        player: player.clone(),
                        operator: None,
                        division: None,
                        password: None,
                        cgos: false,
                    });
                }
                self.withdrawn.remove(name);
            }
            EventLine::Standings { .. } => {}
        }
    }

    fn set_result(&mut self, round: u32, black: &str, white: &str, result: &str, reason: &str) {
        let on_board = self
            .rounds
            .iter_mut()
            .filter(|r| r.number == round)
            .flat_map(|r| r.boards.iter_mut())
            .find(|b| b.pair.is_between(black, white));
        match on_board {
            Some(board) => {
                board.set = Some(match board.pair.black == black {
                    true => result.to_string(),
                    false => swap_result(result),
                });
                board.set_reason = Some(reason.to_string());
            }
            None => {
                self.elsewhere
                    .retain(|g| !(g.round == round && g.black == black && g.white == white));
                self.elsewhere.push(ElsewhereGame {
                    round,
                    black: black.into(),
                    white: white.into(),
                    result: result.into(),
                });
            }
        }
    }

    /// Where a result the director sets for `black` against `white` in
    /// `round` goes, or why it is refused: names the wrong way round for
    /// the pairing, an entrant who already has another game or the bye in
    /// the round, or a game that already has a result from play or from
    /// the director (unless `replace`, and then the result it replaces).
    pub(crate) fn place_result(
        &self,
        round: u32,
        black: &str,
        white: &str,
        replace: bool,
    ) -> Result<Placement, String> {
        let confirmed = self.round(round);
        let on_board =
            confirmed.and_then(|r| r.boards.iter().find(|b| b.pair.is_between(black, white)));
        let taken = |existing: Option<String>, what: String| match (existing, replace) {
            (Some(old), false) => Err(format!(
                "{what} already has the result {old}: give --override to set another (the \
                 journal keeps both)"
            )),
            (old, _) => Ok(old),
        };
        if let Some(board) = on_board {
            let place = format!(
                "round {round} board {}, {} (B) - {} (W)",
                board.pair.board, board.pair.black, board.pair.white
            );
            if board.pair.black != black {
                return Err(format!(
                    "{place}: give the names in the pairing's order, Black first"
                ));
            }
            let played = board
                .played
                .as_ref()
                .filter(|p| p.result != "?" && p.result != "Void" && p.end != NO_GAME)
                .map(|p| format!("{} from play", p.result));
            let set = board
                .set
                .as_ref()
                .map(|r| format!("{r} set by the director"));
            let replaces = taken(set.or(played), place.clone())?;
            return Ok(Placement {
                board: Some(board.pair.board),
                recorded: place,
                replaces,
            });
        }
        for name in [black, white] {
            let game = confirmed.and_then(|r| {
                r.boards
                    .iter()
                    .find(|b| b.pair.black == name || b.pair.white == name)
                    .map(|b| {
                        format!(
                            "board {}, {} (B) - {} (W)",
                            b.pair.board, b.pair.black, b.pair.white
                        )
                    })
                    .or_else(|| r.byes.iter().any(|n| n == name).then(|| "the bye".into()))
            });
            let elsewhere = self
                .elsewhere
                .iter()
                .find(|g| {
                    g.round == round
                        && (g.black == name || g.white == name)
                        && !(g.black == black && g.white == white)
                })
                .map(|g| format!("{} (B) - {} (W) {}", g.black, g.white, g.result));
            if let Some(other) = game.or(elsewhere) {
                return Err(format!(
                    "{name} already has a game in round {round}: {other}"
                ));
            }
        }
        let again = self
            .elsewhere
            .iter()
            .find(|g| g.round == round && g.black == white && g.white == black);
        if let Some(g) = again {
            return Err(format!(
                "round {round} already has {} (B) - {} (W) {}: give the names in that order",
                g.black, g.white, g.result
            ));
        }
        let existing = self
            .elsewhere
            .iter()
            .find(|g| g.round == round && g.black == black && g.white == white)
            .map(|g| format!("{} set by the director", g.result));
        let recorded = format!("round {round}, {black} (B) - {white} (W), played elsewhere");
        let replaces = taken(existing, recorded.clone())?;
        Ok(Placement {
            board: None,
            recorded,
            replaces,
        })
    }

    /// Whether `name` has a game or a bye in a confirmed round, or a game
    /// the director entered.
    fn has_played(&self, name: &str) -> bool {
        self.rounds.iter().any(|r| {
            r.byes.iter().any(|b| b == name)
                || r.boards
                    .iter()
                    .any(|b| b.pair.black == name || b.pair.white == name)
        }) || self
            .elsewhere
            .iter()
            .any(|g| g.black == name || g.white == name)
    }

    /// The first name the journal gives a game or a bye that is no
    /// entrant's (the event file renamed or dropped it), with its round.
    pub fn stranger(&self) -> Option<(String, u32)> {
        let known = |name: &str| self.entrants.iter().any(|e| e.name == name);
        let played = self.rounds.iter().flat_map(|r| {
            r.boards
                .iter()
                .flat_map(|b| [&b.pair.black, &b.pair.white])
                .chain(&r.byes)
                .map(move |name| (name, r.number))
        });
        let elsewhere = self
            .elsewhere
            .iter()
            .flat_map(|g| [(&g.black, g.round), (&g.white, g.round)]);
        played
            .chain(elsewhere)
            .find(|(name, _)| !known(name))
            .map(|(name, round)| (name.clone(), round))
    }

    /// Round `number`, if it is confirmed.
    pub fn round(&self, number: u32) -> Option<&Round> {
        self.rounds.iter().find(|r| r.number == number)
    }

    /// Why board `board` of `round` cannot be started again by the
    /// director: it is not a board of the round in play, it has a result,
    /// it plays, or it waits for the judge. A board waits for the director
    /// to be started again when its game never started (a line that failed,
    /// a program that was missing) or its goref failed; one whose goref
    /// plays may be started again while `waits_for_a_seat` says its game
    /// waits, before its first move, for an absent seat.
    pub(crate) fn retry_refusal(
        &self,
        round: u32,
        board: u32,
        waits_for_a_seat: impl FnOnce(&Board) -> bool,
    ) -> Option<String> {
        let Some(found) = self.board(round, board) else {
            return Some(format!("round {round} has no board {board}"));
        };
        if self.current().map(|r| r.number) != Some(round) {
            return Some(format!("round {round} is not the round in play"));
        }
        if let Some(result) = found.result() {
            return Some(format!("board {board} has its result, {result}"));
        }
        match found.needs_director() {
            None if waits_for_a_seat(found) => None,
            None => Some(format!(
                "board {board} is playing or about to; it needs no retry \
                 (one whose game waits for an absent seat may be started again)"
            )),
            Some(_) if found.played.as_ref().is_some_and(|p| p.result == "?") => Some(format!(
                "board {board} waits for the judge: set its result instead"
            )),
            Some(_) => None,
        }
    }

    pub fn board(&self, round: u32, board: u32) -> Option<&Board> {
        self.round(round)
            .and_then(|r| r.boards.iter().find(|b| b.pair.board == board))
    }

    fn board_mut(&mut self, round: u32, board: u32) -> Option<&mut Board> {
        self.rounds
            .iter_mut()
            .find(|r| r.number == round)
            .and_then(|r| r.boards.iter_mut().find(|b| b.pair.board == board))
    }

    /// The last confirmed round, and whether it is over.
    pub fn current(&self) -> Option<&Round> {
        self.rounds.last()
    }

    /// The entrants who play in `round`, in pairing-table order: not
    /// withdrawn before it.
    pub(crate) fn active_in(&self, round: u32) -> Vec<&Entrant> {
        self.entrants
            .iter()
            .filter(|e| self.withdrawn.get(&e.name).is_none_or(|&from| from > round))
            .collect()
    }

    /// Every game with a result, and every bye, for the standings.
    pub fn games(&self) -> Vec<Game> {
        let mut games = Vec::new();
        for round in &self.rounds {
            for taker in &round.byes {
                games.push(Game::Bye {
                    round: round.number,
                    taker: taker.clone(),
                });
            }
            for board in &round.boards {
                if let Some(outcome) = board.result().and_then(|r| parse_outcome(r).ok()) {
                    games.push(Game::Played {
                        round: round.number,
                        black: board.pair.black.clone(),
                        white: board.pair.white.clone(),
                        outcome,
                    });
                }
            }
        }
        for game in &self.elsewhere {
            if let Ok(outcome) = parse_outcome(&game.result) {
                games.push(Game::Played {
                    round: game.round,
                    black: game.black.clone(),
                    white: game.white.clone(),
                    outcome,
                });
            }
        }
        games
    }

    /// The divisions, in the order their first entrants appear; `None` is
    /// the event without one (or its entrants who have none).
    pub fn divisions(&self) -> Vec<Option<&str>> {
        let mut divisions: Vec<Option<&str>> = Vec::new();
        for entrant in &self.entrants {
            if !divisions.contains(&entrant.division.as_deref()) {
                divisions.push(entrant.division.as_deref());
            }
        }
        divisions
    }

    /// A knockout's bracket as the games so far decide it; none for
    /// another system.
    pub fn bracket(&self, file: &EventFile) -> Option<Bracket> {
        let knockout = file.knockout.as_ref()?;
        Some(bracket(&knockout.seeds, &self.games(), &knockout.rules))
    }

    /// Whether every round the event will play is played: all of a Swiss's
    /// or a round robin's, a knockout's once its champion (and third place)
    /// is decided.
    pub fn is_finished(&self, file: &EventFile, played: u32) -> bool {
        match self.bracket(file) {
            Some(bracket) => bracket.is_over(),
            None => played >= file.rounds,
        }
    }

    /// The standings: every entrant but the filler ranked, the filler's
    /// games counting for its opponents.
    pub fn standings(&self, file: &EventFile) -> Result<Standings, String> {
        let names: Vec<String> = self.entrants.iter().map(|e| e.name.clone()).collect();
        let table = standings(&names, &self.games(), &file.tie_breaks, file.bye_score)?
            .with_withdrawals(|name| self.withdrawn.get(name).copied());
        Ok(match &self.filler {
            Some(filler) => table.without(|name| name == filler),
            None => table,
        })
    }

    /// The standings of each division, ranked apart; one table, unnamed,
    /// for an event without divisions.
    pub fn division_standings(
        &self,
        file: &EventFile,
    ) -> Result<Vec<(Option<String>, Standings)>, String> {
        let table = self.standings(file)?;
        let divisions = self.divisions();
        if divisions.len() == 1 {
            return Ok(vec![(divisions[0].map(str::to_string), table)]);
        }
        let division_of = |name: &str| {
            self.entrants
                .iter()
                .find(|e| e.name == name)
                .and_then(|e| e.division.as_deref())
        };
        Ok(divisions
            .into_iter()
            .map(|division| {
                let only = table.clone().without(|name| division_of(name) != division);
                (division.map(str::to_string), only)
            })
            .collect())
    }

    /// What the Swiss pairing needs of each entrant, by index. A void game
    /// counts for nothing: not a meeting, not a colour, as in the
    /// standings.
    pub fn records(&self, file: &EventFile) -> Vec<Record> {
        let index: HashMap<&str, usize> = self
            .entrants
            .iter()
            .enumerate()
            .map(|(i, e)| (e.name.as_str(), i))
            .collect();
        let mut records = vec![Record::default(); self.entrants.len()];
        for game in self.games() {
            match game {
                Game::Bye { taker, .. } => {
                    if let Some(&i) = index.get(taker.as_str()) {
                        records[i].had_bye = true;
                        records[i].score += file.bye_score;
                    }
                }
                Game::Played {
                    black,
                    white,
                    outcome,
                    ..
                } => {
                    let (Some(&b), Some(&w)) =
                        (index.get(black.as_str()), index.get(white.as_str()))
                    else {
                        continue;
                    };
                    if outcome == Outcome::Void {
                        continue;
                    }
                    records[b].met.push(w);
                    records[w].met.push(b);
                    records[b].colours.push(Color::Black);
                    records[w].colours.push(Color::White);
                    let (to_black, to_white) = match outcome {
                        Outcome::Win {
                            winner: Color::Black,
                            ..
                        } => (2, 0),
                        Outcome::Win { .. } => (0, 2),
                        Outcome::Jigo => (1, 1),
                        Outcome::Void => (0, 0),
                    };
                    records[b].score += to_black;
                    records[w].score += to_white;
                }
            }
        }
        records
    }
}

/// A result told from the other side's colour: `B+R` for `W+R`.
fn swap_result(result: &str) -> String {
    match result.split_once('+') {
        Some(("B", how)) => format!("W+{how}"),
        Some(("W", how)) => format!("B+{how}"),
        _ => result.to_string(),
    }
}

#[cfg(test)]
mod tests;
