//! The referee: the runner's own copy of a game, with the full state.
//!
//! The runner holds one [`Referee`] per game in play. It knows everything
//! (all hands), checks every move an engine sends, draws the chance steps
//! and says, through the game's [`Game::tell`] hook, what each seat's
//! engine must be told, with the moves as texts (the runner writes the
//! protocol lines). It works on move *text*, so the runner never
//! needs to know a game's types: one object-safe trait, built for any game
//! by [`referee_for`]. Moves are read and checked by [`Played`], as the
//! engine reads them.

use crate::control::Control;
use crate::games::{self, GameVisitor};
use crate::model::game::{Game, MoveError, Observation, Outcome, Rng, Seat, Turn};
use crate::model::options::{OptionError, Options};
use crate::model::played::Played;

/// The `game NAME OPTION...` line that starts a game on an engine (and
/// heads a game's transcript), with `seat=N` for an engine bound to seat
/// `N` of a hidden-information game; `seat` is `None` where the engine
/// sees the whole game. Every such line the runner and the GUI send is
/// written here.
pub fn game_command(name: &str, options: &[String], seat: Option<Seat>) -> String {
    let mut line = format!("game {name}");
    for w in options {
        line.push(' ');
        line.push_str(w);
    }
    if let Some(seat) = seat {
        line.push_str(&format!(" seat={seat}"));
    }
    line
}

/// One applied step of a game, for the record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedStep {
    /// The seat that moved, or `None` for a chance step.
    pub seat: Option<Seat>,
    /// The move in the game's canonical text.
    pub text: String,
}

/// The effect of one applied step: its canonical text and what every seat
/// must be told.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Told {
    /// The canonical text of the move (as `move_text` prints it).
    pub text: String,
    /// For each seat, what its engine must be told, in order, with the
    /// moves as texts. The mover's own list is usually empty.
    pub observations: Vec<Vec<Observation<String>>>,
}

/// A game seen by the runner as text: rules checked, state complete.
///
/// Object-safe so that the runner can hold any game behind `Box<dyn
/// Referee>`; built for a concrete game by [`referee_for`].
pub trait Referee: Send + Sync {
    /// The registry name of the game (`othello`, `hearts`...).
    fn game_name(&self) -> &str;
    /// The options the game was created with, as `key=value` words (only
    /// the ones given explicitly).
    fn option_words(&self) -> Vec<String>;
    /// A fresh game with the same options, at its start.
    fn new_game(&self) -> Box<dyn Referee>;
    /// Number of seats.
    fn num_seats(&self) -> usize;
    /// Who acts next.
    fn turn(&self) -> Turn;
    /// The protocol name of a seat (`black`, `north`...).
    fn seat_name(&self, seat: Seat) -> String;
    /// Whether every seat sees everything; otherwise engines are bound to
    /// one seat each with the `seat=N` game option.
    fn perfect_information(&self) -> bool;
    /// The legal moves of whoever acts next, as canonical texts.
    fn legal_moves(&self) -> Vec<String>;
    /// Checks a move text for the seat to move: syntax, then legality.
    fn check_move(&self, text: &str) -> Result<String, MoveError>;
    /// Checks and plays a move of the seat to move; returns what each seat
    /// must be told. The state is unchanged on error.
    fn play(&mut self, text: &str) -> Result<Told, MoveError>;
    /// At a chance step: draws the outcome from `rng`, applies it and
    /// returns what each seat must be told.
    fn sample_and_apply_chance(&mut self, rng: &mut Rng) -> Result<Told, MoveError>;
    /// The final scores and winners (meaningful once the game is over).
    fn outcome(&self) -> Outcome;
    /// Every step applied so far.
    fn history(&self) -> &[RecordedStep];
    /// A human-readable picture of the full state.
    fn render(&self) -> String;
    /// The fixed board size of a game without a size option (Othello: 8),
    /// which a GTP engine is told with `boardsize`.
    fn board_size(&self) -> Option<u32>;
    /// Sets the position from its text (`setboard`), with no history;
    /// unchanged on error.
    fn set_position(&mut self, text: &str) -> Result<(), String>;
    /// The position as text, for games that have one.
    fn position_text(&self) -> Option<String>;
    /// Whether the game has an exact solver ([`Referee::solve_exact`]).
    fn has_solver(&self) -> bool;
    /// Solves the position exactly when it is within `reach` (Othello:
    /// that many empty squares or fewer) and a player is to move: the
    /// mover, its best move and the margin of perfect play for it.
    fn solve_exact(&self, reach: u32) -> Option<Solved>;
}

/// An exactly solved position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    /// The seat to move.
    pub seat: Seat,
    /// Its best move, as text.
    pub mv: String,
    /// The final margin for it with perfect play (the game's score unit).
    pub margin: i32,
}

/// The solver's table for adjudication: 4 MiB (allocated per solve; at
/// 14 empties a larger one costs more to clear than it saves).
const SOLVER_TABLE_BYTES: usize = 4 << 20;

/// The generic referee over a concrete game.
struct GameReferee<G: Game> {
    game: Played<G>,
    options: Vec<String>,
    history: Vec<RecordedStep>,
}

/// Builds a referee for game `G` from validated options.
///
/// The referee's game is created without a `seat` option: it is the full,
/// all-knowing state. Engines get `seat=N` from the runner instead.
pub fn referee_for<G: Game>(options: &Options) -> Result<Box<dyn Referee>, OptionError> {
    if options.is_set("seat") {
        return Err(OptionError::Invalid(
            "the match runner assigns seats itself: remove the seat option".to_string(),
        ));
    }
    Ok(Box::new(GameReferee {
        game: Played::new(G::new_game(options)?),
        options: options.given(),
        history: Vec::new(),
    }))
}

/// The registry's visitor that builds a referee.
pub struct OpenReferee;

impl GameVisitor for OpenReferee {
    type Output = Result<Box<dyn Referee>, OptionError>;
    fn visit<G: Game>(self, options: &Options) -> Self::Output {
        referee_for::<G>(options)
    }
}

impl<G: Game> GameReferee<G> {
    /// What each seat is told about `mv`, the moves written as the state
    /// before it writes them.
    fn tell_all(&self, mv: G::Move) -> Vec<Vec<Observation<String>>> {
        let state = self.game.state();
        (0..state.num_seats())
            .map(|s| {
                state
                    .tell(mv, s)
                    .into_iter()
                    .map(|o| o.map(|m| state.move_text(m)))
                    .collect()
            })
            .collect()
    }

    /// Tells, records and applies `mv` (already known to be legal).
    fn apply_told(&mut self, mv: G::Move, seat: Option<Seat>) -> Told {
        let text = self.game.state().move_text(mv);
        let observations = self.tell_all(mv);
        self.game.apply(mv);
        self.history.push(RecordedStep {
            seat,
            text: text.clone(),
        });
        Told { text, observations }
    }

    /// Checks a move text of the player to move.
    fn check_player_move(&self, text: &str) -> Result<(Seat, G::Move), MoveError> {
        match self.game.state().turn() {
            Turn::Over => Err(MoveError::GameOver),
            Turn::Chance => Err(MoveError::Illegal(
                "a chance step is next, not a player".to_string(),
            )),
            Turn::Player(seat) => Ok((seat, self.game.check(text)?)),
        }
    }
}

impl<G: Game> Referee for GameReferee<G> {
    fn game_name(&self) -> &str {
        G::NAME
    }

    fn option_words(&self) -> Vec<String> {
        self.options.clone()
    }

    fn new_game(&self) -> Box<dyn Referee> {
        Box::new(GameReferee {
            game: Played::new(self.game.start().clone()),
            options: self.options.clone(),
            history: Vec::new(),
        })
    }

    fn num_seats(&self) -> usize {
        self.game.state().num_seats()
    }

    fn turn(&self) -> Turn {
        self.game.state().turn()
    }

    fn seat_name(&self, seat: Seat) -> String {
        self.game.state().seat_name(seat)
    }

    fn perfect_information(&self) -> bool {
        G::PERFECT_INFORMATION
    }

    fn legal_moves(&self) -> Vec<String> {
        self.game.legal_texts()
    }

    fn check_move(&self, text: &str) -> Result<String, MoveError> {
        let (_, mv) = self.check_player_move(text)?;
        Ok(self.game.state().move_text(mv))
    }

    fn play(&mut self, text: &str) -> Result<Told, MoveError> {
        let (seat, mv) = self.check_player_move(text)?;
        Ok(self.apply_told(mv, Some(seat)))
    }

    fn sample_and_apply_chance(&mut self, rng: &mut Rng) -> Result<Told, MoveError> {
        match self.game.state().turn() {
            Turn::Chance => {}
            Turn::Over => return Err(MoveError::GameOver),
            Turn::Player(_) => {
                return Err(MoveError::Illegal(
                    "a player is to move, not chance".to_string(),
                ));
            }
        }
        let mv = self.game.state().sample_chance(rng);
        Ok(self.apply_told(mv, None))
    }

    fn outcome(&self) -> Outcome {
        self.game.state().outcome()
    }

    fn history(&self) -> &[RecordedStep] {
        &self.history
    }

    fn render(&self) -> String {
        self.game.state().render()
    }

    fn board_size(&self) -> Option<u32> {
        games::extras::<G>().board_size
    }

    fn set_position(&mut self, text: &str) -> Result<(), String> {
        self.game.set_position(text).map_err(|e| e.to_string())?;
        self.history.clear();
        Ok(())
    }

    fn position_text(&self) -> Option<String> {
        self.game.state().position_text()
    }

    fn has_solver(&self) -> bool {
        games::extras::<G>().solver.is_some()
    }

    fn solve_exact(&self, reach: u32) -> Option<Solved> {
        let state = self.game.state();
        let Turn::Player(seat) = state.turn() else {
            return None;
        };
        let solver = games::extras::<G>().solver?;
        if (solver.size)(state) > reach {
            return None;
        }
        let solved = (solver.solve)(state, &Control::unlimited(), SOLVER_TABLE_BYTES)?;
        let &(mv, margin) = solved.moves.first()?;
        Some(Solved {
            seat,
            mv: state.move_text(mv),
            margin,
        })
    }
}

/// The referee of a game by registry name, with its options as
/// `key=value` words.
pub fn referee_by_name(name: &str, words: &[String]) -> Result<Box<dyn Referee>, RefereeError> {
    let entry =
        crate::games::find(name).ok_or_else(|| RefereeError::UnknownGame(name.to_string()))?;
    Ok(entry.visit(words, OpenReferee)??)
}

/// Why no referee could be made for a game named on the command line or
/// in a record.
#[derive(Debug)]
pub enum RefereeError {
    /// The game is not known.
    UnknownGame(String),
    /// The game's options were refused.
    Options(OptionError),
}

impl std::fmt::Display for RefereeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RefereeError::UnknownGame(name) => write!(f, "unknown game '{name}'"),
            RefereeError::Options(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for RefereeError {}

impl From<OptionError> for RefereeError {
    fn from(e: OptionError) -> Self {
        RefereeError::Options(e)
    }
}
