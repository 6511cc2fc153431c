//! What the searches over sampled worlds (ISMCTS and PIMC) are set with
//! alike: their threads, their rule-guided playouts and their memory cap,
//! with one set of builders for both, and how both begin a search.

use rand::{Rng as _, SeedableRng as _};

use crate::control::{Budget, Control};
use crate::model::game::{Game, Rng};
use crate::search::{SearchResult, Share};

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

/// Runs a sampled search's `parts` on as many threads, each on its
/// [`Share`] of `limit`: the first on this thread with `rng` (it is the
/// one that reports), the others on scoped threads, each with a
/// generator seeded from `rng` before any starts, so that a seeded search
/// repeats. `run` returns what a part keeps, its steps and its depth.
/// Returns what the parts kept (the first first; a part whose thread
/// panicked keeps nothing), the steps of all and the deepest.
pub(crate) fn run_shares<P: Send, T: Send>(
    parts: Vec<P>,
    control: &Control<'_>,
    limit: Option<u64>,
    rng: &mut Rng,
    run: impl Fn(P, Share<'_>, &mut Rng) -> (T, u64, u32) + Sync,
) -> (Vec<T>, u64, u32) {
    let count = parts.len();
    let seeds: Vec<u64> = (1..count).map(|_| rng.r#gen()).collect();
    let mut parts = parts.into_iter();
    let Some(first) = parts.next() else {
        return (Vec::new(), 0, 0);
    };
    let run = &run;
    std::thread::scope(|scope| {
        let helpers: Vec<_> = parts
            .zip(seeds)
            .enumerate()
            .map(|(k, (part, seed))| {
                let share = Share::of(control, limit, count, k + 1);
                scope.spawn(move || run(part, share, &mut Rng::seed_from_u64(seed)))
            })
            .collect();
        let (kept, mut steps, mut deepest) = run(first, Share::of(control, limit, count, 0), rng);
        let mut all = vec![kept];
        for (kept, n, d) in helpers.into_iter().filter_map(|h| h.join().ok()) {
            all.push(kept);
            steps += n;
            deepest = deepest.max(d);
        }
        (all, steps, deepest)
    })
}
