//! Hearts for four players (rules: `protocol.md`, Games, Hearts).
//!
//! # Two kinds of state
//!
//! - **Self-dealt** (`game hearts`): the state holds every hand. Each hand
//!   starts with a chance move [`HeartsMove::Deal`] carrying a 64-bit seed;
//!   the deal is a portable shuffle of that seed
//!   ([`deal_seeded`]), so the move is `Copy` and cheap.
//! - **Seat-bound** (`game hearts seat=2`): the state knows only what that
//!   seat (the *observer*) sees. The cards in other hands that it has not
//!   seen form the *unknown pool*; cards it passed are known to sit in the
//!   receiver's hand until played. Chance steps are told by the referee
//!   (`deal <text>`): [`HeartsMove::Hand`] (its 13 cards),
//!   [`HeartsMove::Receive`] (the 3 cards passed to it, told once every seat
//!   has passed) and, when it cannot know who holds `2C`,
//!   [`HeartsMove::Opener`] (`deal west 2C`, sent just before
//!   `play west 2C`). Other seats' passes are hidden and are not turns of
//!   the seat-bound state at all; their plays arrive as `play east 5H`.
//!
//! [`Game::tell`] on a self-dealt state gives each seat exactly these steps
//! as typed [`Observation`](crate::model::game::Observation)s (the referee writes
//! them as the commands above), so a referee holding the full deal can
//! drive seat-bound engines.
//!
//! # Hidden information
//!
//! Public inferences are recorded as per-seat *forbidden* card sets: a seat
//! that does not follow suit is void in it; a seat that throws points on the
//! first trick (allowed only when it holds nothing else) holds only hearts
//! and `QS`; a seat that leads hearts before they are broken holds only
//! hearts. [`Game::determinize`] deals the unseen cards uniformly among all
//! deals consistent with the observer's hand, the cards it passed, the
//! played cards, the hand sizes and these constraints (see
//! [`sample_deal`](crate::games::cards::sample_deal)), and uses the generator only as a function of that
//! knowledge, so a search draws the same worlds whatever the hidden hands
//! really are.
//!
//! # Texts
//!
//! A play is one card (`QS`). A pass is the three cards joined by `+`
//! (`2C+3C+4C`, one word; spaces, `,` and an optional leading word `pass`
//! are read too). Told
//! chance steps: `2C 5C ... AS` (13 cards, a seat-bound deal), `4H QS 2D`
//! (the 3 received cards), `west 2C` (who holds `2C`). A self-dealt deal is
//! `shuffle:<seed>`.
//!
//! # Horizon and reward
//!
//! Searches stop at the end of a hand ([`Game::at_horizon`]). The reward of
//! a seat is its hand score relative to the others:
//! `(mean of the others' scores - own score + 26) / 52`, in `[0, 1]`. Without
//! a moon shot this is linear in the seat's own points (the 26 points are
//! shared), so it orders outcomes exactly as "take fewer points" does; with
//! a moon shot it gives the shooter 1 and the others a low value, and it is
//! the same under both moon options (they differ by 26 for everyone), so
//! searches try to stop a moon in either variant.

// Seat-indexed parallel arrays read best with seat indices.
#![allow(clippy::needless_range_loop)]

mod baseline;
mod hidden;
mod page;
mod view;

use crate::model::game::{Game, MoveError, Outcome, Rng, Seat, Turn, random_legal_move};
use crate::games::cards::{
    Card, CardSet, Suit, bound_seat_option, deal_seed_text, deal_seeded, knows_hand,
    parse_deal_seed, trick_plays,
};
use crate::model::options::{OptionError, OptionSpec, Options};

/// Number of seats.
pub const SEATS: usize = 4;
/// Cards per hand.
pub const HAND_SIZE: usize = 13;
/// Seat names, clockwise from seat 0.
pub const SEAT_NAMES: [&str; 4] = ["north", "east", "south", "west"];

const HEARTS: CardSet = CardSet::suit(Suit::Hearts);
const POINT_CARDS: CardSet = CardSet(HEARTS.0 | CardSet::single(Card::QUEEN_SPADES).0);

/// The points of a set of cards: 1 per heart, 13 for `QS`.
pub fn points_of(cards: CardSet) -> u8 {
    (cards & HEARTS).len() as u8
        + if cards.contains(Card::QUEEN_SPADES) {
            13
        } else {
            0
        }
}

/// What a moon shot scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moon {
    /// Every other player gets 26, the shooter 0 (standard).
    Others,
    /// The shooter gets -26, the others 0.
    Minus,
}

/// Which way cards are passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Passing {
    /// Left, right, across, no pass, repeat (standard).
    Cycle,
    /// Always left.
    Left,
    /// Always right.
    Right,
    /// Always across.
    Across,
    /// Never pass.
    None,
}

/// The rule options of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// The game ends after the hand in which someone reaches this total.
    pub target: i32,
    /// Moon-shot scoring.
    pub moon: Moon,
    /// Playing `QS` breaks hearts (standard rules only).
    pub qs_breaks_hearts: bool,
    /// `QS` may be led before hearts are broken (false: the seed variant).
    pub qs_lead: bool,
    /// Points may be played on the first trick (the seed has no such rule).
    pub first_trick_points: bool,
    /// One hand only.
    pub single_hand: bool,
    /// Passing directions.
    pub passing: Passing,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            target: 100,
            moon: Moon::Others,
            qs_breaks_hearts: true,
            qs_lead: true,
            first_trick_points: false,
            single_hand: false,
            passing: Passing::Cycle,
        }
    }
}

/// A Hearts move, including chance steps. See the module docs for texts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HeartsMove {
    /// Self-dealt chance: the whole deal, as a shuffle seed.
    Deal(u64),
    /// Seat-bound chance: the observer's 13 cards.
    Hand(CardSet),
    /// A player passes these 3 cards.
    Pass(CardSet),
    /// Seat-bound chance: the 3 cards passed to the observer.
    Receive(CardSet),
    /// Seat-bound chance: this seat holds `2C` (and leads it next).
    Opener(u8),
    /// A player plays a card.
    Play(Card),
}

/// Where a hand stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Waiting for the deal (chance).
    Deal,
    /// Players choose their passes.
    Pass,
    /// Seat-bound: waiting to be told the received cards (chance).
    Receive,
    /// Seat-bound: waiting to be told who holds `2C` (chance).
    Opener,
    /// Tricks are played.
    Play,
    /// The game is over.
    Over,
}

/// Its registry name (`game hearts`).
pub const NAME: &str = "hearts";

/// Its registry listing: the names GTP tools use, the options a page
/// may set.
pub const LISTING: crate::games::Listing = crate::games::Listing {
    gtp_names: &["Hearts"],
    page_options: &[
        "target",
        "moon",
        "qs_breaks_hearts",
        "qs_lead",
        "first_trick_points",
        "hands",
        "pass",
    ],
};

/// What it declares beyond its rules: how it is shown to a person.
pub const EXTRAS: crate::model::extras::Extras<Hearts> = crate::model::extras::Extras {
    pictures: page::PICTURES,
    ..crate::model::extras::Extras::NONE
};

/// A Hearts state: self-dealt (full) or seat-bound (one seat's knowledge).
#[derive(Clone, Debug)]
pub struct Hearts {
    cfg: Config,
    /// `Some(seat)` for a seat-bound state.
    observer: Option<Seat>,
    hand_no: u32,
    phase: Phase,
    /// Full state: every hand. Seat-bound: the observer's hand, and for the
    /// others the cards known to be there (passed by the observer).
    hands: [CardSet; 4],
    /// Seat-bound: unseen cards held by other seats. Empty in full states.
    unknown: CardSet,
    /// Cards held by each seat.
    counts: [u8; 4],
    /// The cards each seat passed this hand (seat-bound: own only).
    passes: [CardSet; 4],
    /// The cards each seat received this hand (seat-bound: own only).
    received: [CardSet; 4],
    /// Bit per seat that has passed this hand.
    passed: u8,
    /// Public inferences: cards a seat cannot hold.
    forbidden: [CardSet; 4],
    /// The current trick, in playing order from `leader`.
    trick: [Card; 4],
    /// The last trick completed (in playing order from its leader), its
    /// leader and who took it, for the picture.
    last_trick: Option<([Card; 4], u8, u8)>,
    trick_len: u8,
    leader: u8,
    to_move: u8,
    heart_played: bool,
    played: CardSet,
    tricks: u8,
    /// Raw points taken this hand.
    points: [u8; 4],
    /// Scores of the last finished hand (after the moon rule).
    last_hand: [i32; 4],
    totals: [i32; 4],
    /// A hand has just ended: the search horizon.
    hand_over: bool,
}

const OPTIONS: &[OptionSpec] = &[
    OptionSpec::int("seat", 0..=3, "none", "seat-bound play: the seat (0..3 = north, east, south, west) this engine sits at; none = self-dealt"),
    OptionSpec::int("target", 1..=10_000, "100", "the game ends after the hand in which someone reaches this total"),
    OptionSpec::choice("moon", &["others", "minus"], "others", "moon shot: the others get 26, or the shooter gets -26"),
    OptionSpec::flag("qs_breaks_hearts", "true", "playing QS breaks hearts"),
    OptionSpec::flag("qs_lead", "true", "QS may be led before hearts are broken (false: seed variant, only a heart breaks)"),
    OptionSpec::flag("first_trick_points", "false", "points may be played on the first trick"),
    OptionSpec::choice("hands", &["game", "single"], "game", "play to the target score, or one hand only"),
    OptionSpec::choice("pass", &["cycle", "left", "right", "across", "none"], "cycle", "passing: left, right, across, none in turn, or always one way"),
];

impl Hearts {
    /// A new self-dealt (`observer = None`) or seat-bound game.
    pub fn with_config(cfg: Config, observer: Option<Seat>) -> Hearts {
        Hearts {
            cfg,
            observer: observer.filter(|&s| s < SEATS),
            hand_no: 0,
            phase: Phase::Deal,
            hands: [CardSet::EMPTY; 4],
            unknown: CardSet::EMPTY,
            counts: [0; 4],
            passes: [CardSet::EMPTY; 4],
            received: [CardSet::EMPTY; 4],
            passed: 0,
            forbidden: [CardSet::EMPTY; 4],
            trick: [Card::TWO_CLUBS; 4],
            last_trick: None,
            trick_len: 0,
            leader: 0,
            to_move: 0,
            heart_played: false,
            played: CardSet::EMPTY,
            tricks: 0,
            points: [0; 4],
            last_hand: [0; 4],
            totals: [0; 4],
            hand_over: false,
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

    /// The hand number, from 0.
    pub fn hand_number(&self) -> u32 {
        self.hand_no
    }

    /// The seat's cards (full state), or the cards known to be in its hand
    /// (seat-bound).
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

    /// The cards the seat passed this hand (seat-bound: only the observer's).
    pub fn passed_cards(&self, seat: Seat) -> CardSet {
        self.passes.get(seat).copied().unwrap_or_default()
    }

    /// Raw points taken so far in this hand.
    pub fn hand_points(&self) -> [u8; 4] {
        self.points
    }

    /// The scores of the last finished hand, moon rule applied.
    pub fn last_hand_scores(&self) -> [i32; 4] {
        self.last_hand
    }

    /// Game totals.
    pub fn totals(&self) -> [i32; 4] {
        self.totals
    }

    /// Cards played so far this hand (including the current trick).
    pub fn played(&self) -> CardSet {
        self.played
    }

    /// Tricks completed in this hand.
    pub fn tricks_done(&self) -> usize {
        self.tricks as usize
    }

    /// The current trick as (seat, card) in playing order.
    pub fn trick(&self) -> Vec<(Seat, Card)> {
        trick_plays(
            &self.trick[..self.trick_len as usize],
            self.leader as usize,
            SEATS,
        )
    }

    /// Whether hearts may be led now (broken).
    pub fn hearts_broken(&self) -> bool {
        if self.cfg.qs_lead {
            self.heart_played
                || (self.cfg.qs_breaks_hearts && self.played.contains(Card::QUEEN_SPADES))
        } else {
            self.heart_played
        }
    }

    /// The seat offset cards are passed to in hand `hand_no` (1 left, 2
    /// across, 3 right), or `None` for a no-pass hand.
    pub fn pass_offset(&self) -> Option<usize> {
        let off = match self.cfg.passing {
            Passing::Cycle => [1, 3, 2, 0][(self.hand_no % 4) as usize],
            Passing::Left => 1,
            Passing::Right => 3,
            Passing::Across => 2,
            Passing::None => 0,
        };
        (off != 0).then_some(off)
    }

    /// The seat that `seat` passes to this hand, if there is a pass.
    pub fn pass_target(&self, seat: Seat) -> Option<Seat> {
        self.pass_offset().map(|o| (seat + o) % SEATS)
    }

    /// Self-dealt, at a deal: deals these hands instead of a shuffle (tests,
    /// tools). They must split the 52 cards 13 each.
    pub fn deal_hands(&mut self, hands: [CardSet; 4]) -> Result<(), String> {
        if self.observer.is_some() || self.phase != Phase::Deal {
            return Err("hands can be dealt only at a self-dealt deal".into());
        }
        let all = hands.iter().fold(CardSet::EMPTY, |a, &h| a | h);
        if all != CardSet::DECK || hands.iter().any(|h| h.len() != HAND_SIZE) {
            return Err("the hands must split the 52 cards, 13 each".into());
        }
        self.start_hand(hands);
        Ok(())
    }

    fn name(seat: Seat) -> &'static str {
        SEAT_NAMES[seat % SEATS]
    }

    fn reset_hand(&mut self) {
        self.hands = [CardSet::EMPTY; 4];
        self.unknown = CardSet::EMPTY;
        self.counts = [HAND_SIZE as u8; 4];
        self.passes = [CardSet::EMPTY; 4];
        self.received = [CardSet::EMPTY; 4];
        self.passed = 0;
        self.forbidden = [CardSet::EMPTY; 4];
        self.trick_len = 0;
        self.last_trick = None;
        self.heart_played = false;
        self.played = CardSet::EMPTY;
        self.tricks = 0;
        self.points = [0; 4];
        self.hand_over = false;
    }

    /// Full state: a hand starts with these hands.
    fn start_hand(&mut self, hands: [CardSet; 4]) {
        self.reset_hand();
        self.hands = hands;
        if self.pass_offset().is_some() {
            self.phase = Phase::Pass;
            self.to_move = 0;
        } else {
            self.begin_play();
        }
    }

    /// Full state: the holder of `2C` leads.
    fn begin_play(&mut self) {
        let leader = (0..SEATS)
            .find(|&s| self.hands[s].contains(Card::TWO_CLUBS))
            .unwrap_or(0);
        self.leader = leader as u8;
        self.to_move = leader as u8;
        self.phase = Phase::Play;
    }

    /// Seat-bound: the leader if known, else wait to be told.
    fn begin_play_bound(&mut self) {
        match (0..SEATS).find(|&s| self.hands[s].contains(Card::TWO_CLUBS)) {
            Some(s) => {
                self.leader = s as u8;
                self.to_move = s as u8;
                self.phase = Phase::Play;
            }
            None => self.phase = Phase::Opener,
        }
    }

    /// The cards a seat holding `hand` may play now.
    fn legal_from(&self, hand: CardSet) -> CardSet {
        if self.trick_len == 0 {
            if self.tricks == 0 && hand.contains(Card::TWO_CLUBS) {
                return CardSet::single(Card::TWO_CLUBS);
            }
            if !self.hearts_broken() {
                let restricted = if self.cfg.qs_lead {
                    HEARTS
                } else {
                    POINT_CARDS
                };
                let rest = hand - restricted;
                if !rest.is_empty() {
                    return rest;
                }
            }
            return hand;
        }
        let led = self.trick[0].suit_index();
        let follow = hand & CardSet(CardSet::suit(Suit::Clubs).0 << (13 * led));
        let options = if follow.is_empty() { hand } else { follow };
        if self.tricks == 0 && !self.cfg.first_trick_points {
            let clean = options - POINT_CARDS;
            if !clean.is_empty() {
                return clean;
            }
        }
        options
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
        // Public inferences, recorded before the card joins the trick.
        if self.trick_len > 0 {
            let led = self.trick[0].suit_index();
            if card.suit_index() != led {
                self.forbidden[p] |= CardSet(CardSet::suit(Suit::Clubs).0 << (13 * led));
                if self.tricks == 0 && !self.cfg.first_trick_points && POINT_CARDS.contains(card) {
                    self.forbidden[p] |= CardSet::DECK - POINT_CARDS;
                }
            }
        } else if self.tricks > 0 && !self.hearts_broken() {
            let restricted = if self.cfg.qs_lead {
                HEARTS
            } else {
                POINT_CARDS
            };
            if restricted.contains(card) {
                self.forbidden[p] |= CardSet::DECK - restricted;
            }
        }
        if self.hands[p].contains(card) {
            self.hands[p].remove(card);
        } else {
            self.unknown.remove(card);
        }
        self.counts[p] = self.counts[p].saturating_sub(1);
        self.heart_played |= HEARTS.contains(card);
        self.played.insert(card);
        self.trick[self.trick_len as usize] = card;
        self.trick_len += 1;
        if self.trick_len < 4 {
            self.to_move = ((p + 1) % SEATS) as u8;
            return;
        }
        let led = self.trick[0].suit_index();
        let mut best = 0;
        for i in 1..4 {
            if self.trick[i].suit_index() == led && self.trick[i] > self.trick[best] {
                best = i;
            }
        }
        let winner = (self.leader as usize + best) % SEATS;
        let taken: CardSet = self.trick.iter().copied().collect();
        self.points[winner] += points_of(taken);
        self.last_trick = Some((self.trick, self.leader, winner as u8));
        self.tricks += 1;
        self.trick_len = 0;
        self.leader = winner as u8;
        self.to_move = winner as u8;
        if self.tricks as usize == HAND_SIZE {
            self.end_hand();
        }
    }

    fn end_hand(&mut self) {
        let mut score = self.points.map(i32::from);
        if let Some(shooter) = (0..SEATS).find(|&s| self.points[s] == 26) {
            score = match self.cfg.moon {
                Moon::Others => [26; 4],
                Moon::Minus => [0; 4],
            };
            score[shooter] = if self.cfg.moon == Moon::Others {
                0
            } else {
                -26
            };
        }
        self.last_hand = score;
        for s in 0..SEATS {
            self.totals[s] += score[s];
        }
        self.hand_over = true;
        if self.cfg.single_hand || self.totals.iter().any(|&t| t >= self.cfg.target) {
            self.phase = Phase::Over;
        } else {
            self.hand_no += 1;
            self.phase = Phase::Deal;
        }
    }

    /// Full state: the exchange once all four have passed.
    fn exchange(&mut self) {
        let off = self.pass_offset().unwrap_or(0);
        for s in 0..SEATS {
            let t = (s + off) % SEATS;
            self.hands[t] |= self.passes[s];
            self.received[t] = self.passes[s];
        }
        self.begin_play();
    }

    fn parse_cards(text: &str, n: usize, what: &str) -> Result<CardSet, MoveError> {
        let set = CardSet::parse_list(text).map_err(|e| MoveError::Syntax(e.to_string()))?;
        if set.len() != n || !set.is_subset(CardSet::DECK) {
            return Err(MoveError::Syntax(format!(
                "{what} is {n} distinct cards, e.g. 2C QS TH"
            )));
        }
        Ok(set)
    }
}

impl Game for Hearts {
    type Eval = crate::model::game::OwnEvaluation;
    type Move = HeartsMove;

    const NAME: &'static str = NAME;
    const SUMMARY: &'static str =
        "Hearts, four players, passing, moon shots; seat-bound play with seat=N";
    const OPTIONS: &'static [OptionSpec] = OPTIONS;
    const PERFECT_INFORMATION: bool = false;

    fn new_game(options: &Options) -> Result<Self, OptionError> {
        let cfg = Config {
            target: options.int("target").unwrap_or(100) as i32,
            moon: if options.text("moon") == "minus" {
                Moon::Minus
            } else {
                Moon::Others
            },
            qs_breaks_hearts: options.flag("qs_breaks_hearts"),
            qs_lead: options.flag("qs_lead"),
            first_trick_points: options.flag("first_trick_points"),
            single_hand: options.text("hands") == "single",
            passing: match options.text("pass") {
                "left" => Passing::Left,
                "right" => Passing::Right,
                "across" => Passing::Across,
                "none" => Passing::None,
                _ => Passing::Cycle,
            },
        };
        let seat = bound_seat_option(options, SEATS)?;
        Ok(Hearts::with_config(cfg, seat))
    }

    fn num_seats(&self) -> usize {
        SEATS
    }

    fn turn(&self) -> Turn {
        match self.phase {
            Phase::Over => Turn::Over,
            Phase::Deal | Phase::Receive | Phase::Opener => Turn::Chance,
            Phase::Pass | Phase::Play => Turn::Player(self.to_move as usize),
        }
    }

    /// At a self-dealt deal and at told chance steps other than the opener
    /// the outcomes are too many to list: the list is empty (use
    /// [`Game::sample_chance`] or [`Game::is_legal`]).
    fn legal_moves(&self, out: &mut Vec<HeartsMove>) {
        out.clear();
        match self.phase {
            Phase::Pass => {
                let hand: Vec<Card> = self.hands[self.to_move as usize].to_vec();
                for i in 0..hand.len() {
                    for j in i + 1..hand.len() {
                        for k in j + 1..hand.len() {
                            out.push(HeartsMove::Pass(
                                [hand[i], hand[j], hand[k]].into_iter().collect(),
                            ));
                        }
                    }
                }
            }
            Phase::Play if self.mover_known() => {
                out.extend(self.legal_cards().iter().map(HeartsMove::Play))
            }
            Phase::Play => {
                let p = self.to_move as usize;
                let candidates = (self.hands[p] | self.unknown) - self.forbidden[p];
                out.extend(
                    candidates
                        .iter()
                        .filter(|&c| self.plausible_play(c))
                        .map(HeartsMove::Play),
                );
            }
            Phase::Opener => out.extend(
                (0..SEATS)
                    .filter(|&s| self.is_legal(HeartsMove::Opener(s as u8)))
                    .map(|s| HeartsMove::Opener(s as u8)),
            ),
            Phase::Deal | Phase::Receive | Phase::Over => {}
        }
    }

    fn is_legal(&self, mv: HeartsMove) -> bool {
        match (self.phase, mv) {
            (Phase::Deal, HeartsMove::Deal(_)) => self.observer.is_none(),
            (Phase::Deal, HeartsMove::Hand(set)) => {
                self.observer.is_some() && set.len() == HAND_SIZE && set.is_subset(CardSet::DECK)
            }
            (Phase::Pass, HeartsMove::Pass(set)) => {
                set.len() == 3 && set.is_subset(self.hands[self.to_move as usize])
            }
            (Phase::Receive, HeartsMove::Receive(set)) => {
                set.len() == 3 && set.is_subset(self.unknown)
            }
            (Phase::Opener, HeartsMove::Opener(s)) => {
                let s = s as usize;
                s < SEATS
                    && Some(s) != self.observer
                    && self.unknown.contains(Card::TWO_CLUBS)
                    && !self.forbidden[s].contains(Card::TWO_CLUBS)
            }
            (Phase::Play, HeartsMove::Play(c)) if self.mover_known() => {
                self.legal_cards().contains(c)
            }
            (Phase::Play, HeartsMove::Play(c)) => self.plausible_play(c),
            _ => false,
        }
    }

    fn apply(&mut self, mv: HeartsMove) {
        match mv {
            HeartsMove::Deal(seed) => {
                let h = deal_seeded(seed, CardSet::DECK, &[HAND_SIZE; 4]);
                self.start_hand([h[0], h[1], h[2], h[3]]);
            }
            HeartsMove::Hand(set) => {
                let o = self.observer.unwrap_or(0);
                self.reset_hand();
                self.hands[o] = set;
                self.unknown = CardSet::DECK - set;
                if self.pass_offset().is_some() {
                    self.phase = Phase::Pass;
                    self.to_move = o as u8;
                } else {
                    self.begin_play_bound();
                }
            }
            HeartsMove::Pass(set) => {
                let p = self.to_move as usize;
                self.hands[p] -= set;
                self.passes[p] = set;
                self.passed |= 1 << p;
                if self.observer.is_some() {
                    self.phase = Phase::Receive;
                } else if self.passed == 0xF {
                    self.exchange();
                } else {
                    self.to_move = (0..SEATS)
                        .find(|&s| self.passed & (1 << s) == 0)
                        .unwrap_or(0) as u8;
                }
            }
            HeartsMove::Receive(set) => {
                let o = self.observer.unwrap_or(0);
                self.hands[o] |= set;
                self.received[o] = set;
                self.unknown -= set;
                if let Some(t) = self.pass_target(o) {
                    self.hands[t] |= self.passes[o];
                }
                self.begin_play_bound();
            }
            HeartsMove::Opener(s) => {
                let s = s as usize % SEATS;
                self.unknown.remove(Card::TWO_CLUBS);
                self.hands[s].insert(Card::TWO_CLUBS);
                self.leader = s as u8;
                self.to_move = s as u8;
                self.phase = Phase::Play;
            }
            HeartsMove::Play(card) => self.play_card(card),
        }
    }

    fn reward(&self, seat: Seat) -> f64 {
        let s = if self.hand_over {
            self.last_hand
        } else {
            self.points.map(i32::from)
        };
        let own = s[seat % SEATS] as f64;
        let others = (s.iter().sum::<i32>() as f64 - own) / 3.0;
        ((others - own + 26.0) / 52.0).clamp(0.0, 1.0)
    }

    fn outcome(&self) -> Outcome {
        let best = self.totals.iter().copied().min().unwrap_or(0);
        Outcome {
            scores: self.totals.iter().map(|&t| t as f64).collect(),
            winners: (0..SEATS).filter(|&s| self.totals[s] == best).collect(),
        }
    }

    fn seat_name(&self, seat: Seat) -> String {
        Self::name(seat).to_string()
    }

    fn parse_seat(&self, text: &str) -> Option<Seat> {
        match text.to_ascii_lowercase().as_str() {
            "n" | "north" | "0" => Some(0),
            "e" | "east" | "1" => Some(1),
            "s" | "south" | "2" => Some(2),
            "w" | "west" | "3" => Some(3),
            _ => None,
        }
    }

    fn move_text(&self, mv: HeartsMove) -> String {
        match mv {
            HeartsMove::Deal(seed) => deal_seed_text(seed),
            // A pass is one token, so that move lists stay space-separated.
            HeartsMove::Pass(s) => s
                .iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join("+"),
            HeartsMove::Hand(s) | HeartsMove::Receive(s) => s.to_string(),
            HeartsMove::Opener(s) => format!("{} 2C", Self::name(s as usize)),
            HeartsMove::Play(c) => c.to_string(),
        }
    }

    fn parse_move(&self, text: &str) -> Result<HeartsMove, MoveError> {
        let text = text.trim();
        match self.phase {
            Phase::Over => Err(MoveError::GameOver),
            Phase::Deal if self.observer.is_none() => parse_deal_seed(text).map(HeartsMove::Deal),
            Phase::Deal => Ok(HeartsMove::Hand(Self::parse_cards(
                text, HAND_SIZE, "a deal",
            )?)),
            Phase::Pass => {
                let body = text
                    .strip_prefix("pass")
                    .or_else(|| text.strip_prefix("PASS"))
                    .unwrap_or(text);
                Ok(HeartsMove::Pass(Self::parse_cards(body, 3, "a pass")?))
            }
            Phase::Receive => Ok(HeartsMove::Receive(Self::parse_cards(
                text,
                3,
                "the received cards",
            )?)),
            Phase::Opener => {
                let mut words = text.split_whitespace();
                let seat = words.next().and_then(|w| self.parse_seat(w));
                let card = words.next().map(|w| w.parse::<Card>());
                match (seat, card, words.next()) {
                    (Some(s), None | Some(Ok(Card::TWO_CLUBS)), None) => {
                        Ok(HeartsMove::Opener(s as u8))
                    }
                    _ => Err(MoveError::Syntax(format!(
                        "'{text}': expected the holder of 2C, e.g. west 2C"
                    ))),
                }
            }
            Phase::Play => text
                .parse::<Card>()
                .map(HeartsMove::Play)
                .map_err(|e| MoveError::Syntax(e.to_string())),
        }
    }

    crate::games::cards::card_game_hooks!(scored: hand_over);

    fn sample_chance(&self, rng: &mut Rng) -> HeartsMove {
        HeartsMove::Deal(rand::Rng::r#gen(rng))
    }

    fn chance_from_referee(&self) -> bool {
        self.observer.is_some()
            && matches!(self.phase, Phase::Deal | Phase::Receive | Phase::Opener)
    }

    fn random_move(&self, rng: &mut Rng, buf: &mut Vec<HeartsMove>) -> HeartsMove {
        match self.phase {
            Phase::Play if self.mover_known() => {
                HeartsMove::Play(self.legal_cards().choose(rng).unwrap_or(Card::TWO_CLUBS))
            }
            Phase::Pass => {
                HeartsMove::Pass(self.hands[self.to_move as usize].choose_subset(3, rng))
            }
            _ => random_legal_move(self, rng, buf).unwrap_or_else(|| self.sample_chance(rng)),
        }
    }

    fn rules_move(&self, _rng: &mut Rng) -> Option<HeartsMove> {
        match self.phase {
            Phase::Pass if self.mover_known() => {
                let hand = self.hands[self.to_move as usize];
                let mut cards = hand.to_vec();
                cards.sort_by_key(|&c| std::cmp::Reverse(Self::pass_danger(hand, c)));
                Some(HeartsMove::Pass(cards.into_iter().take(3).collect()))
            }
            Phase::Play if self.mover_known() => self.rules_card().map(HeartsMove::Play),
            _ => None,
        }
    }

    fn view_text(&self, observer: Seat) -> String {
        self.view_for(observer)
    }
}
