//! Adjudication by the exact solver (`--adjudicate solve=N`): the verdict
//! is the result of perfect play, checked against a brute-force search
//! and against playing the position out with the solver on both sides; a
//! match records and reports every adjudicated game.

use crate::common;

use common::{scratch, words};
use tabula::arena::ground::adjudication::Adjudication;
use tabula::arena::record::{Ending, MatchRecord};
use tabula::arena::run::adjudicate;
use tabula::arena::{Referee, referee_by_name};
use tabula::model::game::Turn;

/// The referee at `text` (a copy of a position).
fn at(text: &str) -> Box<dyn Referee> {
    let mut r = referee_by_name("othello", &[]).unwrap();
    r.set_position(text).unwrap();
    r
}

/// The final disc margin of perfect play for the seat to move, empty
/// squares to the winner, by plain minimax over the rules.
fn minimax(text: &str) -> i32 {
    let r = at(text);
    match r.turn() {
        Turn::Player(seat) => r
            .legal_moves()
            .iter()
            .map(|mv| {
                let mut next = at(text);
                next.play(mv).unwrap();
                let value = minimax(&next.position_text().unwrap());
                // The same seat may move again after the other's pass.
                if next.turn() == Turn::Player(seat) {
                    value
                } else {
                    -value
                }
            })
            .max()
            .unwrap(),
        _ => {
            // Over: scored for the seat that would move (black in the text).
            let o = r.outcome();
            let side = if text.ends_with('O') { 1 } else { 0 };
            let (me, them) = (o.scores[side] as i32, o.scores[1 - side] as i32);
            let empties = 64 - me - them;
            let d = me - them;
            d + d.signum() * empties
        }
    }
}

/// Positions near the end, reached by seeded random play.
fn endgame_positions(empties: usize, count: u64) -> Vec<String> {
    let mut out = Vec::new();
    let mut seed = 0u64;
    while (out.len() as u64) < count {
        seed += 1;
        let mut r = referee_by_name("othello", &[]).unwrap();
        let mut rng = common::rng(seed);
        while r.turn() != Turn::Over && r.position_text().unwrap().matches('-').count() > empties {
            let moves = r.legal_moves();
            let mv = moves[rand::Rng::gen_range(&mut rng, 0..moves.len())].clone();
            r.play(&mv).unwrap();
        }
        if r.turn() != Turn::Over {
            out.push(r.position_text().unwrap());
        }
    }
    out
}

#[test]
fn the_verdict_is_perfect_play() {
    let adj = Adjudication::parse(&["solve=8"]).unwrap();
    let mut decided = [0; 3];
    for text in endgame_positions(7, 30) {
        let r = at(&text);
        let solved = r.solve_exact(8).expect("within reach");
        assert_eq!(solved.margin, minimax(&text), "{text}");
        let v = adj.judge(r.as_ref()).expect("a verdict");
        let mut played = at(&text);
        let mut out = adjudicate::play_out_with_solver(played.as_mut()).unwrap();
        out.sort_unstable();
        assert_eq!(v.winners, out, "{text}: {}", v.decision);
        decided[v.winners.first().map_or(2, |&w| w)] += 1;
    }
    // Both colours win some.
    assert!(decided[0] > 0 && decided[1] > 0, "{decided:?}");
    // Out of reach: no verdict.
    let far = endgame_positions(20, 1).remove(0);
    assert!(adj.judge(at(&far).as_ref()).is_none());
}

#[test]
fn settings_are_checked() {
    assert!(Adjudication::parse(&["solve=99"]).is_err());
    assert!(Adjudication::parse(&["resolve=3"]).is_err());
    let nim_like = referee_by_name("quoridor", &[]).unwrap();
    let e = Adjudication::parse(&["solve=10"])
        .unwrap()
        .check(nim_like.as_ref());
    assert!(e.unwrap_err().0.contains("no exact solver"));
}

fn match_words(dir: &std::path::Path, games: &str, extra: &[&str]) -> Vec<String> {
    let mut w = words(&[
        "--game",
        "othello",
        "--games",
        games,
        "-j",
        "2",
        "--seed",
        "9",
        "--quiet",
        "--random-plies",
        "4",
        "--record",
    ]);
    w.push(
        dir.join(format!("adj{games}{}.txt", extra.len()))
            .display()
            .to_string(),
    );
    w.extend(words(extra));
    w.extend(common::ab_against_rules());
    w
}

#[test]
fn a_match_adjudicates_records_and_reports() {
    let dir = scratch("adjudicate");
    let args = match_words(&dir, "8", &["--depth", "1", "--adjudicate", "solve=12"]);
    let report = tabula::arena::run(&common::parse(&args)).expect("match runs");
    let adjudicated: Vec<_> = report
        .record
        .games
        .iter()
        .filter(|g| matches!(g.ending, Ending::Adjudicated(_)))
        .collect();
    assert!(adjudicated.len() >= 6, "{}", report.text);
    for g in &adjudicated {
        // Stopped at 12 empties: 48 discs placed (passes place none).
        let placed = g
            .transcript
            .iter()
            .filter(|l| l.starts_with("play ") && !l.ends_with(" pass"))
            .count();
        assert_eq!(placed, 48, "{:?}", g.transcript);
    }
    assert!(
        report
            .text
            .contains(&format!("{} adjudicated", adjudicated.len())),
        "{}",
        report.text
    );
    let back = MatchRecord::read(report.record_path.as_ref().unwrap()).unwrap();
    assert_eq!(back.games.len(), 8);
    let (checked, mismatches) = adjudicate::verify(&back).unwrap();
    assert_eq!((checked, mismatches), (adjudicated.len(), vec![]));
}

/// The figure of the issue: `ADJUDICATE_GAMES` (default 1000) games at
/// `ADJUDICATE_MOVETIME` ms a move (default 5) with solve=14 and as many
/// without, timed; every adjudication checked by playing it out with the
/// solver. Run by hand:
/// `ADJUDICATE_GAMES=1000 cargo test --profile quick -- --ignored solve_fourteen`.
#[test]
#[ignore]
fn solve_fourteen_over_many_games() {
    let games = std::env::var("ADJUDICATE_GAMES").unwrap_or_else(|_| "1000".to_string());
    let movetime = std::env::var("ADJUDICATE_MOVETIME").unwrap_or_else(|_| "5".to_string());
    let dir = scratch("adjudicate-many");
    let time = |extra: &[&str]| {
        let started = std::time::Instant::now();
        let mut args = match_words(&dir, &games, extra);
        // A wide margin: a loaded machine must not forfeit on time.
        // No overhead kept back, so that the engines spend the movetime.
        args.extend(words(&["--movetime", &movetime, "--timemargin", "1000"]));
        args.extend(words(&["--each", "set.overhead=0"]));
        // A time forfeit now and then on a loaded machine: go on.
        args.push("--recover".to_string());
        // Both engines spend their time: MCTS instead of the instant rules.
        for w in &mut args {
            if w == "set.search=rules" {
                *w = "set.search=mcts".to_string();
            }
        }
        let report = tabula::arena::run(&common::parse(&args)).unwrap();
        (started.elapsed().as_secs_f64(), report)
    };
    let (with, report) = time(&["--adjudicate", "solve=14"]);
    let (without, _) = time(&[]);
    let (checked, mismatches) = adjudicate::verify(&report.record).unwrap();
    eprintln!(
        "{games} games: with solve=14 {with:.1} s ({} adjudicated, {checked} checked, {} mismatches), without {without:.1} s",
        report.summary.endings.adjudicated,
        mismatches.len()
    );
    assert!(mismatches.is_empty(), "{mismatches:?}");
}
