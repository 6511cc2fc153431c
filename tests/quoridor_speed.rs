//! Playout speed on 9x9 from the start (clone, random moves until the end,
//! read the result), two and four players. A measurement, not a test: it is ignored by default and
//! asserts nothing about time. Run it with
//! `cargo test --release --test quoridor_speed -- --ignored --nocapture`.
//!
//! The rate is given per second of this thread's CPU time (Linux
//! `/proc/thread-self/schedstat`) as well as per wall-clock second, since
//! the machine may be busy with other work.

// Inside `mod quoridor` so that `cargo test quoridor` selects these.
mod quoridor {
    use std::time::{Duration, Instant};

    use rand::SeedableRng;
    use tabula::game::{Game, Rng};
    use tabula::games::quoridor::{Quoridor, QuoridorGame};

    /// This thread's CPU time in seconds, where Linux tells it.
    fn thread_cpu_seconds() -> Option<f64> {
        let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
        let ns: f64 = text.split_whitespace().next()?.parse().ok()?;
        Some(ns / 1e9)
    }

    fn measure(walls: u32) {
        measure_for::<2>(walls);
    }

    fn measure_for<const P: usize>(walls: u32) {
        let start = QuoridorGame::<P>::new(9, walls, true, 400).expect("options");
        let mut rng = Rng::seed_from_u64(1);
        let mut buf = Vec::new();
        let (mut playouts, mut plies, mut p1, mut capped) = (0u64, 0u64, 0.0, 0u64);
        let cpu0 = thread_cpu_seconds();
        let t0 = Instant::now();
        while t0.elapsed() < Duration::from_secs(3) {
            for _ in 0..1000 {
                let mut g = start.clone();
                while !g.is_over() {
                    let mv = g.random_move(&mut rng, &mut buf);
                    g.apply(mv);
                }
                plies += u64::from(g.ply());
                p1 += g.outcome().scores[0];
                capped += u64::from(g.ply() >= 400);
                playouts += 1;
            }
        }
        let wall = t0.elapsed().as_secs_f64();
        let cpu = thread_cpu_seconds().zip(cpu0).map_or(wall, |(b, a)| b - a);
        println!(
            "quoridor 9x9 players={P} walls={walls}: {:.0} playouts per CPU second ({:.0} per wall \
             second), {:.1} plies per playout, {:.1} ns per ply, p1 scores {:.3}, {:.1}% reach \
             the ply cap",
            playouts as f64 / cpu,
            playouts as f64 / wall,
            plies as f64 / playouts as f64,
            cpu * 1e9 / plies as f64,
            p1 / playouts as f64,
            100.0 * capped as f64 / playouts as f64
        );
        assert!(playouts > 0);
    }

    #[test]
    #[ignore = "measurement; run with --ignored --nocapture"]
    fn perft_speed() {
        let start = Quoridor::new(9, 10, true, 400).expect("options");
        let cpu0 = thread_cpu_seconds();
        let t0 = Instant::now();
        let leaves = tabula::perft::perft(&start, 4);
        let wall = t0.elapsed().as_secs_f64();
        let cpu = thread_cpu_seconds().zip(cpu0).map_or(wall, |(b, a)| b - a);
        println!(
            "quoridor 9x9 perft 4 = {leaves}: {:.3} s CPU ({:.3} s wall), {:.0} leaves/s",
            cpu,
            wall,
            leaves as f64 / cpu
        );
    }

    #[test]
    #[ignore = "measurement; run with --ignored --nocapture"]
    fn random_playouts_per_second() {
        measure(10);
        // Without walls: the cost of the pawn phase alone.
        measure(0);
    }

    #[test]
    #[ignore = "measurement; run with --ignored --nocapture"]
    fn four_player_random_playouts_per_second() {
        measure_for::<4>(5);
        measure_for::<4>(0);
    }
}
