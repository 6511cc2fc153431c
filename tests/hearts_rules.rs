//! Hearts rules (protocol.md, Hearts): leads, following, the first trick, breaking
//! hearts, the seed variant, scoring and moon shots, passing, game end.

#![allow(clippy::needless_range_loop)]

use crate::common::PlayText as _;
use rand::SeedableRng;
use tabula::games::cards::{Card, CardSet, Suit};
use tabula::games::hearts::{Hearts, HeartsMove, Phase, points_of};
use tabula::model::game::{Game, MoveError, Rng, Turn};
use tabula::model::options::Options;

fn game(words: &[&str]) -> Hearts {
    Hearts::new_game(&Options::parse(Hearts::OPTIONS, words).unwrap()).unwrap()
}

fn cs(text: &str) -> CardSet {
    text.parse().unwrap()
}

/// A no-pass hand dealt as given (north, east, south, west).
fn dealt(options: &[&str], hands: [&str; 4]) -> Hearts {
    let mut words = vec!["pass=none"];
    words.extend_from_slice(options);
    let mut g = game(&words);
    g.deal_hands(hands.map(cs)).unwrap();
    g
}

fn legal(g: &Hearts) -> CardSet {
    let mut v = Vec::new();
    g.legal_moves(&mut v);
    v.into_iter()
        .map(|m| match m {
            HeartsMove::Play(c) => c,
            other => panic!("not a play: {other:?}"),
        })
        .collect()
}

/// Plays the cards in order, each checked for legality.
fn play(g: &mut Hearts, cards: &str) {
    for c in cards.split_whitespace() {
        g.play_checked(c)
            .unwrap_or_else(|e| panic!("{c}: {e}\n{}", g.render()));
    }
}

const ALL_CLUBS: &str = "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC";
const ALL_HEARTS: &str = "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH";

/// North has every club, east every heart, south QS and twelve diamonds,
/// west the ace of diamonds and twelve spades.
fn moon_deal(options: &[&str]) -> Hearts {
    dealt(
        options,
        [
            ALL_CLUBS,
            ALL_HEARTS,
            "QS 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
            "AD 2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS",
        ],
    )
}

/// A deal for the lead rules (see each test).
fn lead_deal(options: &[&str]) -> Hearts {
    dealt(
        options,
        [
            "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC 2H",
            "AC 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD 3H",
            "KD AD 2S 5H 6H 7H 8H 9H TH JH QH KH AH",
            "3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS 4H",
        ],
    )
}

#[test]
fn two_of_clubs_leads_and_suit_must_be_followed() {
    let mut g = lead_deal(&[]);
    assert_eq!(g.turn(), Turn::Player(0));
    assert_eq!(legal(&g), cs("2C"));
    assert!(matches!(g.play_checked("3C"), Err(MoveError::Illegal(_))));
    play(&mut g, "2C");
    // East holds one club: it must play it.
    assert_eq!(legal(&g), cs("AC"));
    assert!(g.play_checked("2D").is_err());
    play(&mut g, "AC");
    assert_eq!(g.trick().len(), 2);
}

#[test]
fn no_points_on_the_first_trick() {
    let mut g = lead_deal(&[]);
    play(&mut g, "2C AC");
    // South, void in clubs, holds diamonds and a spade: no hearts.
    assert_eq!(legal(&g), cs("KD AD 2S"));
    play(&mut g, "KD");
    // West, void in clubs: spades but not QS, not 4H.
    assert_eq!(legal(&g), cs("3S 4S 5S 6S 7S 8S 9S TS JS KS AS"));
    assert!(g.play_checked("QS").is_err());
    play(&mut g, "3S");
    // East took the trick with AC.
    assert_eq!(g.turn(), Turn::Player(1));
    assert_eq!(g.hand_points(), [0; 4]);
}

#[test]
fn first_trick_points_allowed_when_nothing_else_is_held() {
    // East holds only hearts: any heart may go on the first trick.
    let mut g = moon_deal(&[]);
    play(&mut g, "2C");
    assert_eq!(legal(&g), cs(ALL_HEARTS));
    play(&mut g, "2H");
    // South holds QS and diamonds: diamonds only.
    assert_eq!(legal(&g), cs("2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD"));

    // East holds only hearts and QS: all of them are allowed.
    let mut g = dealt(
        &[],
        [
            ALL_CLUBS,
            "QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
            "AH 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
            "AD 2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS",
        ],
    );
    play(&mut g, "2C");
    assert_eq!(legal(&g), cs("QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"));
    play(&mut g, "QS");
    // South: AH is a point card and diamonds are held.
    assert_eq!(legal(&g), cs("2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD"));
    play(&mut g, "2D 2S");
    assert_eq!(g.hand_points(), [13, 0, 0, 0]);

    // With first_trick_points=true (the seed has no such rule) points may go.
    let mut g = lead_deal(&["first_trick_points=true"]);
    play(&mut g, "2C AC");
    assert_eq!(legal(&g), cs("KD AD 2S 5H 6H 7H 8H 9H TH JH QH KH AH"));
}

#[test]
fn hearts_are_not_led_before_they_are_broken() {
    let mut g = lead_deal(&[]);
    play(&mut g, "2C AC KD 3S");
    // East leads trick 2 holding diamonds and 3H: no heart.
    assert!(!g.hearts_broken());
    assert_eq!(legal(&g), cs("2D 3D 4D 5D 6D 7D 8D 9D TD JD QD"));
    assert!(g.play_checked("3H").is_err());
    // South follows with AD, west discards 4H: hearts are broken.
    play(&mut g, "2D AD 4H 3C");
    assert!(g.hearts_broken());
    // South leads: hearts are allowed now.
    assert_eq!(legal(&g), cs("2S 5H 6H 7H 8H 9H TH JH QH KH AH"));
}

#[test]
fn a_leader_with_only_hearts_may_lead_them() {
    let mut g = lead_deal(&[]);
    // Trick 1: south keeps AD; trick 2: south wins with AD and is left with
    // hearts and 2S; trick 3: south leads 2S, west wins with AS.
    play(&mut g, "2C AC KD 3S");
    play(&mut g, "2D AD 5S 3C");
    assert!(!g.hearts_broken());
    assert_eq!(legal(&g), cs("2S"));
    play(&mut g, "2S AS 4C 3D");
    // West leads: QS is fine (qs_lead=true), 4H is not.
    assert_eq!(legal(&g), cs("4S 6S 7S 8S 9S TS JS QS KS"));
    // South wins trick 1 with AC holding nothing but hearts.
    let mut g = dealt(
        &[],
        [
            "2C 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
            "3C 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS",
            "AC 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
            "4C 5C 6C 7C 8C 9C TC JC QC KC 2D AS AH",
        ],
    );
    play(&mut g, "2C 3C AC 4C");
    // South won with AC and holds only hearts, hearts unbroken: all legal.
    assert_eq!(g.turn(), Turn::Player(2));
    assert!(!g.hearts_broken());
    assert_eq!(legal(&g), cs("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"));
    play(&mut g, "2H");
    // And the lead revealed that south holds nothing but hearts.
    assert_eq!(g.forbidden(2), CardSet::DECK - CardSet::suit(Suit::Hearts));
}

#[test]
fn queen_of_spades_breaks_hearts_unless_told_otherwise() {
    for (options, broken) in [(vec![], true), (vec!["qs_breaks_hearts=false"], false)] {
        let mut g = lead_deal(&options);
        play(&mut g, "2C AC KD 3S");
        // West discards QS on the diamond trick; south wins with AD.
        play(&mut g, "2D AD QS 3C");
        assert_eq!(g.hand_points(), [0, 0, 13, 0]);
        assert_eq!(g.hearts_broken(), broken, "{options:?}");
        let expected = if broken {
            "2S 5H 6H 7H 8H 9H TH JH QH KH AH"
        } else {
            "2S"
        };
        assert_eq!(legal(&g), cs(expected), "{options:?}");
    }
}

#[test]
fn seed_variant_forbids_leading_the_queen_before_hearts() {
    let mut g = lead_deal(&["qs_lead=false"]);
    play(&mut g, "2C AC KD 3S");
    play(&mut g, "2D AD 5S 3C");
    play(&mut g, "2S AS 4C 3D");
    // West leads holding QS and 4H, hearts unbroken: neither may be led.
    assert_eq!(legal(&g), cs("4S 6S 7S 8S 9S TS JS KS"));
    assert!(g.play_checked("QS").is_err());
    // QS played as a discard does not break hearts in the seed variant.
    let mut g = lead_deal(&["qs_lead=false"]);
    play(&mut g, "2C AC KD 3S");
    play(&mut g, "2D AD QS 3C");
    assert!(!g.hearts_broken());
    assert_eq!(legal(&g), cs("2S"));
    // A leader holding only hearts and QS may lead either.
    let mut g = dealt(
        &["qs_lead=false"],
        [
            "2C 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
            "3C 2S 3S 4S 5S 6S 7S 8S 9S TS JS AH KS",
            "AC QS 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
            "4C 5C 6C 7C 8C 9C TC JC QC KC 2D AS 2H",
        ],
    );
    play(&mut g, "2C 3C AC 4C");
    assert_eq!(legal(&g), cs("QS 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"));
}

#[test]
fn tricks_are_won_by_the_highest_card_of_the_led_suit() {
    let mut g = lead_deal(&[]);
    // AD and AS are higher cards but off-suit; AC wins.
    play(&mut g, "2C AC AD AS");
    assert_eq!(g.turn(), Turn::Player(1));
    assert_eq!(g.tricks_done(), 1);
}

fn play_moon(options: &[&str]) -> Hearts {
    let mut g = moon_deal(options);
    let diamonds = [
        "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD",
    ];
    let hearts: Vec<String> = cs(ALL_HEARTS).iter().map(|c| c.to_string()).collect();
    let clubs: Vec<String> = cs(ALL_CLUBS).iter().map(|c| c.to_string()).collect();
    let mut d = diamonds.iter();
    for t in 0..13 {
        // North leads clubs and wins every trick; east must throw a heart;
        // south throws QS on trick 2, otherwise diamonds; west anything.
        play(&mut g, &clubs[t]);
        play(&mut g, &hearts[t]);
        let south = if t == 1 {
            "QS".to_string()
        } else {
            d.next().unwrap().to_string()
        };
        play(&mut g, &south);
        let west = legal(&g).lowest().unwrap().to_string();
        play(&mut g, &west);
    }
    g
}

#[test]
fn moon_shot_scores_both_ways() {
    let g = play_moon(&["hands=single"]);
    assert!(g.is_over());
    assert_eq!(g.hand_points(), [26, 0, 0, 0]);
    assert_eq!(g.last_hand_scores(), [0, 26, 26, 26]);
    assert_eq!(g.totals(), [0, 26, 26, 26]);
    assert_eq!(g.outcome().winners, vec![0]);
    assert_eq!(g.reward(0), 1.0);
    assert!(g.reward(1) < 0.5);

    let h = play_moon(&["hands=single", "moon=minus"]);
    assert_eq!(h.last_hand_scores(), [-26, 0, 0, 0]);
    assert_eq!(h.outcome().winners, vec![0]);
    // The reward is relative, so both moon rules give the same rewards.
    for s in 0..4 {
        assert!((g.reward(s) - h.reward(s)).abs() < 1e-12);
    }
}

#[test]
fn points_are_one_per_heart_and_thirteen_for_the_queen() {
    assert_eq!(points_of(cs(ALL_HEARTS)), 13);
    assert_eq!(points_of(cs("QS 2H 3S")), 14);
    let mut rng = Rng::seed_from_u64(9);
    let mut buf = Vec::new();
    for _ in 0..50 {
        let mut g = game(&["hands=single"]);
        while !g.is_over() {
            let mv = match g.turn() {
                Turn::Chance => g.sample_chance(&mut rng),
                _ => g.random_move(&mut rng, &mut buf),
            };
            assert!(g.is_legal(mv));
            g.apply(mv);
        }
        let p = g.hand_points();
        assert_eq!(p.iter().map(|&x| x as u32).sum::<u32>(), 26);
        if p.iter().all(|&x| x < 26) {
            assert_eq!(g.last_hand_scores(), p.map(i32::from));
        }
        let rewards: f64 = (0..4).map(|s| g.reward(s)).sum();
        assert!((0..4).all(|s| (0.0..=1.0).contains(&g.reward(s))));
        assert!(rewards > 0.0);
    }
}

/// Plays random moves to the end of the current hand.
fn finish_hand(g: &mut Hearts, rng: &mut Rng) {
    let mut buf = Vec::new();
    loop {
        let mv = g.random_move(rng, &mut buf);
        g.apply(mv);
        if g.at_horizon() {
            return;
        }
    }
}

#[test]
fn passes_go_left_right_across_then_none() {
    let mut g = game(&["target=10000"]);
    let mut rng = Rng::seed_from_u64(4);
    for hand in 0..8u32 {
        assert_eq!(g.phase(), Phase::Deal);
        assert_eq!(g.hand_number(), hand);
        g.apply(g.sample_chance(&mut rng));
        let expected = [Some(1), Some(3), Some(2), None][hand as usize % 4];
        assert_eq!(g.pass_offset(), expected);
        let before: Vec<CardSet> = (0..4).map(|s| g.hand(s)).collect();
        if let Some(off) = expected {
            let mut passes = [CardSet::EMPTY; 4];
            for s in 0..4 {
                assert_eq!(g.phase(), Phase::Pass);
                assert_eq!(g.turn(), Turn::Player(s));
                passes[s] = g.hand(s).iter().skip(s * 2).take(3).collect();
                let text = format!("pass {}", passes[s]);
                g.play_checked(&text).unwrap();
            }
            for s in 0..4 {
                let from = (s + 4 - off) % 4;
                assert_eq!(g.hand(s), (before[s] - passes[s]) | passes[from]);
            }
        }
        assert_eq!(g.phase(), Phase::Play);
        let opener = (0..4)
            .find(|&s| g.hand(s).contains(Card::TWO_CLUBS))
            .unwrap();
        assert_eq!(g.turn(), Turn::Player(opener));
        finish_hand(&mut g, &mut rng);
    }
}

#[test]
fn pass_moves_are_three_cards_of_ones_own_hand() {
    let mut g = game(&[]);
    g.apply(HeartsMove::Deal(1));
    let hand = g.hand(0);
    let mut v = Vec::new();
    g.legal_moves(&mut v);
    assert_eq!(v.len(), 286);
    let own: Vec<String> = hand.iter().take(3).map(|c| c.to_string()).collect();
    let other = g.hand(1).lowest().unwrap().to_string();
    assert!(matches!(
        g.parse_move(&own[..2].join(" ")),
        Err(MoveError::Syntax(_))
    ));
    assert!(matches!(
        g.parse_move(&format!("{} {} {}", own[0], own[0], own[1])),
        Err(MoveError::Syntax(_))
    ));
    let foreign = format!("{} {} {}", own[0], own[1], other);
    assert!(matches!(
        g.play_checked(&foreign),
        Err(MoveError::Illegal(_))
    ));
    assert_eq!(g.hand(0), hand, "a refused move leaves the state unchanged");
    g.play_checked(&own.join(",")).unwrap();
    assert_eq!(g.turn(), Turn::Player(1));
}

#[test]
fn the_game_ends_when_someone_reaches_the_target() {
    let mut rng = Rng::seed_from_u64(11);
    for target in [1, 30, 60] {
        let t = format!("target={target}");
        let mut g = game(&[&t]);
        let mut hands = 0;
        while !g.is_over() {
            assert!(g.totals().iter().all(|&x| x < target), "should have ended");
            g.apply(g.sample_chance(&mut rng));
            finish_hand(&mut g, &mut rng);
            hands += 1;
        }
        assert!(g.totals().iter().any(|&x| x >= target));
        let best = *g.totals().iter().min().unwrap();
        let o = g.outcome();
        assert_eq!(o.scores, g.totals().map(f64::from).to_vec());
        assert_eq!(
            o.winners,
            (0..4)
                .filter(|&s| g.totals()[s] == best)
                .collect::<Vec<_>>()
        );
        assert!(hands >= 1);
        assert_eq!(g.turn(), Turn::Over);
        assert!(matches!(g.play_checked("2C"), Err(MoveError::GameOver)));
    }
}

#[test]
fn single_hand_mode_ends_after_one_hand() {
    let mut rng = Rng::seed_from_u64(12);
    let mut g = game(&["hands=single"]);
    g.apply(g.sample_chance(&mut rng));
    finish_hand(&mut g, &mut rng);
    assert!(g.is_over());
    assert_eq!(g.hand_number(), 0);
    // Without it the game goes on to the next deal.
    let mut g = game(&[]);
    g.apply(g.sample_chance(&mut rng));
    finish_hand(&mut g, &mut rng);
    assert_eq!(g.turn(), Turn::Chance);
    assert!(g.at_horizon());
    assert!(!g.chance_from_referee());
}

#[test]
fn legal_moves_match_the_rules_in_random_games() {
    // An independent statement of the play rules, checked at every turn.
    for (seed, options) in [
        (1u64, vec![]),
        (2, vec!["qs_lead=false"]),
        (3, vec!["qs_breaks_hearts=false"]),
    ] {
        let mut rng = Rng::seed_from_u64(seed);
        let mut buf = Vec::new();
        let mut g = game(
            &options
                .iter()
                .chain(&["target=200"])
                .copied()
                .collect::<Vec<_>>(),
        );
        let qs_lead = !options.contains(&"qs_lead=false");
        let qs_breaks = qs_lead && !options.contains(&"qs_breaks_hearts=false");
        let hearts = CardSet::suit(Suit::Hearts);
        let points = hearts | CardSet::single(Card::QUEEN_SPADES);
        let mut heart_seen = false;
        while !g.is_over() {
            if g.phase() == Phase::Deal {
                heart_seen = false;
            }
            if g.phase() == Phase::Play {
                let Turn::Player(p) = g.turn() else {
                    unreachable!()
                };
                let hand = g.hand(p);
                let trick = g.trick();
                let broken = heart_seen || (qs_breaks && g.played().contains(Card::QUEEN_SPADES));
                let expected = if trick.is_empty() {
                    if g.tricks_done() == 0 {
                        cs("2C")
                    } else if broken {
                        hand
                    } else {
                        let banned = if qs_lead { hearts } else { points };
                        if hand.is_subset(banned) {
                            hand
                        } else {
                            hand - banned
                        }
                    }
                } else {
                    let led = trick[0].1.suit().unwrap();
                    let follow = hand.of_suit(led);
                    let options = if follow.is_empty() { hand } else { follow };
                    if g.tricks_done() == 0 && !options.is_subset(points) {
                        options - points
                    } else {
                        options
                    }
                };
                assert_eq!(legal(&g), expected, "\n{}", g.render());
            }
            let mv = match g.turn() {
                Turn::Chance => g.sample_chance(&mut rng),
                _ => g.random_move(&mut rng, &mut buf),
            };
            if let HeartsMove::Play(c) = mv {
                heart_seen |= c.suit() == Some(Suit::Hearts);
            }
            g.apply(mv);
        }
    }
}

#[test]
fn texts_round_trip_and_bad_input_is_refused() {
    let mut g = game(&["pass=none"]);
    assert!(g.parse_move("2C").is_err(), "a deal is expected first");
    g.play_checked("shuffle:77").unwrap();
    let Turn::Player(p) = g.turn() else { panic!() };
    assert_eq!(g.seat_name(p), ["north", "east", "south", "west"][p]);
    for (text, seat) in [("n", 0), ("East", 1), ("s", 2), ("3", 3), ("west", 3)] {
        assert_eq!(g.parse_seat(text), Some(seat));
    }
    assert_eq!(g.parse_seat("x"), None);
    for bad in ["", "2", "ZZ", "2C 3C", "QX"] {
        assert!(
            matches!(g.parse_move(bad), Err(MoveError::Syntax(_))),
            "{bad}"
        );
    }
    let mv = g.parse_move("2c").unwrap();
    assert_eq!(g.move_text(mv), "2C");
    assert!(g.render().contains("north"));
    let mut seat_bound = game(&["seat=1"]);
    assert!(seat_bound.chance_from_referee());
    assert!(seat_bound.play_checked("2C 3C").is_err());
    assert!(seat_bound.play_checked("shuffle:3").is_err());
    seat_bound.play_checked(ALL_CLUBS).unwrap();
    assert_eq!(seat_bound.turn(), Turn::Player(1), "passing left in hand 1");
    assert!(seat_bound.view_text(1).contains("2C 3C"));
    assert!(Options::parse(Hearts::OPTIONS, &["seat=4"]).is_err());
    assert!(Options::parse(Hearts::OPTIONS, &["moon=sideways"]).is_err());
}
