//! Othello perft from the start position (counts from the shared rules).

// In a module so that `cargo test othello` selects these tests by name.
mod othello {
    use std::time::Instant;

    use tabula::games::othello::Othello;
    use tabula::model::game::Game;
    use tabula::tools::perft::perft;

    const COUNTS: [u64; 11] = [
        4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284, 212258800,
    ];

    #[test]
    fn perft_1_to_8() {
        let start = Othello::start();
        for (d, &n) in COUNTS.iter().enumerate().take(8) {
            assert_eq!(perft(&start, d as u32 + 1), n, "depth {}", d + 1);
        }
    }

    /// Depths 9 and 10: a fraction of a second in release, too slow unoptimised.
    #[test]
    #[cfg_attr(debug_assertions, ignore)]
    fn perft_9_and_10() {
        let start = Othello::start();
        for d in [9u32, 10] {
            let t = Instant::now();
            assert_eq!(perft(&start, d), COUNTS[d as usize - 1], "depth {d}");
            eprintln!("perft {d}: {:?}", t.elapsed());
        }
    }

    /// Depth 11 (212,258,800 leaves), the speed target: run with
    /// `cargo test --release --test othello_perft -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn perft_11_timed() {
        let start = Othello::start();
        let t = Instant::now();
        assert_eq!(perft(&start, 11), COUNTS[10]);
        eprintln!("perft 11: {:?}", t.elapsed());
    }

    #[test]
    fn start_position_basics() {
        let g = Othello::start();
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let mut names: Vec<String> = moves.iter().map(|&m| g.move_text(m)).collect();
        names.sort();
        assert_eq!(names, ["c4", "d3", "e6", "f5"]);
        assert_eq!(g.move_count(), 4);
    }

    /// The same count on raw bitboards, without the generic driver's clones and
    /// move lists: how much the generic `perft` costs on top of move generation.
    #[test]
    #[ignore]
    fn perft_11_direct_bitboards() {
        use tabula::games::othello::bitboard::{flips, moves};
        fn count(p: u64, o: u64, depth: u32) -> u64 {
            let m = moves(p, o);
            if m == 0 {
                if moves(o, p) == 0 {
                    return 1; // the game is over: one leaf
                }
                return if depth == 1 {
                    1
                } else {
                    count(o, p, depth - 1)
                };
            }
            if depth == 1 {
                return m.count_ones() as u64;
            }
            let mut total = 0;
            let mut rest = m;
            while rest != 0 {
                let sq = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let f = flips(p, o, sq);
                total += count(o ^ f, p | f | (1 << sq), depth - 1);
            }
            total
        }
        let s = Othello::start();
        let t = Instant::now();
        assert_eq!(count(s.player(), s.opponent(), 11), COUNTS[10]);
        eprintln!("direct perft 11: {:?}", t.elapsed());
    }
}
