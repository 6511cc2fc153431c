//! Quoridor shown to a person: the page's picture (the position, each
//! pawn's distance and goal side), its moves in words, where a pawn
//! moved from, and why a square or a wall is refused.

use std::collections::HashSet;

use super::QuoridorGame;
use crate::model::game::{Game, Seat, Turn};
use crate::model::pictures::{Picture, Pictures};
use crate::model::played::Played;

impl<const P: usize> QuoridorGame<P> {
    /// How Quoridor is shown to a person.
    pub const PICTURES: Pictures<QuoridorGame<P>> = Pictures {
        view: view::<P>,
        refusals: refusals::<P>,
        move_words: move_words::<P>,
        chance_words: Pictures::<QuoridorGame<P>>::PLAIN.chance_words,
        deals_a_hand: Pictures::<QuoridorGame<P>>::PLAIN.deals_a_hand,
        moved_from: moved_from::<P>,
        dealt_words: Pictures::<QuoridorGame<P>>::PLAIN.dealt_words,
        news: Pictures::<QuoridorGame<P>>::PLAIN.news,
        feed_adds_last_trick: false,
        scripts: &[include_str!("page.js")],
    };
}

/// A square (`row * size + col`) as the page names it: `e1`.
fn square_text(square: u32, size: u32) -> String {
    format!(
        "{}{}",
        char::from(b'a' + (square % size) as u8),
        square / size + 1
    )
}

/// The page's picture of Quoridor.
#[derive(serde::Serialize)]
struct QuoridorPicture {
    /// `quoridor`.
    kind: &'static str,
    /// The board's side.
    size: u32,
    players: usize,
    /// Whether pawns jump.
    jumps: bool,
    /// The position in `setposition` text.
    position: Option<String>,
    /// Each pawn's distance to its goal.
    distance: Vec<u32>,
    /// Each pawn's goal squares.
    goals: Vec<Vec<String>>,
}

fn view<const P: usize>(
    played: &Played<QuoridorGame<P>>,
    _observer: Option<Seat>,
) -> Box<dyn Picture> {
    let q = played.state();
    let n = q.size();
    Box::new(QuoridorPicture {
        kind: QuoridorGame::<P>::NAME,
        size: n,
        players: q.players(),
        jumps: q.jumps(),
        position: q.position_text(),
        distance: (0..q.players()).map(|s| q.distance(s)).collect(),
        goals: (0..q.players())
            .map(|s| {
                q.goal_squares(s)
                    .into_iter()
                    .map(|sq| square_text(sq, n))
                    .collect()
            })
            .collect(),
    })
}

fn move_words<const P: usize>(before: &QuoridorGame<P>, mv: super::QuoridorMove) -> String {
    let text = before.move_text(mv);
    if text.ends_with(['h', 'v']) {
        format!("places a wall at {text}")
    } else {
        format!("moves to {text}")
    }
}

/// Where the seat's pawn stands: the start of its next move.
fn moved_from<const P: usize>(q: &QuoridorGame<P>, seat: Seat) -> Option<String> {
    Some(square_text(q.pawn(seat), q.size()))
}

/// Every square and wall the page offers the seat to move that is not
/// legal now, with why: a square its pawn cannot reach; a wall when no
/// wall is left, or one that overlaps or crosses a wall, or that would
/// cut a pawn off from its goal (the rule that remains once the others
/// pass).
fn refusals<const P: usize>(q: &QuoridorGame<P>) -> Vec<(String, String)> {
    let Turn::Player(me) = q.turn() else {
        return Vec::new();
    };
    let mut moves = Vec::new();
    q.legal_moves(&mut moves);
    let legal: HashSet<String> = moves.into_iter().map(|m| q.move_text(m)).collect();
    let placed: HashSet<String> = q
        .position_text()
        .map(|p| {
            p.split_whitespace()
                .skip(2 * P + 1)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    let name = |c: i64, r: i64| -> String {
        match (u8::try_from(c), u32::try_from(r)) {
            (Ok(c), Ok(r)) => format!("{}{}", char::from(b'a' + c), r + 1),
            _ => String::new(),
        }
    };
    let has = |c: i64, r: i64, o: char| placed.contains(&format!("{}{o}", name(c, r)));
    let n = i64::from(q.size());
    let mut out = Vec::new();
    for r in 0..n {
        for c in 0..n {
            let square = name(c, r);
            if !legal.contains(&square) {
                out.push((square.clone(), format!("{square}: your pawn cannot go there")));
            }
        }
    }
    for r in 0..n - 1 {
        for c in 0..n - 1 {
            for o in ['h', 'v'] {
                let wall = format!("{}{o}", name(c, r));
                if legal.contains(&wall) {
                    continue;
                }
                let overlaps = if o == 'h' {
                    has(c, r, 'h') || has(c - 1, r, 'h') || has(c + 1, r, 'h')
                } else {
                    has(c, r, 'v') || has(c, r - 1, 'v') || has(c, r + 1, 'v')
                };
                let why = if q.walls_left(me) == 0 {
                    "you have no walls left"
                } else if overlaps {
                    "it overlaps a wall"
                } else if has(c, r, if o == 'h' { 'v' } else { 'h' }) {
                    "it crosses a wall"
                } else {
                    "it would leave a pawn no path to its goal"
                };
                out.push((wall.clone(), format!("{wall}: {why}")));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::options::Options;

    #[test]
    fn a_refused_wall_says_why() {
        let options = Options::parse(QuoridorGame::<2>::OPTIONS, &[] as &[&str]).expect("options");
        let mut q = QuoridorGame::<2>::new_game(&options).expect("a game");
        let wall = q.parse_move("e3h").expect("a wall");
        q.apply(wall);
        let refused = refusals(&q);
        let why = |m: &str| {
            refused
                .iter()
                .find(|(mv, _)| mv == m)
                .map(|(_, w)| w.clone())
        };
        assert_eq!(why("e3h").as_deref(), Some("e3h: it overlaps a wall"));
        assert_eq!(why("d3h").as_deref(), Some("d3h: it overlaps a wall"));
        assert_eq!(why("e3v").as_deref(), Some("e3v: it crosses a wall"));
        assert_eq!(why("a3h"), None);
        assert_eq!(why("a1").as_deref(), Some("a1: your pawn cannot go there"));
    }
}
