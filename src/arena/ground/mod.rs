//! The ground floor: what every other room of the arena may stand on and
//! that stands on no room of it. Named for where it sits, not for one
//! concern: its files share none but their place under the rest.
//!
//! [`referee`] (the game as text, the one `game NAME ... seat=N` line),
//! [`interrupt`] (the stop flag and the hooks that the record, the engines
//! and the temporary files register for a signal that ends the runner),
//! [`adjudication`] (what `--adjudicate` asks for and what decided a
//! game), [`config_error`] (a mistake on the command line), [`pairings`]
//! (which engines meet) and [`progress`] (the stderr display).
//!
//! Above it, floor by floor (tests/layers.rs holds the list): the record
//! and the statistics; the outputs; the engines; the configuration, the
//! clock and the match's error; the run and the merge.

pub mod adjudication;
pub mod config_error;
pub mod interrupt;
pub mod pairings;
pub mod progress;
pub mod referee;
