//! ProbCut for Othello's alpha-beta: the calibrated regressions of a
//! deep search's value on a shallow one's, and the calibration that
//! measures them (`tabula calibrate-probcut`).
//!
//! A node with `d` plies left is tested with a search of
//! `d' = 2 * floor(d / 4) + d mod 2` plies (of the parity of `d`, as
//! Othello values swing with the parity of the depth): at `d` = 3..=11
//! that is 1, 2, 3, 2, 3, 4, 5, 4, 5. For each depth and each stage of
//! the game (by empty squares) the calibration plays self-play games with
//! the pattern evaluation, searches positions sampled from them to the
//! deepest depth with ProbCut off, and fits `v_d = slope * v_d' +
//! intercept` by least squares; `sigma` is the standard deviation of the
//! residuals. Deeper nodes reuse the deepest calibrated depth of their
//! parity with the same gap between the two depths.

use crate::model::game::ProbCutFit;

/// The shallowest depth tested.
pub const MIN_DEPTH: u32 = 3;
/// The deepest calibrated depth.
pub const MAX_DEPTH: u32 = 11;
/// How many depths are calibrated, `MIN_DEPTH..=MAX_DEPTH`.
pub const DEPTHS: usize = (MAX_DEPTH - MIN_DEPTH + 1) as usize;
/// Stages of the game, by empty squares: see [`stage`].
pub const STAGES: usize = 6;

/// The stage of a position with `empties` empty squares: 8 empties a
/// stage from the start (60..=53 is stage 0), the last taking 20 and fewer.
pub fn stage(empties: u32) -> usize {
    (60u32.saturating_sub(empties) / 8).min(STAGES as u32 - 1) as usize
}

/// The shallow depth tested at a node with `depth` plies left.
pub fn shallow_depth(depth: u32) -> u32 {
    2 * (depth / 4) + depth % 2
}

/// (slope, intercept in discs, sigma in discs) per stage and depth
/// `MIN_DEPTH..=MAX_DEPTH`, printed by `tabula calibrate-probcut --games 80
/// --per-game 5 --depth 11 --threads 2` (400 positions, 398 kept, about
/// 80 a stage; 625 s on the 2-core development machine under load). The
/// slopes are close to 1 and sigma grows from about 2 discs in the
/// opening to 4-5 near the endgame.
// Measured figures: a sigma of 3.14 discs is not an approximation of pi.
#[allow(clippy::approx_constant)]
#[rustfmt::skip]
const PARAMS: [[(f32, f32, f32); DEPTHS]; STAGES] = [
    [(1.010, 0.83, 2.12), (1.073, 0.18, 1.59), (1.151, 0.20, 0.99), (1.127, -0.29, 2.00), (1.089, 0.41, 1.79), (0.993, -0.25, 2.02), (0.975, 0.71, 2.11), (1.079, -0.76, 2.07), (0.975, 0.95, 2.12),],
    [(1.018, 0.51, 1.79), (1.038, -0.28, 2.09), (1.019, 0.42, 1.55), (1.050, -0.23, 2.54), (1.022, 0.61, 2.31), (1.034, -0.24, 2.08), (1.021, 0.63, 1.98), (1.053, -0.39, 2.83), (1.012, 0.64, 2.25),],
    [(1.017, 1.56, 3.58), (1.044, 0.41, 2.84), (1.044, 0.15, 2.46), (1.058, 0.34, 3.41), (1.067, 0.65, 3.16), (1.055, -0.48, 2.90), (1.055, 0.77, 2.25), (1.087, -0.72, 3.44), (1.075, 0.61, 2.89),],
    [(1.010, 1.65, 3.77), (1.034, 0.49, 3.14), (1.030, 0.64, 3.21), (1.044, 0.75, 3.60), (1.033, 1.30, 3.42), (1.021, 0.02, 2.57), (0.991, 0.87, 3.30), (1.013, -0.11, 3.26), (1.000, 0.95, 3.88),],
    [(1.015, 1.70, 3.32), (0.963, -0.11, 4.60), (0.979, 0.73, 3.71), (0.945, 0.18, 4.66), (0.976, 1.05, 4.48), (0.969, 0.50, 4.45), (0.995, 0.85, 3.90), (0.985, 0.19, 5.05), (1.001, 0.96, 4.99),],
    [(1.004, 2.02, 5.03), (0.991, 0.54, 4.34), (0.986, 0.97, 3.43), (1.000, 0.35, 5.01), (1.005, 1.19, 4.16), (1.018, -0.18, 4.28), (1.021, 0.26, 4.01), (1.010, 0.40, 4.69), (1.018, -0.02, 4.57),],
];

/// The ProbCut test of a node with `depth` plies left and `empties` empty
/// squares, in evaluation units (discs / 64).
pub fn params(empties: u32, depth: u32) -> Option<ProbCutFit> {
    if depth < MIN_DEPTH {
        return None;
    }
    // A deeper node borrows the deepest calibrated depth of its parity,
    // keeping that depth's gap to its shallow search.
    let (calibrated, shallow) = if depth <= MAX_DEPTH {
        (depth, shallow_depth(depth))
    } else {
        let k = if (depth - MAX_DEPTH).is_multiple_of(2) {
            MAX_DEPTH
        } else {
            MAX_DEPTH - 1
        };
        (k, depth - (k - shallow_depth(k)))
    };
    let (slope, intercept, sigma) =
        PARAMS[stage(empties)][(calibrated - MIN_DEPTH) as usize];
    Some(ProbCutFit {
        shallow,
        slope: f64::from(slope),
        intercept: f64::from(intercept) / 64.0,
        sigma: f64::from(sigma) / 64.0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shallow_depths_keep_the_parity_and_deep_nodes_the_calibrated_gap() {
        for d in MIN_DEPTH..=30 {
            let p = params(40, d).expect("tested from MIN_DEPTH");
            assert_eq!(p.shallow % 2, d % 2, "depth {d}");
            assert!(p.shallow >= 1 && p.shallow < d, "depth {d}");
        }
        assert!(params(40, MIN_DEPTH - 1).is_none());
        assert_eq!(stage(60), 0);
        assert_eq!(stage(53), 0);
        assert_eq!(stage(52), 1);
        assert_eq!(stage(10), STAGES - 1);
    }
}
