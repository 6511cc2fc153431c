//! Wizard, the trick-taking game with bids, for 3 to 6 players (rules:
//! `protocol.md`, Games, Wizard).
//!
//! # Rounds and options
//!
//! - `players=N` (3..6, default 4).
//! - `hand=H` (default `auto`): cards dealt to each player per round.
//!   `auto` is the standard rule, round `r` (from 1) deals `r` cards; a
//!   number fixes the hand size for every round (`H * players <= 60`).
//! - `rounds=R` (default `auto`): the number of rounds. `auto` is
//!   `60 / players` (20, 15, 12, 10). With `hand=auto`, `R` may not exceed
//!   `60 / players`. The seed variant is `players=3 rounds=5 hand=15`.
//! - `no_even_bids=true`: the last bidder may not make the bids add up to
//!   the number of cards dealt.
//! - `seat=N`: seat-bound play (see below); default `none`, self-dealt.
//!
//! The first round is dealt by the last seat, so `p0` bids and leads first;
//! the deal then moves one seat clockwise (to the next seat number) each
//! round.
//!
//! # Two kinds of state
//!
//! - **Self-dealt**: the state holds every hand. A round starts with the
//!   chance move [`WizardMove::Deal`] carrying a 64-bit seed (text
//!   `shuffle:<seed>`); the deal, and the turned-up card after it, are a
//!   portable shuffle of the 60 cards ([`deal_seeded`]).
//! - **Seat-bound** (`seat=N`): the state knows only what that seat sees.
//!   The round starts with a deal told by the referee, [`WizardMove::Hand`]:
//!   the seat's cards and the turned-up card, text `2C 7H Z1 up QS` (no
//!   `up` part in a round that uses the whole deck). The cards in other
//!   hands form the *unknown pool*; other seats' moves arrive as
//!   `play p2 bid:1`, `play p2 QS`, `play p3 trump:H`.
//!
//! [`Game::tell`] on a self-dealt state gives each seat exactly these steps
//! as typed [`Observation`](crate::model::game::Observation)s (the referee writes
//! them as the commands above), so a referee holding the full deal can
//! drive seat-bound engines.
//!
//! # Moves
//!
//! `trump:H` (the dealer names trump when a Wizard is turned up), `bid:2`,
//! and a card to play (`QS`, `Z3`, `N1`). Each is one word; `trump H`,
//! `H`, `bid 2` and `2` are read too.
//!
//! # Hidden information
//!
//! A seat that plays a normal card of another suit than the one to follow
//! is publicly void in that suit; Wizards and Jesters may be played at any
//! time and reveal nothing. [`Game::determinize`] deals the unseen cards
//! among the other hands consistently with these voids and the hand sizes
//! ([`sample_deal`](crate::games::cards::sample_deal)), drawing from the generator only as a function of what
//! the deciding seat knows.
//!
//! # Horizon and reward
//!
//! Searches stop at the end of a round. The reward is the round score
//! mapped linearly from `[-10 r, 20 + 10 r]` (the worst and best scores
//! possible with `r` cards) to `[0, 1]`.

// Seat-indexed parallel arrays read best with seat indices.
#![allow(clippy::needless_range_loop)]

mod baseline;
mod hidden;
mod page;
mod view;

use crate::model::game::{Game, MoveError, Outcome, Rng, Seat, Turn, random_legal_move};
use crate::games::cards::{
    Card, CardSet, Suit, bound_seat_option, seat_option_spec, deal_seed_text, deal_seeded, knows_hand,
    numbered_seat_name, parse_deal_seed, parse_numbered_seat, trick_plays,
};
use crate::model::options::{OptionError, OptionSpec, Options};

/// The most players.
pub const MAX_PLAYERS: usize = 6;
/// The fewest players.
pub const MIN_PLAYERS: usize = 3;
/// All 60 cards: 52 normal cards, 4 Wizards, 4 Jesters.
pub const DECK: CardSet = CardSet((1 << 60) - 1);

/// The rule options of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Number of players, 3..=6.
    pub players: usize,
    /// Number of rounds.
    pub rounds: usize,
    /// Fixed cards per hand, or `None` for the standard `round` cards.
    pub hand: Option<usize>,
    /// The last bidder may not make the bids add up to the cards dealt.
    pub no_even_bids: bool,
}

impl Config {
    /// The standard game for `players` players.
    pub fn standard(players: usize) -> Config {
        let players = players.clamp(MIN_PLAYERS, MAX_PLAYERS);
        Config {
            players,
            rounds: 60 / players,
            hand: None,
            no_even_bids: false,
        }
    }

    /// Cards dealt to each player in round `round` (from 0).
    pub fn cards_in_round(&self, round: usize) -> usize {
        self.hand.unwrap_or(round + 1)
    }

    /// Whether the configuration is playable; the message says why not.
    pub fn check(&self) -> Result<(), String> {
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&self.players) {
            return Err(format!(
                "wizard takes {MIN_PLAYERS} to {MAX_PLAYERS} players"
            ));
        }
        if self.rounds == 0 {
            return Err("at least one round".into());
        }
        let most = (0..self.rounds)
            .map(|r| self.cards_in_round(r))
            .max()
            .unwrap_or(0);
        if most == 0 || most * self.players > 60 {
            return Err(format!(
                "{} players cannot be dealt {most} cards each from 60 (rounds={}, hand={})",
                self.players,
                self.rounds,
                self.hand.map_or("auto".to_string(), |h| h.to_string())
            ));
        }
        Ok(())
    }
}

/// A Wizard move, including chance steps. See the module docs for texts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WizardMove {
    /// Self-dealt chance: the round's deal and turned-up card, as a seed.
    Deal(u64),
    /// Seat-bound chance: the observer's cards and the turned-up card
    /// (`None` when the round uses the whole deck).
    Hand(CardSet, Option<Card>),
    /// The dealer names trump (a Wizard was turned up).
    Trump(Suit),
    /// A bid of this many tricks.
    Bid(u8),
    /// A card played to the trick.
    Play(Card),
}

/// Where a round stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Waiting for the deal (chance).
    Deal,
    /// The dealer chooses trump.
    Trump,
    /// Players bid.
    Bid,
    /// Tricks are played.
    Play,
    /// The game is over.
    Over,
}

/// Its registry name (`game wizard`).
pub const NAME: &str = "wizard";

/// Its registry listing: the names GTP tools use, the options a page
/// may set.
pub const LISTING: crate::games::Listing = crate::games::Listing {
    gtp_names: &["Wizard"],
    page_options: &["players", "rounds", "hand", "no_even_bids"],
};

/// What it declares beyond its rules: how it is shown to a person.
pub const EXTRAS: crate::model::extras::Extras<Wizard> = crate::model::extras::Extras {
    pictures: page::PICTURES,
    ..crate::model::extras::Extras::NONE
};

/// A Wizard state: self-dealt (full) or seat-bound (one seat's knowledge).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wizard {
    cfg: Config,
    /// `Some(seat)` for a seat-bound state.
    observer: Option<Seat>,
    round: u8,
    dealer: u8,
    phase: Phase,
    /// Full state: every hand. Seat-bound: the observer's hand only.
    hands: [CardSet; MAX_PLAYERS],
    /// Seat-bound: the cards in other hands. Empty in full states.
    unknown: CardSet,
    counts: [u8; MAX_PLAYERS],
    /// Public inferences: cards a seat cannot hold (shown voids).
    forbidden: [CardSet; MAX_PLAYERS],
    turned: Option<Card>,
    trump: Option<Suit>,
    bids: [u8; MAX_PLAYERS],
    bids_made: u8,
    trick: [Card; MAX_PLAYERS],
    trick_len: u8,
    leader: u8,
    to_move: u8,
    won: [u8; MAX_PLAYERS],
    tricks_done: u8,
    played: CardSet,
    last_round: [i32; MAX_PLAYERS],
    totals: [i32; MAX_PLAYERS],
    /// A round has just been scored: the search horizon.
    round_over: bool,
}

const OPTIONS: &[OptionSpec] = &[
    OptionSpec::int("players", 3..=6, "4", "number of players"),
    OptionSpec::int("rounds", 1..=60, "auto", "number of rounds; auto = 60/players"),
    OptionSpec::int("hand", 1..=20, "auto", "cards per hand in every round; auto = round r deals r cards"),
    OptionSpec::flag("no_even_bids", "false", "the last bidder may not make the total of bids equal the cards dealt"),
    seat_option_spec(MAX_PLAYERS),
];

/// The suit to follow in a trick so far: the suit of the first normal card,
/// unless a Wizard comes before it (then anything may follow). Leading
/// Jesters set nothing.
pub fn led_suit(trick: &[Card]) -> Option<Suit> {
    trick.iter().find(|c| !c.is_jester()).and_then(|c| c.suit())
}

/// The index (in playing order) of the card that wins `trick`: the first
/// Wizard; else the highest trump; else the highest card of the suit to
/// follow; else (only Jesters) the first Jester.
pub fn trick_winner(trick: &[Card], trump: Option<Suit>) -> usize {
    if let Some(i) = trick.iter().position(|c| c.is_wizard()) {
        return i;
    }
    let led = led_suit(trick);
    let mut best: Option<(usize, usize)> = None;
    for (i, c) in trick.iter().enumerate() {
        let (Some(suit), Some(rank)) = (c.suit(), c.rank()) else {
            continue;
        };
        let key = if Some(suit) == trump {
            100 + rank.index()
        } else if Some(suit) == led {
            rank.index()
        } else {
            continue;
        };
        if best.is_none_or(|(_, k)| key > k) {
            best = Some((i, key));
        }
    }
    best.map_or(0, |(i, _)| i)
}

/// The score of a round: `20 + 10 * bid` when the bid is met exactly,
/// otherwise `-10` per trick of difference.
pub fn round_score(bid: u8, won: u8) -> i32 {
    if bid == won {
        20 + 10 * bid as i32
    } else {
        -10 * (bid as i32 - won as i32).abs()
    }
}

impl Wizard {
    /// A new game: self-dealt (`observer = None`) or seat-bound.
    pub fn with_config(cfg: Config, observer: Option<Seat>) -> Wizard {
        Wizard {
            cfg,
            observer: observer.filter(|&s| s < cfg.players),
            round: 0,
            dealer: (cfg.players - 1) as u8,
            phase: Phase::Deal,
            hands: [CardSet::EMPTY; MAX_PLAYERS],
            unknown: CardSet::EMPTY,
            counts: [0; MAX_PLAYERS],
            forbidden: [CardSet::EMPTY; MAX_PLAYERS],
            turned: None,
            trump: None,
            bids: [0; MAX_PLAYERS],
            bids_made: 0,
            trick: [Card::TWO_CLUBS; MAX_PLAYERS],
            trick_len: 0,
            leader: 0,
            to_move: 0,
            won: [0; MAX_PLAYERS],
            tricks_done: 0,
            played: CardSet::EMPTY,
            last_round: [0; MAX_PLAYERS],
            totals: [0; MAX_PLAYERS],
            round_over: false,
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

    /// Where the round stands.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The round number, from 0.
    pub fn round(&self) -> usize {
        self.round as usize
    }

    /// Cards dealt to each player in the current round.
    pub fn round_cards(&self) -> usize {
        self.cfg.cards_in_round(self.round as usize)
    }

    /// The dealer of the current round.
    pub fn dealer(&self) -> Seat {
        self.dealer as usize
    }

    /// The seat's cards (full state; seat-bound: the observer's only).
    pub fn hand(&self, seat: Seat) -> CardSet {
        self.hands.get(seat).copied().unwrap_or_default()
    }

    /// The number of cards the seat holds.
    pub fn hand_size(&self, seat: Seat) -> usize {
        self.counts.get(seat).map_or(0, |&c| c as usize)
    }

    /// Seat-bound: the unseen cards in other hands.
    pub fn unknown(&self) -> CardSet {
        self.unknown
    }

    /// Cards the seat is publicly known not to hold.
    pub fn forbidden(&self, seat: Seat) -> CardSet {
        self.forbidden.get(seat).copied().unwrap_or_default()
    }

    /// The turned-up card of this round, if any.
    pub fn turned(&self) -> Option<Card> {
        self.turned
    }

    /// The trump suit of this round, if any (and once chosen).
    pub fn trump(&self) -> Option<Suit> {
        self.trump
    }

    /// The bids so far this round (0 for seats yet to bid).
    pub fn bids(&self) -> [u8; MAX_PLAYERS] {
        self.bids
    }

    /// Tricks won so far this round.
    pub fn tricks_won(&self) -> [u8; MAX_PLAYERS] {
        self.won
    }

    /// Cards played so far this round (including the current trick).
    pub fn played(&self) -> CardSet {
        self.played
    }

    /// The current trick as (seat, card) in playing order.
    pub fn trick(&self) -> Vec<(Seat, Card)> {
        trick_plays(
            &self.trick[..self.trick_len as usize],
            self.leader as usize,
            self.cfg.players,
        )
    }

    /// The scores of the last finished round.
    pub fn last_round_scores(&self) -> Vec<i32> {
        self.last_round[..self.cfg.players].to_vec()
    }

    /// Game totals.
    pub fn totals(&self) -> Vec<i32> {
        self.totals[..self.cfg.players].to_vec()
    }

    /// Self-dealt, at a deal: deals these hands and turned-up card instead
    /// of a shuffle (tests, tools). Each hand must hold the round's number
    /// of cards, all distinct; `turned` must be given exactly when the
    /// round does not use the whole deck.
    pub fn deal_hands(&mut self, hands: &[CardSet], turned: Option<Card>) -> Result<(), String> {
        if self.observer.is_some() || self.phase != Phase::Deal {
            return Err("hands can be dealt only at a self-dealt deal".into());
        }
        let n = self.cfg.players;
        let r = self.round_cards();
        if hands.len() != n || hands.iter().any(|h| h.len() != r) {
            return Err(format!("{n} hands of {r} cards are needed"));
        }
        let mut all = CardSet::EMPTY;
        for h in hands {
            if all.intersects(*h) {
                return Err("a card is dealt twice".into());
            }
            all |= *h;
        }
        if turned.is_some() != (r * n < 60) || turned.is_some_and(|t| all.contains(t)) {
            return Err(
                "the turned-up card must be a card not dealt (none when all 60 are)".into(),
            );
        }
        let mut hs = [CardSet::EMPTY; MAX_PLAYERS];
        hs[..n].copy_from_slice(hands);
        self.start_round(hs, turned);
        Ok(())
    }

    fn n(&self) -> usize {
        self.cfg.players
    }

    fn reset_round(&mut self) {
        let r = self.round_cards() as u8;
        self.hands = [CardSet::EMPTY; MAX_PLAYERS];
        self.unknown = CardSet::EMPTY;
        self.counts = [0; MAX_PLAYERS];
        for s in 0..self.n() {
            self.counts[s] = r;
        }
        self.forbidden = [CardSet::EMPTY; MAX_PLAYERS];
        self.bids = [0; MAX_PLAYERS];
        self.bids_made = 0;
        self.trick_len = 0;
        self.won = [0; MAX_PLAYERS];
        self.tricks_done = 0;
        self.played = CardSet::EMPTY;
        self.round_over = false;
    }

    /// Full state: the round starts with these hands.
    fn start_round(&mut self, hands: [CardSet; MAX_PLAYERS], turned: Option<Card>) {
        self.reset_round();
        self.hands = hands;
        self.turn_up(turned);
    }

    /// Sets trump from the turned-up card and moves on to the trump choice
    /// or the bidding.
    fn turn_up(&mut self, turned: Option<Card>) {
        self.turned = turned;
        self.trump = turned.and_then(|c| c.suit());
        if turned.is_some_and(|c| c.is_wizard()) {
            self.phase = Phase::Trump;
            self.to_move = self.dealer;
        } else {
            self.begin_bidding();
        }
    }

    fn begin_bidding(&mut self) {
        self.phase = Phase::Bid;
        self.to_move = ((self.dealer as usize + 1) % self.n()) as u8;
    }

    /// Whether `bid` is allowed for the seat to bid now.
    fn bid_allowed(&self, bid: u8) -> bool {
        let r = self.round_cards();
        if bid as usize > r {
            return false;
        }
        if self.cfg.no_even_bids && self.bids_made as usize == self.n() - 1 {
            let sum: usize = self.bids[..self.n()].iter().map(|&b| b as usize).sum();
            return sum + bid as usize != r;
        }
        true
    }

    /// The cards a seat holding `hand` may play to the current trick.
    fn legal_from(&self, hand: CardSet) -> CardSet {
        let specials = hand & (CardSet::WIZARDS | CardSet::JESTERS);
        match led_suit(&self.trick[..self.trick_len as usize]) {
            Some(s) if !hand.of_suit(s).is_empty() => hand.of_suit(s) | specials,
            _ => hand,
        }
    }

    /// The legal cards of the seat to move, when its hand is known.
    pub fn legal_cards(&self) -> CardSet {
        if self.phase != Phase::Play {
            return CardSet::EMPTY;
        }
        self.legal_from(self.hands[self.to_move as usize])
    }

    /// Whether the hand of the seat to move is fully known here.
    fn mover_known(&self) -> bool {
        knows_hand(self.observer, self.to_move as usize)
    }

    /// Plays a card for the seat to move (no legality check).
    fn play_card(&mut self, card: Card) {
        let p = self.to_move as usize;
        let n = self.n();
        // A normal card off the suit to follow shows a void; Wizards and
        // Jesters may always be played and show nothing.
        if let (Some(led), Some(suit)) = (
            led_suit(&self.trick[..self.trick_len as usize]),
            card.suit(),
        ) && suit != led
        {
            self.forbidden[p] |= CardSet::suit(led);
        }
        if self.hands[p].contains(card) {
            self.hands[p].remove(card);
        } else {
            self.unknown.remove(card);
        }
        self.counts[p] = self.counts[p].saturating_sub(1);
        self.played.insert(card);
        self.trick[self.trick_len as usize] = card;
        self.trick_len += 1;
        if (self.trick_len as usize) < n {
            self.to_move = ((p + 1) % n) as u8;
            return;
        }
        let best = trick_winner(&self.trick[..n], self.trump);
        let winner = (self.leader as usize + best) % n;
        self.won[winner] += 1;
        self.tricks_done += 1;
        self.trick_len = 0;
        self.leader = winner as u8;
        self.to_move = winner as u8;
        if self.tricks_done as usize == self.round_cards() {
            self.end_round();
        }
    }

    fn end_round(&mut self) {
        for s in 0..self.n() {
            let score = round_score(self.bids[s], self.won[s]);
            self.last_round[s] = score;
            self.totals[s] += score;
        }
        self.round_over = true;
        self.round += 1;
        self.dealer = ((self.dealer as usize + 1) % self.n()) as u8;
        self.phase = if self.round as usize >= self.cfg.rounds {
            Phase::Over
        } else {
            Phase::Deal
        };
    }

    /// The card sizes of a self-dealt deal: the hands, then the turned-up
    /// card when the round does not use the whole deck.
    fn deal_sizes(&self) -> Vec<usize> {
        let r = self.round_cards();
        let mut sizes = vec![r; self.n()];
        if r * self.n() < 60 {
            sizes.push(1);
        }
        sizes
    }

    fn seeded_deal(&self, seed: u64) -> ([CardSet; MAX_PLAYERS], Option<Card>) {
        let dealt = deal_seeded(seed, DECK, &self.deal_sizes());
        let mut hands = [CardSet::EMPTY; MAX_PLAYERS];
        hands[..self.n()].copy_from_slice(&dealt[..self.n()]);
        (hands, dealt.get(self.n()).and_then(|s| s.lowest()))
    }

    fn parse_cards(text: &str) -> Result<CardSet, MoveError> {
        CardSet::parse_list(text).map_err(|e| MoveError::Syntax(e.to_string()))
    }
}

impl Game for Wizard {
    type Eval = crate::model::game::OwnEvaluation;
    type Move = WizardMove;

    const NAME: &'static str = NAME;
    const SUMMARY: &'static str = "Wizard, 3-6 players, bids and tricks with Wizards and Jesters; seat-bound play with seat=N";
    const OPTIONS: &'static [OptionSpec] = OPTIONS;
    const PERFECT_INFORMATION: bool = false;

    fn new_game(options: &Options) -> Result<Self, OptionError> {
        let players = options.int("players").unwrap_or(4).clamp(3, 6) as usize;
        let hand = options.int("hand").map(|h| h as usize);
        let rounds = match options.int("rounds") {
            Some(r) => r as usize,
            None => 60 / players,
        };
        let cfg = Config {
            players,
            rounds,
            hand,
            no_even_bids: options.flag("no_even_bids"),
        };
        cfg.check().map_err(OptionError::Invalid)?;
        let seat = bound_seat_option(options, players)?;
        Ok(Wizard::with_config(cfg, seat))
    }

    fn num_seats(&self) -> usize {
        self.cfg.players
    }

    fn turn(&self) -> Turn {
        match self.phase {
            Phase::Over => Turn::Over,
            Phase::Deal => Turn::Chance,
            Phase::Trump | Phase::Bid | Phase::Play => Turn::Player(self.to_move as usize),
        }
    }

    /// At a deal the outcomes are too many to list: the list is empty (use
    /// [`Game::sample_chance`], or [`Game::is_legal`] for a told deal).
    fn legal_moves(&self, out: &mut Vec<WizardMove>) {
        out.clear();
        match self.phase {
            Phase::Trump => out.extend(Suit::ALL.map(WizardMove::Trump)),
            Phase::Bid => out.extend(
                (0..=self.round_cards() as u8)
                    .filter(|&b| self.bid_allowed(b))
                    .map(WizardMove::Bid),
            ),
            Phase::Play if self.mover_known() => {
                out.extend(self.legal_cards().iter().map(WizardMove::Play))
            }
            Phase::Play => out.extend(
                (self.unknown - self.forbidden[self.to_move as usize])
                    .iter()
                    .filter(|&c| self.plausible_play(c))
                    .map(WizardMove::Play),
            ),
            Phase::Deal | Phase::Over => {}
        }
    }

    fn is_legal(&self, mv: WizardMove) -> bool {
        match (self.phase, mv) {
            (Phase::Deal, WizardMove::Deal(_)) => self.observer.is_none(),
            (Phase::Deal, WizardMove::Hand(set, turned)) => {
                let r = self.round_cards();
                self.observer.is_some()
                    && set.len() == r
                    && set.is_subset(DECK)
                    && match turned {
                        Some(t) => r * self.n() < 60 && !set.contains(t),
                        None => r * self.n() == 60,
                    }
            }
            (Phase::Trump, WizardMove::Trump(_)) => true,
            (Phase::Bid, WizardMove::Bid(b)) => self.bid_allowed(b),
            (Phase::Play, WizardMove::Play(c)) if self.mover_known() => {
                self.legal_cards().contains(c)
            }
            (Phase::Play, WizardMove::Play(c)) => self.plausible_play(c),
            _ => false,
        }
    }

    fn apply(&mut self, mv: WizardMove) {
        match mv {
            WizardMove::Deal(seed) => {
                let (hands, turned) = self.seeded_deal(seed);
                self.start_round(hands, turned);
            }
            WizardMove::Hand(set, turned) => {
                let o = self.observer.unwrap_or(0);
                self.reset_round();
                self.hands[o] = set;
                self.unknown = DECK - set - turned.map_or(CardSet::EMPTY, CardSet::single);
                self.turn_up(turned);
            }
            WizardMove::Trump(s) => {
                self.trump = Some(s);
                self.begin_bidding();
            }
            WizardMove::Bid(b) => {
                let p = self.to_move as usize;
                self.bids[p] = b;
                self.bids_made += 1;
                if self.bids_made as usize >= self.n() {
                    self.phase = Phase::Play;
                    self.leader = ((self.dealer as usize + 1) % self.n()) as u8;
                    self.to_move = self.leader;
                } else {
                    self.to_move = ((p + 1) % self.n()) as u8;
                }
            }
            WizardMove::Play(card) => self.play_card(card),
        }
    }

    fn reward(&self, seat: Seat) -> f64 {
        let seat = seat % self.n();
        let (score, r) = if self.round_over {
            let r = self.cfg.cards_in_round(self.round as usize - 1);
            (self.last_round[seat], r)
        } else {
            (
                round_score(self.bids[seat], self.won[seat]),
                self.round_cards(),
            )
        };
        let (lo, hi) = (-10.0 * r as f64, 20.0 + 10.0 * r as f64);
        ((score as f64 - lo) / (hi - lo)).clamp(0.0, 1.0)
    }

    fn outcome(&self) -> Outcome {
        let totals = &self.totals[..self.n()];
        let best = totals.iter().copied().max().unwrap_or(0);
        Outcome {
            scores: totals.iter().map(|&t| t as f64).collect(),
            winners: (0..self.n()).filter(|&s| totals[s] == best).collect(),
        }
    }

    fn seat_name(&self, seat: Seat) -> String {
        numbered_seat_name(seat)
    }

    fn parse_seat(&self, text: &str) -> Option<Seat> {
        parse_numbered_seat(text, self.n())
    }

    fn move_text(&self, mv: WizardMove) -> String {
        match mv {
            WizardMove::Deal(seed) => deal_seed_text(seed),
            WizardMove::Hand(set, Some(t)) => format!("{set} up {t}"),
            WizardMove::Hand(set, None) => set.to_string(),
            WizardMove::Trump(s) => format!("trump:{s}"),
            WizardMove::Bid(b) => format!("bid:{b}"),
            WizardMove::Play(c) => c.to_string(),
        }
    }

    fn parse_move(&self, text: &str) -> Result<WizardMove, MoveError> {
        let text = text.trim();
        let lower = text.to_ascii_lowercase();
        match self.phase {
            Phase::Over => Err(MoveError::GameOver),
            Phase::Deal if self.observer.is_none() => parse_deal_seed(text).map(WizardMove::Deal),
            Phase::Deal => {
                let (cards, up) = match lower.split_once("up") {
                    Some((c, u)) => (c, Some(u)),
                    None => (lower.as_str(), None),
                };
                let set = Self::parse_cards(cards)?;
                let turned = match up {
                    Some(u) => Some(u.trim().parse::<Card>().map_err(|e| {
                        MoveError::Syntax(format!("'{text}': the turned-up card: {e}"))
                    })?),
                    None => None,
                };
                if set.is_empty() {
                    return Err(MoveError::Syntax(format!(
                        "'{text}': a deal is the seat's cards then up and the turned-up card, e.g. 2C 7H Z1 up QS"
                    )));
                }
                Ok(WizardMove::Hand(set, turned))
            }
            Phase::Trump => {
                // `trump:H`, `trump H` or a bare `H`.
                let s = lower
                    .strip_prefix("trump")
                    .unwrap_or(&lower)
                    .trim()
                    .trim_start_matches(':');
                let mut chars = s.chars();
                match (chars.next().and_then(Suit::from_letter), chars.next()) {
                    (Some(suit), None) => Ok(WizardMove::Trump(suit)),
                    _ => Err(MoveError::Syntax(format!(
                        "'{text}': the dealer names trump, e.g. trump H"
                    ))),
                }
            }
            // `bid:2`, `bid 2` or a bare `2`.
            Phase::Bid => lower
                .strip_prefix("bid")
                .unwrap_or(&lower)
                .trim()
                .trim_start_matches(':')
                .parse::<u8>()
                .map(WizardMove::Bid)
                .map_err(|_| MoveError::Syntax(format!("'{text}': a bid is e.g. bid 2"))),
            Phase::Play => text
                .parse::<Card>()
                .map(WizardMove::Play)
                .map_err(|e| MoveError::Syntax(e.to_string())),
        }
    }

    crate::games::cards::card_game_hooks!(scored: round_over);

    fn sample_chance(&self, rng: &mut Rng) -> WizardMove {
        WizardMove::Deal(rand::Rng::r#gen(rng))
    }

    fn chance_from_referee(&self) -> bool {
        self.observer.is_some() && self.phase == Phase::Deal
    }

    fn random_move(&self, rng: &mut Rng, buf: &mut Vec<WizardMove>) -> WizardMove {
        match self.phase {
            Phase::Play if self.mover_known() => {
                WizardMove::Play(self.legal_cards().choose(rng).unwrap_or(Card::TWO_CLUBS))
            }
            Phase::Deal => self.sample_chance(rng),
            _ => random_legal_move(self, rng, buf).unwrap_or_else(|| self.sample_chance(rng)),
        }
    }

    fn rules_move(&self, rng: &mut Rng) -> Option<WizardMove> {
        match self.phase {
            Phase::Deal if self.observer.is_none() => Some(self.sample_chance(rng)),
            Phase::Trump if self.mover_known() => Some(WizardMove::Trump(self.rules_trump())),
            Phase::Bid if self.mover_known() => Some(WizardMove::Bid(self.rules_bid())),
            Phase::Play if self.mover_known() => self.rules_card().map(WizardMove::Play),
            _ => None,
        }
    }

    fn view_text(&self, observer: Seat) -> String {
        let mut out = String::new();
        self.describe(&mut out, Some(observer % self.n()));
        out
    }
}
