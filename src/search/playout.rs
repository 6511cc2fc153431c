//! Playouts: finish a game from a state with a cheap policy, for Monte
//! Carlo searches. Chance steps are drawn from the generator on the way.

use crate::control::Pacer;
use crate::model::game::{Evaluator as _, Game, Rng, Seat, Turn};

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
        PolicyStep::Play(mv.unwrap_or_else(|| state.random_move(rng, buf)))
    });
    ended.map_or(0, |e| e.plies)
}

/// What a playout policy does at a player's turn.
enum PolicyStep<M> {
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
    mut choose: impl FnMut(&mut G, &mut Rng, u32) -> PolicyStep<G::Move>,
) -> Option<Ended> {
    let mut plies = 0;
    while !state.at_horizon() {
        let mv = match state.turn() {
            Turn::Chance => state.sample_chance(rng),
            Turn::Player(_) => match choose(state, rng, plies) {
                PolicyStep::Play(mv) => mv,
                PolicyStep::Cut => return Some(Ended { plies, cut: true }),
                PolicyStep::Abandon => return None,
                PolicyStep::End => break,
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
    Heuristic {
        /// The chance, in [0, 1], that a move is the shallow search's.
        greedy: f64,
        /// The shallow search's depth (1 or 2).
        depth: u32,
    },
    /// `plies` random plies, then the position is scored by the search's
    /// evaluation as a chance to win, a logistic of slope `scale` (see
    /// [`playout_rewards`]), instead of played out; to the end at random
    /// without a scale.
    Cutoff {
        /// Random plies before the cut.
        plies: u32,
        /// The logistic's slope (`eval_win_scale`); `None`: play to the end.
        scale: Option<f64>,
    },
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
/// moves). Heuristic choices compare positions by `eval`.
pub fn playout<G: Game>(
    state: &mut G,
    policy: Policy,
    eval: &G::Eval,
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
                PolicyStep::Cut
            } else {
                PolicyStep::Play(state.random_move(rng, &mut scratch.moves))
            }
        }),
        Policy::Heuristic { greedy, depth } => {
            let mut looks = 0u64;
            play_out(state, rng, |state, rng, _| {
                if pacer.tick() {
                    return PolicyStep::Abandon;
                }
                if !rand::Rng::gen_bool(rng, greedy.clamp(0.0, 1.0)) || looks >= PLAYOUT_LOOKS {
                    return PolicyStep::Play(state.random_move(rng, &mut scratch.moves));
                }
                let (mv, spent) = shallow_best_within(
                    state,
                    eval,
                    depth,
                    &mut scratch.moves,
                    &mut scratch.replies,
                    pacer,
                    DECISION_LOOKS,
                );
                looks += spent;
                match mv {
                    Some(mv) => PolicyStep::Play(mv),
                    None if pacer.stopped() => PolicyStep::Abandon,
                    None => PolicyStep::End,
                }
            })
        }
    }
}

/// The move a depth-1 or depth-2 search prefers for the seat to move,
/// without a table, comparing positions by `eval`: the heuristic policy of
/// playouts. `buf` and `scratch` are reusable move buffers. Ticks `pacer`
/// once per move looked at, and gives up (`None`) when it says stop.
///
/// Looks within about `cap` looks (a move listed or a position evaluated:
/// on a wide board both cost a path search or more; `u64::MAX` for no
/// cap), and returns the looks it took with the move. Depth 1 looks at
/// every move. Depth 2 does too where every move's replies fit in `cap`
/// (taking the moves' count for the replies'); else it ranks the moves
/// by depth 1 and looks at the replies of the best ranked first, as many
/// as fit in `cap` (one at least), choosing among those. Ties go to the move generated first,
/// either way.
pub fn shallow_best_within<G: Game>(
    state: &G,
    eval: &G::Eval,
    depth: u32,
    buf: &mut Vec<G::Move>,
    scratch: &mut Vec<G::Move>,
    pacer: &mut Pacer,
    cap: u64,
) -> (Option<G::Move>, u64) {
    let Turn::Player(me) = state.turn() else {
        return (None, 0);
    };
    state.legal_moves(buf);
    let moves = buf.len() as u64;
    let mut looks = moves;
    let mut best: Option<(G::Move, f64)> = None;
    let whole = moves.saturating_add(moves.saturating_mul(moves).saturating_mul(2));
    if depth < 2 || whole <= cap {
        for &mv in buf.iter() {
            if pacer.tick() {
                return (None, looks);
            }
            let mut child = state.clone();
            child.apply(mv);
            looks += 1;
            let value = if depth >= 2 && !child.at_horizon() {
                let (value, replies) = reply_value(&child, eval, me, scratch);
                looks += replies;
                value
            } else {
                one_ply_value(&child, eval, me)
            };
            if best.is_none_or(|(_, v)| value > v) {
                best = Some((mv, value));
            }
        }
        return (best.map(|(mv, _)| mv), looks);
    }
    // Too wide for every reply: rank by depth 1, then look deeper at the
    // best ranked while the looks last.
    let mut ranked = Vec::with_capacity(buf.len());
    for (i, &mv) in buf.iter().enumerate() {
        if pacer.tick() {
            return (None, looks);
        }
        let mut child = state.clone();
        child.apply(mv);
        looks += 1;
        ranked.push((one_ply_value(&child, eval, me), i));
    }
    // Stable: equal values keep generation order.
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut chosen: Option<(usize, f64)> = None;
    for (refined, &(shallow, i)) in ranked.iter().enumerate() {
        if refined > 0 && looks >= cap {
            break;
        }
        if pacer.tick() {
            return (None, looks);
        }
        let mut child = state.clone();
        child.apply(buf[i]);
        let value = if child.at_horizon() {
            shallow
        } else {
            let (value, replies) = reply_value(&child, eval, me, scratch);
            looks += replies;
            value
        };
        if chosen.is_none_or(|(j, v)| value > v || (value == v && i < j)) {
            chosen = Some((i, value));
        }
    }
    (chosen.map(|(i, _)| buf[i]), looks)
}

/// The value for `me` of `state` after the opponent's best reply (the
/// opponent minimises `me`'s evaluation), and the looks it took (the
/// replies listed and evaluated).
fn reply_value<G: Game>(
    state: &G,
    eval: &G::Eval,
    me: Seat,
    scratch: &mut Vec<G::Move>,
) -> (f64, u64) {
    match state.turn() {
        Turn::Player(p) if p != me => {}
        _ => return (eval.evaluate(state, me), 1),
    }
    state.legal_moves(scratch);
    let mut worst = f64::INFINITY;
    for &mv in scratch.iter() {
        let mut child = state.clone();
        child.apply(mv);
        worst = worst.min(one_ply_value(&child, eval, me));
    }
    (worst, 2 * scratch.len() as u64)
}

/// A position's value for `me` one ply down, as the shallow choice
/// compares them: a finished game's reward mapped to [-2, 2], else the
/// evaluation.
fn one_ply_value<G: Game>(state: &G, eval: &G::Eval, me: Seat) -> f64 {
    if state.at_horizon() {
        state.reward(me) * 4.0 - 2.0
    } else {
        eval.evaluate(state, me)
    }
}
