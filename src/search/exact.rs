//! The exact solver as a search: [`SolveFirst`] tries the game's solver
//! ([`Game::solve`]) when the position is within its reach, and otherwise,
//! or when the solve does not finish in time, asks the search it wraps.

use std::time::Duration;

use crate::control::{Budget, Control};
use crate::game::{Game, Rng, Seat};
use crate::search::{Search, SearchResult};

/// Solve within reach, else delegate.
pub struct SolveFirst<G: Game> {
    inner: Box<dyn Search<G> + Send>,
    reach: u32,
    table_bytes: usize,
    untimed_cap: Duration,
    threads: usize,
}

impl<G: Game> SolveFirst<G> {
    /// Wraps `inner`: positions that [`Game::solvable`] at `reach` are
    /// solved first, with tables of at most `table_bytes`. A budget
    /// without a time (iterations or depth only) gives the solver
    /// `untimed_cap` at most, so that such a budget still ends the move.
    pub fn new(
        inner: Box<dyn Search<G> + Send>,
        reach: u32,
        table_bytes: usize,
        untimed_cap: Duration,
    ) -> SolveFirst<G> {
        SolveFirst {
            inner,
            reach,
            table_bytes,
            untimed_cap,
            threads: 1,
        }
    }

    /// Lets the solver run on `threads` threads.
    pub fn with_threads(mut self, threads: usize) -> SolveFirst<G> {
        self.threads = threads.max(1);
        self
    }
}

impl<G: Game> Search<G> for SolveFirst<G> {
    fn search(
        &mut self,
        root: &G,
        seat: Seat,
        budget: &Budget,
        control: &Control,
        rng: &mut Rng,
    ) -> SearchResult<G::Move> {
        if self.reach > 0 && root.solvable(self.reach) {
            // An analysis without any budget runs until it is stopped,
            // solver included.
            let solver_control = if control.deadline().is_none()
                && (budget.iterations.is_some() || budget.depth.is_some())
            {
                Control::new(
                    control.stop_flag().clone(),
                    &Budget {
                        time: Some(self.untimed_cap),
                        ..Budget::default()
                    },
                )
            } else {
                control.clone()
            }
            .with_threads(self.threads);
            let solver_control = &solver_control;
            if let Some((mv, exact)) = root.solve(solver_control, self.table_bytes) {
                let score = match exact.signum() {
                    1 => 1.0,
                    -1 => 0.0,
                    _ => 0.5,
                };
                return SearchResult {
                    best: mv,
                    score,
                    iterations: 0,
                    depth: 0,
                    pv: vec![mv],
                    exact: Some(exact),
                };
            }
        }
        self.inner.search(root, seat, budget, control, rng)
    }

    fn advance(&mut self, played: G::Move) {
        self.inner.advance(played);
    }

    fn reset(&mut self) {
        self.inner.reset();
    }
}
