//! Monte Carlo tree search, and the playout players built from it.
//!
//! One engine serves five players, because they differ only in settings:
//! - `mcts` (UCT): UCB1 selection, unlimited tree depth, random playouts;
//! - `flat`: playouts spread round-robin over the first moves (tree depth 1);
//! - `heuristic`: the same with heuristic playouts;
//! - `ucb1`: UCB1 over the first moves, heuristic playouts;
//! - `rucb1`: UCB1 down to a depth, then heuristic playouts.
//!
//! Nodes live in one arena (a `Vec`), children of a node side by side, so
//! the hot loop allocates nothing. Each node keeps the reward sum of the
//! seat that moved into it, so multi-player games back up max^n.
//!
//! The tree is open-loop: a node is a sequence of player moves, and chance
//! steps met on the way are drawn afresh every iteration. For
//! hidden-information games every iteration starts from a new
//! determinization for the deciding seat; after a chance step or a
//! determinization, children whose move is not legal in this iteration's
//! state are skipped, so the tree never assumes what the seat cannot know.

use rand::SeedableRng;

use crate::game::{Game, Rng, Seat, Turn};
use crate::search::playout::{Policy, Scratch, playout};
use crate::search::{Budget, Control, Progress, Search, SearchResult, fast_ln};

/// Most seats any game has (for the reward array of one iteration).
const MAX_SEATS: usize = 8;
/// How often (in iterations) the stop flag and clock are read.
const POLL_EVERY: u64 = 4;
/// How often (in iterations) progress is reported.
const REPORT_EVERY: u64 = 16_384;
const UNEXPANDED: u32 = u32::MAX;

/// How the root's children are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RootPolicy {
    /// UCB1, like every other node.
    Ucb1,
    /// The least tried first move (flat Monte Carlo).
    RoundRobin,
}

/// How the final move is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Final {
    /// The most visited child.
    Visits,
    /// The child with the best mean reward.
    Mean,
}

/// The settings of one Monte Carlo player.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsConfig {
    /// UCB1 exploration constant.
    pub c: f64,
    /// Nodes deeper than this are not expanded (1 = first moves only).
    pub tree_depth: u32,
    /// Selection at the root.
    pub root: RootPolicy,
    /// The playout policy.
    pub policy: Policy,
    /// The final choice.
    pub final_choice: Final,
    /// Memory cap in bytes for the tree; expansion stops when reached.
    pub memory: usize,
    /// Search threads (root parallel: one tree each, merged at the root).
    pub threads: usize,
}

impl MctsConfig {
    /// UCT with random playouts.
    pub fn uct(c: f64) -> MctsConfig {
        MctsConfig {
            c,
            tree_depth: u32::MAX,
            root: RootPolicy::Ucb1,
            policy: Policy::Random,
            final_choice: Final::Visits,
            memory: 256 << 20,
            threads: 1,
        }
    }
}

/// A tree node: 20 bytes for a one-byte move, so that the children a
/// selection scans share as few cache lines as possible (the tree outgrows
/// the caches within a second, and those misses are most of its cost).
#[derive(Clone, Copy)]
struct Node<M> {
    first_child: u32,
    visits: u32,
    /// The mean reward of the seat that moved into this node, and
    /// `1 / sqrt(visits)`, both kept up to date at every backup so that
    /// selection costs a multiply-add per child, not a division and a
    /// square root.
    mean: f32,
    inv_sqrt: f32,
    num_children: u16,
    mv: Option<M>,
}

/// Most children a node may have (the width of `num_children`); a wider
/// node is left unexpanded and played out from.
const MAX_CHILDREN: usize = u16::MAX as usize;

impl<M> Node<M> {
    fn fresh(mv: Option<M>) -> Node<M> {
        Node {
            first_child: UNEXPANDED,
            visits: 0,
            mean: 0.0,
            inv_sqrt: 0.0,
            num_children: 0,
            mv,
        }
    }

    /// Adds `visits` playouts with this mean reward.
    fn add(&mut self, mean: f32, visits: u32) {
        if visits == 0 {
            return;
        }
        self.visits += visits;
        let n = self.visits as f32;
        self.mean += (mean - self.mean) * (visits as f32 / n);
        self.inv_sqrt = 1.0 / n.sqrt();
    }

    fn mean(&self) -> f64 {
        f64::from(self.mean)
    }
}

/// A Monte Carlo tree search player.
pub struct Mcts<G: Game> {
    config: MctsConfig,
    nodes: Vec<Node<G::Move>>,
    max_nodes: usize,
    /// The nodes of this iteration's descent, with the seat that moved
    /// into each (whose reward it backs up).
    path: Vec<(u32, u8)>,
    legal: Vec<G::Move>,
    scratch: Scratch<G::Move>,
    /// The other threads' players, each with its own tree, kept (and
    /// advanced) across moves like the main tree.
    helpers: Vec<Mcts<G>>,
}

impl<G: Game> Mcts<G> {
    /// A player with these settings.
    pub fn new(config: MctsConfig) -> Mcts<G> {
        let per_node = std::mem::size_of::<Node<G::Move>>().max(1);
        let max_nodes =
            (config.memory / config.threads.max(1) / per_node).clamp(2, u32::MAX as usize - 1);
        Mcts {
            config,
            nodes: Vec::new(),
            max_nodes,
            path: Vec::new(),
            legal: Vec::new(),
            scratch: Scratch::default(),
            helpers: Vec::new(),
        }
    }

    /// Nodes in the tree now.
    pub fn tree_size(&self) -> usize {
        self.nodes.len()
    }

    /// Visits of the root's children, in move generation order.
    pub fn root_visits(&self) -> Vec<u32> {
        self.root_children().iter().map(|n| n.visits).collect()
    }

    /// The tree below the root (`None`) or below the root's child for
    /// `mv`, depth-first: `(depth, move, visits)` per node, the subtree's
    /// own root listed with no move. For tests of tree reuse.
    #[cfg(test)]
    pub(crate) fn shape(&self, below: Option<G::Move>) -> Vec<(u32, Option<G::Move>, u32)> {
        let first = self.nodes[0].first_child as usize;
        let start = match below {
            None => 0,
            Some(mv) => match self.root_children().iter().position(|n| n.mv == Some(mv)) {
                Some(i) => first + i,
                None => return Vec::new(),
            },
        };
        let mut out = Vec::new();
        let mut stack = vec![(start, 0u32)];
        while let Some((i, depth)) = stack.pop() {
            let n = self.nodes[i];
            out.push((depth, if i == start { None } else { n.mv }, n.visits));
            if n.first_child != UNEXPANDED {
                let f = n.first_child as usize;
                for c in (f..f + usize::from(n.num_children)).rev() {
                    stack.push((c, depth + 1));
                }
            }
        }
        out
    }

    /// Nodes the arena has room for without growing, and the most it may
    /// hold.
    #[cfg(test)]
    pub(crate) fn capacity(&self) -> (usize, usize) {
        (self.nodes.capacity(), self.max_nodes)
    }

    /// Keeps the tree if it may be reused (perfect information), else
    /// starts a fresh one.
    fn start_tree(&mut self) {
        if self.nodes.is_empty() || !G::PERFECT_INFORMATION {
            self.new_root();
        }
    }

    fn new_root(&mut self) {
        self.nodes.clear();
        self.nodes.push(Node::fresh(None));
    }

    fn expand(&mut self, node: u32, state: &G) -> bool {
        state.legal_moves(&mut self.legal);
        if self.nodes.len() + self.legal.len() > self.max_nodes || self.legal.len() > MAX_CHILDREN {
            return false;
        }
        // Grow the arena by doubling, but never past the cap.
        let need = self.nodes.len() + self.legal.len();
        if need > self.nodes.capacity() {
            let target = (self.nodes.capacity() * 2).clamp(need, self.max_nodes);
            self.nodes.reserve_exact(target - self.nodes.len());
        }
        let first = self.nodes.len() as u32;
        self.nodes
            .extend(self.legal.iter().map(|&mv| Node::fresh(Some(mv))));
        let n = &mut self.nodes[node as usize];
        n.first_child = first;
        n.num_children = self.legal.len() as u16;
        true
    }

    /// Picks a child of `node` to descend into; `check` asks that the move
    /// be legal in `state` (after a determinization or a chance step).
    fn select(&mut self, node: u32, state: &G, check: bool, at_root: bool) -> Option<u32> {
        let parent = self.nodes[node as usize];
        let children = parent.first_child..parent.first_child + u32::from(parent.num_children);
        if check {
            state.legal_moves(&mut self.legal);
        }
        let legal = |n: &Node<G::Move>, legal: &[G::Move]| {
            !check || n.mv.is_some_and(|m| legal.contains(&m))
        };
        if at_root && self.config.root == RootPolicy::RoundRobin {
            return children
                .filter(|&i| legal(&self.nodes[i as usize], &self.legal))
                .min_by_key(|&i| self.nodes[i as usize].visits);
        }
        let explore = (self.config.c * fast_ln(f64::from(parent.visits.max(1))).sqrt()) as f32;
        let mut best = None;
        let mut best_value = f32::NEG_INFINITY;
        for i in children {
            let child = &self.nodes[i as usize];
            if !legal(child, &self.legal) {
                continue;
            }
            if child.visits == 0 {
                return Some(i);
            }
            let value = child.mean + explore * child.inv_sqrt;
            if value > best_value {
                best_value = value;
                best = Some(i);
            }
        }
        best
    }

    /// One iteration: select, expand, play out, back up. Returns the depth
    /// of the tree part.
    fn iterate(&mut self, root: &G, seat: Seat, rng: &mut Rng) -> u32 {
        let mut state = if G::PERFECT_INFORMATION {
            root.clone()
        } else {
            root.determinize(seat, rng)
        };
        let mut check = !G::PERFECT_INFORMATION;
        self.path.clear();
        self.path.push((0, 0));
        let mut node = 0u32;
        let mut depth = 0u32;
        loop {
            while state.turn() == Turn::Chance && !state.at_horizon() {
                let outcome = state.sample_chance(rng);
                state.apply(outcome);
                check = true;
            }
            let Turn::Player(mover) = state.turn() else {
                break;
            };
            if state.at_horizon() {
                break;
            }
            let n = self.nodes[node as usize];
            if n.first_child == UNEXPANDED
                && (depth >= self.config.tree_depth || !self.expand(node, &state))
            {
                break;
            }
            let Some(child) = self.select(node, &state, check, depth == 0) else {
                break;
            };
            let Some(mv) = self.nodes[child as usize].mv else {
                break;
            };
            state.apply(mv);
            self.path.push((child, mover as u8));
            node = child;
            depth += 1;
            if self.nodes[child as usize].visits == 0 {
                break;
            }
        }
        playout(&mut state, self.config.policy, rng, &mut self.scratch);
        let mut rewards = [0.0; MAX_SEATS];
        for (s, r) in rewards
            .iter_mut()
            .enumerate()
            .take(state.num_seats().min(MAX_SEATS))
        {
            *r = state.reward(s);
        }
        for &(i, mover) in &self.path {
            self.nodes[i as usize].add(rewards[mover as usize % MAX_SEATS] as f32, 1);
        }
        depth
    }

    fn root_children(&self) -> &[Node<G::Move>] {
        let root = &self.nodes[0];
        if root.first_child == UNEXPANDED {
            return &[];
        }
        &self.nodes
            [root.first_child as usize..(root.first_child + u32::from(root.num_children)) as usize]
    }

    fn best_child(&self, children: &[Node<G::Move>]) -> Option<usize> {
        let key = |n: &Node<G::Move>| match self.config.final_choice {
            Final::Visits => (n.visits as f64, n.mean()),
            Final::Mean => (if n.visits == 0 { -1.0 } else { n.mean() }, n.visits as f64),
        };
        (0..children.len()).max_by(|&a, &b| {
            key(&children[a])
                .partial_cmp(&key(&children[b]))
                .unwrap_or(std::cmp::Ordering::Equal)
        })
    }

    fn principal_variation(&self) -> Vec<G::Move> {
        let mut pv = Vec::new();
        let mut node = 0usize;
        while self.nodes[node].first_child != UNEXPANDED && pv.len() < 32 {
            let first = self.nodes[node].first_child as usize;
            let children = &self.nodes[first..first + self.nodes[node].num_children as usize];
            match (0..children.len())
                .filter(|&i| children[i].visits > 0)
                .max_by_key(|&i| children[i].visits)
            {
                Some(i) => {
                    if let Some(mv) = children[i].mv {
                        pv.push(mv);
                    }
                    node = first + i;
                }
                None => break,
            }
        }
        pv
    }

    /// Runs iterations until the budget or the control says stop.
    fn run(
        &mut self,
        root: &G,
        seat: Seat,
        limit: u64,
        control: &Control,
        rng: &mut Rng,
        report: bool,
    ) -> (u64, u32) {
        let mut done = 0u64;
        let mut max_depth = 0;
        while done < limit {
            if done.is_multiple_of(POLL_EVERY) && control.should_stop() && done > 0 {
                break;
            }
            max_depth = max_depth.max(self.iterate(root, seat, rng));
            done += 1;
            if report && done.is_multiple_of(REPORT_EVERY) && control.has_reporter() {
                control.report(&self.progress(root, done, max_depth, control.elapsed()));
            }
        }
        (done, max_depth)
    }

    fn progress(
        &self,
        root: &G,
        iterations: u64,
        depth: u32,
        elapsed: std::time::Duration,
    ) -> Progress {
        let children = self.root_children();
        let best = self.best_child(children).map(|i| &children[i]);
        Progress {
            iterations,
            depth,
            elapsed,
            best: best
                .and_then(|n| n.mv)
                .map(|m| root.move_text(m))
                .unwrap_or_default(),
            score: best.map_or(0.5, |n| n.mean()),
            pv: self
                .principal_variation()
                .into_iter()
                .map(|m| root.move_text(m))
                .collect(),
        }
    }
}

impl<G: Game> Search<G> for Mcts<G> {
    fn search(
        &mut self,
        root: &G,
        seat: Seat,
        budget: &Budget,
        control: &Control,
        rng: &mut Rng,
    ) -> SearchResult<G::Move> {
        self.start_tree();
        let threads = self.config.threads.max(1);
        let limit = budget.iterations.unwrap_or(u64::MAX);
        let per_thread = limit.div_ceil(threads as u64);
        let (mut iterations, mut depth) = (0, 0);
        // Root parallelism: helpers grow their own trees (kept across
        // moves, like the main one); their root statistics are added to the
        // main tree's at the end.
        let config = self.config;
        self.helpers.resize_with(threads - 1, || Mcts::new(config));
        let mut helpers = std::mem::take(&mut self.helpers);
        std::thread::scope(|scope| {
            let handles: Vec<_> = helpers
                .iter_mut()
                .map(|helper| {
                    let mut helper_rng = Rng::seed_from_u64(rand::Rng::r#gen(rng));
                    scope.spawn(move || {
                        helper.start_tree();
                        helper
                            .run(root, seat, per_thread, control, &mut helper_rng, false)
                            .0
                    })
                })
                .collect();
            let (n, d) = self.run(root, seat, per_thread.min(limit), control, rng, true);
            iterations += n;
            depth = d;
            iterations += handles
                .into_iter()
                .filter_map(|h| h.join().ok())
                .sum::<u64>();
        });
        let mut children: Vec<Node<G::Move>> = self.root_children().to_vec();
        for helper in &helpers {
            for h in helper.root_children() {
                if let Some(c) = children.iter_mut().find(|c| c.mv == h.mv) {
                    c.add(h.mean, h.visits);
                }
            }
        }
        self.helpers = helpers;
        let best = match self
            .best_child(&children)
            .and_then(|i| children[i].mv.map(|m| (m, children[i].mean())))
        {
            Some(found) => found,
            None => {
                // Stopped before the first iteration: any legal move.
                root.legal_moves(&mut self.legal);
                (self.legal[0], 0.5)
            }
        };
        let mut pv = self.principal_variation();
        if pv.first() != Some(&best.0) {
            pv = vec![best.0];
        }
        if control.has_reporter() {
            let mut p = self.progress(root, iterations, depth, control.elapsed());
            p.best = root.move_text(best.0);
            p.score = best.1;
            control.report(&p);
        }
        SearchResult {
            best: best.0,
            score: best.1,
            iterations,
            depth,
            pv,
        }
    }

    fn advance(&mut self, played: G::Move) {
        for helper in &mut self.helpers {
            helper.advance(played);
        }
        if self.nodes.is_empty() || !G::PERFECT_INFORMATION {
            return;
        }
        let Some(child) = self
            .root_children()
            .iter()
            .position(|n| n.mv == Some(played))
        else {
            self.nodes.clear();
            return;
        };
        let start = (self.nodes[0].first_child as usize) + child;
        // Slide the subtree of the move played down over the rest of the
        // arena, in place: no second arena, so the memory cap holds across
        // moves. Every node of the subtree was allocated after its root, and
        // blocks of children stay whole, so keeping the allocation order
        // puts the new root at 0 and only ever moves a node down.
        let len = self.nodes.len();
        let mut live = vec![0u64; len.div_ceil(64)];
        live[start / 64] |= 1 << (start % 64);
        let mut stack = vec![start];
        while let Some(i) = stack.pop() {
            let n = self.nodes[i];
            if n.first_child != UNEXPANDED {
                let first = n.first_child as usize;
                for c in first..first + usize::from(n.num_children) {
                    live[c / 64] |= 1 << (c % 64);
                    stack.push(c);
                }
            }
        }
        let mut before = Vec::with_capacity(live.len());
        let mut kept = 0u32;
        for word in &live {
            before.push(kept);
            kept += word.count_ones();
        }
        let new_index =
            |i: usize| before[i / 64] + (live[i / 64] & ((1u64 << (i % 64)) - 1)).count_ones();
        for (w, &word) in live.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let i = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let mut n = self.nodes[i];
                if n.first_child != UNEXPANDED {
                    n.first_child = new_index(n.first_child as usize);
                }
                self.nodes[new_index(i) as usize] = n;
            }
        }
        self.nodes.truncate(kept as usize);
        self.nodes[0].mv = None;
    }

    fn reset(&mut self) {
        self.nodes.clear();
        self.helpers.clear();
    }
}
