//! The rule-based baseline player: pass the dangerous cards, duck under the
//! winning card, dump `QS`, high spades and hearts when void.

use super::{HEARTS, Hearts};
use crate::games::cards::{Card, CardSet, Rank, Suit};

/// `QS KS AS`: the top three spades (bits 49..52).
const SPADE_HONOURS: CardSet = CardSet(0b111 << 49);
const ACE_SPADES: Card = Card::new(Suit::Spades, Rank::ACE);
const KING_SPADES: Card = Card::new(Suit::Spades, Rank::KING);

impl Hearts {
    /// The danger of holding a card, for the rule-based pass.
    pub(super) fn pass_danger(hand: CardSet, card: Card) -> i32 {
        let rank = card.rank().map_or(0, |r| r.index() as i32);
        let suit = card.suit().unwrap_or(Suit::Clubs);
        let low_spades = (hand.of_suit(Suit::Spades) - SPADE_HONOURS).len();
        match suit {
            Suit::Spades if rank >= 10 && low_spades < 3 => 100 + rank,
            Suit::Spades => rank,
            Suit::Hearts => 20 + rank,
            _ => rank + if hand.of_suit(suit).len() <= 3 { 8 } else { 0 },
        }
    }

    /// The rule-based card for the seat to move (hand known).
    pub(super) fn rules_card(&self) -> Option<Card> {
        let hand = self.hands[self.to_move as usize];
        let legal = self.legal_from(hand);
        let qs = Card::QUEEN_SPADES;
        let rank = |c: Card| c.rank().map_or(0, |r| r.index());
        if self.trick_len == 0 {
            // Lead low, keeping the spade honours at home.
            let safe = legal - SPADE_HONOURS;
            let pool = if safe.is_empty() { legal } else { safe };
            return pool.iter().min_by_key(|&c| (rank(c), c.suit_index()));
        }
        let led = self.trick[0].suit_index();
        let trick: CardSet = self.trick[..self.trick_len as usize]
            .iter()
            .copied()
            .collect();
        let winning = trick.iter().filter(|c| c.suit_index() == led).max()?;
        if legal.iter().all(|c| c.suit_index() == led) {
            let under: CardSet = legal.iter().filter(|&c| c < winning).collect();
            if let Some(c) = under.highest() {
                return Some(c);
            }
            // Must win: with the highest card, but not with QS if avoidable.
            let pool = if legal.len() > 1 {
                legal - CardSet::single(qs)
            } else {
                legal
            };
            return pool.highest();
        }
        // Void: dump the worst card.
        if legal.contains(qs) {
            return Some(qs);
        }
        if !self.played.contains(qs) {
            for c in [ACE_SPADES, KING_SPADES] {
                if legal.contains(c) {
                    return Some(c);
                }
            }
        }
        if let Some(h) = (legal & HEARTS).highest() {
            return Some(h);
        }
        legal.iter().max_by_key(|&c| {
            (
                rank(c),
                std::cmp::Reverse((hand & CardSet(0x1FFF << (13 * c.suit_index()))).len()),
            )
        })
    }
}
