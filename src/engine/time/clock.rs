//! The game clock of GTP (`time_settings`, `time_left`, and KGS's
//! `kgs-time_settings`): what each seat is believed to have left. The
//! share of it a move may spend is the time manager's ([`super::allot`]).
//!
//! GUIs tell the time left in whole seconds, rounded (Quarry rounds up),
//! so a told whole number may be up to a second more than the seat really
//! has. A told time is believed exact only where it can be: told with a
//! fraction, at the seat's first move of the game (its clock has not run:
//! it has the main time as set, whatever the rounding), or a byo-yomi
//! period with all its stones (a period is untouched until its first
//! stone); any other told time is taken as a second less. Between tellings
//! the engine charges each of its own moves to the seat (its wall time and
//! a margin for the pipe), so a GUI that tells the time rarely or never is
//! not believed to give time back.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use super::Allotment;
use crate::game::Seat;

/// How much a told whole number of seconds may exceed the real time left.
const ROUNDING: Duration = Duration::from_secs(1);

/// What the engine adds to its own wall time for a move when it charges
/// the move itself: the pipe and the GUI's clock count a little more.
const OWN_MOVE_MARGIN: Duration = Duration::from_millis(20);

/// Main time, byo-yomi, and what each seat is believed to have left.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Clock {
    /// `(main, byo-yomi period, stones per period)` from `time_settings`.
    settings: Option<(Duration, Duration, u32)>,
    /// Per seat: the least time it may have left, from the last told time
    /// less its own moves since.
    left: BTreeMap<Seat, SeatTime>,
    /// Seats that have moved in this game: their main time has run.
    moved: BTreeSet<Seat>,
}

/// One seat's time: main time, or a byo-yomi period and its stones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatTime {
    /// Time left (in main time, or in the period).
    pub left: Duration,
    /// Stones left to play in the period; 0 in main time.
    pub stones: u32,
}

impl SeatTime {
    /// A seat's time at the start of a game: the main time, or the first
    /// period where there is none.
    pub fn fresh(main: Duration, byoyomi: Duration, stones: u32) -> SeatTime {
        if main > Duration::ZERO || stones == 0 {
            SeatTime {
                left: main,
                stones: 0,
            }
        } else {
            SeatTime {
                left: byoyomi,
                stones,
            }
        }
    }

    /// Charges a move that took `spent` under byo-yomi `(byoyomi, per)`
    /// stones a period (`per` 0: none): main time first, then the period
    /// it runs on into, which that move counts a stone of; a period whose
    /// stones are all played starts again. False if the time ran out (the
    /// time left is then zero).
    pub fn charge(&mut self, spent: Duration, byoyomi: Duration, per: u32) -> bool {
        if self.stones == 0 {
            if spent <= self.left {
                self.left -= spent;
                return true;
            }
            if per == 0 {
                self.left = Duration::ZERO;
                return false;
            }
            // Main time ran out during the move: the rest comes from the
            // first period.
            let over = spent - self.left;
            *self = SeatTime {
                left: byoyomi,
                stones: per,
            };
            return self.charge(over, byoyomi, per);
        }
        if spent > self.left {
            self.left = Duration::ZERO;
            return false;
        }
        self.left -= spent;
        self.stones -= 1;
        if self.stones == 0 {
            *self = SeatTime {
                left: byoyomi,
                stones: per,
            };
        }
        true
    }
}

impl Clock {
    /// GTP `time_settings`. A byo-yomi time with no stones means no time
    /// limit (GTP's convention), which clears the clock. Every seat starts
    /// on the time as set.
    pub fn set(&mut self, main: Duration, byoyomi: Duration, stones: u32) {
        self.left.clear();
        self.settings = if byoyomi > Duration::ZERO && stones == 0 {
            None
        } else {
            Some((main, byoyomi, stones))
        };
    }

    /// GTP `time_left` for a seat: believed as told where it is exact,
    /// else as a second less (see the module's notes).
    pub fn time_left(&mut self, seat: Seat, told: Duration, stones: u32) {
        let first_move = !self.moved.contains(&seat);
        let left = match self.settings {
            // Told with a fraction: no rounding happened.
            _ if told.subsec_nanos() != 0 => told,
            // The seat's clock has not run: it has the main time as set,
            // which a whole number of seconds rounds to.
            Some((main, _, _))
                if first_move && stones == 0 && main <= told && told < main + ROUNDING =>
            {
                main
            }
            // A period with all its stones has not started to run.
            Some((_, byo, per)) if stones > 0 && stones == per && told == byo => told,
            _ => told.saturating_sub(ROUNDING),
        };
        self.left.insert(seat, SeatTime { left, stones });
    }

    /// Records that `seat` moved, `spent` being the engine's own wall time
    /// for the move where it searched it (`None` for a move it was told):
    /// its main time is no longer as set, and what it spent is charged
    /// until the next `time_left`.
    pub fn moved(&mut self, seat: Seat, spent: Option<Duration>) {
        self.moved.insert(seat);
        let Some(spent) = spent else { return };
        let Some(mut time) = self.seat_time(seat) else {
            return;
        };
        let (byo, per) = self.period();
        time.charge(spent + OWN_MOVE_MARGIN, byo, per);
        self.left.insert(seat, time);
    }

    /// What `seat` is believed to have left: as told and charged since,
    /// or the time as set; `None` where no clock runs.
    fn seat_time(&self, seat: Seat) -> Option<SeatTime> {
        match (self.left.get(&seat), self.settings) {
            (Some(&time), _) => Some(time),
            (None, Some((main, byo, per))) => Some(SeatTime::fresh(main, byo, per)),
            (None, None) => None,
        }
    }

    /// The byo-yomi period and its stones (zero without one).
    fn period(&self) -> (Duration, u32) {
        self.settings
            .map_or((Duration::ZERO, 0), |(_, byo, per)| (byo, per))
    }

    /// Forgets what was told about time left and who moved (a new game).
    pub fn reset_game(&mut self) {
        self.left.clear();
        self.moved.clear();
    }

    /// The time `seat` should and may spend on its next move, if a clock
    /// runs; `moves_left` is the game's bound on the moves the seat can
    /// still make, if it has one. The share is the time manager's
    /// ([`super::allot`]).
    pub fn allot(&self, seat: Seat, moves_left: Option<u32>) -> Option<Allotment> {
        let time = self.seat_time(seat)?;
        Some(super::allot(time, self.period(), moves_left))
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
        assert_eq!((a.target, a.limit), (ms(1000), ms(1000)));
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
        assert_eq!(c.allot(0, None).map(|a| a.target), Some(ms(1000)));
        c.time_left(0, Duration::from_secs(2), 1);
        assert_eq!(c.allot(0, None).map(|a| a.target), Some(ms(1000)));
        // A short stone keeps half its time.
        c.set(Duration::ZERO, Duration::from_secs(2), 5);
        assert_eq!(c.allot(0, None).map(|a| a.target), Some(ms(200)));
        // "20 s per 10 moves": 18 s told for 9 stones is 17 s at worst.
        c.set(Duration::ZERO, Duration::from_secs(20), 10);
        c.time_left(1, Duration::from_secs(18), 9);
        let share = Duration::from_secs(17) / 9;
        assert_eq!(c.allot(1, None).map(|a| a.target), Some(share / 2));
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
        assert_eq!(c.allot(0, None).map(|a| a.target), Some(ms(2000 + 1000)));
    }

    #[test]
    fn a_whole_main_time_is_exact_only_before_the_seat_moves() {
        let mut c = Clock::default();
        c.set(Duration::from_secs(1), Duration::ZERO, 0);
        // First move: the clock has not run, 1 s is 1 s.
        c.time_left(0, Duration::from_secs(1), 0);
        assert_eq!(c.allot(0, None).map(|a| a.target), Some(ms(50)));
        // After a move, "1" may be 1 ms rounded up.
        c.moved(0, None);
        c.time_left(0, Duration::from_secs(1), 0);
        assert_eq!(c.allot(0, None).map(|a| a.target), Some(Duration::ZERO));
        // The other seat has not moved yet.
        c.time_left(1, Duration::from_secs(1), 0);
        assert_eq!(c.allot(1, None).map(|a| a.target), Some(ms(50)));
        // A new game starts every seat afresh.
        c.reset_game();
        c.time_left(0, Duration::from_secs(1), 0);
        assert_eq!(c.allot(0, None).map(|a| a.target), Some(ms(50)));
        // A fractional main time, told rounded up at the first move.
        c.set(ms(1500), Duration::ZERO, 0);
        c.time_left(0, Duration::from_secs(2), 0);
        assert_eq!(c.allot(0, None).map(|a| a.target), Some(ms(75)));
        // Less than the main time told at the first move: rounded.
        c.time_left(0, Duration::from_secs(1), 0);
        assert_eq!(c.allot(0, None).map(|a| a.target), Some(Duration::ZERO));
    }

    #[test]
    fn the_engines_own_moves_are_charged_until_the_next_telling() {
        let mut c = Clock::default();
        c.set(Duration::from_secs(60), Duration::ZERO, 0);
        c.moved(0, Some(ms(2980)));
        // 60 s less 3 s (the move and its margin), a twentieth of it.
        assert_eq!(c.allot(0, None).map(|a| a.target), Some(ms(2850)));
        // A telling replaces what was charged.
        c.time_left(0, ms(40_000), 0);
        assert_eq!(c.allot(0, None).map(|a| a.target), Some(ms(1950)));
        // A move told, not searched, charges nothing.
        c.moved(0, None);
        assert_eq!(c.allot(0, None).map(|a| a.target), Some(ms(1950)));
        // Byo-yomi: a stone's period starts again after the move.
        c.set(Duration::ZERO, Duration::from_secs(2), 1);
        c.moved(1, Some(ms(1500)));
        assert_eq!(c.allot(1, None).map(|a| a.target), Some(ms(1000)));
        // Without time_settings, a told time still runs.
        let mut c = Clock::default();
        c.time_left(0, ms(2500), 0);
        assert_eq!(c.allot(0, None).map(|a| a.target), Some(ms(125)));
    }

    /// Plays `moves` moves for one seat under `(main, byo, per)`, the GUI
    /// telling the time left rounded up, each move spending what `spend`
    /// takes of its allotment and `lag` more; the referee's time left
    /// after each move, or the move that lost on time.
    fn play_rounded_up(
        (main, byo, per): (Duration, Duration, u32),
        moves: usize,
        lag: Duration,
        spend: fn(Allotment) -> Duration,
    ) -> Result<Vec<Duration>, usize> {
        let mut c = Clock::default();
        c.set(main, byo, per);
        let mut real = SeatTime::fresh(main, byo, per);
        let mut after = Vec::new();
        for i in 0..moves {
            let told = Duration::from_secs(real.left.as_secs_f64().ceil() as u64);
            c.time_left(0, told, real.stones);
            let spent = c.allot(0, None).map(spend).unwrap_or_default() + lag;
            if !real.charge(spent, byo, per) {
                return Err(i);
            }
            c.moved(0, Some(spent));
            after.push(real.left);
        }
        Ok(after)
    }

    #[test]
    fn rounded_up_times_never_run_out() {
        let s = Duration::from_secs;
        for settings in [
            (s(1), s(0), 0),
            (s(2), s(0), 0),
            (s(3), s(0), 0),
            (s(5), s(0), 0),
            (s(60), s(0), 0),
            (ms(1500), s(0), 0),
            (s(0), s(1), 1),
            (s(0), s(2), 1),
            (s(1), s(1), 1),
            (s(2), s(1), 1),
            (s(0), s(10), 5),
            (s(5), s(5), 3),
        ] {
            for spend in [|a: Allotment| a.target, |a: Allotment| a.limit] {
                // 60 moves, each 5 ms late: the pipe, the GUI, a busy core.
                let after = play_rounded_up(settings, 60, ms(5), spend)
                    .unwrap_or_else(|i| panic!("{settings:?}: lost on time at move {}", i + 1));
                assert!(after.iter().all(|&t| t > Duration::ZERO), "{settings:?}");
            }
        }
        // In byo-yomi every move may be nearly half a period late (at
        // least a second, in periods of two seconds or more).
        for (settings, late) in [
            ((s(0), s(1), 1), ms(450)),
            ((s(2), s(1), 1), ms(450)),
            ((s(0), s(2), 1), ms(950)),
            ((s(0), s(5), 3), ms(800)),
            ((s(0), s(10), 1), ms(1000)),
        ] {
            play_rounded_up(settings, 60, late, |a| a.limit)
                .unwrap_or_else(|i| panic!("{settings:?}: lost on time at move {}", i + 1));
        }
        // A minute, spent to the target: more than 2 s are left after 60.
        let after = play_rounded_up((s(60), s(0), 0), 60, ms(10), |a| a.target).expect("never out");
        assert!(after[59] > s(2), "{:?}", after[59]);
    }
}
