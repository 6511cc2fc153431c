//! Text pictures of the state: the whole table (`render`) and one seat's
//! view (`view_text`).

use std::fmt::Write as _;

use super::{Phase, Wizard};
use crate::model::game::{Game, Seat};
use crate::games::cards::{card_count_text, numbered_seat_name, shows_hand, to_move_text, trick_text};

impl Wizard {
    pub(super) fn describe(&self, out: &mut String, viewer: Option<Seat>) {
        // Once the game is over, the round counter and the dealer have
        // moved on past the last round: show the last round.
        let (round, dealer) = if self.phase == Phase::Over && self.round > 0 {
            (
                self.round as usize - 1,
                (self.dealer as usize + self.n() - 1) % self.n(),
            )
        } else {
            (self.round as usize, self.dealer as usize)
        };
        let _ = writeln!(
            out,
            "round {}/{} ({} card{}), dealer {}, turned up {}, trump {}",
            round + 1,
            self.cfg.rounds,
            self.cfg.cards_in_round(round),
            if self.cfg.cards_in_round(round) == 1 {
                ""
            } else {
                "s"
            },
            numbered_seat_name(dealer),
            self.turned.map_or("-".to_string(), |c| c.to_string()),
            match (self.trump, self.phase) {
                (Some(s), _) => s.to_string(),
                (None, Phase::Trump) => "(dealer chooses)".to_string(),
                (None, _) => "none".to_string(),
            }
        );
        for s in 0..self.n() {
            let visible = shows_hand(self.observer, viewer, s);
            let cards = if visible {
                self.hands[s].to_string()
            } else {
                card_count_text(self.counts[s])
            };
            let bid = if self.has_bid(s) {
                self.bids[s].to_string()
            } else {
                "-".to_string()
            };
            let _ = writeln!(
                out,
                "{:>3}: {:<40} bid {:>2}  won {:>2}  total {:>4}",
                numbered_seat_name(s),
                cards,
                bid,
                self.won[s],
                self.totals[s]
            );
        }
        let _ = writeln!(
            out,
            "trick: {}",
            trick_text(&self.trick(), numbered_seat_name)
        );
        let _ = write!(
            out,
            "to move: {}",
            to_move_text(self.turn(), numbered_seat_name)
        );
    }

    /// Whether `seat` has bid this round.
    fn has_bid(&self, seat: Seat) -> bool {
        let first = (self.dealer as usize + 1) % self.n();
        let pos = (seat + self.n() - first) % self.n();
        match self.phase {
            Phase::Bid => pos < self.bids_made as usize,
            Phase::Play => true,
            _ => false,
        }
    }
}
