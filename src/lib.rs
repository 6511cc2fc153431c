//! tabula: a game engine for Othello, Quoridor, Hearts, Wizard and
//! Ninety-Nine, driven over stdin/stdout in a GTP-style protocol.
//!
//! Layers, from the bottom up:
//! - [`options`]: game options; [`control`]: budgets, stop and progress.
//! - [`game`]: the game trait every game implements.
//! - [`games`]: one module per game, and the registry that names them.
//! - [`search`]: searches generic over the game trait.
//! - [`engine`]: the facade that owns the game, settings and running search.
//! - [`protocol`]: the command grammar and the session loop.
//! - [`arena`]: the match runner (`tabula match`).

pub mod arena;
pub mod bench;
pub mod control;
pub mod engine;
pub mod game;
pub mod games;
pub mod options;
pub mod perft;
pub mod protocol;
pub mod search;
