//! Alpha-beta at a fixed depth gives the value one thread gives, on any
//! number of threads (protocol.md, "Threads"), where the depth is asked
//! exact (`selectivity exact`, the engine-wide default; Othello's levels
//! are selective unless so set): an exact depth budget turns ProbCut off
//! and takes from the table only what a search of the same depth found,
//! so the value is the depth's minimax value whichever thread reached a
//! node first.

use rand::SeedableRng;
use tabula::engine::searchers::alpha_beta;
use tabula::engine::settings::{Selectivity, Settings};
use tabula::games::othello::Othello;
use tabula::games::quoridor::Quoridor;
use tabula::model::game::{Game, Rng, Turn};
use tabula::model::options::Options;
use tabula::search::{Budget, Control, Search};

/// `plies` random moves from `start`, from `seed`; `None` if the game
/// ended first.
fn random_from<G: Game>(start: &G, seed: u64, plies: u32) -> Option<G> {
    let mut rng = Rng::seed_from_u64(seed);
    let mut buf = Vec::new();
    let mut s = start.clone();
    for _ in 0..plies {
        if s.at_horizon() {
            return None;
        }
        let mv = s.random_move(&mut rng, &mut buf);
        s.apply(mv);
    }
    (!s.at_horizon()).then_some(s)
}

/// The score and depth of a fresh search of `state` to `depth` on
/// `threads` threads.
fn value_at<G: Game>(state: &G, depth: u32, threads: usize) -> (f64, u32) {
    let Turn::Player(seat) = state.turn() else {
        panic!("a position with a seat to move")
    };
    // As the engine tunes alpha-beta for the game, on a small table, the
    // depth asked exact.
    let mut settings = Settings::for_game(G::NAME, state.num_seats(), &[]);
    settings.selectivity = Selectivity::Exact;
    settings.hash = 4;
    settings.threads = 1;
    let mut search = alpha_beta::<G>(&settings, Default::default()).with_threads(threads);
    let budget = Budget {
        depth: Some(depth),
        ..Budget::default()
    };
    let r = search.search(
        state,
        seat,
        &budget,
        &Control::unlimited(),
        &mut Rng::seed_from_u64(0),
    );
    assert!(state.is_legal(r.best));
    (r.score, r.depth)
}

/// Positions where `threads` threads gave another value than one thread,
/// each searched `tries` times on the threads (a race shows only now and
/// then).
fn disagreements<G: Game>(
    positions: &[G],
    depths: &[u32],
    threads: usize,
    tries: usize,
) -> Vec<String> {
    let mut wrong = Vec::new();
    for (i, s) in positions.iter().enumerate() {
        for &depth in depths {
            let one = value_at(s, depth, 1);
            for _ in 0..tries {
                let many = value_at(s, depth, threads);
                if many != one {
                    wrong.push(format!(
                        "position {i} depth {depth}: {one:?} on 1 thread, {many:?} on {threads}"
                    ));
                    break;
                }
            }
        }
    }
    wrong
}

#[test]
fn othello_with_probcut_gives_one_threads_value_on_several() {
    // The default Othello: pattern evaluation, ProbCut on. On b28c4a8,
    // which kept ProbCut on under a depth budget, 2 or 3 of these 40
    // positions gave another value on 2 threads at depth 8, run after run.
    let positions: Vec<Othello> = (0..40)
        .filter_map(|seed| random_from(&Othello::start(), seed, 14 + (seed % 24) as u32))
        .collect();
    assert!(positions.len() > 30);
    let othello = Settings::for_game("othello", 2, &[]);
    assert!(othello.probcut, "ProbCut is on by default");
    // Othello's depth budgets are selective unless asked exact.
    assert_ne!(othello.selectivity, Selectivity::Exact);
    let exact = [("selectivity", "exact".to_string())];
    assert_eq!(
        Settings::for_game("othello", 2, &exact).selectivity,
        Selectivity::Exact
    );
    let wrong = disagreements(&positions, &[4, 8], 2, 2);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn quoridor_transpositions_give_one_threads_value_on_several() {
    // Pawns walk back and forth: the same position recurs at other
    // depths, where a deeper entry would answer for a shallower search.
    let start = Quoridor::new_game(&Options::default()).expect("quoridor");
    let positions: Vec<Quoridor> = (0..12)
        .filter_map(|seed| random_from(&start, seed, 6 + (seed % 10) as u32))
        .collect();
    let wrong = disagreements(&positions, &[3, 4], 2, 2);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn othello_near_the_end_gives_one_threads_value_on_several() {
    // Depths that reach the end hand the nodes (or the root) to the exact
    // solver, whose value is the position's own: the same on any number
    // of threads, beside the depths that stop short of it.
    let positions: Vec<Othello> = (0..12)
        .filter_map(|seed| random_from(&Othello::start(), seed, 44 + (seed % 6) as u32))
        .collect();
    assert!(positions.len() > 8);
    let wrong = disagreements(&positions, &[4, 8, 16], 2, 2);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
