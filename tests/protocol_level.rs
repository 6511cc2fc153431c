//! NBoard's depth as a level with a bound (issue 48, item 4): `set depth
//! 20` then `go`, and `hint 4`, from 50 midgame positions (49 of the
//! 8-ply openings played on 12 plies by a fixed rule, and the one that
//! took 92.8 M nodes and 14 s), each answered within 3 s of the engine's
//! CPU, and `hint 4` within four times `go` (medians). The CPU is the
//! engine process's own (`/proc/<pid>/stat`), from the `pong` before the
//! request to its answer, so the load of the machine does not count.
//!
//! A benchmark, not a check of every build: `#[ignore]`d, and meant for a
//! release build (`cargo test --release -q protocol_level -- --ignored
//! --nocapture` prints the figures); the bound is asserted.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Duration;

use tabula::games::othello::Othello;
use tabula::model::game::{Game, Turn};
use tabula::model::options::Options;

/// The position of the issue: 14 s and 92.8 M nodes at depth 20.
const HARD: &str = "f5 d6 c6 b6 d3 d2 b7 g6 e6 c5 f4 f6 c7 d7 e3 g3 c3 f3 c4 b5";

/// The CPU bound of one answer at depth 20.
const BOUND: Duration = Duration::from_secs(3);

/// The game of `moves` (texts from the start) as NBoard's GGF.
fn ggf(moves: &[String]) -> String {
    let mut state = Othello::new_game(&Options::default()).expect("othello");
    let mut text = String::from(
        "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]",
    );
    for mv in moves {
        let Turn::Player(seat) = state.turn() else {
            panic!("game over before {mv}")
        };
        let m = state.parse_move(mv).expect("a move");
        let word = if mv == "pass" {
            "PA".to_string()
        } else {
            mv.to_ascii_uppercase()
        };
        text.push_str(&format!("{}[{word}]", if seat == 0 { "B" } else { "W" }));
        state.apply(m);
    }
    text.push_str(";)");
    text
}

/// 49 of the 8-ply openings, each played on 12 plies by a fixed rule (the
/// k-th legal move, k from the line's number and the ply), and [`HARD`].
fn positions() -> Vec<Vec<String>> {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/openings/othello-8ply.txt");
    let text = std::fs::read_to_string(file).expect("openings");
    let mut out: Vec<Vec<String>> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .take(49)
        .enumerate()
        .map(|(i, line)| {
            let mut moves: Vec<String> = line.split_whitespace().map(str::to_string).collect();
            let mut state = Othello::new_game(&Options::default()).expect("othello");
            for mv in &moves {
                let m = state.parse_move(mv).expect("an opening move");
                state.apply(m);
            }
            let mut legal = Vec::new();
            for ply in 0..12 {
                if state.turn() == Turn::Over {
                    break;
                }
                state.legal_moves(&mut legal);
                let m = legal[(i * 7 + ply * 3) % legal.len()];
                moves.push(state.move_text(m));
                state.apply(m);
            }
            moves
        })
        .collect();
    out.push(HARD.split_whitespace().map(str::to_string).collect());
    out
}

struct Nboard {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Nboard {
    fn start() -> Nboard {
        // TABULA_BIN: a release binary when the test build is not one.
        let exe = std::env::var("TABULA_BIN")
            .unwrap_or_else(|_| env!("CARGO_BIN_EXE_tabula").to_string());
        let mut child = Command::new(exe)
            .args(["--seed", "1", "--protocol", "nboard"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("engine starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        Nboard {
            child,
            stdin,
            stdout,
        }
    }

    fn send(&mut self, text: &str) {
        self.stdin.write_all(text.as_bytes()).expect("engine reads");
        self.stdin.flush().expect("flush");
    }

    /// The lines up to the first that `last` accepts.
    fn until(&mut self, last: impl Fn(&str) -> bool) -> Vec<String> {
        let mut got = Vec::new();
        loop {
            let mut line = String::new();
            let n = self.stdout.read_line(&mut line).expect("engine writes");
            assert!(n > 0, "the engine ended; so far {got:?}");
            let line = line.trim_end().to_string();
            let end = last(&line);
            got.push(line);
            if end {
                return got;
            }
        }
    }

    /// The CPU time the engine process has used (user and system).
    fn cpu(&self) -> Duration {
        crate::common::process_cpu(self.child.id()).expect("/proc/<pid>/stat (Linux)")
    }

    /// The CPU the engine spends answering `request` in `game` at depth
    /// 20 (from the pong before it to the `status` after its answer), and
    /// its lines.
    fn measure(&mut self, game: &str, request: &str, ping: u32) -> (Duration, Vec<String>) {
        self.send(&format!("set game {game}\nping {ping}\n"));
        let pong = format!("pong {ping}");
        self.until(|l| l == pong);
        let before = self.cpu();
        self.send(&format!("{request}\n"));
        self.until(|l| l == "status tabula is thinking");
        let lines = self.until(|l| l == "status");
        (self.cpu().saturating_sub(before), lines)
    }
}

impl Drop for Nboard {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn median(v: &[Duration]) -> Duration {
    let mut v = v.to_vec();
    v.sort();
    v[v.len() / 2]
}

#[test]
#[ignore = "a benchmark of 50 depth-20 searches: run it on a release build"]
fn depth_20_answers_within_3_s_of_cpu_from_50_midgame_positions() {
    let mut engine = Nboard::start();
    engine.send("nboard 2\nset depth 20\n");
    engine.until(|l| l == "set myname tabula20");
    let (mut go, mut hint) = (Vec::new(), Vec::new());
    for (i, moves) in positions().iter().enumerate() {
        let game = ggf(moves);
        let (cpu_go, lines) = engine.measure(&game, "go", 2 * i as u32 + 1);
        assert!(lines.iter().any(|l| l.starts_with("=== ")), "{lines:?}");
        let (cpu_hint, lines) = engine.measure(&game, "hint 4", 2 * i as u32 + 2);
        let searched = lines.iter().filter(|l| l.starts_with("search ")).count();
        assert!(searched >= 1, "{lines:?}");
        eprintln!(
            "position {i:2} ({}): go {:.2} s, hint 4 {:.2} s of CPU; {}",
            moves.join(" "),
            cpu_go.as_secs_f64(),
            cpu_hint.as_secs_f64(),
            lines
                .iter()
                .find(|l| l.starts_with("search "))
                .map_or("", String::as_str)
        );
        go.push(cpu_go);
        hint.push(cpu_hint);
    }
    let max = |v: &[Duration]| v.iter().max().copied().unwrap_or_default();
    eprintln!(
        "depth 20, {} positions: go median {:.2} s max {:.2} s; hint 4 median {:.2} s max {:.2} s (CPU)",
        go.len(),
        median(&go).as_secs_f64(),
        max(&go).as_secs_f64(),
        median(&hint).as_secs_f64(),
        max(&hint).as_secs_f64()
    );
    assert!(max(&go) < BOUND, "go: max {:?}", max(&go));
    assert!(max(&hint) < BOUND, "hint 4: max {:?}", max(&hint));
    assert!(
        median(&hint) <= median(&go) * 4,
        "hint 4 median {:?} against go's {:?}",
        median(&hint),
        median(&go)
    );
}
