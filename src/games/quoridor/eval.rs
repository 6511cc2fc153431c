//! The evaluation: a race to the goal sides.
//!
//! Each pawn's shortest path (ignoring pawns) and the turn order give the
//! ply at which it would arrive if nobody placed another wall
//! ([`arrival`]). The seat's lead is how many plies before its nearest
//! rival it would arrive; walls in hand are worth a fraction of a step
//! each (they can lengthen a rival's path later). The lead and the walls
//! are squashed smoothly (never clamped, so one step more is always
//! better) into `(-0.85, 0.85)`.
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
use crate::game::Seat;

/// The value of a wall in hand, in steps. At 1 a wall the rival places
/// must gain more than a step to look good to it; at 0.5, alpha-beta at
/// depths 2 and 3 kept its pawn off a short corridor for fear of walls the
/// rival never had to spend. Alpha-beta round robins (depth 2: 0.5, 1,
/// 1.5 and 2.5, 40 games a pairing, then 1, 2 and 3, 60; depth 3: 1, 2
/// and 3, 30) put 1 to 2 level and 0.5, 2.5 and 3 behind. At 3 it would
/// walk through a corridor against a rival who hoards its walls (issue
/// 19's walker), but it loses 100-180 Elo in self-play.
const WALL_STEPS: f64 = 1.0;
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

/// The evaluation of a game in progress for `me`, in `(-1, 1)`.
pub(super) fn evaluate<const P: usize>(q: &QuoridorGame<P>, me: Seat) -> f64 {
    let d = q.distances();
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
    let theirs = (0..P)
        .filter(|&s| s != me)
        .map(|s| f64::from(q.walls_left[s]))
        .sum::<f64>()
        / (P - 1) as f64;
    let walls = f64::from(q.walls_left[me]) - theirs;
    let x = lead + WALL_STEPS * walls;
    OPEN_MAX * (x / SQUASH_STEPS).tanh()
}
