//! Why the engine refused a request: [`EngineError`], the one error of the
//! engine layer. In its own file so that the engine's parts (the table, the
//! searcher factory, the human seat) name it without standing on the
//! facade that is built from them.

use std::fmt;

use crate::games;
use crate::model::game::{MoveError, PositionError};
use crate::model::options::OptionError;

use super::settings::SettingError;

/// Why the engine refused a request. Every variant says what to do.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineError {
    /// No game of that name; the list names the games.
    UnknownGame(String),
    /// The game's options were refused.
    Option(OptionError),
    /// A move was malformed or illegal.
    Move(MoveError),
    /// A position text was refused.
    Position(PositionError),
    /// A setting was refused.
    Setting(SettingError),
    /// A seat name that is not a seat of this game.
    UnknownSeat(String),
    /// The seat asked for is not the one to move.
    NotYourTurn {
        /// The seat named.
        asked: String,
        /// The seat to move.
        to_move: String,
    },
    /// A chance step (a deal) must be told with `deal` first.
    AwaitingDeal,
    /// `deal` was sent but no chance step is waiting for a referee.
    NoDealPending,
    /// `undo` with nothing to take back.
    NothingToUndo,
    /// The request does not apply to this game or setting.
    Unsupported(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::UnknownGame(name) => {
                write!(
                    f,
                    "unknown game '{name}'; games: {}",
                    games::names().join(", ")
                )
            }
            EngineError::Option(e) => write!(f, "{e}"),
            EngineError::Move(e) => write!(f, "{e}"),
            EngineError::Position(e) => write!(f, "{e}"),
            EngineError::Setting(e) => write!(f, "{e}"),
            EngineError::UnknownSeat(s) => write!(f, "unknown seat '{s}'"),
            EngineError::NotYourTurn { asked, to_move } => {
                write!(f, "it is {to_move}'s turn, not {asked}'s")
            }
            EngineError::AwaitingDeal => write!(f, "waiting for a chance step: tell it with deal"),
            EngineError::NoDealPending => write!(f, "no deal is expected now"),
            EngineError::NothingToUndo => write!(f, "nothing to undo"),
            EngineError::Unsupported(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for EngineError {}
