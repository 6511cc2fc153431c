//! Hearts shown to a person: the page's picture (hands, the trick, the
//! tricks taken with their points, the scores), its moves in words, what
//! a move tells a human seat, and why a card is refused.

use super::{HEARTS, Hearts, HeartsMove, POINT_CARDS, Phase, points_of};
use crate::model::game::{Game, Seat, Turn};
use crate::games::cards::{
    Card, CardSet, Taken, TakenPicture, card_list_words, card_texts, card_words, suit_symbol,
    taken_pictures, taken_words, trick_picture,
};
use crate::model::pictures::{News, Picture, Pictures, count, hand_start, seat_values};
use crate::model::played::Played;

/// How Hearts is shown to a person.
pub const PICTURES: Pictures<Hearts> = Pictures {
    view,
    refusals,
    move_words,
    chance_words: Pictures::<Hearts>::PLAIN.chance_words,
    deals_a_hand,
    moved_from: Pictures::<Hearts>::PLAIN.moved_from,
    dealt_words,
    news,
    feed_adds_last_trick: false,
    scripts: &[include_str!("../cards/table.js"), include_str!("page.js")],
};

/// The seat that takes a full trick: the highest card of the suit led.
pub fn trick_taker(plays: &[(Seat, Card)]) -> Option<Seat> {
    let led = plays.first()?.1.suit();
    plays
        .iter()
        .filter(|(_, c)| c.suit() == led)
        .max_by_key(|&&(_, c)| c)
        .map(|&(s, _)| s)
}

/// The trick `mv` finishes, if it plays the last card of one in `before`.
fn finished(before: &Hearts, mv: HeartsMove) -> Option<Taken> {
    let HeartsMove::Play(card) = mv else {
        return None;
    };
    let Turn::Player(p) = before.turn() else {
        return None;
    };
    let mut plays = before.trick();
    if plays.len() + 1 != super::SEATS {
        return None;
    }
    plays.push((p, card));
    let winner = trick_taker(&plays)?;
    let points = plays
        .iter()
        .map(|(_, c)| u32::from(points_of(CardSet::single(*c))))
        .sum();
    Some(Taken {
        plays,
        winner,
        points: Some(points),
    })
}

fn deals_a_hand(state: &Hearts) -> bool {
    state.phase() == Phase::Deal
}

/// Whether `seat`'s cards are shown: its own view, or the full game.
fn shows(observer: Option<Seat>, seat: Seat) -> bool {
    observer.is_none_or(|o| o == seat)
}

/// The page's picture of Hearts, as one seat sees it (another seat's
/// hand and passed cards `null`).
#[derive(serde::Serialize)]
struct HeartsPicture {
    /// `hearts`.
    kind: &'static str,
    phase: &'static str,
    /// The hand's number, from 1.
    hand_no: u32,
    /// Where this hand's cards pass: `left`, `across`, `right`, `none`.
    pass: &'static str,
    /// Whether hearts are broken.
    broken: bool,
    /// Tricks played in this hand.
    tricks: usize,
    hands: Vec<Option<Vec<String>>>,
    /// Cards in each hand.
    counts: Vec<usize>,
    /// The cards each seat passed.
    passed: Vec<Option<Vec<String>>>,
    /// The trick in play.
    trick: Vec<(Seat, String)>,
    /// Points taken in this hand.
    points: [u8; 4],
    totals: [i32; 4],
    /// The last hand's scores.
    last_hand: [i32; 4],
    /// The score that ends the game.
    target: i32,
    /// The tricks of the hand, with who took each and its points.
    taken: Vec<TakenPicture>,
    /// Who shot the moon, if anyone.
    moon: Option<Seat>,
}

fn view(played: &Played<Hearts>, observer: Option<Seat>) -> Box<dyn Picture> {
    let h = played.state();
    let seats = h.num_seats();
    let hands = (0..seats)
        .map(|s| shows(observer, s).then(|| card_texts(h.hand(s))))
        .collect();
    let phase = match h.phase() {
        Phase::Deal => "deal",
        Phase::Pass => "pass",
        Phase::Receive => "receive",
        Phase::Opener => "opener",
        Phase::Play => "play",
        Phase::Over => "over",
    };
    let pass = match h.pass_offset() {
        Some(1) => "left",
        Some(2) => "across",
        Some(3) => "right",
        _ => "none",
    };
    // The cards each seat passed: the observer's own only (or all, in
    // the full game).
    let passed = (0..seats)
        .map(|s| shows(observer, s).then(|| card_texts(h.passed_cards(s))))
        .collect();
    // The tricks of the hand in play (or of the one just over, until the
    // next deal), each with who took it and its points.
    let taken: Vec<Taken> = played.history()[hand_start(played, deals_a_hand)..]
        .iter()
        .filter_map(|step| finished(&step.before, step.mv))
        .collect();
    Box::new(HeartsPicture {
        kind: Hearts::NAME,
        phase,
        hand_no: h.hand_number() + 1,
        pass,
        broken: h.hearts_broken(),
        tricks: h.tricks_done(),
        hands,
        counts: (0..seats).map(|s| h.hand_size(s)).collect(),
        passed,
        trick: trick_picture(&h.trick()),
        points: h.hand_points(),
        totals: h.totals(),
        last_hand: h.last_hand_scores(),
        target: h.config().target,
        taken: taken_pictures(&taken),
        // Who shot the moon: took every point of the hand in play (or of
        // the one just over, until the next deal).
        moon: (0..seats).find(|&s| h.hand_points()[s] == 26),
    })
}

/// Each card of the mover's hand that the rules refuse now, with why.
fn refusals(h: &Hearts) -> Vec<(String, String)> {
    let Turn::Player(p) = h.turn() else {
        return Vec::new();
    };
    if h.phase() != Phase::Play {
        return Vec::new();
    }
    let hand = h.hand(p);
    let legal = h.legal_cards();
    (hand - legal)
        .iter()
        .map(|card| (card.to_string(), refusal(h, hand, card)))
        .collect()
}

/// Why `card`, from `hand`, may not be played now, as the rules of
/// [`Hearts::legal_cards`] refuse it.
fn refusal(h: &Hearts, hand: CardSet, card: Card) -> String {
    let words = card_words(card);
    let trick = h.trick();
    let why = match trick.first() {
        None if h.tricks_done() == 0 && hand.contains(Card::TWO_CLUBS) => {
            "the two of clubs leads the first trick".to_string()
        }
        None if HEARTS.contains(card) => "hearts are not broken yet".to_string(),
        None => "points cannot lead before hearts are broken".to_string(),
        Some(&(_, led)) if card.suit() != led.suit() && hand.iter().any(|c| c.suit() == led.suit()) => {
            let letter = led.to_string().chars().nth(1).unwrap_or('?');
            format!("you must follow the suit led ({})", suit_symbol(letter))
        }
        Some(_) if h.tricks_done() == 0 && POINT_CARDS.contains(card) => {
            "no points on the first trick".to_string()
        }
        Some(_) => "it cannot be played now".to_string(),
    };
    format!("{words}: {why}")
}

fn move_words(before: &Hearts, mv: HeartsMove) -> String {
    match mv {
        HeartsMove::Play(c) => format!("plays {}", card_words(c)),
        HeartsMove::Pass(set) => format!("passes {}", card_list_words(set)),
        _ => before.move_text(mv),
    }
}

fn dealt_words(h: &Hearts, mv: HeartsMove, seat: Seat) -> String {
    let text = h.move_text(mv);
    match mv {
        HeartsMove::Hand(_) => format!("your hand: {text}"),
        HeartsMove::Receive(_) => {
            // The pass goes `offset` seats to the left: yours came
            // from as many seats to your right.
            let from = h.pass_offset().map(|o| (seat + 4 - o) % 4);
            match from {
                Some(f) => format!("passed to you by {}: {text}", h.seat_name(f)),
                None => format!("passed to you: {text}"),
            }
        }
        HeartsMove::Opener(s) if s as usize == seat => {
            "you hold 2C: you lead the first trick".to_string()
        }
        HeartsMove::Opener(s) => format!(
            "{} holds 2C and leads the first trick",
            h.seat_name(s as usize)
        ),
        _ => format!("dealt to you: {text}"),
    }
}

fn news(before: &Hearts, mv: HeartsMove, after: &Hearts) -> News {
    let Some(taken) = finished(before, mv) else {
        return News::default();
    };
    let taker = before.seat_name(taken.winner);
    let points = taken.points.unwrap_or(0) as usize;
    let mut lines = vec![format!(
        "{taker} takes the trick: {}",
        count(points, "point", "points")
    )];
    let trick = taken_words(|s| before.seat_name(s), &taken);
    if after.hand_number() != before.hand_number() || after.phase() == Phase::Over {
        let raw = after.hand_points();
        let scored = after.last_hand_scores();
        let moon = (0..4).find(|&s| raw[s] == 26);
        lines.push(format!(
            "hand {} over{}: {}",
            before.hand_number() + 1,
            moon.map(|s| format!(", {} shot the moon", after.seat_name(s)))
                .unwrap_or_default(),
            seat_values(after, (0..4).map(|s| (s, scored[s].to_string())))
        ));
        let totals = after.totals();
        lines.push(format!(
            "totals: {}",
            seat_values(after, (0..4).map(|s| (s, totals[s].to_string())))
        ));
    }
    News {
        lines,
        trick: Some(trick),
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng as _;

    use super::*;
    use crate::model::options::Options;

    /// A full game played at random until `done` says stop.
    fn played_until(done: impl Fn(&Hearts) -> bool) -> Played<Hearts> {
        let options = Options::parse(Hearts::OPTIONS, &["pass=none"]).expect("options");
        let mut played = Played::new(Hearts::new_game(&options).expect("a game"));
        let mut rng = crate::model::game::Rng::seed_from_u64(7);
        let mut buf = Vec::new();
        while !done(played.state()) {
            let s = played.state();
            let mv = match s.turn() {
                Turn::Chance => s.sample_chance(&mut rng),
                _ => s.random_move(&mut rng, &mut buf),
            };
            played.apply(mv);
        }
        played
    }

    #[test]
    fn the_view_lists_the_tricks_taken_with_their_winner_and_points() {
        let played = played_until(|h| h.tricks_done() == 2 && h.trick().is_empty());
        let last = serde_json::value::RawValue::NULL;
        let view = view(&played, None).write_with_last(last).get().to_string();
        // The leader of the next trick took the last one.
        let Turn::Player(leader) = played.state().turn() else {
            panic!("a seat to move");
        };
        let taken = view.split("\"taken\":").nth(1).expect("taken");
        assert_eq!(taken.matches("\"winner\":").count(), 2, "{view}");
        assert!(
            taken.contains(&format!("\"winner\":{leader},\"points\":")),
            "{view}"
        );
    }

    #[test]
    fn a_card_off_the_suit_led_is_refused_with_why() {
        // Somebody void in nothing: after a lead, every card of another
        // suit in a hand that holds the suit led is refused.
        let played = played_until(|h| h.tricks_done() == 1 && h.trick().len() == 1);
        let h = played.state();
        let refused = refusals(h);
        let Turn::Player(p) = h.turn() else {
            panic!("a seat to move");
        };
        let led = h.trick()[0].1.suit();
        if h.hand(p).iter().any(|c| c.suit() == led) {
            let off: Vec<Card> = h.hand(p).iter().filter(|c| c.suit() != led).collect();
            assert_eq!(refused.len(), off.len(), "{refused:?}");
            assert!(
                refused
                    .iter()
                    .all(|(_, why)| why.contains("you must follow the suit led")),
                "{refused:?}"
            );
        }
        for (card, _) in &refused {
            assert!(!h.legal_cards().iter().any(|c| &c.to_string() == card));
        }
    }
}
