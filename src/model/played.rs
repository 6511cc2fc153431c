//! A game in play, seen as text: the typed state, where it started, and
//! every step taken, with the one parse-check-apply path that both the
//! engine ([`crate::engine`]) and the match runner's referee
//! ([`crate::arena`]) use, so that a move text is read, checked and refused
//! the same way everywhere.

use crate::model::game::{Game, MoveError, Outcome, PositionError, Seat, Turn};

/// One step taken: the state before it, who took it, and its text.
#[derive(Clone, Debug)]
pub struct PlayedStep<G: Game> {
    /// The state before the step.
    pub before: G,
    /// The seat that moved, or `None` for a chance step.
    pub seat: Option<Seat>,
    /// The move.
    pub mv: G::Move,
    /// The move in the game's canonical text.
    pub text: String,
}

/// A game in play: its start, its current state and its history.
#[derive(Clone, Debug)]
pub struct Played<G: Game> {
    start: G,
    state: G,
    history: Vec<PlayedStep<G>>,
}

impl<G: Game> Played<G> {
    /// A game at `start`, with no history.
    pub fn new(start: G) -> Played<G> {
        Played {
            state: start.clone(),
            start,
            history: Vec::new(),
        }
    }

    /// The current state.
    pub fn state(&self) -> &G {
        &self.state
    }

    /// The state the game started from.
    pub fn start(&self) -> &G {
        &self.start
    }

    /// Every step taken so far, oldest first.
    pub fn history(&self) -> &[PlayedStep<G>] {
        &self.history
    }

    /// The legal moves of whoever acts next, as canonical texts.
    pub fn legal_texts(&self) -> Vec<String> {
        let mut moves = Vec::new();
        self.state.legal_moves(&mut moves);
        moves.into_iter().map(|m| self.state.move_text(m)).collect()
    }

    /// Reads a move text in the current state and checks that it is legal
    /// now ([`Game::check_move`]).
    pub fn check(&self, text: &str) -> Result<G::Move, MoveError> {
        self.state.check_move(text)
    }

    /// Checks and plays a move text; the state is unchanged on error.
    pub fn play(&mut self, text: &str) -> Result<G::Move, MoveError> {
        let mv = self.check(text)?;
        self.apply(mv);
        Ok(mv)
    }

    /// Plays a move already known to be legal, and records it.
    pub fn apply(&mut self, mv: G::Move) {
        let seat = match self.state.turn() {
            Turn::Player(p) => Some(p),
            _ => None,
        };
        let text = self.state.move_text(mv);
        let before = self.state.clone();
        self.state.apply(mv);
        self.history.push(PlayedStep {
            before,
            seat,
            mv,
            text,
        });
    }

    /// Takes the game back to just before step `index` (and forgets the
    /// steps from there on); nothing happens if there is no such step.
    pub fn rewind_to(&mut self, index: usize) {
        if index < self.history.len() {
            self.state = self.history[index].before.clone();
            self.history.truncate(index);
        }
    }

    /// Back to the start, with no history.
    pub fn restart(&mut self) {
        self.state = self.start.clone();
        self.history.clear();
    }

    /// Sets the position from text, with no history ([`Played::restart`]
    /// still goes back to the game's start). Unchanged on error.
    pub fn set_position(&mut self, text: &str) -> Result<(), PositionError> {
        let mut next = self.state.clone();
        next.set_position(text)?;
        self.state = next;
        self.history.clear();
        Ok(())
    }

    /// The outcome, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.state.is_over().then(|| self.state.outcome())
    }
}
