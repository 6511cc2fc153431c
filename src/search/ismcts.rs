//! Single-observer information-set Monte Carlo tree search (SO-ISMCTS,
//! Cowling, Powley and Whitehouse 2012).
//!
//! One tree over the deciding seat's information sets: nodes are reached by
//! sequences of moves, whoever made them, and are shared by every world in
//! which those moves are legal. Each iteration:
//!
//! 1. draws a fresh determinization of the root ([`Game::determinize`] for
//!    the deciding seat: the search never sees the real hidden state);
//! 2. descends while every move legal *in this world* has a child, choosing
//!    by UCB1 with availability counts (a child's exploration term uses the
//!    number of times it was available, not the parent's visits, because
//!    moves are not always legal);
//! 3. expands one untried legal move;
//! 4. plays out to the horizon ([`rules_playout`]: uniformly random, or
//!    the game's rule move with probability [`Sampling::rules`]);
//! 5. backs up every seat's reward, each node keeping the reward of the seat
//!    that made its move (max^n for several players).
//!
//! Chance steps inside the tree end the descent (the playout samples them),
//! so chance outcomes with huge branching (a new deal) never grow the tree.
//! The final move is the most visited root child.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

use rand::Rng as _;

use crate::memory::dispose::dispose;
use crate::model::game::{Game, Rng, Seat, Turn};
use crate::search::playout::rules_playout;
use crate::search::sampling::{self, SampledSearch, Sampling};
use crate::search::{
    Ask, Candidate, Progress, Search, SearchResult, Share, fast_ln, paced_steps, win_chance_report,
};

/// Iterations between two polls of the stop flag and deadline.
const POLL_EVERY: u64 = 64;
/// Trees of at least this many nodes are freed off the clock.
const DISPOSE_NODES: usize = 4096;
/// Nodes with more edges than this index them by move.
const WIDE: usize = 16;
/// Random draws looking for an untried move at a wide node.
const WIDE_DRAWS: usize = 4;
/// Longest principal variation reported.
const PV_LENGTH: usize = 12;
const NONE: u32 = u32::MAX;

/// The ISMCTS search. `c` is the UCB1 exploration constant (rewards are in
/// `[0, 1]`; 0.7 is a good start; the engine scales it by its
/// `ismcts_c_scale`).
#[derive(Clone, Debug)]
pub struct Ismcts {
    /// UCB1 exploration constant.
    pub c: f64,
    /// Threads, playouts and memory. Each thread grows its own tree from
    /// its own determinizations (root parallelism), and their root
    /// statistics are summed at the end. The memory counts nodes, edges
    /// and move indexes as allocated; past it, iterations play out from
    /// the deepest node they reach instead of adding an edge or a node.
    pub sampling: Sampling,
}

impl SampledSearch for Ismcts {
    fn sampling_mut(&mut self) -> &mut Sampling {
        &mut self.sampling
    }
}

impl Ismcts {
    /// An ISMCTS search with exploration constant `c` (tree capped at
    /// 512 MiB).
    pub fn new(c: f64) -> Ismcts {
        Ismcts {
            c,
            sampling: Sampling::default(),
        }
    }
}

/// Bytes a node owns on the heap: its edge array and its move index, as
/// allocated.
fn owned_bytes<M>(n: &InfoNode<M>) -> usize {
    // A hash map slot holds the pair and a control byte; the table keeps
    // some slots empty (the exact load factor is the map's business).
    let slot = std::mem::size_of::<(M, u32)>() + 1;
    n.edges.capacity() * std::mem::size_of::<Edge<M>>()
        + n.index.as_ref().map_or(0, |i| {
            i.capacity() * slot * 8 / 7 + std::mem::size_of::<FxMap<M, u32>>()
        })
}

/// A fast non-cryptographic hasher (FxHash) for the move index of wide
/// nodes: moves are small, trusted values.
#[derive(Default, Clone, Copy)]
struct FxHasher(u64);

impl Hasher for FxHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u8(&mut self, n: u8) {
        self.write_u64(n as u64);
    }
    fn write_u32(&mut self, n: u32) {
        self.write_u64(n as u64);
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
    fn write_isize(&mut self, n: isize) {
        self.write_u64(n as u64);
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

/// A move out of a node, with its statistics (kept together with its
/// siblings, so a node's selection reads one contiguous array).
struct Edge<M> {
    mv: M,
    /// The node below, created the first time the search descends through.
    child: u32,
    /// Where `mv` was in the legal move list last time: usually still there.
    hint: u32,
    /// The seat that makes the move (whose reward the edge accumulates).
    mover: u32,
    visits: u32,
    /// How many times the move was legal when the node was visited.
    avail: u32,
    total: f64,
}

struct InfoNode<M> {
    edges: Vec<Edge<M>>,
    /// Move -> edge, for wide nodes.
    index: Option<Box<FxMap<M, u32>>>,
}

impl<M> InfoNode<M> {
    fn new() -> InfoNode<M> {
        InfoNode {
            edges: Vec::new(),
            index: None,
        }
    }
}

struct InfoTree<M> {
    nodes: Vec<InfoNode<M>>,
}

impl<M: Copy + Eq + Hash> InfoTree<M> {
    fn most_visited(&self, node: u32) -> Option<&Edge<M>> {
        self.nodes.get(node as usize)?.edges.iter().max_by(|a, b| {
            (a.visits, a.total)
                .partial_cmp(&(b.visits, b.total))
                .unwrap_or(std::cmp::Ordering::Equal)
        })
    }

    fn pv(&self) -> Vec<M> {
        let mut out = Vec::new();
        let mut at = 0;
        while let Some(e) = self.most_visited(at) {
            if out.len() >= PV_LENGTH || e.visits == 0 {
                break;
            }
            out.push(e.mv);
            if e.child == NONE {
                break;
            }
            at = e.child;
        }
        out
    }
}

/// The UCB1 value of an edge, whose move is legal (available) now.
fn ucb1<M>(e: &Edge<M>, c: f64) -> f64 {
    if e.visits == 0 {
        f64::INFINITY
    } else {
        let visits = e.visits as f64;
        e.total / visits + c * (fast_ln(e.avail as f64) / visits).sqrt()
    }
}

fn mean<M>(e: &Edge<M>) -> f64 {
    if e.visits == 0 {
        0.5
    } else {
        e.total / e.visits as f64
    }
}

/// One search: the tree, what it owns, and the buffers its iterations
/// reuse.
struct Run<G: Game> {
    c: f64,
    max_bytes: usize,
    rules: f64,
    tree: InfoTree<G::Move>,
    /// What the nodes own, kept up to date at every growth; the node
    /// array itself is counted by its capacity.
    owned: usize,
    /// The legal moves at the node being visited.
    legal: Vec<G::Move>,
    /// Which of them have an edge (or count as tried).
    found: Vec<bool>,
    /// The positions in `legal` of the moves without an edge.
    untried: Vec<u32>,
    /// Legal move -> position, rebuilt per visit where hints miss.
    positions: FxMap<G::Move, u32>,
    /// Scratch space of the playout.
    buf: Vec<G::Move>,
    /// The edges of this iteration's descent: (node, edge).
    path: Vec<(u32, u32)>,
    /// Every seat's reward at the end of the playout.
    rewards: Vec<f64>,
}

impl<G: Game> Run<G> {
    fn new(search: &Ismcts, root: &G) -> Run<G> {
        Run {
            c: search.c,
            max_bytes: search.sampling.max_bytes / search.sampling.threads.max(1),
            rules: search.sampling.rules,
            tree: InfoTree {
                nodes: vec![InfoNode::new()],
            },
            owned: 0,
            legal: Vec::new(),
            found: Vec::new(),
            untried: Vec::new(),
            positions: FxMap::default(),
            buf: Vec::new(),
            path: Vec::new(),
            rewards: vec![0.0; root.num_seats()],
        }
    }

    /// One iteration: determinize, descend (select, expand), play out,
    /// back up. Returns the depth of the tree part.
    fn iterate(&mut self, root: &G, seat: Seat, rng: &mut Rng) -> u32 {
        let mut state = root.determinize(seat, rng);
        self.path.clear();
        self.descend(&mut state, rng);
        rules_playout(&mut state, self.rules, rng, &mut self.buf);
        self.backup(&state);
        self.path.len() as u32
    }

    /// Whether the tree has reached its memory cap.
    fn full(&self) -> bool {
        let node_size = std::mem::size_of::<InfoNode<G::Move>>();
        self.owned + self.tree.nodes.capacity() * node_size >= self.max_bytes
    }

    /// Selection and expansion: follows UCB1 down the tree while every
    /// legal move has an edge, and adds an edge for an untried one where
    /// some has none (unless the tree is full).
    fn descend(&mut self, state: &mut G, rng: &mut Rng) {
        let mut node = 0u32;
        while !state.at_horizon() {
            let Turn::Player(p) = state.turn() else { break };
            state.legal_moves(&mut self.legal);
            if self.legal.is_empty() {
                break;
            }
            let full = self.full();
            let best = self.select(node, rng);
            self.untried.clear();
            let found = &self.found;
            self.untried
                .extend((0..self.legal.len() as u32).filter(|&i| !found[i as usize]));
            if !self.untried.is_empty() {
                if full {
                    // The tree is full: play out from here.
                    break;
                }
                let i = self.untried[rng.gen_range(0..self.untried.len())];
                let j = self.expand(node, i, p);
                state.apply(self.legal[i as usize]);
                self.path.push((node, j));
                break;
            }
            let Some(best) = best else { break };
            let fresh = self.tree.nodes.len() as u32;
            let e = &mut self.tree.nodes[node as usize].edges[best as usize];
            state.apply(e.mv);
            self.path.push((node, best));
            if e.child == NONE {
                if full {
                    // The tree is full: play out from here.
                    break;
                }
                e.child = fresh;
                node = fresh;
                self.tree.nodes.push(InfoNode::new());
            } else {
                node = e.child;
            }
        }
    }

    /// Marks in `found` the legal moves that have an edge at `node`,
    /// counts those edges as available once more, and returns the one
    /// with the best UCB1 value.
    ///
    /// A wide node (an opponent's pass among hundreds, say) is expanded by
    /// drawing a few legal moves: if one is untried it alone is marked
    /// untried, without matching every edge, so the other edges'
    /// availability counts skip this visit. Exact matching resumes once
    /// most legal moves have been tried.
    fn select(&mut self, node: u32, rng: &mut Rng) -> Option<u32> {
        let legal = &self.legal;
        self.found.clear();
        self.found.resize(legal.len(), false);
        let n = &mut self.tree.nodes[node as usize];
        if legal.len() > WIDE {
            for _ in 0..WIDE_DRAWS {
                let i = rng.gen_range(0..legal.len());
                let tried = match &n.index {
                    Some(index) => index.contains_key(&legal[i]),
                    None => n.edges.iter().any(|e| e.mv == legal[i]),
                };
                if !tried {
                    self.found.fill(true);
                    self.found[i] = false;
                    return None;
                }
            }
        }
        let mut best = None;
        let mut best_v = f64::NEG_INFINITY;
        if let Some(index) = &n.index
            && n.edges.len() > 2 * legal.len()
        {
            // Far more edges than legal moves (an opponent's pass, seen
            // from many worlds): look the legal moves up instead of
            // matching every edge. Ties go to the first edge, as below.
            for (i, m) in legal.iter().enumerate() {
                let Some(&j) = index.get(m) else { continue };
                let e = &mut n.edges[j as usize];
                e.hint = i as u32;
                self.found[i] = true;
                e.avail += 1;
                let v = ucb1(e, self.c);
                if v > best_v || (v == best_v && best.is_some_and(|b| j < b)) {
                    best_v = v;
                    best = Some(j);
                }
            }
            return best;
        }
        let mut positions_built = false;
        for (j, e) in n.edges.iter_mut().enumerate() {
            let i = match legal.get(e.hint as usize) {
                Some(m) if *m == e.mv => Some(e.hint as usize),
                _ if legal.len() > WIDE => {
                    if !positions_built {
                        self.positions.clear();
                        self.positions
                            .extend(legal.iter().enumerate().map(|(i, m)| (*m, i as u32)));
                        positions_built = true;
                    }
                    self.positions.get(&e.mv).map(|&i| i as usize)
                }
                _ => legal.iter().position(|m| *m == e.mv),
            };
            if let Some(i) = i {
                e.hint = i as u32;
                self.found[i] = true;
                e.avail += 1;
                let v = ucb1(e, self.c);
                if v > best_v {
                    best_v = v;
                    best = Some(j as u32);
                }
            }
        }
        best
    }

    /// Adds an edge at `node` for the legal move at `i`, made by `mover`;
    /// returns its index.
    fn expand(&mut self, node: u32, i: u32, mover: Seat) -> u32 {
        let n = &mut self.tree.nodes[node as usize];
        let before = owned_bytes(n);
        let mv = self.legal[i as usize];
        let j = n.edges.len() as u32;
        n.edges.push(Edge {
            mv,
            child: NONE,
            hint: i,
            mover: mover as u32,
            visits: 0,
            avail: 1,
            total: 0.0,
        });
        if let Some(index) = &mut n.index {
            index.insert(mv, j);
        } else if n.edges.len() > WIDE {
            n.index = Some(Box::new(
                n.edges
                    .iter()
                    .enumerate()
                    .map(|(j, e)| (e.mv, j as u32))
                    .collect(),
            ));
        }
        self.owned = self.owned + owned_bytes(n) - before;
        j
    }

    /// Adds the playout's rewards to the edges of the descent, each edge
    /// the reward of the seat that made its move.
    fn backup(&mut self, end: &G) {
        for (s, r) in self.rewards.iter_mut().enumerate() {
            *r = end.reward(s);
        }
        for &(n, j) in &self.path {
            let e = &mut self.tree.nodes[n as usize].edges[j as usize];
            e.visits += 1;
            e.total += self.rewards[e.mover as usize];
        }
    }

    /// Iterates until its share's iterations (if limited) or the control
    /// stops it; the reporting share reports its progress. Returns the
    /// iterations and the deepest descent.
    fn run(&mut self, root: &G, seat: Seat, share: Share<'_>, rng: &mut Rng) -> (u64, u32) {
        let multipv = share.control.multipv();
        paced_steps(
            self,
            share,
            POLL_EVERY,
            |run, _| run.iterate(root, seat, rng),
            |run, iterations, depth, elapsed| {
                run.progress(root, iterations, depth, elapsed, multipv)
            },
        )
    }

    /// The search so far, for a progress report.
    fn progress(
        &self,
        root: &G,
        iterations: u64,
        depth: u32,
        elapsed: std::time::Duration,
        multipv: usize,
    ) -> Option<Progress> {
        let best = self.tree.most_visited(0)?;
        let lines = ranked_root(std::iter::once(&self.tree), multipv);
        Some(Progress {
            iterations,
            depth,
            elapsed,
            ..win_chance_report(root, Some(best.mv), mean(best), &self.tree.pv(), &lines)
        })
    }
}

/// The root moves over every given tree (visits and totals summed), the
/// most visited first (ties to the higher total, then to the later move,
/// as `max_by` picks), at most `count`: each with its mean reward and
/// visits, its line the move alone (below it come moves of other seats,
/// drawn from guessed hands).
fn ranked_root<'r, M: Copy + PartialEq + 'r>(
    trees: impl Iterator<Item = &'r InfoTree<M>>,
    count: usize,
) -> Vec<Candidate<M>> {
    if count == 0 {
        return Vec::new();
    }
    let mut merged: Vec<(M, u64, f64)> = Vec::new();
    for tree in trees {
        for e in tree.nodes.first().map_or(&[][..], |n| &n.edges[..]) {
            match merged.iter_mut().find(|(m, ..)| *m == e.mv) {
                Some((_, visits, total)) => {
                    *visits += u64::from(e.visits);
                    *total += e.total;
                }
                None => merged.push((e.mv, u64::from(e.visits), e.total)),
            }
        }
    }
    let mut order: Vec<usize> = (0..merged.len()).collect();
    order.sort_by(|&a, &b| {
        let key = |i: usize| (merged[i].1, merged[i].2);
        key(b)
            .partial_cmp(&key(a))
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(b.cmp(&a))
    });
    order
        .into_iter()
        .take(count)
        .map(|i| {
            let (mv, visits, total) = merged[i];
            let score = if visits == 0 {
                0.5
            } else {
                total / visits as f64
            };
            Candidate {
                visits: Some(visits),
                ..Candidate::new(mv, score, crate::search::ScoreKind::WinChance)
            }
        })
        .collect()
}

/// The most visited root move over every run's tree, with its mean reward.
fn root_choice<G: Game>(runs: &[Run<G>]) -> Option<(G::Move, f64)> {
    ranked_root(runs.iter().map(|r| &r.tree), 1)
        .first()
        .map(|c| (c.mv, c.score))
}

impl<G: Game> Search<G> for Ismcts {
    fn choose(&mut self, ask: Ask<'_, G>) -> SearchResult<G::Move> {
        let (root, seat, budget, control, rng) = ask.parts();
        let (root_moves, limit) = match sampling::begin(root, budget) {
            Ok(begun) => begun,
            Err(only) => return only,
        };
        let threads = self.sampling.threads.max(1);
        let this = &*self;
        // A tree a thread, each built on its own thread.
        let (runs, iterations, max_depth) = sampling::run_shares(
            (0..threads).collect(),
            control,
            limit,
            rng,
            |_, share, rng| {
                let mut run = Run::<G>::new(this, root);
                let (n, d) = run.run(root, seat, share, rng);
                (run, n, d)
            },
        );
        let result = match root_choice(&runs) {
            Some((best, score)) => SearchResult {
                best,
                score,
                kind: crate::search::ScoreKind::WinChance,
                iterations,
                depth: max_depth,
                pv: match runs[0].tree.pv() {
                    pv if pv.first() == Some(&best) => pv,
                    _ => vec![best],
                },
                exact: None,
                lines: ranked_root(runs.iter().map(|r| &r.tree), control.multipv()),
            },
            None => SearchResult::unsearched(root_moves[0], iterations),
        };
        // A large tree takes tens of milliseconds to free: not before the
        // reply.
        for run in runs {
            if run.tree.nodes.len() >= DISPOSE_NODES {
                dispose(run.tree);
            }
        }
        result
    }
}
