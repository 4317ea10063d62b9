//! A match's tallies and the figures read from them: the trinomial count of
//! games, the pentanomial count of colour-swapped pairs, and from either the
//! score, Elo with its 95 % interval, normalized Elo, and the likelihood of
//! superiority, by fastchess's formulas (`app/src/matchmaking/elo/`).
//!
//! Everything is seen from the candidate's side.

use serde::{Deserialize, Serialize};

/// The z-score of a two-sided 95 % interval, as fastchess has it.
pub const CI95_Z: f64 = 1.959963984540054;

/// `800 / ln 10`: the slope of the Elo curve at an even score, in Elo per
/// unit of `(score − ½) / σ`.
pub(crate) const NELO_SCALE: f64 = 800.0 / std::f64::consts::LN_10;

/// One game's result for the candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

impl Outcome {
    /// Half-points: a win 2, a draw 1, a loss 0.
    fn half_points(self) -> usize {
        match self {
            Outcome::Win => 2,
            Outcome::Draw => 1,
            Outcome::Loss => 0,
        }
    }
}

/// Games counted one by one: wins, draws and losses.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Trinomial {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Trinomial {
    /// The game scores of the buckets `[losses, draws, wins]`.
    pub(crate) const SCORES: [f64; 3] = [0.0, 0.5, 1.0];

    /// Counts one game.
    pub fn add(&mut self, outcome: Outcome) {
        let bucket = match outcome {
            Outcome::Win => &mut self.wins,
            Outcome::Draw => &mut self.draws,
            Outcome::Loss => &mut self.losses,
        };
        *bucket = bucket.saturating_add(1);
    }

    /// How many games were counted.
    pub fn games(&self) -> u64 {
        self.wins
            .saturating_add(self.draws)
            .saturating_add(self.losses)
    }

    /// The counts in score order: `[losses, draws, wins]`.
    pub fn as_array(&self) -> [u64; 3] {
        [self.losses, self.draws, self.wins]
    }

    /// Score, Elo, normalized Elo and LOS per game.
    pub fn figures(&self) -> Figures {
        Figures::from_counts(&self.as_array(), &Self::SCORES, 1.0)
    }
}

/// Colour-swapped pairs counted by their total: `[LL, LD, WL+DD, WD, WW]`,
/// a pair scoring 0, ¼, ½, ¾ or 1 a game. A pair split one win each and a
/// pair of two draws share the middle bucket, as in fastchess.
///
/// Serialized as that five-element array.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "[u64; 5]", into = "[u64; 5]")]
pub struct Pentanomial {
    pub ll: u64,
    pub ld: u64,
    pub wl_dd: u64,
    pub wd: u64,
    pub ww: u64,
}

impl Pentanomial {
    /// The per-game scores of the buckets `[LL, LD, WL+DD, WD, WW]`.
    pub(crate) const SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

    /// Counts one pair from its two games, in either order.
    pub fn add_pair(&mut self, first: Outcome, second: Outcome) {
        let bucket = match first.half_points() + second.half_points() {
            0 => &mut self.ll,
            1 => &mut self.ld,
            2 => &mut self.wl_dd,
            3 => &mut self.wd,
            _ => &mut self.ww,
        };
        *bucket = bucket.saturating_add(1);
    }

    /// How many pairs were counted.
    pub fn pairs(&self) -> u64 {
        self.as_array()
            .iter()
            .fold(0u64, |sum, count| sum.saturating_add(*count))
    }

    /// The counts in score order: `[LL, LD, WL+DD, WD, WW]`.
    pub fn as_array(&self) -> [u64; 5] {
        [self.ll, self.ld, self.wl_dd, self.wd, self.ww]
    }

    /// Score, Elo, normalized Elo and LOS per pair (the score and Elo are
    /// still per game).
    pub fn figures(&self) -> Figures {
        Figures::from_counts(&self.as_array(), &Self::SCORES, 2.0)
    }
}

impl From<[u64; 5]> for Pentanomial {
    fn from([ll, ld, wl_dd, wd, ww]: [u64; 5]) -> Self {
        Pentanomial {
            ll,
            ld,
            wl_dd,
            wd,
            ww,
        }
    }
}

impl From<Pentanomial> for [u64; 5] {
    fn from(counts: Pentanomial) -> Self {
        counts.as_array()
    }
}

/// What a tally says about the candidate.
///
/// A figure is `None` where it is undefined or infinite, so none is ever
/// NaN or ±∞ and the whole serializes as valid JSON (`null`):
/// - with nothing counted, every figure is `None`;
/// - at a score of 0 or 1 (every game lost or won) the Elo is infinite:
///   `elo`, its bounds and its error are `None`, and so are `nelo` and its
///   error (the spread is zero), while `los` is 0 or 1;
/// - an interval bound whose score falls outside (0, 1) is `None` (the
///   interval is unbounded on that side), and then so is `elo_error`;
/// - with no spread at all but an even score (every game drawn) `nelo`,
///   `nelo_error` and `los` are `None`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Figures {
    /// Mean score a game, in [0, 1].
    pub score: Option<f64>,
    /// Logistic Elo of the score: `−400·log10(1/score − 1)`.
    pub elo: Option<f64>,
    /// Half the width of the 95 % interval, in Elo, as fastchess computes
    /// it: `(elo_upper − elo_lower) / 2`.
    pub elo_error: Option<f64>,
    /// Elo at the lower end of the 95 % score interval.
    pub elo_lower: Option<f64>,
    /// Elo at the upper end of the 95 % score interval.
    pub elo_upper: Option<f64>,
    /// Normalized Elo: `(score − ½)/σ · 800/ln 10`, with σ the spread of a
    /// game (trinomial) or of a pair's total (pentanomial, `√(2σ²)`).
    pub nelo: Option<f64>,
    /// Half the width of the 95 % interval of the normalized Elo.
    pub nelo_error: Option<f64>,
    /// Likelihood of superiority: the chance, under the normal
    /// approximation, that the candidate's true score exceeds ½.
    pub los: Option<f64>,
}

impl Figures {
    const NONE: Figures = Figures {
        score: None,
        elo: None,
        elo_error: None,
        elo_lower: None,
        elo_upper: None,
        nelo: None,
        nelo_error: None,
        los: None,
    };

    /// `units` counted in buckets of the given per-game `scores`;
    /// `spread_factor` is 1 for games and 2 for pairs (normalized Elo's
    /// `√(kσ²)`).
    fn from_counts(counts: &[u64], scores: &[f64], spread_factor: f64) -> Figures {
        let units: f64 = counts.iter().map(|&c| c as f64).sum();
        if units == 0.0 {
            return Figures::NONE;
        }
        let frequencies: Vec<f64> = counts.iter().map(|&c| c as f64 / units).collect();
        let score: f64 = frequencies.iter().zip(scores).map(|(p, a)| p * a).sum();
        let variance: f64 = frequencies
            .iter()
            .zip(scores)
            .map(|(p, a)| p * (a - score) * (a - score))
            .sum();
        let half_width = CI95_Z * (variance / units).sqrt();
        let elo_lower = score_to_elo(score - half_width);
        let elo_upper = score_to_elo(score + half_width);
        let elo_error = elo_lower
            .zip(elo_upper)
            .map(|(lower, upper)| (upper - lower) / 2.0);
        let spread = (spread_factor * variance).sqrt();
        let (nelo, nelo_error) = if spread > 0.0 {
            (
                Some((score - 0.5) / spread * NELO_SCALE),
                Some(half_width / spread * NELO_SCALE),
            )
        } else {
            (None, None)
        };
        let los = if variance > 0.0 {
            Some(erfc(-(score - 0.5) / (2.0 * variance / units).sqrt()) / 2.0)
        } else if score > 0.5 {
            Some(1.0)
        } else if score < 0.5 {
            Some(0.0)
        } else {
            None
        };
        Figures {
            score: Some(score),
            elo: score_to_elo(score),
            elo_error,
            elo_lower,
            elo_upper,
            nelo,
            nelo_error,
            los,
        }
    }
}

/// Logistic Elo of a mean score: `−400·log10(1/score − 1)`; `None` unless
/// the score is strictly between 0 and 1.
pub fn score_to_elo(score: f64) -> Option<f64> {
    (score > 0.0 && score < 1.0).then(|| -400.0 * (1.0 / score - 1.0).log10())
}

/// Mean score of a logistic Elo difference: `1 / (1 + 10^(−elo/400))`.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function, to within about 1e-15: a series with positive terms
/// below |x| = 1, `1 − erfc` above.
pub fn erf(x: f64) -> f64 {
    if x.abs() < 1.0 {
        erf_series(x)
    } else {
        (1.0 - erfc_continued_fraction(x.abs())).copysign(x)
    }
}

/// The complementary error function `1 − erf(x)`, to within about 1e-14 of
/// its own size for x ≥ 0 (so the far tail of a LOS keeps its digits);
/// `2 − erfc(−x)` below 0.
pub fn erfc(x: f64) -> f64 {
    if x.is_nan() {
        x
    } else if x < 0.0 {
        2.0 - erfc(-x)
    } else if x < 1.0 {
        1.0 - erf_series(x)
    } else {
        erfc_continued_fraction(x)
    }
}

/// `erf(x) = 2/√π · e^(−x²) · Σ 2ⁿ x^(2n+1) / (1·3·…·(2n+1))` (Abramowitz
/// and Stegun 7.1.6); every term has the sign of x, so nothing cancels.
fn erf_series(x: f64) -> f64 {
    let x_squared_twice = 2.0 * x * x;
    let mut term = x;
    let mut sum = x;
    let mut n = 0.0;
    while term.abs() > sum.abs() * 1e-17 {
        term *= x_squared_twice / (2.0 * n + 3.0);
        sum += term;
        n += 1.0;
    }
    std::f64::consts::FRAC_2_SQRT_PI * (-x * x).exp() * sum
}

/// `erfc(x) = e^(−x²)/√π · 1/(x + ½/(x + 1/(x + (3/2)/(x + …))))` for
/// x ≥ 1 (Abramowitz and Stegun 7.1.14), by the modified Lentz method: 190
/// steps at x = 1, fewer above.
fn erfc_continued_fraction(x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let mut value = x;
    let mut c = x;
    let mut d = 0.0;
    for n in 1..500 {
        let a = f64::from(n) / 2.0;
        d = x + a * d;
        if d == 0.0 {
            d = TINY;
        }
        d = 1.0 / d;
        c = x + a / c;
        if c == 0.0 {
            c = TINY;
        }
        let step = c * d;
        value *= step;
        if (step - 1.0).abs() < 1e-16 {
            break;
        }
    }
    (-x * x).exp() / std::f64::consts::PI.sqrt() / value
}
