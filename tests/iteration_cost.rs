//! An iteration budget ends in time proportional to its iterations on
//! every board and option (docs/tools-safety.md): a heuristic playout's
//! choices are capped in work (`search::playout::PLAYOUT_LOOKS`), so one
//! iteration costs at most some tenths of a second even on Quoridor 11x11
//! with 100 walls a player and depth-2 look-ahead. Before the cap, the
//! first two cases below took 43-50 s and 42-47 s. The bounds leave a
//! loaded machine many times the time these take on an idle one (0.2-2 s).

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

/// Sends `setup` to a fresh engine (each line must be accepted), then
/// `genmove`; returns the time from sending `genmove` to its reply,
/// failing the test past `limit`.
fn genmove_time(setup: &[&str], genmove: &str, limit: Duration) -> Duration {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["--seed", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("engine starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, lines) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let reply = |within: Duration| -> Option<Vec<String>> {
        let deadline = Instant::now() + within;
        let mut out = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match lines.recv_timeout(left) {
                Ok(line) if line.is_empty() => return Some(out),
                Ok(line) => out.push(line),
                Err(_) => return None,
            }
        }
    };
    for line in setup {
        writeln!(stdin, "{line}").expect("engine reads");
        stdin.flush().expect("flush");
        let r = reply(Duration::from_secs(30)).expect("a reply");
        assert!(r[0].starts_with('='), "{line}: {r:?}");
    }
    let started = Instant::now();
    writeln!(stdin, "{genmove}").expect("engine reads");
    stdin.flush().expect("flush");
    let r = reply(limit);
    let spent = started.elapsed();
    let _ = child.kill();
    let _ = child.wait();
    let r = r.unwrap_or_else(|| panic!("{setup:?} {genmove}: no move within {limit:?}"));
    assert!(r[0].starts_with("= "), "{genmove}: {r:?}");
    spent
}

#[test]
fn quoridor_11x11_with_100_walls_and_depth_2_playouts_is_quick() {
    for search in ["rucb1", "mcts"] {
        let spent = genmove_time(
            &[
                "game quoridor size=11 walls=100",
                &format!("set search {search}"),
                "set playout heuristic",
                "set playout_depth 2",
            ],
            "genmove iterations=3",
            Duration::from_secs(30),
        );
        eprintln!("{search}: {spent:?}");
    }
}

#[test]
fn four_player_quoridor_ucb1_with_depth_2_playouts_is_quick() {
    genmove_time(
        &[
            "game quoridor players=4",
            "set search ucb1",
            "set playout heuristic",
            "set playout_depth 2",
        ],
        "genmove iterations=200",
        Duration::from_secs(30),
    );
}

#[test]
fn a_greedy_playout_without_a_ply_limit_to_speak_of_is_bounded_too() {
    // Every move by look-ahead, and a game that may run 100,000 plies:
    // past its work the playout goes on with random moves.
    genmove_time(
        &[
            "game quoridor size=11 walls=100 max_plies=100000",
            "set search mcts",
            "set playout heuristic",
            "set greedy 1",
            "set playout_depth 2",
        ],
        "genmove iterations=10",
        Duration::from_secs(30),
    );
}
