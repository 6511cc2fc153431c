//! Othello bitboards: move generation and flips.
//!
//! Square `i` is bit `i`: a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63.
//! Moving one column right (towards h) is `+1`, one row down (towards 8) is
//! `+8`. Everything here works on a pair (`p`, `o`): the discs of the side to
//! move and of its opponent.

/// Every square but the a-file and h-file: opponent discs a horizontal or
/// diagonal line may run through without wrapping to the next row.
pub(super) const INNER_COLS: u64 = 0x7e7e_7e7e_7e7e_7e7e;

#[inline(always)]
fn shift(b: u64, s: i32) -> u64 {
    if s > 0 { b << s } else { b >> -s }
}

/// The squares where the side owning `p` may play against `o`.
///
/// Parallel fill per direction: the run of opponent discs adjacent to `p`
/// is grown one step, then two steps at a time (a run holds at most six
/// discs), and the square just past it is a move if it is empty.
#[inline]
pub fn moves(p: u64, o: u64) -> u64 {
    let empty = !(p | o);
    let mut m = 0;
    // Written out per shift so every shift amount is a constant.
    macro_rules! dir {
        ($s:expr, $s2:expr, $mask:expr) => {{
            let om = o & $mask;
            let mut f = om & shift(p, $s);
            f |= om & shift(f, $s);
            let pre = om & shift(om, $s);
            f |= pre & shift(f, $s2);
            f |= pre & shift(f, $s2);
            m |= shift(f, $s);
        }};
    }
    dir!(1, 2, INNER_COLS);
    dir!(-1, -2, INNER_COLS);
    dir!(8, 16, !0u64);
    dir!(-8, -16, !0u64);
    dir!(9, 18, INNER_COLS);
    dir!(-9, -18, INNER_COLS);
    dir!(7, 14, INNER_COLS);
    dir!(-7, -14, INNER_COLS);
    m & empty
}

/// The eight directions as (column step, row step), in the order of
/// [`RAYS`]'s second index: even ones go up in square index.
const STEPS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (-1, -1),
    (-1, 1),
    (1, -1),
];

/// `RAYS[sq][d]`: the squares strictly beyond `sq` in direction
/// [`STEPS`]`[d]`, up to the board edge.
static RAYS: [[u64; 8]; 64] = build_rays();

const fn build_rays() -> [[u64; 8]; 64] {
    let mut rays = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dc, dr) = STEPS[d];
            let mut c = (sq % 8) as i32 + dc;
            let mut r = (sq / 8) as i32 + dr;
            let mut ray = 0u64;
            while c >= 0 && c < 8 && r >= 0 && r < 8 {
                ray |= 1u64 << (r * 8 + c);
                c += dc;
                r += dr;
            }
            rays[sq][d] = ray;
            d += 1;
        }
        sq += 1;
    }
    rays
}

// The ray table and the direction list must agree on which way is which.
const _: () = {
    let r = build_rays();
    assert!(r[0][0] == 0xfe); // a1, +1: b1..h1
    assert!(r[0][4] & (1 << 9) != 0); // a1, +9: b2
    assert!(r[7][6] & (1 << 14) != 0); // h1, +7: g2
};

/// The discs of `o` flipped when the owner of `p` plays on `sq` (empty, in
/// `0..64`). Zero if the move is not legal.
///
/// Branch-free per direction: along the ray beyond `sq`, the nearest square
/// that is not an opponent disc closes the line; the discs before it flip
/// if it is one of ours.
#[inline]
pub fn flips(p: u64, o: u64, sq: usize) -> u64 {
    let rays = &RAYS[sq & 63];
    let mut f = 0;
    // Rays going up in index: the nearest blocker is the lowest set bit.
    for d in [0usize, 2, 4, 6] {
        let ray = rays[d];
        let block = !o & ray;
        let b = block & block.wrapping_neg();
        let between = b.wrapping_sub(1) & ray;
        f |= between & u64::from(b & p != 0).wrapping_neg();
    }
    // Rays going down in index: the nearest blocker is the highest set bit.
    for d in [1usize, 3, 5, 7] {
        let ray = rays[d];
        let block = !o & ray;
        let b = (1u64 << 63) >> (block | 1).leading_zeros();
        let between = (b.wrapping_neg() << 1) & ray;
        f |= between & u64::from(b & p & ray != 0).wrapping_neg();
    }
    f
}

/// The squares touching any square of `x` (excluding wraps across the
/// board edge); may include squares of `x` itself.
#[inline]
pub fn neighbours(x: u64) -> u64 {
    let not_a = !0x0101_0101_0101_0101u64;
    let not_h = !0x8080_8080_8080_8080u64;
    let east = ((x << 1) | (x << 9) | (x >> 7)) & not_a;
    let west = ((x >> 1) | (x >> 9) | (x << 7)) & not_h;
    east | west | (x << 8) | (x >> 8)
}

/// The four corners.
pub const CORNERS: u64 = 0x8100_0000_0000_0081;

/// The position after the owner of `p` plays `sq` (a legal move) against
/// `o`, seen from the other side: its discs, then the mover's.
#[inline]
pub fn play(p: u64, o: u64, sq: u32) -> (u64, u64) {
    let f = flips(p, o, sq as usize);
    (o ^ f, p | f | (1u64 << sq))
}

/// The squares of `bits` (a bit each), lowest first.
pub fn squares(bits: u64) -> impl Iterator<Item = u32> {
    let mut left = bits;
    std::iter::from_fn(move || {
        let sq = (left != 0).then(|| left.trailing_zeros())?;
        left &= left - 1;
        Some(sq)
    })
}

/// Final disc margin for the side owning `p`, with the empty squares going
/// to the winner (the FFO / tournament convention).
#[inline]
pub fn final_margin(p: u64, o: u64) -> i32 {
    let pc = p.count_ones() as i32;
    let oc = o.count_ones() as i32;
    let diff = pc - oc;
    let empties = 64 - pc - oc;
    match diff.cmp(&0) {
        std::cmp::Ordering::Greater => diff + empties,
        std::cmp::Ordering::Less => diff - empties,
        std::cmp::Ordering::Equal => 0,
    }
}

/// The 15 diagonals going down-right (a8..h1 direction +9) and the 15
/// going down-left (+7), as square masks.
const DIAGONALS: ([u64; 15], [u64; 15]) = {
    let mut d9 = [0u64; 15];
    let mut d7 = [0u64; 15];
    let mut sq = 0;
    while sq < 64 {
        let (c, r) = (sq % 8, sq / 8);
        d9[7 + c - r] |= 1 << sq; // c - r is constant along +9
        d7[c + r] |= 1 << sq; // c + r is constant along +7
        sq += 1;
    }
    (d9, d7)
};

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = 0x8080_8080_8080_8080;
const RANK_1: u64 = 0xff;
const RANK_8: u64 = 0xff00_0000_0000_0000;
const BORDER: u64 = FILE_A | FILE_H | RANK_1 | RANK_8;

/// A subset of the discs of `p` that can never be flipped, whatever is
/// played (`o` being the other colour).
///
/// Along each of the four lines through a disc, it is safe if that line is
/// full (no move can land on it), or if a neighbour on the line is the
/// board edge or an already stable disc of the same colour (a flip needs
/// opponent discs on both sides). A disc safe on all four lines is stable;
/// repeat until nothing changes, starting from none.
pub fn stable_discs(p: u64, o: u64) -> u64 {
    let occ = p | o;
    // Full rows: AND each row's bits down to column a, then spread back.
    let mut r = occ & (occ >> 4);
    r &= r >> 2;
    r &= r >> 1;
    let full_h = (r & FILE_A) * 0xff;
    // Full columns: AND the rows together.
    let mut c = occ & (occ >> 32);
    c &= c >> 16;
    c &= c >> 8;
    let full_v = (c & 0xff) * FILE_A;
    let (mut full_d9, mut full_d7) = (0u64, 0u64);
    for i in 0..15 {
        let (a, b) = (DIAGONALS.0[i], DIAGONALS.1[i]);
        if occ & a == a {
            full_d9 |= a;
        }
        if occ & b == b {
            full_d7 |= b;
        }
    }
    // Safe lines that do not depend on other stable discs.
    let base_h = full_h | FILE_A | FILE_H;
    let base_v = full_v | RANK_1 | RANK_8;
    let base_d9 = full_d9 | BORDER;
    let base_d7 = full_d7 | BORDER;
    let mut stable = 0u64;
    loop {
        let h = base_h | ((stable << 1) & !FILE_A) | ((stable >> 1) & !FILE_H);
        let v = base_v | (stable << 8) | (stable >> 8);
        let d9 = base_d9 | ((stable << 9) & !FILE_A) | ((stable >> 9) & !FILE_H);
        let d7 = base_d7 | ((stable << 7) & !FILE_H) | ((stable >> 7) & !FILE_A);
        let next = p & h & v & d9 & d7;
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_go_lowest_first_and_play_turns_the_board_to_the_other_side() {
        assert_eq!(squares(0).count(), 0);
        let bits = (1 << 63) | (1 << 19) | 1;
        assert_eq!(squares(bits).collect::<Vec<_>>(), vec![0, 19, 63]);
        // Black (d5, e4) plays d3 (19) against white (d4, e5): d4 turns.
        let (black, white) = ((1u64 << 28) | (1 << 35), (1u64 << 27) | (1 << 36));
        let (w, b) = play(black, white, 19);
        assert_eq!(w, 1 << 36);
        assert_eq!(b, black | (1 << 27) | (1 << 19));
    }

    /// Slow reference: walk each ray one square at a time.
    fn naive_flips(p: u64, o: u64, sq: usize) -> u64 {
        let mut f = 0;
        for (dc, dr) in STEPS {
            let (mut c, mut r) = ((sq % 8) as i32 + dc, (sq / 8) as i32 + dr);
            let mut run = 0u64;
            while (0..8).contains(&c) && (0..8).contains(&r) {
                let b = 1u64 << (r * 8 + c);
                if o & b != 0 {
                    run |= b;
                } else {
                    if p & b != 0 {
                        f |= run;
                    }
                    break;
                }
                c += dc;
                r += dr;
            }
        }
        f
    }

    #[test]
    fn flips_and_moves_match_ray_walking() {
        let mut x: u64 = 0x1234_5678_9abc_def1;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..20000 {
            let a = next();
            let b = next();
            let p = a & !b & next();
            let o = b & !p;
            let empty = !(p | o);
            let mut expect_moves = 0;
            for sq in 0..64 {
                if empty & (1 << sq) != 0 {
                    let nf = naive_flips(p, o, sq);
                    assert_eq!(flips(p, o, sq), nf, "p={p:#x} o={o:#x} sq={sq}");
                    if nf != 0 {
                        expect_moves |= 1 << sq;
                    }
                }
            }
            assert_eq!(moves(p, o), expect_moves, "p={p:#x} o={o:#x}");
        }
    }
}
