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
//! stone). Between tellings the engine charges each of its own moves to
//! the seat (its wall time and a margin for the pipe), so a GUI that tells
//! the time rarely or never is not believed to give time back. Any other
//! told whole number `T` says only that the seat has between `T - 1` and
//! `T + 1` seconds (rounded up, down or to the nearest): the engine then
//! keeps its own count (the last exact time less its own moves), raised to
//! `T - 1` if below, where it has one and the count is not over `T + 1`;
//! else it takes `T - 1`. Without its own
//! count a second of sudden death would read as nothing at every move,
//! and the engine would play its whole game at once.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use crate::model::game::Seat;

/// How much a told whole number of seconds may exceed the real time left.
const ROUNDING: Duration = Duration::from_secs(1);

/// What a move costs a seat's clock beyond the engine's own wall time for
/// it, at most as the engine counts: the pipe both ways and a core to run
/// on (`bench --latency` read 1-3 ms a move, median, on 2 cores at load
/// 15). The clock charges it on every move the engine makes
/// ([`Clock::moved`]), and main time keeps it back for each move to go,
/// so that a game whose moves are all this late still ends in time.
pub const MOVE_LAG: Duration = Duration::from_millis(10);

/// What the engine adds to its own wall time for a move when it charges
/// the move itself: the pipe and the GUI's clock count a little more.
const OWN_MOVE_MARGIN: Duration = MOVE_LAG;

/// Main time, byo-yomi, and what each seat is believed to have left.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Clock {
    /// `(main, byo-yomi period, stones per period)` from `time_settings`.
    settings: Option<(Duration, Duration, u32)>,
    /// Per seat: the least time it may have left, from the last told time
    /// less its own moves since.
    left: BTreeMap<Seat, SeatTime>,
    /// Seats that have moved in this game while their clock ran: their
    /// main time has run.
    moved: BTreeSet<Seat>,
    /// Seats whose clock is known to run: told a time left, or played by
    /// the engine's own search. A move told for a seat before that is the
    /// game's setup (a referee's opening plies), not the seat's time.
    running: BTreeSet<Seat>,
    /// Seats with a move since their time was last known exactly that the
    /// engine did not search (told by `play`): their time left is no count
    /// of the engine's own, only what a telling bounds.
    uncounted: BTreeSet<Seat>,
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
        self.uncounted.clear();
        self.running.clear();
        self.settings = if byoyomi > Duration::ZERO && stones == 0 {
            None
        } else {
            Some((main, byoyomi, stones))
        };
    }

    /// GTP `time_left` for a seat: believed as told where it is exact,
    /// else the engine's own count within the second either way that a
    /// rounded whole number leaves open, or, without a count of its own,
    /// a second less (see the module's notes).
    pub fn time_left(&mut self, seat: Seat, told: Duration, stones: u32) {
        let first_move = !self.moved.contains(&seat);
        let exact = match self.settings {
            // Told with a fraction: no rounding happened.
            _ if told.subsec_nanos() != 0 => Some(told),
            // The seat's clock has not run: it has the main time as set,
            // which a whole number of seconds rounds to.
            Some((main, _, _))
                if first_move && stones == 0 && main <= told && told < main + ROUNDING =>
            {
                Some(main)
            }
            // A period with all its stones has not started to run.
            Some((_, byo, per)) if stones > 0 && stones == per && told == byo => Some(told),
            _ => None,
        };
        let left = match exact {
            Some(left) => {
                self.uncounted.remove(&seat);
                left
            }
            None => {
                let floor = told.saturating_sub(ROUNDING);
                match self.own_count(seat) {
                    // Main time, counted by the engine since it was known,
                    // and within a second of the told number: the count
                    // (but never less than the told number allows). A
                    // count more than a second over it has lost track.
                    Some(own) if stones == 0 && own.stones == 0 && own.left <= told + ROUNDING => {
                        own.left.max(floor)
                    }
                    _ => {
                        self.uncounted.insert(seat);
                        floor
                    }
                }
            }
        };
        self.left.insert(seat, SeatTime { left, stones });
        self.running.insert(seat);
    }

    /// What `seat` has left by the engine's own count (its time last known
    /// exactly, less its own moves since), if it has one.
    fn own_count(&self, seat: Seat) -> Option<SeatTime> {
        if self.uncounted.contains(&seat) {
            return None;
        }
        self.seat_time(seat)
    }

    /// Records that `seat` moved, `spent` being the engine's own wall time
    /// for the move where it searched it (`None` for a move it was told):
    /// its main time is no longer as set, and what it spent is charged
    /// until the next `time_left`. A move told for a seat whose clock is
    /// not known to run yet (no time told, no move searched) is the game's
    /// setup and changes nothing.
    pub fn moved(&mut self, seat: Seat, spent: Option<Duration>) {
        let Some(spent) = spent else {
            if self.running.contains(&seat) {
                // Who knows what a move it was told took.
                self.moved.insert(seat);
                self.uncounted.insert(seat);
            }
            return;
        };
        self.moved.insert(seat);
        self.running.insert(seat);
        let Some(mut time) = self.seat_time(seat) else {
            return;
        };
        let (byo, per) = self.period();
        time.charge(spent + OWN_MOVE_MARGIN, byo, per);
        self.left.insert(seat, time);
    }

    /// What `seat` is believed to have left: as told and charged since,
    /// or the time as set; `None` where no clock runs.
    pub(super) fn seat_time(&self, seat: Seat) -> Option<SeatTime> {
        match (self.left.get(&seat), self.settings) {
            (Some(&time), _) => Some(time),
            (None, Some((main, byo, per))) => Some(SeatTime::fresh(main, byo, per)),
            (None, None) => None,
        }
    }

    /// The byo-yomi period and its stones (zero without one).
    pub(super) fn period(&self) -> (Duration, u32) {
        self.settings
            .map_or((Duration::ZERO, 0), |(_, byo, per)| (byo, per))
    }

    /// Forgets what was told about time left and who moved (a new game).
    pub fn reset_game(&mut self) {
        self.left.clear();
        self.moved.clear();
        self.uncounted.clear();
        self.running.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::time::ms;

    #[test]
    fn main_time_is_spread_with_a_reserve() {
        let mut c = Clock::default();
        assert_eq!(c.allot(0, None).map(|a| a.target), None);
        c.set(Duration::from_secs(60), Duration::ZERO, 0);
        // The whole main time, exactly as set, less 10 ms for each of
        // the 20 moves to go.
        assert_eq!(c.allot(0, None).map(|a| a.target), Some(ms(2990)));
        // A told whole number may be a second too generous (and the
        // engine's count, 60 s, is far off it).
        c.time_left(0, Duration::from_secs(11), 0);
        assert_eq!(c.allot(0, None).map(|a| a.target), Some(ms(490)));
        // A told fraction is taken as exact.
        c.time_left(0, ms(10_500), 0);
        assert_eq!(c.allot(0, None).map(|a| a.target), Some(ms(515)));
        // The last second told may be nothing at all.
        c.time_left(0, Duration::from_secs(1), 0);
        assert_eq!(c.allot(0, None).map(|a| a.target), Some(Duration::ZERO));
    }

    #[test]
    fn a_critical_move_in_main_time_may_spend_three_targets() {
        let mut c = Clock::default();
        c.set(Duration::from_secs(60), Duration::ZERO, 0);
        let a = c.allot(0, None).expect("a clock runs");
        assert_eq!((a.target, a.limit), (ms(2990), ms(8970)));
        // A told whole number of seconds may be a second too generous.
        c.time_left(0, ms(4000), 0);
        let a = c.allot(0, None).expect("a clock runs");
        assert_eq!((a.target, a.limit), (ms(140), ms(420)));
        c.time_left(0, ms(1500), 0);
        let a = c.allot(0, None).expect("a clock runs");
        assert_eq!((a.target, a.limit), (ms(65), ms(195)));
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
        assert_eq!(c.allot(0, Some(30)).map(|a| a.target), Some(ms(2990)));
        // Ten moves at most: a twelfth, and a critical move a quarter.
        let a = c.allot(0, Some(10)).expect("a clock runs");
        assert_eq!((a.target, a.limit), (ms(4990), ms(14970)));
        // The last move keeps two thirds back.
        let a = c.allot(0, Some(1)).expect("a clock runs");
        assert_eq!((a.target, a.limit), (ms(19990), ms(19990)));
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
        assert_eq!(c.allot(0, None).map(|a| a.target), Some(ms(1990 + 1000)));
    }

    #[test]
    fn a_whole_main_time_is_exact_only_before_the_seat_moves() {
        let mut c = Clock::default();
        c.set(Duration::from_secs(1), Duration::ZERO, 0);
        // First move: the clock has not run, 1 s is 1 s (less 10 ms for
        // each of 20 moves to go); a move told before the seat's clock
        // ran (no time told, no move searched) was the game's setup, a
        // referee's opening plies.
        c.moved(0, None);
        c.time_left(0, Duration::from_secs(1), 0);
        assert_eq!(c.allot(0, None).map(|a| a.target), Some(ms(40)));
        // After a move the engine was told once the clock ran (not one it
        // searched and counted), "1" may be 1 ms rounded up.
        c.moved(0, None);
        c.time_left(0, Duration::from_secs(1), 0);
        assert_eq!(c.allot(0, None).map(|a| a.target), Some(Duration::ZERO));
        // The other seat has not moved yet.
        c.time_left(1, Duration::from_secs(1), 0);
        assert_eq!(c.allot(1, None).map(|a| a.target), Some(ms(40)));
        // A new game starts every seat afresh.
        c.reset_game();
        c.time_left(0, Duration::from_secs(1), 0);
        assert_eq!(c.allot(0, None).map(|a| a.target), Some(ms(40)));
        // A fractional main time, told rounded up at the first move.
        c.set(ms(1500), Duration::ZERO, 0);
        c.time_left(0, Duration::from_secs(2), 0);
        assert_eq!(c.allot(0, None).map(|a| a.target), Some(ms(65)));
        // Less than the main time told at the first move: rounded down,
        // or from a clock that ran; the engine's count (nothing spent)
        // is within the second either way it leaves open.
        c.time_left(0, Duration::from_secs(1), 0);
        assert_eq!(c.allot(0, None).map(|a| a.target), Some(ms(65)));
        // Told nothing: the count, 1.5 s, is over a second more, and
        // does not stand.
        c.time_left(0, Duration::ZERO, 0);
        assert_eq!(c.allot(0, None).map(|a| a.target), Some(Duration::ZERO));
    }

    #[test]
    fn the_engines_own_moves_are_charged_until_the_next_telling() {
        let mut c = Clock::default();
        c.set(Duration::from_secs(60), Duration::ZERO, 0);
        c.moved(0, Some(ms(2990)));
        // 60 s less 3 s (the move and its margin): a twentieth of it,
        // less 10 ms for each of the 20 moves to go.
        assert_eq!(c.allot(0, None).map(|a| a.target), Some(ms(2840)));
        // A telling the count does not fit replaces it.
        c.time_left(0, ms(40_000), 0);
        assert_eq!(c.allot(0, None).map(|a| a.target), Some(ms(1940)));
        // A move told, not searched, charges nothing.
        c.moved(0, None);
        assert_eq!(c.allot(0, None).map(|a| a.target), Some(ms(1940)));
        // Byo-yomi: a stone's period starts again after the move.
        c.set(Duration::ZERO, Duration::from_secs(2), 1);
        c.moved(1, Some(ms(1500)));
        assert_eq!(c.allot(1, None).map(|a| a.target), Some(ms(1000)));
        // Without time_settings, a told time still runs.
        let mut c = Clock::default();
        c.time_left(0, ms(2500), 0);
        assert_eq!(c.allot(0, None).map(|a| a.target), Some(ms(115)));
    }

    /// What a played move spends of its allotment.
    #[derive(Clone, Copy, Debug)]
    enum Spend {
        Target,
        Limit,
    }

    /// Plays `moves` moves for one seat under `(main, byo, per)`, the GUI
    /// telling the time left rounded up, each move spending what `spend`
    /// says of its allotment and `lag` more; the referee's time left
    /// after each move, or the move that lost on time.
    fn play_rounded_up(
        settings: (Duration, Duration, u32),
        moves: usize,
        lag: Duration,
        spend: Spend,
    ) -> Result<Vec<Duration>, usize> {
        play_told(settings, moves, None, lag, spend, f64::ceil)
    }

    /// As [`play_rounded_up`], the GUI rounding the time left with
    /// `round`, and the game bounding the seat's moves left (Othello's
    /// `moves_left`: `moves` at the first) where `bounded`.
    fn play_told(
        (main, byo, per): (Duration, Duration, u32),
        moves: usize,
        bounded: Option<()>,
        lag: Duration,
        spend: Spend,
        round: fn(f64) -> f64,
    ) -> Result<Vec<Duration>, usize> {
        let mut c = Clock::default();
        c.set(main, byo, per);
        let mut real = SeatTime::fresh(main, byo, per);
        let mut after = Vec::new();
        for i in 0..moves {
            let told = Duration::from_secs(round(real.left.as_secs_f64()) as u64);
            c.time_left(0, told, real.stones);
            let moves_left = bounded.map(|()| (moves - i) as u32);
            let allotment = c.allot(0, moves_left).map(|a| match spend {
                Spend::Target => a.target,
                Spend::Limit => a.limit,
            });
            let spent = allotment.unwrap_or_default() + lag;
            if !real.charge(spent, byo, per) {
                return Err(i);
            }
            // The engine's own count: its wall time, not the pipe's lag.
            c.moved(0, Some(spent.saturating_sub(lag)));
            after.push(real.left);
        }
        Ok(after)
    }

    #[test]
    fn a_short_sudden_death_is_used_and_never_runs_out() {
        // Othello at 1 s and 2 s a side, 30 moves: whatever the GUI's
        // rounding of the time told, the engine counts its own moves and
        // spends a fair share of the clock (it read a whole second as
        // nothing, and used about a tenth), each move a few ms late
        // (the pipe, a busy core), to the target or to the limit.
        let s = Duration::from_secs;
        type Rounding = (&'static str, fn(f64) -> f64);
        let roundings: [Rounding; 3] = [
            ("up", f64::ceil),
            ("down", f64::floor),
            ("nearest", f64::round),
        ];
        for main in [s(1), s(2)] {
            for (name, round) in roundings {
                for lag in [ms(0), ms(5), ms(OWN_MOVE_MARGIN.as_millis() as u64)] {
                    for spend in [Spend::Target, Spend::Limit] {
                        let case =
                            format!("{main:?}, rounded {name}, lag {lag:?}, to the {spend:?}");
                        let after = play_told((main, s(0), 0), 30, Some(()), lag, spend, round)
                            .unwrap_or_else(|i| panic!("{case}: lost on time at move {}", i + 1));
                        let used = 1.0 - after[29].as_secs_f64() / main.as_secs_f64();
                        assert!(used >= 0.4, "{case}: {:.0}% used", used * 100.0);
                        assert!(after[29] > ms(20), "{case}: {:?} left", after[29]);
                    }
                }
            }
        }
        // A seat whose moves the engine was told has no count of its own:
        // a told whole second is nothing certain.
        let mut c = Clock::default();
        c.set(s(1), s(0), 0);
        c.time_left(0, s(1), 0);
        c.moved(0, None);
        c.time_left(0, s(1), 0);
        assert_eq!(c.allot(0, None).map(|a| a.target), Some(Duration::ZERO));
        // A fraction told makes the count the engine's own again: 900 ms
        // less the 70 ms move and its 10 ms margin; a twentieth of it,
        // less 10 ms for each of the 20 moves to go.
        c.time_left(0, ms(900), 0);
        c.moved(0, Some(ms(70)));
        c.time_left(0, s(1), 0);
        assert_eq!(c.allot(0, None).map(|a| a.target), Some(ms(31)));
        c.time_left(0, s(0), 0);
        assert_eq!(c.allot(0, None).map(|a| a.target), Some(ms(31)));
        // Never less than the told number allows: 5 s told is 4 s at
        // least.
        c.time_left(0, s(5), 0);
        assert_eq!(c.allot(0, None).map(|a| a.target), Some(ms(190)));
        // A count more than a second over the told number has lost
        // track: 3.99 s counted, 2 s told, is 1 s.
        c.moved(0, Some(ms(0)));
        c.time_left(0, s(2), 0);
        assert_eq!(c.allot(0, None).map(|a| a.target), Some(ms(40)));
    }

    #[test]
    fn rounded_up_times_never_run_out() {
        let s = Duration::from_secs;
        // (main time, byo-yomi period, stones a period)
        let sudden_death = [s(1), s(2), s(3), s(5), s(60), ms(1500)].map(|main| (main, s(0), 0));
        let byo_yomi = [
            (s(0), s(1), 1),
            (s(0), s(2), 1),
            (s(1), s(1), 1),
            (s(2), s(1), 1),
            (s(0), s(10), 5),
            (s(5), s(5), 3),
        ];
        for settings in sudden_death.into_iter().chain(byo_yomi) {
            for spend in [Spend::Target, Spend::Limit] {
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
            play_rounded_up(settings, 60, late, Spend::Limit)
                .unwrap_or_else(|i| panic!("{settings:?}: lost on time at move {}", i + 1));
        }
        // A minute, spent to the target: more than 2 s are left after 60.
        let after =
            play_rounded_up((s(60), s(0), 0), 60, ms(10), Spend::Target).expect("never out");
        assert!(after[59] > s(2), "{:?}", after[59]);
    }
}
