//! The statistics room: what a match's games say about the engines.
//! [`elo`] (wins/draws/losses, Elo with its interval, likelihood of
//! superiority), [`pentanomial`] (the same over deals, the independent
//! unit of a match) and [`sprt`] (the test that stops a match early).
//! Each stands on the ones before it.

pub mod elo;
pub mod pentanomial;
pub mod sprt;
