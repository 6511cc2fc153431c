//! The safety margin the engine learns from what it measures: how late
//! its timed moves were done, and how much of the CPU its search thread
//! got while it ran.
//!
//! On a quiet machine a search stops within a poll of its time, and the
//! reply leaves at once. On a busy one (more runnable threads than cores)
//! every thread waits for a core: the search sees its deadline late, the
//! reply thread wakes late, and the next command waits for the search.
//! The referee charges all of it. So after each timed move the engine
//! notes how far past its time it was done ([`LagWatch::observe`]), and
//! the time manager takes a margin off every later budget
//! ([`LagWatch::margin`]): a decaying maximum of those overruns, and,
//! where the search thread got less than its core, the pipe's lag
//! ([`super::MOVE_LAG`]) stretched by the same factor. A slow machine
//! then makes the engine stop early, not late; a quiet one lets the
//! margin fade (it loses a quarter at each move).

use std::time::Duration;

/// The most the learnt margin takes: beyond that the machine is too slow
/// for any margin to save the clock, and the budget's own floor (half its
/// time) rules.
pub const MAX_MARGIN: Duration = Duration::from_millis(1000);

/// Shortest search whose CPU share is believed: in a shorter one the
/// thread's start-up and the reply thread's wake-ups weigh too much (a
/// 10 ms search on a quiet machine measures 0.7-0.9 of a core).
const SHARE_MIN_WALL: Duration = Duration::from_millis(20);

/// How much of the last margin each move keeps (the rest fades).
const KEEP_NUM: u32 = 3;
const KEEP_DEN: u32 = 4;

/// The engine's measure of the machine, one per process (a machine's load
/// outlasts a game).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LagWatch {
    /// How far past its time the engine was done with a timed move,
    /// decayed: the largest recent overrun.
    late: Duration,
    /// The search thread's share of a core over the last timed move that
    /// was long enough to tell (1: a core of its own).
    share: f64,
}

impl Default for LagWatch {
    fn default() -> Self {
        LagWatch {
            late: Duration::ZERO,
            share: 1.0,
        }
    }
}

impl LagWatch {
    /// Notes a timed move: `time` is the budget's time, `took` the wall
    /// time from reading the command to the search's end (when the engine
    /// could take the next command), `spent` the search thread's CPU time
    /// and the wall time of the search alone, where known.
    pub fn observe(&mut self, time: Duration, took: Duration, spent: Option<(Duration, Duration)>) {
        let over = took.saturating_sub(time);
        self.late = (self.late * KEEP_NUM / KEEP_DEN).max(over).min(MAX_MARGIN);
        if let Some((cpu, wall)) = spent
            && wall >= SHARE_MIN_WALL
        {
            self.share = (cpu.as_secs_f64() / wall.as_secs_f64()).clamp(0.01, 1.0);
        }
    }

    /// The margin to keep off the next budget: the recent overruns, or the
    /// pipe's lag as stretched by the CPU share, whichever is more.
    pub fn margin(&self) -> Duration {
        let stretched = super::MOVE_LAG.mul_f64(1.0 / self.share - 1.0);
        self.late.max(stretched).min(MAX_MARGIN)
    }

    /// The search thread's last measured share of a core.
    pub fn share(&self) -> f64 {
        self.share
    }
}

/// The CPU time of the calling thread so far, where the system tells it.
pub fn thread_cpu_time() -> Option<Duration> {
    #[cfg(unix)]
    {
        let ts = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
        Duration::try_from(ts).ok()
    }
    #[cfg(not(unix))]
    {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::time::ms;

    #[test]
    fn a_quiet_machine_keeps_no_margin() {
        let mut w = LagWatch::default();
        for _ in 0..10 {
            w.observe(ms(100), ms(99), Some((ms(99), ms(98))));
        }
        assert_eq!(w.margin(), Duration::ZERO);
    }

    #[test]
    fn an_overrun_is_kept_and_fades_move_by_move() {
        let mut w = LagWatch::default();
        w.observe(ms(40), ms(240), None);
        assert_eq!(w.margin(), ms(200));
        // On time from then on: a quarter fades at each move.
        w.observe(ms(40), ms(30), None);
        assert_eq!(w.margin(), ms(150));
        w.observe(ms(40), ms(30), None);
        assert_eq!(w.margin(), ms(112) + Duration::from_micros(500));
        // A larger overrun replaces it at once.
        w.observe(ms(40), ms(440), None);
        assert_eq!(w.margin(), ms(400));
        // Never more than the cap.
        w.observe(ms(40), Duration::from_secs(9), None);
        assert_eq!(w.margin(), MAX_MARGIN);
    }

    #[test]
    fn a_thread_without_its_core_keeps_the_pipes_lag_stretched() {
        let mut w = LagWatch::default();
        // A third of a core: the lag counts three times, 2 lags more.
        w.observe(ms(90), ms(90), Some((ms(30), ms(90))));
        assert!((w.share() - 1.0 / 3.0).abs() < 1e-9);
        assert_eq!(w.margin(), super::super::MOVE_LAG * 2);
        // Too short to tell: the share stands (a 10 ms search on a quiet
        // machine measures well under a core from its start-up alone).
        w.observe(ms(2), ms(2), Some((Duration::ZERO, ms(2))));
        w.observe(ms(10), ms(10), Some((ms(7), ms(10))));
        assert!((w.share() - 1.0 / 3.0).abs() < 1e-9);
        // A core again: no margin.
        w.observe(ms(90), ms(90), Some((ms(90), ms(90))));
        assert_eq!(w.margin(), Duration::ZERO);
    }

    #[test]
    fn the_thread_cpu_clock_runs_with_work() {
        let Some(before) = thread_cpu_time() else {
            return;
        };
        let mut x = 0u64;
        let started = std::time::Instant::now();
        while started.elapsed() < ms(20) {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
        }
        let after = thread_cpu_time().expect("the clock read once reads again");
        assert!(after > before, "{before:?} -> {after:?}");
    }
}
