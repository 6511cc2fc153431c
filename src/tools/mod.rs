//! The tools beside the engine: [`perft`] over any game, [`bench`] (the
//! engine's speed and latency, through the match runner's engine process),
//! the Othello [`lab`] (labels, fits, the book, ProbCut's calibration),
//! and the range checks of their arguments ([`args`]).

pub mod args;
pub mod bench;
pub mod lab;
pub mod perft;
