//! Alpha-beta hands the nodes whose depth reaches the end to the game's
//! exact solver (docs/tools.md, "Depth"): a depth budget at least the
//! empty squares of an Othello position answers with the solver's exact
//! margin, as an exact score, on one thread or several and whether the
//! depth is selective or exact; `solve_reach 0` keeps the solver out.

use rand::SeedableRng;
use tabula::engine::searchers::alpha_beta;
use tabula::engine::settings::{Selectivity, Settings};
use tabula::games::othello::Othello;
use tabula::model::game::{Game, Rng, Turn};
use tabula::search::{Budget, Control, ScoreKind, Search, SearchResult};

/// The position after `plies` random moves from the start, from `seed`.
fn position(seed: u64, plies: u32) -> Othello {
    let mut rng = Rng::seed_from_u64(seed);
    let mut buf = Vec::new();
    let mut s = Othello::start();
    for _ in 0..plies {
        if s.is_over() {
            break;
        }
        let mv = s.random_move(&mut rng, &mut buf);
        s.apply(mv);
    }
    s
}

/// Othello's alpha-beta as the engine builds it, searched to `depth`.
fn search(
    s: &Othello,
    depth: u32,
    threads: usize,
    tune: impl Fn(&mut Settings),
) -> SearchResult<u8> {
    let Turn::Player(seat) = s.turn() else {
        panic!("a position with a seat to move")
    };
    let mut settings = Settings::for_game("othello", 2, &[]);
    settings.hash = 4;
    settings.threads = threads;
    tune(&mut settings);
    let eval = tabula::engine::searchers::evaluator::<Othello>(&settings).expect("othello's eval");
    let budget = Budget {
        depth: Some(depth),
        ..Budget::default()
    };
    alpha_beta::<Othello>(&settings, eval).search(
        s,
        seat,
        &budget,
        &Control::unlimited(),
        &mut Rng::seed_from_u64(0),
    )
}

#[test]
fn a_depth_past_the_empties_answers_the_exact_margin() {
    // 16 to 18 empties at depth 20: the solver's margin, as an exact
    // score, on 1 or 2 threads, selective or exact depth (before the
    // hand-off, an exact depth 18 from 18 empties took 8-36 M nodes and
    // gave an evaluation, or a proven win or loss without its margin).
    let mut seen = 0;
    for seed in 0..6 {
        let s = position(seed, 42 + (seed % 3) as u32);
        if s.is_over() || s.empties().count_ones() > 18 {
            continue;
        }
        let (_, margin) = s.solve(&Control::unlimited(), 1 << 22).expect("not over");
        for threads in [1, 2] {
            for selectivity in [
                Selectivity::Exact,
                Settings::for_game("othello", 2, &[]).selectivity,
            ] {
                let r = search(&s, 20, threads, |set| set.selectivity = selectivity);
                assert_eq!(r.exact, Some(margin), "seed {seed}, {threads} threads");
                assert_eq!(r.kind, ScoreKind::Exact);
                assert!(s.is_legal(r.best));
            }
        }
        seen += 1;
    }
    assert!(seen >= 4, "{seen} positions");
}

#[test]
fn solve_reach_zero_keeps_the_solver_out_of_the_search() {
    // 12 empties at depth 14: without the solver, alpha-beta searches to
    // the end itself and reports a proven result (the margin its line
    // ends the game with), not the solver's exact one.
    let s = position(3, 48);
    assert!(!s.is_over());
    let r = search(&s, 14, 1, |set| set.solve_reach = 0);
    assert_eq!(r.kind, ScoreKind::Proven);
    let r = search(&s, 14, 1, |_| {});
    assert_eq!(r.kind, ScoreKind::Exact);
    assert!(r.exact.is_some());
}
