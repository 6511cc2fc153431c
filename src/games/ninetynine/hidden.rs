//! What a seat knows and how hidden cards are drawn: the public generation
//! bookkeeping of the stock, plausibility of other seats' plays in a
//! seat-bound state, the unseen pools per generation, determinization, and
//! what the referee tells each seat.

// Seat-indexed parallel arrays read best with seat indices.
#![allow(clippy::needless_range_loop)]

use super::{
    FILLER, HAND_SIZE, MAX_PLAYERS, NinetyNine, NnMove, Phase, card_at, choices, play_value,
};
use crate::model::game::{Observation, Rng, Seat};
use crate::games::cards::{Card, shuffle};

/// Unseen cards of one generation, and the slots they fill: `(seat, count)`
/// with `None` for the stock.
type Pool = (Vec<Card>, Vec<(Option<Seat>, usize)>);

impl NinetyNine {
    /// Removes a slot of generation `g` (or the oldest) from a seat.
    pub(super) fn remove_slot(&mut self, seat: Seat, g: u16) {
        let k = self.counts[seat] as usize;
        if k == 0 {
            return;
        }
        let i = self.slots[seat][..k]
            .iter()
            .position(|&x| x == g)
            .unwrap_or(0);
        self.slots[seat].copy_within(i + 1..k, i);
        self.slots[seat][k - 1] = 0;
    }

    /// Public bookkeeping of a play of `card` by `seat`: which live copy
    /// (generation) it was. Exact with one deck; with two, the oldest
    /// generation the seat holds a slot of.
    pub(super) fn take_live(&mut self, seat: Seat, card: Card) -> u16 {
        let c = card.index();
        let n = (self.live[c] as usize).min(2);
        let gens = &self.live_gens[c][..n];
        let held = &self.slots[seat][..self.counts[seat] as usize];
        let pick = (0..n)
            .filter(|&i| held.contains(&gens[i]))
            .min_by_key(|&i| gens[i])
            .unwrap_or(0);
        let g = gens.get(pick).copied().unwrap_or(0);
        if n > 0 {
            self.live_gens[c].copy_within(pick + 1..2, pick);
            self.live_gens[c][1] = 0;
            self.live[c] -= 1;
        }
        g
    }

    /// Copies of `card` the observer of a seat-bound state has not seen.
    pub(super) fn unseen_copies(&self, card: Card) -> u8 {
        let own = self.observer.map_or(0, |o| {
            self.hand_slice(o).iter().filter(|&&c| c == card).count() as u8
        });
        self.live[card.index()].saturating_sub(own)
    }

    /// Seat-bound: whether another seat could have made this play.
    pub(super) fn plausible(&self, mv: NnMove) -> bool {
        let p = self.to_move as usize;
        match mv {
            NnMove::Play(c, ch) => {
                let held = &self.slots[p][..self.counts[p] as usize];
                let n = (self.live[c.index()] as usize).min(2);
                // With two decks the generation bookkeeping is a best guess:
                // never refuse a play on its account.
                c.is_normal()
                    && self.counts[p] > 0
                    && self.unseen_copies(c) > 0
                    && (self.cfg.decks > 1
                        || self.live_gens[c.index()][..n]
                            .iter()
                            .any(|g| held.contains(g)))
                    && play_value(self.total, c, ch).is_some()
            }
            NnMove::Lose => {
                // Some hand of unseen cards might have nothing to play.
                let stuck: usize = (0..52)
                    .map(card_at)
                    .filter(|&c| {
                        choices(c)
                            .iter()
                            .all(|&ch| play_value(self.total, c, ch).is_none())
                    })
                    .map(|c| self.unseen_copies(c) as usize)
                    .sum();
                stuck >= self.counts[p] as usize
            }
            _ => false,
        }
    }

    /// The generation split of what `observer` does not see, as pools of
    /// cards with, per pool, the slots to fill: `(seat or None for the
    /// stock, count)`. One pool per generation when the bookkeeping is
    /// consistent, else a single pool.
    pub(super) fn unseen_pools(&self, observer: Seat) -> Vec<Pool> {
        let n = self.cfg.players;
        // The live copies as (generation, card), less the observer's own,
        // matched to its slots.
        let mut live: Vec<(u16, Card)> = Vec::new();
        for c in 0..52 {
            for &g in &self.live_gens[c][..(self.live[c] as usize).min(2)] {
                live.push((g, card_at(c)));
            }
        }
        let mut own_slots: Vec<u16> =
            self.slots[observer][..self.counts[observer] as usize].to_vec();
        let mut consistent = true;
        for &c in self.hand_slice(observer) {
            let pos = live
                .iter()
                .position(|&(g, x)| x == c && own_slots.contains(&g))
                .or_else(|| {
                    consistent = false;
                    live.iter().position(|&(_, x)| x == c)
                });
            match pos {
                Some(i) => {
                    let (g, _) = live.remove(i);
                    if let Some(j) = own_slots.iter().position(|&x| x == g) {
                        own_slots.remove(j);
                    }
                }
                None => consistent = false,
            }
        }
        live.sort();
        let mut gens: Vec<u16> = live.iter().map(|&(g, _)| g).collect();
        gens.dedup();
        let mut pools = Vec::new();
        for &g in &gens {
            let cards: Vec<Card> = live
                .iter()
                .filter(|&&(x, _)| x == g)
                .map(|&(_, c)| c)
                .collect();
            let mut slots = Vec::new();
            for s in 0..n {
                if s != observer {
                    let k = self.slots[s][..self.counts[s] as usize]
                        .iter()
                        .filter(|&&x| x == g)
                        .count();
                    if k > 0 {
                        slots.push((Some(s), k));
                    }
                }
            }
            if g == self.generation && self.stock_len > 0 {
                slots.push((None, self.stock_len as usize));
            }
            consistent &= slots.iter().map(|&(_, k)| k).sum::<usize>() == cards.len();
            pools.push((cards, slots));
        }
        // Every other seat's slots must be covered by some pool.
        let covered: usize = pools
            .iter()
            .flat_map(|(_, s)| s.iter().map(|&(_, k)| k))
            .sum();
        let wanted: usize = (0..n)
            .filter(|&s| s != observer)
            .map(|s| self.counts[s] as usize)
            .sum::<usize>()
            + self.stock_len as usize;
        if consistent && covered == wanted {
            return pools;
        }
        let cards: Vec<Card> = live.iter().map(|&(_, c)| c).collect();
        let mut slots: Vec<(Option<Seat>, usize)> = (0..n)
            .filter(|&s| s != observer && self.counts[s] > 0)
            .map(|s| (Some(s), self.counts[s] as usize))
            .collect();
        if self.stock_len > 0 {
            slots.push((None, self.stock_len as usize));
        }
        vec![(cards, slots)]
    }

    /// [`Game::determinize`]: see the module docs.
    pub(super) fn determinize_for(&self, observer: Seat, rng: &mut Rng) -> NinetyNine {
        let observer = observer % self.cfg.players;
        let mut d = self.clone();
        d.observer = None;
        if matches!(self.phase, Phase::Deal | Phase::Over) {
            // Nothing hidden is in play: the next deal is chance.
            return d;
        }
        let own = self.hands[observer];
        d.hands = [[FILLER; HAND_SIZE]; MAX_PLAYERS];
        d.hands[observer] = own;
        d.stock = [0; 52];
        let mut fill = [0usize; MAX_PLAYERS];
        for (mut cards, slots) in self.unseen_pools(observer) {
            shuffle(&mut cards, rng);
            let mut at = 0;
            for (who, k) in slots {
                for &c in cards.iter().skip(at).take(k) {
                    match who {
                        Some(s) => {
                            if fill[s] < HAND_SIZE {
                                d.hands[s][fill[s]] = c;
                                fill[s] += 1;
                            }
                        }
                        None => d.stock[c.index()] += 1,
                    }
                }
                at += k;
            }
        }
        for s in 0..self.cfg.players {
            if s != observer {
                d.hands[s][..fill[s]].sort();
            }
        }
        d
    }

    /// [`Game::tell`]: what a seat-bound player at `seat` is told about
    /// `mv`: its own 3 cards at a deal (none once it is out), its own
    /// draws, and every other seat's play (their draws are implied).
    pub(super) fn tell_seat(&self, mv: NnMove, seat: Seat) -> Vec<Observation<NnMove>> {
        let seat = seat % self.cfg.players;
        match (self.phase, mv) {
            (Phase::Deal, NnMove::Deal(seed)) if self.observer.is_none() => {
                if self.tokens[seat] == 0 {
                    return Vec::new();
                }
                let (hands, _) = self.seeded_deal(seed);
                let mut cards = [FILLER; HAND_SIZE];
                cards.copy_from_slice(&hands[seat][..HAND_SIZE]);
                vec![Observation::Dealt(NnMove::Hand(cards))]
            }
            (Phase::Draw, NnMove::Draw(_)) if seat == self.to_move as usize => {
                vec![Observation::Dealt(mv)]
            }
            (Phase::Play, _) if seat != self.to_move as usize => {
                vec![Observation::Played {
                    seat: self.to_move as usize,
                    mv,
                }]
            }
            _ => Vec::new(),
        }
    }
}
