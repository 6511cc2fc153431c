//! What the human at a human seat is told as the game goes on: the
//! other seats' moves as the game's `tell` gives them to that seat, and
//! the boundaries a card player follows: who took each trick and what it
//! was worth, the hand's points, Wizard's bids and the round's results,
//! Ninety-Nine's lost tokens. Everything told here is public once it has
//! happened (the cards of a finished trick, the scores), so nothing here
//! shows another seat's hidden cards.

use std::any::Any;

use crate::game::{Game, Observation, Seat, Turn};
use crate::games::cards::Card;
use crate::games::hearts::{self, Hearts, HeartsMove};
use crate::games::ninetynine::{NinetyNine, NnMove};
use crate::games::wizard::{self, Wizard, WizardMove};

/// The seat a human plays, what it was told since the last reply, and
/// the last trick (for games whose own view does not show it).
#[derive(Clone, Debug)]
pub struct Feed {
    seat: Seat,
    told: Vec<String>,
    last_trick: Option<String>,
}

/// `1 card`, `2 cards`.
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn names<G: Game>(state: &G, seats: impl Iterator<Item = (Seat, String)>) -> String {
    seats
        .map(|(s, v)| format!("{} {v}", state.seat_name(s)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn trick_text<G: Game>(state: &G, plays: &[(Seat, Card)]) -> String {
    plays
        .iter()
        .map(|(s, c)| format!("{} {c}", state.seat_name(*s)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A card dealt or handed to the human at `seat`, in words that say what
/// it is and whose it is (`your hand: ...`, `passed to you by west: ...`,
/// `west holds 2C and leads`), so that no line reads as a card given to
/// you that is not yours.
fn dealt_words<G: Game>(before: &G, mv: G::Move, seat: Seat) -> String {
    let text = before.move_text(mv);
    let (b, m) = (before as &dyn Any, &mv as &dyn Any);
    if let (Some(h), Some(m)) = (b.downcast_ref::<Hearts>(), m.downcast_ref::<HeartsMove>()) {
        return match *m {
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
        };
    }
    if let Some(m) = m.downcast_ref::<WizardMove>() {
        return match *m {
            WizardMove::Hand(set, Some(t)) => {
                format!("your hand: {set}; turned up for trump: {t}")
            }
            WizardMove::Hand(set, None) => {
                format!("your hand: {set}; no card turned up (the last round)")
            }
            _ => format!("dealt to you: {text}"),
        };
    }
    if let Some(m) = m.downcast_ref::<NnMove>() {
        return match *m {
            NnMove::Hand(_) => format!("your hand: {text}"),
            NnMove::Draw(_) => format!("you draw {text}"),
            _ => format!("dealt to you: {text}"),
        };
    }
    format!("dealt to you: {text}")
}

impl Feed {
    /// A human at `seat`, told nothing yet.
    pub fn new(seat: Seat) -> Feed {
        Feed {
            seat,
            told: Vec::new(),
            last_trick: None,
        }
    }

    /// The human's seat.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// Forgets the last trick (a new game).
    pub fn reset(&mut self) {
        self.last_trick = None;
    }

    /// The lines told since the last call.
    pub fn take(&mut self) -> Vec<String> {
        std::mem::take(&mut self.told)
    }

    /// Tells the human `mv`, played in `before` and leading to `after`.
    pub fn observe<G: Game>(&mut self, before: &G, mv: G::Move, after: &G) {
        for o in before.tell(mv, self.seat) {
            self.told.push(match o {
                Observation::Played { seat, mv } => {
                    format!("{} plays {}", before.seat_name(seat), before.move_text(mv))
                }
                Observation::Dealt(mv) => dealt_words(before, mv, self.seat),
            });
        }
        let (b, m, a) = (before as &dyn Any, &mv as &dyn Any, after as &dyn Any);
        if let (Some(b), Some(m), Some(a)) = (
            b.downcast_ref::<Hearts>(),
            m.downcast_ref::<HeartsMove>(),
            a.downcast_ref::<Hearts>(),
        ) {
            self.hearts(b, *m, a);
        } else if let (Some(b), Some(m), Some(a)) = (
            b.downcast_ref::<Wizard>(),
            m.downcast_ref::<WizardMove>(),
            a.downcast_ref::<Wizard>(),
        ) {
            self.wizard(b, *m, a);
        } else if let (Some(b), Some(m), Some(a)) = (
            b.downcast_ref::<NinetyNine>(),
            m.downcast_ref::<NnMove>(),
            a.downcast_ref::<NinetyNine>(),
        ) {
            self.ninetynine(b, *m, a);
        }
    }

    /// The human's view of `state` with what the game's own view lacks
    /// (Wizard's last trick and who took it).
    pub fn decorate_view<G: Game>(&self, state: &G, view: String) -> String {
        match &self.last_trick {
            Some(t) if (state as &dyn Any).is::<Wizard>() => {
                format!("{}\nlast trick: {t}", view.trim_end())
            }
            _ => view,
        }
    }

    fn hearts(&mut self, before: &Hearts, mv: HeartsMove, after: &Hearts) {
        let HeartsMove::Play(card) = mv else { return };
        let Turn::Player(p) = before.turn() else {
            return;
        };
        let mut plays = before.trick();
        if plays.len() != 3 {
            return;
        }
        plays.push((p, card));
        let led = plays[0].1.suit();
        let (winner, _) = plays
            .iter()
            .copied()
            .filter(|(_, c)| c.suit() == led)
            .max_by_key(|&(_, c)| c)
            .unwrap_or(plays[0]);
        let points: u8 = plays
            .iter()
            .map(|(_, c)| hearts::points_of([*c].into_iter().collect()))
            .sum();
        let taker = before.seat_name(winner);
        self.told.push(format!(
            "{taker} takes the trick: {}",
            count(points as usize, "point", "points")
        ));
        self.last_trick = Some(format!("{}; {taker} took it", trick_text(before, &plays)));
        if after.hand_number() != before.hand_number() || after.phase() == hearts::Phase::Over {
            let raw = after.hand_points();
            let scored = after.last_hand_scores();
            let moon = (0..4).find(|&s| raw[s] == 26);
            self.told.push(format!(
                "hand {} over{}: {}",
                before.hand_number() + 1,
                moon.map(|s| format!(", {} shot the moon", after.seat_name(s)))
                    .unwrap_or_default(),
                names(after, (0..4).map(|s| (s, scored[s].to_string())))
            ));
            let totals = after.totals();
            self.told.push(format!(
                "totals: {}",
                names(after, (0..4).map(|s| (s, totals[s].to_string())))
            ));
        }
    }

    fn wizard(&mut self, before: &Wizard, mv: WizardMove, after: &Wizard) {
        let n = before.num_seats();
        if before.phase() == wizard::Phase::Bid && after.phase() == wizard::Phase::Play {
            let bids = after.bids();
            let total: usize = (0..n).map(|s| bids[s] as usize).sum();
            self.told.push(format!(
                "bids: {} ({total} bid for {})",
                names(after, (0..n).map(|s| (s, bids[s].to_string()))),
                count(before.round_cards(), "trick", "tricks")
            ));
        }
        let WizardMove::Play(card) = mv else { return };
        let Turn::Player(p) = before.turn() else {
            return;
        };
        let mut plays = before.trick();
        if plays.len() + 1 != n {
            return;
        }
        plays.push((p, card));
        let cards: Vec<Card> = plays.iter().map(|&(_, c)| c).collect();
        let winner = plays[wizard::trick_winner(&cards, before.trump()).min(n - 1)].0;
        let taker = before.seat_name(winner);
        self.told.push(format!("{taker} takes the trick"));
        self.last_trick = Some(format!("{}; {taker} took it", trick_text(before, &plays)));
        if after.round() != before.round() || after.phase() == wizard::Phase::Over {
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
            self.told.push(format!(
                "round {} over: {}",
                before.round() + 1,
                names(after, results)
            ));
            let totals = after.totals();
            self.told.push(format!(
                "totals: {}",
                names(after, (0..n).map(|s| (s, totals[s].to_string())))
            ));
        }
    }

    fn ninetynine(&mut self, before: &NinetyNine, mv: NnMove, after: &NinetyNine) {
        let Turn::Player(p) = before.turn() else {
            return;
        };
        if mv != NnMove::Lose {
            return;
        }
        let left = after.tokens().get(p).copied().unwrap_or(0) as usize;
        self.told.push(format!(
            "{} cannot play without passing 99 (the total is {}) and loses a token: {} left{}",
            before.seat_name(p),
            before.total(),
            count(left, "token", "tokens"),
            if left == 0 { "; out of the game" } else { "" }
        ));
        let n = before.num_seats();
        let tokens = after.tokens();
        self.told.push(format!(
            "tokens: {}",
            names(after, (0..n).map(|s| (s, tokens[s].to_string())))
        ));
    }
}
