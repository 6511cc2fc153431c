//! Why the page's request was refused: setting up a game, or a move or an
//! undo in one. The message is what the page shows.

use std::fmt;

use crate::arena::ArenaError;
use crate::model::game::MoveError;
use crate::model::options::OptionError;

/// Why a page's game could not start, or its request was refused.
#[derive(Debug)]
pub enum PageError {
    /// The server runs its most games at once (`--max-games`).
    TooManyGames(usize),
    /// This client runs its most games at once (`--max-games-per-client`).
    TooManyGamesOfClient(usize),
    /// No game of this name is registered (the page asked for it).
    UnknownGame(String),
    /// No game of this name is registered (a record or a lookup named it).
    NotRegistered(String),
    /// The game's options were refused.
    Options(OptionError),
    /// An option the page may not set, and the ones it may.
    OptionNotOffered {
        /// The `key=value` word.
        word: String,
        /// The keys the page may set.
        offered: &'static [&'static str],
    },
    /// The game could not be set up for the referee.
    Setup(ArenaError),
    /// The person's seat is not one of the game's (or `none`).
    BadSeat {
        /// The game's number of seats.
        seats: usize,
    },
    /// Watching is for perfect-information games only.
    MustSit,
    /// A seat's engine is not one of the server's.
    BadEngine {
        /// The seat.
        seat: usize,
        /// How many engines the server has.
        engines: usize,
    },
    /// A seat's search does not play this game here.
    SearchNotOffered {
        /// The search asked for.
        search: String,
        /// The game.
        game: String,
        /// The searches that do.
        offered: Vec<String>,
    },
    /// A move time outside the server's bounds.
    BadMoveTime {
        /// The server's `--max-movetime`.
        most: u64,
    },
    /// A plain GTP engine's time is whole seconds, and the server allows
    /// less than one.
    WholeSeconds {
        /// The engine.
        engine: String,
        /// The server's `--max-movetime`.
        most: u64,
    },
    /// The referee thread could not start.
    Thread(std::io::Error),
    /// The game is closed.
    Closed,
    /// It is not the person's turn.
    NotYourTurn,
    /// The referee did not answer in time.
    NoAnswer,
    /// The referee refused the move.
    Move(MoveError),
    /// Undo is possible on the person's turn only.
    UndoNotNow,
    /// Cards once played cannot be taken back.
    CardsStayPlayed,
    /// The person has made no move to take back.
    NothingToUndo,
    /// The game is over.
    GameOver,
}

impl fmt::Display for PageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PageError::TooManyGames(n) => write!(
                f,
                "{n} games are running already (the server's --max-games)"
            ),
            PageError::TooManyGamesOfClient(n) => write!(
                f,
                "you run {n} games already (the server's --max-games-per-client): \
                 close one first"
            ),
            PageError::UnknownGame(name) => write!(
                f,
                "unknown game '{name}'; games: {}",
                crate::games::names().join(", ")
            ),
            PageError::NotRegistered(name) => write!(f, "unknown game '{name}'"),
            PageError::Options(e) => write!(f, "{e}"),
            PageError::OptionNotOffered { word, offered } => write!(
                f,
                "option '{word}' is not offered here; options: {}",
                offered.join(", ")
            ),
            PageError::Setup(e) => write!(f, "{e}"),
            PageError::BadSeat { seats } => {
                write!(
                    f,
                    "your seat must be 0..{} or none",
                    seats.saturating_sub(1)
                )
            }
            PageError::MustSit => f.write_str("in a card game you sit at one seat"),
            PageError::BadEngine { seat, engines } => write!(
                f,
                "engine{seat} must be an engine number 0..{}",
                engines.saturating_sub(1)
            ),
            PageError::SearchNotOffered {
                search,
                game,
                offered,
            } => write!(
                f,
                "search '{search}' does not play {game} here; searches: {}",
                offered.join(", ")
            ),
            PageError::BadMoveTime { most } => write!(f, "move time must be 10..{most} ms"),
            PageError::WholeSeconds { engine, most } => write!(
                f,
                "{engine} speaks plain GTP, whose time is whole seconds: \
                 this server's --max-movetime ({most} ms) is under one"
            ),
            PageError::Thread(e) => write!(f, "{e}"),
            PageError::Closed => f.write_str("this game is closed"),
            PageError::NotYourTurn => f.write_str("it is not your turn"),
            PageError::NoAnswer => f.write_str("no answer from the game"),
            PageError::Move(e) => write!(f, "{e}"),
            PageError::UndoNotNow => f.write_str("undo is possible on your turn only"),
            PageError::CardsStayPlayed => f.write_str("cards once played stay played"),
            PageError::NothingToUndo => f.write_str("nothing to undo"),
            PageError::GameOver => f.write_str("the game is over"),
        }
    }
}

impl std::error::Error for PageError {}

impl From<OptionError> for PageError {
    fn from(e: OptionError) -> Self {
        PageError::Options(e)
    }
}
