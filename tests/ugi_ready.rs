//! UGI's `isready` as UCI has it: `readyok` says that every command sent
//! before it has been processed, its effects applied; a running `go` is
//! not one to wait for, so that `isready` during a search is answered at
//! once, the search running on.
//!
//! Against the built binary; the time bounds are generous (a loaded
//! machine), and what they bound is seconds against a search of minutes.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

/// Longer than any answer takes on a loaded machine, far shorter than the
/// searches (depth 30, or infinite).
const LONG: Duration = Duration::from_secs(20);

struct Ugi {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Ugi {
    fn start() -> Ugi {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
            .args(["--seed", "1", "--protocol", "ugi"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("engine starts");
        let stdin = child.stdin.take().expect("stdin");
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
        let mut ugi = Ugi {
            child,
            stdin,
            lines,
        };
        ugi.send("ugi\nsetoption name search value alphabeta\n");
        ugi.until(|l| l == "ugiok");
        ugi
    }

    /// Writes `text` (whole lines) at once.
    fn send(&mut self, text: &str) {
        self.stdin.write_all(text.as_bytes()).expect("engine reads");
        self.stdin.flush().expect("flush");
    }

    /// The lines up to and including the first that `last` accepts.
    fn until(&self, last: impl Fn(&str) -> bool) -> Vec<String> {
        let mut got = Vec::new();
        loop {
            let Ok(line) = self.lines.recv_timeout(LONG) else {
                panic!("no such line within {LONG:?}; so far {got:?}");
            };
            let end = last(&line);
            got.push(line);
            if end {
                return got;
            }
        }
    }

    /// The answers of the lines that are not a search's `info`.
    fn answers(lines: &[String]) -> Vec<&str> {
        lines
            .iter()
            .map(String::as_str)
            .filter(|l| !l.starts_with("info "))
            .collect()
    }
}

impl Drop for Ugi {
    fn drop(&mut self) {
        let _ = self.stdin.write_all(b"quit\n");
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn isready_after_a_position_answers_once_the_position_is_set() {
    let mut e = Ugi::start();
    // Idle: in order, the position set before readyok.
    e.send("position startpos moves d3\nisready\nquery p1turn\n");
    let got = e.until(|l| l.starts_with("response "));
    assert_eq!(Ugi::answers(&got), ["readyok", "response false"]);
    // Mid-search: the position stops the search and is set after it;
    // readyok waits for it (it came after the position), so it follows
    // the search's bestmove, and what follows readyok sees the position.
    e.send("position startpos\ngo depth 30\n");
    std::thread::sleep(Duration::from_millis(100));
    e.send("position startpos moves d3 c5\nisready\nquery p1turn\n");
    let got = e.until(|l| l.starts_with("response "));
    assert_eq!(
        Ugi::answers(&got)
            .iter()
            .map(|l| l.split_whitespace().next().unwrap_or(""))
            .collect::<Vec<_>>(),
        ["bestmove", "readyok", "response"],
        "{got:?}"
    );
    assert_eq!(got.last().map(String::as_str), Some("response true"));
}

#[test]
fn isready_during_go_infinite_answers_at_once_and_stop_still_stops() {
    let mut e = Ugi::start();
    e.send("position startpos\ngo infinite\n");
    std::thread::sleep(Duration::from_millis(100));
    e.send("isready\n");
    let got = e.until(|l| l == "readyok");
    assert!(
        got.iter().all(|l| !l.starts_with("bestmove")),
        "isready leaves the search running: {got:?}"
    );
    e.send("stop\n");
    e.until(|l| l.starts_with("bestmove "));
    // Sent with the go, before the search starts: answered as the search
    // runs too.
    e.send("go infinite\nisready\n");
    let got = e.until(|l| l == "readyok");
    assert!(got.iter().all(|l| !l.starts_with("bestmove")), "{got:?}");
    e.send("stop\n");
    e.until(|l| l.starts_with("bestmove "));
}

#[test]
fn isready_kept_behind_a_stop_answers_after_it_and_ahead_of_the_next_search() {
    let mut e = Ugi::start();
    e.send("position startpos\ngo depth 30\n");
    std::thread::sleep(Duration::from_millis(100));
    // While the first search runs: it is stopped, a second one starts,
    // and isready (kept behind the stop) is answered as that one runs.
    e.send("stop\ngo infinite\nisready\n");
    let got = e.until(|l| l == "readyok");
    let bestmoves = got.iter().filter(|l| l.starts_with("bestmove ")).count();
    assert_eq!(bestmoves, 1, "the stopped search only: {got:?}");
    e.send("stop\n");
    e.until(|l| l.starts_with("bestmove "));
    e.send("isready\n");
    e.until(|l| l == "readyok");
}
