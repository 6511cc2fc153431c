//! What the threads of one solve share: the table, the control and the
//! split on offer, and the split itself as the threads work on it. The
//! kernels' entry points and the sharing out (split.rs) both stand on
//! these types.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicPtr, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use super::table::SeqlockTable;
use super::Child;
use crate::control::Control;
use crate::games::othello::pattern::Weights;

/// What the threads of one solve share: the table, the control, the
/// split on offer to a waiting thread and the count of those waiting.
pub(super) struct SolveShared<'s, 'a> {
    pub(super) table: SeqlockTable<'s>,
    pub(super) control: &'s Control<'a>,
    /// Threads waiting for work: helpers between splits, and threads
    /// whose split waits for a helper's last child.
    pub(super) waiting: AtomicUsize,
    /// A split a waiting thread may join (null: none). It points into the
    /// stack of the thread that offered it, which takes it back, or waits
    /// until the thread that took it is done with it, before it returns.
    pub(super) offer: AtomicPtr<Job>,
    /// The root search is over: helpers leave.
    pub(super) finished: AtomicBool,
    /// Fewest empties where moves are ordered by the evaluation
    /// ([`super::EVAL_ORDER_EMPTIES`]; tests raise it to compare).
    pub(super) eval_from: u32,
    /// The evaluation that orders them.
    pub(super) weights: Option<&'static Weights>,
}

impl SolveShared<'_, '_> {
    /// The split on offer, taken (null if none).
    #[inline]
    pub(super) fn take(&self) -> *const Job {
        if self.offer.load(Ordering::Relaxed).is_null() {
            return std::ptr::null();
        }
        self.offer.swap(std::ptr::null_mut(), Ordering::Acquire)
    }

    /// A short pause of a thread that waits, `spins` pauses since it last
    /// had work: it spins at first (a split is taken within microseconds),
    /// then sleeps, so that a long wait leaves the core to the threads
    /// that work (on a busy machine, they may share one).
    pub(super) fn pause(spins: &mut u32) {
        *spins = spins.saturating_add(1);
        if *spins > 4096 {
            std::thread::sleep(std::time::Duration::from_micros(50));
        } else if spins.is_multiple_of(64) {
            std::thread::yield_now();
        } else {
            std::hint::spin_loop();
        }
    }
}

/// A node whose younger children are searched by several threads
/// (young brothers wait: the first few children are searched alone, and
/// their score bounds the others' windows).
pub(super) struct Split {
    /// The next child to hand out.
    pub(super) next: AtomicUsize,
    /// The best score so far, for the windows (read without the lock).
    pub(super) score: AtomicI32,
    /// The best score and move so far.
    pub(super) best: Mutex<(i32, u8)>,
    /// Raised by a child that refutes the node: the others stop.
    pub(super) cutoff: Arc<AtomicBool>,
}

/// A split as offered to one helper: the children, the window, and what
/// the helper hands back.
pub(super) struct Job {
    pub(super) split: Split,
    pub(super) rest: *const Child,
    pub(super) len: usize,
    pub(super) alpha: i32,
    pub(super) beta: i32,
    pub(super) n: u32,
    /// The cutoff flags the helper works under: the offering thread's and
    /// the split's.
    pub(super) cutoffs: Vec<Arc<AtomicBool>>,
    pub(super) nodes: AtomicU64,
    pub(super) stopped: AtomicBool,
    /// Set by the helper when it no longer touches the job.
    pub(super) done: AtomicBool,
}
