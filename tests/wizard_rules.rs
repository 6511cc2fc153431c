//! Wizard: the rules on hand-made cases, options, texts, the rule-based
//! player, determinization (consistency and no peeking), seat-bound play
//! driven through `tell`, and whole games.

// Seat-indexed parallel arrays read best with seat indices.
#![allow(clippy::needless_range_loop)]

use crate::common;

use common::{
    PlayText as _, card, cards, follow, new_game, no_peeking_after, referee_move, rng, seat_bound,
};
use tabula::games::cards::{CardSet, Suit};
use tabula::games::wizard::{DECK, Phase, Wizard, WizardMove, led_suit, round_score, trick_winner};
use tabula::model::game::{Game, Observation, Turn};
use tabula::model::options::Options;
use tabula::search::playout::random_playout;

fn game(words: &[&str]) -> Wizard {
    new_game(words)
}

fn set(text: &str) -> CardSet {
    text.parse().unwrap()
}

fn play(g: &mut Wizard, text: &str) {
    g.play_checked(text)
        .unwrap_or_else(|e| panic!("{text}: {e}\n{}", g.render()));
}

/// A 3-player game with 3-card hands, dealt by hand, trump from `turned`.
fn dealt(hands: [&str; 3], turned: &str, extra: &[&str]) -> Wizard {
    let mut words = vec!["players=3", "hand=3", "rounds=2"];
    words.extend_from_slice(extra);
    let mut g = game(&words);
    let hs: Vec<CardSet> = hands.iter().map(|h| set(h)).collect();
    g.deal_hands(&hs, Some(card(turned))).unwrap();
    g
}

#[test]
fn wizard_trick_winner_every_combination() {
    let w = |t: &str, trump: Option<Suit>| trick_winner(&cards(t), trump);
    // Highest of the led suit; off-suit cards never win without trump.
    assert_eq!(w("5H 9H 2H", None), 1);
    assert_eq!(w("5H AS 7H", None), 2);
    assert_eq!(w("2C AH KD", None), 0);
    // Trump beats the led suit; the highest trump wins.
    assert_eq!(w("AH 2S KH", Some(Suit::Spades)), 1);
    assert_eq!(w("AH 2S 5S", Some(Suit::Spades)), 2);
    assert_eq!(w("2S AH 3S", Some(Suit::Spades)), 2);
    // The first Wizard wins, over trumps and over later Wizards.
    assert_eq!(w("Z1 Z2 AS", Some(Suit::Spades)), 0);
    assert_eq!(w("5H Z3 Z1", None), 1);
    assert_eq!(w("2S AS Z4", Some(Suit::Spades)), 2);
    // Wizard led: anything follows, the Wizard wins.
    assert_eq!(led_suit(&cards("Z1 AH")), None);
    assert_eq!(w("Z1 AH KH", Some(Suit::Hearts)), 0);
    // Jesters lose; a led Jester sets no suit, the first normal card does.
    assert_eq!(w("N1 2H 3H", None), 2);
    assert_eq!(led_suit(&cards("N1 5H")), Some(Suit::Hearts));
    assert_eq!(w("N1 5H KS", None), 1);
    assert_eq!(w("N1 5H KS", Some(Suit::Spades)), 2);
    assert_eq!(w("5H N1 N2", None), 0);
    // Jester led, then a Wizard: the Wizard wins and sets no suit.
    assert_eq!(led_suit(&cards("N1 Z1")), None);
    assert_eq!(w("N1 Z1 AS", Some(Suit::Spades)), 1);
    // Only Jesters: the first one wins.
    assert_eq!(w("N2 N1 N3", None), 0);
    assert_eq!(w("N2 N1 N3 N4", Some(Suit::Clubs)), 0);
    assert_eq!(w("N1 N2 3C", None), 2);
    assert_eq!(led_suit(&cards("N1 N2")), None);
}

#[test]
fn wizard_must_follow_but_wizards_and_jesters_are_free() {
    // Dealer is p2: p0 bids and leads first.
    let mut g = dealt(["5H 9C 2D", "2H AS Z1", "N1 AC KC"], "3D", &[]);
    assert_eq!(g.dealer(), 2);
    assert_eq!(g.trump(), Some(Suit::Diamonds));
    for b in ["bid 0", "bid 1", "bid 1"] {
        play(&mut g, b);
    }
    assert_eq!(g.turn(), Turn::Player(0));
    assert_eq!(g.legal_cards(), set("5H 9C 2D"));
    play(&mut g, "5H");
    // p1 holds a heart: hearts, Wizards and Jesters only.
    assert_eq!(g.legal_cards(), set("2H Z1"));
    assert!(g.play_checked("AS").is_err());
    play(&mut g, "Z1");
    // p2 is void in hearts: anything.
    assert_eq!(g.legal_cards(), set("N1 AC KC"));
    play(&mut g, "AC");
    assert_eq!(g.tricks_won()[1], 1, "the Wizard won");
    assert_eq!(g.turn(), Turn::Player(1), "the winner leads");
    // p2 showed a heart void with a normal card; p1 showed nothing.
    assert!(g.forbidden(2).contains(card("KH")));
    assert!(g.forbidden(1).is_empty());
    // Wizard led: anything may follow.
    play(&mut g, "AS");
    assert_eq!(g.trick().len(), 1);
    assert_eq!(
        g.legal_cards(),
        set("N1 KC"),
        "p2 must follow spades? no spades: all"
    );
}

#[test]
fn wizard_led_jester_then_first_normal_card_sets_suit() {
    let mut g = dealt(["N1 9C 2D", "5H 7C Z1", "2H AH KC"], "3S", &[]);
    for b in ["bid 0", "bid 1", "bid 1"] {
        play(&mut g, b);
    }
    play(&mut g, "N1");
    // Nothing to follow yet: p1 may play anything.
    assert_eq!(g.legal_cards(), set("5H 7C Z1"));
    play(&mut g, "5H");
    // Hearts set by the first normal card.
    assert_eq!(g.legal_cards(), set("2H AH"));
    play(&mut g, "AH");
    assert_eq!(g.tricks_won()[2], 1);

    // Jester led then a Wizard: nothing to follow.
    let mut g = dealt(["N1 9C 2D", "5H 7C Z1", "2H AH KC"], "3S", &[]);
    for b in ["bid 0", "bid 1", "bid 1"] {
        play(&mut g, b);
    }
    play(&mut g, "N1");
    play(&mut g, "Z1");
    assert_eq!(g.legal_cards(), set("2H AH KC"));
    play(&mut g, "KC");
    assert_eq!(g.tricks_won()[1], 1);
    assert!(
        g.forbidden(2).is_empty(),
        "no suit to follow: no void shown"
    );
}

#[test]
fn wizard_all_jesters_first_jester_wins() {
    let mut g = dealt(["N1 9C 2D", "N2 7C 3H", "N3 AH KC"], "3S", &[]);
    for b in ["bid 1", "bid 0", "bid 0"] {
        play(&mut g, b);
    }
    for card in ["N1", "N2", "N3"] {
        play(&mut g, card);
    }
    assert_eq!(g.tricks_won(), [1, 0, 0, 0, 0, 0]);
    assert_eq!(g.turn(), Turn::Player(0));
}

#[test]
fn wizard_bidding_order_range_and_no_even_bids() {
    let mut g = dealt(["5H 9C 2D", "2H AS Z1", "N1 AC KC"], "3D", &[]);
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    assert_eq!(moves, (0..=3).map(WizardMove::Bid).collect::<Vec<_>>());
    assert!(g.play_checked("bid 4").is_err());
    play(&mut g, "bid 1");
    play(&mut g, "1");
    assert_eq!(g.turn(), Turn::Player(2));
    // Without the option the last bidder may even the bids.
    assert!(g.is_legal(WizardMove::Bid(1)));

    let mut g = dealt(
        ["5H 9C 2D", "2H AS Z1", "N1 AC KC"],
        "3D",
        &["no_even_bids=true"],
    );
    play(&mut g, "bid 1");
    assert!(
        g.is_legal(WizardMove::Bid(2)),
        "only the last bidder is bound"
    );
    play(&mut g, "bid 1");
    g.legal_moves(&mut moves);
    assert_eq!(
        moves,
        vec![WizardMove::Bid(0), WizardMove::Bid(2), WizardMove::Bid(3)]
    );
    assert!(g.play_checked("bid 1").is_err());
    play(&mut g, "bid 0");
    assert_eq!(g.phase(), Phase::Play);
    assert_eq!(g.turn(), Turn::Player(0), "left of the dealer leads");
}

#[test]
fn wizard_turned_card_sets_trump() {
    // A Wizard turned up: the dealer names trump after seeing the hand.
    let mut g = dealt(["5H 9C 2D", "2H AS Z1", "N1 AC KC"], "Z2", &[]);
    assert_eq!(g.phase(), Phase::Trump);
    assert_eq!(g.turn(), Turn::Player(2));
    assert_eq!(g.trump(), None);
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    assert_eq!(moves.len(), 4);
    assert!(g.play_checked("trump X").is_err());
    play(&mut g, "trump C");
    assert_eq!(g.trump(), Some(Suit::Clubs));
    assert_eq!(g.phase(), Phase::Bid);
    assert_eq!(g.turn(), Turn::Player(0));
    // A Jester: no trump.
    let g = dealt(["5H 9C 2D", "2H AS Z1", "N1 AC KC"], "N2", &[]);
    assert_eq!((g.trump(), g.phase()), (None, Phase::Bid));
    // A number card: its suit.
    let g = dealt(["5H 9C 2D", "2H AS Z1", "N1 AC KC"], "7S", &[]);
    assert_eq!(g.trump(), Some(Suit::Spades));
}

#[test]
fn wizard_whole_deck_round_has_no_trump() {
    let mut g = game(&["players=3", "hand=20", "rounds=1"]);
    g.apply(g.sample_chance(&mut rng(1)));
    assert_eq!((g.turned(), g.trump(), g.phase()), (None, None, Phase::Bid));
    let all = (0..3).fold(CardSet::EMPTY, |a, s| a | g.hand(s));
    assert_eq!(all, DECK);
    // The standard last round with 6 players (10 x 6 = 60 cards) too.
    let mut g = game(&["players=6"]);
    let mut r = rng(2);
    let mut buf = Vec::new();
    while g.round() < 9 || g.phase() != Phase::Deal {
        let mv = g.random_move(&mut r, &mut buf);
        g.apply(mv);
        if g.round() < 9 {
            assert!(g.phase() == Phase::Deal || g.turned().is_some());
        }
    }
    g.apply(g.sample_chance(&mut r));
    assert_eq!(g.round_cards(), 10);
    assert_eq!((g.turned(), g.trump()), (None, None));
}

#[test]
fn wizard_scoring_and_dealer_rotation() {
    assert_eq!(round_score(0, 0), 20);
    assert_eq!(round_score(2, 2), 40);
    assert_eq!(round_score(2, 0), -20);
    assert_eq!(round_score(1, 3), -20);
    assert_eq!(round_score(0, 1), -10);

    let mut g = game(&["players=3", "hand=1", "rounds=3"]);
    assert_eq!(g.dealer(), 2);
    g.deal_hands(&[set("AS"), set("KS"), set("QS")], Some(card("2C")))
        .unwrap();
    for b in ["bid 1", "bid 1", "bid 0"] {
        play(&mut g, b);
    }
    for card in ["AS", "KS", "QS"] {
        play(&mut g, card);
    }
    assert!(g.at_horizon());
    assert_eq!(g.last_round_scores(), vec![30, -10, 20]);
    assert_eq!(g.totals(), vec![30, -10, 20]);
    assert_eq!(g.reward(0), 1.0, "the best score possible with one card");
    assert_eq!(g.reward(1), 0.0, "the worst");
    // Round 2: p0 deals, p1 bids and leads.
    assert_eq!((g.phase(), g.dealer()), (Phase::Deal, 0));
    g.deal_hands(&[set("2H"), set("3H"), set("4H")], Some(card("N1")))
        .unwrap();
    assert!(!g.at_horizon());
    assert_eq!(g.turn(), Turn::Player(1));
    for b in ["bid 0", "bid 1", "bid 0"] {
        play(&mut g, b);
    }
    assert_eq!(g.turn(), Turn::Player(1));
    for card in ["3H", "4H", "2H"] {
        play(&mut g, card);
    }
    // p2 won with 4H and had bid 1.
    assert_eq!(g.last_round_scores(), vec![20, 20, 30]);
    assert_eq!(g.totals(), vec![50, 10, 50]);
    assert_eq!(g.dealer(), 1);
    g.deal_hands(&[set("2D"), set("3D"), set("4D")], Some(card("N2")))
        .unwrap();
    assert_eq!(g.turn(), Turn::Player(2));
    for b in ["bid 0", "bid 0", "bid 0"] {
        play(&mut g, b);
    }
    for card in ["4D", "2D", "3D"] {
        play(&mut g, card);
    }
    assert_eq!(g.turn(), Turn::Over);
    let out = g.outcome();
    assert_eq!(out.scores, vec![70.0, 30.0, 40.0]);
    assert_eq!(out.winners, vec![0]);
    // The picture of a finished game shows the last round, not one after.
    assert!(
        g.render()
            .starts_with("round 3/3 (1 card), dealer p1, turned up N2, trump none"),
        "{}",
        g.render()
    );
}

#[test]
fn wizard_options_and_texts() {
    let parse = |w: &[&str]| Wizard::new_game(&Options::parse(Wizard::OPTIONS, w).unwrap());
    assert_eq!(game(&[]).num_seats(), 4);
    assert_eq!(game(&[]).config().rounds, 15);
    assert_eq!(game(&["players=3"]).config().rounds, 20);
    assert_eq!(game(&["players=5"]).config().rounds, 12);
    let seed = game(&["players=3", "rounds=5", "hand=15"]);
    assert_eq!((seed.config().rounds, seed.round_cards()), (5, 15));
    assert!(parse(&["players=3", "rounds=21"]).is_err());
    assert!(parse(&["players=4", "hand=16"]).is_err());
    assert!(parse(&["players=4", "seat=4"]).is_err());
    assert!(Options::parse(Wizard::OPTIONS, &["players=7"]).is_err());
    assert!(parse(&["players=4", "seat=3"]).is_ok());

    let g = game(&["players=3", "hand=3", "seat=1"]);
    assert_eq!(g.parse_seat("p2"), Some(2));
    assert_eq!(g.parse_seat("1"), Some(1));
    assert_eq!(g.parse_seat("p3"), None);
    assert_eq!(g.seat_name(0), "p0");
    assert!(g.chance_from_referee());
    let mv = g.parse_move("2C 7H Z1 up QS").unwrap();
    assert_eq!(mv, WizardMove::Hand(set("2C 7H Z1"), Some(card("QS"))));
    assert_eq!(g.move_text(mv), "2C 7H Z1 up QS");
    assert!(g.is_legal(mv));
    assert!(!g.is_legal(WizardMove::Hand(set("2C 7H"), Some(card("QS")))));
    assert!(!g.is_legal(WizardMove::Hand(set("2C 7H QS"), Some(card("QS")))));
    assert!(!g.is_legal(WizardMove::Hand(set("2C 7H QS"), None)));
    for bad in [
        "",
        "up",
        "2C 2C 3C up 4C",
        "2C 3C 4C up",
        "2C XX 4C up 5C",
        "shuffle:1",
    ] {
        assert!(g.parse_move(bad).is_err(), "{bad}");
    }
    let full = game(&["players=3"]);
    assert_eq!(full.parse_move("shuffle:42").unwrap(), WizardMove::Deal(42));
    assert!(full.parse_move("shuffle:x").is_err());
    let mut g = dealt(["5H 9C 2D", "2H AS Z1", "N1 AC KC"], "Z2", &[]);
    for bad in ["trump", "trump HH", "bid 1", "QS"] {
        assert!(g.play_checked(bad).is_err(), "{bad}");
    }
    play(&mut g, "trump h");
    assert_eq!(g.move_text(WizardMove::Trump(Suit::Hearts)), "trump:H");
    for bad in ["bid", "bid -1", "bid x", "bid 300", "QS"] {
        assert!(g.play_checked(bad).is_err(), "{bad}");
    }
    assert_eq!(g.move_text(WizardMove::Bid(2)), "bid:2");
}

#[test]
fn wizard_rules_player_bids_high_cards_and_plays_to_its_bid() {
    let mut r = rng(0);
    // Trump spades: Z1 and AS are sure tricks, 2H is not.
    let g = dealt(["Z1 AS 2H", "3H 4H 5H", "6H 7H 8H"], "2S", &[]);
    assert_eq!(g.rules_move(&mut r), Some(WizardMove::Bid(2)));
    // No trump (Jester): side aces count.
    let g = dealt(["AH AD 3C", "3H 4H 5H", "6H 7H 8H"], "N1", &[]);
    assert_eq!(g.rules_move(&mut r), Some(WizardMove::Bid(2)));
    // Low cards: nothing.
    let g = dealt(["2H 3D 4C", "3H 4H 5H", "6H 7H 8H"], "2S", &[]);
    assert_eq!(g.rules_move(&mut r), Some(WizardMove::Bid(0)));

    // Short of its bid: win as cheaply as possible.
    let mut g = dealt(["KH 9C 2D", "AH 2H Z1", "N1 AC KC"], "3S", &[]);
    for b in ["bid 0", "bid 1", "bid 0"] {
        play(&mut g, b);
    }
    play(&mut g, "KH");
    assert_eq!(g.rules_move(&mut r), Some(WizardMove::Play(card("AH"))));
    // With enough tricks: duck under the winning card.
    let mut g = dealt(["KH 9C 2D", "AH 2H Z1", "N1 AC KC"], "3S", &[]);
    for b in ["bid 0", "bid 0", "bid 0"] {
        play(&mut g, b);
    }
    play(&mut g, "KH");
    assert_eq!(g.rules_move(&mut r), Some(WizardMove::Play(card("2H"))));
    // Leading while short: the strongest card; with enough: the weakest.
    let mut g = dealt(["KH Z1 2D", "AH 2H 3H", "N1 AC KC"], "3S", &[]);
    play(&mut g, "bid 1");
    assert_eq!(g.turn(), Turn::Player(1));
    play(&mut g, "bid 0");
    play(&mut g, "bid 0");
    assert_eq!(g.rules_move(&mut r), Some(WizardMove::Play(card("Z1"))));
    play(&mut g, "Z1");
    play(&mut g, "2H");
    play(&mut g, "N1");
    assert_eq!(g.rules_move(&mut r), Some(WizardMove::Play(card("2D"))));
    // The Wizard-turned trump choice: the longest suit.
    let g = dealt(["5H 9H 2D", "2C AS Z1", "N1 AC KC"], "Z2", &[]);
    let mut h = g.clone();
    assert_eq!(h.rules_move(&mut r), Some(WizardMove::Trump(Suit::Clubs)));
    h.apply(WizardMove::Trump(Suit::Clubs));
    assert_eq!(h.trump(), Some(Suit::Clubs));
}

/// Plays a random (or rule-based) game from a self-dealt state, keeping a
/// seat-bound state per seat in step through `tell`; checks at every round
/// end that every bound state agrees on the scores. Returns the states.
fn referee_game(options: &[&str], seed: u64, use_rules: bool) -> (Wizard, Vec<Wizard>) {
    let mut full = game(options);
    let n = full.num_seats();
    let mut bound: Vec<Wizard> = (0..n).map(|s| seat_bound(options, s)).collect();
    let mut r = rng(seed);
    let mut buf = Vec::new();
    while !full.is_over() {
        let (mv, mover) = referee_move(&full, &mut r, &mut buf, use_rules.then_some(0.5));
        assert!(full.is_legal(mv), "{mv:?}\n{}", full.render());
        for s in 0..n {
            let told = full.tell(mv, s);
            if mover == Some(s) {
                // The seat chose this move itself.
                assert!(told.is_empty());
            } else {
                assert_eq!(told.len(), 1, "{mv:?}");
                match told[0] {
                    Observation::Dealt(hand) => {
                        // Only the seat's own cards and the turned-up card.
                        let mut own = full.clone();
                        own.apply(mv);
                        assert_eq!(hand, WizardMove::Hand(own.hand(s), own.turned()));
                    }
                    Observation::Played { seat, mv: heard } => {
                        assert_eq!((Some(seat), heard), (mover, mv));
                    }
                }
            }
            follow(&mut bound[s], s, &full, mv);
        }
        full.apply(mv);
        for s in 0..n {
            assert_eq!(bound[s].turn(), full.turn());
            assert_eq!(bound[s].hand(s), full.hand(s));
            assert_eq!(bound[s].at_horizon(), full.at_horizon());
            if full.at_horizon() {
                assert_eq!(bound[s].totals(), full.totals());
                assert_eq!(bound[s].reward(s), full.reward(s));
            }
        }
    }
    (full, bound)
}

#[test]
fn wizard_seat_bound_games_through_tell_end_with_the_same_scores() {
    for (i, opts) in [
        &["players=3", "rounds=5", "hand=15"][..],
        &["players=4", "rounds=6", "no_even_bids=true"][..],
        &["players=6", "hand=10", "rounds=2"][..],
        &["players=5", "rounds=4"][..],
    ]
    .iter()
    .enumerate()
    {
        let (full, bound) = referee_game(opts, 100 + i as u64, i % 2 == 0);
        assert!(full.is_over());
        for b in &bound {
            assert!(b.is_over());
            assert_eq!(b.outcome(), full.outcome());
        }
    }
}

#[test]
fn wizard_full_standard_game_reaches_the_end() {
    for (players, seed) in [(4, 1u64), (3, 2), (6, 3)] {
        let mut g = game(&[&format!("players={players}")]);
        let mut r = rng(seed);
        let mut buf = Vec::new();
        let mut rounds = 0;
        while g.turn() != Turn::Over {
            let mv = g.random_move(&mut r, &mut buf);
            assert!(g.is_legal(mv));
            g.apply(mv);
            if g.at_horizon() {
                rounds += 1;
                for s in 0..players {
                    assert!((0.0..=1.0).contains(&g.reward(s)));
                }
            }
            // The horizon holds only between a round's end and the next deal.
            assert!(!g.at_horizon() || g.phase() == Phase::Deal || g.is_over());
        }
        assert_eq!(rounds, 60 / players);
        assert_eq!(g.outcome().scores.len(), players);
        assert!(!g.outcome().winners.is_empty());
    }
}

/// Random play from a fresh self-dealt game up to `plies` moves into the
/// first round with `cards` cards.
fn mid_round(options: &[&str], seed: u64, plies: usize) -> Wizard {
    let mut g = game(options);
    let mut r = rng(seed);
    let mut buf = Vec::new();
    g.apply(g.sample_chance(&mut r));
    for _ in 0..plies {
        if g.at_horizon() || g.is_over() {
            break;
        }
        let mv = g.random_move(&mut r, &mut buf);
        g.apply(mv);
    }
    g
}

#[test]
fn wizard_determinize_is_always_consistent() {
    let mut total = 0;
    let mut varied = 0;
    for seed in 0..40u64 {
        let options: &[&str] = match seed % 3 {
            0 => &["players=3", "hand=12", "rounds=1"],
            1 => &["players=4", "hand=12", "rounds=1"],
            _ => &["players=5", "hand=9", "rounds=1"],
        };
        let g = mid_round(options, seed, 4 + (seed as usize * 7) % 40);
        if g.phase() != Phase::Play && g.phase() != Phase::Bid {
            continue;
        }
        let n = g.num_seats();
        // The public inferences hold in the real deal.
        for s in 0..n {
            assert!(!g.hand(s).intersects(g.forbidden(s)));
        }
        let hidden = (0..n).fold(CardSet::EMPTY, |a, s| a | g.hand(s));
        for o in 0..n {
            let mut r = rng(seed * 31 + o as u64);
            for _ in 0..25 {
                let d = g.determinize(o, &mut r);
                total += 1;
                assert_eq!(d.hand(o), g.hand(o));
                let mut all = CardSet::EMPTY;
                for s in 0..n {
                    assert_eq!(d.hand(s).len(), g.hand_size(s));
                    assert!(!all.intersects(d.hand(s)));
                    all |= d.hand(s);
                    assert!(!d.hand(s).intersects(g.forbidden(s)), "void broken");
                }
                assert_eq!(all.len(), hidden.len());
                varied += usize::from((0..n).any(|s| d.hand(s) != g.hand(s)));
                assert!(!all.intersects(g.played()));
                assert!(g.turned().is_none_or(|t| !all.contains(t)));
                // The sample plays on legally to the end of the round.
                let mut p = d.clone();
                let mut buf = Vec::new();
                random_playout(&mut p, &mut r, &mut buf);
                assert!(p.at_horizon());
            }
        }
    }
    assert!(total > 1000);
    assert!(
        varied > total / 2,
        "determinize must actually redeal: {varied}/{total}"
    );
}

#[test]
fn wizard_voids_constrain_determinization() {
    // p2 shows a heart void: no sample gives it a heart.
    let mut g = dealt(["5H 9C 2D", "2H 3H 4H", "AC KC QC"], "3S", &[]);
    for b in ["bid 0", "bid 1", "bid 1"] {
        play(&mut g, b);
    }
    play(&mut g, "5H");
    play(&mut g, "2H");
    play(&mut g, "AC");
    let mut r = rng(5);
    let mut hearts_at_p1 = 0;
    for _ in 0..200 {
        let d = g.determinize(0, &mut r);
        assert!(d.hand(2).of_suit(Suit::Hearts).is_empty());
        hearts_at_p1 += d.hand(1).of_suit(Suit::Hearts).len();
    }
    assert!(hearts_at_p1 > 0);
    // With the whole deck dealt, the void forces every unseen heart to p1.
    let mut g = game(&["players=3", "hand=20", "rounds=1"]);
    let clubs = CardSet::suit(Suit::Clubs);
    let diamonds = CardSet::suit(Suit::Diamonds);
    let low_d = set("2D 3D 4D 5D 6D 7D 8D");
    let hands = [
        clubs | low_d,
        CardSet::suit(Suit::Hearts) | (diamonds - low_d) | set("Z1"),
        CardSet::suit(Suit::Spades) | set("Z2 Z3 Z4 N1 N2 N3 N4"),
    ];
    g.deal_hands(&hands, None).unwrap();
    for _ in 0..3 {
        play(&mut g, "bid 0");
    }
    play(&mut g, "2D");
    play(&mut g, "9D");
    play(&mut g, "2S");
    let unseen_d = set("TD JD QD KD AD");
    for _ in 0..100 {
        let d = g.determinize(0, &mut r);
        assert_eq!(d.hand(1) & diamonds, unseen_d);
        assert!(d.hand(2).of_suit(Suit::Diamonds).is_empty());
    }
    // A Wizard or Jester off suit shows nothing.
    let mut g = dealt(["5H 9C 2D", "2H 3H 4H", "AC N1 QC"], "3S", &[]);
    for b in ["bid 0", "bid 1", "bid 1"] {
        play(&mut g, b);
    }
    play(&mut g, "5H");
    play(&mut g, "2H");
    play(&mut g, "N1");
    assert!(g.forbidden(2).is_empty());
    let mut seen_heart_at_p2 = false;
    for _ in 0..200 {
        seen_heart_at_p2 |= !g
            .determinize(0, &mut r)
            .hand(2)
            .of_suit(Suit::Hearts)
            .is_empty();
    }
    assert!(seen_heart_at_p2);
}

#[test]
fn wizard_no_peeking_decisions_do_not_depend_on_unseen_cards() {
    let options = ["players=4", "hand=10", "rounds=1"];
    let mut differ = 0;
    for seed in 0..12u64 {
        // The deal, then 3 to 32 plays and bids.
        let plies = 4 + (seed as usize * 5) % 30;
        differ += usize::from(no_peeking_after::<Wizard>(&options, seed, plies) == Some(true));
    }
    assert!(differ >= 6, "the other worlds must differ: {differ}");
}

#[test]
fn wizard_seat_bound_refuses_impossible_plays() {
    let mut g = game(&["players=3", "hand=3", "seat=0"]);
    assert!(g.play_checked("shuffle:1").is_err());
    play(&mut g, "5H 9C 2D up 3D");
    assert_eq!(g.phase(), Phase::Bid);
    for b in ["bid 0", "bid 1", "bid 1"] {
        play(&mut g, b);
    }
    play(&mut g, "5H");
    // p1 cannot play a card the observer holds, or the turned-up card.
    assert!(g.play_checked("9C").is_err());
    assert!(g.play_checked("3D").is_err());
    // p1 plays a spade on hearts: void in hearts from now on.
    play(&mut g, "AS");
    assert!(g.forbidden(1).contains(card("KH")));
    play(&mut g, "KH");
    // p2 won with KH and leads; p1's hearts are impossible.
    assert_eq!(g.turn(), Turn::Player(2));
    play(&mut g, "QH");
    play(&mut g, "9C");
    assert_eq!(g.turn(), Turn::Player(1));
    assert!(g.play_checked("JH").is_err(), "p1 is void in hearts");
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    assert!(moves.iter().all(|m| match m {
        WizardMove::Play(card) => card.suit() != Some(Suit::Hearts),
        _ => false,
    }));
    assert!(moves.contains(&WizardMove::Play(card("Z1"))));
}
