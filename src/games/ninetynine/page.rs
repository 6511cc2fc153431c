//! Ninety-Nine shown to a person: the page's picture (hands, the total,
//! the tokens), its moves in words, what a move tells a human seat, and
//! why a card is refused.

use super::{Choice, NinetyNine, NnMove, Phase};
use crate::model::game::{Game, Seat, Turn};
use crate::games::cards::{card_list_json, card_words};
use crate::json::{self, Object};
use crate::model::pictures::{News, Pictures, count, seat_values};
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
};

fn deals_a_hand(state: &NinetyNine) -> bool {
    state.phase() == Phase::Deal
}

fn view(played: &Played<NinetyNine>, observer: Option<Seat>) -> Object {
    let g = played.state();
    let n = g.num_seats();
    let hands = json::array((0..n).map(|s| {
        if observer.is_none_or(|o| o == s) {
            card_list_json(&g.hand(s))
        } else {
            "null".to_string()
        }
    }));
    let phase = match g.phase() {
        Phase::Deal => "deal",
        Phase::Play => "play",
        Phase::Draw => "draw",
        Phase::Over => "over",
    };
    Object::new()
        .str("kind", NinetyNine::NAME)
        .str("phase", phase)
        .num("hand_no", g.hand_number() + 1)
        // Hands finished: at the end, the game's length.
        .num("hands_played", g.hand_number())
        .num("dealer", g.dealer())
        .num("total", g.total())
        .num("reversed", g.reversed())
        .opt("top", g.top().map(|c| json::string(&c.to_string())))
        .num("stock", g.stock_len())
        .raw("tokens", json::numbers(g.tokens()))
        .raw("in", json::numbers((0..n).map(|s| g.is_in(s))))
        .raw("hands", hands)
        .raw("counts", json::numbers((0..n).map(|s| g.hand_size(s))))
        .opt("last_loser", g.last_loser().map(|s| s.to_string()))
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
