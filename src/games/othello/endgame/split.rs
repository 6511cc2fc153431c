//! The solver's threads: a node's younger children are shared out with
//! threads that wait for work (young brothers wait), each split offered
//! on one shared slot and searched child by child by whoever takes part.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use super::kernel::Kernel;
use super::shared::{Job, SolveShared, Split};
use super::{Child, Root, SolveThread, solve_root};

/// Fewest empties at which a node's younger children are shared out with a
/// waiting thread: below it, a subtree is too small to be worth the
/// hand-over.
pub(super) const SPLIT_EMPTIES: u32 = 12;
/// Children searched alone before the rest are shared out: a node whose
/// first children did not refute it is almost surely one where every
/// child must be searched, so that little of the threads' work is wasted.
/// Measured on two threads, FFO #40-#44 (`tabula bench --ffo-count 5
/// --threads 2`, speed-up over one thread): with the moves ordered by
/// the evaluation, sharing after two children at 12 empties gave 1.78x,
/// after one 1.78-1.81x (2-5% more nodes), after four at 14 empties (the
/// setting of before the evaluation ordered the moves) 1.52-1.57x, the
/// second thread idle a fifth of the time.
pub(super) const YOUNG_BROTHERS: usize = 2;

/// Solves on the table of `shared` on the copy of the search `K`, with
/// `control.threads() - 1` helpers that wait for splits.
pub(super) fn solve_shared<K: Kernel>(
    p: u64,
    o: u64,
    shared: &SolveShared,
    what: Root,
) -> Option<(Vec<(u8, i32)>, u64)> {
    if !K::available() {
        return None;
    }
    std::thread::scope(|scope| {
        for _ in 1..shared.control.threads() {
            // A helper that cannot be started is one fewer.
            let _ = std::thread::Builder::new().spawn_scoped(scope, move || {
                // SAFETY: the CPU runs `K` (checked above).
                unsafe { K::helper(shared) }
            });
        }
        let r = solve_root::<K>(p, o, shared, what);
        shared.finished.store(true, Ordering::Relaxed);
        r
    })
}

impl<K: Kernel> SolveThread<'_, '_, K> {
    /// Offers the children `rest` of a node to a waiting thread and
    /// searches them with it; `first` is the best score and move of the
    /// children searched so far. `None` if another split is on offer.
    #[inline(always)]
    pub(super) fn split(
        &mut self,
        rest: &[Child],
        alpha: i32,
        beta: i32,
        n: u32,
        first: (i32, u8),
    ) -> Option<(i32, u8)> {
        let shared = self.shared;
        let cutoff = Arc::new(AtomicBool::new(false));
        let mut cutoffs = self.cutoffs.clone();
        cutoffs.push(cutoff.clone());
        let job = Job {
            split: Split {
                next: AtomicUsize::new(0),
                score: AtomicI32::new(first.0),
                best: Mutex::new(first),
                cutoff,
            },
            rest: rest.as_ptr(),
            len: rest.len(),
            alpha,
            beta,
            n,
            cutoffs,
            nodes: AtomicU64::new(0),
            stopped: AtomicBool::new(false),
            done: AtomicBool::new(false),
        };
        let offered = &job as *const Job as *mut Job;
        shared
            .offer
            .compare_exchange(std::ptr::null_mut(), offered, Ordering::Release, Ordering::Relaxed)
            .ok()?;
        self.cutoffs.push(job.split.cutoff.clone());
        self.work(&job.split, rest, alpha, beta, n);
        self.cutoffs.pop();
        let taken = shared
            .offer
            .compare_exchange(offered, std::ptr::null_mut(), Ordering::Relaxed, Ordering::Relaxed)
            .is_err();
        if taken {
            // A helper has it: help with other splits until it is done.
            Self::join_offers_until(shared, || job.done.load(Ordering::Acquire));
            self.nodes += job.nodes.load(Ordering::Relaxed);
            self.stopped |= job.stopped.load(Ordering::Relaxed);
        }
        self.aborted = false;
        self.check_cutoffs();
        job.split.best.into_inner().ok()
    }

    /// A helper thread: joins the splits on offer until the solve is over.
    #[inline(always)]
    pub(super) fn helper_body(shared: &SolveShared) {
        Self::join_offers_until(shared, || shared.finished.load(Ordering::Relaxed));
    }

    /// Waits for work, counted among the waiting threads, and joins each
    /// split on offer until `over` holds: a helper until the solve is
    /// over, a thread whose split a helper took until that helper is done.
    /// Called only on this copy's CPU (from its entry points).
    #[inline(always)]
    fn join_offers_until(shared: &SolveShared, over: impl Fn() -> bool) {
        shared.waiting.fetch_add(1, Ordering::Relaxed);
        let mut spins = 0;
        while !over() {
            let job = shared.take();
            if job.is_null() {
                SolveShared::pause(&mut spins);
                continue;
            }
            shared.waiting.fetch_sub(1, Ordering::Relaxed);
            // SAFETY: a taken job stays alive until its `done` is set,
            // which only its taker does; the CPU has this copy's features
            // (this thread runs it already).
            unsafe { K::join(shared, job) };
            shared.waiting.fetch_add(1, Ordering::Relaxed);
            spins = 0;
        }
        shared.waiting.fetch_sub(1, Ordering::Relaxed);
    }

    /// Works on the taken `job` as a helper, hands back its counts and
    /// lets the job go.
    ///
    /// # Safety
    ///
    /// `job` was taken from the offer (by this thread alone) and not yet
    /// let go: its owner keeps it alive until `done` is set.
    #[inline(always)]
    pub(super) unsafe fn join_body(shared: &SolveShared, job: *const Job) {
        // SAFETY: alive until `done` is set below (the caller's promise).
        let job = unsafe { &*job };
        // SAFETY: `rest` and `len` describe the owner's child list, alive
        // as long as the job.
        let rest = unsafe { std::slice::from_raw_parts(job.rest, job.len) };
        let mut helper = SolveThread::<K>::new(shared, job.cutoffs.clone());
        helper.work(&job.split, rest, job.alpha, job.beta, job.n);
        job.nodes.store(helper.nodes, Ordering::Relaxed);
        job.stopped.store(helper.stopped, Ordering::Relaxed);
        job.done.store(true, Ordering::Release);
    }

    /// One thread's share of a split: children taken one at a time until
    /// none is left or one refutes the node.
    #[inline(always)]
    fn work(&mut self, split: &Split, rest: &[Child], alpha: i32, beta: i32, n: u32) {
        loop {
            let i = split.next.fetch_add(1, Ordering::Relaxed);
            let Some(c) = rest.get(i) else { break };
            let a = alpha.max(split.score.load(Ordering::Relaxed));
            let v = self.younger(c, a, beta, n);
            self.check_cutoffs();
            if self.halted() {
                break;
            }
            if let Ok(mut best) = split.best.lock()
                && v > best.0
            {
                *best = (v, c.sq);
                split.score.store(v, Ordering::Relaxed);
                if v >= beta {
                    split.cutoff.store(true, Ordering::Relaxed);
                }
            }
        }
    }
}
