//! What every game of a match shares ([`MatchSetup`]): the engines, the
//! seed, the time grace and limits, the opening suite, the adjudication.

use std::time::Duration;

use crate::arena::config::openings::OpeningSuite;
use crate::arena::config::spec::EngineSpec;
use crate::arena::engines::process::TrafficLog;
use crate::arena::ground::adjudication::Adjudication;

/// What every game of a match shares.
pub struct MatchSetup {
    /// The engines.
    pub engines: Vec<EngineSpec>,
    /// The match seed: every chance step and opening move derives from it.
    pub seed: u64,
    /// Grace added to every enforced time limit (I/O and start-up).
    pub margin: Duration,
    /// The longest wait for a reply that has no budget of its own.
    pub timeout: Duration,
    /// Engine moves after which a game is adjudicated a draw (0: never).
    pub max_moves: usize,
    /// Random legal moves played at the start of perfect-information games
    /// (the same for every game of a deal), for variety.
    pub random_plies: usize,
    /// Whether tabula engines get `set seed N` per game (unless their
    /// settings fix one), so that games differ.
    pub game_seeds: bool,
    /// Where traffic goes with `--debug`.
    pub log: Option<TrafficLog>,
    /// The opening suite (`--openings`), if any.
    pub openings: Option<std::sync::Arc<OpeningSuite>>,
    /// What `--adjudicate` decides.
    pub adjudication: Adjudication,
}
