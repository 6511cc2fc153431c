//! A trained N-tuple pattern evaluation, as in Logistello and Edax.
//!
//! The board is read through eleven pattern *families* (an edge with its
//! two X squares, the 3x3 and 2x5 corners, the diagonals of length 4 to 8,
//! the rows 2 to 4); each family is placed on the board in every position
//! the eight board symmetries take it to (46 *instances* in all), and every
//! instance reads its squares as a base-3 number (empty 0, side to move 1,
//! opponent 2) that indexes the family's weight table. All instances of a
//! family share one table, and orderings of the same squares that a
//! symmetry swaps share one weight (the table is stored in a canonical form
//! and expanded on load), so the evaluation is exactly the same on the
//! eight symmetric images of a board. Three small tables add the mobility
//! of each side and the parity of the empty squares (which also carries the
//! constant term).
//!
//! Each of [`STAGES`] game stages (every 4 discs) has its own weights. The
//! sum is in 1/[`SCALE`] discs: the predicted final disc margin for the
//! side to move. Weights are `i16`, the arithmetic integer.
//!
//! The weight file format (see [`Weights::encode`]) is an 8-byte magic, the
//! layout's sizes, the canonical weights as a zero-run-length varint stream
//! and an FNV-1a checksum of everything before it.

use std::fmt;
use std::sync::OnceLock;

/// Game stages: the disc count `4..=64` in steps of 4.
pub const STAGES: usize = 16;
/// Weight units per disc.
pub const SCALE: i32 = 64;
/// Mobility counts are clamped to `0..MOBILITY_CAP`.
pub const MOBILITY_CAP: usize = 32;
/// The most squares in a pattern.
pub const MAX_LEN: usize = 10;

/// The stage of a position with `discs` discs on the board.
#[inline]
pub fn stage_of(discs: u32) -> usize {
    ((discs.saturating_sub(4) / 4) as usize).min(STAGES - 1)
}

/// The pattern families, as squares (a1 = 0, row by row) in index order.
const FAMILY_DEFS: [(&str, &[u8]); 11] = [
    ("edge+2x", &[0, 1, 2, 3, 4, 5, 6, 7, 9, 14]),
    ("corner3x3", &[0, 1, 2, 8, 9, 10, 16, 17, 18]),
    ("corner2x5", &[0, 1, 2, 3, 4, 8, 9, 10, 11, 12]),
    ("diag8", &[0, 9, 18, 27, 36, 45, 54, 63]),
    ("diag7", &[1, 10, 19, 28, 37, 46, 55]),
    ("diag6", &[2, 11, 20, 29, 38, 47]),
    ("diag5", &[3, 12, 21, 30, 39]),
    ("diag4", &[4, 13, 22, 31]),
    ("row2", &[8, 9, 10, 11, 12, 13, 14, 15]),
    ("row3", &[16, 17, 18, 19, 20, 21, 22, 23]),
    ("row4", &[24, 25, 26, 27, 28, 29, 30, 31]),
];

/// The eight symmetries of the square, on a square index.
pub fn symmetry(g: usize, sq: u8) -> u8 {
    let (r, c) = (sq / 8, sq % 8);
    let (r, c) = match g & 7 {
        0 => (r, c),
        1 => (r, 7 - c),
        2 => (7 - r, c),
        3 => (7 - r, 7 - c),
        4 => (c, r),
        5 => (c, 7 - r),
        6 => (7 - c, r),
        _ => (7 - c, 7 - r),
    };
    r * 8 + c
}

/// A symmetry applied to a bitboard (slow; for tests and data
/// augmentation).
pub fn symmetry_board(g: usize, b: u64) -> u64 {
    let mut out = 0;
    let mut m = b;
    while m != 0 {
        let sq = m.trailing_zeros() as u8;
        m &= m - 1;
        out |= 1u64 << symmetry(g, sq);
    }
    out
}

/// A pattern family: its place in a stage's weights and its canonical map.
#[derive(Debug)]
pub struct Family {
    /// A short name.
    pub name: &'static str,
    /// Squares per instance.
    pub len: usize,
    /// Offset of its table in a stage's weights.
    pub offset: usize,
    /// For every index, the least index of the orderings a symmetry maps
    /// onto the same squares (the one weight they share).
    pub canon: Vec<u32>,
}

/// One placement of a family on the board.
#[derive(Clone, Copy, Debug)]
pub struct Instance {
    /// The squares, in index order (the first `len`).
    pub squares: [u8; MAX_LEN],
    /// Squares in use.
    pub len: u8,
    /// The family.
    pub family: u8,
    /// The family table's offset in a stage's weights.
    pub offset: u32,
    /// The squares as a bitboard.
    pub mask: u64,
    /// Where its [`Layout::spread`] table starts.
    pub spread: u32,
}

/// Families, instances and the size of one stage's weights.
#[derive(Debug)]
pub struct Layout {
    /// The families.
    pub families: Vec<Family>,
    /// Every placement of every family.
    pub instances: Vec<Instance>,
    /// Offset of the mobility table of the side to move.
    pub mobility: usize,
    /// Offset of the opponent's mobility table.
    pub opp_mobility: usize,
    /// Offset of the parity table (2 entries: even, odd empties).
    pub parity: usize,
    /// Weights per stage.
    pub size: usize,
    /// Per instance, `2^len` entries: for the bits of its squares taken in
    /// square order (as `pext` gathers them), the base-3 number with a 1
    /// at each one's place in the instance's index order.
    pub spread: Vec<u16>,
    /// Whether this CPU gathers bits with a fast `pext` (see
    /// [`fast_pext`]).
    pub pext: bool,
}

/// `TERNARY[b]`: the base-3 number whose digits are the bits of `b`.
static TERNARY: [u32; 1 << MAX_LEN] = {
    let mut t = [0u32; 1 << MAX_LEN];
    let mut b = 0;
    while b < (1 << MAX_LEN) {
        let (mut v, mut p, mut k) = (0u32, 1u32, 0);
        while k < MAX_LEN {
            if b & (1 << k) != 0 {
                v += p;
            }
            p *= 3;
            k += 1;
        }
        t[b] = v;
        b += 1;
    }
    t
};

fn pow3(n: usize) -> usize {
    3usize.pow(n as u32)
}

fn build_layout() -> Layout {
    let mut families = Vec::new();
    let mut instances = Vec::new();
    let mut offset = 0usize;
    for (f, &(name, base)) in FAMILY_DEFS.iter().enumerate() {
        let n = base.len();
        let set = |l: &[u8]| l.iter().fold(0u64, |a, &s| a | 1u64 << s);
        let base_set = set(base);
        // Orderings of the base's own squares that a symmetry produces.
        let mut perms: Vec<Vec<usize>> = Vec::new();
        let mut placed: Vec<u64> = Vec::new();
        for g in 0..8 {
            let img: Vec<u8> = base.iter().map(|&s| symmetry(g, s)).collect();
            let img_set = set(&img);
            if img_set == base_set {
                let perm: Vec<usize> = img
                    .iter()
                    .map(|s| base.iter().position(|b| b == s).unwrap_or(0))
                    .collect();
                if !perms.contains(&perm) {
                    perms.push(perm);
                }
            }
            if !placed.contains(&img_set) {
                placed.push(img_set);
                let mut squares = [0u8; MAX_LEN];
                squares[..n].copy_from_slice(&img);
                instances.push(Instance {
                    squares,
                    len: n as u8,
                    family: f as u8,
                    offset: offset as u32,
                    mask: img_set,
                    spread: 0,
                });
            }
        }
        let size = pow3(n);
        let canon = (0..size)
            .map(|idx| {
                let mut digits = [0usize; MAX_LEN];
                let mut x = idx;
                for d in digits.iter_mut().take(n) {
                    *d = x % 3;
                    x /= 3;
                }
                perms
                    .iter()
                    .map(|perm| {
                        (0..n)
                            .rev()
                            .fold(0usize, |acc, j| acc * 3 + digits[perm[j]])
                    })
                    .min()
                    .unwrap_or(idx) as u32
            })
            .collect();
        families.push(Family {
            name,
            len: n,
            offset,
            canon,
        });
        offset += size;
    }
    let mut spread = Vec::new();
    for inst in &mut instances {
        inst.spread = spread.len() as u32;
        // The instance's index places of its squares, in square order.
        let mut by_square: Vec<(u8, usize)> = (0..usize::from(inst.len))
            .map(|k| (inst.squares[k], k))
            .collect();
        by_square.sort_unstable();
        for bits in 0..1usize << inst.len {
            let value: usize = by_square
                .iter()
                .enumerate()
                .filter(|&(j, _)| bits & (1 << j) != 0)
                .map(|(_, &(_, k))| pow3(k))
                .sum();
            spread.push(value as u16);
        }
    }
    let mobility = offset;
    let opp_mobility = mobility + MOBILITY_CAP;
    let parity = opp_mobility + MOBILITY_CAP;
    Layout {
        families,
        instances,
        mobility,
        opp_mobility,
        parity,
        size: parity + 2,
        spread,
        pext: fast_pext(),
    }
}

/// Whether the CPU has BMI2's `pext` and runs it in a few cycles: AMD
/// before Zen 3 (family 0x17 and older) has it in microcode, tens to
/// hundreds of cycles, slower than gathering the bits one by one.
#[cfg(target_arch = "x86_64")]
fn fast_pext() -> bool {
    if !is_x86_feature_detected!("bmi2") {
        return false;
    }
    // CPUID leaves 0 (vendor) and 1 (family) exist on every x86-64 CPU.
    let vendor = std::arch::x86_64::__cpuid(0);
    let signature = std::arch::x86_64::__cpuid(1).eax;
    let amd = (vendor.ebx, vendor.edx, vendor.ecx) == (0x6874_7541, 0x6974_6e65, 0x444d_4163);
    let family = ((signature >> 8) & 0xf) + ((signature >> 20) & 0xff);
    !(amd && family < 0x19)
}

#[cfg(not(target_arch = "x86_64"))]
fn fast_pext() -> bool {
    false
}

/// The layout (built once).
pub fn layout() -> &'static Layout {
    static LAYOUT: OnceLock<Layout> = OnceLock::new();
    LAYOUT.get_or_init(build_layout)
}

/// The index an instance reads on the board (`p` to move, `o` the other).
#[inline(always)]
pub fn instance_index(inst: &Instance, p: u64, o: u64) -> usize {
    let (mut pb, mut ob) = (0usize, 0usize);
    for k in 0..inst.len as usize {
        let s = inst.squares[k];
        pb |= ((p >> s) & 1) as usize * (1 << k);
        ob |= ((o >> s) & 1) as usize * (1 << k);
    }
    (TERNARY[pb] + 2 * TERNARY[ob]) as usize
}

/// [`instance_index`] with `pext`: the bits of the instance's squares
/// gathered in square order, then spread to their index places.
///
/// # Safety
///
/// The CPU has BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
#[inline]
unsafe fn instance_index_pext(inst: &Instance, spread: &[u16], p: u64, o: u64) -> usize {
    use std::arch::x86_64::_pext_u64;
    let base = inst.spread as usize;
    let pb = _pext_u64(p, inst.mask) as usize;
    let ob = _pext_u64(o, inst.mask) as usize;
    usize::from(spread[base + pb]) + 2 * usize::from(spread[base + ob])
}

/// The same index, square by square (the reference for tests).
pub fn instance_index_slow(inst: &Instance, p: u64, o: u64) -> usize {
    let mut idx = 0;
    for k in (0..inst.len as usize).rev() {
        let bit = 1u64 << inst.squares[k];
        let cell = if p & bit != 0 {
            1
        } else if o & bit != 0 {
            2
        } else {
            0
        };
        idx = idx * 3 + cell;
    }
    idx
}

/// Number of features of one position (instances + 3 small tables).
pub fn feature_count() -> usize {
    layout().instances.len() + 3
}

/// The weight indices (within a stage, canonical) that a position with
/// `p` to move against `o`, and the given move counts, reads. `out` gets
/// [`feature_count`] entries.
pub fn features(p: u64, o: u64, p_moves: u32, o_moves: u32, out: &mut Vec<u32>) {
    let l = layout();
    out.clear();
    for inst in &l.instances {
        let idx = instance_index(inst, p, o);
        let fam = &l.families[inst.family as usize];
        out.push(inst.offset + fam.canon[idx]);
    }
    out.push((l.mobility + (p_moves as usize).min(MOBILITY_CAP - 1)) as u32);
    out.push((l.opp_mobility + (o_moves as usize).min(MOBILITY_CAP - 1)) as u32);
    let empties = 64 - (p | o).count_ones();
    out.push((l.parity + (empties & 1) as usize) as u32);
}

/// Why a weight file was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WeightsError {
    /// The file ends inside a number.
    #[error("weight file: truncated")]
    Truncated,
    /// A number longer than any the writer makes.
    #[error("weight file: bad number")]
    BadNumber,
    /// Canonical weights of another count than the layout's.
    #[error("weights: {got} entries, expected {expected}")]
    EntryCount {
        /// The entries given.
        got: usize,
        /// `STAGES * layout().size`.
        expected: usize,
    },
    /// Not a weight file at all.
    #[error("weight file: not a tabula Othello pattern weight file (bad magic)")]
    BadMagic,
    /// The checksum does not match the bytes.
    #[error("weight file: checksum mismatch (corrupted)")]
    Checksum,
    /// Written for another layout or scale than this build's.
    #[error(
        "weight file: layout {stages}x{size} scale {scale}, this build expects {STAGES}x{expected_size} scale {SCALE}"
    )]
    Layout {
        /// The file's stage count.
        stages: usize,
        /// The file's weights a stage.
        size: usize,
        /// The file's scale.
        scale: usize,
        /// This build's weights a stage.
        expected_size: usize,
    },
    /// A zero run of length 0, or past the last weight.
    #[error("weight file: bad zero run")]
    ZeroRun,
    /// A weight outside `i16`, or one past the last.
    #[error("weight file: weight out of range or too many weights")]
    WeightRange,
    /// Fewer weights than the layout has.
    #[error("weight file: {got} weights, expected {expected}")]
    WeightCount {
        /// The weights read.
        got: usize,
        /// `STAGES * layout().size`.
        expected: usize,
    },
}

/// The first bytes of a weight file.
pub const MAGIC: &[u8; 8] = b"TBOPAT1\n";

/// The largest weight file this build reads: the magic, the layout's three
/// sizes, every canonical weight as a varint of at most 3 bytes (a zigzag
/// `i16`; a zero run takes no more than the weights it stands for), and
/// the checksum.
pub fn max_file_len() -> u64 {
    (MAGIC.len() + 12 + 3 * STAGES * layout().size + 8) as u64
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn get_varint(bytes: &[u8], pos: &mut usize) -> Result<u64, WeightsError> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let b = *bytes
            .get(*pos)
            .ok_or(WeightsError::Truncated)?;
        *pos += 1;
        v |= u64::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            return Ok(v);
        }
    }
    Err(WeightsError::BadNumber)
}

/// Weights of every stage, expanded (every ordering has its weight).
#[derive(Clone, PartialEq, Eq)]
pub struct Weights {
    w: Vec<i16>,
}

impl fmt::Debug for Weights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let nonzero = self.w.iter().filter(|&&x| x != 0).count();
        write!(f, "Weights({} entries, {nonzero} non-zero)", self.w.len())
    }
}

impl Weights {
    /// All zero.
    pub fn zero() -> Weights {
        Weights {
            w: vec![0; STAGES * layout().size],
        }
    }

    /// From weights in canonical form (`STAGES * layout().size` entries,
    /// read only at canonical indices), expanding every family table.
    pub fn from_canonical(canonical: &[i16]) -> Result<Weights, WeightsError> {
        let l = layout();
        if canonical.len() != STAGES * l.size {
            return Err(WeightsError::EntryCount {
                got: canonical.len(),
                expected: STAGES * l.size,
            });
        }
        let mut w = canonical.to_vec();
        for s in 0..STAGES {
            let base = s * l.size;
            for fam in &l.families {
                for (i, &c) in fam.canon.iter().enumerate() {
                    w[base + fam.offset + i] = canonical[base + fam.offset + c as usize];
                }
            }
        }
        Ok(Weights { w })
    }

    /// The canonical form: entries at non-canonical indices zeroed.
    pub fn canonical(&self) -> Vec<i16> {
        let l = layout();
        let mut c = self.w.clone();
        for s in 0..STAGES {
            let base = s * l.size;
            for fam in &l.families {
                for (i, &k) in fam.canon.iter().enumerate() {
                    if k as usize != i {
                        c[base + fam.offset + i] = 0;
                    }
                }
            }
        }
        c
    }

    /// The weight file bytes.
    pub fn encode(&self) -> Vec<u8> {
        let l = layout();
        let mut out = MAGIC.to_vec();
        for v in [STAGES as u32, l.size as u32, SCALE as u32] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        let c = self.canonical();
        let mut i = 0;
        while i < c.len() {
            if c[i] == 0 {
                let run = c[i..].iter().take_while(|&&x| x == 0).count();
                put_varint(&mut out, 0);
                put_varint(&mut out, run as u64);
                i += run;
            } else {
                let v = i64::from(c[i]);
                put_varint(&mut out, ((v << 1) ^ (v >> 63)) as u64);
                i += 1;
            }
        }
        super::checksum::seal(&mut out);
        out
    }

    /// Reads weight file bytes; refuses anything malformed or corrupted.
    pub fn decode(bytes: &[u8]) -> Result<Weights, WeightsError> {
        let l = layout();
        if bytes.len() < MAGIC.len() + 12 + 8 || &bytes[..8] != MAGIC {
            return Err(WeightsError::BadMagic);
        }
        let body = super::checksum::checked_body(bytes).ok_or(WeightsError::Checksum)?;
        let word = |i: usize| {
            let mut b = [0u8; 4];
            b.copy_from_slice(&body[8 + 4 * i..12 + 4 * i]);
            u32::from_le_bytes(b) as usize
        };
        if (word(0), word(1), word(2)) != (STAGES, l.size, SCALE as usize) {
            return Err(WeightsError::Layout {
                stages: word(0),
                size: word(1),
                scale: word(2),
                expected_size: l.size,
            });
        }
        let total = STAGES * l.size;
        let mut c = Vec::with_capacity(total);
        let mut pos = 20;
        while pos < body.len() {
            let v = get_varint(body, &mut pos)?;
            if v == 0 {
                let run = get_varint(body, &mut pos)? as usize;
                if run == 0 || c.len() + run > total {
                    return Err(WeightsError::ZeroRun);
                }
                c.resize(c.len() + run, 0);
            } else {
                let x = ((v >> 1) as i64) ^ -((v & 1) as i64);
                if c.len() >= total || x < i64::from(i16::MIN) || x > i64::from(i16::MAX) {
                    return Err(WeightsError::WeightRange);
                }
                c.push(x as i16);
            }
        }
        if c.len() != total {
            return Err(WeightsError::WeightCount {
                got: c.len(),
                expected: total,
            });
        }
        Weights::from_canonical(&c)
    }

    /// The raw expanded weights (`STAGES * layout().size`).
    pub fn raw(&self) -> &[i16] {
        &self.w
    }

    /// The predicted final margin for the owner of `p` (to move against
    /// `o`), in 1/[`SCALE`] discs, given both sides' move counts.
    #[inline]
    pub fn score(&self, p: u64, o: u64, p_moves: u32, o_moves: u32) -> i32 {
        let l = layout();
        #[cfg(target_arch = "x86_64")]
        if l.pext {
            // SAFETY: `l.pext` is set only where the CPU has BMI2.
            return unsafe { self.score_pext(l, p, o, p_moves, o_moves) };
        }
        self.score_by(l, p, o, p_moves, o_moves, |inst| instance_index(inst, p, o))
    }

    /// [`Weights::score`] with `pext` (about half the time of the whole
    /// alpha-beta search went to gathering the squares one by one).
    ///
    /// # Safety
    ///
    /// The CPU has BMI2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2")]
    unsafe fn score_pext(&self, l: &Layout, p: u64, o: u64, p_moves: u32, o_moves: u32) -> i32 {
        self.score_by(l, p, o, p_moves, o_moves, |inst| {
            // SAFETY: the caller's promise.
            unsafe { instance_index_pext(inst, &l.spread, p, o) }
        })
    }

    /// The score with each instance's index from `index`: inlined into
    /// both callers, so that the `pext` copy compiles with BMI2.
    #[inline(always)]
    fn score_by(
        &self,
        l: &Layout,
        p: u64,
        o: u64,
        p_moves: u32,
        o_moves: u32,
        index: impl Fn(&Instance) -> usize,
    ) -> i32 {
        let discs = (p | o).count_ones();
        let base = stage_of(discs) * l.size;
        let w = &self.w[base..base + l.size];
        let patterns: i32 = l
            .instances
            .iter()
            .map(|inst| i32::from(w[inst.offset as usize + index(inst)]))
            .sum();
        patterns + small_terms(l, w, discs, p_moves, o_moves)
    }

}

/// The mobility and parity terms of a stage's weights `w`.
#[inline(always)]
fn small_terms(l: &Layout, w: &[i16], discs: u32, p_moves: u32, o_moves: u32) -> i32 {
    i32::from(w[l.mobility + (p_moves as usize).min(MOBILITY_CAP - 1)])
        + i32::from(w[l.opp_mobility + (o_moves as usize).min(MOBILITY_CAP - 1)])
        + i32::from(w[l.parity + ((64 - discs) & 1) as usize])
}

/// The weights built into the binary (trained by `tabula train-othello`).
static BUILTIN_BYTES: &[u8] = include_bytes!("weights.bin");

/// The built-in weights, decoded on first use (all zero if the built-in
/// file were ever unreadable; a test checks it is not).
pub fn builtin() -> &'static Weights {
    static W: OnceLock<Weights> = OnceLock::new();
    W.get_or_init(|| Weights::decode(BUILTIN_BYTES).unwrap_or_else(|_| Weights::zero()))
}

/// Starts decoding the built-in weights on a helper thread, once per
/// process, so that the first search does not spend its move's time on it
/// (about 90 ms: an engine's first `genmove movetime=100` got 1,024 nodes).
/// A search that needs them before then waits for that thread.
pub fn prefetch_builtin() {
    static STARTED: std::sync::Once = std::sync::Once::new();
    STARTED.call_once(|| {
        // Without a thread the first evaluation decodes them, as before.
        let _ = std::thread::Builder::new()
            .name("weights".to_string())
            .spawn(|| {
                builtin();
            });
    });
}

/// Whether the built-in weights decode.
pub fn builtin_ok() -> Result<(), WeightsError> {
    Weights::decode(BUILTIN_BYTES).map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn layout_has_the_expected_instances() {
        let l = layout();
        let per_family: Vec<usize> = (0..l.families.len())
            .map(|f| l.instances.iter().filter(|i| i.family as usize == f).count())
            .collect();
        // edge 4, 3x3 4, 2x5 8, diag8 2, diag7..4 4 each, rows 4 each.
        assert_eq!(per_family, vec![4, 4, 8, 2, 4, 4, 4, 4, 4, 4, 4]);
        assert_eq!(l.instances.len(), 46);
    }

    /// The refusals read as they always have: the words are what a user
    /// of a weight file sees.
    #[test]
    fn refused_weight_files_say_why_in_the_same_words() {
        let good = Weights::zero().encode();
        let refusal = |bytes: &[u8]| Weights::decode(bytes).map(|_| ()).unwrap_err().to_string();
        assert_eq!(
            refusal(b"not a weight file at all, but long enough"),
            "weight file: not a tabula Othello pattern weight file (bad magic)"
        );
        let mut flipped = good.clone();
        flipped[MAGIC.len() + 12] ^= 1;
        assert_eq!(refusal(&flipped), "weight file: checksum mismatch (corrupted)");
        // Another stage count, checksummed anew: a file of another build.
        let mut other = good[..good.len() - 8].to_vec();
        other[MAGIC.len()] = (STAGES + 1) as u8;
        super::super::checksum::seal(&mut other);
        let size = layout().size;
        assert_eq!(
            refusal(&other),
            format!(
                "weight file: layout {}x{size} scale {SCALE}, this build expects {STAGES}x{size} scale {SCALE}",
                STAGES + 1
            )
        );
        // The header and a zero-run marker with no run length after it.
        let mut cut = good[..MAGIC.len() + 12 + 1].to_vec();
        super::super::checksum::seal(&mut cut);
        assert_eq!(refusal(&cut), "weight file: truncated");
        assert_eq!(
            Weights::from_canonical(&[1, 2, 3]).map(|_| ()).unwrap_err().to_string(),
            format!("weights: 3 entries, expected {}", STAGES * size)
        );
    }

    #[test]
    fn fast_index_matches_slow() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
        for _ in 0..2000 {
            let a: u64 = rng.r#gen();
            let b: u64 = rng.r#gen::<u64>() & !a;
            for inst in &layout().instances {
                assert_eq!(instance_index(inst, a, b), instance_index_slow(inst, a, b));
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn pext_index_and_score_match_the_scalar_ones() {
        if !is_x86_feature_detected!("bmi2") {
            return;
        }
        let l = layout();
        let w = builtin();
        let mut rng = rand::rngs::SmallRng::seed_from_u64(8);
        for _ in 0..2000 {
            let a: u64 = rng.r#gen();
            let b: u64 = rng.r#gen::<u64>() & !a;
            let mut scalar = 0;
            for inst in &l.instances {
                // SAFETY: checked above that the CPU has BMI2.
                let fast = unsafe { instance_index_pext(inst, &l.spread, a, b) };
                assert_eq!(fast, instance_index_slow(inst, a, b));
                scalar += i32::from(w.w[stage_of((a | b).count_ones()) * l.size + inst.offset as usize + fast]);
            }
            let discs = (a | b).count_ones();
            let base = stage_of(discs) * l.size;
            scalar += small_terms(l, &w.w[base..base + l.size], discs, 5, 7);
            // SAFETY: as above.
            assert_eq!(unsafe { w.score_pext(l, a, b, 5, 7) }, scalar);
        }
    }

    #[test]
    fn canonical_orderings_share_a_weight() {
        // The edge reversed is the same edge: a1 mine and h1 mine read the
        // same canonical index.
        let l = layout();
        let edge = &l.families[0];
        let a1 = 1usize; // digit 0 = a1 = mine
        let h1 = 3usize.pow(7); // digit 7 = h1 = mine
        assert_eq!(edge.canon[a1], edge.canon[h1]);
        assert_ne!(edge.canon[a1], edge.canon[2 * a1]);
    }

    #[test]
    fn random_weights_round_trip_and_corruption_is_refused() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(3);
        let l = layout();
        let c: Vec<i16> = (0..STAGES * l.size)
            .map(|_| if rng.gen_bool(0.1) { rng.r#gen() } else { 0 })
            .collect();
        let w = Weights::from_canonical(&c).unwrap();
        let bytes = w.encode();
        let back = Weights::decode(&bytes).unwrap();
        assert_eq!(back, w);
        assert_eq!(back.encode(), bytes);
        let mut bad = bytes.clone();
        let mid = bad.len() / 2;
        bad[mid] ^= 0x10;
        assert!(Weights::decode(&bad).is_err());
        assert!(Weights::decode(&bytes[..bytes.len() - 1]).is_err());
        assert!(Weights::decode(b"hello").is_err());
        assert!(Weights::decode(&[]).is_err());
    }

    #[test]
    fn builtin_weights_decode_and_are_trained() {
        builtin_ok().unwrap();
        let nonzero = builtin().raw().iter().filter(|&&x| x != 0).count();
        assert!(nonzero > 10_000, "{nonzero} non-zero weights");
    }

    #[test]
    fn evaluation_is_symmetric() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(11);
        // Random weights make any asymmetry show.
        let c: Vec<i16> = (0..STAGES * layout().size)
            .map(|_| rng.gen_range(-500..500))
            .collect();
        let w = Weights::from_canonical(&c).unwrap();
        for _ in 0..300 {
            let a: u64 = rng.r#gen::<u64>() & rng.r#gen::<u64>();
            let b: u64 = rng.r#gen::<u64>() & !a;
            let (pm, om) = (rng.gen_range(0..40), rng.gen_range(0..40));
            let s0 = w.score(a, b, pm, om);
            for g in 1..8 {
                let (sa, sb) = (symmetry_board(g, a), symmetry_board(g, b));
                assert_eq!(w.score(sa, sb, pm, om), s0, "symmetry {g}");
            }
        }
    }
}
