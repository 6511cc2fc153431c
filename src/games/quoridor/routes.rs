//! Route analytics for the evaluation (module `eval`): where a pawn
//! stands on its way, its wall-disjoint paths, its distance levels, and how
//! much one rival wall could still lengthen its route.

use super::QuoridorGame;
use super::board::{Levels, Walls, bit};
use crate::model::game::Seat;

impl<const P: usize> QuoridorGame<P> {
    /// The row of `seat`'s pawn (0 is row 1).
    pub(super) fn pawn_row(&self, seat: Seat) -> u32 {
        self.pawn(seat) / self.size()
    }

    /// Lengths of `seat`'s paths to its goal side that no single wall can
    /// cut two of, shortest first (see [`Walls::wall_disjoint_lengths`]);
    /// returns how many of `out` it filled.
    pub(super) fn wall_disjoint_lengths(&self, seat: Seat, out: &mut [u32]) -> usize {
        let g = self.geo();
        self.walls
            .wall_disjoint_lengths(g.n, self.pawn(seat), self.goal(seat), out)
    }

    /// `seat`'s distance levels and shortest path ([`Walls::levels`]).
    pub(super) fn levels(&self, seat: Seat) -> Option<Levels> {
        self.walls
            .levels(self.geo().n, self.goal(seat), self.pawn(seat))
    }

    /// What the worst single wall that `placer` could place against
    /// `seat`'s route would cost `seat`, in steps, less what it would cost
    /// `placer`'s own path, if `placer` waited until the pawn stood just
    /// before the edge it closes (the worst moment for the pawn): a
    /// corridor that one wall turns into a dead end shows as a large
    /// exposure however far along it the pawn is. Only a wall that closes
    /// an edge of one shortest path can lengthen it, so those are tried,
    /// each if it is legal now (free, and both pawns keep a path); walls
    /// that cost at most a step count as 0. Stops early once the exposure
    /// reaches `enough`. `mine` and `theirs` are the two pawns' levels.
    pub(super) fn route_exposure(
        &self,
        seat: Seat,
        mine: &Levels,
        placer: Seat,
        theirs: &Levels,
        enough: u32,
    ) -> u32 {
        let g = self.geo();
        let n = g.n;
        let goal = self.goal(seat);
        let (placer_from, placer_goal) = (bit(self.pawn(placer)), self.goal(placer));
        let (ns, ew) = (mine.ns, mine.ew);
        let (placer_ns, placer_ew) = (theirs.ns, theirs.ew);
        let placer_now = theirs.top as i64;
        let levels = &mine.layers[..=mine.top];
        // Squares beyond the pawn's own level read as unreachable: no
        // square of the path is.
        let dist = |s: u32| mine.of(s).map_or(i64::MAX, i64::from);
        let enough = i64::from(enough);
        // Whether a pawn on `before`, at level `k` of a shortest path,
        // loses at most one step to wall `w`, which closes its step down
        // and the edge `other`: another open step down, or one sideways
        // and then one down. A path that keeps going down never comes back
        // to level `k`, so below it only `other` could close it; when
        // `other` is a step down there, the search below decides.
        let cheap = |w: &Walls, before: u32, other: (u32, u32)| {
            let k = dist(before);
            let (p, q) = (dist(other.0), dist(other.1));
            if (p - q).abs() == 1 && p.max(q) < k {
                return false;
            }
            let (Some(&down), Some(&level)) = (
                levels.get((k - 1) as usize),
                levels.get(k as usize),
            ) else {
                return false;
            };
            let near = w.expand(n, bit(before)) & !bit(before);
            near & down != 0 || w.expand(n, near & level) & down != 0
        };
        // The cost of wall `w` to the pawn about to cross each edge it
        // closes that is on the path (`path`: the edges' first squares),
        // an edge given as its two squares (the one farther from the goal
        // is where the pawn stands), less its cost to the placer if it
        // closes an edge of the placer's path (`placer_path`); `None` for
        // an illegal wall, 0 for one that costs at most a step. The first
        // such square lies on the path before any closed edge, so the pawn
        // keeps a path now if it keeps one from there.
        let cost = |w: &Walls, path: u128, placer_path: u128, edges: [(u32, u32); 2]| {
            let before = |(a, b): (u32, u32)| if dist(a) > dist(b) { a } else { b };
            let (first, second) = match edges.map(|(a, _)| path & bit(a) != 0) {
                [true, true] => {
                    let (x, y) = (before(edges[0]), before(edges[1]));
                    if dist(y) > dist(x) { (y, Some(x)) } else { (x, Some(y)) }
                }
                [true, false] if cheap(w, before(edges[0]), edges[1]) => return Some(0),
                [false, true] if cheap(w, before(edges[1]), edges[0]) => return Some(0),
                [true, false] => (before(edges[0]), None),
                [false, true] => (before(edges[1]), None),
                [false, false] => return Some(0),
            };
            let own = if placer_path & (bit(edges[0].0) | bit(edges[1].0)) == 0 {
                0
            } else {
                i64::from(w.distance(n, placer_from, placer_goal)?) - placer_now
            };
            let after = |before: u32| w.distance(n, bit(before), goal);
            let mut most = i64::from(after(first)?) - dist(first);
            // The later square may be cut off: the pawn never stands there.
            if let Some(d) = second.and_then(|s| Some(i64::from(after(s)?) - dist(s))) {
                most = most.max(d);
            }
            Some(most - own)
        };
        let mut worst = 0i64;
        // A horizontal wall closes the northern edges of its anchor and of
        // the square east of it; a vertical one the eastern edges of its
        // anchor and of the square north of it.
        let mut anchors = (ns | (ns >> 1)) & self.walls.free_h(g);
        while anchors != 0 && worst < enough {
            let a = anchors.trailing_zeros();
            anchors &= anchors - 1;
            let mut w = self.walls;
            w.place_h(g, a);
            let edges = [a, a + 1].map(|s| (s, s + n));
            worst = worst.max(cost(&w, ns, placer_ns, edges).unwrap_or(0));
        }
        let mut anchors = (ew | (ew >> n)) & self.walls.free_v(g);
        while anchors != 0 && worst < enough {
            let a = anchors.trailing_zeros();
            anchors &= anchors - 1;
            let mut w = self.walls;
            w.place_v(g, a);
            let edges = [a, a + n].map(|s| (s, s + 1));
            worst = worst.max(cost(&w, ew, placer_ew, edges).unwrap_or(0));
        }
        u32::try_from(worst).unwrap_or(0)
    }
}
