//! Othello shown to a person: the page's picture (the position, the disc
//! counts, the discs the last move turned) and why a square is refused.

use super::{Othello, square_name};
use crate::model::game::{Game, Seat, Turn};
use crate::model::pictures::{Picture, Pictures};
use crate::model::played::Played;

/// How Othello is shown to a person.
pub const PICTURES: Pictures<Othello> = Pictures {
    view,
    refusals,
    scripts: &[include_str!("page.js")],
    ..Pictures::<Othello>::PLAIN
};

/// The page's picture of Othello.
#[derive(serde::Serialize)]
struct OthelloPicture {
    /// `othello`.
    kind: &'static str,
    /// The position in `setposition` text.
    position: Option<String>,
    /// Black's and white's discs.
    discs: [u32; 2],
    /// The squares whose discs the last move turned.
    turned: Vec<String>,
}

fn view(played: &Played<Othello>, _observer: Option<Seat>) -> Box<dyn Picture> {
    let o = played.state();
    let (black, white) = o.disc_counts();
    // The discs the last move turned: those of the other colour before
    // it that are the mover's now.
    let before = played
        .history()
        .last()
        .and_then(|step| step.before.position_text());
    let turned = match (before, o.position_text()) {
        (Some(a), Some(b)) => a
            .chars()
            .zip(b.chars())
            .take(64)
            .enumerate()
            .filter(|(_, (x, y))| matches!(x, 'X' | 'O') && x != y)
            .map(|(i, _)| square_name(i as u8))
            .collect(),
        _ => Vec::new(),
    };
    Box::new(OthelloPicture {
        kind: Othello::NAME,
        position: o.position_text(),
        discs: [black, white],
        turned,
    })
}

/// Every square that is not a legal move now, with why.
fn refusals(o: &Othello) -> Vec<(String, String)> {
    if !matches!(o.turn(), Turn::Player(_)) {
        return Vec::new();
    }
    let taken = o.black() | o.white();
    (0..64u8)
        .filter(|&sq| o.mobility & (1 << sq) == 0)
        .map(|sq| {
            let name = square_name(sq);
            let why = if taken & (1 << sq) != 0 {
                "the square is taken"
            } else {
                "a move must turn at least one disc"
            };
            (name.clone(), format!("{name}: {why}"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_square_not_legal_is_refused_with_why() {
        let refused = refusals(&Othello::start());
        // 64 squares, 4 discs, 4 legal moves.
        assert_eq!(refused.len(), 60);
        let why = |m: &str| refused.iter().find(|(mv, _)| mv == m).map(|(_, w)| w.as_str());
        assert_eq!(why("d4"), Some("d4: the square is taken"));
        assert_eq!(why("a1"), Some("a1: a move must turn at least one disc"));
        assert_eq!(why("d3"), None);
    }
}
