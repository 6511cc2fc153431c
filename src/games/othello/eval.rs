//! Static evaluation: a square-weight table plus mobility, as in the seed
//! dissertation (`V(S) = sum w[i,j] s[i,j] + mobility`).
//!
//! The table is the usual hand-made one: corners are gold, the squares next
//! to them (C and X squares) give corners away, edges are good.

use super::bitboard::{final_margin, moves};

/// Square weights, a1..h8 row by row (the table is symmetric).
pub const WEIGHTS: [i32; 64] = [
    100, -20, 10, 5, 5, 10, -20, 100, //
    -20, -50, -2, -2, -2, -2, -50, -20, //
    10, -2, -1, -1, -1, -1, -2, 10, //
    5, -2, -1, -1, -1, -1, -2, 5, //
    5, -2, -1, -1, -1, -1, -2, 5, //
    10, -2, -1, -1, -1, -1, -2, 10, //
    -20, -50, -2, -2, -2, -2, -50, -20, //
    100, -20, 10, 5, 5, 10, -20, 100, //
];

/// The table as (weight, mask of squares with that weight), so a board is
/// scored with a few popcounts instead of a loop over 64 squares.
const GROUPS: [(i32, u64); 7] = build_groups();

const fn build_groups() -> [(i32, u64); 7] {
    let values = [100, -20, -50, 10, 5, -2, -1];
    let mut groups = [(0i32, 0u64); 7];
    let mut g = 0;
    while g < 7 {
        let mut mask = 0u64;
        let mut sq = 0;
        while sq < 64 {
            if WEIGHTS[sq] == values[g] {
                mask |= 1 << sq;
            }
            sq += 1;
        }
        groups[g] = (values[g], mask);
        g += 1;
    }
    groups
}

/// Points per move of mobility advantage, in table units.
const MOBILITY_WEIGHT: i32 = 8;
/// Table units mapped to 1.0 before clamping.
const SCALE: f64 = 400.0;

/// Square-weight sum of `p` minus that of `o`.
#[inline]
pub fn square_score(p: u64, o: u64) -> i32 {
    GROUPS
        .iter()
        .map(|&(w, m)| w * ((p & m).count_ones() as i32 - (o & m).count_ones() as i32))
        .sum()
}

/// The evaluation for the owner of `p` (to move, with `p_moves` its legal
/// moves already known), in `[-1, 1]`. A finished game is scored exactly:
/// 1 win, 0 draw, -1 loss.
#[inline]
pub fn evaluate(p: u64, o: u64, p_moves: u64) -> f64 {
    let o_moves = moves(o, p);
    if p_moves | o_moves == 0 {
        return final_margin(p, o).signum() as f64;
    }
    let mob = p_moves.count_ones() as i32 - o_moves.count_ones() as i32;
    let raw = square_score(p, o) + MOBILITY_WEIGHT * mob;
    // Keep clear of +-1, which means a won or lost game.
    (raw as f64 / SCALE).clamp(-0.95, 0.95)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_cover_every_square_once() {
        let all = GROUPS.iter().fold(0u64, |acc, &(_, m)| {
            assert_eq!(acc & m, 0);
            acc | m
        });
        assert_eq!(all, !0);
        let full: i32 = WEIGHTS.iter().sum();
        assert_eq!(square_score(!0, 0), full);
    }
}
