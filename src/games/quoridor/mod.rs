//! Quoridor for two or four players, on odd boards from 3x3 to 11x11.
//!
//! Rules as in protocol.md (Games, Quoridor): a turn is a pawn step (with the standard jumps,
//! or the coursework variant `jumps=false` where pawns share squares and
//! never jump) or a two-square wall that may not overlap or cross another
//! wall and must leave every pawn a path to its goal side.
//!
//! Options: `players` (2 or 4), `size` (odd, 3..11, default 9), `walls` per
//! player (default `auto` = size*size/8 rounded down for two players: 10 on
//! 9x9, 3 on 5x5; size*size/16 for four: 5 on 9x9; `auto` is the default
//! only, not a value one can type), `jumps` (default true), `max_plies`
//! (default 400), `notation` (`tabula`, the default, or `openspiel`: the
//! texts OpenSpiel writes, rows numbered from p2's side) and `length`
//! (`max_plies`, the default, or `openspiel`: a draw at 4·size² plies, as
//! OpenSpiel ends its games).
//!
//! OpenSpiel's notation (`notation=openspiel`) is the same board with its
//! rows numbered the other way: a pawn on tabula's `c<r>` is OpenSpiel's
//! `c<N+1-r>` (p1 starts on e9 of 9x9), a wall `c<r>h` or `c<r>v` is
//! OpenSpiel's `c<N-r>h` or `c<N-r>v` (a wall names its square nearest
//! row 1 in either notation), and a forced pass is written as the
//! passing pawn's own square, as OpenSpiel writes it (`pass` is read too).
//! Columns and players are the same. The notation is the texts' only:
//! the game, its rules and its searches are unchanged.
//!
//! Two players: `p1` (seat 0, also `1`, `black` or `b`) starts in the middle
//! of row 1, moves first and aims for the last row; `p2` (seat 1, also `2`,
//! `white` or `w`) starts in the middle of the last row and aims for row 1.
//! Reaching the ply cap is a draw.
//!
//! Four players, in clockwise turn order: `p1` starts in the middle of row
//! 1 and aims for the last row, `p2` in the middle of column `a` and aims
//! for the last column, `p3` in the middle of the last row and aims for row
//! 1, `p4` in the middle of the last column and aims for column `a`. The
//! first pawn to arrive wins; the others are ranked by their distance to
//! their goal sides, and at the ply cap everyone is.
//!
//! Move text: a pawn move is its destination square (`e2`); a wall is its
//! south-west square plus `h` or `v` (`e3h` lies between rows 3 and 4
//! across columns e and f; `e3v` between columns e and f along rows 3
//! and 4); `pass` only when a player has no other move (a pawn boxed in by
//! walls and pawns, no walls in hand).
//!
//! Position text (`setboard`): the pawns' squares, the walls left of each
//! player, the player to move, then the walls, e.g. `e1 e9 10 10 p1`, or
//! `e1 a5 e9 i5 5 5 5 5 p1` for four players.
//!
//! Wall legality is fast: walls live in bitboards (module `board`), so a path
//! check is a flood fill of a few shifts per step, and most walls need no
//! check at all: a wall that touches the other walls and the board edge at
//! most once cannot close a region, and a wall that cuts no edge of a
//! player's current shortest path leaves that path intact.
//!
//! The two games are one generic type, [`QuoridorGame`], monomorphised per
//! player count ([`Quoridor`], [`Quoridor4`]): the two-player code keeps its
//! single-opponent fast paths, and alpha-beta is offered only where it
//! applies (two players). [`QuoridorFamily`] registers both under `quoridor`, picked
//! by the `players` option.

mod baseline;
mod board;
mod eval;
mod page;
mod routes;
mod text;

use rand::Rng as _;

use crate::model::game::{Game, MoveError, Outcome, PositionError, Rng, Seat, Turn};
use crate::games::{GameFamily, GameVisitor};
use crate::model::options::{OptionError, OptionSpec, Options};

use board::{GEOS, GOAL_EAST, GOAL_NORTH, GOAL_SOUTH, GOAL_WEST, Geo, Walls, bit};

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
    /// No move: legal only when the player has no pawn move and no wall.
    Pass,
}

/// A Quoridor game state for `P` players (2 or 4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuoridorGame<const P: usize> {
    /// Board side (odd, 3..=11).
    n: u8,
    /// Standard pawn rules (no sharing, jumps) or the coursework variant.
    jumps: bool,
    /// Plies after which the game ends.
    max_plies: u32,
    /// Move and position texts in OpenSpiel's notation (`notation=openspiel`):
    /// rows numbered from p2's side, a pass written as the pawn's square.
    openspiel_rows: bool,
    /// Two players: the ply that reaches the cap ends the game as a draw
    /// even when its pawn reaches the goal row (`length=openspiel`, as
    /// OpenSpiel ends a game).
    cap_draws: bool,
    /// Plies played so far.
    ply: u32,
    /// The seat to move.
    to_move: u8,
    /// Each pawn's square.
    pawns: [u8; P],
    /// Walls each player may still place.
    walls_left: [u8; P],
    /// Walls each player started with.
    walls_start: u8,
    /// The seat whose pawn reached its goal side.
    winner: Option<u8>,
    /// Four players, once the game is over: each seat's rank points, twice
    /// the number of seats it beats plus the number it ties with (by
    /// distance to the goal side; the winner's is 0). Unused for two.
    points: [u8; P],
    /// The walls on the board.
    walls: Walls,
    /// The open sides of every square ([`NORTH`] | [`SOUTH`] | ...), kept
    /// beside the bitboards so a pawn's steps are one table lookup; 256
    /// entries so that any `u8` square indexes it without a check.
    exits: [u8; 256],
}

/// Two-player Quoridor.
pub type Quoridor = QuoridorGame<2>;

/// Four-player Quoridor.
pub type Quoridor4 = QuoridorGame<4>;

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

/// The options Quoridor accepts (both player counts).
const OPTIONS: &[OptionSpec] = &[
    OptionSpec::choice("players", &["2", "4"], "2", "2 or 4 players"),
    OptionSpec::int("size", 3..=11, "9", "board side, odd (3, 5, 7, 9 or 11)"),
    OptionSpec::int("walls", 0..=100, "auto", "walls per player; auto = size*size/8 rounded down for 2 players (10 on 9x9), size*size/16 for 4 (5 on 9x9)"),
    OptionSpec::flag("jumps", "true", "standard pawn rules; false = pawns may share a square and never jump"),
    OptionSpec::int("max_plies", 1..=100_000, "400", "plies after which the game ends (2 players: a draw; 4: ranked by distance)"),
    OptionSpec::choice("notation", &["tabula", "openspiel"], "tabula", "move texts: tabula's (row 1 is p1's side), or openspiel (rows numbered from p2's side, a pass written as the pawn's square)"),
    OptionSpec::choice("length", &["max_plies", "openspiel"], "max_plies", "game length: max_plies, or openspiel (a draw at 4*size*size plies, the last ply included)"),
];

/// The player count the options ask for (2 unless `players=4`).
fn players_of(options: &Options) -> usize {
    if options.text("players") == "4" { 4 } else { 2 }
}

const SUMMARY: &str =
    "Quoridor: race your pawn across the board, block the others with walls (2 or 4 players)";

/// Its registry name (`game quoridor`).
pub const NAME: &str = "quoridor";

/// Its registry listing: the names GTP tools use, the options a page
/// may set.
pub const LISTING: crate::games::Listing = crate::games::Listing {
    gtp_names: &["Quoridor"],
    page_options: &["players", "size", "walls", "jumps", "max_plies"],
};

/// The registry's `quoridor`: [`Quoridor`] or [`Quoridor4`], picked by
/// the `players` option.
pub struct QuoridorFamily;

impl GameFamily for QuoridorFamily {
    const NAME: &'static str = <Quoridor as Game>::NAME;
    const SUMMARY: &'static str = SUMMARY;
    const OPTIONS: &'static [OptionSpec] = OPTIONS;
    fn visit<V: GameVisitor>(options: &Options, visitor: V) -> V::Output {
        match players_of(options) {
            4 => visitor.visit::<Quoridor4>(options),
            _ => visitor.visit::<Quoridor>(options),
        }
    }
}

/// What two-player Quoridor declares beyond its rules: how it is shown
/// to a person.
pub const EXTRAS_TWO: crate::model::extras::Extras<Quoridor> = crate::model::extras::Extras {
    pictures: Quoridor::PICTURES,
    ..crate::model::extras::Extras::NONE
};

/// What four-player Quoridor declares beyond its rules.
pub const EXTRAS_FOUR: crate::model::extras::Extras<Quoridor4> = crate::model::extras::Extras {
    pictures: Quoridor4::PICTURES,
    ..crate::model::extras::Extras::NONE
};

/// The goal side (index into [`Geo::goal`]) of each seat.
const fn goal_side(players: usize, seat: usize) -> usize {
    if players == 2 {
        [GOAL_NORTH, GOAL_SOUTH][seat & 1]
    } else {
        [GOAL_NORTH, GOAL_EAST, GOAL_SOUTH, GOAL_WEST][seat & 3]
    }
}

/// The start square of each seat on a board of side `n`.
fn start_square(players: usize, n: u32, seat: usize) -> u8 {
    let mid = n / 2;
    let s = match (players, seat) {
        (_, 0) => mid,
        (2, _) | (_, 2) => (n - 1) * n + mid,
        (_, 1) => mid * n,
        _ => mid * n + n - 1,
    };
    s as u8
}

impl<const P: usize> QuoridorGame<P> {
    /// A new game: board side `size` (odd, 3..=11), `walls` per player,
    /// standard jumps or not, and a ply cap.
    pub fn new(
        size: u32,
        walls: u32,
        jumps: bool,
        max_plies: u32,
    ) -> Result<QuoridorGame<P>, OptionError> {
        if P != 2 && P != 4 {
            return Err(OptionError::Invalid(format!(
                "Quoridor is played by 2 or 4 players, not {P}"
            )));
        }
        if !(3..=11).contains(&size) || size.is_multiple_of(2) {
            return Err(OptionError::Invalid(format!(
                "size must be odd, from 3 to 11 (3, 5, 7, 9 or 11), not {size}"
            )));
        }
        let walls = u8::try_from(walls)
            .map_err(|_| OptionError::Invalid(format!("too many walls: {walls}")))?;
        let g = &GEOS[size as usize];
        let mut exits = [0u8; 256];
        for s in 0..size * size {
            let (c, r) = (s % size, s / size);
            exits[s as usize] = if r + 1 < size { NORTH } else { 0 }
                | if r > 0 { SOUTH } else { 0 }
                | if c + 1 < size { EAST } else { 0 }
                | if c > 0 { WEST } else { 0 };
        }
        Ok(QuoridorGame {
            n: size as u8,
            jumps,
            max_plies: max_plies.max(1),
            openspiel_rows: false,
            cap_draws: false,
            ply: 0,
            to_move: 0,
            pawns: std::array::from_fn(|seat| start_square(P, size, seat)),
            walls_left: [walls; P],
            walls_start: walls,
            winner: None,
            points: [0; P],
            walls: Walls::new(g),
            exits,
        })
    }

    /// The number of players.
    pub fn players(&self) -> usize {
        P
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
        u32::from(self.pawns[seat % P])
    }

    /// The walls `seat` may still place.
    pub fn walls_left(&self, seat: Seat) -> u32 {
        u32::from(self.walls_left[seat % P])
    }

    /// Plies played so far.
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The goal squares of `seat` (a row or a column), as a bitboard.
    #[inline]
    fn goal(&self, seat: Seat) -> u128 {
        self.geo().goal[goal_side(P, seat)]
    }

    /// The squares of `seat`'s goal side (`row * size + col`), for a
    /// board that marks them.
    pub fn goal_squares(&self, seat: Seat) -> Vec<u32> {
        let goal = self.goal(seat);
        (0..128).filter(|&i| goal & (1u128 << i) != 0).collect()
    }

    /// The length of `seat`'s shortest path to its goal side, ignoring
    /// pawns.
    pub fn distance(&self, seat: Seat) -> u32 {
        let g = self.geo();
        // Every position keeps a path, so the fallback is never used.
        self.walls
            .distance(g.n, bit(self.pawn(seat)), self.goal(seat))
            .unwrap_or(g.n * g.n)
    }

    /// Every seat's shortest-path length.
    fn distances(&self) -> [u32; P] {
        std::array::from_fn(|s| self.distance(s))
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

    /// Whether a pawn other than `me`'s stands on `s`.
    #[inline]
    fn occupied(&self, s: u8, me: usize) -> bool {
        if P == 2 {
            self.pawns[me ^ 1] == s
        } else {
            (0..P).any(|i| i != me && self.pawns[i] == s)
        }
    }

    /// The pawn moves of the seat to move, written into `out`; returns
    /// their number (at most 8, each square once).
    #[inline]
    fn pawn_moves(&self, out: &mut [u8; 8]) -> usize {
        let me = self.to_move as usize;
        let p = self.pawns[me];
        let mut k = 0;
        let mut exits = self.exits[p as usize];
        while exits != 0 {
            let dir = exits & exits.wrapping_neg();
            exits &= exits - 1;
            let q = self.neighbour(p, dir);
            if !self.jumps || !self.occupied(q, me) {
                out[k] = q;
                k += 1;
                continue;
            }
            // Facing a pawn: jump straight over it if neither a wall nor
            // the edge (nor, with four players, a pawn) is behind it, else
            // step diagonally to either side of it, where no wall or pawn
            // is in the way.
            let beyond = self.exits[q as usize];
            if beyond & dir != 0 && !(P > 2 && self.occupied(self.neighbour(q, dir), me)) {
                out[k] = self.neighbour(q, dir);
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
                    let d = self.neighbour(q, side);
                    // Two pawns may offer the same diagonal square.
                    if P == 2 || !(self.occupied(d, me) || out[..k].contains(&d)) {
                        out[k] = d;
                        k += 1;
                    }
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

    /// Whether every pawn still reaches its goal side with `walls`.
    #[inline]
    fn keeps_paths(&self, walls: &Walls) -> bool {
        let n = self.geo().n;
        (0..P).all(|s| walls.reaches(n, bit(u32::from(self.pawns[s])), self.goal(s)))
    }

    /// Whether a wall is legal, given that its anchor is free: either it
    /// cannot close a region at all, or every path survives it.
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
        let legal_h = self.walls.free_h(g);
        let legal_v = self.walls.free_v(g);
        let risky_h = legal_h & self.walls.risky_h(g);
        let risky_v = legal_v & self.walls.risky_v(g);
        if risky_h | risky_v == 0 {
            return (legal_h, legal_v);
        }
        // A risky wall needs a check only for the players whose current
        // shortest path it cuts; any other path stays intact.
        let mut cut_h = [0u128; P];
        let mut cut_v = [0u128; P];
        for s in 0..P {
            match self.walls.path(n, u32::from(self.pawns[s]), self.goal(s)) {
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
        let keeps = |w: &Walls, b: u128, cuts: &[u128; P]| {
            (0..P).all(|s| {
                cuts[s] & b == 0 || w.reaches(n, bit(u32::from(self.pawns[s])), self.goal(s))
            })
        };
        // The risky walls of one orientation that cut some pawn off.
        let cutting = |horizontal: bool, risky: u128, cuts: &[u128; P]| {
            let mut cut_off = 0;
            let mut f = risky & cuts.iter().fold(0, |a, &c| a | c);
            while f != 0 {
                let a = f.trailing_zeros();
                f &= f - 1;
                let mut w = self.walls;
                if horizontal {
                    w.place_h(g, a);
                } else {
                    w.place_v(g, a);
                }
                if !keeps(&w, bit(a), cuts) {
                    cut_off |= bit(a);
                }
            }
            cut_off
        };
        (
            legal_h & !cutting(true, risky_h, &cut_h),
            legal_v & !cutting(false, risky_v, &cut_v),
        )
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

    /// Four players: ranks the seats by distance to their goal sides (the
    /// winner's is 0) into [`QuoridorGame::points`], once the game is over.
    fn rank_by_distance(&mut self) {
        let d = self.distances();
        for s in 0..P {
            let beaten = (0..P).filter(|&o| d[o] > d[s]).count();
            let tied = (0..P).filter(|&o| o != s && d[o] == d[s]).count();
            self.points[s] = (2 * beaten + tied) as u8;
        }
    }

    /// Each seat's share of the result in `[0, 1]`: 1 for the winner, 0
    /// for the loser, 1/2 each for a two-player draw; four players by rank
    /// (1, 2/3, 1/3, 0; tied ranks share).
    fn shares(&self) -> [f64; P] {
        if P == 2 {
            return match self.winner {
                Some(w) => std::array::from_fn(|s| if s == usize::from(w) { 1.0 } else { 0.0 }),
                None => [0.5; P],
            };
        }
        let top = (2 * (P - 1)) as f64;
        std::array::from_fn(|s| f64::from(self.points[s]) / top)
    }

    /// Whether the cheap pawn-only step of `random_move` applies: no walls
    /// in hand and no pawn next to the mover (the difference test may also
    /// flag a few squares that are not neighbours; they take the general
    /// path).
    #[inline]
    fn lone_walker(&self, me: usize) -> bool {
        if self.walls_left[me] != 0 {
            return false;
        }
        if !self.jumps {
            return true;
        }
        let (p, n) = (self.pawns[me], self.n);
        let near = |o: u8| {
            let diff = o.wrapping_sub(p);
            diff == n || diff == n.wrapping_neg() || diff == 1 || diff == 255
        };
        if P == 2 {
            !near(self.pawns[me ^ 1])
        } else {
            (0..P).all(|i| i == me || !near(self.pawns[i]))
        }
    }
}

impl<const P: usize> Game for QuoridorGame<P> {
    type Eval = crate::model::game::OwnEvaluation;
    type Move = QuoridorMove;

    const NAME: &'static str = NAME;
    const SUMMARY: &'static str = SUMMARY;
    const OPTIONS: &'static [OptionSpec] = OPTIONS;
    const TWO_PLAYER_ZERO_SUM: bool = P == 2;

    fn new_game(options: &Options) -> Result<Self, OptionError> {
        if players_of(options) != P {
            return Err(OptionError::Invalid(format!(
                "this is the {P}-player game, not players={}",
                options.text("players")
            )));
        }
        let size = options.int("size").unwrap_or(9);
        let size = u32::try_from(size)
            .map_err(|_| OptionError::Invalid(format!("bad board size {size}")))?;
        let walls = match options.int("walls") {
            Some(w) => {
                u32::try_from(w).map_err(|_| OptionError::Invalid(format!("bad wall count {w}")))?
            }
            None => size * size / (4 * P as u32),
        };
        let openspiel_length = options.text("length") == "openspiel";
        if openspiel_length && options.is_set("max_plies") {
            return Err(OptionError::Invalid(
                "length=openspiel sets the ply cap (4*size*size): give it or max_plies, not both"
                    .to_string(),
            ));
        }
        let max_plies = if openspiel_length {
            4 * size * size
        } else {
            options.int("max_plies").unwrap_or(400).clamp(1, 100_000) as u32
        };
        let jumps = match options.text("jumps") {
            "" => true,
            _ => options.flag("jumps"),
        };
        let mut game = QuoridorGame::new(size, walls, jumps, max_plies)?;
        game.openspiel_rows = options.text("notation") == "openspiel";
        game.cap_draws = openspiel_length;
        Ok(game)
    }

    fn num_seats(&self) -> usize {
        P
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
        if out.is_empty() {
            out.push(QuoridorMove::Pass);
        }
    }

    #[inline]
    fn apply(&mut self, mv: QuoridorMove) {
        let me = self.to_move as usize;
        match mv {
            QuoridorMove::Pawn(s) => {
                self.pawns[me] = s;
                if P == 2 {
                    // Row n-1 for player 1, row 0 for player 2.
                    let n = u32::from(self.n);
                    let s = u32::from(s);
                    if (me == 0 && s >= n * (n - 1) && s < n * n) || (me == 1 && s < n) {
                        self.winner = Some(me as u8);
                    }
                } else if self.goal(me) & bit(u32::from(s)) != 0 {
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
            QuoridorMove::Pass => {}
        }
        self.ply += 1;
        if P == 2 && self.cap_draws && self.ply >= self.max_plies {
            // OpenSpiel's rule: the cap's ply is a draw, even a winning one.
            self.winner = None;
        }
        self.to_move = if P == 2 {
            self.to_move ^ 1
        } else {
            (self.to_move + 1) % P as u8
        };
        if P > 2 && self.is_over() {
            self.rank_by_distance();
        }
    }

    /// The seat's share of the result (see [`QuoridorGame::outcome`]),
    /// moved towards 1/2 by 0.0001 a ply played (at most 0.05): of two
    /// wins the quicker is worth more, of two losses the slower, so that a
    /// search that sees only wins (or only losses) still makes progress.
    fn reward(&self, seat: Seat) -> f64 {
        let r = self.shares()[seat % P];
        let shrink = (f64::from(self.ply) * 1e-4).min(0.05);
        r - shrink * (2.0 * r - 1.0)
    }

    /// Two players: 1 for the winner, 0 for the other, 1/2 each at the ply
    /// cap. Four: the winner (the first to arrive) 1, the others by their
    /// distance to their goal sides 2/3, 1/3 and 0, tied seats sharing; at
    /// the ply cap every seat is ranked so and the nearest win.
    fn outcome(&self) -> Outcome {
        let scores = self.shares().to_vec();
        let winners = match self.winner {
            Some(w) => vec![usize::from(w)],
            None if P == 2 => Vec::new(),
            None => {
                let top = scores.iter().copied().fold(0.0, f64::max);
                (0..P).filter(|&s| scores[s] == top).collect()
            }
        };
        Outcome { scores, winners }
    }

    fn seat_name(&self, seat: Seat) -> String {
        format!("p{}", seat + 1)
    }

    /// `p1`..`p4`, also `1`..`4` (players count from one here); with two
    /// players the GTP colours `black` (= p1, who moves first) and `white`
    /// (= p2).
    fn parse_seat(&self, text: &str) -> Option<Seat> {
        let t = text.trim().to_ascii_lowercase();
        match t.as_str() {
            "black" | "b" if P == 2 => return Some(0),
            "white" | "w" if P == 2 => return Some(1),
            _ => {}
        }
        let digits = t.strip_prefix('p').unwrap_or(&t);
        match digits.parse::<usize>() {
            Ok(k) if (1..=P).contains(&k) && !digits.starts_with(['+', '0']) => Some(k - 1),
            _ => None,
        }
    }

    /// `e2`, `e3h`, `e3v`, `pass`; in OpenSpiel's notation the rows are
    /// numbered from p2's side and a pass is the mover's own square.
    fn move_text(&self, mv: QuoridorMove) -> String {
        if self.openspiel_rows && mv == QuoridorMove::Pass {
            let own = QuoridorMove::Pawn(self.pawns[self.to_move as usize]);
            return text::move_text(self.size(), self.openspiel_rows, own);
        }
        text::move_text(self.size(), self.openspiel_rows, mv)
    }

    /// Reads [`move_text`](Self::move_text)'s texts; in OpenSpiel's
    /// notation the mover's own square is its pass (the only way it can be
    /// legal).
    fn parse_move(&self, text: &str) -> Result<QuoridorMove, MoveError> {
        let mv = text::parse_move(self.size(), self.openspiel_rows, text)?;
        if self.openspiel_rows && mv == QuoridorMove::Pawn(self.pawns[self.to_move as usize]) {
            return Ok(QuoridorMove::Pass);
        }
        Ok(mv)
    }

    fn render(&self) -> String {
        text::render(self)
    }

    /// The pawns' squares, each player's walls left, the player to move,
    /// then the walls: `e3 e7 9 8 p1 e3h d5v c6h` (two players), `e1 a5 e9
    /// i5 5 5 5 5 p1` (four).
    fn position_text(&self) -> Option<String> {
        Some(text::position_text(self))
    }

    /// Reads a position text (see [`Game::position_text`]); the ply
    /// count restarts at 0. Refused, leaving the state as it was: pawns off
    /// the board or (with jumps) on one square, a pawn already on its goal
    /// side, walls that overlap, cross or cut a pawn off.
    fn set_position(&mut self, text: &str) -> Result<(), PositionError> {
        *self = text::parse_position(self, text)?;
        Ok(())
    }

    /// Uniform over the legal moves without listing the walls: draw a slot
    /// among the pawn moves and every (anchor, orientation) pair, and draw
    /// again when the slot is not a legal wall (rejection keeps it uniform).
    fn random_move(&self, rng: &mut Rng, buf: &mut Vec<QuoridorMove>) -> QuoridorMove {
        let me = self.to_move as usize;
        let (p, n) = (self.pawns[me], self.n);
        // Fast path for the long pawn-only phase of a playout: with no
        // walls in hand and no other pawn next to this one, the moves are
        // exactly the open exits: pick one by table, without branching per
        // exit.
        let exits = self.exits[p as usize] as usize;
        if exits != 0 && self.lone_walker(me) {
            let nth = rng.gen_range(0..EXIT_COUNT[exits]) as usize;
            let delta = [n, n.wrapping_neg(), 1, 255][EXIT_SELECT[exits][nth] as usize];
            return QuoridorMove::Pawn(p.wrapping_add(delta));
        }
        let mut pawns = [0u8; 8];
        let k = self.pawn_moves(&mut pawns);
        if k == 0 {
            // A pawn boxed in by walls and pawns: walls or a pass.
            return crate::model::game::random_legal_move(self, rng, buf).unwrap_or(QuoridorMove::Pass);
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

    /// The race (module `eval`): who arrives first, by how many plies,
    /// walls in hand; a race the others can no longer stop is scored as
    /// won (or lost) in its number of plies. A finished game is worth its
    /// share of the result, from -1 to 1.
    fn evaluate(&self, seat: Seat) -> f64 {
        if self.is_over() {
            return 2.0 * self.shares()[seat % P] - 1.0;
        }
        eval::evaluate(self, seat % P)
    }

    /// Counts from the wall bitboards, without listing the moves.
    fn move_count(&self) -> usize {
        if self.is_over() {
            return 0;
        }
        let (h, v) = self.legal_walls();
        let count = self.pawn_moves(&mut [0u8; 8]) + (h.count_ones() + v.count_ones()) as usize;
        count.max(1)
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
        // Seats 2 and 3, with four players.
        for s in 2..P {
            h = mix(h
                ^ (u64::from(self.pawns[s]) | u64::from(self.walls_left[s]) << 8)
                ^ (s as u64) << 56);
        }
        Some(h)
    }

    /// The rule player (module `baseline`): the race while not behind, the
    /// wall that hurts the leading rival most when behind.
    fn rules_move(&self, rng: &mut Rng) -> Option<QuoridorMove> {
        self.rules_choice(rng)
    }
}
