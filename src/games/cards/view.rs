//! What the card games' pictures share: the trick ([`trick_plays`],
//! [`trick_text`]), who is to move ([`to_move_text`]) and whose cards show
//! ([`shows_hand`]) and a hand that does not ([`card_count_text`]).

use std::fmt;

use super::Card;
use super::hooks::knows_hand;
use crate::model::game::{Seat, Turn};

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

/// A hand the viewer may not see, by its size: `1 card`, `5 cards`.
pub fn card_count_text(count: u8) -> String {
    format!("{count} card{}", if count == 1 { "" } else { "s" })
}

/// The plays of a trick whose `cards` were played in turn from seat
/// `leader` on, at a table of `seats`: each card with its seat.
pub fn trick_plays(cards: &[Card], leader: Seat, seats: usize) -> Vec<(Seat, Card)> {
    cards
        .iter()
        .enumerate()
        .map(|(i, &card)| ((leader + i) % seats, card))
        .collect()
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

/// Whether a picture for `viewer` (`None`: the whole table) shows `seat`'s
/// cards, in a state bound to `bound` (`None`: self-dealt, every hand
/// known): the viewer's own hand, where the state knows it.
pub fn shows_hand(bound: Option<Seat>, viewer: Option<Seat>, seat: Seat) -> bool {
    viewer.is_none_or(|v| v == seat) && knows_hand(bound, seat)
}
