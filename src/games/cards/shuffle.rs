//! Shuffles: [`SplitMix64`], a portable generator, and [`deal_seeded`],
//! the deal a self-dealt card game's 64-bit seed stands for (bit for bit
//! the same on every machine: recorded deals and transcripts depend on it);
//! and [`shuffle`], Fisher-Yates over any generator.

use super::CardSet;

/// SplitMix64: a tiny generator with a fixed, portable output sequence,
/// so that a deal told as a 64-bit seed is the same deal on every machine
/// and with every version of `rand` (whose `SmallRng` is not portable).
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator from a seed.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64-bit output.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A value in `0..n` (`n > 0`), by multiply-shift (bias below 2^-32
    /// for deck sizes; fine for dealing).
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }
}

/// Deals the cards of `pool`, shuffled by a portable generator seeded with
/// `seed`, into hands of the given sizes (in seat order). Cards beyond the
/// total of `sizes` are left out; sizes beyond the pool get fewer cards.
pub fn deal_seeded(seed: u64, pool: CardSet, sizes: &[usize]) -> Vec<CardSet> {
    let mut cards = pool.to_vec();
    let mut g = SplitMix64::new(seed);
    for i in (1..cards.len()).rev() {
        let j = g.below(i + 1);
        cards.swap(i, j);
    }
    let mut hands = Vec::with_capacity(sizes.len());
    let mut rest = cards.as_slice();
    for &n in sizes {
        let (h, r) = rest.split_at(n.min(rest.len()));
        hands.push(h.iter().copied().collect());
        rest = r;
    }
    hands
}

/// Shuffles a slice with the given generator (Fisher–Yates).
pub fn shuffle<T, R: rand::Rng + ?Sized>(items: &mut [T], rng: &mut R) {
    for i in (1..items.len()).rev() {
        let j = rng.gen_range(0..=i);
        items.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_deal_is_a_partition_and_portable() {
        let hands = deal_seeded(42, CardSet::DECK, &[13, 13, 13, 13]);
        let mut all = CardSet::EMPTY;
        for h in &hands {
            assert_eq!(h.len(), 13);
            assert!(!all.intersects(*h));
            all |= *h;
        }
        assert_eq!(all, CardSet::DECK);
        assert_eq!(hands, deal_seeded(42, CardSet::DECK, &[13, 13, 13, 13]));
        assert_ne!(hands, deal_seeded(43, CardSet::DECK, &[13, 13, 13, 13]));
        // Fixed output: a change here breaks recorded deals.
        let mut g = SplitMix64::new(0);
        assert_eq!(g.next_u64(), 0xE220_A839_7B1D_CDAF);
    }
}
