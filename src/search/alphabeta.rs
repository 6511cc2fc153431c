//! Alpha-beta: negamax with a transposition table, under iterative
//! deepening, for two-player zero-sum games.
//!
//! Leaves are scored by [`Game::evaluate`], finished games by
//! [`Game::reward`] (a win is worth more than any evaluation, and a nearer
//! win more than a farther one). A seat that moves twice in a row (a game
//! whose turn does not alternate) keeps its window instead of negating it.

use std::alloc::Layout;
use std::mem::MaybeUninit;
use std::time::Instant;

use crate::control::Pacer;
use crate::game::{Game, Rng, Seat, Turn};
use crate::search::{Budget, Control, Progress, Search, SearchResult};
use crate::zeroed::{Zeroable, ZeroedTable};

/// The score of a won game at the root; wins further away score less.
const WIN: i32 = 1_000_000;
/// Evaluations in `[-1, 1]` are scaled to this many points.
const EVAL_SCALE: f64 = 10_000.0;
/// How often (in nodes) the stop flag and clock are read.
const POLL_EVERY: u64 = 1024;

/// What a stored score says of the true value. `Exact` is zero, so a zeroed
/// entry is a valid [`Entry`].
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum Bound {
    Exact = 0,
    Lower,
    Upper,
}

/// One slot of the transposition table. All-zero bytes are an empty slot:
/// the key stored is the position's key XOR the table's salt, and a zero
/// matches only the one key equal to the salt (as likely as any collision
/// of two 64-bit keys, which the table already lives with); a zero entry
/// has depth 0, which cuts nothing off, and no best move.
#[derive(Clone, Copy)]
struct Entry<M: Copy> {
    salted_key: u64,
    score: i32,
    depth: u8,
    bound: Bound,
    has_best: bool,
    /// A move when `has_best` is set (zero bytes need not be a move).
    best: MaybeUninit<M>,
}

// SAFETY: integers, a `bool`, a `repr(u8)` enum with a zero discriminant and
// a `MaybeUninit`: all-zero bytes are a valid entry.
unsafe impl<M: Copy> Zeroable for Entry<M> {}

impl<M: Copy> Entry<M> {
    fn best(&self) -> Option<M> {
        // SAFETY: `has_best` is set only together with `best` (in `store`).
        self.has_best.then(|| unsafe { self.best.assume_init() })
    }
}

/// The smallest transposition table, in entries.
const MIN_SLOTS: usize = 1024;

/// The salt of the `n`th clearing of a table: a clearing draws a new salt
/// instead of writing every slot, so old entries no longer match.
fn salt(n: u64) -> u64 {
    let z = (n + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z ^ (z >> 31)
}

/// Iterative-deepening alpha-beta with a transposition table.
pub struct AlphaBeta<G: Game> {
    table: ZeroedTable<Entry<G::Move>>,
    clearings: u64,
    salt: u64,
    nodes: u64,
    node_limit: u64,
    aborted: bool,
    buffers: Vec<Vec<G::Move>>,
}

impl<G: Game> AlphaBeta<G> {
    /// A search whose transposition table takes about `memory_mib` MiB,
    /// or the largest power of two of entries below that which the system
    /// grants (a table too large to allocate is halved, not a crash). The
    /// table is mapped zeroed, so even a large one is ready at once.
    pub fn new(memory_mib: u64) -> AlphaBeta<G> {
        let entry = std::mem::size_of::<Entry<G::Move>>().max(1) as u64;
        let wanted = (memory_mib.max(1) * 1024 * 1024 / entry).max(MIN_SLOTS as u64);
        // A power of two, so the slot is a mask of the key.
        let slots = 1usize << (63 - wanted.leading_zeros()).min(30);
        let table = ZeroedTable::halving(slots, MIN_SLOTS)
            .unwrap_or_else(|| std::alloc::handle_alloc_error(Layout::new::<[u64; MIN_SLOTS]>()));
        AlphaBeta {
            table,
            clearings: 0,
            salt: salt(0),
            nodes: 0,
            node_limit: u64::MAX,
            aborted: false,
            buffers: Vec::new(),
        }
    }

    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.table.len() - 1)
    }

    fn probe(&self, state: &G) -> Option<Entry<G::Move>> {
        let key = state.hash_key()?;
        let e = self.table[self.slot(key)];
        (e.salted_key == key ^ self.salt).then_some(e)
    }

    fn store(&mut self, state: &G, depth: u32, bound: Bound, score: i32, best: Option<G::Move>) {
        if let Some(key) = state.hash_key() {
            let slot = self.slot(key);
            let salted_key = key ^ self.salt;
            let e = &mut self.table[slot];
            if e.salted_key != salted_key || e.depth as u32 <= depth {
                *e = Entry {
                    salted_key,
                    score,
                    depth: depth.min(255) as u8,
                    bound,
                    has_best: best.is_some(),
                    best: best.map_or(MaybeUninit::uninit(), MaybeUninit::new),
                };
            }
        }
    }

    /// The value for `me` of `child`, reached by `me`'s move: final if the
    /// game ended, else searched from the view of whoever moves next.
    #[allow(clippy::too_many_arguments)]
    fn child_score(
        &mut self,
        child: &G,
        me: Seat,
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
        pacer: &mut Pacer,
    ) -> i32 {
        if child.at_horizon() {
            self.nodes += 1;
            terminal_score(child, me, ply)
        } else if matches!(child.turn(), Turn::Player(p) if p == me) {
            self.negamax(child, depth, ply, alpha, beta, pacer)
        } else {
            -self.negamax(child, depth, ply, -beta, -alpha, pacer)
        }
    }

    /// Negamax value of `state` for the seat to move, `depth` plies deep.
    fn negamax(
        &mut self,
        state: &G,
        depth: u32,
        ply: u32,
        mut alpha: i32,
        beta: i32,
        pacer: &mut Pacer,
    ) -> i32 {
        self.nodes += 1;
        // The node budget is read every POLL_EVERY nodes, like the clock.
        if pacer.tick_at(self.nodes)
            || (self.nodes.is_multiple_of(POLL_EVERY) && self.nodes >= self.node_limit)
        {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        let me = match state.turn() {
            Turn::Player(p) => p,
            // Chance steps are beyond what alpha-beta models: a leaf.
            Turn::Chance => return 0,
            Turn::Over => return 0,
        };
        if depth == 0 {
            return (state.evaluate(me) * EVAL_SCALE) as i32;
        }
        let original_alpha = alpha;
        let mut hint = None;
        if let Some(e) = self.probe(state) {
            hint = e.best();
            if e.depth as u32 >= depth {
                match e.bound {
                    Bound::Exact => return e.score,
                    Bound::Lower if e.score >= beta => return e.score,
                    Bound::Upper if e.score <= alpha => return e.score,
                    _ => {}
                }
            }
        }
        let mut moves = self.buffers.pop().unwrap_or_default();
        state.legal_moves(&mut moves);
        order_moves(&mut moves, hint);
        let mut best_score = -WIN - 1;
        let mut best_move = None;
        for &mv in moves.iter() {
            let mut child = state.clone();
            child.apply(mv);
            let score = self.child_score(&child, me, depth - 1, ply + 1, alpha, beta, pacer);
            if self.aborted {
                break;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(mv);
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        self.buffers.push(moves);
        if self.aborted {
            return 0;
        }
        let bound = if best_score <= original_alpha {
            Bound::Upper
        } else if best_score >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.store(state, depth, bound, best_score, best_move);
        best_score
    }

    /// Searches the root to `depth`; returns the best move and its score,
    /// or `None` if the search was cut off before finishing.
    fn root(
        &mut self,
        root: &G,
        me: Seat,
        depth: u32,
        previous: Option<G::Move>,
        pacer: &mut Pacer,
    ) -> Option<(G::Move, i32)> {
        let mut moves = Vec::new();
        root.legal_moves(&mut moves);
        order_moves(
            &mut moves,
            previous.or_else(|| self.probe(root).and_then(|e| e.best())),
        );
        let (mut alpha, beta) = (-WIN - 1, WIN + 1);
        let mut best = None;
        for &mv in &moves {
            let mut child = root.clone();
            child.apply(mv);
            let score = self.child_score(&child, me, depth - 1, 1, alpha, beta, pacer);
            if self.aborted {
                return None;
            }
            if best.is_none() || score > alpha {
                alpha = score;
                best = Some((mv, score));
            }
        }
        if let Some((mv, score)) = best {
            self.store(root, depth, Bound::Exact, score, Some(mv));
        }
        best
    }

    fn pv(&self, root: &G, first: G::Move, max: usize) -> Vec<G::Move> {
        let mut pv = vec![first];
        let mut state = root.clone();
        state.apply(first);
        while pv.len() < max && !state.at_horizon() {
            match self.probe(&state).and_then(|e| e.best()) {
                Some(mv) if state.is_legal(mv) => {
                    pv.push(mv);
                    state.apply(mv);
                }
                _ => break,
            }
        }
        pv
    }
}

fn terminal_score<G: Game>(state: &G, me: Seat, ply: u32) -> i32 {
    let r = state.reward(me);
    if r > 0.5 {
        WIN - ply as i32
    } else if r < 0.5 {
        -WIN + ply as i32
    } else {
        0
    }
}

/// Puts the hinted move first, keeping the others in generation order.
fn order_moves<M: PartialEq>(moves: &mut [M], hint: Option<M>) {
    if let Some(h) = hint
        && let Some(i) = moves.iter().position(|m| *m == h)
    {
        moves[..=i].rotate_right(1);
    }
}

/// Converts an alpha-beta score to a value in `[0, 1]` for reports.
fn score_to_value(score: i32) -> f64 {
    if score.abs() > WIN / 2 {
        if score > 0 { 1.0 } else { 0.0 }
    } else {
        (0.5 + score as f64 / EVAL_SCALE / 2.0).clamp(0.0, 1.0)
    }
}

impl<G: Game> Search<G> for AlphaBeta<G> {
    fn search(
        &mut self,
        root: &G,
        seat: Seat,
        budget: &Budget,
        control: &Control,
        _rng: &mut Rng,
    ) -> SearchResult<G::Move> {
        let started = Instant::now();
        self.nodes = 0;
        self.aborted = false;
        self.node_limit = budget.iterations.unwrap_or(u64::MAX);
        let max_depth = budget.depth.unwrap_or(64);
        let mut first = Vec::new();
        root.legal_moves(&mut first);
        let mut result = SearchResult {
            best: first[0],
            score: 0.5,
            iterations: 0,
            depth: 0,
            pv: vec![first[0]],
            exact: None,
        };
        let mut previous = None;
        let mut pacer = control.pacer(POLL_EVERY);
        for depth in 1..=max_depth.max(1) {
            let Some((mv, score)) = self.root(root, seat, depth, previous, &mut pacer) else {
                break;
            };
            previous = Some(mv);
            result = SearchResult {
                best: mv,
                score: score_to_value(score),
                iterations: self.nodes,
                depth,
                pv: self.pv(root, mv, depth as usize),
                exact: None,
            };
            if control.has_reporter() {
                control.report(&Progress {
                    iterations: self.nodes,
                    depth,
                    elapsed: started.elapsed(),
                    best: root.move_text(mv),
                    score: result.score,
                    pv: result.pv.iter().map(|&m| root.move_text(m)).collect(),
                });
            }
            // A proven result does not change with depth.
            if score.abs() > WIN / 2 {
                break;
            }
        }
        result.iterations = self.nodes;
        result
    }

    fn reset(&mut self) {
        self.clearings += 1;
        self.salt = salt(self.clearings);
    }
}

/// The move a depth-1 or depth-2 search prefers for the seat to move,
/// without a table: the heuristic policy of playouts. `buf` and `scratch`
/// are reusable move buffers. Ticks `pacer` once per move looked at, and
/// gives up (`None`) when it says stop.
pub fn shallow_best<G: Game>(
    state: &G,
    depth: u32,
    buf: &mut Vec<G::Move>,
    scratch: &mut Vec<G::Move>,
    pacer: &mut Pacer,
) -> Option<G::Move> {
    let Turn::Player(me) = state.turn() else {
        return None;
    };
    state.legal_moves(buf);
    let mut best: Option<(G::Move, f64)> = None;
    for &mv in buf.iter() {
        if pacer.tick() {
            return None;
        }
        let mut child = state.clone();
        child.apply(mv);
        let value = if child.at_horizon() {
            child.reward(me) * 4.0 - 2.0
        } else if depth >= 2 {
            reply_value(&child, me, scratch)
        } else {
            child.evaluate(me)
        };
        if best.is_none_or(|(_, v)| value > v) {
            best = Some((mv, value));
        }
    }
    best.map(|(mv, _)| mv)
}

/// The value for `me` of `state` after the opponent's best reply (the
/// opponent minimises `me`'s evaluation).
fn reply_value<G: Game>(state: &G, me: Seat, scratch: &mut Vec<G::Move>) -> f64 {
    match state.turn() {
        Turn::Player(p) if p != me => {}
        _ => return state.evaluate(me),
    }
    state.legal_moves(scratch);
    let mut worst = f64::INFINITY;
    for &mv in scratch.iter() {
        let mut child = state.clone();
        child.apply(mv);
        let v = if child.at_horizon() {
            child.reward(me) * 4.0 - 2.0
        } else {
            child.evaluate(me)
        };
        worst = worst.min(v);
    }
    worst
}
