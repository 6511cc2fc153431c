//! One playing card: [`Card`], its [`Suit`] and [`Rank`], and its text.
//!
//! Text follows the OpenSpiel notation: rank then suit, `2..9 T J Q K A` and
//! `C D H S` (`QS`, `TH`). Wizard's special cards are `Z1..Z4` (wizards) and
//! `N1..N4` (jesters).
//!
//! Encoding: a normal card is `suit * 13 + rank` (0..52), so each suit is a
//! contiguous run of 13 bits in a [`CardSet`](super::CardSet) ordered by
//! rank, and "highest card of a suit in a set" is one bit scan. Wizards are
//! 52..56, jesters 56..60.

use std::fmt;
use std::str::FromStr;

/// A suit, in the order clubs, diamonds, hearts, spades.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Suit {
    /// Clubs (`C`).
    Clubs = 0,
    /// Diamonds (`D`).
    Diamonds = 1,
    /// Hearts (`H`).
    Hearts = 2,
    /// Spades (`S`).
    Spades = 3,
}

impl Suit {
    /// The four suits in index order.
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    /// The suit with index `i` (0..4).
    pub fn from_index(i: usize) -> Option<Suit> {
        Suit::ALL.get(i).copied()
    }

    /// Its index, 0..4.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Its letter: `C`, `D`, `H` or `S`.
    pub fn letter(self) -> char {
        ['C', 'D', 'H', 'S'][self.index()]
    }

    /// Reads a suit letter (either case).
    pub fn from_letter(c: char) -> Option<Suit> {
        match c.to_ascii_uppercase() {
            'C' => Some(Suit::Clubs),
            'D' => Some(Suit::Diamonds),
            'H' => Some(Suit::Hearts),
            'S' => Some(Suit::Spades),
            _ => None,
        }
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A rank, `2` (index 0) to ace (index 12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

impl Rank {
    /// The two, lowest rank.
    pub const TWO: Rank = Rank(0);
    /// The ten.
    pub const TEN: Rank = Rank(8);
    /// The jack.
    pub const JACK: Rank = Rank(9);
    /// The queen.
    pub const QUEEN: Rank = Rank(10);
    /// The king.
    pub const KING: Rank = Rank(11);
    /// The ace, highest rank.
    pub const ACE: Rank = Rank(12);

    /// The rank with index `i` (0 = two .. 12 = ace).
    pub fn from_index(i: usize) -> Option<Rank> {
        (i < 13).then_some(Rank(i as u8))
    }

    /// Its index, 0 (two) to 12 (ace).
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// Its face number: 2..=10, jack 11, queen 12, king 13, ace 14.
    pub fn number(self) -> u32 {
        self.0 as u32 + 2
    }

    /// Its character: `2..9 T J Q K A`.
    pub fn letter(self) -> char {
        b"23456789TJQKA"[self.index()] as char
    }

    /// Reads a rank character (either case).
    pub fn from_letter(c: char) -> Option<Rank> {
        let c = c.to_ascii_uppercase() as u8;
        b"23456789TJQKA"
            .iter()
            .position(|&l| l == c)
            .map(|i| Rank(i as u8))
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// One card: a normal card (suit and rank) or a Wizard special card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(pub(super) u8);

/// Number of normal cards.
pub const NORMAL_CARDS: usize = 52;

impl Card {
    /// The two of clubs.
    pub const TWO_CLUBS: Card = Card(0);
    /// The queen of spades.
    pub const QUEEN_SPADES: Card = Card(3 * 13 + 10);

    /// The normal card of `suit` and `rank`.
    pub const fn new(suit: Suit, rank: Rank) -> Card {
        Card(suit as u8 * 13 + rank.0)
    }

    /// Wizard number `i` (1..=4), text `Z1..Z4`.
    pub fn wizard(i: u8) -> Option<Card> {
        (1..=4).contains(&i).then(|| Card(51 + i))
    }

    /// Jester number `i` (1..=4), text `N1..N4`.
    pub fn jester(i: u8) -> Option<Card> {
        (1..=4).contains(&i).then(|| Card(55 + i))
    }

    /// The card with index `i` (0..60); see the module docs for the layout.
    pub fn from_index(i: usize) -> Option<Card> {
        (i < 60).then_some(Card(i as u8))
    }

    /// Its index, 0..60: bit position in a [`CardSet`](super::CardSet).
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// Whether it is a normal (suited) card.
    pub fn is_normal(self) -> bool {
        (self.0 as usize) < NORMAL_CARDS
    }

    /// Whether it is a wizard.
    pub fn is_wizard(self) -> bool {
        (52..56).contains(&self.0)
    }

    /// Whether it is a jester.
    pub fn is_jester(self) -> bool {
        (56..60).contains(&self.0)
    }

    /// Its suit; `None` for wizards and jesters.
    pub fn suit(self) -> Option<Suit> {
        Suit::from_index(self.0 as usize / 13).filter(|_| self.is_normal())
    }

    /// Its rank; `None` for wizards and jesters.
    pub fn rank(self) -> Option<Rank> {
        self.is_normal().then_some(Rank(self.0 % 13))
    }

    /// Its suit index, 0..4 for normal cards and 4 for special cards. Cheap,
    /// for hot loops that already know the card is normal.
    pub fn suit_index(self) -> usize {
        (self.0 as usize / 13).min(4)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.suit(), self.rank()) {
            (Some(s), Some(r)) => write!(f, "{}{}", r.letter(), s.letter()),
            _ if self.is_wizard() => write!(f, "Z{}", self.0 - 51),
            _ => write!(f, "N{}", self.0 - 55),
        }
    }
}

/// Why a card text was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct CardParseError(pub String);

impl FromStr for Card {
    type Err = CardParseError;

    /// Reads `QS`, `th`, `10H` (ten), `Z1..Z4`, `N1..N4`.
    fn from_str(s: &str) -> Result<Card, CardParseError> {
        let bad = || CardParseError(format!("'{s}' is not a card (e.g. QS, TH, 2C)"));
        let t = s.trim();
        let chars: Vec<char> = t.chars().collect();
        match chars.as_slice() {
            [k @ ('Z' | 'z' | 'N' | 'n'), d @ '1'..='4'] => {
                let i = *d as u8 - b'0';
                if k.eq_ignore_ascii_case(&'Z') {
                    Card::wizard(i)
                } else {
                    Card::jester(i)
                }
                .ok_or_else(bad)
            }
            [r, su] => {
                let rank = Rank::from_letter(*r).ok_or_else(bad)?;
                let suit = Suit::from_letter(*su).ok_or_else(bad)?;
                Ok(Card::new(suit, rank))
            }
            ['1', '0', su] => Ok(Card::new(
                Suit::from_letter(*su).ok_or_else(bad)?,
                Rank::TEN,
            )),
            _ => Err(bad()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::cards::CardSet;

    #[test]
    fn card_text_round_trips() {
        for i in 0..60 {
            let c = Card::from_index(i).unwrap();
            assert_eq!(c.to_string().parse::<Card>().unwrap(), c);
        }
        assert_eq!("QS".parse::<Card>().unwrap(), Card::QUEEN_SPADES);
        assert_eq!("2c".parse::<Card>().unwrap(), Card::TWO_CLUBS);
        assert_eq!("10H".parse::<Card>().unwrap().to_string(), "TH");
        assert_eq!(Card::wizard(1).unwrap().to_string(), "Z1");
        assert_eq!(Card::jester(4).unwrap().to_string(), "N4");
        for bad in ["", "Q", "1S", "QX", "QSS", "Z5", "N0", "ZZ"] {
            assert!(bad.parse::<Card>().is_err(), "{bad}");
        }
    }

    #[test]
    fn suits_and_ranks() {
        let c: Card = "TH".parse().unwrap();
        assert_eq!(c.suit(), Some(Suit::Hearts));
        assert_eq!(c.rank(), Some(Rank::TEN));
        assert_eq!(c.rank().unwrap().number(), 10);
        assert_eq!(Card::wizard(2).unwrap().suit(), None);
        assert_eq!(Card::jester(2).unwrap().suit_index(), 4);
        assert_eq!(
            CardSet::suit(Suit::Spades).highest().unwrap().to_string(),
            "AS"
        );
        assert_eq!(CardSet::DECK.len(), 52);
        assert_eq!(CardSet::DECK.of_suit(Suit::Diamonds).len(), 13);
    }
}
