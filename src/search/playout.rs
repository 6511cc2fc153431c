//! Playouts: finish a game from a state with a cheap policy, for Monte
//! Carlo searches. Chance steps are drawn from the generator on the way.

use crate::game::{Game, Rng, Turn};

/// Plays uniformly random moves (and chance outcomes) until the horizon.
/// Returns the number of plies played.
pub fn random_playout<G: Game>(state: &mut G, rng: &mut Rng, buf: &mut Vec<G::Move>) -> u32 {
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
