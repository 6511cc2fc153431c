//! Alpha-beta: negamax with a transposition table, under iterative
//! deepening, for two-player zero-sum games.
//!
//! Leaves are scored by the evaluation the engine hands it
//! ([`crate::model::game::Evaluator`]), finished games by
//! [`Game::reward`] (a win is worth more than any evaluation, and a nearer
//! win more than a farther one). A seat that moves twice in a row (a game
//! whose turn does not alternate) keeps its window instead of negating it.
//!
//! Where the game has an exact solver ([`AlphaBeta::with_solver`]), a
//! node near the end is handed to it ([`hands_off`]): where the depth left
//! reaches the end (the search would see to it anyway, and the solver is
//! far faster and exact), and the root itself where a depth budget
//! reaches the end from it. Its exact margin `m` scores [`exact_score`]`(m)`:
//! a proven win above every evaluation (below a win reached on the board,
//! `WIN - ply`), a larger margin higher; its margin is read back at the
//! root ([`exact_margin`]).

mod abdada;
mod iterations;
mod tt;

use std::alloc::Layout;
use std::marker::PhantomData;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::control::{Budget, Pacer};
use crate::memory::zeroed::ZeroedTable;
use crate::model::extras::Solver;
use crate::model::game::{Evaluator as _, Game, ProbCutFit, Seat, Turn};
use crate::search::{
    Ask, Candidate, Control, MoveHandle, Progress, ScoreKind, Search, SearchResult, line_margin,
    lines_text,
};
use abdada::{BUSY_DEPTH, Busy, Take};
use iterations::{Completed, Iterations};
use tt::{Bound, Entry, MIN_SLOTS, SharedTable, Slot, from_table, salt, to_table};

/// The score of a won game at the root; wins further away score less.
const WIN: i32 = 1_000_000;
/// Scores above this (below its negation) are games won (lost) on the
/// board, `WIN - ply`: the table counts them from the node
/// ([`tt::to_table`]).
const BOARD_WIN: i32 = WIN - 100_000;
/// A solver's proven win by `m` scores `EXACT_WIN + m`, a loss by `m`
/// `-EXACT_WIN - m` ([`exact_score`]): past `WIN / 2` (proven, as every
/// test of a proven score reads it) and short of [`BOARD_WIN`].
const EXACT_WIN: i32 = WIN / 2 + 100_000;
/// The largest margin [`exact_score`] keeps apart (a game's margins are
/// far smaller: Othello's 64).
const EXACT_SPAN: i32 = 100_000 - 1;
/// A node is handed to the solver where its size by the solver (Othello:
/// its empty squares) is at most its depth left plus this: the search
/// would reach the end anyway, one ply more for a pass on the way. (Handing
/// nodes over earlier, up to 12 empties from 4 plies short of the end,
/// cost the selective search 2 to 60 times its time at depths 18-20 from
/// 22-24 empties: its ProbCut search there is cheaper than a solve.)
const HANDOFF_SLACK: u32 = 1;
/// The depth a table entry of the solver's value is stored at: it
/// answers any search of its node that hands the node over.
const SOLVED: u8 = u8::MAX;
/// Evaluations in `[-1, 1]` are scaled to this many points.
const EVAL_SCALE: f64 = 10_000.0;
/// How often (in nodes) the stop flag and clock are read.
const POLL_EVERY: u64 = 1024;
/// The half-width of the first aspiration window, in points (Othello: about
/// three discs), and the depth from which iterations use one: shallow ones
/// are too cheap to gain and their scores swing most.
const ASPIRATION: i32 = 500;
const ASPIRATION_DEPTH: u32 = 4;

/// Iterative-deepening alpha-beta with a transposition table; on several
/// threads, lazy SMP with simplified ABDADA: helper threads run the same
/// iterative deepening on the shared table, each putting off the moves
/// another thread is searching (see [`Busy`]), so that the threads split
/// each iteration's work; the deepest iteration any thread completed gives
/// the answer.
pub struct AlphaBeta<G: Game> {
    table: ZeroedTable<Slot>,
    clearings: u64,
    salt: u64,
    threads: usize,
    buffers: Vec<Vec<G::Move>>,
    orders: Vec<Vec<(i32, u32)>>,
    knobs: Knobs<G>,
    _game: PhantomData<fn() -> G>,
}

/// What the engine tunes alpha-beta with (its settings, each game's
/// defaults in engine/tuning.rs): the search never knows the game.
struct Knobs<G: Game> {
    /// The evaluation at the leaves and in the move order.
    eval: G::Eval,
    /// Nodes with at least this many plies left sort their moves by the
    /// evaluation of the position each leads to (`order_from`).
    order_from: Option<u32>,
    /// ProbCut, where the evaluation has a calibrated fit: a bound must be
    /// cleared by this many sigmas (`probcut_sigmas`); `None`: off.
    probcut: Option<f64>,
    /// Under a depth budget: `None`, the depth's exact value; else a
    /// selective search as under a clock, ProbCut (where `probcut` is on)
    /// at these sigmas (`selectivity`).
    depth_selectivity: Option<f64>,
    /// The game's exact solver, which nodes near the end are handed to
    /// ([`hands_off`]), and the bytes its table may take.
    solver: Option<(Solver<G>, usize)>,
    /// The largest root a depth budget that reaches the end solves at
    /// once (`solve_reach`); a larger one deepens as any search does.
    root_reach: u32,
    /// The game's rule for a finished game's exact margin, where it has
    /// its own ([`crate::model::extras::Extras::end_margin`]).
    end_margin: Option<fn(&G, Seat) -> i32>,
}

/// A thread's reusable move lists and move orders.
type Buffers<M> = (Vec<Vec<M>>, Vec<Vec<(i32, u32)>>);

/// One thread's search on the shared table.
struct Worker<'t, G: Game> {
    table: &'t SharedTable<'t>,
    knobs: &'t Knobs<G>,
    nodes: u64,
    node_limit: u64,
    aborted: bool,
    /// With several threads: raised when the search is over (the main
    /// thread is done, or a helper completed the last depth).
    done: Option<&'t AtomicBool>,
    /// For a helper: its number (1, 2...), which sets how it rotates the
    /// moves it leaves unsorted; 0 for the main thread.
    helper: usize,
    /// Shared with the other threads of a search, if it has several.
    iterations: Option<&'t Iterations<G::Move>>,
    /// Shared likewise: the positions the threads are in.
    busy: Option<&'t Busy>,
    /// Under a depth budget: no ProbCut, and table cutoffs only from
    /// entries of the depth asked, so that a node's value is its minimax
    /// value at that depth whichever thread stored what first (see
    /// [`AlphaBeta`]'s search).
    fixed_depth: bool,
    /// ProbCut's sigmas in this search (`None`: off): the clock's
    /// (`probcut_sigmas`), or a selective depth budget's.
    sigmas: Option<f64>,
    buffers: Vec<Vec<G::Move>>,
    /// Reusable lists of (sort key, generated index), one per ply in use.
    orders: Vec<Vec<(i32, u32)>>,
    /// Root moves to search to an exact value each: above one, every
    /// iteration is a MultiPV search ([`Worker::root_multi`]).
    multipv: usize,
    /// The last completed MultiPV iteration's moves with exact scores,
    /// best first.
    lines: Vec<(G::Move, i32)>,
    /// What a solve handed a node polls: the search's stop flag and
    /// deadline, one thread, no reports (set by [`Worker::deepen`]).
    solve_control: Option<Control<'static>>,
    /// The first depth iterative deepening searches: 1, or, under a
    /// depth budget that reaches the solver from the root, that depth at
    /// once (the shallower iterations would only order moves for a solve
    /// that orders its own).
    first_depth: u32,
}

impl<G: Game> AlphaBeta<G> {
    /// A search whose transposition table takes about `memory_mib` MiB,
    /// or the largest power of two of entries below that which the system
    /// grants (a table too large to allocate is halved, not a crash). The
    /// table is mapped zeroed, so even a large one is ready at once.
    pub fn new(memory_mib: u64) -> AlphaBeta<G> {
        let entry = std::mem::size_of::<Slot>() as u64;
        let wanted = (memory_mib.max(1) * 1024 * 1024 / entry).max(MIN_SLOTS as u64);
        // A power of two, so the slot is a mask of the key.
        let slots = 1usize << (63 - wanted.leading_zeros()).min(30);
        let table = ZeroedTable::halving(slots, MIN_SLOTS)
            .unwrap_or_else(|| std::alloc::handle_alloc_error(Layout::new::<[u64; MIN_SLOTS]>()));
        AlphaBeta {
            table,
            clearings: 0,
            salt: salt(0),
            threads: 1,
            buffers: Vec::new(),
            orders: Vec::new(),
            knobs: Knobs {
                eval: G::Eval::default(),
                order_from: None,
                probcut: None,
                depth_selectivity: None,
                solver: None,
                root_reach: 0,
                end_margin: None,
            },
            _game: PhantomData,
        }
    }

    /// The same search scoring positions with `eval`.
    pub fn with_eval(mut self, eval: G::Eval) -> AlphaBeta<G> {
        self.knobs.eval = eval;
        self
    }

    /// Nodes with `order_from` plies left or more sort their moves best
    /// first by the evaluation of the position each leads to (after the
    /// table's move); `None` keeps the order of [`Game::legal_moves`]. A
    /// good, cheap evaluation gains from it (fewer nodes to one depth).
    pub fn with_move_order(mut self, order_from: Option<u32>) -> AlphaBeta<G> {
        self.knobs.order_from = order_from;
        self
    }

    /// ProbCut at null-window nodes whose evaluation has a calibrated fit
    /// ([`crate::model::game::Evaluator::probcut_fit`]): a shallow search that
    /// clears a bound by `sigmas` standard deviations cuts the node
    /// without the deep search. `None`: never.
    pub fn with_probcut(mut self, sigmas: Option<f64>) -> AlphaBeta<G> {
        self.knobs.probcut = sigmas;
        self
    }

    /// What a depth budget asks for: `None` (the default), the depth's
    /// own minimax value, the same on any number of threads (no ProbCut,
    /// and the table answers only with entries of the depth asked);
    /// `Some(sigmas)`, a selective search as under a clock (deeper entries
    /// answering for shallower searches), with ProbCut, where it is on, at
    /// `sigmas`, as Othello programs' levels are: far cheaper, and its
    /// value may depend on what the threads stored first.
    pub fn with_depth_selectivity(mut self, sigmas: Option<f64>) -> AlphaBeta<G> {
        self.knobs.depth_selectivity = sigmas;
        self
    }

    /// Hands the nodes near the end to the game's exact `solver` (where it
    /// has one), whose table takes at most `table_bytes` per solve: a node
    /// whose size by the solver is within its depth left (plus a ply for
    /// a pass, [`hands_off`]) gets the solver's exact value, and a depth
    /// budget that reaches the end from a root of at most `root_reach`
    /// is a solve of the root. (A larger root deepens from depth 1, so
    /// that a search stopped early still has a move searched; its
    /// iteration that reaches the end hands every root move over.) The value is the same on any number of
    /// threads (the rule reads only the node and its depth). `None` (the
    /// default): every node is searched.
    pub fn with_solver(
        mut self,
        solver: Option<Solver<G>>,
        table_bytes: usize,
        root_reach: u32,
    ) -> AlphaBeta<G> {
        self.knobs.solver = solver.map(|s| (s, table_bytes));
        self.knobs.root_reach = root_reach;
        self
    }

    /// Values a proven line that ends the game on the board by the
    /// game's rule for a finished game (Othello: empties to the winner,
    /// as its solver counts every end), with or without the solver; `None`
    /// (the default): by [`Game::outcome`]'s scores.
    pub fn with_end_margin(mut self, rule: Option<fn(&G, Seat) -> i32>) -> AlphaBeta<G> {
        self.knobs.end_margin = rule;
        self
    }

    /// The root scores of iterative deepening at every depth from 1 to
    /// `max_depth`, on one thread, in evaluation units (as its
    /// evaluation's): what a calibration of ProbCut regresses one
    /// depth on another with. `None` where a depth proves a result (its
    /// score is no evaluation) or the root has no seat to move.
    pub fn depth_values(&mut self, root: &G, max_depth: u32) -> Option<Vec<f64>> {
        let Turn::Player(seat) = root.turn() else {
            return None;
        };
        let table = SharedTable::new(&mut self.table, self.salt);
        let mut main = Worker::<G>::new(&table, &self.knobs, u64::MAX, (Vec::new(), Vec::new()));
        let mut values = Vec::new();
        let mut proven = false;
        main.deepen(
            root,
            seat,
            max_depth.max(1),
            &Control::unlimited(),
            |_, _, score, _| {
                proven |= score.abs() > WIN / 2;
                values.push(f64::from(score) / EVAL_SCALE);
            },
        );
        (!proven && values.len() == max_depth.max(1) as usize).then_some(values)
    }

    /// The root solved by `solver` (its table at most `bytes`), as the
    /// search's answer: the best move (each move's, under MultiPV) with
    /// its exact margin; `None` if the control stopped it.
    fn solve_root(
        &self,
        root: &G,
        control: &Control,
        solver: Solver<G>,
        bytes: usize,
    ) -> Option<SearchResult<G::Move>> {
        let solve_control = control.clone().with_threads(self.threads);
        let count = control.multipv();
        let solved = if count > 1 {
            (solver.solve_moves)(root, &solve_control, bytes)?
        } else {
            (solver.solve)(root, &solve_control, bytes)?
        };
        let &(best, margin) = solved.moves.first()?;
        let lines: Vec<_> = solved
            .moves
            .iter()
            .take(count)
            .map(|&(mv, m)| Candidate {
                exact: Some(m),
                ..Candidate::new(mv, score_to_value(exact_score(m)), ScoreKind::Exact)
            })
            .collect();
        let result = SearchResult {
            best,
            score: score_to_value(exact_score(margin)),
            kind: ScoreKind::Exact,
            iterations: solved.nodes,
            depth: (solver.size)(root),
            pv: vec![best],
            exact: Some(margin),
            lines,
        };
        if control.has_reporter() {
            control.report(&Progress {
                iterations: solved.nodes,
                depth: result.depth,
                elapsed: control.elapsed(),
                best: root.move_text(best),
                best_move: Some(MoveHandle::new(best)),
                score: result.score,
                kind: ScoreKind::Exact,
                exact: Some(margin),
                pv: vec![root.move_text(best)],
                lines: lines_text(root, &result.lines),
            });
        }
        Some(result)
    }

    /// Searches on `threads` threads (at least one).
    pub fn with_threads(mut self, threads: usize) -> AlphaBeta<G> {
        self.threads = threads.max(1);
        self
    }
}

impl<'t, G: Game> Worker<'t, G> {
    fn new(
        table: &'t SharedTable<'t>,
        knobs: &'t Knobs<G>,
        node_limit: u64,
        (buffers, orders): Buffers<G::Move>,
    ) -> Self {
        Worker {
            table,
            knobs,
            nodes: 0,
            node_limit,
            aborted: false,
            done: None,
            helper: 0,
            iterations: None,
            busy: None,
            fixed_depth: false,
            sigmas: knobs.probcut,
            buffers,
            orders,
            multipv: 0,
            lines: Vec::new(),
            solve_control: None,
            first_depth: 1,
        }
    }

    /// Joins the other threads of a search: its stop flag, its completed
    /// iterations and the positions the threads are in.
    fn share(
        &mut self,
        done: &'t AtomicBool,
        iterations: &'t Iterations<G::Move>,
        busy: Option<&'t Busy>,
    ) {
        self.done = Some(done);
        self.iterations = Some(iterations);
        self.busy = busy;
    }

    /// The search's answer from a completed iteration of `depth` whose
    /// best root move `mv` scored `score`: its line and, under MultiPV
    /// ([`Worker::multipv`]), the other best lines, from the table.
    fn answer(&self, root: &G, mv: G::Move, score: i32, depth: u32) -> SearchResult<G::Move> {
        let pv = self.pv(root, mv, depth as usize);
        let (kind, exact) = self.root_kind(root, depth, score, &pv);
        let mut result = SearchResult {
            best: mv,
            score: score_to_value(score),
            kind,
            iterations: self.nodes,
            depth,
            pv,
            exact,
            lines: Vec::new(),
        };
        result.lines = self.candidates(root, &result, self.multipv);
        result
    }

    /// The exact value of `state` (the seat to move's), by the game's
    /// solver, in the window `(alpha, beta)` (fail-soft), where the node
    /// is one to hand over ([`hands_off`]), stored in the table; `None`
    /// where it is searched instead. A solve stopped by the control
    /// aborts the search.
    #[allow(clippy::too_many_arguments)]
    fn hand_off(&mut self, state: &G, depth: u32, ply: u32, alpha: i32, beta: i32) -> Option<i32> {
        let (solver, bytes) = self.knobs.solver?;
        if !self.solves(state, depth) {
            return None;
        }
        let control = self.solve_control.as_ref()?;
        let window = (margin_at_most(alpha), -margin_at_most(-beta));
        let Some((margin, nodes)) = (solver.window)(state, window.0, window.1, control, bytes)
        else {
            // Stopped, or a game over that `at_horizon` did not see:
            // searched as any other node (at once aborted if stopped).
            if control.should_stop() {
                self.aborted = true;
                return Some(0);
            }
            return None;
        };
        self.nodes += nodes;
        if self.nodes >= self.node_limit {
            self.aborted = true;
        }
        let score = exact_score(margin);
        // Exact at any depth: it answers every later search of the node
        // that would hand it over too.
        self.store(
            state,
            u32::from(SOLVED),
            ply,
            Bound::of(score, alpha, beta),
            score,
            None,
        );
        Some(score)
    }

    /// Whether `state`, searched `depth` plies deep, goes to the solver.
    fn solves(&self, state: &G, depth: u32) -> bool {
        self.knobs
            .solver
            .is_some_and(|(s, _)| hands_off((s.size)(state), depth))
    }

    /// Whether a completed iteration of `depth` from `root` handed every
    /// root move to the solver, so that its score is an exact value.
    fn solved_at(&self, root: &G, depth: u32) -> bool {
        self.knobs
            .solver
            .is_some_and(|(s, _)| depth >= 1 && hands_off((s.size)(root), depth - 1))
    }

    /// The exact margin of a root score of an iteration of `depth`, where
    /// the solver valued every root move (see [`Worker::solved_at`]).
    fn root_exact(&self, root: &G, depth: u32, score: i32) -> Option<i32> {
        if !self.solved_at(root, depth) {
            return None;
        }
        if score == 0 {
            Some(0)
        } else {
            exact_margin(score)
        }
    }

    /// What a root score of an iteration of `depth` is, its line `pv`
    /// given: the exact margin where the solver valued every root move,
    /// else as [`kind_of`] reads the score.
    fn root_kind(
        &self,
        root: &G,
        depth: u32,
        score: i32,
        pv: &[G::Move],
    ) -> (ScoreKind, Option<i32>) {
        match self.root_exact(root, depth, score) {
            Some(m) => (ScoreKind::Exact, Some(m)),
            None => kind_of(root, score, pv, self.end_margin()),
        }
    }

    /// The game's rule for a finished game's exact margin, where it has
    /// one ([`AlphaBeta::with_end_margin`]).
    fn end_margin(&self) -> Option<fn(&G, Seat) -> i32> {
        self.knobs.end_margin
    }

    /// Whether the next iteration, after two that cost
    /// `[before, last]` nodes, would end past the node budget: then it is
    /// not begun, as a clock's move does not begin an iteration it cannot
    /// end (a node budget is a bound on the work, the same under any
    /// load). Its cost is the last one's times the growth from the one
    /// before, at least half the branching that [`MOST_GROWTH`] allows,
    /// since Othello's iterations grow unevenly by parity (one cheap
    /// iteration is no promise for the next).
    fn would_overspend(&self, [before, last]: [u64; 2]) -> bool {
        if self.node_limit == u64::MAX {
            return false;
        }
        let growth = growth_of(before as f64, last as f64).max(MOST_GROWTH / 2.0);
        self.nodes as f64 + last as f64 * growth > self.node_limit as f64
    }

    /// Whether to search `child`, a move to be searched `depth` plies
    /// deep, now or after the node's other moves ([`Busy`]; `may_wait` for
    /// a move past the node's first, on the list's first pass), and the
    /// key that marks it busy meanwhile.
    fn take(&self, child: &G, depth: u32, may_wait: bool) -> Take {
        let Some(busy) = self.busy.filter(|_| depth >= BUSY_DEPTH) else {
            return Take::Now(None);
        };
        let Some(key) = child.hash_key() else {
            return Take::Now(None);
        };
        if may_wait && busy.is_busy(key) {
            Take::Later
        } else {
            busy.enter(key);
            Take::Now(Some(key))
        }
    }

    /// Clears the busy mark [`Worker::take`] set.
    fn leave(&self, mark: Option<u64>) {
        if let (Some(busy), Some(key)) = (self.busy, mark) {
            busy.leave(key);
        }
    }

    fn probe(&self, state: &G) -> Option<Entry> {
        let key = state.hash_key()?;
        let e = self.table.read(key);
        (e.salted_key == key ^ self.table.salt).then_some(e)
    }

    /// Stores what a search of `state`, `ply` plies from the root, found;
    /// `best` is the best move's index in the generated move list.
    fn store(
        &mut self,
        state: &G,
        depth: u32,
        ply: u32,
        bound: Bound,
        score: i32,
        best: Option<usize>,
    ) {
        if let Some(key) = state.hash_key() {
            let salted_key = key ^ self.table.salt;
            let e = self.table.read(key);
            if e.salted_key != salted_key || e.depth as u32 <= depth {
                self.table.write(
                    key,
                    &Entry {
                        salted_key,
                        score: to_table(score, ply),
                        depth: depth.min(255) as u8,
                        bound,
                        best: best.map_or(0, |i| u16::try_from(i + 1).unwrap_or(0)),
                    },
                );
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

    /// The value for `me` of `child` in principal variation search: the
    /// first child gets the whole window; a later one is expected to be no
    /// better than the best so far, which a null window around `alpha`
    /// proves more cheaply, and only a child that beats it is searched
    /// again with the whole window (a null-window node needs no re-search:
    /// its window is already null).
    #[allow(clippy::too_many_arguments)]
    fn pvs_child(
        &mut self,
        child: &G,
        me: Seat,
        depth: u32,
        ply: u32,
        first: bool,
        alpha: i32,
        beta: i32,
        pacer: &mut Pacer,
    ) -> i32 {
        if first || beta - alpha <= 1 {
            return self.child_score(child, me, depth, ply, alpha, beta, pacer);
        }
        let score = self.child_score(child, me, depth, ply, alpha, alpha + 1, pacer);
        if score > alpha && score < beta && !self.aborted {
            self.child_score(child, me, depth, ply, alpha, beta, pacer)
        } else {
            score
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
            || self.done.is_some_and(|d| d.load(Ordering::Relaxed))
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
            return (self.knobs.eval.evaluate(state, me) * EVAL_SCALE) as i32;
        }
        let original_alpha = alpha;
        let entry = self.probe(state);
        // A deeper entry answers for this depth too, except where the
        // value must be this depth's own (a depth budget); a solver's
        // entry ([`SOLVED`]) answers wherever the node goes to the solver.
        if let Some(e) = entry
            && (e.depth as u32 == depth
                || (e.depth as u32 > depth && !self.fixed_depth)
                || (e.depth == SOLVED && self.solves(state, depth)))
        {
            let score = from_table(e.score, ply);
            match e.bound {
                Bound::Exact => return score,
                Bound::Lower if score >= beta => return score,
                Bound::Upper if score <= alpha => return score,
                _ => {}
            }
        }
        if let Some(score) = self.hand_off(state, depth, ply, alpha, beta) {
            return score;
        }
        // ProbCut at null-window nodes only: the principal variation keeps
        // its exact scores.
        if beta - alpha == 1
            && !self.fixed_depth
            && alpha.abs() < WIN / 2
            && let Some(sigmas) = self.sigmas
            && let Some(fit) = self.knobs.eval.probcut_fit(state, depth)
            && let Some(score) = self.probcut(state, &fit, sigmas, ply, alpha, pacer)
        {
            return score;
        }
        let mut moves = self.buffers.pop().unwrap_or_default();
        state.legal_moves(&mut moves);
        let hint = entry.and_then(|e| e.best_index(moves.len()));
        let mut order = self.orders.pop().unwrap_or_default();
        self.order(state, me, &moves, hint, depth, ply, &mut order);
        let mut best_score = -WIN - 1;
        let mut best_move = None;
        let generated = order.len();
        let (mut k, mut searched) = (0, 0);
        while let Some(&(_, i)) = order.get(k) {
            k += 1;
            let mut child = state.clone();
            child.apply(moves[i as usize]);
            let mark = match self.take(&child, depth - 1, searched > 0 && k <= generated) {
                Take::Later => {
                    order.push((0, i));
                    continue;
                }
                Take::Now(mark) => mark,
            };
            let first = searched == 0;
            let score = self.pvs_child(&child, me, depth - 1, ply + 1, first, alpha, beta, pacer);
            self.leave(mark);
            searched += 1;
            if self.aborted {
                break;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(i as usize);
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        self.buffers.push(moves);
        self.orders.push(order);
        if self.aborted {
            return 0;
        }
        let bound = Bound::of(best_score, original_alpha, beta);
        self.store(state, depth, ply, bound, best_score, best_move);
        best_score
    }

    /// ProbCut at a node of null window `(alpha, alpha + 1)`: the bound
    /// (fail-hard) if a shallow search says with `sigmas` of the fit's
    /// errors that the deep value is on one side of the window, else
    /// `None` (and the node is searched in full).
    #[allow(clippy::too_many_arguments)]
    fn probcut(
        &mut self,
        state: &G,
        pc: &ProbCutFit,
        sigmas: f64,
        ply: u32,
        alpha: i32,
        pacer: &mut Pacer,
    ) -> Option<i32> {
        if pc.slope <= 0.0 {
            return None;
        }
        let beta = alpha + 1;
        let margin = sigmas * pc.sigma * EVAL_SCALE;
        let intercept = pc.intercept * EVAL_SCALE;
        // The shallow values from which the deep one is likely at least
        // beta, or at most alpha.
        let high = ((beta as f64 + margin - intercept) / pc.slope).ceil();
        let low = ((alpha as f64 - margin - intercept) / pc.slope).floor();
        if high < (WIN / 2) as f64 {
            let high = high as i32;
            let score = self.negamax(state, pc.shallow, ply, high - 1, high, pacer);
            if self.aborted {
                return Some(0);
            }
            if score >= high {
                return Some(beta);
            }
        }
        if low > (-WIN / 2) as f64 {
            let low = low as i32;
            let score = self.negamax(state, pc.shallow, ply, low, low + 1, pacer);
            if self.aborted {
                return Some(0);
            }
            if score <= low {
                return Some(alpha);
            }
        }
        None
    }

    /// Searches the root to `depth` in the window `(lo, hi)`; returns the
    /// best move and its score (fail-soft: a score at or below `lo` is an
    /// upper bound and its move means nothing, one at or above `hi` a lower
    /// bound), or `None` if the search was cut off before finishing.
    #[allow(clippy::too_many_arguments)]
    fn root(
        &mut self,
        root: &G,
        me: Seat,
        depth: u32,
        previous: Option<G::Move>,
        (lo, hi): (i32, i32),
        pacer: &mut Pacer,
    ) -> Option<(G::Move, i32)> {
        let mut moves = Vec::new();
        root.legal_moves(&mut moves);
        let hint = previous
            .and_then(|p| moves.iter().position(|&m| m == p))
            .or_else(|| self.probe(root).and_then(|e| e.best_index(moves.len())));
        let mut order = Vec::new();
        self.order(root, me, &moves, hint, depth, 0, &mut order);
        let mut alpha = lo;
        let mut best: Option<(G::Move, i32, usize)> = None;
        let generated = order.len();
        let (mut k, mut searched) = (0, 0);
        while let Some(&(_, i)) = order.get(k) {
            k += 1;
            let mv = moves[i as usize];
            let mut child = root.clone();
            child.apply(mv);
            let mark = match self.take(&child, depth - 1, searched > 0 && k <= generated) {
                Take::Later => {
                    order.push((0, i));
                    continue;
                }
                Take::Now(mark) => mark,
            };
            let score = self.pvs_child(&child, me, depth - 1, 1, searched == 0, alpha, hi, pacer);
            self.leave(mark);
            searched += 1;
            if self.aborted {
                return None;
            }
            if best.is_none_or(|(_, s, _)| score > s) {
                best = Some((mv, score, i as usize));
            }
            alpha = alpha.max(score);
            if alpha >= hi {
                break;
            }
        }
        let (mv, score, i) = best?;
        self.store(root, depth, 0, Bound::of(score, lo, hi), score, Some(i));
        Some((mv, score))
    }

    /// Searches the root to `depth` for the `count` best moves, each to an
    /// exact score (MultiPV): a move is searched in the window above the
    /// `count`th best exact score so far (the whole window until there are
    /// `count`), first with a null window where there are; one that fails
    /// low is not among the best, one that passes is searched to its exact
    /// score. The previous depth's best moves go first. Returns every move
    /// with an exact score, best first (on equal scores, in search order),
    /// or `None` if cut off.
    fn root_multi(
        &mut self,
        root: &G,
        me: Seat,
        depth: u32,
        count: usize,
        pacer: &mut Pacer,
    ) -> Option<Vec<(G::Move, i32)>> {
        let mut moves = Vec::new();
        root.legal_moves(&mut moves);
        let hint = self
            .lines
            .first()
            .and_then(|&(b, _)| moves.iter().position(|&m| m == b))
            .or_else(|| self.probe(root).and_then(|e| e.best_index(moves.len())));
        let mut order = Vec::new();
        self.order(root, me, &moves, hint, depth, 0, &mut order);
        if self.aborted {
            return None;
        }
        let rank = |mv: G::Move| self.lines.iter().position(|&(m, _)| m == mv);
        order.sort_by_key(|&(_, i)| rank(moves[i as usize]).unwrap_or(usize::MAX));
        let open = WIN + 1;
        let mut exact: Vec<(G::Move, i32, usize)> = Vec::new();
        for &(_, i) in &order {
            let mv = moves[i as usize];
            let mut child = root.clone();
            child.apply(mv);
            let enough = exact.len() >= count;
            let alpha = if enough { exact[count - 1].1 } else { -open };
            let mark = match self.take(&child, depth - 1, false) {
                Take::Now(mark) => mark,
                Take::Later => None,
            };
            let score = self.pvs_child(&child, me, depth - 1, 1, !enough, alpha, open, pacer);
            self.leave(mark);
            if self.aborted {
                return None;
            }
            if score > alpha {
                let at = exact.partition_point(|&(_, s, _)| s >= score);
                exact.insert(at, (mv, score, i as usize));
            }
        }
        let &(_, score, i) = exact.first()?;
        self.store(root, depth, 0, Bound::Exact, score, Some(i));
        Some(exact.into_iter().map(|(mv, s, _)| (mv, s)).collect())
    }

    /// Searches the root to `depth` in an aspiration window around
    /// `guess` (the previous depth's score), widening it on the side the
    /// score fell out of until the score lands inside: most depths change
    /// the score little, and a narrow window cuts more. `None` if cut off.
    fn aspirate(
        &mut self,
        root: &G,
        me: Seat,
        depth: u32,
        mut hint: Option<G::Move>,
        guess: Option<i32>,
        pacer: &mut Pacer,
    ) -> Option<(G::Move, i32)> {
        let full = (-WIN - 1, WIN + 1);
        let mut delta = ASPIRATION;
        let (mut lo, mut hi) = match guess {
            Some(g) if depth >= ASPIRATION_DEPTH && g.abs() < WIN / 2 => {
                ((g - delta).max(full.0), (g + delta).min(full.1))
            }
            _ => full,
        };
        loop {
            let (mv, score) = self.root(root, me, depth, hint, (lo, hi), pacer)?;
            // A widening that passes a quarter of the evaluation scale (or
            // a proven score) opens that side fully.
            delta = delta.saturating_mul(4);
            let open = delta > EVAL_SCALE as i32 / 4;
            if score <= lo && lo > full.0 {
                lo = if open || score.abs() > WIN / 2 {
                    full.0
                } else {
                    (score - delta).max(full.0)
                };
            } else if score >= hi && hi < full.1 {
                // The move that failed high is the one to try first again.
                hint = Some(mv);
                hi = if open || score.abs() > WIN / 2 {
                    full.1
                } else {
                    (score + delta).min(full.1)
                };
            } else {
                return Some((mv, score));
            }
        }
    }

    /// Fills `order` with the order in which to search `moves` (the
    /// position's legal moves as generated), as (sort key, generated
    /// index): the table's move (`hint`) first, then, from the depth the
    /// settings say ([`AlphaBeta::with_move_order`]), the others best
    /// first by the evaluation of the position each leads to; else in
    /// generation order, which a helper thread rotates after the first
    /// move, differently by helper and ply.
    #[allow(clippy::too_many_arguments)]
    fn order(
        &mut self,
        state: &G,
        me: Seat,
        moves: &[G::Move],
        hint: Option<usize>,
        depth: u32,
        ply: u32,
        order: &mut Vec<(i32, u32)>,
    ) {
        order.clear();
        order.extend((0..moves.len() as u32).map(|i| (0, i)));
        if let Some(h) = hint.and_then(|h| order.get_mut(h)) {
            h.0 = i32::MAX;
        }
        let rest = moves.len() - hint.is_some() as usize;
        if rest > 1 && self.knobs.order_from.is_some_and(|from| depth >= from) {
            for (key, i) in order.iter_mut() {
                if *key == i32::MAX {
                    continue;
                }
                let mut child = state.clone();
                child.apply(moves[*i as usize]);
                *key = if child.at_horizon() {
                    terminal_score(&child, me, ply + 1)
                } else {
                    self.nodes += 1;
                    match child.turn() {
                        Turn::Player(_) => {
                            (self.knobs.eval.evaluate(&child, me) * EVAL_SCALE) as i32
                        }
                        _ => 0,
                    }
                };
            }
            if self.aborted {
                return;
            }
        }
        // Stable: equal keys keep generation order, so that the order (and
        // so the search) is the same from run to run.
        order.sort_by_key(|&(key, _)| std::cmp::Reverse(key));
        // A helper tries unsorted moves in its own rotated order, so that
        // the threads' searches part ways; sorted ones it keeps, since the
        // evaluation's order is worth more than the spread.
        let start = hint.is_some() as usize;
        let sorted = self.knobs.order_from.is_some_and(|from| depth >= from);
        if self.helper > 0 && rest > 1 && !sorted {
            order[start..].rotate_left((self.helper + ply as usize) % rest);
        }
    }

    /// The lines of a completed iteration whose answer is `result`: the
    /// MultiPV iteration's best moves with their lines, or, for one line,
    /// the answer itself (whose score an aspiration search makes exact).
    fn candidates(
        &self,
        root: &G,
        result: &SearchResult<G::Move>,
        count: usize,
    ) -> Vec<Candidate<G::Move>> {
        if count <= 1 {
            return (count == 1)
                .then(|| Candidate {
                    pv: result.pv.clone(),
                    exact: result.exact,
                    ..Candidate::new(result.best, result.score, result.kind)
                })
                .into_iter()
                .collect();
        }
        self.lines
            .iter()
            .take(count)
            .map(|&(mv, score)| {
                let pv = self.pv(root, mv, result.depth as usize);
                let (kind, exact) = self.root_kind(root, result.depth, score, &pv);
                Candidate {
                    pv,
                    exact,
                    ..Candidate::new(mv, score_to_value(score), kind)
                }
            })
            .collect()
    }

    fn pv(&self, root: &G, first: G::Move, max: usize) -> Vec<G::Move> {
        let mut pv = vec![first];
        let mut state = root.clone();
        state.apply(first);
        let mut moves = Vec::new();
        while pv.len() < max && !state.at_horizon() {
            state.legal_moves(&mut moves);
            match self.probe(&state).and_then(|e| e.best(&moves)) {
                Some(mv) => {
                    pv.push(mv);
                    state.apply(mv);
                }
                _ => break,
            }
        }
        pv
    }

    /// Iterative deepening to `max_depth`; `report` sees each completed
    /// depth. The main thread deepens one ply at a time from 1; a helper
    /// that falls behind catches up to the depth the main thread is on, so
    /// that the threads share each iteration's work (see [`Busy`]).
    fn deepen(
        &mut self,
        root: &G,
        seat: Seat,
        max_depth: u32,
        control: &Control,
        mut report: impl FnMut(&Self, G::Move, i32, u32),
    ) {
        let mut previous = None;
        let mut guess = None;
        let mut pacer = control.pacer(POLL_EVERY);
        if self.knobs.solver.is_some() {
            let time = control
                .deadline()
                .map(|d| d.saturating_duration_since(Instant::now()));
            self.solve_control = Some(Control::new(
                control.stop_flag().clone(),
                &Budget {
                    time,
                    ..Budget::default()
                },
            ));
        }
        let next = |w: &Self, done: u32| match (w.helper, w.iterations) {
            (1.., Some(it)) => (done + 1).max(it.main_depth.load(Ordering::Relaxed)),
            _ => done + 1,
        };
        // How often the best move changed lately (each change counts one,
        // halving with every depth since).
        let mut instability = 0.0;
        // When the last two iterations ended (time since the search began).
        let (mut ended, mut ended_before) = (Duration::ZERO, Duration::ZERO);
        // The nodes of the last two completed iterations, and the count
        // when the last one ended: a node budget is spent as a clock is.
        let (mut iteration_nodes, mut nodes_ended) = ([0u64; 2], self.nodes);
        let mut depth = next(self, self.first_depth.clamp(1, max_depth) - 1);
        while depth <= max_depth {
            if let (0, Some(it)) = (self.helper, self.iterations) {
                it.main_depth.store(depth, Ordering::Relaxed);
            }
            let searched = if self.multipv > 1 {
                let lines = self.root_multi(root, seat, depth, self.multipv, &mut pacer);
                lines.and_then(|lines| {
                    let best = lines.first().copied();
                    self.lines = lines;
                    best
                })
            } else {
                self.aspirate(root, seat, depth, previous, guess, &mut pacer)
            };
            let Some((mv, score)) = searched else {
                break;
            };
            let changed = previous.is_some_and(|p| p != mv);
            let fell = guess.is_some_and(|g| g - score > ASPIRATION / 2);
            previous = Some(mv);
            guess = Some(score);
            if let Some(it) = self.iterations {
                it.complete(Completed {
                    depth,
                    best: mv,
                    score,
                });
            }
            report(self, mv, score, depth);
            // A proven result does not change with depth: a game won on
            // the board, or the solver's value of every root move (a
            // margin proven further down may still grow).
            if score.abs() > BOARD_WIN || self.root_exact(root, depth, score).is_some() {
                break;
            }
            // Under a clock the main thread decides when to stop: a settled
            // move (the same best move depth after depth) stops early, a
            // critical one (the best move changing, the score falling)
            // runs on, up to three times as long.
            instability = instability / 2.0 + f64::from(u8::from(changed));
            let share = 0.4 * (1.0 + instability) * if fell { 1.5 } else { 1.0 };
            // The next iteration costs this one's time times the growth
            // from the one before; one that cannot end before the deadline
            // is not begun.
            let now = control.elapsed();
            let cost = now.saturating_sub(ended);
            let next_cost = cost.mul_f64(growth_of(
                ended.saturating_sub(ended_before).as_secs_f64(),
                cost.as_secs_f64(),
            ));
            (ended_before, ended) = (ended, now);
            iteration_nodes = [iteration_nodes[1], self.nodes - nodes_ended];
            nodes_ended = self.nodes;
            if self.helper == 0
                && (control.past_target(share)
                    || control.would_overrun(next_cost)
                    || self.would_overspend(iteration_nodes))
            {
                break;
            }
            depth = next(self, depth);
        }
    }
}

/// How much more than the last iteration the next one is taken to cost
/// (nodes or time) where the last two do not say: a ply's branching at
/// its most.
const MOST_GROWTH: f64 = 4.0;

/// The growth of an iteration's cost from the one before, as the last
/// two completed iterations measured it (`[before, last]`), within
/// 1.2..=[`MOST_GROWTH`].
fn growth_of(before: f64, last: f64) -> f64 {
    let growth = last / before;
    if growth.is_finite() {
        growth.clamp(1.2, MOST_GROWTH)
    } else {
        MOST_GROWTH
    }
}

/// Whether a node of `size` (by the solver: Othello's empty squares)
/// with `depth` plies left goes to the solver: where the depth reaches
/// the end ([`HANDOFF_SLACK`]).
fn hands_off(size: u32, depth: u32) -> bool {
    depth >= 1 && size <= depth + HANDOFF_SLACK
}

/// The score of a solver's exact margin `m` (for the seat to move): a
/// win `EXACT_WIN + m`, a loss `-EXACT_WIN + m`, a draw 0.
fn exact_score(m: i32) -> i32 {
    let m = m.clamp(-EXACT_SPAN, EXACT_SPAN);
    match m.signum() {
        1 => EXACT_WIN + m,
        -1 => -EXACT_WIN + m,
        _ => 0,
    }
}

/// The margin of a score of [`exact_score`], `None` for any other (an
/// evaluation, a draw, a win on the board).
fn exact_margin(score: i32) -> Option<i32> {
    let m = score.abs() - EXACT_WIN;
    (1..=EXACT_SPAN).contains(&m).then_some(m * score.signum())
}

/// The largest margin whose [`exact_score`] is at most `score`: a
/// window's bound as the solver reads it.
fn margin_at_most(score: i32) -> i32 {
    if score > EXACT_WIN {
        (score - EXACT_WIN).min(EXACT_SPAN)
    } else if score >= 0 {
        0
    } else if score >= -EXACT_WIN {
        -1
    } else {
        (score + EXACT_WIN).max(-EXACT_SPAN)
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

/// What an alpha-beta score is (scores hook): a proven win or loss
/// ([`ScoreKind::Proven`], with the margin its line `pv` from `root` ends
/// the game with, where it reaches the end) or an evaluation.
fn kind_of<G: Game>(
    root: &G,
    score: i32,
    pv: &[G::Move],
    end_margin: Option<fn(&G, Seat) -> i32>,
) -> (ScoreKind, Option<i32>) {
    if score.abs() > WIN / 2 {
        // A line that ends in the solver's hands carries the solved
        // margin; one that ends the game on the board, the margin the
        // solver's rule gives that end (see [`line_margin`]).
        let margin = exact_margin(score).or_else(|| line_margin(root, pv, score > 0, end_margin));
        (ScoreKind::Proven, margin)
    } else {
        (ScoreKind::Eval, None)
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

/// How one search goes, decided from its budget before its threads start
/// ([`AlphaBeta::plan`]) and handed to every worker.
#[derive(Clone, Copy)]
struct Plan {
    /// The deepest iteration.
    max_depth: u32,
    /// An exact depth budget asks for that depth's value, the same on any
    /// number of threads: no ProbCut, and table cutoffs from entries of
    /// that depth only ([`Worker::fixed_depth`]).
    fixed_depth: bool,
    /// ProbCut's sigmas in this search ([`Worker::sigmas`]).
    sigmas: Option<f64>,
    /// The first iteration's depth ([`Worker::first_depth`]).
    first_depth: u32,
}

impl Plan {
    /// A worker of the search this plan is of.
    fn worker<'t, G: Game>(
        self,
        table: &'t SharedTable<'t>,
        knobs: &'t Knobs<G>,
        node_limit: u64,
        buffers: Buffers<G::Move>,
    ) -> Worker<'t, G> {
        let mut w = Worker::new(table, knobs, node_limit, buffers);
        w.fixed_depth = self.fixed_depth;
        w.sigmas = self.sigmas;
        w.first_depth = self.first_depth;
        w
    }
}

impl<G: Game> AlphaBeta<G> {
    /// The plan of a search of `root` under `budget`; or, where a depth
    /// budget reaches the solver from the root, the solve of the root
    /// itself as the answer (`Break`), on the search's threads. A solve
    /// the control stopped leaves the search to start at that depth.
    fn plan(
        &self,
        root: &G,
        budget: &Budget,
        control: &Control,
    ) -> ControlFlow<SearchResult<G::Move>, Plan> {
        let max_depth = budget.depth.unwrap_or(64).max(1);
        // An exact depth budget asks for that depth's value, the same on
        // any number of threads: ProbCut's cuts, and a deeper entry
        // standing in for a shallower search, would depend on what the
        // other threads happened to store first. A selective one searches
        // as a clock does.
        let fixed_depth = budget.depth.is_some() && self.knobs.depth_selectivity.is_none();
        // ProbCut's sigmas: a selective depth budget's own, else the
        // clock's.
        let sigmas = match budget.depth {
            Some(_) => self.knobs.probcut.and(self.knobs.depth_selectivity),
            None => self.knobs.probcut,
        };
        // A depth budget that reaches the solver from the root is the
        // solve: of the root itself, on the search's threads, or, where
        // that was stopped, searched at that depth at once.
        let first_depth = match (budget.depth, self.knobs.solver) {
            (Some(_), Some((s, bytes)))
                if hands_off((s.size)(root), max_depth)
                    && (s.size)(root) <= self.knobs.root_reach =>
            {
                if let Some(solved) = self.solve_root(root, control, s, bytes) {
                    return ControlFlow::Break(solved);
                }
                (1..max_depth)
                    .find(|&d| hands_off((s.size)(root), d))
                    .map_or(1, |d| d + 1)
            }
            _ => 1,
        };
        ControlFlow::Continue(Plan {
            max_depth,
            fixed_depth,
            sigmas,
            first_depth,
        })
    }
}

/// The progress report of an iteration's answer, `elapsed` into the
/// search.
fn progress<G: Game>(root: &G, result: &SearchResult<G::Move>, elapsed: Duration) -> Progress {
    Progress {
        iterations: result.iterations,
        depth: result.depth,
        elapsed,
        best: root.move_text(result.best),
        best_move: Some(MoveHandle::new(result.best)),
        score: result.score,
        kind: result.kind,
        exact: result.exact,
        pv: result.pv.iter().map(|&m| root.move_text(m)).collect(),
        lines: lines_text(root, &result.lines),
    }
}

impl<G: Game> Search<G> for AlphaBeta<G> {
    fn choose(&mut self, ask: Ask<'_, G>) -> SearchResult<G::Move> {
        let (root, seat, budget, control, _) = ask.parts();
        let started = Instant::now();
        let node_limit = budget.iterations.unwrap_or(u64::MAX);
        let plan = match self.plan(root, budget, control) {
            ControlFlow::Continue(plan) => plan,
            ControlFlow::Break(solved) => return solved,
        };
        let mut first = Vec::new();
        root.legal_moves(&mut first);
        let mut result = SearchResult {
            best: first[0],
            score: 0.5,
            kind: ScoreKind::None,
            iterations: 0,
            depth: 0,
            pv: vec![first[0]],
            exact: None,
            lines: Vec::new(),
        };
        let table = SharedTable::new(&mut self.table, self.salt);
        let buffers = (
            std::mem::take(&mut self.buffers),
            std::mem::take(&mut self.orders),
        );
        let done = AtomicBool::new(false);
        let iterations = Iterations::new();
        let busy = (self.threads > 1).then(Busy::new);
        let knobs = &self.knobs;
        let multipv = control.multipv();
        let (main, helper_nodes) = std::thread::scope(|scope| {
            let (table, done, iterations, busy) = (&table, &done, &iterations, busy.as_ref());
            let helpers: Vec<_> = (1..self.threads)
                .filter_map(|helper| {
                    std::thread::Builder::new()
                        .spawn_scoped(scope, move || {
                            let mut w = plan.worker(table, knobs, u64::MAX, Default::default());
                            w.helper = helper;
                            w.share(done, iterations, busy);
                            w.deepen(root, seat, plan.max_depth, control, |_, _, _, _| {});
                            // A helper that completed the last depth ends
                            // the search: the main thread would only
                            // complete it again (not under MultiPV: the
                            // lines are the main thread's).
                            if multipv <= 1
                                && iterations
                                    .deepest()
                                    .is_some_and(|d| d.depth >= plan.max_depth)
                            {
                                done.store(true, Ordering::Relaxed);
                            }
                            w.nodes
                        })
                        .ok()
                })
                .collect();
            let mut main = plan.worker(table, knobs, node_limit, buffers);
            main.multipv = multipv;
            if self.threads > 1 {
                main.share(done, iterations, busy);
            }
            let mut main_proven = false;
            main.deepen(
                root,
                seat,
                plan.max_depth,
                control,
                |w, mv, score, depth| {
                    main_proven = score.abs() > WIN / 2;
                    result = w.answer(root, mv, score, depth);
                    if control.has_reporter() {
                        control.report(&progress(root, &result, started.elapsed()));
                    }
                },
            );
            done.store(true, Ordering::Relaxed);
            let helper_nodes: u64 = helpers.into_iter().filter_map(|h| h.join().ok()).sum();
            // A helper that completed a deeper iteration than the main
            // thread knows better: its move is played, unless the main
            // thread proved its result (a deeper search with ProbCut may
            // prune the proof away).
            // (Not under MultiPV: the lines are the main thread's.)
            if let Some(d) = iterations.deepest()
                && d.depth > result.depth
                && !main_proven
                && multipv <= 1
            {
                result = main.answer(root, d.best, d.score, d.depth);
            }
            (main, helper_nodes)
        });
        self.buffers = main.buffers;
        self.orders = main.orders;
        // Every thread's nodes: the work the search did.
        result.iterations = main.nodes + helper_nodes;
        result
    }

    fn reset(&mut self) {
        self.clearings += 1;
        self.salt = salt(self.clearings);
    }

    /// Iterative deepening: it may end after any iteration, so it aims for
    /// the target and runs on towards the limit on a critical move (the
    /// stop policy in `deepen`), and a depth ends it.
    fn time_use(&self) -> crate::control::TimeUse {
        crate::control::TimeUse {
            manages_time: true,
            ends_at_depth: true,
        }
    }
}

#[cfg(test)]
mod value_tests {
    use super::*;
    use crate::control::{Budget, Control};
    use crate::games::othello::{Othello, random_position};
    use crate::model::game::Rng;
    use rand::SeedableRng;

    /// Plain minimax to `depth`, scored as the search scores: what every
    /// pruning, window and ordering must give back at the root.
    fn minimax(state: &Othello, me: Seat, depth: u32, ply: u32) -> i32 {
        if state.at_horizon() {
            return terminal_score(state, me, ply);
        }
        let Turn::Player(mover) = state.turn() else {
            return 0;
        };
        if depth == 0 {
            return (state.evaluate(me) * EVAL_SCALE) as i32;
        }
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        let values = moves.iter().map(|&mv| {
            let mut child = *state;
            child.apply(mv);
            minimax(&child, me, depth - 1, ply + 1)
        });
        if mover == me {
            values.max().unwrap_or(0)
        } else {
            values.min().unwrap_or(0)
        }
    }

    /// Midgame positions `plies` random moves from the start (passes
    /// aside), ProbCut off: the search must be exact.
    fn positions(count: u64, plies: u32) -> Vec<Othello> {
        (0..count)
            .map(|seed| random_position(seed, 60 - plies))
            .filter(|s| !s.is_over())
            .collect()
    }

    /// Alpha-beta as Othello's tuning row sets it (moves sorted from 3
    /// plies left), ProbCut on or off.
    fn othello_search(mib: u64, probcut: bool) -> AlphaBeta<Othello> {
        AlphaBeta::<Othello>::new(mib)
            .with_move_order(Some(3))
            .with_probcut(probcut.then_some(1.5))
    }

    fn search_value(state: &Othello, depth: u32) -> SearchResult<u8> {
        search_value_on(state, depth, 1, false)
    }

    fn search_value_on(
        state: &Othello,
        depth: u32,
        threads: usize,
        probcut: bool,
    ) -> SearchResult<u8> {
        let Turn::Player(seat) = state.turn() else {
            unreachable!("positions are not over")
        };
        let mut search = othello_search(4, probcut).with_threads(threads);
        let budget = Budget {
            depth: Some(depth),
            ..Budget::default()
        };
        search.search(
            state,
            seat,
            &budget,
            &Control::unlimited(),
            &mut Rng::seed_from_u64(0),
        )
    }

    /// Iterative deepening of `state` to `depth` on one thread as under a
    /// clock (no depth budget, so ProbCut as asked): the
    /// best move, its score and the nodes.
    fn deepened(state: &Othello, depth: u32, probcut: bool) -> (u8, i32, u64) {
        let Turn::Player(seat) = state.turn() else {
            unreachable!("positions are not over")
        };
        let mut search = othello_search(4, probcut);
        let table = SharedTable::new(&mut search.table, search.salt);
        let mut w =
            Worker::<Othello>::new(&table, &search.knobs, u64::MAX, (Vec::new(), Vec::new()));
        let mut last = None;
        w.deepen(
            state,
            seat,
            depth,
            &Control::unlimited(),
            |_, mv, score, _| {
                last = Some((mv, score));
            },
        );
        let (mv, score) = last.expect("depth 1 at least");
        (mv, score, w.nodes)
    }

    #[test]
    fn probcut_prunes_and_is_deterministic() {
        // ProbCut on: fewer nodes to the same depth over a few positions,
        // the same reply and node count run after run; off: exactly the
        // search without it (the minimax test below).
        let (mut on, mut off) = (0, 0);
        for s in positions(6, 20) {
            let a = deepened(&s, 8, true);
            let b = deepened(&s, 8, true);
            assert_eq!(a, b);
            assert!(s.is_legal(a.0));
            on += a.2;
            off += deepened(&s, 8, false).2;
        }
        assert!(on < off, "ProbCut searched {on} nodes, without {off}");
    }

    #[test]
    fn a_depth_budget_searches_without_probcut() {
        // The depth's own value, on any number of threads: the search with
        // ProbCut on is the search without it, node for node.
        for s in positions(4, 20) {
            let on = search_value_on(&s, 6, 1, true);
            let off = search_value(&s, 6);
            assert_eq!(
                (on.best, on.score, on.iterations),
                (off.best, off.score, off.iterations)
            );
        }
    }

    #[test]
    fn a_selective_depth_budget_searches_as_a_clock_does() {
        // Under `selectivity` (ProbCut at the sigmas given), a depth
        // budget is the clock's iterative deepening stopped at that depth:
        // the same move, score and nodes, and far fewer nodes than the
        // exact depth; at 0 sigmas it cuts more than at 1.5.
        let (mut selective, mut exact, mut bolder) = (0, 0, 0);
        for s in positions(4, 20) {
            let Turn::Player(seat) = s.turn() else {
                continue;
            };
            let run = |sigmas: Option<f64>| {
                let mut search = othello_search(4, true).with_depth_selectivity(sigmas);
                let budget = Budget {
                    depth: Some(8),
                    ..Budget::default()
                };
                search.search(
                    &s,
                    seat,
                    &budget,
                    &Control::unlimited(),
                    &mut Rng::seed_from_u64(0),
                )
            };
            let r = run(Some(1.5));
            let (mv, score, nodes) = deepened(&s, 8, true);
            assert_eq!(
                (r.best, r.score, r.iterations),
                (mv, score_to_value(score), nodes)
            );
            selective += r.iterations;
            exact += run(None).iterations;
            bolder += run(Some(0.0)).iterations;
        }
        assert!(
            selective * 2 < exact,
            "selective {selective} nodes, exact {exact}"
        );
        assert!(
            bolder < selective,
            "0 sigmas {bolder} nodes, 1.5 sigmas {selective}"
        );
    }

    #[test]
    fn the_root_value_at_a_fixed_depth_is_the_minimax_value() {
        // PVS, aspiration windows and the move ordering only prune: at a
        // fixed depth the root's value is the plain minimax value (passes
        // make no transposition across depths in a fresh table here).
        for (i, s) in positions(12, 20).iter().enumerate() {
            let Turn::Player(me) = s.turn() else { continue };
            for depth in [3, 5] {
                let r = search_value(s, depth);
                let want = score_to_value(minimax(s, me, depth, 0));
                assert_eq!(r.score, want, "position {i} depth {depth}");
                assert!(s.is_legal(r.best));
            }
        }
    }
    #[test]
    fn several_threads_find_the_minimax_value_too() {
        // The threads share the table and put off each other's moves: every
        // move is still searched, so at a fixed depth the root's value is
        // the minimax value whichever thread completed the iteration.
        for (i, s) in positions(6, 24).iter().enumerate() {
            let Turn::Player(me) = s.turn() else { continue };
            let want = score_to_value(minimax(s, me, 6, 0));
            for threads in [2, 3] {
                let r = search_value_on(s, 6, threads, false);
                assert_eq!(r.score, want, "position {i}, {threads} threads");
                assert!(s.is_legal(r.best));
            }
        }
    }

    #[test]
    fn exact_scores_keep_their_margin_and_order() {
        // Every margin's score is proven (past WIN / 2) but for a draw,
        // short of a win on the board, ordered as the margins are, and
        // read back; a window's bounds convert to the margins whose
        // scores fall on the same side.
        for m in -70..=70 {
            let s = exact_score(m);
            assert_eq!(exact_margin(s), (m != 0).then_some(m), "{m}");
            assert!(exact_score(m + 1) > s);
            assert!(s.abs() < BOARD_WIN && (m == 0 || s.abs() > WIN / 2));
        }
        for bound in [
            -EXACT_WIN - 9,
            -EXACT_WIN - 1,
            -EXACT_WIN,
            -3,
            -1,
            0,
            1,
            700,
        ] {
            for bound in [bound, -bound, bound + EXACT_WIN + 5, -WIN + 5, WIN - 5] {
                // (Below every margin's score: the least, which no
                // margin is at or below.)
                let lo = margin_at_most(bound);
                assert!(lo == EXACT_SPAN || exact_score(lo + 1) > bound, "{bound}");
                assert!(exact_score(lo) <= bound || lo == -EXACT_SPAN, "{bound}");
            }
        }
        assert_eq!(exact_margin(WIN - 3), None);
        assert_eq!(exact_margin(1234), None);
    }

    /// Othello's tuned search with its solver handed the nodes near the
    /// end (as the engine builds it), or without.
    fn handing_off(solver: bool, fixed: bool) -> AlphaBeta<Othello> {
        othello_search(4, true)
            .with_depth_selectivity((!fixed).then_some(1.0))
            .with_solver(solver.then_some(crate::games::othello::SOLVER), 1 << 20, 24)
    }

    /// The exact margin for `seat` of `s`, solved.
    fn margin_for(s: &Othello, seat: Seat) -> i32 {
        match s.solve(&Control::unlimited(), 1 << 20) {
            Some((_, v)) if s.side_to_move() == seat => v,
            Some((_, v)) => -v,
            None if seat == crate::games::othello::BLACK => s.final_margins().1,
            None => -s.final_margins().1,
        }
    }

    #[test]
    fn a_depth_to_the_end_is_the_solvers_exact_value() {
        // 18 empties, depth 18, under a node budget of 2 M: with the
        // solver the root is solved, its margin reported as exact and its
        // move keeping it, on either kind of depth; without, alpha-beta
        // runs out of nodes before depth 18 (it needs 8.6 M and 9.9 M
        // here) and knows no margin (every win scores alike).
        for seed in [1, 2] {
            let s = random_position(seed, 18);
            let Turn::Player(seat) = s.turn() else {
                unreachable!("not over")
            };
            let margin = margin_for(&s, seat);
            let budget = Budget {
                depth: Some(18),
                iterations: Some(2_000_000),
                ..Budget::default()
            };
            for fixed in [true, false] {
                let mut rng = Rng::seed_from_u64(0);
                let r = handing_off(true, fixed).search(
                    &s,
                    seat,
                    &budget,
                    &Control::unlimited(),
                    &mut rng,
                );
                assert_eq!(r.exact, Some(margin), "seed {seed}");
                assert_eq!((r.kind, r.depth), (ScoreKind::Exact, 18));
                let mut after = s;
                after.apply(r.best);
                assert_eq!(margin_for(&after, seat), margin, "seed {seed}");
            }
            let r = handing_off(false, true).search(
                &s,
                seat,
                &budget,
                &Control::unlimited(),
                &mut Rng::seed_from_u64(0),
            );
            assert!(r.depth < 18 && r.exact.is_none(), "seed {seed}: {r:?}");
        }
    }

    #[test]
    fn a_root_solved_whole_reports_its_move_typed() {
        // An early answer plays the report's typed move, never its text:
        // the solver's report of the root must carry it, as every other.
        let s = random_position(1, 14);
        let Turn::Player(seat) = s.turn() else {
            unreachable!("not over")
        };
        let seen = std::sync::Mutex::new(Vec::new());
        let listen = |p: &Progress| {
            if let Ok(mut v) = seen.lock() {
                v.push((p.kind, p.best.clone(), p.best_move.clone()));
            }
        };
        let control = Control::unlimited().with_reporter(&listen);
        let budget = Budget {
            depth: Some(14),
            ..Budget::default()
        };
        let r =
            handing_off(true, true).search(&s, seat, &budget, &control, &mut Rng::seed_from_u64(0));
        assert_eq!(r.kind, ScoreKind::Exact);
        let seen = seen.into_inner().unwrap_or_default();
        let exact: Vec<_> = seen
            .iter()
            .filter(|(k, _, _)| *k == ScoreKind::Exact)
            .collect();
        assert!(
            !exact.is_empty(),
            "no exact report in {} reports",
            seen.len()
        );
        for (_, text, handle) in exact {
            let typed = handle
                .as_ref()
                .and_then(|h| h.get::<crate::games::othello::Move>());
            assert_eq!(typed, Some(r.best), "report {text}");
            assert_eq!(*text, s.move_text(r.best));
        }
    }

    #[test]
    fn iterative_deepening_hands_the_nodes_at_the_end_to_the_solver() {
        // No budget (a clock's deepening): the first iteration whose
        // depth reaches the end hands every root move to the solver, and
        // its exact margin ends the search; the table's solved entries
        // answer the whole window's search after a null window's.
        for seed in 0..3 {
            let s = random_position(seed, 16);
            let Turn::Player(seat) = s.turn() else {
                unreachable!("not over")
            };
            let r = handing_off(true, false).search(
                &s,
                seat,
                &Budget::default(),
                &Control::unlimited(),
                &mut Rng::seed_from_u64(0),
            );
            assert_eq!(r.exact, Some(margin_for(&s, seat)), "seed {seed}");
            assert_eq!(r.kind, ScoreKind::Exact);
            assert!(r.depth <= 16, "seed {seed}: depth {}", r.depth);
            assert!(s.is_legal(r.best));
        }
    }

    #[test]
    fn a_busy_mark_is_seen_until_its_thread_leaves() {
        let busy = Busy::new();
        let (a, b) = (0x1234_5678_9abc_def0, 7);
        assert!(!busy.is_busy(a));
        busy.enter(a);
        assert!(busy.is_busy(a) && !busy.is_busy(b));
        busy.leave(a);
        assert!(!busy.is_busy(a));
        // A key that shares a's slot takes it over; a's leaving then
        // leaves the other's mark alone.
        let c = a ^ (1 << 40);
        busy.enter(a);
        busy.enter(c);
        busy.leave(a);
        assert!(busy.is_busy(c) && !busy.is_busy(a));
    }
}

#[cfg(test)]
mod time_tests {
    use super::*;
    use crate::control::{Budget, Control};
    use crate::games::othello::random_position;
    use crate::model::game::Rng;
    use rand::SeedableRng;
    use std::time::Duration;

    /// The time a search of `state` takes under `budget`.
    fn timed(state: &crate::games::othello::Othello, budget: &Budget) -> Duration {
        let Turn::Player(seat) = state.turn() else {
            unreachable!("the position is not over")
        };
        let control = Control::new(Default::default(), budget);
        let started = Instant::now();
        AlphaBeta::new(4).search(state, seat, budget, &control, &mut Rng::seed_from_u64(0));
        started.elapsed()
    }

    #[test]
    fn a_target_ends_the_move_long_before_the_limit() {
        // A midgame position, far from a solve: with no target the search
        // spends its whole second; with a 20 ms target it stops near it
        // (at most three targets, plus the iteration under way when the
        // share ran out, which it expected to end in time).
        let state = random_position(3, 40);
        let limit = Duration::from_secs(1);
        let spent = timed(
            &state,
            &Budget {
                time: Some(limit),
                ..Budget::default()
            },
        );
        assert!(spent >= limit - Duration::from_millis(5), "{spent:?}");
        let spent = timed(
            &state,
            &Budget {
                time: Some(limit),
                target: Some(Duration::from_millis(20)),
                ..Budget::default()
            },
        );
        assert!(spent < limit / 2, "{spent:?}");
    }
}
