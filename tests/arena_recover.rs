//! Crash recovery (`--recover`): a fault engine that exits at every fifth
//! move of its process loses exactly those games, is restarted, and the
//! match completes; the record marks the games played after a restart.
//! Without `--recover` its second crash stops the match.

use crate::common;

use common::{fixture, nim_match, scratch, words};
use tabula::arena::record::recover;
use tabula::arena::record::{Ending, Fault, MatchRecord};

fn args(dir: &std::path::Path, games: &str, extra: &[&str]) -> Vec<String> {
    let mut w = words(&[
        "--games",
        games,
        "-j",
        "1",
        "--seed",
        "4",
        "--timeout",
        "5",
        "--quiet",
        "--record",
    ]);
    w.push(
        dir.join(format!("recover{}.txt", extra.len()))
            .display()
            .to_string(),
    );
    w.extend(words(extra));
    w.extend(words(&[
        "--engine",
        &format!("cmd={}", fixture("nim_engine.sh", "crashevery=5")),
        "name=faulty",
        "--engine",
        &format!("cmd={}", fixture("nim_engine.sh", "good")),
        "name=good",
    ]));
    w
}

#[test]
fn recover_restarts_and_loses_only_the_crashed_games() {
    let dir = scratch("recover");
    let report = nim_match(&args(&dir, "30", &["--recover"]), &[]);
    assert_eq!(report.record.games.len(), 30, "{}", report.text);
    assert!(report.stopped.is_none());
    let crashes: Vec<usize> = report
        .record
        .games
        .iter()
        .filter(|g| {
            matches!(
                &g.ending,
                Ending::Forfeit {
                    engine: 0,
                    fault: Fault::Crash,
                    ..
                }
            )
        })
        .map(|g| g.number)
        .collect();
    assert!(crashes.len() >= 3, "{}", report.text);
    for g in &report.record.games {
        let faulty_seat = g.seats.iter().position(|&e| e == 0).unwrap();
        match &g.ending {
            // Seven stones, perfect play: the first to move wins.
            Ending::Normal => assert_eq!(g.winners, vec![0], "game {}", g.number),
            Ending::Forfeit { engine, fault, .. } => {
                assert_eq!((*engine, *fault), (0, Fault::Crash), "game {}", g.number);
                assert_eq!(g.seat_results[faulty_seat], 0.0);
            }
            other => panic!("game {}: {other:?}", g.number),
        }
    }
    // The games after each crash are marked, in the file as read back.
    let back = MatchRecord::read(report.record_path.as_ref().unwrap()).unwrap();
    let marked: Vec<usize> = back
        .games
        .iter()
        .filter(|g| recover::restarted_in(g) == ["faulty"])
        .map(|g| g.number)
        .collect();
    let expected: Vec<usize> = crashes.iter().map(|n| n + 1).filter(|&n| n <= 30).collect();
    assert_eq!(marked, expected);
    // A crash loses only that game: every normal game went by the rules.
    assert_eq!(report.summary.endings.forfeit as usize, crashes.len());
}

#[test]
fn without_recover_a_second_crash_stops_the_match() {
    let dir = scratch("recover-stop");
    let report = nim_match(&args(&dir, "30", &[]), &[]);
    let why = report.stopped.as_deref().expect("stopped");
    assert!(why.contains("faulty") && why.contains("--recover"), "{why}");
    assert!(report.record.games.len() < 30);
    assert!(report.text.contains("Stopped after"), "{}", report.text);
    let crashes = report
        .record
        .games
        .iter()
        .filter(|g| matches!(g.ending, Ending::Forfeit { .. }))
        .count();
    assert_eq!(crashes, 2);
}
