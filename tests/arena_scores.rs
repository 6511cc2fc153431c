//! Score adjudication (`--adjudicate resign.* draw.*`, cutechess's
//! `-resign` and `-draw`): fake Nim engines that report fixed scores end
//! games early with the right result and marks; a disagreeing engine
//! (two-sided), an engine that reports no scores and a card game do not.

use crate::common;

use common::{fixture, nim_match, scratch, words};
use tabula::arena::ground::adjudication::Adjudication;
use tabula::arena::record::{Ending, MatchRecord};

/// A match of `games` Nim games from 40 stones between a perfect player
/// reporting `good` and a one-stone taker reporting `weak`.
fn scored_match(
    test: &str,
    good: &str,
    weak: &str,
    adjudicate: &[&str],
) -> tabula::arena::MatchReport {
    let dir = scratch(test);
    let mut args = words(&[
        "--games",
        "4",
        "-j",
        "2",
        "--seed",
        "3",
        "--timeout",
        "5",
        "--quiet",
        "--record",
    ]);
    args.push(dir.join("match.txt").display().to_string());
    args.push("--adjudicate".to_string());
    args.extend(words(adjudicate));
    for (name, play, score) in [("good", "good", good), ("weak", "weak", weak)] {
        args.extend(words(&[
            "--engine",
            &format!(
                "cmd={}",
                fixture("score_engine.sh", &format!("{play} {score}"))
            ),
            &format!("name={name}"),
        ]));
    }
    nim_match(&args, &["stones=40"])
}

/// The engine (0 good, 1 weak) at the first seat of a game.
fn first_engine(g: &tabula::arena::record::GameRecord) -> usize {
    g.seats[0]
}

#[test]
fn resign_ends_games_early_for_the_agreed_winner() {
    let report = scored_match(
        "scores-resign",
        "0.98",
        "0.02",
        &[
            "resign.movecount=3",
            "resign.score=0.05",
            "resign.twosided=true",
        ],
    );
    assert_eq!(report.record.games.len(), 4);
    for g in &report.record.games {
        let Ending::Adjudicated(detail) = &g.ending else {
            panic!("game {} not adjudicated: {:?}", g.number, g.ending);
        };
        assert!(detail.to_string().starts_with("resign: "), "{detail}");
        // Two-sided: three scored moves of each seat, six plies.
        assert_eq!(g.plies, 6, "{:?}", g.transcript);
        assert_eq!(g.first_score(), Some(1.0), "the good engine wins");
        let weak_seat = g.seats.iter().position(|&e| e == 1).unwrap();
        assert_eq!(g.seat_results[weak_seat], 0.0);
    }
    assert!(report.text.contains("4 adjudicated"), "{}", report.text);
    assert!(
        report
            .text
            .contains("Adjudicated: 0 by the solver, 4 resigned and 0 drawn"),
        "{}",
        report.text
    );
    assert!(
        !report.text.contains("reported no scores"),
        "{}",
        report.text
    );
    // The record keeps the marks.
    let back = MatchRecord::read(report.record_path.as_ref().unwrap()).unwrap();
    assert!(back.games.iter().all(
        |g| matches!(&g.ending, Ending::Adjudicated(d) if d.to_string().starts_with("resign"))
    ));
}

#[test]
fn one_disagreeing_engine_prevents_a_two_sided_resign() {
    // The winner's own scores say the game is even.
    let twosided = scored_match(
        "scores-twosided",
        "0.5",
        "0.02",
        &[
            "resign.movecount=3",
            "resign.score=0.05",
            "resign.twosided=true",
        ],
    );
    for g in &twosided.record.games {
        assert_eq!(g.ending, Ending::Normal, "game {}", g.number);
        assert_eq!(g.first_score(), Some(1.0));
    }
    // One-sided (cutechess's default), the loser's own scores suffice.
    let onesided = scored_match(
        "scores-onesided",
        "0.5",
        "0.02",
        &["resign.movecount=3", "resign.score=0.05"],
    );
    for g in &onesided.record.games {
        assert!(
            matches!(&g.ending, Ending::Adjudicated(d) if d.to_string().starts_with("resign")),
            "{}",
            onesided.text
        );
        assert_eq!(g.first_score(), Some(1.0));
        // The weak engine's third scored move ends the game: the fifth
        // ply when it moves first, the sixth when second.
        let weak_first = first_engine(g) == 1;
        assert_eq!(
            g.plies,
            if weak_first { 5 } else { 6 },
            "{:?}",
            g.transcript
        );
    }
    // Scores outside the threshold never resign.
    let near = scored_match(
        "scores-near",
        "0.98",
        "0.06",
        &["resign.movecount=1", "resign.score=0.05"],
    );
    assert!(near.record.games.iter().all(|g| g.ending == Ending::Normal));
}

#[test]
fn draw_when_both_scores_stay_even() {
    let report = scored_match(
        "scores-draw",
        "0.5",
        "0.45",
        &["draw.movenumber=4", "draw.movecount=2", "draw.score=0.05"],
    );
    for g in &report.record.games {
        let Ending::Adjudicated(detail) = &g.ending else {
            panic!("game {} not adjudicated: {:?}", g.number, g.ending);
        };
        assert!(detail.to_string().starts_with("draw: "), "{detail}");
        // Four moves of each seat: eight plies.
        assert_eq!(g.plies, 8, "{:?}", g.transcript);
        assert_eq!(g.first_score(), Some(0.5));
        assert!(g.winners.is_empty());
    }
    assert!(
        report.text.contains("0 resigned and 4 drawn"),
        "{}",
        report.text
    );
    // One engine's scores outside the window: no draw.
    let apart = scored_match(
        "scores-nodraw",
        "0.5",
        "0.3",
        &["draw.movenumber=4", "draw.movecount=2", "draw.score=0.05"],
    );
    assert!(
        apart
            .record
            .games
            .iter()
            .all(|g| g.ending == Ending::Normal)
    );
}

#[test]
fn an_engine_without_scores_never_triggers_and_the_report_says_so() {
    for mode in ["refuse", "ignore"] {
        let report = scored_match(
            &format!("scores-{mode}"),
            "0.98",
            mode,
            &["resign.movecount=1", "resign.score=0.05"],
        );
        for g in &report.record.games {
            // Played out by the rules; a refusal is no fault.
            assert_eq!(g.ending, Ending::Normal, "{mode}: game {}", g.number);
            assert_eq!(g.first_score(), Some(1.0));
        }
        assert!(
            report.text.contains("weak reported no scores in 4 games"),
            "{mode}: {}",
            report.text
        );
        let back = MatchRecord::read(report.record_path.as_ref().unwrap()).unwrap();
        assert_eq!(
            tabula::arena::output::report::Summary::compute(&back, None).text(&back),
            report.summary.text(&report.record)
        );
    }
}

#[test]
fn settings_are_checked_and_card_games_refuse() {
    for bad in [
        &["resign.movecount=3"][..],
        &["resign.score=0.1"],
        &["resign.movecount=0", "resign.score=0.1"],
        &["resign.movecount=3", "resign.score=0.5"],
        &["resign.movecount=3", "resign.score=-1"],
        &[
            "resign.movecount=3",
            "resign.score=0.1",
            "resign.twosided=yes",
        ],
        &["draw.movecount=3"],
        &["draw.movecount=3", "draw.score=0.1", "draw.movenumber=x"],
        &["draw.moves=3"],
    ] {
        assert!(Adjudication::parse(bad).is_err(), "{bad:?}");
    }
    let ok = Adjudication::parse(&[
        "solve=12",
        "resign.movecount=3",
        "resign.score=0.05",
        "draw.movenumber=30",
        "draw.movecount=4",
        "draw.score=0.02",
    ])
    .unwrap();
    assert!(ok.wants_scores() && !ok.resign.unwrap().twosided);
    // A Monte Carlo card game: refused before any engine starts.
    let args = common::parse(&words(&[
        "--game",
        "hearts",
        "--games",
        "4",
        "--no-record",
        "--quiet",
        "--adjudicate",
        "resign.movecount=3",
        "resign.score=0.05",
        "--engine",
        "cmd=no-such-engine",
        "--engine",
        "cmd=no-such-engine",
    ]));
    let e = tabula::arena::run(&args).unwrap_err().to_string();
    assert!(
        e.contains("two-player game of perfect information") && e.contains("hidden cards"),
        "{e}"
    );
}

/// tabula's own engines report their scores when asked: alpha-beta
/// against a small MCTS resigns games early, every one marked with its
/// loser; a random player reports none (depth 0), so it never resigns,
/// and the report says so.
#[test]
fn tabula_engines_report_scores_and_random_play_none() {
    let bin = env!("CARGO_BIN_EXE_tabula");
    let othello = |opponent: &[&str]| {
        let mut args = words(&[
            "--game",
            "othello",
            "--games",
            "4",
            "-j",
            "2",
            "--seed",
            "2",
            "--random-plies",
            "4",
            "--no-record",
            "--quiet",
            "--adjudicate",
            "resign.movecount=2",
            "resign.score=0.2",
            "--engine",
        ]);
        args.extend(words(&[
            &format!("cmd={bin}"),
            "name=ab",
            "set.search=alphabeta",
            "depth=4",
        ]));
        args.push("--engine".to_string());
        args.push(format!("cmd={bin}"));
        args.extend(words(opponent));
        tabula::arena::run(&common::parse(&args)).expect("match runs")
    };
    let report = othello(&["name=mcts", "set.search=mcts", "iterations=100"]);
    let resigned: Vec<_> = report
        .record
        .games
        .iter()
        .filter_map(|g| match &g.ending {
            Ending::Adjudicated(d) if d.to_string().starts_with("resign") => Some((g, d)),
            _ => None,
        })
        .collect();
    assert!(!resigned.is_empty(), "{}", report.text);
    // GGF marks a resigned game as GGS does: the winner by 64, `:r`.
    let ggf = tabula::arena::output::export::ggf(&report.record).expect("othello exports");
    let results: Vec<&str> = ggf
        .split("RE[")
        .skip(1)
        .filter_map(|rest| rest.split(']').next())
        .collect();
    assert_eq!(results.len(), report.record.games.len(), "{ggf}");
    for (g, re) in report.record.games.iter().zip(&results) {
        if matches!(&g.ending, Ending::Adjudicated(d) if d.to_string().starts_with("resign")) {
            let black_won = g.seat_results[0] == 1.0;
            assert_eq!(*re, if black_won { "+64.000:r" } else { "-64.000:r" });
        }
    }
    for (g, detail) in resigned {
        // The detail names the seat that lost, and it lost.
        let loser = if detail.to_string().starts_with("resign: black") {
            0
        } else {
            1
        };
        assert_eq!(g.seat_results[loser], 0.0, "{detail}");
        assert_eq!(g.seat_results[1 - loser], 1.0, "{detail}");
    }
    assert!(
        !report.text.contains("reported no scores"),
        "{}",
        report.text
    );
    let random = othello(&["name=random", "set.search=random"]);
    assert!(
        random.text.contains("random reported no scores in 4 games"),
        "{}",
        random.text
    );
    assert!(
        random
            .record
            .games
            .iter()
            .all(|g| !matches!(&g.ending, Ending::Adjudicated(_)) || g.first_score() == Some(1.0))
    );
}
