//! End-to-end matches of the runner against fake engines playing a toy
//! game: results, faults (crash, hang, illegal move, garbage), records.

mod common;

use common::{fixture, nim_match, scratch, words};
use tabula::arena::record::{Ending, Fault, MatchRecord};

fn engine(mode: &str, name: &str) -> Vec<String> {
    words(&[
        "--engine",
        &format!("cmd={}", fixture("nim_engine.sh", mode)),
        &format!("name={name}"),
    ])
}

fn base(dir: &std::path::Path, games: usize) -> Vec<String> {
    words(&[
        "--games",
        &games.to_string(),
        "--concurrency",
        "2",
        "--seed",
        "7",
        "--timeout",
        "5",
        "--record",
        &dir.join("match.txt").display().to_string(),
        "--quiet",
    ])
}

#[test]
fn the_stronger_engine_wins_and_colours_alternate() {
    let dir = scratch("strong");
    let mut args = base(&dir, 20);
    args.extend(engine("good", "good"));
    args.extend(engine("weak", "weak"));
    let report = nim_match(&args, &["stones=7"]);
    let p = &report.summary.pairings[0];
    // Perfect play wins Nim from 7 stones whoever starts.
    assert_eq!((p.wdl.wins, p.wdl.draws, p.wdl.losses), (20, 0, 0));
    let e = p.elo.expect("elo");
    assert!(e.elo.is_infinite() && e.elo > 0.0);
    // Seats alternate: each engine was first in half the games.
    let firsts = report
        .record
        .games
        .iter()
        .filter(|g| g.seats[0] == 0)
        .count();
    assert_eq!(firsts, 10);
    assert!(report.text.contains("W-D-L 20 - 0 - 0"), "{}", report.text);
    // The record file holds every game and reads back to the same report.
    let back = MatchRecord::read(&dir.join("match.txt")).expect("record reads");
    assert_eq!(back.games.len(), 20);
    assert!(
        back.games
            .iter()
            .all(|g| g.transcript[0] == "game nim stones=7")
    );
    assert!(
        back.games
            .iter()
            .all(|g| g.transcript.iter().any(|l| l.starts_with("play first ")))
    );
}

#[test]
fn faults_lose_the_game_and_the_match_goes_on() {
    for (mode, fault) in [
        ("crash", Fault::Crash),
        ("hang", Fault::Timeout),
        ("illegal", Fault::Illegal),
        ("garbage", Fault::Malformed),
    ] {
        let dir = scratch(&format!("fault-{mode}"));
        let mut args = base(&dir, 4);
        args.extend(words(&["--movetime", "100", "--timemargin", "300"]));
        args.extend(engine("good", "good"));
        args.extend(engine(mode, "bad"));
        let started = std::time::Instant::now();
        let report = nim_match(&args, &[]);
        assert_eq!(report.record.games.len(), 4, "{mode}: every game is played");
        let p = &report.summary.pairings[0];
        assert_eq!(
            p.wdl.wins, 4,
            "{mode}: the culprit loses every game\n{}",
            report.text
        );
        assert_eq!(
            report.summary.engines[1].fault_count(fault),
            4,
            "{mode}: faults counted\n{}",
            report.text
        );
        for g in &report.record.games {
            match &g.ending {
                Ending::Forfeit {
                    engine: 1,
                    fault: f,
                    ..
                } => assert_eq!(*f, fault),
                other => panic!("{mode}: unexpected ending {other:?}"),
            }
        }
        assert!(
            started.elapsed().as_secs() < 20,
            "{mode}: took {:?}",
            started.elapsed()
        );
    }
}

#[test]
fn replies_without_ids_are_accepted() {
    let dir = scratch("noid");
    let mut args = base(&dir, 2);
    args.extend(engine("noid", "noid"));
    args.extend(engine("weak", "weak"));
    let report = nim_match(&args, &[]);
    assert_eq!(report.summary.pairings[0].wdl.wins, 2, "{}", report.text);
    assert_eq!(report.summary.endings.forfeit, 0);
}

#[test]
fn an_engine_that_cannot_start_forfeits() {
    let dir = scratch("nostart");
    let mut args = base(&dir, 2);
    args.extend(engine("good", "good"));
    args.extend(words(&[
        "--engine",
        "cmd=/nonexistent/engine",
        "name=ghost",
    ]));
    let report = nim_match(&args, &[]);
    assert_eq!(report.summary.engines[1].fault_count(Fault::Spawn), 2);
    assert_eq!(report.summary.pairings[0].wdl.wins, 2);
}

#[test]
fn round_robin_has_a_cross_table() {
    let dir = scratch("rr");
    let mut args = base(&dir, 2);
    args.extend(engine("good", "good"));
    args.extend(engine("weak", "weak"));
    args.extend(engine("illegal", "cheat"));
    let report = nim_match(&args, &[]);
    assert_eq!(report.record.games.len(), 6);
    assert!(report.text.contains("Cross-table"), "{}", report.text);
    let good = &report.summary.engines[0];
    assert_eq!(good.wdl.wins, 4, "{}", report.text);
    let cheat = &report.summary.engines[2];
    assert_eq!(
        (cheat.wdl.losses, cheat.fault_count(Fault::Illegal)),
        (4, 4)
    );
}

#[test]
fn sprt_stops_a_lopsided_match_early() {
    let dir = scratch("sprt");
    let mut args = base(&dir, 400);
    args.extend(words(&[
        "--sprt",
        "elo0=0",
        "elo1=50",
        "alpha=0.05",
        "beta=0.05",
    ]));
    args.extend(engine("good", "good"));
    args.extend(engine("weak", "weak"));
    let report = nim_match(&args, &[]);
    assert!(report.stopped_by_sprt.is_some(), "{}", report.text);
    assert!(
        report.record.games.len() < 100,
        "stopped after {} games",
        report.record.games.len()
    );
    assert!(report.text.contains("H1 accepted"), "{}", report.text);
}
