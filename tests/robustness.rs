//! Regression tests for what the fuzzer (`fuzz/`) and the robustness work
//! found: each input here once hung or crashed the engine. Time bounds are
//! generous on purpose: they tell a session that ends from one that never
//! does, and never fail on a slow machine.

use std::io::{Cursor, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc::channel;
use std::time::Duration;

use tabula::engine::Engine;

/// Runs a session in process on `input`; the output, or `None` if it has
/// not ended within `within`.
fn session(input: &str, within: Duration) -> Option<String> {
    let (tx, rx) = channel();
    let input = input.as_bytes().to_vec();
    std::thread::spawn(move || {
        let mut out = Vec::new();
        let engine = Engine::new(3).expect("engine");
        tabula::protocol::run(Cursor::new(input), &mut out, engine);
        let _ = tx.send(out);
    });
    let out = rx.recv_timeout(within).ok()?;
    Some(String::from_utf8(out).expect("UTF-8 output"))
}

fn replies(out: &str) -> Vec<&str> {
    out.split("\n\n").filter(|r| !r.is_empty()).collect()
}

/// Found by the fuzzer: an `analyze` without a budget as the last line ran
/// forever once the input had ended (nothing could stop it).
#[test]
fn the_end_of_the_input_ends_an_analysis() {
    for game in ["othello", "hearts"] {
        let out = session(
            &format!("game {game} seed=1\nanalyze interval=10"),
            Duration::from_secs(60),
        )
        .unwrap_or_else(|| panic!("{game}: analyze still running after the input ended"));
        let r = replies(&out);
        assert_eq!(r.len(), 2, "{out:?}");
        let mut lines = r[1].lines();
        assert_eq!(lines.next(), Some("="), "{out:?}");
        assert!(lines.all(|l| l.starts_with("info move ")), "{out:?}");
        assert!(out.ends_with("\n\n"), "{out:?}");
    }
}

/// Found by review while writing the fuzz harness: the exact solver gets
/// only a time limit, so under an iteration or depth budget without a time
/// (`genmove iterations=5` with `search solve`, or `solve_reach 64` with an
/// iteration budget) an Othello genmove from the start never ended.
#[test]
fn an_iteration_or_depth_budget_ends_a_solving_genmove() {
    let input = "set search solve\n\
                 genmove iterations=5\n\
                 set search mcts\n\
                 set solve_reach 64\n\
                 set iterations 50\n\
                 genmove\n\
                 set search alphabeta\n\
                 genmove depth=2\n\
                 name\n";
    let out = session(input, Duration::from_secs(120)).expect("every genmove ends");
    let r = replies(&out);
    assert_eq!(r.len(), 9, "{out:?}");
    for at in [1, 5, 7] {
        let mv = r[at].strip_prefix("= ").expect("a move");
        assert_eq!(mv.len(), 2, "{out:?}");
    }
    assert_eq!(r[8], "= tabula");
}

/// Found by review: a transposition table larger than the system grants
/// (`set hash 65536` on a small machine, or under a memory limit) aborted
/// the process at the first alpha-beta genmove; it is now halved until it
/// fits. The engine runs under `ulimit -v` (300 MB of address space) and
/// asks for a 1 GiB table.
#[test]
fn a_table_too_large_to_allocate_is_made_smaller() {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 300000 && exec \"$0\" --seed 1")
        .arg(env!("CARGO_BIN_EXE_tabula"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh starts");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin
        .write_all(b"set search alphabeta\nset hash 1024\ngenmove depth=3\nname\nquit\n")
        .expect("engine reads");
    drop(stdin);
    let done = child.wait_with_output().expect("engine ends");
    let out = String::from_utf8_lossy(&done.stdout);
    assert!(
        done.status.success(),
        "{}: {out:?} {:?}",
        done.status,
        String::from_utf8_lossy(&done.stderr)
    );
    let r = replies(&out);
    assert_eq!(r.len(), 5, "{out:?}");
    assert!(r[2].starts_with("= ") && r[2].len() == 4, "{out:?}");
    assert_eq!(r[3], "= tabula");
}
