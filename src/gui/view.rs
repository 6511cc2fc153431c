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
use crate::games::othello::{self, Othello};
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
    /// The last step in words, with who took it (`black plays d3`,
    /// `north plays Q\u{2660}`, `the cards are dealt`); `None` before any.
    fn last_step_words(&self) -> Option<String>;
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
        view_of(&self.game, self.observer)
    }

    fn last_step_words(&self) -> Option<String> {
        let history = self.game.history();
        let step = history.last()?;
        Some(match step.seat {
            Some(s) => format!(
                "{} {}",
                step.before.seat_name(s),
                move_words(&step.before, step.mv)
            ),
            None => {
                // A draw is the last player's: Ninety-Nine's seat that
                // just played takes a card.
                let drew = history.iter().rev().skip(1).find_map(|s| s.seat);
                chance_words(&step.before, step.mv, drew)
            }
        })
    }
}

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

fn suit_symbol(letter: char) -> char {
    match letter {
        'C' => '\u{2663}',
        'D' => '\u{2666}',
        'H' => '\u{2665}',
        'S' => '\u{2660}',
        other => other,
    }
}

fn card_list_words(set: CardSet) -> String {
    set.iter().map(card_words).collect::<Vec<_>>().join(" ")
}

/// What a seat did with `mv`, played in `before`, in words without the
/// seat (`plays d3`, `passes`, `places a wall at e3h`, `bids 2`,
/// `plays 10\u{2663} as \u{2212}10`).
pub fn move_words<G: Game>(before: &G, mv: G::Move) -> String {
    let text = before.move_text(mv);
    let (b, m) = (before as &dyn Any, &mv as &dyn Any);
    if let Some(m) = m.downcast_ref::<hearts::HeartsMove>() {
        return match *m {
            hearts::HeartsMove::Play(c) => format!("plays {}", card_words(c)),
            hearts::HeartsMove::Pass(set) => format!("passes {}", card_list_words(set)),
            _ => text,
        };
    }
    if let Some(m) = m.downcast_ref::<wizard::WizardMove>() {
        return match *m {
            wizard::WizardMove::Play(c) => format!("plays {}", card_words(c)),
            wizard::WizardMove::Bid(n) => format!("bids {n}"),
            wizard::WizardMove::Trump(s) => {
                let letter = s.to_string().chars().next().unwrap_or('?');
                format!("names trump {}", suit_symbol(letter))
            }
            _ => text,
        };
    }
    if let Some(m) = m.downcast_ref::<ninetynine::NnMove>() {
        return match *m {
            ninetynine::NnMove::Play(c, choice) => {
                let how = match choice {
                    ninetynine::Choice::Plain => "",
                    ninetynine::Choice::Plus => " as +10",
                    ninetynine::Choice::Minus => " as \u{2212}10",
                    ninetynine::Choice::One => " as 1",
                    ninetynine::Choice::Eleven => " as 11",
                };
                format!("plays {}{how}", card_words(c))
            }
            ninetynine::NnMove::Lose => "gives up a token".to_string(),
            _ => text,
        };
    }
    let quoridor = b.is::<QuoridorGame<2>>() || b.is::<QuoridorGame<4>>();
    if quoridor && text.ends_with(['h', 'v']) {
        return format!("places a wall at {text}");
    }
    if quoridor {
        return format!("moves to {text}");
    }
    if text == "pass" {
        return "passes".to_string();
    }
    format!("plays {text}")
}

/// A chance step in words: a deal, or the card `drew` (the seat that
/// played last) draws.
fn chance_words<G: Game>(before: &G, mv: G::Move, drew: Option<Seat>) -> String {
    if let Some(ninetynine::NnMove::Draw(c)) =
        (&mv as &dyn Any).downcast_ref::<ninetynine::NnMove>()
    {
        return match drew {
            Some(s) => format!("{} draws {}", before.seat_name(s), card_words(*c)),
            None => format!("a draw: {}", card_words(*c)),
        };
    }
    "the cards are dealt".to_string()
}

/// Each seat's last move in the game (`null` for a seat that has not
/// moved, or whose moves this view does not see): its text and its
/// words, for the board's last-move marks and the seats' boxes.
fn last_moves<G: Game>(played: &Played<G>) -> String {
    let state = played.state();
    let history = played.history();
    // A card game's last moves are those of the hand or round in play:
    // a move of an earlier hand would name cards dealt anew since.
    let hand_start = history
        .iter()
        .rposition(|step| deals_a_hand(&step.before))
        .map_or(0, |i| i + 1);
    let history = &history[hand_start..];
    json::array((0..state.num_seats()).map(|s| {
        history
            .iter()
            .rev()
            .find(|step| step.seat == Some(s))
            .map_or("null".to_string(), |step| {
                Object::new()
                    .str("move", &step.text)
                    .str("words", &move_words(&step.before, step.mv))
                    .opt(
                        "from",
                        pawn_square(&step.before, s).map(|q| json::string(&q)),
                    )
                    .end()
            })
    }))
}

/// Whether the step from `state` deals a new hand or round (a card
/// game waiting for its deal).
fn deals_a_hand<G: Game>(state: &G) -> bool {
    let any = state as &dyn Any;
    any.downcast_ref::<Hearts>()
        .is_some_and(|h| h.phase() == hearts::Phase::Deal)
        || any
            .downcast_ref::<Wizard>()
            .is_some_and(|w| w.phase() == wizard::Phase::Deal)
        || any
            .downcast_ref::<NinetyNine>()
            .is_some_and(|g| g.phase() == ninetynine::Phase::Deal)
}

/// Where `seat`'s pawn stood in `state`, if it is a Quoridor game (the
/// start of its last move, for the board's mark).
fn pawn_square<G: Game>(state: &G, seat: Seat) -> Option<String> {
    let any = state as &dyn Any;
    let (square, n) = if let Some(q) = any.downcast_ref::<QuoridorGame<2>>() {
        (q.pawn(seat), q.size())
    } else if let Some(q) = any.downcast_ref::<QuoridorGame<4>>() {
        (q.pawn(seat), q.size())
    } else {
        return None;
    };
    Some(square_text(square, n))
}

/// A Quoridor square (`row * size + col`) as the game writes it: `e1`.
fn square_text(square: u32, size: u32) -> String {
    format!(
        "{}{}",
        char::from(b'a' + (square % size) as u8),
        square / size + 1
    )
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

fn view_of<G: Game>(played: &Played<G>, observer: Option<Seat>) -> String {
    let view = kind_view(played, observer);
    // Every view ends with the seats' last moves.
    match view.strip_suffix('}') {
        Some(head) => format!("{head},\"last\":{}}}", last_moves(played)),
        None => view,
    }
}

fn kind_view<G: Game>(played: &Played<G>, observer: Option<Seat>) -> String {
    let state = played.state();
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
        // The discs the last move turned: those of the other colour
        // before it that are the mover's now.
        let before = played
            .history()
            .last()
            .and_then(|step| (&step.before as &dyn Any).downcast_ref::<Othello>())
            .and_then(Othello::position_text);
        let turned = match (before, o.position_text()) {
            (Some(a), Some(b)) => a
                .chars()
                .zip(b.chars())
                .take(64)
                .enumerate()
                .filter(|(_, (x, y))| matches!(x, 'X' | 'O') && x != y)
                .map(|(i, _)| othello::square_name(i as u8))
                .collect(),
            _ => Vec::new(),
        };
        return Object::new()
            .str("kind", Othello::NAME)
            .opt("position", o.position_text().map(|p| json::string(&p)))
            .raw("discs", json::numbers([black, white]))
            .raw("turned", json::strings(turned))
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
        .raw(
            "goals",
            json::array((0..q.players()).map(|s| {
                let n = q.size();
                json::strings(q.goal_squares(s).into_iter().map(|sq| square_text(sq, n)))
            })),
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
        .end()
}
