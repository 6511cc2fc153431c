//! Ninety-Nine shown to a person: the page's picture (hands, the total,
//! the tokens), its moves in words, what a move tells a human seat, and
//! why a card is refused.

use super::{Choice, NinetyNine, NnMove, Phase};
use crate::model::game::{Game, Seat, Turn};
use crate::games::cards::{card_list_texts, card_words};
use crate::model::pictures::{Picture, News, Pictures, count, seat_values};
use crate::model::played::Played;

/// How Ninety-Nine is shown to a person.
pub const PICTURES: Pictures<NinetyNine> = Pictures {
    view,
    refusals,
    move_words,
    chance_words,
    deals_a_hand,
    moved_from: Pictures::<NinetyNine>::PLAIN.moved_from,
    dealt_words,
    news,
    feed_adds_last_trick: false,
    scripts: &[include_str!("../cards/table.js"), include_str!("page.js")],
};

fn deals_a_hand(state: &NinetyNine) -> bool {
    state.phase() == Phase::Deal
}

/// The page's picture of Ninety-Nine, as one seat sees it (another
/// seat's hand `null`).
#[derive(serde::Serialize)]
struct NinetyNinePicture {
    /// `ninetynine`.
    kind: &'static str,
    phase: &'static str,
    /// The hand's number, from 1.
    hand_no: u32,
    /// Hands finished: at the end, the game's length.
    hands_played: u32,
    dealer: Seat,
    /// The pile's total.
    total: u8,
    /// Whether play goes the other way round.
    reversed: bool,
    /// The pile's top card.
    top: Option<String>,
    /// Cards left to draw.
    stock: usize,
    tokens: Vec<u8>,
    /// Whether each seat is still in the game.
    #[serde(rename = "in")]
    is_in: Vec<bool>,
    hands: Vec<Option<Vec<String>>>,
    /// Cards in each hand.
    counts: Vec<usize>,
    /// Who lost the last hand.
    last_loser: Option<Seat>,
}

fn view(played: &Played<NinetyNine>, observer: Option<Seat>) -> Box<dyn Picture> {
    let g = played.state();
    let n = g.num_seats();
    let phase = match g.phase() {
        Phase::Deal => "deal",
        Phase::Play => "play",
        Phase::Draw => "draw",
        Phase::Over => "over",
    };
    Box::new(NinetyNinePicture {
        kind: NinetyNine::NAME,
        phase,
        hand_no: g.hand_number() + 1,
        hands_played: g.hand_number(),
        dealer: g.dealer(),
        total: g.total(),
        reversed: g.reversed(),
        top: g.top().map(|c| c.to_string()),
        stock: g.stock_len(),
        tokens: g.tokens(),
        is_in: (0..n).map(|s| g.is_in(s)).collect(),
        hands: (0..n)
            .map(|s| observer.is_none_or(|o| o == s).then(|| card_list_texts(&g.hand(s))))
            .collect(),
        counts: (0..n).map(|s| g.hand_size(s)).collect(),
        last_loser: g.last_loser(),
    })
}

/// Each card of the mover's hand that no value keeps at 99 or less.
fn refusals(g: &NinetyNine) -> Vec<(String, String)> {
    let Turn::Player(p) = g.turn() else {
        return Vec::new();
    };
    if g.phase() != Phase::Play {
        return Vec::new();
    }
    let mut legal = Vec::new();
    g.legal_moves(&mut legal);
    g.hand(p)
        .into_iter()
        .filter(|&c| !legal.iter().any(|m| matches!(*m, NnMove::Play(l, _) if l == c)))
        .map(|c| {
            (
                c.to_string(),
                format!("{}: it would take the total past 99", card_words(c)),
            )
        })
        .collect()
}

fn move_words(before: &NinetyNine, mv: NnMove) -> String {
    match mv {
        NnMove::Play(c, choice) => {
            let how = match choice {
                Choice::Plain => "",
                Choice::Plus => " as +10",
                Choice::Minus => " as \u{2212}10",
                Choice::One => " as 1",
                Choice::Eleven => " as 11",
            };
            format!("plays {}{how}", card_words(c))
        }
        NnMove::Lose => "gives up a token".to_string(),
        _ => before.move_text(mv),
    }
}

/// A draw is the seat's that played last; anything else is a deal.
fn chance_words(before: &NinetyNine, mv: NnMove, drew: Option<Seat>) -> String {
    match (mv, drew) {
        (NnMove::Draw(c), Some(s)) => format!("{} draws {}", before.seat_name(s), card_words(c)),
        (NnMove::Draw(c), None) => format!("a draw: {}", card_words(c)),
        _ => "the cards are dealt".to_string(),
    }
}

fn dealt_words(g: &NinetyNine, mv: NnMove, _seat: Seat) -> String {
    let text = g.move_text(mv);
    match mv {
        NnMove::Hand(_) => format!("your hand: {text}"),
        NnMove::Draw(_) => format!("you draw {text}"),
        _ => format!("dealt to you: {text}"),
    }
}

fn news(before: &NinetyNine, mv: NnMove, after: &NinetyNine) -> News {
    let Turn::Player(p) = before.turn() else {
        return News::default();
    };
    if mv != NnMove::Lose {
        return News::default();
    }
    let left = after.tokens().get(p).copied().unwrap_or(0) as usize;
    let n = before.num_seats();
    let tokens = after.tokens();
    News {
        lines: vec![
            format!(
                "{} cannot play without passing 99 (the total is {}) and loses a token: {} left{}",
                before.seat_name(p),
                before.total(),
                count(left, "token", "tokens"),
                if left == 0 { "; out of the game" } else { "" }
            ),
            format!(
                "tokens: {}",
                seat_values(after, (0..n).map(|s| (s, tokens[s].to_string())))
            ),
        ],
        trick: None,
    }
}
