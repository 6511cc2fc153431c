//! Perft: count the leaves of the game tree to a fixed depth, for testing
//! move generation and measuring its speed.
//!
//! A finished game is one leaf wherever it is reached, and a forced pass
//! is a ply like any other. The last ply is counted in bulk with
//! [`Game::move_count`], without playing the moves.

use crate::game::{Game, PositionError};
use crate::games::GameVisitor;
use crate::options::{OptionError, Options};

/// The number of leaves `depth` plies below `state`.
pub fn perft<G: Game>(state: &G, depth: u32) -> u64 {
    let mut buffers: Vec<Vec<G::Move>> = (0..depth).map(|_| Vec::new()).collect();
    perft_with(state, depth, &mut buffers)
}

fn perft_with<G: Game>(state: &G, depth: u32, buffers: &mut [Vec<G::Move>]) -> u64 {
    if depth == 0 || state.is_over() {
        return 1;
    }
    if depth == 1 {
        return state.move_count() as u64;
    }
    let Some((moves, rest)) = buffers.split_first_mut() else {
        return 1;
    };
    state.legal_moves(moves);
    let mut total = 0;
    for &mv in moves.iter() {
        let mut child = state.clone();
        child.apply(mv);
        total += perft_with(&child, depth - 1, rest);
    }
    total
}

/// A perft count, and the counts below each first move when divided.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PerftResult {
    /// Leaves in all.
    pub leaves: u64,
    /// `(first move, leaves below it)` when asked to divide.
    pub divided: Vec<(String, u64)>,
}

/// Perft of a registered game from its start or a position, as the
/// registry's visitor (`tabula perft`).
pub struct PerftRun<'a> {
    /// The position text, or `None` for the start.
    pub position: Option<&'a str>,
    /// Plies.
    pub depth: u32,
    /// Whether to count below each first move apart.
    pub divide: bool,
}

impl GameVisitor for PerftRun<'_> {
    type Output = Result<PerftResult, PerftError>;
    fn visit<G: Game>(self, options: &Options) -> Self::Output {
        let mut state = G::new_game(options).map_err(PerftError::Option)?;
        if let Some(p) = self.position {
            state.set_position(p).map_err(PerftError::Position)?;
        }
        let mut result = PerftResult::default();
        if self.divide && self.depth > 0 && !state.is_over() {
            let mut moves = Vec::new();
            state.legal_moves(&mut moves);
            for mv in moves {
                let mut child = state.clone();
                child.apply(mv);
                let n = perft(&child, self.depth - 1);
                result.divided.push((state.move_text(mv), n));
                result.leaves += n;
            }
        } else {
            result.leaves = perft(&state, self.depth);
        }
        Ok(result)
    }
}

/// Why a perft could not run.
#[derive(Clone, Debug, PartialEq)]
pub enum PerftError {
    /// The game's options were refused.
    Option(OptionError),
    /// The position text was refused.
    Position(PositionError),
}

impl std::fmt::Display for PerftError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PerftError::Option(e) => write!(f, "{e}"),
            PerftError::Position(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PerftError {}
