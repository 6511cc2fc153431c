//! What a game shows a person beyond its rules: the page's picture of it
//! (a JSON object the page draws), its moves in words (the page's seat
//! boxes and replays, the human seat's feed), what a move tells a human
//! seat beyond itself (a trick taken, a hand's scores) and why a move the
//! page offers is refused.
//!
//! A game declares its [`Pictures`] in its [`crate::model::extras::Extras`], so
//! that the edges (the page's server, the human seat) ask the game and
//! never test which game it is. [`Pictures::PLAIN`] is what every game
//! has without declaring anything: its text picture (`render`) and plain
//! words.
//!
//! The page draws a picture with the game's own page scripts
//! ([`Pictures::scripts`]): each registers the page code of its picture's
//! `kind` with the page's shell (`src/gui/assets/app.js`), which names no
//! game.

use serde::Serialize;
use serde_json::value::RawValue;

use crate::model::game::{Game, Seat};
use crate::model::played::Played;

/// A game's picture for the page: a value of the game's own
/// `Serialize` type (a struct, written as a JSON object) whose `kind` says
/// how the page draws it.
pub trait Picture {
    /// The picture written as one JSON object, with the page's `last`
    /// (the seats' last moves, written already) added as its last key.
    fn write_with_last(&self, last: &RawValue) -> Box<RawValue>;
}

impl<T: Serialize> Picture for T {
    fn write_with_last(&self, last: &RawValue) -> Box<RawValue> {
        crate::json::raw(&WithLast {
            picture: self,
            last,
        })
    }
}

/// A picture's fields, then `last`.
#[derive(Serialize)]
struct WithLast<'a, T> {
    #[serde(flatten)]
    picture: &'a T,
    last: &'a RawValue,
}

/// What a move tells a human seat beyond the move itself.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct News {
    /// Lines for the seat (`north takes the trick: 3 points`).
    pub lines: Vec<String>,
    /// The trick the move finished, in words with who took it, for a
    /// view that does not show it ([`Pictures::feed_adds_last_trick`]).
    pub trick: Option<String>,
}

/// How a game is shown to a person. Plain data and fn pointers, as the
/// rest of [`crate::model::extras::Extras`].
pub struct Pictures<G: Game> {
    /// The page's picture of the game in play, as `observer` sees it
    /// (`None`: all of it): a [`Picture`] whose `kind` says how the page
    /// draws it (`text`: the game's [`Game::render`] in `text`). The page
    /// adds the seats' last moves (`last`) to it.
    pub view: fn(&Played<G>, Option<Seat>) -> Box<dyn Picture>,
    /// Why each move that the page offers the seat to move, and that is
    /// not legal now, is refused: the move's text and the reason in the
    /// game's words (`d3` and `d3: the square is taken`). Asked only when
    /// that seat's hidden cards are known to the state (its own view).
    pub refusals: fn(&G) -> Vec<(String, String)>,
    /// What a seat did with a move, played in the given state, in words
    /// without the seat (`plays d3`, `places a wall at e3h`, `bids 2`).
    pub move_words: fn(&G, G::Move) -> String,
    /// A chance step in words, given the seat that played last (a card
    /// game's draw is that seat's): `the cards are dealt`.
    pub chance_words: fn(&G, G::Move, Option<Seat>) -> String,
    /// Whether the step from this state deals a new hand or round: the
    /// seats' last moves shown are those of the hand in play.
    pub deals_a_hand: fn(&G) -> bool,
    /// Where the seat's piece stood in this state, the start of its next
    /// move (Quoridor's pawn), for the board's last-move mark.
    pub moved_from: fn(&G, Seat) -> Option<String>,
    /// A chance outcome told to the human at a seat, in words that say
    /// what it is and whose (`your hand: ...`, `passed to you by west:
    /// ...`), so that no line reads as a card given to the seat that is
    /// not its own.
    pub dealt_words: fn(&G, G::Move, Seat) -> String,
    /// What a move, played in the first state and leading to the second,
    /// tells a human seat beyond itself: who took a trick and what it was
    /// worth, a hand's scores, a lost token.
    pub news: fn(&G, G::Move, &G) -> News,
    /// The seat's text view ([`Game::view_text`]) lacks the last trick,
    /// so the feed adds it (Wizard).
    pub feed_adds_last_trick: bool,
    /// The page's scripts that draw this game's picture, in the order
    /// they load (a card game: the card table the card games share, then
    /// its own): each registers its picture's `kind` with the page's
    /// shell (`registerPage`). The GUI serves every registered game's
    /// scripts, each once, at `/games.js`. None: the page's text view.
    pub scripts: &'static [&'static str],
}

impl<G: Game> Clone for Pictures<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for Pictures<G> {}

impl<G: Game> Pictures<G> {
    /// The pictures every game has: its text, plain words, no news.
    pub const PLAIN: Pictures<G> = Pictures {
        view: text_view::<G>,
        refusals: |_| Vec::new(),
        move_words: plain_move_words::<G>,
        chance_words: |_, _, _| "the cards are dealt".to_string(),
        deals_a_hand: |_| false,
        moved_from: |_, _| None,
        dealt_words: plain_dealt_words::<G>,
        news: |_, _, _| News::default(),
        feed_adds_last_trick: false,
        scripts: &[],
    };
}

/// The text picture: `{"kind":"text","text":<render>}`.
#[derive(Serialize)]
pub struct TextPicture {
    /// `text`.
    pub kind: &'static str,
    /// The game's [`Game::render`].
    pub text: String,
}

/// The text picture of the game in play.
pub fn text_view<G: Game>(played: &Played<G>, _observer: Option<Seat>) -> Box<dyn Picture> {
    Box::new(TextPicture {
        kind: "text",
        text: played.state().render(),
    })
}

/// A move in plain words: `passes` for a move written `pass`, else
/// `plays <move>`.
pub fn plain_move_words<G: Game>(before: &G, mv: G::Move) -> String {
    let text = before.move_text(mv);
    if text == "pass" {
        return "passes".to_string();
    }
    format!("plays {text}")
}

/// A chance outcome told to a seat, in plain words: `dealt to you: ...`.
pub fn plain_dealt_words<G: Game>(before: &G, mv: G::Move, _seat: Seat) -> String {
    format!("dealt to you: {}", before.move_text(mv))
}

/// `1 card`, `2 cards`.
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Seats with a value each, as `north 3, east 0`.
pub fn seat_values<G: Game>(state: &G, seats: impl Iterator<Item = (Seat, String)>) -> String {
    seats
        .map(|(s, v)| format!("{} {v}", state.seat_name(s)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The index just after the last step that dealt a hand: where the hand
/// in play (or the one just finished, before the next deal) starts.
pub fn hand_start<G: Game>(played: &Played<G>, deals_a_hand: fn(&G) -> bool) -> usize {
    played
        .history()
        .iter()
        .rposition(|step| deals_a_hand(&step.before))
        .map_or(0, |i| i + 1)
}
