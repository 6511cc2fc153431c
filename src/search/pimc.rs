//! Perfect Information Monte Carlo (determinized search).
//!
//! Draws `K` full states consistent with what the deciding seat knows
//! ([`Game::determinize`]), runs a flat UCB1 bandit over the root moves in
//! each of them (every pull is one random playout to the horizon), and
//! plays the move with the best value averaged over the worlds. Playouts go
//! round-robin over the worlds so that a search stopped early has spread its
//! effort evenly.
//!
//! It keeps no tree: its memory is its worlds, a state and per-move
//! statistics each, so it grows with the number of worlds, not with the
//! iterations. [`SampledSearch::with_memory`] caps it (the engine's `memory`
//! setting): past the cap, fewer worlds are drawn (one at least).
//!
//! Known weakness (the reason for [`crate::search::ismcts`]): each world is
//! solved as if its hidden cards were visible ("strategy fusion"), so moves
//! that keep options open are undervalued. It is still a strong, cheap
//! baseline for trick-taking games.

use rand::Rng as _;

use crate::model::game::{Game, Rng, Seat};
use crate::search::playout::rules_playout;
use crate::search::sampling::{self, SampledSearch, Sampling};
use crate::search::{
    Ask, Candidate, Progress, Search, SearchResult, Share, paced_steps, win_chance_report,
};

/// Iterations between two polls of the stop flag and deadline.
const POLL_EVERY: u64 = 64;

/// The PIMC search. `c` is the UCB1 exploration constant of the per-world
/// bandit (rewards are in `[0, 1]`; 0.7 is a good start); `worlds` is the
/// number of determinizations, 0 for automatic (about `sqrt(N) / 2` for an
/// iteration budget `N`, between 4 and 64; 32 under a time budget);
/// `max_bytes` caps the memory the worlds take.
#[derive(Clone, Debug)]
pub struct Pimc {
    /// UCB1 exploration constant.
    pub c: f64,
    /// Number of determinizations (0 = automatic).
    pub worlds: usize,
    /// Threads (the worlds are shared out among them), playouts, and the
    /// bytes the worlds may take together: a search draws worlds until
    /// the next one would pass the cap (one at least).
    pub sampling: Sampling,
    /// Worlds drawn by the last search.
    drawn: usize,
}

impl SampledSearch for Pimc {
    fn sampling_mut(&mut self) -> &mut Sampling {
        &mut self.sampling
    }
}

struct World<G: Game> {
    state: G,
    moves: Vec<G::Move>,
    visits: Vec<u32>,
    totals: Vec<f64>,
    pulls: u32,
}

impl<G: Game> World<G> {
    /// A fresh determinization of `root` for `seat`.
    fn draw(root: &G, seat: Seat, rng: &mut Rng) -> World<G> {
        let state = root.determinize(seat, rng);
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        moves.shrink_to_fit();
        let n = moves.len();
        World {
            state,
            moves,
            visits: vec![0; n],
            totals: vec![0.0; n],
            pulls: 0,
        }
    }

    /// The bytes it takes: itself (the state inline) and its arrays.
    fn bytes(&self) -> usize {
        std::mem::size_of::<World<G>>()
            + self.moves.capacity() * std::mem::size_of::<G::Move>()
            + self.visits.capacity() * std::mem::size_of::<u32>()
            + self.totals.capacity() * std::mem::size_of::<f64>()
    }
}

impl Pimc {
    /// A PIMC search with exploration constant `c` and automatic worlds
    /// (capped at 512 MiB, far more than 64 worlds of any game here take).
    pub fn new(c: f64) -> Pimc {
        Pimc {
            c,
            worlds: 0,
            sampling: Sampling::default(),
            drawn: 0,
        }
    }

    /// How many worlds the last search drew.
    pub fn worlds_drawn(&self) -> usize {
        self.drawn
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
    ranked(values, 1).first().map(|c| (c.mv, c.score))
}

/// The `count` best moves, best first: by value averaged over the worlds,
/// then by pulls (on equal both, the first found). Each line is the move
/// alone: what follows it in a world is that world's guessed cards.
fn ranked<M: Copy>(values: &[(M, f64, u64)], count: usize) -> Vec<Candidate<M>> {
    let mut order: Vec<&(M, f64, u64)> = values.iter().collect();
    order.sort_by(|a, b| {
        (b.1, b.2)
            .partial_cmp(&(a.1, a.2))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    order
        .into_iter()
        .take(count)
        .map(|&(m, v, n)| Candidate {
            visits: Some(n),
            ..Candidate::new(m, v, crate::search::ScoreKind::WinChance)
        })
        .collect()
}

/// Pulls the arms of `worlds` round-robin until its share's pulls (if
/// limited) or the control stops it; the reporting share reports its
/// progress. Returns the pulls and the longest playout.
fn pull<G: Game>(
    worlds: &mut [World<G>],
    c: f64,
    rules: f64,
    root: &G,
    seat: Seat,
    share: Share<'_>,
    rng: &mut Rng,
) -> (u64, u32) {
    let multipv = share.control.multipv();
    let k = worlds.len();
    let mut buf = Vec::new();
    let progress = |worlds: &[World<G>], pulls, deepest, elapsed| {
        let values = aggregate(worlds);
        best_of(&values).map(|(m, v)| Progress {
            iterations: pulls,
            depth: deepest,
            elapsed,
            ..win_chance_report(root, Some(m), v, &[m], &ranked(&values, multipv))
        })
    };
    let pull_one = |worlds: &mut [World<G>], pulls: u64| {
        let w = &mut worlds[(pulls % k as u64) as usize];
        if w.moves.is_empty() {
            return 0;
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
                let v = w.totals[i] / n + c * (ln / n).sqrt();
                if v > best_v {
                    best_v = v;
                    best = i;
                }
            }
            best
        };
        let mut s = w.state.clone();
        s.apply(w.moves[arm]);
        let plies = 1 + rules_playout(&mut s, rules, rng, &mut buf);
        w.visits[arm] += 1;
        w.totals[arm] += s.reward(seat);
        w.pulls += 1;
        plies
    };
    paced_steps(worlds, share, POLL_EVERY, pull_one, progress)
}

impl<G: Game> Search<G> for Pimc {
    fn choose(&mut self, ask: Ask<'_, G>) -> SearchResult<G::Move> {
        let (root, seat, budget, control, rng) = ask.parts();
        let (root_moves, limit) = match sampling::begin(root, budget) {
            Ok(begun) => begun,
            Err(only) => return only,
        };
        let wanted = self.world_count(limit).max(1);
        let mut worlds: Vec<World<G>> = Vec::new();
        let mut bytes = 0usize;
        while worlds.len() < wanted {
            let world = World::draw(root, seat, rng);
            let size = world.bytes();
            if !worlds.is_empty() && bytes.saturating_add(size) > self.sampling.max_bytes {
                break;
            }
            bytes += size;
            worlds.push(world);
        }
        let k = worlds.len();
        self.drawn = k;
        // Contiguous shares of the worlds, one per thread; an iteration
        // budget is shared out exactly, so that a seeded search repeats.
        let size = k.div_ceil(self.sampling.threads.clamp(1, k));
        let (c, rules) = (self.c, self.sampling.rules);
        let shares = worlds.chunks_mut(size).collect();
        let (_, iterations, max_plies) =
            sampling::run_shares(shares, control, limit, rng, |part, share, rng| {
                let (n, d) = pull(part, c, rules, root, seat, share, rng);
                ((), n, d)
            });
        let values = aggregate(&worlds);
        match best_of(&values) {
            Some((m, v)) => SearchResult {
                best: m,
                score: v,
                kind: crate::search::ScoreKind::WinChance,
                iterations,
                depth: max_plies,
                pv: vec![m],
                exact: None,
                lines: ranked(&values, control.multipv()),
            },
            None => SearchResult::unsearched(
                root_moves
                    .first()
                    .copied()
                    .unwrap_or_else(|| worlds[0].moves[0]),
                0,
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::control::{Budget, Control};
    use crate::games::hearts::Hearts;
    use crate::model::game::Turn;
    use crate::model::options::Options;

    /// A single Hearts hand, dealt, at its first decision (the pass: 286
    /// legal moves).
    fn dealt() -> (Hearts, Seat) {
        let options = Options::parse(Hearts::OPTIONS, &["hands=single"]).expect("options");
        let mut g = Hearts::new_game(&options).expect("game");
        let mut rng = Rng::seed_from_u64(5);
        while g.turn() == Turn::Chance {
            let m = g.sample_chance(&mut rng);
            g.apply(m);
        }
        let Turn::Player(seat) = g.turn() else {
            panic!("no seat to move after the deal");
        };
        (g, seat)
    }

    fn budget(n: u64) -> Budget {
        Budget {
            iterations: Some(n),
            ..Budget::default()
        }
    }

    #[test]
    fn the_memory_cap_bounds_the_worlds_and_a_legal_move_comes_back() {
        let (g, seat) = dealt();
        let mut legal = Vec::new();
        g.legal_moves(&mut legal);
        assert!(legal.len() > 1);
        let control = Control::unlimited();
        // Uncapped: sqrt(400) / 2 = 10 worlds.
        let mut free = Pimc::new(0.7);
        let r = free.search(&g, seat, &budget(400), &control, &mut Rng::seed_from_u64(1));
        assert_eq!(free.worlds_drawn(), 10);
        assert!(legal.contains(&r.best));
        // Every world of the deciding seat has the same legal moves here,
        // so one world's size tells how many fit.
        let one = World::draw(&g, seat, &mut Rng::seed_from_u64(2)).bytes();
        assert!(one > std::mem::size_of::<Hearts>() + legal.len() * 12);
        for (cap, want) in [(1, 1), (3 * one, 3), (3 * one + one / 2, 3), (10 * one, 10)] {
            let mut capped = Pimc::new(0.7).with_memory(cap);
            let r = capped.search(&g, seat, &budget(400), &control, &mut Rng::seed_from_u64(1));
            assert_eq!(capped.worlds_drawn(), want, "cap {cap} bytes");
            assert!(legal.contains(&r.best));
            assert_eq!(r.iterations, 400);
        }
    }

    #[test]
    fn a_cap_that_does_not_bind_changes_nothing() {
        let (g, seat) = dealt();
        let control = Control::unlimited();
        let run = |p: &mut Pimc| {
            let r = p.search(&g, seat, &budget(300), &control, &mut Rng::seed_from_u64(9));
            (r.best, r.score, r.iterations)
        };
        assert_eq!(
            run(&mut Pimc::new(0.7)),
            run(&mut Pimc::new(0.7).with_memory(64 << 20))
        );
    }
}
