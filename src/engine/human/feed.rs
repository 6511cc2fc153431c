//! What the human at a human seat is told as the game goes on: the
//! other seats' moves as the game's `tell` gives them to that seat, and
//! the boundaries a card player follows: who took each trick and what it
//! was worth, the hand's points, Wizard's bids and the round's results,
//! Ninety-Nine's lost tokens. Everything told here is public once it has
//! happened (the cards of a finished trick, the scores), so nothing here
//! shows another seat's hidden cards.

use crate::model::game::{Game, Observation, Seat};
use crate::model::pictures::Pictures;

pub use crate::model::pictures::count;

/// The seat a human plays, what it was told since the last reply, and
/// the last trick (for games whose own view does not show it).
#[derive(Clone, Debug)]
pub struct Feed {
    seat: Seat,
    told: Vec<String>,
    last_trick: Option<String>,
}

/// How game `G` words what it tells: what it declares in its extras.
fn pictures<G: Game>() -> Pictures<G> {
    crate::games::extras::<G>().pictures
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

    /// Tells the human `mv`, played in `before` and leading to `after`:
    /// what the seat is told of it, in the game's words, then what it
    /// tells beyond itself (a trick taken, a hand's scores).
    pub fn observe<G: Game>(&mut self, before: &G, mv: G::Move, after: &G) {
        let pictures = pictures::<G>();
        for o in before.tell(mv, self.seat) {
            self.told.push(match o {
                Observation::Played { seat, mv } => {
                    format!("{} plays {}", before.seat_name(seat), before.move_text(mv))
                }
                Observation::Dealt(mv) => (pictures.dealt_words)(before, mv, self.seat),
            });
        }
        let news = (pictures.news)(before, mv, after);
        self.told.extend(news.lines);
        if news.trick.is_some() {
            self.last_trick = news.trick;
        }
    }

    /// The human's view of `state` with what the game's own view lacks
    /// (the last trick and who took it, where the game says so).
    pub fn decorate_view<G: Game>(&self, _state: &G, view: String) -> String {
        match &self.last_trick {
            Some(t) if pictures::<G>().feed_adds_last_trick => {
                format!("{}\nlast trick: {t}", view.trim_end())
            }
            _ => view,
        }
    }
}
