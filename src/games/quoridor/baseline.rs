//! The rule player (the baseline): step along a shortest path while not
//! behind in the race, else place the wall that hurts the leading rival
//! most relative to oneself.

use rand::Rng as _;

use super::board::{self, bit};
use super::{QuoridorGame, QuoridorMove, eval};
use crate::model::game::{Game, Rng, Seat};

impl<const P: usize> QuoridorGame<P> {
    /// Baseline: while not behind in the race (counting whose turn it is),
    /// step along a shortest path; when behind and walls remain, place the
    /// wall that lengthens the leading rival's path most relative to one's
    /// own, if any does. Ties are broken at random.
    pub(super) fn rules_choice(&self, rng: &mut Rng) -> Option<QuoridorMove> {
        if self.is_over() {
            return None;
        }
        let me = self.to_move as usize;
        let d = self.distances();
        let arrival = |s: usize| eval::arrival::<P>(d[s], s, me);
        let rival = (0..P)
            .filter(|&s| s != me)
            .min_by_key(|&s| arrival(s))
            .unwrap_or((me + 1) % P);
        if arrival(me) > arrival(rival) && self.walls_left[me] > 0 {
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
                    _ => continue,
                }
                let after = |s: usize| {
                    i64::from(
                        w.distance(g.n, bit(self.pawn(s)), self.goal(s))
                            .unwrap_or(0),
                    )
                };
                let gain = (after(rival) - i64::from(d[rival])) - (after(me) - i64::from(d[me]));
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
            let mut moves = Vec::new();
            self.legal_moves(&mut moves);
            return moves.first().copied();
        }
        Some(steps[rng.gen_range(0..steps.len())])
    }

    /// Distances from every square to `seat`'s goal side.
    fn distance_field(&self, seat: Seat) -> [u8; board::MAX_N * board::MAX_N] {
        self.walls.distance_field(self.geo().n, self.goal(seat))
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
