//! Playing cards shared by the card games, one concept a file:
//!
//! - `card.rs`: [`Card`], [`Suit`], [`Rank`] and their text (OpenSpiel
//!   notation, `QS`, `TH`; Wizard's `Z1..Z4` and `N1..N4`);
//! - `card_set.rs`: [`CardSet`], a hand or a deck as a 64-bit mask;
//! - `shuffle.rs`: the portable seeded deal ([`deal_seeded`], on
//!   [`SplitMix64`]) and Fisher-Yates ([`shuffle()`]);
//! - `deal_sampler.rs`: [`sample_deal`], which deals unseen cards to hidden
//!   hands under per-seat constraints (hand sizes, known voids) for
//!   determinization;
//! - `view.rs`: what the games' text pictures share (the trick and
//!   to-move lines, whose cards show);
//! - `page.rs`: what their page pictures and words share (a card in
//!   words, hands and tricks as the pictures hold them, the tricks taken);
//! - `hooks.rs`: what the card games' `Game` impls would otherwise each
//!   write out alike (the `seat` option, the `shuffle:<seed>` deal text,
//!   numbered seat names, whether a state knows a hand, the evaluation
//!   hook, and the hooks they answer alike, [`card_game_hooks`]).

mod card;
mod card_set;
mod deal_sampler;
mod hooks;
mod page;
mod shuffle;
mod view;

pub use card::{Card, CardParseError, NORMAL_CARDS, Rank, Suit};
pub use card_set::{CardIter, CardSet};
pub use deal_sampler::{Unseen, sample_deal, sample_deal_or_drop_inferences};
pub(crate) use hooks::card_game_hooks;
pub use hooks::{
    bound_seat_option, deal_seed_text, knows_hand, numbered_seat_name, parse_deal_seed,
    parse_numbered_seat, reward_as_evaluation, seat_option_spec,
};
pub use page::{
    Taken, TakenPicture, card_list_texts, card_list_words, card_texts, card_words, suit_symbol,
    taken_pictures, taken_words, trick_picture,
};
pub use shuffle::{SplitMix64, deal_seeded, shuffle};
pub use view::{card_count_text, shows_hand, to_move_text, trick_plays, trick_text};
