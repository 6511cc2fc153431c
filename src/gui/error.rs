//! Why the page's request was refused: setting up a game, or a move or an
//! undo in one. The message is what the page shows.

use crate::arena::ArenaError;
use crate::model::game::MoveError;
use crate::model::options::OptionError;

/// Why a page's game could not start, or its request was refused.
#[derive(Debug, thiserror::Error)]
pub enum PageError {
    /// The server runs its most games at once (`--max-games`).
    #[error("{0} games are running already (the server's --max-games)")]
    TooManyGames(usize),
    /// This client runs its most games at once (`--max-games-per-client`).
    #[error("you run {0} games already (the server's --max-games-per-client): close one first")]
    TooManyGamesOfClient(usize),
    /// No game of this name is registered (the page asked for it).
    #[error("unknown game '{0}'; games: {games}", games = crate::games::names().join(", "))]
    UnknownGame(String),
    /// No game of this name is registered (a record or a lookup named it).
    #[error("unknown game '{0}'")]
    NotRegistered(String),
    /// The game's options were refused.
    #[error(transparent)]
    Options(#[from] OptionError),
    /// An option the page may not set, and the ones it may.
    #[error("option '{word}' is not offered here; options: {}", .offered.join(", "))]
    OptionNotOffered {
        /// The `key=value` word.
        word: String,
        /// The keys the page may set.
        offered: &'static [&'static str],
    },
    /// The game could not be set up for the referee.
    #[error(transparent)]
    Setup(ArenaError),
    /// The person's seat is not one of the game's (or `none`).
    #[error("your seat must be 0..{} or none", .seats.saturating_sub(1))]
    BadSeat {
        /// The game's number of seats.
        seats: usize,
    },
    /// Watching is for perfect-information games only.
    #[error("in a card game you sit at one seat")]
    MustSit,
    /// A seat's engine is not one of the server's.
    #[error("engine{seat} must be an engine number 0..{}", .engines.saturating_sub(1))]
    BadEngine {
        /// The seat.
        seat: usize,
        /// How many engines the server has.
        engines: usize,
    },
    /// A seat's search does not play this game here.
    #[error(
        "search '{search}' does not play {game} here; searches: {}",
        .offered.join(", ")
    )]
    SearchNotOffered {
        /// The search asked for.
        search: String,
        /// The game.
        game: String,
        /// The searches that do.
        offered: Vec<String>,
    },
    /// A move time outside the server's bounds.
    #[error("move time must be 10..{most} ms")]
    BadMoveTime {
        /// The server's `--max-movetime`.
        most: u64,
    },
    /// A plain GTP engine's time is whole seconds, and the server allows
    /// less than one.
    #[error(
        "{engine} speaks plain GTP, whose time is whole seconds: \
         this server's --max-movetime ({most} ms) is under one"
    )]
    WholeSeconds {
        /// The engine.
        engine: String,
        /// The server's `--max-movetime`.
        most: u64,
    },
    /// The referee thread could not start.
    #[error(transparent)]
    Thread(std::io::Error),
    /// The game is closed.
    #[error("this game is closed")]
    Closed,
    /// It is not the person's turn.
    #[error("it is not your turn")]
    NotYourTurn,
    /// The referee did not answer in time.
    #[error("no answer from the game")]
    NoAnswer,
    /// The referee refused the move.
    #[error(transparent)]
    Move(MoveError),
    /// Undo is possible on the person's turn only.
    #[error("undo is possible on your turn only")]
    UndoNotNow,
    /// Cards once played cannot be taken back.
    #[error("cards once played stay played")]
    CardsStayPlayed,
    /// The person has made no move to take back.
    #[error("nothing to undo")]
    NothingToUndo,
    /// The game is over.
    #[error("the game is over")]
    GameOver,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page shows these messages as they are: the derive must print
    /// each exactly as the hand-written `Display` did, the computed parts
    /// (the last seat and engine, the lists, a continued line) included.
    #[test]
    fn messages_built_from_fields_print_as_the_page_expects() {
        let cases = [
            (
                PageError::TooManyGamesOfClient(4),
                "you run 4 games already (the server's --max-games-per-client): close one first",
            ),
            (
                PageError::OptionNotOffered {
                    word: "size=7".into(),
                    offered: &["size", "walls"],
                },
                "option 'size=7' is not offered here; options: size, walls",
            ),
            (
                PageError::BadSeat { seats: 4 },
                "your seat must be 0..3 or none",
            ),
            (
                PageError::BadEngine {
                    seat: 1,
                    engines: 2,
                },
                "engine1 must be an engine number 0..1",
            ),
            (
                PageError::SearchNotOffered {
                    search: "mcts".into(),
                    game: "hearts".into(),
                    offered: vec!["ismcts".into(), "default".into()],
                },
                "search 'mcts' does not play hearts here; searches: ismcts, default",
            ),
            (
                PageError::WholeSeconds {
                    engine: "gnugo".into(),
                    most: 900,
                },
                "gnugo speaks plain GTP, whose time is whole seconds: \
                 this server's --max-movetime (900 ms) is under one",
            ),
        ];
        for (error, message) in cases {
            assert_eq!(error.to_string(), message);
        }
        let unknown = PageError::UnknownGame("chess".into()).to_string();
        assert_eq!(
            unknown,
            format!(
                "unknown game 'chess'; games: {}",
                crate::games::names().join(", ")
            )
        );
        assert!(unknown.contains("othello, "), "{unknown}");
    }
}
