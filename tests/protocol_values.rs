//! A value is a value: a forced move (one legal move) is searched like
//! any other where its value is shown, and its value is the value of the
//! position after it searched alone (negated: the other side moves
//! there); each protocol shows a value in its own unit by its kind, and
//! the "no value" form where none is known.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use tabula::control::ScoreKind;
use tabula::engine::{BudgetOverride, Decision, Engine, Request};
use tabula::model::game::Turn;

/// Analyses the position `text` to `depth` on a fresh engine, after
/// playing `then` if given; with the solver where it reaches, or
/// alpha-beta alone.
fn analyse(text: &str, then: Option<&str>, depth: u32, solve: bool) -> Decision {
    let mut e = Engine::new(1).expect("engine");
    if !solve {
        e.set("solve_reach", "0").expect("setting");
    }
    e.set_position(text).expect("position");
    if let Some(mv) = then {
        e.play(None, mv).expect("the forced move");
    }
    let budget = BudgetOverride {
        depth: Some(depth),
        ..BudgetOverride::default()
    };
    let request = Request::new(
        None,
        budget,
        Arc::new(AtomicBool::new(false)),
        Instant::now(),
    );
    e.analyze(&request).expect("analysis")
}

/// Othello positions with one legal move whose game goes on after it,
/// from random games (a fixed generator): their texts and the move.
fn forced_positions(count: usize) -> Vec<(String, String, u32)> {
    let mut found = Vec::new();
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut e = Engine::new(3).expect("engine");
    while found.len() < count {
        e.restart();
        let mut plies = 0;
        while e.game().turn() != Turn::Over {
            let moves = e.game().legal_moves();
            if let [only] = &moves[..] {
                let text = e.game().position_text().expect("text");
                let mut after = Engine::new(1).expect("engine");
                after.set_position(&text).expect("position");
                after.play(None, only).expect("move");
                if after.game().turn() != Turn::Over {
                    found.push((text, only.clone(), 60 - plies));
                    if found.len() == count {
                        break;
                    }
                }
            }
            let mv = moves[(next() % moves.len() as u64) as usize].clone();
            e.play(None, &mv).expect("legal");
            plies += 1;
        }
    }
    found
}

#[test]
fn a_forced_move_s_value_is_the_value_after_it_searched_alone() {
    let positions = forced_positions(50);
    let (mut exact, mut eval) = (0, 0);
    for ((text, only, _), solve) in positions.iter().flat_map(|p| [(p, true), (p, false)]) {
        let depth = 4;
        let d = analyse(text, None, depth, solve);
        assert_eq!(&d.mv, only, "{text}");
        assert_ne!(
            d.kind,
            ScoreKind::None,
            "a forced move gets a value: {text}"
        );
        let alone = analyse(text, Some(only), depth - 1, solve);
        assert_eq!(d.kind, alone.kind, "{text}");
        match d.kind {
            ScoreKind::Exact => {
                exact += 1;
                assert_eq!(
                    d.exact.map(|m| -m),
                    alone.exact,
                    "{text}: {d:?} against {alone:?}"
                );
            }
            _ => {
                eval += 1;
                assert!(
                    (d.score - (1.0 - alone.score)).abs() < 1e-9,
                    "{text}: {d:?} against {alone:?}"
                );
            }
        }
    }
    eprintln!("forced moves: {exact} solved, {eval} searched to a depth");
    assert!(
        eval > 0 && exact > 0,
        "both kinds: {exact} solved, {eval} evaluated"
    );
}

/// A session in `protocol` on `engine`: its output.
fn session(engine: Engine, protocol: tabula::protocol::Protocol, input: &str) -> String {
    let mut out = Vec::new();
    tabula::protocol::run_protocol(
        std::io::Cursor::new(input.as_bytes().to_vec()),
        &mut out,
        engine,
        protocol,
    );
    String::from_utf8(out).expect("UTF-8")
}

/// The GGF board of an engine position text.
fn ggf(text: &str) -> String {
    let (squares, side) = text.split_once(' ').expect("squares and side");
    let squares: String = squares
        .chars()
        .map(|c| match c {
            'X' => '*',
            other => other,
        })
        .collect();
    let side = if side.trim() == "X" { "*" } else { "O" };
    format!("(;GM[Othello]BO[8 {squares} {side}];)")
}

#[test]
fn nboard_shows_a_forced_move_s_real_value_and_every_protocol_its_no_value_form() {
    use tabula::protocol::Protocol;
    for (text, only, _) in forced_positions(6) {
        let d = analyse(&text, None, 4, true);
        let discs = match (d.kind, d.exact) {
            (ScoreKind::Exact, m) => f64::from(m.expect("margin")),
            (ScoreKind::Proven, Some(m)) => f64::from(m),
            (ScoreKind::Proven, None) => (d.score - 0.5).signum(),
            _ => (d.score - 0.5) * 128.0,
        };
        let out = session(
            Engine::new(1).expect("engine"),
            Protocol::Nboard,
            &format!("nboard 2\nset depth 4\nset game {}\ngo\n", ggf(&text)),
        );
        let answer = out
            .lines()
            .find(|l| l.starts_with("=== "))
            .unwrap_or_else(|| panic!("{out}"));
        let want = format!(
            "=== {}/{discs:.2}/",
            only.to_ascii_uppercase().replace("PASS", "PA")
        );
        assert!(answer.starts_with(&want), "{answer} against {want}: {text}");
    }
    // No value known (a random move): NBoard's move alone, UGI's info
    // line without a score, GTP's info line without a score.
    let mut e = Engine::new(1).expect("engine");
    e.set("search", "random").expect("setting");
    let out = session(e, Protocol::Nboard, "nboard 2\ngo\n");
    let answer = out.lines().find(|l| l.starts_with("=== ")).unwrap_or("");
    assert_eq!(answer.len(), 6, "the move alone: {out}");
    let mut e = Engine::new(1).expect("engine");
    e.set("search", "random").expect("setting");
    let out = session(e, Protocol::Ugi, "ugi\nposition startpos\ngo depth 2\n");
    let info = out
        .lines()
        .find(|l| l.starts_with("info depth"))
        .unwrap_or("");
    assert!(!info.contains("score"), "{out}");
    let mut e = Engine::new(1).expect("engine");
    e.set("search", "random").expect("setting");
    let out = session(e, Protocol::Gtp, "analyze iterations=1\n");
    assert!(
        out.contains("info move ") && !out.contains("score"),
        "{out}"
    );
}

/// A midgame position (36 empties) that alpha-beta proves won for black
/// to move within 8 plies (white is wiped out), far from the solver's
/// reach: its evaluation alone is clamped at 0.95 (60.80 discs); its
/// end, with the empty squares to the winner as the solver and
/// `final_score` count every end, is worth 62 (white keeps one disc).
const WIPEOUT: &str = "********\
***O****\
**OOO***\
---O-O--\
-O---*--\
--------\
--------\
--------";

/// The GGF game of [`WIPEOUT`] with `side` (`*` or `O`) to move.
fn wipeout_ggf(side: &str) -> String {
    format!("(;GM[Othello]BO[8 {WIPEOUT} {side}];)")
}

/// The value of an NBoard `=== MOVE/VALUE/SECONDS` answer.
fn nboard_value(out: &str) -> f64 {
    let answer = out
        .lines()
        .find(|l| l.starts_with("=== "))
        .unwrap_or_else(|| panic!("no answer: {out}"));
    answer
        .split('/')
        .nth(1)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no value: {answer}"))
}

#[test]
fn a_win_alpha_beta_proves_shows_its_line_s_margin_not_the_clamp() {
    use tabula::protocol::Protocol;
    // The decision: proven (a mate-like score), with the margin its line
    // ends the game with, counted as the solver counts every end: a
    // wipeout is worth 64, not the discs on the board (15 or so).
    // (Its line ends with white on one disc and no move for either:
    // 62 = 63 - 1 with the empties to black, where the discs say 14.)
    let text = format!("{} X", WIPEOUT.replace('*', "X"));
    let mut margins = Vec::new();
    for solve in [false, true] {
        let d = analyse(&text, None, 8, solve);
        assert_eq!(d.kind, ScoreKind::Proven, "{d:?}");
        let margin = d.exact.expect("the proven line reaches the end");
        assert!(margin > 61, "the empties to the winner: {d:?}");
        margins.push(margin);
    }
    assert_eq!(margins[0], margins[1], "one rule, solver or not");
    let margin = margins[0];
    for (side, sign) in [("*", 1.0), ("O", -1.0)] {
        let out = session(
            Engine::new(1).expect("engine"),
            Protocol::Nboard,
            &format!(
                "nboard 2\nset depth 8\nset game {}\ngo\n",
                wipeout_ggf(side)
            ),
        );
        let value = nboard_value(&out);
        assert!(value * sign > 0.0, "the proven sign: {out}");
        assert!(
            value.abs() < 60.8 - 1e-9 || value.abs() > 60.8 + 1e-9,
            "not the clamp: {out}"
        );
        assert!(value.abs() <= 64.0, "{out}");
        if side == "*" {
            assert_eq!(value, f64::from(margin), "the line's end: {out}");
        }
    }
    // UGI shows the same margin, in centipawns.
    let out = session(
        Engine::new(1).expect("engine"),
        Protocol::Ugi,
        &format!("ugi\nposition fen {text}\ngo depth 8\n"),
    );
    let info = out
        .lines()
        .rfind(|l| l.starts_with("info depth"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        info.contains(&format!(" score cp {} ", margin * 100)),
        "{info} against {margin}: {out}"
    );
}

#[test]
fn each_multipv_line_is_shown_by_its_own_kind() {
    use tabula::protocol::Protocol;
    // At depth 8 the best move is a proven win, the second an evaluation.
    let out = session(
        Engine::new(1).expect("engine"),
        Protocol::Nboard,
        &format!(
            "nboard 2\nset depth 8\nset game {}\nhint 2\n",
            wipeout_ggf("*")
        ),
    );
    let values: Vec<f64> = out
        .lines()
        .filter(|l| l.starts_with("search "))
        .map(|l| {
            l.split_whitespace()
                .nth(2)
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("{l}"))
        })
        .collect();
    assert_eq!(values.len(), 2, "{out}");
    assert!(
        values[0] > 0.0 && values[0] <= 64.0,
        "proven, its line's margin: {out}"
    );
    assert!(
        values[1] > 1.0,
        "an evaluation, not a proven line's least win: {out}"
    );
}

#[test]
fn an_early_answer_is_the_decision_played_with_its_value() {
    use std::sync::Mutex;
    use tabula::control::{Answer, Progress};
    let mut e = Engine::new(1).expect("engine");
    e.set("search", "alphabeta").expect("setting");
    e.set("solve_reach", "0").expect("setting");
    let sent = Mutex::new(Vec::<Progress>::new());
    let send = |p: &Progress| sent.lock().unwrap().push(p.clone());
    let answer = Answer::new(&send);
    // Answered from outside the search at its first report of depth 2
    // (as the time manager's watcher does at a deadline); the search runs
    // on to depth 7 and must play, and tell, what was sent.
    let report = |p: &Progress| {
        if p.depth >= 2 {
            answer.answer_early();
        }
    };
    let budget = BudgetOverride {
        depth: Some(7),
        ..BudgetOverride::default()
    };
    let request = Request::new(
        None,
        budget,
        Arc::new(AtomicBool::new(false)),
        Instant::now(),
    )
    .reporting(Some(&report))
    .answering(&answer);
    let d = e.genmove(&request).expect("genmove");
    assert!(answer.settled_early());
    let sent = sent.lock().unwrap();
    let [p] = &sent[..] else {
        panic!("one answer: {sent:?}")
    };
    assert_eq!(p.depth, 2);
    assert_eq!(
        (&d.mv, d.score, d.kind, d.exact, d.depth),
        (&p.best, p.score, p.kind, p.exact, p.depth),
        "the decision is the one sent"
    );
    assert_eq!(d.kind, ScoreKind::Eval);
    assert_eq!(e.game().history().last(), Some(&p.best), "and it is played");
}

/// NBoard's `search` line's depth word: `search <pv> <eval> 0 <depth>`.
fn hint_depths(out: &str) -> Vec<String> {
    out.lines()
        .filter(|l| l.starts_with("search "))
        .map(|l| l.split_whitespace().nth(4).unwrap_or("").to_string())
        .collect()
}

#[test]
fn nboard_reads_a_solved_hint_as_exact_and_a_proven_win_as_proven() {
    use tabula::protocol::Protocol;
    // An endgame with 10 empties, from a game of first legal moves: at
    // depth 12 the solver values it, and NBoard's parser reads a value
    // as exact only with the depth `100%` (not `0` nor the plies).
    let mut e = Engine::new(1).expect("engine");
    while e
        .game()
        .position_text()
        .is_some_and(|t| t.chars().filter(|&c| c == '-').count() > 10)
    {
        let first = e.game().legal_moves()[0].clone();
        e.play(None, &first).expect("legal");
    }
    let text = e.game().position_text().expect("text");
    let out = session(
        Engine::new(1).expect("engine"),
        Protocol::Nboard,
        &format!("nboard 2\nset depth 12\nset game {}\nhint 3\n", ggf(&text)),
    );
    let depths = hint_depths(&out);
    assert!(!depths.is_empty(), "{out}");
    assert!(depths.iter().all(|d| d == "100%"), "{out}");
    // A win alpha-beta proves without its best margin: `100%W`, NBoard's
    // mark of a win-loss-draw proof, with its line's end counted as the
    // solver counts it (62, the empties to the winner).
    let out = session(
        Engine::new(1).expect("engine"),
        Protocol::Nboard,
        &format!(
            "nboard 2\nset depth 8\nset game {}\nhint 1\n",
            wipeout_ggf("*")
        ),
    );
    let line = out
        .lines()
        .find(|l| l.starts_with("search "))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(line.ends_with(" 62.00 0 100%W"), "{out}");
}

#[test]
fn nboard_analyze_values_every_position_forced_moves_included() {
    use tabula::protocol::Protocol;
    for (text, _, _) in forced_positions(4) {
        let out = session(
            Engine::new(1).expect("engine"),
            Protocol::Nboard,
            &format!("nboard 2\nset depth 4\nset game {}\nanalyze\n", ggf(&text)),
        );
        assert!(
            out.lines().any(|l| l.starts_with("analysis 0 ")),
            "the forced move's position has its value: {out}"
        );
    }
}

/// FFO #40: 20 empties, black's best is a2, worth +38.
const FFO40: &str = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";

#[test]
fn nboard_s_nodestats_count_the_root_solver_s_nodes() {
    use tabula::protocol::Protocol;
    // Depth 30 from 20 empties reaches the end: a solve of the root.
    let out = session(
        Engine::new(1).expect("engine"),
        Protocol::Nboard,
        &format!("nboard 2\nset depth 30\nset game {}\ngo\n", ggf(FFO40)),
    );
    assert!(out.contains("=== A2/38.00/"), "{out}");
    let counts: Vec<u64> = out
        .lines()
        .filter_map(|l| l.strip_prefix("nodestats "))
        .map(|l| {
            l.split_whitespace()
                .next()
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("a count: {l}"))
        })
        .collect();
    // The last comes with the answer; those before it (a slow machine's
    // half-seconds) count up from more than none.
    let last = *counts
        .last()
        .unwrap_or_else(|| panic!("no nodestats: {out}"));
    assert!(
        last > 10_000,
        "a solve of 20 empties counts its nodes: {out}"
    );
    assert!(
        counts.windows(2).all(|w| 0 < w[0] && w[0] <= w[1]),
        "{counts:?}"
    );
}
