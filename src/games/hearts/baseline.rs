//! The rule-based baseline player: pass the dangerous cards, duck under the
//! winning card, dump `QS`, high spades and hearts when void; and stop a
//! moon shot: once one other seat holds all of at least
//! [`MOON_ALERT`] points taken, win a trick it would take with points in
//! it, and feed it no points when void.

use super::{HEARTS, Hearts, POINT_CARDS, SEATS, points_of};
use crate::games::cards::{Card, CardSet, Rank, Suit};

/// `QS KS AS`: the top three spades (bits 49..52).
const SPADE_HONOURS: CardSet = CardSet(0b111 << 49);
const ACE_SPADES: Card = Card::new(Suit::Spades, Rank::ACE);
const KING_SPADES: Card = Card::new(Suit::Spades, Rank::KING);
/// Points taken, all by one seat, from which that seat is a moon threat.
pub(super) const MOON_ALERT: u8 = 10;

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

    /// The seat other than `me` that has taken every point so far, when
    /// they come to [`MOON_ALERT`] or more: it may shoot the moon.
    pub(super) fn moon_threat(&self, me: usize) -> Option<usize> {
        let total: u32 = self.points.iter().map(|&p| p as u32).sum();
        if total < MOON_ALERT as u32 {
            return None;
        }
        (0..SEATS).find(|&s| s != me && self.points[s] as u32 == total)
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
        let me = self.to_move as usize;
        if let Some(threat) = self.moon_threat(me) {
            // Seats play in order from the leader: where the winning card
            // is, and whether the threat has played yet.
            let at = self.trick[..self.trick_len as usize]
                .iter()
                .position(|&c| c == winning)
                .unwrap_or(0);
            let winner = (self.leader as usize + at) % SEATS;
            let threat_to_play = (0..self.trick_len as usize)
                .all(|i| (self.leader as usize + i) % SEATS != threat);
            let feeding = winner == threat || threat_to_play;
            if legal.iter().all(|c| c.suit_index() == led) {
                // Take a trick with points from the threat, with the lowest
                // card that does it once it has played, the highest if it
                // is still to play.
                if points_of(trick) > 0 && feeding {
                    let over: CardSet = legal.iter().filter(|&c| c > winning).collect();
                    let pick = if threat_to_play {
                        over.highest()
                    } else {
                        over.iter().next()
                    };
                    if pick.is_some() {
                        return pick;
                    }
                }
            } else if feeding {
                // Void: no points for the threat; the highest other card.
                let safe = legal - POINT_CARDS;
                if let Some(c) = safe.iter().max_by_key(|&c| (rank(c), c.suit_index())) {
                    return Some(c);
                }
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::game::Game;
    use crate::games::hearts::{HeartsMove, Phase};
    use crate::model::options::Options;
    use rand::SeedableRng;

    /// South to move in trick 6 after east (seat 1) led `led`; east has
    /// taken `east_points`, nobody else any; south holds `hand`.
    fn position(east_points: u8, led: &str, hand: &str) -> Hearts {
        let mut g = Hearts::new_game(
            &Options::parse(Hearts::OPTIONS, &["hands=single", "pass=none"]).unwrap(),
        )
        .unwrap();
        let mut rng = crate::model::game::Rng::seed_from_u64(1);
        let deal = g.sample_chance(&mut rng);
        g.apply(deal);
        g.phase = Phase::Play;
        g.tricks = 5;
        g.points = [0, east_points, 0, 0];
        g.heart_played = true;
        g.hands[2] = CardSet::parse_list(hand).unwrap();
        g.trick[0] = led.parse().unwrap();
        g.trick_len = 1;
        g.leader = 1;
        g.to_move = 2;
        g
    }

    fn rules(g: &Hearts) -> String {
        let mut rng = crate::model::game::Rng::seed_from_u64(1);
        match g.rules_move(&mut rng) {
            Some(HeartsMove::Play(c)) => c.to_string(),
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn the_rule_player_stops_a_moon_shot() {
        // East has every point so far (14): south overtakes its heart
        // lead with the lowest heart that wins, rather than ducking.
        assert_eq!(rules(&position(14, "9H", "2H KH AH 3C")), "KH");
        // Void in the led suit: no heart for east's trick.
        assert_eq!(rules(&position(14, "5D", "2H KH 3C 4S")), "4S");
        // Below the alert the usual play: duck, or dump the top heart.
        assert_eq!(rules(&position(MOON_ALERT - 1, "9H", "2H KH AH 3C")), "2H");
        assert_eq!(rules(&position(MOON_ALERT - 1, "5D", "2H KH 3C 4S")), "KH");
    }
}
