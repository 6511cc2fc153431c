//! Board geometry and walls, as bitboards.
//!
//! Squares are numbered `row * n + col` (row 0 is player 1's home row,
//! column 0 is `a`), so an 11x11 board fits in a `u128`. A wall is named by
//! its anchor, the square at its south-west end; anchors use the same
//! numbering, restricted to columns `0..n-1` and rows `0..n-1`.
//!
//! Instead of storing walls as edges, [`Walls`] keeps two masks of *open*
//! edges (`open_n`: squares whose northern edge may be crossed; `open_e`:
//! squares whose eastern edge may be crossed), with the board edge already
//! folded in. One flood-fill step is then a handful of shifts and masks, so
//! reachability and distances cost a few dozen word operations.

/// The largest board side.
pub(crate) const MAX_N: usize = 11;

/// Goal side: the top row (player 1's goal).
pub(crate) const GOAL_NORTH: usize = 0;
/// Goal side: the bottom row.
pub(crate) const GOAL_SOUTH: usize = 1;
/// Goal side: the east column.
pub(crate) const GOAL_EAST: usize = 2;
/// Goal side: the west column.
pub(crate) const GOAL_WEST: usize = 3;

/// The masks that depend only on the board size.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Geo {
    /// The board side.
    pub n: u32,
    /// Squares not on the top row (their northern edge is not the board edge).
    pub can_north: u128,
    /// Squares not on the east column.
    pub can_east: u128,
    /// The goal sides, indexed by [`GOAL_NORTH`], [`GOAL_SOUTH`],
    /// [`GOAL_EAST`] and [`GOAL_WEST`]: the top row, the bottom row, the
    /// east column and the west column.
    pub goal: [u128; 4],
    /// Valid wall anchors.
    pub anchors: u128,
    /// Anchors in column `a`: a horizontal wall there touches the west edge.
    pub anchor_west: u128,
    /// Anchors in the last anchor column: touches the east edge.
    pub anchor_east: u128,
    /// Anchors in row 1: a vertical wall there touches the south edge.
    pub anchor_south: u128,
    /// Anchors in the last anchor row: touches the north edge.
    pub anchor_north: u128,
}

const fn row_mask(n: u32, row: u32) -> u128 {
    ((1u128 << n) - 1) << (row * n)
}

const fn col_mask(n: u32, col: u32) -> u128 {
    let mut m = 0u128;
    let mut r = 0;
    while r < n {
        m |= 1u128 << (r * n + col);
        r += 1;
    }
    m
}

const fn make_geo(n: u32) -> Geo {
    let empty = Geo {
        n,
        can_north: 0,
        can_east: 0,
        goal: [0; 4],
        anchors: 0,
        anchor_west: 0,
        anchor_east: 0,
        anchor_south: 0,
        anchor_north: 0,
    };
    if n < 3 {
        return empty;
    }
    let mut squares = 0u128;
    let mut r = 0;
    while r < n {
        squares |= row_mask(n, r);
        r += 1;
    }
    let top = row_mask(n, n - 1);
    let bottom = row_mask(n, 0);
    let east = col_mask(n, n - 1);
    let anchors = squares & !top & !east;
    Geo {
        n,
        can_north: squares & !top,
        can_east: squares & !east,
        goal: [top, bottom, east, col_mask(n, 0)],
        anchors,
        anchor_west: anchors & col_mask(n, 0),
        anchor_east: anchors & col_mask(n, n - 2),
        anchor_south: anchors & bottom,
        anchor_north: anchors & row_mask(n, n - 2),
    }
}

const fn make_geos() -> [Geo; MAX_N + 1] {
    let mut out = [make_geo(0); MAX_N + 1];
    let mut n = 0;
    while n <= MAX_N {
        out[n] = make_geo(n as u32);
        n += 1;
    }
    out
}

/// Geometry for every board side, indexed by the side.
pub(crate) static GEOS: [Geo; MAX_N + 1] = make_geos();

/// The one-bit mask of square `s`. The shift is masked so that even a
/// malformed move can never make it overflow (squares stop at 120).
#[inline]
pub(crate) fn bit(s: u32) -> u128 {
    1u128 << (s & 127)
}

/// Distance levels towards a goal side and a shortest path down them
/// ([`Walls::levels`]).
#[derive(Clone, Debug)]
pub(crate) struct Levels {
    /// `layers[k]`: the squares `k` steps from the goal, for `k <= top`.
    pub layers: [u128; MAX_N * MAX_N],
    /// The start square's distance.
    pub top: usize,
    /// The path's north-south edges, by their southern squares.
    pub ns: u128,
    /// The path's east-west edges, by their western squares.
    pub ew: u128,
}

impl Levels {
    /// The distance of square `s` from the goal, if it is within `top`.
    pub fn of(&self, s: u32) -> Option<u32> {
        self.layers[..=self.top]
            .iter()
            .position(|&l| l & bit(s) != 0)
            .map(|k| k as u32)
    }
}

/// The walls on the board and what they leave open.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Walls {
    /// Anchors of horizontal walls.
    pub h: u128,
    /// Anchors of vertical walls.
    pub v: u128,
    /// Interior lattice points (board corners that are not on the edge)
    /// touched by a wall, indexed like anchors: the point north-east of
    /// square `s` has index `s`. Used to skip path checks for walls that
    /// touch the obstacles at most once and so cannot close a region.
    pub touch: u128,
    /// Squares whose northern edge is open.
    pub open_n: u128,
    /// Squares whose eastern edge is open.
    pub open_e: u128,
}

impl Walls {
    /// No walls yet.
    pub fn new(g: &Geo) -> Walls {
        Walls {
            h: 0,
            v: 0,
            touch: 0,
            open_n: g.can_north,
            open_e: g.can_east,
        }
    }

    /// The set `r` grown by one step in every open direction.
    #[inline]
    pub fn expand(&self, n: u32, r: u128) -> u128 {
        r | ((r & self.open_n) << n)
            | ((r >> n) & self.open_n)
            | ((r & self.open_e) << 1)
            | ((r >> 1) & self.open_e)
    }

    /// Whether some square of `from` can reach some square of `goal`.
    #[inline]
    pub fn reaches(&self, n: u32, from: u128, goal: u128) -> bool {
        let mut r = from;
        loop {
            if r & goal != 0 {
                return true;
            }
            let next = self.expand(n, r);
            if next == r {
                return false;
            }
            r = next;
        }
    }

    /// The length of a shortest path from `from` to `goal`, ignoring pawns.
    pub fn distance(&self, n: u32, from: u128, goal: u128) -> Option<u32> {
        let mut r = from;
        let mut d = 0;
        loop {
            if r & goal != 0 {
                return Some(d);
            }
            let next = self.expand(n, r);
            if next == r {
                return None;
            }
            r = next;
            d += 1;
        }
    }

    /// Distances from every square to `goal` (`u8::MAX` where unreachable).
    pub fn distance_field(&self, n: u32, goal: u128) -> [u8; MAX_N * MAX_N] {
        let mut dist = [u8::MAX; MAX_N * MAX_N];
        let mut r = goal;
        let mut fresh = goal;
        let mut d = 0u8;
        while fresh != 0 {
            let mut f = fresh;
            while f != 0 {
                dist[f.trailing_zeros() as usize] = d;
                f &= f - 1;
            }
            let next = self.expand(n, r);
            fresh = next & !r;
            r = next;
            d = d.saturating_add(1);
        }
        dist
    }

    /// One shortest path from square `from` to `goal`, as the edges it
    /// uses: `(ns, ew)` where `ns` holds the southern square of each
    /// north-south edge and `ew` the western square of each east-west edge.
    /// `None` when the goal cannot be reached.
    pub fn path(&self, n: u32, from: u32, goal: u128) -> Option<(u128, u128)> {
        // Cumulative BFS layers: layers[k] = squares within k steps.
        let mut layers = [0u128; MAX_N * MAX_N + 1];
        let mut k = 0;
        layers[0] = bit(from);
        while layers[k] & goal == 0 {
            let next = self.expand(n, layers[k]);
            if next == layers[k] || k + 1 >= layers.len() {
                return None;
            }
            k += 1;
            layers[k] = next;
        }
        // Walk back from a goal square, each time to a neighbour one layer
        // closer to the start.
        let mut t = (layers[k] & goal).trailing_zeros();
        let (mut ns, mut ew) = (0u128, 0u128);
        while k > 0 {
            k -= 1;
            let prev = layers[k];
            let south = t.checked_sub(n).map_or(0, bit);
            let west = if !t.is_multiple_of(n) { bit(t - 1) } else { 0 };
            if south & prev & self.open_n != 0 {
                ns |= south;
                t -= n;
            } else if bit(t) & self.open_n != 0 && bit(t + n) & prev != 0 {
                ns |= bit(t);
                t += n;
            } else if west & prev & self.open_e != 0 {
                ew |= west;
                t -= 1;
            } else {
                // The only neighbour left: east. (BFS guarantees one exists.)
                ew |= bit(t);
                t += 1;
            }
        }
        Some((ns, ew))
    }

    /// The squares at each distance from `goal`, out to square `from`'s
    /// distance (`None` when `from` cannot reach it), and the shortest path
    /// [`Walls::path`] finds.
    pub fn levels(&self, n: u32, goal: u128, from: u32) -> Option<Levels> {
        let mut out = Levels {
            layers: [0; MAX_N * MAX_N],
            top: 0,
            ns: 0,
            ew: 0,
        };
        out.layers[0] = goal;
        let mut reached = goal;
        while reached & bit(from) == 0 {
            let next = self.expand(n, reached);
            if next == reached || out.top + 1 >= out.layers.len() {
                return None;
            }
            out.top += 1;
            out.layers[out.top] = next & !reached;
            reached = next;
        }
        // The same path as [`Walls::path`]: which of several shortest
        // paths is taken decides which walls are tried against it.
        (out.ns, out.ew) = self.path(n, from, goal)?;
        Some(out)
    }

    /// Lengths of paths from square `from` to `goal`, shortest first, of
    /// which no single wall can cut two: found greedily, each a shortest
    /// path once the edges of the ones before, and every edge one wall
    /// could close together with one of those, are taken away. Fills `out`
    /// as far as such paths exist and returns how many it found. A wall
    /// closes two neighbouring parallel edges (the northern edges of `s`
    /// and `s + 1`, or the eastern edges of `s` and `s + n`), so `k` walls
    /// cut at most `k` of these paths: the `k + 1`-th length bounds the
    /// path left after any `k` walls placed now.
    pub fn wall_disjoint_lengths(&self, n: u32, from: u32, goal: u128, out: &mut [u32]) -> usize {
        let mut rest = *self;
        for (k, slot) in out.iter_mut().enumerate() {
            let Some((ns, ew)) = rest.path(n, from, goal) else {
                return k;
            };
            *slot = ns.count_ones() + ew.count_ones();
            // Shifts that wrap round a row only take away more edges: the
            // later paths may come out longer, never shorter.
            rest.open_n &= !(ns | (ns << 1) | (ns >> 1));
            rest.open_e &= !(ew | (ew << n) | (ew >> n));
        }
        out.len()
    }

    /// Anchors where a horizontal wall would not overlap or cross a wall.
    #[inline]
    pub fn free_h(&self, g: &Geo) -> u128 {
        g.anchors & !(self.h | (self.h << 1) | (self.h >> 1) | self.v)
    }

    /// Anchors where a vertical wall would not overlap or cross a wall.
    #[inline]
    pub fn free_v(&self, g: &Geo) -> u128 {
        let n = g.n;
        g.anchors & !(self.v | (self.v << n) | (self.v >> n) | self.h)
    }

    /// Whether a horizontal wall at `a` would not overlap or cross a wall.
    #[inline]
    pub fn is_free_h(&self, g: &Geo, a: u32) -> bool {
        let b = bit(a);
        b & g.anchors != 0 && self.h & (b | (b << 1) | (b >> 1)) == 0 && self.v & b == 0
    }

    /// Whether a vertical wall at `a` would not overlap or cross a wall.
    #[inline]
    pub fn is_free_v(&self, g: &Geo, a: u32) -> bool {
        let b = bit(a);
        let n = g.n;
        b & g.anchors != 0 && self.v & (b | (b << n) | (b >> n)) == 0 && self.h & b == 0
    }

    /// Anchors where a horizontal wall would touch the existing walls or
    /// the board edge at two or more of its three points. Only such a wall
    /// can close off a region: a wall touching at most once hangs free and
    /// leaves every connection as it was.
    #[inline]
    pub fn risky_h(&self, g: &Geo) -> u128 {
        let west = (self.touch << 1) | g.anchor_west;
        let mid = self.touch;
        let east = (self.touch >> 1) | g.anchor_east;
        g.anchors & ((west & mid) | (mid & east) | (west & east))
    }

    /// As [`Walls::risky_h`], for vertical walls.
    #[inline]
    pub fn risky_v(&self, g: &Geo) -> u128 {
        let n = g.n;
        let south = (self.touch << n) | g.anchor_south;
        let mid = self.touch;
        let north = (self.touch >> n) | g.anchor_north;
        g.anchors & ((south & mid) | (mid & north) | (south & north))
    }

    /// Places a horizontal wall at anchor `a` (no checks).
    #[inline]
    pub fn place_h(&mut self, g: &Geo, a: u32) {
        let b = bit(a);
        self.h |= b;
        self.open_n &= !(b | (b << 1));
        self.touch |= (b | (b << 1) | (b >> 1)) & g.anchors;
    }

    /// Places a vertical wall at anchor `a` (no checks).
    #[inline]
    pub fn place_v(&mut self, g: &Geo, a: u32) {
        let b = bit(a);
        let n = g.n;
        self.v |= b;
        self.open_e &= !(b | (b << n));
        self.touch |= (b | (b << n) | (b >> n)) & g.anchors;
    }

    /// Whether the northern edge of square `s` is open.
    #[inline]
    pub fn north_open(&self, s: u32) -> bool {
        self.open_n & bit(s) != 0
    }

    /// Whether the eastern edge of square `s` is open.
    #[inline]
    pub fn east_open(&self, s: u32) -> bool {
        self.open_e & bit(s) != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry_of_9x9() {
        let g = &GEOS[9];
        assert_eq!((g.can_north | g.goal[0]).count_ones(), 81);
        assert_eq!(g.anchors.count_ones(), 64);
        assert_eq!(g.goal[GOAL_NORTH].trailing_zeros(), 72);
        assert_eq!(g.goal[GOAL_SOUTH], 0x1ff);
        for goal in [GOAL_EAST, GOAL_WEST] {
            assert_eq!(g.goal[goal].count_ones(), 9);
        }
        assert_eq!(g.goal[GOAL_EAST].trailing_zeros(), 8);
        assert_eq!(g.goal[GOAL_WEST].trailing_zeros(), 0);
        assert_eq!(g.anchor_east.count_ones(), 8);
        assert_eq!(g.anchor_north.count_ones(), 8);
    }

    #[test]
    fn a_wall_lengthens_the_path() {
        let g = &GEOS[3];
        let mut w = Walls::new(g);
        assert_eq!(w.distance(3, bit(1), g.goal[0]), Some(2));
        // A horizontal wall above a1-b1 and one above c2 (a vertical stops
        // nothing here): the pawn on b1 must go round.
        w.place_h(g, 0);
        assert_eq!(w.distance(3, bit(1), g.goal[0]), Some(3));
        let (ns, ew) = w.path(3, 1, g.goal[0]).expect("path");
        assert_eq!(ns.count_ones() + ew.count_ones(), 3);
    }
}
