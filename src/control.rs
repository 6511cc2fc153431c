//! What a search may spend and how it is steered from outside: the
//! [`Budget`], the [`Control`] a search polls (stop flag, deadline,
//! progress callback) and the [`Progress`] it reports.
//!
//! This sits below both the game model (an exact solver is a game hook
//! that polls a `Control`) and the searches, so that neither imports the
//! other for it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// What a search may spend. Every limit that is set applies; the search
/// stops at the first one reached (or when stopped from outside).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Iterations (playouts, simulations, or nodes for alpha-beta).
    pub iterations: Option<u64>,
    /// Wall-clock time.
    pub time: Option<Duration>,
    /// Search depth in plies (alpha-beta, recursive UCB1).
    pub depth: Option<u32>,
}

/// A progress report, sent while a search runs (for `analyze`).
#[derive(Clone, Debug, Default)]
pub struct Progress {
    /// Iterations (or nodes) so far.
    pub iterations: u64,
    /// Completed depth (alpha-beta) or tree depth (MCTS).
    pub depth: u32,
    /// Time spent.
    pub elapsed: Duration,
    /// The best move so far, as text.
    pub best: String,
    /// Its value for the deciding seat: win rate in `[0, 1]` or an
    /// evaluation, depending on the search.
    pub score: f64,
    /// The principal variation, as move texts.
    pub pv: Vec<String>,
}

/// The control a search polls: the stop flag and deadline, and where to
/// send progress.
pub struct Control<'a> {
    stop: Arc<AtomicBool>,
    start: Instant,
    deadline: Option<Instant>,
    report: Option<&'a (dyn Fn(&Progress) + Sync)>,
}

impl<'a> Control<'a> {
    /// A control with a shared stop flag; the deadline is `now + budget.time`.
    pub fn new(stop: Arc<AtomicBool>, budget: &Budget) -> Control<'a> {
        Control::starting_at(stop, budget, Instant::now())
    }

    /// A control whose time started at `start` (when the command arrived,
    /// so that time spent queued counts against the budget).
    pub fn starting_at(stop: Arc<AtomicBool>, budget: &Budget, start: Instant) -> Control<'a> {
        Control {
            stop,
            start,
            deadline: budget.time.map(|t| start + t),
            report: None,
        }
    }

    /// A control that never stops by itself (tests, tools).
    pub fn unlimited() -> Control<'a> {
        Control::new(Arc::new(AtomicBool::new(false)), &Budget::default())
    }

    /// Sends progress reports to `report`.
    pub fn with_reporter(mut self, report: &'a (dyn Fn(&Progress) + Sync)) -> Control<'a> {
        self.report = Some(report);
        self
    }

    /// Whether the search must stop now (stop flag or deadline). Cheap
    /// enough for every few hundred nodes, not for every node.
    pub fn should_stop(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Whether the stop flag (not the deadline) was raised.
    pub fn stopped_from_outside(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The shared stop flag (for helper threads).
    pub fn stop_flag(&self) -> &Arc<AtomicBool> {
        &self.stop
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The deadline, if any.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// Sends a progress report, if anyone listens.
    pub fn report(&self, progress: &Progress) {
        if let Some(r) = self.report {
            r(progress);
        }
    }

    /// Whether anyone listens to progress.
    pub fn has_reporter(&self) -> bool {
        self.report.is_some()
    }
}
