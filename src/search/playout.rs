//! Playouts: finish a game from a state with a cheap policy, for Monte
//! Carlo searches. Chance steps are drawn from the generator on the way.

use crate::control::Pacer;
use crate::game::{Evaluator as _, Game, Rng, Turn};
use crate::search::alphabeta::shallow_best_within;

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
    let ended = play_out(state, rng, |state, rng, _| {
        let mv = if rand::Rng::gen_bool(rng, rules) {
            state.rules_move(rng)
        } else {
            None
        };
        Step::Play(mv.unwrap_or_else(|| state.random_move(rng, buf)))
    });
    ended.map_or(0, |e| e.plies)
}

/// What a playout policy does at a player's turn.
enum Step<M> {
    /// Plays this move.
    Play(M),
    /// Stops here, to score the position by the evaluation.
    Cut,
    /// Stops at once: the pacer said so.
    Abandon,
    /// Stops here as if the game were over (the policy found no move).
    End,
}

/// The ply loop every playout policy shares: chance outcomes drawn from
/// `rng`, player moves as `choose` (given the plies played so far) says,
/// until the horizon or until `choose` stops it. `None` if abandoned.
fn play_out<G: Game>(
    state: &mut G,
    rng: &mut Rng,
    mut choose: impl FnMut(&mut G, &mut Rng, u32) -> Step<G::Move>,
) -> Option<Ended> {
    let mut plies = 0;
    while !state.at_horizon() {
        let mv = match state.turn() {
            Turn::Chance => state.sample_chance(rng),
            Turn::Player(_) => match choose(state, rng, plies) {
                Step::Play(mv) => mv,
                Step::Cut => return Some(Ended { plies, cut: true }),
                Step::Abandon => return None,
                Step::End => break,
            },
            Turn::Over => break,
        };
        state.apply(mv);
        plies += 1;
    }
    Some(Ended { plies, cut: false })
}

/// The move policy of playouts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Policy {
    /// Uniformly random moves.
    Random,
    /// With probability `greedy` the move a depth-`depth` alpha-beta
    /// prefers (the coursework's heuristic playouts), otherwise random.
    Heuristic { greedy: f64, depth: u32 },
    /// `plies` random plies, then the position is scored by the search's
    /// evaluation as a chance to win, a logistic of slope `scale` (see
    /// [`playout_rewards`]), instead of played out; to the end at random
    /// without a scale.
    Cutoff { plies: u32, scale: Option<f64> },
}

/// How a playout ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ended {
    /// Plies played.
    pub plies: u32,
    /// Whether it stopped short of the horizon, to be scored by
    /// the evaluation rather than [`Game::reward`] (see [`playout_rewards`]).
    pub cut: bool,
}

/// Every seat's reward in `state`, which a playout left, written into
/// `out` after clearing it: [`Game::reward`] at the horizon; at a cut of
/// `policy` ([`Policy::Cutoff`]), `eval`'s value mapped to a chance to win
/// by its scale (a draw half); a two-player zero-sum game's evaluation is
/// taken as antisymmetric (seat 0's serves both).
pub fn playout_rewards<G: Game>(
    state: &G,
    ended: Ended,
    policy: Policy,
    eval: &G::Eval,
    out: &mut Vec<f64>,
) {
    out.clear();
    let seats = state.num_seats();
    let scale = match policy {
        Policy::Cutoff { scale, .. } if ended.cut => scale,
        _ => None,
    };
    match scale {
        // One evaluation serves both seats: the logistic of the negated
        // value is the complement.
        Some(scale) if G::TWO_PLAYER_ZERO_SUM && seats == 2 => {
            let first = eval_reward(eval.evaluate(state, 0), scale);
            out.extend([first, 1.0 - first]);
        }
        Some(scale) => {
            out.extend((0..seats).map(|s| eval_reward(eval.evaluate(state, s), scale)));
        }
        None => out.extend((0..seats).map(|s| state.reward(s))),
    }
}

/// An evaluation in `[-1, 1]` as a chance to win: a logistic of slope
/// `scale`.
pub fn eval_reward(value: f64, scale: f64) -> f64 {
    1.0 / (1.0 + (-scale * value).exp())
}

/// The most looks (moves listed and positions evaluated, see
/// [`shallow_best_within`]) one heuristic move choice takes: a depth-2
/// look-ahead on a wide board (Quoridor 9x9: some 130 moves, each with as
/// many replies, 34,000 looks) looks deeper only at the moves depth 1
/// ranks first. Othello's depth 2 (up to 31 moves) and every depth 1 stay
/// whole.
pub const DECISION_LOOKS: u64 = 2_000;

/// The most looks a heuristic playout spends on its choices: past them it
/// plays on with random moves, which cost the least a game has, so that
/// one iteration's cost is bounded whatever the board, the walls or the
/// ply limit. Measured playouts: Othello at depth 2 and Quoridor 9x9 at
/// depth 1 take at most about 13,000 (so they are whole), Quoridor 11x11
/// with 100 walls at depth 1 about 17,000 on average.
pub const PLAYOUT_LOOKS: u64 = 20_000;

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

/// Plays `policy` (and chance outcomes) until the horizon, or until the
/// cutoff of [`Policy::Cutoff`]. Returns how it ended, or `None` if `pacer`
/// stopped it first: heuristic steps can take long (a depth-2 look-ahead
/// on a wide board), so they tick the pacer, one tick per player move
/// and per move looked at. A heuristic playout's choices are capped in
/// work ([`DECISION_LOOKS`] each, [`PLAYOUT_LOOKS`] in all, then random
/// moves).
pub fn playout<G: Game>(
    state: &mut G,
    policy: Policy,
    rng: &mut Rng,
    scratch: &mut Scratch<G::Move>,
    pacer: &mut Pacer,
) -> Option<Ended> {
    let to_end = |plies| Ended { plies, cut: false };
    match policy {
        Policy::Random => Some(to_end(random_playout(state, rng, &mut scratch.moves))),
        Policy::Cutoff { scale: None, .. } => {
            Some(to_end(random_playout(state, rng, &mut scratch.moves)))
        }
        Policy::Cutoff {
            plies: cutoff,
            scale: Some(_),
        } => play_out(state, rng, |state, rng, plies| {
            if plies >= cutoff {
                Step::Cut
            } else {
                Step::Play(state.random_move(rng, &mut scratch.moves))
            }
        }),
        Policy::Heuristic { greedy, depth } => {
            let mut looks = 0u64;
            play_out(state, rng, |state, rng, _| {
                if pacer.tick() {
                    return Step::Abandon;
                }
                if !rand::Rng::gen_bool(rng, greedy.clamp(0.0, 1.0)) || looks >= PLAYOUT_LOOKS {
                    return Step::Play(state.random_move(rng, &mut scratch.moves));
                }
                let (mv, spent) = shallow_best_within(
                    state,
                    depth,
                    &mut scratch.moves,
                    &mut scratch.replies,
                    pacer,
                    DECISION_LOOKS,
                );
                looks += spent;
                match mv {
                    Some(mv) => Step::Play(mv),
                    None if pacer.stopped() => Step::Abandon,
                    None => Step::End,
                }
            })
        }
    }
}
