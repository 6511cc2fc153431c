//! Wizard shown to a person: the page's picture (hands, bids, the trick,
//! the tricks taken, the scores), its moves in words, what a move tells a
//! human seat, and why a card is refused.

use super::{Phase, Wizard, WizardMove, led_suit, trick_winner};
use crate::model::game::{Game, Seat, Turn};
use crate::games::cards::{
    Card, Suit, Taken, TakenPicture, card_texts, card_words, suit_symbol, taken_pictures,
    taken_words, trick_picture,
};
use crate::model::pictures::{News, Picture, Pictures, count, hand_start, seat_values};
use crate::model::played::Played;

/// How Wizard is shown to a person.
pub const PICTURES: Pictures<Wizard> = Pictures {
    view,
    refusals,
    move_words,
    chance_words: Pictures::<Wizard>::PLAIN.chance_words,
    deals_a_hand,
    moved_from: Pictures::<Wizard>::PLAIN.moved_from,
    dealt_words,
    news,
    // The seat's text view shows the trick in play only.
    feed_adds_last_trick: true,
    scripts: &[include_str!("../cards/table.js"), include_str!("page.js")],
};

fn deals_a_hand(state: &Wizard) -> bool {
    state.phase() == Phase::Deal
}

/// A suit as its symbol.
fn suit_words(suit: Suit) -> char {
    suit_symbol(suit.to_string().chars().next().unwrap_or('?'))
}

/// The trick `mv` finishes, if it plays the last card of one in `before`.
fn finished(before: &Wizard, mv: WizardMove) -> Option<Taken> {
    let WizardMove::Play(card) = mv else {
        return None;
    };
    let Turn::Player(p) = before.turn() else {
        return None;
    };
    let n = before.num_seats();
    let mut plays = before.trick();
    if plays.len() + 1 != n {
        return None;
    }
    plays.push((p, card));
    let cards: Vec<Card> = plays.iter().map(|&(_, c)| c).collect();
    let winner = plays[trick_winner(&cards, before.trump()).min(n - 1)].0;
    Some(Taken {
        plays,
        winner,
        points: None,
    })
}

/// The page's picture of Wizard, as one seat sees it (another seat's
/// hand `null`).
#[derive(serde::Serialize)]
struct WizardPicture {
    /// `wizard`.
    kind: &'static str,
    phase: &'static str,
    /// The round's number, from 1.
    round: usize,
    rounds: usize,
    /// Cards dealt to each seat this round.
    round_cards: usize,
    dealer: Seat,
    /// The card turned for trump.
    turned: Option<String>,
    trump: Option<String>,
    /// Each seat's bid, `null` before it bids.
    bids: Vec<Option<u8>>,
    /// Tricks won this round.
    won: Vec<u8>,
    hands: Vec<Option<Vec<String>>>,
    /// Cards in each hand.
    counts: Vec<usize>,
    /// The trick in play.
    trick: Vec<(Seat, String)>,
    totals: Vec<i32>,
    /// The last round's scores.
    last_round: Vec<i32>,
    /// The tricks of the round, with who took each.
    taken: Vec<TakenPicture>,
}

fn view(played: &Played<Wizard>, observer: Option<Seat>) -> Box<dyn Picture> {
    let w = played.state();
    let n = w.num_seats();
    let phase = w.phase();
    // Who has bid this round: everyone once play starts; while bidding,
    // the seats from the dealer's left up to the one to move.
    let first = (w.dealer() + 1) % n;
    let bid_count = match (phase, w.turn()) {
        (Phase::Play, _) | (Phase::Over, _) => n,
        (Phase::Bid, Turn::Player(t)) => (t + n - first) % n,
        _ => 0,
    };
    let bids = w.bids();
    let bids = (0..n)
        .map(|s| ((s + n - first) % n < bid_count).then_some(bids[s]))
        .collect();
    let hands = (0..n)
        .map(|s| observer.is_none_or(|o| o == s).then(|| card_texts(w.hand(s))))
        .collect();
    let phase = match phase {
        Phase::Deal => "deal",
        Phase::Trump => "trump",
        Phase::Bid => "bid",
        Phase::Play => "play",
        Phase::Over => "over",
    };
    // The tricks of the round in play (or of the one just over, until
    // the next deal), each with who took it.
    let taken: Vec<Taken> = played.history()[hand_start(played, deals_a_hand)..]
        .iter()
        .filter_map(|step| finished(&step.before, step.mv))
        .collect();
    Box::new(WizardPicture {
        kind: Wizard::NAME,
        phase,
        round: w.round() + 1,
        rounds: w.config().rounds,
        round_cards: w.round_cards(),
        dealer: w.dealer(),
        turned: w.turned().map(|c| c.to_string()),
        trump: w.trump().map(|s| s.to_string()),
        bids,
        won: w.tricks_won().iter().take(n).copied().collect(),
        hands,
        counts: (0..n).map(|s| w.hand_size(s)).collect(),
        trick: trick_picture(&w.trick()),
        totals: w.totals(),
        last_round: w.last_round_scores(),
        taken: taken_pictures(&taken),
    })
}

/// Each card of the mover's hand that the rules refuse now, with why: a
/// normal card off the suit to follow, while the hand holds that suit.
fn refusals(w: &Wizard) -> Vec<(String, String)> {
    let Turn::Player(p) = w.turn() else {
        return Vec::new();
    };
    if w.phase() != Phase::Play {
        return Vec::new();
    }
    let cards: Vec<Card> = w.trick().iter().map(|&(_, c)| c).collect();
    let led = led_suit(&cards);
    let hand = w.hand(p);
    (hand - w.legal_cards())
        .iter()
        .map(|card| {
            let why = match led {
                Some(s) => format!("you must follow the suit led ({})", suit_words(s)),
                None => "it cannot be played now".to_string(),
            };
            (card.to_string(), format!("{}: {why}", card_words(card)))
        })
        .collect()
}

fn move_words(before: &Wizard, mv: WizardMove) -> String {
    match mv {
        WizardMove::Play(c) => format!("plays {}", card_words(c)),
        WizardMove::Bid(n) => format!("bids {n}"),
        WizardMove::Trump(s) => format!("names trump {}", suit_words(s)),
        _ => before.move_text(mv),
    }
}

fn dealt_words(w: &Wizard, mv: WizardMove, _seat: Seat) -> String {
    match mv {
        WizardMove::Hand(set, Some(t)) => format!("your hand: {set}; turned up for trump: {t}"),
        WizardMove::Hand(set, None) => {
            format!("your hand: {set}; no card turned up (the last round)")
        }
        _ => format!("dealt to you: {}", w.move_text(mv)),
    }
}

fn news(before: &Wizard, mv: WizardMove, after: &Wizard) -> News {
    let n = before.num_seats();
    let mut lines = Vec::new();
    if before.phase() == Phase::Bid && after.phase() == Phase::Play {
        let bids = after.bids();
        let total: usize = (0..n).map(|s| bids[s] as usize).sum();
        lines.push(format!(
            "bids: {} ({total} bid for {})",
            seat_values(after, (0..n).map(|s| (s, bids[s].to_string()))),
            count(before.round_cards(), "trick", "tricks")
        ));
    }
    let Some(taken) = finished(before, mv) else {
        return News { lines, trick: None };
    };
    let winner = taken.winner;
    lines.push(format!("{} takes the trick", before.seat_name(winner)));
    let trick = taken_words(|s| before.seat_name(s), &taken);
    if after.round() != before.round() || after.phase() == Phase::Over {
        let bids = before.bids();
        let mut won = before.tricks_won();
        won[winner] += 1;
        let scores = after.last_round_scores();
        let results = (0..n).map(|s| {
            let verdict = if bids[s] == won[s] { "made" } else { "missed" };
            let score = scores.get(s).copied().unwrap_or(0);
            (
                s,
                format!("bid {} won {} {verdict} {score:+}", bids[s], won[s]),
            )
        });
        lines.push(format!(
            "round {} over: {}",
            before.round() + 1,
            seat_values(after, results)
        ));
        let totals = after.totals();
        lines.push(format!(
            "totals: {}",
            seat_values(after, (0..n).map(|s| (s, totals[s].to_string())))
        ));
    }
    News {
        lines,
        trick: Some(trick),
    }
}
