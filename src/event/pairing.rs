//! The next round's pairing, proposed from the event file and the state:
//! who plays whom on which board, with which colours, and who has the bye.
//!
//! - The field: the entrants not withdrawn and without a game of the round
//!   the director already decided, the filler joining only to make an odd
//!   field even (then there is no bye).
//! - Divisions: each is paired on its own in the same round, its boards
//!   numbered on from the last division's; the filler fills its own.
//! - Swiss: [`goref_core::tournament::swiss::pair`] over the field in the order
//!   of the standings so far (the filler last). Round robin: the Berger
//!   tables over the file's entrants, whose numbers stay fixed; a game
//!   against a withdrawn entrant is not played.
//! - Colours: `nigiri` draws each board's from the seed, the round and the
//!   board; `balanced` keeps the pairing's. Either way nobody is given a
//!   colour a third time running when the other way round avoids it. The
//!   director's swaps come last.
//!
//! The same file, journal and seed give the same proposal every time, so
//! a pairing proposed before a kill is proposed again after it.

use std::collections::HashMap;

use super::file::{Colours, EventFile, System};
use super::log::Pair;
use super::state::EventState;
use crate::players::{program_problem, PlayerSpec};
use crate::transport::line_spec::LineTarget;
use goref_core::game::Color;
use goref_core::tournament::knockout::Bracket;
use goref_core::tournament::round_robin::{self, RoundPairing};
use goref_core::tournament::swiss;

/// A round's pairing before the director confirms it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proposal {
    pub round: u32,
    pub boards: Vec<Pair>,
    /// Who sits the round out, one per odd division at most.
    pub byes: Vec<String>,
    /// The boards whose two entrants met before, with the round they met
    /// in first: a Swiss longer than its field allows repeats pairings.
    pub rematches: Vec<(u32, u32)>,
    /// What the director should know before confirming: each rematch, and
    /// each line entrant's line and colour.
    pub notes: Vec<String>,
}

/// Proposes round `round` (from 1).
pub fn propose(file: &EventFile, state: &EventState, round: u32) -> Proposal {
    if let Some(bracket) = state.bracket(file) {
        return knockout_proposal(file, state, round, &bracket);
    }
    let names: Vec<&str> = state.entrants.iter().map(|e| e.name.as_str()).collect();
    let index: HashMap<&str, usize> = names.iter().enumerate().map(|(i, &n)| (n, i)).collect();
    let mut pairing = RoundPairing {
        pairs: Vec::new(),
        bye: None,
    };
    let mut byes = Vec::new();
    for division in state.divisions() {
        let field = field(state, round, division);
        let division_pairing = match file.system {
            System::Swiss => swiss_pairing(file, state, &field, &index, round),
            System::RoundRobin | System::DoubleRoundRobin | System::Knockout => {
                robin_pairing(file, state, &field, &index, round, division)
            }
        };
        pairing.pairs.extend(division_pairing.pairs);
        byes.extend(division_pairing.bye.map(|i| names[i].to_string()));
    }
    let records = state.records(file);
    let third_running = |i: usize, side: Color| swiss::third_running(&records[i], side);
    let avoidable = |black: usize, white: usize| {
        let breaks = |b, w| third_running(b, Color::Black) || third_running(w, Color::White);
        breaks(black, white) && !breaks(white, black)
    };
    let mut boards: Vec<Pair> = pairing
        .pairs
        .iter()
        .enumerate()
        .map(|(at, &(black, white))| {
            let board = at as u32 + 1;
            let (black, white) = match file.colours {
                Colours::Nigiri if nigiri(file.seed, round, board) => (white, black),
                _ => (black, white),
            };
            let (black, white) = match avoidable(black, white) {
                true => (white, black),
                false => (black, white),
            };
            Pair {
                board,
                black: names[black].to_string(),
                white: names[white].to_string(),
            }
        })
        .collect();
    for &(_, board) in state.swaps.iter().filter(|(r, _)| *r == round) {
        if let Some(pair) = boards.iter_mut().find(|p| p.board == board) {
            std::mem::swap(&mut pair.black, &mut pair.white);
        }
    }
    let rematches: Vec<(u32, u32)> = boards
        .iter()
        .filter_map(|p| met_in(state, round, &p.black, &p.white).map(|met| (p.board, met)))
        .collect();
    let mut notes: Vec<String> = rematches
        .iter()
        .filter_map(|&(board, met)| {
            let pair = boards.iter().find(|p| p.board == board)?;
            Some(format!(
                "board {board}: {} and {} met in round {met}: a rematch",
                pair.black, pair.white
            ))
        })
        .collect();
    notes.extend(line_notes(state, &boards));
    Proposal {
        round,
        boards,
        byes,
        rematches,
        notes,
    }
}

/// A knockout's round: every match whose two sides are known and that is
/// not decided, a first game's colours drawn as the event draws them (the
/// higher seed Black when they are not), a replay's swapped from the game
/// before; the first stage's byes in round 1.
fn knockout_proposal(
    file: &EventFile,
    state: &EventState,
    round: u32,
    bracket: &Bracket,
) -> Proposal {
    let mut notes = Vec::new();
    let mut boards: Vec<Pair> = bracket
        .next_games()
        .into_iter()
        .enumerate()
        .map(|(at, game)| {
            let board = at as u32 + 1;
            let drawn = file.colours == Colours::Nigiri && nigiri(file.seed, round, board);
            let (black, white) = match !game.replay && drawn {
                true => (game.white, game.black),
                false => (game.black, game.white),
            };
            notes.push(match game.replay {
                true => format!(
                    "board {board}, {}: {black} and {white} play again, colours swapped: their \
                     game was drawn or void",
                    game.stage
                ),
                false => format!("board {board}: {}", game.stage),
            });
            Pair {
                board,
                black,
                white,
            }
        })
        .collect();
    for &(_, board) in state.swaps.iter().filter(|(r, _)| *r == round) {
        if let Some(pair) = boards.iter_mut().find(|p| p.board == board) {
            std::mem::swap(&mut pair.black, &mut pair.white);
        }
    }
    notes.extend(line_notes(state, &boards));
    let byes = match round {
        1 => bracket.first_byes(),
        _ => Vec::new(),
    };
    Proposal {
        round,
        boards,
        byes,
        rematches: Vec::new(),
        notes,
    }
}

/// For each entrant on a GMP or SGMP line, the colour its program must be
/// set to for its board, and whether the line is there: `board 2:
/// gnugo-line plays White on /dev/ttyS0: set it to White`.
pub(crate) fn line_notes(state: &EventState, boards: &[Pair]) -> Vec<String> {
    let mut notes = Vec::new();
    for pair in boards {
        for (name, colour) in [(&pair.black, Color::Black), (&pair.white, Color::White)] {
            let Some(entrant) = state.entrants.iter().find(|e| &e.name == name) else {
                continue;
            };
            let Ok(spec) = entrant.player.parse::<PlayerSpec>() else {
                continue;
            };
            let PlayerSpec::Line { line, .. } = &spec else {
                continue;
            };
            let place = match &line.target {
                LineTarget::Device { path, .. } => path.display().to_string(),
                LineTarget::Tcp { host, port } => format!("{host}:{port}"),
            };
            let mut note = format!(
                "board {}: {name} plays {colour} on {place}: set it to {colour}",
                pair.board
            );
            if let Some(problem) = program_problem(&spec) {
                note.push_str(&format!(
                    "; but {problem}: connect it, then start the board again (t on the hall)"
                ));
            }
            notes.push(note);
        }
    }
    notes
}

/// The first round before `round` in which `a` and `b` met, on a board or
/// in a game the director entered.
fn met_in(state: &EventState, round: u32, a: &str, b: &str) -> Option<u32> {
    let on_boards = state
        .rounds
        .iter()
        .filter(|r| r.number < round)
        .find(|r| r.boards.iter().any(|x| x.pair.is_between(a, b)))
        .map(|r| r.number);
    let elsewhere = state
        .elsewhere
        .iter()
        .filter(|g| {
            g.round < round && ((g.black == a && g.white == b) || (g.black == b && g.white == a))
        })
        .map(|g| g.round)
        .min();
    on_boards.into_iter().chain(elsewhere).min()
}

/// The names of `division` that play `round`: its active entrants, the
/// filler (when it is of the division) only when the rest are odd.
fn field<'a>(state: &'a EventState, round: u32, division: Option<&str>) -> Vec<&'a str> {
    let filler = state.filler.as_deref().filter(|f| {
        state
            .entrants
            .iter()
            .any(|e| e.name == *f && e.division.as_deref() == division)
    });
    let decided_elsewhere = |name: &str| {
        state
            .elsewhere
            .iter()
            .any(|g| g.round == round && (g.black == name || g.white == name))
    };
    let ranked: Vec<&str> = state
        .active_in(round)
        .into_iter()
        .filter(|e| e.division.as_deref() == division)
        .map(|e| e.name.as_str())
        .filter(|&n| Some(n) != filler && !decided_elsewhere(n))
        .collect();
    let filler_plays = ranked.len() % 2 == 1
        && filler.is_some_and(|f| state.active_in(round).iter().any(|e| e.name == f));
    let mut field = ranked;
    if filler_plays {
        field.extend(filler);
    }
    field
}

fn swiss_pairing(
    file: &EventFile,
    state: &EventState,
    field: &[&str],
    index: &HashMap<&str, usize>,
    round: u32,
) -> RoundPairing {
    let rank: HashMap<String, usize> = state
        .standings(file)
        .map(|table| table.rows.into_iter().map(|r| (r.name, r.rank)).collect())
        .unwrap_or_default();
    let mut order: Vec<usize> = field.iter().map(|n| index[n]).collect();
    order.sort_by_key(|&i| {
        let name = state.entrants[i].name.as_str();
        (rank.get(name).copied().unwrap_or(usize::MAX), i)
    });
    let records = state.records(file);
    swiss::pair(&order, &records, mix(file.seed, round as u64))
}

fn robin_pairing(
    file: &EventFile,
    state: &EventState,
    field: &[&str],
    index: &HashMap<&str, usize>,
    round: u32,
    division: Option<&str>,
) -> RoundPairing {
    let filler = state.filler.as_deref();
    let table: Vec<usize> = file
        .entrants
        .iter()
        .filter(|e| Some(e.name.as_str()) != filler && e.division.as_deref() == division)
        .map(|e| index[e.name.as_str()])
        .chain(filler.filter(|f| field.contains(f)).map(|f| index[f]))
        .collect();
    let berger = round_robin::pairing(table.len(), round as usize - 1);
    let plays = |i: usize| field.contains(&state.entrants[i].name.as_str());
    RoundPairing {
        pairs: berger
            .pairs
            .iter()
            .map(|&(b, w)| (table[b], table[w]))
            .filter(|&(b, w)| plays(b) && plays(w))
            .collect(),
        bye: berger.bye.map(|b| table[b]).filter(|&b| plays(b)),
    }
}

/// Whether nigiri gives this board's first-named entrant White.
fn nigiri(seed: u64, round: u32, board: u32) -> bool {
    mix(seed, ((round as u64) << 32) | board as u64) & 1 == 1
}

/// A fixed mix of the seed and a number (SplitMix64's finaliser), so that
/// nearby rounds and boards draw unrelated stones.
fn mix(seed: u64, n: u64) -> u64 {
    let mut z = seed ^ n.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::file::parse;
    use crate::event::log::EventLine;

    fn file(head: &str, names: &[&str]) -> EventFile {
        let entrants: String = names
            .iter()
            .map(|n| format!("[[entrant]]\nname = \"{n}\"\nplayer = \"bot\"\n"))
            .collect();
        parse(&format!("name = \"x\"\n{head}\n{entrants}")).unwrap()
    }

    fn confirm(proposal: &Proposal) -> EventLine {
        EventLine::Pairing {
            round: proposal.round,
            boards: proposal.boards.clone(),
            byes: proposal.byes.clone(),
            confirmed_by: "--yes".into(),
        }
    }

    fn decide_all(proposal: &Proposal, lines: &mut Vec<EventLine>) {
        for pair in &proposal.boards {
            lines.push(EventLine::Result {
                round: proposal.round,
                black: pair.black.clone(),
                white: pair.white.clone(),
                result: "B+R".into(),
                reason: "test".into(),
                replaces: None,
            });
        }
    }

    fn unordered(pair: &Pair) -> (String, String) {
        let (a, b) = (pair.black.clone(), pair.white.clone());
        if a < b {
            (a, b)
        } else {
            (b, a)
        }
    }

    #[test]
    fn the_same_folder_and_seed_propose_the_same_and_another_seed_may_not() {
        let names = ["a", "b", "c", "d", "e", "f", "g", "h"];
        let one = file("system = \"swiss\"\nrounds = 3\nseed = 7", &names);
        let state = EventState::fold(&one, &[]);
        assert_eq!(propose(&one, &state, 1), propose(&one, &state, 1));
        let draws: Vec<Vec<Pair>> = (1..=8)
            .map(|seed| {
                let other = file(
                    &format!("system = \"swiss\"\nrounds = 3\nseed = {seed}"),
                    &names,
                );
                propose(&other, &EventState::fold(&other, &[]), 1).boards
            })
            .collect();
        assert!(draws.iter().any(|d| d != &draws[0]), "nigiri never varies");
    }

    #[test]
    fn a_swiss_longer_than_its_field_marks_each_rematch_it_proposes() {
        let names = ["a", "b"];
        let event = file("system = \"swiss\"\nrounds = 2", &names);
        let mut lines = Vec::new();
        let first = propose(&event, &EventState::fold(&event, &lines), 1);
        assert!(first.rematches.is_empty() && first.notes.is_empty());
        lines.push(confirm(&first));
        decide_all(&first, &mut lines);
        let second = propose(&event, &EventState::fold(&event, &lines), 2);
        assert_eq!(second.rematches, [(1, 1)]);
        assert!(
            second.notes[0].ends_with("met in round 1: a rematch"),
            "{:?}",
            second.notes
        );
    }

    #[test]
    fn a_swiss_of_six_plays_three_rounds_without_a_rematch() {
        let names = ["a", "b", "c", "d", "e", "f"];
        let event = file("system = \"swiss\"\nrounds = 3", &names);
        let mut lines = Vec::new();
        let mut met = std::collections::HashSet::new();
        for round in 1..=3 {
            let proposal = propose(&event, &EventState::fold(&event, &lines), round);
            assert_eq!(proposal.boards.len(), 3);
            assert!(proposal.byes.is_empty());
            for pair in &proposal.boards {
                let key = unordered(pair);
                assert!(met.insert(key), "round {round}: a rematch");
            }
            lines.push(confirm(&proposal));
            decide_all(&proposal, &mut lines);
        }
    }

    #[test]
    fn the_filler_plays_only_when_the_field_is_odd() {
        let names = ["a", "b", "c", "filler"];
        let event = file(
            "system = \"swiss\"\nrounds = 2\nfiller = \"filler\"",
            &names,
        );
        let proposal = propose(&event, &EventState::fold(&event, &[]), 1);
        assert!(proposal.byes.is_empty());
        let seated: Vec<&str> = proposal
            .boards
            .iter()
            .flat_map(|p| [p.black.as_str(), p.white.as_str()])
            .collect();
        assert!(seated.contains(&"filler"));
        let lines = vec![EventLine::Add {
            name: "d".into(),
            player: "bot".into(),
            from_round: 1,
        }];
        let proposal = propose(&event, &EventState::fold(&event, &lines), 1);
        assert!(proposal
            .boards
            .iter()
            .all(|p| p.black != "filler" && p.white != "filler"));
    }

    #[test]
    fn nigiri_never_gives_a_colour_a_third_time_running_when_avoidable() {
        let names = ["a", "b", "c", "d", "e", "f", "g", "h"];
        for seed in 1..=20 {
            let event = file(
                &format!("system = \"swiss\"\nrounds = 6\nseed = {seed}"),
                &names,
            );
            let mut lines = Vec::new();
            for round in 1..=6 {
                let state = EventState::fold(&event, &lines);
                let records = state.records(&event);
                let last_two = |name: &str, side: Color| {
                    let i = names.iter().position(|n| *n == name).unwrap();
                    let c = &records[i].colours;
                    c.len() >= 2 && c[c.len() - 2..].iter().all(|&x| x == side)
                };
                let proposal = propose(&event, &state, round);
                for pair in &proposal.boards {
                    let (b, w) = (pair.black.as_str(), pair.white.as_str());
                    let breaks = last_two(b, Color::Black) || last_two(w, Color::White);
                    let reverse_breaks = last_two(w, Color::Black) || last_two(b, Color::White);
                    assert!(
                        !breaks || reverse_breaks,
                        "seed {seed} round {round}: {b} (B) - {w} (W) gives a colour a third time"
                    );
                }
                lines.push(confirm(&proposal));
                decide_all(&proposal, &mut lines);
            }
        }
    }

    #[test]
    fn a_round_robin_meets_everyone_once_and_a_withdrawal_leaves_its_games_unplayed() {
        let names = ["a", "b", "c", "d", "e"];
        let event = file("system = \"round-robin\"\ncolours = \"balanced\"", &names);
        let mut met = std::collections::HashSet::new();
        let mut lines = Vec::new();
        for round in 1..=event.rounds {
            let proposal = propose(&event, &EventState::fold(&event, &lines), round);
            assert_eq!(proposal.byes.len(), 1);
            for pair in &proposal.boards {
                assert!(met.insert(unordered(pair)));
            }
            lines.push(confirm(&proposal));
        }
        assert_eq!(met.len(), 10);
        lines.push(EventLine::Withdraw {
            name: "c".into(),
            from_round: 1,
            reason: "test".into(),
        });
        let state = EventState::fold(&event, &lines);
        let proposal = propose(&event, &state, 1);
        assert!(proposal
            .boards
            .iter()
            .all(|p| p.black != "c" && p.white != "c"));
    }

    #[test]
    fn divisions_are_paired_apart_in_one_round_with_a_bye_each_when_odd() {
        let entrant = |name: &str, division: &str| {
            format!("[[entrant]]\nname = \"{name}\"\nplayer = \"bot\"\ndivision = \"{division}\"\n")
        };
        let entrants: String = ["a", "b", "c", "d"]
            .iter()
            .map(|n| entrant(n, "open"))
            .chain(["e", "f", "g"].iter().map(|n| entrant(n, "kyu")))
            .collect();
        let event = parse(&format!(
            "name = \"x\"\nsystem = \"swiss\"\nrounds = 2\n{entrants}"
        ))
        .unwrap();
        let proposal = propose(&event, &EventState::fold(&event, &[]), 1);
        let open = |name: &str| ["a", "b", "c", "d"].contains(&name);
        assert_eq!(proposal.boards.len(), 3);
        assert!(proposal
            .boards
            .iter()
            .all(|p| open(&p.black) == open(&p.white)));
        assert_eq!(
            proposal.boards.iter().map(|p| p.board).collect::<Vec<_>>(),
            [1, 2, 3]
        );
        assert_eq!(proposal.byes.len(), 1);
        assert!(!open(&proposal.byes[0]));
    }

    #[test]
    fn a_swap_asked_before_confirming_is_in_the_proposal() {
        let event = file("system = \"swiss\"\nrounds = 1", &["a", "b"]);
        let before = propose(&event, &EventState::fold(&event, &[]), 1);
        let lines = vec![EventLine::SwapColours { round: 1, board: 1 }];
        let after = propose(&event, &EventState::fold(&event, &lines), 1);
        assert_eq!(before.boards[0].black, after.boards[0].white);
        let mut lines = lines;
        lines.push(EventLine::Repair { round: 1 });
        let again = propose(&event, &EventState::fold(&event, &lines), 1);
        assert_eq!(again, before, "repair drops the swap");
    }
}
