//! What the card games' page pictures and words share: a card in words
//! (`10\u{2665}`, `Wizard`), hands and tricks as the pictures hold them,
//! and the tricks finished in the hand in play, each with who took it.

use super::{Card, CardSet};
use crate::model::game::Seat;

/// A card in words: `10\u{2665}`, `Q\u{2660}`, `Wizard`, `Jester`.
pub fn card_words(card: Card) -> String {
    let text = card.to_string();
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some('Z'), _) => "Wizard".to_string(),
        (Some('N'), _) => "Jester".to_string(),
        (Some(rank), Some(suit)) => {
            let rank = if rank == 'T' {
                "10".to_string()
            } else {
                rank.to_string()
            };
            format!("{rank}{}", suit_symbol(suit))
        }
        _ => text,
    }
}

/// A suit's letter (`C`, `D`, `H`, `S`) as its symbol.
pub fn suit_symbol(letter: char) -> char {
    match letter {
        'C' => '\u{2663}',
        'D' => '\u{2666}',
        'H' => '\u{2665}',
        'S' => '\u{2660}',
        other => other,
    }
}

/// Cards in words, separated by spaces.
pub fn card_list_words(set: CardSet) -> String {
    set.iter().map(card_words).collect::<Vec<_>>().join(" ")
}

/// A set of cards as their texts (a JSON array of strings).
pub fn card_texts(set: CardSet) -> Vec<String> {
    set.iter().map(|c| c.to_string()).collect()
}

/// A list of cards, in order, as their texts.
pub fn card_list_texts(list: &[Card]) -> Vec<String> {
    list.iter().map(Card::to_string).collect()
}

/// A trick's plays as `(seat, card)` pairs (a JSON array of `[seat,
/// card]`).
pub fn trick_picture(trick: &[(Seat, Card)]) -> Vec<(Seat, String)> {
    trick.iter().map(|&(s, c)| (s, c.to_string())).collect()
}

/// A finished trick: its plays, who took it, and (where the game counts
/// them) the points it was worth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Taken {
    /// The plays, in playing order.
    pub plays: Vec<(Seat, Card)>,
    /// The seat that took it.
    pub winner: Seat,
    /// Its points (Hearts), or `None`.
    pub points: Option<u32>,
}

/// A finished trick as the pictures show it: `{"cards": [[seat,
/// card]...], "winner": seat, "points": n | null}`.
#[derive(serde::Serialize)]
pub struct TakenPicture {
    /// The plays, in playing order.
    pub cards: Vec<(Seat, String)>,
    /// The seat that took it.
    pub winner: Seat,
    /// Its points (Hearts), or `None`.
    pub points: Option<u32>,
}

/// Finished tricks as the pictures show them.
pub fn taken_pictures(tricks: &[Taken]) -> Vec<TakenPicture> {
    tricks
        .iter()
        .map(|t| TakenPicture {
            cards: trick_picture(&t.plays),
            winner: t.winner,
            points: t.points,
        })
        .collect()
}

/// The plays of a trick in words with who took it: `north QS, east 2S;
/// north took it`.
pub fn taken_words(seat_name: impl Fn(Seat) -> String, taken: &Taken) -> String {
    let plays = taken
        .plays
        .iter()
        .map(|(s, c)| format!("{} {c}", seat_name(*s)))
        .collect::<Vec<_>>()
        .join(", ");
    format!("{plays}; {} took it", seat_name(taken.winner))
}
