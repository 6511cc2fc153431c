//! Playouts: finish a game from a state with a cheap policy, for Monte
//! Carlo searches. Chance steps are drawn from the generator on the way.

use crate::control::Pacer;
use crate::game::{Game, Rng, Turn};
use crate::search::alphabeta::shallow_best;

/// Plays uniformly random moves (and chance outcomes) until the horizon,
/// through the game's [`Game::random_playout`]. Returns the plies played.
#[inline]
pub fn random_playout<G: Game>(state: &mut G, rng: &mut Rng, buf: &mut Vec<G::Move>) -> u32 {
    state.random_playout(rng, buf)
}

/// Plays to the horizon with a rule-guided policy: each player move is the
/// game's rule move ([`Game::rules_move`]) with probability `rules`, a
/// uniformly random move otherwise (and where the game has no rule move).
/// `rules <= 0` is exactly [`random_playout`], same draws and all. Returns
/// the plies played.
pub fn rules_playout<G: Game>(
    state: &mut G,
    rules: f64,
    rng: &mut Rng,
    buf: &mut Vec<G::Move>,
) -> u32 {
    if rules <= 0.0 {
        return random_playout(state, rng, buf);
    }
    let rules = rules.min(1.0);
    let mut plies = 0;
    while !state.at_horizon() {
        let mv = match state.turn() {
            Turn::Chance => state.sample_chance(rng),
            Turn::Player(_) if rand::Rng::gen_bool(rng, rules) => match state.rules_move(rng) {
                Some(mv) => mv,
                None => state.random_move(rng, buf),
            },
            Turn::Player(_) => state.random_move(rng, buf),
            Turn::Over => break,
        };
        state.apply(mv);
        plies += 1;
    }
    plies
}

/// The move policy of playouts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Policy {
    /// Uniformly random moves.
    Random,
    /// With probability `greedy` the move a depth-`depth` alpha-beta
    /// prefers (the coursework's heuristic playouts), otherwise random.
    Heuristic { greedy: f64, depth: u32 },
}

/// Scratch space for playouts, kept between iterations.
pub struct Scratch<M> {
    moves: Vec<M>,
    replies: Vec<M>,
}

impl<M> Default for Scratch<M> {
    fn default() -> Self {
        Scratch {
            moves: Vec::new(),
            replies: Vec::new(),
        }
    }
}

/// Plays `policy` (and chance outcomes) until the horizon. Returns the
/// plies played, or `None` if `pacer` stopped it first: heuristic steps
/// can take long (a depth-2 look-ahead on a wide board), so they tick the
/// pacer, one tick per ply and per move looked at.
pub fn playout<G: Game>(
    state: &mut G,
    policy: Policy,
    rng: &mut Rng,
    scratch: &mut Scratch<G::Move>,
    pacer: &mut Pacer,
) -> Option<u32> {
    match policy {
        Policy::Random => Some(random_playout(state, rng, &mut scratch.moves)),
        Policy::Heuristic { greedy, depth } => {
            let mut plies = 0;
            while !state.at_horizon() {
                if pacer.tick() {
                    return None;
                }
                let mv = match state.turn() {
                    Turn::Chance => state.sample_chance(rng),
                    Turn::Player(_) if rand::Rng::gen_bool(rng, greedy.clamp(0.0, 1.0)) => {
                        match shallow_best(
                            state,
                            depth,
                            &mut scratch.moves,
                            &mut scratch.replies,
                            pacer,
                        ) {
                            Some(mv) => mv,
                            None if pacer.stopped() => return None,
                            None => break,
                        }
                    }
                    Turn::Player(_) => state.random_move(rng, &mut scratch.moves),
                    Turn::Over => break,
                };
                state.apply(mv);
                plies += 1;
            }
            Some(plies)
        }
    }
}
