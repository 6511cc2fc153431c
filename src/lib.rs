//! tabula: a game engine for Othello, Quoridor, Hearts, Wizard and
//! Ninety-Nine, driven over stdin/stdout in a GTP-style protocol.
//!
//! The house, from the ground floor up; a room imports only from the
//! floors below it (`tests/layers.rs` checks it, docs/architecture.md
//! draws it):
//! 1. [`model`]: what a game is (the game trait, its options, its extras,
//!    a game in play, its pictures); [`control`]: budgets, stop and
//!    progress; `memory`: large tables made, shared and freed off the
//!    clock; [`files`]: the one reader of files a person names, the one
//!    writer of what tabula writes, and the lock that keeps one writer a
//!    file; [`json`]: how every JSON message is written (serde, tabula's
//!    escapes and number forms).
//! 2. [`games`]: one module per game, and the registry that names them
//!    and visits their types; [`search`]: searches generic over the game
//!    trait, which never name a game.
//! 3. [`engine`]: the facade that owns the game, settings and search (and
//!    the build signature its searches count).
//! 4. [`arena`]: the match runner (`tabula match`).
//! 5. [`protocol`]: the command grammar, the session loop and the other
//!    dialects (NBoard, UGI, GoGui rules); [`gui`]: `tabula gui`, the
//!    browser table, a referee over engine processes like `tabula match`;
//!    [`tools`]: perft, bench (which runs engines through the arena's
//!    process client) and the Othello lab.
//! 6. [`added_games`]: a game defined outside the crate, served by every
//!    room above; `main.rs`: the command line.

// Every public item says what it is (clippy's -D warnings makes it an
// error in CI).
#![warn(missing_docs)]

pub mod added_games;
pub mod arena;
pub mod control;
pub mod engine;
pub mod files;
pub mod games;
pub mod gui;
pub mod json;
pub(crate) mod memory;
pub mod model;
pub mod protocol;
pub mod search;
pub mod tools;
