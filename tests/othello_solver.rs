//! The exact endgame solver against FFO endgame positions.
//!
//! The positions and their best scores are published facts (the FFO test
//! set); each vector is the `.obf` board, the best moves (all moves reaching
//! the best score) and that score for the side to move, empties to the
//! winner.

// In a module so that `cargo test othello` selects these tests by name.
mod othello {
    use std::time::Instant;

    use tabula::games::othello::{Othello, endgame};
    use tabula::model::game::Game;
    use tabula::search::Control;

    struct Vector {
        name: &'static str,
        obf: &'static str,
        best: &'static [&'static str],
        score: i32,
    }

    const fn v(
        name: &'static str,
        obf: &'static str,
        best: &'static [&'static str],
        score: i32,
    ) -> Vector {
        Vector {
            name,
            obf,
            best,
            score,
        }
    }

    /// Small ones: 6 to 16 empties.
    const FAST: &[Vector] = &[
        v(
            "fforum-20-39 line 1",
            "XXXOXXXXOXXXXXXXOOXXXXXXOOOXXXXXOOOXXOO-OOOOO---OOOOOOO-OOOOOOO- X",
            &["h5"],
            6,
        ),
        v(
            "FFO #1",
            "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X",
            &["g8"],
            18,
        ),
        v(
            "FFO #2",
            "-XXXXXX---XOOOO--XOXXOOX-OOOOOOOOOOOXXOOOOOXXOOX--XXOO----XXXXX- X",
            &["a4"],
            10,
        ),
        v(
            "FFO #3",
            "----OX----OOXX---OOOXX-XOOXXOOOOOXXOXXOOOXXXOOOOOXXXXOXO--OOOOOX X",
            &["d1"],
            2,
        ),
        v(
            "FFO #8",
            "---X-X--X-XXXX--XXXXOXXXXXXOOOOOXXOXXXO-XOXXXXO-XOOXXX--XOOXXO-- O",
            &["e1"],
            8,
        ),
        v(
            "FFO #9",
            "--XOXX--O-OOXXXX-OOOXXXX-XOXXXOXXXOXOOOXOXXOXOXX--OXOO----OOOO-- O",
            &["g7", "a4"],
            -8,
        ),
        v(
            "FFO #13",
            "--XXXXX--OOOXX---OOOXXXX-OXOXOXXOXXXOXXX--XOXOXX--OXOOO--OOOOO-- X",
            &["b7"],
            14,
        ),
        v(
            "FFO #17",
            "-OOOOO----OXXO-XXXOOOXX-XXOXOXXOXXOOXOOOXXXXOO-OX-XOO----XXXX--- X",
            &["f8"],
            8,
        ),
    ];

    /// FFO #40 (20 empties).
    const FFO40: Vector = v(
        "FFO #40",
        "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X",
        &["a2"],
        38,
    );

    /// FFO #41-#44 (22 and 23 empties).
    const DEEP: &[Vector] = &[
        v(
            "FFO #41",
            "-OOOOO----OOOOX--OOOOOO-XXXXXOO--XXOOX--OOXOXX----OXXO---OOO--O- X",
            &["h4"],
            0,
        ),
        v(
            "FFO #42",
            "--OOO-------XX-OOOOOOXOO-OOOOXOOX-OOOXXO---OOXOO---OOOXO--OOOO-- X",
            &["g2"],
            6,
        ),
        v(
            "FFO #43",
            "--XXXXX---XXXX---OOOXX---OOXXXX--OOXXXO-OOOOXOO----XOX----XXXXX- O",
            &["g3", "c7"],
            -12,
        ),
        v(
            "FFO #44",
            "--O-X-O---O-XO-O-OOXXXOOOOOOXXXOOOOOXX--XXOOXO----XXXX-----XXX-- O",
            &["d2", "b8"],
            -14,
        ),
    ];

    /// CPU time of this thread in seconds (Linux), so timings mean something on
    /// a busy machine; `None` elsewhere.
    fn thread_cpu() -> Option<f64> {
        let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
        let ns: f64 = s.split_whitespace().next()?.parse().ok()?;
        Some(ns / 1e9)
    }

    fn check(vec: &Vector, via_hook: bool) {
        check_on(vec, via_hook, 1);
    }

    /// Solves `vec` on `threads` threads (the hook too, if `via_hook`).
    fn check_on(vec: &Vector, via_hook: bool, threads: usize) {
        let control = || Control::unlimited().with_threads(threads);
        let mut g = Othello::start();
        g.set_position(vec.obf).unwrap();
        let t = Instant::now();
        let cpu = thread_cpu();
        let (mv, score, nodes) =
            endgame::solve_exact(g.player(), g.opponent(), &control(), 16 << 20).unwrap();
        let wall = t.elapsed().as_secs_f64();
        let cpu = thread_cpu().zip(cpu).map_or(wall, |(b, a)| b - a);
        eprintln!(
            "{} on {threads} thread(s): {} {:+} in {cpu:.3} s CPU of this thread ({wall:.3} s wall), \
             {nodes} nodes ({:.1} Mn/s CPU)",
            vec.name,
            g.move_text(mv),
            score,
            nodes as f64 / cpu / 1e6
        );
        assert_eq!(score, vec.score, "{}", vec.name);
        assert!(
            vec.best.contains(&g.move_text(mv).as_str()),
            "{}: {} is not a best move",
            vec.name,
            g.move_text(mv)
        );
        if via_hook {
            let (hmv, hscore) = g.solve(&control(), 16 << 20).unwrap();
            assert_eq!(hscore, score, "{}: the Game hook disagrees", vec.name);
            assert!(
                vec.best.contains(&g.move_text(hmv).as_str()),
                "{}: the Game hook's {} is not a best move",
                vec.name,
                g.move_text(hmv)
            );
        }
    }

    #[test]
    fn small_ffo_positions() {
        for vec in FAST {
            check(vec, true);
        }
    }

    #[test]
    #[cfg_attr(debug_assertions, ignore)]
    fn ffo_40() {
        check(&FFO40, false);
    }

    /// Two and three threads split the search and share one table: the
    /// scores and best moves must not change.
    #[test]
    #[cfg_attr(debug_assertions, ignore)]
    fn several_threads_solve_as_one() {
        for threads in [2, 3] {
            for vec in FAST {
                check_on(vec, true, threads);
            }
            check_on(&FFO40, true, threads);
        }
    }

    /// Run with `cargo test --release --test othello_solver -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn ffo_41_to_44() {
        for vec in DEEP {
            check(vec, false);
            check_on(vec, false, 2);
        }
    }
}
