//! The players that do not search: uniformly random, and the game's own
//! rule-based baseline.

use crate::model::game::Game;
use crate::search::playout::shallow_best_within;
use crate::search::{Ask, Search, SearchResult};

/// How often (in moves looked at) the one-ply fallback reads the clock.
const POLL_EVERY: u64 = 16;

/// A uniformly random legal move.
pub struct RandomMove<M> {
    buf: Vec<M>,
}

impl<M> Default for RandomMove<M> {
    fn default() -> Self {
        RandomMove { buf: Vec::new() }
    }
}

impl<G: Game> Search<G> for RandomMove<G::Move> {
    fn choose(&mut self, ask: Ask<'_, G>) -> SearchResult<G::Move> {
        let (root, _, _, _, rng) = ask.parts();
        SearchResult::unsearched(root.random_move(rng, &mut self.buf), 1)
    }
}

/// The game's rule-based baseline ([`Game::rules_move`]); games without
/// one fall back to the best move by one-ply evaluation.
pub struct RulesMove<M> {
    buf: Vec<M>,
    scratch: Vec<M>,
}

impl<M> Default for RulesMove<M> {
    fn default() -> Self {
        RulesMove {
            buf: Vec::new(),
            scratch: Vec::new(),
        }
    }
}

impl<G: Game> Search<G> for RulesMove<G::Move> {
    fn choose(&mut self, ask: Ask<'_, G>) -> SearchResult<G::Move> {
        let (root, _, _, control, rng) = ask.parts();
        let mut pacer = control.pacer(POLL_EVERY);
        let mv = root
            .rules_move(rng)
            .or_else(|| {
                // The game's own evaluation: the fallback of a game with
                // no rule player of its own.
                let eval = G::Eval::default();
                shallow_best_within(
                    root,
                    &eval,
                    1,
                    &mut self.buf,
                    &mut self.scratch,
                    &mut pacer,
                    u64::MAX,
                )
                .0
            })
            .unwrap_or_else(|| root.random_move(rng, &mut self.buf));
        SearchResult::unsearched(mv, 1)
    }
}
