//! What a seat knows and how hidden hands are drawn: plausibility of other
//! seats' plays in a seat-bound state, the unseen pool with its
//! constraints, determinization, and what the referee tells each seat.

// Seat-indexed parallel arrays read best with seat indices.
#![allow(clippy::needless_range_loop)]

use super::{DECK, MAX_PLAYERS, Phase, Wizard, WizardMove};
use crate::model::game::{Game, Observation, Rng, Seat, Turn};
use crate::games::cards::{Card, CardSet, Unseen, sample_deal_or_drop_inferences};

/// The hands [`Unseen`] fills for a Wizard table: every player's, and after
/// them a pseudo-hand for the cards left undealt this round.
const HANDS: usize = MAX_PLAYERS + 1;

impl Wizard {
    /// Seat-bound: whether another seat's play of `card` is consistent with
    /// everything known (some deal of the unseen cards allows it).
    pub(super) fn plausible_play(&self, card: Card) -> bool {
        let p = self.to_move as usize;
        if !self.unknown.contains(card) || self.forbidden[p].contains(card) || self.counts[p] == 0 {
            return false;
        }
        let mut next = self.clone();
        next.play_card(card);
        next.unseen_for(self.observer.unwrap_or(0)).1.feasible()
    }

    /// What `observer` knows about the hidden hands: the cards known in
    /// each hand and the unseen pool with its constraints, computed from
    /// the observer's information only.
    pub(super) fn unseen_for(&self, observer: Seat) -> ([CardSet; MAX_PLAYERS], Unseen<HANDS>) {
        let mut known = [CardSet::EMPTY; MAX_PLAYERS];
        known[observer] = self.hands[observer];
        let pool = if self.observer.is_some() {
            self.unknown
        } else {
            let turned = self.turned.map_or(CardSet::EMPTY, CardSet::single);
            DECK - self.hands[observer] - self.played - turned
        };
        let mut u = Unseen {
            pool,
            ..Unseen::default()
        };
        let mut held = 0;
        for s in 0..self.n() {
            if s != observer {
                u.need[s] = self.counts[s];
                u.forbidden[s] = self.forbidden[s];
                held += self.counts[s] as usize;
            }
        }
        // The cards left undealt this round go to the pseudo-hand after
        // the players, constrained by nothing.
        u.need[self.n()] = pool.len().saturating_sub(held) as u8;
        (known, u)
    }

    /// [`Game::determinize`]: see the module docs.
    pub(super) fn determinize_for(&self, observer: Seat, rng: &mut Rng) -> Wizard {
        let observer = observer % self.n();
        if matches!(self.phase, Phase::Deal | Phase::Over) {
            // Nothing hidden is in play: the next deal is chance.
            let mut d = self.clone();
            d.observer = None;
            d.unknown = CardSet::EMPTY;
            return d;
        }
        let (known, unseen) = self.unseen_for(observer);
        let Some(dealt) = sample_deal_or_drop_inferences(&unseen, rng) else {
            return self.clone();
        };
        let mut d = self.clone();
        d.observer = None;
        d.unknown = CardSet::EMPTY;
        for s in 0..self.n() {
            d.hands[s] = known[s] | dealt[s];
        }
        d
    }

    /// [`Game::tell`]: what a seat-bound player at `seat` is told about
    /// `mv`: its own cards and the turned-up card at a deal, and every
    /// other seat's move.
    pub(super) fn tell_seat(&self, mv: WizardMove, seat: Seat) -> Vec<Observation<WizardMove>> {
        let seat = seat % self.n();
        match (self.phase, mv) {
            (Phase::Deal, WizardMove::Deal(seed)) if self.observer.is_none() => {
                let (hands, turned) = self.seeded_deal(seed);
                vec![Observation::Dealt(WizardMove::Hand(hands[seat], turned))]
            }
            (Phase::Deal, _) => Vec::new(),
            _ => match self.turn() {
                Turn::Player(p) if p != seat => vec![Observation::Played { seat: p, mv }],
                _ => Vec::new(),
            },
        }
    }
}
