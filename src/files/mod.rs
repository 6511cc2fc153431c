//! The files a person names: the one reader of them ([`input`]: settings,
//! weights, openings, records), the one writer of what tabula writes
//! ([`output`]: the match runner's record, charts and exports, the lab's
//! weight files and books) and the lock that keeps one writer a file
//! ([`lock`]).

pub mod input;
pub mod lock;
pub mod output;
