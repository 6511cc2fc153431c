//! Monte Carlo tree search, and the playout players built from it.
//!
//! One engine serves five players, because they differ only in settings:
//! - `mcts` (UCT): UCB1 selection, unlimited tree depth, random playouts
//!   (or heuristic ones, or a few random plies scored by the evaluation);
//! - `flat`: playouts spread round-robin over the first moves (tree depth 1);
//! - `heuristic`: the same with heuristic playouts;
//! - `ucb1`: UCB1 over the first moves, heuristic playouts;
//! - `rucb1`: UCB1 down to a depth, then heuristic playouts.
//!
//! Nodes live in one store reserved up to the memory cap ([`Tree`]),
//! children of a node side by side, so the hot loop allocates nothing.
//! Each node keeps the mean reward of the seat that moved into it, so
//! multi-player games back up max^n. With `threads` above one, every thread
//! descends the same tree (tree parallelism), each visit under way counted
//! as a loss until its playout is backed up (virtual loss), so that the
//! threads spread over different lines. Writes to the top of the tree,
//! which every thread reads at every iteration, are kept few: no virtual
//! loss where a node has many visits, and playouts through the most
//! visited nodes added in small batches.
//!
//! The tree is open-loop: a node is a sequence of player moves, and chance
//! steps met on the way are drawn afresh every iteration. For
//! hidden-information games every iteration starts from a new
//! determinization for the deciding seat; after a chance step or a
//! determinization, children whose move is not legal in this iteration's
//! state are skipped, so the tree never assumes what the seat cannot know.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use rand::SeedableRng;

use crate::control::Pacer;
use crate::model::game::{Game, Rng, Seat, Turn};
use crate::search::playout::{Policy, Scratch, playout, playout_rewards};
use crate::search::tree::{Batch, Claim, Expansion, MAX_VISITS, Node, NodeRef, Stats, Tree};
use crate::search::{
    Ask, Candidate, Control, Progress, Search, SearchResult, fast_ln, lines_text, win_chance_report,
};

/// How often (in iterations, or heuristic playout steps) the stop flag and
/// clock are read.
const POLL_EVERY: u64 = 4;
/// The root's visits at which a search stops: room for the visits under
/// way in other threads below the most a node can count.
const VISIT_CAP: u32 = MAX_VISITS - (1 << 20);
/// With several threads, a visit under way counts as a loss only at nodes
/// with fewer visits than this: above, one loss hardly moves the mean, and
/// the writes it costs are contended by every thread (the top of the tree).
const VIRTUAL_LOSS_BELOW: u32 = 128;

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
    /// Search threads, all growing one tree.
    pub threads: usize,
    /// The share by which a result moves towards 1/2 for each ply between
    /// the root and the playout's end (at most half the way), so that of
    /// two wins the quicker is worth clearly more; 0 leaves results as
    /// [`Game::reward`] gives them (the engine's `reward_decay`).
    pub reward_decay: f64,
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
            reward_decay: 0.0,
        }
    }
}

/// A Monte Carlo tree search player.
///
/// Tree reuse costs no move time: a move played re-roots the tree in
/// constant time, and the garbage left beside the new root is compacted
/// away on a helper thread while the engine replies and waits for the next
/// command. A search that starts before the compaction is done waits for
/// it briefly, then aborts it and starts from a fresh tree.
pub struct Mcts<G: Game> {
    config: MctsConfig,
    /// The evaluation that scores playouts cut short.
    eval: G::Eval,
    /// The tree, kept across moves; reserved at the first search. `None`
    /// while a compaction has it.
    tree: Option<Tree<G::Move>>,
    /// The compaction under way, if any.
    tidying: Option<Tidying<G::Move>>,
    /// Moves played (`Some`) and resets (`None`) while the tree was away.
    pending: Vec<Option<G::Move>>,
    max_nodes: usize,
}

/// A compaction on a helper thread: the tree comes back on `done`.
struct Tidying<M> {
    abort: Arc<AtomicBool>,
    done: Receiver<Tree<M>>,
}

/// The share of a timed search's budget it may wait for a compaction to
/// finish before aborting it.
const TIDY_PATIENCE_DIVISOR: u32 = 8;

/// A node of an iteration's descent.
#[derive(Clone, Copy)]
struct PathNode {
    node: NodeRef,
    /// The seat that moved into the node, whose reward it backs up.
    mover: Seat,
    /// Whether the visit was counted (as a virtual loss) on the way down.
    counted: bool,
}

/// One search thread: the shared tree and the thread's own buffers.
struct Worker<'t, G: Game> {
    tree: &'t Tree<G::Move>,
    config: MctsConfig,
    eval: &'t G::Eval,
    /// Other threads use the tree too: lock the statistics, and count a
    /// visit on the way down as a virtual loss.
    shared: bool,
    /// The nodes of this iteration's descent.
    path: Vec<PathNode>,
    /// Every seat's reward at the end of this iteration's playout, sized
    /// by the game's seat count.
    rewards: Vec<f64>,
    legal: Vec<G::Move>,
    scratch: Scratch<G::Move>,
    claim: Claim,
    batch: Batch,
}

impl<'t, G: Game> Worker<'t, G> {
    fn new(
        tree: &'t Tree<G::Move>,
        config: MctsConfig,
        eval: &'t G::Eval,
        shared: bool,
        seats: usize,
    ) -> Worker<'t, G> {
        Worker {
            tree,
            config,
            eval,
            shared,
            path: Vec::new(),
            rewards: Vec::with_capacity(seats),
            legal: Vec::new(),
            scratch: Scratch::default(),
            claim: if shared {
                Claim::chunked()
            } else {
                Claim::exact()
            },
            batch: Batch::default(),
        }
    }

    /// Counts a visit under way as a loss, where that is worth its cost
    /// (several threads, few visits); returns the visits before it, and
    /// whether it was counted.
    fn visit(&self, node: NodeRef) -> (u32, bool) {
        let n = self.tree.node(node);
        let visits = n.visits();
        if self.shared && visits < VIRTUAL_LOSS_BELOW {
            (n.visit_shared(), true)
        } else {
            (visits, false)
        }
    }

    /// Picks a child of `node` to descend into; `check` asks that the move
    /// be legal in `state` (after a determinization or a chance step).
    fn select(&mut self, node: NodeRef, state: &G, check: bool, at_root: bool) -> Option<NodeRef> {
        let tree = self.tree;
        let parent = tree.node(node);
        if check {
            state.legal_moves(&mut self.legal);
        }
        let legal = |n: &Node<G::Move>, legal: &[G::Move]| {
            !check || n.mv().is_some_and(|m| legal.contains(&m))
        };
        if at_root && self.config.root == RootPolicy::RoundRobin {
            return tree
                .children(node)
                .filter(|(_, n)| legal(n, &self.legal))
                .min_by_key(|(_, n)| n.visits())
                .map(|(r, _)| r);
        }
        let explore = (self.config.c * fast_ln(f64::from(parent.visits().max(1))).sqrt()) as f32;
        let mut best = None;
        let mut best_value = f32::NEG_INFINITY;
        for (r, n) in tree.children(node) {
            if !legal(n, &self.legal) {
                continue;
            }
            let child = n.stats();
            if child.visits == 0 {
                return Some(r);
            }
            let value = child.mean + explore * child.inv_sqrt;
            if value > best_value {
                best_value = value;
                best = Some(r);
            }
        }
        best
    }

    /// One iteration: select, expand, play out, back up. Returns the depth
    /// of the tree part, or `None` if the pacer stopped the playout (then
    /// nothing is backed up).
    fn iterate(&mut self, root: &G, seat: Seat, rng: &mut Rng, pacer: &mut Pacer) -> Option<u32> {
        let tree = self.tree;
        let mut state = if G::PERFECT_INFORMATION {
            root.clone()
        } else {
            root.determinize(seat, rng)
        };
        let mut check = !G::PERFECT_INFORMATION;
        let mut node = tree.root();
        self.path.clear();
        self.path.push(PathNode {
            node,
            mover: 0,
            counted: false,
        });
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
            if !tree.node(node).is_expanded() {
                if depth >= self.config.tree_depth {
                    break;
                }
                state.legal_moves(&mut self.legal);
                // Taken by another thread: play out from here this time.
                if tree.expand(node, &self.legal, &mut self.claim) != Expansion::Done {
                    break;
                }
            }
            let Some(child) = self.select(node, &state, check, depth == 0) else {
                break;
            };
            let Some(mv) = tree.node(child).mv() else {
                break;
            };
            state.apply(mv);
            let (visits_before, counted) = self.visit(child);
            self.path.push(PathNode {
                node: child,
                mover,
                counted,
            });
            node = child;
            depth += 1;
            if visits_before == 0 {
                break;
            }
        }
        let Some(ended) = playout(
            &mut state,
            self.config.policy,
            self.eval,
            rng,
            &mut self.scratch,
            pacer,
        ) else {
            self.cancel();
            return None;
        };
        // Plies from the root to the end, for games that discount them:
        // linearly, and never below half, so that a far win still beats
        // a far loss by as much as it beats a draw.
        let keep = match self.config.reward_decay {
            decay if decay > 0.0 => (1.0 - decay * f64::from(depth + ended.plies)).max(0.5),
            _ => 1.0,
        };
        playout_rewards(
            &state,
            ended,
            self.config.policy,
            self.eval,
            &mut self.rewards,
        );
        if keep < 1.0 {
            for r in &mut self.rewards {
                *r = 0.5 + (*r - 0.5) * keep;
            }
        }
        for step in &self.path {
            let reward = self.rewards[step.mover] as f32;
            let n = tree.node(step.node);
            match (self.shared, step.counted) {
                (true, true) => n.reward_shared(reward),
                (true, false) => self.batch.add(tree, step.node, n.visits(), reward),
                (false, _) => n.add(reward, 1),
            }
        }
        Some(depth)
    }

    /// Takes back the visits this iteration counted on the way down, for a
    /// playout cut short.
    fn cancel(&self) {
        for step in self.path.iter().filter(|s| s.counted) {
            self.tree.node(step.node).cancel_shared();
        }
    }

    /// Runs iterations until the budget or the control says stop (or the
    /// root has counted all the visits it can).
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
        let root_node = self.tree.node(self.tree.root());
        let mut pacer = control.pacer(POLL_EVERY);
        while done < limit {
            let Some(depth) = self.iterate(root, seat, rng, &mut pacer) else {
                break;
            };
            max_depth = max_depth.max(depth);
            done += 1;
            if report {
                let view = View {
                    tree: self.tree,
                    final_choice: self.config.final_choice,
                };
                pacer.report(|elapsed| {
                    Some(view.progress(root, done, max_depth, elapsed, control.multipv()))
                });
            }
            if pacer.tick() || root_node.visits() >= VISIT_CAP {
                break;
            }
        }
        self.batch.flush(self.tree);
        (done, max_depth)
    }
}

/// Read-only questions to a tree (while threads may still grow it).
struct View<'t, M> {
    tree: &'t Tree<M>,
    final_choice: Final,
}

impl<M: Copy + PartialEq> View<'_, M> {
    /// The root's children: move and statistics.
    fn root_children(&self) -> Vec<(Option<M>, Stats)> {
        self.tree
            .children(self.tree.root())
            .map(|(_, n)| (n.mv(), n.stats()))
            .collect()
    }

    /// The order of the final choice: the greater key is the better move.
    fn key(&self, s: &Stats) -> (f64, f64) {
        match self.final_choice {
            Final::Visits => (f64::from(s.visits), f64::from(s.mean)),
            Final::Mean => (
                if s.visits == 0 {
                    -1.0
                } else {
                    f64::from(s.mean)
                },
                f64::from(s.visits),
            ),
        }
    }

    /// Whether child `a` ranks below child `b` (on equal keys, the earlier
    /// one: the last of equals is the best, as `max_by` picks it).
    fn ranks_below(
        &self,
        children: &[(Option<M>, Stats)],
        a: usize,
        b: usize,
    ) -> std::cmp::Ordering {
        self.key(&children[a].1)
            .partial_cmp(&self.key(&children[b].1))
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(a.cmp(&b))
    }

    fn best_child(&self, children: &[(Option<M>, Stats)]) -> Option<usize> {
        (0..children.len()).max_by(|&a, &b| self.ranks_below(children, a, b))
    }

    /// The `count` best root moves in the order of the final choice, each
    /// with its mean, visits and the most visited line below it (the move
    /// alone in a game of hidden information: the line below would be
    /// drawn from guessed cards).
    fn candidates(&self, count: usize, lines: bool) -> Vec<Candidate<M>> {
        if count == 0 {
            return Vec::new();
        }
        let children: Vec<_> = self
            .tree
            .children(self.tree.root())
            .filter(|(_, n)| n.stats().visits > 0)
            .filter_map(|(r, n)| n.mv().map(|m| (r, Some(m), n.stats())))
            .collect();
        let stats: Vec<_> = children.iter().map(|&(_, m, s)| (m, s)).collect();
        let mut order: Vec<usize> = (0..children.len()).collect();
        order.sort_by(|&a, &b| self.ranks_below(&stats, b, a));
        order
            .into_iter()
            .take(count)
            .filter_map(|i| {
                let (node, mv, s) = children[i];
                let mv = mv?;
                let mut pv = vec![mv];
                if lines {
                    pv.extend(self.line_below(node, 31));
                }
                Some(Candidate {
                    mv,
                    score: f64::from(s.mean),
                    kind: crate::search::ScoreKind::WinChance,
                    visits: Some(u64::from(s.visits)),
                    exact: None,
                    pv,
                })
            })
            .collect()
    }

    fn principal_variation(&self) -> Vec<M> {
        self.line_below(self.tree.root(), 32)
    }

    /// The most visited line below `node`, at most `max` moves.
    fn line_below(&self, mut node: NodeRef, max: usize) -> Vec<M> {
        let mut pv = Vec::new();
        while pv.len() < max {
            let Some((next, n)) = self
                .tree
                .children(node)
                .filter(|(_, n)| n.visits() > 0)
                .max_by_key(|(_, n)| n.visits())
            else {
                break;
            };
            if let Some(mv) = n.mv() {
                pv.push(mv);
            }
            node = next;
        }
        pv
    }

    fn progress<G: Game<Move = M>>(
        &self,
        root: &G,
        iterations: u64,
        depth: u32,
        elapsed: std::time::Duration,
        multipv: usize,
    ) -> Progress
    where
        M: Send + Sync + 'static,
    {
        let children = self.root_children();
        let best = self.best_child(&children).map(|i| children[i]);
        let score = best.map_or(0.5, |(_, s)| f64::from(s.mean));
        let pv = self.principal_variation();
        let lines = self.candidates(multipv, G::PERFECT_INFORMATION);
        Progress {
            iterations,
            depth,
            elapsed,
            ..win_chance_report(root, best.and_then(|(mv, _)| mv), score, &pv, &lines)
        }
    }
}

impl<G: Game> Mcts<G> {
    /// A player with these settings.
    pub fn new(config: MctsConfig) -> Mcts<G> {
        let per_node = std::mem::size_of::<Node<G::Move>>().max(1);
        Mcts {
            config,
            eval: G::Eval::default(),
            tree: None,
            tidying: None,
            pending: Vec::new(),
            max_nodes: (config.memory / per_node).max(2),
        }
    }

    /// The same search scoring cut playouts with `eval`.
    pub fn with_eval(mut self, eval: G::Eval) -> Mcts<G> {
        self.eval = eval;
        self
    }

    /// Takes the tree back from a compaction under way, waiting at most
    /// `patience` (`None`: as long as it takes) or until `stop` is raised,
    /// then aborting it, which leaves a fresh tree; applies the moves and
    /// resets told meanwhile.
    fn take_back(&mut self, patience: Option<Duration>, stop: &AtomicBool) {
        if let Some(t) = self.tidying.take() {
            let until = patience.map(|p| Instant::now() + p);
            let tree = loop {
                // Short waits, so that a `stop` is seen at once.
                let step = until.map_or(Duration::from_millis(1), |u| {
                    u.saturating_duration_since(Instant::now())
                        .min(Duration::from_millis(1))
                });
                match t.done.recv_timeout(step) {
                    Ok(tree) => break Some(tree),
                    Err(RecvTimeoutError::Disconnected) => break None,
                    Err(RecvTimeoutError::Timeout) => {
                        let late = until.is_some_and(|u| Instant::now() >= u);
                        if late || stop.load(Ordering::Relaxed) {
                            t.abort.store(true, Ordering::Relaxed);
                            break t.done.recv().ok();
                        }
                    }
                }
            };
            self.tree = tree;
        }
        for told in std::mem::take(&mut self.pending) {
            if let Some(tree) = &mut self.tree {
                match told {
                    Some(mv) => {
                        tree.reroot(mv);
                    }
                    None => tree.clear(),
                }
            }
        }
    }

    /// Compacts the tree on a helper thread if it holds garbage.
    fn start_tidy(&mut self) {
        if !self.tree.as_ref().is_some_and(Tree::has_garbage) {
            return;
        }
        let Some(mut tree) = self.tree.take() else {
            return;
        };
        let abort = Arc::new(AtomicBool::new(false));
        let (tx, rx) = channel();
        let flag = abort.clone();
        let spawned = std::thread::Builder::new()
            .name("tabula-tidy".into())
            .spawn(move || {
                tree.compact(&flag);
                let _ = tx.send(tree);
            });
        // Without a thread the tree is lost with the closure: the next
        // search starts afresh, which is slower but still right.
        if spawned.is_ok() {
            self.tidying = Some(Tidying { abort, done: rx });
        }
    }

    /// Waits for any compaction under way (tests, tools).
    pub fn settle(&mut self) {
        self.take_back(None, &AtomicBool::new(false));
    }

    /// Nodes in the tree now (call [`Mcts::settle`] first after a move).
    pub fn tree_size(&self) -> usize {
        self.tree.as_ref().map_or(0, Tree::size)
    }

    /// Visits of the root's children, in move generation order.
    pub fn root_visits(&self) -> Vec<u32> {
        self.tree
            .as_ref()
            .map(|t| t.children(t.root()).map(|(_, n)| n.visits()).collect())
            .unwrap_or_default()
    }

    /// The tree below the root (`None`) or below the root's child for
    /// `mv`, depth-first: `(depth, move, visits)` per node, the subtree's
    /// own root listed with no move. For tests of tree reuse.
    #[cfg(test)]
    pub(crate) fn shape(&self, below: Option<G::Move>) -> Vec<(u32, Option<G::Move>, u32)> {
        let Some(tree) = &self.tree else {
            return Vec::new();
        };
        let root = tree.root();
        let start = match below {
            None => root,
            Some(mv) => match tree.child_for(root, mv) {
                Some(i) => i,
                None => return Vec::new(),
            },
        };
        let mut out = Vec::new();
        let mut stack = vec![(start, 0u32)];
        while let Some((i, depth)) = stack.pop() {
            let n = tree.node(i);
            out.push((depth, if i == start { None } else { n.mv() }, n.visits()));
            for (c, _) in tree.children(i).rev() {
                stack.push((c, depth + 1));
            }
        }
        out
    }

    /// Nodes the store has room for, and the most it may hold.
    #[cfg(test)]
    pub(crate) fn capacity(&self) -> (usize, usize) {
        (self.tree.as_ref().map_or(0, Tree::capacity), self.max_nodes)
    }
}

impl<G: Game> Search<G> for Mcts<G> {
    fn choose(&mut self, ask: Ask<'_, G>) -> SearchResult<G::Move> {
        let (root, seat, budget, control, rng) = ask.parts();
        // An iteration budget without a time waits for the compaction, so
        // that seeded searches repeat exactly; a timed one waits a little.
        let patience = control
            .deadline()
            .map(|d| d.saturating_duration_since(Instant::now()) / TIDY_PATIENCE_DIVISOR);
        self.take_back(patience, control.stop_flag());
        let max_nodes = self.max_nodes;
        let tree = self.tree.get_or_insert_with(|| Tree::new(max_nodes));
        if !G::PERFECT_INFORMATION {
            // Each decision of a hidden-information game searches afresh.
            tree.clear();
        } else if tree.has_garbage() && tree.size() > tree.capacity() / 4 * 3 {
            // Moves told while a compaction ran left garbage, and it
            // crowds the store: clearing is instant, compacting is not.
            tree.clear();
        }
        let tree: &Tree<G::Move> = tree;
        let config = self.config;
        let eval = &self.eval;
        let threads = config.threads.max(1);
        let seats = root.num_seats();
        let limit = budget.iterations.unwrap_or(u64::MAX);
        let per_thread = limit.div_ceil(threads as u64);
        let shared = threads > 1;
        let (mut iterations, mut depth) = (0, 0);
        // Tree parallelism: every thread descends the same tree.
        std::thread::scope(|scope| {
            let handles: Vec<_> = (1..threads)
                .map(|_| {
                    let mut helper_rng = Rng::seed_from_u64(rand::Rng::r#gen(rng));
                    scope.spawn(move || {
                        Worker::<G>::new(tree, config, eval, shared, seats).run(
                            root,
                            seat,
                            per_thread,
                            control,
                            &mut helper_rng,
                            false,
                        )
                    })
                })
                .collect();
            let (n, d) = Worker::<G>::new(tree, config, eval, shared, seats).run(
                root,
                seat,
                per_thread.min(limit),
                control,
                rng,
                true,
            );
            iterations += n;
            depth = d;
            for (n, d) in handles.into_iter().filter_map(|h| h.join().ok()) {
                iterations += n;
                depth = depth.max(d);
            }
        });
        let view = View {
            tree,
            final_choice: config.final_choice,
        };
        let children = view.root_children();
        let best = match view
            .best_child(&children)
            .and_then(|i| children[i].0.map(|m| (m, f64::from(children[i].1.mean))))
        {
            Some(found) => found,
            None => {
                // Stopped before the first iteration: any legal move.
                let mut legal = Vec::new();
                root.legal_moves(&mut legal);
                (legal[0], 0.5)
            }
        };
        let mut pv = view.principal_variation();
        if pv.first() != Some(&best.0) {
            pv = vec![best.0];
        }
        let lines = view.candidates(control.multipv(), G::PERFECT_INFORMATION);
        if control.has_reporter() {
            let mut p = view.progress(root, iterations, depth, control.elapsed(), 0);
            p.lines = lines_text(root, &lines);
            p.best = root.move_text(best.0);
            p.best_move = Some(crate::control::MoveHandle::new(best.0));
            p.score = best.1;
            control.report(&p);
        }
        SearchResult {
            best: best.0,
            score: best.1,
            kind: crate::search::ScoreKind::WinChance,
            iterations,
            depth,
            pv,
            exact: None,
            lines,
        }
    }

    fn advance(&mut self, played: G::Move) {
        if !G::PERFECT_INFORMATION {
            return;
        }
        if self.tidying.is_some() {
            self.pending.push(Some(played));
            return;
        }
        if let Some(tree) = &mut self.tree {
            tree.reroot(played);
            self.start_tidy();
        }
    }

    fn reset(&mut self) {
        if let Some(t) = &self.tidying {
            t.abort.store(true, Ordering::Relaxed);
            self.pending = vec![None];
        } else if let Some(tree) = &mut self.tree {
            tree.clear();
        }
    }
}

impl<G: Game> Drop for Mcts<G> {
    fn drop(&mut self) {
        // The helper frees the tree itself once its send fails.
        if let Some(t) = &self.tidying {
            t.abort.store(true, Ordering::Relaxed);
        }
    }
}
