//! The game clock of GTP (`time_settings`, `time_left`) and the share of
//! it a move may spend.
//!
//! GUIs tell the time left in whole seconds, rounded (Quarry does), so a
//! told `time_left` may be up to a second more than the seat really has:
//! the share is taken from the told time less that second, except where
//! the time is known exactly (a period or a game just started, or a told
//! time with a fraction). Main time is spread over the moves to come with
//! a reserve that shrinks with it and never runs out; a byo-yomi period is
//! spread over its stones, with a small margin for the pipe and the GUI.

use std::collections::BTreeMap;
use std::time::Duration;

use crate::game::Seat;

/// Main time, byo-yomi, and each seat's time left as last told.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Clock {
    /// `(main, byo-yomi period, stones per period)` from `time_settings`.
    settings: Option<(Duration, Duration, u32)>,
    /// Per seat: time left and stones left in the period (0 = main time).
    left: BTreeMap<Seat, (Duration, u32)>,
}

/// The time a move should take and the most it may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Allotment {
    /// Its share of the time left: what a settled move spends.
    pub target: Duration,
    /// What a critical move may run on to (main time only: in byo-yomi
    /// every stone has its share and no more).
    pub limit: Duration,
}

/// How many targets a critical move in main time may spend; a quarter of
/// the time left at most ([`LIMIT_OF_LEFT`]).
const LIMIT_TARGETS: u32 = 3;
const LIMIT_OF_LEFT: u32 = 4;

/// Moves a game is assumed to last from here, when spreading main time:
/// each move spends this share of what is left, so the time left shrinks
/// geometrically and is never used up. A game that bounds the moves left
/// (Othello) spreads it over those, plus [`MOVES_KEPT`].
const MOVES_TO_GO: u32 = 20;
/// Moves added to a game's bound on the moves left: the last move still
/// leaves time over (a share of 1/(n + 2) of what is left for each of n
/// moves spends all but 2/(n + 2) of it).
const MOVES_KEPT: u32 = 2;

/// How much a told whole number of seconds may exceed the real time left.
const ROUNDING: Duration = Duration::from_secs(1);

/// The share of a byo-yomi stone's time kept back for the pipe, the GUI's
/// own clock and the scheduler, in percent.
const PERIOD_MARGIN_PERCENT: u32 = 5;

impl Clock {
    /// GTP `time_settings`. A byo-yomi time with no stones means no time
    /// limit (GTP's convention), which clears the clock.
    pub fn set(&mut self, main: Duration, byoyomi: Duration, stones: u32) {
        self.left.clear();
        self.settings = if byoyomi > Duration::ZERO && stones == 0 {
            None
        } else {
            Some((main, byoyomi, stones))
        };
    }

    /// GTP `time_left` for a seat.
    pub fn time_left(&mut self, seat: Seat, left: Duration, stones: u32) {
        self.left.insert(seat, (left, stones));
    }

    /// Forgets what was told about time left (a new game).
    pub fn reset_game(&mut self) {
        self.left.clear();
    }

    /// Whether `left` with `stones` is known to the millisecond: the time
    /// as set (a fresh game or period), or told with a fraction.
    fn exact(&self, left: Duration, stones: u32) -> bool {
        let fresh = self.settings.is_some_and(|(main, byo, per)| {
            (stones == 0 && left == main) || (stones > 0 && stones == per && left == byo)
        });
        fresh || left.subsec_nanos() != 0
    }

    /// The time `seat` should and may spend on its next move, if a clock
    /// runs; `moves_left` is the game's bound on the moves the seat can
    /// still make, if it has one.
    pub fn allot(&self, seat: Seat, moves_left: Option<u32>) -> Option<Allotment> {
        let (told, stones) = match (self.left.get(&seat), self.settings) {
            (Some(&told), _) => told,
            (None, Some((main, _, _))) if main > Duration::ZERO => (main, 0),
            (None, Some((_, byo, stones))) => (byo, stones),
            (None, None) => return None,
        };
        let left = if self.exact(told, stones) {
            told
        } else {
            told.saturating_sub(ROUNDING)
        };
        let keep = |share: Duration| share - share * PERIOD_MARGIN_PERCENT / 100;
        if stones > 0 {
            // In byo-yomi: spread the period evenly over its stones.
            let share = keep(left / stones);
            return Some(Allotment {
                target: share,
                limit: share,
            });
        }
        // Main time: a shrinking share, plus a byo-yomi stone's time if a
        // period follows (the move may run on into it).
        let byo = self
            .settings
            .filter(|s| s.2 > 0)
            .map_or(Duration::ZERO, |s| keep(s.1 / s.2));
        let moves_to_go = moves_left.map_or(MOVES_TO_GO, |n| MOVES_TO_GO.min(n + MOVES_KEPT));
        let target = left / moves_to_go;
        let limit = (target * LIMIT_TARGETS)
            .min(left / LIMIT_OF_LEFT)
            .max(target);
        Some(Allotment {
            target: target + byo,
            limit: limit + byo,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn main_time_is_spread_with_a_reserve() {
        let mut c = Clock::default();
        assert_eq!(c.allot(0, None).map(|a| a.target), None);
        c.set(Duration::from_secs(60), Duration::ZERO, 0);
        // The whole main time, exactly as set.
        assert_eq!(c.allot(0, None).map(|a| a.target), Some(ms(3000)));
        // A told whole number may be a second too generous.
        c.time_left(0, Duration::from_secs(11), 0);
        assert_eq!(c.allot(0, None).map(|a| a.target), Some(ms(500)));
        // A told fraction is taken as exact.
        c.time_left(0, ms(10_500), 0);
        assert_eq!(c.allot(0, None).map(|a| a.target), Some(ms(525)));
        // The last second told may be nothing at all.
        c.time_left(0, Duration::from_secs(1), 0);
        assert_eq!(c.allot(0, None).map(|a| a.target), Some(Duration::ZERO));
    }

    #[test]
    fn a_critical_move_in_main_time_may_spend_three_targets() {
        let mut c = Clock::default();
        c.set(Duration::from_secs(60), Duration::ZERO, 0);
        let a = c.allot(0, None).expect("a clock runs");
        assert_eq!((a.target, a.limit), (ms(3000), ms(9000)));
        // A told whole number of seconds may be a second too generous.
        c.time_left(0, ms(4000), 0);
        let a = c.allot(0, None).expect("a clock runs");
        assert_eq!((a.target, a.limit), (ms(150), ms(450)));
        c.time_left(0, ms(1500), 0);
        let a = c.allot(0, None).expect("a clock runs");
        assert_eq!((a.target, a.limit), (ms(75), ms(225)));
        // A byo-yomi stone has its share and no more.
        c.set(Duration::ZERO, Duration::from_secs(2), 1);
        let a = c.allot(0, None).expect("a clock runs");
        assert_eq!((a.target, a.limit), (ms(1900), ms(1900)));
    }

    #[test]
    fn a_game_that_bounds_its_moves_spreads_the_time_over_them() {
        let mut c = Clock::default();
        c.set(Duration::from_secs(60), Duration::ZERO, 0);
        // Thirty moves or more to go: the usual twentieth.
        assert_eq!(c.allot(0, Some(30)).map(|a| a.target), Some(ms(3000)));
        // Ten moves at most: a twelfth, and a critical move a quarter.
        let a = c.allot(0, Some(10)).expect("a clock runs");
        assert_eq!((a.target, a.limit), (ms(5000), ms(15000)));
        // The last move keeps two thirds back.
        let a = c.allot(0, Some(1)).expect("a clock runs");
        assert_eq!((a.target, a.limit), (ms(20000), ms(20000)));
    }

    #[test]
    fn byo_yomi_and_canadian_periods() {
        let mut c = Clock::default();
        // "2 s per move": a fresh period is exact, less the margin.
        c.set(Duration::ZERO, Duration::from_secs(2), 1);
        assert_eq!(c.allot(0, None).map(|a| a.target), Some(ms(1900)));
        c.time_left(0, Duration::from_secs(2), 1);
        assert_eq!(c.allot(0, None).map(|a| a.target), Some(ms(1900)));
        // "20 s per 10 moves": 18 s told for 9 stones is 17 s at worst.
        c.set(Duration::ZERO, Duration::from_secs(20), 10);
        c.time_left(1, Duration::from_secs(18), 9);
        let share = Duration::from_secs(17) / 9;
        assert_eq!(
            c.allot(1, None).map(|a| a.target),
            Some(share - share * 5 / 100)
        );
        // The last stone with 1 s told: nothing certain is left.
        c.time_left(1, Duration::from_secs(1), 1);
        assert_eq!(c.allot(1, None).map(|a| a.target), Some(Duration::ZERO));
        c.set(Duration::ZERO, Duration::from_secs(1), 0);
        assert_eq!(c.allot(0, None).map(|a| a.target), None);
    }

    #[test]
    fn main_time_followed_by_byo_yomi_adds_a_stone() {
        let mut c = Clock::default();
        c.set(Duration::from_secs(40), Duration::from_secs(10), 5);
        assert_eq!(c.allot(0, None).map(|a| a.target), Some(ms(2000 + 1900)));
    }

    #[test]
    fn absolute_time_never_runs_out_over_a_long_game() {
        // A minute for the game, each move spending its whole share, the
        // GUI rounding the time left up: after 60 moves time is left.
        // The time left after 60 moves that each spend `spend` of their
        // allotment and 10 ms more.
        let left_after_60 = |spend: fn(Allotment) -> Duration| {
            let mut c = Clock::default();
            c.set(Duration::from_secs(60), Duration::ZERO, 0);
            let mut real = Duration::from_secs(60);
            for _ in 0..60 {
                let told = Duration::from_secs(real.as_secs_f64().ceil() as u64);
                c.time_left(0, told, 0);
                let spent = c.allot(0, None).map(spend).unwrap_or_default() + ms(10);
                assert!(spent < real, "{spent:?} of {real:?}");
                real -= spent;
            }
            real
        };
        let real = left_after_60(|a| a.target);
        assert!(real > Duration::from_secs(2), "{real:?}");
        // Every move critical, running to its limit: still never out.
        left_after_60(|a| a.limit);
    }
}
