//! Hearts hidden information: seat-bound states driven by `tell`, the
//! determinization sampler (consistency, uniformity) and the no-peeking
//! property.

// Seat-indexed parallel arrays read best with seat indices.
#![allow(clippy::needless_range_loop)]

use std::collections::HashMap;

use crate::common;

use common::{assert_no_peeking, bound_twin, follow, new_game, referee_move, rng, seat_bound};
use tabula::games::cards::{Card, CardSet};
use tabula::games::hearts::{Hearts, HeartsMove, Phase};
use tabula::model::game::{Game, Observation, Seat, Turn};

fn game(words: &[&str]) -> Hearts {
    new_game(words)
}

/// Runs a whole game from a self-dealt state, keeping four seat-bound
/// states in step through `tell`, and checks they agree at every hand end.
fn referee_game(options: &[&str], seed: u64, use_rules: bool) -> (Hearts, [Hearts; 4]) {
    let mut full = game(options);
    let bound: Vec<Hearts> = (0..4).map(|s| seat_bound(options, s)).collect();
    let mut bound: [Hearts; 4] = bound.try_into().unwrap();
    let mut r = rng(seed);
    let mut buf = Vec::new();
    while !full.is_over() {
        let (mv, mover) = referee_move(&full, &mut r, &mut buf, use_rules.then_some(0.5));
        assert!(full.is_legal(mv));
        for (s, b) in bound.iter_mut().enumerate() {
            if mover == Some(s) {
                // The engine at the mover's seat plays its own move first.
                assert_eq!(b.turn(), Turn::Player(s), "{}", b.render());
                assert!(
                    b.legal_moves_vec().contains(&mv),
                    "own move {} not legal in bound state",
                    full.move_text(mv)
                );
            }
            follow(b, s, &full, mv);
        }
        full.apply(mv);
        if full.at_horizon() {
            for b in &bound {
                assert!(b.at_horizon());
                assert_eq!(b.last_hand_scores(), full.last_hand_scores());
                assert_eq!(b.totals(), full.totals());
            }
        }
        if full.phase() == Phase::Play {
            for (s, b) in bound.iter().enumerate() {
                if b.phase() == Phase::Play {
                    assert_eq!(b.hand(s), full.hand(s), "seat {s} hand differs");
                }
            }
        }
    }
    (full, bound)
}

trait MovesVec {
    fn legal_moves_vec(&self) -> Vec<HeartsMove>;
}

impl MovesVec for Hearts {
    fn legal_moves_vec(&self) -> Vec<HeartsMove> {
        let mut v = Vec::new();
        self.legal_moves(&mut v);
        v
    }
}

#[test]
fn seat_bound_states_follow_the_referee_to_the_same_scores() {
    for seed in 0..12 {
        let (full, bound) = referee_game(&["target=60"], seed, seed % 2 == 0);
        for b in &bound {
            assert!(b.is_over());
            assert_eq!(b.outcome(), full.outcome());
        }
    }
    for seed in 0..4 {
        referee_game(
            &["hands=single", "pass=across", "qs_lead=false", "moon=minus"],
            100 + seed,
            true,
        );
        referee_game(
            &["hands=single", "pass=none", "first_trick_points=true"],
            200 + seed,
            true,
        );
    }
}

#[test]
fn tell_reveals_only_what_a_seat_may_see() {
    let mut full = game(&["hands=single"]);
    let mut r = rng(5);
    let deal = full.sample_chance(&mut r);
    let hands: Vec<_> = (0..4).map(|s| full.tell(deal, s)).collect();
    full.apply(deal);
    for s in 0..4 {
        assert_eq!(
            hands[s],
            vec![Observation::Dealt(HeartsMove::Hand(full.hand(s)))]
        );
    }
    // Passes are secret until the last one; then each seat hears its own.
    let mut passes = [CardSet::EMPTY; 4];
    for p in 0..4 {
        assert_eq!(full.turn(), Turn::Player(p));
        let pass = full.hand(p).iter().take(3).collect::<CardSet>();
        passes[p] = pass;
        let told: Vec<_> = (0..4)
            .map(|s| full.tell(HeartsMove::Pass(pass), s))
            .collect();
        if p < 3 {
            assert!(told.iter().all(|t| t.is_empty()), "{told:?}");
        } else {
            for s in 0..4 {
                // Hand 0 passes left: seat s receives from seat s - 1.
                assert_eq!(
                    told[s],
                    vec![Observation::Dealt(HeartsMove::Receive(passes[(s + 3) % 4]))]
                );
            }
        }
        full.apply(HeartsMove::Pass(pass));
    }
    // The opening lead: everyone hears the play; those who cannot know who
    // holds 2C hear that first.
    let Turn::Player(opener) = full.turn() else {
        panic!()
    };
    let mv = HeartsMove::Play(Card::TWO_CLUBS);
    for s in 0..4 {
        let told = full.tell(mv, s);
        let play = Observation::Played {
            seat: opener,
            mv: HeartsMove::Play(Card::TWO_CLUBS),
        };
        if s == opener {
            assert!(told.is_empty());
        } else if passes[s].contains(Card::TWO_CLUBS) {
            assert_eq!(told, vec![play]);
        } else {
            let holder = HeartsMove::Opener(opener as u8);
            assert_eq!(told, vec![Observation::Dealt(holder), play]);
            assert_eq!(
                full.move_text(holder),
                format!("{} 2C", full.seat_name(opener))
            );
        }
    }
}

/// Plays `n` random moves from a fresh self-dealt hand.
fn random_position(options: &[&str], seed: u64, n: usize) -> Hearts {
    let mut g = game(options);
    let mut r = rng(seed);
    let mut buf = Vec::new();
    g.apply(g.sample_chance(&mut r));
    for _ in 0..n {
        if g.at_horizon() {
            break;
        }
        let mv = g.random_move(&mut r, &mut buf);
        g.apply(mv);
    }
    g
}

/// Every determinization is a possible deal: right sizes, a partition of
/// the unplayed cards, the observer's hand and passed cards where they are,
/// and no card where a seat has shown it cannot be.
fn check_consistent(real: &Hearts, d: &Hearts, observer: Seat) {
    assert_eq!(d.observer(), None);
    assert_eq!(d.hand(observer), real.hand(observer));
    assert_eq!(d.turn(), real.turn());
    let mut all = d.played();
    for s in 0..4 {
        assert_eq!(d.hand(s).len(), real.hand_size(s), "seat {s} size");
        assert!(!all.intersects(d.hand(s)), "card in two places");
        all |= d.hand(s);
        assert!(
            !d.hand(s).intersects(real.forbidden(s)),
            "seat {s} holds a card it cannot hold"
        );
        assert_eq!(d.forbidden(s), real.forbidden(s));
    }
    if real.phase() == Phase::Play {
        assert_eq!(all, CardSet::DECK);
        if let Some(t) = real.pass_target(observer) {
            let kept = real.passed_cards(observer) - real.played();
            assert!(
                kept.is_subset(d.hand(t)),
                "passed cards not where they were passed"
            );
        }
        // The determinization is itself a legal full state.
        let mut v = Vec::new();
        d.legal_moves(&mut v);
        assert!(!v.is_empty());
    }
}

#[test]
fn sampler_never_deals_an_impossible_hand() {
    let mut checked_voids = 0;
    for seed in 0..300 {
        let options: &[&str] = if seed % 3 == 0 {
            &["pass=none"]
        } else {
            &["pass=left"]
        };
        let g = random_position(options, seed, 4 + (seed as usize * 7) % 44);
        let Turn::Player(p) = g.turn() else { continue };
        if (0..4).any(|s| !g.forbidden(s).is_empty()) {
            checked_voids += 1;
        }
        let mut r = rng(seed);
        for o in 0..4 {
            for _ in 0..20 {
                let d = g.determinize(o, &mut r);
                check_consistent(&g, &d, o);
            }
        }
        let _ = p;
    }
    assert!(
        checked_voids > 100,
        "too few positions with inferences: {checked_voids}"
    );
}

#[test]
fn sampler_is_roughly_uniform() {
    // Late in a no-pass hand, find a position with a void and few unseen
    // cards; count every distinct deal the sampler produces.
    for seed in 0.. {
        let g = random_position(&["pass=none"], seed, 40);
        let Turn::Player(o) = g.turn() else { continue };
        if g.phase() != Phase::Play || (0..4).all(|s| s == o || g.forbidden(s).is_empty()) {
            continue;
        }
        let unseen = CardSet::DECK - g.played() - g.hand(o);
        if unseen.len() < 6 {
            continue;
        }
        let mut r = rng(1);
        let mut counts: HashMap<[u64; 4], usize> = HashMap::new();
        let n = 40_000;
        for _ in 0..n {
            let d = g.determinize(o, &mut r);
            *counts.entry([0, 1, 2, 3].map(|s| d.hand(s).0)).or_default() += 1;
        }
        let k = counts.len() as f64;
        assert!(k >= 2.0);
        let expected = n as f64 / k;
        // Chi-square with k - 1 degrees of freedom: mean k - 1, sd sqrt(2(k-1)).
        let chi: f64 = counts
            .values()
            .map(|&c| (c as f64 - expected).powi(2) / expected)
            .sum();
        let bound = (k - 1.0) + 6.0 * (2.0 * (k - 1.0)).sqrt();
        assert!(
            chi < bound,
            "chi-square {chi:.1} over {k} deals (bound {bound:.1})"
        );
        if k >= 10.0 {
            return;
        }
    }
}

/// Builds a second self-dealt history with the same observations for
/// `observer` but different hidden hands: deal B's hands from a
/// determinization of A's position, then replay A's public moves.
fn same_observations_other_cards(
    a_start: &Hearts,
    moves: &[HeartsMove],
    observer: Seat,
    seed: u64,
) -> Hearts {
    let mut a = a_start.clone();
    let mut played_by: [CardSet; 4] = [CardSet::EMPTY; 4];
    let mut a_passes = [CardSet::EMPTY; 4];
    for &mv in moves {
        if let Turn::Player(p) = a.turn() {
            match mv {
                HeartsMove::Play(c) => played_by[p].insert(c),
                HeartsMove::Pass(s) => a_passes[p] = s,
                _ => {}
            }
        }
        a.apply(mv);
    }
    let d = a.determinize(observer, &mut rng(seed));
    // Hands after the exchange in B.
    let post: Vec<CardSet> = (0..4).map(|s| d.hand(s) | played_by[s]).collect();
    // Passes in B: the observer's and the ones it received are as in A;
    // the others are any three cards of the receiver's hand.
    let off = a_start.pass_target(0).map(|t| t % 4);
    let mut b_passes = [CardSet::EMPTY; 4];
    if let Some(off) = off {
        for s in 0..4 {
            let t = (s + off) % 4;
            b_passes[s] = if s == observer || t == observer {
                a_passes[s]
            } else {
                post[t]
                    .iter()
                    .filter(|&c| c != Card::TWO_CLUBS || post[t].len() < 3)
                    .take(3)
                    .collect()
            };
        }
    }
    let mut pre = [CardSet::EMPTY; 4];
    for s in 0..4 {
        pre[s] = post[s] | b_passes[s];
        if let Some(off) = off {
            pre[s] -= b_passes[(s + 4 - off) % 4];
        }
    }
    let mut b = a_start.clone();
    b.deal_hands(pre).unwrap();
    for &mv in moves.iter().skip(1) {
        let mv = match (b.turn(), mv) {
            (Turn::Player(p), HeartsMove::Pass(_)) => HeartsMove::Pass(b_passes[p]),
            _ => mv,
        };
        assert!(b.is_legal(mv), "{:?} not legal in B\n{}", mv, b.render());
        b.apply(mv);
    }
    b
}

#[test]
fn decisions_do_not_depend_on_unseen_cards() {
    use tabula::search::ismcts::Ismcts;
    use tabula::search::pimc::Pimc;
    use tabula::search::{Budget, Control, Search};
    let mut compared = 0;
    for seed in 0..12u64 {
        let options: &[&str] = if seed % 2 == 0 {
            &["pass=none"]
        } else {
            &["pass=right"]
        };
        let start = game(options);
        let mut a = start.clone();
        let mut r = rng(seed);
        let mut moves = vec![a.sample_chance(&mut r)];
        a.apply(moves[0]);
        let mut buf = Vec::new();
        for _ in 0..(5 + seed as usize * 3) {
            let mv = a.random_move(&mut r, &mut buf);
            moves.push(mv);
            a.apply(mv);
        }
        let Turn::Player(o) = a.turn() else { continue };
        let b = same_observations_other_cards(&start, &moves, o, 1000 + seed);
        assert_eq!(a.view_text(o), b.view_text(o), "the observations differ");
        let hidden_differs = (0..4).any(|s| s != o && a.hand(s) != b.hand(s));
        assert!(hidden_differs, "B should deal the unseen cards differently");
        // The seat-bound state that heard A's game knows what o knows too.
        let mut history = Vec::new();
        let mut replay = start.clone();
        for &mv in &moves {
            history.push((mv, replay.clone()));
            replay.apply(mv);
        }
        let bound: Hearts = bound_twin(options, o, &history);
        let budget = Budget {
            iterations: Some(600),
            ..Budget::default()
        };
        let control = Control::unlimited();
        assert_no_peeking(o, &a, &[&b, &bound], |g| {
            let p = Pimc::new(0.7).search(g, o, &budget, &control, &mut rng(seed));
            let i = Ismcts::new(0.7).search(g, o, &budget, &control, &mut rng(seed));
            (p.best, p.score, i.best, i.score)
        });
        compared += 1;
    }
    assert!(compared >= 8);
}

#[test]
fn seat_bound_determinization_matches_the_full_one() {
    // The seat-bound state and the full state hold the same knowledge for
    // the bound seat, so they draw the same worlds.
    let mut compared = 0;
    for seed in 0..6u64 {
        let mut full = game(&[
            "hands=single",
            if seed % 2 == 0 {
                "pass=none"
            } else {
                "pass=left"
            },
        ]);
        let mut bound = game(&[
            "hands=single",
            if seed % 2 == 0 {
                "pass=none"
            } else {
                "pass=left"
            },
            &format!("seat={}", seed % 4),
        ]);
        let o = (seed % 4) as usize;
        let mut r = rng(seed);
        let mut buf = Vec::new();
        for _ in 0..30 {
            let mv = match full.turn() {
                Turn::Chance => full.sample_chance(&mut r),
                _ => full.random_move(&mut r, &mut buf),
            };
            follow(&mut bound, o, &full, mv);
            full.apply(mv);
            if full.turn() == Turn::Player(o)
                && bound.turn() == Turn::Player(o)
                && full.phase() == Phase::Play
            {
                for k in 0..3 {
                    let a = full.determinize(o, &mut rng(k));
                    let b = bound.determinize(o, &mut rng(k));
                    assert_eq!(a.render(), b.render());
                    compared += 1;
                }
            }
        }
    }
    assert!(compared >= 12, "only {compared} comparisons");
}
