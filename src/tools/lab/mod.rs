//! The Othello lab: the tools that make the game's knowledge, above the
//! searches they use. `tabula train-othello` fits the pattern evaluation
//! ([`othello_train`]); `tabula calibrate-probcut` measures ProbCut's
//! regressions ([`probcut_calibration`]); `tabula book-othello` makes the
//! opening book ([`othello_book`]). The game holds only what they
//! produce (the weights, the ProbCut table), so it never knows a search.
//!
//! The files stand in floors, with no import circle between them
//! (tests/layers.rs): [`workers`], [`training_data`], [`wthor`] and
//! [`self_play`] at the bottom; [`labels`] (the labelled positions both
//! ends read) above them; the tools on top, none naming another.

pub mod labels;
pub mod othello_book;
pub mod othello_label;
pub mod othello_train;
pub mod probcut_calibration;
pub mod self_play;
pub mod training_data;
pub mod workers;
pub mod wthor;
