//! Round-robin pairings by the Berger tables (FIDE Handbook C.05, Annex
//! 1): every entrant meets every other once a cycle, one game a round, and
//! each entrant's colours differ by at most one. With an odd field the
//! entrant drawn against the missing last number has the bye. A double
//! round robin plays the tables twice, colours swapped the second time.

/// One round's pairings: `(black, white)` by index in the pairing order,
/// and the entrant who sits the round out, if the field is odd.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundPairing {
    pub pairs: Vec<(usize, usize)>,
    pub bye: Option<usize>,
}

/// How many rounds a round robin of `entrants` takes, `cycles` times over.
pub fn rounds(entrants: usize, cycles: usize) -> usize {
    let table = entrants + entrants % 2;
    table.saturating_sub(1) * cycles
}

/// Round `round` (from 0) of a round robin of `entrants`, over as many
/// cycles as the round number needs.
pub fn pairing(entrants: usize, round: usize) -> RoundPairing {
    let n = entrants + entrants % 2;
    if n < 2 {
        return RoundPairing {
            pairs: Vec::new(),
            bye: (entrants == 1).then_some(0),
        };
    }
    let m = n - 1;
    let (cycle, r) = (round / m, round % m);
    let wrap = |x: isize| ((x - 1).rem_euclid(m as isize) + 1) as usize;
    let anchor = wrap((r * (n / 2)) as isize + 1);
    let mut table = Vec::with_capacity(n / 2);
    table.push(match r % 2 {
        0 => (anchor, n),
        _ => (n, anchor),
    });
    for k in 1..n / 2 {
        let k = k as isize;
        table.push((wrap(anchor as isize + k), wrap(anchor as isize - k)));
    }
    let mut pairs = Vec::new();
    let mut bye = None;
    for (first, second) in table {
        let (black, white) = match cycle % 2 {
            0 => (first - 1, second - 1),
            _ => (second - 1, first - 1),
        };
        match (black < entrants, white < entrants) {
            (true, true) => pairs.push((black, white)),
            (true, false) => bye = Some(black),
            (false, _) => bye = Some(white),
        }
    }
    RoundPairing { pairs, bye }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn numbered(entrants: usize, round: usize) -> Vec<(usize, usize)> {
        pairing(entrants, round)
            .pairs
            .into_iter()
            .map(|(b, w)| (b + 1, w + 1))
            .collect()
    }

    #[test]
    fn six_entrants_follow_the_berger_table() {
        assert_eq!(numbered(6, 0), [(1, 6), (2, 5), (3, 4)]);
        assert_eq!(numbered(6, 1), [(6, 4), (5, 3), (1, 2)]);
        assert_eq!(numbered(6, 2), [(2, 6), (3, 1), (4, 5)]);
        assert_eq!(numbered(6, 3), [(6, 5), (1, 4), (2, 3)]);
        assert_eq!(numbered(6, 4), [(3, 6), (4, 2), (5, 1)]);
        assert_eq!(
            numbered(6, 5),
            [(6, 1), (5, 2), (4, 3)],
            "the second cycle swaps"
        );
    }

    #[test]
    fn an_odd_field_gives_a_bye_in_place_of_the_last_number() {
        let first = pairing(5, 0);
        assert_eq!(first.bye, Some(0));
        assert_eq!(first.pairs, [(1, 4), (2, 3)]);
        assert_eq!(rounds(5, 1), 5);
        assert_eq!(rounds(6, 2), 10);
        assert_eq!(pairing(1, 0).bye, Some(0));
    }

    proptest! {
        #[test]
        fn each_cycle_meets_everyone_once_and_balances_colours(entrants in 2usize..=24) {
            let mut met = vec![vec![0u32; entrants]; entrants];
            let mut blacks = vec![0i64; entrants];
            let mut byes = vec![0u32; entrants];
            for round in 0..rounds(entrants, 1) {
                let pairing = pairing(entrants, round);
                let mut seen = vec![false; entrants];
                for &(b, w) in &pairing.pairs {
                    prop_assert!(!seen[b] && !seen[w], "one game a round");
                    seen[b] = true;
                    seen[w] = true;
                    met[b][w] += 1;
                    met[w][b] += 1;
                    blacks[b] += 1;
                    blacks[w] -= 1;
                }
                if let Some(bye) = pairing.bye {
                    prop_assert!(!seen[bye]);
                    seen[bye] = true;
                    byes[bye] += 1;
                }
                prop_assert!(seen.iter().all(|s| *s), "everyone plays or sits out");
            }
            for a in 0..entrants {
                for (b, times) in met[a].iter().enumerate() {
                    prop_assert_eq!(*times, u32::from(a != b));
                }
                prop_assert!(blacks[a].abs() <= 1, "colours of {}: {}", a, blacks[a]);
                prop_assert_eq!(byes[a], u32::from(entrants % 2 == 1));
            }
        }
    }
}
