//! The constrained deal sampler of determinization: [`sample_deal`] deals
//! the cards an observer has not seen ([`Unseen`]) to the hidden hands,
//! keeping each hand's size and what is publicly known about it (shown
//! voids and similar inferences).

use super::{Card, CardSet, shuffle};

/// What an observer does not see, for [`sample_deal`]: the pool of unseen
/// cards, how many of them each of `N` seats holds, and the cards each seat
/// is known not to hold (shown voids and similar inferences).
///
/// `N` is the game's own count of hands to fill: its seats, plus any
/// pseudo-seat for cards left undealt (at most 32).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unseen<const N: usize> {
    /// The unseen cards; they are exactly the cards to deal.
    pub pool: CardSet,
    /// How many unseen cards each seat holds (0 for the observer).
    pub need: [u8; N],
    /// Cards each seat cannot hold.
    pub forbidden: [CardSet; N],
}

impl<const N: usize> Default for Unseen<N> {
    fn default() -> Self {
        Unseen {
            pool: CardSet::EMPTY,
            need: [0; N],
            forbidden: [CardSet::EMPTY; N],
        }
    }
}

impl<const N: usize> Unseen<N> {
    /// The seats allowed to hold a card are a bitmask of `u32`.
    const SEATS_FIT_A_MASK: () = assert!(N <= 32, "Unseen handles at most 32 hands");

    fn allowed_mask(&self, card: Card) -> u32 {
        let () = Self::SEATS_FIT_A_MASK;
        let mut m = 0u32;
        for s in 0..N {
            if self.need[s] > 0 && !self.forbidden[s].contains(card) {
                m |= 1 << s;
            }
        }
        m
    }

    /// Whether some deal satisfies every constraint (Hall's condition: for
    /// every group of seats, the cards that only they can hold fit in their
    /// hands), and the sizes add up to the pool.
    pub fn feasible(&self) -> bool {
        let total: usize = self.need.iter().map(|&n| n as usize).sum();
        if total != self.pool.len() {
            return false;
        }
        let seats: Vec<usize> = (0..N).filter(|&s| self.need[s] > 0).collect();
        let mut only = vec![0usize; 1 << seats.len()];
        for c in self.pool {
            let m = self.allowed_mask(c);
            let mut local = 0usize;
            for (i, &s) in seats.iter().enumerate() {
                if m >> s & 1 != 0 {
                    local |= 1 << i;
                }
            }
            if local == 0 {
                return false;
            }
            only[local] += 1;
        }
        (1..only.len()).all(|group| {
            let cards: usize = (1..only.len())
                .filter(|&sub| sub & !group == 0)
                .map(|sub| only[sub])
                .sum();
            let room: usize = seats
                .iter()
                .enumerate()
                .filter(|(i, _)| group >> i & 1 != 0)
                .map(|(_, &s)| self.need[s] as usize)
                .sum();
            cards <= room
        })
    }

    fn satisfied_by(&self, hands: &[CardSet; N]) -> bool {
        (0..N).all(|s| !hands[s].intersects(self.forbidden[s]))
    }
}

/// A callback receiving capacities left, shares and weight.
type SplitFn<'a, const N: usize> = dyn FnMut(&mut [u8; N], &[u8; N], f64) + 'a;

/// `k!` for every share size up to a whole 60-card pool.
const FACTORIALS: usize = 61;

/// How many plain shuffles [`sample_deal`] tries before its exact sampler.
const REJECTION_TRIES: usize = 24;

/// Deals the unseen pool to the seats: returns each seat's unseen cards
/// (`need[s]` of them, none forbidden to it), or `None` if no such deal
/// exists (see [`Unseen::feasible`]).
///
/// Uniform over all consistent deals when at most three seats receive cards
/// (the card games' case): plain shuffles are tried first and kept only if
/// they meet the constraints (rejection keeps uniformity); after a few
/// failures an exact sampler counts the deals per way of splitting each
/// class of equally-constrained cards among the seats and draws in
/// proportion. With more seats the fallback deals card by card keeping the
/// rest feasible: always consistent, close to but not exactly uniform.
///
/// The generator is used only as a function of `unseen`, so callers whose
/// `unseen` depends only on what an observer knows get draws that do not
/// depend on the actual hidden cards.
pub fn sample_deal<const N: usize, R: rand::Rng + ?Sized>(
    unseen: &Unseen<N>,
    rng: &mut R,
) -> Option<[CardSet; N]> {
    let total: usize = unseen.need.iter().map(|&n| n as usize).sum();
    if total != unseen.pool.len() {
        return None;
    }
    let constrained =
        (0..N).any(|s| unseen.need[s] > 0 && unseen.forbidden[s].intersects(unseen.pool));
    let mut cards = [Card(0); 64];
    let n = unseen.pool.len();
    for (slot, c) in cards.iter_mut().zip(unseen.pool) {
        *slot = c;
    }
    let tries = if constrained { REJECTION_TRIES } else { 1 };
    for _ in 0..tries {
        shuffle(&mut cards[..n], rng);
        let mut hands = [CardSet::EMPTY; N];
        let mut at = 0;
        for (hand, &k) in hands.iter_mut().zip(&unseen.need) {
            let k = k as usize;
            *hand = cards[at..at + k].iter().copied().collect();
            at += k;
        }
        if !constrained || unseen.satisfied_by(&hands) {
            return Some(hands);
        }
    }
    if !unseen.feasible() {
        return None;
    }
    let seats = (0..N).filter(|&s| unseen.need[s] > 0).count();
    if seats <= 3 {
        exact_sample(unseen, rng)
    } else {
        sequential_sample(unseen, rng)
    }
}

/// [`sample_deal`] for a determinization that must produce a world: when no
/// deal meets the constraints, which only inconsistent input can cause, it
/// deals again keeping the hand sizes but dropping the inferences
/// (`forbidden`). `None` only when even the sizes do not add up.
pub fn sample_deal_or_drop_inferences<const N: usize, R: rand::Rng + ?Sized>(
    unseen: &Unseen<N>,
    rng: &mut R,
) -> Option<[CardSet; N]> {
    sample_deal(unseen, rng).or_else(|| {
        let sizes_only = Unseen {
            forbidden: [CardSet::EMPTY; N],
            ..*unseen
        };
        sample_deal(&sizes_only, rng)
    })
}

/// Exact uniform sampling: cards are grouped by the set of seats allowed to
/// hold them; the number of deals with `k[c][s]` cards of class `c` going to
/// seat `s` is proportional to the product of `1 / k[c][s]!`.
fn exact_sample<const N: usize, R: rand::Rng + ?Sized>(
    unseen: &Unseen<N>,
    rng: &mut R,
) -> Option<[CardSet; N]> {
    let mut classes: Vec<(u32, CardSet)> = Vec::new();
    for c in unseen.pool {
        let m = unseen.allowed_mask(c);
        match classes.iter_mut().find(|(mask, _)| *mask == m) {
            Some((_, set)) => set.insert(c),
            None => classes.push((m, CardSet::single(c))),
        }
    }
    let mut fact = [1.0f64; FACTORIALS];
    for i in 1..FACTORIALS {
        fact[i] = fact[i - 1] * i as f64;
    }
    // Every complete split: its weight and, per class, the count per seat.
    let mut splits: Vec<(f64, Vec<[u8; N]>)> = Vec::new();
    let mut current: Vec<[u8; N]> = Vec::new();
    let mut cap = unseen.need;
    enumerate_splits(&classes, 0, &mut cap, 1.0, &fact, &mut current, &mut splits);
    let total: f64 = splits.iter().map(|(w, _)| w).sum();
    if splits.is_empty() || total <= 0.0 {
        return None;
    }
    let mut x = rng.gen_range(0.0..total);
    let mut chosen = &splits[splits.len() - 1].1;
    for (w, split) in &splits {
        if x < *w {
            chosen = split;
            break;
        }
        x -= w;
    }
    let mut hands = [CardSet::EMPTY; N];
    for ((_, set), counts) in classes.iter().zip(chosen) {
        let mut rest = *set;
        for s in 0..N {
            let part = rest.choose_subset(counts[s] as usize, rng);
            hands[s] |= part;
            rest -= part;
        }
    }
    Some(hands)
}

#[allow(clippy::too_many_arguments)]
fn enumerate_splits<const N: usize>(
    classes: &[(u32, CardSet)],
    at: usize,
    cap: &mut [u8; N],
    weight: f64,
    fact: &[f64; FACTORIALS],
    current: &mut Vec<[u8; N]>,
    out: &mut Vec<(f64, Vec<[u8; N]>)>,
) {
    let Some(&(mask, set)) = classes.get(at) else {
        if cap.iter().all(|&c| c == 0) {
            out.push((weight, current.clone()));
        }
        return;
    };
    let seats: Vec<usize> = (0..N).filter(|&s| mask >> s & 1 != 0).collect();
    let mut counts = [0u8; N];
    distribute(
        set.len(),
        &seats,
        0,
        cap,
        &mut counts,
        weight,
        &mut |cap, counts, w| {
            current.push(*counts);
            enumerate_splits(classes, at + 1, cap, w, fact, current, out);
            current.pop();
        },
        fact,
    );
}

/// Calls `f` for every way of giving `left` cards to `seats[i..]` within
/// their capacities, with the weight multiplied by `1 / k!` per share.
#[allow(clippy::too_many_arguments)]
fn distribute<const N: usize>(
    left: usize,
    seats: &[usize],
    i: usize,
    cap: &mut [u8; N],
    counts: &mut [u8; N],
    weight: f64,
    f: &mut SplitFn<N>,
    fact: &[f64; FACTORIALS],
) {
    let Some(&s) = seats.get(i) else {
        if left == 0 {
            f(cap, counts, weight);
        }
        return;
    };
    let max = left.min(cap[s] as usize);
    let (lo, hi) = if i + 1 == seats.len() {
        (left, left)
    } else {
        (0, max)
    };
    if lo > max {
        return;
    }
    for k in lo..=hi {
        cap[s] -= k as u8;
        counts[s] = k as u8;
        distribute(
            left - k,
            seats,
            i + 1,
            cap,
            counts,
            weight / fact[k],
            f,
            fact,
        );
        counts[s] = 0;
        cap[s] += k as u8;
    }
}

/// Card-by-card dealing that keeps the rest feasible: consistent, roughly
/// uniform. Used when more than three seats are unseen.
fn sequential_sample<const N: usize, R: rand::Rng + ?Sized>(
    unseen: &Unseen<N>,
    rng: &mut R,
) -> Option<[CardSet; N]> {
    let mut hands = [CardSet::EMPTY; N];
    let mut rest = *unseen;
    let mut cards = unseen.pool.to_vec();
    shuffle(&mut cards, rng);
    // Most constrained cards first, so that dead ends are found early.
    cards.sort_by_key(|&c| unseen.allowed_mask(c).count_ones());
    for c in cards {
        let mut options: Vec<usize> = Vec::new();
        for s in 0..N {
            if rest.need[s] > 0 && !rest.forbidden[s].contains(c) {
                options.push(s);
            }
        }
        shuffle(&mut options, rng);
        let mut placed = false;
        for s in options {
            let mut next = rest;
            next.pool.remove(c);
            next.need[s] -= 1;
            if next.feasible() {
                rest = next;
                hands[s].insert(c);
                placed = true;
                break;
            }
        }
        if !placed {
            return None;
        }
    }
    Some(hands)
}

#[cfg(test)]
#[allow(clippy::needless_range_loop)]
mod tests {
    use super::*;
    use crate::games::cards::Suit;
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    /// The unseen `pool` that seats hold `need` cards of, nothing
    /// forbidden yet.
    fn unseen<const N: usize>(pool: &str, need: [u8; N]) -> Unseen<N> {
        Unseen {
            pool: pool.parse().unwrap(),
            need,
            ..Unseen::default()
        }
    }

    #[test]
    fn sampler_respects_constraints() {
        let mut rng = SmallRng::seed_from_u64(7);
        let mut u = unseen("2C 3C 4C 5D 6D 7H 8H 9S", [0, 3, 3, 2]);
        u.forbidden[1] = CardSet::suit(Suit::Clubs) | CardSet::suit(Suit::Diamonds);
        u.forbidden[2] = CardSet::suit(Suit::Hearts);
        assert!(u.feasible());
        for _ in 0..500 {
            let h = sample_deal(&u, &mut rng).unwrap();
            assert_eq!(h[1] | h[2] | h[3], u.pool);
            for s in 1..4 {
                assert_eq!(h[s].len(), u.need[s] as usize);
                assert!(!h[s].intersects(u.forbidden[s]));
            }
        }
        // Seat 1 may hold only 7H 8H 9S: it needs three, fine; needing four is not.
        u.need[1] = 4;
        u.need[3] = 1;
        assert!(!u.feasible());
        assert!(sample_deal(&u, &mut rng).is_none());
    }

    #[test]
    fn inconsistent_inferences_are_dropped_not_the_sizes() {
        let mut rng = SmallRng::seed_from_u64(5);
        let mut u = unseen("2C 3C 4C 5D", [0, 2, 2]);
        // Both seats void in clubs: no deal fits the inferences.
        u.forbidden[1] = CardSet::suit(Suit::Clubs);
        u.forbidden[2] = CardSet::suit(Suit::Clubs);
        assert!(sample_deal(&u, &mut rng).is_none());
        let h = sample_deal_or_drop_inferences(&u, &mut rng).unwrap();
        assert_eq!(h[1] | h[2], u.pool);
        assert_eq!((h[1].len(), h[2].len()), (2, 2));
        // Sizes that do not add up are still refused.
        u.need[2] = 1;
        assert!(sample_deal_or_drop_inferences(&u, &mut rng).is_none());
    }

    #[test]
    fn sequential_fallback_is_consistent() {
        let mut rng = SmallRng::seed_from_u64(3);
        let mut u = Unseen {
            pool: CardSet(0xFFFF),
            need: [4; 4],
            ..Unseen::default()
        };
        for s in 0..4 {
            u.forbidden[s] = CardSet(0xF << (4 * s)) | CardSet(1 << ((4 * s + 5) % 16));
        }
        for _ in 0..200 {
            let h = sequential_sample(&u, &mut rng).unwrap();
            for s in 0..4 {
                assert_eq!(h[s].len(), 4);
                assert!(!h[s].intersects(u.forbidden[s]));
            }
        }
    }
}
