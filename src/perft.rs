//! Perft: count the leaves of the game tree to a fixed depth, for testing
//! move generation and measuring its speed.
//!
//! A finished game is one leaf wherever it is reached, and a forced pass
//! is a ply like any other. The last ply is counted in bulk with
//! [`Game::move_count`], without playing the moves.

use crate::game::Game;

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

/// Perft of game `G` opened with `options`, from `position` or the start
/// (the registry's monomorphised entry point for `tabula perft`).
pub fn perft_game<G: Game>(
    options: &[String],
    position: Option<&str>,
    depth: u32,
    divide: bool,
) -> Result<PerftResult, crate::engine::EngineError> {
    use crate::engine::EngineError;
    let options =
        crate::options::Options::parse(G::OPTIONS, options).map_err(EngineError::Option)?;
    let mut state = G::new_game(&options).map_err(EngineError::Option)?;
    if let Some(p) = position {
        state.set_position(p).map_err(EngineError::Position)?;
    }
    let mut result = PerftResult::default();
    if divide && depth > 0 && !state.is_over() {
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        for mv in moves {
            let mut child = state.clone();
            child.apply(mv);
            let n = perft(&child, depth - 1);
            result.divided.push((state.move_text(mv), n));
            result.leaves += n;
        }
    } else {
        result.leaves = perft(&state, depth);
    }
    Ok(result)
}
