//! AVX2 and BMI2 kernels for x86-64: move generation, flips and a whole
//! random playout, four directions per vector instruction.
//!
//! The scalar code in [`super::bitboard`] stays the reference and the
//! fallback: [`available`] says at run time whether these kernels may be
//! called, and the tests check them against it. Both paths draw the same
//! random numbers and pick the same moves, so a seed gives the same game
//! on any x86-64 machine.
//!
//! Lanes hold the directions (column step, row step) with square shifts
//! `1, 8, 9, 7`: shifting left walks east, south, south-east, south-west;
//! shifting right walks the opposite four.

#![cfg(target_arch = "x86_64")]

use std::arch::x86_64::*;

use super::bitboard::INNER_COLS;

/// Whether the CPU runs AVX2, BMI2, POPCNT and LZCNT (cached by the
/// standard library after the first call). Every function here is
/// compiled for them and may only be called when this holds.
#[inline]
pub fn available() -> bool {
    is_x86_feature_detected!("avx2")
        && is_x86_feature_detected!("bmi2")
        && is_x86_feature_detected!("popcnt")
        && is_x86_feature_detected!("lzcnt")
}

/// The shift of each lane, and twice it.
#[inline]
#[target_feature(enable = "avx2,bmi2,popcnt,lzcnt")]
fn shifts() -> (__m256i, __m256i) {
    (
        _mm256_set_epi64x(7, 9, 8, 1),
        _mm256_set_epi64x(14, 18, 16, 2),
    )
}

/// Opponent discs a line in each lane's direction may run through without
/// wrapping across the a- or h-file.
#[inline]
#[target_feature(enable = "avx2,bmi2,popcnt,lzcnt")]
fn lane_masks(o: u64) -> __m256i {
    let inner = (o & INNER_COLS) as i64;
    _mm256_set_epi64x(inner, inner, o as i64, inner)
}

#[inline]
#[target_feature(enable = "avx2,bmi2,popcnt,lzcnt")]
fn or_lanes(v: __m256i) -> u64 {
    let h = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
    let h = _mm_or_si128(h, _mm_unpackhi_epi64(h, h));
    _mm_cvtsi128_si64(h) as u64
}

/// The squares where the owner of `p` may play against `o`
/// (as [`super::bitboard::moves`]).
///
/// # Safety
/// Only where [`available`] holds.
#[inline]
#[target_feature(enable = "avx2,bmi2,popcnt,lzcnt")]
pub fn moves(p: u64, o: u64) -> u64 {
    let (s, s2) = shifts();
    let om = lane_masks(o);
    let pv = _mm256_set1_epi64x(p as i64);
    // Runs of opponent discs next to `p`, grown one step, then two steps
    // at a time (a run holds at most six discs); then one square beyond.
    let mut l = _mm256_and_si256(om, _mm256_sllv_epi64(pv, s));
    let mut r = _mm256_and_si256(om, _mm256_srlv_epi64(pv, s));
    l = _mm256_or_si256(l, _mm256_and_si256(om, _mm256_sllv_epi64(l, s)));
    r = _mm256_or_si256(r, _mm256_and_si256(om, _mm256_srlv_epi64(r, s)));
    let pl = _mm256_and_si256(om, _mm256_sllv_epi64(om, s));
    let pr = _mm256_and_si256(om, _mm256_srlv_epi64(om, s));
    l = _mm256_or_si256(l, _mm256_and_si256(pl, _mm256_sllv_epi64(l, s2)));
    r = _mm256_or_si256(r, _mm256_and_si256(pr, _mm256_srlv_epi64(r, s2)));
    l = _mm256_or_si256(l, _mm256_and_si256(pl, _mm256_sllv_epi64(l, s2)));
    r = _mm256_or_si256(r, _mm256_and_si256(pr, _mm256_srlv_epi64(r, s2)));
    let m = _mm256_or_si256(_mm256_sllv_epi64(l, s), _mm256_srlv_epi64(r, s));
    or_lanes(m) & !(p | o)
}

/// The discs of `o` flipped when the owner of `p` plays on the empty
/// square `sq` (as [`super::bitboard::flips`]); zero if the move is not
/// legal.
///
/// # Safety
/// Only where [`available`] holds.
#[inline]
#[target_feature(enable = "avx2,bmi2,popcnt,lzcnt")]
pub fn flips(p: u64, o: u64, sq: usize) -> u64 {
    let (s, s2) = shifts();
    let om = lane_masks(o);
    let bit = _mm256_set1_epi64x((1u64 << (sq & 63)) as i64);
    let pv = _mm256_set1_epi64x(p as i64);
    // The run of opponent discs from the move square in each direction...
    let mut l = _mm256_and_si256(om, _mm256_sllv_epi64(bit, s));
    let mut r = _mm256_and_si256(om, _mm256_srlv_epi64(bit, s));
    l = _mm256_or_si256(l, _mm256_and_si256(om, _mm256_sllv_epi64(l, s)));
    r = _mm256_or_si256(r, _mm256_and_si256(om, _mm256_srlv_epi64(r, s)));
    let pl = _mm256_and_si256(om, _mm256_sllv_epi64(om, s));
    let pr = _mm256_and_si256(om, _mm256_srlv_epi64(om, s));
    l = _mm256_or_si256(l, _mm256_and_si256(pl, _mm256_sllv_epi64(l, s2)));
    r = _mm256_or_si256(r, _mm256_and_si256(pr, _mm256_srlv_epi64(r, s2)));
    l = _mm256_or_si256(l, _mm256_and_si256(pl, _mm256_sllv_epi64(l, s2)));
    r = _mm256_or_si256(r, _mm256_and_si256(pr, _mm256_srlv_epi64(r, s2)));
    // ...flips when the square just past it is ours.
    let zero = _mm256_setzero_si256();
    let l_open = _mm256_cmpeq_epi64(_mm256_and_si256(_mm256_sllv_epi64(l, s), pv), zero);
    let r_open = _mm256_cmpeq_epi64(_mm256_and_si256(_mm256_srlv_epi64(r, s), pv), zero);
    let f = _mm256_or_si256(
        _mm256_andnot_si256(l_open, l),
        _mm256_andnot_si256(r_open, r),
    );
    or_lanes(f)
}

/// The `n`-th (from 0) set bit of `m`, as a square; `m` must have more
/// than `n` bits set.
#[inline]
#[target_feature(enable = "avx2,bmi2,popcnt,lzcnt")]
fn nth_bit(m: u64, n: u32) -> u32 {
    _pdep_u64(1u64 << (n & 63), m).trailing_zeros()
}

/// The position after the owner of `me` plays `mv` (a legal square, or
/// any value `>= 64` to pass): `(me, opp, mobility)` of the side to move
/// next.
///
/// # Safety
/// Only where [`available`] holds.
#[inline]
#[target_feature(enable = "avx2,bmi2,popcnt,lzcnt")]
pub fn play(me: u64, opp: u64, mv: u32) -> (u64, u64, u64) {
    let (mine, theirs) = if mv < 64 {
        let f = flips(me, opp, mv as usize);
        (me | f | (1u64 << mv), opp ^ f)
    } else {
        (me, opp)
    };
    (theirs, mine, moves(theirs, mine))
}

/// Plays uniformly random moves from the position (`me` to move, with
/// mobility `mobility`) to the end of the game. Returns the final
/// `(me, opp, mobility, plies)`, plies counting passes (so the side to move
/// has changed if it is odd). `pick(count)` draws the index of the move
/// among `count` legal ones.
///
/// # Safety
/// Only where [`available`] holds.
#[target_feature(enable = "avx2,bmi2,popcnt,lzcnt")]
pub fn random_playout(
    mut me: u64,
    mut opp: u64,
    mut mobility: u64,
    mut pick: impl FnMut(u32) -> u32,
) -> (u64, u64, u64, u32) {
    let mut plies = 0;
    loop {
        if mobility == 0 {
            let theirs = moves(opp, me);
            if theirs == 0 {
                return (me, opp, 0, plies);
            }
            (me, opp, mobility) = (opp, me, theirs);
            plies += 1;
            continue;
        }
        let sq = nth_bit(mobility, pick(mobility.count_ones()));
        (me, opp, mobility) = play(me, opp, sq);
        plies += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::super::bitboard;
    use super::*;

    fn boards() -> impl Iterator<Item = (u64, u64)> {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        (0..20_000).map(move |_| {
            let (a, b, c) = (next(), next(), next());
            let p = a & !b & c;
            (p, b & !p)
        })
    }

    #[test]
    fn kernels_match_the_scalar_reference() {
        if !available() {
            eprintln!("no AVX2/BMI2 on this CPU: nothing to compare");
            return;
        }
        for (p, o) in boards() {
            assert_eq!(
                unsafe { moves(p, o) },
                bitboard::moves(p, o),
                "p={p:#x} o={o:#x}"
            );
            let mut empty = !(p | o);
            while empty != 0 {
                let sq = empty.trailing_zeros();
                empty &= empty - 1;
                assert_eq!(
                    unsafe { flips(p, o, sq as usize) },
                    bitboard::flips(p, o, sq as usize),
                    "p={p:#x} o={o:#x} sq={sq}"
                );
            }
            let m = p | o;
            for n in 0..m.count_ones() {
                let mut rest = m;
                for _ in 0..n {
                    rest &= rest - 1;
                }
                assert_eq!(unsafe { nth_bit(m, n) }, rest.trailing_zeros());
            }
        }
    }

    #[test]
    fn playouts_match_the_generic_loop_move_for_move() {
        use crate::game::{Game, Rng, play_randomly};
        use crate::games::othello::Othello;
        use rand::SeedableRng;
        if !available() {
            return;
        }
        let mut buf = Vec::new();
        for seed in 0..300 {
            let (mut fast, mut slow) = (Othello::start(), Othello::start());
            let fast_plies = fast.random_playout(&mut Rng::seed_from_u64(seed), &mut buf);
            let slow_plies = play_randomly(&mut slow, &mut Rng::seed_from_u64(seed), &mut buf);
            assert_eq!((fast, fast_plies), (slow, slow_plies), "seed {seed}");
            assert!(fast.is_over());
        }
    }
}
