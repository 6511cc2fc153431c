//! A set of cards, [`CardSet`]: a hand, a deck, a pile, a trick's cards, as
//! one 64-bit mask indexed by [`Card::index`], with the set operations as
//! operators and a list text (`2C 5C QS`).

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not, Sub, SubAssign};
use std::str::FromStr;

use super::{Card, CardParseError, Suit};

/// A set of cards as a 64-bit mask (bit = [`Card::index`]). `Copy`, and
/// every set operation is one or two instructions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CardSet(pub u64);

impl CardSet {
    /// No cards.
    pub const EMPTY: CardSet = CardSet(0);
    /// The 52 normal cards.
    pub const DECK: CardSet = CardSet((1 << 52) - 1);
    /// The 4 wizards.
    pub const WIZARDS: CardSet = CardSet(0xF << 52);
    /// The 4 jesters.
    pub const JESTERS: CardSet = CardSet(0xF << 56);

    /// The 13 cards of `suit`.
    pub const fn suit(suit: Suit) -> CardSet {
        CardSet(0x1FFF << (suit as u8 * 13))
    }

    /// A set holding one card.
    pub const fn single(card: Card) -> CardSet {
        CardSet(1 << card.0)
    }

    /// Whether `card` is in the set.
    pub fn contains(self, card: Card) -> bool {
        self.0 >> card.0 & 1 != 0
    }

    /// Adds a card.
    pub fn insert(&mut self, card: Card) {
        self.0 |= 1 << card.0;
    }

    /// Removes a card.
    pub fn remove(&mut self, card: Card) {
        self.0 &= !(1 << card.0);
    }

    /// Number of cards.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether every card of `self` is in `other`.
    pub fn is_subset(self, other: CardSet) -> bool {
        self.0 & !other.0 == 0
    }

    /// Whether the two sets share a card.
    pub fn intersects(self, other: CardSet) -> bool {
        self.0 & other.0 != 0
    }

    /// The cards of `suit` in the set.
    pub fn of_suit(self, suit: Suit) -> CardSet {
        self & CardSet::suit(suit)
    }

    /// The lowest-indexed card (lowest suit, then lowest rank).
    pub fn lowest(self) -> Option<Card> {
        (self.0 != 0).then(|| Card(self.0.trailing_zeros() as u8))
    }

    /// The highest-indexed card (within one suit: the highest rank).
    pub fn highest(self) -> Option<Card> {
        (self.0 != 0).then(|| Card(63 - self.0.leading_zeros() as u8))
    }

    /// The `k`-th card in index order (0-based), if there are that many.
    pub fn nth(self, k: usize) -> Option<Card> {
        let mut bits = self.0;
        for _ in 0..k {
            bits &= bits.wrapping_sub(1);
        }
        CardSet(bits).lowest()
    }

    /// A uniformly random card of the set, `None` if it is empty.
    pub fn choose<R: rand::Rng + ?Sized>(self, rng: &mut R) -> Option<Card> {
        match self.len() {
            0 => None,
            n => self.nth(rng.gen_range(0..n)),
        }
    }

    /// A uniformly random subset of `k` cards (all of them if fewer).
    pub fn choose_subset<R: rand::Rng + ?Sized>(self, k: usize, rng: &mut R) -> CardSet {
        let mut rest = self;
        let mut out = CardSet::EMPTY;
        for _ in 0..k.min(self.len()) {
            if let Some(c) = rest.choose(rng) {
                rest.remove(c);
                out.insert(c);
            }
        }
        out
    }

    /// Iterates the cards in index order.
    pub fn iter(self) -> CardIter {
        CardIter(self.0)
    }

    /// The cards as a vector, in index order.
    pub fn to_vec(self) -> Vec<Card> {
        self.iter().collect()
    }

    /// Parses a list of distinct cards separated by spaces, commas or `+`.
    pub fn parse_list(text: &str) -> Result<CardSet, CardParseError> {
        let mut set = CardSet::EMPTY;
        for word in text
            .split(|c: char| c.is_whitespace() || c == ',' || c == '+')
            .filter(|w| !w.is_empty())
        {
            let card: Card = word.parse()?;
            if set.contains(card) {
                return Err(CardParseError(format!("card {card} is listed twice")));
            }
            set.insert(card);
        }
        Ok(set)
    }
}

impl fmt::Display for CardSet {
    /// Cards in index order separated by single spaces (`2C 5C QS`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl FromStr for CardSet {
    type Err = CardParseError;
    fn from_str(s: &str) -> Result<CardSet, CardParseError> {
        CardSet::parse_list(s)
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> CardSet {
        let mut s = CardSet::EMPTY;
        for c in iter {
            s.insert(c);
        }
        s
    }
}

/// Iterator over a [`CardSet`], lowest index first.
#[derive(Clone, Debug)]
pub struct CardIter(u64);

impl Iterator for CardIter {
    type Item = Card;
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let c = Card(self.0.trailing_zeros() as u8);
        self.0 &= self.0 - 1;
        Some(c)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CardIter {}

impl IntoIterator for CardSet {
    type Item = Card;
    type IntoIter = CardIter;
    fn into_iter(self) -> CardIter {
        self.iter()
    }
}

impl BitOr for CardSet {
    type Output = CardSet;
    fn bitor(self, o: CardSet) -> CardSet {
        CardSet(self.0 | o.0)
    }
}

impl BitOrAssign for CardSet {
    fn bitor_assign(&mut self, o: CardSet) {
        self.0 |= o.0;
    }
}

impl BitAnd for CardSet {
    type Output = CardSet;
    fn bitand(self, o: CardSet) -> CardSet {
        CardSet(self.0 & o.0)
    }
}

impl BitAndAssign for CardSet {
    fn bitand_assign(&mut self, o: CardSet) {
        self.0 &= o.0;
    }
}

impl Sub for CardSet {
    type Output = CardSet;
    /// Set difference.
    fn sub(self, o: CardSet) -> CardSet {
        CardSet(self.0 & !o.0)
    }
}

impl SubAssign for CardSet {
    fn sub_assign(&mut self, o: CardSet) {
        self.0 &= !o.0;
    }
}

impl Not for CardSet {
    type Output = CardSet;
    /// Complement within the 60 cards (normal and special).
    fn not(self) -> CardSet {
        CardSet(!self.0 & ((1 << 60) - 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations_and_text() {
        let s: CardSet = "2C 5C QS AH".parse().unwrap();
        assert_eq!(s.len(), 4);
        assert_eq!(s.to_string(), "2C 5C AH QS");
        assert_eq!(s.lowest(), Some(Card::TWO_CLUBS));
        assert_eq!(s.highest(), Some("QS".parse().unwrap()));
        assert_eq!(s.nth(2), Some("AH".parse().unwrap()));
        assert_eq!(s.nth(4), None);
        assert_eq!((s - CardSet::suit(Suit::Clubs)).to_string(), "AH QS");
        assert!(CardSet::parse_list("2C 2c").is_err());
        assert_eq!(CardSet::parse_list("2C,3C+4C").unwrap().len(), 3);
        assert!(s.is_subset(CardSet::DECK));
        assert_eq!((!CardSet::DECK), CardSet::WIZARDS | CardSet::JESTERS);
    }
}
