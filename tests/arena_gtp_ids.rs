//! How the match runner frames commands and replies with plain GTP
//! programs (issue 40, item 4): replies written `= <id> <text>` (Edax 4.6)
//! are read as `=<id> <text>`, `proto=gtp` engines get no ids at all, and
//! a reply that is not a move is malformed, not an illegal move.

use crate::common;

use common::{fixture, nim_match, scratch, words};
use tabula::arena::record::{Ending, Fault};

/// Four games of Nim: the spaced-reply engine (`mode`, logging what it
/// reads to `log`, speaking `proto`) against the weak fixture engine.
fn spaced_match(dir: &std::path::Path, mode: &str, proto: &str) -> tabula::arena::MatchReport {
    let log = dir.join("spaced.log");
    let args = words(&[
        "--games",
        "4",
        "--concurrency",
        "1",
        "--seed",
        "7",
        "--timeout",
        "5",
        "--no-record",
        "--quiet",
        "--engine",
        &format!(
            "cmd={}",
            fixture("nim_spaced.sh", &format!("{mode} {}", log.display()))
        ),
        "name=spaced",
        &format!("proto={proto}"),
        "--engine",
        &format!("cmd={}", fixture("nim_engine.sh", "weak")),
        "name=weak",
    ]);
    nim_match(&args, &[])
}

#[test]
fn replies_with_a_space_before_the_id_are_read_as_their_id() {
    let dir = scratch("spaced-ids");
    let report = spaced_match(&dir, "good", "tabula");
    assert_eq!(report.summary.endings.forfeit, 0, "{}", report.text);
    assert_eq!(report.summary.pairings[0].wdl.wins, 4, "{}", report.text);
    // The runner did send ids to this (tabula-dialect) engine.
    let log = std::fs::read_to_string(dir.join("spaced.log")).expect("log");
    assert!(
        log.lines()
            .any(|l| l.starts_with(|c: char| c.is_ascii_digit())),
        "{log}"
    );
}

#[test]
fn plain_gtp_engines_get_no_ids() {
    let dir = scratch("gtp-no-ids");
    let report = spaced_match(&dir, "good", "gtp");
    assert_eq!(report.summary.endings.forfeit, 0, "{}", report.text);
    assert_eq!(report.summary.pairings[0].wdl.wins, 4, "{}", report.text);
    let log = std::fs::read_to_string(dir.join("spaced.log")).expect("log");
    assert!(log.contains("genmove first") || log.contains("genmove second"));
    for line in log.lines() {
        assert!(
            !line.starts_with(|c: char| c.is_ascii_digit()),
            "a command with an id sent to a proto=gtp engine: {line}"
        );
    }
}

#[test]
fn a_reply_that_is_not_a_move_is_malformed_not_illegal() {
    for proto in ["tabula", "gtp"] {
        let dir = scratch(&format!("junk-{proto}"));
        let report = spaced_match(&dir, "junk", proto);
        let spaced = &report.summary.engines[0];
        assert_eq!(spaced.fault_count(Fault::Malformed), 4, "{}", report.text);
        assert_eq!(spaced.fault_count(Fault::Illegal), 0, "{}", report.text);
        for g in &report.record.games {
            match &g.ending {
                Ending::Forfeit {
                    engine: 0,
                    fault: Fault::Malformed,
                    detail,
                } => assert!(detail.contains("two stones"), "{detail}"),
                other => panic!("{proto}: unexpected ending {other:?}"),
            }
        }
    }
}
