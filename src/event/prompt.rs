//! The director's answers to a proposed pairing, as typed lines: confirm
//! it, or change it first. Each change is a journal line, so the proposal
//! drawn again after it (and after any kill) includes it.
//!
//! ```text
//! y                          confirm the pairing and start the round
//! swap N                     swap the colours of board N
//! repair                     pair the round again by the rules alone
//!                            (the swaps asked for it dropped)
//! withdraw NAME [REASON]     NAME plays no more, from this round on
//! add NAME PLAYER            a late entrant (PLAYER as --black takes it)
//! result BLACK WHITE RESULT REASON
//!                            a game of this round decided by the director
//!                            (the pair is then drawn out of the pairing)
//! q                          stop; the next goref event DIR asks again
//! ```

use super::log::EventLine;
use super::pairing::Proposal;
use super::state::EventState;
use crate::players::PlayerSpec;
use goref_core::tournament::games::parse_outcome;

/// What an answer asks for.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Decision {
    Confirm,
    Quit,
    /// A change to write down, after which the pairing is drawn again.
    Record(EventLine),
    /// Nothing to do: show the pairing again.
    Again,
}

/// The lines that show a proposal and what can be answered.
pub fn show(proposal: &Proposal) -> Vec<String> {
    let mut lines = vec![format!("round {} proposed:", proposal.round)];
    for pair in &proposal.boards {
        let rematch = match proposal.rematches.iter().any(|&(b, _)| b == pair.board) {
            true => "  (rematch)",
            false => "",
        };
        lines.push(format!(
            "  board {:>2}  {} (B)  -  {} (W){rematch}",
            pair.board, pair.black, pair.white
        ));
    }
    for bye in &proposal.byes {
        lines.push(format!("  bye       {bye}"));
    }
    for note in &proposal.notes {
        lines.push(format!("  note: {note}"));
    }
    lines.push("y: confirm and start   swap N   repair   withdraw NAME [REASON]   q: quit".into());
    lines.push("add NAME PLAYER   result BLACK WHITE RESULT REASON".into());
    lines
}

/// Reads one answer.
pub(crate) fn decide(
    answer: &str,
    proposal: &Proposal,
    state: &EventState,
) -> Result<Decision, String> {
    let words: Vec<&str> = answer.split_whitespace().collect();
    let round = proposal.round;
    let entrant = |name: &str| -> Result<String, String> {
        state
            .entrants
            .iter()
            .find(|e| e.name == name)
            .map(|e| e.name.clone())
            .ok_or_else(|| format!("{name} is not an entrant"))
    };
    let rest = |from: usize| words.get(from..).map(|w| w.join(" ")).unwrap_or_default();
    match words.as_slice() {
        [] => Ok(Decision::Again),
        ["y" | "yes"] => Ok(Decision::Confirm),
        ["q" | "quit"] => Ok(Decision::Quit),
        ["repair" | "re-pair"] => Ok(Decision::Record(EventLine::Repair { round })),
        ["swap", board] => {
            let board: u32 = board
                .parse()
                .map_err(|_| format!("{board}: a board number"))?;
            if !proposal.boards.iter().any(|p| p.board == board) {
                return Err(format!("round {round} has no board {board}"));
            }
            Ok(Decision::Record(EventLine::SwapColours { round, board }))
        }
        ["withdraw", name, ..] => Ok(Decision::Record(EventLine::Withdraw {
            name: entrant(name)?,
            from_round: round,
            reason: match rest(2) {
                reason if reason.is_empty() => "withdrawn by the director".into(),
                reason => reason,
            },
        })),
        ["add", name, _, ..] => {
            let player = rest(2);
            if state.entrants.iter().any(|e| e.name == *name) {
                return Err(format!("{name} is already an entrant"));
            }
            super::file::check_name(name).map_err(|why| format!("{name}: {why}"))?;
            player
                .parse::<PlayerSpec>()
                .map_err(|e| format!("{player}: {e}"))?;
            Ok(Decision::Record(EventLine::Add {
                name: name.to_string(),
                player,
                from_round: round,
            }))
        }
        ["result", black, white, result, _, ..] => {
            parse_outcome(result)?;
            let (black, white) = (entrant(black)?, entrant(white)?);
            if black == white {
                return Err(format!("{black} cannot play itself"));
            }
            state.place_result(round, &black, &white, false)?;
            Ok(Decision::Record(EventLine::Result {
                round,
                black,
                white,
                result: result.to_string(),
                reason: rest(4),
                replaces: None,
            }))
        }
        ["result", ..] => Err("result BLACK WHITE RESULT REASON: the reason is needed".into()),
        _ => Err(format!(
            "{answer}: not an answer; y, swap, repair, withdraw, add, result or q"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::file::parse;
    use crate::event::log::Pair;

    fn setting() -> (Proposal, EventState) {
        let file = parse(
            "name = \"x\"\nsystem = \"swiss\"\nrounds = 2\n[[entrant]]\nname = \"a\"\n\
             player = \"bot\"\n[[entrant]]\nname = \"b\"\nplayer = \"bot\"\n",
        )
        .unwrap();
        let proposal = Proposal {
            round: 1,
            boards: vec![Pair {
                board: 1,
                black: "a".into(),
                white: "b".into(),
            }],
            byes: Vec::new(),
            rematches: Vec::new(),
            notes: Vec::new(),
        };
        (proposal, EventState::fold(&file, &[]))
    }

    #[test]
    fn each_answer_is_the_decision_it_names() {
        let (proposal, state) = setting();
        let decide = |answer: &str| decide(answer, &proposal, &state);
        assert_eq!(decide("y").unwrap(), Decision::Confirm);
        assert_eq!(decide("q").unwrap(), Decision::Quit);
        assert_eq!(
            decide("repair").unwrap(),
            Decision::Record(EventLine::Repair { round: 1 })
        );
        assert_eq!(
            decide("swap 1").unwrap(),
            Decision::Record(EventLine::SwapColours { round: 1, board: 1 })
        );
        let Decision::Record(EventLine::Withdraw { name, reason, .. }) =
            decide("withdraw b its author left").unwrap()
        else {
            panic!("not a withdrawal");
        };
        assert_eq!((name.as_str(), reason.as_str()), ("b", "its author left"));
        let Decision::Record(EventLine::Add { player, .. }) =
            decide("add c gtp:/usr/games/gnugo --mode gtp").unwrap()
        else {
            panic!("not an addition");
        };
        assert_eq!(player, "gtp:/usr/games/gnugo --mode gtp");
    }

    #[test]
    fn the_proposal_and_its_answers_fit_80_columns() {
        let (proposal, _) = setting();
        let lines = show(&proposal);
        assert!(lines.iter().all(|l| l.chars().count() <= 80), "{lines:#?}");
        assert!(lines
            .iter()
            .any(|l| l.contains("board  1  a (B)  -  b (W)")));
    }

    #[test]
    fn a_wrong_answer_says_what_is_wrong_and_changes_nothing() {
        let (proposal, state) = setting();
        let decide = |answer: &str| decide(answer, &proposal, &state).unwrap_err();
        assert!(decide("swap 9").contains("no board 9"));
        assert!(decide("withdraw zed").contains("not an entrant"));
        assert!(decide("add a bot").contains("already"));
        assert!(decide("add c telnet:x").contains("telnet"));
        assert!(decide("result a b B+R").contains("reason"));
        assert!(decide("result a b X+R no show").contains("X+R"));
        assert!(decide("pair a b").contains("not an answer"));
    }
}
