//! Ninety-Nine, the adding game (rules: `protocol.md`, Games, Ninety-Nine).
//!
//! # Options
//!
//! - `players=N` (2..10, default 3): one 52-card deck up to 6 players, two
//!   decks beyond.
//! - `tokens=T` (1..9, default 3): tokens per player.
//! - `seat=N`: seat-bound play (see below); default `none`, self-dealt.
//!
//! The first hand is dealt by the last seat, so `p0` plays first; each
//! hand starts at total 0, clockwise (to the next seat number), with the
//! player after the dealer. The deal passes to the next seat still in.
//!
//! # Moves
//!
//! A card, plus the value where there is a choice: `5C`, `TH+`, `TH-`,
//! `AS1`, `AS11`. A player who cannot play any card without taking the
//! total above 99 has exactly one legal move, `lose`: it loses the hand and
//! a token (an explicit move, because a seat-bound engine cannot see the
//! other hands and must be told). A player with no tokens left is out and
//! is skipped; the last player with tokens wins.
//!
//! # Chance, and the two kinds of state
//!
//! - **Self-dealt**: a hand starts with [`NnMove::Deal`] (text
//!   `shuffle:<seed>`): a portable shuffle of the deck(s) deals 3 cards to
//!   every player still in; the rest is the stock. After every play the
//!   player draws: [`NnMove::Draw`] (text: the card), a chance step drawn
//!   uniformly from the stock. When the stock is empty at a draw, the pile
//!   less its top card becomes the stock.
//! - **Seat-bound** (`seat=N`): the referee tells the seat its 3 cards at
//!   each deal (`deal 5H 9C KD`) and each card it draws (`deal 7C`); other
//!   seats' plays arrive as `play p2 TH-` / `play p2 lose`, and their draws
//!   are implied (they are told nothing else).
//!
//! # Hidden information
//!
//! Cards move between the stock, the hands and the pile; the observer sees
//! its own hand and the pile. Every reshuffle starts a new *generation* of
//! the stock: the cards still in hands at that moment cannot be in the new
//! stock, and a player holds exactly as many cards of each generation as it
//! drew from it and has not played (public bookkeeping, exact with one
//! deck). [`Game::determinize`] deals the unseen cards of each generation
//! uniformly among the slots of that generation (other hands and the
//! stock), drawing from the generator only as a function of what the
//! observer knows. With two decks a played card whose copies belong to
//! different generations is attributed to the older one it could be; if
//! that ever makes the bookkeeping inconsistent, the generations are
//! ignored for that sample (the card counts are always respected).
//!
//! # Horizon and reward
//!
//! Searches stop at the end of a hand. Reward: 1 for the winner and 0 for
//! the others once the game is over; at the end of a hand, a survivor gets
//! `0.8 + 0.2 * tokens / max`, the loser `0.3 * tokens / max` (0 when out).

// Seat-indexed parallel arrays read best with seat indices.
#![allow(clippy::needless_range_loop)]

mod baseline;
mod hidden;
mod page;
mod view;

use crate::model::game::{Game, MoveError, Outcome, Rng, Seat, Turn, random_legal_move};
use crate::games::cards::{
    Card, Rank, SplitMix64, bound_seat_option, seat_option_spec, deal_seed_text, knows_hand, numbered_seat_name,
    parse_deal_seed, parse_numbered_seat,
};
use crate::model::options::{OptionError, OptionSpec, Options};

/// The most players.
pub const MAX_PLAYERS: usize = 10;
/// Cards per hand.
pub const HAND_SIZE: usize = 3;
/// The highest total allowed.
pub const LIMIT: u8 = 99;

/// The rule options of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Number of players, 2..=10.
    pub players: usize,
    /// Tokens per player at the start.
    pub tokens: u8,
    /// Number of 52-card decks (two beyond six players).
    pub decks: u8,
}

impl Config {
    /// The standard game for `players` players with `tokens` tokens.
    pub fn new(players: usize, tokens: u8) -> Config {
        let players = players.clamp(2, MAX_PLAYERS);
        Config {
            players,
            tokens: tokens.max(1),
            decks: if players > 6 { 2 } else { 1 },
        }
    }
}

/// The value chosen for a card that has a choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Choice {
    /// No choice (every card but ten and ace).
    Plain,
    /// Ten as +10.
    Plus,
    /// Ten as -10.
    Minus,
    /// Ace as 1.
    One,
    /// Ace as 11.
    Eleven,
}

/// A Ninety-Nine move, including chance steps. See the module docs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NnMove {
    /// Self-dealt chance: the hand's deal, as a shuffle seed.
    Deal(u64),
    /// Seat-bound chance: the observer's 3 cards (sorted).
    Hand([Card; HAND_SIZE]),
    /// Chance: the card the player who just played draws.
    Draw(Card),
    /// A card played with its chosen value.
    Play(Card, Choice),
    /// The player cannot play without passing 99: it loses the hand.
    Lose,
}

/// Where a hand stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Waiting for the deal (chance).
    Deal,
    /// A player plays.
    Play,
    /// The player who just played draws (chance).
    Draw,
    /// The game is over.
    Over,
}

/// The choices a card offers.
fn choices(card: Card) -> &'static [Choice] {
    match card.rank() {
        Some(Rank::TEN) => &[Choice::Plus, Choice::Minus],
        Some(Rank::ACE) => &[Choice::One, Choice::Eleven],
        _ => &[Choice::Plain],
    }
}

/// The total after playing `card` as `choice` on `total`, or `None` if the
/// choice does not fit the card or the total would pass 99.
pub fn play_value(total: u8, card: Card, choice: Choice) -> Option<u8> {
    let rank = card.rank()?;
    if !choices(card).contains(&choice) {
        return None;
    }
    let t = total as i32;
    let next = match (rank.number(), choice) {
        (4 | 9, _) => t,
        (10, Choice::Minus) => (t - 10).max(0),
        (10, _) | (11 | 12, _) => t + 10,
        (13, _) => LIMIT as i32,
        (14, Choice::Eleven) => t + 11,
        (14, _) => t + 1,
        (n, _) => t + n as i32,
    };
    (next <= LIMIT as i32).then_some(next as u8)
}

/// Its registry name (`game ninetynine`).
pub const NAME: &str = "ninetynine";

/// Its registry listing: the names GTP tools use, the options a page
/// may set.
pub const LISTING: crate::games::Listing = crate::games::Listing {
    gtp_names: &["Ninety-Nine"],
    page_options: &["players", "tokens"],
};

/// What it declares beyond its rules: how it is shown to a person.
pub const EXTRAS: crate::model::extras::Extras<NinetyNine> = crate::model::extras::Extras {
    pictures: page::PICTURES,
    ..crate::model::extras::Extras::NONE
};

/// A Ninety-Nine state: self-dealt (full) or seat-bound (one seat's
/// knowledge).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NinetyNine {
    cfg: Config,
    /// `Some(seat)` for a seat-bound state.
    observer: Option<Seat>,
    phase: Phase,
    hand_no: u32,
    tokens: [u8; MAX_PLAYERS],
    dealer: u8,
    to_move: u8,
    reversed: bool,
    total: u8,
    /// Full state: every hand (sorted, `counts` long). Seat-bound: the
    /// observer's hand only.
    hands: [[Card; HAND_SIZE]; MAX_PLAYERS],
    counts: [u8; MAX_PLAYERS],
    /// Public: the stock generation of each card held (sorted).
    slots: [[u16; HAND_SIZE]; MAX_PLAYERS],
    /// Full state: copies of each card in the stock. Seat-bound: zero.
    stock: [u8; 52],
    stock_len: u8,
    /// Public: copies of each card in the pile.
    pile: [u8; 52],
    top: Option<Card>,
    /// Public: copies of each card not in the pile, and their generations.
    live: [u8; 52],
    live_gens: [[u16; 2]; 52],
    generation: u16,
    /// A hand has just ended: the search horizon.
    hand_over: bool,
    last_loser: Option<u8>,
}

const OPTIONS: &[OptionSpec] = &[
    OptionSpec::int("players", 2..=10, "3", "number of players (two decks beyond 6)"),
    OptionSpec::int("tokens", 1..=9, "3", "tokens per player"),
    seat_option_spec(MAX_PLAYERS),
];

const FILLER: Card = Card::TWO_CLUBS;

fn card_at(i: usize) -> Card {
    Card::from_index(i).unwrap_or(FILLER)
}

impl NinetyNine {
    /// A new game: self-dealt (`observer = None`) or seat-bound.
    pub fn with_config(cfg: Config, observer: Option<Seat>) -> NinetyNine {
        let mut tokens = [0; MAX_PLAYERS];
        for t in tokens.iter_mut().take(cfg.players) {
            *t = cfg.tokens;
        }
        NinetyNine {
            cfg,
            observer: observer.filter(|&s| s < cfg.players),
            phase: Phase::Deal,
            hand_no: 0,
            tokens,
            dealer: (cfg.players - 1) as u8,
            to_move: 0,
            reversed: false,
            total: 0,
            hands: [[FILLER; HAND_SIZE]; MAX_PLAYERS],
            counts: [0; MAX_PLAYERS],
            slots: [[0; HAND_SIZE]; MAX_PLAYERS],
            stock: [0; 52],
            stock_len: 0,
            pile: [0; 52],
            top: None,
            live: [0; 52],
            live_gens: [[0; 2]; 52],
            generation: 0,
            hand_over: false,
            last_loser: None,
        }
    }

    /// The rule options.
    pub fn config(&self) -> &Config {
        &self.cfg
    }

    /// The seat a seat-bound state belongs to; `None` when self-dealt.
    pub fn observer(&self) -> Option<Seat> {
        self.observer
    }

    /// Where the hand stands.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The running total.
    pub fn total(&self) -> u8 {
        self.total
    }

    /// Whether play currently goes counter-clockwise (after a 4).
    pub fn reversed(&self) -> bool {
        self.reversed
    }

    /// The dealer of the current (or next) hand.
    pub fn dealer(&self) -> Seat {
        self.dealer as usize
    }

    /// Hands played so far.
    pub fn hand_number(&self) -> u32 {
        self.hand_no
    }

    /// Tokens left per seat.
    pub fn tokens(&self) -> Vec<u8> {
        self.tokens[..self.cfg.players].to_vec()
    }

    /// Whether the seat still has tokens.
    pub fn is_in(&self, seat: Seat) -> bool {
        self.tokens.get(seat).is_some_and(|&t| t > 0)
    }

    /// The seat's cards (full state; seat-bound: the observer's only).
    pub fn hand(&self, seat: Seat) -> Vec<Card> {
        match self.observer {
            Some(o) if o != seat => Vec::new(),
            _ => self
                .hands
                .get(seat)
                .map_or(Vec::new(), |h| h[..self.counts[seat] as usize].to_vec()),
        }
    }

    /// The number of cards the seat holds.
    pub fn hand_size(&self, seat: Seat) -> usize {
        self.counts.get(seat).map_or(0, |&c| c as usize)
    }

    /// Cards left in the stock.
    pub fn stock_len(&self) -> usize {
        self.stock_len as usize
    }

    /// Full state: copies of each card (by index) in the stock.
    pub fn stock(&self) -> [u8; 52] {
        self.stock
    }

    /// Copies of each card (by index) in the pile.
    pub fn pile(&self) -> [u8; 52] {
        self.pile
    }

    /// The top card of the pile.
    pub fn top(&self) -> Option<Card> {
        self.top
    }

    /// The stock generation: how many reshuffles this hand has seen.
    pub fn generation(&self) -> u16 {
        self.generation
    }

    /// The seat that lost the last finished hand.
    pub fn last_loser(&self) -> Option<Seat> {
        self.last_loser.map(|s| s as usize)
    }

    /// Seats still in.
    fn active(&self) -> usize {
        (0..self.cfg.players)
            .filter(|&s| self.tokens[s] > 0)
            .count()
    }

    /// The next seat still in after `from`, clockwise or against.
    fn next_seat(&self, from: usize, reversed: bool) -> usize {
        let n = self.cfg.players;
        let step = if reversed { n - 1 } else { 1 };
        let mut s = from;
        for _ in 0..n {
            s = (s + step) % n;
            if self.tokens[s] > 0 {
                return s;
            }
        }
        from
    }

    /// Self-dealt, at a deal: deals these hands (3 cards to each seat still
    /// in; empty for seats out) with the rest of the deck(s) as the stock,
    /// and sets the starting total (tests, tools).
    pub fn deal_hands(&mut self, hands: &[Vec<Card>], total: u8) -> Result<(), String> {
        if self.observer.is_some() || self.phase != Phase::Deal {
            return Err("hands can be dealt only at a self-dealt deal".into());
        }
        if hands.len() != self.cfg.players || total > LIMIT {
            return Err("one hand per seat and a total up to 99 are needed".into());
        }
        let mut left = [self.cfg.decks; 52];
        for (s, h) in hands.iter().enumerate() {
            let want = if self.tokens[s] > 0 { HAND_SIZE } else { 0 };
            if h.len() != want {
                return Err(format!("seat {s} must get {want} cards"));
            }
            for c in h {
                if !c.is_normal() || left[c.index()] == 0 {
                    return Err(format!("card {c} is dealt too often"));
                }
                left[c.index()] -= 1;
            }
        }
        self.begin_hand_full(hands, left);
        self.total = total;
        Ok(())
    }

    /// Sets the stock and pile directly (tests: reshuffles). The cards must
    /// be those not in hands; `top` must be in the pile.
    pub fn set_stock(
        &mut self,
        stock: &[Card],
        pile: &[Card],
        top: Option<Card>,
    ) -> Result<(), String> {
        if self.observer.is_some() || self.phase != Phase::Play {
            return Err("only in a self-dealt hand".into());
        }
        let mut count = [0u8; 52];
        for s in 0..self.cfg.players {
            for c in &self.hands[s][..self.counts[s] as usize] {
                count[c.index()] += 1;
            }
        }
        let mut st = [0u8; 52];
        let mut pl = [0u8; 52];
        for c in stock {
            st[c.index()] += 1;
            count[c.index()] += 1;
        }
        for c in pile {
            pl[c.index()] += 1;
            count[c.index()] += 1;
        }
        if count.iter().any(|&k| k != self.cfg.decks)
            || top.is_some_and(|t| pl[t.index()] == 0)
            || top.is_none() != pile.is_empty()
        {
            return Err("hands, stock and pile must hold the deck(s) exactly".into());
        }
        self.stock = st;
        self.stock_len = stock.len() as u8;
        self.pile = pl;
        self.top = top;
        for c in 0..52 {
            self.live[c] = self.cfg.decks - pl[c];
            self.live_gens[c] = [0; 2];
        }
        Ok(())
    }

    /// The cards left in the stock once a hand is dealt.
    fn stock_after_deal(&self) -> u8 {
        (52 * self.cfg.decks as usize - HAND_SIZE * self.active()) as u8
    }

    /// Resets the hand bookkeeping for a new deal.
    fn reset_hand(&mut self) {
        let decks = self.cfg.decks;
        self.hands = [[FILLER; HAND_SIZE]; MAX_PLAYERS];
        self.counts = [0; MAX_PLAYERS];
        self.slots = [[0; HAND_SIZE]; MAX_PLAYERS];
        for s in 0..self.cfg.players {
            if self.tokens[s] > 0 {
                self.counts[s] = HAND_SIZE as u8;
            }
        }
        self.stock = [0; 52];
        self.stock_len = self.stock_after_deal();
        self.pile = [0; 52];
        self.top = None;
        self.live = [decks; 52];
        self.live_gens = [[0; 2]; 52];
        self.generation = 0;
        self.total = 0;
        self.reversed = false;
        self.hand_over = false;
        self.to_move = self.next_seat(self.dealer as usize, false) as u8;
        self.phase = Phase::Play;
    }

    fn begin_hand_full(&mut self, hands: &[Vec<Card>], stock: [u8; 52]) {
        self.reset_hand();
        for (s, h) in hands.iter().enumerate().take(self.cfg.players) {
            for (i, &c) in h.iter().take(HAND_SIZE).enumerate() {
                self.hands[s][i] = c;
            }
            self.hands[s].sort();
        }
        self.stock = stock;
    }

    /// The self-dealt deal of `seed`: each active seat's cards, and the
    /// stock.
    fn seeded_deal(&self, seed: u64) -> (Vec<Vec<Card>>, [u8; 52]) {
        let mut deck: Vec<Card> = (0..52 * self.cfg.decks as usize)
            .map(|i| card_at(i % 52))
            .collect();
        // A portable Fisher-Yates shuffle, so a told seed is the same deal
        // everywhere.
        let mut g = SplitMix64::new(seed);
        for i in (1..deck.len()).rev() {
            deck.swap(i, g.below(i + 1));
        }
        let mut at = 0;
        let mut hands = vec![Vec::new(); self.cfg.players];
        for s in 0..self.cfg.players {
            if self.tokens[s] > 0 {
                let mut h = deck[at..at + HAND_SIZE].to_vec();
                h.sort();
                hands[s] = h;
                at += HAND_SIZE;
            }
        }
        let mut stock = [0u8; 52];
        for c in &deck[at..] {
            stock[c.index()] += 1;
        }
        (hands, stock)
    }

    fn hand_slice(&self, seat: Seat) -> &[Card] {
        &self.hands[seat][..self.counts[seat] as usize]
    }

    fn add_to_hand(&mut self, seat: Seat, card: Card, gen_: u16) {
        let k = self.counts[seat] as usize;
        if k >= HAND_SIZE {
            return;
        }
        self.hands[seat][k] = card;
        self.hands[seat][..=k].sort();
        self.slots[seat][k] = gen_;
        self.slots[seat][..=k].sort();
        self.counts[seat] += 1;
    }

    /// Removes a card from a known hand (keeps it sorted).
    fn remove_card(&mut self, seat: Seat, card: Card) {
        let k = self.counts[seat] as usize;
        if let Some(i) = self.hands[seat][..k].iter().position(|&c| c == card) {
            self.hands[seat].copy_within(i + 1..k, i);
            self.hands[seat][k - 1] = FILLER;
        }
    }

    fn mover_known(&self) -> bool {
        knows_hand(self.observer, self.to_move as usize)
    }

    /// The legal moves of the seat to move when its hand is known.
    fn known_moves(&self, out: &mut Vec<NnMove>) {
        let p = self.to_move as usize;
        let hand = self.hand_slice(p);
        for (i, &c) in hand.iter().enumerate() {
            if i > 0 && hand[i - 1] == c {
                continue;
            }
            for &ch in choices(c) {
                if play_value(self.total, c, ch).is_some() {
                    out.push(NnMove::Play(c, ch));
                }
            }
        }
        if out.is_empty() {
            out.push(NnMove::Lose);
        }
    }

    /// Plays `card` for the seat to move, then its draw (a chance step when
    /// the drawer's card is seen here, implied otherwise) and the turn
    /// passes on.
    fn play_card(&mut self, card: Card, choice: Choice) {
        let p = self.to_move as usize;
        self.hand_over = false;
        self.total = play_value(self.total, card, choice).unwrap_or(self.total);
        if card.rank().map(|r| r.number()) == Some(4) {
            self.reversed = !self.reversed;
        }
        if knows_hand(self.observer, p) {
            self.remove_card(p, card);
        }
        let g = self.take_live(p, card);
        self.remove_slot(p, g);
        self.counts[p] = self.counts[p].saturating_sub(1);
        self.pile[card.index()] += 1;
        self.top = Some(card);
        if self.stock_len == 0 {
            self.reshuffle();
        }
        if self.stock_len == 0 {
            self.pass_turn();
        } else if knows_hand(self.observer, p) {
            self.phase = Phase::Draw;
        } else {
            // Another seat's draw: unseen, only its count is public.
            self.stock_len -= 1;
            self.counts[p] += 1;
            let k = self.counts[p] as usize - 1;
            self.slots[p][k] = self.generation;
            self.slots[p][..=k].sort();
            self.pass_turn();
        }
    }

    fn draw(&mut self, card: Card) {
        let p = self.to_move as usize;
        if self.observer.is_none() {
            self.stock[card.index()] = self.stock[card.index()].saturating_sub(1);
        }
        self.stock_len = self.stock_len.saturating_sub(1);
        self.add_to_hand(p, card, self.generation);
        self.pass_turn();
    }

    fn pass_turn(&mut self) {
        self.phase = Phase::Play;
        self.to_move = self.next_seat(self.to_move as usize, self.reversed) as u8;
    }

    /// The pile less its top card becomes the stock: a new generation.
    fn reshuffle(&mut self) {
        self.generation += 1;
        for c in 0..52 {
            let keep = u8::from(self.top.map(|t| t.index()) == Some(c));
            let k = self.pile[c].saturating_sub(keep);
            for _ in 0..k {
                let at = (self.live[c] as usize).min(1);
                self.live_gens[c][at] = self.generation;
                self.live[c] += 1;
            }
            self.pile[c] -= k;
            if self.observer.is_none() {
                self.stock[c] += k;
            }
            self.stock_len += k;
        }
    }

    fn lose(&mut self) {
        let p = self.to_move as usize;
        self.tokens[p] = self.tokens[p].saturating_sub(1);
        self.last_loser = Some(p as u8);
        self.hand_no += 1;
        if self.active() <= 1 {
            self.phase = Phase::Over;
            self.hand_over = true;
            return;
        }
        self.dealer = self.next_seat(self.dealer as usize, false) as u8;
        self.phase = Phase::Deal;
        if self.observer.is_some_and(|o| self.tokens[o] == 0) {
            // An observer out of the game is dealt nothing: the hand
            // starts without a told deal.
            self.reset_hand();
        }
        self.hand_over = true;
    }

    fn choice_text(choice: Choice) -> &'static str {
        match choice {
            Choice::Plain => "",
            Choice::Plus => "+",
            Choice::Minus => "-",
            Choice::One => "1",
            Choice::Eleven => "11",
        }
    }

    fn parse_play(&self, text: &str) -> Result<NnMove, MoveError> {
        if text.eq_ignore_ascii_case("lose") {
            return Ok(NnMove::Lose);
        }
        let split = text.char_indices().nth(2).map_or(text.len(), |(i, _)| i);
        let (card_text, rest) = text.split_at(split);
        let card = card_text.parse::<Card>().ok().filter(|c| c.is_normal());
        let choice = match rest {
            "" => Some(Choice::Plain),
            "+" => Some(Choice::Plus),
            "-" => Some(Choice::Minus),
            "1" => Some(Choice::One),
            "11" => Some(Choice::Eleven),
            _ => None,
        };
        match (card, choice) {
            (Some(card), Some(choice)) if choices(card).contains(&choice) => {
                Ok(NnMove::Play(card, choice))
            }
            // A card that takes a value: its forms, and whether the seat
            // to move holds it (where this state knows that hand).
            (Some(card), _) => {
                let forms: Vec<String> = choices(card)
                    .iter()
                    .map(|&c| self.move_text(NnMove::Play(card, c)))
                    .collect();
                let seat = self.to_move as usize;
                let held = match self.observer {
                    Some(o) if o != seat => String::new(),
                    _ if self.hand(seat).contains(&card) => {
                        format!("; {} holds {card}", self.seat_name(seat))
                    }
                    _ => format!("; {} does not hold {card}", self.seat_name(seat)),
                };
                let why = match card.rank() {
                    Some(Rank::TEN) => " (a ten adds 10 or takes 10 off)",
                    Some(Rank::ACE) => " (an ace counts 1 or 11)",
                    _ => "",
                };
                Err(MoveError::Syntax(format!(
                    "'{text}': {card} is played as {}{why}{held}",
                    forms.join(" or ")
                )))
            }
            (None, _) => Err(MoveError::Syntax(format!(
                "'{text}': a play is a card with its value where there is a choice (5C, TH+, TH-, AS1, AS11), or lose"
            ))),
        }
    }

    fn parse_normal(word: &str) -> Result<Card, MoveError> {
        match word.parse::<Card>() {
            Ok(c) if c.is_normal() => Ok(c),
            _ => Err(MoveError::Syntax(format!(
                "'{word}' is not a card (e.g. QS, TH, 2C)"
            ))),
        }
    }
}

impl Game for NinetyNine {
    type Eval = crate::model::game::OwnEvaluation;
    type Move = NnMove;

    const NAME: &'static str = NAME;
    const SUMMARY: &'static str =
        "Ninety-Nine, the adding game, 2-10 players with tokens; seat-bound play with seat=N";
    const OPTIONS: &'static [OptionSpec] = OPTIONS;
    const PERFECT_INFORMATION: bool = false;

    fn new_game(options: &Options) -> Result<Self, OptionError> {
        let players = options.int("players").unwrap_or(3).clamp(2, 10) as usize;
        let tokens = options.int("tokens").unwrap_or(3).clamp(1, 9) as u8;
        let seat = bound_seat_option(options, players)?;
        Ok(NinetyNine::with_config(Config::new(players, tokens), seat))
    }

    fn num_seats(&self) -> usize {
        self.cfg.players
    }

    fn turn(&self) -> Turn {
        match self.phase {
            Phase::Over => Turn::Over,
            Phase::Deal | Phase::Draw => Turn::Chance,
            Phase::Play => Turn::Player(self.to_move as usize),
        }
    }

    /// Self-dealt draws list the distinct cards in the stock; deals, and
    /// draws told by a referee, list nothing (see [`Game::is_legal`]).
    fn legal_moves(&self, out: &mut Vec<NnMove>) {
        out.clear();
        match self.phase {
            Phase::Play if self.mover_known() => self.known_moves(out),
            Phase::Play => {
                for c in (0..52).map(card_at) {
                    for &ch in choices(c) {
                        if self.plausible(NnMove::Play(c, ch)) {
                            out.push(NnMove::Play(c, ch));
                        }
                    }
                }
                if self.plausible(NnMove::Lose) {
                    out.push(NnMove::Lose);
                }
            }
            Phase::Draw if self.observer.is_none() => out.extend(
                (0..52)
                    .filter(|&c| self.stock[c] > 0)
                    .map(|c| NnMove::Draw(card_at(c))),
            ),
            _ => {}
        }
    }

    fn is_legal(&self, mv: NnMove) -> bool {
        match (self.phase, mv) {
            (Phase::Deal, NnMove::Deal(_)) => self.observer.is_none(),
            (Phase::Deal, NnMove::Hand(cards)) => {
                let mut count = [0u8; 52];
                for c in cards {
                    if !c.is_normal() {
                        return false;
                    }
                    count[c.index()] += 1;
                }
                self.observer.is_some_and(|o| self.tokens[o] > 0)
                    && count.iter().all(|&k| k <= self.cfg.decks)
            }
            (Phase::Draw, NnMove::Draw(c)) => {
                c.is_normal()
                    && if self.observer.is_none() {
                        self.stock[c.index()] > 0
                    } else {
                        self.unseen_copies(c) > 0
                    }
            }
            (Phase::Play, NnMove::Play(..) | NnMove::Lose) if self.mover_known() => {
                let mut moves = Vec::new();
                self.known_moves(&mut moves);
                moves.contains(&mv)
            }
            (Phase::Play, _) => self.plausible(mv),
            _ => false,
        }
    }

    fn apply(&mut self, mv: NnMove) {
        match mv {
            NnMove::Deal(seed) => {
                let (hands, stock) = self.seeded_deal(seed);
                self.begin_hand_full(&hands, stock);
            }
            NnMove::Hand(cards) => {
                self.reset_hand();
                if let Some(o) = self.observer {
                    self.hands[o] = cards;
                    self.hands[o].sort();
                }
            }
            NnMove::Draw(card) => self.draw(card),
            NnMove::Play(card, choice) => self.play_card(card, choice),
            NnMove::Lose => self.lose(),
        }
    }

    fn reward(&self, seat: Seat) -> f64 {
        let seat = seat % self.cfg.players;
        let tokens = self.tokens[seat] as f64 / self.cfg.tokens as f64;
        if self.phase == Phase::Over {
            return if self.tokens[seat] > 0 { 1.0 } else { 0.0 };
        }
        if !self.hand_over {
            return 0.5;
        }
        if self.tokens[seat] == 0 {
            0.0
        } else if self.last_loser == Some(seat as u8) {
            0.3 * tokens
        } else {
            0.8 + 0.2 * tokens
        }
    }

    fn outcome(&self) -> Outcome {
        let n = self.cfg.players;
        Outcome {
            scores: self.tokens[..n].iter().map(|&t| t as f64).collect(),
            winners: if self.phase == Phase::Over {
                (0..n).filter(|&s| self.tokens[s] > 0).collect()
            } else {
                Vec::new()
            },
        }
    }

    fn seat_name(&self, seat: Seat) -> String {
        numbered_seat_name(seat)
    }

    fn parse_seat(&self, text: &str) -> Option<Seat> {
        parse_numbered_seat(text, self.cfg.players)
    }

    fn move_text(&self, mv: NnMove) -> String {
        match mv {
            NnMove::Deal(seed) => deal_seed_text(seed),
            NnMove::Hand(cards) => cards
                .iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(" "),
            NnMove::Draw(c) => c.to_string(),
            NnMove::Play(c, ch) => format!("{c}{}", Self::choice_text(ch)),
            NnMove::Lose => "lose".to_string(),
        }
    }

    fn parse_move(&self, text: &str) -> Result<NnMove, MoveError> {
        let text = text.trim();
        match self.phase {
            Phase::Over => Err(MoveError::GameOver),
            Phase::Deal if self.observer.is_none() => parse_deal_seed(text).map(NnMove::Deal),
            Phase::Deal => {
                let words: Vec<&str> = text
                    .split(|c: char| c.is_whitespace() || c == ',')
                    .filter(|w| !w.is_empty())
                    .collect();
                if words.len() != HAND_SIZE {
                    return Err(MoveError::Syntax(format!(
                        "'{text}': a deal is 3 cards, e.g. 5H 9C KD"
                    )));
                }
                let mut cards = [FILLER; HAND_SIZE];
                for (slot, w) in cards.iter_mut().zip(&words) {
                    *slot = Self::parse_normal(w)?;
                }
                cards.sort();
                Ok(NnMove::Hand(cards))
            }
            Phase::Draw => Ok(NnMove::Draw(Self::parse_normal(text)?)),
            Phase::Play => self.parse_play(text),
        }
    }

    crate::games::cards::card_game_hooks!(scored: hand_over);

    fn sample_chance(&self, rng: &mut Rng) -> NnMove {
        if self.phase == Phase::Draw && self.stock_len > 0 && self.observer.is_none() {
            // Uniform over the physical cards of the stock.
            let mut k = rand::Rng::gen_range(rng, 0..self.stock_len as usize);
            for c in 0..52 {
                let n = self.stock[c] as usize;
                if k < n {
                    return NnMove::Draw(card_at(c));
                }
                k -= n;
            }
        }
        NnMove::Deal(rand::Rng::r#gen(rng))
    }

    fn chance_from_referee(&self) -> bool {
        self.observer.is_some() && matches!(self.phase, Phase::Deal | Phase::Draw)
    }

    fn random_move(&self, rng: &mut Rng, buf: &mut Vec<NnMove>) -> NnMove {
        match self.phase {
            Phase::Deal | Phase::Draw => self.sample_chance(rng),
            _ => random_legal_move(self, rng, buf).unwrap_or(NnMove::Lose),
        }
    }

    fn rules_move(&self, rng: &mut Rng) -> Option<NnMove> {
        match self.phase {
            Phase::Play if self.mover_known() => Some(self.rules_play()),
            Phase::Deal | Phase::Draw if self.observer.is_none() => Some(self.sample_chance(rng)),
            _ => None,
        }
    }

    fn view_text(&self, observer: Seat) -> String {
        let mut out = String::new();
        self.describe(&mut out, Some(observer % self.cfg.players));
        out
    }
}
