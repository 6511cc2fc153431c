//! The rule-based baseline player (the seed's): play the first card, in
//! strategic order, that keeps the total at 99 or below.

use super::{Choice, NinetyNine, NnMove, play_value};
use crate::games::cards::Card;

/// The seed baseline's order: low plain cards first, specials last.
fn strategic_value(card: Card) -> u32 {
    match card.rank().map_or(0, |r| r.number()) {
        n @ (2 | 3 | 5 | 6 | 7 | 8) => n,
        11 | 12 => 10,
        14 => 20,
        9 => 21,
        4 => 22,
        10 => 23,
        _ => 24,
    }
}

impl NinetyNine {
    /// The seed baseline: the first card, in strategic order, that keeps
    /// the total at 99 or below (ace as 1, ten as -10).
    pub(super) fn rules_play(&self) -> NnMove {
        let mut hand = self.hand_slice(self.to_move as usize).to_vec();
        hand.sort_by_key(|&c| (strategic_value(c), c));
        for c in hand {
            let choice = match c.rank().map(|r| r.number()) {
                Some(10) => Choice::Minus,
                Some(14) => Choice::One,
                _ => Choice::Plain,
            };
            if play_value(self.total, c, choice).is_some() {
                return NnMove::Play(c, choice);
            }
        }
        NnMove::Lose
    }
}
