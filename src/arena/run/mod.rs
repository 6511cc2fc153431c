//! The run room: a match being played. [`runner`] (the run as named
//! steps), [`schedule`] (pairings, seats, deals, worker threads),
//! [`play`] (one game, the runner as referee between processes),
//! [`referee`] (the game as text), [`adjudicate`] (games ended early),
//! [`interrupt`] (Ctrl-C, SIGTERM, SIGHUP) and [`progress`] (the stderr
//! display).

pub mod adjudicate;
pub mod interrupt;
pub mod play;
pub mod progress;
pub mod referee;
pub mod runner;
pub mod schedule;
