//! What a seat knows and how hidden hands are drawn: plausibility of other
//! seats' plays in a seat-bound state, determinization, and what the
//! referee tells each seat.

// Seat-indexed parallel arrays read best with seat indices.
#![allow(clippy::needless_range_loop)]

use super::{HAND_SIZE, Hearts, HeartsMove, Phase, SEATS};
use crate::model::game::{Observation, Rng, Seat};
use crate::games::cards::{
    Card, CardSet, Unseen, deal_seeded, sample_deal, sample_deal_or_drop_inferences,
};

impl Hearts {
    /// Seat-bound: whether another seat's play of `card` is consistent with
    /// everything known (the rules, given the cards known in its hand, and
    /// a consistent deal of the rest afterwards).
    pub(super) fn plausible_play(&self, card: Card) -> bool {
        let p = self.to_move as usize;
        let known = self.hands[p];
        if !(known | self.unknown).contains(card)
            || self.forbidden[p].contains(card)
            || self.counts[p] == 0
        {
            return false;
        }
        // A rule that forbids the card for a hand of just the known cards
        // and this one forbids it for any hand holding them.
        if !self
            .legal_from(known | CardSet::single(card))
            .contains(card)
        {
            return false;
        }
        let mut next = self.clone();
        next.play_card(card);
        next.observer_unseen().feasible()
    }

    /// Seat-bound: the unseen pool and constraints.
    pub(super) fn observer_unseen(&self) -> Unseen<SEATS> {
        let mut u = Unseen {
            pool: self.unknown,
            ..Unseen::default()
        };
        for s in 0..SEATS {
            if Some(s) != self.observer {
                u.need[s] = self.counts[s].saturating_sub(self.hands[s].len() as u8);
                u.forbidden[s] = self.forbidden[s];
            }
        }
        u
    }

    /// What `observer` knows in the play phase: the cards known in each hand
    /// and the unseen pool with its constraints. Computed from the
    /// observer's information only.
    pub(super) fn knowledge(&self, observer: Seat) -> ([CardSet; 4], Unseen<SEATS>) {
        if self.observer.is_some() {
            return (self.hands, self.observer_unseen());
        }
        let mut known = [CardSet::EMPTY; 4];
        known[observer] = self.hands[observer];
        if let Some(t) = self
            .pass_target(observer)
            .filter(|_| self.passed & (1 << observer) != 0)
        {
            known[t] = self.passes[observer] - self.played;
        }
        let seen = known.iter().fold(self.played, |a, &k| a | k);
        let mut u = Unseen {
            pool: CardSet::DECK - seen,
            ..Unseen::default()
        };
        for s in 0..SEATS {
            if s != observer {
                u.need[s] = self.counts[s].saturating_sub(known[s].len() as u8);
                u.forbidden[s] = self.forbidden[s];
            }
        }
        (known, u)
    }

    /// A full state consistent with `observer`'s knowledge during the pass
    /// (and, seat-bound, while waiting for the received cards).
    fn determinize_pass(&self, observer: Seat, rng: &mut Rng) -> Hearts {
        let own = self.hands[observer];
        let own_pass = self.passes[observer];
        let mut u: Unseen<SEATS> = Unseen {
            pool: CardSet::DECK - own - own_pass,
            ..Unseen::default()
        };
        for s in 0..SEATS {
            if s != observer {
                u.need[s] = HAND_SIZE as u8;
            }
        }
        let Some(dealt) = sample_deal(&u, rng) else {
            return self.clone();
        };
        let mut d = self.clone();
        d.observer = None;
        d.unknown = CardSet::EMPTY;
        // Who has passed is public in a full state (turns go 0..3); a
        // seat-bound state is at its own pass (earlier seats have passed) or
        // waiting to receive (everyone has).
        let passed = match (self.observer, self.phase) {
            (None, _) => self.passed,
            (Some(_), Phase::Pass) => ((1u8 << observer) - 1) | (self.passed & (1 << observer)),
            (Some(_), _) => 0xF,
        };
        for s in 0..SEATS {
            d.passes[s] = CardSet::EMPTY;
            d.received[s] = CardSet::EMPTY;
            if s == observer {
                d.hands[s] = own;
                d.passes[s] = own_pass;
            } else {
                d.hands[s] = dealt[s];
                if passed & (1 << s) != 0 {
                    d.passes[s] = dealt[s].choose_subset(3, rng);
                    d.hands[s] -= d.passes[s];
                }
            }
        }
        d.counts = [HAND_SIZE as u8; 4];
        d.passed = passed;
        d.phase = Phase::Pass;
        if passed == 0xF {
            d.exchange();
        } else {
            d.to_move = (0..SEATS).find(|&s| passed & (1 << s) == 0).unwrap_or(0) as u8;
        }
        d
    }

    /// [`Game::determinize`]: see the module docs.
    pub(super) fn determinize_for(&self, observer: Seat, rng: &mut Rng) -> Hearts {
        let observer = observer % SEATS;
        match self.phase {
            Phase::Over => self.clone(),
            Phase::Deal => {
                let mut d = self.clone();
                d.observer = None;
                d
            }
            Phase::Pass | Phase::Receive => self.determinize_pass(observer, rng),
            Phase::Play | Phase::Opener => {
                let (known, unseen) = self.knowledge(observer);
                let Some(dealt) = sample_deal_or_drop_inferences(&unseen, rng) else {
                    return self.clone();
                };
                let mut d = self.clone();
                d.observer = None;
                d.unknown = CardSet::EMPTY;
                for s in 0..SEATS {
                    d.hands[s] = known[s] | dealt[s];
                    if s != observer {
                        d.passes[s] = CardSet::EMPTY;
                        d.received[s] = CardSet::EMPTY;
                    }
                }
                if self.phase == Phase::Opener {
                    d.begin_play();
                }
                d
            }
        }
    }

    /// [`Game::tell`]: what a seat-bound player at `seat` is told about
    /// `mv`: its own 13 cards at a deal, the 3 cards it receives once every
    /// seat has passed (passes are secret until then), and another seat's
    /// play, preceded on the first lead by who holds `2C` unless the seat
    /// knows it (it passed `2C` there).
    pub(super) fn tell_seat(&self, mv: HeartsMove, seat: Seat) -> Vec<Observation<HeartsMove>> {
        let seat = seat % SEATS;
        match (self.phase, mv) {
            (Phase::Deal, HeartsMove::Deal(seed)) if self.observer.is_none() => {
                let h = deal_seeded(seed, CardSet::DECK, &[HAND_SIZE; 4]);
                vec![Observation::Dealt(HeartsMove::Hand(h[seat]))]
            }
            (Phase::Pass, HeartsMove::Pass(set)) if self.observer.is_none() => {
                let p = self.to_move as usize;
                if self.passed | (1 << p) != 0xF {
                    return Vec::new();
                }
                let off = self.pass_offset().unwrap_or(0);
                let from = (seat + SEATS - off) % SEATS;
                let got = if from == p { set } else { self.passes[from] };
                vec![Observation::Dealt(HeartsMove::Receive(got))]
            }
            (Phase::Play, HeartsMove::Play(_)) => {
                let p = self.to_move as usize;
                if p == seat {
                    return Vec::new();
                }
                let mut out = Vec::new();
                let knows_opener = self.pass_target(seat) == Some(p)
                    && self.passes[seat].contains(Card::TWO_CLUBS);
                if self.observer.is_none()
                    && self.tricks == 0
                    && self.trick_len == 0
                    && !knows_opener
                {
                    out.push(Observation::Dealt(HeartsMove::Opener(p as u8)));
                }
                out.push(Observation::Played { seat: p, mv });
                out
            }
            _ => Vec::new(),
        }
    }
}
