//! The Othello lab: the tools that make the game's knowledge, above the
//! searches they use. `tabula train-othello` fits the pattern evaluation
//! ([`othello_train`]); `tabula calibrate-probcut` measures ProbCut's
//! regressions ([`probcut_calibration`]). The game holds only what they
//! produce (the weights, the ProbCut table), so it never knows a search.

pub mod othello_train;
pub mod probcut_calibration;
