//! tabula: a game engine for Othello, Quoridor, Hearts, Wizard and
//! Ninety-Nine, driven over stdin/stdout in a GTP-style protocol.
//!
//! Layers, from the bottom up; a module imports only from the layers
//! below it (a game never knows a search, the registry never knows the
//! engine):
//! 1. [`options`]: game options; [`control`]: budgets, stop and progress;
//!    `zeroed` and `dispose`: large tables made and freed off the clock;
//!    `atomic_rows`: a table's words shared between threads as atomics;
//!    [`peer_file`]: files opened on a peer's word, read safely; [`json`]:
//!    how every JSON message is written (serde, tabula's escapes and
//!    number forms).
//! 2. [`game`]: the game trait every game implements; [`extras`]: what a
//!    game may declare beyond it (an exact solver, protocol conventions);
//!    [`played`]: a game in play as text (history, checked moves), shared
//!    by engine and referee; [`pictures`]: how a game is shown to a
//!    person (the page's view, its moves in words), declared in its extras.
//! 3. [`games`]: one module per game, and the registry that names them
//!    and visits their types; [`search`]: searches generic over the game
//!    trait, which never name a game.
//! 4. [`engine`]: the facade that owns the game, settings and search;
//!    [`arena`]: the match runner (`tabula match`); [`perft`] and
//!    [`bench`] (which runs engines through the arena's process client:
//!    bench stands on arena, never the reverse; both count the
//!    [`build_signature`], below them); [`tool_args`]: the range checks of
//!    the tools' arguments;
//!    [`lab`]: the Othello evaluation's training and ProbCut's calibration.
//! 5. [`protocol`]: the command grammar, the session loop and the other
//!    dialects (NBoard, UGI, GoGui rules); [`gui`]: `tabula gui`, the
//!    browser table, a referee over engine processes like `tabula match`.
//! 6. `main.rs`: the command line.

// Every public item says what it is (clippy's -D warnings makes it an
// error in CI).
#![warn(missing_docs)]

pub mod arena;
pub(crate) mod atomic_rows;
pub mod bench;
pub mod build_signature;
pub mod control;
pub(crate) mod dispose;
pub mod engine;
pub mod extras;
pub mod file_lock;
pub mod game;
pub mod games;
pub mod gui;
pub mod json;
pub mod lab;
pub mod options;
pub mod outside;
pub mod peer_file;
pub mod perft;
pub mod pictures;
pub mod played;
pub mod protocol;
pub mod search;
pub mod tool_args;
pub(crate) mod zeroed;
