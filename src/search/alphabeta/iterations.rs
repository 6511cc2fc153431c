//! Lazy SMP's result board: what the threads of one search tell each
//! other of their iterative deepening.

use std::sync::Mutex;
use std::sync::atomic::AtomicU32;

/// What the threads of one search tell each other of their iterative
/// deepening: the depth the main thread is on, which a helper that falls
/// behind catches up to, and the deepest iteration any thread has
/// completed, whose move the search plays when it ends.
pub(super) struct Iterations<M> {
    pub(super) main_depth: AtomicU32,
    deepest: Mutex<Option<Completed<M>>>,
}

/// An iteration one thread completed: its depth, best move and score.
#[derive(Clone, Copy)]
pub(super) struct Completed<M> {
    pub(super) depth: u32,
    pub(super) best: M,
    pub(super) score: i32,
}

impl<M: Copy> Iterations<M> {
    pub(super) fn new() -> Iterations<M> {
        Iterations {
            main_depth: AtomicU32::new(0),
            deepest: Mutex::new(None),
        }
    }

    /// Records a completed iteration; a deeper one replaces the one held
    /// (at equal depth the first to finish stays).
    pub(super) fn complete(&self, done: Completed<M>) {
        if let Ok(mut deepest) = self.deepest.lock()
            && deepest.is_none_or(|d| done.depth > d.depth)
        {
            *deepest = Some(done);
        }
    }

    pub(super) fn deepest(&self) -> Option<Completed<M>> {
        self.deepest.lock().ok().and_then(|d| *d)
    }
}
