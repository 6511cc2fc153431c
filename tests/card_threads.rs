//! ISMCTS and PIMC on several threads: the iteration budget is shared out
//! exactly (every thread's iterations count, none is lost), a seeded
//! search repeats, and a stopped one still answers a legal move.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use rand::SeedableRng;
use tabula::games::hearts::Hearts;
use tabula::games::wizard::Wizard;
use tabula::model::game::{Game, Rng, Seat, Turn};
use tabula::model::options::Options;
use tabula::search::ismcts::Ismcts;
use tabula::search::pimc::Pimc;
use tabula::search::sampling::SampledSearch as _;
use tabula::search::{Budget, Control, Search};

/// A game of `G` dealt with `seed` and played at random for `plies`
/// decisions (and on to a choice of more than one move), at that seat's
/// decision.
fn dealt<G: Game>(words: &[&str], seed: u64, plies: usize) -> (G, Seat) {
    let mut g = G::new_game(&Options::parse(G::OPTIONS, words).expect("options")).expect("game");
    let mut rng = Rng::seed_from_u64(seed);
    let mut buf = Vec::new();
    let mut played = 0;
    loop {
        match g.turn() {
            Turn::Chance => {
                let m = g.sample_chance(&mut rng);
                g.apply(m);
            }
            Turn::Player(p)
                if played >= plies && {
                    g.legal_moves(&mut buf);
                    buf.len() > 1
                } =>
            {
                return (g, p);
            }
            Turn::Player(_) => {
                let m = g.random_move(&mut rng, &mut buf);
                g.apply(m);
                played += 1;
            }
            Turn::Over => panic!("over before {plies} decisions"),
        }
    }
}

fn iterations(n: u64) -> Budget {
    Budget {
        iterations: Some(n),
        ..Budget::default()
    }
}

/// Searches `state` twice with the same seed and once stopped before it
/// starts; checks the budget, the repeat and the legality.
fn check<G: Game, S: Search<G>>(mut make: impl FnMut() -> S, state: &G, seat: Seat, budget: u64) {
    let mut legal = Vec::new();
    state.legal_moves(&mut legal);
    let search = |s: &mut S, control: &Control| {
        let mut rng = Rng::seed_from_u64(11);
        s.search(state, seat, &iterations(budget), control, &mut rng)
    };
    let first = search(&mut make(), &Control::unlimited());
    assert_eq!(first.iterations, budget, "every thread's iterations count");
    assert!(legal.contains(&first.best));
    let again = search(&mut make(), &Control::unlimited());
    assert_eq!(first.best, again.best);
    assert_eq!(first.score, again.score);
    let stopped = Control::new(Arc::new(AtomicBool::new(true)), &Budget::default());
    let r = search(&mut make(), &stopped);
    assert!(legal.contains(&r.best));
    // Each thread stops at its first poll (64 iterations at most).
    assert!(r.iterations < budget / 2, "{}", r.iterations);
}

#[test]
fn ismcts_on_several_threads_spends_the_whole_budget_and_repeats() {
    let (hearts, seat) = dealt::<Hearts>(&["hands=single"], 3, 9);
    for threads in [2, 3] {
        check(
            || Ismcts::new(0.7).with_threads(threads),
            &hearts,
            seat,
            3001,
        );
    }
    let (wizard, seat) = dealt::<Wizard>(&["players=4"], 5, 6);
    check(|| Ismcts::new(0.7).with_threads(2), &wizard, seat, 2000);
}

#[test]
fn pimc_on_several_threads_spends_the_whole_budget_and_repeats() {
    let (hearts, seat) = dealt::<Hearts>(&["hands=single"], 4, 9);
    for threads in [2, 3] {
        check(|| Pimc::new(0.7).with_threads(threads), &hearts, seat, 3001);
    }
    // More threads than worlds: each world is one thread's share.
    check(
        || Pimc::new(0.7).with_worlds(2).with_threads(3),
        &hearts,
        seat,
        500,
    );
}

#[test]
fn one_thread_or_several_find_the_same_clear_best_move() {
    // Late in a Hearts hand the best card is clear: root statistics
    // summed over the threads' trees must agree with one big tree.
    let (hearts, seat) = dealt::<Hearts>(&["hands=single"], 8, 40);
    let mut rng = Rng::seed_from_u64(1);
    let control = Control::unlimited();
    let one = Ismcts::new(0.7).search(&hearts, seat, &iterations(20_000), &control, &mut rng);
    let two = Ismcts::new(0.7).with_threads(2).search(
        &hearts,
        seat,
        &iterations(20_000),
        &control,
        &mut rng,
    );
    let pimc = Pimc::new(0.7).with_threads(2).search(
        &hearts,
        seat,
        &iterations(20_000),
        &control,
        &mut rng,
    );
    assert_eq!(one.best, two.best, "{} vs {}", one.score, two.score);
    assert_eq!(one.best, pimc.best);
}
