//! Text pictures of the state: the whole table (`render`) and one seat's
//! view (`view_text`).

use std::fmt::Write as _;

use super::{Hearts, Phase, SEATS};
use crate::model::game::{Game, Seat};
use crate::games::cards::{card_count_text, CardSet, knows_hand, shows_hand, to_move_text, trick_plays, trick_text};

impl Hearts {
    pub(super) fn describe(&self, out: &mut String, observer: Option<Seat>) {
        let _ = writeln!(
            out,
            "hand {} ({}), trick {}, hearts {}",
            self.hand_no + 1,
            match self.pass_offset() {
                Some(1) => "pass left",
                Some(2) => "pass across",
                Some(3) => "pass right",
                _ => "no pass",
            },
            // After the last trick, the hand's last trick (not a 14th).
            (self.tricks as usize + 1).min(super::HAND_SIZE),
            if self.hearts_broken() {
                "broken"
            } else {
                "not broken"
            }
        );
        // In play, an observer may know cards in another hand (those it
        // passed there): the full state shows them as the seat-bound one does.
        let known = match (self.observer, observer) {
            (Some(_), _) => self.hands,
            (None, Some(o)) if self.phase == Phase::Play => self.knowledge(o).0,
            (None, _) => [CardSet::EMPTY; SEATS],
        };
        for s in 0..SEATS {
            let visible = shows_hand(self.observer, observer, s);
            let cards = if visible {
                self.hands[s].to_string()
            } else if !known[s].is_empty() {
                format!(
                    "{} + {} unseen",
                    known[s],
                    self.counts[s] as usize - known[s].len()
                )
            } else {
                card_count_text(self.counts[s])
            };
            let _ = writeln!(
                out,
                "{:>5}: {:<40} points {:>2}  total {:>3}",
                Self::name(s),
                cards,
                self.points[s],
                self.totals[s]
            );
        }
        let _ = writeln!(out, "trick: {}", trick_text(&self.trick(), Self::name));
        if let Some((cards, leader, taker)) = self.last_trick {
            let plays = trick_plays(&cards, leader as usize, SEATS);
            let _ = writeln!(
                out,
                "last trick: {}; {} took it",
                trick_text(&plays, Self::name),
                Self::name(taker as usize)
            );
        }
        let _ = writeln!(
            out,
            "last hand: {}",
            (0..SEATS)
                .map(|s| format!("{} {}", Self::name(s), self.last_hand[s]))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let _ = write!(out, "to move: {}", to_move_text(self.turn(), Self::name));
    }

    /// [`Game::view_text`]: what `observer` sees.
    pub(super) fn view_for(&self, observer: Seat) -> String {
        let mut out = String::new();
        let o = observer % SEATS;
        self.describe(&mut out, Some(o));
        if knows_hand(self.observer, o) {
            if let Some(t) = self.pass_target(o).filter(|_| self.passed & (1 << o) != 0) {
                let _ = write!(out, "\npassed to {}: {}", Self::name(t), self.passes[o]);
            }
            if !self.received[o].is_empty() {
                let _ = write!(out, "\nreceived: {}", self.received[o]);
            }
        }
        out
    }
}
