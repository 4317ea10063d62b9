//! The sequential probability ratio test of a match: its settings and
//! their checks, Wald's bounds, and the generalized log-likelihood ratio of
//! a trinomial or pentanomial tally under the logistic or normalized Elo
//! model, as fastchess computes it (`app/src/matchmaking/sprt/sprt.cpp`,
//! after Michel Van den Bergh's maximum-likelihood method).
//!
//! The BayesElo model is left out: it needs draws, and Go with a half-point
//! komi has none.

use serde::{Deserialize, Serialize};

use super::stats::{elo_to_score, Pentanomial, Trinomial, NELO_SCALE};

/// Fastchess's stand-in for an empty bucket, so that no probability is 0.
const EMPTY_BUCKET: f64 = 1e-3;

/// How the Elo hypotheses become a distribution's constraint.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SprtModel {
    /// Logistic Elo: the mean score is `1 / (1 + 10^(−elo/400))`.
    Logistic,
    /// Normalized Elo: `(score − ½)/σ` is `nelo / (800/ln 10)` (times √2
    /// for pairs). Fastchess's default.
    #[default]
    Normalized,
}

/// The test asked for: H0 is `elo0`, H1 is `elo1`; `alpha` is the chance of
/// accepting H1 when H0 holds, `beta` of accepting H0 when H1 holds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SprtSettings {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: SprtModel,
}

/// Why settings make no test.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
pub enum SprtError {
    #[error("elo0 and elo1 must be finite numbers")]
    EloNotFinite,
    #[error("elo0 ({elo0}) must be less than elo1 ({elo1})")]
    EloOrder { elo0: f64, elo1: f64 },
    #[error("alpha ({0}) must lie strictly between 0 and 1")]
    Alpha(f64),
    #[error("beta ({0}) must lie strictly between 0 and 1")]
    Beta(f64),
    #[error("alpha + beta ({0}) must be less than 1")]
    AlphaPlusBeta(f64),
}

/// Where the test stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SprtState {
    /// The LLR lies strictly between the bounds: play on.
    Continue,
    /// The LLR reached the lower bound: the candidate is not `elo1` better.
    AcceptH0,
    /// The LLR reached the upper bound: the candidate is `elo1` better.
    AcceptH1,
}

impl SprtSettings {
    /// Checks what fastchess checks: `elo0 < elo1`, both finite, `alpha`
    /// and `beta` in (0, 1) and their sum below 1.
    pub fn validate(&self) -> Result<(), SprtError> {
        if !self.elo0.is_finite() || !self.elo1.is_finite() {
            return Err(SprtError::EloNotFinite);
        }
        if self.elo0 >= self.elo1 {
            return Err(SprtError::EloOrder {
                elo0: self.elo0,
                elo1: self.elo1,
            });
        }
        let within_unit = |p: f64| p > 0.0 && p < 1.0;
        if !within_unit(self.alpha) {
            return Err(SprtError::Alpha(self.alpha));
        }
        if !within_unit(self.beta) {
            return Err(SprtError::Beta(self.beta));
        }
        if self.alpha + self.beta >= 1.0 {
            return Err(SprtError::AlphaPlusBeta(self.alpha + self.beta));
        }
        Ok(())
    }
}

/// A checked test, with its bounds worked out.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sprt {
    settings: SprtSettings,
    lower: f64,
    upper: f64,
}

impl Sprt {
    /// The test of valid settings.
    pub fn new(settings: SprtSettings) -> Result<Sprt, SprtError> {
        settings.validate()?;
        Ok(Sprt {
            settings,
            lower: (settings.beta / (1.0 - settings.alpha)).ln(),
            upper: ((1.0 - settings.beta) / settings.alpha).ln(),
        })
    }

    /// The settings the test was made from.
    pub fn settings(&self) -> &SprtSettings {
        &self.settings
    }

    /// `ln(β/(1−α))`: at or below it, H0 is accepted.
    pub fn lower_bound(&self) -> f64 {
        self.lower
    }

    /// `ln((1−β)/α)`: at or above it, H1 is accepted.
    pub fn upper_bound(&self) -> f64 {
        self.upper
    }

    /// What an LLR decides.
    pub fn state(&self, llr: f64) -> SprtState {
        if llr >= self.upper {
            SprtState::AcceptH1
        } else if llr <= self.lower {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }

    /// The LLR of games counted one by one; 0 with no games. Always finite.
    pub fn llr_trinomial(&self, counts: &Trinomial) -> f64 {
        self.llr(&counts.as_array(), &Trinomial::SCORES, 1.0)
    }

    /// The LLR of colour-swapped pairs; 0 with no pairs. Always finite.
    pub fn llr_pentanomial(&self, counts: &Pentanomial) -> f64 {
        self.llr(
            &counts.as_array(),
            &Pentanomial::SCORES,
            std::f64::consts::SQRT_2,
        )
    }

    /// `nelo_factor` turns normalized Elo into `t`: 1 for games, √2 for
    /// pairs.
    fn llr<const N: usize>(&self, counts: &[u64; N], scores: &[f64; N], nelo_factor: f64) -> f64 {
        if counts.iter().all(|&c| c == 0) {
            return 0.0;
        }
        let regularized = counts.map(|c| if c == 0 { EMPTY_BUCKET } else { c as f64 });
        let total: f64 = regularized.iter().sum();
        let observed = regularized.map(|c| c / total);
        let (h0, h1) = match self.settings.model {
            SprtModel::Logistic => (
                logistic_mle(scores, &observed, elo_to_score(self.settings.elo0)),
                logistic_mle(scores, &observed, elo_to_score(self.settings.elo1)),
            ),
            SprtModel::Normalized => (
                normalized_mle(
                    scores,
                    &observed,
                    nelo_factor * self.settings.elo0 / NELO_SCALE,
                ),
                normalized_mle(
                    scores,
                    &observed,
                    nelo_factor * self.settings.elo1 / NELO_SCALE,
                ),
            ),
        };
        let llr = total
            * observed
                .iter()
                .zip(h0.iter().zip(&h1))
                .map(|(p, (p0, p1))| p * (p1.ln() - p0.ln()))
                .sum::<f64>();
        if llr.is_finite() {
            llr
        } else {
            0.0
        }
    }
}

/// The distribution nearest the observed one (in likelihood) whose mean
/// score is `s`: `p_k = p̂_k / (1 + θ(a_k − s))` with θ the root of
/// `Σ p̂_k (a_k − s)/(1 + θ(a_k − s)) = 0` (Van den Bergh, "Comparing the
/// approximations for the generalized log likelihood ratio of a multinomial
/// distribution", Proposition 1.1).
fn logistic_mle<const N: usize>(scores: &[f64; N], observed: &[f64; N], s: f64) -> [f64; N] {
    let offsets = scores.map(|a| a - s);
    match constrained_theta(&offsets, observed) {
        Some(theta) => reweighted(observed, &offsets, theta),
        None => *observed,
    }
}

/// The distribution nearest the observed one whose `(μ − ½)/σ` is
/// `t_star`, by fastchess's fixed-point iteration from the uniform
/// distribution (Van den Bergh, "Comments on normalized Elo", section 4.1):
/// at most ten rounds, stopping once no probability moves by 1e-4.
fn normalized_mle<const N: usize>(scores: &[f64; N], observed: &[f64; N], t_star: f64) -> [f64; N] {
    let mut estimate = [1.0 / N as f64; N];
    for _ in 0..10 {
        let mean: f64 = scores.iter().zip(&estimate).map(|(a, p)| a * p).sum();
        let variance: f64 = scores
            .iter()
            .zip(&estimate)
            .map(|(a, p)| p * (a - mean) * (a - mean))
            .sum();
        let sigma = variance.sqrt();
        let phi = scores.map(|a| {
            let z = (a - mean) / sigma;
            a - 0.5 - 0.5 * t_star * sigma * (1.0 + z * z)
        });
        let Some(theta) = constrained_theta(&phi, observed) else {
            break;
        };
        let next = reweighted(observed, &phi, theta);
        let moved = next
            .iter()
            .zip(&estimate)
            .map(|(new, old)| (new - old).abs())
            .fold(0.0, f64::max);
        estimate = next;
        if moved < 1e-4 {
            break;
        }
    }
    estimate
}

fn reweighted<const N: usize>(observed: &[f64; N], offsets: &[f64; N], theta: f64) -> [f64; N] {
    std::array::from_fn(|k| observed[k] / (1.0 + theta * offsets[k]))
}

/// The θ in `(−1/max φ, −1/min φ)` where `Σ p̂_k φ_k / (1 + θφ_k) = 0`, by
/// bisection to within 1e-14 (fastchess's ITP stops at 1e-3 or 1e-7; the
/// LLR moves by the square of that error, times the number of games).
/// `None` when the φ are not of both signs, so that no such θ exists.
fn constrained_theta<const N: usize>(phi: &[f64; N], observed: &[f64; N]) -> Option<f64> {
    let smallest = phi.iter().copied().fold(f64::INFINITY, f64::min);
    let largest = phi.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(smallest < 0.0 && largest > 0.0) {
        return None;
    }
    let slope = |theta: f64| -> f64 {
        observed
            .iter()
            .zip(phi)
            .map(|(p, f)| p * f / (1.0 + theta * f))
            .sum()
    };
    let mut low = -1.0 / largest;
    let mut high = -1.0 / smallest;
    if !(low.is_finite() && high.is_finite()) {
        return None;
    }
    while high - low > 1e-14 {
        let middle = low + (high - low) / 2.0;
        if middle <= low || middle >= high {
            break;
        }
        let value = slope(middle);
        if value > 0.0 {
            low = middle;
        } else if value < 0.0 {
            high = middle;
        } else {
            return Some(middle);
        }
    }
    Some(low + (high - low) / 2.0)
}
