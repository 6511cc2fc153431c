//! Human-seat mode: a person at the terminal plays one seat
//! (`game hearts human=south`), the engine deals and plays every other
//! seat as its turn comes, and the person sees only what that seat may
//! see: its own view in `showboard`, and the other seats' moves as the
//! game's `tell` gives them to a seat-bound player. Commands that would
//! show more (the history with its deals, an analysis over sampled
//! hands) or that belong to a referee are refused.

use crate::engine::error::EngineError;
use crate::engine::table::AnyGame;
use crate::game::{Seat, Turn};

/// The game option that starts human-seat mode.
pub const OPTION: &str = "human";

/// Takes `human=SEAT` out of a game's option words: the seat text, and
/// the game's own options.
pub fn split_human(words: &[String]) -> (Option<String>, Vec<String>) {
    let mut human = None;
    let mut rest = Vec::new();
    for w in words {
        match w.split_once('=') {
            Some((k, v)) if k.eq_ignore_ascii_case(OPTION) => human = Some(v.to_string()),
            _ => rest.push(w.clone()),
        }
    }
    (human, rest)
}

/// The seat `text` names in `game`, for a person to play: the engine must
/// deal (no seat-bound `seat=` option) and it must be a seat of the game.
pub fn seat_for_person(game: &dyn AnyGame, text: &str) -> Result<Seat, EngineError> {
    if game.options().is_set("seat") {
        return Err(EngineError::Unsupported(
            "human= needs a game the engine deals: leave out seat=".into(),
        ));
    }
    game.parse_seat(text).ok_or_else(|| {
        let seats: Vec<String> = (0..game.num_seats()).map(|s| game.seat_name(s)).collect();
        EngineError::Unsupported(format!(
            "unknown seat '{text}' for human=; seats: {}",
            seats.join(", ")
        ))
    })
}

/// Whether the person (at `human`) may play for `seat` (or the seat to
/// move) now: only for their own seat, on their turn.
pub fn check_person_plays(
    game: &dyn AnyGame,
    human: Seat,
    seat: Option<Seat>,
) -> Result<(), EngineError> {
    let yours = game.seat_name(human);
    if let Some(s) = seat.filter(|&s| s != human) {
        return Err(EngineError::Unsupported(format!(
            "you play {yours}; the engine plays {} by itself",
            game.seat_name(s)
        )));
    }
    match game.turn() {
        Turn::Player(p) if p != human => Err(EngineError::NotYourTurn {
            asked: yours,
            to_move: game.seat_name(p),
        }),
        _ => Ok(()),
    }
}

/// Why a command is refused in human-seat mode, for those that would show
/// what the person's seat may not see or that belong to a referee.
pub fn refusal(command: &str) -> Option<String> {
    let why = match command {
        "genmove" | "analyze" => "the engine moves the other seats by itself; play your own move",
        "history" => {
            "the history holds the deal; the replies to play told you every move you may see"
        }
        "undo" => "not in human-seat mode",
        "deal" => "the engine deals in human-seat mode",
        _ => return None,
    };
    Some(format!(
        "{command}: {why} (game NAME without human= ends the mode)"
    ))
}
