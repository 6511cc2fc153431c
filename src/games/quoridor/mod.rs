//! Quoridor for two players, on odd boards from 3x3 to 11x11.
//!
//! Rules as in `rules.md`: a turn is a pawn step (with the standard jumps,
//! or the coursework variant `jumps=false` where pawns share squares and
//! never jump) or a two-square wall that may not overlap or cross another
//! wall and must leave both pawns a path to their goal rows.
//!
//! Options: `size` (odd, 3..11, default 9), `walls` per player (default
//! `auto` = size*size/8 rounded down: 10 on 9x9, 3 on 5x5; `auto` is the
//! default only, not a value one can type), `jumps` (default true),
//! `max_plies` (default 400; reaching it is a draw).
//!
//! Seats: `p1` (seat 0, also `1`, `black` or `b`) starts in the middle of
//! row 1, moves first and aims for the last row; `p2` (seat 1, also `2`,
//! `white` or `w`) starts in the middle of the last row and aims for row 1.
//! Players count from one here, so `1` is p1 and `0` is refused.
//!
//! Move text: a pawn move is its destination square (`e2`); a wall is its
//! south-west square plus `h` or `v` (`e3h` lies between rows 3 and 4
//! across columns e and f; `e3v` between columns e and f along rows 3
//! and 4).
//!
//! Position text (`setboard`): `<p1 square> <p2 square> <p1 walls left>
//! <p2 walls left> <p1|p2 to move> [walls...]`, e.g. `e1 e9 10 10 p1`.
//!
//! Wall legality is fast: walls live in bitboards (module `board`), so a path
//! check is a flood fill of a few shifts per step, and most walls need no
//! check at all: a wall that touches the other walls and the board edge at
//! most once cannot close a region, and a wall that cuts no edge of a
//! player's current shortest path leaves that path intact.

mod board;
mod text;

use rand::Rng as _;

use crate::game::{Game, MoveError, Outcome, PositionError, Rng, Seat, Turn};
use crate::options::{OptionError, OptionKind, OptionSpec, Options};

use board::{GEOS, Geo, Walls, bit};

/// A Quoridor move. Squares and anchors are numbered `row * size + col`
/// from `a1` = 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum QuoridorMove {
    /// Move the pawn to this square.
    Pawn(u8),
    /// A horizontal wall with this south-west anchor square.
    HWall(u8),
    /// A vertical wall with this south-west anchor square.
    VWall(u8),
}

/// A Quoridor game state (two players).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quoridor {
    /// Board side (odd, 3..=11).
    n: u8,
    /// Standard pawn rules (no sharing, jumps) or the coursework variant.
    jumps: bool,
    /// Plies after which the game is drawn.
    max_plies: u32,
    /// Plies played so far.
    ply: u32,
    /// The seat to move.
    to_move: u8,
    /// Each pawn's square.
    pawns: [u8; 2],
    /// Walls each player may still place.
    walls_left: [u8; 2],
    /// Walls each player started with.
    walls_start: u8,
    /// The seat whose pawn reached its goal row.
    winner: Option<u8>,
    /// The walls on the board.
    walls: Walls,
    /// The open sides of every square ([`NORTH`] | [`SOUTH`] | ...), kept
    /// beside the bitboards so a pawn's steps are one table lookup; 256
    /// entries so that any `u8` square indexes it without a check.
    exits: [u8; 256],
}

/// Exit bits: the northern side of a square is open, and so on.
const NORTH: u8 = 1;
const SOUTH: u8 = 2;
const EAST: u8 = 4;
const WEST: u8 = 8;

/// The number of open exits in each exit mask.
const EXIT_COUNT: [u8; 16] = [0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4];

/// `EXIT_SELECT[mask][i]`: the direction (0 north, 1 south, 2 east, 3 west)
/// of the `i`-th open exit of `mask`, in bit order.
const EXIT_SELECT: [[u8; 4]; 16] = {
    let mut t = [[0u8; 4]; 16];
    let mut mask = 0;
    while mask < 16 {
        let (mut i, mut dir) = (0, 0);
        while dir < 4 {
            if mask & (1 << dir) != 0 {
                t[mask][i] = dir as u8;
                i += 1;
            }
            dir += 1;
        }
        mask += 1;
    }
    t
};

/// The options Quoridor accepts.
const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "size",
        kind: OptionKind::Int { min: 3, max: 11 },
        default: "9",
        help: "board side, odd (3, 5, 7, 9 or 11)",
    },
    OptionSpec {
        name: "walls",
        kind: OptionKind::Int { min: 0, max: 100 },
        default: "auto",
        help: "walls per player; auto = size*size/8 rounded down (10 on 9x9)",
    },
    OptionSpec {
        name: "jumps",
        kind: OptionKind::Bool,
        default: "true",
        help: "standard pawn rules; false = pawns may share a square and never jump",
    },
    OptionSpec {
        name: "max_plies",
        kind: OptionKind::Int {
            min: 1,
            max: 100_000,
        },
        default: "400",
        help: "plies after which the game is a draw",
    },
];

impl Quoridor {
    /// A new game: board side `size` (odd, 3..=11), `walls` per player,
    /// standard jumps or not, and a ply cap.
    pub fn new(
        size: u32,
        walls: u32,
        jumps: bool,
        max_plies: u32,
    ) -> Result<Quoridor, OptionError> {
        if !(3..=11).contains(&size) || size.is_multiple_of(2) {
            return Err(OptionError::Invalid(format!(
                "size must be odd, from 3 to 11 (3, 5, 7, 9 or 11), not {size}"
            )));
        }
        let walls = u8::try_from(walls)
            .map_err(|_| OptionError::Invalid(format!("too many walls: {walls}")))?;
        let g = &GEOS[size as usize];
        let mid = size / 2;
        let mut exits = [0u8; 256];
        for s in 0..size * size {
            let (c, r) = (s % size, s / size);
            exits[s as usize] = if r + 1 < size { NORTH } else { 0 }
                | if r > 0 { SOUTH } else { 0 }
                | if c + 1 < size { EAST } else { 0 }
                | if c > 0 { WEST } else { 0 };
        }
        Ok(Quoridor {
            n: size as u8,
            jumps,
            max_plies: max_plies.max(1),
            ply: 0,
            to_move: 0,
            pawns: [mid as u8, ((size - 1) * size + mid) as u8],
            walls_left: [walls; 2],
            walls_start: walls,
            winner: None,
            walls: Walls::new(g),
            exits,
        })
    }

    /// The board side.
    pub fn size(&self) -> u32 {
        u32::from(self.n)
    }

    /// Whether the standard pawn rules (no sharing, jumps) apply.
    pub fn jumps(&self) -> bool {
        self.jumps
    }

    /// The square of `seat`'s pawn (`row * size + col`).
    pub fn pawn(&self, seat: Seat) -> u32 {
        u32::from(self.pawns[seat & 1])
    }

    /// The walls `seat` may still place.
    pub fn walls_left(&self, seat: Seat) -> u32 {
        u32::from(self.walls_left[seat & 1])
    }

    /// Plies played so far.
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The length of `seat`'s shortest path to its goal row, ignoring pawns.
    pub fn distance(&self, seat: Seat) -> u32 {
        let g = self.geo();
        // Every position keeps a path, so the fallback is never used.
        self.walls
            .distance(g.n, bit(self.pawn(seat)), g.goal[seat & 1])
            .unwrap_or(g.n * g.n)
    }

    #[inline]
    fn geo(&self) -> &'static Geo {
        &GEOS[self.n as usize]
    }

    /// The square one step from `s` through exit `dir` (wrapping `u8`
    /// arithmetic: only called for open exits, which stay on the board).
    #[inline]
    fn neighbour(&self, s: u8, dir: u8) -> u8 {
        match dir {
            NORTH => s.wrapping_add(self.n),
            SOUTH => s.wrapping_sub(self.n),
            EAST => s.wrapping_add(1),
            _ => s.wrapping_sub(1),
        }
    }

    /// The pawn moves of the seat to move, written into `out`; returns
    /// their number (at most 5).
    #[inline]
    fn pawn_moves(&self, out: &mut [u8; 8]) -> usize {
        let me = self.to_move as usize;
        let p = self.pawns[me];
        let o = self.pawns[me ^ 1];
        let mut k = 0;
        let mut exits = self.exits[p as usize];
        while exits != 0 {
            let dir = exits & exits.wrapping_neg();
            exits &= exits - 1;
            let q = self.neighbour(p, dir);
            if q != o || !self.jumps {
                out[k] = q;
                k += 1;
                continue;
            }
            // Facing the other pawn: jump straight over it if nothing is
            // behind it, else step diagonally to either side of it.
            let beyond = self.exits[o as usize];
            if beyond & dir != 0 {
                out[k] = self.neighbour(o, dir);
                k += 1;
            } else {
                let mut sides = beyond
                    & if dir & (NORTH | SOUTH) != 0 {
                        EAST | WEST
                    } else {
                        NORTH | SOUTH
                    };
                while sides != 0 {
                    let side = sides & sides.wrapping_neg();
                    sides &= sides - 1;
                    out[k] = self.neighbour(o, side);
                    k += 1;
                }
            }
        }
        k
    }

    /// Places a wall on the bitboards and closes the exits it blocks.
    #[inline]
    fn place_wall(&mut self, horizontal: bool, a: u8) {
        let g = self.geo();
        let (n, i) = (self.n, a as usize);
        let up = a.wrapping_add(n) as usize;
        if horizontal {
            self.walls.place_h(g, u32::from(a));
            self.exits[i] &= !NORTH;
            self.exits[(i + 1) & 255] &= !NORTH;
            self.exits[up] &= !SOUTH;
            self.exits[(up + 1) & 255] &= !SOUTH;
        } else {
            self.walls.place_v(g, u32::from(a));
            self.exits[i] &= !EAST;
            self.exits[up] &= !EAST;
            self.exits[(i + 1) & 255] &= !WEST;
            self.exits[(up + 1) & 255] &= !WEST;
        }
    }

    /// Whether both pawns still reach their goal rows with `walls`.
    #[inline]
    fn keeps_paths(&self, walls: &Walls) -> bool {
        let g = self.geo();
        (0..2).all(|s| walls.reaches(g.n, bit(u32::from(self.pawns[s])), g.goal[s]))
    }

    /// Whether a wall is legal, given that its anchor is free: either it
    /// cannot close a region at all, or both paths survive it.
    #[inline]
    fn free_wall_keeps_paths(&self, horizontal: bool, a: u32) -> bool {
        let g = self.geo();
        let mut w = self.walls;
        if horizontal {
            if w.risky_h(g) & bit(a) == 0 {
                return true;
            }
            w.place_h(g, a);
        } else {
            if w.risky_v(g) & bit(a) == 0 {
                return true;
            }
            w.place_v(g, a);
        }
        self.keeps_paths(&w)
    }

    /// The anchors of the legal horizontal and vertical walls of the seat
    /// to move.
    fn legal_walls(&self) -> (u128, u128) {
        if self.walls_left[self.to_move as usize] == 0 {
            return (0, 0);
        }
        let g = self.geo();
        let n = g.n;
        let mut legal_h = self.walls.free_h(g);
        let mut legal_v = self.walls.free_v(g);
        let risky_h = legal_h & self.walls.risky_h(g);
        let risky_v = legal_v & self.walls.risky_v(g);
        if risky_h | risky_v == 0 {
            return (legal_h, legal_v);
        }
        // A risky wall needs a check only for the players whose current
        // shortest path it cuts; any other path stays intact.
        let mut cut_h = [0u128; 2];
        let mut cut_v = [0u128; 2];
        for s in 0..2 {
            match self.walls.path(n, u32::from(self.pawns[s]), g.goal[s]) {
                Some((ns, ew)) => {
                    cut_h[s] = ns | (ns >> 1);
                    cut_v[s] = ew | (ew >> n);
                }
                // Unreachable in a legal position; check everything.
                None => {
                    cut_h[s] = u128::MAX;
                    cut_v[s] = u128::MAX;
                }
            }
        }
        let keeps = |w: &Walls, b: u128, cuts: &[u128; 2]| {
            (0..2)
                .all(|s| cuts[s] & b == 0 || w.reaches(n, bit(u32::from(self.pawns[s])), g.goal[s]))
        };
        let mut f = risky_h & (cut_h[0] | cut_h[1]);
        while f != 0 {
            let a = f.trailing_zeros();
            f &= f - 1;
            let mut w = self.walls;
            w.place_h(g, a);
            if !keeps(&w, bit(a), &cut_h) {
                legal_h &= !bit(a);
            }
        }
        let mut f = risky_v & (cut_v[0] | cut_v[1]);
        while f != 0 {
            let a = f.trailing_zeros();
            f &= f - 1;
            let mut w = self.walls;
            w.place_v(g, a);
            if !keeps(&w, bit(a), &cut_v) {
                legal_v &= !bit(a);
            }
        }
        (legal_h, legal_v)
    }

    /// The legal walls of the seat to move, appended to `out`.
    fn wall_moves(&self, out: &mut Vec<QuoridorMove>) {
        let (mut h, mut v) = self.legal_walls();
        while h != 0 {
            out.push(QuoridorMove::HWall(h.trailing_zeros() as u8));
            h &= h - 1;
        }
        while v != 0 {
            out.push(QuoridorMove::VWall(v.trailing_zeros() as u8));
            v &= v - 1;
        }
    }

    /// Distances from every square to `seat`'s goal row.
    fn distance_field(&self, seat: Seat) -> [u8; board::MAX_N * board::MAX_N] {
        let g = self.geo();
        self.walls.distance_field(g.n, g.goal[seat & 1])
    }

    /// The pawn moves of the seat to move that get closest to its goal.
    fn best_steps(&self) -> Vec<QuoridorMove> {
        let me = self.to_move as usize;
        let dist = self.distance_field(me);
        let mut buf = [0u8; 8];
        let k = self.pawn_moves(&mut buf);
        let best = buf[..k]
            .iter()
            .map(|&s| dist[s as usize])
            .min()
            .unwrap_or(u8::MAX);
        buf[..k]
            .iter()
            .filter(|&&s| dist[s as usize] == best)
            .map(|&s| QuoridorMove::Pawn(s))
            .collect()
    }
}

impl Game for Quoridor {
    type Move = QuoridorMove;

    const NAME: &'static str = "quoridor";
    const SUMMARY: &'static str =
        "Quoridor: race your pawn across the board, block the other with walls (2 players)";
    const OPTIONS: &'static [OptionSpec] = OPTIONS;
    const TWO_PLAYER_ZERO_SUM: bool = true;

    fn new_game(options: &Options) -> Result<Self, OptionError> {
        let size = options.int("size").unwrap_or(9);
        let size = u32::try_from(size)
            .map_err(|_| OptionError::Invalid(format!("bad board size {size}")))?;
        let walls = match options.int("walls") {
            Some(w) => {
                u32::try_from(w).map_err(|_| OptionError::Invalid(format!("bad wall count {w}")))?
            }
            None => size * size / 8,
        };
        let max_plies = options.int("max_plies").unwrap_or(400).clamp(1, 100_000) as u32;
        let jumps = match options.text("jumps") {
            "" => true,
            _ => options.flag("jumps"),
        };
        Quoridor::new(size, walls, jumps, max_plies)
    }

    fn num_seats(&self) -> usize {
        2
    }

    #[inline]
    fn turn(&self) -> Turn {
        if self.winner.is_some() || self.ply >= self.max_plies {
            Turn::Over
        } else {
            Turn::Player(self.to_move as usize)
        }
    }

    fn legal_moves(&self, out: &mut Vec<QuoridorMove>) {
        out.clear();
        if self.is_over() {
            return;
        }
        let mut buf = [0u8; 8];
        let k = self.pawn_moves(&mut buf);
        out.extend(buf[..k].iter().map(|&s| QuoridorMove::Pawn(s)));
        self.wall_moves(out);
    }

    #[inline]
    fn apply(&mut self, mv: QuoridorMove) {
        let me = self.to_move as usize;
        match mv {
            QuoridorMove::Pawn(s) => {
                self.pawns[me] = s;
                // Row n-1 for player 1, row 0 for player 2.
                let n = u32::from(self.n);
                let s = u32::from(s);
                if (me == 0 && s >= n * (n - 1) && s < n * n) || (me == 1 && s < n) {
                    self.winner = Some(me as u8);
                }
            }
            QuoridorMove::HWall(a) => {
                self.place_wall(true, a);
                self.walls_left[me] = self.walls_left[me].saturating_sub(1);
            }
            QuoridorMove::VWall(a) => {
                self.place_wall(false, a);
                self.walls_left[me] = self.walls_left[me].saturating_sub(1);
            }
        }
        self.ply += 1;
        self.to_move ^= 1;
    }

    fn reward(&self, seat: Seat) -> f64 {
        match self.winner {
            Some(w) if usize::from(w) == seat => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }
    }

    fn outcome(&self) -> Outcome {
        match self.winner {
            Some(w) => {
                let w = usize::from(w);
                let mut scores = vec![0.0; 2];
                scores[w] = 1.0;
                Outcome {
                    scores,
                    winners: vec![w],
                }
            }
            None => Outcome {
                scores: vec![0.5, 0.5],
                winners: Vec::new(),
            },
        }
    }

    fn seat_name(&self, seat: Seat) -> String {
        format!("p{}", seat + 1)
    }

    /// `p1`/`p2`, also `1`/`2` (players count from one here) and the GTP
    /// colours `black` (= p1, who moves first) and `white` (= p2).
    fn parse_seat(&self, text: &str) -> Option<Seat> {
        match text.trim().to_ascii_lowercase().as_str() {
            "p1" | "1" | "black" | "b" => Some(0),
            "p2" | "2" | "white" | "w" => Some(1),
            _ => None,
        }
    }

    fn move_text(&self, mv: QuoridorMove) -> String {
        text::move_text(self.size(), mv)
    }

    fn parse_move(&self, text: &str) -> Result<QuoridorMove, MoveError> {
        text::parse_move(self.size(), text)
    }

    fn render(&self) -> String {
        text::render(self)
    }

    /// `<p1 square> <p2 square> <p1 walls left> <p2 walls left> <p1|p2 to
    /// move> [walls...]`, e.g. `e3 e7 9 8 p1 e3h d5v c6h`.
    fn position_text(&self) -> Option<String> {
        Some(text::position_text(self))
    }

    /// Reads a position text (see [`Game::position_text`]); the ply
    /// count restarts at 0. Refused, leaving the state as it was: pawns off
    /// the board or (with jumps) on one square, a pawn already on its goal
    /// row, walls that overlap, cross or cut a pawn off.
    fn set_position(&mut self, text: &str) -> Result<(), PositionError> {
        *self = text::parse_position(self, text)?;
        Ok(())
    }

    /// Uniform over the legal moves without listing the walls: draw a slot
    /// among the pawn moves and every (anchor, orientation) pair, and draw
    /// again when the slot is not a legal wall (rejection keeps it uniform).
    fn random_move(&self, rng: &mut Rng, buf: &mut Vec<QuoridorMove>) -> QuoridorMove {
        let me = self.to_move as usize;
        let (p, o, n) = (self.pawns[me], self.pawns[me ^ 1], self.n);
        // Fast path for the long pawn-only phase of a playout: with no
        // walls in hand and the other pawn not next to this one (the
        // difference test may also flag a few squares that are not
        // neighbours; they take the general path), the moves are exactly
        // the open exits: pick one by table, without branching per exit.
        let diff = o.wrapping_sub(p);
        let near =
            self.jumps && (diff == n || diff == n.wrapping_neg() || diff == 1 || diff == 255);
        let exits = self.exits[p as usize] as usize;
        if self.walls_left[me] == 0 && !near && exits != 0 {
            let nth = rng.gen_range(0..EXIT_COUNT[exits]) as usize;
            let delta = [n, n.wrapping_neg(), 1, 255][EXIT_SELECT[exits][nth] as usize];
            return QuoridorMove::Pawn(p.wrapping_add(delta));
        }
        let mut pawns = [0u8; 8];
        let k = self.pawn_moves(&mut pawns);
        if k == 0 {
            // Cannot happen in a legal two-player position (a pawn always
            // has a move), but never panic: fall back to the full list.
            self.legal_moves(buf);
            return match buf.len() {
                0 => QuoridorMove::Pawn(self.pawns[me]),
                len => buf[rng.gen_range(0..len)],
            };
        }
        if self.walls_left[me] == 0 {
            return QuoridorMove::Pawn(pawns[rng.gen_range(0..k)]);
        }
        let g = self.geo();
        let m = g.n - 1;
        let slots = (m * m) as usize;
        loop {
            let u = rng.gen_range(0..k + 2 * slots);
            if u < k {
                return QuoridorMove::Pawn(pawns[u]);
            }
            let j = u - k;
            let horizontal = j < slots;
            let j = (j % slots) as u32;
            let a = (j / m) * g.n + j % m;
            let free = if horizontal {
                self.walls.is_free_h(g, a)
            } else {
                self.walls.is_free_v(g, a)
            };
            if free && self.free_wall_keeps_paths(horizontal, a) {
                return if horizontal {
                    QuoridorMove::HWall(a as u8)
                } else {
                    QuoridorMove::VWall(a as u8)
                };
            }
        }
    }

    /// Shortest-path difference, plus a small tempo and walls-in-hand term,
    /// divided by the board side; a finished game is worth +-1 (draw 0).
    fn evaluate(&self, seat: Seat) -> f64 {
        let seat = seat & 1;
        if self.is_over() {
            return 2.0 * self.reward(seat) - 1.0;
        }
        let mine = f64::from(self.distance(seat));
        let theirs = f64::from(self.distance(seat ^ 1));
        let tempo = if self.to_move as usize == seat {
            0.5
        } else {
            -0.5
        };
        let walls = f64::from(self.walls_left[seat]) - f64::from(self.walls_left[seat ^ 1]);
        let x = (theirs - mine + tempo + 0.25 * walls) / f64::from(self.n);
        x.clamp(-0.99, 0.99)
    }

    /// Counts from the wall bitboards, without listing the moves.
    fn move_count(&self) -> usize {
        if self.is_over() {
            return 0;
        }
        let (h, v) = self.legal_walls();
        self.pawn_moves(&mut [0u8; 8]) + (h.count_ones() + v.count_ones()) as usize
    }

    /// Pawns, walls, walls in hand and the side to move, mixed with
    /// splitmix64 (the ply count is left out: same position, same key).
    fn hash_key(&self) -> Option<u64> {
        fn mix(mut z: u64) -> u64 {
            z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }
        let small = u64::from(self.pawns[0])
            | u64::from(self.pawns[1]) << 8
            | u64::from(self.walls_left[0]) << 16
            | u64::from(self.walls_left[1]) << 24
            | u64::from(self.to_move) << 32
            | u64::from(self.n) << 40;
        let mut h = 0x5155_4f52_4944_4f52; // "QUORIDOR"
        for x in [
            self.walls.h as u64,
            (self.walls.h >> 64) as u64,
            self.walls.v as u64,
            (self.walls.v >> 64) as u64,
            small,
        ] {
            h = mix(h ^ x);
        }
        Some(h)
    }

    /// Baseline: while not behind in the race (counting the move in hand),
    /// step along a shortest path; when behind and walls remain, place the
    /// wall that lengthens the opponent's path most relative to one's own,
    /// if any does. Ties are broken at random.
    fn rules_move(&self, rng: &mut Rng) -> Option<QuoridorMove> {
        if self.is_over() {
            return None;
        }
        let me = self.to_move as usize;
        let mine = self.distance(me);
        let theirs = self.distance(me ^ 1);
        if mine > theirs && self.walls_left[me] > 0 {
            let g = self.geo();
            let mut walls = Vec::new();
            self.wall_moves(&mut walls);
            let mut best_gain = 0i64;
            let mut best = Vec::new();
            for mv in walls {
                let mut w = self.walls;
                match mv {
                    QuoridorMove::HWall(a) => w.place_h(g, u32::from(a)),
                    QuoridorMove::VWall(a) => w.place_v(g, u32::from(a)),
                    QuoridorMove::Pawn(_) => continue,
                }
                let d = |s: usize| {
                    i64::from(w.distance(g.n, bit(self.pawn(s)), g.goal[s]).unwrap_or(0))
                };
                let gain = (d(me ^ 1) - i64::from(theirs)) - (d(me) - i64::from(mine));
                if gain > best_gain {
                    best_gain = gain;
                    best.clear();
                }
                if gain == best_gain && gain > 0 {
                    best.push(mv);
                }
            }
            if !best.is_empty() {
                return Some(best[rng.gen_range(0..best.len())]);
            }
        }
        let steps = self.best_steps();
        if steps.is_empty() {
            return None;
        }
        Some(steps[rng.gen_range(0..steps.len())])
    }
}
