//! The hall's picture of the event ([`EventPicture`]), drawn from the
//! event's state: the round the hall shows, its boards and where each
//! stands, and the standings.

use super::file::EventFile;
use super::log::Pair;
use super::pairing::Proposal;
use super::state::{Board, EventState};
use goref_core::tournament::hall::{BoardPicture, EventPicture, Stage};

/// The picture of the event at `stage`, showing `round`'s boards;
/// `playing` says whether a goref plays a board now.
pub fn draw(
    file: &EventFile,
    state: &EventState,
    round: u32,
    stage: Stage,
    playing: impl Fn(u32) -> bool,
) -> Result<EventPicture, String> {
    let (boards, byes) = match state.round(round) {
        Some(shown) => (
            shown
                .boards
                .iter()
                .map(|b| board(b, playing(b.pair.board)))
                .collect(),
            shown.byes.clone(),
        ),
        None => (Vec::new(), Vec::new()),
    };
    Ok(EventPicture {
        name: file.name.clone(),
        rounds: file.rounds.max(round),
        round,
        stage,
        boards,
        byes,
        standings: state.division_standings(file)?,
        bracket: state.bracket(file),
        seats: Vec::new(),
    })
}

/// The stage of a proposal waiting for the director.
pub fn pairing(proposal: &Proposal) -> Stage {
    Stage::Pairing {
        round: proposal.round,
        boards: proposal.boards.iter().map(proposed).collect(),
        byes: proposal.byes.clone(),
        rematches: proposal.rematches.iter().map(|&(board, _)| board).collect(),
        notes: proposal.notes.clone(),
    }
}

fn board(board: &Board, playing: bool) -> BoardPicture {
    let result = board.result().map(str::to_string);
    let reason = match (&board.set, &board.played) {
        (Some(_), _) => Some("set by the director".to_string()),
        (None, Some(played)) => Some(played.reason.clone()),
        (None, None) => None,
    };
    BoardPicture {
        dir: board.dirs.last().cloned(),
        playing,
        result,
        reason,
        needs_director: board.needs_director(),
        ..proposed(&board.pair)
    }
}

fn proposed(pair: &Pair) -> BoardPicture {
    BoardPicture {
        board: pair.board,
        black: pair.black.clone(),
        white: pair.white.clone(),
        dir: None,
        playing: false,
        result: None,
        reason: None,
        needs_director: None,
        label: None,
    }
}
