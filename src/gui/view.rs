//! What the page is shown: a game as one seat sees it.
//!
//! The page's picture of a card game is drawn from a *seat-bound* copy of
//! the game (`seat=N`, as a seat-bound engine holds it), fed only what the
//! referee tells that seat plus the seat's own moves. It never holds
//! another hand, so no view of it can show one. Perfect-information games
//! and replays (a record is public once played) use the full state.

use std::any::Any;

use super::error::PageError;
use crate::game::{Game, MoveError, Seat, Turn};
use crate::games::GameVisitor;
use crate::games::cards::{Card, CardSet};
use crate::games::hearts::{self, Hearts};
use crate::games::ninetynine::{self, NinetyNine};
use crate::games::othello::Othello;
use crate::games::quoridor::QuoridorGame;
use crate::games::wizard::{self, Wizard};
use crate::json::{self, Object};
use crate::options::{OptionError, Options};
use crate::played::Played;

/// One seat's copy of a game (or the full game), seen as text.
pub trait Mirror: Send {
    /// Applies a move or a told chance outcome (`deal ...` without the
    /// word `deal`), checked as an engine checks it.
    fn play(&mut self, text: &str) -> Result<(), MoveError>;
    /// Who acts next.
    fn turn(&self) -> Turn;
    /// The legal moves of the seat to move, as canonical texts.
    fn legal(&self) -> Vec<String>;
    /// The seats' names.
    fn seat_names(&self) -> Vec<String>;
    /// The game's picture as JSON, for the page.
    fn view(&self) -> String;
}

struct Mirrored<G: Game> {
    game: Played<G>,
    observer: Option<Seat>,
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

    fn seat_names(&self) -> Vec<String> {
        let s = self.game.state();
        (0..s.num_seats()).map(|i| s.seat_name(i)).collect()
    }

    fn view(&self) -> String {
        view_of(self.game.state(), self.observer)
    }
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

fn cards(set: CardSet) -> String {
    json::strings(set.iter().map(|c| c.to_string()))
}

fn card_list(list: &[Card]) -> String {
    json::strings(list.iter().map(Card::to_string))
}

fn trick(trick: &[(Seat, Card)]) -> String {
    json::array(
        trick
            .iter()
            .map(|(s, c)| format!("[{s},{}]", json::string(&c.to_string()))),
    )
}

/// Whether `seat`'s cards are shown: its own view, or the full game.
fn shows(observer: Option<Seat>, seat: Seat) -> bool {
    observer.is_none_or(|o| o == seat)
}

fn view_of<G: Game>(state: &G, observer: Option<Seat>) -> String {
    let any = state as &dyn Any;
    if let Some(h) = any.downcast_ref::<Hearts>() {
        return hearts_view(h, observer);
    }
    if let Some(w) = any.downcast_ref::<Wizard>() {
        return wizard_view(w, observer);
    }
    if let Some(n) = any.downcast_ref::<NinetyNine>() {
        return ninetynine_view(n, observer);
    }
    if let Some(q) = any.downcast_ref::<QuoridorGame<2>>() {
        return quoridor_view(q);
    }
    if let Some(q) = any.downcast_ref::<QuoridorGame<4>>() {
        return quoridor_view(q);
    }
    if let Some(o) = any.downcast_ref::<Othello>() {
        let (black, white) = o.disc_counts();
        return Object::new()
            .str("kind", Othello::NAME)
            .opt("position", o.position_text().map(|p| json::string(&p)))
            .raw("discs", json::numbers([black, white]))
            .end();
    }
    Object::new()
        .str("kind", "text")
        .str("text", &state.render())
        .end()
}

fn quoridor_view<const P: usize>(q: &QuoridorGame<P>) -> String {
    Object::new()
        .str("kind", QuoridorGame::<P>::NAME)
        .num("size", q.size())
        .num("players", q.players())
        .num("jumps", q.jumps())
        .opt("position", q.position_text().map(|p| json::string(&p)))
        .raw(
            "distance",
            json::numbers((0..q.players()).map(|s| q.distance(s))),
        )
        .end()
}

fn hearts_view(h: &Hearts, observer: Option<Seat>) -> String {
    let seats = h.num_seats();
    let hands = json::array((0..seats).map(|s| {
        if shows(observer, s) {
            cards(h.hand(s))
        } else {
            "null".to_string()
        }
    }));
    let phase = match h.phase() {
        hearts::Phase::Deal => "deal",
        hearts::Phase::Pass => "pass",
        hearts::Phase::Receive => "receive",
        hearts::Phase::Opener => "opener",
        hearts::Phase::Play => "play",
        hearts::Phase::Over => "over",
    };
    let pass = match h.pass_offset() {
        Some(1) => "left",
        Some(2) => "across",
        Some(3) => "right",
        _ => "none",
    };
    // The cards each seat passed: the observer's own only (or all, in
    // the full game).
    let passed = json::array((0..seats).map(|s| {
        if shows(observer, s) {
            cards(h.passed_cards(s))
        } else {
            "null".to_string()
        }
    }));
    Object::new()
        .str("kind", Hearts::NAME)
        .str("phase", phase)
        .num("hand_no", h.hand_number() + 1)
        .str("pass", pass)
        .num("broken", h.hearts_broken())
        .num("tricks", h.tricks_done())
        .raw("hands", hands)
        .raw("counts", json::numbers((0..seats).map(|s| h.hand_size(s))))
        .raw("passed", passed)
        .raw("trick", trick(&h.trick()))
        .raw("points", json::numbers(h.hand_points()))
        .raw("totals", json::numbers(h.totals()))
        .raw("last_hand", json::numbers(h.last_hand_scores()))
        .num("target", h.config().target)
        .end()
}

fn wizard_view(w: &Wizard, observer: Option<Seat>) -> String {
    let n = w.num_seats();
    let phase = w.phase();
    // Who has bid this round: everyone once play starts; while bidding,
    // the seats from the dealer's left up to the one to move.
    let first = (w.dealer() + 1) % n;
    let bid_count = match (phase, w.turn()) {
        (wizard::Phase::Play, _) | (wizard::Phase::Over, _) => n,
        (wizard::Phase::Bid, Turn::Player(t)) => (t + n - first) % n,
        _ => 0,
    };
    let bids = w.bids();
    let bids = json::array((0..n).map(|s| {
        if (s + n - first) % n < bid_count {
            bids[s].to_string()
        } else {
            "null".to_string()
        }
    }));
    let hands = json::array((0..n).map(|s| {
        if shows(observer, s) {
            cards(w.hand(s))
        } else {
            "null".to_string()
        }
    }));
    let phase = match phase {
        wizard::Phase::Deal => "deal",
        wizard::Phase::Trump => "trump",
        wizard::Phase::Bid => "bid",
        wizard::Phase::Play => "play",
        wizard::Phase::Over => "over",
    };
    Object::new()
        .str("kind", Wizard::NAME)
        .str("phase", phase)
        .num("round", w.round() + 1)
        .num("rounds", w.config().rounds)
        .num("round_cards", w.round_cards())
        .num("dealer", w.dealer())
        .opt("turned", w.turned().map(|c| json::string(&c.to_string())))
        .opt("trump", w.trump().map(|s| json::string(&s.to_string())))
        .raw("bids", bids)
        .raw("won", json::numbers(w.tricks_won().iter().take(n)))
        .raw("hands", hands)
        .raw("counts", json::numbers((0..n).map(|s| w.hand_size(s))))
        .raw("trick", trick(&w.trick()))
        .raw("totals", json::numbers(w.totals()))
        .raw("last_round", json::numbers(w.last_round_scores()))
        .end()
}

fn ninetynine_view(g: &NinetyNine, observer: Option<Seat>) -> String {
    let n = g.num_seats();
    let hands = json::array((0..n).map(|s| {
        if shows(observer, s) {
            card_list(&g.hand(s))
        } else {
            "null".to_string()
        }
    }));
    let phase = match g.phase() {
        ninetynine::Phase::Deal => "deal",
        ninetynine::Phase::Play => "play",
        ninetynine::Phase::Draw => "draw",
        ninetynine::Phase::Over => "over",
    };
    Object::new()
        .str("kind", NinetyNine::NAME)
        .str("phase", phase)
        .num("hand_no", g.hand_number() + 1)
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
        .end()
}
