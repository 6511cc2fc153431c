//! Simplified ABDADA: the positions the threads of a search are in, so
//! that they split a node's moves instead of searching the same ones.

use std::sync::atomic::{AtomicU64, Ordering};

/// The positions threads are searching right now (simplified ABDADA): a
/// thread about to search a move other than a node's first, deep enough
/// to matter, puts it off to the end of the node's list when another
/// thread is already in it, so that threads on the same iteration split a
/// node's moves between them instead of searching the same ones twice.
/// A slot holds one key; two positions in one slot only make a move wait
/// that need not (or not wait), never a wrong score.
pub(super) struct Busy {
    keys: Box<[AtomicU64]>,
}

/// Slots of [`Busy`]: far more than the positions the threads can be in
/// at once (a few per ply each).
const BUSY_SLOTS: usize = 1 << 14;

/// The fewest plies a child must be searched to for the threads to mark
/// it busy: shallower ones cost less than the table's traffic.
pub(super) const BUSY_DEPTH: u32 = 2;

impl Busy {
    pub(super) fn new() -> Busy {
        Busy {
            keys: (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    pub(super) fn slot(&self, key: u64) -> &AtomicU64 {
        &self.keys[(key as usize) & (BUSY_SLOTS - 1)]
    }

    pub(super) fn is_busy(&self, key: u64) -> bool {
        self.slot(key).load(Ordering::Relaxed) == key
    }

    pub(super) fn enter(&self, key: u64) {
        self.slot(key).store(key, Ordering::Relaxed);
    }

    /// Clears the mark of `key`, unless another position has taken the
    /// slot since.
    pub(super) fn leave(&self, key: u64) {
        let _ = self
            .slot(key)
            .compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

/// What to do with a node's next move, with several threads (see [`Busy`]).
pub(super) enum Take {
    /// Another thread is in it: search it after the node's other moves.
    Later,
    /// Search it now, marked busy under this key meanwhile, if any.
    Now(Option<u64>),
}
