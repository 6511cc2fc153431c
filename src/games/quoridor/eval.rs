//! The evaluation: a race to the goal sides.
//!
//! Each pawn's shortest path (ignoring pawns) and the turn order give the
//! ply at which it would arrive if nobody placed another wall
//! ([`arrival`]). The seat's lead is how many plies before its nearest
//! rival it would arrive; walls in hand are worth a fraction of a step
//! each (they can lengthen a rival's path later). Two players: a route
//! that one rival wall could still make much longer ([`threat`]: a
//! corridor that one wall closes, placed when the pawn is deep inside)
//! counts against its pawn, so that a wall protecting it is worth playing
//! and waiting outside it is not. The lead, the walls and the threats are
//! squashed smoothly (never clamped, so one step more is always better)
//! into `(-0.85, 0.85)`.
//!
//! A race that can no longer be stopped is scored apart, as a win (or a
//! loss) in a number of plies: when no other seat has a wall in hand and
//! the leader arrives more than a full round of plies before everyone
//! else (a jump over a pawn saves at most one step), the leader's value is
//! in `(0.9, 1)` and falls with the plies it still needs, and the others'
//! is its negative. A search maximising it takes the fastest win and, when
//! lost, the slowest loss, instead of shuffling between moves that all
//! look won.

use super::QuoridorGame;
use super::board::Levels;
use crate::model::game::Seat;

/// The value of a wall in hand, in steps. At 1 a wall the rival places
/// must gain more than a step to look good to it; at 0.5, alpha-beta at
/// depths 2 and 3 kept its pawn off a short corridor for fear of walls the
/// rival never had to spend. Alpha-beta round robins (depth 2: 0.5, 1,
/// 1.5 and 2.5, 40 games a pairing, then 1, 2 and 3, 60; depth 3: 1, 2
/// and 3, 30) put 1 to 2 level and 0.5, 2.5 and 3 behind. At 3 it would
/// walk through a corridor against a rival who hoards its walls (issue
/// 19's walker), but it loses 100-180 Elo in self-play.
const WALL_STEPS: f64 = 1.0;
/// The most a threatened route costs a pawn whose owner still holds a
/// wall: it can protect the route (a wall, a move, and what the protected
/// route may still lose). From issue 19's position against a walker that
/// never places its walls, alpha-beta at depths 1 to 5: at 2 depths 2 and
/// 3 took the west route (`e6`), at 3 depths 2 to 4 waited on f7/f6
/// (depth 4 until the walker won), at 6 and uncapped some depths spent
/// walls first (uncapped, depth 5 was not home in 20 moves); at 4 every
/// depth wins, most after protecting the corridor with `h1v`. Half the
/// threat (capped at 4 or 6, or not) took the west route at three depths.
const DEFEND_STEPS: f64 = 4.0;
/// The lead (in steps) at which the squashed value reaches about 0.65.
const SQUASH_STEPS: f64 = 6.0;
/// The largest value of a race that is not decided.
const OPEN_MAX: f64 = 0.85;

/// The ply (counted from now, the current mover's move being ply 1) at
/// which `seat`'s pawn would arrive, `distance` steps from its goal, with
/// `to_move` to move among `P` players taking turns in seat order; 0 for a
/// pawn already there.
pub(super) fn arrival<const P: usize>(distance: u32, seat: Seat, to_move: Seat) -> u32 {
    if distance == 0 {
        return 0;
    }
    let wait = ((seat + P - to_move % P) % P) as u32;
    (distance - 1) * P as u32 + wait + 1
}

/// The value of a race decided in `plies`, for the winner: in `(0.9, 1)`,
/// falling as `plies` grows.
pub(super) fn decided(plies: u32) -> f64 {
    0.9 + 0.099 * 100.0 / (100.0 + f64::from(plies))
}

/// Walls in the others' hands up to which a won race is looked for (a
/// start square has four exits, so more than four paths no wall pair can
/// cut are rare).
const WALLS_BOUNDED: u32 = 3;

/// Whether `leader`, first to arrive by `arr`, has a race nobody can stop:
/// its pawn still arrives before every other even if they place all their
/// walls in hand against it now. With `k` walls among the others, the
/// bound on its path is the `k + 1`-th of its paths that no one wall cuts
/// two of (`Walls::wall_disjoint_lengths`); the others get no credit for
/// the turns their walls cost them, which leaves room for walls placed
/// later on a path the pawn has started along. A jump over the leader
/// saves a rival at most one step: a round of plies of margin while the
/// pawns can still meet (two players: until they have passed each other).
fn unstoppable<const P: usize>(
    q: &QuoridorGame<P>,
    d: &[u32; P],
    arr: &[u32; P],
    leader: Seat,
) -> bool {
    let runner_up = (0..P)
        .filter(|&s| s != leader)
        .map(|s| arr[s])
        .min()
        .unwrap_or(u32::MAX);
    let slack = if q.jumps && (P > 2 || q.pawn_row(0) <= q.pawn_row(1)) {
        P as u32
    } else {
        0
    };
    let to_move = usize::from(q.to_move);
    let fits = |steps: u32| arrival::<P>(steps, leader, to_move) + slack < runner_up;
    if !fits(d[leader]) {
        return false;
    }
    let walls = (0..P)
        .filter(|&s| s != leader)
        .map(|s| u32::from(q.walls_left[s]))
        .sum::<u32>();
    if walls == 0 {
        return true;
    }
    if walls > WALLS_BOUNDED {
        return false;
    }
    let mut lengths = [0u32; WALLS_BOUNDED as usize + 1];
    let need = walls as usize + 1;
    q.wall_disjoint_lengths(leader, &mut lengths[..need]) == need && fits(lengths[need - 1])
}

/// The steps a threatened route costs `seat`'s pawn (two players): the
/// worst single wall the rival could still place against it, at the worst
/// moment, less the step the wall in hand was worth to the rival; at most
/// [`DEFEND_STEPS`] while `seat` holds a wall of its own to protect the
/// route with.
fn threat<const P: usize>(q: &QuoridorGame<P>, seat: Seat, levels: &[Levels; 2]) -> f64 {
    let rival = 1 - seat;
    if q.walls_left[rival] == 0 {
        return 0.0;
    }
    let defends = q.walls_left[seat] > 0;
    // Past the cap the exact exposure does not matter.
    let enough = if defends {
        (DEFEND_STEPS + WALL_STEPS).ceil() as u32
    } else {
        u32::MAX
    };
    let exposure = q.route_exposure(seat, &levels[seat], rival, &levels[rival], enough);
    let steps = (f64::from(exposure) - WALL_STEPS).max(0.0);
    if defends {
        steps.min(DEFEND_STEPS)
    } else {
        steps
    }
}

/// The evaluation of a game in progress for `me`, in `(-1, 1)`.
pub(super) fn evaluate<const P: usize>(q: &QuoridorGame<P>, me: Seat) -> f64 {
    // Two players with a wall in hand: the threats against each route
    // need each pawn's distance levels, whose depth is its distance, so
    // the distances are not searched for again (four: not priced).
    let levels = if P == 2 && q.walls_left.iter().any(|&w| w > 0) {
        match (q.levels(0), q.levels(1)) {
            (Some(a), Some(b)) => Some([a, b]),
            _ => None,
        }
    } else {
        None
    };
    let d: [u32; P] = match &levels {
        Some(l) => std::array::from_fn(|s| l[s].top as u32),
        None => q.distances(),
    };
    let to_move = usize::from(q.to_move);
    let arr: [u32; P] = std::array::from_fn(|s| arrival::<P>(d[s], s, to_move));
    let leader = (0..P).min_by_key(|&s| arr[s]).unwrap_or(0);
    if unstoppable(q, &d, &arr, leader) {
        let v = decided(arr[leader]);
        return if leader == me { v } else { -v };
    }
    let rival = (0..P)
        .filter(|&s| s != me)
        .min_by_key(|&s| arr[s])
        .unwrap_or(0);
    let lead = (f64::from(arr[rival]) - f64::from(arr[me])) / P as f64;
    let lead = match &levels {
        Some(levels) => lead + threat(q, rival, levels) - threat(q, me, levels),
        None => lead,
    };
    let theirs = (0..P)
        .filter(|&s| s != me)
        .map(|s| f64::from(q.walls_left[s]))
        .sum::<f64>()
        / (P - 1) as f64;
    let walls = f64::from(q.walls_left[me]) - theirs;
    let x = lead + WALL_STEPS * walls;
    OPEN_MAX * (x / SQUASH_STEPS).tanh()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::game::Game;
    use crate::model::options::Options;

    /// Issue 19's walls: p1 boxed in at e-f 2-5, p2's shortest way down
    /// the g column to h1, the only way to row 1 east of the box.
    const WALLS: &str = "f1h d3h c5h e5h d2v f2v d4v f4v";

    fn state(position: &str) -> QuoridorGame<2> {
        let options = Options::parse(QuoridorGame::<2>::OPTIONS, &["players=2"]).expect("options");
        let mut g = QuoridorGame::<2>::new_game(&options).expect("game");
        g.set_position(position).expect("position");
        g
    }

    #[test]
    fn a_corridor_one_wall_closes_is_exposed_all_along() {
        // h1h, placed when p2 stands on h2, sends it back round the box:
        // 15 steps instead of 1, wherever p2 is on the way.
        let exposure = |g: &QuoridorGame<2>| {
            let levels = [0, 1].map(|s| g.levels(s).expect("a path"));
            g.route_exposure(1, &levels[1], 0, &levels[0], u32::MAX)
        };
        for square in ["f6", "g6", "g4", "g2"] {
            let g = state(&format!("f5 {square} 8 4 p1 {WALLS}"));
            assert_eq!(exposure(&g), 14, "{square}");
        }
        // p2's own h1v crosses h1h's anchor: the h1-h2 edge can no longer
        // be closed, and the worst wall left costs 2.
        let g = state(&format!("f5 g6 8 3 p1 {WALLS} h1v"));
        assert_eq!(exposure(&g), 2);
    }

    #[test]
    fn the_protecting_wall_is_worth_more_than_a_step_into_the_trap() {
        // p2 to move in issue 19's position: after h1v its route is safe,
        // after g6 one wall of p1's (h1h) costs it four steps.
        let start = state(&format!("f5 f6 8 4 p2 {WALLS}"));
        let after = |mv: &str| {
            let mut g = start.clone();
            g.apply(g.parse_move(mv).expect("legal"));
            g.evaluate(1)
        };
        assert!(after("h1v") > after("g6"));
        assert!(after("h1v") > after("e6"));
        // With no wall left to protect it, the whole threat counts.
        let broke = state(&format!("f5 g6 8 0 p1 {WALLS}"));
        let safe = state(&format!("f5 g6 0 0 p1 {WALLS}"));
        let levels = |g: &QuoridorGame<2>| [0, 1].map(|s| g.levels(s).expect("a path"));
        assert!(threat(&broke, 1, &levels(&broke)) > DEFEND_STEPS);
        assert_eq!(threat(&safe, 1, &levels(&safe)), 0.0);
    }
}
