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
