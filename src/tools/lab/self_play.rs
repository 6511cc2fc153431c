//! The self-play games of the lab: seeded games from varied openings (2
//! to 20 random plies, then a 2-ply search with the square table and a
//! little noise, 5% random moves), their positions with a move kept and
//! the solvable ones labelled by the exact solver. `train-othello`
//! generates its data from them ([`super::othello_train`]) and
//! `label-othello` adds their positions to its list
//! ([`super::othello_label`]).

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::control::Control;
use crate::games::othello::bitboard::{final_margin, moves, play, squares};
use crate::games::othello::endgame::solve_exact;
use crate::games::othello::eval::square_score;
use crate::games::othello::pattern;

/// A position (side to move `p`) and its exact margin if solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// Discs of the side to move.
    pub p: u64,
    /// Discs of the other side.
    pub o: u64,
    /// The exact final margin for the side to move, or [`UNLABELLED`].
    pub label: i8,
}

/// The label of a position not solved.
pub const UNLABELLED: i8 = i8::MIN;

/// The pattern module's stage of a record (for tests and reports).
pub fn record_stage(r: &Record) -> usize {
    pattern::stage_of((r.p | r.o).count_ones())
}

/// The table evaluation in table units (the self-play player).
fn table_value(p: u64, o: u64) -> i32 {
    square_score(p, o) + 8 * (moves(p, o).count_ones() as i32 - moves(o, p).count_ones() as i32)
}

/// What the side to move (`p`) can do: the lab's searches and games all
/// branch on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToMove {
    /// Play one of these squares (a bit each).
    Moves(u64),
    /// Pass: it has no move, the other side has.
    Pass,
    /// Nothing: neither side has a move, the game is over.
    Over,
}

/// [`ToMove`] for `p` to move against `o`.
pub fn to_move(p: u64, o: u64) -> ToMove {
    match moves(p, o) {
        0 if moves(o, p) == 0 => ToMove::Over,
        0 => ToMove::Pass,
        pm => ToMove::Moves(pm),
    }
}

fn table_negamax(p: u64, o: u64, depth: u32) -> i32 {
    let pm = match to_move(p, o) {
        ToMove::Moves(pm) => pm,
        ToMove::Pass => return -table_negamax(o, p, depth),
        ToMove::Over => return 1000 * final_margin(p, o),
    };
    if depth == 0 {
        return table_value(p, o);
    }
    let mut best = i32::MIN;
    for sq in squares(pm) {
        let (np, no) = play(p, o, sq);
        best = best.max(-table_negamax(np, no, depth - 1));
    }
    best
}

/// One seeded self-play game: its positions with a move, the solvable
/// ones labelled.
pub fn self_play(seed: u64, index: u64, solve_empties: u32) -> Vec<Record> {
    let mut rng = SmallRng::seed_from_u64(seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let random_plies = rng.gen_range(2..=20);
    let (mut p, mut o) = ((1u64 << 28) | (1 << 35), (1u64 << 27) | (1 << 36));
    let mut recs = Vec::new();
    let mut ply = 0;
    loop {
        let pm = match to_move(p, o) {
            ToMove::Moves(pm) => pm,
            ToMove::Pass => {
                (p, o) = (o, p);
                continue;
            }
            ToMove::Over => break,
        };
        recs.push(Record {
            p,
            o,
            label: UNLABELLED,
        });
        let n = pm.count_ones();
        let pick = |k: u32| {
            let mut m = pm;
            for _ in 0..k {
                m &= m - 1;
            }
            m.trailing_zeros()
        };
        let sq = if ply < random_plies || rng.gen_bool(0.05) {
            pick(rng.gen_range(0..n))
        } else {
            let mut best = (i32::MIN, 0);
            for sq in squares(pm) {
                let (np, no) = play(p, o, sq);
                let v = -table_negamax(np, no, 1) + rng.gen_range(-6..=6);
                if v > best.0 {
                    best = (v, sq);
                }
            }
            best.1
        };
        (p, o) = play(p, o, sq);
        ply += 1;
    }
    let control = Control::unlimited();
    for r in &mut recs {
        if (!(r.p | r.o)).count_ones() <= solve_empties
            && let Some((_, score, _)) = solve_exact(r.p, r.o, &control, 1 << 20)
        {
            r.label = score as i8;
        }
    }
    recs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn to_move_tells_a_pass_from_the_end() {
        let (p, o) = ((1u64 << 28) | (1 << 35), (1u64 << 27) | (1 << 36));
        assert_eq!(to_move(p, o), ToMove::Moves(moves(p, o)));
        // Squares 0 and 1 side by side on an edge: the owner of 0 takes 1
        // by playing 2; the owner of 1 cannot flank 0, so it passes.
        assert_eq!(to_move(1, 2), ToMove::Moves(1 << 2));
        assert_eq!(to_move(2, 1), ToMove::Pass);
        // Discs of one colour only: no one has a move.
        assert_eq!(to_move(1 | 2, 0), ToMove::Over);
    }

    #[test]
    fn self_play_is_reproducible_and_labels_the_end() {
        let a = self_play(5, 3, 10);
        let b = self_play(5, 3, 10);
        assert_eq!(a, b);
        assert!(a.len() > 40);
        let solved: Vec<_> = a.iter().filter(|r| r.label != UNLABELLED).collect();
        assert!(!solved.is_empty());
        assert!(
            solved
                .iter()
                .all(|r| (!(r.p | r.o)).count_ones() <= 10 && record_stage(r) >= 12)
        );
        assert_ne!(self_play(5, 4, 10), a);
    }
}
