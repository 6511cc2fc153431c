//! What the page is shown: a game as one seat sees it.
//!
//! The page's picture of a card game is drawn from a *seat-bound* copy of
//! the game (`seat=N`, as a seat-bound engine holds it), fed only what the
//! referee tells that seat plus the seat's own moves. It never holds
//! another hand, so no view of it can show one. Perfect-information games
//! and replays (a record is public once played) use the full state.

use super::error::PageError;
use crate::games::GameVisitor;
use crate::model::game::{Game, MoveError, Seat, Turn};
use serde_json::value::RawValue;

use crate::model::options::{OptionError, Options};
use crate::model::pictures::{Pictures, hand_start};
use crate::model::played::Played;

/// One seat's copy of a game (or the full game), seen as text.
pub trait Mirror: Send {
    /// Applies a move or a told chance outcome (`deal ...` without the
    /// word `deal`), checked as an engine checks it.
    fn play(&mut self, text: &str) -> Result<(), MoveError>;
    /// Who acts next.
    fn turn(&self) -> Turn;
    /// The legal moves of the seat to move, as canonical texts.
    fn legal(&self) -> Vec<String>;
    /// Why each move the page offers the seat to move, and that is not
    /// legal now, is refused: the move's text and the reason in the
    /// game's words; none where this copy does not see that seat's hand.
    fn refused(&self) -> Vec<(String, String)>;
    /// The seats' names.
    fn seat_names(&self) -> Vec<String>;
    /// The game's picture as JSON, for the page: written once, carried
    /// in the state events and replay steps as it is.
    fn view(&self) -> Box<RawValue>;
    /// The last step in words, with who took it (`black plays d3`,
    /// `north plays Q\u{2660}`, `the cards are dealt`); `None` before any.
    fn last_step_words(&self) -> Option<String>;
}

struct Mirrored<G: Game> {
    game: Played<G>,
    observer: Option<Seat>,
}

/// How game `G` is shown: what it declares in its extras.
fn pictures<G: Game>() -> Pictures<G> {
    crate::games::extras::<G>().pictures
}

impl<G: Game> Mirror for Mirrored<G> {
    fn play(&mut self, text: &str) -> Result<(), MoveError> {
        self.game.play(text).map(|_| ())
    }

    fn turn(&self) -> Turn {
        self.game.state().turn()
    }

    fn legal(&self) -> Vec<String> {
        if self.turn() == Turn::Chance {
            return Vec::new();
        }
        self.game.legal_texts()
    }

    fn refused(&self) -> Vec<(String, String)> {
        let seen = match self.turn() {
            Turn::Player(s) => self.observer.is_none_or(|o| o == s),
            _ => false,
        };
        if seen {
            (pictures::<G>().refusals)(self.game.state())
        } else {
            Vec::new()
        }
    }

    fn seat_names(&self) -> Vec<String> {
        let s = self.game.state();
        (0..s.num_seats()).map(|i| s.seat_name(i)).collect()
    }

    fn view(&self) -> Box<RawValue> {
        // The game's own picture, then every view's seats' last moves.
        let last = crate::json::raw(&last_moves(&self.game));
        (pictures::<G>().view)(&self.game, self.observer).write_with_last(&last)
    }

    fn last_step_words(&self) -> Option<String> {
        let history = self.game.history();
        let step = history.last()?;
        let pictures = pictures::<G>();
        Some(match step.seat {
            Some(s) => format!(
                "{} {}",
                step.before.seat_name(s),
                (pictures.move_words)(&step.before, step.mv)
            ),
            None => {
                // A draw is the last player's: Ninety-Nine's seat that
                // just played takes a card.
                let drew = history.iter().rev().skip(1).find_map(|s| s.seat);
                (pictures.chance_words)(&step.before, step.mv, drew)
            }
        })
    }
}

/// A seat's last move: its text, its words, and where the seat's piece
/// stood before it (Quoridor's pawn), for the board's last-move marks and
/// the seats' boxes.
#[derive(serde::Serialize)]
struct LastMove {
    #[serde(rename = "move")]
    text: String,
    words: String,
    from: Option<String>,
}

/// Each seat's last move in the game (`None` for a seat that has not
/// moved, or whose moves this view does not see).
fn last_moves<G: Game>(played: &Played<G>) -> Vec<Option<LastMove>> {
    let pictures = pictures::<G>();
    let state = played.state();
    // A card game's last moves are those of the hand or round in play:
    // a move of an earlier hand would name cards dealt anew since.
    let history = &played.history()[hand_start(played, pictures.deals_a_hand)..];
    (0..state.num_seats())
        .map(|s| {
            let step = history.iter().rev().find(|step| step.seat == Some(s))?;
            Some(LastMove {
                text: step.text.clone(),
                words: (pictures.move_words)(&step.before, step.mv),
                from: (pictures.moved_from)(&step.before, s),
            })
        })
        .collect()
}

/// The registry's visitor that builds a [`Mirror`] seen by `observer`.
pub struct OpenMirror {
    /// The seat whose view it is; `None`: everything (replays, and the
    /// perfect-information games).
    pub observer: Option<Seat>,
}

impl GameVisitor for OpenMirror {
    type Output = Result<Box<dyn Mirror>, OptionError>;
    fn visit<G: Game>(self, options: &Options) -> Self::Output {
        Ok(Box::new(Mirrored {
            game: Played::new(G::new_game(options)?),
            observer: self.observer,
        }))
    }
}

/// A mirror of game `name` with option words `words`: seat-bound at
/// `seat` in a hidden-information game, the full game otherwise.
pub fn mirror(
    name: &str,
    words: &[String],
    seat: Option<Seat>,
    perfect: bool,
) -> Result<Box<dyn Mirror>, PageError> {
    let entry =
        crate::games::find(name).ok_or_else(|| PageError::NotRegistered(name.to_string()))?;
    let mut words = words.to_vec();
    let observer = match seat {
        Some(s) if !perfect => {
            words.push(format!("seat={s}"));
            Some(s)
        }
        _ => None,
    };
    match entry.visit(&words, OpenMirror { observer }) {
        Ok(Ok(m)) => Ok(m),
        Ok(Err(e)) | Err(e) => Err(PageError::Options(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// Refusals as the state event writes them.
    #[derive(serde::Serialize)]
    struct Refused(#[serde(serialize_with = "crate::json::ordered_map")] Vec<(String, String)>);

    /// Plays game `G`'s first steps with its default options (chance
    /// drawn from a fixed seed, each seat's first legal move), the page's
    /// view and refusals after each, as `observer` sees them.
    fn pin_views<G: Game>(observer: Option<Seat>, steps: usize) -> String {
        let options = Options::parse::<&str>(G::OPTIONS, &[]).expect("default options");
        let game = G::new_game(&options).expect("a game");
        let mut mirror = Mirrored {
            game: Played::new(game),
            observer,
        };
        let refused = |m: &Mirrored<G>| crate::json::to_string(&Refused(m.refused()));
        let mut rng = crate::model::game::Rng::seed_from_u64(1);
        let mut out = vec![mirror.view().get().to_string(), refused(&mirror)];
        for _ in 0..steps {
            let state = mirror.game.state().clone();
            let mv = match state.turn() {
                Turn::Over => break,
                Turn::Chance => state.sample_chance(&mut rng),
                Turn::Player(_) => {
                    let mut moves = Vec::new();
                    state.legal_moves(&mut moves);
                    moves[0]
                }
            };
            let text = state.move_text(mv);
            if mirror.play(&text).is_err() {
                out.push(format!("refused {text}"));
                break;
            }
            out.push(mirror.view().get().to_string());
            out.push(refused(&mirror));
        }
        out.join("\n")
    }

    /// Every game's page view and refusals as the page got them before
    /// serde, the full game and one seat's (other hands `null`).
    #[test]
    fn page_views_keep_their_bytes() {
        use crate::games::{hearts::Hearts, ninetynine::NinetyNine, othello::Othello};
        use crate::games::{quoridor::Quoridor, wizard::Wizard};
        let mut all = Vec::new();
        for observer in [None, Some(0)] {
            all.push(("othello", observer, pin_views::<Othello>(observer, 8)));
            all.push(("quoridor", observer, pin_views::<Quoridor>(observer, 8)));
            all.push(("hearts", observer, pin_views::<Hearts>(observer, 8)));
            all.push(("wizard", observer, pin_views::<Wizard>(observer, 8)));
            all.push(("ninetynine", observer, pin_views::<NinetyNine>(observer, 8)));
        }
        // In the pinned order: each game, the full view then seat 0's.
        all.sort_by_key(|(name, observer, _)| {
            let order = ["othello", "quoridor", "hearts", "wizard", "ninetynine"];
            (order.iter().position(|n| n == name), observer.is_some())
        });
        let all: Vec<String> = all
            .into_iter()
            .map(|(name, observer, views)| format!("{name} {observer:?}\n{views}"))
            .collect();
        crate::json::assert_pinned("views", &all.join("\n"));
    }
}
