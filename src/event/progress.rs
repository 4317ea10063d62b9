//! The headless event's progress lines: one for each line of its journal,
//! in the director's words (`round 2 board 1: alpha - beta W+R (...)`).

use std::path::Path;

use super::log::EventLine;

/// The progress line of a journal line; none for the standings, which
/// are shown as their table.
pub fn progress(line: &EventLine, dir: &Path) -> Option<String> {
    Some(match line {
        EventLine::Pairing {
            round,
            boards,
            byes,
            ..
        } => {
            let mut text = format!("round {round} pairing:");
            for pair in boards {
                text.push_str(&format!(
                    " board {} {} (B) - {} (W);",
                    pair.board, pair.black, pair.white
                ));
            }
            for bye in byes {
                text.push_str(&format!(" bye: {bye};"));
            }
            text.trim_end_matches(';').to_string()
        }
        EventLine::BoardStart {
            round,
            board,
            black,
            white,
            dir: folder,
            resumed,
        } => format!(
            "round {round} board {board}: {black} (B) against {white} (W) {} in {}",
            match resumed {
                true => "resumed",
                false => "started",
            },
            dir.join(folder).display()
        ),
        EventLine::BoardEnd {
            round,
            board,
            black,
            white,
            result,
            reason,
            ..
        } => format!("round {round} board {board}: {black} - {white} {result} ({reason})"),
        EventLine::BoardTrouble {
            round, board, what, ..
        } => format!("round {round} board {board}: {what}"),
        EventLine::Result {
            round,
            black,
            white,
            result,
            reason,
            replaces,
        } => {
            let over = replaces
                .as_ref()
                .map(|old| format!(", over {old}"))
                .unwrap_or_default();
            format!(
                "round {round}: {black} - {white} {result}, set by the director ({reason}){over}"
            )
        }
        EventLine::BoardRetry {
            round,
            board,
            reason,
        } => format!("round {round} board {board}: started again by the director ({reason})"),
        EventLine::SwapColours { round, board } => {
            format!("round {round} board {board}: colours swapped")
        }
        EventLine::Repair { round } => {
            format!("round {round}: paired again by the rules, the swaps dropped")
        }
        EventLine::Withdraw {
            name, from_round, ..
        } => format!("{name} withdraws from round {from_round} on"),
        EventLine::Add {
            name, from_round, ..
        } => format!("{name} joins from round {from_round} on"),
        EventLine::Standings { .. } => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::log::Pair;

    #[test]
    fn a_pairing_and_a_board_end_read_as_the_director_says_them() {
        let pairing = EventLine::Pairing {
            round: 2,
            boards: vec![Pair {
                board: 1,
                black: "alpha".into(),
                white: "beta".into(),
            }],
            byes: vec!["gamma".into()],
            confirmed_by: "--yes".into(),
        };
        assert_eq!(
            progress(&pairing, Path::new("cup")).unwrap(),
            "round 2 pairing: board 1 alpha (B) - beta (W); bye: gamma"
        );
        let end = EventLine::BoardEnd {
            round: 2,
            board: 1,
            black: "alpha".into(),
            white: "beta".into(),
            dir: "round-2/board-1".into(),
            result: "W+R".into(),
            end: "resign".into(),
            reason: "Black resigned".into(),
        };
        assert_eq!(
            progress(&end, Path::new("cup")).unwrap(),
            "round 2 board 1: alpha - beta W+R (Black resigned)"
        );
    }
}
