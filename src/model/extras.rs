//! What a game may offer beyond its rules, as plain data and fn pointers:
//! an exact solver, an opening book, the protocol conventions only some games have
//! (GTP's fixed board size, its `final_score` text, a pass move, a count
//! of the moves left for the clock), and its pictures for a person (the
//! page's view, its moves in words: [`crate::model::pictures`]).
//!
//! A game declares its [`Extras`] as a constant in its module and names it
//! on its line of the registry (`games/mod.rs`); the layers above ask the
//! registry for them with [`crate::games::extras`]. The [`crate::model::game::Game`]
//! trait does not grow for what one game has: a search reaches the solver
//! through the engine, which hands it to the exact search at the root
//! ([`crate::search::exact::SolveFirst`]) and to alpha-beta for the nodes
//! near the end ([`crate::search::alphabeta::AlphaBeta::with_solver`]),
//! and the protocol reaches the conventions through the engine's table.

use crate::control::Control;
use crate::model::game::Game;
use crate::model::pictures::Pictures;

/// What a solve of the root found: moves with their exact values, best
/// first, and the nodes it searched (what a front end shows while and
/// after it works: NBoard's `nodestats`, UGI's `nodes`).
#[derive(Clone, Debug, PartialEq)]
pub struct RootSolve<M> {
    /// The moves and their exact values in the game's score unit.
    pub moves: Vec<(M, i32)>,
    /// The nodes searched, by every thread.
    pub nodes: u64,
}

/// A solve of the best move ([`Solver::solve`]): the position, its
/// control and the table's bytes in; the move and its exact value (the
/// one line of [`RootSolve::moves`]) out.
pub type SolveBest<G> = fn(&G, &Control, usize) -> Option<RootSolve<<G as Game>::Move>>;

/// A solve of every move ([`Solver::solve_moves`]).
pub type SolveEvery<G> = fn(&G, &Control, usize) -> Option<RootSolve<<G as Game>::Move>>;

/// A solve of a position's value in a window ([`Solver::window`]): the
/// position, the window `(alpha, beta)` in the game's score unit, the
/// control and the table's bytes in; the fail-soft exact value and the
/// nodes searched out.
pub type SolveWindow<G> = fn(&G, i32, i32, &Control, usize) -> Option<(i32, u64)>;

/// An opening book's moves for a position, best first, each with its value
/// for the side to move in the evaluation's unit (`[-1, 1]`; Othello: the
/// final disc margin / 64); empty where the book has no entry.
pub type BookMoves<G> = fn(&G) -> Vec<(<G as Game>::Move, f64)>;

/// An exact solver: values positions by perfect play to the end.
pub struct Solver<G: Game> {
    /// The position's size as the solver counts it (Othello: its empty
    /// squares): a solve at reach `r` is tried only when the size is at
    /// most `r`.
    pub size: fn(&G) -> u32,
    /// The best move for the seat to move and its exact value in the
    /// game's own score unit (Othello: the final disc margin, empties to
    /// the winner); `None` if the game is over or `Control` stopped it.
    /// Its tables take at most the given bytes.
    pub solve: SolveBest<G>,
    /// The exact value of every legal move, best first, as `solve` values
    /// the best one (an analysis that shows every move's margin); `None`
    /// if the game is over or the solve was stopped.
    pub solve_moves: SolveEvery<G>,
    /// The exact value for the seat to move, fail-soft in the window
    /// `(alpha, beta)` (at or below `alpha`: an upper bound; at or above
    /// `beta`: a lower bound; between: exact), in the unit of `solve`, on
    /// one thread whatever the control says, and the nodes it searched:
    /// what a search hands an inner node to (alpha-beta near the end,
    /// [`crate::search::alphabeta::AlphaBeta::with_solver`]). `None` if
    /// the game is over or `Control` stopped it.
    pub window: SolveWindow<G>,
}

impl<G: Game> Clone for Solver<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for Solver<G> {}

/// Everything a game may declare beyond the [`Game`] trait. Every field is
/// optional; [`Extras::NONE`] declares nothing.
pub struct Extras<G: Game> {
    /// The exact solver, where the game has one (Othello).
    pub solver: Option<Solver<G>>,
    /// The fixed board size of a game whose size is not an option
    /// (Othello: 8), so that GTP's `boardsize` can accept it.
    pub board_size: Option<u32>,
    /// The move that only hands the turn on (Othello's `PASS`): the engine
    /// plays it first when the other seat is asked to move and it is that
    /// seat's only move.
    pub pass: Option<G::Move>,
    /// GTP's `final_score` text where the game has its own convention
    /// (Othello: `B+12`, empties to the winner); without it the protocol
    /// derives the text from [`Game::outcome`].
    pub final_score: Option<fn(&G) -> String>,
    /// About how many moves the seat to move still has before the game
    /// ends (Othello: half the empty squares, rounded up): a game clock
    /// spreads the time left over no more moves than this.
    pub moves_left: Option<fn(&G) -> u32>,
    /// An opening book (Othello's, from expert games): the engine plays
    /// from it, when `book` is on, before it searches.
    pub book: Option<BookMoves<G>>,
    /// The exact margin for a seat of a finished game, where the game
    /// counts it otherwise than [`Game::outcome`]'s scores do (Othello:
    /// the disc margin with the empty squares to the winner, as its
    /// solver and `final_score` count it): one rule for every exact end a
    /// search reaches, solved or played out on the board.
    pub end_margin: Option<fn(&G, crate::model::game::Seat) -> i32>,
    /// How the game is shown to a person: the page's picture, its moves
    /// in words, what a move tells a human seat ([`Pictures::PLAIN`]: its
    /// text and plain words).
    pub pictures: Pictures<G>,
}

impl<G: Game> Extras<G> {
    /// No extras: a game that only has its rules.
    pub const NONE: Extras<G> = Extras {
        solver: None,
        board_size: None,
        pass: None,
        final_score: None,
        moves_left: None,
        book: None,
        end_margin: None,
        pictures: Pictures::PLAIN,
    };

    /// Whether `mv` is the declared pass.
    pub fn is_pass(&self, mv: G::Move) -> bool {
        self.pass == Some(mv)
    }

    /// Whether the solver exists and `state` is within `reach` of it.
    pub fn solvable(&self, state: &G, reach: u32) -> bool {
        self.solver.is_some_and(|s| (s.size)(state) <= reach)
    }
}

impl<G: Game> Clone for Extras<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for Extras<G> {}
