//! The record room: the match file. [`match_file`] (its data and its
//! text), [`codec`] (how keys, values and lists are written in it),
//! [`recover`] (crashed and hung engines, as the record notes them) and
//! [`transcript`] (a game's lines, held in one piece) with [`note`] (the
//! runner's notes about an engine among them).
//!
//! The record's types are named here too for users outside the arena
//! (`arena::record::MatchRecord`); files of the arena import them from
//! [`match_file`].

pub mod codec;
pub mod match_file;
pub mod note;
pub mod parse;
pub mod recover;
pub mod transcript;

pub use self::match_file::*;
pub use self::parse::{CutOff, Reading};
pub use self::transcript::Transcript;
