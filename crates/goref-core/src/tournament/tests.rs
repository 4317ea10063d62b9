//! The standings of small events checked by hand.

use super::crosstable::{csv, halves_text, json};
use super::games::parse_games;
use super::standings::{entrants_in, standings, Standings, TieBreak};

/// Four entrants, three rounds: alpha 1, beta 2½, gamma 1, delta 1½.
///
/// - SOS: alpha 2½+1+1½ = 5, beta 1+1½+1 = 3½, gamma 1½+1+2½ = 5, delta
///   1+2½+1 = 4½.
/// - SODOS: alpha beat gamma: 1; beta beat alpha and gamma: 2; gamma beat
///   delta: 1½; delta beat alpha: 1.
/// - SOSOS of alpha: beta's 3½ + gamma's 5 + delta's 4½ = 13.
const FOUR: &str = "round,black,white,result
1,alpha,beta,W+R
1,gamma,delta,B+3.5
2,alpha,gamma,B+T
2,beta,delta,0
3,alpha,delta,W+F
3,beta,gamma,B+R
";

fn ranked(games: &str, chain: &str) -> Standings {
    let games = parse_games(games).unwrap();
    let chain = TieBreak::parse_chain(chain).unwrap();
    standings(&entrants_in(&games), &games, &chain, 2).unwrap()
}

fn order(standings: &Standings) -> Vec<(String, usize, bool)> {
    standings
        .rows
        .iter()
        .map(|r| (r.name.clone(), r.rank, r.tied))
        .collect()
}

fn value(standings: &Standings, name: &str, tie_break: TieBreak) -> String {
    let row = standings.rows.iter().find(|r| r.name == name).unwrap();
    let (_, v) = row.values.iter().find(|(t, _)| *t == tie_break).unwrap();
    halves_text(*v)
}

#[test]
fn the_kgs_chain_ranks_by_score_then_sos_then_sodos() {
    let table = ranked(FOUR, "kgs");
    let names: Vec<String> = order(&table).into_iter().map(|(n, _, _)| n).collect();
    assert_eq!(names, ["beta", "delta", "gamma", "alpha"]);
    assert_eq!(halves_text(table.rows[0].score), "2½");
    assert_eq!(value(&table, "alpha", TieBreak::Sos), "5");
    assert_eq!(value(&table, "beta", TieBreak::Sos), "3½");
    assert_eq!(value(&table, "delta", TieBreak::Sos), "4½");
    assert_eq!(value(&table, "gamma", TieBreak::Sodos), "1½");
    assert_eq!(value(&table, "beta", TieBreak::Sodos), "2");
    assert!(table.rows.iter().all(|r| !r.tied));
}

#[test]
fn a_tie_the_chain_leaves_is_an_equal_rank_and_head_to_head_or_number_breaks_it() {
    let sos_only = ranked(FOUR, "sos");
    assert_eq!(
        order(&sos_only)[2..],
        [("alpha".into(), 3, true), ("gamma".into(), 3, true)]
    );
    let head_to_head = ranked(FOUR, "sos,head-to-head");
    assert_eq!(order(&head_to_head)[2].0, "alpha", "alpha beat gamma");
    let numbers = ranked(FOUR, "pairing_number");
    assert_eq!(
        order(&numbers)[2..],
        [("alpha".into(), 3, false), ("gamma".into(), 4, false)]
    );
    let sosos = ranked(FOUR, "sosos");
    assert_eq!(value(&sosos, "alpha", TieBreak::Sosos), "13");
}

#[test]
fn trimmed_sodos_leaves_out_the_highest_and_lowest_beaten() {
    let games = "1,x,a,B+R\n2,x,b,B+R\n3,x,c,B+R\n4,x,d,B+R\n5,b,a,B+R\n6,c,a,B+R\n\
                 7,c,b,B+R\n8,d,a,B+R\n9,d,b,B+R\n10,d,c,B+R\n";
    let table = ranked(games, "cgf");
    assert_eq!(value(&table, "x", TieBreak::Sodos), "6", "0 + 1 + 2 + 3");
    assert_eq!(value(&table, "x", TieBreak::TrimmedSodos), "3", "1 + 2");
    assert_eq!(value(&table, "c", TieBreak::TrimmedSodos), "0", "two wins");
}

#[test]
fn a_bye_scores_for_its_taker_and_nothing_for_any_sum_and_a_void_game_not_at_all() {
    let games = "1,a,b,B+R\n1,c,BYE,\n2,a,c,Void\n2,b,BYE,\n";
    let table = ranked(games, "kgs");
    let row = |name: &str| table.rows.iter().find(|r| r.name == name).unwrap();
    assert_eq!(row("c").score, 2);
    assert_eq!(value(&table, "c", TieBreak::Sos), "0");
    assert_eq!(
        value(&table, "a", TieBreak::Sos),
        "1",
        "b's bye, not c's void"
    );
    assert_eq!(value(&table, "b", TieBreak::Sos), "1");
}

#[test]
fn the_crosstable_fits_80_columns_and_tells_each_game() {
    let table = ranked(FOUR, "cgf");
    let lines = super::crosstable::table(&table, 80);
    assert!(lines.iter().all(|l| l.chars().count() <= 80), "{lines:#?}");
    assert!(lines[0].starts_with("#  no  name"), "{}", lines[0]);
    let beta = lines.iter().find(|l| l.contains("beta")).unwrap();
    assert!(
        beta.contains("1w+R") && beta.contains("4b=") && beta.contains("3b+R"),
        "{beta}"
    );
    let many: String = (1..=12)
        .map(|r| format!("{r},a-long-entrant-name,b-long-entrant-name,B+12.5\n"))
        .collect();
    let lines = super::crosstable::table(&ranked(&many, "cgf"), 80);
    assert!(lines.iter().all(|l| l.chars().count() <= 80), "{lines:#?}");
}

#[test]
fn json_and_csv_name_each_tie_break() {
    let table = ranked(FOUR, "kgs");
    let value = json(&table);
    assert_eq!(value["tie_breaks"], serde_json::json!(["sos", "sodos"]));
    assert_eq!(value["rows"][0]["name"], "beta");
    assert_eq!(value["rows"][0]["score"], 2.5);
    assert_eq!(value["rows"][0]["sos"], 3.5);
    assert_eq!(value["rows"][0]["games"][0]["result"], "win");
    let text = csv(&table);
    assert!(
        text.starts_with(
            "rank,tied,number,name,score,sos,sodos,decided_by,withdrawn_from,r1,r2,r3\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("1,false,2,beta,2.5,3.5,2,,,1w+R,4b=,3b+R\n"),
        "{text}"
    );
}

#[test]
fn a_tie_decided_by_head_to_head_or_the_pairing_number_is_shown_as_decided() {
    let by_head_to_head = ranked(FOUR, "sos,head-to-head,pairing-number");
    let lines = super::crosstable::table(&by_head_to_head, 80);
    assert!(lines[0].ends_with("SOS  h2h"), "{lines:#?}");
    let alpha = lines.iter().find(|l| l.contains("alpha")).unwrap();
    let gamma = lines.iter().find(|l| l.contains("gamma")).unwrap();
    assert!(
        alpha.starts_with("3 ") && alpha.ends_with("5    1"),
        "{alpha}"
    );
    assert!(
        gamma.starts_with("4 ") && gamma.ends_with("5    0"),
        "{gamma}"
    );
    assert!(lines.iter().any(|l| l.starts_with("h2h: points against")));
    let value = json(&by_head_to_head);
    let row = |name: &str| {
        value["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["name"] == name)
            .unwrap()
            .clone()
    };
    assert_eq!(row("alpha")["head_to_head"], 1);
    assert_eq!(row("alpha")["decided_by"], "head_to_head");
    assert_eq!(row("alpha")["pairing_number"], 1);
    assert_eq!(row("beta")["head_to_head"], serde_json::Value::Null);
    assert_eq!(
        row("beta")["decided_by"],
        serde_json::Value::Null,
        "its score placed it"
    );
    assert!(csv(&by_head_to_head).contains(",head_to_head,decided_by,"));

    let by_number = ranked(FOUR, "sos,pairing-number");
    let lines = super::crosstable::table(&by_number, 80);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("3*") && l.contains("alpha")),
        "{lines:#?}"
    );
    assert!(lines
        .iter()
        .any(|l| l.starts_with("*: placed by pairing number")));
    assert_eq!(json(&by_number)["rows"][2]["decided_by"], "pairing_number");

    let plain = super::crosstable::table(&ranked(FOUR, "kgs"), 80);
    assert!(
        !plain.iter().any(|l| l.contains("h2h") || l.contains('*')),
        "{plain:#?}"
    );
}

#[test]
fn a_withdrawn_entrant_is_marked_from_its_round_on() {
    let games = "1,a,b,B+R\n1,c,d,W+R\n2,a,c,B+R\n2,b,BYE,\n";
    let table = ranked(games, "kgs").with_withdrawals(|name| (name == "d").then_some(2));
    let lines = super::crosstable::table(&table, 80);
    let d = lines.iter().find(|l| l.contains(" d ")).unwrap();
    assert!(
        d.contains("3w+R") && d.ends_with("wd    1    0      0"),
        "{d}"
    );
    assert!(
        lines.iter().any(|l| l == "wd: withdrawn (d from round 2)"),
        "{lines:#?}"
    );
    let row = json(&table)["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "d")
        .unwrap()
        .clone();
    assert_eq!(row["withdrawn_from"], 2);
    assert!(csv(&table).contains(",2,3w+R,wd\n"), "{}", csv(&table));
}

#[test]
fn a_chain_names_known_tie_breaks_once() {
    assert!(TieBreak::parse_chain("sos,mms")
        .unwrap_err()
        .contains("mms"));
    assert!(TieBreak::parse_chain("sos,sos")
        .unwrap_err()
        .contains("twice"));
    assert_eq!(
        TieBreak::parse_chain("kgs").unwrap(),
        [TieBreak::Sos, TieBreak::Sodos]
    );
}

mod properties {
    use proptest::prelude::*;

    use super::super::games::{Game, Outcome};
    use super::super::standings::{standings, Mark, TieBreak};
    use crate::game::Color;

    /// A random event: `n` entrants, rounds of random pairs, results of
    /// every kind, byes for whoever is left out.
    fn event() -> impl Strategy<Value = (usize, Vec<Game>)> {
        (2usize..=16, 1usize..=6)
            .prop_flat_map(|(n, rounds)| {
                let round = (Just(n), proptest::collection::vec(0u8..7, n), any::<u64>());
                (Just(n), proptest::collection::vec(round, rounds))
            })
            .prop_map(|(n, rounds)| {
                let mut games = Vec::new();
                for (r, (n, results, seed)) in rounds.into_iter().enumerate() {
                    let round = r as u32 + 1;
                    let mut order: Vec<usize> = (0..n).collect();
                    let mut state = seed | 1;
                    for i in (1..n).rev() {
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        order.swap(i, (state % (i as u64 + 1)) as usize);
                    }
                    for (k, pair) in order.chunks(2).enumerate() {
                        let name = |i: usize| format!("e{i}");
                        if let [b, w] = pair {
                            let outcome = match results[k] {
                                0 => Outcome::Jigo,
                                1 => Outcome::Void,
                                even if even % 2 == 0 => Outcome::Win {
                                    winner: Color::Black,
                                    how: "R".into(),
                                },
                                _ => Outcome::Win {
                                    winner: Color::White,
                                    how: "3.5".into(),
                                },
                            };
                            games.push(Game::Played {
                                round,
                                black: name(*b),
                                white: name(*w),
                                outcome,
                            });
                        } else {
                            games.push(Game::Bye {
                                round,
                                taker: name(pair[0]),
                            });
                        }
                    }
                }
                (n, games)
            })
    }

    fn chain() -> impl Strategy<Value = Vec<TieBreak>> {
        proptest::sample::subsequence(TieBreak::ALL.to_vec(), 0..=7).prop_shuffle()
    }

    proptest! {
        #[test]
        fn scores_sums_and_ranks_agree_with_the_games((n, games) in event(), chain in chain(), bye in 0u64..=2) {
            let entrants: Vec<String> = (0..n).map(|i| format!("e{i}")).collect();
            let table = standings(&entrants, &games, &chain, bye).unwrap();
            prop_assert_eq!(table.rows.len(), n);
            let counted: u64 = games.iter().map(|g| match g {
                Game::Played { outcome: Outcome::Void, .. } => 0,
                Game::Played { .. } => 2,
                Game::Bye { .. } => bye,
            }).sum();
            prop_assert_eq!(table.rows.iter().map(|r| r.score).sum::<u64>(), counted, "every game gives out one point");
            for row in &table.rows {
                let wins = row.cells.iter().filter(|c| c.mark == Mark::Win).count() as u64;
                let jigos = row.cells.iter().filter(|c| c.mark == Mark::Jigo).count() as u64;
                let byes = row.cells.iter().filter(|c| c.mark == Mark::Bye).count() as u64;
                prop_assert_eq!(row.score, 2 * wins + jigos + bye * byes);
                let score_of = |i: usize| table.rows.iter().find(|r| r.number == i + 1).unwrap().score;
                let mut beaten: Vec<u64> = row.cells.iter()
                    .filter(|c| c.mark == Mark::Win)
                    .filter_map(|c| c.opponent.map(score_of))
                    .collect();
                beaten.sort_unstable();
                let sodos: u64 = beaten.iter().sum();
                let trimmed = match beaten.len() {
                    0..=2 => 0,
                    _ => sodos - beaten[0] - beaten[beaten.len() - 1],
                };
                for (tie_break, value) in &row.values {
                    match tie_break {
                        TieBreak::Sodos => prop_assert_eq!(*value, sodos),
                        TieBreak::TrimmedSodos => prop_assert_eq!(*value, trimmed),
                        TieBreak::Wins => prop_assert_eq!(*value, 2 * wins),
                        _ => {}
                    }
                }
            }
            let mut rank = 1;
            for (i, row) in table.rows.iter().enumerate() {
                if i > 0 && table.rows[i - 1].rank != row.rank {
                    rank = i + 1;
                }
                prop_assert_eq!(row.rank, rank, "a rank is the place of its first holder");
                let shared = table.rows.iter().filter(|r| r.rank == row.rank).count() > 1;
                prop_assert_eq!(row.tied, shared);
                if i > 0 {
                    let above = &table.rows[i - 1];
                    prop_assert!(above.score >= row.score, "the score comes first");
                    if above.score == row.score && above.rank != row.rank {
                        let first_difference = above.values.iter().zip(&row.values).find(|(a, b)| a.1 != b.1);
                        if let Some((a, b)) = first_difference {
                            let before = chain.iter().position(|t| *t == a.0).unwrap();
                            let decided_earlier = chain[..before].iter().any(|t| !t.is_column());
                            prop_assert!(a.1 > b.1 || decided_earlier, "the first column that differs ranks them");
                        }
                    }
                    if above.rank == row.rank {
                        prop_assert!(!chain.contains(&TieBreak::PairingNumber), "the pairing number leaves no tie");
                        prop_assert_eq!(above.score, row.score);
                        prop_assert_eq!(&above.values, &row.values, "a shared rank shares every value");
                    }
                }
            }
            let sos: u64 = table.rows.iter().filter_map(|r| r.values.iter().find(|(t, _)| *t == TieBreak::Sos)).map(|(_, v)| v).sum();
            if chain.contains(&TieBreak::Sos) {
                let score = |name: &str| table.rows.iter().find(|r| r.name == name).unwrap().score;
                let expected: u64 = games.iter().map(|g| match g {
                    Game::Played { outcome: Outcome::Void, .. } | Game::Bye { .. } => 0,
                    Game::Played { black, white, .. } => score(black) + score(white),
                }).sum();
                prop_assert_eq!(sos, expected, "each game adds both players' scores to the sum of SOS");
            }
        }
    }
}
