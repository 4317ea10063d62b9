//! Swiss pairings checked by hand and over random events played out.

use proptest::prelude::*;

use super::*;

fn fresh(n: usize) -> Vec<Record> {
    vec![Record::default(); n]
}

#[test]
fn the_first_round_pairs_the_upper_half_against_the_lower() {
    let pairing = pair(&[0, 1, 2, 3], &fresh(4), 7);
    let mut pairs: Vec<(usize, usize)> = pairing
        .pairs
        .iter()
        .map(|&(b, w)| (b.min(w), b.max(w)))
        .collect();
    pairs.sort_unstable();
    assert_eq!(pairs, [(0, 2), (1, 3)]);
    assert_eq!(pairing.bye, None);
    assert_eq!(
        pair(&[0, 1, 2, 3], &fresh(4), 7),
        pairing,
        "the same seed, the same pairing"
    );
}

#[test]
fn a_rematch_is_avoided_by_moving_down_and_the_bye_goes_to_the_lowest_without_one() {
    let mut records = fresh(5);
    let meet = |records: &mut Vec<Record>, a: usize, b: usize| {
        records[a].met.push(b);
        records[b].met.push(a);
    };
    meet(&mut records, 0, 2);
    meet(&mut records, 1, 3);
    records[4].had_bye = true;
    let pairing = pair(&[0, 1, 2, 3, 4], &records, 1);
    assert_eq!(pairing.bye, Some(3), "4 had its bye");
    for &(b, w) in &pairing.pairs {
        assert!(!records[b].met.contains(&w), "{b} and {w} met already");
    }
}

#[test]
fn colours_alternate_and_never_run_three_when_the_other_can_take_it() {
    let mut records = fresh(2);
    records[0].colours = vec![Color::Black, Color::Black];
    records[1].colours = vec![Color::Black, Color::White];
    assert_eq!(pair(&[0, 1], &records, 0).pairs, [(1, 0)]);
    records[0].colours = vec![Color::White];
    records[1].colours = vec![Color::Black];
    assert_eq!(pair(&[0, 1], &records, 0).pairs, [(0, 1)]);
}

/// Whether `field` has a pairing with no rematch, by trying every one.
fn rematch_free_exists(field: &[usize], records: &[Record]) -> bool {
    let Some((&first, rest)) = field.split_first() else {
        return true;
    };
    rest.iter().any(|&other| {
        !records[first].met.contains(&other) && {
            let left: Vec<usize> = rest.iter().copied().filter(|&i| i != other).collect();
            rematch_free_exists(&left, records)
        }
    })
}

proptest! {
    #[test]
    fn played_out_events_keep_every_rule(
        n in 2usize..=10,
        results in proptest::collection::vec(0u8..3, 12 * 10),
        seed in any::<u64>(),
        rounds in 1usize..=9,
    ) {
        let mut records = fresh(n);
        let mut results = results.into_iter();
        for _ in 0..rounds {
            let mut order: Vec<usize> = (0..n).collect();
            order.sort_by_key(|&i| (std::cmp::Reverse(records[i].score), i));
            let pairing = pair(&order, &records, seed);
            prop_assert_eq!(&pair(&order, &records, seed), &pairing);
            let mut seen = vec![0; n];
            for &(b, w) in &pairing.pairs {
                seen[b] += 1;
                seen[w] += 1;
            }
            if let Some(bye) = pairing.bye {
                seen[bye] += 1;
                let anyone_without = records.iter().any(|r| !r.had_bye);
                prop_assert!(!anyone_without || !records[bye].had_bye, "a second bye while others had none");
            }
            prop_assert!(seen.iter().all(|&s| s == 1), "everyone once: {:?}", seen);
            let field: Vec<usize> = order.iter().copied().filter(|&i| Some(i) != pairing.bye).collect();
            if rematch_free_exists(&field, &records) {
                for &(b, w) in &pairing.pairs {
                    prop_assert!(!records[b].met.contains(&w), "a rematch of {} and {} that could be avoided", b, w);
                }
            }
            for &(b, w) in &pairing.pairs {
                let last_two = |i: usize, side: Color| {
                    let c = &records[i].colours;
                    c.len() >= 2 && c[c.len() - 2..].iter().all(|&x| x == side)
                };
                let given = u8::from(last_two(b, Color::Black)) + u8::from(last_two(w, Color::White));
                let swapped = u8::from(last_two(w, Color::Black)) + u8::from(last_two(b, Color::White));
                prop_assert!(given <= swapped, "a third colour running for {} or {} that the swap avoids", b, w);
            }
            for (b, w) in pairing.pairs {
                records[b].met.push(w);
                records[w].met.push(b);
                records[b].colours.push(Color::Black);
                records[w].colours.push(Color::White);
                match results.next().unwrap_or(0) {
                    0 => records[b].score += 2,
                    1 => records[w].score += 2,
                    _ => {
                        records[b].score += 1;
                        records[w].score += 1;
                    }
                }
            }
            if let Some(bye) = pairing.bye {
                records[bye].had_bye = true;
                records[bye].score += 2;
            }
        }
    }
}
