//! The engines room: the runner's side of an engine process.
//! [`process`] (one engine process: start, commands, replies, deadlines),
//! [`info_line`] (the `info` lines engines print while they think) and
//! [`stdio`] (the runner's own standard streams).

pub mod info_line;
pub mod process;
pub mod stdio;
