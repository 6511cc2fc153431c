//! The conformance suite every registered game runs, through the game
//! trait only (in the spirit of OpenSpiel's random-simulation test).
//!
//! It walks the registry, so a new game is checked as soon as its
//! `registry!` line exists: seeded random games are played to the end,
//! and at every state the suite checks that the legal moves are legal and
//! distinct, that each move's text reads back as the same move (in any
//! letter case, with spaces around it), that moves legal a step ago and no
//! longer are refused, that nonsense is refused, that the position text
//! rebuilds the same state, that a determinization keeps what the observer
//! knows and depends on nothing else, that undoing and replaying a game
//! gives the same states, and that the game ends with an outcome. Games
//! that can be played seat-bound (a `seat` option) also keep one bound
//! state per seat in step through what the game tells each seat, and
//! every seat's view must match the full game's; at some decisions a
//! search must choose the same from the real deal, another deal the seat
//! cannot tell apart, and its bound state (no peeking).

use std::collections::HashSet;

use rand::{Rng as _, SeedableRng};

use crate::common::{assert_no_peeking, flat_monte_carlo, follow, seat_bound};
use tabula::games::{GAMES, GameVisitor};
use tabula::model::game::{Game, Rng, Turn};
use tabula::model::options::Options;
use tabula::model::played::Played;

/// Option sets checked besides each game's defaults. A name that is not
/// registered fails the suite, so the list cannot rot.
const VARIANTS: &[(&str, &[&str])] = &[
    ("othello", &[]),
    ("quoridor", &["players=4"]),
    ("quoridor", &["size=5", "walls=3"]),
    ("hearts", &["hands=single"]),
    ("hearts", &["pass=none", "moon=minus"]),
    ("wizard", &["players=6"]),
    ("wizard", &["players=3", "rounds=5", "hand=15"]),
    ("ninetynine", &["players=10"]),
    ("ninetynine", &["players=3", "tokens=1"]),
];

/// Longest game the suite accepts before calling it endless.
const MAX_PLIES: usize = 20_000;

/// What a simulation found wrong, named for the report.
type Verdict = Result<usize, String>;

/// Plays `games` seeded random games of one game type and checks them.
struct Simulate<'w> {
    words: &'w [&'w str],
    games: u64,
    seed: u64,
}

impl GameVisitor for Simulate<'static> {
    type Output = Verdict;
    fn visit<G: Game>(self, options: &Options) -> Verdict {
        let mut plies = 0;
        for g in 0..self.games {
            plies += simulate::<G>(options, self.words, self.seed.wrapping_add(g))
                .map_err(|e| format!("game {} (seed {}): {e}", g, self.seed + g))?;
        }
        Ok(plies)
    }
}

macro_rules! ensure {
    ($cond:expr, $($msg:tt)+) => {
        if !$cond {
            return Err(format!($($msg)+));
        }
    };
}

fn legal<G: Game>(state: &G) -> Vec<G::Move> {
    let mut out = Vec::new();
    state.legal_moves(&mut out);
    out
}

fn texts<G: Game>(state: &G) -> Vec<String> {
    legal(state)
        .into_iter()
        .map(|m| state.move_text(m))
        .collect()
}

/// One random game from the start, every state checked; returns its plies.
fn simulate<G: Game>(options: &Options, words: &[&str], seed: u64) -> Result<usize, String> {
    let mut rng = Rng::seed_from_u64(seed);
    let start = G::new_game(options).map_err(|e| format!("new_game: {e}"))?;
    let seat_bound_play = G::OPTIONS.iter().any(|o| o.name == "seat")
        && !words.iter().any(|w| w.starts_with("seat="));
    let mut bound: Vec<G> = if seat_bound_play {
        (0..start.num_seats())
            .map(|s| seat_bound(words, s))
            .collect()
    } else {
        Vec::new()
    };
    let mut played = Played::new(start);
    let mut renders = vec![played.state().render()];
    let mut previous: Vec<G::Move> = Vec::new();
    loop {
        let state = played.state().clone();
        ensure!(
            played.history().len() <= MAX_PLIES,
            "no end after {MAX_PLIES} plies"
        );
        ensure!(
            state.is_over() == (state.turn() == Turn::Over),
            "is_over disagrees with turn"
        );
        check_position_text(&state, options)?;
        check_determinize(&state, &mut rng)?;
        match state.turn() {
            Turn::Over => break,
            Turn::Chance => {
                let mv = state.sample_chance(&mut rng);
                ensure!(
                    state.is_legal(mv),
                    "sampled chance outcome {mv:?} is not legal"
                );
                let moves = legal(&state);
                ensure!(
                    moves.is_empty() || moves.contains(&mv),
                    "sampled chance outcome {mv:?} is not among the listed ones"
                );
                previous.clear();
                for (seat, b) in bound.iter_mut().enumerate() {
                    follow(b, seat, &state, mv);
                }
                played.apply(mv);
            }
            Turn::Player(seat) => {
                ensure!(seat < state.num_seats(), "seat {seat} out of range");
                let moves = check_moves(&state, &previous)?;
                if !bound.is_empty() && played.history().len() % 13 == 5 {
                    let world = state.determinize(seat, &mut rng);
                    assert_no_peeking(seat, &state, &[&world, &bound[seat]], |g| {
                        flat_monte_carlo(g, seat, seed)
                    });
                }
                let mv = moves[rng.gen_range(0..moves.len())];
                for (s, b) in bound.iter_mut().enumerate() {
                    follow(b, s, &state, mv);
                }
                let mut by_hand = state.clone();
                by_hand.apply(mv);
                let text = state.move_text(mv);
                let got = played
                    .play(&text)
                    .map_err(|e| format!("play {text}: {e}"))?;
                ensure!(got == mv, "play {text} applied {got:?}, not {mv:?}");
                ensure!(
                    played.state().render() == by_hand.render(),
                    "play {text} and apply differ"
                );
                previous = moves;
            }
        }
        renders.push(played.state().render());
        // A seat's view must match when it decides and when the game ends;
        // in between a bound state may wait on a step hidden from it (the
        // others' passes in Hearts).
        for (seat, b) in bound.iter().enumerate() {
            let full = played.state();
            if full.turn() != Turn::Player(seat) && !full.is_over() {
                continue;
            }
            ensure!(
                b.turn() == full.turn(),
                "seat {seat}'s bound state has turn {:?}, the game {:?}",
                b.turn(),
                full.turn()
            );
            ensure!(
                b.view_text(seat) == full.view_text(seat),
                "seat {seat}'s bound state sees otherwise than the game it follows:\n{}\nthe game:\n{}",
                b.view_text(seat),
                full.view_text(seat)
            );
        }
    }
    let outcome = played
        .outcome()
        .ok_or("the game is over but has no outcome")?;
    let end = played.state().clone();
    for seat in 0..end.num_seats() {
        ensure!(
            end.reward(seat).is_finite(),
            "reward of seat {seat} is not finite"
        );
    }
    ensure!(
        format!("{outcome:?}") == format!("{:?}", end.outcome()),
        "Played::outcome and Game::outcome differ"
    );
    check_undo(&mut played, &renders, &mut rng)?;
    let mut buf = Vec::new();
    let mut playout = G::new_game(options).map_err(|e| format!("new_game: {e}"))?;
    let plies = playout.random_playout(&mut rng, &mut buf);
    ensure!(
        playout.at_horizon(),
        "random_playout stopped before the horizon"
    );
    ensure!(plies > 0, "random_playout played nothing from the start");
    Ok(renders.len() - 1)
}

/// The legal moves of a seat's turn: distinct, legal, read back from their
/// text in any case; the moves that were legal a step ago and are no
/// longer are refused; nonsense is refused.
fn check_moves<G: Game>(state: &G, previous: &[G::Move]) -> Result<Vec<G::Move>, String> {
    let moves = legal(state);
    ensure!(!moves.is_empty(), "a seat is to move but has no legal move");
    let mut seen = HashSet::new();
    for &mv in &moves {
        ensure!(seen.insert(mv), "{mv:?} listed twice");
        ensure!(state.is_legal(mv), "listed {mv:?} is not legal");
        let text = state.move_text(mv);
        ensure!(
            state.parse_move(&text) == Ok(mv),
            "move text {text:?} does not read back as {mv:?}"
        );
        for variant in [
            text.to_uppercase(),
            text.to_lowercase(),
            format!("  {text}\t"),
        ] {
            ensure!(
                state.check_move(&variant) == Ok(mv),
                "{variant:?} is not accepted as {mv:?}"
            );
        }
    }
    for &old in previous {
        if !moves.contains(&old) {
            ensure!(!state.is_legal(old), "{old:?} is not listed but is legal");
            let text = state.move_text(old);
            ensure!(
                state.check_move(&text).is_err(),
                "{text:?} is accepted but is not among the legal moves"
            );
        }
    }
    for nonsense in [
        "",
        "   ",
        "zz99",
        "\u{1F600}",
        "pass pass",
        "-1",
        "99999999999999999999",
    ] {
        if let Ok(mv) = state.check_move(nonsense) {
            ensure!(
                moves.contains(&mv),
                "{nonsense:?} is accepted as {mv:?}, which is not legal"
            );
        }
    }
    Ok(moves)
}

/// A position text, where the game has one, rebuilds the same position:
/// the same text, turn, legal moves and hash key. (Not the same picture:
/// a position text need not carry the ply count toward a game's cap.)
fn check_position_text<G: Game>(state: &G, options: &Options) -> Result<(), String> {
    // A finished position may be refused (a pawn already home).
    let Some(text) = state.position_text().filter(|_| !state.is_over()) else {
        return Ok(());
    };
    let mut rebuilt = G::new_game(options).map_err(|e| format!("new_game: {e}"))?;
    rebuilt
        .set_position(&text)
        .map_err(|e| format!("set_position({text:?}) of its own text: {e}"))?;
    ensure!(
        rebuilt.position_text().as_deref() == Some(text.as_str()),
        "position text {text:?} does not round-trip"
    );
    ensure!(
        rebuilt.turn() == state.turn(),
        "position {text:?} changes the turn"
    );
    ensure!(
        texts(&rebuilt) == texts(state),
        "position {text:?} changes the legal moves"
    );
    if let (Some(a), Some(b)) = (rebuilt.hash_key(), state.hash_key()) {
        ensure!(
            a == b,
            "position {text:?} has another hash key when rebuilt"
        );
    }
    Ok(())
}

/// A determinization for an observer keeps what the observer knows (its
/// view, the turn, its own legal moves) and depends on nothing it does not
/// know: two worlds the observer cannot tell apart give the same sample
/// from the same random stream.
fn check_determinize<G: Game>(state: &G, rng: &mut Rng) -> Result<(), String> {
    if state.is_over() {
        return Ok(());
    }
    for observer in 0..state.num_seats() {
        let seed = rng.r#gen::<u64>();
        let world = state.determinize(observer, &mut Rng::seed_from_u64(seed));
        if G::PERFECT_INFORMATION {
            ensure!(
                world.render() == state.render(),
                "a perfect-information determinization changed the state"
            );
        }
        ensure!(
            world.view_text(observer) == state.view_text(observer),
            "determinizing for seat {observer} changed its view"
        );
        ensure!(
            world.turn() == state.turn(),
            "determinizing changed the turn"
        );
        if state.turn() == Turn::Player(observer) {
            ensure!(
                texts(&world) == texts(state),
                "determinizing for seat {observer} changed its legal moves"
            );
        }
        let resample = rng.r#gen::<u64>();
        let from_truth = state.determinize(observer, &mut Rng::seed_from_u64(resample));
        let from_world = world.determinize(observer, &mut Rng::seed_from_u64(resample));
        ensure!(
            from_truth.render() == from_world.render(),
            "seat {observer}'s sample depends on cards it cannot see"
        );
    }
    Ok(())
}

/// Undo to random points and replay: the same states, the same end.
fn check_undo<G: Game>(
    played: &mut Played<G>,
    renders: &[String],
    rng: &mut Rng,
) -> Result<(), String> {
    let steps: Vec<_> = played.history().iter().map(|s| s.mv).collect();
    for _ in 0..4 {
        let back = rng.gen_range(0..=steps.len());
        played.rewind_to(back);
        ensure!(
            played.history().len() == back,
            "rewind_to({back}) left {} steps",
            played.history().len()
        );
        ensure!(
            played.state().render() == renders[back],
            "rewind_to({back}) is not the state it was"
        );
        for &mv in &steps[back..] {
            played.apply(mv);
        }
        ensure!(
            played.state().render() == renders[steps.len()],
            "replaying after rewind_to({back}) ends elsewhere"
        );
    }
    played.restart();
    ensure!(played.history().is_empty(), "restart kept history");
    ensure!(
        played.state().render() == renders[0],
        "restart is not the start"
    );
    Ok(())
}

fn run(name: &str, words: &'static [&'static str], games: u64) {
    let entry = GAMES
        .iter()
        .find(|g| g.name == name)
        .unwrap_or_else(|| panic!("{name} is not registered"));
    let seed = 0x7ab1a ^ words.len() as u64;
    match entry.visit(words, Simulate { words, games, seed }) {
        Ok(Ok(plies)) => assert!(plies > 0, "{name} {words:?}: no move was played"),
        Ok(Err(fault)) => panic!("{name} {words:?}: {fault}"),
        Err(e) => panic!("{name} {words:?}: options refused: {e}"),
    }
}

#[test]
fn every_registered_game_conforms_with_its_default_options() {
    for entry in GAMES {
        run(entry.name, &[], 3);
    }
}

#[test]
fn the_variants_conform() {
    for (name, words) in VARIANTS {
        run(name, words, 2);
    }
}
