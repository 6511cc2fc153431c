//! A game defined only here, in test code: Pile (take one to three stones
//! from one pile; who takes the last stone wins). `tests/registry_outside.rs`
//! registers it in its own process and in the engines it starts, and shows
//! that every edge serves it with no edit elsewhere.

use tabula::games::Listing;
use tabula::model::extras::Extras;
use tabula::model::game::{Game, MoveError, Outcome, OwnEvaluation, Seat, Turn};
use tabula::model::options::{OptionError, OptionKind, OptionSpec, Options};
use tabula::model::pictures::{Picture, Pictures};
use tabula::model::played::Played;

/// What Pile declares beyond its rules: a picture of its own for the
/// page (its text, with the stones left as data of the game's), the page
/// script that draws it (`registry_pile.js`: the text view and a row of
/// stones) and its moves in words (`takes 2`).
pub const EXTRAS: Extras<Pile> = Extras {
    pictures: Pictures {
        view: pile_view,
        move_words: |_, mv| format!("takes {mv}"),
        scripts: &[include_str!("registry_pile.js")],
        ..Pictures::PLAIN
    },
    ..Extras::NONE
};

/// Pile's picture (`kind` `pile`: its own page draws it): its text, with
/// the stones left.
#[derive(serde::Serialize)]
struct PilePicture {
    kind: &'static str,
    text: String,
    stones: u32,
}

fn pile_view(played: &Played<Pile>, _observer: Option<Seat>) -> Box<dyn Picture> {
    let pile = played.state();
    Box::new(PilePicture {
        kind: "pile",
        text: pile.render(),
        stones: pile.stones,
    })
}

/// A pile of stones, and who is to take.
#[derive(Clone, Debug)]
pub struct Pile {
    stones: u32,
    to_move: Seat,
}

/// Pile's registry listing: the page may set the pile.
pub const LISTING: Listing = Listing {
    gtp_names: &["Pile"],
    page_options: &["stones"],
};

impl Game for Pile {
    type Move = u8;
    const NAME: &'static str = "pile";
    const SUMMARY: &'static str = "Pile: take 1-3 stones, the last stone wins (a test's game)";
    const OPTIONS: &'static [OptionSpec] = &[OptionSpec {
        name: "stones",
        kind: OptionKind::Int { min: 1, max: 60 },
        default: "7",
        help: "the pile",
    }];
    type Eval = OwnEvaluation;
    const TWO_PLAYER_ZERO_SUM: bool = true;

    fn new_game(options: &Options) -> Result<Self, OptionError> {
        let stones = options.int("stones").unwrap_or(7) as u32;
        Ok(Pile { stones, to_move: 0 })
    }
    fn num_seats(&self) -> usize {
        2
    }
    fn turn(&self) -> Turn {
        if self.stones == 0 {
            Turn::Over
        } else {
            Turn::Player(self.to_move)
        }
    }
    fn legal_moves(&self, out: &mut Vec<u8>) {
        out.clear();
        out.extend((1..=self.stones.min(3)).map(|n| n as u8));
    }
    fn apply(&mut self, mv: u8) {
        self.stones -= u32::from(mv).min(self.stones);
        self.to_move = 1 - self.to_move;
    }
    fn reward(&self, seat: Seat) -> f64 {
        // The seat to move when the pile is empty did not take the last.
        if self.stones == 0 && seat != self.to_move {
            1.0
        } else if self.stones == 0 {
            0.0
        } else {
            0.5
        }
    }
    fn outcome(&self) -> Outcome {
        let winner = 1 - self.to_move;
        let mut scores = vec![0.0; 2];
        scores[winner] = 1.0;
        Outcome {
            scores,
            winners: vec![winner],
        }
    }
    fn move_text(&self, mv: u8) -> String {
        mv.to_string()
    }
    fn parse_move(&self, text: &str) -> Result<u8, MoveError> {
        text.parse()
            .map_err(|_| MoveError::Syntax(format!("'{text}' is not a number of stones")))
    }
    fn render(&self) -> String {
        format!("{} stones, seat {} to take", self.stones, self.to_move)
    }
}
