//! Clients at their own cadence, against the built binary: lines sent
//! while a search runs are read at once (NBoard's real sequence gets its
//! `pong` while a deep `go` runs), and the end of the input ends the
//! process within a second in every mode, mid-search included.
//!
//! The time bounds asserted are generous (a loaded machine); the figures
//! measured are printed (`--nocapture` shows them).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(Instant, String)>,
}

fn spawn(args: &[&str]) -> Engine {
    // Every test here times a search that runs: Othello's opening book,
    // on by default, would answer the first moves at once.
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .arg("--seed")
        .arg("1")
        .args(["--set", "book=off"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("engine starts");
    let stdin = child.stdin.take();
    let stdout = child.stdout.take().expect("stdout");
    let (tx, lines) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send((Instant::now(), line)).is_err() {
                break;
            }
        }
    });
    Engine {
        child,
        stdin,
        lines,
    }
}

impl Engine {
    /// Writes `text` (lines, each ending in a newline) at once; returns
    /// when it was written.
    fn send(&mut self, text: &str) -> Instant {
        let stdin = self.stdin.as_mut().expect("input open");
        stdin.write_all(text.as_bytes()).expect("engine reads");
        stdin.flush().expect("flush");
        Instant::now()
    }

    /// The lines up to and including the first that `last` accepts.
    fn until(&self, within: Duration, last: impl Fn(&str) -> bool) -> Vec<(Instant, String)> {
        let deadline = Instant::now() + within;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Ok((at, line)) = self.lines.recv_timeout(left) else {
                panic!("no such line within {within:?}; so far {got:?}");
            };
            let end = last(&line);
            got.push((at, line));
            if end {
                return got;
            }
        }
    }

    /// Waits until the engine has spent `cpu` of CPU time (its threads,
    /// from /proc), at most `within`.
    fn wait_for_cpu(&self, cpu: Duration, within: Duration) {
        let deadline = Instant::now() + within;
        loop {
            let spent = crate::common::process_cpu(self.child.id()).unwrap_or_default();
            if spent >= cpu {
                return;
            }
            assert!(Instant::now() < deadline, "the engine spent no CPU");
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Closes the input and waits for the process to end: how long it
    /// took.
    fn close_and_wait(mut self, within: Duration) -> Duration {
        drop(self.stdin.take());
        let closed = Instant::now();
        loop {
            if self.child.try_wait().expect("wait").is_some() {
                return closed.elapsed();
            }
            if closed.elapsed() > within {
                let _ = self.child.kill();
                let _ = self.child.wait();
                panic!("the engine ran on {within:?} after its input ended");
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

const START: &str =
    "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *];)";
const LATER: &str = "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[E6]W[F4];)";

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[i]
}

#[test]
fn nboard_s_real_sequence_during_a_deep_go_gets_its_pong_at_once() {
    let mut e = spawn(&["--protocol", "nboard"]);
    e.send("nboard 2\n");
    let tries = 100;
    let mut waits = Vec::new();
    for k in 1..=tries {
        // A go at depth 25 from the start runs for minutes.
        e.send(&format!("set game {START}\nset depth 25\ngo\n"));
        e.until(LONG, |l| l == "status tabula is thinking");
        std::thread::sleep(Duration::from_millis(20));
        // What NBoard sends when the person steps or moves: the state,
        // the depth, a ping, the request.
        let state = if k % 2 == 0 {
            format!("set game {LATER}")
        } else {
            "move F5".to_string()
        };
        let sent = e.send(&format!("{state}\nset depth 4\nping {k}\nhint 2\n"));
        let pong = format!("pong {k}");
        let before = e.until(LONG, |l| l == pong);
        let (at, _) = before.last().expect("the pong");
        waits.push(at.saturating_duration_since(sent));
        assert!(
            before.iter().all(|(_, l)| !l.starts_with("===")),
            "a go superseded by a new state answers no move: {before:?}"
        );
        // The hint runs to its end (two lines, then the closing status).
        let hint = e.until(LONG, |l| l == "status");
        let lines = hint
            .iter()
            .filter(|(_, l)| l.starts_with("search "))
            .count();
        assert_eq!(lines, 2, "{hint:?}");
    }
    waits.sort();
    let (p50, p99, max) = (
        percentile(&waits, 0.5),
        percentile(&waits, 0.99),
        waits[waits.len() - 1],
    );
    eprintln!(
        "nboard pong during a depth-25 go, {tries} tries: p50 {p50:?} p99 {p99:?} max {max:?}"
    );
    // A reader left behind the search would wait minutes.
    assert!(max < Duration::from_secs(2), "p99 {p99:?}, max {max:?}");
    e.send("quit\n");
}

#[test]
fn ugi_isready_is_answered_during_a_search_and_stop_after_it_still_stops() {
    let mut e = spawn(&["--protocol", "ugi"]);
    e.send("ugi\nsetoption name search value alphabeta\nposition startpos\ngo depth 30\n");
    e.until(LONG, |l| l == "ugiok");
    std::thread::sleep(Duration::from_millis(50));
    let sent = e.send("isready\n");
    let got = e.until(LONG, |l| l == "readyok");
    let took = got
        .last()
        .expect("readyok")
        .0
        .saturating_duration_since(sent);
    assert!(
        got.iter().all(|(_, l)| !l.starts_with("bestmove")),
        "isready leaves the search running: {got:?}"
    );
    eprintln!("ugi readyok during a depth-30 go: {took:?}");
    assert!(took < crate::common::quiet_bound(2000), "{took:?}");
    e.send("stop\n");
    e.until(LONG, |l| l.starts_with("bestmove "));
    // A new position sent mid-search stops it; the go is still answered.
    e.send("go depth 30\n");
    std::thread::sleep(Duration::from_millis(50));
    let sent = e.send("position startpos moves d3\n");
    let got = e.until(LONG, |l| l.starts_with("bestmove "));
    let took = got
        .last()
        .expect("bestmove")
        .0
        .saturating_duration_since(sent);
    assert!(took < crate::common::quiet_bound(2000), "{took:?}");
    e.send("query p1turn\n");
    e.until(LONG, |l| l == "response false");
    e.send("quit\n");
}

#[test]
fn the_end_of_the_input_ends_the_process_within_a_second_mid_search() {
    // Each mode, a search that would run for minutes, then the input ends.
    let modes: [(&str, &[&str], &str, &str); 4] = [
        ("gtp", &[], "set search alphabeta\ngenmove depth=30\n", ""),
        (
            "nboard",
            &["--protocol", "nboard"],
            "nboard 2\nset depth 30\ngo\n",
            "status tabula is thinking",
        ),
        (
            "ugi",
            &["--protocol", "ugi"],
            "ugi\nposition startpos\ngo infinite\n",
            "ugiok",
        ),
        (
            "human seat",
            &[],
            "set movetime 120000\ngame othello human=white\n",
            "",
        ),
    ];
    for (name, args, input, started) in modes {
        let mut e = spawn(args);
        e.send(input);
        if !started.is_empty() {
            e.until(LONG, |l| l == started);
        }
        // The search is under way once it has spent CPU: on a loaded
        // machine the engine may not have read its input yet after any
        // fixed wait, and an end of input read together with the command
        // is an end sent with it (`echo genmove | tabula` answers first).
        e.wait_for_cpu(Duration::from_millis(400), LONG);
        std::thread::sleep(Duration::from_millis(100));
        let took = e.close_and_wait(Duration::from_secs(10));
        eprintln!("{name}: ended {took:?} after its input");
        assert!(took < crate::common::quiet_bound(1000), "{name}: {took:?}");
    }
}

#[test]
fn gtp_undo_while_genmove_runs_stops_it_and_lines_sent_ahead_wait() {
    let mut e = spawn(&[]);
    // Sent ahead of the search: the genmove runs to its depth first.
    e.send("set search alphabeta\ngenmove depth=5\nundo\nname\n");
    let got = e.until(LONG, |l| l == "= tabula");
    assert!(got.iter().all(|(_, l)| !l.starts_with('?')), "{got:?}");
    let searched = Instant::now();
    // Arriving mid-search: `undo` stops it; the genmove answers its best
    // move so far (played), then the undo takes it back.
    e.send("genmove depth=30\n");
    std::thread::sleep(Duration::from_millis(300));
    let sent = e.send("undo\nhistory\n");
    let got = e.until(LONG, |l| l == "= ");
    let took = got
        .last()
        .expect("the undo")
        .0
        .saturating_duration_since(sent);
    assert!(
        got.iter().any(|(_, l)| l.starts_with("= ") && l.len() > 2),
        "the genmove is answered: {got:?}"
    );
    assert!(
        took < crate::common::quiet_bound(2000),
        "{took:?} ({:?})",
        searched.elapsed()
    );
    e.send("quit\n");
}

const LONG: Duration = Duration::from_secs(60);

#[test]
fn nboard_s_ping_is_answered_ahead_and_the_search_it_stops_says_nothing_after_it() {
    let mut e = spawn(&["--protocol", "nboard"]);
    e.send(&format!("nboard 2\nset game {START}\nset depth 25\ngo\n"));
    e.until(LONG, |l| l == "status tabula is thinking");
    std::thread::sleep(Duration::from_millis(100));
    // The ping alone: the go is stopped and answered nothing (NBoard
    // would read a move after the pong as the answer to its new state);
    // the status that closes the go's comes just before the pong.
    e.send("ping 1\n");
    let got = e.until(LONG, |l| l == "pong 1");
    assert_eq!(got[got.len() - 2].1, "status", "{got:?}");
    assert!(got.iter().all(|(_, l)| !l.starts_with("===")), "{got:?}");
    // Nothing of the go follows: the next line is the name's reply.
    e.send("set depth 3\n");
    let next = e.until(LONG, |_| true);
    assert_eq!(next[0].1, "set myname tabula3", "{next:?}");
    e.send("quit\n");
}
