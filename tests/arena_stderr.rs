//! An engine's `stderr=FILE`: drained by the runner, so that an engine
//! that floods its stderr never blocks, and capped, the file saying so
//! once when it reaches its cap.

use std::time::Duration;

use crate::common::{fixture, nim_match, scratch, words};
use tabula::arena::engines::process::{EngineProcess, Launch};

/// The lines of `text` that say the file reached its cap.
fn cap_notes(text: &str) -> usize {
    text.matches("is at its cap of").count()
}

#[test]
fn an_engine_that_floods_its_stderr_is_drained_and_its_file_capped() {
    let dir = scratch("stderr-cap");
    let path = dir.join("engine.err");
    let cap = 100_000;
    let launch = Launch {
        command: fixture("stderr_engine.sh", "3000000"),
        stderr: Some(path.clone()),
        stderr_cap: Some(cap),
        ..Launch::default()
    };
    for run in 1..=2 {
        let mut p = EngineProcess::spawn(&launch, "flood", None).expect("starts");
        // It wrote 3 MB before reading its input: a pipe holds 64 KiB, so
        // it answers only if its stderr is read.
        p.send("game nim stones=7", Duration::from_secs(20))
            .expect("an engine flooding its stderr still answers");
        p.quit();
        let text = std::fs::read_to_string(&path).expect("the stderr file");
        let bytes = text.len() as u64;
        // The cap, then one line a process that reached it.
        assert!(bytes > cap && bytes < cap + 200 * run, "{bytes} bytes");
        assert!(text[..cap as usize].bytes().all(|b| b == b'x'));
        assert_eq!(cap_notes(&text) as u64, run, "{}", &text[cap as usize..]);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn engines_sharing_a_stderr_file_in_a_match_lose_nothing_under_the_cap() {
    let dir = scratch("stderr-match");
    let path = dir.join("engines.err");
    let mut args = words(&["--games", "2", "--seed", "3", "--quiet", "--no-record"]);
    for name in ["a", "b"] {
        args.extend(words(&[
            "--engine",
            &format!("cmd={}", fixture("stderr_engine.sh", "200000")),
            &format!("name={name}"),
            &format!("stderr={}", path.display()),
        ]));
    }
    let report = nim_match(&args, &["stones=9"]);
    assert_eq!(report.record.games.len(), 2, "{}", report.text);
    let text = std::fs::read_to_string(&path).expect("the stderr file");
    // Every process's 200,000 bytes, whole: nothing dropped under the cap.
    assert!(
        !text.is_empty() && text.len().is_multiple_of(200_000),
        "{}",
        text.len()
    );
    assert!(text.bytes().all(|b| b == b'x'));
    assert_eq!(cap_notes(&text), 0);
    let _ = std::fs::remove_dir_all(&dir);
}
