//! The run room: a match being played. [`runner`] (the run as named
//! steps), [`schedule`] (pairings, seats, deals, worker threads),
//! [`play`] (one game, the runner as referee between processes) and
//! [`adjudicate`] (the trackers that end games early). The referee, the
//! stop flag and the progress display are the ground floor's
//! ([`crate::arena::ground`]).

pub mod adjudicate;
pub mod play;
pub mod runner;
pub mod schedule;
