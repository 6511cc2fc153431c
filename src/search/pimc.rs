//! Perfect Information Monte Carlo (determinized search).
//!
//! Draws `K` full states consistent with what the deciding seat knows
//! ([`Game::determinize`]), runs a flat UCB1 bandit over the root moves in
//! each of them (every pull is one random playout to the horizon), and
//! plays the move with the best value averaged over the worlds. Playouts go
//! round-robin over the worlds so that a search stopped early has spread its
//! effort evenly.
//!
//! Known weakness (the reason for [`crate::search::ismcts`]): each world is
//! solved as if its hidden cards were visible ("strategy fusion"), so moves
//! that keep options open are undervalued. It is still a strong, cheap
//! baseline for trick-taking games.

use std::time::Duration;

use rand::Rng as _;

use crate::game::{Game, Rng, Seat};
use crate::search::playout::random_playout;
use crate::search::{Budget, Control, Progress, Search, SearchResult};

/// Iterations used when the budget sets no limit at all.
pub const DEFAULT_ITERATIONS: u64 = 10_000;
/// Iterations between two polls of the stop flag and deadline.
const POLL_EVERY: u64 = 64;
/// Time between two progress reports.
const REPORT_EVERY: Duration = Duration::from_millis(250);

/// The PIMC search. `c` is the UCB1 exploration constant of the per-world
/// bandit (rewards are in `[0, 1]`; 0.7 is a good start); `worlds` is the
/// number of determinizations, 0 for automatic (about `sqrt(N) / 2` for an
/// iteration budget `N`, between 4 and 64; 32 under a time budget).
#[derive(Clone, Debug)]
pub struct Pimc {
    /// UCB1 exploration constant.
    pub c: f64,
    /// Number of determinizations (0 = automatic).
    pub worlds: usize,
}

struct World<G: Game> {
    state: G,
    moves: Vec<G::Move>,
    visits: Vec<u32>,
    totals: Vec<f64>,
    pulls: u32,
}

impl Pimc {
    /// A PIMC search with exploration constant `c` and automatic worlds.
    pub fn new(c: f64) -> Pimc {
        Pimc { c, worlds: 0 }
    }

    /// Sets the number of determinizations (0 = automatic).
    pub fn with_worlds(mut self, worlds: usize) -> Pimc {
        self.worlds = worlds;
        self
    }

    fn world_count(&self, limit: Option<u64>) -> usize {
        if self.worlds > 0 {
            return self.worlds;
        }
        match limit {
            Some(n) => ((n as f64).sqrt() / 2.0).round().clamp(4.0, 64.0) as usize,
            None => 32,
        }
    }
}

/// Per-move value averaged over the worlds where it was tried.
fn aggregate<G: Game>(worlds: &[World<G>]) -> Vec<(G::Move, f64, u64)> {
    let mut out: Vec<(G::Move, f64, u64, u32)> = Vec::new();
    for w in worlds {
        for (i, &m) in w.moves.iter().enumerate() {
            if w.visits[i] == 0 {
                continue;
            }
            let mean = w.totals[i] / w.visits[i] as f64;
            match out.iter_mut().find(|e| e.0 == m) {
                Some(e) => {
                    e.1 += mean;
                    e.2 += w.visits[i] as u64;
                    e.3 += 1;
                }
                None => out.push((m, mean, w.visits[i] as u64, 1)),
            }
        }
    }
    out.into_iter()
        .map(|(m, sum, visits, n)| (m, sum / n as f64, visits))
        .collect()
}

fn best_of<M: Copy>(values: &[(M, f64, u64)]) -> Option<(M, f64)> {
    let mut best: Option<(M, f64, u64)> = None;
    for &(m, v, n) in values {
        if best.is_none_or(|(_, bv, bn)| v > bv || (v == bv && n > bn)) {
            best = Some((m, v, n));
        }
    }
    best.map(|(m, v, _)| (m, v))
}

impl<G: Game> Search<G> for Pimc {
    fn search(
        &mut self,
        root: &G,
        seat: Seat,
        budget: &Budget,
        control: &Control,
        rng: &mut Rng,
    ) -> SearchResult<G::Move> {
        let mut root_moves = Vec::new();
        root.legal_moves(&mut root_moves);
        let single = |m: G::Move| SearchResult {
            best: m,
            score: 0.5,
            iterations: 0,
            depth: 0,
            pv: vec![m],
        };
        if root_moves.len() == 1 {
            return single(root_moves[0]);
        }
        let limit = budget.iterations.or(if budget.time.is_some() {
            None
        } else {
            Some(DEFAULT_ITERATIONS)
        });
        let k = self.world_count(limit).max(1);
        let mut worlds: Vec<World<G>> = (0..k)
            .map(|_| {
                let state = root.determinize(seat, rng);
                let mut moves = Vec::new();
                state.legal_moves(&mut moves);
                let n = moves.len();
                World {
                    state,
                    moves,
                    visits: vec![0; n],
                    totals: vec![0.0; n],
                    pulls: 0,
                }
            })
            .collect();
        let mut buf = Vec::new();
        let mut iterations = 0u64;
        let mut max_plies = 0u32;
        let mut last_report = control.elapsed();
        while limit.is_none_or(|n| iterations < n) {
            if iterations.is_multiple_of(POLL_EVERY) && iterations > 0 {
                if control.should_stop() {
                    break;
                }
                if control.has_reporter() && control.elapsed() >= last_report + REPORT_EVERY {
                    last_report = control.elapsed();
                    if let Some((m, v)) = best_of(&aggregate(&worlds)) {
                        control.report(&Progress {
                            iterations,
                            depth: max_plies,
                            elapsed: last_report,
                            best: root.move_text(m),
                            score: v,
                            pv: vec![root.move_text(m)],
                        });
                    }
                }
            }
            let w = &mut worlds[(iterations % k as u64) as usize];
            iterations += 1;
            if w.moves.is_empty() {
                continue;
            }
            // UCB1: untried moves first, in a random order.
            let untried: Vec<usize> = (0..w.moves.len()).filter(|&i| w.visits[i] == 0).collect();
            let arm = if !untried.is_empty() {
                untried[rng.gen_range(0..untried.len())]
            } else {
                let ln = (w.pulls as f64).ln();
                let mut best = 0;
                let mut best_v = f64::NEG_INFINITY;
                for i in 0..w.moves.len() {
                    let n = w.visits[i] as f64;
                    let v = w.totals[i] / n + self.c * (ln / n).sqrt();
                    if v > best_v {
                        best_v = v;
                        best = i;
                    }
                }
                best
            };
            let mut s = w.state.clone();
            s.apply(w.moves[arm]);
            max_plies = max_plies.max(1 + random_playout(&mut s, rng, &mut buf));
            w.visits[arm] += 1;
            w.totals[arm] += s.reward(seat);
            w.pulls += 1;
        }
        let values = aggregate(&worlds);
        match best_of(&values) {
            Some((m, v)) => SearchResult {
                best: m,
                score: v,
                iterations,
                depth: max_plies,
                pv: vec![m],
            },
            None => single(
                root_moves
                    .first()
                    .copied()
                    .unwrap_or_else(|| worlds[0].moves[0]),
            ),
        }
    }
}
