//! The referee's clock: what a seat really has left, as `tabula match` and
//! `tabula bench --latency` keep it, and when its flag falls.
//!
//! GTP's model (`time_settings MAIN BYO STONES`, Canadian byo-yomi): main
//! time first, then periods of `STONES` moves in `BYO` seconds. A move that
//! runs out of main time goes on in the first period and counts as its
//! first stone; a period whose stones are all played starts again in full;
//! a period that runs out before its stones are played drops the flag.
//! `STONES` 1 is the per-move byo-yomi most GUIs offer (KGS's Japanese
//! byo-yomi with one period). docs/clocks.md says why this model.
//!
//! The referee adds a grace for the pipe and the scheduler: with
//! byo-yomi, each period starts with a fresh grace (a period is a new
//! clock); without it, the grace is one allowance for the whole game,
//! spent by every overrun, so an engine whose main time is gone cannot
//! play on for ever.

use std::time::Duration;

use crate::arena::config::spec::{TimeControl, fmt_seconds};

/// How the time left is written in `time_left`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounding {
    /// To the millisecond, rounded down (tabula engines read fractions).
    Millis,
    /// Whole seconds rounded down, never more than the seat has (GTP).
    Down,
    /// Whole seconds rounded up, as generous as a GUI's rounding can be
    /// (the bench's test of the engine's reading).
    Up,
}

/// One seat's clock during a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatClock {
    clock: TimeControl,
    /// Time left: in main time, or in the current period.
    left: Duration,
    /// Stones left to play in the current period; 0 in main time.
    stones: u32,
    /// The grace a period starts with (or the game, without byo-yomi).
    grace: Duration,
    /// Grace left.
    grace_left: Duration,
}

impl SeatClock {
    /// A seat's clock at the start of a game: the main time, or the first
    /// period where there is none.
    pub fn new(clock: TimeControl, grace: Duration) -> SeatClock {
        let mut c = SeatClock {
            clock,
            left: clock.main,
            stones: 0,
            grace,
            grace_left: grace,
        };
        if clock.main.is_zero() && clock.has_byoyomi() {
            c.start_period();
        }
        c
    }

    fn start_period(&mut self) {
        self.left = self.clock.byoyomi;
        self.stones = self.clock.stones;
        self.grace_left = self.grace;
    }

    /// Time left now: main time, or in the current period.
    pub fn left(&self) -> Duration {
        self.left
    }

    /// Stones left in the current period; 0 in main time.
    pub fn stones(&self) -> u32 {
        self.stones
    }

    /// Grace left for overruns.
    pub fn grace_left(&self) -> Duration {
        self.grace_left
    }

    /// What `time_left` tells: the time and the stones left, the time
    /// written as `rounding` says. Main time that rounds to nothing under
    /// byo-yomi is told as the first period, which the seat is sure to
    /// have (the part second it also has is not told).
    pub fn told(&self, rounding: Rounding) -> (Duration, u32) {
        let round = |d: Duration| match rounding {
            Rounding::Millis => {
                Duration::from_millis(u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
            }
            Rounding::Down => Duration::from_secs(d.as_secs()),
            Rounding::Up => Duration::from_secs(d.as_secs() + u64::from(d.subsec_nanos() > 0)),
        };
        let told = round(self.left);
        if self.stones == 0 && told.is_zero() && self.clock.has_byoyomi() {
            (round(self.clock.byoyomi), self.clock.stones)
        } else {
            (told, self.stones)
        }
    }

    /// The `time_left` command for the seat named `seat`.
    pub fn time_left_command(&self, seat: &str, rounding: Rounding) -> String {
        let (time, stones) = self.told(rounding);
        format!("time_left {seat} {} {stones}", fmt_seconds(time))
    }

    /// The longest the next move may take before the flag falls, grace
    /// included: the time left, the first period where the move may run
    /// on into it ([`next_period`](Self::next_period)), and the grace
    /// ([`grace_for_move`](Self::grace_for_move)).
    pub fn allowed(&self) -> Duration {
        self.left + self.next_period().unwrap_or_default() + self.grace_for_move()
    }

    /// The first byo-yomi period, where the next move may run on into it
    /// (in main time, with byo-yomi to follow).
    pub fn next_period(&self) -> Option<Duration> {
        (self.stones == 0 && self.clock.has_byoyomi()).then_some(self.clock.byoyomi)
    }

    /// The grace the next move may use: that of the first period where it
    /// may run on into one (a period starts with a fresh grace), else
    /// what is left of the current one.
    pub fn grace_for_move(&self) -> Duration {
        if self.next_period().is_some() {
            self.grace
        } else {
            self.grace_left
        }
    }

    /// Charges a move that took `spent`. False if the flag fell: the move
    /// took longer than [`allowed`](Self::allowed).
    pub fn charge(&mut self, spent: Duration) -> bool {
        let spent = if self.stones == 0 {
            if spent <= self.left {
                self.left -= spent;
                return true;
            }
            let over = spent - self.left;
            self.left = Duration::ZERO;
            if !self.clock.has_byoyomi() {
                return self.overrun(over);
            }
            // Main time ran out during the move: the rest is the first
            // period's, and the move is its first stone.
            self.start_period();
            over
        } else {
            spent
        };
        if spent <= self.left {
            self.left -= spent;
        } else {
            let over = spent - self.left;
            self.left = Duration::ZERO;
            if !self.overrun(over) {
                return false;
            }
        }
        self.stones -= 1;
        if self.stones == 0 {
            self.start_period();
        }
        true
    }

    /// Takes an overrun from the grace; false if it was not enough.
    fn overrun(&mut self, over: Duration) -> bool {
        let kept = over <= self.grace_left;
        self.grace_left = self.grace_left.saturating_sub(over);
        kept
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn clock(text: &str) -> TimeControl {
        TimeControl::parse(text).unwrap()
    }

    /// (left ms, stones) after a move, or `None` once the flag fell.
    type After = Option<(u64, u32)>;

    /// [`After`] each move of `moves` ms.
    fn run(tc: &str, grace: u64, moves: &[u64]) -> Vec<After> {
        let mut c = SeatClock::new(clock(tc), ms(grace));
        moves
            .iter()
            .map(|&m| {
                let allowed = c.allowed();
                let ok = c.charge(ms(m));
                assert_eq!(ok, ms(m) <= allowed, "allowed {allowed:?}, move {m} ms");
                ok.then(|| (c.left().as_millis() as u64, c.stones()))
            })
            .collect()
    }

    #[test]
    fn the_clock_model_table() {
        // (tc, grace ms, moves in ms, expected after each move)
        let table: &[(&str, u64, &[u64], &[After])] = &[
            // Sudden death: main time runs down, then the grace, then the flag.
            ("1", 0, &[400, 600], &[Some((600, 0)), Some((0, 0))]),
            ("1", 0, &[400, 601], &[Some((600, 0)), None]),
            // The grace is one allowance for the game, not per move.
            (
                "1",
                100,
                &[950, 80, 80],
                &[Some((50, 0)), Some((0, 0)), None],
            ),
            // Main time running out into byo-yomi: the overrun is the first
            // period's first stone (5 stones in 10 s).
            (
                "2+5/10",
                0,
                &[1500, 2500, 3000],
                &[Some((500, 0)), Some((8000, 4)), Some((5000, 3))],
            ),
            // A period whose stones are all played starts again in full
            // (2 stones in 3 s), even with time left in it.
            (
                "0+2/3",
                0,
                &[1000, 1000, 2900, 100],
                &[
                    Some((2000, 1)),
                    Some((3000, 2)),
                    Some((100, 1)),
                    Some((3000, 2)),
                ],
            ),
            // Flag fall in byo-yomi: the period's stones not played in time.
            ("0+2/3", 0, &[2000, 1001], &[Some((1000, 1)), None]),
            // Per-move byo-yomi (1 stone): each move gets the period afresh,
            // and a move may spend leftover main time plus one period.
            (
                "1+2",
                0,
                &[500, 2500, 2000, 2001],
                &[Some((500, 0)), Some((2000, 1)), Some((2000, 1)), None],
            ),
            // With byo-yomi the grace is per period: each stone of a 1-stone
            // byo-yomi may overrun by the grace.
            (
                "0+1",
                200,
                &[1150, 1150, 1201],
                &[Some((1000, 1)), Some((1000, 1)), None],
            ),
            // ...and in a longer period, the overruns of its stones add up.
            (
                "0+2/1",
                200,
                &[1150, 50, 1150, 60],
                &[Some((0, 1)), Some((1000, 2)), Some((0, 1)), None],
            ),
        ];
        for (tc, grace, moves, expected) in table {
            assert_eq!(
                &run(tc, *grace, moves),
                expected,
                "tc {tc}, grace {grace}, moves {moves:?}"
            );
        }
    }

    #[test]
    fn a_move_may_not_span_two_periods() {
        // 1 s main, then 3 stones in 2 s: the first move may use the main
        // time and one period, no more, even with stones to spare.
        let c = SeatClock::new(clock("1+3/2"), ms(0));
        assert_eq!(c.allowed(), ms(3000));
        let mut late = c;
        assert!(!late.charge(ms(3001)));
    }

    #[test]
    fn told_times() {
        let mut c = SeatClock::new(clock("2+5/10"), ms(0));
        assert_eq!(c.told(Rounding::Millis), (ms(2000), 0));
        assert!(c.charge(ms(1700)));
        assert_eq!(c.told(Rounding::Millis), (ms(300), 0));
        assert_eq!(c.told(Rounding::Up), (ms(1000), 0));
        // Rounded down to nothing: the first period, which is sure.
        assert_eq!(c.told(Rounding::Down), (ms(10_000), 5));
        assert_eq!(
            c.time_left_command("black", Rounding::Down),
            "time_left black 10 5"
        );
        assert!(c.charge(ms(2800)));
        assert_eq!(c.told(Rounding::Millis), (ms(7500), 4));
        assert_eq!(c.told(Rounding::Down), (ms(7000), 4));
        assert_eq!(
            c.time_left_command("white", Rounding::Millis),
            "time_left white 7.5 4"
        );
        // Sudden death that rounds to nothing is told as nothing.
        let mut s = SeatClock::new(clock("1"), ms(0));
        assert!(s.charge(ms(999)));
        assert_eq!(s.told(Rounding::Down), (ms(0), 0));
    }
}
