//! The labelled positions of the lab, read by both of its ends:
//! `label-othello` writes them ([`super::othello_label`]) and
//! `train-othello --labels` fits on them ([`super::othello_train`]). Here
//! are what both read: the file format of `labels.bin` (its records and
//! their kinds), the positions of WTHOR games labelled by their
//! theoretical score, and the hash split of those games into the ones a
//! fit may train on and the tenth held out of every fit.
//!
//! `labels.bin` holds fixed 24-byte records in the list's order: the
//! position's number in the list as `u32`, the side to move's and the
//! other side's discs as `u64`, the label as `i8`, its kind (0 exact, `d`
//! a depth-`d` search, 255 none: a search that proved a result), the
//! source (0 WTHOR, 1 self-play) and a zero byte, all little-endian.

use std::path::Path;

use super::training_data::read_data;
use super::wthor::{self, WthorError};
use crate::files::input::PeerFileError;

/// Bytes of one record of `labels.bin`.
pub const RECORD_BYTES: usize = 24;
/// The kind of an exact label.
pub const EXACT: u8 = 0;
/// The kind of a position left without a label.
pub const NO_LABEL: u8 = 255;
/// The kind of a WTHOR position labelled by its game's theoretical score
/// (see [`outcome_labels`]).
pub const OUTCOME: u8 = 254;

/// A labelled position, as `labels.bin` holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Labelled {
    /// Its number in the shuffled list.
    pub index: u32,
    /// Discs of the side to move.
    pub p: u64,
    /// Discs of the other side.
    pub o: u64,
    /// The margin for the side to move, in discs.
    pub label: i8,
    /// [`EXACT`], a search depth, or [`NO_LABEL`].
    pub kind: u8,
    /// 0 WTHOR, 1 self-play.
    pub source: u8,
}

impl Labelled {
    /// The record's bytes.
    pub fn encode(&self) -> [u8; RECORD_BYTES] {
        let mut b = [0u8; RECORD_BYTES];
        b[..4].copy_from_slice(&self.index.to_le_bytes());
        b[4..12].copy_from_slice(&self.p.to_le_bytes());
        b[12..20].copy_from_slice(&self.o.to_le_bytes());
        b[20] = self.label as u8;
        b[21] = self.kind;
        b[22] = self.source;
        b
    }

    /// A record from its bytes (`None` for discs on both sides of a square).
    pub fn decode(b: &[u8]) -> Option<Labelled> {
        let word = |i: usize| {
            let mut a = [0u8; 8];
            a.copy_from_slice(&b[i..i + 8]);
            u64::from_le_bytes(a)
        };
        if b.len() < RECORD_BYTES {
            return None;
        }
        let (p, o) = (word(4), word(12));
        (p & o == 0).then_some(Labelled {
            index: u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
            p,
            o,
            label: b[20] as i8,
            kind: b[21],
            source: b[22],
        })
    }
}

/// Reads `labels.bin`: its whole records, in order (a cut-off last one,
/// or one out of order, ends the read); and the bytes they take.
pub fn read_labels(file: &Path) -> Result<(Vec<Labelled>, u64), PeerFileError> {
    let bytes = read_data(file)?;
    let mut out = Vec::with_capacity(bytes.len() / RECORD_BYTES);
    for chunk in bytes.chunks_exact(RECORD_BYTES) {
        match Labelled::decode(chunk) {
            Some(r) if r.index as usize == out.len() => out.push(r),
            _ => break,
        }
    }
    let good = (out.len() * RECORD_BYTES) as u64;
    Ok((out, good))
}

/// Positions of WTHOR games labelled by the game's theoretical score:
/// black's disc count under perfect play from the position with the
/// header's depth (24) empties, which the FFO solved. The position at that
/// depth gets it as an exact label ([`EXACT`]); the earlier ones, where
/// the players' later moves still decide, get it as the outcome of expert
/// play ([`OUTCOME`]), in the margin for the side to move. Only games that
/// reach that depth count; one position in `keep_one_in` is kept (by a
/// hash of the position, so the same ones every time), and positions in
/// `exclude` (a fit's held-out ones) never. Their number is `u32::MAX`.
pub fn outcome_labels(
    dir: &Path,
    keep_one_in: u64,
    exclude: &std::collections::HashSet<(u64, u64)>,
    split: GameSplit,
) -> Result<Vec<Labelled>, WthorError> {
    let mut out = Vec::new();
    for (file, f) in wthor::files_in(dir)?.iter().enumerate() {
        let (header, games) = wthor::read_file(f)?;
        let depth = u32::from(header.depth);
        if !(1..=59).contains(&depth) {
            continue;
        }
        for (i, g) in games.iter().enumerate() {
            if !split.takes(file, i) {
                continue;
            }
            if g.moves.len() < 60 - depth as usize || g.theoretical > 64 {
                continue;
            }
            let black_margin = 2 * i32::from(g.theoretical) - 64;
            for pos in wthor::replay(i, g)?.positions {
                let empties = 64 - (pos.p | pos.o).count_ones();
                if empties < depth
                    || !mix(pos.p, pos.o).is_multiple_of(keep_one_in.max(1))
                    || exclude.contains(&(pos.p, pos.o))
                {
                    continue;
                }
                let m = if pos.black_to_move {
                    black_margin
                } else {
                    -black_margin
                };
                out.push(Labelled {
                    index: u32::MAX,
                    p: pos.p,
                    o: pos.o,
                    label: m as i8,
                    kind: if empties == depth { EXACT } else { OUTCOME },
                    source: 0,
                });
            }
        }
    }
    Ok(out)
}

/// Which WTHOR games a reader takes: a tenth of the games (by a hash of
/// their file's place in the folder and their number in it) are held out
/// of every fit, so that a fit's error is measured on games it never saw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameSplit {
    /// Every game.
    All,
    /// The games a fit may train on (nine in ten).
    Training,
    /// The games held out of every fit (one in ten).
    HeldOut,
}

impl GameSplit {
    /// Whether game `game` of the folder's file number `file` is taken.
    pub fn takes(self, file: usize, game: usize) -> bool {
        let held = mix(file as u64 + 1, game as u64).is_multiple_of(10);
        match self {
            GameSplit::All => true,
            GameSplit::Training => !held,
            GameSplit::HeldOut => held,
        }
    }
}

/// Every position (before a move) of the games of `split` in a WTHOR
/// folder.
pub fn game_positions(
    dir: &Path,
    split: GameSplit,
) -> Result<std::collections::HashSet<(u64, u64)>, WthorError> {
    let mut out = std::collections::HashSet::new();
    for (file, f) in wthor::files_in(dir)?.iter().enumerate() {
        let (_, games) = wthor::read_file(f)?;
        for (i, g) in games.iter().enumerate() {
            if !split.takes(file, i) {
                continue;
            }
            if let Ok(r) = wthor::replay(i, g) {
                out.extend(r.positions.iter().map(|q| (q.p, q.o)));
            }
        }
    }
    Ok(out)
}

/// A hash of a position (for sampling).
pub fn mix(p: u64, o: u64) -> u64 {
    let mut h = p.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ o.rotate_left(29);
    h ^= h >> 31;
    h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h ^ (h >> 29)
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    use super::*;

    #[test]
    fn records_round_trip() {
        let r = Labelled {
            index: 77,
            p: 0x0000_0010_0800_0000,
            o: 0x0000_0008_1000_0000,
            label: -12,
            kind: 10,
            source: 1,
        };
        assert_eq!(Labelled::decode(&r.encode()), Some(r));
        let mut bad = r.encode();
        bad[12..20].copy_from_slice(&r.p.to_le_bytes());
        assert_eq!(Labelled::decode(&bad), None);
    }
    #[test]
    fn wthor_outcomes_label_from_the_side_to_move_and_exactly_at_the_depth() {
        use crate::games::othello::bitboard::{moves, play};
        use rand::Rng as _;
        // A random legal game, recorded as WTHOR bytes (passes left out).
        let mut rng = SmallRng::seed_from_u64(5);
        let (mut p, mut o) = ((1u64 << 28) | (1 << 35), (1u64 << 27) | (1 << 36));
        let mut black_to_move = true;
        let mut bytes_moves = Vec::new();
        loop {
            let mut m = moves(p, o);
            if m == 0 {
                if moves(o, p) == 0 {
                    break;
                }
                (p, o) = (o, p);
                black_to_move = !black_to_move;
                continue;
            }
            for _ in 0..rng.gen_range(0..m.count_ones()) {
                m &= m - 1;
            }
            let sq = m.trailing_zeros() as u8;
            bytes_moves.push((sq / 8 + 1) * 10 + sq % 8 + 1);
            (p, o) = play(p, o, u32::from(sq));
            black_to_move = !black_to_move;
        }
        assert!(bytes_moves.len() >= 36, "the game reaches 24 empties");
        let mut file = vec![20, 26, 11, 28];
        file.extend_from_slice(&1u32.to_le_bytes());
        file.extend_from_slice(&[0, 0, 0xe8, 0x07, 8, 0, 24, 0]);
        file.extend_from_slice(&[1, 0, 2, 0, 3, 0, 40, 40]); // theoretical 40: black +16
        bytes_moves.resize(60, 0);
        file.extend(bytes_moves);
        let dir = std::env::temp_dir().join(format!("tabula-outcomes-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("WTH_2000.wtb"), &file).unwrap();
        let none = std::collections::HashSet::new();
        let all = outcome_labels(&dir, 1, &none, GameSplit::All).unwrap();
        let (_, games) = wthor::read_file(&dir.join("WTH_2000.wtb")).unwrap();
        let positions = wthor::replay(0, &games[0]).unwrap().positions;
        let expected: Vec<_> = positions
            .iter()
            .filter(|q| 64 - (q.p | q.o).count_ones() >= 24)
            .collect();
        assert_eq!(all.len(), expected.len());
        for (r, q) in all.iter().zip(&expected) {
            assert_eq!((r.p, r.o), (q.p, q.o));
            assert_eq!(i32::from(r.label), if q.black_to_move { 16 } else { -16 });
            let exact = 64 - (q.p | q.o).count_ones() == 24;
            assert_eq!(r.kind == EXACT, exact);
        }
        // Excluded positions stay out; sampling keeps a part.
        let skip: std::collections::HashSet<_> = [(all[3].p, all[3].o)].into_iter().collect();
        assert_eq!(
            outcome_labels(&dir, 1, &skip, GameSplit::All)
                .unwrap()
                .len(),
            all.len() - 1
        );
        assert!(
            outcome_labels(&dir, 3, &none, GameSplit::All)
                .unwrap()
                .len()
                < all.len()
        );
        // The one game is in exactly one of the two halves of the split.
        let train = outcome_labels(&dir, 1, &none, GameSplit::Training).unwrap();
        let held = outcome_labels(&dir, 1, &none, GameSplit::HeldOut).unwrap();
        assert_eq!(
            GameSplit::HeldOut.takes(0, 0),
            !GameSplit::Training.takes(0, 0)
        );
        assert_eq!(train.len() + held.len(), all.len());
        assert_eq!(
            game_positions(&dir, GameSplit::HeldOut).unwrap().is_empty(),
            held.is_empty()
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
