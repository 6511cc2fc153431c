//! Criterion benchmarks of the hot paths: Othello move generation and
//! flips (scalar and AVX2), playouts, perft, MCTS and ISMCTS iterations,
//! alpha-beta and the endgame solver, Quoridor move generation.
//!
//! `cargo bench` runs them all; `cargo bench -- othello/` a group. Each
//! reports a median time per call; divide to get rates (playout plies,
//! simulations per second).

use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use rand::SeedableRng;

use tabula::games::othello::{Othello, bitboard, endgame};
use tabula::games::quoridor::{Quoridor, Quoridor4};
use tabula::model::game::{Game, Rng, Turn, play_randomly};
use tabula::model::options::Options;
use tabula::search::alphabeta::AlphaBeta;
use tabula::search::ismcts::Ismcts;
use tabula::search::mcts::{Mcts, MctsConfig};
use tabula::search::pimc::Pimc;
use tabula::search::{Budget, Control, Search};
use tabula::tools::bench::first_decision_of_a_hand;
use tabula::tools::perft::perft;

/// Positions met in random games from the start, `plies` in.
fn othello_positions(plies: usize, count: u64) -> Vec<Othello> {
    let mut buf = Vec::new();
    (0..count)
        .filter_map(|seed| {
            let mut rng = Rng::seed_from_u64(seed);
            let mut s = Othello::start();
            for _ in 0..plies {
                if s.is_over() {
                    return None;
                }
                let mv = s.random_move(&mut rng, &mut buf);
                s.apply(mv);
            }
            (!s.is_over()).then_some(s)
        })
        .collect()
}

fn iterations(n: u64) -> Budget {
    Budget {
        iterations: Some(n),
        ..Budget::default()
    }
}

/// 1000 MCTS simulations with random playouts from `root`, on a fresh tree.
fn mcts_from<G: Game>(c: &mut Criterion, name: &str, root: &G, rng: &mut Rng) {
    search_from(c, name, root, || Mcts::<G>::new(MctsConfig::uct(1.4)), rng);
}

/// Times 1000 iterations of a fresh search from `make` at `root`, for the
/// seat to move.
fn search_from<G: Game, S: Search<G>>(
    c: &mut Criterion,
    name: &str,
    root: &G,
    make: impl Fn() -> S,
    rng: &mut Rng,
) {
    let seat = match root.turn() {
        Turn::Player(s) => s,
        _ => 0,
    };
    c.bench_function(name, |b| {
        b.iter_batched(
            &make,
            |mut search| {
                search
                    .search(root, seat, &iterations(1000), &Control::unlimited(), rng)
                    .iterations
            },
            BatchSize::LargeInput,
        )
    });
}

/// Times `moves` over the positions.
fn bench_moves(
    c: &mut Criterion,
    name: &str,
    positions: &[Othello],
    moves: impl Fn(u64, u64) -> u64,
) {
    c.bench_function(name, |b| {
        b.iter(|| {
            positions.iter().fold(0u64, |acc, s| {
                acc ^ moves(black_box(s.player()), s.opponent())
            })
        })
    });
}

/// Times `flips` for every legal move of the positions.
fn bench_flips(
    c: &mut Criterion,
    name: &str,
    positions: &[Othello],
    flips: impl Fn(u64, u64, usize) -> u64,
) {
    c.bench_function(name, |b| {
        b.iter(|| {
            positions.iter().fold(0u64, |mut acc, s| {
                let mut m = s.mobility();
                while m != 0 {
                    let sq = m.trailing_zeros() as usize;
                    m &= m - 1;
                    acc ^= flips(black_box(s.player()), s.opponent(), sq);
                }
                acc
            })
        })
    });
}

fn othello(c: &mut Criterion) {
    let positions = othello_positions(20, 64);
    bench_moves(
        c,
        "othello/moves scalar (64 midgame positions)",
        &positions,
        bitboard::moves,
    );
    bench_flips(
        c,
        "othello/flips scalar (every legal move of 64 positions)",
        &positions,
        bitboard::flips,
    );
    #[cfg(target_arch = "x86_64")]
    if tabula::games::othello::avx2::available() {
        use tabula::games::othello::avx2;
        // SAFETY (both closures): checked just above that the CPU has the
        // features the kernels are compiled for.
        bench_moves(
            c,
            "othello/moves avx2 (64 midgame positions)",
            &positions,
            |p, o| unsafe { avx2::moves(p, o) },
        );
        bench_flips(
            c,
            "othello/flips avx2 (every legal move of 64 positions)",
            &positions,
            |p, o, sq| unsafe { avx2::flips(p, o, sq) },
        );
    }
    let start = Othello::start();
    let mut rng = Rng::seed_from_u64(1);
    let mut buf = Vec::new();
    c.bench_function("othello/random playout from the start", |b| {
        b.iter(|| {
            let mut s = start;
            s.random_playout(&mut rng, &mut buf)
        })
    });
    c.bench_function("othello/random playout, generic loop", |b| {
        b.iter(|| {
            let mut s = start;
            play_randomly(&mut s, &mut rng, &mut buf)
        })
    });
    c.bench_function("othello/perft 7 (bulk counted)", |b| {
        b.iter(|| perft(&start, 7))
    });
    mcts_from(
        c,
        "othello/mcts 1000 simulations from the start",
        &start,
        &mut rng,
    );
    let midgame = othello_positions(24, 1)[0];
    c.bench_function("othello/alphabeta depth 6, midgame", |b| {
        b.iter_batched(
            || AlphaBeta::<Othello>::new(16),
            |mut ab| {
                let budget = Budget {
                    depth: Some(6),
                    ..Budget::default()
                };
                let seat = match midgame.turn() {
                    Turn::Player(s) => s,
                    _ => 0,
                };
                ab.search(&midgame, seat, &budget, &Control::unlimited(), &mut rng)
                    .best
            },
            BatchSize::LargeInput,
        )
    });
    let endgame_positions = othello_positions(46, 8);
    c.bench_function("othello/exact solve, 14 empties (8 positions)", |b| {
        b.iter(|| {
            endgame_positions
                .iter()
                .filter_map(|s| {
                    endgame::solve_exact(s.player(), s.opponent(), &Control::unlimited(), 16 << 20)
                })
                .map(|(_, score, _)| score)
                .sum::<i32>()
        })
    });
}

fn quoridor(c: &mut Criterion) {
    let Ok(start) = Quoridor::new_game(&Options::default()) else {
        return;
    };
    let mut rng = Rng::seed_from_u64(2);
    let mut buf = Vec::new();
    // Six random plies in: a few walls down, most still in hand.
    let mut crowded = start.clone();
    for _ in 0..6 {
        if crowded.is_over() {
            break;
        }
        let mv = crowded.random_move(&mut rng, &mut buf);
        crowded.apply(mv);
    }
    c.bench_function("quoridor/legal moves, 6 plies in", |b| {
        b.iter(|| {
            crowded.legal_moves(&mut buf);
            buf.len()
        })
    });
    c.bench_function("quoridor/random playout from the start", |b| {
        b.iter(|| {
            let mut s = start.clone();
            s.random_playout(&mut rng, &mut buf)
        })
    });
    mcts_from(
        c,
        "quoridor/mcts 1000 simulations from the start",
        &start,
        &mut rng,
    );
    quoridor_four(c, &mut rng);
}

/// Four-player Quoridor on 9x9, 5 walls each.
fn quoridor_four(c: &mut Criterion, rng: &mut Rng) {
    let Ok(start) = Options::parse(Quoridor4::OPTIONS, &["players=4"])
        .map_err(|e| e.to_string())
        .and_then(|o| Quoridor4::new_game(&o).map_err(|e| e.to_string()))
    else {
        return;
    };
    let mut buf = Vec::new();
    let mut crowded = start.clone();
    for _ in 0..8 {
        if crowded.is_over() {
            break;
        }
        let mv = crowded.random_move(rng, &mut buf);
        crowded.apply(mv);
    }
    c.bench_function("quoridor4/legal moves, 8 plies in", |b| {
        b.iter(|| {
            crowded.legal_moves(&mut buf);
            buf.len()
        })
    });
    c.bench_function("quoridor4/random playout from the start", |b| {
        b.iter(|| {
            let mut s = start.clone();
            s.random_playout(rng, &mut buf)
        })
    });
    mcts_from(
        c,
        "quoridor4/mcts 1000 simulations from the start",
        &start,
        rng,
    );
}

fn hearts(c: &mut Criterion) {
    let Some(hand) = first_decision_of_a_hand() else {
        return;
    };
    let Turn::Player(seat) = hand.turn() else {
        return;
    };
    let mut rng = Rng::seed_from_u64(3);
    let mut buf = Vec::new();
    c.bench_function("hearts/determinize and play out the hand", |b| {
        b.iter(|| {
            let mut world = hand.determinize(seat, &mut rng);
            world.random_playout(&mut rng, &mut buf)
        })
    });
    search_from(
        c,
        "hearts/ismcts 1000 iterations, first decision",
        &hand,
        || Ismcts::new(0.7),
        &mut rng,
    );
    search_from(
        c,
        "hearts/pimc 1000 iterations, first decision",
        &hand,
        || Pimc::new(0.7),
        &mut rng,
    );
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
}

criterion_group! {
    name = hot_paths;
    config = config();
    targets = othello, quoridor, hearts
}
criterion_main!(hot_paths);
