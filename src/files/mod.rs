//! The files a person names: the one reader of them ([`input`]: settings,
//! weights, openings, records) and the lock that keeps one writer a file
//! ([`lock`]).

pub mod input;
pub mod lock;
