//! Othello's values in discs: how a search's score of any kind reads as
//! a final disc margin, as NBoard shows every value and UGI an Othello
//! one. The protocols' hub re-exports [`disc_margin`] for its dialects.

use crate::control::ScoreKind;

/// How many discs Othello's evaluation unit is: the evaluation is the
/// predicted final margin / 64.
pub const EVAL_DISCS: f64 = 64.0;

/// A score of `kind` (and its exact margin, if any) as a disc margin for
/// the side to move: an exact margin as it is; an evaluation times 64; a
/// win chance turned into the margin the engine's logistic gives that
/// chance (`win_scale`: its `eval_win_scale`); `None` where no value is
/// known.
pub fn disc_margin(kind: ScoreKind, score: f64, exact: Option<i32>, win_scale: f64) -> Option<f64> {
    kind.margin(score, exact, EVAL_DISCS, |p| {
        let p = p.clamp(1e-6, 1.0 - 1e-6);
        (EVAL_DISCS * (p / (1.0 - p)).ln() / win_scale).clamp(-EVAL_DISCS, EVAL_DISCS)
    })
}
