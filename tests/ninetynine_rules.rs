//! Ninety-Nine: card values, direction, the 99 edge, forced loss, tokens
//! and drop-out, reshuffles, two decks, texts, the seed baseline,
//! determinization (consistency, generations, no peeking), seat-bound play
//! driven through `tell`, and whole games.

// Seat-indexed parallel arrays read best with seat indices.
#![allow(clippy::needless_range_loop)]

use crate::common;

use common::{
    PlayText as _, card, cards, follow, new_game, no_peeking_after, referee_move, rng, seat_bound,
};
use tabula::games::cards::Card;
use tabula::games::ninetynine::{Choice, NinetyNine, NnMove, Phase, play_value};
use tabula::model::game::{Game, Observation, Seat, Turn};
use tabula::model::options::Options;
use tabula::search::playout::random_playout;

fn game(words: &[&str]) -> NinetyNine {
    new_game(words)
}

/// A game with these hands (empty text for seats out) and total.
fn dealt(words: &[&str], hands: &[&str], total: u8) -> NinetyNine {
    let mut g = game(words);
    let hs: Vec<Vec<Card>> = hands.iter().map(|h| cards(h)).collect();
    g.deal_hands(&hs, total).unwrap();
    g
}

/// Plays a move text, then draws the lowest card of the stock if a draw
/// is due.
fn play(g: &mut NinetyNine, text: &str) {
    g.play_checked(text)
        .unwrap_or_else(|e| panic!("{text}: {e}\n{}", g.render()));
    if g.phase() == Phase::Draw {
        let i = g.stock().iter().position(|&k| k > 0).unwrap();
        g.apply(NnMove::Draw(Card::from_index(i).unwrap()));
    }
}

fn moves(g: &NinetyNine) -> Vec<NnMove> {
    let mut m = Vec::new();
    g.legal_moves(&mut m);
    m
}

#[test]
fn ninetynine_card_values() {
    let v = |t: u8, text: &str, ch: Choice| play_value(t, card(text), ch);
    for plain in ["2C", "3D", "5H", "6S", "7C", "8D"] {
        let n = plain[..1].parse::<u8>().unwrap();
        assert_eq!(v(50, plain, Choice::Plain), Some(50 + n));
        assert_eq!(v(50, plain, Choice::Plus), None, "no choice to make");
    }
    assert_eq!(v(50, "4C", Choice::Plain), Some(50));
    assert_eq!(v(99, "4C", Choice::Plain), Some(99));
    assert_eq!(v(50, "9C", Choice::Plain), Some(50));
    assert_eq!(v(99, "9H", Choice::Plain), Some(99));
    assert_eq!(v(50, "TC", Choice::Plus), Some(60));
    assert_eq!(v(50, "TC", Choice::Minus), Some(40));
    assert_eq!(v(50, "TC", Choice::Plain), None, "a ten needs a sign");
    assert_eq!(v(5, "TC", Choice::Minus), Some(0), "never below 0");
    assert_eq!(v(0, "TC", Choice::Minus), Some(0));
    assert_eq!(v(95, "TC", Choice::Minus), Some(85));
    assert_eq!(v(95, "TC", Choice::Plus), None);
    assert_eq!(v(50, "JC", Choice::Plain), Some(60));
    assert_eq!(v(50, "QC", Choice::Plain), Some(60));
    assert_eq!(v(90, "QC", Choice::Plain), None);
    for t in [0, 50, 98, 99] {
        assert_eq!(v(t, "KS", Choice::Plain), Some(99));
    }
    assert_eq!(v(50, "AS", Choice::One), Some(51));
    assert_eq!(v(50, "AS", Choice::Eleven), Some(61));
    assert_eq!(v(88, "AS", Choice::Eleven), Some(99));
    assert_eq!(v(89, "AS", Choice::Eleven), None);
    assert_eq!(v(98, "AS", Choice::One), Some(99));
    assert_eq!(v(99, "AS", Choice::One), None);
    assert_eq!(v(50, "AS", Choice::Plain), None, "an ace needs a value");
    // The 99 edge: exactly 99 is fine, 100 is not.
    assert_eq!(v(91, "8C", Choice::Plain), Some(99));
    assert_eq!(v(92, "8C", Choice::Plain), None);
    assert_eq!(v(89, "JC", Choice::Plain), Some(99));
    assert_eq!(v(90, "JC", Choice::Plain), None);
}

#[test]
fn ninetynine_legal_moves_offer_every_value_that_fits() {
    let g = dealt(&[], &["TH AS 5C", "2C 3C 6C", "2D 3D 6D"], 85);
    assert_eq!(g.turn(), Turn::Player(0));
    let m = moves(&g);
    let has = |t: &str| m.contains(&g.parse_move(t).unwrap());
    assert!(has("TH+") && has("TH-") && has("AS1") && has("AS11") && has("5C"));
    assert_eq!(m.len(), 5);
    let g = dealt(&[], &["TH AS 5C", "2C 3C 6C", "2D 3D 6D"], 91);
    let m = moves(&g);
    let has = |t: &str| m.contains(&g.parse_move(t).unwrap());
    assert!(has("TH-") && has("AS1") && has("5C"));
    assert!(!has("TH+") && !has("AS11"));
    assert!(g.clone().play_checked("AS11").is_err());
    // The 99 edge through play: 91 + 8 = 99, then 99 + 2 is too much.
    let mut g = dealt(&[], &["8C 2D 3D", "2C 3C JD", "4S 9S KS"], 91);
    play(&mut g, "8C");
    assert_eq!(g.total(), 99);
    assert_eq!(moves(&g), vec![NnMove::Lose], "p1 holds 2C 3C JD at 99");
}

#[test]
fn ninetynine_direction_reverses_with_fours() {
    let mut g = dealt(
        &["players=4"],
        &["4C 2C 3C", "5C 6C 7C", "5D 6D 7D", "4D 2D 3D"],
        0,
    );
    assert_eq!(g.turn(), Turn::Player(0));
    play(&mut g, "4C");
    assert!(g.reversed());
    assert_eq!(g.total(), 0);
    assert_eq!(g.turn(), Turn::Player(3), "counter-clockwise after a 4");
    play(&mut g, "2D");
    assert_eq!(g.turn(), Turn::Player(2));
    play(&mut g, "5D");
    assert_eq!(g.turn(), Turn::Player(1));
    play(&mut g, "5C");
    assert_eq!(g.turn(), Turn::Player(0));
    play(&mut g, "2C");
    assert_eq!(g.turn(), Turn::Player(3));
    play(&mut g, "4D");
    assert!(!g.reversed());
    assert_eq!(g.turn(), Turn::Player(0), "clockwise again");
    assert_eq!(g.total(), 14);
    // With two players a four changes nothing visible.
    let mut g = dealt(&["players=2"], &["4C 2C 3C", "5C 6C 7C"], 0);
    play(&mut g, "4C");
    assert_eq!(g.turn(), Turn::Player(1));
}

#[test]
fn ninetynine_forced_loss_costs_a_token_and_passes_the_deal() {
    let mut g = dealt(&[], &["5C JC QD", "2C 3C 6C", "2D 3D 6D"], 95);
    assert_eq!(moves(&g), vec![NnMove::Lose]);
    for t in ["5C", "JC", "QD"] {
        assert!(g.clone().play_checked(t).is_err());
    }
    assert_eq!(g.dealer(), 2);
    play(&mut g, "lose");
    assert_eq!(g.tokens(), vec![2, 3, 3]);
    assert!(g.at_horizon());
    assert_eq!(g.last_loser(), Some(0));
    assert_eq!(g.phase(), Phase::Deal);
    assert_eq!(g.turn(), Turn::Chance);
    assert_eq!(g.dealer(), 0, "the deal passes on");
    assert!((g.reward(0) - 0.2).abs() < 1e-9);
    assert!((g.reward(1) - 1.0).abs() < 1e-9);
    // A new hand at 0, started by the player after the new dealer.
    g.apply(g.sample_chance(&mut rng(1)));
    assert!(!g.at_horizon());
    assert_eq!(g.total(), 0);
    assert_eq!(g.turn(), Turn::Player(1));
    for s in 0..3 {
        assert_eq!(g.hand_size(s), 3);
    }
    assert_eq!(g.stock_len(), 52 - 9);
    // Not a forced loss while any card fits: lose is then illegal.
    let g = dealt(&[], &["5C JC 9D", "2C 3C 6C", "2D 3D 6D"], 95);
    assert!(g.clone().play_checked("lose").is_err());
}

#[test]
fn ninetynine_players_without_tokens_drop_out_and_the_last_one_wins() {
    let mut g = dealt(&["tokens=1"], &["5C JC QD", "2C 3C 6C", "2D 3D 6D"], 95);
    play(&mut g, "lose");
    assert_eq!(g.tokens(), vec![0, 1, 1]);
    assert!(!g.is_in(0));
    assert_eq!(g.reward(0), 0.0);
    assert_eq!(
        g.dealer(),
        1,
        "the deal skips nobody here: p2 dealt, p0 is out"
    );
    // p0 is dealt nothing and skipped.
    assert!(
        g.deal_hands(
            &[cards("2H 3H 5H"), cards("2C 3C 6C"), cards("2D 3D 6D")],
            0
        )
        .is_err()
    );
    g.deal_hands(&[Vec::new(), cards("2C 3C 6C"), cards("7D 8D 6D")], 90)
        .unwrap();
    // Only high cards left to draw.
    let held = cards("2C 3C 6C 7D 8D 6D QH JH");
    let pile: Vec<Card> = (0..52)
        .map(|i| Card::from_index(i).unwrap())
        .filter(|x| !held.contains(x))
        .collect();
    g.set_stock(&cards("QH JH"), &pile, pile.last().copied())
        .unwrap();
    assert_eq!(g.turn(), Turn::Player(2));
    play(&mut g, "6D");
    assert_eq!(g.turn(), Turn::Player(1), "p0 is skipped");
    play(&mut g, "2C");
    assert_eq!(g.total(), 98);
    assert_eq!(g.turn(), Turn::Player(2));
    assert_eq!(moves(&g), vec![NnMove::Lose]);
    play(&mut g, "lose");
    assert_eq!(g.turn(), Turn::Over);
    let out = g.outcome();
    assert_eq!(out.winners, vec![1]);
    assert_eq!(out.scores, vec![0.0, 1.0, 0.0]);
    assert_eq!(g.reward(1), 1.0);
    assert_eq!(g.reward(2), 0.0);
    assert!(g.parse_move("5C").is_err());
    // The picture of the finished game shows the last hand, the second.
    assert!(
        g.render().starts_with("hand 2, dealer p1, total 98"),
        "{}",
        g.render()
    );
}

#[test]
fn ninetynine_pile_is_reshuffled_less_its_top_card() {
    let mut g = dealt(&["players=2"], &["2C 3C 5C", "6C 7C 8C"], 0);
    let in_hands = cards("2C 3C 5C 6C 7C 8C 9C");
    let pile: Vec<Card> = (0..52)
        .map(|i| Card::from_index(i).unwrap())
        .filter(|x| !in_hands.contains(x))
        .collect();
    g.set_stock(&[card("9C")], &pile, Some(card("KS"))).unwrap();
    assert_eq!(g.stock_len(), 1);
    play(&mut g, "2C");
    assert_eq!(g.hand(0), cards("3C 5C 9C"));
    assert_eq!((g.stock_len(), g.generation()), (0, 0));
    // The stock is empty at p1's draw: the pile less 6C becomes the stock.
    g.play_checked("6C").unwrap();
    assert_eq!(g.generation(), 1);
    assert_eq!(g.top(), Some(card("6C")));
    assert_eq!(g.pile().iter().map(|&k| k as usize).sum::<usize>(), 1);
    assert_eq!(g.pile()[card("6C").index()], 1);
    assert_eq!(g.stock_len(), 46);
    assert_eq!(g.stock()[card("2C").index()], 1);
    assert_eq!(g.stock()[card("KS").index()], 1);
    assert_eq!(g.phase(), Phase::Draw);
    let mut listed = Vec::new();
    g.legal_moves(&mut listed);
    assert_eq!(listed.len(), 46);
    g.apply(NnMove::Draw(card("KS")));
    assert_eq!(g.stock_len(), 45);
    assert_eq!(g.hand(1), cards("7C 8C KS"));
}

#[test]
fn ninetynine_two_decks_beyond_six_players() {
    assert_eq!(game(&["players=6"]).config().decks, 1);
    let mut g = game(&["players=7"]);
    assert_eq!(g.config().decks, 2);
    g.apply(g.sample_chance(&mut rng(3)));
    assert_eq!(g.stock_len(), 104 - 21);
    let mut count = g.stock();
    for s in 0..7 {
        assert_eq!(g.hand_size(s), 3);
        for x in g.hand(s) {
            count[x.index()] += 1;
        }
    }
    assert!(count.iter().all(|&k| k == 2));
    // Duplicates are fine with two decks, three copies are not.
    let mut hs = vec![cards("5H 5H 9C")];
    hs.extend((1..7).map(|s| cards(&format!("{s}C {s}D {s}S").replace('1', "A"))));
    assert!(game(&["players=7"]).deal_hands(&hs, 0).is_ok());
    hs[1] = cards("5H 2D 2S");
    assert!(game(&["players=7"]).deal_hands(&hs, 0).is_err());
    let bound = game(&["players=7", "seat=0"]);
    let mv = bound.parse_move("5H 5H 9C").unwrap();
    assert!(bound.is_legal(mv));
    assert!(!bound.is_legal(bound.parse_move("5H 5H 5H").unwrap()));
    let one_deck = game(&["players=3", "seat=0"]);
    assert!(!one_deck.is_legal(one_deck.parse_move("5H 5H 9C").unwrap()));
}

#[test]
fn ninetynine_options_and_texts() {
    let parse = |w: &[&str]| NinetyNine::new_game(&Options::parse(NinetyNine::OPTIONS, w).unwrap());
    let g = game(&[]);
    assert_eq!((g.num_seats(), g.tokens()), (3, vec![3, 3, 3]));
    assert_eq!(game(&["tokens=5"]).tokens(), vec![5, 5, 5]);
    assert!(parse(&["players=3", "seat=3"]).is_err());
    assert!(Options::parse(NinetyNine::OPTIONS, &["players=11"]).is_err());
    assert!(Options::parse(NinetyNine::OPTIONS, &["players=1"]).is_err());
    assert_eq!(g.parse_seat("p2"), Some(2));
    assert_eq!(g.parse_seat("0"), Some(0));
    assert_eq!(g.parse_seat("p3"), None);
    assert_eq!(g.parse_move("shuffle:9").unwrap(), NnMove::Deal(9));
    assert!(g.parse_move("5H 9C KD").is_err());
    let g = dealt(&[], &["TH AS 5C", "2C 3C 6C", "2D 3D 6D"], 0);
    for (text, mv) in [
        ("TH+", NnMove::Play(card("TH"), Choice::Plus)),
        ("th-", NnMove::Play(card("TH"), Choice::Minus)),
        ("AS1", NnMove::Play(card("AS"), Choice::One)),
        ("AS11", NnMove::Play(card("AS"), Choice::Eleven)),
        ("5C", NnMove::Play(card("5C"), Choice::Plain)),
        ("lose", NnMove::Lose),
    ] {
        assert_eq!(g.parse_move(text).unwrap(), mv);
        assert_eq!(
            g.move_text(mv).to_ascii_lowercase(),
            text.to_ascii_lowercase()
        );
    }
    for bad in [
        "", "TH", "AS", "5C+", "AS2", "AS111", "Z1", "N1", "10", "QX", "TH+ 5C", "é",
    ] {
        assert!(g.parse_move(bad).is_err(), "{bad}");
    }
    let b = game(&["seat=1"]);
    assert!(b.chance_from_referee());
    for bad in ["5H 9C", "5H 9C KD 2C", "5H Z1 KD", "shuffle:3"] {
        assert!(b.parse_move(bad).is_err(), "{bad}");
    }
    let mut sorted = [card("5H"), card("9C"), card("KD")];
    sorted.sort();
    assert_eq!(b.parse_move("KD 5H 9C").unwrap(), NnMove::Hand(sorted));
}

#[test]
fn ninetynine_seed_baseline_plays_low_plain_cards_first() {
    let rules = |hand: &str, total: u8| {
        let g = dealt(&[], &[hand, "2C 3C 6C", "2D 3D 6D"], total);
        let mut r = rng(0);
        g.rules_move(&mut r).map(|m| g.move_text(m))
    };
    assert_eq!(rules("KH 7S 9C", 0).as_deref(), Some("7S"));
    assert_eq!(rules("KH 7S 9C", 95).as_deref(), Some("9C"));
    assert_eq!(rules("KH 7S 8C", 99).as_deref(), Some("KH"));
    assert_eq!(rules("JH 5S 4C", 0).as_deref(), Some("5S"));
    assert_eq!(rules("JH AS 4C", 0).as_deref(), Some("JH"));
    assert_eq!(rules("TH AS 4C", 0).as_deref(), Some("AS1"));
    assert_eq!(rules("TH QS JC", 95).as_deref(), Some("TH-"));
    assert_eq!(rules("8H QS JC", 95).as_deref(), Some("lose"));
}

/// Runs a whole game from a self-dealt state, keeping a seat-bound state
/// per seat in step through `tell`; checks the bound states agree with the
/// full state after every move.
fn referee_game(options: &[&str], seed: u64, use_rules: bool) -> (NinetyNine, Vec<NinetyNine>) {
    let mut full = game(options);
    let n = full.num_seats();
    let mut bound: Vec<NinetyNine> = (0..n).map(|s| seat_bound(options, s)).collect();
    let mut r = rng(seed);
    let mut buf = Vec::new();
    let mut last_player = None;
    while !full.is_over() {
        let (mv, mover) = referee_move(&full, &mut r, &mut buf, use_rules.then_some(0.7));
        assert!(full.is_legal(mv), "{mv:?}\n{}", full.render());
        for s in 0..n {
            let told = full.tell(mv, s);
            if mover == Some(s) {
                assert!(told.is_empty());
            }
            for o in &told {
                if let Observation::Played { seat, .. } = o {
                    assert_eq!(Some(*seat), mover);
                }
            }
            follow(&mut bound[s], s, &full, mv);
            // A draw is told to the drawer only.
            if full.phase() == Phase::Draw {
                assert_eq!(told.len(), usize::from(last_player == Some(s)));
            }
        }
        if mover.is_some() {
            last_player = mover;
        }
        full.apply(mv);
        for s in 0..n {
            let b = &bound[s];
            assert_eq!(b.tokens(), full.tokens());
            // Other seats' draws are implied in a bound state: it is
            // already at the next player's turn.
            let others_draw = full.phase() == Phase::Draw && last_player != Some(s);
            if (full.is_in(s) && !others_draw) || full.is_over() {
                assert_eq!(
                    b.turn(),
                    full.turn(),
                    "seat {s}\n{}\n{}",
                    b.render(),
                    full.render()
                );
                assert_eq!(b.hand(s), full.hand(s));
                assert_eq!(b.total(), full.total());
                assert_eq!(b.at_horizon(), full.at_horizon());
                if !others_draw {
                    assert_eq!(b.stock_len(), full.stock_len());
                }
                assert_eq!(b.pile(), full.pile());
                for t in 0..n {
                    if !others_draw {
                        assert_eq!(b.hand_size(t), full.hand_size(t));
                    }
                }
            }
            if full.at_horizon() {
                assert_eq!(b.reward(s), full.reward(s));
            }
        }
    }
    (full, bound)
}

#[test]
fn ninetynine_seat_bound_games_through_tell_end_with_the_same_tokens() {
    for (i, opts) in [
        &["players=3"][..],
        &["players=4", "tokens=2"][..],
        &["players=2", "tokens=4"][..],
        &["players=7", "tokens=1"][..],
    ]
    .iter()
    .enumerate()
    {
        let (full, bound) = referee_game(opts, 200 + i as u64, i % 2 == 0);
        assert!(full.is_over());
        assert_eq!(full.outcome().winners.len(), 1);
        for b in &bound {
            assert!(b.is_over());
            assert_eq!(b.outcome(), full.outcome());
        }
    }
}

#[test]
fn ninetynine_full_games_reach_the_end() {
    for (players, seed) in [(3, 1u64), (2, 2), (6, 3), (10, 4)] {
        let mut g = game(&[&format!("players={players}")]);
        let mut r = rng(seed);
        let mut buf = Vec::new();
        let mut hands = 0;
        while g.turn() != Turn::Over {
            let mv = g.random_move(&mut r, &mut buf);
            assert!(g.is_legal(mv), "{mv:?}");
            g.apply(mv);
            hands += usize::from(g.at_horizon());
            for s in 0..players {
                assert!((0.0..=1.0).contains(&g.reward(s)));
            }
        }
        // Every hand costs one token; all but the winner's are gone.
        assert_eq!(
            hands,
            3 * players - g.tokens().iter().map(|&t| t as usize).sum::<usize>()
        );
        assert_eq!(g.outcome().winners.len(), 1);
    }
}

/// Random play from a fresh game with a small stock (frequent reshuffles),
/// checking every `every` plies that determinizations for seat 0 are
/// consistent: its hand, the pile, the counts, the card totals, and no
/// card known to sit in a hand at the last reshuffle in the stock.
#[test]
fn ninetynine_determinize_is_consistent_across_reshuffles() {
    let mut samples = 0;
    let mut varied = 0;
    let mut after_reshuffle = 0;
    for seed in 0..12u64 {
        let players = 2 + (seed as usize % 4);
        let mut g = game(&[&format!("players={players}"), "tokens=9"]);
        let mut r = rng(seed);
        let mut buf = Vec::new();
        g.apply(g.sample_chance(&mut r));
        let mut old: Vec<(Seat, Card)> = Vec::new();
        let mut generation = 0;
        for ply in 0..400 {
            if g.is_over() {
                break;
            }
            if g.phase() == Phase::Play && g.hand_number() == 0 {
                let o = 0;
                for _ in 0..3 {
                    let d = g.determinize(o, &mut r);
                    samples += 1;
                    assert_eq!(d.hand(o), g.hand(o));
                    assert_eq!(d.pile(), g.pile());
                    assert_eq!(d.stock_len(), g.stock_len());
                    let mut count = d.stock();
                    for s in 0..players {
                        assert_eq!(d.hand_size(s), g.hand_size(s));
                        for x in d.hand(s) {
                            count[x.index()] += 1;
                        }
                    }
                    for i in 0..52 {
                        assert_eq!(count[i] + d.pile()[i], 1);
                    }
                    assert_eq!(
                        count.iter().map(|&k| k as usize).sum::<usize>()
                            + g.pile().iter().map(|&k| k as usize).sum::<usize>(),
                        52
                    );
                    for &(_, x) in &old {
                        assert_eq!(
                            d.stock()[x.index()],
                            0,
                            "{x} was in a hand at the reshuffle"
                        );
                    }
                    varied += usize::from((1..players).any(|s| d.hand(s) != g.hand(s)));
                    if generation > 0 {
                        after_reshuffle += 1;
                    }
                    let mut p = d.clone();
                    random_playout(&mut p, &mut r, &mut buf);
                    assert!(p.at_horizon());
                }
            }
            if let Turn::Player(p) = g.turn()
                && ply == 0
                && g.hand_number() == 0
            {
                // Shrink the stock so that reshuffles come quickly.
                let _ = p;
                let mut stock = Vec::new();
                let mut pile = Vec::new();
                for (i, &k) in g.stock().iter().enumerate() {
                    for _ in 0..k {
                        let x = Card::from_index(i).unwrap();
                        if stock.len() < 4 {
                            stock.push(x)
                        } else {
                            pile.push(x)
                        }
                    }
                }
                let top = pile.last().copied();
                g.set_stock(&stock, &pile, top).unwrap();
            }
            let mv = g.random_move(&mut r, &mut buf);
            let mover = match g.turn() {
                Turn::Player(p) => Some(p),
                _ => None,
            };
            g.apply(mv);
            if let (Some(p), NnMove::Play(x, _)) = (mover, mv) {
                old.retain(|&(s, y)| !(s == p && y == x));
            }
            if g.generation() != generation {
                generation = g.generation();
                old = (1..players)
                    .flat_map(|s| g.hand(s).into_iter().map(move |x| (s, x)))
                    .collect();
            }
        }
    }
    assert!(samples > 500, "{samples}");
    assert!(varied > samples / 2, "{varied}/{samples}");
    assert!(after_reshuffle > 100, "{after_reshuffle}");
}

#[test]
fn ninetynine_no_peeking_decisions_do_not_depend_on_unseen_cards() {
    let options = ["players=3", "tokens=2"];
    let mut checked = 0;
    let mut differ = 0;
    for seed in 0..16u64 {
        let plies = 4 + (seed as usize * 7) % 60;
        if let Some(d) = no_peeking_after::<NinetyNine>(&options, seed, plies) {
            checked += 1;
            differ += usize::from(d);
        }
    }
    assert!(checked >= 8);
    assert!(
        differ >= checked / 2,
        "the other worlds must differ: {differ}"
    );
}

#[test]
fn ninetynine_seat_bound_accepts_only_plausible_plays() {
    let mut g = game(&["players=3", "seat=0"]);
    play_text(&mut g, "5H 9C KD");
    assert_eq!(g.turn(), Turn::Player(0));
    assert!(g.play_checked("2C").is_err(), "not in the hand");
    play_text(&mut g, "5H");
    // The observer's draw is told.
    assert_eq!(g.turn(), Turn::Chance);
    assert!(g.chance_from_referee());
    assert!(
        g.play_checked("9C").is_err(),
        "the observer holds the only 9C"
    );
    play_text(&mut g, "2C");
    assert_eq!(g.hand(0), cards("2C 9C KD"));
    assert_eq!(g.stock_len(), 52 - 9 - 1);
    // p1 cannot play the observer's cards nor the card on the pile.
    assert_eq!(g.turn(), Turn::Player(1));
    for t in ["9C", "KD", "5H"] {
        assert!(g.play_checked(t).is_err(), "{t}");
    }
    assert!(g.play_checked("lose").is_err(), "at 5 every hand can play");
    play_text(&mut g, "TS+");
    // p1's draw is implied.
    assert_eq!(g.hand_size(1), 3);
    assert_eq!(g.stock_len(), 52 - 9 - 2);
    assert_eq!(g.turn(), Turn::Player(2));
    play_text(&mut g, "KS");
    assert_eq!(g.total(), 99);
    // At 99 p0 may still play 9C or KD.
    assert!(g.clone().play_checked("2C").is_err());
    play_text(&mut g, "9C");
    play_text(&mut g, "3D");
    // Someone might well be stuck now: lose is plausible.
    assert_eq!(g.turn(), Turn::Player(1));
    play_text(&mut g, "lose");
    assert_eq!(g.tokens(), vec![3, 2, 3]);
    assert_eq!(g.turn(), Turn::Chance, "the next deal is told");
}

fn play_text(g: &mut NinetyNine, text: &str) {
    g.play_checked(text)
        .unwrap_or_else(|e| panic!("{text}: {e}\n{}", g.render()));
}

/// Ten players, the most the game allows (two decks): seat-bound engines at
/// all ten seats follow a whole game through `tell`, and determinizations
/// for seats 8 and 9 keep every public count (own hand, hand sizes, pile,
/// stock, two copies of each card) and play on to the end of the hand.
#[test]
fn ninetynine_ten_players_deal_determinize_and_play_to_the_end() {
    let options = ["players=10", "tokens=1"];
    let (full, bound) = referee_game(&options, 1010, true);
    assert!(full.is_over());
    assert_eq!(full.outcome().scores.len(), 10);
    assert_eq!(full.outcome().winners.len(), 1);
    for b in &bound {
        assert_eq!(b.outcome(), full.outcome());
    }

    // A longer game (three tokens each) for many decisions at seats 8, 9.
    let mut g = game(&["players=10"]);
    let mut r = rng(10);
    let mut buf = Vec::new();
    let (mut samples, mut varied) = (0usize, 0usize);
    while !g.is_over() {
        if let Turn::Player(o @ (8 | 9)) = g.turn() {
            for k in 0..2 {
                let d = g.determinize(o, &mut rng(samples as u64 + k));
                samples += 1;
                assert_eq!(d.hand(o), g.hand(o));
                assert_eq!(d.pile(), g.pile());
                assert_eq!(d.stock_len(), g.stock_len());
                let mut count = d.stock();
                for s in 0..10 {
                    assert_eq!(d.hand_size(s), g.hand_size(s), "seat {s}");
                    for x in d.hand(s) {
                        count[x.index()] += 1;
                    }
                }
                for i in 0..52 {
                    assert_eq!(count[i] + d.pile()[i], 2, "copies of card {i}");
                }
                varied += usize::from((0..10).any(|s| s != o && d.hand(s) != g.hand(s)));
                let mut p = d.clone();
                random_playout(&mut p, &mut r, &mut buf);
                assert!(p.at_horizon());
            }
        }
        let (mv, _) = referee_move(&g, &mut r, &mut buf, Some(0.5));
        g.apply(mv);
    }
    assert!(samples >= 20, "{samples}");
    assert!(varied > samples / 2, "{varied}/{samples}");
}
