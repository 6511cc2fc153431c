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

/// A board held in vectors: each bitboard broadcast to all four lanes, so
/// a ply goes from flips to the next move generation without leaving the
/// vector registers (a round trip through a general register costs more
/// than the arithmetic).
#[derive(Clone, Copy)]
struct LaneBoard {
    /// Discs of the side to move.
    me: __m256i,
    /// Discs of the other side.
    opp: __m256i,
}

impl LaneBoard {
    #[inline]
    #[target_feature(enable = "avx2,bmi2,popcnt,lzcnt")]
    fn new(me: u64, opp: u64) -> LaneBoard {
        LaneBoard {
            me: _mm256_set1_epi64x(me as i64),
            opp: _mm256_set1_epi64x(opp as i64),
        }
    }

    #[inline]
    #[target_feature(enable = "avx2,bmi2,popcnt,lzcnt")]
    fn bitboards(self) -> (u64, u64) {
        (low_lane(self.me), low_lane(self.opp))
    }

    /// The legal moves of the side to move.
    #[inline]
    #[target_feature(enable = "avx2,bmi2,popcnt,lzcnt")]
    fn moves(self) -> u64 {
        let (l, r) = runs(self.me, self.opp);
        let (s, _) = shifts();
        let m = _mm256_or_si256(_mm256_sllv_epi64(l, s), _mm256_srlv_epi64(r, s));
        let empty_moves = _mm256_andnot_si256(_mm256_or_si256(self.me, self.opp), m);
        low_lane(or_lanes(empty_moves))
    }

    /// The discs flipped by a move on the square whose bit, broadcast, is
    /// `bit`; broadcast too.
    #[inline]
    #[target_feature(enable = "avx2,bmi2,popcnt,lzcnt")]
    fn flips(self, bit: __m256i) -> __m256i {
        let (l, r) = runs(bit, self.opp);
        // A run flips when the square just past it is ours.
        let (s, _) = shifts();
        let zero = _mm256_setzero_si256();
        let l_open = _mm256_cmpeq_epi64(_mm256_and_si256(_mm256_sllv_epi64(l, s), self.me), zero);
        let r_open = _mm256_cmpeq_epi64(_mm256_and_si256(_mm256_srlv_epi64(r, s), self.me), zero);
        or_lanes(_mm256_or_si256(
            _mm256_andnot_si256(l_open, l),
            _mm256_andnot_si256(r_open, r),
        ))
    }

    /// The board after the side to move plays the square `sq`, from the
    /// other side's point of view.
    #[inline]
    #[target_feature(enable = "avx2,bmi2,popcnt,lzcnt")]
    fn play(self, sq: u32) -> LaneBoard {
        let bit = _mm256_set1_epi64x((1u64 << (sq & 63)) as i64);
        let f = self.flips(bit);
        LaneBoard {
            me: _mm256_xor_si256(self.opp, f),
            opp: _mm256_or_si256(_mm256_or_si256(self.me, f), bit),
        }
    }

    /// The board with the other side to move.
    #[inline]
    fn pass(self) -> LaneBoard {
        LaneBoard {
            me: self.opp,
            opp: self.me,
        }
    }
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

/// For each of the eight directions, the run of discs of `opp` (all
/// lanes equal) that starts next to a square of `from` and goes on in that
/// direction: lanes of `l` for the four directions of left shifts, `r` for
/// the other four. Opponent discs on the a- and h-files are left out of
/// the lines that would wrap. A run is grown one step, then two steps at a
/// time (it holds at most six discs).
#[inline]
#[target_feature(enable = "avx2,bmi2,popcnt,lzcnt")]
fn runs(from: __m256i, opp: __m256i) -> (__m256i, __m256i) {
    let (s, s2) = shifts();
    let inner = INNER_COLS as i64;
    let om = _mm256_and_si256(opp, _mm256_set_epi64x(inner, inner, -1, inner));
    let mut l = _mm256_and_si256(om, _mm256_sllv_epi64(from, s));
    let mut r = _mm256_and_si256(om, _mm256_srlv_epi64(from, s));
    l = _mm256_or_si256(l, _mm256_and_si256(om, _mm256_sllv_epi64(l, s)));
    r = _mm256_or_si256(r, _mm256_and_si256(om, _mm256_srlv_epi64(r, s)));
    let pl = _mm256_and_si256(om, _mm256_sllv_epi64(om, s));
    let pr = _mm256_and_si256(om, _mm256_srlv_epi64(om, s));
    l = _mm256_or_si256(l, _mm256_and_si256(pl, _mm256_sllv_epi64(l, s2)));
    r = _mm256_or_si256(r, _mm256_and_si256(pr, _mm256_srlv_epi64(r, s2)));
    l = _mm256_or_si256(l, _mm256_and_si256(pl, _mm256_sllv_epi64(l, s2)));
    r = _mm256_or_si256(r, _mm256_and_si256(pr, _mm256_srlv_epi64(r, s2)));
    (l, r)
}

/// The first lane.
#[inline]
#[target_feature(enable = "avx2,bmi2,popcnt,lzcnt")]
fn low_lane(v: __m256i) -> u64 {
    _mm_cvtsi128_si64(_mm256_castsi256_si128(v)) as u64
}

/// The OR of the four lanes, in every lane.
#[inline]
#[target_feature(enable = "avx2,bmi2,popcnt,lzcnt")]
fn or_lanes(v: __m256i) -> __m256i {
    let v = _mm256_or_si256(v, _mm256_permute2x128_si256::<0x01>(v, v));
    _mm256_or_si256(v, _mm256_shuffle_epi32::<0x4e>(v))
}

/// The squares where the owner of `p` may play against `o`
/// (as [`super::bitboard::moves`]).
///
/// # Safety
/// Only where [`available`] holds.
#[inline]
#[target_feature(enable = "avx2,bmi2,popcnt,lzcnt")]
pub fn moves(p: u64, o: u64) -> u64 {
    LaneBoard::new(p, o).moves()
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
    let bit = _mm256_set1_epi64x((1u64 << (sq & 63)) as i64);
    low_lane(LaneBoard::new(p, o).flips(bit))
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
    let board = LaneBoard::new(me, opp);
    let next = if mv < 64 {
        board.play(mv)
    } else {
        board.pass()
    };
    let (me, opp) = next.bitboards();
    (me, opp, next.moves())
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
    me: u64,
    opp: u64,
    mut mobility: u64,
    mut pick: impl FnMut(u32) -> u32,
) -> (u64, u64, u64, u32) {
    let mut board = LaneBoard::new(me, opp);
    let mut plies = 0;
    loop {
        if mobility == 0 {
            let theirs = board.pass().moves();
            if theirs == 0 {
                let (me, opp) = board.bitboards();
                return (me, opp, 0, plies);
            }
            board = board.pass();
            mobility = theirs;
            plies += 1;
            continue;
        }
        board = board.play(nth_bit(mobility, pick(mobility.count_ones())));
        mobility = board.moves();
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
        use crate::model::game::{Game, Rng, play_randomly};
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
