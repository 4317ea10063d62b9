//! Property tests of whole events: random fields of 2 to 64 entrants, up
//! to 12 rounds, results with jigo, forfeits and voids, withdrawals and a
//! filler, each round proposed from the journal as `goref event` does.

use std::collections::HashSet;

use proptest::prelude::*;

use super::file::parse;
use super::log::EventLine;
use super::pairing::propose;
use super::state::EventState;
use goref_core::game::Color;

/// Whether `field` has a pairing without a rematch, by trying every one.
fn rematch_free_exists(field: &[&str], met: &HashSet<(String, String)>) -> bool {
    let Some((&first, rest)) = field.split_first() else {
        return true;
    };
    rest.iter().any(|&other| {
        !met.contains(&(first.to_string(), other.to_string())) && {
            let left: Vec<&str> = rest.iter().copied().filter(|&n| n != other).collect();
            rematch_free_exists(&left, met)
        }
    })
}

const RESULTS: [&str; 6] = ["B+R", "W+3.5", "0", "W+F", "Void", "B+T"];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]
    #[test]
    fn every_round_of_a_random_event_keeps_the_pairing_rules(
        n in 2usize..=64,
        rounds in 1u32..=12,
        seed in 0u64..i64::MAX as u64,
        results in proptest::collection::vec(0usize..RESULTS.len(), 64 * 12),
        withdrawals in proptest::collection::vec((0usize..64, 2u32..=12), 0..4),
        with_filler in any::<bool>(),
        nigiri in any::<bool>(),
    ) {
        let names: Vec<String> = (0..n).map(|i| format!("e{i}")).collect();
        let filler = (with_filler && n >= 3).then(|| names[n - 1].clone());
        let mut text = format!(
            "name = \"p\"\nsystem = \"swiss\"\nrounds = {rounds}\nseed = {seed}\ncolours = \"{}\"\n",
            if nigiri { "nigiri" } else { "balanced" }
        );
        if let Some(filler) = &filler {
            text.push_str(&format!("filler = \"{filler}\"\n"));
        }
        for name in &names {
            text.push_str(&format!("[[entrant]]\nname = \"{name}\"\nplayer = \"bot\"\n"));
        }
        let file = parse(&text).unwrap();
        let mut lines: Vec<EventLine> = withdrawals
            .iter()
            .filter(|(who, _)| *who < n)
            .map(|&(who, from)| EventLine::Withdraw {
                name: names[who].clone(),
                from_round: from,
                reason: "proptest".into(),
            })
            .collect();
        let mut results = results.into_iter();
        let mut met: HashSet<(String, String)> = HashSet::new();
        for round in 1..=rounds {
            let state = EventState::fold(&file, &lines);
            let proposal = propose(&file, &state, round);
            prop_assert_eq!(&propose(&file, &state, round), &proposal, "the same journal, the same pairing");
            let active: Vec<&str> = state
                .active_in(round)
                .iter()
                .map(|e| e.name.as_str())
                .filter(|&name| Some(name) != filler.as_deref())
                .collect();
            let mut seated: Vec<&str> = proposal
                .boards
                .iter()
                .flat_map(|p| [p.black.as_str(), p.white.as_str()])
                .chain(proposal.byes.iter().map(String::as_str))
                .collect();
            let filler_played = filler.as_deref().is_some_and(|f| seated.contains(&f));
            let filler_active = filler
                .as_deref()
                .is_some_and(|f| state.active_in(round).iter().any(|e| e.name == f));
            prop_assert_eq!(
                filler_played,
                active.len() % 2 == 1 && filler_active,
                "the filler plays exactly when the field is odd"
            );
            seated.retain(|&name| Some(name) != filler.as_deref());
            seated.sort_unstable();
            let mut expected = active.clone();
            expected.sort_unstable();
            prop_assert_eq!(&seated, &expected, "round {}: everyone active once, nobody withdrawn", round);
            let boards: Vec<u32> = proposal.boards.iter().map(|p| p.board).collect();
            prop_assert_eq!(boards, (1..=proposal.boards.len() as u32).collect::<Vec<_>>());
            let records = state.records(&file);
            let index = |name: &str| names.iter().position(|n| n == name).unwrap();
            for bye in &proposal.byes {
                let someone_without = active.iter().any(|&a| !records[index(a)].had_bye);
                prop_assert!(!someone_without || !records[index(bye)].had_bye, "a second bye while others had none");
            }
            let field: Vec<&str> = proposal
                .boards
                .iter()
                .flat_map(|p| [p.black.as_str(), p.white.as_str()])
                .collect();
            if field.len() <= 12 && rematch_free_exists(&field, &met) {
                for pair in &proposal.boards {
                    prop_assert!(!met.contains(&(pair.black.clone(), pair.white.clone())), "an avoidable rematch");
                }
            }
            for pair in &proposal.boards {
                let last_two = |name: &str, side: Color| {
                    let c = &records[index(name)].colours;
                    c.len() >= 2 && c[c.len() - 2..].iter().all(|&x| x == side)
                };
                let breaks = last_two(&pair.black, Color::Black) || last_two(&pair.white, Color::White);
                let reverse = last_two(&pair.white, Color::Black) || last_two(&pair.black, Color::White);
                prop_assert!(!breaks || reverse, "a third colour running that the swap avoids");
            }
            lines.push(EventLine::Pairing {
                round,
                boards: proposal.boards.clone(),
                byes: proposal.byes.clone(),
                confirmed_by: "--yes".into(),
            });
            for pair in &proposal.boards {
                let result = RESULTS[results.next().unwrap_or(0)];
                if result != "Void" {
                    met.insert((pair.black.clone(), pair.white.clone()));
                    met.insert((pair.white.clone(), pair.black.clone()));
                }
                lines.push(EventLine::Result {
                    round,
                    black: pair.black.clone(),
                    white: pair.white.clone(),
                    result: result.into(),
                    reason: "proptest".into(),
                    replaces: None,
                });
            }
            prop_assert!(EventState::fold(&file, &lines).current().unwrap().is_over());
        }
        let table = EventState::fold(&file, &lines).standings(&file).unwrap();
        prop_assert_eq!(table.rows.len(), n - usize::from(filler.is_some()), "the filler is not ranked");
    }
}
