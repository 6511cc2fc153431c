//! What the card games' [`Game`](crate::model::game::Game) impls would otherwise
//! each write out alike: the `seat` option of seat-bound play, the text of
//! a self-dealt deal (`shuffle:<seed>`), the numbered seat names `p0`,
//! `p1`, ... of Wizard and Ninety-Nine, and the evaluation hook.

use crate::model::game::{MoveError, Seat};
use crate::model::options::{OptionError, OptionSpec, Options};

/// The declaration of the `seat` option (see [`bound_seat_option`]) for a
/// game of at most `seats` seats.
pub const fn seat_option_spec(seats: usize) -> OptionSpec {
    OptionSpec::int(
        "seat",
        0..=seats as i64 - 1,
        "none",
        "seat-bound play: the seat this engine sits at; none = self-dealt",
    )
}

/// The `seat` option of a card game with `seats` seats: `None` for
/// `none` (a self-dealt state), else the seat a seat-bound state sits at.
pub fn bound_seat_option(options: &Options, seats: usize) -> Result<Option<Seat>, OptionError> {
    match options.text("seat") {
        "none" => Ok(None),
        _ => options
            .int("seat")
            .filter(|&s| (0..seats as i64).contains(&s))
            .map(|s| Some(s as Seat))
            .ok_or_else(|| OptionError::Invalid(format!("seat must be 0..{} or none", seats - 1))),
    }
}

/// Whether a state bound to `bound` (`None`: self-dealt) knows every card
/// of `seat`'s hand: its own, or any in a self-dealt state.
pub fn knows_hand(bound: Option<Seat>, seat: Seat) -> bool {
    bound.is_none_or(|b| b == seat)
}

/// The text of a self-dealt deal move: `shuffle:<seed>`.
pub fn deal_seed_text(seed: u64) -> String {
    format!("shuffle:{seed}")
}

/// Reads a self-dealt deal move, `shuffle:<seed>` (`text` trimmed; either
/// case, spaces after the colon allowed).
pub fn parse_deal_seed(text: &str) -> Result<u64, MoveError> {
    text.to_ascii_lowercase()
        .strip_prefix("shuffle:")
        .and_then(|s| s.trim().parse().ok())
        .ok_or_else(|| MoveError::Syntax(format!("'{text}': a self-dealt deal is shuffle:<seed>")))
}

/// The name of seat `seat` where seats are numbered from 0: `p0`, `p1`, ...
pub fn numbered_seat_name(seat: Seat) -> String {
    format!("p{seat}")
}

/// Reads a numbered seat of `seats`: `p2`, `P2` or `2`.
pub fn parse_numbered_seat(text: &str, seats: usize) -> Option<Seat> {
    let t = text.trim().to_ascii_lowercase();
    let num = t.strip_prefix('p').unwrap_or(&t);
    num.parse::<Seat>().ok().filter(|&s| s < seats)
}

/// The evaluation hook of the card games: the reward as it stands (the
/// hand or round scored so far), mapped from `[0, 1]` to `[-1, 1]`.
pub fn reward_as_evaluation(reward: f64) -> f64 {
    2.0 * reward - 1.0
}

/// The [`Game`](crate::model::game::Game) hooks that Hearts, Wizard and
/// Ninety-Nine answer alike, written once into each impl: `render` from
/// the game's `describe(out, viewer)`, `bound_seat` from its `observer`,
/// `at_horizon` (playouts stop once the hand or round is scored: the
/// flag `$scored`), `evaluate` ([`reward_as_evaluation`]), and
/// `determinize` and `tell` from the game's `determinize_for` and
/// `tell_seat`. A macro, as a trait's provided methods cannot stand in
/// for another trait's.
macro_rules! card_game_hooks {
    (scored: $scored:ident) => {
        fn render(&self) -> String {
            let mut out = String::new();
            self.describe(&mut out, None);
            out
        }

        fn bound_seat(&self) -> Option<$crate::model::game::Seat> {
            self.observer
        }

        /// Playouts stop once the hand or round is scored.
        fn at_horizon(&self) -> bool {
            self.$scored || self.is_over()
        }

        fn evaluate(&self, seat: $crate::model::game::Seat) -> f64 {
            $crate::games::cards::reward_as_evaluation(self.reward(seat))
        }

        fn determinize(
            &self,
            observer: $crate::model::game::Seat,
            rng: &mut $crate::model::game::Rng,
        ) -> Self {
            self.determinize_for(observer, rng)
        }

        fn tell(
            &self,
            mv: Self::Move,
            seat: $crate::model::game::Seat,
        ) -> Vec<$crate::model::game::Observation<Self::Move>> {
            self.tell_seat(mv, seat)
        }
    };
}
pub(crate) use card_game_hooks;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_and_seat_texts_round_trip() {
        assert_eq!(parse_deal_seed(&deal_seed_text(42)), Ok(42));
        assert_eq!(parse_deal_seed("SHUFFLE: 7"), Ok(7));
        assert!(parse_deal_seed("shuffle:x").is_err());
        assert!(parse_deal_seed("7").is_err());
        assert_eq!(parse_numbered_seat(&numbered_seat_name(3), 4), Some(3));
        assert_eq!(parse_numbered_seat("P1", 4), Some(1));
        assert_eq!(parse_numbered_seat("2", 4), Some(2));
        assert_eq!(parse_numbered_seat("p4", 4), None);
        assert!(knows_hand(None, 2) && knows_hand(Some(2), 2) && !knows_hand(Some(1), 2));
    }
}
