//! Statistics of a match over games: wins/draws/losses, the Elo
//! difference with a 95% interval and the likelihood of superiority.
//!
//! The figures here are computed from per-game scores in {0, ½, 1} (the
//! trinomial model): the Elo interval from the variance of that score.
//! Deals are [`super::pentanomial`]'s, the SPRT [`super::sprt`]'s.

use std::fmt;

/// The two-sided 95% quantile of the normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses of one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Wdl {
    /// A tally from counts.
    pub fn new(wins: u64, draws: u64, losses: u64) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    /// Adds one game scored 1 (win), ½ (draw) or 0 (loss); scores in
    /// between are rounded to the nearest of those.
    pub fn add(&mut self, score: f64) {
        if score > 0.75 {
            self.wins += 1;
        } else if score < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// The same games seen from the other side.
    pub fn flipped(&self) -> Wdl {
        Wdl {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }

    /// Adds another tally.
    pub fn merge(&mut self, other: &Wdl) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }

    /// Number of games.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points: a win is 1, a draw ½.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// The mean score per game in `[0, 1]` (½ with no games).
    pub fn score(&self) -> f64 {
        match self.games() {
            0 => 0.5,
            n => self.points() / n as f64,
        }
    }

    /// The variance of one game's score around the mean.
    pub fn variance(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.0;
        }
        let p = self.score();
        let (w, d, l) = (self.wins as f64, self.draws as f64, self.losses as f64);
        (w * (1.0 - p).powi(2) + d * (0.5 - p).powi(2) + l * p.powi(2)) / n as f64
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} - {} - {}", self.wins, self.draws, self.losses)
    }
}

/// The Elo difference that a mean score `p` corresponds to (logistic
/// model): `-400 log10(1/p - 1)`; infinite at 0 and 1.
pub fn elo_from_score(p: f64) -> f64 {
    if p <= 0.0 {
        f64::NEG_INFINITY
    } else if p >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / p - 1.0).log10()
    }
}

/// The expected score of a side that is `elo` stronger.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo difference with its 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// The point estimate.
    pub elo: f64,
    /// Lower end of the 95% interval.
    pub lower: f64,
    /// Upper end of the 95% interval.
    pub upper: f64,
    /// The 95% interval of the mean score, `[low, high]`.
    pub score_interval: (f64, f64),
}

impl EloEstimate {
    /// Half the width of the interval (the "±" figure).
    /// Infinite when an end of the interval is.
    pub fn margin(&self) -> f64 {
        if self.upper.is_infinite() || self.lower.is_infinite() {
            return f64::INFINITY;
        }
        (self.upper - self.lower) / 2.0
    }
}

/// The Elo difference of the side whose results are `wdl`, with a 95%
/// interval from the standard error of the per-game score. `None` with no
/// games. A perfect (or null) score gives an infinite estimate.
pub fn elo_estimate(wdl: &Wdl) -> Option<EloEstimate> {
    let n = wdl.games();
    if n == 0 {
        return None;
    }
    let p = wdl.score();
    let se = (variance_estimate(wdl) / n as f64).sqrt();
    let low = (p - Z95 * se).clamp(0.0, 1.0);
    let high = (p + Z95 * se).clamp(0.0, 1.0);
    Some(EloEstimate {
        elo: elo_from_score(p),
        lower: elo_from_score(low),
        upper: elo_from_score(high),
        score_interval: (low, high),
    })
}

/// The per-game variance used for intervals and the SPRT. With no wins or
/// no losses the sample variance understates the truth (it is zero for a
/// perfect score, which would give an interval of zero width), so half a
/// game of each result is added to the estimate of the variance only.
pub fn variance_estimate(wdl: &Wdl) -> f64 {
    if wdl.wins > 0 && wdl.losses > 0 {
        return wdl.variance();
    }
    let (w, d, l) = (
        wdl.wins as f64 + 0.5,
        wdl.draws as f64 + 0.5,
        wdl.losses as f64 + 0.5,
    );
    let m = w + d + l;
    let p = (w + 0.5 * d) / m;
    (w * (1.0 - p).powi(2) + d * (0.5 - p).powi(2) + l * p.powi(2)) / m
}

/// The likelihood of superiority: the probability that the side is truly
/// stronger, from wins and losses (draws carry no information here).
pub fn los(wdl: &Wdl) -> f64 {
    let decisive = (wdl.wins + wdl.losses) as f64;
    if decisive == 0.0 {
        return 0.5;
    }
    0.5 * (1.0 + erf((wdl.wins as f64 - wdl.losses as f64) / (2.0 * decisive).sqrt()))
}

/// The error function (Abramowitz and Stegun 7.1.26: absolute error below
/// 1.5e-7), enough for LOS percentages.
pub fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    sign * (1.0 - poly * (-x * x).exp())
}

/// Formats an Elo figure, with `+inf`/`-inf` for the infinite ones.
pub fn fmt_elo(elo: f64) -> String {
    if elo.is_infinite() {
        if elo > 0.0 {
            "+inf".to_string()
        } else {
            "-inf".to_string()
        }
    } else {
        // Adding zero turns -0.0 into 0.0, printed "+0.0".
        format!("{:+.1}", elo + 0.0)
    }
}

/// Formats an estimate as `+31.4 ± 20.1`, or by its interval when one end
/// is infinite (`+inf, 95% interval +442.0 .. +inf`).
pub fn fmt_estimate(e: &EloEstimate) -> String {
    if e.margin().is_finite() {
        format!("{} ± {:.1}", fmt_elo(e.elo), e.margin())
    } else {
        format!(
            "{} (95% interval {} .. {})",
            fmt_elo(e.elo),
            fmt_elo(e.lower),
            fmt_elo(e.upper)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erf_matches_known_values() {
        assert!((erf(0.0)).abs() < 1e-7);
        assert!((erf(1.0) - 0.842_700_79).abs() < 1e-6);
        assert!((erf(-2.0) + 0.995_322_27).abs() < 1e-6);
    }

    #[test]
    fn elo_round_trip() {
        for elo in [-300.0, -50.0, 0.0, 12.5, 200.0] {
            assert!((elo_from_score(score_from_elo(elo)) - elo).abs() < 1e-9);
        }
    }
}
