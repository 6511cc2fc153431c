//! The rule-based baseline player: bid the Wizards, high trumps and side
//! aces; win cheaply while short of the bid, duck once it is met; name the
//! suit held most as trump.

use super::{Wizard, trick_winner};
use crate::games::cards::{Card, CardSet, Rank, Suit};

impl Wizard {
    /// A card's strength for the rule-based player: Wizards, then trumps,
    /// then other cards by rank, Jesters lowest.
    fn power(&self, card: Card) -> i32 {
        if card.is_wizard() {
            return 200;
        }
        match (card.suit(), card.rank()) {
            (Some(s), Some(r)) if Some(s) == self.trump => 100 + r.index() as i32,
            (_, Some(r)) => 1 + r.index() as i32,
            _ => 0,
        }
    }

    /// The rule-based bid: Wizards, high trumps (Q K A), half the low
    /// trumps, and side aces; the nearest allowed bid to that count.
    pub(super) fn rules_bid(&self) -> u8 {
        let hand = self.hands[self.to_move as usize];
        // Counted in half tricks: a low trump is worth half a trick.
        let mut halves = 2 * (hand & CardSet::WIZARDS).len();
        for c in hand.iter() {
            let (Some(suit), Some(rank)) = (c.suit(), c.rank()) else {
                continue;
            };
            if Some(suit) == self.trump {
                halves += if rank >= Rank::QUEEN { 2 } else { 1 };
            } else if rank == Rank::ACE {
                halves += 2;
            }
        }
        let est = (halves / 2).min(self.round_cards()) as i32;
        (0..=self.round_cards() as u8)
            .filter(|&b| self.bid_allowed(b))
            .min_by_key(|&b| ((b as i32 - est).abs(), b))
            .unwrap_or(0)
    }

    /// The rule-based card: while short of the bid, win as cheaply as
    /// possible (lead the strongest card); with enough tricks, duck with
    /// the strongest card that loses (lead the weakest).
    pub(super) fn rules_card(&self) -> Option<Card> {
        let p = self.to_move as usize;
        let legal = self.legal_from(self.hands[p]);
        let want = self.won[p] < self.bids[p];
        let len = self.trick_len as usize;
        if len == 0 {
            return if want {
                legal.iter().max_by_key(|&c| self.power(c))
            } else {
                legal.iter().min_by_key(|&c| self.power(c))
            };
        }
        let mut trick = self.trick;
        let mut wins = |c: Card| {
            trick[len] = c;
            trick_winner(&trick[..=len], self.trump) == len
        };
        let winners: CardSet = legal.iter().filter(|&c| wins(c)).collect();
        let losers = legal - winners;
        if want {
            winners
                .iter()
                .min_by_key(|&c| self.power(c))
                .or_else(|| losers.iter().min_by_key(|&c| self.power(c)))
        } else {
            losers
                .iter()
                .max_by_key(|&c| self.power(c))
                .or_else(|| winners.iter().min_by_key(|&c| self.power(c)))
        }
    }

    /// The rule-based trump choice: the suit held most (then by ranks).
    pub(super) fn rules_trump(&self) -> Suit {
        let hand = self.hands[self.to_move as usize];
        Suit::ALL
            .into_iter()
            .max_by_key(|&s| {
                let cards = hand.of_suit(s);
                let ranks: usize = cards
                    .iter()
                    .filter_map(|c| c.rank())
                    .map(|r| r.index())
                    .sum();
                (cards.len(), ranks)
            })
            .unwrap_or(Suit::Clubs)
    }
}
