//! Exact endgame solver: the final disc margin under perfect play.
//!
//! Scores are from the side to move's point of view, with empty squares
//! going to the winner (the FFO convention), so they are always even and in
//! `-64..=64`.
//!
//! Layers, by number of empty squares `n`:
//! - `n > SHALLOW`: negamax with principal variation search (null windows
//!   after the first move), a transposition table holding bounds and the
//!   best move, enhanced transposition cutoffs from the children's entries,
//!   a stable-disc cutoff (the opponent's unflippable discs bound our
//!   score), and fastest-first ordering (moves leaving the opponent the
//!   fewest replies first: they prune the most), from
//!   [`EVAL_ORDER_EMPTIES`] empties on combined with the trained pattern
//!   evaluation of the child (after a one- or two-ply search deeper
//!   still): the moves the evaluation likes best are the ones most likely
//!   to refute a node;
//! - `5 <= n <= SHALLOW`: plain alpha-beta without table, moves into
//!   quadrants with an odd number of empties first (parity: there we are
//!   likely to get the last move);
//! - `n <= 4`: dedicated functions on the list of empty squares that never
//!   compute a full mobility bitboard, only the flips of each empty square.
//!
//! The transposition table is in `table`, the threads' sharing of a node's
//! children in `split`, and the two copies of the search (portable and
//! AVX2) in `kernel`.

mod kernel;
mod shared;
mod split;
mod table;

use super::PASS;
use super::bitboard::{CORNERS, final_margin, neighbours, stable_discs};
use super::pattern::{self, Weights};
use crate::control::{Control, Pacer, Progress};
use kernel::{Kernel, Portable};
use shared::SolveShared;
use split::{SPLIT_EMPTIES, YOUNG_BROTHERS, solve_shared};
use std::marker::PhantomData;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicUsize, Ordering};
use table::{Bucket, PositionEntry, SeqlockTable, SolverTable, hash};

/// Deepest level searched without the transposition table.
const SHALLOW: u32 = 7;
/// Fewest empties where the enhanced transposition cutoff is tried.
const ETC_DEPTH: u32 = 12;
/// Largest table (in bits of buckets: 2^16 buckets are 4 MiB) that a
/// window's solve keeps per thread; a larger one takes the shared keep.
const LOCAL_BITS: u32 = 16;
/// Nodes between two polls of the stop flag and the deadline.
const POLL_INTERVAL: u64 = 1 << 14;
/// A score below every real one.
const NEG_INF: i32 = -100;
/// Fewest empties where children are ordered by the trained pattern
/// evaluation as well as by mobility: there a node is rare enough that a
/// few evaluations per child cost little next to what a better first move
/// saves. Measured on FFO #40-#44 (nodes, one thread, 16 key units a
/// disc): from 16 empties 1.7x fewer than mobility alone; from 14, 4%
/// fewer again but no faster; from 18, 6% more.
const EVAL_ORDER_EMPTIES: u32 = 16;
/// Fewest empties where a child's evaluation comes from a one-ply search
/// (the opponent's best reply by the evaluation) rather than the child
/// itself.
const EVAL_SEARCH_EMPTIES: u32 = 19;
/// Fewest empties where it comes from a two-ply search.
const EVAL_SEARCH2_EMPTIES: u32 = 22;
/// Ordering key units per disc of the evaluation (one reply more for the
/// opponent is 16). The evaluation counts for less than a reply per disc:
/// on FFO #40-#44, 16 units a disc searched 277 M nodes, 8 units 267 M,
/// 4 to 6 units 230 M, 2 units 264 M, 1 unit 352 M, none 484 M.
const EVAL_KEY_PER_DISC: i32 = 5;
/// Beyond every evaluation (in 1/`pattern::SCALE` discs).
const EVAL_INF: i32 = 1 << 20;

/// The quadrant of each square, as one bit of a 4-bit parity mask.
const fn quadrant_bit(sq: usize) -> u8 {
    let q = (sq % 8 >= 4) as usize + 2 * (sq / 8 >= 4) as usize;
    1 << q
}

/// `QUADRANTS[q]`: the squares of quadrant `q` (bit order of `quadrant_bit`).
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0f0f_0f0f,
    0x0000_0000_f0f0_f0f0,
    0x0f0f_0f0f_0000_0000,
    0xf0f0_f0f0_0000_0000,
];

/// `PARITY_SQUARES[parity]`: the union of the quadrants whose bit is set.
const PARITY_SQUARES: [u64; 16] = {
    let mut t = [0u64; 16];
    let mut i = 0;
    while i < 16 {
        let mut q = 0;
        while q < 4 {
            if i & (1 << q) != 0 {
                t[i] |= QUADRANTS[q];
            }
            q += 1;
        }
        i += 1;
    }
    t
};

/// `NEIGHBOURS[sq]`: the up to eight squares touching `sq`. A move on `sq`
/// needs an opponent disc among them, a cheap test before computing flips.
const NEIGHBOURS: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (c, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (nc, nr) = (c + dc, r + dr);
                if (dc != 0 || dr != 0) && nc >= 0 && nc < 8 && nr >= 0 && nr < 8 {
                    t[sq] |= 1 << (nr * 8 + nc);
                }
                dc += 1;
            }
            dr += 1;
        }
        sq += 1;
    }
    t
};

/// The lowest square of `m`, taken out of it.
#[inline(always)]
fn pop_square(m: &mut u64) -> usize {
    let sq = m.trailing_zeros() as usize;
    *m &= *m - 1;
    sq
}

/// The position after the owner of `p` plays `sq` against `o`, from the
/// opponent's side: its discs, then the mover's.
#[inline(always)]
fn play<K: Kernel>(p: u64, o: u64, sq: usize) -> (u64, u64) {
    let f = K::flips(p, o, sq);
    (o ^ f, p | f | (1 << sq))
}

/// The quadrant parity of a set of empty squares: bit `q` set when quadrant
/// `q` holds an odd number of them.
#[inline]
fn parity_of(empties: u64) -> u8 {
    let mut parity = 0;
    for (q, mask) in QUADRANTS.iter().enumerate() {
        parity |= ((empties & mask).count_ones() as u8 & 1) << q;
    }
    parity
}

/// A child position in the deep search's move list.
#[derive(Clone, Copy, Default)]
struct Child {
    p: u64,
    o: u64,
    mobility: u64,
    key: i32,
    sq: u8,
}

/// One thread's working state: the shared table, its counters, the control
/// polled, and the cutoff flags of the splits it works under (when one is
/// raised, it unwinds without storing anything).
/// `K` is the copy of the search it runs (see [`Kernel`]).
struct SolveThread<'s, 'a, K: Kernel> {
    shared: &'s SolveShared<'s, 'a>,
    nodes: u64,
    stopped: bool,
    /// A split it works under was cut off.
    aborted: bool,
    cutoffs: Vec<Arc<AtomicBool>>,
    pacer: Pacer<'s, 'a>,
    /// It reports its nodes through the control (the main thread of a
    /// solve of the root: a window's solve is a node of a search, which
    /// reports its own).
    reports: bool,
    /// The pattern evaluation that orders moves at deep nodes (none: the
    /// moves are ordered by mobility alone).
    weights: Option<&'static Weights>,
    kernel: PhantomData<K>,
}

/// Solves the position where the owner of `p` is to move against `o`, on
/// `control.threads()` threads.
///
/// Returns the best move ([`PASS`] if the side to move must pass or the game
/// is over), the exact final margin for the side to move (empties to the
/// winner) and the number of nodes searched (by all threads; with several
/// threads it varies from run to run, the score and its being a best move
/// do not); `None` if `control` stopped it. The transposition table takes
/// at most `table_bytes` (and at least 64 KiB).
pub fn solve_exact(
    p: u64,
    o: u64,
    control: &Control,
    table_bytes: usize,
) -> Option<(u8, i32, u64)> {
    Setup::new(control, table_bytes, Some(pattern::builtin())).best(p, o)
}

/// [`solve_exact`] with the moves of deep nodes ordered by `weights`
/// (a game's own evaluation), or by mobility alone if `None`: a game
/// played with the square table never decodes the built-in weights.
pub fn solve_exact_ordered_by(
    p: u64,
    o: u64,
    control: &Control,
    table_bytes: usize,
    weights: Option<&'static Weights>,
) -> Option<(u8, i32, u64)> {
    Setup::new(control, table_bytes, weights).best(p, o)
}

/// The exact final margin of every move of the owner of `p` (as
/// [`solve_exact_ordered_by`] scores the best one), best first (on equal
/// margins, in the order searched); the pass alone where the side to move
/// must pass. Each move is searched with the whole window, so this costs
/// more than finding the best move. `None` if `control` stopped it.
pub fn solve_every_move(
    p: u64,
    o: u64,
    control: &Control,
    table_bytes: usize,
    weights: Option<&'static Weights>,
) -> Option<(Vec<(u8, i32)>, u64)> {
    let setup = Setup::new(control, table_bytes, weights);
    setup.answer(p, o, Root::Every)
}

/// The exact final margin of the position where the owner of `p` is to
/// move against `o` (empties to the winner), fail-soft in the window
/// `(alpha, beta)`: at or below `alpha` an upper bound, at or above
/// `beta` a lower bound, between them exact; and the nodes searched. A
/// side that must pass is valued from the other's reply, a finished game
/// by its margin. Runs on the calling thread alone (a node a search hands
/// over: the search's threads are already busy), its table at most
/// `table_bytes`; a small solve's table is kept per thread, a larger one
/// in the shared keep, and either keeps its entries for the next window's
/// solve (bounds on exact values stay true), so its node count depends on
/// the solves before it, never its value. `None` if `control` stopped it.
pub fn solve_window(
    (p, o): (u64, u64),
    (alpha, beta): (i32, i32),
    control: &Control,
    table_bytes: usize,
    weights: Option<&'static Weights>,
) -> Option<(i32, u64)> {
    let setup = Setup::new(control, table_bytes, weights);
    let (scores, nodes) = setup.answer(p, o, Root::Window(alpha, beta))?;
    scores.first().map(|&(_, score)| (score, nodes))
}

/// Othello's [`crate::model::extras::Solver::window`]: [`solve_window`] of the
/// position for the side to move, the moves ordered by the built-in
/// evaluation as [`super::Othello::solve`]'s are; `None` if the game is
/// over.
pub(super) fn window_of(
    state: &super::Othello,
    alpha: i32,
    beta: i32,
    control: &Control,
    table_bytes: usize,
) -> Option<(i32, u64)> {
    if crate::model::game::Game::is_over(state) {
        return None;
    }
    let weights = Some(pattern::builtin());
    // Every margin is in -64..=64: a window reaching past it is as wide.
    let (alpha, beta) = (alpha.clamp(-65, 64), beta.clamp(-64, 65));
    solve_window(
        (state.me, state.opp),
        (alpha, beta),
        control,
        table_bytes,
        weights,
    )
}

/// What a solve answers at the root.
#[derive(Clone, Copy)]
enum Root {
    /// The best move and its score.
    Best,
    /// Every move's exact score, best first.
    Every,
    /// The root's score alone, fail-soft in this window, on one thread.
    Window(i32, i32),
}

/// How a solve runs: the control it polls, the bytes its table may take,
/// whether it runs the AVX2 copy of the search (where the CPU has it),
/// and the evaluation that orders the moves from `eval_from` empties on
/// (by mobility alone without one).
#[derive(Clone, Copy)]
struct Setup<'c> {
    control: &'c Control<'c>,
    table_bytes: usize,
    simd: bool,
    eval_from: u32,
    weights: Option<&'static Weights>,
}

impl<'c> Setup<'c> {
    /// The public entry points' setup: the AVX2 copy where the CPU has
    /// it, the evaluation ordering from [`EVAL_ORDER_EMPTIES`] on.
    fn new(
        control: &'c Control<'c>,
        table_bytes: usize,
        weights: Option<&'static Weights>,
    ) -> Setup<'c> {
        Setup {
            control,
            table_bytes,
            simd: true,
            eval_from: EVAL_ORDER_EMPTIES,
            weights,
        }
    }

    /// The best move, its exact score and the nodes searched.
    fn best(self, p: u64, o: u64) -> Option<(u8, i32, u64)> {
        let (scores, nodes) = self.answer(p, o, Root::Best)?;
        scores.first().map(|&(mv, score)| (mv, score, nodes))
    }

    /// Answers `what` at the root: the moves with their scores (one for
    /// [`Root::Best`]) and the nodes searched.
    fn answer(self, p: u64, o: u64, what: Root) -> Option<(Vec<(u8, i32)>, u64)> {
        let empties = (!(p | o)).count_ones();
        // 2^bits buckets, grown with the work ahead up to 2^20 (64 MiB), within
        // the byte budget.
        let bucket = std::mem::size_of::<Bucket>();
        let budget_bits = (self.table_bytes / bucket).max(1).ilog2();
        let bits = (empties + 2).clamp(10, 20).min(budget_bits.max(10));
        // A window's solve is a node of a search, one of many: a small
        // table is kept by its thread, not taken from the shared keep.
        let local = matches!(what, Root::Window(..)) && bits <= LOCAL_BITS;
        // (Always as large, so that a position is found in the same
        // bucket from one solve to the next.)
        let bits = if local { LOCAL_BITS.min(budget_bits.max(10)) } else { bits };
        let mut table = if local {
            SolverTable::take_local(bits, self.table_bytes)
        } else {
            // A window's solve keeps what the solves before it proved
            // (the root moves of a search whose depth reaches the end,
            // each solved alone).
            SolverTable::take(bits, self.table_bytes, !matches!(what, Root::Window(..)))
        };
        let shared = SolveShared {
            table: SeqlockTable::new(&mut table, bits),
            control: self.control,
            waiting: AtomicUsize::new(0),
            offer: AtomicPtr::new(std::ptr::null_mut()),
            finished: AtomicBool::new(false),
            eval_from: if self.weights.is_some() {
                self.eval_from
            } else {
                u32::MAX
            },
            weights: self.weights,
        };
        #[cfg(target_arch = "x86_64")]
        let r = if self.simd && kernel::Avx2::available() {
            solve_shared::<kernel::Avx2>(p, o, &shared, what)
        } else {
            solve_shared::<Portable>(p, o, &shared, what)
        };
        #[cfg(not(target_arch = "x86_64"))]
        let r = solve_shared::<Portable>(p, o, &shared, what);
        if local {
            table.give_back_local();
        } else {
            table.give_back();
        }
        r
    }
}

/// The main thread's search of the root, on the copy of the search `K`
/// (which the CPU runs).
fn solve_root<K: Kernel>(
    p: u64,
    o: u64,
    shared: &SolveShared,
    what: Root,
) -> Option<(Vec<(u8, i32)>, u64)> {
    let mut solver = SolveThread::<K>::new(shared, Vec::new());
    solver.reports = !matches!(what, Root::Window(..));
    let r = match what {
        Root::Best => solver.root(p, o).map(|best| vec![best]),
        Root::Every => solver.root_every(p, o),
        Root::Window(alpha, beta) => solver.window(p, o, alpha, beta).map(|v| vec![(PASS, v)]),
    };
    solver.finish(r)
}

impl<'s, 'a, K: Kernel> SolveThread<'s, 'a, K> {
    /// A thread's solver on `shared`, working under the splits of `cutoffs`.
    /// Panics if the CPU does not run `K`: a solver proves that it does
    /// (see [`Kernel`]).
    fn new(shared: &'s SolveShared<'s, 'a>, cutoffs: Vec<Arc<AtomicBool>>) -> Self {
        assert!(K::available(), "a copy of the search this CPU cannot run");
        SolveThread {
            shared,
            nodes: 0,
            stopped: false,
            aborted: false,
            cutoffs,
            pacer: shared.control.pacer(POLL_INTERVAL),
            reports: false,
            weights: shared.weights,
            kernel: PhantomData,
        }
    }

    /// The exact score of (p, o) fail-soft in the window (alpha, beta),
    /// `None` if stopped.
    fn window(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> Option<i32> {
        let n = (!(p | o)).count_ones();
        let v = self.search(p, o, K::moves(p, o), alpha, beta, n);
        (!self.halted()).then_some(v)
    }

    /// The public answer: nothing if stopped, else with the node count.
    fn finish<T>(self, r: Option<T>) -> Option<(T, u64)> {
        if self.stopped {
            None
        } else {
            r.map(|found| (found, self.nodes))
        }
    }

    /// Whether what it is searching no longer counts: stopped, or a split
    /// it works under was cut off.
    #[inline(always)]
    fn halted(&self) -> bool {
        self.stopped || self.aborted
    }

    /// Reads the cutoff flags of the splits it works under (none with one
    /// thread: then this costs a length test).
    #[inline(always)]
    fn check_cutoffs(&mut self) {
        if !self.cutoffs.is_empty() && self.cutoffs.iter().any(|c| c.load(Ordering::Relaxed)) {
            self.aborted = true;
        }
    }
}

/// The search proper, written once for both copies: every function
/// inlines into the entry points of [`Kernel`] (the functions named
/// `*_body`), which each copy compiles for its CPU.
impl<K: Kernel> SolveThread<'_, '_, K> {
    /// The best move and exact score at the root, `None` if stopped.
    #[inline(always)]
    fn root_body(&mut self, p: u64, o: u64) -> Option<(u8, i32)> {
        let mob = K::moves(p, o);
        let n = (!(p | o)).count_ones();
        if mob == 0 {
            if K::moves(o, p) == 0 {
                return Some((PASS, final_margin(p, o)));
            }
            let (_, s) = self.root(o, p)?;
            return Some((PASS, -s));
        }
        let mut list = [Child::default(); 36];
        let count = self.order(p, o, mob, n, PASS, &mut list);
        let (score, best) = self.children(&list[..count], -65, 65, n);
        if self.halted() {
            return None;
        }
        Some((best, score))
    }

    /// The exact score of every move at the root, best first (on equal
    /// scores, in the order searched), each searched with the whole
    /// window; the pass (or the end) alone where there is no move. `None`
    /// if stopped.
    #[inline(always)]
    fn root_every_body(&mut self, p: u64, o: u64) -> Option<Vec<(u8, i32)>> {
        let mob = K::moves(p, o);
        if mob == 0 {
            return self.root(p, o).map(|best| vec![best]);
        }
        let n = (!(p | o)).count_ones();
        let mut list = [Child::default(); 36];
        let count = self.order(p, o, mob, n, PASS, &mut list);
        let mut every = Vec::with_capacity(count);
        for c in &list[..count] {
            let score = -self.search(c.p, c.o, c.mobility, -65, 65, n - 1);
            if self.halted() {
                return None;
            }
            every.push((c.sq, score));
        }
        every.sort_by_key(|&(_, score)| std::cmp::Reverse(score));
        Some(every)
    }

    /// The fail-soft score of a node with `n` empties and children `list`
    /// (best first) in the window (alpha, beta), and the move that reaches
    /// it: the first child with the full window, the others with null
    /// windows, searched again where they turn out better. Past the first
    /// child, the others are shared out among idle threads if there are
    /// any (and the node is deep enough for it to pay).
    #[inline(always)]
    fn children(&mut self, list: &[Child], alpha: i32, beta: i32, n: u32) -> (i32, u8) {
        let first = list[0];
        let best = -self.search(first.p, first.o, first.mobility, -beta, -alpha, n - 1);
        if best >= beta || self.halted() {
            return (best, first.sq);
        }
        let (mut best, mut best_move) = (best, first.sq);
        for (i, c) in list.iter().enumerate().skip(1) {
            if i >= YOUNG_BROTHERS
                && n >= SPLIT_EMPTIES
                && list.len() - i >= 2
                && self.shared.waiting.load(Ordering::Relaxed) > 0
                && let Some(r) = self.split(&list[i..], alpha, beta, n, (best, best_move))
            {
                return r;
            }
            let a = alpha.max(best);
            let v = self.younger(c, a, beta, n);
            if v > best {
                best = v;
                best_move = c.sq;
                if v >= beta {
                    break;
                }
            }
        }
        (best, best_move)
    }

    /// A younger child's score for its parent whose best so far is `a`:
    /// a null window first, the full one (from the score found) if it
    /// proves better.
    #[inline(always)]
    fn younger(&mut self, c: &Child, a: i32, beta: i32, n: u32) -> i32 {
        let v = -self.search(c.p, c.o, c.mobility, -a - 1, -a, n - 1);
        if v > a && v < beta && !self.halted() {
            -self.search(c.p, c.o, c.mobility, -beta, -v, n - 1)
        } else {
            v
        }
    }

    /// Fills `list` with the children of (p, o) (whose moves are `mob`),
    /// sorted best first; returns how many there are.
    #[inline(always)]
    fn order(
        &self,
        p: u64,
        o: u64,
        mob: u64,
        n: u32,
        tt_move: u8,
        list: &mut [Child; 36],
    ) -> usize {
        let parity_squares = PARITY_SQUARES[parity_of(!(p | o)) as usize];
        let mut count = 0;
        let mut m = mob;
        while m != 0 {
            let sq = pop_square(&mut m);
            let (cp, co) = play::<K>(p, o, sq);
            let cm = K::moves(cp, co);
            // Fewest replies first, corners counting double, then fewest
            // empties next to our discs (the opponent's future moves); the
            // table's move before all; a parity hint near the end.
            let potential = neighbours(co) & !(cp | co);
            let mut key = 16 * (cm.count_ones() + (cm & CORNERS).count_ones()) as i32 + 4 * potential.count_ones() as i32;
            if n <= 12 && parity_squares & (1 << sq) != 0 {
                key -= 4;
            }
            if n >= self.shared.eval_from {
                // Deep: what the evaluation (after a shallow search the
                // deeper the node) thinks of the child for the opponent.
                let depth = if n >= EVAL_SEARCH2_EMPTIES {
                    2
                } else if n >= EVAL_SEARCH_EMPTIES {
                    1
                } else {
                    0
                };
                let e = self.eval_search(cp, co, cm, depth, -EVAL_INF, EVAL_INF);
                key += e * EVAL_KEY_PER_DISC / pattern::SCALE;
            }
            if sq as u8 == tt_move {
                key = i32::MIN;
            }
            list[count] = Child {
                p: cp,
                o: co,
                mobility: cm,
                key,
                sq: sq as u8,
            };
            count += 1;
        }
        // Insertion sort: lists are short.
        for i in 1..count {
            let c = list[i];
            let mut j = i;
            while j > 0 && list[j - 1].key > c.key {
                list[j] = list[j - 1];
                j -= 1;
            }
            list[j] = c;
        }
        count
    }

    /// The pattern evaluation of (p, o) searched `depth` plies (a pass
    /// is free), `p` to move with moves `mob`, in 1/[`pattern::SCALE`]
    /// discs for `p`; fail-soft in the window (alpha, beta). A finished
    /// game is scored exactly.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn eval_search_body(&self, p: u64, o: u64, mob: u64, depth: u32, alpha: i32, beta: i32) -> i32 {
        let Some(weights) = self.weights else {
            return 0;
        };
        if mob == 0 {
            let om = K::moves(o, p);
            if om == 0 {
                return final_margin(p, o) * pattern::SCALE;
            }
            if depth > 0 {
                return -self.eval_search(o, p, om, depth, -beta, -alpha);
            }
            return weights.score(p, o, 0, om.count_ones());
        }
        if depth == 0 {
            let om = K::moves(o, p);
            return weights.score(p, o, mob.count_ones(), om.count_ones());
        }
        let mut best = -EVAL_INF;
        let mut m = mob;
        while m != 0 {
            let sq = pop_square(&mut m);
            let (cp, co) = play::<K>(p, o, sq);
            let v = -self.eval_search(cp, co, K::moves(cp, co), depth - 1, -beta, -alpha.max(best));
            if v > best {
                best = v;
                if v >= beta {
                    break;
                }
            }
        }
        best
    }

    #[inline(always)]
    fn poll(&mut self) {
        self.stopped = self.pacer.tick_at(self.nodes);
        if self.reports {
            // (The helpers' nodes are added as their jobs are joined.)
            let nodes = self.nodes;
            self.pacer
                .report(|elapsed| Some(Progress::work(nodes, elapsed)));
        }
    }

    /// The exact score of (p, o) with `n` empties, `mob` being the moves of
    /// `p`, within the window (alpha, beta) (fail-soft).
    #[inline(always)]
    fn search_body(&mut self, p: u64, o: u64, mob: u64, alpha: i32, beta: i32, n: u32) -> i32 {
        if n <= SHALLOW {
            return self.shallow(p, o, mob, alpha, beta, n, parity_of(!(p | o)));
        }
        self.nodes += 1;
        self.poll();
        self.check_cutoffs();
        if self.halted() {
            return 0;
        }
        if mob == 0 {
            let om = K::moves(o, p);
            if om == 0 {
                return final_margin(p, o);
            }
            return -self.search(o, p, om, -beta, -alpha, n);
        }

        // Stability cutoff: discs of `o` that can never flip bound our score.
        if alpha >= 64 - 2 * o.count_ones() as i32 {
            let bound = 64 - 2 * stable_discs(o, p).count_ones() as i32;
            if bound <= alpha {
                return bound;
            }
        }
        let (mut alpha, mut beta) = (alpha, beta);
        let table = &self.shared.table;
        let h = table.index(hash(p, o));
        let mut tt_move = PASS;
        for e in &table.read(h) {
            if e.holds(p, o, table.generation) {
                let (lo, hi) = (e.lower as i32, e.upper as i32);
                if lo >= beta || lo == hi {
                    return lo;
                }
                if hi <= alpha {
                    return hi;
                }
                alpha = alpha.max(lo);
                beta = beta.min(hi);
                tt_move = e.best;
                break;
            }
        }

        let mut list = [Child::default(); 36];
        let count = self.order(p, o, mob, n, tt_move, &mut list);
        // Enhanced transposition cutoff: a child the table already knows to
        // be bad enough for the opponent refutes this node without search.
        if n >= ETC_DEPTH {
            for c in &list[..count] {
                for e in &table.read(table.index(hash(c.p, c.o))) {
                    if e.holds(c.p, c.o, table.generation) && -(e.upper as i32) >= beta {
                        return -(e.upper as i32);
                    }
                }
            }
        }
        let (best, best_move) = self.children(&list[..count], alpha, beta, n);
        if self.halted() {
            return 0;
        }
        self.store(h, p, o, n, alpha, beta, best, best_move);
        best
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn store(
        &self,
        h: usize,
        p: u64,
        o: u64,
        n: u32,
        alpha: i32,
        beta: i32,
        score: i32,
        best: u8,
    ) {
        let (lower, upper) = if score <= alpha {
            (-64, score)
        } else if score >= beta {
            (score, 64)
        } else {
            (score, score)
        };
        let generation = self.shared.table.generation;
        self.shared.table.write(h, |bucket| {
            // Slot 0 keeps the deepest entry, slot 1 the most recent one.
            let slot = if bucket[0].holds(p, o, generation) {
                0
            } else if bucket[1].holds(p, o, generation) {
                1
            } else if n as u8 >= bucket[0].priority(generation) {
                bucket[1] = bucket[0];
                0
            } else {
                1
            };
            let e = &mut bucket[slot];
            if e.holds(p, o, generation) {
                // Tighten what is known.
                let lo = (e.lower as i32).max(lower);
                let hi = (e.upper as i32).min(upper);
                if lo <= hi {
                    e.lower = lo as i8;
                    e.upper = hi as i8;
                    e.best = best;
                    return;
                }
            }
            *e = PositionEntry {
                p,
                o,
                lower: lower as i8,
                upper: upper as i8,
                best,
                empties: n as u8,
                generation,
            };
        });
    }

    /// Alpha-beta without table for `5 <= n <= SHALLOW` empties; `parity` is
    /// the quadrant parity of the empties.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn shallow_body(
        &mut self,
        p: u64,
        o: u64,
        mob: u64,
        alpha: i32,
        beta: i32,
        n: u32,
        parity: u8,
    ) -> i32 {
        if n <= 4 {
            return self.last_n(p, o, alpha, beta, n);
        }
        self.nodes += 1;
        if mob == 0 {
            let om = K::moves(o, p);
            if om == 0 {
                return final_margin(p, o);
            }
            return -self.shallow(o, p, om, -beta, -alpha, n, parity);
        }
        let mut best = NEG_INF;
        let odd = PARITY_SQUARES[parity as usize];
        for part in [mob & odd, mob & !odd] {
            let mut m = part;
            while m != 0 {
                let sq = pop_square(&mut m);
                let (cp, co) = play::<K>(p, o, sq);
                let child_parity = parity ^ quadrant_bit(sq);
                let v = if n == 5 {
                    -self.last_n(cp, co, -beta, -alpha.max(best), 4)
                } else {
                    -self.shallow(
                        cp,
                        co,
                        K::moves(cp, co),
                        -beta,
                        -alpha.max(best),
                        n - 1,
                        child_parity,
                    )
                };
                if v > best {
                    best = v;
                    if v >= beta {
                        return best;
                    }
                }
            }
        }
        best
    }

    /// The last four or fewer empties, squares ordered by parity.
    #[inline(always)]
    fn last_n_body(&mut self, p: u64, o: u64, alpha: i32, beta: i32, n: u32) -> i32 {
        let empties = !(p | o);
        let mut sq = [0u8; 4];
        let mut k = 0;
        // Squares alone in their quadrant first (a likely last move there).
        let odd = PARITY_SQUARES[parity_of(empties) as usize];
        for part in [empties & odd, empties & !odd] {
            let mut m = part;
            while m != 0 && k < 4 {
                sq[k] = m.trailing_zeros() as u8;
                m &= m - 1;
                k += 1;
            }
        }
        match n {
            0 => {
                self.nodes += 1;
                final_margin(p, o)
            }
            1 => self.last1(p, o, sq[0]),
            2 => self.last2(p, o, alpha, beta, sq[0], sq[1], false),
            3 => self.last3(p, o, alpha, beta, [sq[0], sq[1], sq[2]], false),
            _ => self.last4(p, o, alpha, beta, sq, false),
        }
    }

    /// Exact score with one empty square `sq` (63 discs on the board).
    #[inline(always)]
    fn last1(&mut self, p: u64, o: u64, sq: u8) -> i32 {
        self.nodes += 1;
        let pc = p.count_ones() as i32;
        let f = K::flips(p, o, sq as usize);
        if f != 0 {
            return 2 * (pc + 1 + f.count_ones() as i32) - 64;
        }
        let f = K::flips(o, p, sq as usize);
        if f != 0 {
            return 2 * (pc - f.count_ones() as i32) - 64;
        }
        // Nobody can play: the empty square goes to the winner.
        let d = 2 * pc - 63;
        if d > 0 { d + 1 } else { d - 1 }
    }

    /// Exact score with the two empty squares `a` and `b`, tried in that
    /// order. The leaves are the hottest code: each of `last2` to `last4`
    /// is spelled out for its number of squares (a loop building the
    /// remaining squares on every move cost 7-13% of a solve).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn last2_body(&mut self, p: u64, o: u64, alpha: i32, beta: i32, a: u8, b: u8, passed: bool) -> i32 {
        self.nodes += 1;
        let mut best = NEG_INF;
        if NEIGHBOURS[a as usize] & o != 0 {
            let f = K::flips(p, o, a as usize);
            if f != 0 {
                best = -self.last1(o ^ f, p | f | (1 << a), b);
                if best >= beta {
                    return best;
                }
            }
        }
        if NEIGHBOURS[b as usize] & o != 0 {
            let f = K::flips(p, o, b as usize);
            if f != 0 {
                let v = -self.last1(o ^ f, p | f | (1 << b), a);
                best = best.max(v);
            }
        }
        if best == NEG_INF {
            return if passed {
                final_margin(p, o)
            } else {
                -self.last2(o, p, -beta, -alpha, a, b, true)
            };
        }
        best
    }

    /// Exact score with the three empty squares `sq`, tried in order.
    #[inline(always)]
    fn last3_body(&mut self, p: u64, o: u64, alpha: i32, beta: i32, sq: [u8; 3], passed: bool) -> i32 {
        let pass = |me: &mut Self| -me.last3(o, p, -beta, -alpha, sq, true);
        self.last_few(p, o, alpha, beta, sq, passed, pass, |me, p, o, alpha, beta, i| {
            let (x, y) = match i {
                0 => (sq[1], sq[2]),
                1 => (sq[0], sq[2]),
                _ => (sq[0], sq[1]),
            };
            me.last2(p, o, alpha, beta, x, y, false)
        })
    }

    /// Exact score with the four empty squares `sq`, tried in order.
    #[inline(always)]
    fn last4_body(&mut self, p: u64, o: u64, alpha: i32, beta: i32, sq: [u8; 4], passed: bool) -> i32 {
        let pass = |me: &mut Self| -me.last4(o, p, -beta, -alpha, sq, true);
        self.last_few(p, o, alpha, beta, sq, passed, pass, |me, p, o, alpha, beta, i| {
            // The other three, in their order.
            let mut rest = [0u8; 3];
            let mut k = 0;
            for (j, &t) in sq.iter().enumerate() {
                if j != i {
                    rest[k] = t;
                    k += 1;
                }
            }
            me.last3(p, o, alpha, beta, rest, false)
        })
    }

    /// The search of [`Self::last3_body`] and [`Self::last4_body`]: each
    /// of the `N` empty squares `sq` in order, whose child position
    /// `after(self, p, o, alpha, beta, i)` scores with the squares other
    /// than `sq[i]` (spelled out per `N` by the caller); where the mover
    /// has no move, the game ends if the opponent has just passed, else
    /// `pass` searches for the opponent (through the entry point: the
    /// kernel's recursion). Inlined, so each `N` compiles to its own
    /// unrolled loop.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn last_few<const N: usize>(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        sq: [u8; N],
        passed: bool,
        pass: impl FnOnce(&mut Self) -> i32,
        after: impl Fn(&mut Self, u64, u64, i32, i32, usize) -> i32,
    ) -> i32 {
        self.nodes += 1;
        let mut best = NEG_INF;
        for (i, &s) in sq.iter().enumerate() {
            if NEIGHBOURS[s as usize] & o == 0 {
                continue;
            }
            let f = K::flips(p, o, s as usize);
            if f == 0 {
                continue;
            }
            let v = -after(self, o ^ f, p | f | (1 << s), -beta, -alpha.max(best), i);
            if v > best {
                best = v;
                if v >= beta {
                    return best;
                }
            }
        }
        if best == NEG_INF {
            return if passed { final_margin(p, o) } else { pass(self) };
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`solve_exact`], on the AVX2 copy of the search only if `simd` is
    /// set (and the CPU has it).
    fn solve_with(
        p: u64,
        o: u64,
        control: &Control,
        table_bytes: usize,
        simd: bool,
    ) -> Option<(u8, i32, u64)> {
        let setup = Setup::new(control, table_bytes, Some(pattern::builtin()));
        Setup { simd, ..setup }.best(p, o)
    }
    use crate::model::game::Game;
    use crate::games::othello::random_position;

    #[test]
    fn both_copies_of_the_search_agree_node_for_node() {
        let mut compared = 0;
        for seed in 0..12 {
            let s = random_position(seed, 13);
            if s.is_over() {
                continue;
            }
            let control = Control::unlimited();
            let plain = solve_with(s.player(), s.opponent(), &control, 1 << 24, false);
            let simd = solve_with(s.player(), s.opponent(), &control, 1 << 24, true);
            assert!(plain.is_some());
            assert_eq!(plain, simd, "seed {seed}");
            compared += 1;
        }
        assert!(compared >= 10);
    }

    #[test]
    fn ordering_by_the_evaluation_changes_nodes_not_scores() {
        // From 16 to 19 empties: the child evaluations, and the one-ply
        // searches at 19, order the moves; without them (ordering from 65
        // empties: never) the same scores come out. (Six positions, not
        // eight from 17 to 20 empties, which took 9 of the unit tests' 18 s
        // on a loaded machine.)
        let mut differ = 0;
        for seed in 40..46 {
            let s = random_position(seed, 16 + (seed as u32 % 4));
            if s.is_over() {
                continue;
            }
            let (p, o) = (s.player(), s.opponent());
            let control = Control::unlimited();
            let weights = Some(pattern::builtin());
            let with = Setup::new(&control, 1 << 24, weights).best(p, o);
            let without = Setup::new(&control, 1 << 24, None).best(p, o);
            let (Some(with), Some(without)) = (with, without) else {
                unreachable!("an unlimited solve finishes")
            };
            assert_eq!(with.1, without.1, "seed {seed}");
            differ += usize::from(with.2 != without.2);
        }
        assert!(differ >= 3, "the evaluation changed the search of {differ} positions");
    }

    #[test]
    fn a_kept_table_solves_as_a_fresh_one_node_for_node() {
        // The second solve of a position gets the first one's table back:
        // entries it left would answer at the root at once, so equal node
        // counts show that counting up the generation emptied it.
        let s = random_position(3, 16);
        let control = Control::unlimited();
        let first = solve_with(s.player(), s.opponent(), &control, 1 << 24, false);
        let again = solve_with(s.player(), s.opponent(), &control, 1 << 24, false);
        assert!(first.is_some_and(|(_, _, nodes)| nodes > 1000));
        assert_eq!(first, again);
    }

    #[test]
    fn several_threads_find_the_exact_score_and_a_move_that_reaches_it() {
        // Positions deep enough to split many times (splits start at 12
        // empties); 2 and 3 threads (more than the cores is allowed here: it
        // still splits and cuts off).
        let mut compared = 0;
        for seed in 20..26 {
            let s = random_position(seed, 18);
            if s.is_over() || s.mobility() == 0 {
                continue;
            }
            let (p, o) = (s.player(), s.opponent());
            let one = solve_with(p, o, &Control::unlimited(), 1 << 24, true).expect("solved");
            for threads in [2, 3] {
                let control = Control::unlimited().with_threads(threads);
                let (mv, score, nodes) = solve_with(p, o, &control, 1 << 24, true).expect("solved");
                assert_eq!(score, one.1, "seed {seed}, {threads} threads");
                assert!(nodes > 0);
                // The move reaches the score: its child, solved on one
                // thread, is worth exactly minus it.
                let mut child = s;
                child.apply(mv);
                let reply = solve_with(
                    child.player(),
                    child.opponent(),
                    &Control::unlimited(),
                    1 << 24,
                    true,
                );
                let value = match reply {
                    Some((_, v, _)) => -v,
                    None => unreachable!("an unlimited solve finishes"),
                };
                assert_eq!(value, score, "seed {seed}: {mv} does not reach {score}");
            }
            compared += 1;
        }
        assert!(compared >= 4);
    }

    #[test]
    fn a_stopped_parallel_solve_answers_nothing() {
        let s = random_position(7, 26);
        let budget = crate::control::Budget {
            time: Some(std::time::Duration::from_millis(30)),
            ..Default::default()
        };
        let control = Control::new(Default::default(), &budget).with_threads(2);
        let started = std::time::Instant::now();
        let r = solve_with(s.player(), s.opponent(), &control, 1 << 24, true);
        assert!(started.elapsed() < std::time::Duration::from_secs(2));
        assert_eq!(r, None);
    }
}
