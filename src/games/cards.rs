//! Playing cards shared by the card games: [`Card`], [`Suit`], [`Rank`], the
//! bitset hand [`CardSet`], seeded portable shuffles, and [`sample_deal`],
//! which deals unseen cards to hidden hands under per-seat constraints
//! (hand sizes, known voids) for determinization.
//!
//! Also what the card games would otherwise each write out alike: the trick
//! and to-move lines of their pictures ([`trick_text`], [`to_move_text`])
//! and their evaluation hook ([`reward_as_evaluation`]).
//!
//! Text follows the OpenSpiel notation: rank then suit, `2..9 T J Q K A` and
//! `C D H S` (`QS`, `TH`). Wizard's special cards are `Z1..Z4` (wizards) and
//! `N1..N4` (jesters).
//!
//! Encoding: a normal card is `suit * 13 + rank` (0..52), so each suit is a
//! contiguous run of 13 bits in a [`CardSet`] ordered by rank, and "highest
//! card of a suit in a set" is one bit scan. Wizards are 52..56, jesters
//! 56..60.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not, Sub, SubAssign};
use std::str::FromStr;

use crate::game::{Seat, Turn};

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
pub struct Card(u8);

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

    /// Its index, 0..60: bit position in a [`CardSet`].
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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardParseError(pub String);

impl fmt::Display for CardParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl std::error::Error for CardParseError {}

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

/// The `trick:` line of a card game's picture: each play as `seat card` in
/// playing order, separated by commas; `-` before the first card.
pub fn trick_text<S: fmt::Display>(
    plays: &[(Seat, Card)],
    seat_name: impl Fn(Seat) -> S,
) -> String {
    if plays.is_empty() {
        return "-".to_string();
    }
    plays
        .iter()
        .map(|&(seat, card)| format!("{} {card}", seat_name(seat)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The `to move:` line of a card game's picture: the seat to play, a deal,
/// or the end of the game.
pub fn to_move_text<S: fmt::Display>(turn: Turn, seat_name: impl Fn(Seat) -> S) -> String {
    match turn {
        Turn::Player(p) => seat_name(p).to_string(),
        Turn::Chance => "chance (deal)".to_string(),
        Turn::Over => "nobody (game over)".to_string(),
    }
}

/// The evaluation hook of the card games: the reward as it stands (the
/// hand or round scored so far), mapped from `[0, 1]` to `[-1, 1]`.
pub fn reward_as_evaluation(reward: f64) -> f64 {
    2.0 * reward - 1.0
}

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
    use rand::SeedableRng;

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

    #[test]
    fn sampler_respects_constraints() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
        let mut u: Unseen<4> = Unseen {
            pool: "2C 3C 4C 5D 6D 7H 8H 9S".parse().unwrap(),
            ..Unseen::default()
        };
        u.need[1] = 3;
        u.need[2] = 3;
        u.need[3] = 2;
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
        let mut rng = rand::rngs::SmallRng::seed_from_u64(5);
        let mut u: Unseen<3> = Unseen {
            pool: "2C 3C 4C 5D".parse().unwrap(),
            ..Unseen::default()
        };
        u.need[1] = 2;
        u.need[2] = 2;
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
        let mut rng = rand::rngs::SmallRng::seed_from_u64(3);
        let mut u: Unseen<4> = Unseen {
            pool: CardSet(0xFFFF),
            ..Unseen::default()
        };
        for s in 0..4 {
            u.need[s] = 4;
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
