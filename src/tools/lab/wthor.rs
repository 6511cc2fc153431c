//! A reader of the WTHOR game database of the Fédération Française
//! d'Othello (`.wtb` files: the tournament games it has recorded since
//! 1977), written from the format's public description.
//!
//! A file is a 16-byte header then fixed-size game records:
//!
//! | bytes | header field |
//! |---|---|
//! | 0..4 | creation date: century, year, month, day |
//! | 4..8 | number of games (little-endian `u32`) |
//! | 8..10 | number of records of another kind (`u16`; 0 in game files) |
//! | 10..12 | the year of the games (`u16`) |
//! | 12 | board size (8, or 0 meaning 8; 10 is another game) |
//! | 13 | 0 for games, 1 for solitaires |
//! | 14 | the depth of the theoretical scores (empties at which they were solved) |
//! | 15 | reserved |
//!
//! and each 8x8 game record is 68 bytes: the tournament number and the
//! black and the white player's numbers (three `u16`), black's discs at
//! the end (empties counted to the winner), black's theoretical score
//! (the disc count a perfect game would give from the position with
//! `depth` empties), then 60 move bytes, `10 * row + column` with both
//! from 1 (`56` is f5), 0 after the last move. Passes are not written: a
//! side with no legal move passes.
//!
//! Nothing here trusts the file: a short file, a count that does not
//! match the length, a move byte that is no square, or a move that is not
//! legal is reported as a [`WthorError`] naming the game and the ply.

use std::path::{Path, PathBuf};

use crate::games::othello::bitboard::{moves, play};

/// The header's length in bytes.
pub const HEADER_BYTES: usize = 16;
/// One 8x8 game record's length in bytes.
pub const GAME_BYTES: usize = 68;
/// The largest `.wtb` file read (the biggest yearly file is under 1 MB).
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// The header of a `.wtb` file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// The games the header announces.
    pub games: u32,
    /// The year of the games.
    pub year: u16,
    /// Empties at which the theoretical scores were solved.
    pub depth: u8,
}

/// One game as recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The tournament's number (in `WTHOR.TRN`).
    pub tournament: u16,
    /// Black's number (in `WTHOR.JOU`).
    pub black: u16,
    /// White's number.
    pub white: u16,
    /// Black's discs at the end (empties to the winner).
    pub black_discs: u8,
    /// Black's theoretical score at the header's depth.
    pub theoretical: u8,
    /// The moves as squares (a1 = 0, row by row), without passes.
    pub moves: Vec<u8>,
}

/// A position in a replayed game: the side to move's discs and the
/// other's, and whether black is to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// Discs of the side to move.
    pub p: u64,
    /// Discs of the other side.
    pub o: u64,
    /// Black is to move.
    pub black_to_move: bool,
}

/// Why a file or a game was refused.
#[derive(Debug, thiserror::Error)]
pub enum WthorError {
    /// The file could not be read.
    #[error("cannot read '{}': {source}", .path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// Not a regular file, or larger than [`MAX_FILE_BYTES`].
    #[error("'{}': {why}", .path.display())]
    NotAFile {
        /// The file.
        path: PathBuf,
        /// Why.
        why: String,
    },
    /// Shorter than its header.
    #[error("WTHOR file of {0} bytes, shorter than its {HEADER_BYTES}-byte header")]
    Short(usize),
    /// Not a file of 8x8 games (board size or kind).
    #[error("not a WTHOR file of 8x8 games (board size {board}, kind {kind})")]
    NotGames {
        /// The board size byte.
        board: u8,
        /// The kind byte (0 games, 1 solitaires).
        kind: u8,
    },
    /// The length does not match the header's count.
    #[error("WTHOR header announces {games} games but {bytes} bytes follow ({GAME_BYTES} a game)")]
    Length {
        /// Games announced.
        games: u32,
        /// Bytes after the header.
        bytes: usize,
    },
    /// A move byte that is no square.
    #[error("game {game}, ply {ply}: move byte {byte} is no square")]
    BadSquare {
        /// Game number in the file, from 0.
        game: usize,
        /// Ply, from 0 (passes not counted).
        ply: usize,
        /// The byte.
        byte: u8,
    },
    /// A move that is not legal in the game's position.
    #[error("game {game}, ply {ply}: {} is not a legal move", crate::games::othello::square_name(*.square))]
    Illegal {
        /// Game number in the file, from 0.
        game: usize,
        /// Ply, from 0 (passes not counted).
        ply: usize,
        /// The square, a1 = 0.
        square: u8,
    },
}

fn u16_at(b: &[u8], i: usize) -> u16 {
    u16::from_le_bytes([b[i], b[i + 1]])
}

/// Reads a `.wtb` file's bytes: its header and games (moves not checked
/// for legality; [`replay`] does that).
pub fn parse(bytes: &[u8]) -> Result<(Header, Vec<Game>), WthorError> {
    if bytes.len() < HEADER_BYTES {
        return Err(WthorError::Short(bytes.len()));
    }
    let games = u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]);
    let header = Header {
        games,
        year: u16_at(bytes, 10),
        depth: bytes[14],
    };
    let (board, kind) = (bytes[12], bytes[13]);
    if !(board == 0 || board == 8) || kind != 0 {
        return Err(WthorError::NotGames { board, kind });
    }
    let body = &bytes[HEADER_BYTES..];
    if body.len() != games as usize * GAME_BYTES {
        return Err(WthorError::Length {
            games,
            bytes: body.len(),
        });
    }
    let mut out = Vec::with_capacity(games as usize);
    for (g, rec) in body.chunks_exact(GAME_BYTES).enumerate() {
        let mut moves = Vec::with_capacity(60);
        for (ply, &byte) in rec[8..].iter().enumerate() {
            if byte == 0 {
                break;
            }
            let (row, col) = (byte / 10, byte % 10);
            if !(1..=8).contains(&row) || !(1..=8).contains(&col) {
                return Err(WthorError::BadSquare { game: g, ply, byte });
            }
            moves.push((row - 1) * 8 + (col - 1));
        }
        out.push(Game {
            tournament: u16_at(rec, 0),
            black: u16_at(rec, 2),
            white: u16_at(rec, 4),
            black_discs: rec[6],
            theoretical: rec[7],
            moves,
        });
    }
    Ok((header, out))
}

/// Reads a `.wtb` file (a regular file of at most [`MAX_FILE_BYTES`]).
pub fn read_file(path: &Path) -> Result<(Header, Vec<Game>), WthorError> {
    let io = |source| WthorError::Io {
        path: path.to_path_buf(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        return Err(WthorError::NotAFile {
            path: path.to_path_buf(),
            why: "not a regular file".into(),
        });
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(WthorError::NotAFile {
            path: path.to_path_buf(),
            why: format!("larger than {MAX_FILE_BYTES} bytes"),
        });
    }
    let bytes = std::fs::read(path).map_err(io)?;
    parse(&bytes)
}

/// The `.wtb` files of a folder, by name (`WTH_1977.wtb`, ...).
pub fn files_in(dir: &Path) -> Result<Vec<PathBuf>, WthorError> {
    let io = |source| WthorError::Io {
        path: dir.to_path_buf(),
        source,
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(io)?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("wtb")))
        .collect();
    files.sort();
    Ok(files)
}

/// A replayed game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replayed {
    /// Every position before a move, the side to move having one.
    pub positions: Vec<Position>,
    /// Black's discs at the end.
    pub black: u64,
    /// White's discs at the end.
    pub white: u64,
}

impl Replayed {
    /// Black's final discs with the empties to the winner (half each in a
    /// draw): what the record's `black_discs` says of a finished game.
    pub fn black_final(&self) -> u8 {
        let (b, w) = (self.black.count_ones(), self.white.count_ones());
        let empties = 64 - b - w;
        let v = match b.cmp(&w) {
            std::cmp::Ordering::Greater => b + empties,
            std::cmp::Ordering::Less => b,
            std::cmp::Ordering::Equal => b + empties / 2,
        };
        v as u8
    }

    /// Whether neither side has a move at the end.
    pub fn finished(&self) -> bool {
        moves(self.black, self.white) == 0 && moves(self.white, self.black) == 0
    }
}

/// Replays a game (game number `index` in its file, for errors), passing
/// for a side with no move; refuses a move that is not legal.
pub fn replay(index: usize, game: &Game) -> Result<Replayed, WthorError> {
    let (mut black, mut white) = ((1u64 << 28) | (1 << 35), (1u64 << 27) | (1 << 36));
    let mut black_to_move = true;
    let mut out = Vec::with_capacity(game.moves.len());
    for (ply, &sq) in game.moves.iter().enumerate() {
        let (mut p, mut o) = if black_to_move {
            (black, white)
        } else {
            (white, black)
        };
        if moves(p, o) == 0 {
            // A pass is not written: the other side moves.
            black_to_move = !black_to_move;
            (p, o) = (o, p);
        }
        let legal = moves(p, o);
        if legal & (1u64 << sq) == 0 {
            return Err(WthorError::Illegal {
                game: index,
                ply,
                square: sq,
            });
        }
        out.push(Position {
            p,
            o,
            black_to_move,
        });
        let (no, np) = play(p, o, u32::from(sq));
        if black_to_move {
            (black, white) = (np, no);
        } else {
            (white, black) = (np, no);
        }
        black_to_move = !black_to_move;
    }
    Ok(Replayed {
        positions: out,
        black,
        white,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::othello::bitboard::squares;

    fn header(games: u32) -> Vec<u8> {
        let mut h = vec![20, 24, 1, 1];
        h.extend_from_slice(&games.to_le_bytes());
        h.extend_from_slice(&0u16.to_le_bytes());
        h.extend_from_slice(&1999u16.to_le_bytes());
        h.extend_from_slice(&[8, 0, 22, 0]);
        h
    }

    fn record(moves: &[u8], black_discs: u8) -> Vec<u8> {
        let mut r = Vec::new();
        for v in [7u16, 101, 202] {
            r.extend_from_slice(&v.to_le_bytes());
        }
        r.push(black_discs);
        r.push(black_discs);
        let mut m = moves.to_vec();
        m.resize(60, 0);
        r.extend(m);
        r
    }

    const OPENING: &[u8] = &[56, 64, 53, 46, 35]; // f5 d6 c5 f4 e3

    #[test]
    fn hand_made_bytes_parse_and_replay() {
        let mut bytes = header(2);
        bytes.extend(record(OPENING, 33));
        bytes.extend(record(&[], 32));
        let (h, games) = parse(&bytes).expect("parses");
        assert_eq!(
            h,
            Header {
                games: 2,
                year: 1999,
                depth: 22
            }
        );
        assert_eq!(games.len(), 2);
        assert_eq!(
            (games[0].tournament, games[0].black, games[0].white),
            (7, 101, 202)
        );
        // f5 is column f (5), row 5 (4): square 37; d6 43, c5 34, f4 29, e3 20.
        assert_eq!(games[0].moves, vec![37, 43, 34, 29, 20]);
        let r = replay(0, &games[0]).expect("legal");
        assert_eq!(r.positions.len(), 5);
        assert!(r.positions[0].black_to_move && !r.positions[1].black_to_move);
        assert_eq!((r.black | r.white).count_ones(), 9);
        // Counted by hand: black c5 d5 f5 e3 d4, white e4 f4 e5 d6.
        let sq = |names: &[&str]| {
            names.iter().fold(0u64, |a, n| {
                a | 1u64 << crate::games::othello::parse_square(n).expect("a square")
            })
        };
        assert_eq!(r.black, sq(&["c5", "d5", "f5", "e3", "d4"]));
        assert_eq!(r.white, sq(&["e4", "f4", "e5", "d6"]));
        assert!(!r.finished());
        let empty = replay(1, &games[1]).expect("empty game");
        assert_eq!(empty.black_final(), 32);
        assert!(empty.positions.is_empty());
    }

    #[test]
    fn malformed_files_are_refused_with_the_reason() {
        assert!(matches!(parse(&[0; 10]), Err(WthorError::Short(10))));
        let mut bad_len = header(2);
        bad_len.extend(record(OPENING, 33));
        assert!(matches!(parse(&bad_len), Err(WthorError::Length { .. })));
        let mut ten = header(0);
        ten[12] = 10;
        assert!(matches!(parse(&ten), Err(WthorError::NotGames { .. })));
        let mut square = header(1);
        square.extend(record(&[56, 99], 33));
        assert!(matches!(
            parse(&square),
            Err(WthorError::BadSquare {
                game: 0,
                ply: 1,
                byte: 99
            })
        ));
        // a1 (11) is never legal as a first move.
        let mut illegal = header(1);
        illegal.extend(record(&[11], 33));
        let (_, games) = parse(&illegal).expect("parses");
        let e = replay(0, &games[0]).expect_err("illegal");
        assert!(e.to_string().contains("a1 is not a legal move"), "{e}");
    }

    #[test]
    fn a_pass_is_implied_by_the_next_move() {
        // Find a line from the start after which the side to move must
        // pass while the other can move, then record the other side's
        // next move without the pass.
        fn dfs(p: u64, o: u64, line: &mut Vec<u8>, depth: usize) -> Option<(Vec<u8>, u8)> {
            let m = moves(p, o);
            if m == 0 {
                let other = moves(o, p);
                return (other != 0).then(|| (line.clone(), other.trailing_zeros() as u8));
            }
            if depth == 0 {
                return None;
            }
            for sq in squares(m) {
                line.push(sq as u8);
                let (np, no) = play(p, o, sq);
                if let Some(found) = dfs(np, no, line, depth - 1) {
                    return Some(found);
                }
                line.pop();
            }
            None
        }
        let (b, w) = ((1u64 << 28) | (1 << 35), (1u64 << 27) | (1 << 36));
        let (mut line, next) = dfs(b, w, &mut Vec::new(), 11).expect("a line with a pass");
        let plies = line.len();
        line.push(next);
        let game = Game {
            tournament: 0,
            black: 0,
            white: 0,
            black_discs: 0,
            theoretical: 0,
            moves: line,
        };
        let r = replay(0, &game).expect("legal with the pass implied");
        assert_eq!(r.positions.len(), plies + 1);
        // The side that moves after the pass is the one that moved last
        // before it.
        assert_eq!(
            r.positions[plies].black_to_move,
            r.positions[plies - 1].black_to_move
        );
    }
}
