//! Othello (Reversi) on bitboards.
//!
//! Squares are numbered a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63
//! (columns a..h left to right, rows 1..8 top to bottom), the order of the
//! FFO `.obf` position files. Seat 0 is black (`X`), seat 1 white (`O`).
//!
//! The state keeps the discs of the side to move and of its opponent, plus
//! the legal moves of the side to move, computed once when the position is
//! made: every caller (turn, legal moves, perft's bulk count) needs them.

#[cfg(target_arch = "x86_64")]
pub mod avx2;
pub mod bitboard;
mod checksum;
pub mod book;
pub mod discs;
pub mod endgame;
pub mod eval;
mod page;
pub mod pattern;
pub mod probcut;

use rand::Rng as _;

use crate::control::Control;
use crate::model::extras::{Extras, RootSolve, Solver};
use crate::model::game::{Game, MoveError, Outcome, PositionError, Rng, Seat, Turn};
use crate::model::options::{OptionError, OptionSpec, Options};

use bitboard::{flips, moves};

/// A move: a square `0..64`, or [`PASS`].
pub type Move = u8;

/// The pass move, legal only when the side to move has no placement and the
/// opponent has one.
pub const PASS: Move = 64;

/// Black's seat (`X`, moves first).
pub const BLACK: Seat = 0;
/// White's seat (`O`).
pub const WHITE: Seat = 1;

/// The index of a random move among `count > 0`: one multiply, no
/// rejection loop (the bias, under 2^-26, is far below playout noise).
#[inline(always)]
fn pick(rng: &mut Rng, count: u32) -> u32 {
    ((u64::from(rand::RngCore::next_u32(rng)) * u64::from(count)) >> 32) as u32
}

/// An Othello position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Othello {
    /// Discs of the side to move.
    me: u64,
    /// Discs of the other side.
    opp: u64,
    /// Legal placements of the side to move (a cache of `moves(me, opp)`).
    mobility: u64,
    /// The seat to move: [`BLACK`] or [`WHITE`].
    side: u8,
}

impl Default for Othello {
    fn default() -> Self {
        Othello::start()
    }
}

/// The text of a square, `a1`..`h8`.
pub fn square_name(sq: u8) -> String {
    let col = (b'a' + sq % 8) as char;
    let row = (b'1' + sq / 8) as char;
    format!("{col}{row}")
}

/// Reads a square name such as `d3` (case-insensitive).
pub fn parse_square(text: &str) -> Option<u8> {
    let b = text.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let col = b[0].to_ascii_lowercase();
    let row = b[1];
    if (b'a'..=b'h').contains(&col) && (b'1'..=b'8').contains(&row) {
        Some((row - b'1') * 8 + (col - b'a'))
    } else {
        None
    }
}

impl Othello {
    /// The start position: white d4 e5, black e4 d5, black to move.
    pub fn start() -> Othello {
        let white = (1u64 << 27) | (1 << 36); // d4, e5
        let black = (1u64 << 28) | (1 << 35); // e4, d5
        Othello::from_bitboards(black, white, BLACK).unwrap_or_else(|_| unreachable!())
    }

    /// A position from the black and white discs and the seat to move.
    /// Fails if the bitboards overlap or the seat is not 0 or 1.
    pub fn from_bitboards(black: u64, white: u64, to_move: Seat) -> Result<Othello, PositionError> {
        if black & white != 0 {
            return Err(PositionError::Invalid("a square holds both colours".into()));
        }
        let (me, opp) = match to_move {
            BLACK => (black, white),
            WHITE => (white, black),
            _ => return Err(PositionError::Invalid(format!("no seat {to_move}"))),
        };
        Ok(Othello {
            me,
            opp,
            mobility: moves(me, opp),
            side: to_move as u8,
        })
    }

    /// The discs of the side to move.
    pub fn player(&self) -> u64 {
        self.me
    }

    /// The discs of the side not to move.
    pub fn opponent(&self) -> u64 {
        self.opp
    }

    /// The seat to move (even when it must pass or the game is over).
    pub fn side_to_move(&self) -> Seat {
        self.side as Seat
    }

    /// Black's discs.
    pub fn black(&self) -> u64 {
        if self.side as Seat == BLACK {
            self.me
        } else {
            self.opp
        }
    }

    /// White's discs.
    pub fn white(&self) -> u64 {
        if self.side as Seat == BLACK {
            self.opp
        } else {
            self.me
        }
    }

    /// The empty squares.
    pub fn empties(&self) -> u64 {
        !(self.me | self.opp)
    }

    /// The legal placements of the side to move, as a bitboard (zero when it
    /// must pass or the game is over).
    pub fn mobility(&self) -> u64 {
        self.mobility
    }

    /// Disc counts `(black, white)`.
    pub fn disc_counts(&self) -> (u32, u32) {
        (self.black().count_ones(), self.white().count_ones())
    }

    /// The final margins from black's point of view:
    /// `(raw, tournament)`. `raw` is black's discs minus white's; the
    /// tournament margin gives the empty squares to the winner (nobody on a
    /// draw), the convention of FFO scores and `final_score`. Meaningful
    /// once the game is over, but defined on any position.
    pub fn final_margins(&self) -> (i32, i32) {
        let (b, w) = self.disc_counts();
        let raw = b as i32 - w as i32;
        let empties = 64 - b as i32 - w as i32;
        let tournament = match raw.cmp(&0) {
            std::cmp::Ordering::Greater => raw + empties,
            std::cmp::Ordering::Less => raw - empties,
            std::cmp::Ordering::Equal => 0,
        };
        (raw, tournament)
    }

    /// The GTP `final_score` text from the tournament margin: `B+12`, `W+4`
    /// or `0`.
    pub fn final_score_text(&self) -> String {
        let (_, m) = self.final_margins();
        match m.cmp(&0) {
            std::cmp::Ordering::Greater => format!("B+{m}"),
            std::cmp::Ordering::Less => format!("W+{}", -m),
            std::cmp::Ordering::Equal => "0".to_string(),
        }
    }

    /// About how many moves the side to move still has: half the empty
    /// squares, rounded up (every move fills a square and the sides take
    /// turns; a pass gives the other side more, which the clock's reserve
    /// absorbs).
    pub fn moves_left(&self) -> u32 {
        self.empties().count_ones().div_ceil(2)
    }

    /// The best move and the exact final margin for the side to move (empty
    /// squares to the winner); `None` if the game is over or the search was
    /// stopped.
    pub fn solve(&self, control: &Control, table_bytes: usize) -> Option<(Move, i32)> {
        self.solve_counted(control, table_bytes)
            .and_then(|s| s.moves.first().copied())
    }

    /// [`Othello::solve`] with the nodes searched (the registry's solver).
    pub fn solve_counted(&self, control: &Control, table_bytes: usize) -> Option<RootSolve<Move>> {
        // A side that must pass: the game goes on from the other's view.
        let pass = self.mobility == 0;
        let (p, o) = if pass {
            if moves(self.opp, self.me) == 0 {
                return None;
            }
            (self.opp, self.me)
        } else {
            (self.me, self.opp)
        };
        let weights = Some(pattern::builtin());
        let (mv, score, nodes) =
            endgame::solve_exact_ordered_by(p, o, control, table_bytes, weights)?;
        let best = if pass { (PASS, -score) } else { (mv, score) };
        Some(RootSolve {
            moves: vec![best],
            nodes,
        })
    }

    /// Every legal move with its exact final margin, best first, and the
    /// nodes searched; `None` if the game is over or the search was
    /// stopped.
    pub fn solve_moves(&self, control: &Control, table_bytes: usize) -> Option<RootSolve<Move>> {
        if self.mobility == 0 {
            return self.solve_counted(control, table_bytes);
        }
        let weights = Some(pattern::builtin());
        let (moves, nodes) =
            endgame::solve_every_move(self.me, self.opp, control, table_bytes, weights)?;
        Some(RootSolve { moves, nodes })
    }

    /// Whether the side to move has no placement but the opponent has one.
    pub fn must_pass(&self) -> bool {
        self.mobility == 0 && moves(self.opp, self.me) != 0
    }

    /// Plays `mv` without any check. A square must be empty and legal; any
    /// value `>= 64` passes.
    #[inline]
    pub fn play(&mut self, mv: Move) {
        #[cfg(target_arch = "x86_64")]
        if avx2::available() {
            // SAFETY: the CPU has the features the kernel is compiled for.
            (self.me, self.opp, self.mobility) =
                unsafe { avx2::play(self.me, self.opp, u32::from(mv)) };
            self.side ^= 1;
            return;
        }
        let (me, opp) = if mv < 64 {
            let f = flips(self.me, self.opp, mv as usize);
            (self.me | f | (1u64 << mv), self.opp ^ f)
        } else {
            (self.me, self.opp)
        };
        self.me = opp;
        self.opp = me;
        self.side ^= 1;
        self.mobility = moves(self.me, self.opp);
    }

    /// The side-to-move view of a board text (see [`Game::set_position`]).
    fn parse_obf(text: &str) -> Result<Othello, PositionError> {
        let bad = |m: String| PositionError::Invalid(m);
        let body = text.split(';').next().unwrap_or("").trim();
        let mut words = body.split_whitespace();
        let (Some(board), Some(side), None) = (words.next(), words.next(), words.next()) else {
            return Err(bad(
                "expected 64 squares (X, O, - or .) from a1 row by row, a space, and X or O to move".into(),
            ));
        };
        let n = board.chars().count();
        if n != 64 {
            return Err(bad(format!("the board has {n} squares, expected 64")));
        }
        let (mut black, mut white) = (0u64, 0u64);
        for (i, c) in board.chars().enumerate() {
            match c {
                'X' | 'x' => black |= 1 << i,
                'O' | 'o' => white |= 1 << i,
                '-' | '.' => {}
                _ => {
                    return Err(bad(format!(
                        "bad character '{c}' on {} (expected X, O, - or .)",
                        square_name(i as u8)
                    )));
                }
            }
        }
        let seat = match side {
            "X" | "x" => BLACK,
            "O" | "o" => WHITE,
            _ => return Err(bad(format!("bad side to move '{side}' (expected X or O)"))),
        };
        // Composed boards (problems, tests) are taken as they are, but a
        // board with no disc at all is nothing to play or search.
        if black | white == 0 {
            return Err(bad(
                "the board has no discs (an Othello game starts with 4 and never loses one)".into(),
            ));
        }
        Othello::from_bitboards(black, white, seat)
    }
}

/// Othello's exact solver ([`Othello::solve`]), whose size is the
/// number of empty squares.
pub const SOLVER: Solver<Othello> = Solver {
    size: |s| s.empties().count_ones(),
    solve: Othello::solve_counted,
    solve_moves: Othello::solve_moves,
    window: endgame::window_of,
};

/// Its registry name (`game othello`).
pub const NAME: &str = "othello";

/// Its registry listing: the names GTP tools use, the options a page
/// may set.
pub const LISTING: crate::games::Listing = crate::games::Listing {
    gtp_names: &["Othello", "Reversi"],
    // Othello's evaluation and ProbCut are engine settings, not options of the page.
    page_options: &[],
};

/// What Othello declares beyond its rules, on its registry line: the
/// solver and its GTP conventions (an 8x8 board GTP's `boardsize` accepts,
/// the pass, `final_score` as `B+12` with empties to the winner, the
/// moves left for the clock, and a finished game's margin by the same
/// rule), and the opening book.
pub const EXTRAS: Extras<Othello> = Extras {
    solver: Some(SOLVER),
    board_size: Some(8),
    pass: Some(PASS),
    final_score: Some(Othello::final_score_text),
    moves_left: Some(Othello::moves_left),
    book: Some(book::book_moves),
    end_margin: Some(|s, seat| {
        let (_, black) = s.final_margins();
        if seat == BLACK { black } else { -black }
    }),
    pictures: page::PICTURES,
};

impl Game for Othello {
    type Move = Move;

    const NAME: &'static str = NAME;
    const SUMMARY: &'static str =
        "Othello (Reversi) on 8x8: bracket and flip discs, most discs wins";
    const OPTIONS: &'static [OptionSpec] = &[];
    type Eval = eval::OthelloEval;
    const TWO_PLAYER_ZERO_SUM: bool = true;

    fn new_game(_options: &Options) -> Result<Self, OptionError> {
        Ok(Othello::start())
    }

    fn num_seats(&self) -> usize {
        2
    }

    #[inline]
    fn turn(&self) -> Turn {
        if self.mobility != 0 || moves(self.opp, self.me) != 0 {
            Turn::Player(self.side as Seat)
        } else {
            Turn::Over
        }
    }

    #[inline]
    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        let mut m = self.mobility;
        if m == 0 {
            if moves(self.opp, self.me) != 0 {
                out.push(PASS);
            }
            return;
        }
        while m != 0 {
            out.push(m.trailing_zeros() as Move);
            m &= m - 1;
        }
    }

    #[inline]
    fn apply(&mut self, mv: Move) {
        self.play(mv);
    }

    fn reward(&self, seat: Seat) -> f64 {
        let (raw, _) = self.final_margins();
        let black = match raw.cmp(&0) {
            std::cmp::Ordering::Greater => 1.0,
            std::cmp::Ordering::Less => 0.0,
            std::cmp::Ordering::Equal => 0.5,
        };
        if seat == BLACK { black } else { 1.0 - black }
    }

    /// Scores are the disc counts `[black, white]`; a draw has no winner.
    fn outcome(&self) -> Outcome {
        let (b, w) = self.disc_counts();
        let winners = match b.cmp(&w) {
            std::cmp::Ordering::Greater => vec![BLACK],
            std::cmp::Ordering::Less => vec![WHITE],
            std::cmp::Ordering::Equal => Vec::new(),
        };
        Outcome {
            scores: vec![b as f64, w as f64],
            winners,
        }
    }

    fn seat_name(&self, seat: Seat) -> String {
        match seat {
            BLACK => "black".into(),
            WHITE => "white".into(),
            _ => format!("{seat}"),
        }
    }

    fn parse_seat(&self, text: &str) -> Option<Seat> {
        match text.trim().to_ascii_lowercase().as_str() {
            "black" | "b" | "x" | "0" => Some(BLACK),
            "white" | "w" | "o" | "1" => Some(WHITE),
            _ => None,
        }
    }

    fn move_text(&self, mv: Move) -> String {
        if mv < 64 {
            square_name(mv)
        } else {
            "pass".into()
        }
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("pass") {
            return Ok(PASS);
        }
        parse_square(t)
            .ok_or_else(|| MoveError::Syntax(format!("'{t}' is not a square a1..h8 or pass")))
    }

    fn render(&self) -> String {
        let (black, white) = (self.black(), self.white());
        let mut s = String::from("  a b c d e f g h\n");
        for row in 0..8 {
            s.push((b'1' + row) as char);
            for col in 0..8 {
                let bit = 1u64 << (row * 8 + col);
                s.push(' ');
                s.push(if black & bit != 0 {
                    'X'
                } else if white & bit != 0 {
                    'O'
                } else {
                    '.'
                });
            }
            s.push('\n');
        }
        let (b, w) = self.disc_counts();
        let status = match self.turn() {
            Turn::Over => format!("game over, {}", self.final_score_text()),
            _ if self.mobility == 0 => format!(
                "{} to move (must pass)",
                self.seat_name(self.side_to_move())
            ),
            _ => format!("{} to move", self.seat_name(self.side_to_move())),
        };
        s.push_str(&format!("X (black) {b}, O (white) {w}; {status}\n"));
        s
    }

    /// The FFO `.obf` form: 64 squares from a1 row by row (`X`, `O`, `-`),
    /// a space, and `X` or `O` for the side to move.
    fn position_text(&self) -> Option<String> {
        let (black, white) = (self.black(), self.white());
        let mut s: String = (0..64)
            .map(|i| {
                let bit = 1u64 << i;
                if black & bit != 0 {
                    'X'
                } else if white & bit != 0 {
                    'O'
                } else {
                    '-'
                }
            })
            .collect();
        s.push(' ');
        s.push(if self.side_to_move() == BLACK {
            'X'
        } else {
            'O'
        });
        Some(s)
    }

    /// Reads the `.obf` form; `.` is accepted for an empty square, and
    /// anything after a `;` (the FFO move list) is ignored. The state is
    /// unchanged on error.
    fn set_position(&mut self, text: &str) -> Result<(), PositionError> {
        *self = Othello::parse_obf(text)?;
        Ok(())
    }

    /// A uniformly random set bit of the mobility bitboard, or a pass.
    #[inline]
    fn random_move(&self, rng: &mut Rng, _buf: &mut Vec<Move>) -> Move {
        let mut m = self.mobility;
        if m == 0 {
            return PASS;
        }
        for _ in 0..pick(rng, m.count_ones()) {
            m &= m - 1;
        }
        m.trailing_zeros() as Move
    }

    /// The AVX2 playout where the CPU has it; the same moves as the
    /// generic loop over [`Game::random_move`] either way.
    fn random_playout(&mut self, rng: &mut Rng, buf: &mut Vec<Move>) -> u32 {
        #[cfg(target_arch = "x86_64")]
        if avx2::available() {
            // SAFETY: the CPU has the features the kernel is compiled for.
            let (me, opp, mobility, plies) =
                unsafe { avx2::random_playout(self.me, self.opp, self.mobility, |n| pick(rng, n)) };
            self.me = me;
            self.opp = opp;
            self.mobility = mobility;
            self.side ^= (plies & 1) as u8;
            return plies;
        }
        crate::model::game::play_randomly(self, rng, buf)
    }

    /// The built-in pattern evaluation ([`eval::OthelloEval::Builtin`]);
    /// a search holds the one the engine chose.
    fn evaluate(&self, seat: Seat) -> f64 {
        crate::model::game::Evaluator::evaluate(&eval::OthelloEval::Builtin, self, seat)
    }

    /// `table`, `pattern` (or `default`), or a weight file.
    fn evaluator(name: &str) -> Result<eval::OthelloEval, String> {
        eval::OthelloEval::named(name).map_err(|e| e.to_string())
    }

    #[inline]
    fn move_count(&self) -> usize {
        if self.mobility != 0 {
            self.mobility.count_ones() as usize
        } else {
            // One forced pass, or nothing if the game is over.
            usize::from(moves(self.opp, self.me) != 0)
        }
    }

    /// A mix of both bitboards and the side to move.
    #[inline]
    fn hash_key(&self) -> Option<u64> {
        let mut h = self.me.wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ self.opp.rotate_left(31).wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
            ^ (self.side as u64);
        h ^= h >> 29;
        h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h ^= h >> 32;
        Some(h)
    }

    /// Greedy baseline: the move on the best square of the weight table,
    /// ties broken by more flips, then at random.
    fn rules_move(&self, rng: &mut Rng) -> Option<Move> {
        match self.turn() {
            Turn::Over => return None,
            _ if self.mobility == 0 => return Some(PASS),
            _ => {}
        }
        let mut best = PASS;
        let mut best_key = (i32::MIN, 0u32, 0u32);
        let mut m = self.mobility;
        while m != 0 {
            let sq = m.trailing_zeros() as Move;
            m &= m - 1;
            let key = (
                eval::WEIGHTS[sq as usize],
                flips(self.me, self.opp, sq as usize).count_ones(),
                rng.r#gen::<u32>(),
            );
            if key > best_key {
                best_key = key;
                best = sq;
            }
        }
        Some(best)
    }
}

/// The position after random moves from the start (seeded) down to
/// `empties` empty squares, or where the game ended before: the test
/// positions of the solver, the alpha-beta and the solve-first tests, and
/// of `tabula bench`'s alpha-beta time to depth.
pub(crate) fn random_position(seed: u64, empties: u32) -> Othello {
    use rand::SeedableRng;
    let mut rng = Rng::seed_from_u64(seed);
    let mut buf = Vec::new();
    let mut s = Othello::start();
    while !s.is_over() && s.empties().count_ones() > empties {
        let mv = s.random_move(&mut rng, &mut buf);
        s.apply(mv);
    }
    s
}
