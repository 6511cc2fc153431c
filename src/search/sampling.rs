//! What the searches over sampled worlds (ISMCTS and PIMC) are set with
//! alike: their threads, their rule-guided playouts and their memory cap,
//! with one set of builders for both, and how both begin a search.

use crate::control::Budget;
use crate::model::game::Game;
use crate::search::SearchResult;

/// Iterations a search over sampled worlds runs when the budget sets no
/// limit at all (no iterations, no time).
pub const DEFAULT_ITERATIONS: u64 = 10_000;

/// The settings ISMCTS and PIMC share.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sampling {
    /// Search threads (at least 1); how a search shares the work out is
    /// its own (ISMCTS: a tree each, PIMC: a share of the worlds each).
    pub threads: usize,
    /// Chance that a playout move is the game's rule move (0: uniformly
    /// random playouts): the engine's `playout_rules`.
    pub rules: f64,
    /// Bytes the search's trees or worlds may take together.
    pub max_bytes: usize,
}

impl Default for Sampling {
    /// One thread, random playouts, 512 MiB.
    fn default() -> Sampling {
        Sampling {
            threads: 1,
            rules: 0.0,
            max_bytes: 512 << 20,
        }
    }
}

/// A search set with [`Sampling`]: the builders are written once here.
pub trait SampledSearch: Sized {
    /// The search's sampling settings.
    fn sampling_mut(&mut self) -> &mut Sampling;

    /// Searches on `threads` threads.
    fn with_threads(mut self, threads: usize) -> Self {
        self.sampling_mut().threads = threads.max(1);
        self
    }

    /// Guides playouts by the game's rule player: each playout move is
    /// its move with probability `rules`, random otherwise.
    fn with_rules(mut self, rules: f64) -> Self {
        self.sampling_mut().rules = rules;
        self
    }

    /// Caps the search's memory at about `bytes`.
    fn with_memory(mut self, bytes: usize) -> Self {
        self.sampling_mut().max_bytes = bytes;
        self
    }
}

/// A search begun: the root's legal moves and the iterations to run.
pub type Begun<M> = (Vec<M>, Option<u64>);

/// How a search over sampled worlds begins: the root's legal moves, or
/// (`Err`) the answer without a search where there is only one; and the
/// iterations to run: the budget's, else [`DEFAULT_ITERATIONS`] where no
/// time bounds the search either (`None`: until the time is up).
pub fn begin<G: Game>(root: &G, budget: &Budget) -> Result<Begun<G::Move>, SearchResult<G::Move>> {
    let mut moves = Vec::new();
    root.legal_moves(&mut moves);
    if moves.len() == 1 {
        return Err(SearchResult::unsearched(moves[0], 0));
    }
    let limit = budget
        .iterations
        .or(budget.time.is_none().then_some(DEFAULT_ITERATIONS));
    Ok((moves, limit))
}
