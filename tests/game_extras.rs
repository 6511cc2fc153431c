//! What a game declares on its registry line beyond the `Game` trait
//! (src/model/extras.rs): only Othello declares extras, and each reaches its
//! users: the solver the engine's exact search (`solve`, alpha-beta's
//! `solve_reach`) and the match runner's adjudication, the conventions the
//! protocol (`boardsize`, `final_score`), the forced pass and the clock.

use std::io::Cursor;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use tabula::engine::{BudgetOverride, Engine, EngineError, Request};
use tabula::games::othello::{Othello, PASS};
use tabula::games::{self, GameVisitor};
use tabula::model::extras::Extras;
use tabula::model::game::Game;
use tabula::model::options::Options;

/// FFO #1: 14 empties, black to move; g8 wins by 18 (the published
/// value, as tests/othello_solver.rs checks it on the solver itself).
const FFO_1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";

/// What a game type declares, as plain facts.
#[derive(Debug, PartialEq)]
struct Declared {
    solver: bool,
    board_size: Option<u32>,
    pass: bool,
    final_score: bool,
    moves_left: bool,
}

struct Describe;

impl GameVisitor for Describe {
    type Output = Declared;
    fn visit<G: Game>(self, _options: &Options) -> Declared {
        let e: Extras<G> = games::extras::<G>();
        Declared {
            solver: e.solver.is_some(),
            board_size: e.board_size,
            pass: e.pass.is_some(),
            final_score: e.final_score.is_some(),
            moves_left: e.moves_left.is_some(),
        }
    }
}

#[test]
fn only_othello_declares_extras_and_the_registry_finds_them_by_type() {
    let none = Declared {
        solver: false,
        board_size: None,
        pass: false,
        final_score: false,
        moves_left: false,
    };
    for entry in games::GAMES {
        let no_words: [&str; 0] = [];
        let declared = entry.visit(&no_words, Describe).expect("default options");
        if entry.name == "othello" {
            assert_eq!(
                declared,
                Declared {
                    solver: true,
                    board_size: Some(8),
                    pass: true,
                    final_score: true,
                    moves_left: true,
                }
            );
        } else {
            assert_eq!(declared, none, "{}", entry.name);
        }
    }
    // Quoridor's family picks a type by its options; none declares extras.
    let four = games::find("quoridor")
        .expect("quoridor")
        .visit(&["players=4"], Describe)
        .expect("four players");
    assert_eq!(four, none);
    // Othello's values: its pass, its text, its count of moves left.
    let e = games::extras::<Othello>();
    assert!(e.is_pass(PASS) && !e.is_pass(19));
    let start = Othello::start();
    assert_eq!(e.final_score.map(|f| f(&start)).as_deref(), Some("0"));
    assert_eq!(e.moves_left.map(|f| f(&start)), Some(30));
    assert_eq!(e.solver.map(|s| (s.size)(&start)), Some(60));
}

/// An engine at FFO #1 with these settings, its `genmove` for black under
/// a generous time (the solver gets its share of it).
fn genmove_at_ffo_1(settings: &[(&str, &str)]) -> Result<(String, Option<i32>), EngineError> {
    let mut engine = Engine::new(1)?;
    for (key, value) in settings {
        engine.set(key, value)?;
    }
    engine.set_position(FFO_1)?;
    let request = Request {
        seat: None,
        budget: BudgetOverride {
            movetime: Some(20_000),
            depth: Some(2),
            ..BudgetOverride::default()
        },
        stop: Arc::new(AtomicBool::new(false)),
        since: Instant::now(),
        reporter: None,
        answer: None,
        multipv: 0,
    };
    let decision = engine.genmove(&request)?;
    Ok((decision.mv, decision.exact))
}

#[test]
fn alpha_beta_within_solve_reach_plays_the_solvers_move_and_margin() {
    let (mv, exact) =
        genmove_at_ffo_1(&[("search", "alphabeta"), ("solve_reach", "14")]).expect("genmove");
    assert_eq!((mv.as_str(), exact), ("g8", Some(18)));
    // Just out of reach (14 empties): alpha-beta alone, to depth 2.
    let (_, exact) =
        genmove_at_ffo_1(&[("search", "alphabeta"), ("solve_reach", "13")]).expect("genmove");
    assert_eq!(exact, None, "13 empties do not reach a 14-empty position");
    let (_, exact) =
        genmove_at_ffo_1(&[("search", "alphabeta"), ("solve_reach", "0")]).expect("genmove");
    assert_eq!(exact, None, "solve_reach 0 is off");
    // `search solve`: the solver on its own.
    let (mv, exact) = genmove_at_ffo_1(&[("search", "solve")]).expect("genmove");
    assert_eq!((mv.as_str(), exact), ("g8", Some(18)));
}

/// Runs a GTP session in process (engine seeded with 3); its replies.
fn replies(input: &str) -> Vec<String> {
    let mut out = Vec::new();
    let engine = Engine::new(3).expect("engine");
    tabula::protocol::run(Cursor::new(input.as_bytes().to_vec()), &mut out, engine);
    String::from_utf8(out)
        .expect("UTF-8")
        .split("\n\n")
        .filter(|r| !r.trim().is_empty())
        .map(|r| r.trim().to_string())
        .collect()
}

#[test]
fn a_game_without_a_solver_refuses_the_solve_search() {
    let r = replies("game quoridor\nset search solve\ngenmove p1\n");
    assert_eq!(r[0], "=");
    assert_eq!(r[2], "? quoridor has no exact solver", "{r:?}");
    let r = replies("game hearts\nset search solve\ngenmove\n");
    assert_eq!(r[2], "? hearts has no exact solver", "{r:?}");
}

#[test]
fn othellos_final_score_and_boardsize_come_from_its_extras() {
    let r = replies(
        "boardsize 8\nboardsize 9\n\
         setboard XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOOOOOOOOOOOOOOOOOOOOOOOOOO X\n\
         final_score\n\
         setboard XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX-OOOOOOOOOOOOOOOOOOOOOOOO X\n\
         final_score\n",
    );
    assert_eq!(r[0], "=");
    assert_eq!(r[1], "? unacceptable size: othello is played on 8x8");
    assert_eq!(r[3], "= B+12");
    // Othello's convention gives the empties to the winner (39-24 and
    // one empty: B+16); the outcome alone would say B+15.
    assert_eq!(r[5], "= B+16", "{r:?}");
}

#[test]
fn the_forced_pass_is_played_first_when_the_other_seat_is_asked() {
    // White to move has no move, black has: `genmove b` plays white's
    // declared pass first, then black's move.
    let board = format!("{}{}-- O", "X".repeat(57), "O".repeat(5));
    let r = replies(&format!(
        "setboard {board}\nlegal_moves\ngenmove b\nhistory\n"
    ));
    assert_eq!(r[0], "=", "{r:?}");
    assert_eq!(r[1], "= pass", "{r:?}");
    // Black's only move, g8, after white's pass: not `? it is white's turn`.
    assert_eq!(r[2], "= g8", "{r:?}");
    assert_eq!(r[3], "= pass g8", "{r:?}");
}
