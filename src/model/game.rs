//! The game model: one trait that every game implements.
//!
//! A game state answers who is to move ([`Turn`]: a player seat, chance, or
//! nobody because the game is over), lists the legal moves, applies a move,
//! and reports per-seat rewards once the game (or the search horizon) is
//! over. Moves are small `Copy` values; their text form is the game's
//! business (`move_text` / `parse_move`).
//!
//! Chance (deals, draws, the turned-up trump) is an explicit step: when
//! [`Game::turn`] is [`Turn::Chance`], [`Game::sample_chance`] draws the
//! outcome as an ordinary move that is then applied.
//!
//! Hidden information is a declared capability: [`Game::determinize`]
//! returns a full state consistent with what one seat knows. Perfect
//! information games keep the default (a clone). Searches deciding for a
//! seat only ever look at determinized states, never at the engine's own
//! copy of the hidden cards.

use std::fmt;
use std::hash::Hash;

use crate::model::options::{OptionError, OptionSpec, Options};

/// The random generator used everywhere: seeded, fast, reproducible.
pub type Rng = rand::rngs::SmallRng;

/// A seat at the table, numbered from 0.
pub type Seat = usize;

/// Who acts next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// A player decides.
    Player(Seat),
    /// Chance decides (a deal, a draw); see [`Game::sample_chance`].
    Chance,
    /// The game is over.
    Over,
}

/// Why a move text could not be read (syntax), or why a well-formed move is
/// not allowed here (legality).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text is not a move of this game at all.
    #[error("malformed move: {0}")]
    Syntax(String),
    /// The text is a move of this game but not a legal one now.
    #[error("illegal move: {0}")]
    Illegal(String),
    /// The game is over: nothing can be played.
    #[error("the game is over")]
    GameOver,
}

/// Why a position text was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// This game has no position text.
    #[error("this game has no position text")]
    Unsupported,
    /// The text is malformed; the message says how.
    #[error("bad position: {0}")]
    Invalid(String),
}

/// One thing a seat-bound player is told about a step of the game
/// ([`Game::tell`]): typed moves, never protocol text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Observation<M> {
    /// `seat` made the move `mv`.
    Played {
        /// The seat that moved.
        seat: Seat,
        /// Its move.
        mv: M,
    },
    /// A chance outcome as the seat told sees it: a move of the chance
    /// player in that seat's seat-bound state (its own cards, its draw).
    Dealt(M),
}

impl<M> Observation<M> {
    /// The same observation with its move mapped (e.g. to its text).
    pub fn map<T>(self, f: impl FnOnce(M) -> T) -> Observation<T> {
        match self {
            Observation::Played { seat, mv } => Observation::Played { seat, mv: f(mv) },
            Observation::Dealt(mv) => Observation::Dealt(f(mv)),
        }
    }
}

/// The per-seat outcome of a finished game, as reported by `result`.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// Each seat's score in the game's own unit (discs, points, tokens).
    pub scores: Vec<f64>,
    /// The winning seats (empty or all seats for a draw).
    pub winners: Vec<Seat>,
}

/// A calibrated ProbCut regression ([`Evaluator::probcut_fit`]): the
/// deep value is predicted from a shallow search as
/// `slope * shallow + intercept`, with errors of standard deviation `sigma`
/// (evaluation units). How many sigmas a bound must be cleared by is the
/// search's setting (`probcut_sigmas`), not the game's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProbCutFit {
    /// The depth of the shallow search, in plies.
    pub shallow: u32,
    /// The regression of the deep value on the shallow one.
    pub slope: f64,
    /// Its intercept, in evaluation units.
    pub intercept: f64,
    /// The standard deviation of its errors, in evaluation units.
    pub sigma: f64,
}

/// An evaluation of a game's positions, chosen by the engine (`set eval`)
/// and held by the searches that score positions with it (alpha-beta's
/// leaves and move order, playouts cut short): the game's knowledge, as a
/// value, so that two engines of one process may evaluate differently.
/// Searches are generic over it: no dynamic call at a leaf.
pub trait Evaluator<G>: Clone + Default + Send + Sync + 'static {
    /// Static evaluation of `state` from `seat`'s point of view, roughly
    /// in `[-1, 1]` (positive is good).
    fn evaluate(&self, state: &G, seat: Seat) -> f64;

    /// Where measured for this evaluation: how a shallow search predicts
    /// a `depth`-ply one at `state` (ProbCut's regression). `None` (the
    /// default): not measured, no ProbCut.
    fn probcut_fit(&self, _state: &G, _depth: u32) -> Option<ProbCutFit> {
        None
    }
}

/// The evaluator of a game with one evaluation: its own
/// [`Game::evaluate`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OwnEvaluation;

impl<G: Game> Evaluator<G> for OwnEvaluation {
    #[inline]
    fn evaluate(&self, state: &G, seat: Seat) -> f64 {
        state.evaluate(seat)
    }
}

/// A game: the rules, and one state of play.
///
/// The required core is small; the provided methods are the checked
/// operations built on it and are not meant to be overridden, except the
/// ones documented as hooks (evaluation, fast random move, hidden
/// information, position text).
pub trait Game: Clone + Send + Sync + 'static {
    /// A move (including chance outcomes). Small and `Copy`.
    type Move: Copy + Eq + Hash + fmt::Debug + Send + Sync + 'static;

    /// The registry name (`othello`, `quoridor`, ...).
    const NAME: &'static str;
    /// One line describing the game, for `list_games`.
    const SUMMARY: &'static str;
    /// The `key=value` options the game accepts.
    const OPTIONS: &'static [OptionSpec];
    /// The evaluations the engine may choose between (`set eval`):
    /// [`OwnEvaluation`] for a game with one.
    type Eval: Evaluator<Self>;
    /// Two players, and one's gain is the other's loss: alpha-beta applies.
    const TWO_PLAYER_ZERO_SUM: bool = false;
    /// Every seat sees the whole state: `determinize` is a clone.
    const PERFECT_INFORMATION: bool = true;

    /// A new game at its start, with validated options.
    fn new_game(options: &Options) -> Result<Self, OptionError>;

    /// Number of seats.
    fn num_seats(&self) -> usize;
    /// Who acts next.
    fn turn(&self) -> Turn;
    /// The legal moves of whoever acts next (players or chance), written
    /// into `out` after clearing it. Empty only when the game is over, or
    /// at a chance step told by a referee (see [`Game::is_legal`]).
    fn legal_moves(&self, out: &mut Vec<Self::Move>);
    /// Applies a legal move. Behaviour on an illegal move is unspecified
    /// (but must not be undefined): check input with [`Game::check_move`].
    fn apply(&mut self, mv: Self::Move);
    /// The reward of `seat` in `[0, 1]` once [`Game::at_horizon`] holds
    /// (1 = best). Searches maximise it.
    fn reward(&self, seat: Seat) -> f64;
    /// The final scores and winners; meaningful once the game is over.
    fn outcome(&self) -> Outcome;

    /// The name of a seat in move commands (`black`, `white`, `north`...).
    fn seat_name(&self, seat: Seat) -> String {
        format!("{seat}")
    }
    /// Reads a seat name (or number).
    fn parse_seat(&self, text: &str) -> Option<Seat> {
        let t = text.to_ascii_lowercase();
        (0..self.num_seats())
            .find(|&s| self.seat_name(s).eq_ignore_ascii_case(&t))
            .or_else(|| t.parse().ok().filter(|&s: &Seat| s < self.num_seats()))
    }

    /// The text of a move, as the protocol prints it.
    fn move_text(&self, mv: Self::Move) -> String;
    /// Reads a move text in the current state (syntax only; legality is
    /// checked by [`Game::check_move`]).
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError>;

    /// A human-readable picture of the state, for `showboard`.
    fn render(&self) -> String;

    /// The position text (`setboard`), for games that have one.
    fn position_text(&self) -> Option<String> {
        None
    }
    /// Sets the position from text, for games that have one.
    fn set_position(&mut self, _text: &str) -> Result<(), PositionError> {
        Err(PositionError::Unsupported)
    }

    /// Hook: draws a chance outcome when [`Game::turn`] is [`Turn::Chance`].
    /// The default picks uniformly among `legal_moves`.
    fn sample_chance(&self, rng: &mut Rng) -> Self::Move {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves[rand::Rng::gen_range(rng, 0..moves.len())]
    }
    /// Hook: whether a chance step must be told by a referee (seat-bound
    /// play) rather than drawn by the engine.
    fn chance_from_referee(&self) -> bool {
        false
    }

    /// Hook: a uniformly random legal move, for playouts. `buf` is scratch
    /// space the caller keeps between calls. Games override it where a
    /// faster way exists (e.g. picking a bit of a move bitboard).
    fn random_move(&self, rng: &mut Rng, buf: &mut Vec<Self::Move>) -> Self::Move {
        self.legal_moves(buf);
        buf[rand::Rng::gen_range(rng, 0..buf.len())]
    }

    /// Hook: plays uniformly random moves (and chance outcomes) until
    /// [`Game::at_horizon`]; returns the plies played. The default is
    /// [`play_randomly`]; a game may run the same policy in a tighter loop.
    fn random_playout(&mut self, rng: &mut Rng, buf: &mut Vec<Self::Move>) -> u32 {
        play_randomly(self, rng, buf)
    }

    /// Hook: where playouts stop and `reward` is read. The game's end by
    /// default; card games may stop at the end of a hand.
    fn at_horizon(&self) -> bool {
        self.turn() == Turn::Over
    }

    /// Hook: static evaluation from `seat`'s point of view, roughly in
    /// `[-1, 1]` (positive is good): the game's own evaluation, which
    /// [`OwnEvaluation`] hands to the searches and heuristic playouts use.
    /// The default knows nothing.
    fn evaluate(&self, _seat: Seat) -> f64 {
        0.0
    }

    /// Hook: the evaluation named `name` (`set eval NAME|FILE`): one the
    /// game knows by name, or one it loads from a file. `default` is
    /// [`Default::default`] in every game; a game with one evaluation
    /// knows no other name.
    fn evaluator(name: &str) -> Result<Self::Eval, String> {
        match name {
            "default" => Ok(Self::Eval::default()),
            _ => Err(format!(
                "{} has one evaluation: eval takes only default",
                Self::NAME
            )),
        }
    }

    /// Hook: the number of legal moves (perft's bulk count at the last ply).
    fn move_count(&self) -> usize {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves.len()
    }

    /// Hook: a hash of the state for transposition tables, `None` when the
    /// game has none.
    fn hash_key(&self) -> Option<u64> {
        None
    }

    /// Hook: the game's rule-based baseline player, if it has one.
    fn rules_move(&self, _rng: &mut Rng) -> Option<Self::Move> {
        None
    }

    /// Hook: a full state consistent with everything `observer` knows,
    /// hidden parts drawn at random. Perfect-information games clone.
    fn determinize(&self, _observer: Seat, _rng: &mut Rng) -> Self {
        self.clone()
    }

    /// Hook: the seat a seat-bound game is played from (`seat=N`), whose
    /// information is all the engine has; `None` when the engine dealt.
    fn bound_seat(&self) -> Option<Seat> {
        None
    }

    /// Hook: what `observer` knows, as text (the seat's view for
    /// `showboard` in hidden-information games).
    fn view_text(&self, _observer: Seat) -> String {
        self.render()
    }

    /// Hook: what a seat-bound player sitting at `seat` is told about `mv`,
    /// about to be played in this state, in order. The match runner, as
    /// referee, tells every seat's engine (it writes the protocol lines).
    /// Default: a player's move is public and is not repeated to the mover
    /// itself, who chose it; a chance outcome is told to everyone as it
    /// is. Card games override this so that a seat hears only what it may
    /// see.
    fn tell(&self, mv: Self::Move, seat: Seat) -> Vec<Observation<Self::Move>> {
        match self.turn() {
            Turn::Player(p) if p == seat => Vec::new(),
            Turn::Player(p) => vec![Observation::Played { seat: p, mv }],
            Turn::Chance => vec![Observation::Dealt(mv)],
            Turn::Over => Vec::new(),
        }
    }

    /// Whether the game is over.
    fn is_over(&self) -> bool {
        self.turn() == Turn::Over
    }

    /// Whether `mv` is legal now. A hook only for games whose chance steps
    /// are told by a referee and too many to list (a seat-bound deal): there
    /// `legal_moves` may be empty at a [`Turn::Chance`] node and this
    /// validates the told outcome instead.
    fn is_legal(&self, mv: Self::Move) -> bool {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves.contains(&mv)
    }

    /// Reads a move text in the current state, in any letter case (GTP
    /// clients send `D3` and `PASS`), and checks that it is legal now:
    /// the one parse-then-check path that the engine and the referee
    /// share.
    fn check_move(&self, text: &str) -> Result<Self::Move, MoveError> {
        if self.is_over() {
            return Err(MoveError::GameOver);
        }
        let text = text.trim();
        let mv = match self.parse_move(text) {
            Ok(mv) => mv,
            Err(first) => {
                let lower = text.to_ascii_lowercase();
                match self.parse_move(&lower) {
                    Ok(mv) if lower != text => mv,
                    _ => return Err(first),
                }
            }
        };
        if !self.is_legal(mv) {
            return Err(MoveError::Illegal(format!("{text} is not legal here")));
        }
        Ok(mv)
    }
}

/// A uniformly random move among [`Game::legal_moves`] (listed into `buf`),
/// drawn as the default [`Game::random_move`] draws it; `None` when the list
/// is empty (a chance step a referee tells, or a seat whose cards a
/// seat-bound state does not know). For games whose `random_move` has fast
/// paths and falls back to the plain list elsewhere.
pub fn random_legal_move<G: Game>(
    state: &G,
    rng: &mut Rng,
    buf: &mut Vec<G::Move>,
) -> Option<G::Move> {
    state.legal_moves(buf);
    match buf.len() {
        0 => None,
        n => Some(buf[rand::Rng::gen_range(rng, 0..n)]),
    }
}

/// The random playout policy, one move at a time through the trait:
/// [`Game::random_move`] and [`Game::sample_chance`] until the horizon.
/// Returns the plies played.
pub fn play_randomly<G: Game>(state: &mut G, rng: &mut Rng, buf: &mut Vec<G::Move>) -> u32 {
    let mut plies = 0;
    while !state.at_horizon() {
        let mv = match state.turn() {
            Turn::Chance => state.sample_chance(rng),
            Turn::Player(_) => state.random_move(rng, buf),
            Turn::Over => break,
        };
        state.apply(mv);
        plies += 1;
    }
    plies
}
