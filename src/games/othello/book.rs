//! The opening book: positions of the expert games' openings (WTHOR), each
//! with the moves worth playing there and their values in discs, made by
//! `tabula book-othello` (the lines experts played often, valued by a
//! negamax over the book tree whose leaves the engine's own search valued:
//! see `src/tools/lab/othello_book.rs`).
//!
//! A position is stored once for its eight symmetric images: under the
//! least `(player, opponent)` pair of the images ([`canonical`]), with its
//! moves' squares in that image. A lookup maps them back.
//!
//! The file (see [`Book::encode`]): the 8-byte magic `TBOOK001`, the entry
//! count (`u32`), then per entry, in increasing key order, the player's
//! and the opponent's discs (`u64` each), the count of its moves (`u8`) and
//! per move its square and its value for the side to move (`u8`, `i8`,
//! discs), best first; all little-endian, and an FNV-1a checksum (`u64`)
//! of everything before it.

use std::fmt;
use std::sync::OnceLock;

use super::checksum;
use super::pattern::symmetry_board;
use super::{Move, Othello, pattern::symmetry};

/// The file's first bytes.
const MAGIC: &[u8; 8] = b"TBOOK001";

/// The most moves an entry holds (a position has at most 33 legal moves).
pub const MAX_MOVES: usize = 40;

/// A book move: the square (in the stored image) and its value in discs
/// for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The square, a1 = 0.
    pub square: u8,
    /// The final disc margin the book expects after it, for the side that
    /// plays it.
    pub value: i8,
}

/// One position of the book and its moves, best first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The side to move's discs, in the canonical image.
    pub player: u64,
    /// The other side's discs, in the canonical image.
    pub opponent: u64,
    /// Its moves, best first.
    pub moves: Vec<BookMove>,
}

/// Why a book file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// It does not start with the magic.
    NotABook,
    /// It ends before its entries do.
    Truncated,
    /// The checksum does not match.
    Checksum,
    /// Entries out of order, repeated, or with an impossible move.
    Malformed(String),
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::NotABook => write!(f, "not a tabula Othello book (no TBOOK001 magic)"),
            BookError::Truncated => write!(f, "the book file ends inside its entries"),
            BookError::Checksum => write!(f, "the book file's checksum does not match"),
            BookError::Malformed(why) => write!(f, "malformed book: {why}"),
        }
    }
}

impl std::error::Error for BookError {}

/// The least image of a position under the eight symmetries: the
/// symmetry `g` and the image `(player, opponent)`.
pub fn canonical(player: u64, opponent: u64) -> (usize, u64, u64) {
    let mut best = (0, player, opponent);
    for g in 1..8 {
        let image = (symmetry_board(g, player), symmetry_board(g, opponent));
        if image < (best.1, best.2) {
            best = (g, image.0, image.1);
        }
    }
    best
}

/// The square whose image under symmetry `g` is `image`.
pub fn preimage(g: usize, image: u8) -> u8 {
    (0..64u8)
        .find(|&sq| symmetry(g, sq) == image)
        .unwrap_or(image)
}

/// A book: its entries sorted by key.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    entries: Vec<Entry>,
}

impl Book {
    /// A book of these entries (sorted here; a repeated key keeps the
    /// first).
    pub fn new(mut entries: Vec<Entry>) -> Book {
        entries.sort_by_key(|e| (e.player, e.opponent));
        entries.dedup_by_key(|e| (e.player, e.opponent));
        Book { entries }
    }

    /// Its entries, in key order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The file's bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&(self.entries.len() as u32).to_le_bytes());
        for e in &self.entries {
            out.extend_from_slice(&e.player.to_le_bytes());
            out.extend_from_slice(&e.opponent.to_le_bytes());
            let n = e.moves.len().min(MAX_MOVES);
            out.push(n as u8);
            for m in &e.moves[..n] {
                out.push(m.square);
                out.push(m.value as u8);
            }
        }
        checksum::seal(&mut out);
        out
    }

    /// Reads a book file, checking its magic, checksum, order and moves.
    pub fn decode(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err(BookError::NotABook);
        }
        if bytes.len() < MAGIC.len() + 4 + 8 {
            return Err(BookError::Truncated);
        }
        let body = checksum::checked_body(bytes).ok_or(BookError::Checksum)?;
        let mut at = MAGIC.len();
        let take = |at: &mut usize, n: usize| -> Result<&[u8], BookError> {
            let s = body.get(*at..*at + n).ok_or(BookError::Truncated)?;
            *at += n;
            Ok(s)
        };
        let u64_at = |s: &[u8]| {
            let mut b = [0u8; 8];
            b.copy_from_slice(s);
            u64::from_le_bytes(b)
        };
        let mut count = [0u8; 4];
        count.copy_from_slice(take(&mut at, 4)?);
        let count = u32::from_le_bytes(count) as usize;
        let mut entries = Vec::with_capacity(count.min(body.len() / 17));
        for i in 0..count {
            let player = u64_at(take(&mut at, 8)?);
            let opponent = u64_at(take(&mut at, 8)?);
            let n = usize::from(take(&mut at, 1)?[0]);
            if player & opponent != 0 || n > MAX_MOVES {
                return Err(BookError::Malformed(format!("entry {i}")));
            }
            let legal = super::bitboard::moves(player, opponent);
            let mut moves = Vec::with_capacity(n);
            for _ in 0..n {
                let m = take(&mut at, 2)?;
                if m[0] >= 64 || legal & (1u64 << m[0]) == 0 {
                    return Err(BookError::Malformed(format!(
                        "entry {i}: square {} is no legal move",
                        m[0]
                    )));
                }
                moves.push(BookMove {
                    square: m[0],
                    value: m[1] as i8,
                });
            }
            if let Some(last) = entries.last().map(|e: &Entry| (e.player, e.opponent))
                && last >= (player, opponent)
            {
                return Err(BookError::Malformed(format!("entry {i} out of order")));
            }
            entries.push(Entry {
                player,
                opponent,
                moves,
            });
        }
        if at != body.len() {
            return Err(BookError::Malformed("bytes after the last entry".into()));
        }
        Ok(Book { entries })
    }

    /// The book's moves for a position, in the position's own squares,
    /// best first: each with its value in discs for the side to move.
    /// Empty when the position is not in the book.
    pub fn moves(&self, player: u64, opponent: u64) -> Vec<(u8, i8)> {
        let (g, p, o) = canonical(player, opponent);
        match self
            .entries
            .binary_search_by_key(&(p, o), |e| (e.player, e.opponent))
        {
            Ok(i) => self.entries[i]
                .moves
                .iter()
                .map(|m| (preimage(g, m.square), m.value))
                .collect(),
            Err(_) => Vec::new(),
        }
    }
}

/// The book built into the binary (made by `tabula book-othello`).
static BUILTIN_BYTES: &[u8] = include_bytes!("book.bin");

/// The built-in book, decoded on first use (empty if it were ever
/// unreadable; a test checks that it is not).
pub fn builtin() -> &'static Book {
    static B: OnceLock<Book> = OnceLock::new();
    B.get_or_init(|| Book::decode(BUILTIN_BYTES).unwrap_or_default())
}

/// Whether the built-in book decodes, and its size in entries.
pub fn builtin_entries() -> Result<usize, BookError> {
    Book::decode(BUILTIN_BYTES).map(|b| b.entries.len())
}

/// The built-in book's moves for a position with their values in the
/// evaluation's unit (margin / 64), best first: Othello's
/// [`crate::model::extras::Extras::book`].
pub fn book_moves(state: &Othello) -> Vec<(Move, f64)> {
    builtin()
        .moves(state.player(), state.opponent())
        .into_iter()
        .map(|(sq, v)| (Move::from(sq), f64::from(v) / 64.0))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::game::Game as _;

    #[test]
    fn canonical_is_the_same_for_all_eight_images() {
        let s = Othello::start();
        let mut after = s;
        after.apply(19); // d3
        let (p, o) = (after.player(), after.opponent());
        let want = canonical(p, o);
        for g in 0..8 {
            let (_, ip, io) = canonical(symmetry_board(g, p), symmetry_board(g, o));
            assert_eq!((ip, io), (want.1, want.2), "image {g}");
        }
    }

    #[test]
    fn a_book_round_trips_and_maps_moves_back_to_each_image() {
        // The start position: black's four openings are one position's
        // images; the book says d3 (19) in the canonical image.
        let s = Othello::start();
        let (g, p, o) = canonical(s.player(), s.opponent());
        let legal = super::super::bitboard::moves(p, o);
        let square = legal.trailing_zeros() as u8;
        let book = Book::new(vec![Entry {
            player: p,
            opponent: o,
            moves: vec![BookMove { square, value: 3 }],
        }]);
        let back = Book::decode(&book.encode()).expect("decodes");
        assert_eq!(back, book);
        let got = back.moves(s.player(), s.opponent());
        assert_eq!(got.len(), 1);
        // The move is legal in the real position and the image of the
        // stored square.
        assert_eq!(symmetry(g, got[0].0), square);
        assert!(s.mobility() & (1u64 << got[0].0) != 0);
        assert_eq!(got[0].1, 3);
        // A position not in the book has no moves.
        let mut other = s;
        other.apply(got[0].0);
        assert!(back.moves(other.player(), other.opponent()).is_empty());
    }

    #[test]
    fn damaged_books_are_refused() {
        let s = Othello::start();
        let book = Book::new(vec![Entry {
            player: s.player(),
            opponent: s.opponent(),
            moves: vec![BookMove {
                square: 19,
                value: 0,
            }],
        }]);
        let bytes = book.encode();
        assert_eq!(Book::decode(b"nope"), Err(BookError::NotABook));
        let mut flipped = bytes.clone();
        flipped[14] ^= 1;
        assert_eq!(Book::decode(&flipped), Err(BookError::Checksum));
        // An illegal square, with a checksum that matches.
        let bad = Book::new(vec![Entry {
            player: s.player(),
            opponent: s.opponent(),
            moves: vec![BookMove { square: 0, value: 0 }],
        }]);
        assert!(matches!(
            Book::decode(&bad.encode()),
            Err(BookError::Malformed(_))
        ));
    }

    #[test]
    fn every_book_move_is_legal_in_every_image_of_its_position() {
        for e in builtin().entries() {
            for g in 0..8 {
                let (p, o) = (
                    symmetry_board(g, e.player),
                    symmetry_board(g, e.opponent),
                );
                let legal = super::super::bitboard::moves(p, o);
                let got = builtin().moves(p, o);
                assert_eq!(got.len(), e.moves.len());
                for (sq, _) in got {
                    assert!(legal & (1u64 << sq) != 0, "image {g}: {sq} is not legal");
                }
            }
        }
    }

    #[test]
    fn the_builtin_book_decodes_and_knows_the_start() {
        let n = builtin_entries().expect("the built-in book decodes");
        assert!(n > 100, "{n} entries");
        let moves = book_moves(&Othello::start());
        assert!(!moves.is_empty(), "the start position is in the book");
        let s = Othello::start();
        for (mv, v) in &moves {
            assert!(s.mobility() & (1u64 << mv) != 0);
            assert!(v.abs() <= 1.0);
        }
    }
}
