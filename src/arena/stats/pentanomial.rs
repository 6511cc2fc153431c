//! Statistics over deals: the games of one deal (the same cards or
//! opening, seats rotated) are correlated, so the independent unit of a
//! match is the deal, not the game (fishtest's and fastchess's game pairs).
//!
//! A deal of `R` games (its seat rotations) is scored by the mean of the
//! first engine's game scores: a number in `{0, 1/2R, ..., 1}`. For
//! two-seat games `R = 2` and this is the pentanomial model (LL, LD,
//! WL+DD, WD, WW). Three- and four-seat games rotate the table more times
//! (`ABAB`/`BABA`: 2, three seats: 6, `ABBB`: 4), and each deal is scored
//! the same way, by the mean over all its rotations: that is the quantity
//! in which the luck of the cards cancels, and deals are independent of
//! each other. The statistics below are defined for any such discrete
//! distribution, so one piece of code serves 3, 5 or 13 bins.
//!
//! The log-likelihood ratio is the generalised one (the exact maximum
//! likelihood distributions under each hypothesis, Van den Bergh's
//! construction, which fishtest and fastchess use): for logistic Elo the
//! distribution of given mean, for normalised Elo the distribution of
//! given t-value `(mean - 1/2) / sigma`. Bins never seen count 0.001
//! (the same regularisation as theirs).

/// The constant between normalised Elo and the t-value per game:
/// `800 / ln 10`.
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

use crate::arena::record::match_file::MatchRecord;
use crate::arena::stats::elo::{Z95, elo_from_score, erf, score_from_elo};

/// A count given to a bin never seen, so that every likelihood is
/// defined (fishtest's and fastchess's value).
const UNSEEN: f64 = 1e-3;

/// How many deals ended with each score: bin `k` holds the deals scored
/// `k / (bins - 1)` by the first engine.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DealCounts {
    /// Counts per bin, from the worst (all lost) to the best (all won).
    pub bins: Vec<u64>,
    /// Games per complete deal (the seat rotation).
    pub rotation: usize,
    /// Counted games left out because their deal is not complete (a match
    /// stopped early, a game not counted).
    pub loose_games: u64,
}

impl DealCounts {
    /// Empty counts for deals of `rotation` games.
    pub fn new(rotation: usize) -> DealCounts {
        let rotation = rotation.max(1);
        DealCounts {
            bins: vec![0; 2 * rotation + 1],
            rotation,
            loose_games: 0,
        }
    }

    /// Counts from bins given directly (e.g. fishtest's LL, LD, WL+DD,
    /// WD, WW), for `(bins - 1) / 2` games a deal.
    pub fn from_bins(bins: &[u64]) -> DealCounts {
        DealCounts {
            rotation: (bins.len().saturating_sub(1) / 2).max(1),
            bins: bins.to_vec(),
            loose_games: 0,
        }
    }

    /// Adds a complete deal from its game scores (each 0, ½ or 1).
    pub fn add_deal(&mut self, scores: &[f64]) {
        let half_points: f64 = scores.iter().map(|s| (2.0 * s).round()).sum();
        let k = (half_points as usize).min(self.bins.len() - 1);
        self.bins[k] += 1;
    }

    /// Number of complete deals.
    pub fn deals(&self) -> u64 {
        self.bins.iter().sum()
    }

    /// The deals' distribution as (score, frequency) with unseen bins
    /// regularised, and the (regularised) number of deals.
    fn pdf(&self) -> (f64, Vec<(f64, f64)>) {
        let last = (self.bins.len() - 1).max(1) as f64;
        let counts: Vec<f64> = self
            .bins
            .iter()
            .map(|&c| if c == 0 { UNSEEN } else { c as f64 })
            .collect();
        let n: f64 = counts.iter().sum();
        let pdf = counts
            .iter()
            .enumerate()
            .map(|(k, &c)| (k as f64 / last, c / n))
            .collect();
        (n, pdf)
    }

    /// The mean deal score and its variance (raw counts), or `None`
    /// without a deal.
    fn mean_var(&self) -> Option<(f64, f64)> {
        let n = self.deals();
        if n == 0 {
            return None;
        }
        let last = (self.bins.len() - 1).max(1) as f64;
        let pdf: Vec<(f64, f64)> = self
            .bins
            .iter()
            .enumerate()
            .map(|(k, &c)| (k as f64 / last, c as f64 / n as f64))
            .collect();
        Some(mean_variance(&pdf))
    }

    /// The first engine's Elo (logistic) with a 95% interval from the
    /// variance of the deal scores, as fishtest and fastchess compute it,
    /// its normalised Elo with interval, and the LOS.
    pub fn estimate(&self) -> Option<DealEstimate> {
        let (mu, raw_var) = self.mean_var()?;
        let n = self.deals() as f64;
        // With a bin never seen the sample variance understates the truth
        // (zero for a perfect score): the regularised one is used then.
        let var = if self.bins.contains(&0) {
            mean_variance(&self.pdf().1).1
        } else {
            raw_var
        };
        let se = (var / n).sqrt();
        let (low, high) = ((mu - Z95 * se).max(0.0), (mu + Z95 * se).min(1.0));
        let sigma_game = (self.rotation as f64 * var).sqrt();
        let nelo = |s: f64| (s - 0.5) / sigma_game * NELO_PER_T;
        Some(DealEstimate {
            deals: self.deals(),
            score: mu,
            elo: elo_from_score(mu),
            elo_lower: elo_from_score(low),
            elo_upper: elo_from_score(high),
            nelo: nelo(mu),
            nelo_lower: nelo(low),
            nelo_upper: nelo(high),
            los: if se > 0.0 {
                normal_cdf((mu - 0.5) / se)
            } else if mu > 0.5 {
                1.0
            } else if mu < 0.5 {
                0.0
            } else {
                0.5
            },
        })
    }

    /// The generalised log-likelihood ratio of `elo1` against `elo0` in
    /// logistic Elo (the deals' mean score under each).
    pub fn llr_logistic(&self, elo0: f64, elo1: f64) -> f64 {
        let (n, pdf) = self.pdf();
        let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
        let p0 = mle_with_mean(&pdf, s0);
        let p1 = mle_with_mean(&pdf, s1);
        n * llr_per_deal(&pdf, &p0, &p1)
    }

    /// The generalised log-likelihood ratio of `nelo1` against `nelo0`
    /// in normalised Elo: the t-value per game is `nelo / (800 / ln 10)`,
    /// per deal of `R` games `sqrt(R)` times that.
    pub fn llr_normalized(&self, nelo0: f64, nelo1: f64) -> f64 {
        let (n, pdf) = self.pdf();
        let per_deal = (self.rotation as f64).sqrt() / NELO_PER_T;
        let p0 = mle_with_t(&pdf, 0.5, nelo0 * per_deal);
        let p1 = mle_with_t(&pdf, 0.5, nelo1 * per_deal);
        n * llr_per_deal(&pdf, &p0, &p1)
    }

    /// The counts as text: `LL 3, LD 10, WL+DD 30, WD 12, WW 5` for
    /// pairs, `0: 3, 1/4: 10, ...` otherwise.
    pub fn text(&self) -> String {
        if self.bins.len() == 5 {
            let names = ["LL", "LD", "WL+DD", "WD", "WW"];
            return names
                .iter()
                .zip(&self.bins)
                .map(|(n, c)| format!("{n} {c}"))
                .collect::<Vec<_>>()
                .join(", ");
        }
        let last = self.bins.len() - 1;
        self.bins
            .iter()
            .enumerate()
            .map(|(k, c)| match k {
                0 => format!("0: {c}"),
                k if k == last => format!("1: {c}"),
                k => {
                    let g = gcd(k, last);
                    format!("{}/{}: {c}", k / g, last / g)
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// Deals being filled game by game: a deal counts once all its games
/// have (the running SPRT, the Elo curve).
#[derive(Clone, Debug, Default)]
pub struct DealTally {
    open: std::collections::HashMap<u64, Vec<f64>>,
    /// The complete deals so far.
    pub counts: DealCounts,
}

impl DealTally {
    /// A tally of deals of `rotation` games.
    pub fn new(rotation: usize) -> DealTally {
        DealTally {
            open: std::collections::HashMap::new(),
            counts: DealCounts::new(rotation),
        }
    }

    /// Adds the first engine's score in one game of `deal`; true when that
    /// completed the deal.
    pub fn add(&mut self, deal: u64, score: f64) -> bool {
        let games = self.open.entry(deal).or_default();
        games.push(score);
        if games.len() < self.counts.rotation {
            return false;
        }
        if let Some(scores) = self.open.remove(&deal) {
            self.counts.add_deal(&scores);
        }
        true
    }

    /// Counted games of deals not complete.
    pub fn loose_games(&self) -> u64 {
        self.open.values().map(|v| v.len() as u64).sum()
    }
}

/// The scores of engine `first` against `second`, game by game in the
/// order of the game numbers, with each game's deal.
pub fn pair_scores(rec: &MatchRecord, first: usize, second: usize) -> Vec<(u64, f64)> {
    let mut games: Vec<&crate::arena::record::match_file::GameRecord> = rec.games.iter().collect();
    games.sort_by_key(|g| g.number);
    games
        .into_iter()
        .filter_map(|g| {
            let s = g.first_score()?;
            if g.pairing == (first, second) {
                Some((g.deal, s))
            } else if g.pairing == (second, first) {
                Some((g.deal, 1.0 - s))
            } else {
                None
            }
        })
        .collect()
}

/// The games per deal of a record's pairing: the most counted games any
/// of its deals holds (every complete deal holds the seat rotation).
pub fn rotation_of(scores: &[(u64, f64)]) -> usize {
    let mut per_deal: std::collections::HashMap<u64, usize> = std::collections::HashMap::new();
    for (deal, _) in scores {
        *per_deal.entry(*deal).or_default() += 1;
    }
    per_deal.values().copied().max().unwrap_or(1)
}

/// The deal counts of engine `first` against `second` in a record.
pub fn deal_counts(rec: &MatchRecord, first: usize, second: usize) -> DealCounts {
    let scores = pair_scores(rec, first, second);
    let mut tally = DealTally::new(rotation_of(&scores));
    for (deal, s) in scores {
        tally.add(deal, s);
    }
    let mut counts = tally.counts.clone();
    counts.loose_games = tally.loose_games();
    counts
}

/// What the deals say about the first engine.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DealEstimate {
    /// Complete deals counted.
    pub deals: u64,
    /// Its mean deal score.
    pub score: f64,
    /// Logistic Elo, and its 95% interval.
    pub elo: f64,
    /// Lower end.
    pub elo_lower: f64,
    /// Upper end.
    pub elo_upper: f64,
    /// Normalised Elo, and its 95% interval.
    pub nelo: f64,
    /// Lower end.
    pub nelo_lower: f64,
    /// Upper end.
    pub nelo_upper: f64,
    /// The likelihood of superiority.
    pub los: f64,
}

/// Mean and variance of a distribution given as (value, probability).
fn mean_variance(pdf: &[(f64, f64)]) -> (f64, f64) {
    let mu: f64 = pdf.iter().map(|(a, p)| a * p).sum();
    let var = pdf.iter().map(|(a, p)| p * (a - mu) * (a - mu)).sum();
    (mu, var)
}

/// `sum p log(p1 / p0)` over the observed frequencies `p`.
fn llr_per_deal(pdf: &[(f64, f64)], p0: &[f64], p1: &[f64]) -> f64 {
    pdf.iter()
        .zip(p0.iter().zip(p1))
        .map(|((_, p), (q0, q1))| p * (q1.ln() - q0.ln()))
        .sum()
}

/// Solves `sum p_i d_i / (1 + x d_i) = 0` for `x` with `1 + x d_i > 0`
/// for every `i` (the function falls strictly over that interval), by
/// bisection to the last bit. Needs `d` of both signs.
fn secular_root(pdf: &[(f64, f64)], d: &[f64]) -> Option<f64> {
    let lo_d = d.iter().copied().fold(f64::INFINITY, f64::min);
    let hi_d = d.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(lo_d < 0.0 && hi_d > 0.0) {
        return None;
    }
    let f = |x: f64| -> f64 {
        pdf.iter()
            .zip(d)
            .map(|((_, p), di)| p * di / (1.0 + x * di))
            .sum()
    };
    let (mut a, mut b) = (-1.0 / hi_d, -1.0 / lo_d);
    for _ in 0..200 {
        let m = 0.5 * (a + b);
        if m <= a || m >= b {
            break;
        }
        if f(m) > 0.0 {
            a = m;
        } else {
            b = m;
        }
    }
    Some(0.5 * (a + b))
}

/// The distribution on the same scores nearest (in likelihood) to the
/// observed one whose mean is `s`.
fn mle_with_mean(pdf: &[(f64, f64)], s: f64) -> Vec<f64> {
    let d: Vec<f64> = pdf.iter().map(|(a, _)| a - s).collect();
    match secular_root(pdf, &d) {
        Some(x) => pdf
            .iter()
            .zip(&d)
            .map(|((_, p), di)| p / (1.0 + x * di))
            .collect(),
        None => pdf.iter().map(|(_, p)| *p).collect(),
    }
}

/// The distribution on the same scores nearest (in likelihood) to the
/// observed one whose t-value `(mean - reference) / sigma` is `t`: a fixed
/// point, started from the uniform distribution.
fn mle_with_t(pdf: &[(f64, f64)], reference: f64, t: f64) -> Vec<f64> {
    let mut q: Vec<f64> = vec![1.0 / pdf.len() as f64; pdf.len()];
    for _ in 0..100 {
        let values: Vec<(f64, f64)> = pdf.iter().zip(&q).map(|((a, _), p)| (*a, *p)).collect();
        let (mu, var) = mean_variance(&values);
        let sigma = var.sqrt();
        let d: Vec<f64> = pdf
            .iter()
            .map(|(a, _)| a - reference - t * sigma * (1.0 + ((mu - a) / sigma).powi(2)) / 2.0)
            .collect();
        let Some(x) = secular_root(pdf, &d) else {
            break;
        };
        let next: Vec<f64> = pdf
            .iter()
            .zip(&d)
            .map(|((_, p), di)| p / (1.0 + x * di))
            .collect();
        let change = next
            .iter()
            .zip(&q)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        q = next;
        if change < 1e-12 {
            break;
        }
    }
    q
}

/// The standard normal distribution function.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * (1.0 + erf(x / std::f64::consts::SQRT_2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mle_has_the_asked_mean() {
        let counts = DealCounts::from_bins(&[3, 10, 30, 12, 5]);
        let (_, pdf) = counts.pdf();
        let q = mle_with_mean(&pdf, 0.55);
        let values: Vec<(f64, f64)> = pdf.iter().zip(&q).map(|((a, _), p)| (*a, *p)).collect();
        let (mu, _) = mean_variance(&values);
        assert!((mu - 0.55).abs() < 1e-12, "{mu}");
        assert!((q.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn deal_scores_fall_in_their_bins() {
        let mut c = DealCounts::new(2);
        c.add_deal(&[1.0, 0.5]);
        c.add_deal(&[0.0, 1.0]);
        c.add_deal(&[0.5, 0.5]);
        c.add_deal(&[0.0, 0.0]);
        assert_eq!(c.bins, vec![1, 0, 2, 1, 0]);
        let mut six = DealCounts::new(6);
        six.add_deal(&[1.0, 1.0, 0.5, 0.0, 0.0, 0.0]);
        assert_eq!(six.bins[5], 1);
        assert_eq!(six.text().split(", ").nth(5), Some("5/12: 1"));
    }
}
