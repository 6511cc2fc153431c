//! The game clock of GTP (`time_settings`, `time_left`) and the share of
//! it a move may spend.

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

/// Moves a game is assumed to last from here, when spreading main time.
const MOVES_TO_GO: u32 = 20;

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

    /// The time `seat` may spend on its next move, if a clock runs.
    pub fn allot(&self, seat: Seat) -> Option<Duration> {
        let (left, stones) = match (self.left.get(&seat), self.settings) {
            (Some(&told), _) => told,
            (None, Some((main, _, _))) if main > Duration::ZERO => (main, 0),
            (None, Some((_, byo, stones))) => (byo, stones),
            (None, None) => return None,
        };
        if stones > 0 {
            // In byo-yomi: spread the period evenly over its stones.
            return Some(left / stones);
        }
        // Main time: a fixed share, plus the byo-yomi period if one follows.
        let byo = self
            .settings
            .filter(|s| s.2 > 0)
            .map_or(Duration::ZERO, |s| s.1 / s.2);
        Some((left / MOVES_TO_GO + byo).min(left / 2 + byo))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares() {
        let mut c = Clock::default();
        assert_eq!(c.allot(0), None);
        c.set(Duration::from_secs(60), Duration::ZERO, 0);
        assert_eq!(c.allot(0), Some(Duration::from_secs(3)));
        c.time_left(0, Duration::from_secs(10), 0);
        assert_eq!(c.allot(0), Some(Duration::from_millis(500)));
        c.time_left(1, Duration::from_secs(30), 5);
        assert_eq!(c.allot(1), Some(Duration::from_secs(6)));
        c.set(Duration::ZERO, Duration::from_secs(1), 0);
        assert_eq!(c.allot(0), None);
    }
}
