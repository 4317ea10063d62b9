//! The match statistics checked against fastchess's own test vectors, an
//! independent Python calculation, and figures worked by hand.
//!
//! "Python" below is a direct transcription of the formulas of
//! `/work/shared/reference/match-statistics.md` §1.4 in Python 3's `math`
//! (with `math.erfc` for the LOS), the MLE roots found by bisection to
//! adjacent floats; fastchess's vectors are from `Disservin/fastchess` at
//! `74deac23`, `app/tests/elo_test.cpp` and `app/tests/sprt_test.cpp`, where
//! `Stats(w, l, d)` is wins, losses, draws and `Stats(ll, ld, wl, dd, wd,
//! ww)` the pairs.

use std::num::NonZeroUsize;

use proptest::prelude::*;

use super::schedule::SplitMix64;
use super::stats::{erf, erfc};
use super::*;

fn trinomial(wins: u64, draws: u64, losses: u64) -> Trinomial {
    Trinomial {
        wins,
        draws,
        losses,
    }
}

fn pentanomial(ll: u64, ld: u64, wl: u64, dd: u64, wd: u64, ww: u64) -> Pentanomial {
    Pentanomial::from([ll, ld, wl + dd, wd, ww])
}

fn sprt(elo0: f64, elo1: f64, model: SprtModel) -> Sprt {
    Sprt::new(SprtSettings {
        elo0,
        elo1,
        alpha: 0.05,
        beta: 0.05,
        model,
    })
    .unwrap()
}

#[track_caller]
fn assert_close(actual: f64, expected: f64, tolerance: f64) {
    assert!(
        (actual - expected).abs() <= tolerance,
        "{actual} is not within {tolerance} of {expected}"
    );
}

/// doctest's `Approx(expected).epsilon(0.01)`, as fastchess's tests use it.
#[track_caller]
fn assert_doctest_approx(actual: f64, expected: f64) {
    let tolerance = 0.01 * (1.0 + actual.abs().max(expected.abs()));
    assert_close(actual, expected, tolerance);
}

fn two_places(value: Option<f64>) -> String {
    format!("{:.2}", value.unwrap())
}

fn los_percent(figures: &Figures) -> String {
    format!("{:.2} %", figures.los.unwrap() * 100.0)
}

#[test]
fn trinomial_figures_match_fastchess_elo_tests() {
    let first = trinomial(76, 123, 89).figures();
    assert_eq!(format!("{:.3}", first.score.unwrap()), "0.477");
    assert_eq!(two_places(first.nelo), "-20.76");
    assert_eq!(two_places(first.nelo_error), "40.13");
    assert_eq!(los_percent(&first), "15.53 %");

    let second = trinomial(136, 111, 96).figures();
    assert_eq!(format!("{:.3}", second.score.unwrap()), "0.558");
    assert_eq!(two_places(second.nelo), "49.77");
    assert_eq!(two_places(second.nelo_error), "36.77");
    assert_eq!(two_places(second.elo), "40.70");
    assert_eq!(two_places(second.elo_error), "30.43");
    assert_eq!(los_percent(&second), "99.60 %");

    let third = trinomial(34, 0, 356).figures();
    assert_eq!(format!("{:.3}", third.score.unwrap()), "0.087");
    assert_eq!(two_places(third.nelo), "-508.44");
    assert_eq!(two_places(third.nelo_error), "34.48");
}

/// Python, for fastchess's "EloWDL 2": score 0.5583090379008746, Elo
/// 40.702458186527075 ± 30.42721794360099 (10.58675629865129 to
/// 71.44119218585327), nElo 49.768415381022194 ± 36.76845059495362, LOS
/// 0.9960102357334972.
#[test]
fn trinomial_figures_match_python_to_many_places() {
    let figures = trinomial(136, 111, 96).figures();
    assert_close(figures.score.unwrap(), 0.5583090379008746, 1e-15);
    assert_close(figures.elo.unwrap(), 40.702458186527075, 1e-10);
    assert_close(figures.elo_error.unwrap(), 30.42721794360099, 1e-10);
    assert_close(figures.elo_lower.unwrap(), 10.58675629865129, 1e-10);
    assert_close(figures.elo_upper.unwrap(), 71.44119218585327, 1e-10);
    assert_close(figures.nelo.unwrap(), 49.768415381022194, 1e-10);
    assert_close(figures.nelo_error.unwrap(), 36.76845059495362, 1e-10);
    assert_close(figures.los.unwrap(), 0.9960102357334972, 1e-13);
}

#[test]
fn pentanomial_figures_match_fastchess_elo_tests() {
    let cases = [
        (
            pentanomial(34, 54, 31, 32, 64, 75),
            ["0.579", "55.58", "27.65", "57.94", "28.28", "100.00 %"],
        ),
        (
            pentanomial(332, 433, 457, 41, 333, 334),
            ["0.488", "-8.64", "10.33", "-9.17", "10.96", "5.05 %"],
        ),
        (
            pentanomial(7895, 8757, 5485, 200, 568, 9999),
            ["0.470", "-21.04", "2.95", "-19.01", "2.65", "0.00 %"],
        ),
    ];
    for (counts, expected) in cases {
        let figures = counts.figures();
        let printed = [
            format!("{:.3}", figures.score.unwrap()),
            two_places(figures.elo),
            two_places(figures.elo_error),
            two_places(figures.nelo),
            two_places(figures.nelo_error),
            los_percent(&figures),
        ];
        assert_eq!(printed, expected, "{counts:?}");
    }
}

/// Python, for fastchess's "EloPentanomial 2": Elo -8.64266726796901 ±
/// 10.334194424393056, nElo -9.172914270047176 ± 10.960458877511156, LOS
/// 0.05047006698252936; and for "EloPentanomial 3" the LOS
/// 4.5487210491016986e-45, which `1 − erf` would round to 0.
#[test]
fn pentanomial_figures_match_python_to_many_places() {
    let figures = pentanomial(332, 433, 457, 41, 333, 334).figures();
    assert_close(figures.elo.unwrap(), -8.64266726796901, 1e-10);
    assert_close(figures.elo_error.unwrap(), 10.334194424393056, 1e-10);
    assert_close(figures.nelo.unwrap(), -9.172914270047176, 1e-10);
    assert_close(figures.nelo_error.unwrap(), 10.960458877511156, 1e-10);
    assert_close(figures.los.unwrap(), 0.05047006698252936, 1e-13);

    let lopsided = pentanomial(7895, 8757, 5485, 200, 568, 9999).figures();
    let los = lopsided.los.unwrap();
    assert!((los / 4.5487210491016986e-45 - 1.0).abs() < 1e-9, "{los}");
}

/// A Go match has no draws: 50 pairs, 15 won twice, 25 split, 10 lost
/// twice, so 100 games of which 55 won.
///
/// By hand, games: score 0.55, variance 0.55·0.45 = 0.2475, so the score's
/// interval is 0.55 ± 1.96·√(0.2475/100) = 0.55 ± 0.09751; nElo 0.05 /
/// √0.2475 · 347.436 = 34.92; ±1.96·347.436/√100 = 68.10.
///
/// By hand, pairs: score (15 + 25·½)/50 = 0.55; variance (10·0.55² +
/// 25·0.05² + 15·0.45²)/50 = 6.125/50 = 0.1225, so the interval is 0.55 ±
/// 1.96·√(0.1225/50) = 0.55 ± 0.09701; nElo 0.05/√(2·0.1225)·347.436 =
/// 35.10; ±1.96·347.436/√(2·50) = 68.10, the same as the games'.
///
/// Python gives the rest: games Elo 34.86007028756008 ± 69.37433961469709,
/// LOS 0.8425606793317904; pairs Elo ± 69.01343655446576, nElo
/// 35.09629407836434, LOS 0.8437888943786536.
#[test]
fn a_drawless_go_match_by_games_and_by_pairs() {
    let games = trinomial(55, 0, 45).figures();
    assert_close(games.score.unwrap(), 0.55, 1e-15);
    assert_close(games.elo.unwrap(), 34.86007028756008, 1e-10);
    assert_close(games.elo_error.unwrap(), 69.37433961469709, 1e-10);
    assert_close(games.nelo.unwrap(), 34.91859018169408, 1e-10);
    assert_close(games.nelo_error.unwrap(), 68.09612345718848, 1e-10);
    assert_close(games.los.unwrap(), 0.8425606793317904, 1e-13);
    assert_eq!(two_places(games.nelo), "34.92");

    let pairs = Pentanomial::from([10, 0, 25, 0, 15]).figures();
    assert_close(pairs.score.unwrap(), 0.55, 1e-15);
    assert_close(pairs.elo.unwrap(), 34.86007028756008, 1e-10);
    assert_close(pairs.elo_error.unwrap(), 69.01343655446576, 1e-10);
    assert_close(pairs.elo_lower.unwrap(), -32.764951285348815, 1e-10);
    assert_close(pairs.elo_upper.unwrap(), 105.2619218235827, 1e-10);
    assert_close(pairs.nelo.unwrap(), 35.09629407836434, 1e-10);
    assert_eq!(two_places(pairs.nelo), "35.10");
    assert_eq!(two_places(pairs.nelo_error), "68.10");
    assert_close(pairs.los.unwrap(), 0.8437888943786536, 1e-13);
}

#[test]
fn pairs_are_counted_by_their_total_in_either_order() {
    use Outcome::*;
    let mut counts = Pentanomial::default();
    for (first, second) in [
        (Loss, Loss),
        (Loss, Draw),
        (Draw, Loss),
        (Win, Loss),
        (Loss, Win),
        (Draw, Draw),
        (Win, Draw),
        (Win, Win),
        (Win, Win),
    ] {
        counts.add_pair(first, second);
    }
    assert_eq!(counts.as_array(), [1, 2, 3, 1, 2]);
    assert_eq!(counts.pairs(), 9);

    let mut games = Trinomial::default();
    for outcome in [Win, Win, Draw, Loss] {
        games.add(outcome);
    }
    assert_eq!(games, trinomial(2, 1, 1));
    assert_eq!(games.games(), 4);
}

#[test]
fn nothing_counted_has_no_figures() {
    let empty = Trinomial::default().figures();
    assert_eq!(empty, Pentanomial::default().figures());
    assert_eq!(
        serde_json::to_value(empty).unwrap(),
        serde_json::json!({
            "score": null, "elo": null, "elo_error": null, "elo_lower": null,
            "elo_upper": null, "nelo": null, "nelo_error": null, "los": null
        })
    );
}

#[test]
fn a_clean_sweep_has_no_elo_but_a_certain_los() {
    let swept = trinomial(12, 0, 0).figures();
    assert_eq!(swept.score, Some(1.0));
    assert_eq!((swept.elo, swept.elo_error), (None, None));
    assert_eq!((swept.elo_lower, swept.elo_upper), (None, None));
    assert_eq!((swept.nelo, swept.nelo_error), (None, None));
    assert_eq!(swept.los, Some(1.0));

    let whitewashed = Pentanomial::from([7, 0, 0, 0, 0]).figures();
    assert_eq!(whitewashed.score, Some(0.0));
    assert_eq!(whitewashed.elo, None);
    assert_eq!(whitewashed.los, Some(0.0));
    let json = serde_json::to_string(&whitewashed).unwrap();
    assert!(
        json.contains("\"elo\":null") && json.contains("\"los\":0.0"),
        "{json}"
    );
}

/// Every pair WD: a score of ¾ every time, Elo −400·log10(1/0.75 − 1) =
/// 400·log10 3 = 190.848501887865 with no spread, so no error; all draws:
/// Elo 0 with no spread, and no way to say which side is better.
#[test]
fn no_spread_gives_an_exact_elo_and_no_normalized_elo() {
    let steady = Pentanomial::from([0, 0, 0, 9, 0]).figures();
    assert_close(steady.elo.unwrap(), 400.0 * 3f64.log10(), 1e-12);
    assert_eq!(steady.elo_error, Some(0.0));
    assert_eq!((steady.nelo, steady.nelo_error), (None, None));
    assert_eq!(steady.los, Some(1.0));

    let drawn = trinomial(0, 8, 0).figures();
    assert_eq!((drawn.elo, drawn.elo_error), (Some(0.0), Some(0.0)));
    assert_eq!((drawn.nelo, drawn.los), (None, None));
}

/// One win and one loss: the interval 0.5 ± 1.96·√(0.25/2) = 0.5 ± 0.693
/// leaves (0, 1) on both sides, so the Elo interval has no ends.
#[test]
fn an_interval_beyond_the_scores_has_no_elo_bounds() {
    let figures = trinomial(1, 0, 1).figures();
    assert_eq!(figures.elo, Some(0.0));
    assert_eq!((figures.elo_lower, figures.elo_upper), (None, None));
    assert_eq!(figures.elo_error, None);
    assert_eq!(figures.nelo, Some(0.0));
    assert_eq!(figures.los, Some(0.5));
}

#[test]
fn the_pentanomial_serializes_as_its_five_counts() {
    let counts = Pentanomial::from([1, 2, 3, 4, 5]);
    assert_eq!(serde_json::to_string(&counts).unwrap(), "[1,2,3,4,5]");
    assert_eq!(
        serde_json::from_str::<Pentanomial>("[1,2,3,4,5]").unwrap(),
        counts
    );
    assert_eq!(
        serde_json::to_string(&trinomial(3, 2, 1)).unwrap(),
        r#"{"wins":3,"draws":2,"losses":1}"#
    );
    assert_eq!(serde_json::to_string(&Outcome::Draw).unwrap(), "\"draw\"");
}

/// Python's `math.erf` and `math.erfc`.
#[test]
fn erf_matches_python() {
    let cases = [
        (0.0, 0.0, 1.0),
        (1e-3, 0.0011283787909692365, 0.9988716212090307),
        (0.3, 0.3286267594591274, 0.6713732405408726),
        (-0.7, -0.6778011938374184, 1.6778011938374184),
        (1.0, 0.8427007929497149, 0.15729920705028513),
        (1.5, 0.9661051464753108, 0.033894853524689274),
        (1.999, 0.9953015566513705, 0.004698443348629488),
        (2.0, 0.9953222650189527, 0.004677734981047265),
        (2.5, 0.999593047982555, 0.0004069520174449589),
        (-3.0, -0.9999779095030014, 1.9999779095030015),
        (4.0, 0.9999999845827421, 1.541725790028002e-08),
        (6.0, 1.0, 2.1519736712498916e-17),
        (10.0, 1.0, 2.088487583762545e-45),
    ];
    for (x, expected_erf, expected_erfc) in cases {
        assert_close(erf(x), expected_erf, 1e-15);
        let relative = (erfc(x) - expected_erfc).abs() / expected_erfc;
        assert!(
            relative < 1e-13,
            "erfc({x}) = {} off by {relative}",
            erfc(x)
        );
    }
    assert_eq!(erf(40.0), 1.0);
    assert_eq!(erf(-40.0), -1.0);
    assert_eq!(erfc(40.0), 0.0);
    assert_eq!(erfc(-40.0), 2.0);
    assert!(erfc(f64::NAN).is_nan());
}

/// `ln(0.05/0.95)`, `ln(0.95/0.05)`, `ln(0.1/0.95)`, `ln(0.9/0.05)`.
#[test]
fn the_bounds_are_walds() {
    let even = sprt(0.0, 5.0, SprtModel::Normalized);
    assert_close(even.lower_bound(), -2.9444389791664403, 1e-15);
    assert_close(even.upper_bound(), 2.9444389791664403, 1e-15);

    let uneven = Sprt::new(SprtSettings {
        elo0: 0.0,
        elo1: 5.0,
        alpha: 0.05,
        beta: 0.1,
        model: SprtModel::Logistic,
    })
    .unwrap();
    assert_close(uneven.lower_bound(), -2.251291798606495, 1e-15);
    assert_close(uneven.upper_bound(), 2.8903717578961645, 1e-15);

    assert_eq!(even.state(2.95), SprtState::AcceptH1);
    assert_eq!(even.state(2.9444389791664403), SprtState::AcceptH1);
    assert_eq!(even.state(2.94), SprtState::Continue);
    assert_eq!(even.state(-2.94), SprtState::Continue);
    assert_eq!(even.state(-2.9444389791664403), SprtState::AcceptH0);
}

#[test]
fn settings_are_checked_as_fastchess_checks_them() {
    let good = SprtSettings {
        elo0: 0.0,
        elo1: 5.0,
        alpha: 0.05,
        beta: 0.05,
        model: SprtModel::Normalized,
    };
    assert_eq!(good.validate(), Ok(()));
    let with = |change: fn(&mut SprtSettings)| {
        let mut settings = good;
        change(&mut settings);
        Sprt::new(settings).unwrap_err()
    };
    assert_eq!(
        with(|s| s.elo1 = 0.0),
        SprtError::EloOrder {
            elo0: 0.0,
            elo1: 0.0
        }
    );
    assert_eq!(with(|s| s.elo0 = f64::NAN), SprtError::EloNotFinite);
    assert_eq!(with(|s| s.elo1 = f64::INFINITY), SprtError::EloNotFinite);
    assert_eq!(with(|s| s.alpha = 0.0), SprtError::Alpha(0.0));
    assert!(matches!(with(|s| s.alpha = f64::NAN), SprtError::Alpha(a) if a.is_nan()));
    assert_eq!(with(|s| s.beta = 1.0), SprtError::Beta(1.0));
    assert_eq!(
        with(|s| {
            s.alpha = 0.5;
            s.beta = 0.5
        }),
        SprtError::AlphaPlusBeta(1.0)
    );
    assert_eq!(
        with(|s| s.elo1 = -1.0).to_string(),
        "elo0 (0) must be less than elo1 (-1)"
    );
}

#[test]
fn settings_serialize_with_the_model_in_lower_case() {
    let settings: SprtSettings = serde_json::from_str(
        r#"{"elo0": -5, "elo1": 0, "alpha": 0.05, "beta": 0.05, "model": "logistic"}"#,
    )
    .unwrap();
    assert_eq!(settings.model, SprtModel::Logistic);
    assert_eq!(settings.elo0, -5.0);
    assert_eq!(
        serde_json::to_string(&SprtModel::Normalized).unwrap(),
        "\"normalized\""
    );
    assert!(serde_json::from_str::<SprtModel>("\"bayesian\"").is_err());
    assert_eq!(SprtModel::default(), SprtModel::Normalized);
    assert_eq!(
        serde_json::to_string(&SprtState::AcceptH1).unwrap(),
        "\"accept_h1\""
    );
}

/// fastchess's SPRT tests (bar the BayesElo ones), within their own
/// tolerance, and Python's exact MLE to many places. Fastchess's
/// logistic θ is found only to 1e-3, which moves its LLR by up to 1e-3
/// here (`lp2`: -4.97961 against -4.97867); the normalized ones agree.
#[test]
fn trinomial_llr_matches_fastchess_sprt_tests() {
    use SprtModel::*;
    let cases = [
        // (wins, draws, losses), elo0, elo1, model, fastchess, Python
        (
            (36433, 68692, 36027),
            0.0,
            2.0,
            Normalized,
            0.92,
            0.9232934492320218,
        ),
        (
            (10871, 20431, 10650),
            -1.75,
            0.25,
            Normalized,
            2.30,
            2.2975004095716587,
        ),
        (
            (4250, 0, 0),
            0.0,
            10.0,
            Normalized,
            120.56,
            120.54826774120394,
        ),
        (
            (21404, 40708, 21184),
            0.5,
            2.5,
            Logistic,
            -1.57,
            -1.5718887926942657,
        ),
        (
            (57433, 106593, 57030),
            0.0,
            2.0,
            Logistic,
            -2.59,
            -2.59302416354122,
        ),
    ];
    for ((w, d, l), elo0, elo1, model, fastchess, python) in cases {
        let llr = sprt(elo0, elo1, model).llr_trinomial(&trinomial(w, d, l));
        assert_doctest_approx(llr, fastchess);
        assert_close(llr, python, 1e-8);
    }
}

#[test]
fn pentanomial_llr_matches_fastchess_sprt_tests() {
    use SprtModel::*;
    let cases = [
        // (ll, ld, wl, dd, wd, ww), elo0, elo1, model, fastchess, Python
        (
            (365, 16618, 36029, 200, 16974, 390),
            0.0,
            2.0,
            Normalized,
            2.25,
            2.2503677035513876,
        ),
        (
            (127, 4883, 10311, 401, 5150, 104),
            -1.75,
            0.25,
            Normalized,
            3.01,
            3.0101542047988286,
        ),
        (
            (0, 0, 0, 0, 0, 5550),
            0.0,
            5.0,
            Normalized,
            111.82,
            111.79755508671417,
        ),
        (
            (223, 9863, 20279, 1000, 10037, 246),
            0.5,
            2.5,
            Logistic,
            -3.07,
            -3.074126439586767,
        ),
        (
            (871, 26175, 55003, 980, 26678, 821),
            0.0,
            2.0,
            Logistic,
            -4.98,
            -4.9786728634511785,
        ),
    ];
    for ((ll, ld, wl, dd, wd, ww), elo0, elo1, model, fastchess, python) in cases {
        let counts = pentanomial(ll, ld, wl, dd, wd, ww);
        let llr = sprt(elo0, elo1, model).llr_pentanomial(&counts);
        assert_doctest_approx(llr, fastchess);
        assert_close(llr, python, 1e-8);
    }
}

/// The Go match of [`a_drawless_go_match_by_games_and_by_pairs`] and one
/// of 400 pairs (130 WW, 170 WL, 100 LL: 430 of 800 games won), tested
/// with elo0 = 0, elo1 = 5.
///
/// Python (θ-method): 50 pairs, logistic 0.13355788893751125 by games and
/// 0.13373829922885477 by pairs, normalized 0.1335530199867639 and
/// 0.13360536768991407; 400 pairs, logistic 0.7806309839949618 and
/// 0.6792415490202219, normalized 0.7806064634230518 and
/// 0.7224736857853634. The logistic ones by games were checked once more by
/// maximising `Σ p̂ ln p` over the one free probability directly (golden
/// section, no θ): 0.13355788893749443 and 0.7806309839950271.
#[test]
fn a_drawless_go_match_llr() {
    use SprtModel::*;
    let cases = [
        (
            trinomial(55, 0, 45),
            Pentanomial::from([10, 0, 25, 0, 15]),
            [
                0.13355788893751125,
                0.13373829922885477,
                0.1335530199867639,
                0.13360536768991407,
            ],
        ),
        (
            trinomial(430, 0, 370),
            Pentanomial::from([100, 0, 170, 0, 130]),
            [
                0.7806309839949618,
                0.6792415490202219,
                0.7806064634230518,
                0.7224736857853634,
            ],
        ),
    ];
    for (games, pairs, [logistic_games, logistic_pairs, normalized_games, normalized_pairs]) in
        cases
    {
        let logistic = sprt(0.0, 5.0, Logistic);
        let normalized = sprt(0.0, 5.0, Normalized);
        assert_close(logistic.llr_trinomial(&games), logistic_games, 1e-10);
        assert_close(logistic.llr_pentanomial(&pairs), logistic_pairs, 1e-10);
        assert_close(normalized.llr_trinomial(&games), normalized_games, 1e-10);
        assert_close(normalized.llr_pentanomial(&pairs), normalized_pairs, 1e-10);
    }
    assert_close(
        sprt(0.0, 5.0, Logistic).llr_trinomial(&trinomial(430, 0, 370)),
        0.7806309839950271,
        1e-10,
    );
}

#[test]
fn nothing_counted_is_no_evidence() {
    for model in [SprtModel::Logistic, SprtModel::Normalized] {
        let test = sprt(0.0, 5.0, model);
        assert_eq!(test.llr_trinomial(&Trinomial::default()), 0.0);
        assert_eq!(test.llr_pentanomial(&Pentanomial::default()), 0.0);
        assert_eq!(test.state(0.0), SprtState::Continue);
    }
}

/// Rosetta Code, "Pseudo-random numbers/Splitmix64": the first five
/// outputs for the seed 1234567.
#[test]
fn splitmix64_gives_the_reference_outputs() {
    let mut generator = SplitMix64::new(1234567);
    let outputs: Vec<u64> = (0..5).map(|_| generator.next_u64()).collect();
    assert_eq!(
        outputs,
        [
            6457827717110365317,
            3203168211198807973,
            9817491932198370423,
            4593380528125082431,
            16408922859458223821,
        ]
    );
}

fn nonzero(n: usize) -> NonZeroUsize {
    NonZeroUsize::new(n).unwrap()
}

/// An independent Python transcription of the plan (SplitMix64 keyed by
/// the seed's first output XOR the cycle's, Fisher–Yates from the top with
/// Lemire's bounded draw) gives these cycles; they pin the order a saved
/// seed replays.
#[test]
fn the_opening_order_replays_from_its_seed() {
    let order = OpeningOrder::new(nonzero(5), 42);
    assert_eq!(order.cycle(0), [1, 3, 2, 0, 4]);
    assert_eq!(order.cycle(1), [0, 2, 1, 3, 4]);
    assert_eq!(order.cycle(2), [3, 4, 1, 2, 0]);
    let dealt: Vec<usize> = order.from_pair(3).take(8).collect();
    assert_eq!(dealt, [0, 4, 0, 2, 1, 3, 4, 3]);
    assert_eq!(order.opening(7), 1);

    let ten = OpeningOrder::new(nonzero(10), 0);
    assert_eq!(ten.cycle(0), [4, 9, 2, 5, 1, 7, 6, 0, 3, 8]);
    assert_eq!(ten.cycle(7), [4, 5, 2, 0, 8, 9, 6, 7, 1, 3]);
    assert_eq!(
        OpeningOrder::new(nonzero(3), u64::MAX).cycle(1 << 63),
        [1, 0, 2]
    );
    assert_eq!(OpeningOrder::new(nonzero(1), 9).opening(1000), 0);
}

#[test]
fn the_opening_order_serializes_its_size_and_seed() {
    let order = OpeningOrder::new(nonzero(200), 7);
    let json = serde_json::to_string(&order).unwrap();
    assert_eq!(json, r#"{"openings":200,"seed":7}"#);
    assert_eq!(serde_json::from_str::<OpeningOrder>(&json).unwrap(), order);
    assert!(serde_json::from_str::<OpeningOrder>(r#"{"openings":0,"seed":7}"#).is_err());
}

#[test]
fn a_gauntlet_takes_its_opponents_in_turn() {
    let opponents: Vec<usize> = (0..7).map(|k| gauntlet_opponent(nonzero(3), k)).collect();
    assert_eq!(opponents, [0, 1, 2, 0, 1, 2, 0]);
}

fn assert_figures_are_numbers(figures: &Figures) -> Result<(), TestCaseError> {
    let all = [
        figures.score,
        figures.elo,
        figures.elo_error,
        figures.elo_lower,
        figures.elo_upper,
        figures.nelo,
        figures.nelo_error,
        figures.los,
    ];
    for figure in all.into_iter().flatten() {
        prop_assert!(figure.is_finite(), "{figures:?}");
    }
    if let Some(los) = figures.los {
        prop_assert!((0.0..=1.0).contains(&los), "{figures:?}");
    }
    if let Some(error) = figures.elo_error {
        prop_assert!(error >= 0.0, "{figures:?}");
    }
    prop_assert!(serde_json::to_string(figures).is_ok());
    Ok(())
}

fn any_model() -> impl Strategy<Value = SprtModel> {
    prop_oneof![Just(SprtModel::Logistic), Just(SprtModel::Normalized)]
}

fn small_counts() -> impl Strategy<Value = u64> {
    prop_oneof![Just(0u64), 0u64..20, 0u64..5000]
}

proptest! {
    #[test]
    fn every_opening_is_dealt_once_before_any_again(
        openings in 1usize..40,
        seed in any::<u64>(),
        start_cycle in 0u64..1_000_000,
    ) {
        let order = OpeningOrder::new(nonzero(openings), seed);
        let first_pair = start_cycle * openings as u64;
        let dealt: Vec<usize> = order.from_pair(first_pair).take(3 * openings).collect();
        for cycle in dealt.chunks(openings) {
            let mut sorted = cycle.to_vec();
            sorted.sort_unstable();
            prop_assert_eq!(sorted, (0..openings).collect::<Vec<_>>());
        }
        for (offset, opening) in dealt.iter().enumerate() {
            prop_assert_eq!(order.opening(first_pair + offset as u64), *opening);
        }
    }

    #[test]
    fn reading_from_any_pair_gives_the_same_plan(
        openings in 1usize..30,
        seed in any::<u64>(),
        skip in 0u64..200,
    ) {
        let order = OpeningOrder::new(nonzero(openings), seed);
        let whole: Vec<usize> = order.from_pair(0).take(skip as usize + 50).collect();
        let tail: Vec<usize> = order.from_pair(skip).take(50).collect();
        prop_assert_eq!(&whole[skip as usize..], &tail[..]);
    }

    #[test]
    fn a_gauntlet_shares_pairs_evenly(opponents in 1usize..12, pairs in 0u64..300) {
        let mut met = vec![0u64; opponents];
        for pair in 0..pairs {
            met[gauntlet_opponent(nonzero(opponents), pair)] += 1;
        }
        let most = *met.iter().max().unwrap();
        let fewest = *met.iter().min().unwrap();
        prop_assert!(most - fewest <= 1, "{:?}", met);
    }

    #[test]
    fn figures_are_never_nan(
        counts in proptest::array::uniform5(small_counts()),
        huge in proptest::array::uniform3(0u64..1_000_000_000_000),
    ) {
        let pairs = Pentanomial::from(counts);
        assert_figures_are_numbers(&pairs.figures())?;
        let games = trinomial(counts[0], counts[1], counts[2]);
        assert_figures_are_numbers(&games.figures())?;
        assert_figures_are_numbers(&trinomial(huge[0], huge[1], huge[2]).figures())?;
    }

    #[test]
    fn the_llr_is_always_a_number(
        counts in proptest::array::uniform5(small_counts()),
        elo0 in prop_oneof![-100.0f64..100.0, -1e6f64..1e6],
        width in prop_oneof![0.1f64..50.0, 0.1f64..1e6],
        model in any_model(),
    ) {
        let test = sprt(elo0, elo0 + width, model);
        let pairs = test.llr_pentanomial(&Pentanomial::from(counts));
        let games = test.llr_trinomial(&trinomial(counts[0], counts[1], counts[2]));
        prop_assert!(pairs.is_finite() && games.is_finite(), "{pairs} {games}");
    }

    #[test]
    fn another_win_never_lowers_the_logistic_llr(
        counts in proptest::array::uniform5(small_counts()),
        elo0 in -20.0f64..20.0,
        width in 0.5f64..20.0,
    ) {
        let test = sprt(elo0, elo0 + width, SprtModel::Logistic);
        let games = trinomial(counts[0], counts[1], counts[2]);
        let one_more = Trinomial { wins: games.wins + 1, ..games };
        let (before, after) = (test.llr_trinomial(&games), test.llr_trinomial(&one_more));
        prop_assert!(after >= before - 1e-9, "{before} then {after}");

        let pairs = Pentanomial::from(counts);
        let one_more = Pentanomial { ww: pairs.ww + 1, ..pairs };
        let (before, after) = (test.llr_pentanomial(&pairs), test.llr_pentanomial(&one_more));
        prop_assert!(after >= before - 1e-9, "{before} then {after}");
    }
}
