//! Quoridor against a deliberately naive reference: grid arrays of blocked
//! edges, wall lists, plain queue BFS, and move lists built by trying every
//! wall. Written apart from the bitboard engine; the two must agree on the
//! legal move lists of thousands of random positions, and on perft, for
//! two and for four players.

// Inside `mod quoridor` so that `cargo test quoridor` selects these.
mod quoridor {
    use std::collections::VecDeque;

    use crate::common::PlayText as _;
    use rand::{Rng, SeedableRng};
    use tabula::games::quoridor::{Quoridor, Quoridor4, QuoridorGame};
    use tabula::model::game::{Game, Rng as GameRng};
    use tabula::tools::perft::perft;

    /// The reference state. Coordinates are (column, row) from a1 = (0, 0).
    #[derive(Clone)]
    struct Ref {
        n: i32,
        jumps: bool,
        players: usize,
        pawns: Vec<(i32, i32)>,
        walls_left: Vec<u32>,
        to_move: usize,
        /// Placed walls: (column, row, horizontal).
        walls: Vec<(i32, i32, bool)>,
        /// blocked_up[c][r]: the edge between (c, r) and (c, r + 1) has a wall.
        blocked_up: Vec<Vec<bool>>,
        /// blocked_right[c][r]: the edge between (c, r) and (c + 1, r) has a wall.
        blocked_right: Vec<Vec<bool>>,
        over: bool,
        ply: u32,
        max_plies: u32,
    }

    impl Ref {
        fn new(players: usize, n: i32, walls: u32, jumps: bool, max_plies: u32) -> Ref {
            let m = n / 2;
            Ref {
                n,
                jumps,
                players,
                // Two players: south and north; four, clockwise: south,
                // west, north, east.
                pawns: if players == 2 {
                    vec![(m, 0), (m, n - 1)]
                } else {
                    vec![(m, 0), (0, m), (m, n - 1), (n - 1, m)]
                },
                walls_left: vec![walls; players],
                to_move: 0,
                walls: Vec::new(),
                blocked_up: vec![vec![false; n as usize]; n as usize],
                blocked_right: vec![vec![false; n as usize]; n as usize],
                over: false,
                ply: 0,
                max_plies,
            }
        }

        fn on_board(&self, (c, r): (i32, i32)) -> bool {
            c >= 0 && r >= 0 && c < self.n && r < self.n
        }

        /// Whether a pawn may cross from `a` to the orthogonal neighbour `b`.
        fn can_cross(&self, a: (i32, i32), b: (i32, i32)) -> bool {
            if !self.on_board(a) || !self.on_board(b) {
                return false;
            }
            let (dc, dr) = (b.0 - a.0, b.1 - a.1);
            match (dc, dr) {
                (0, 1) => !self.blocked_up[a.0 as usize][a.1 as usize],
                (0, -1) => !self.blocked_up[b.0 as usize][b.1 as usize],
                (1, 0) => !self.blocked_right[a.0 as usize][a.1 as usize],
                (-1, 0) => !self.blocked_right[b.0 as usize][b.1 as usize],
                _ => false,
            }
        }

        /// Whether `(c, r)` is on `seat`'s goal side (the opposite side).
        fn at_goal(&self, seat: usize, (c, r): (i32, i32)) -> bool {
            match (self.players, seat) {
                (_, 0) => r == self.n - 1,
                (2, _) | (_, 2) => r == 0,
                (_, 1) => c == self.n - 1,
                _ => c == 0,
            }
        }

        fn occupied(&self, q: (i32, i32)) -> bool {
            (0..self.players).any(|s| s != self.to_move && self.pawns[s] == q)
        }

        fn has_path(&self, seat: usize) -> bool {
            let n = self.n as usize;
            let mut seen = vec![vec![false; n]; n];
            let mut queue = VecDeque::new();
            let start = self.pawns[seat];
            seen[start.0 as usize][start.1 as usize] = true;
            queue.push_back(start);
            while let Some(p) = queue.pop_front() {
                if self.at_goal(seat, p) {
                    return true;
                }
                for (dc, dr) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                    let q = (p.0 + dc, p.1 + dr);
                    if self.can_cross(p, q) && !seen[q.0 as usize][q.1 as usize] {
                        seen[q.0 as usize][q.1 as usize] = true;
                        queue.push_back(q);
                    }
                }
            }
            false
        }

        fn pawn_moves(&self) -> Vec<(i32, i32)> {
            let me = self.pawns[self.to_move];
            let mut out = Vec::new();
            for (dc, dr) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                let q = (me.0 + dc, me.1 + dr);
                if !self.can_cross(me, q) {
                    continue;
                }
                if !self.jumps || !self.occupied(q) {
                    out.push(q);
                    continue;
                }
                let behind = (q.0 + dc, q.1 + dr);
                if self.can_cross(q, behind) && !self.occupied(behind) {
                    out.push(behind);
                } else {
                    for (sc, sr) in [(dr, dc), (-dr, -dc)] {
                        let side = (q.0 + sc, q.1 + sr);
                        if self.can_cross(q, side) && !self.occupied(side) {
                            out.push(side);
                        }
                    }
                }
            }
            out.sort();
            out.dedup();
            out
        }

        /// Places a wall if it is legal; returns whether it was.
        fn try_wall(&mut self, c: i32, r: i32, horizontal: bool) -> bool {
            if self.walls_left[self.to_move] == 0
                || c < 0
                || r < 0
                || c > self.n - 2
                || r > self.n - 2
            {
                return false;
            }
            let (cu, ru) = (c as usize, r as usize);
            // Overlap: one of the two edges already has a wall. Crossing: a wall
            // of the other orientation with the same midpoint.
            let overlap = if horizontal {
                self.blocked_up[cu][ru] || self.blocked_up[cu + 1][ru]
            } else {
                self.blocked_right[cu][ru] || self.blocked_right[cu][ru + 1]
            };
            if overlap || self.walls.contains(&(c, r, !horizontal)) {
                return false;
            }
            let saved = (self.blocked_up.clone(), self.blocked_right.clone());
            if horizontal {
                self.blocked_up[cu][ru] = true;
                self.blocked_up[cu + 1][ru] = true;
            } else {
                self.blocked_right[cu][ru] = true;
                self.blocked_right[cu][ru + 1] = true;
            }
            if !(0..self.players).all(|s| self.has_path(s)) {
                (self.blocked_up, self.blocked_right) = saved;
                return false;
            }
            self.walls.push((c, r, horizontal));
            true
        }

        fn square_text((c, r): (i32, i32)) -> String {
            format!("{}{}", (b'a' + c as u8) as char, r + 1)
        }

        fn legal(&self) -> Vec<String> {
            if self.over {
                return Vec::new();
            }
            let mut out: Vec<String> = self
                .pawn_moves()
                .into_iter()
                .map(Ref::square_text)
                .collect();
            for c in 0..self.n - 1 {
                for r in 0..self.n - 1 {
                    for h in [true, false] {
                        let mut probe = self.clone();
                        if probe.try_wall(c, r, h) {
                            out.push(format!(
                                "{}{}",
                                Ref::square_text((c, r)),
                                if h { 'h' } else { 'v' }
                            ));
                        }
                    }
                }
            }
            if out.is_empty() {
                out.push("pass".to_string());
            }
            out.sort();
            out
        }

        /// Plays a move given as text (assumed legal).
        fn play(&mut self, text: &str) {
            if text == "pass" {
                self.to_move = (self.to_move + 1) % self.players;
                self.ply += 1;
                self.over |= self.ply >= self.max_plies;
                return;
            }
            let b = text.as_bytes();
            let c = i32::from(b[0] - b'a');
            let digits: String = text[1..].chars().take_while(char::is_ascii_digit).collect();
            let r = digits.parse::<i32>().expect("row") - 1;
            match text.chars().last() {
                Some('h') | Some('v') => {
                    assert!(
                        self.try_wall(c, r, text.ends_with('h')),
                        "reference refuses {text}"
                    );
                    self.walls_left[self.to_move] -= 1;
                }
                _ => {
                    self.pawns[self.to_move] = (c, r);
                    if self.at_goal(self.to_move, (c, r)) {
                        self.over = true;
                    }
                }
            }
            self.to_move = (self.to_move + 1) % self.players;
            self.ply += 1;
            if self.ply >= self.max_plies {
                self.over = true;
            }
        }

        fn perft(&self, depth: u32) -> u64 {
            if depth == 0 || self.over {
                return 1;
            }
            let moves = self.legal();
            if depth == 1 {
                return moves.len() as u64;
            }
            moves
                .iter()
                .map(|m| {
                    let mut c = self.clone();
                    c.play(m);
                    c.perft(depth - 1)
                })
                .sum()
        }
    }

    fn engine_legal<const P: usize>(g: &QuoridorGame<P>) -> Vec<String> {
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let mut out: Vec<String> = moves.iter().map(|&m| g.move_text(m)).collect();
        out.sort();
        out
    }

    /// Plays random games on both implementations, comparing the legal move
    /// lists at every position; returns the number of positions compared.
    /// Pawn moves are favoured (`pawn_bias`) so that pawns meet and jump.
    fn compare(n: u32, walls: u32, jumps: bool, games: usize, pawn_bias: f64, seed: u64) -> usize {
        compare_for::<2>(n, walls, jumps, games, pawn_bias, seed).positions
    }

    /// What a comparison saw: positions, and among them those where the
    /// mover could jump (straight or diagonally) or had to pass.
    #[derive(Default)]
    struct Seen {
        positions: usize,
        jumps: usize,
        diagonals: usize,
        passes: usize,
    }

    fn compare_for<const P: usize>(
        n: u32,
        walls: u32,
        jumps: bool,
        games: usize,
        pawn_bias: f64,
        seed: u64,
    ) -> Seen {
        let mut rng = GameRng::seed_from_u64(seed);
        let mut buf = Vec::new();
        let mut seen = Seen::default();
        for _ in 0..games {
            let mut g = QuoridorGame::<P>::new(n, walls, jumps, 120).expect("options");
            let mut r = Ref::new(P, n as i32, walls, jumps, 120);
            loop {
                let expected = r.legal();
                assert_eq!(engine_legal(&g), expected, "position:\n{}", g.render());
                assert_eq!(g.move_count(), expected.len());
                assert_eq!(g.is_over(), r.over);
                seen.positions += 1;
                let (pc, pr) = r.pawns[r.to_move];
                for m in &expected {
                    let b = m.as_bytes();
                    if m == "pass" {
                        seen.passes += 1;
                    } else if !m.ends_with('h') && !m.ends_with('v') {
                        let c = i32::from(b[0] - b'a');
                        let row = m[1..].parse::<i32>().expect("row") - 1;
                        match ((c - pc).abs(), (row - pr).abs()) {
                            (2, 0) | (0, 2) => seen.jumps += 1,
                            (1, 1) => seen.diagonals += 1,
                            _ => {}
                        }
                    }
                }
                if r.over {
                    break;
                }
                // The engine's uniform random move must be one of the legal ones.
                let rm = g.random_move(&mut rng, &mut buf);
                assert!(
                    expected.contains(&g.move_text(rm)),
                    "random move {:?} illegal",
                    rm
                );
                let pawns: Vec<&String> = expected
                    .iter()
                    .filter(|m| !m.ends_with('h') && !m.ends_with('v'))
                    .collect();
                let mv = if rng.gen_bool(pawn_bias) && !pawns.is_empty() {
                    pawns[rng.gen_range(0..pawns.len())].clone()
                } else {
                    expected[rng.gen_range(0..expected.len())].clone()
                };
                g.play_checked(&mv)
                    .expect("engine accepts a reference move");
                r.play(&mv);
            }
        }
        seen
    }

    #[test]
    fn agrees_on_5x5_standard() {
        let mut total = 0;
        total += compare(5, 3, true, 60, 0.6, 1);
        total += compare(5, 8, true, 60, 0.3, 2);
        total += compare(3, 4, true, 100, 0.5, 3);
        println!("5x5 and 3x3: {total} positions");
        assert!(total > 3000, "{total}");
    }

    #[test]
    fn agrees_on_9x9_standard() {
        let mut total = 0;
        total += compare(9, 10, true, 20, 0.7, 4);
        total += compare(9, 20, true, 10, 0.4, 5);
        println!("9x9: {total} positions");
        assert!(total > 2500, "{total}");
        let total = compare(7, 12, true, 10, 0.6, 6);
        assert!(total > 500, "{total}");
    }

    #[test]
    fn agrees_without_jumps() {
        let mut total = 0;
        total += compare(5, 5, false, 20, 0.6, 7);
        total += compare(9, 10, false, 3, 0.6, 8);
        println!("without jumps: {total} positions");
        assert!(total > 300, "{total}");
    }

    #[test]
    fn perft_matches_reference() {
        for (n, walls, jumps, depth) in [
            (3, 1, true, 4),
            (5, 3, true, 3),
            (5, 5, false, 3),
            (9, 10, true, 2),
        ] {
            let g = Quoridor::new(n, walls, jumps, 400).expect("options");
            let r = Ref::new(2, n as i32, walls, jumps, 400);
            assert_eq!(
                perft(&g, depth),
                r.perft(depth),
                "n={n} jumps={jumps} depth={depth}"
            );
        }
        // Known from the rules: 3 pawn moves and 2*8*8 walls at the start.
        let g = Quoridor::new(9, 10, true, 400).expect("options");
        assert_eq!(perft(&g, 1), 131);
    }

    #[test]
    fn agrees_with_four_players() {
        let mut total = Seen::default();
        // Small boards and strong pawn bias: pawns meet, jump over one
        // another, get boxed in and pass.
        for (n, walls, jumps, games, bias, seed) in [
            (3, 1, true, 150, 0.8, 11),
            (5, 2, true, 80, 0.8, 12),
            (5, 6, true, 40, 0.4, 13),
            (7, 5, true, 20, 0.7, 14),
            (9, 5, true, 6, 0.6, 15),
            (5, 3, false, 30, 0.7, 16),
        ] {
            let s = compare_for::<4>(n, walls, jumps, games, bias, seed);
            total.positions += s.positions;
            total.jumps += s.jumps;
            total.diagonals += s.diagonals;
            total.passes += s.passes;
        }
        println!(
            "four players: {} positions, {} straight jumps, {} diagonal moves, {} passes",
            total.positions, total.jumps, total.diagonals, total.passes
        );
        assert!(total.positions > 3000, "{}", total.positions);
        assert!(total.jumps > 100 && total.diagonals > 100, "pawns meet");
        assert!(total.passes > 0, "a boxed-in pawn passes");
    }

    #[test]
    fn perft_matches_reference_with_four_players() {
        for (n, walls, jumps, depth) in [(3, 1, true, 5), (5, 2, true, 3), (9, 5, true, 2)] {
            let g = Quoridor4::new(n, walls, jumps, 400).expect("options");
            let r = Ref::new(4, n as i32, walls, jumps, 400);
            assert_eq!(
                perft(&g, depth),
                r.perft(depth),
                "n={n} jumps={jumps} depth={depth}"
            );
        }
        // 3 pawn moves and 2*8*8 walls at the start, for every seat.
        let g = Quoridor4::new(9, 5, true, 400).expect("options");
        assert_eq!(perft(&g, 1), 131);
    }
}
