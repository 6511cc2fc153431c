//! Searches, generic over the [`Game`] trait and monomorphised per game.
//!
//! A search never prints and never knows which game it plays. It gets the
//! root state, the seat it decides for, a [`Budget`] and a [`Control`]
//! (stop flag, deadline, progress callback), and returns a [`SearchResult`].
//! Searches for hidden-information games only look at states drawn by
//! [`Game::determinize`] for the deciding seat.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::game::{Game, Rng, Seat};

pub mod alphabeta;
pub mod ismcts;
pub mod mcts;
pub mod pimc;
pub mod playout;
pub mod simple;
#[cfg(test)]
mod tests;
pub mod tree;

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

/// The answer of a search.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// The move to play.
    pub best: M,
    /// Its value for the deciding seat (see [`Progress::score`]).
    pub score: f64,
    /// Iterations (or nodes) spent.
    pub iterations: u64,
    /// Depth reached.
    pub depth: u32,
    /// The principal variation, starting with `best`.
    pub pv: Vec<M>,
}

/// A search algorithm for game `G`.
pub trait Search<G: Game> {
    /// Chooses a move for `seat`, who is to move in `root`.
    /// `root` has at least one legal move.
    fn search(
        &mut self,
        root: &G,
        seat: Seat,
        budget: &Budget,
        control: &Control,
        rng: &mut Rng,
    ) -> SearchResult<G::Move>;

    /// Called after a move is played on the engine's board, so a search can
    /// keep what it learned (tree reuse). The default forgets everything.
    fn advance(&mut self, _played: G::Move) {}

    /// Forgets everything (new game, position set, undo).
    fn reset(&mut self) {}
}

/// `ln(x)` for `x >= 1` within 1e-5: the exponent plus a quintic for the
/// mantissa. The exploration term is computed for every available edge at
/// every visit, and libm's `ln` was a visible share of the search time (here and in MCTS).
pub(crate) fn fast_ln(x: f64) -> f64 {
    let bits = x.to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as i64 - 1023;
    let t = f64::from_bits((bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000) - 1.0;
    let ln_mantissa = t
        * (0.999_495_56
            + t * (-0.491_908_96 + t * (0.289_474_78 + t * (-0.136_062_75 + t * 0.032_158_45))));
    exponent as f64 * std::f64::consts::LN_2 + ln_mantissa
}

#[cfg(test)]
mod fast_ln_tests {
    use super::fast_ln;

    #[test]
    fn fast_ln_is_close() {
        for x in (1..200_000)
            .step_by(7)
            .chain([1 << 20, 1 << 30, u32::MAX as usize])
        {
            let x = x as f64;
            assert!((fast_ln(x) - x.ln()).abs() < 2e-5, "{x}");
        }
    }
}
