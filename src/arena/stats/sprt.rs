//! The sequential probability ratio test (SPRT) that stops a match once
//! the answer is clear: its bounds, in logistic or normalised Elo, and its
//! log-likelihood ratio, the generalised one of
//! [`super::pentanomial`], over games here and over deals (game pairs)
//! there.

use std::fmt;

use crate::arena::stats::elo::Wdl;
use crate::arena::stats::pentanomial::DealCounts;

/// The Elo scale of SPRT bounds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EloModel {
    /// Normalised Elo: the t-value of the score per game times
    /// `800 / ln 10` (fishtest's and fastchess's default): bounds mean the
    /// same effort whatever the draw rate.
    #[default]
    Normalized,
    /// Logistic Elo: `-400 log10(1/score - 1)`.
    Logistic,
}

impl EloModel {
    /// The word of `model=`.
    pub fn word(self) -> &'static str {
        match self {
            EloModel::Normalized => "normalized",
            EloModel::Logistic => "logistic",
        }
    }
}

/// The parameters of a sequential probability ratio test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// H0: the first engine is `elo0` stronger (in `model` Elo).
    pub elo0: f64,
    /// H1: the first engine is `elo1` stronger.
    pub elo1: f64,
    /// False positive rate (accepting H1 when H0 holds).
    pub alpha: f64,
    /// False negative rate (accepting H0 when H1 holds).
    pub beta: f64,
    /// The scale of `elo0` and `elo1`.
    pub model: EloModel,
}

/// Where an SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// Not enough evidence yet.
    Continue,
    /// H0 accepted: not `elo1` stronger.
    AcceptH0,
    /// H1 accepted: `elo1` stronger (rather than `elo0`).
    AcceptH1,
}

impl fmt::Display for SprtDecision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtDecision::Continue => "no decision yet",
            SprtDecision::AcceptH0 => "H0 accepted",
            SprtDecision::AcceptH1 => "H1 accepted",
        })
    }
}

/// Why SPRT parameters were refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad SPRT parameters: {0}")]
pub struct SprtError(pub String);

impl Sprt {
    /// Checked parameters.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, SprtError> {
        if !(elo0.is_finite() && elo1.is_finite()) || elo0 >= elo1 {
            return Err(SprtError(format!(
                "need elo0 < elo1 (got {elo0} and {elo1})"
            )));
        }
        for (name, v) in [("alpha", alpha), ("beta", beta)] {
            if !(v > 0.0 && v < 0.5) {
                return Err(SprtError(format!(
                    "{name} must be between 0 and 0.5 (got {v})"
                )));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
            model: EloModel::default(),
        })
    }

    /// The same test with bounds in `model` Elo.
    pub fn with_model(self, model: EloModel) -> Sprt {
        Sprt { model, ..self }
    }

    /// Parses `elo0=0 elo1=5 alpha=0.05 beta=0.05 model=normalized` words
    /// (those are the defaults; `model=logistic` for logistic Elo).
    pub fn parse<S: AsRef<str>>(words: &[S]) -> Result<Sprt, SprtError> {
        let (mut elo0, mut elo1, mut alpha, mut beta) = (0.0, 5.0, 0.05, 0.05);
        let mut model = EloModel::default();
        for word in words {
            let word = word.as_ref();
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| SprtError(format!("'{word}' is not key=value")))?;
            if key == "model" {
                model = match value {
                    "normalized" | "normalised" => EloModel::Normalized,
                    "logistic" => EloModel::Logistic,
                    _ => {
                        return Err(SprtError(format!(
                            "model must be normalized or logistic, not '{value}'"
                        )));
                    }
                };
                continue;
            }
            let v: f64 = value
                .parse()
                .map_err(|_| SprtError(format!("'{value}' is not a number")))?;
            match key {
                "elo0" => elo0 = v,
                "elo1" => elo1 = v,
                "alpha" => alpha = v,
                "beta" => beta = v,
                _ => {
                    return Err(SprtError(format!(
                        "unknown key '{key}' (accepted: elo0, elo1, alpha, beta, model)"
                    )));
                }
            }
        }
        Ok(Sprt::new(elo0, elo1, alpha, beta)?.with_model(model))
    }

    /// The words that [`Sprt::parse`] reads back into this test.
    pub fn words(&self) -> String {
        format!(
            "elo0={} elo1={} alpha={} beta={} model={}",
            self.elo0,
            self.elo1,
            self.alpha,
            self.beta,
            self.model.word()
        )
    }

    /// The log-likelihood ratio bounds `(lower, upper)`: at or below the
    /// lower one H0 is accepted, at or above the upper one H1.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 given the games of the
    /// first engine, each counted alone (the trinomial model).
    pub fn llr(&self, wdl: &Wdl) -> f64 {
        self.llr_deals(&DealCounts::from_bins(&[wdl.losses, wdl.draws, wdl.wins]))
    }

    /// The log-likelihood ratio of H1 against H0 given the first engine's
    /// deal scores (the pentanomial model for game pairs); 0 without a deal.
    pub fn llr_deals(&self, deals: &DealCounts) -> f64 {
        if deals.deals() == 0 {
            return 0.0;
        }
        match self.model {
            EloModel::Logistic => deals.llr_logistic(self.elo0, self.elo1),
            EloModel::Normalized => deals.llr_normalized(self.elo0, self.elo1),
        }
    }

    /// The decision for these results (counted game by game).
    pub fn decide(&self, wdl: &Wdl) -> SprtDecision {
        self.decision(self.llr(wdl))
    }

    /// The decision at log-likelihood ratio `llr`.
    pub fn decision(&self, llr: f64) -> SprtDecision {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}
