//! PIMC and ISMCTS: strength against random players in Hearts, use on a
//! perfect-information game, reproducibility and stopping. The speed
//! measurement is an ignored test: `cargo test --release --test
//! hearts_search -- --ignored --nocapture`.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use rand::SeedableRng;
use tabula::games::hearts::Hearts;
use tabula::model::game::{Game, MoveError, Outcome, Rng, Seat, Turn};
use tabula::model::options::{OptionError, OptionSpec, Options};
use tabula::search::ismcts::Ismcts;
use tabula::search::pimc::Pimc;
use tabula::search::{Ask, Budget, Control, Search};

fn game(words: &[&str]) -> Hearts {
    Hearts::new_game(&Options::parse(Hearts::OPTIONS, words).unwrap()).unwrap()
}

fn budget(n: u64) -> Budget {
    Budget {
        iterations: Some(n),
        ..Budget::default()
    }
}

/// Plays `hands` single hands with `search` at one seat (rotating) and
/// random players elsewhere; returns the searcher's and the random seats'
/// average points per hand.
fn average_points<S: Search<Hearts>>(
    search: &mut S,
    hands: u64,
    iterations: u64,
    options: &[&str],
) -> (f64, f64) {
    let control = Control::unlimited();
    let mut rng = Rng::seed_from_u64(2024);
    let mut buf = Vec::new();
    let (mut own, mut others) = (0.0, 0.0);
    for h in 0..hands {
        let me = (h % 4) as Seat;
        let mut g = game(options);
        while !g.is_over() {
            let mv = match g.turn() {
                Turn::Chance => g.sample_chance(&mut rng),
                Turn::Player(p) if p == me => {
                    search
                        .search(&g, me, &budget(iterations), &control, &mut rng)
                        .best
                }
                Turn::Player(_) => g.random_move(&mut rng, &mut buf),
                Turn::Over => unreachable!(),
            };
            g.apply(mv);
        }
        let s = g.last_hand_scores();
        own += s[me] as f64;
        others += (s.iter().sum::<i32>() - s[me]) as f64 / 3.0;
    }
    (own / hands as f64, others / hands as f64)
}

#[test]
fn ismcts_beats_random_players() {
    let (own, random) = average_points(
        &mut Ismcts::new(0.7),
        40,
        400,
        &["hands=single", "pass=none"],
    );
    eprintln!("ismcts {own:.2} points per hand, random players {random:.2}");
    assert!(own + 2.0 < random, "ismcts {own:.2} vs random {random:.2}");
}

#[test]
fn pimc_beats_random_players() {
    let (own, random) =
        average_points(&mut Pimc::new(0.7), 40, 400, &["hands=single", "pass=none"]);
    eprintln!("pimc {own:.2} points per hand, random players {random:.2}");
    assert!(own + 2.0 < random, "pimc {own:.2} vs random {random:.2}");
}

/// A "search" that plays the game's rule-based baseline.
struct Rules;

impl Search<Hearts> for Rules {
    fn choose(
        &mut self,
        ask: Ask<'_, Hearts>,
    ) -> tabula::search::SearchResult<tabula::games::hearts::HeartsMove> {
        let (root, _, _, _, rng) = ask.parts();
        let best = root
            .rules_move(rng)
            .expect("a rule move for the seat to move");
        tabula::search::SearchResult::unsearched(best, 0)
    }
}

#[test]
fn rule_based_baseline_beats_random_players() {
    let (own, random) = average_points(&mut Rules, 200, 0, &["hands=single"]);
    eprintln!("rules {own:.2} points per hand, random players {random:.2}");
    assert!(own + 1.5 < random, "rules {own:.2} vs random {random:.2}");
}

#[test]
fn searches_handle_the_pass() {
    // Hands with a pass: the pass is one decision among 286.
    let (own, random) = average_points(&mut Ismcts::new(0.7), 12, 600, &["hands=single"]);
    assert!(own < random, "ismcts {own:.2} vs random {random:.2}");
    let (own, random) = average_points(&mut Pimc::new(0.7), 12, 600, &["hands=single"]);
    assert!(own < random, "pimc {own:.2} vs random {random:.2}");
}

#[test]
fn searches_are_reproducible_and_stop_when_told() {
    let mut g = game(&["pass=none"]);
    g.apply(g.sample_chance(&mut Rng::seed_from_u64(3)));
    g.apply(
        g.legal_cards()
            .lowest()
            .map(tabula::games::hearts::HeartsMove::Play)
            .unwrap(),
    );
    let Turn::Player(p) = g.turn() else { panic!() };
    let control = Control::unlimited();
    for seed in 0..3 {
        let a = Ismcts::new(0.7).search(
            &g,
            p,
            &budget(2000),
            &control,
            &mut Rng::seed_from_u64(seed),
        );
        let b = Ismcts::new(0.7).search(
            &g,
            p,
            &budget(2000),
            &control,
            &mut Rng::seed_from_u64(seed),
        );
        assert_eq!(
            (a.best, a.score, a.iterations, a.pv.clone()),
            (b.best, b.score, b.iterations, b.pv)
        );
        assert_eq!(a.iterations, 2000);
        assert!((0.0..=1.0).contains(&a.score));
        let a = Pimc::new(0.7).search(
            &g,
            p,
            &budget(2000),
            &control,
            &mut Rng::seed_from_u64(seed),
        );
        let b = Pimc::new(0.7).search(
            &g,
            p,
            &budget(2000),
            &control,
            &mut Rng::seed_from_u64(seed),
        );
        assert_eq!(
            (a.best, a.score, a.iterations),
            (b.best, b.score, b.iterations)
        );
        assert_eq!(a.iterations, 2000);
    }
    let stopped = Arc::new(AtomicBool::new(true));
    let big = budget(1 << 40);
    let control = Control::new(stopped, &big);
    let r = Ismcts::new(0.7).search(&g, p, &big, &control, &mut Rng::seed_from_u64(1));
    assert!(r.iterations <= 64, "{}", r.iterations);
    let r = Pimc::new(0.7).search(&g, p, &big, &control, &mut Rng::seed_from_u64(1));
    assert!(r.iterations <= 64, "{}", r.iterations);
}

/// Nim with a pass-free rule set: take 1..=3 from one heap; whoever takes
/// the last object wins. A perfect-information game: determinize clones.
#[derive(Clone, Debug)]
struct Nim {
    heaps: [u8; 3],
    to_move: usize,
}

impl Game for Nim {
    type Eval = tabula::model::game::OwnEvaluation;
    type Move = (u8, u8);
    const NAME: &'static str = "nim";
    const SUMMARY: &'static str = "test nim";
    const OPTIONS: &'static [OptionSpec] = &[];
    const TWO_PLAYER_ZERO_SUM: bool = true;

    fn new_game(_: &Options) -> Result<Self, OptionError> {
        Ok(Nim {
            heaps: [3, 4, 5],
            to_move: 0,
        })
    }
    fn num_seats(&self) -> usize {
        2
    }
    fn turn(&self) -> Turn {
        if self.heaps.iter().all(|&h| h == 0) {
            Turn::Over
        } else {
            Turn::Player(self.to_move)
        }
    }
    fn legal_moves(&self, out: &mut Vec<(u8, u8)>) {
        out.clear();
        for (i, &h) in self.heaps.iter().enumerate() {
            for k in 1..=h.min(3) {
                out.push((i as u8, k));
            }
        }
    }
    fn apply(&mut self, (i, k): (u8, u8)) {
        self.heaps[i as usize] -= k;
        self.to_move = 1 - self.to_move;
    }
    fn reward(&self, seat: Seat) -> f64 {
        // The player to move at the end did not take the last object.
        if seat == self.to_move { 0.0 } else { 1.0 }
    }
    fn outcome(&self) -> Outcome {
        Outcome {
            scores: vec![self.reward(0), self.reward(1)],
            winners: vec![1 - self.to_move],
        }
    }
    fn move_text(&self, (i, k): (u8, u8)) -> String {
        format!("{i}:{k}")
    }
    fn parse_move(&self, text: &str) -> Result<(u8, u8), MoveError> {
        Err(MoveError::Syntax(text.to_string()))
    }
    fn render(&self) -> String {
        format!("{:?}", self.heaps)
    }
}

#[test]
fn searches_work_on_perfect_information_games() {
    // Heaps 1, 0, 2 with the move: the Grundy values (heap mod 4) are 1 and
    // 2; the only winning move takes one from the heap of 2 (XOR 1 ^ 1 = 0).
    let nim = Nim {
        heaps: [1, 0, 2],
        to_move: 0,
    };
    let control = Control::unlimited();
    let r = Ismcts::new(0.7).search(&nim, 0, &budget(3000), &control, &mut Rng::seed_from_u64(5));
    assert_eq!(r.best, (2, 1), "{r:?}");
    assert!(r.score > 0.8, "{r:?}");
    let r = Pimc::new(0.7).search(&nim, 0, &budget(3000), &control, &mut Rng::seed_from_u64(5));
    assert_eq!(r.best, (2, 1), "{r:?}");
}

/// `rules_playout` at 1 plays the rule player's move at every step (the
/// same hand as stepping through `rules_move`), at 0 it is the random
/// playout draw for draw, and in between it mixes the two.
#[test]
fn rules_playouts_follow_the_rule_player() {
    use tabula::search::playout::{random_playout, rules_playout};
    let mut rng = Rng::seed_from_u64(5);
    let mut buf = Vec::new();
    for hand in 0..8 {
        let mut start = game(&["hands=single", "pass=none"]);
        let deal = start.sample_chance(&mut rng);
        start.apply(deal);

        let mut by_hand = start.clone();
        let mut moves = 0;
        while !by_hand.at_horizon() {
            let mv = by_hand.rules_move(&mut rng).expect("a rule move");
            by_hand.apply(mv);
            moves += 1;
        }
        let mut guided = start.clone();
        let plies = rules_playout(&mut guided, 1.0, &mut Rng::seed_from_u64(hand), &mut buf);
        assert_eq!(plies, moves);
        assert_eq!(guided.last_hand_scores(), by_hand.last_hand_scores());

        let mut zero = start.clone();
        let mut random = start.clone();
        rules_playout(&mut zero, 0.0, &mut Rng::seed_from_u64(hand), &mut buf);
        random_playout(&mut random, &mut Rng::seed_from_u64(hand), &mut buf);
        assert_eq!(zero.last_hand_scores(), random.last_hand_scores());
    }
    // Half guided: over many hands the rule player's hands differ from
    // both pure policies' (a policy ignoring `rules` would match one).
    let start = {
        let mut g = game(&["hands=single", "pass=none"]);
        let deal = g.sample_chance(&mut rng);
        g.apply(deal);
        g
    };
    let mut pure = start.clone();
    rules_playout(&mut pure, 1.0, &mut rng, &mut buf);
    let mut differs = 0;
    for seed in 0..20 {
        let mut half = start.clone();
        rules_playout(&mut half, 0.5, &mut Rng::seed_from_u64(seed), &mut buf);
        let mut random = start.clone();
        random_playout(&mut random, &mut Rng::seed_from_u64(seed), &mut buf);
        if half.last_hand_scores() != pure.last_hand_scores()
            && half.last_hand_scores() != random.last_hand_scores()
        {
            differs += 1;
        }
    }
    assert!(differs > 0, "a half-guided playout is neither policy");
}
