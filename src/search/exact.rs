//! The exact solver as a search: [`SolveFirst`] tries a game's solver (a
//! [`Solver`], which the engine takes from the game's registry line) when
//! the position is within its reach, and otherwise, or when the solve does
//! not finish in time, asks the search it wraps.
//!
//! With a time share ([`SolveFirst::with_time_share`]), a timed move gives
//! the solver only that share of its time, and the wrapped search the rest
//! if the solve does not finish: the switch from search to solver is then
//! made by time, the reach only bounding it. A solve that ran out of time
//! is not tried again on a position as large (by reach) with less than
//! twice the time, so the attempts cost a share of one move per size at
//! most.

use std::time::{Duration, Instant};

use crate::control::{Budget, Control, Progress, TimeUse};
use crate::model::extras::Solver;
use crate::model::game::Game;
use crate::search::{Ask, Candidate, ScoreKind, Search, SearchResult, lines_text};

/// The value in `[0, 1]` of an exact margin: a win, a draw or a loss.
fn outcome_value(exact: i32) -> f64 {
    match exact.signum() {
        1 => 1.0,
        -1 => 0.0,
        _ => 0.5,
    }
}

/// Solve within reach, else delegate.
pub struct SolveFirst<G: Game> {
    inner: Box<dyn Search<G> + Send>,
    solver: Solver<G>,
    reach: u32,
    table_bytes: usize,
    untimed_cap: Duration,
    threads: usize,
    /// The share of a timed move the solver may take (1: all of it).
    share: f64,
    /// The smallest reach at which a solve ran out of time, and the time
    /// it had.
    failed: Option<(u32, Duration)>,
    /// Solves started (for tests and diagnostics).
    tried: u64,
}

impl<G: Game> SolveFirst<G> {
    /// Wraps `inner`: positions whose size by `solver` is at most `reach`
    /// are solved first, with tables of at most `table_bytes`. A budget
    /// without a time (iterations or depth only) gives the solver
    /// `untimed_cap` at most, so that such a budget still ends the move.
    pub fn new(
        inner: Box<dyn Search<G> + Send>,
        solver: Solver<G>,
        reach: u32,
        table_bytes: usize,
        untimed_cap: Duration,
    ) -> SolveFirst<G> {
        SolveFirst {
            inner,
            solver,
            reach,
            table_bytes,
            untimed_cap,
            threads: 1,
            share: 1.0,
            failed: None,
            tried: 0,
        }
    }

    /// Gives the solver at most `share` of a timed move's time (0 to 1),
    /// so that a solve that does not finish leaves the rest to the wrapped
    /// search.
    pub fn with_time_share(mut self, share: f64) -> SolveFirst<G> {
        self.share = share.clamp(0.0, 1.0);
        self
    }

    /// Lets the solver run on `threads` threads.
    pub fn with_threads(mut self, threads: usize) -> SolveFirst<G> {
        self.threads = threads.max(1);
        self
    }
}

impl<G: Game> Search<G> for SolveFirst<G> {
    fn choose(&mut self, ask: Ask<'_, G>) -> SearchResult<G::Move> {
        let (root, seat, budget, control, rng) = ask.parts();
        // The position's size by the solver, when within reach.
        let size = Some((self.solver.size)(root)).filter(|&n| n <= self.reach);
        let allowed = control.deadline().filter(|_| self.share < 1.0).map(|d| {
            d.saturating_duration_since(Instant::now())
                .mul_f64(self.share)
        });
        let hopeless = match (size, allowed, self.failed) {
            // Retried only with twice the time: a few milliseconds more
            // (the clock read a little later) would fail again.
            (Some(n), Some(time), Some((failed_n, failed_time))) => {
                n >= failed_n && time < failed_time * 2
            }
            _ => false,
        };
        if self.reach > 0 && size.is_some() && !hopeless {
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
            } else if let Some(time) = allowed {
                Control::new(
                    control.stop_flag().clone(),
                    &Budget {
                        time: Some(time),
                        ..Budget::default()
                    },
                )
            } else {
                control.clone()
            }
            .with_threads(self.threads);
            let solver_control = &solver_control;
            self.tried += 1;
            let count = control.multipv();
            // Several lines: every move's margin (a costlier solve).
            let solved = if count > 1 {
                (self.solver.solve_moves)(root, solver_control, self.table_bytes)
            } else {
                (self.solver.solve)(root, solver_control, self.table_bytes)
            };
            let nodes = solved.as_ref().map_or(0, |s| s.nodes);
            if let Some(&(mv, exact)) = solved.as_ref().and_then(|s| s.moves.first()) {
                let lines: Vec<_> = solved
                    .iter()
                    .flat_map(|s| &s.moves)
                    .take(count)
                    .map(|&(m, e)| Candidate {
                        exact: Some(e),
                        ..Candidate::new(m, outcome_value(e), ScoreKind::Exact)
                    })
                    .collect();
                // (Only for lines: a plain analysis of a solve stays as it was.)
                if count > 0 && control.has_reporter() {
                    control.report(&Progress {
                        iterations: nodes,
                        elapsed: control.elapsed(),
                        best: root.move_text(mv),
                        best_move: Some(crate::control::MoveHandle::new(mv)),
                        score: outcome_value(exact),
                        kind: ScoreKind::Exact,
                        exact: Some(exact),
                        pv: vec![root.move_text(mv)],
                        lines: lines_text(root, &lines),
                        ..Progress::default()
                    });
                }
                return SearchResult {
                    best: mv,
                    score: outcome_value(exact),
                    kind: ScoreKind::Exact,
                    iterations: nodes,
                    depth: 0,
                    pv: vec![mv],
                    exact: Some(exact),
                    lines,
                };
            }
            if let (Some(n), Some(time)) = (size, allowed)
                && !control.should_stop()
            {
                self.failed = Some((n, time));
            }
        }
        self.inner.search(root, seat, budget, control, rng)
    }

    fn advance(&mut self, played: G::Move) {
        self.inner.advance(played);
    }

    fn reset(&mut self) {
        self.failed = None;
        self.inner.reset();
    }

    /// The wrapped search's: the solver takes its share of whatever time
    /// the move is given.
    fn time_use(&self) -> TimeUse {
        self.inner.time_use()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::othello::{Othello, SOLVER, random_position};
    use crate::model::game::Rng;
    use crate::search::alphabeta::AlphaBeta;
    use rand::SeedableRng;
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    #[test]
    fn a_solve_out_of_time_leaves_the_search_its_share_and_is_not_retried() {
        // 40 empties: far beyond a 100 ms solve. With a half share the
        // solver gives up at about 50 ms, alpha-beta plays a legal move in
        // the rest, and the next move at as many empties skips the solver.
        let s = random_position(3, 40);
        let mut rng = Rng::seed_from_u64(3);
        let mut search = SolveFirst::new(
            Box::new(AlphaBeta::<Othello>::new(4)),
            SOLVER,
            60,
            1 << 20,
            Duration::from_secs(1),
        )
        .with_time_share(0.5);
        let budget = Budget {
            time: Some(Duration::from_millis(100)),
            ..Budget::default()
        };
        let seat = s.side_to_move();
        let control = Control::new(Arc::new(AtomicBool::new(false)), &budget);
        let r = search.search(&s, seat, &budget, &control, &mut rng);
        assert!(s.is_legal(r.best));
        assert_eq!(r.exact, None);
        assert!(r.depth > 0, "the search had time left to search");
        assert_eq!(search.failed.map(|(n, _)| n), Some(40));
        // As large, about the same time: not tried again (the whole move searches).
        let control = Control::new(Arc::new(AtomicBool::new(false)), &budget);
        let again = search.search(&s, seat, &budget, &control, &mut rng);
        assert!(s.is_legal(again.best));
        assert_eq!(search.tried, 1);
        // A new game forgets it.
        search.reset();
        assert_eq!(search.failed, None);
    }
}
