//! The constrained deal sampler against brute-force enumeration: every
//! consistent deal appears, none other does, and all about equally often.

use std::collections::HashMap;

use rand::SeedableRng;
use tabula::games::cards::{CardSet, Suit, Unseen, sample_deal};
use tabula::model::game::Rng;

/// Every deal of `u.pool` meeting the sizes and constraints, by brute force.
fn all_deals(u: &Unseen<4>) -> Vec<[u64; 4]> {
    let cards = u.pool.to_vec();
    let seats: Vec<usize> = (0..4).filter(|&s| u.need[s] > 0).collect();
    let mut out = Vec::new();
    let total = seats.len().pow(cards.len() as u32);
    for code in 0..total {
        let mut hands = [CardSet::EMPTY; 4];
        let mut c = code;
        for &card in &cards {
            hands[seats[c % seats.len()]].insert(card);
            c /= seats.len();
        }
        if (0..4)
            .all(|s| hands[s].len() == u.need[s] as usize && !hands[s].intersects(u.forbidden[s]))
        {
            out.push(hands.map(|h| h.0));
        }
    }
    out
}

fn check_uniform(u: &Unseen<4>, samples: usize, seed: u64) -> usize {
    let expected_deals = all_deals(u);
    assert!(!expected_deals.is_empty());
    assert!(u.feasible());
    let mut rng = Rng::seed_from_u64(seed);
    let mut counts: HashMap<[u64; 4], usize> = HashMap::new();
    for _ in 0..samples {
        let h = sample_deal(u, &mut rng).expect("feasible");
        let key = [h[0].0, h[1].0, h[2].0, h[3].0];
        assert!(expected_deals.contains(&key), "impossible deal {key:?}");
        *counts.entry(key).or_default() += 1;
    }
    let k = expected_deals.len() as f64;
    assert_eq!(
        counts.len(),
        expected_deals.len(),
        "some consistent deals never drawn"
    );
    let e = samples as f64 / k;
    let chi: f64 = counts.values().map(|&c| (c as f64 - e).powi(2) / e).sum();
    let bound = (k - 1.0) + 6.0 * (2.0 * (k - 1.0)).sqrt() + 10.0;
    assert!(
        chi < bound,
        "chi-square {chi:.1} over {k} deals, bound {bound:.1}"
    );
    expected_deals.len()
}

fn suits(list: &[Suit]) -> CardSet {
    list.iter()
        .fold(CardSet::EMPTY, |a, &s| a | CardSet::suit(s))
}

#[test]
fn tight_constraints_use_the_exact_sampler_and_stay_uniform() {
    // Three cards of each suit; each seat may hold only two suits. Only 9
    // of 34,650 size-respecting deals qualify, so rejection always fails.
    let pool: CardSet = "2C 3C 4C 2D 3D 4D 2H 3H 4H 2S 3S 4S".parse().unwrap();
    let mut u: Unseen<4> = Unseen {
        pool,
        ..Unseen::default()
    };
    u.need = [0, 4, 4, 4];
    u.forbidden[1] = suits(&[Suit::Hearts, Suit::Spades]);
    u.forbidden[2] = suits(&[Suit::Clubs, Suit::Spades]);
    u.forbidden[3] = suits(&[Suit::Clubs, Suit::Diamonds]);
    assert_eq!(check_uniform(&u, 9_000, 1), 9);
}

#[test]
fn loose_constraints_mix_both_samplers_and_stay_uniform() {
    // Nine cards, three seats of three; one void and one seat that cannot
    // hold two particular cards: rejection succeeds often but not always.
    let pool: CardSet = "2C 3C 4C 2D 3D 2H 3H 4H 5S".parse().unwrap();
    let mut u: Unseen<4> = Unseen {
        pool,
        ..Unseen::default()
    };
    u.need = [3, 0, 3, 3];
    u.forbidden[0] = suits(&[Suit::Hearts]);
    u.forbidden[2] = "2C 5S".parse().unwrap();
    let n = check_uniform(&u, 60_000, 2);
    assert!(n > 100, "{n}");
}

#[test]
fn infeasible_constraints_are_refused_not_forced() {
    let pool: CardSet = "2C 3C 4C 2D".parse().unwrap();
    let mut u: Unseen<4> = Unseen {
        pool,
        ..Unseen::default()
    };
    u.need = [0, 2, 2, 0];
    u.forbidden[1] = suits(&[Suit::Clubs]);
    u.forbidden[2] = suits(&[Suit::Clubs]);
    assert!(!u.feasible());
    assert!(sample_deal(&u, &mut Rng::seed_from_u64(0)).is_none());
    // Sizes that do not add up to the pool are refused too.
    u.forbidden = [CardSet::EMPTY; 4];
    u.need[1] = 3;
    assert!(!u.feasible());
    assert!(sample_deal(&u, &mut Rng::seed_from_u64(0)).is_none());
}

#[test]
fn ten_seats_are_dealt_with_their_constraints() {
    // Ten hands of two from twenty cards: seats 8 and 9 (beyond any fixed
    // limit of eight) carry voids that only a sampler sized by the game
    // can honour.
    let pool: CardSet = "2C 3C 4C 5C 6C 2D 3D 4D 5D 6D 2H 3H 4H 5H 6H 2S 3S 4S 5S 6S"
        .parse()
        .unwrap();
    let mut u: Unseen<10> = Unseen {
        pool,
        need: [2; 10],
        ..Unseen::default()
    };
    u.forbidden[8] = suits(&[Suit::Clubs, Suit::Diamonds, Suit::Hearts]);
    u.forbidden[9] = suits(&[Suit::Spades, Suit::Hearts]);
    assert!(u.feasible());
    let mut rng = Rng::seed_from_u64(10);
    let mut spades_at_8 = CardSet::EMPTY;
    for _ in 0..300 {
        let h = sample_deal(&u, &mut rng).expect("feasible");
        assert_eq!(h.iter().fold(CardSet::EMPTY, |a, &x| a | x), pool);
        for (s, hand) in h.iter().enumerate() {
            assert_eq!(hand.len(), 2, "seat {s}");
            assert!(!hand.intersects(u.forbidden[s]), "seat {s}: {hand}");
        }
        spades_at_8 |= h[8];
    }
    // Seat 8 is not stuck with the same two spades.
    assert!(spades_at_8.len() > 2, "{spades_at_8}");
    // Three seats (7, 8, 9) that may hold only spades need six of five.
    u.forbidden[9] = suits(&[Suit::Clubs, Suit::Diamonds, Suit::Hearts]);
    u.forbidden[7] = suits(&[Suit::Clubs, Suit::Diamonds, Suit::Hearts]);
    assert!(!u.feasible());
    assert!(sample_deal(&u, &mut Rng::seed_from_u64(0)).is_none());
}
