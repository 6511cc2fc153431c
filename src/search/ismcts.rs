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
//! 4. plays at random to the horizon ([`random_playout`]);
//! 5. backs up every seat's reward, each node keeping the reward of the seat
//!    that made its move (max^n for several players).
//!
//! Chance steps inside the tree end the descent (the playout samples them),
//! so chance outcomes with huge branching (a new deal) never grow the tree.
//! The final move is the most visited root child.

use std::collections::HashMap;
use std::time::Duration;

use rand::Rng as _;

use crate::game::{Game, Rng, Seat, Turn};
use crate::search::playout::random_playout;
use crate::search::{Budget, Control, Progress, Search, SearchResult};

/// Iterations used when the budget sets no limit at all.
pub const DEFAULT_ITERATIONS: u64 = 10_000;
/// Iterations between two polls of the stop flag and deadline.
const POLL_EVERY: u64 = 64;
/// Time between two progress reports.
const REPORT_EVERY: Duration = Duration::from_millis(250);
/// Nodes with more legal moves than this index their children by hash.
const WIDE: usize = 24;
/// Longest principal variation reported.
const PV_LENGTH: usize = 12;
const NONE: u32 = u32::MAX;

/// The ISMCTS search. `c` is the UCB1 exploration constant (rewards are in
/// `[0, 1]`; 0.7 is a good start).
#[derive(Clone, Debug)]
pub struct Ismcts {
    /// UCB1 exploration constant.
    pub c: f64,
}

impl Ismcts {
    /// An ISMCTS search with exploration constant `c`.
    pub fn new(c: f64) -> Ismcts {
        Ismcts { c }
    }
}

struct Node<M> {
    mv: Option<M>,
    /// The seat that made `mv` (whose reward this node accumulates).
    mover: u32,
    first_child: u32,
    next_sibling: u32,
    visits: u32,
    avail: u32,
    total: f64,
}

struct Tree<M> {
    nodes: Vec<Node<M>>,
    /// Child index of wide nodes: (node, move) -> child.
    wide: HashMap<u32, HashMap<M, u32>>,
}

impl<M: Copy + Eq + std::hash::Hash> Tree<M> {
    fn add_child(&mut self, parent: u32, mv: M, mover: Seat) -> u32 {
        let id = self.nodes.len() as u32;
        let p = &mut self.nodes[parent as usize];
        let next = p.first_child;
        p.first_child = id;
        self.nodes.push(Node {
            mv: Some(mv),
            mover: mover as u32,
            first_child: NONE,
            next_sibling: next,
            visits: 0,
            avail: 1,
            total: 0.0,
        });
        if let Some(index) = self.wide.get_mut(&parent) {
            index.insert(mv, id);
        }
        id
    }

    fn children(&self, node: u32) -> impl Iterator<Item = u32> + '_ {
        let mut at = self.nodes[node as usize].first_child;
        std::iter::from_fn(move || {
            (at != NONE).then(|| {
                let id = at;
                at = self.nodes[id as usize].next_sibling;
                id
            })
        })
    }

    fn most_visited(&self, node: u32) -> Option<u32> {
        self.children(node).max_by(|&a, &b| {
            let (a, b) = (&self.nodes[a as usize], &self.nodes[b as usize]);
            (a.visits, a.total)
                .partial_cmp(&(b.visits, b.total))
                .unwrap_or(std::cmp::Ordering::Equal)
        })
    }

    fn mean(&self, node: u32) -> f64 {
        let n = &self.nodes[node as usize];
        if n.visits == 0 {
            0.5
        } else {
            n.total / n.visits as f64
        }
    }

    fn pv(&self) -> Vec<M> {
        let mut out = Vec::new();
        let mut at = 0;
        while let Some(c) = self.most_visited(at) {
            if out.len() >= PV_LENGTH || self.nodes[c as usize].visits == 0 {
                break;
            }
            out.extend(self.nodes[c as usize].mv);
            at = c;
        }
        out
    }
}

impl<G: Game> Search<G> for Ismcts {
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
        if root_moves.len() == 1 {
            let m = root_moves[0];
            return SearchResult {
                best: m,
                score: 0.5,
                iterations: 0,
                depth: 0,
                pv: vec![m],
            };
        }
        let limit = budget.iterations.or(if budget.time.is_some() {
            None
        } else {
            Some(DEFAULT_ITERATIONS)
        });
        let mut tree: Tree<G::Move> = Tree {
            nodes: vec![Node {
                mv: None,
                mover: seat as u32,
                first_child: NONE,
                next_sibling: NONE,
                visits: 0,
                avail: 0,
                total: 0.0,
            }],
            wide: HashMap::new(),
        };
        let seats = root.num_seats();
        let mut rewards = vec![0.0; seats];
        let mut legal: Vec<G::Move> = Vec::new();
        let mut found: Vec<bool> = Vec::new();
        let mut untried: Vec<usize> = Vec::new();
        let mut buf: Vec<G::Move> = Vec::new();
        let mut path: Vec<u32> = Vec::new();
        let mut iterations = 0u64;
        let mut max_depth = 0u32;
        let mut last_report = control.elapsed();

        while limit.is_none_or(|n| iterations < n) {
            if iterations.is_multiple_of(POLL_EVERY) && iterations > 0 {
                if control.should_stop() {
                    break;
                }
                if control.has_reporter() && control.elapsed() >= last_report + REPORT_EVERY {
                    last_report = control.elapsed();
                    if let Some(best) = tree.most_visited(0) {
                        control.report(&Progress {
                            iterations,
                            depth: max_depth,
                            elapsed: last_report,
                            best: tree.nodes[best as usize]
                                .mv
                                .map(|m| root.move_text(m))
                                .unwrap_or_default(),
                            score: tree.mean(best),
                            pv: tree.pv().into_iter().map(|m| root.move_text(m)).collect(),
                        });
                    }
                }
            }
            iterations += 1;
            let mut state = root.determinize(seat, rng);
            path.clear();
            path.push(0);
            let mut node = 0u32;
            // Selection and expansion.
            while !state.at_horizon() {
                let Turn::Player(p) = state.turn() else { break };
                state.legal_moves(&mut legal);
                if legal.is_empty() {
                    break;
                }
                found.clear();
                found.resize(legal.len(), false);
                let ln_weight = |avail: u32| (avail as f64).ln();
                let mut best = NONE;
                let mut best_v = f64::NEG_INFINITY;
                let mut consider = |tree: &mut Tree<G::Move>, child: u32| {
                    let n = &mut tree.nodes[child as usize];
                    n.avail += 1;
                    if n.visits > 0 {
                        let v = n.total / n.visits as f64
                            + self.c * (ln_weight(n.avail) / n.visits as f64).sqrt();
                        if v > best_v {
                            best_v = v;
                            best = child;
                        }
                    } else if best_v < f64::INFINITY {
                        best_v = f64::INFINITY;
                        best = child;
                    }
                };
                if legal.len() > WIDE {
                    let index = tree.wide.entry(node).or_insert_with(|| {
                        // Index the children made before the node went wide.
                        HashMap::new()
                    });
                    if index.is_empty() {
                        let kids: Vec<(G::Move, u32)> = {
                            let mut at = tree.nodes[node as usize].first_child;
                            let mut v = Vec::new();
                            while at != NONE {
                                if let Some(m) = tree.nodes[at as usize].mv {
                                    v.push((m, at));
                                }
                                at = tree.nodes[at as usize].next_sibling;
                            }
                            v
                        };
                        if let Some(index) = tree.wide.get_mut(&node) {
                            index.extend(kids);
                        }
                    }
                    for (i, m) in legal.iter().enumerate() {
                        let child = tree.wide.get(&node).and_then(|ix| ix.get(m)).copied();
                        if let Some(child) = child {
                            found[i] = true;
                            consider(&mut tree, child);
                        }
                    }
                } else {
                    let mut at = tree.nodes[node as usize].first_child;
                    while at != NONE {
                        let next = tree.nodes[at as usize].next_sibling;
                        if let Some(m) = tree.nodes[at as usize].mv
                            && let Some(i) = legal.iter().position(|l| *l == m)
                        {
                            found[i] = true;
                            consider(&mut tree, at);
                        }
                        at = next;
                    }
                }
                untried.clear();
                untried.extend((0..legal.len()).filter(|&i| !found[i]));
                if !untried.is_empty() {
                    let mv = legal[untried[rng.gen_range(0..untried.len())]];
                    let child = tree.add_child(node, mv, p);
                    state.apply(mv);
                    path.push(child);
                    break;
                }
                let Some(mv) = tree.nodes.get(best as usize).and_then(|n| n.mv) else {
                    break;
                };
                state.apply(mv);
                path.push(best);
                node = best;
            }
            max_depth = max_depth.max(path.len() as u32 - 1);
            random_playout(&mut state, rng, &mut buf);
            for (s, r) in rewards.iter_mut().enumerate() {
                *r = state.reward(s);
            }
            for &id in &path {
                let n = &mut tree.nodes[id as usize];
                n.visits += 1;
                if id != 0 {
                    n.total += rewards[n.mover as usize];
                }
            }
        }
        let best = tree.most_visited(0);
        match best.and_then(|b| tree.nodes[b as usize].mv.map(|m| (b, m))) {
            Some((b, m)) => SearchResult {
                best: m,
                score: tree.mean(b),
                iterations,
                depth: max_depth,
                pv: tree.pv(),
            },
            None => {
                let m = root_moves[0];
                SearchResult {
                    best: m,
                    score: 0.5,
                    iterations,
                    depth: 0,
                    pv: vec![m],
                }
            }
        }
    }
}
