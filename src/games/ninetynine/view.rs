//! Text pictures of the state: the whole table (`render`) and one seat's
//! view (`view_text`).

use std::fmt::Write as _;

use super::{NinetyNine, Phase};
use crate::model::game::{Game, Seat, Turn};
use crate::games::cards::{card_count_text, numbered_seat_name, shows_hand, to_move_text};

impl NinetyNine {
    pub(super) fn describe(&self, out: &mut String, viewer: Option<Seat>) {
        // Waiting for a deal (seat-bound play, between hands): the hand to
        // come, not the one just over.
        let before_deal = self.phase == Phase::Deal;
        let (total, reversed, top, stock) = if before_deal {
            (0, false, None, self.stock_after_deal())
        } else {
            (self.total, self.reversed, self.top, self.stock_len)
        };
        let _ = writeln!(
            out,
            "hand {}, dealer {}, total {}, direction {}, top {}, stock {}",
            // `hand_no` counts finished hands: once the game is over, the
            // last one is the hand shown, not one after it.
            if self.phase == Phase::Over {
                self.hand_no.max(1)
            } else {
                self.hand_no + 1
            },
            numbered_seat_name(self.dealer as usize),
            total,
            if reversed {
                "counter-clockwise"
            } else {
                "clockwise"
            },
            top.map_or("-".to_string(), |c| c.to_string()),
            stock
        );
        for s in 0..self.cfg.players {
            let visible = shows_hand(self.observer, viewer, s);
            let cards = if self.tokens[s] == 0 {
                "out".to_string()
            } else if before_deal {
                "to be dealt".to_string()
            } else if visible {
                self.hand_slice(s)
                    .iter()
                    .map(|c| c.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            } else {
                card_count_text(self.counts[s])
            };
            let _ = writeln!(
                out,
                "{:>3}: {:<12} tokens {}",
                numbered_seat_name(s),
                cards,
                self.tokens[s]
            );
        }
        let to_move = match self.turn() {
            Turn::Chance if self.phase == Phase::Draw => format!(
                "chance (draw for {})",
                numbered_seat_name(self.to_move as usize)
            ),
            turn => to_move_text(turn, numbered_seat_name),
        };
        let _ = write!(out, "to move: {to_move}");
    }
}
