//! Othello's opening book (src/games/othello/book.rs), on in Othello's
//! default player: with `book on` the engine answers from it at once where the position is
//! in it, draws among the moves within `book_margin` of the best (the same
//! seed, the same draw), plays only legal book moves, and searches once the
//! game leaves the book or `book` is off.

use std::io::Cursor;

use tabula::engine::Engine;
use tabula::games::othello::{Othello, book};
use tabula::model::game::Game as _;
use tabula::protocol::{Protocol, run_protocol};

/// A GTP session on an engine seeded `seed`: its replies.
fn replies(seed: u64, input: &str) -> Vec<String> {
    let mut out = Vec::new();
    let engine = Engine::new(seed).expect("engine starts");
    run_protocol(
        Cursor::new(input.as_bytes().to_vec()),
        &mut out,
        engine,
        Protocol::Gtp,
    );
    String::from_utf8(out)
        .expect("UTF-8 output")
        .split("\n\n")
        .filter(|r| !r.trim().is_empty())
        .map(|r| r.trim_start_matches('\n').trim_end().to_string())
        .collect()
}

#[test]
fn the_book_answers_at_once_where_a_search_of_that_depth_would_take_hours() {
    // Depth 40 from the start would not end in this test's life: the book
    // answers each of the first moves without searching.
    let started = std::time::Instant::now();
    let r = replies(
        3,
        "get book\nset book off\nset book on\nset depth 40\ngenmove\ngenmove\ngenmove\ngenmove\nshowboard\n",
    );
    assert_eq!(r[0], "= on", "on in Othello's default player: {r:?}");
    assert_eq!((r[1].as_str(), r[2].as_str()), ("=", "="), "{r:?}");
    for reply in &r[4..8] {
        assert!(reply.starts_with("= ") && reply.len() == 4, "{r:?}");
    }
    assert!(
        started.elapsed().as_secs() < 30,
        "four book moves took {:?}",
        started.elapsed()
    );
}

#[test]
fn book_moves_are_drawn_by_the_seed_within_the_margin() {
    let opening = |seed: u64, margin: &str| -> Vec<String> {
        replies(
            seed,
            &format!(
                "set book on\nset book_margin {margin}\nset depth 40\ngenmove\ngenmove\ngenmove\n"
            ),
        )[2..]
            .to_vec()
    };
    // The same seed draws the same line.
    assert_eq!(opening(5, "1"), opening(5, "1"));
    // With a margin, the four equal first moves (the start's symmetric
    // images) are all drawn over some seeds; with margin 0 the book still
    // draws among moves of exactly equal value.
    let firsts: std::collections::BTreeSet<String> =
        (0..24).map(|seed| opening(seed, "2")[1].clone()).collect();
    assert!(firsts.len() >= 3, "first moves drawn: {firsts:?}");
    for f in &firsts {
        assert!(
            ["= c4", "= d3", "= e6", "= f5"].contains(&f.as_str()),
            "{f}"
        );
    }
}

#[test]
fn off_the_book_or_out_of_it_the_engine_searches() {
    // With the book off, a depth-1 search plays (the search's nodes
    // show in its info); a position out of the book is searched too.
    let r = replies(
        1,
        "set book on\nset book off\nset depth 1\ngenmove\nget book\nset book on\nset book maybe\nget book\n",
    );
    assert!(r[3].starts_with("= "), "{r:?}");
    assert_eq!(r[4], "= off");
    assert!(r[6].starts_with("? "), "a bad value is refused: {r:?}");
    assert_eq!(r[7], "= on", "the refused set changed nothing: {r:?}");
    // A line experts never play (each side takes its highest square):
    // out of the book after a few moves, so a depth-40 search would not
    // answer; depth 2 does, with a legal move.
    let mut state = Othello::start();
    let mut plays = String::new();
    for _ in 0..10 {
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        let mv = *moves.iter().max().expect("a move");
        plays.push_str(&format!("play {}\n", state.move_text(mv)));
        state.apply(mv);
    }
    assert!(book::book_moves(&state).is_empty(), "still in the book");
    let r = replies(
        1,
        &format!("set book on\n{plays}set depth 2\nlegal_moves\ngenmove\n"),
    );
    let legal = r[12].trim_start_matches("= ").to_lowercase();
    let mv = r[13].trim_start_matches("= ").to_lowercase();
    assert!(
        legal.split_whitespace().any(|m| m == mv),
        "{mv} not in {legal}: {r:?}"
    );
}
