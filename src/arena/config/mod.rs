//! The configuration room: what a match is asked to be. [`cli`] (the
//! command line of `tabula match`), [`spec`] (engine words, limits, time
//! controls), [`openings`] (opening suites) and [`match_setup`] (what
//! every game of a match shares, built from the others).

pub mod cli;
pub mod match_setup;
pub mod openings;
pub mod spec;
